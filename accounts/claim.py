"""Logging in keeps the deal on the table: the anonymous session's games become the account's,
and the choice of winnable deals made without it becomes the account's choice.

When both the session and the account have a deal in progress, the player chooses which to
continue. Until they do, the session's deal stays on the table (it is the one they were just
playing); the account's stays unfinished in their history, where either can be taken up again.
A game on one side not yet over when the other side saw its deal whole (its analysis read)
becomes practice, as it would have on one device; a scored hand among them ends there, left,
keeping what it had made (play.make_practice). Nothing else is marked left or lost by logging in.
"""

from datetime import datetime

from django.contrib.auth import login
from django.db import transaction
from django.db.models import F, Min, Q
from django.db.models.functions import Coalesce

from game import play, preferences
from game.models import Game
from game.owners import Owner

CHOICE = "claim_choice"
"""Session key: the two games to choose between, (this device's, the account's)."""

MODEL_BACKEND = "django.contrib.auth.backends.ModelBackend"
"""The backend that logs people in; axes' backend before it only refuses locked-out ones."""


def in_progress(game: Game | None) -> bool:
    """A deal worth keeping on the table: still playing and moved in. A deal dealt on opening `/`
    and never touched is no reason to ask the player anything."""
    return game is not None and game.status == Game.Status.PLAYING and game.move_count > 0


def log_in(request, user) -> bool:
    """Log the user in (a new session key: login cycles it) and give them the games played in
    the anonymous session. True when the player must choose which deal to continue."""
    anonymous_key = request.session.session_key
    login(request, user, backend=MODEL_BACKEND)
    preferences.keep_on_account(request)
    if anonymous_key is None:
        return False
    with transaction.atomic():
        here = play.current_game(Owner(session_key=anonymous_key))
        if here is None:
            return False
        theirs = play.current_game(Owner.of_user(user))
        anonymous = Game.objects.filter(owner=None, session_key=anonymous_key)
        # What one side has seen whole, the other may have played knowing: practice, as a game
        # in play when its player reads the deal's analysis is (play._known_from_now_on).
        account = user.games.all()
        seen_by_account, seen_here = _seen_whole_since(account), _seen_whole_since(anonymous)
        _practice_since(seen_by_account, anonymous)
        _practice_since(seen_here, account)
        _one_record_a_day(anonymous, account)
        # A write of the games like any other (their revision bumped), so a tap on one of them
        # read before the claim cannot write it back to the anonymous session.
        anonymous.update(owner=user, session_key="", revision=F("revision") + 1)
        # As they now stand: a scored hand seen whole on the other side has just ended.
        here.refresh_from_db()
        if theirs is not None:
            theirs.refresh_from_db()
        both = in_progress(here) and in_progress(theirs)
        # The table becomes the deal being played here, else stays the account's own.
        table = here if in_progress(here) or theirs is None else theirs
        play.continue_game(Owner.of_user(user), table.pk)
    if both:
        request.session[CHOICE] = [here.pk, theirs.pk]
    return both


def _seen_whole_since(games) -> dict[int, datetime]:
    """For each deal that some of `games` show whole, when their player first saw it so (for a
    game revealed before that was recorded, its end: the earliest it can have been)."""
    revealed = games.filter(revealed=True).values("deal")
    firsts = revealed.annotate(since=Min(Coalesce("revealed_at", "finished_at")))
    return {first["deal"]: first["since"] for first in firsts}


def _practice_since(seen: dict[int, datetime], games) -> None:
    """The games of those deals not over by the moment they were seen whole are practice (see
    play.make_practice). One over before was played as it was, unknowing."""
    for deal in seen.keys() & set(games.values_list("deal", flat=True)):
        not_over = Q(finished_at__isnull=True) | Q(finished_at__gt=seen[deal])
        play.make_practice(games.filter(not_over, deal=deal), seen[deal])


def _one_record_a_day(here, account) -> None:
    """A day with a record of its daily deal on both sides keeps one: the one further on (played
    for real, finished, moved in, in that order), the account's if neither is. The other becomes
    an unrecorded play of the deal. A record begun by opening /daily and never moved in gives way
    to a hand played on, and a hand still to be finished (in play, or left: /daily takes it up
    again) to one won or at a dead end, which leaves nothing to rehearse."""
    for record in here.filter(daily__isnull=False):
        theirs = account.filter(daily=record.daily).first()
        if theirs is None:
            continue
        unrecorded = record if _further_on(theirs) >= _further_on(record) else theirs
        Game.objects.filter(pk=unrecorded.pk).update(daily=None, revision=F("revision") + 1)


def _further_on(record: Game) -> tuple[bool, bool, bool]:
    finished = record.status in (Game.Status.WON, Game.Status.DEAD_END)
    return not record.practice, finished, record.move_count > 0


def choice(request) -> list[Game]:
    """The games still waiting to be chosen between, this device's first; empty once one was."""
    ids = request.session.get(CHOICE, [])
    games = Game.objects.filter(pk__in=ids, owner=request.user, status=Game.Status.PLAYING)
    found = {game.pk: game for game in games.select_related("deal")}
    return [found[pk] for pk in ids if pk in found] if len(found) == 2 else []


def chosen(request) -> None:
    request.session.pop(CHOICE, None)
