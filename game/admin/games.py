from bisect import bisect_left
from datetime import timedelta

from django.contrib import admin
from django.core.exceptions import PermissionDenied
from django.core.paginator import Paginator
from django.db.models import DurationField, ExpressionWrapper, F, IntegerField, Q, Value
from django.db.models.functions import Coalesce
from django.shortcuts import get_object_or_404, render
from django.urls import path, reverse
from django.utils import timezone
from django.utils.html import format_html

from game import play, review
from game.display import clock, rules_label
from game.engine.rules import Rules
from game.engine.state import IllegalAction
from game.models import Deal, Game

from .filters import RulesFilter, StatusFilter
from .links import LinksWhereTheyOpen, change_link, deal_name, player_of
from .moves import log_entries
from .search import DealNumberSearch
from .table import table_at
from .verdicts import GameVerdictFilter
from .view_only import ViewOnly


@admin.register(Game)
class GameAdmin(LinksWhereTheyOpen, DealNumberSearch, ViewOnly, admin.ModelAdmin):
    # The list's order (newest first) and what a game came to lead, the rest after: beside the
    # sidebar and the filters, a laptop's screen shows the first eight or so.
    list_display = [
        "id", "started_at", "deal_link", "player", "status", "cleared", "game_rules", "scoring",
        "score", "active_time", "move_count", "longest_run", "hint_count", "undo_count",
    ]  # fmt: skip
    list_filter = [
        StatusFilter, RulesFilter, "scoring", "practice", "started_at", GameVerdictFilter,
    ]  # fmt: skip
    list_select_related = ["deal", "owner"]
    date_hierarchy = "started_at"
    deal_number_lookup = "deal__number"
    search_fields = ["deal__deck", "owner__username", "session_key__exact"]
    search_help_text = (
        "A deal number, a daily deal (daily 2026-12-06), (part of) a deck code, or a player's "
        "user name."
    )
    fields = [
        "deal_link", "player", "game_rules", "scoring", "score", "daily", "practice", "revealed",
        "revealed_at", "status", "analysis_link", "cleared", "longest_run", "move_count",
        "undo_count", "hint_count", "active_time",
        "started_at", "finished_at", "updated_at",
    ]  # fmt: skip
    readonly_fields = fields
    unlinked_twins = {"deal_link": (Deal, "deal_text")}
    change_form_template = "admin/game/game/change_form.html"

    def get_queryset(self, request):
        return super().get_queryset(request).annotate(elapsed=_elapsed_until(timezone.now()))

    def of_daily_deal(self, day):
        return Q(daily=day)  # the players' records of that day

    @admin.display(description="deal", ordering="deal__number")
    def deal_link(self, game):
        return change_link(game.deal, self.deal_text(game))

    @admin.display(description="deal", ordering="deal__number")
    def deal_text(self, game):
        return deal_name(game.deal)

    @admin.display(description="player", ordering="owner__username")
    def player(self, game):
        return player_of(game)

    @admin.display(description="rules", ordering="rules")
    def game_rules(self, game):
        return rules_label(game.rules)

    @admin.display(description="time", ordering="elapsed")
    def active_time(self, game):
        return clock(game.elapsed_ms())

    @admin.display(description="analysis")
    def analysis_link(self, game):
        if game.status == Game.Status.PLAYING:
            return "once the game is over"
        url = reverse("admin:game_game_analysis", args=[game.pk])
        return format_html('<a href="{}" data-analysis-link>See the analysis</a>', url)

    def get_urls(self):
        analysis = self.admin_site.admin_view(self.analysis_view)
        return [
            path("<int:game_id>/analysis/", analysis, name="game_game_analysis"),
            *super().get_urls(),
        ]

    def analysis_view(self, request, game_id):
        """The analysis page the player sees, for any game: staff look at how a deal went."""
        game = get_object_or_404(Game.objects.select_related("deal"), pk=game_id)
        if not self.has_view_permission(request, game):
            raise PermissionDenied
        step = _whole_number(request.GET.get("step"))
        try:
            analysis = play.analysis_of_game(game)
        except play.StillPlaying:
            message = f"Game {game.pk} is still being played: its analysis comes once it is over."
            context = {"title": "Still being played", "message": message}
            return render(request, "notice_page.html", context, status=404)
        return render(
            request, "game/analysis.html", review.context(game, analysis, step, players=False)
        )

    def change_view(self, request, object_id, form_url="", extra_context=None):
        game = self.get_object(request, object_id)
        if game is None:
            return super().change_view(request, object_id, form_url, extra_context)
        actions = list(game.actions.order_by("seq"))
        at = _requested_seq(request.GET.get("at"), actions)
        try:
            table, replay_error = (
                table_at(game.deal.cards, actions, at, Rules.from_name(game.rules)),
                None,
            )
        except IllegalAction as error:
            table, replay_error = None, str(error)
        log = Paginator(log_entries(game.deal.cards, actions), LOG_PAGE)
        shown = _whole_number(request.GET.get("page")) or _page_of(at, actions)
        context = {
            **(extra_context or {}),
            "log": log.get_page(shown),
            "at": at,
            "table": table,
            "replay_error": replay_error,
        }
        return super().change_view(request, object_id, form_url, context)


def _elapsed_until(now):
    """Game.elapsed_ms as the database works it out, so that the time column sorts by the time it
    shows: the banked time, and the stretch the clock has been running (a game being played).
    `now` is the site's clock, the one the column reads, rather than the database's."""
    # Typed a plain integer: Django's SQLite backend multiplies a duration by that, not by a big
    # one (on PostgreSQL it stays a bigint, without a cast).
    ms = ExpressionWrapper(F("active_ms"), output_field=IntegerField())
    banked = ExpressionWrapper(ms * Value(timedelta(milliseconds=1)), output_field=DurationField())
    return banked + Coalesce(Value(now) - F("running_since"), Value(timedelta(0)))


LOG_PAGE = 200
"""Log entries listed at a time: a long game's log (thousands of taps and undos) made its page
megabytes long."""


def _page_of(seq: int, actions) -> int:
    """The page of the move list that lists log entry `seq` (the deal, 0, heads the first)."""
    return bisect_left([action.seq for action in actions], seq) // LOG_PAGE + 1


def _whole_number(text: str | None) -> int | None:
    """A whole number asked for (?step=N of the analysis page, ?page=N of the move list); anything
    else is none: the analysis's start, the move list's page of the entry shown."""
    return int(text) if text and text.isascii() and text.isdigit() else None


def _requested_seq(text: str | None, actions) -> int:
    """The log entry the picture shows: ?at=seq, else the latest entry (0 is the deal itself)."""
    latest = actions[-1].seq if actions else 0
    try:
        return min(max(int(text), 0), latest)
    except (TypeError, ValueError):
        return latest
