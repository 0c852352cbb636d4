"""A player's record: their games, one line each, and their statistics.

How the figures are counted (the My games page says the same):
- A game counts once a card was taken or drawn in it; a deal dealt and never touched does not.
- Played: finished games, that is won, dead ended or left for another deal. A game still in
  progress (on the table, or set aside at login) is not played yet.
- Won: games won. Win rate: won / played.
- Best time: the shortest clock time of a won game. Longest run: the longest run of any game.
- Streaks: played games in the order they finished; a win adds one, a dead end or a left game
  ends the streak. The current streak is the one still going; the best is the longest ever.
"""

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime

from django.db.models import Count, Max, Min, Q
from django.db.models.functions import Coalesce

from game.display import clock
from game.models import Game

Status = Game.Status
RESULTS = {
    Status.WON: "Won",
    Status.DEAD_END: "Dead end",
    Status.LEFT: "Left",
    Status.PLAYING: "Unfinished",
}


@dataclass
class Statistics:
    played: int
    won: int
    best_time_ms: int | None
    longest_run: int
    current_streak: int
    best_streak: int

    @property
    def win_rate(self) -> float | None:
        return self.won / self.played if self.played else None

    @property
    def best_time(self) -> str | None:
        return clock(self.best_time_ms)


@dataclass
class Line:
    """One game of the history, as the page shows it."""

    game_id: int
    deal: str
    result: str
    cleared: int
    longest_run: int
    time: str
    moves: int
    started_at: datetime
    last_played: datetime
    on_table: bool
    resumable: bool


def counted(user):
    """The user's games that are part of their record."""
    return user.games.filter(move_count__gt=0)


def statistics(user) -> Statistics:
    figures = counted(user).aggregate(
        played=Count("pk", filter=Q(status__in=Game.PLAYED)),
        won=Count("pk", filter=Q(status=Status.WON)),
        best_time_ms=Min("active_ms", filter=Q(status=Status.WON)),
        longest_run=Coalesce(Max("longest_run"), 0),
    )
    # A finished game with no finish time (one made outside play) sorts by its start.
    finish = Coalesce("finished_at", "started_at")
    results = (
        counted(user)
        .filter(status__in=Game.PLAYED)
        .order_by(finish, "pk")
        .values_list("status", flat=True)
    )
    current, best = streaks(status == Status.WON for status in results)
    return Statistics(**figures, current_streak=current, best_streak=best)


def streaks(wins: Iterable[bool]) -> tuple[int, int]:
    """The winning streak still going at the end, and the longest one, of results in order."""
    current = best = 0
    for won in wins:
        current = current + 1 if won else 0
        best = max(best, current)
    return current, best


def history(user):
    """The user's counted games, newest first, with their deals."""
    return counted(user).select_related("deal").order_by("-started_at", "-pk")


def line(game: Game, table_id: int | None) -> Line:
    on_table = game.pk == table_id
    return Line(
        game_id=game.pk,
        deal=game.deal.identifier,
        result=RESULTS[game.status],
        cleared=game.cleared,
        longest_run=game.longest_run,
        time=clock(game.elapsed_ms()),
        moves=game.move_count,
        started_at=game.started_at,
        last_played=game.updated_at,
        on_table=on_table,
        resumable=game.status == Status.PLAYING and not on_table,
    )
