"""Whose games a request may touch: the logged-in player's, else those of the anonymous session."""

from dataclasses import dataclass

from django.db.models import QuerySet

from game.models import Game


@dataclass(frozen=True)
class Owner:
    """A player: an account (`user_id`), or an anonymous browser session (`session_key`)."""

    user_id: int | None = None
    session_key: str = ""

    @classmethod
    def of(cls, request) -> "Owner":
        if request.user.is_authenticated:
            return cls(user_id=request.user.pk)
        if request.session.session_key is None:
            # An anonymous player's games are reached only through their session: it must exist.
            request.session.save()
        return cls(session_key=request.session.session_key)

    @classmethod
    def of_user(cls, user) -> "Owner":
        return cls(user_id=user.pk)

    @property
    def fields(self) -> dict:
        """The game columns that name this owner, for a new game."""
        return {"owner_id": self.user_id, "session_key": "" if self.user_id else self.session_key}

    def games(self) -> QuerySet[Game]:
        if self.user_id is not None:
            return Game.objects.filter(owner_id=self.user_id)
        return Game.objects.filter(owner=None, session_key=self.session_key)
