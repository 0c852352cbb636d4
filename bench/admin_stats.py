"""How long does /admin/statistics/ take to render with 100,000 games?

Fills a fresh database with make_demo_data, then times the page through Django's test client as
a logged-in staff user: the first render (which also stores solver verdicts for the hardest deals)
and then --runs more, reporting median and max. SQLite goes to a temporary file; PostgreSQL to a
database named tripeaks_bench, created and dropped here, next to the one in --postgres.

Run from the project root:
    python bench/admin_stats.py                        # SQLite and PostgreSQL
    python bench/admin_stats.py --backends sqlite --games 20000
"""

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
import warnings
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
BENCH_DATABASE = "tripeaks_bench"


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=100_000)
    parser.add_argument("--deals", type=int, default=3_000)
    parser.add_argument("--runs", type=int, default=10)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--backends", nargs="+", default=["sqlite", "postgres"])
    parser.add_argument("--postgres", default="postgres://postgres@127.0.0.1:5432/postgres")
    parser.add_argument("--measure", help=argparse.SUPPRESS)  # set for the child process
    args = parser.parse_args(argv)
    if args.measure:
        measure(args)
        return
    for backend in args.backends:
        if backend == "sqlite":
            with tempfile.TemporaryDirectory() as folder:
                run_child(args, f"sqlite:///{folder}/bench.sqlite3", backend)
        else:
            with postgres_database(args.postgres) as url:
                run_child(args, url, backend)


def run_child(args, database_url, backend):
    """Settings read DATABASE_URL once, at start-up: each database gets its own process."""
    env = {
        **os.environ,
        "DATABASE_URL": database_url,
        # Development static files (no collectstatic); measure() then turns DEBUG off.
        "DJANGO_DEBUG": "1",
    }
    sizes = ["--games", str(args.games), "--deals", str(args.deals), "--seed", str(args.seed)]
    command = [sys.executable, __file__, "--measure", backend, "--runs", str(args.runs), *sizes]
    subprocess.run(command, env=env, check=True, cwd=ROOT)


class postgres_database:
    """A scratch database beside the one in `admin_url`, dropped afterwards."""

    def __init__(self, admin_url):
        self.admin_url = admin_url

    def __enter__(self):
        self._execute(f"DROP DATABASE IF EXISTS {BENCH_DATABASE}")
        self._execute(f"CREATE DATABASE {BENCH_DATABASE}")
        return self.admin_url.rsplit("/", 1)[0] + "/" + BENCH_DATABASE

    def __exit__(self, *exc):
        self._execute(f"DROP DATABASE IF EXISTS {BENCH_DATABASE} WITH (FORCE)")

    def _execute(self, sql):
        import psycopg

        with psycopg.connect(self.admin_url, autocommit=True) as connection:
            connection.execute(sql)


def measure(args):
    sys.path.insert(0, str(ROOT))
    # WhiteNoise warns that STATIC_ROOT is absent until collectstatic runs, as in pyproject.toml.
    warnings.filterwarnings("ignore", "No directory at", UserWarning)
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "tripeaks_site.settings")
    import django

    django.setup()
    from django.contrib.auth import get_user_model
    from django.core.management import call_command
    from django.test import Client
    from django.test.utils import setup_test_environment

    setup_test_environment(debug=False)  # as in tests: no query log, host "testserver" allowed
    call_command("migrate", verbosity=0)
    started = time.perf_counter()
    call_command("make_demo_data", games=args.games, deals=args.deals, seed=args.seed)
    print(f"{args.measure}: demo data in {time.perf_counter() - started:.1f} s")
    staff = get_user_model().objects.create_superuser("bench-staff", password=None)
    client = Client()
    client.force_login(staff)

    def render_ms():
        started = time.perf_counter()
        response = client.get("/admin/statistics/")
        assert response.status_code == 200, response.status_code
        return (time.perf_counter() - started) * 1000

    first = render_ms()
    times = [render_ms() for _ in range(args.runs)]
    print(
        f"{args.measure}: {args.games:,} games, /admin/statistics/ first render {first:.0f} ms "
        f"(stores verdicts); next {args.runs}: median {statistics.median(times):.0f} ms, "
        f"max {max(times):.0f} ms"
    )


if __name__ == "__main__":
    main()
