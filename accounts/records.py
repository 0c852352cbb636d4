"""A player's record: their games, one line each, and their statistics.

How the figures are counted (the My games page says the same):
- A game counts once a card was taken or drawn in it; a deal dealt and never touched does not,
  nor a practice game (Try again from an analysis, every card known), though the history lists it.
- Played: finished games, that is won, dead ended or left for another deal. A game still in
  progress (on the table, or set aside at login) is not played yet.
- Won: games won. Win rate: won / played.
- Best time: the shortest clock time of a won game. Longest run: the longest run of any game.
- Streaks: played games in the order they finished; a win adds one, a dead end or a left game
  ends the streak. The current streak is the one still going; the best is the longest ever.
- Each rule set has figures of its own, counted the same way; the standard game comes first.
- A scoring system's bank is the sum of every hand the player has in it, the current one
  included (as the table shows it); the best hands are the three highest finished ones.
- Winnable deals: the distinct deals and rule sets of the played games whose solver verdict is
  stored; one not yet decided is left out (the solver is not run for this page).
- The daily streak: UTC days with the daily deal cleared, one after another, where a single
  missed day is forgiven and two end it; it is still going while today or one of the two days
  before it was cleared.
"""

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import date, datetime
from statistics import median

from django.db.models import Count, Max, Min, OuterRef, Q, Subquery, Sum
from django.db.models.functions import Coalesce
from django.utils import timezone

from game import play
from game.display import clock
from game.engine.rules import STANDARD_NAME
from game.models import Deal, Game, Verdict
from game.stats import played_games, ratio

Status = Game.Status
Scoring = Game.Scoring
RESULTS = {
    Status.WON: "Won",
    Status.DEAD_END: "Dead end",
    Status.LEFT: "Left",
    Status.PLAYING: "Unfinished",
}
BEST_HANDS = 3
DAILY_SHOWN = 14
"""Daily results on the page, newest first."""
GRACE_DAYS = 1


@dataclass
class Statistics:
    played: int
    won: int
    best_time_ms: int | None
    longest_run: int
    current_streak: int
    best_streak: int
    rules: str = STANDARD_NAME

    @property
    def win_rate(self) -> float | None:
        return ratio(self.won, self.played)

    @property
    def best_time(self) -> str | None:
        return clock(self.best_time_ms)


@dataclass
class Hand:
    """One scored hand among the best."""

    score: int
    deal: str
    rules: str
    finished_at: datetime


@dataclass
class ScoredPlay:
    scoring: str
    label: str
    bank: int
    best: list[Hand]


@dataclass
class Winnable:
    """The player's distinct deals (under each game's rule set) and how many the solver proved
    winnable; `undecided` are those the solver has not decided yet."""

    deals: int
    winnable: int
    undecided: int
    played_on_winnable: int
    won_on_winnable: int

    @property
    def decided(self) -> int:
        return self.deals - self.undecided

    @property
    def win_rate(self) -> float | None:
        if not self.played_on_winnable:
            return None
        return self.won_on_winnable / self.played_on_winnable


@dataclass
class DailyLine:
    day: date
    result: str
    cleared: int
    time: str
    everyone: dict

    @property
    def everyone_median(self) -> str | None:
        return clock(self.everyone["median_ms"])


@dataclass
class Daily:
    current_streak: int
    best_streak: int
    lines: list[DailyLine]
    today: str | None
    """The one-line summary of today's daily deal once it is cleared."""


@dataclass
class Record:
    """Everything the My games page shows above the history."""

    overall: Statistics
    by_rules: list[Statistics]
    scored: list[ScoredPlay]
    winnable: Winnable
    daily: Daily


@dataclass
class Line:
    """One game of the history, as the page shows it."""

    game_id: int
    deal: str
    deal_is_code: bool
    rules: str
    scoring: str | None
    score: int | None
    result: str
    cleared: int
    longest_run: int
    time: str
    moves: int
    started_at: datetime
    last_played: datetime
    on_table: bool
    resumable: bool
    over: bool
    replayable: bool


def counted(user):
    """The user's games that are part of their record: each with a move, and no practice."""
    return with_a_move(user).filter(practice=False)


def with_a_move(user):
    return user.games.filter(move_count__gt=0)


def statistics(user) -> Record:
    by_rules = [figures_of(counted(user).filter(rules=name), name) for name in rule_sets(user)]
    return Record(
        overall=figures_of(counted(user), STANDARD_NAME),
        by_rules=by_rules,
        scored=scored_play(user),
        winnable=winnable(user),
        daily=daily(user),
    )


def rule_sets(user) -> list[str]:
    """The rule sets the user has played, the standard game first, the rest by name."""
    names = set(counted(user).filter(status__in=Game.PLAYED).values_list("rules", flat=True))
    return sorted(names, key=lambda name: (name != STANDARD_NAME, name))


def figures_of(games, rules: str) -> Statistics:
    figures = games.aggregate(
        played=Count("pk", filter=Q(status__in=Game.PLAYED)),
        won=Count("pk", filter=Q(status=Status.WON)),
        best_time_ms=Min("active_ms", filter=Q(status=Status.WON)),
        longest_run=Coalesce(Max("longest_run"), 0),
    )
    # A finished game with no finish time (one made outside play) sorts by its start.
    finish = Coalesce("finished_at", "started_at")
    results = (
        games.filter(status__in=Game.PLAYED).order_by(finish, "pk").values_list("status", flat=True)
    )
    current, best = streaks(status == Status.WON for status in results)
    return Statistics(**figures, current_streak=current, best_streak=best, rules=rules)


