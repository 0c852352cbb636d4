"""Sessions: read from the cache and written through to the database (Django's cached_db), and
renewed by each player's first request of the day.

A deleted session's cached copy is removed before its row; Django removes the row first. Should
Redis be unreachable just then, the copy would stay behind, and once Redis answered again a
session ended by logging out would be read back from it. Removing the copy first, a delete that
cannot reach Redis changes nothing and fails (the player is told to try again), so the session
is whole in both places or gone from both.
"""

from django.conf import settings
from django.contrib.sessions import middleware
from django.contrib.sessions.backends import cached_db
from django.contrib.sessions.backends.db import SessionStore as DatabaseStore
from django.utils import timezone
from django_redis import get_redis_connection

from tripeaks_site.outage import UNAVAILABLE, outage_behind, resting

RENEWED = "renewed"
"""Session key: the day the session was last renewed."""


class SessionStore(cached_db.SessionStore):
    def delete(self, session_key=None):
        session_key = session_key or self.session_key
        if session_key is None:
            return
        # The cache ignores Redis errors (IGNORE_EXCEPTIONS); this delete must not.
        key = self._cache.make_key(self.cache_key_prefix + session_key)
        get_redis_connection(settings.SESSION_CACHE_ALIAS).delete(key)
        DatabaseStore.delete(self, session_key)


class OutageAwareSessionMiddleware(middleware.SessionMiddleware):
    """Django's, but a session that cannot be saved because the database or Redis is away gets
    the resting page, as a view's own database error does. Django answers every failed save as a
    session ended elsewhere meanwhile, with a 400 ("the request could not be read"); a returning
    player's first request of the day saves their session even where the view read nothing."""

    def process_response(self, request, response):
        try:
            return super().process_response(request, response)
        except Exception as error:
            outage = outage_behind(error)
            if outage is None:
                raise
            return resting(request, outage)


class RenewalMiddleware:
    """A player's first request of each day marks their session changed, so it is saved and its
    cookie sent again with a new expiry: a session lasts as long as its player keeps coming back,
    not two weeks from their first visit. An anonymous player reaches their games only through
    it. A visitor without a session gets none from this."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        response = self.get_response(request)
        # After the view, so that a session the view has just begun is marked with its day too.
        today = timezone.localdate().isoformat()
        session = request.session
        try:
            if not session.is_empty() and session.get(RENEWED) != today:
                session[RENEWED] = today
        except UNAVAILABLE:
            pass  # the database is away (the view has said so): renewed on a later request
        return response
