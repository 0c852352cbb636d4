"""How long does the analysis of a finished game take? Plays deals 1..N by following the hint
alone (a work bound per hint, so the same lines on every run), then analyses each played line as
the analysis page does, and reports the median / p99 / max time and solves per game.

Run from the project root: python bench/analysis.py [--deals 200] [--nodes 3000]
"""

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from game.engine.analysis import analyse  # noqa: E402
from game.engine.deck import deck_for_number  # noqa: E402
from game.engine.hint import play_by_hints  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=200, help="deals 1..N (200)")
    parser.add_argument("--nodes", type=int, default=3000, help="work bound per hint (3000)")
    args = parser.parse_args()

    times, solves, lost_winnable = [], [], 0
    for number in range(1, args.deals + 1):
        deck = deck_for_number(number)
        table, _ = play_by_hints(deck, max_nodes=args.nodes, budget_ms=None, seed=number)
        started = time.perf_counter()
        analysis = analyse(deck, table.moves)
        times.append((time.perf_counter() - started) * 1000)
        solves.append(analysis.solves)
        lost_winnable += analysis.last_winnable is not None

    times.sort()
    p99 = times[min(len(times) - 1, round(0.99 * (len(times) - 1)))]
    print(f"games        {args.deals} (hint player, {args.nodes} nodes a hint)")
    print(f"lost, though winnable from the deal: {lost_winnable}")
    print(f"ms per game  median {statistics.median(times):.1f}  p99 {p99:.1f}  max {times[-1]:.1f}")
    print(f"solves       median {statistics.median(solves):.0f}  max {max(solves)}")


if __name__ == "__main__":
    main()
