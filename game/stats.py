"""Deal statistics for staff, computed by the database.

Every figure is one aggregate query (COUNT, AVG, GROUP BY): the games table grows without bound,
so nothing here loads game rows into Python except the few a table lists.

The figures count played games (`Game.PLAYED`), as a player's own record does: finished after a
card was taken or drawn. A deal dealt and left untouched, a game in progress and a practice game
(Game.practice) are not counted.
"""

from dataclasses import dataclass
from datetime import date, datetime, time, timedelta

from django.db.models import Avg, Count, F, FloatField, Max, Q, QuerySet, Sum
from django.db.models.functions import Cast, NullIf, TruncDate
from django.utils import timezone

from .engine.geometry import TABLEAU_SIZE
from .engine.rules import STANDARD_NAME
from .engine.scoring import CLASSIC, PYSOL
from .models import Deal, Game, Verdict

WON = Q(status=Game.Status.WON)
PLAYED = Q(status__in=Game.PLAYED, practice=False)
CHART_DAYS = 90
HARDEST_MIN_PLAYS = 10
"""A deal counts as played often from this many games on; fewer say little about its difficulty."""


def ratio(part: int, whole: int) -> float | None:
    """part / whole; None while there is no whole (nothing played or decided yet)."""
    return part / whole if whole else None


@dataclass(frozen=True)
class Overview:
    played: int
    won: int
    avg_ms: float | None
    avg_moves: float | None
    won_avg_ms: float | None
    won_avg_moves: float | None
    hinted_games: int
    hinted_won: int
    hints: int
    undone_games: int
    undone_won: int
    undos: int

    def uses(self) -> list["Use"]:
        """The played games by the aid they used (a hint, undo) or went without (no hint)."""
        unhinted = self.played - self.hinted_games
        return [
            self._use("hint", "Used a hint", self.hinted_games, self.hinted_won, self.hints),
            self._use("no-hint", "No hint", unhinted, self.won - self.hinted_won),
            self._use("undo", "Used undo", self.undone_games, self.undone_won, self.undos),
        ]

    def _use(self, key: str, label: str, games: int, won: int, uses: int | None = None) -> "Use":
        per_game = None if uses is None else ratio(uses, self.played)
        return Use(key, label, games, ratio(games, self.played), per_game, ratio(won, games))


@dataclass(frozen=True)
class Use:
    """Played games that used an aid (or went without one): how many, their share of the played
    games, the aid's uses per played game (None for the games without), their win rate."""

    key: str
    label: str
    games: int
    share: float | None
    per_game: float | None
    win_rate: float | None


@dataclass(frozen=True)
class RuleSet:
    """A rule set's games, and the solver's verdicts on the deals it has decided under it."""

    rules: str
    played: int
    won: int
    decided: int
    winnable: int

    @property
    def win_rate(self) -> float | None:
        return ratio(self.won, self.played)

    @property
    def winnable_share(self) -> float | None:
        return ratio(self.winnable, self.decided)


@dataclass(frozen=True)
class ScoreBucket:
    low: int
    high: int
    """The bucket holds the scores from low up to high, high left out."""
    hands: int


SCORE_BUCKET = {PYSOL: 100, CLASSIC: 25}
"""Points per bar of a scoring system's chart: about twenty bars from the worst hand to the best."""


@dataclass(frozen=True)
class Day:
    day: date
    played: int
    won: int


def played_games() -> QuerySet[Game]:
    return Game.objects.filter(PLAYED)


def overview() -> Overview:
    hinted = Q(hint_count__gt=0)
    undone = Q(undo_count__gt=0)
    figures = played_games().aggregate(
        played=Count("id"),
        won=Count("id", filter=WON),
        avg_ms=Avg("active_ms"),
        avg_moves=Avg("move_count"),
        won_avg_ms=Avg("active_ms", filter=WON),
        won_avg_moves=Avg("move_count", filter=WON),
        hinted_games=Count("id", filter=hinted),
        hinted_won=Count("id", filter=hinted & WON),
        hints=Sum("hint_count", default=0),
        undone_games=Count("id", filter=undone),
        undone_won=Count("id", filter=undone & WON),
        undos=Sum("undo_count", default=0),
    )
    return Overview(**figures)


class TruncDay(TruncDate):
    """TruncDate that, on SQLite in UTC, uses SQLite's own date() rather than the Python function
    Django registers for time zones: that one costs 0.6 s over 100,000 games."""

    def as_sqlite(self, compiler, connection, **extra_context):
        if self.get_tzname() != "UTC":
            return self.as_sql(compiler, connection)
        sql, params = compiler.compile(self.lhs)
        return f"date({sql})", params


def daily(days: int = CHART_DAYS) -> list[Day]:
    """Games played and won per day they started, over the last `days` days with games, gaps
    filled with 0.

    The window ends on the latest day with a game rather than today, so a quiet spell does not
    leave the chart empty."""
    latest = played_games().aggregate(latest=Max("started_at"))["latest"]
    if latest is None:
        return []
    first = timezone.localdate(latest) - timedelta(days=days - 1)
    since = datetime.combine(first, time.min, tzinfo=timezone.get_current_timezone())
    rows = (
        played_games()
        .filter(started_at__gte=since)
        .annotate(day=TruncDay("started_at"))
        .values("day")
        .annotate(played=Count("id"), won=Count("id", filter=WON))
        .order_by("day")
    )
    by_day = {row["day"]: row for row in rows}
    empty = {"played": 0, "won": 0}
    return [
        Day(day, by_day.get(day, empty)["played"], by_day.get(day, empty)["won"])
        for day in (first + timedelta(days=offset) for offset in range(days))
    ]


