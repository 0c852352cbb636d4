"""How fast is the exact solver? Solves deals 1..N one after another in this process and reports
deals per second, the median / p99 / max time per deal, mean nodes, and the fractions won, lost
and unknown (budget spent). Every winning line is replayed with Table to check it.

Run from the project root: python bench/solver.py [--deals 1000] [--budget-ms 2000] [--rules NAME]
"""

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from game.engine.deck import deck_for_number  # noqa: E402
from game.engine.rules import Rules, RulesError  # noqa: E402
from game.engine.solver import solve  # noqa: E402
from game.engine.state import Table  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=1000, help="solve deals 1..N (1000)")
    parser.add_argument("--budget-ms", type=float, default=2000, help="per deal (2000)")
    parser.add_argument("--rules", default="standard", help="rule set (SPEC.md; standard)")
    args = parser.parse_args()
    try:
        rules = Rules.from_name(args.rules)
    except RulesError as error:
        parser.error(str(error))

    times, nodes, results = [], [], []
    started = time.perf_counter()
    for number in range(1, args.deals + 1):
        deck = deck_for_number(number)
        solution = solve(deck, rules, budget_ms=args.budget_ms)
        if solution.result == "win" and not Table.replay(deck, solution.moves, rules).won:
            sys.exit(f"deal {number}: the winning line does not replay to a win")
        times.append(solution.ms)
        nodes.append(solution.nodes)
        results.append(solution.result)
    elapsed = time.perf_counter() - started

    times.sort()
    p99 = times[min(len(times) - 1, round(0.99 * (len(times) - 1)))]
    print(f"rules        {rules.name}")
    print(f"deals        {args.deals} (budget {args.budget_ms:g} ms each)")
    print(f"deals/s      {args.deals / elapsed:.1f}")
    print(f"ms per deal  median {statistics.median(times):.2f}  p99 {p99:.1f}  max {times[-1]:.1f}")
    print(f"mean nodes   {statistics.mean(nodes):.0f}")
    for result in ("win", "loss", "unknown"):
        print(f"{result:<12} {results.count(result) / args.deals:.3f}")


if __name__ == "__main__":
    main()
