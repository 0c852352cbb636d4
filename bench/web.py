"""How many taps a second does one app server take, and how long does a tap wait?

Starts gunicorn in production mode on a loopback port over a scratch database (a temporary
SQLite file; a PostgreSQL database tripeaks_bench_web, created and dropped here), with Redis for
the cache and sessions when it answers. At each concurrency level, that many simulated players
each start a game and tap legal moves (a card that fits, else the stock, a new deal when the
game is over), asking for a Hint every --hint-every taps and playing what it marks. The same
number of clients request the trivial view /healthz (no database) for the same time: the floor,
what Django and gunicorn cost on their own. The two loads take turns (--rounds), each load runs
--warmup seconds before it is first counted, so the figures are those of a server in its stride.

Reports taps/s and p50 / p99 latency per level (takes, draws and new deals; hints apart, since
their search budget is their own), the floor's, and the ratio of the p99s. On Linux it also reports
the machine's CPU time per request by kind of process (bench/machine.py): every process here
shares the cores, so under load a request waits in proportion to what the others take of them.

Run from the project root:
    python bench/web.py                                 # SQLite and PostgreSQL, 1 10 20 50
    python bench/web.py --backends postgres --levels 20 --seconds 20
"""

import argparse
import shlex
import statistics
import sys
import tempfile
import threading
import time
from collections import Counter
from contextlib import contextmanager
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench import machine  # noqa: E402 (the project root must be on the path first)
from tests.production.harness import (  # noqa: E402
    Client,
    Gunicorn,
    Player,
    prepare,
    production_env,
    redis_answers,
    scratch_postgres,
)

BENCH_DATABASE = "tripeaks_bench_web"


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--backends", nargs="+", default=["sqlite", "postgres"])
    parser.add_argument("--levels", nargs="+", type=int, default=[1, 10, 20, 50])
    parser.add_argument("--seconds", type=float, default=10.0, help="per level, taps and floor")
    parser.add_argument(
        "--rounds", type=int, default=4, help="turns the taps and the floor take within a level"
    )
    parser.add_argument(
        "--warmup",
        type=float,
        default=3.0,
        help="seconds of the same load before each measurement, not counted: a fresh server first"
        " imports, connects, prepares its statements and starts its hint search processes",
    )
    parser.add_argument(
        "--workers", type=int, help="gunicorn workers; by default as gunicorn.conf.py chooses"
    )
    parser.add_argument(
        "--gunicorn",
        default="",
        help="more gunicorn options, to try another layout: --gunicorn='--threads 4'",
    )
    parser.add_argument("--hint-every", type=int, default=20)
    parser.add_argument("--hint-budget-ms", type=int, default=200)
    parser.add_argument("--postgres", default="postgres://postgres@127.0.0.1:5432/postgres")
    parser.add_argument("--redis", default="redis://127.0.0.1:6379/15", help="'' for none")
    args = parser.parse_args(argv)
    layout = f"{args.workers} workers" if args.workers else "workers as in gunicorn.conf.py"
    print(
        f"gunicorn: {layout} {args.gunicorn}; {args.seconds:g} s per level in {args.rounds} rounds;"
        f" a hint every {args.hint_every} taps ({args.hint_budget_ms} ms budget);"
        f" Redis: {args.redis or 'none'}"
    )
    for backend in args.backends:
        with database(backend, args.postgres) as url:
            # Every simulated player comes from loopback: no limit on one address's Hints.
            extra = {
                "TRIPEAKS_HINT_BUDGET_MS": str(args.hint_budget_ms),
                "TRIPEAKS_HINT_ADDRESS_RATE": "",
            }
            if args.redis and redis_answers(args.redis):
                extra["REDIS_URL"] = args.redis
            env = production_env(url, **extra)
            prepare(env)
            with Gunicorn(env, args.workers, *shlex.split(args.gunicorn)) as server:
                report(backend, [measure(server, level, args) for level in args.levels])


@contextmanager
def database(backend, postgres_url):
    if backend == "postgres":
        with scratch_postgres(postgres_url, BENCH_DATABASE) as url:
            yield url
    else:
        with tempfile.TemporaryDirectory() as folder:
            yield f"sqlite:///{folder}/bench.sqlite3"


