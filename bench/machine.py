"""Where a load's CPU goes: the seconds each kind of process on this machine has used, read from
Linux's /proc.

The web benchmark's clients, server, database and hint searches share one machine, so a request's
latency under load follows from how much of the machine each request takes, whichever process
spends it. Only processes alive at both readings count: one that starts or ends between them is
missed, as are the kernel's own threads.
"""

import os
from collections import Counter
from pathlib import Path

KINDS = ("app server", "hint search", "PostgreSQL", "Redis", "benchmark", "other")


def available() -> bool:
    return Path("/proc/self/stat").exists()


def cpu_seconds(server_pid: int) -> Counter:
    """CPU seconds (user and system) used so far by each live process, summed by kind: the
    server's workers, their search processes, PostgreSQL, Redis, this benchmark, the rest."""
    ticks = os.sysconf("SC_CLK_TCK")
    processes = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                stat = (entry / "stat").read_text()
            except OSError:  # ended while being read
                continue
            # The command name is parenthesized and may itself hold spaces or parentheses.
            name = stat[stat.index("(") + 1 : stat.rindex(")")]
            fields = stat[stat.rindex(")") + 2 :].split()
            parent, used = int(fields[1]), (int(fields[11]) + int(fields[12])) / ticks
            processes[int(entry.name)] = (name, parent, used)
    totals = Counter()
    for pid, (name, parent, used) in processes.items():
        grandparent = processes.get(parent, (None, None))[1]
        if server_pid in (pid, parent):
            kind = "app server"
        elif grandparent == server_pid:
            kind = "hint search"
        elif name.startswith("postgres"):
            kind = "PostgreSQL"
        elif name.startswith("redis"):
            kind = "Redis"
        elif pid == os.getpid():
            kind = "benchmark"
        else:
            kind = "other"
        totals[kind] += used
    return totals
