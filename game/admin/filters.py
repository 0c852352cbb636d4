"""The games list's filters that name their choices as the rest of the site does."""

from django.contrib import admin

from game.display import rules_label
from game.models import Game

PLAYED = "played"


class StatusFilter(admin.SimpleListFilter):
    """Games by how they stand, or the played ones together (won, dead end or left unfinished),
    as a deal's count of plays counts them."""

    title = "status"
    parameter_name = "status"

    def lookups(self, request, model_admin):
        return [(PLAYED, "played (won, dead end or left)"), *Game.Status.choices]

    def queryset(self, request, queryset):
        if self.value() == PLAYED:
            return queryset.filter(status__in=Game.PLAYED)
        return queryset if self.value() is None else queryset.filter(status=self.value())


class RulesFilter(admin.SimpleListFilter):
    """Games by their rule set, each named as players read it, among the sets played."""

    title = "rules"
    parameter_name = "rules"  # the field's own, as links from a deal's page give it

    def lookups(self, request, model_admin):
        names = Game.objects.order_by("rules").values_list("rules", flat=True).distinct()
        return [(name, rules_label(name)) for name in names]

    def queryset(self, request, queryset):
        return queryset if self.value() is None else queryset.filter(rules=self.value())