def measure(server, level, args) -> dict:
    port = server.port
    taps, hints, floor_times = Timings(), Timings(), Timings()
    cpu = {"taps": Counter(), "floor": Counter()}
    errors = []
    players = [Player([port], keep_alive=True) for _ in range(level)]
    clients = [Client(port, keep_alive=True) for _ in range(level)]
    counts = [0] * level

    def play(i):
        player = players[i]
        if player.table is None:
            player.open()
        while taps.running():
            counts[i] += 1
            if counts[i] % args.hint_every == 0:
                player.follow(hints.time(errors, player.post, "hint"))
                if player.table.hint is not None:
                    action = "draw" if player.table.hint == "draw" else "take"
                    form = {} if action == "draw" else {"pos": player.table.hint}
                    player.follow(taps.time(errors, player.post, action, **form))
                    continue
            action, form = player.next_move()
            player.follow(taps.time(errors, player.post, action, **form))

    def floor(i):
        while floor_times.running():
            floor_times.time(errors, clients[i].request, "GET", "/healthz")

    # Taps and floor take turns, so that both meet the machine as it is at the time: its speed
    # drifts by far more between minutes than a change to the site moves either.
    share = args.seconds / args.rounds
    for round_ in range(args.rounds):
        warmup = args.warmup if round_ == 0 else 0.0
        for timings in (taps, hints):
            timings.start(warmup, share)
        cpu["taps"] += run_counted(server, level, play, taps)
        floor_times.start(warmup, share)
        cpu["floor"] += run_counted(server, level, floor, floor_times)
    return {
        "level": level,
        "taps": summary(taps, args.seconds),
        "hints": summary(hints, args.seconds),
        "floor": summary(floor_times, args.seconds),
        "errors": len(errors),
        # Per request counted, as the CPU is; a tap's with its share of the hints.
        "cpu_ms": {
            "taps": per_request(cpu["taps"], len(taps)),
            "floor": per_request(cpu["floor"], len(floor_times)),
        },
    }


class Timings(list):
    """Seconds each request took, from sending it to the answer's last byte, of those started
    between the end of the warm-up and the end of the run. Reading the table off a tap's answer
    is the player's own work, done after the clock stops, as the floor's answer is not read."""

    def start(self, warmup: float, seconds: float) -> None:
        self.counted_from = time.monotonic() + warmup
        self.until = self.counted_from + seconds

    def running(self) -> bool:
        return time.monotonic() < self.until

    def time(self, errors, request, *args, **kwargs):
        counted = time.monotonic() >= self.counted_from
        started = time.perf_counter()
        response = request(*args, **kwargs)
        elapsed = time.perf_counter() - started
        if counted:
            self.append(elapsed)
            if response.status != 200:
                errors.append(response.status)
        return response


def run_counted(server, count, target, timings) -> Counter:
    """run_parallel, and the CPU seconds each kind of process used once the warm-up was over (a
    fresh server's imports and new search processes would swamp the rest)."""
    if not machine.available():
        run_parallel(count, target)
        return Counter()
    before = []
    warm = threading.Timer(
        max(0.0, timings.counted_from - time.monotonic()),
        lambda: before.append(machine.cpu_seconds(server.process.pid)),
    )
    warm.start()
    run_parallel(count, target)
    warm.join()
    after = machine.cpu_seconds(server.process.pid)
    return Counter({kind: after[kind] - before[0][kind] for kind in after})


def per_request(seconds: Counter, requests: int) -> dict:
    return {kind: seconds[kind] * 1000 / requests for kind in machine.KINDS} if requests else {}


def run_parallel(count, target):
    threads = [threading.Thread(target=target, args=(i,)) for i in range(count)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()


def summary(times, seconds) -> dict:
    if not times:
        return {"count": 0, "per_second": 0.0, "p50": 0.0, "p99": 0.0}
    cuts = statistics.quantiles(times, n=100, method="inclusive") if len(times) > 1 else times * 99
    return {
        "count": len(times),
        "per_second": len(times) / seconds,
        "p50": statistics.median(times) * 1000,
        "p99": cuts[98] * 1000,
    }


def report(backend, rows):
    print(f"\n{backend}")
    print(
        "| clients | taps/s | tap p50 ms | tap p99 ms | hints | hint p50 ms"
        " | floor req/s | floor p50 ms | floor p99 ms | tap p99 / floor p99 | errors |"
    )
    print("| ---: " * 11 + "|")
    for row in rows:
        taps, hints, floor = row["taps"], row["hints"], row["floor"]
        ratio = taps["p99"] / floor["p99"] if floor["p99"] else float("nan")
        print(
            f"| {row['level']} | {taps['per_second']:.0f} | {taps['p50']:.1f} | {taps['p99']:.1f}"
            f" | {hints['count']} | {hints['p50']:.0f} | {floor['per_second']:.0f}"
            f" | {floor['p50']:.1f} | {floor['p99']:.1f} | {ratio:.1f} | {row['errors']} |"
        )
    if not machine.available():
        return
    print(f"\n{backend}: CPU ms per request, by process")
    print(f"| clients | load | {' | '.join(machine.KINDS)} | all |")
    print("| ---: | --- " + "| ---: " * (len(machine.KINDS) + 1) + "|")
    for row in rows:
        for load, cpu_ms in row["cpu_ms"].items():
            figures = " | ".join(f"{cpu_ms[kind]:.2f}" for kind in machine.KINDS)
            print(f"| {row['level']} | {load} | {figures} | {sum(cpu_ms.values()):.2f} |")


if __name__ == "__main__":
    main()
