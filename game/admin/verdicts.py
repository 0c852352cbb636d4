"""The solver's verdict on a deal, computed once and stored on the deal."""

from collections.abc import Iterable

from game.engine.solver import solve
from game.models import Deal

VERDICT_OF_RESULT = {
    "win": Deal.Verdict.WINNABLE,
    "loss": Deal.Verdict.UNWINNABLE,
    "unknown": Deal.Verdict.UNKNOWN,
}


def store_verdicts(deals: Iterable[Deal], *, budget_ms: float) -> list[Deal]:
    """Solve each deal within budget_ms and save the verdict; returns the deals updated."""
    solved = []
    for deal in deals:
        solution = solve(deal.cards, budget_ms=budget_ms)
        deal.verdict = VERDICT_OF_RESULT[solution.result]
        deal.verdict_nodes = solution.nodes
        solved.append(deal)
    Deal.objects.bulk_update(solved, ["verdict", "verdict_nodes"])
    return solved
