"""Whether a deal can be won under a rule set, by the exact solver, worked out once per deal and
rule set and stored: for winnable deals only, the daily deal and the staff statistics."""

from django.db import IntegrityError, transaction

from game.engine.rules import Rules
from game.engine.solver import solve
from game.models import Deal, Verdict

SOLVE_BUDGET_MS = 2_000
"""The exact solver decides nearly every deal far within this (bench/README.md); one it does not
is "unknown", never taken for winnable."""
RESULTS = {"win": Deal.Verdict.WINNABLE, "loss": Deal.Verdict.UNWINNABLE}


def verdict_of(deal: Deal, rules: str) -> str:
    """The deal's verdict (a Deal.Verdict) under the rule set named `rules`."""
    stored = Verdict.objects.filter(deal=deal, rules=rules).values_list("result", flat=True)
    if found := stored.first():
        return found
    solution = solve(deal.cards, Rules.from_name(rules), budget_ms=SOLVE_BUDGET_MS)
    result = RESULTS.get(solution.result, Deal.Verdict.UNKNOWN)
    record(deal, rules, result, solution.nodes)
    return result


def record(deal: Deal, rules: str, result: str, nodes: int) -> None:
    """Store a verdict found by a search of `nodes` positions, unless one is stored already."""
    try:
        with transaction.atomic():
            Verdict.objects.create(deal=deal, rules=rules, result=result, nodes=nodes)
    except IntegrityError:
        pass  # another request stored the deal's verdict first


def is_winnable(deal: Deal, rules: str) -> bool:
    return verdict_of(deal, rules) == Deal.Verdict.WINNABLE
