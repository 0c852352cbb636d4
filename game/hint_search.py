"""Hints are searched in separate processes, at a lower priority than the requests.

A search is pure computation for up to its budget. Run in the request's own process it would take
the cores at the requests' priority (and, in a threaded server, hold the interpreter lock against
the process's other requests); run beside it below them, taps go first. The search processes
receive only what the player has seen (a `PlayerView`), never the deal.

On Linux they run in the idle scheduling class (SCHED_IDLE): the kernel then stops a search the
moment a request's thread wakes (from its database's answer, say), where a search at a low nice
level may finish its time slice first, a few milliseconds that every tap in its way would wait.
"""

import multiprocessing
import os
import threading
import time
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool

from game.engine.hint import Hint, recommend
from game.engine.knowledge import PlayerView

PROCESSES = 1
"""Search processes per app server process: a sync worker (gunicorn.conf.py) serves one request,
so one Hint, at a time."""
NICENESS = 10
"""How far below the requests a search runs where there is no idle class: it takes what the
requests leave of the cores."""

_pool = None
_pool_lock = threading.Lock()


QUICK = {"max_nodes": 0, "budget_ms": None}
"""What the Hint answers with no time to search: the playout policy's own move, at once."""
GRACE_S = 1.0
"""How long past twice its clock budget a hint waits for its search."""


def search(view: PlayerView, **options) -> Hint:
    """`recommend(view, **options)`, computed in a search process.

    A hint waits for its search at most twice its clock budget and a second (time enough to queue
    behind another search): on a machine too busy to lend the idle class any time, or with a
    search process stopped, the player gets the quick suggestion instead, as the search itself
    gives one that runs out of time, and the request's thread is not held."""
    budget_ms = options.get("budget_ms")
    wait = None if budget_ms is None else 2 * budget_ms / 1000 + GRACE_S
    try:
        return _answer(view, options, wait)
    except BrokenProcessPool:
        # A search process died (killed from outside): start afresh and ask once more.
        _executor(broken=True)
        return _answer(view, options, wait)


def _answer(view: PlayerView, options: dict, wait: float | None) -> Hint:
    future = _executor().submit(recommend, view, **options)
    try:
        return future.result(timeout=wait)
    except TimeoutError:
        future.cancel()  # still queued: it never runs
        return recommend(view, **options | QUICK)


def _executor(broken: bool = False) -> ProcessPoolExecutor:
    global _pool
    with _pool_lock:
        if broken and _pool is not None:
            _pool.shutdown(wait=False, cancel_futures=True)
            _pool = None
        if _pool is None:
            _pool = ProcessPoolExecutor(
                PROCESSES,
                # A fresh interpreter that imports only the engine: no Django, no copied sockets.
                mp_context=multiprocessing.get_context("spawn"),
                initializer=_start_search_process,
            )
        return _pool


def _start_search_process() -> None:
    os.nice(NICENESS)
    if hasattr(os, "SCHED_IDLE"):
        os.sched_setscheduler(0, os.SCHED_IDLE, os.sched_param(0))
    parent = os.getppid()

    def end_with_parent():
        # A killed app server cannot stop its search processes: they notice and stop themselves.
        while os.getppid() == parent:
            time.sleep(1)
        os._exit(0)

    threading.Thread(target=end_with_parent, daemon=True).start()
