from django.contrib import admin

from game.display import clock
from game.engine.state import IllegalAction
from game.models import Game

from .links import change_link, player_of
from .moves import log_entries
from .search import DealNumberSearch
from .table import table_at
from .view_only import ViewOnly


@admin.register(Game)
class GameAdmin(DealNumberSearch, ViewOnly, admin.ModelAdmin):
    list_display = [
        "id", "deal_link", "player", "status", "cleared", "longest_run", "move_count",
        "active_time", "hint_count", "undo_count", "started_at",
    ]  # fmt: skip
    list_filter = ["status", "started_at", "deal__verdict"]
    list_select_related = ["deal", "owner"]
    date_hierarchy = "started_at"
    deal_number_lookup = "deal__number"
    search_fields = ["deal__deck", "owner__username", "session_key__exact"]
    search_help_text = "A deal number, (part of) a deck code, or a player's user name."
    fields = [
        "deal_link", "player", "status", "cleared", "longest_run", "move_count", "undo_count",
        "hint_count", "active_time", "started_at", "finished_at", "updated_at",
    ]  # fmt: skip
    readonly_fields = fields
    change_form_template = "admin/game/game/change_form.html"

    @admin.display(description="deal", ordering="deal__number")
    def deal_link(self, game):
        return change_link(game.deal)

    @admin.display(description="player", ordering="owner__username")
    def player(self, game):
        return player_of(game)

    @admin.display(description="time", ordering="active_ms")
    def active_time(self, game):
        return clock(game.elapsed_ms())

    def change_view(self, request, object_id, form_url="", extra_context=None):
        game = self.get_object(request, object_id)
        if game is None:
            return super().change_view(request, object_id, form_url, extra_context)
        actions = list(game.actions.order_by("seq"))
        at = _requested_seq(request.GET.get("at"), actions)
        try:
            table, replay_error = table_at(game.deal.cards, actions, at), None
        except IllegalAction as error:
            table, replay_error = None, str(error)
        context = {
            **(extra_context or {}),
            "log": log_entries(game.deal.cards, actions),
            "at": at,
            "table": table,
            "replay_error": replay_error,
        }
        return super().change_view(request, object_id, form_url, context)


def _requested_seq(text: str | None, actions) -> int:
    """The log entry the picture shows: ?at=seq, else the latest entry (0 is the deal itself)."""
    latest = actions[-1].seq if actions else 0
    try:
        return min(max(int(text), 0), latest)
    except (TypeError, ValueError):
        return latest
