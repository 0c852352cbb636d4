"""The deal statistics page, /admin/statistics/: figures from game.stats, drawn for staff."""

from django.contrib import admin
from django.core.exceptions import PermissionDenied
from django.template.response import TemplateResponse

from game import stats
from game.display import clock
from game.engine.geometry import TABLEAU_SIZE

from .charts import bar_chart
from .verdicts import store_verdicts

PAGE_VERDICT_BUDGET_MS = 25
"""Solver time per deal when the page fills in a missing verdict: the page stays quick, and a
deal left "unknown" can be solved with a larger budget from the deals list."""


def statistics_view(request):
    """Wrapped in admin.site.admin_view (see tripeaks_site/urls.py): staff only. Staff also need
    permission to view games, as for the games list."""
    if not request.user.has_perm("game.view_game"):
        raise PermissionDenied
    min_plays = _positive_int(request.GET.get("min_plays"), stats.HARDEST_MIN_PLAYS)
    hardest = list(stats.hardest_deals(min_plays))
    store_verdicts([deal for deal in hardest if not deal.verdict], budget_ms=PAGE_VERDICT_BUDGET_MS)
    days = stats.daily()
    cleared = stats.cleared_histogram()
    overview = stats.overview()
    context = {
        **admin.site.each_context(request),
        "title": "Deal statistics",
        "overview": overview,
        "avg_time": clock(overview.avg_ms),
        "won_avg_time": clock(overview.won_avg_ms),
        "days": days,
        "daily_chart": _daily_chart(days),
        "cleared": cleared,
        "cleared_chart": _cleared_chart(cleared),
        "longest_runs": stats.longest_runs(),
        "most_played": stats.most_played_deals(),
        "hardest": hardest,
        "min_plays": min_plays,
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


def _short(day) -> str:
    return f"{day:%b} {day.day}"


def _cleared_chart(cleared: list[int]):
    if not any(cleared):
        return None
    return bar_chart(
        values=cleared,
        titles=[f"{count} games cleared {n}" for n, count in enumerate(cleared)],
        x_labels={n: str(n) for n in range(0, TABLEAU_SIZE + 1, 4)},
    )
