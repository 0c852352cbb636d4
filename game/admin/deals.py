from django.contrib import admin, messages
from django.urls import reverse
from django.utils.html import format_html, format_html_join
from django.utils.safestring import mark_safe

from game import stats
from game.display import percent, rules_label
from game.engine.rules import STANDARD_NAME
from game.models import Deal, Game

from .filters import PLAYED
from .links import LinksWhereTheyOpen, deal_name
from .search import DealNumberSearch
from .verdicts import VerdictFilter, label, store_verdicts, with_standard_verdict

ACTION_VERDICT_LIMIT = 200
"""Deals solved by one run of the action: staff run it again for the rest, so that no single
request has to solve every deal selected."""


@admin.register(Deal)
class DealAdmin(LinksWhereTheyOpen, DealNumberSearch, admin.ModelAdmin):
    list_display = [
        "identifier", "games_played", "wins", "win_rate", "standard_verdict", "created_at",
    ]  # fmt: skip
    list_filter = [VerdictFilter, "created_at"]
    search_fields = ["deck"]
    search_help_text = "A deal number, a daily deal (daily 2026-12-06) or (part of) a deck code."
    readonly_fields = [
        "deck", "number", "created_at", "verdicts", "games_played", "wins", "win_rate",
    ]  # fmt: skip
    unlinked_twins = {"games_played": (Game, "games_played_text")}
    actions = ["compute_verdict"]

    def get_queryset(self, request):
        # Every deal, played or not: the admin lists deals nobody has played yet too.
        return with_standard_verdict(stats.with_play_counts(super().get_queryset(request)))

    def has_add_permission(self, request):
        return False  # Deals come from play: a number or a deck code a player typed.

    def has_change_permission(self, request, obj=None):
        # A deal's page is for reading; "change" on the list is the verdict action's, which
        # stores what the solver finds.
        return obj is None and super().has_change_permission(request)

    def has_delete_permission(self, request, obj=None):
        return False  # Games hold their deal; a verdict, once solved, is kept.

    def by_games_played(self, request) -> str:
        """The list's address, most played deals first. The list's sort parameter counts its
        columns, the actions' checkbox first when the user may run an action."""
        columns = list(self.get_list_display(request))
        if self.get_actions(request):
            columns.insert(0, "action_checkbox")
        return f"{reverse('admin:game_deal_changelist')}?o=-{columns.index('games_played')}"

    def changelist_view(self, request, extra_context=None):
        # Titled as a list for reading, which it is but for the verdict action.
        return super().changelist_view(
            request, {"title": "Select deal to view", **(extra_context or {})}
        )

    @admin.display(description="deal", ordering="number")
    def identifier(self, deal):
        return deal_name(deal)

    @admin.display(ordering="plays", description="played (standard game)")
    def games_played(self, deal):
        # The played games the count counts: the standard game's, not a deal left untouched, a
        # game still in progress or practice.
        query = (
            # The filters' own parameters, so that the sidebar shows what the link chose.
            f"?deal__id__exact={deal.pk}&status={PLAYED}&practice__exact=0&rules={STANDARD_NAME}"
        )
        url = reverse("admin:game_game_changelist") + query
        return format_html('<a href="{}">{}</a>', url, self.games_played_text(deal))

    @admin.display(ordering="plays", description="played (standard game)")
    def games_played_text(self, deal):
        return deal.plays

    @admin.display(ordering="wins", description="won")
    def wins(self, deal):
        return deal.wins

    @admin.display(ordering="win_rate", description="win rate")
    def win_rate(self, deal):
        return percent(deal.win_rate)

    @admin.display(ordering="standard_verdict", description="verdict (standard game)")
    def standard_verdict(self, deal):
        return label(deal.standard_verdict)

    @admin.display(description="solver's verdicts")
    def verdicts(self, deal):
        stored = deal.verdicts.order_by("rules")
        if not stored:
            return "none yet"
        return format_html_join(
            mark_safe("<br>"),
            "{}: {} ({} positions searched)",
            (
                (rules_label(verdict.rules), label(verdict.result), verdict.nodes)
                for verdict in stored
            ),
        )

    @admin.action(description="Compute the solver verdict (standard game)", permissions=["change"])
    def compute_verdict(self, request, queryset):
        undecided = queryset.filter(standard_verdict=None)
        left_over = max(0, undecided.count() - ACTION_VERDICT_LIMIT)
        solved = store_verdicts(undecided[:ACTION_VERDICT_LIMIT])
        unknown = list(solved.values()).count(Deal.Verdict.UNKNOWN)
        more = f" {left_over} more are waiting: run it again." if left_over else ""
        self.message_user(
            request,
            f"Solved {len(solved)} deals ({unknown} unknown within the solver's budget); deals "
            "with a verdict were left as they were." + more,
            messages.SUCCESS,
        )
