"""How well does following the Hint play? Deals 1..N, each played three ways:

* by following the hint alone (the player's view only),
* by the greedy no-peek player (`policy.greedy_policy`),
* by the full-information solver, which gives the fraction of deals winnable at all.

Run from the project root: python bench/hints.py --deals 500 --nodes 60000 --jobs 2 [--rules NAME]
`--save FILE` keeps each deal's outcome as JSON, for a paired comparison of two runs:
python bench/hints.py --compare OLD.json NEW.json
"""

import argparse
import json
import math
import statistics
import sys
import time
from multiprocessing import Pool
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from game.engine.deck import deck_for_number  # noqa: E402
from game.engine.hint import play_by_hints  # noqa: E402
from game.engine.knowledge import view_of  # noqa: E402
from game.engine.policy import greedy_policy, policy_move  # noqa: E402
from game.engine.rules import Rules, RulesError  # noqa: E402
from game.engine.solver import solve  # noqa: E402
from game.engine.state import Table  # noqa: E402


def play_greedy(deck, rules) -> bool:
    table = Table(deck, rules)
    while (move := policy_move(view_of(table), greedy_policy)) is not None:
        table.apply(move)
    return table.won


def bench_deal(task):
    number, rules, options, solver_nodes = task
    deck = deck_for_number(number)
    table, hint_ms = play_by_hints(deck, rules, **options)
    ceiling = solve(deck, rules, max_nodes=solver_nodes).result if solver_nodes else "unknown"
    return number, table.won, play_greedy(deck, rules), ceiling, hint_ms


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=500)
    parser.add_argument("--first", type=int, default=1, help="first deal number")
    parser.add_argument("--nodes", type=int, default=None, help="hint work bound")
    parser.add_argument("--budget-ms", type=float, default=None, help="hint clock bound")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument(
        "--solver-nodes", type=int, default=2_000_000, help="work bound for the ceiling; 0 skips it"
    )
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--rules", default="standard", help="rule set (SPEC.md; standard)")
    parser.add_argument("--save", type=Path, help="write each deal's outcome to this JSON file")
    parser.add_argument(
        "--compare", nargs=2, type=Path, metavar=("OLD", "NEW"), help="compare two saved runs"
    )
    args = parser.parse_args(argv)
    if args.compare:
        compare(*args.compare)
        return
    try:
        rules = Rules.from_name(args.rules)
    except RulesError as error:
        parser.error(str(error))

    options = {"seed": args.seed, "max_nodes": args.nodes, "budget_ms": args.budget_ms}
    numbers = range(args.first, args.first + args.deals)
    tasks = [(n, rules, options, args.solver_nodes) for n in numbers]
    started = time.perf_counter()
    results = []
    with Pool(args.jobs) as pool:
        for result in pool.imap(bench_deal, tasks, chunksize=1):
            results.append(result)
            if len(results) % 50 == 0:  # a long run shows how far it has got, on stderr
                won = sum(won for _, won, *_ in results)
                print(f"{len(results)} deals, hint won {won}", file=sys.stderr, flush=True)
    hint_wins = sum(won for _, won, _, _, _ in results)
    greedy_wins = sum(greedy for _, _, greedy, _, _ in results)
    solvable = sum(ceiling == "win" for *_, ceiling, _ in results)
    undecided = sum(ceiling == "unknown" for *_, ceiling, _ in results)
    times = sorted(ms for *_, hint_ms in results for ms in hint_ms)
    deals = len(results)
    print(
        f"rules {rules.name}  deals {deals}  nodes {args.nodes}  budget_ms {args.budget_ms}"
        f"  seed {args.seed}"
    )
    print(f"hint   {hint_wins / deals:.3f}  ({hint_wins})")
    print(f"greedy {greedy_wins / deals:.3f}  ({greedy_wins})")
    print(f"solver {solvable / deals:.3f}  ({solvable}, {undecided} undecided)")
    print(
        f"ms/hint p50 {statistics.median(times):.1f}  p99 {times[int(0.99 * len(times))]:.1f}"
        f"  hints {len(times)}  wall {time.perf_counter() - started:.0f} s"
    )
    if args.save:
        outcomes = {number: won for number, won, *_ in results}
        args.save.write_text(
            json.dumps(
                {"options": vars(args) | {"save": str(args.save)}, "won": outcomes, "ms": times}
            )
        )


def compare(old_path: Path, new_path: Path) -> None:
    """The paired difference in win rate on the deals both runs played, with its standard error:
    the same deals cancel most of the luck of the deal."""
    old, new = (json.loads(path.read_text())["won"] for path in (old_path, new_path))
    common = sorted(old.keys() & new.keys(), key=int)
    diffs = [int(new[number]) - int(old[number]) for number in common]
    deals = len(diffs)
    mean, error = paired_difference(diffs)
    old_rate = sum(old[number] for number in common) / deals
    new_rate = sum(new[number] for number in common) / deals
    print(
        f"deals {deals}  old {old_rate:.3f}  new {new_rate:.3f}"
        f"  difference {100 * mean:+.1f} ± {100 * error:.1f} points (1 SE)"
        f"  new only {diffs.count(1)}  old only {diffs.count(-1)}"
    )


def paired_difference(diffs: list[int]) -> tuple[float, float]:
    """The mean of per-deal differences (won less won) and its standard error."""
    deals = len(diffs)
    mean = sum(diffs) / deals
    if deals < 2:
        return mean, 0.0
    spread = math.sqrt(sum((d - mean) ** 2 for d in diffs) / (deals - 1))
    return mean, spread / math.sqrt(deals)


if __name__ == "__main__":
    main()
