"""How well does each no-peek policy play on its own? Deals N… played to the end by each policy.

A policy reads only the exposed cards, the waste and counts, so playing it out on the real deal
with `policy.play_out` is playing the game from the player's view, only faster. Each policy is
set against the first on the same deals: the paired difference with its standard error.

Run from the project root: python bench/policies.py --first 30001 --deals 20000
"""

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.hints import paired_difference  # noqa: E402
from game.engine import policy  # noqa: E402
from game.engine.cards import rank  # noqa: E402
from game.engine.deck import deck_for_number  # noqa: E402
from game.engine.geometry import FIRST_WASTE, TABLEAU_SIZE  # noqa: E402
from game.engine.rules import STANDARD  # noqa: E402

POLICIES = ("greedy_policy", "digging_policy", "scoring_policy")


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=20_000)
    parser.add_argument("--first", type=int, default=30_001, help="first deal number")
    parser.add_argument("policies", nargs="*", default=POLICIES, help="names in game.engine.policy")
    args = parser.parse_args(argv)

    fits = policy.fits_table(STANDARD)
    deals = []
    for number in range(args.first, args.first + args.deals):
        ranks = [rank(card) for card in deck_for_number(number)]
        tableau = policy.Tableau(ranks[:TABLEAU_SIZE], fits)
        deals.append((tableau, ranks[FIRST_WASTE], ranks[FIRST_WASTE + 1 :]))

    first_wins = None
    for name in args.policies:
        play = getattr(policy, name)
        started = time.perf_counter()
        wins = [
            policy.play_out(tableau, 0, waste, stock, play)[0] == TABLEAU_SIZE
            for tableau, waste, stock in deals
        ]
        seconds = time.perf_counter() - started
        line = f"{name:16} {sum(wins) / len(wins):.4f}  {seconds:.1f} s"
        if first_wins is None:
            first_wins = wins
        else:
            diffs = [new - old for new, old in zip(wins, first_wins, strict=True)]
            mean, error = paired_difference(diffs)
            line += f"  vs {args.policies[0]} {100 * mean:+.1f} ± {100 * error:.1f} points (1 SE)"
        print(line)


if __name__ == "__main__":
    main()