def streaks(wins: Iterable[bool]) -> tuple[int, int]:
    """The winning streak still going at the end, and the longest one, of results in order."""
    current = best = 0
    for won in wins:
        current = current + 1 if won else 0
        best = max(best, current)
    return current, best


def scored_play(user) -> list[ScoredPlay]:
    """Each scoring system the user has a hand in: the bank and the best finished hands."""
    banks = dict(
        user.games.exclude(scoring=Scoring.NONE)
        .values_list("scoring")
        .annotate(bank=Sum("score"))
        .values_list("scoring", "bank")
    )
    found = []
    for scoring, label in Scoring.choices:
        if scoring not in banks:
            continue
        best = (
            counted(user)
            .filter(scoring=scoring, status__in=Game.PLAYED)
            .select_related("deal")
            .order_by("-score", Coalesce("finished_at", "started_at"), "pk")[:BEST_HANDS]
        )
        hands = [
            Hand(game.score, game.identifier, game.rules, game.finished_at or game.started_at)
            for game in best
        ]
        found.append(ScoredPlay(scoring, label, banks[scoring], hands))
    return found


def winnable(user) -> Winnable:
    verdict = Verdict.objects.filter(deal=OuterRef("deal"), rules=OuterRef("rules"))
    games = counted(user).filter(status__in=Game.PLAYED)
    rows = games.annotate(verdict=Subquery(verdict.values("result")[:1])).values_list(
        "deal", "rules", "status", "verdict"
    )
    verdicts, played, won = {}, 0, 0
    for deal, rules, status, result in rows:
        verdicts[deal, rules] = result
        if result == Deal.Verdict.WINNABLE:
            played += 1
            won += status == Status.WON
    results = list(verdicts.values())
    return Winnable(
        deals=len(results),
        winnable=results.count(Deal.Verdict.WINNABLE),
        # Without a verdict yet, or with one the solver ran out of budget on: not decided.
        undecided=results.count(None) + results.count(Deal.Verdict.UNKNOWN),
        played_on_winnable=played,
        won_on_winnable=won,
    )


def daily(user, today: date | None = None) -> Daily:
    today = today or timezone.now().date()
    games = counted(user).filter(daily__isnull=False).order_by("-daily")
    cleared = sorted(games.filter(status=Status.WON).values_list("daily", flat=True))
    current, best = daily_streaks(cleared, today)
    shown = list(games[:DAILY_SHOWN])
    everyone = everyones_results([game.daily for game in shown])
    lines = [
        DailyLine(
            day=game.daily,
            result=RESULTS[game.status],
            cleared=game.cleared,
            time=clock(game.elapsed_ms()),
            everyone=everyone[game.daily],
        )
        for game in shown
    ]
    todays = next((game for game in games[:1] if game.daily == today), None)
    summary = None
    if todays is not None and todays.status == Status.WON:
        summary = (
            f"Today's deal: {todays.cleared}/28 in {clock(todays.elapsed_ms())}, "
            f"longest run {todays.longest_run}, {todays.undo_count} "
            + ("undo" if todays.undo_count == 1 else "undos")
        )
    return Daily(current, best, lines, summary)


def everyones_results(days: list[date]) -> dict[date, dict]:
    """game.play.daily_results of each of the days, read in one query: the daily records have no
    index of their own, so each day asked for alone reads the whole games table."""
    finished = played_games().filter(daily__in=days)
    played = {day: 0 for day in days}
    won_ms = {day: [] for day in days}
    for day, status, active_ms in finished.values_list("daily", "status", "active_ms"):
        played[day] += 1
        if status == Status.WON:
            won_ms[day].append(active_ms)
    return {
        day: {
            "played": played[day],
            "cleared_share": len(won_ms[day]) / played[day] if played[day] else None,
            "median_ms": median(won_ms[day]) if won_ms[day] else None,
        }
        for day in days
    }


def daily_streaks(cleared: list[date], today: date) -> tuple[int, int]:
    """The daily streak still going today and the longest one, of the days cleared in order:
    a gap of one missed day keeps a streak, two missed days end it."""
    longest = current = 0
    previous = None
    for day in cleared:
        gap = (day - previous).days - 1 if previous else 0
        current = current + 1 if gap <= GRACE_DAYS else 1
        longest = max(longest, current)
        previous = day
    if previous is None or (today - previous).days - 1 > GRACE_DAYS:
        current = 0
    return current, longest


def history(user):
    """The user's games with a move, practice ones too, newest first, with their deals."""
    return with_a_move(user).select_related("deal").order_by("-started_at", "-pk")


def line(game: Game, table_id: int | None) -> Line:
    on_table = game.pk == table_id
    scored = game.scoring != Scoring.NONE
    # A deal known by its code alone is not named by it while it is played: the code shows every
    # card.
    by_code, in_play = game.identifier == game.deal.deck, game.status == Game.Status.PLAYING
    return Line(
        game_id=game.pk,
        deal=game.name_in_play if by_code and in_play else game.identifier,
        deal_is_code=by_code and not in_play,
        rules=game.rules,
        scoring=game.get_scoring_display() if scored else None,
        score=game.score if scored else None,
        result=RESULTS[game.status] + (" (practice)" if game.practice else ""),
        cleared=game.cleared,
        longest_run=game.longest_run,
        time=clock(game.elapsed_ms()),
        moves=game.move_count,
        started_at=game.started_at,
        last_played=game.updated_at,
        on_table=on_table,
        resumable=game.status == Status.PLAYING and not on_table,
        over=game.status != Status.PLAYING,
        replayable=not play.still_a_record(game),
    )
