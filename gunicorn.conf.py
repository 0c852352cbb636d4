"""gunicorn's settings for the site, read when gunicorn starts in this folder
(`gunicorn tripeaks_site.wsgi --bind ...`); command-line options override them.

Sync workers: each process serves one request at a time, on a connection of its own. A tap is
mostly Python, which holds its process's interpreter lock, so threads in one process would queue
for it while processes share the cores through the kernel; and a new connection goes to whichever
worker is free, where a kept-alive one stays with the worker that took it, however busy. Measured
in bench/README.md. gunicorn's own sync worker waits on a slow client, so ours
(tripeaks_site/workers.py) takes a connection only once its whole request has come in, and
leaves a client too slow to send it: a few clients that send a line a second cannot hold every
worker, even with no proxy in front. A proxy that buffers requests and responses (nginx, or the
host's load balancer) still belongs in front, as the TLS does anyway.
"""

import os
import sys

worker_class = "tripeaks_site.workers.RequestBufferingWorker"

# The site is loaded once, before the workers are forked, and frozen out of the cycle collector
# there (tripeaks_site/wsgi.py): the workers share its memory instead of each writing a copy,
# and their caches hold one. Code changes then take a restart, not a reload (HUP).
preload_app = True

# A Hint holds its worker while the search runs (see game/hint_search.py), so there are more
# workers than cores. WEB_CONCURRENCY, the usual hosting setting, chooses another number.
workers = int(os.environ.get("WEB_CONCURRENCY", 4 * os.process_cpu_count() + 1))
# gunicorn itself refuses a WEB_CONCURRENCY that is not a whole number or is negative (before it
# reads this file), but takes 0: a master with no workers, that never answers.
if workers < 1:
    sys.exit(f"WEB_CONCURRENCY must be a whole number, 1 or more: not {workers}.")
