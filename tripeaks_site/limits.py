"""Limits on what one client can make the site do: password checks and account posts.

A password check costs a good part of a second of a core (the hash is slow on purpose), so:

- Each client address may post to log in, sign up and change a password only so often
  (TRIPEAKS_ADDRESS_RATES, counted by django-ratelimit in the cache), whatever user names it
  tries. Signing up says whether a user name is taken, which is one more reason to slow it.
- Wrong passwords for one user name from one address lock that pair out (django-axes, which
  records each failure once the password has been checked). Checks of that pair that are still
  running count too (`password_attempt`), so a burst sent at once cannot try more passwords than
  the lockout allows.

Both count in the shared cache, Redis in production. The cache ignores Redis errors, so while
Redis is away nothing can be counted: these limits then let requests through (the lockout still
counts failures in the database) rather than lock everyone out.

The client address is the connection's, unless TRIPEAKS_TRUSTED_PROXIES says how many proxies
of the site's own stand in front: then it is the address that the outermost of them saw, read
from X-Forwarded-For, where each proxy appends the address it was reached from.
"""

import hashlib
import ipaddress
from contextlib import contextmanager, suppress

from axes.handlers.proxy import AxesProxyHandler
from django.conf import settings
from django.core.cache import cache
from django_ratelimit.decorators import ratelimit

# Long enough to outlast any one password check, short enough that a count left behind by a
# killed worker goes soon. Each new attempt renews it, so it never ends under a running check.
IN_FLIGHT_SECONDS = 120


def client_address(request) -> str:
    """The address of the client behind the site's trusted proxies (see the module's note)."""
    connection = request.META.get("REMOTE_ADDR", "")
    proxies = settings.TRIPEAKS_TRUSTED_PROXIES
    forwarded = [
        entry.strip()
        for entry in request.META.get("HTTP_X_FORWARDED_FOR", "").split(",")
        if entry.strip()
    ]
    if not proxies or not forwarded:
        return connection
    # Entries left of what the trusted proxies appended are the client's own say, never trusted.
    candidate = forwarded[-min(proxies, len(forwarded))]
    try:
        return str(ipaddress.ip_address(candidate))
    except ValueError:
        return connection


def address_rate(group: str, request) -> str:
    """django-ratelimit's rate for a group of posts (TRIPEAKS_ADDRESS_RATES)."""
    return settings.TRIPEAKS_ADDRESS_RATES[group]


def per_address(group: str):
    """Limits a view's posts per client address; over the limit, django-ratelimit raises
    Ratelimited, which its middleware answers with RATELIMIT_VIEW (a 429 page)."""
    return ratelimit(group=group, key="ip", rate=address_rate, method="POST")


def _in_flight_key(username: str, address: str) -> str:
    pair = f"{username}\n{address}".encode()
    return "password-checks:" + hashlib.sha256(pair).hexdigest()


@contextmanager
def password_attempt(request, username: str):
    """Whether one more password for this user name may be checked now, from this address: the
    failures axes has recorded plus the checks running now, this one among them, must stay
    within AXES_FAILURE_LIMIT. The check is counted as running until the block ends, which must
    come after axes has recorded a failure."""
    key = _in_flight_key(username, client_address(request))
    cache.add(key, 0, IN_FLIGHT_SECONDS)
    try:
        running = cache.incr(key)
    except ValueError:
        running = None  # The count expired between the two calls: nothing to go on.
    if running is None:
        yield True
        return
    try:
        cache.touch(key, IN_FLIGHT_SECONDS)
        failures = AxesProxyHandler.get_failures(request, {"username": username})
        yield failures + running <= settings.AXES_FAILURE_LIMIT
    finally:
        with suppress(ValueError):
            cache.decr(key)