def cleared_histogram() -> list[int]:
    """Number of games by cards cleared: index n holds the games that ended with n cleared."""
    counts = [0] * (TABLEAU_SIZE + 1)
    for row in played_games().values("cleared").annotate(games=Count("id")).order_by():
        counts[row["cleared"]] = row["games"]
    return counts


def longest_runs(limit: int = 10) -> QuerySet[Game]:
    """The played games with the longest runs (one still in play may yet undo its run)."""
    games = Game.objects.filter(PLAYED, longest_run__gt=0).select_related("deal", "owner")
    return games.order_by("-longest_run", "started_at")[:limit]


def with_play_counts(deals: QuerySet[Deal]) -> QuerySet[Deal]:
    """Annotate each deal with plays, wins and win_rate (None for a deal nobody has played) under
    the standard game, as the per-deal figures count them."""
    played = Q(games__status__in=Game.PLAYED, games__practice=False, games__rules=STANDARD_NAME)
    return deals.annotate(
        plays=Count("games", filter=played),
        wins=Count("games", filter=played & Q(games__status=Game.Status.WON)),
    ).annotate(win_rate=Cast(F("wins"), FloatField()) / NullIf(F("plays"), 0))


def _per_deal(min_plays: int) -> QuerySet:
    """Plays, wins and win_rate per deal under the standard game (the verdict shown beside them),
    grouped over the games table alone (no join): one deal is another game under other rules."""
    return (
        played_games()
        .filter(rules=STANDARD_NAME)
        .values("deal")
        .annotate(plays=Count("id"), wins=Count("id", filter=WON))
        .filter(plays__gte=min_plays)
        .annotate(win_rate=Cast(F("wins"), FloatField()) / F("plays"))
    )


def _deals_of(rows) -> list[Deal]:
    """The deals of per-deal rows, in the rows' order, carrying their plays, wins and win_rate."""
    rows = list(rows)
    deals = Deal.objects.in_bulk([row["deal"] for row in rows])
    for row in rows:
        deal = deals[row["deal"]]
        deal.plays, deal.wins, deal.win_rate = row["plays"], row["wins"], row["win_rate"]
    return [deals[row["deal"]] for row in rows]


def most_played_deals(limit: int = 10) -> list[Deal]:
    return _deals_of(_per_deal(1).order_by("-plays", "deal")[:limit])


def hardest_deals(min_plays: int = HARDEST_MIN_PLAYS, limit: int = 10) -> list[Deal]:
    """Deals played at least min_plays times, lowest win rate first (the most played first among
    equals, since their rate is the surest)."""
    return _deals_of(_per_deal(min_plays).order_by("win_rate", "-plays", "deal")[:limit])


def by_rules() -> list[RuleSet]:
    """Every rule set with played games or stored verdicts, the standard game first. Verdicts
    are counted over the deals the solver decided (not "unknown") under each rule set."""
    games = {
        row["rules"]: row
        for row in played_games()
        .values("rules")
        .annotate(played=Count("id"), won=Count("id", filter=WON))
        .order_by()
    }
    decided = ~Q(result=Deal.Verdict.UNKNOWN)
    verdicts = {
        row["rules"]: row
        for row in Verdict.objects.values("rules")
        .annotate(
            decided=Count("id", filter=decided),
            winnable=Count("id", filter=Q(result=Deal.Verdict.WINNABLE)),
        )
        .order_by()
    }
    names = sorted({*games, *verdicts}, key=lambda name: (name != STANDARD_NAME, name))
    none = {"played": 0, "won": 0, "decided": 0, "winnable": 0}
    return [
        RuleSet(
            rules=name,
            played=games.get(name, none)["played"],
            won=games.get(name, none)["won"],
            decided=verdicts.get(name, none)["decided"],
            winnable=verdicts.get(name, none)["winnable"],
        )
        for name in names
    ]


def score_distributions() -> dict[str, list[ScoreBucket]]:
    """Played hands of each scoring system by score (one query for all), in buckets of
    SCORE_BUCKET points from the worst hand's to the best's, empty buckets between included; []
    for a system with no hand yet."""
    counts = (
        played_games()
        .exclude(scoring=Game.Scoring.NONE)
        .values("scoring", "score")
        .annotate(hands=Count("id"))
        .values_list("scoring", "score", "hands")
        .order_by()
    )
    by_bucket: dict[str, dict[int, int]] = {scoring: {} for scoring in SCORE_BUCKET}
    for scoring, score, hands in counts:
        buckets = by_bucket[scoring]
        bucket = score // SCORE_BUCKET[scoring]
        buckets[bucket] = buckets.get(bucket, 0) + hands
    return {
        scoring: _filled(buckets, SCORE_BUCKET[scoring]) for scoring, buckets in by_bucket.items()
    }


def _filled(buckets: dict[int, int], width: int) -> list[ScoreBucket]:
    if not buckets:
        return []
    return [
        ScoreBucket(bucket * width, (bucket + 1) * width, buckets.get(bucket, 0))
        for bucket in range(min(buckets), max(buckets) + 1)
    ]
