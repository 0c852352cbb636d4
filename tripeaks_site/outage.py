"""While the database or Redis is unreachable (or Redis answers with errors), players get a short
503 page instead of a server error.

The database going away (a restart, a failover) raises OperationalError or InterfaceError from
whatever query comes next. Every change to a game is one transaction, so a failed request has
changed nothing: the player only needs to be told to try again. Without Redis, play goes on from
the database (the cache ignores Redis errors: see settings.CACHES); only a session's end (logging
out, logging in) must wait for it, and fails the same way. The page carries the message in the
`data-message` region that htmx swaps into the open table, like a refused move.
"""

import logging

import redis
from django.db import InterfaceError, OperationalError
from django.shortcuts import render

logger = logging.getLogger(__name__)

RESTING = "The game is resting for a moment: try again shortly. Nothing you played is lost."
RETRY_AFTER_SECONDS = 5
UNAVAILABLE = (OperationalError, InterfaceError, redis.RedisError)
"""Redis's errors all count: one that answers with errors (out of disk, a wrong database number)
fails a session's end as one that cannot be reached does."""


class OutageMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        return self.get_response(request)

    def process_exception(self, request, exception):
        if not isinstance(exception, UNAVAILABLE):
            return None
        return resting(request, exception)


def resting(request, exception: Exception):
    logger.warning("Unavailable for %s: %r", request.path, exception)
    response = render(request, "503.html", {"message": RESTING}, status=503)
    response["Retry-After"] = str(RETRY_AFTER_SECONDS)
    return response


def outage_behind(error: BaseException) -> BaseException | None:
    """The database or Redis error that `error` was raised in handling, if any."""
    while error is not None and not isinstance(error, UNAVAILABLE):
        error = error.__context__
    return error
