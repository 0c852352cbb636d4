"""The Hint's search processes: the same answer as in the request's own process, at a lower
priority, surviving a dead search process, and ending with the server process that started them."""

import os
import signal
import subprocess
import sys
import time
from concurrent.futures.process import BrokenProcessPool
from pathlib import Path

import pytest

from game import hint_search
from game.engine.deck import deck_for_number
from game.engine.hint import recommend
from game.engine.knowledge import view_of
from game.engine.state import Table
from tests.production.harness import ROOT, wait_until


def a_view():
    game = Table(deck_for_number(42))
    game.draw()
    return view_of(game)


def test_a_search_process_gives_the_hint_the_engine_gives():
    options = {"seed": 3, "max_nodes": 3_000, "budget_ms": None}

    assert hint_search.search(a_view(), **options) == recommend(a_view(), **options)


def test_searches_run_in_other_processes_below_the_requests():
    pool = hint_search._executor()

    assert pool.submit(os.getpid).result() != os.getpid()
    assert pool.submit(os.nice, 0).result() == os.nice(0) + hint_search.NICENESS


@pytest.mark.skipif(not hasattr(os, "SCHED_IDLE"), reason="the idle class is Linux's")
def test_searches_run_in_the_idle_scheduling_class():
    pool = hint_search._executor()

    assert os.sched_getscheduler(0) != os.SCHED_IDLE
    assert pool.submit(os.sched_getscheduler, 0).result() == os.SCHED_IDLE


def test_a_search_process_killed_from_outside_costs_no_hint():
    # Exiting abruptly inside the pool breaks it, as a kill -9 from outside would.
    with pytest.raises(BrokenProcessPool):
        hint_search._executor().submit(os._exit, 1).result()

    view = a_view()
    hint = hint_search.search(view, seed=0, max_nodes=1_000, budget_ms=None)

    assert hint.move in view.legal_moves()


def test_a_hint_whose_search_cannot_run_in_time_is_the_quick_suggestion():
    view = a_view()
    pool = hint_search._executor()
    # Every search process taken for longer than the hint may wait.
    for _ in range(hint_search.PROCESSES):
        pool.submit(time.sleep, 4)
    try:
        started = time.monotonic()
        hint = hint_search.search(view, seed=0, budget_ms=100)
        waited = time.monotonic() - started
    finally:
        hint_search._executor(broken=True)

    assert hint == recommend(view, **hint_search.QUICK)
    assert hint.move in view.legal_moves() and hint.reason.endswith("a quick suggestion.")
    assert 0.2 + hint_search.GRACE_S <= waited < 3


SERVER = """
import os, sys
from game import hint_search
pool = hint_search._executor()
print(*[pool.submit(os.getpid).result() for _ in range(8)], flush=True)
sys.stdin.read()
"""


@pytest.mark.slow
def test_search_processes_end_with_a_killed_server_process():
    with subprocess.Popen(
        [sys.executable, "-c", SERVER], cwd=ROOT, stdin=subprocess.PIPE, stdout=subprocess.PIPE
    ) as server:
        searchers = {int(pid) for pid in server.stdout.readline().split()}
        assert searchers and all(alive(pid) for pid in searchers)

        server.send_signal(signal.SIGKILL)

    wait_until(lambda: not any(alive(pid) for pid in searchers), timeout=10)


def alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except FileNotFoundError:
        return False
    return state != "Z"  # a zombie has exited; only its entry waits for the reaper
