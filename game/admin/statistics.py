"""The deal statistics page, /admin/statistics/: figures from game.stats, drawn for staff."""

from django.contrib import admin
from django.core.exceptions import PermissionDenied
from django.template.defaultfilters import pluralize
from django.template.response import TemplateResponse

from game import stats
from game.display import clock
from game.engine.geometry import TABLEAU_SIZE
from game.models import Deal, Game

from .charts import Numbers, bar_chart
from .links import may_view
from .verdicts import label, store_verdicts

SCORED = [choice for choice in Game.Scoring.choices if choice[0] != Game.Scoring.NONE]


def statistics_view(request):
    """Wrapped in admin.site.admin_view (see tripeaks_site/urls.py): staff only. Staff also need
    permission to view games, as for the games list."""
    if not request.user.has_perm("game.view_game"):
        raise PermissionDenied
    min_plays = _positive_int(request.GET.get("min_plays"), stats.HARDEST_MIN_PLAYS)
    hardest = stats.hardest_deals(min_plays)
    # The standard game's verdict, solved once for a deal that has none yet: the solver decides
    # nearly every deal quickly (bench/README.md), and only these few deals are shown.
    verdicts = store_verdicts(hardest)
    for deal in hardest:
        deal.standard_verdict = verdicts[deal.pk]
        deal.standard_verdict_label = label(verdicts[deal.pk])
    days = stats.daily()
    cleared = stats.cleared_histogram()
    overview = stats.overview()
    distributions = stats.score_distributions()
    context = {
        **admin.site.each_context(request),
        "title": "Deal statistics",
        "overview": overview,
        "avg_time": clock(overview.avg_ms),
        "won_avg_time": clock(overview.won_avg_ms),
        "days": days,
        "daily_chart": _daily_chart(days),
        "daily_numbers": _daily_numbers(days),
        "cleared_chart": _cleared_chart(cleared),
        "cleared_numbers": _cleared_numbers(cleared),
        "longest_runs": stats.longest_runs(),
        "most_played": stats.most_played_deals(),
        "every_deal_by_plays": admin.site.get_model_admin(Deal).by_games_played(request),
        "deal_links": may_view(request, Deal),
        "hardest": hardest,
        "min_plays": min_plays,
        "rule_sets": stats.by_rules(),
        "scores": [_scores(scoring, name, distributions[scoring]) for scoring, name in SCORED],
    }
    return TemplateResponse(request, "admin/game/statistics.html", context)


def _positive_int(text: str | None, default: int) -> int:
    try:
        return max(1, int(text))
    except (TypeError, ValueError):
        return default


def _daily_chart(days: list[stats.Day]):
    if not days:
        return None
    labelled = (0, len(days) // 2, len(days) - 1)
    return bar_chart(
        values=[day.played for day in days],
        inner=[day.won for day in days],
        titles=[f"{_short(day.day)}: {day.played} played, {day.won} won" for day in days],
        x_labels={index: _short(days[index].day) for index in labelled},
    )


def _daily_numbers(days: list[stats.Day]) -> Numbers:
    # Days without games are bars of 0 in the chart, and no row here.
    rows = [
        (f"{day.day:%Y-%m-%d}", f"{day.day:%a %-d %b %Y}", (day.played, day.won))
        for day in reversed(days)
        if day.played
    ]
    return Numbers("Numbers per day", ("Day", "Played", "Won"), "day", rows)


def _short(day) -> str:
    return f"{day:%b} {day.day}"


def _scores(scoring: str, name: str, buckets: list[stats.ScoreBucket]) -> dict:
    chart = None
    if buckets:
        labelled = (0, len(buckets) // 2, len(buckets) - 1)
        chart = bar_chart(
            values=[bucket.hands for bucket in buckets],
            titles=[
                f"{bucket.hands} hand{pluralize(bucket.hands)} scored"
                f" {bucket.low} to {bucket.high - 1}"
                for bucket in buckets
            ],
            x_labels={index: str(buckets[index].low) for index in labelled},
        )
    hands = sum(bucket.hands for bucket in buckets)
    rows = [
        (str(bucket.low), f"{bucket.low} to {bucket.high - 1}", (bucket.hands,))
        for bucket in buckets
        if bucket.hands
    ]
    numbers = Numbers("Numbers", ("Score", "Hands"), "score-bucket", rows)
    return {"scoring": scoring, "name": name, "hands": hands, "chart": chart, "numbers": numbers}


def _cleared_numbers(cleared: list[int]) -> Numbers:
    rows = [(str(n), str(n), (games,)) for n, games in enumerate(cleared) if games]
    return Numbers("Numbers", ("Cleared", "Games"), "cleared", rows)


def _cleared_chart(cleared: list[int]):
    if not any(cleared):
        return None
    return bar_chart(
        values=cleared,
        titles=[f"{count} game{pluralize(count)} cleared {n}" for n, count in enumerate(cleared)],
        x_labels={n: str(n) for n in range(0, TABLEAU_SIZE + 1, 4)},
    )
