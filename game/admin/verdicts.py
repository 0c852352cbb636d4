"""The solver's verdicts as staff see them: each deal's per rule set (game.verdicts works them
out and stores them), the standard game's where a page shows one."""

from collections.abc import Iterable

from django.contrib import admin
from django.db.models import Exists, OuterRef, QuerySet, Subquery

from game.engine.rules import STANDARD_NAME
from game.models import Deal, Verdict
from game.verdicts import verdict_of

UNDECIDED = "undecided"


def verdicts_under(rules: str = STANDARD_NAME):
    """The stored verdicts of the deal in OuterRef("pk") under `rules`, for a subquery."""
    return Verdict.objects.filter(deal=OuterRef("pk"), rules=rules).values("result")[:1]


def with_standard_verdict(deals: QuerySet[Deal]) -> QuerySet[Deal]:
    """Annotate each deal with `standard_verdict`: its stored verdict under the standard game, or
    None while the solver has not decided it."""
    return deals.annotate(standard_verdict=Subquery(verdicts_under()))


def label(result: str | None) -> str:
    return Deal.Verdict(result).label if result else "–"


def store_verdicts(deals: Iterable[Deal], rules: str = STANDARD_NAME) -> dict[int, str]:
    """Each deal's verdict under `rules`, solved and stored where it was missing."""
    return {deal.pk: verdict_of(deal, rules) for deal in deals}


class VerdictFilter(admin.SimpleListFilter):
    """Deals, or games by their deal, by the solver's verdict: under the standard game for deals,
    under each game's own rule set for games."""

    title = "solver's verdict"
    parameter_name = "verdict"
    deal_field = "pk"
    rules_field = None

    def lookups(self, request, model_admin):
        return [*Deal.Verdict.choices, (UNDECIDED, "not decided yet")]

    def queryset(self, request, queryset):
        if self.value() is None:
            return queryset
        rules = OuterRef(self.rules_field) if self.rules_field else STANDARD_NAME
        stored = Verdict.objects.filter(deal=OuterRef(self.deal_field), rules=rules)
        if self.value() == UNDECIDED:
            return queryset.filter(~Exists(stored))
        return queryset.filter(Exists(stored.filter(result=self.value())))


class GameVerdictFilter(VerdictFilter):
    title = "solver's verdict (the game's rules)"
    deal_field = "deal"
    rules_field = "rules"
