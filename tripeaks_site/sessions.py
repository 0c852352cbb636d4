"""Sessions read from the cache and written through to the database (Django's cached_db), with a
deleted session's cached copy removed before its row.

Django removes the row first. Should Redis be unreachable just then, the copy would stay behind,
and once Redis answered again a session ended by logging out would be read back from it. Removing
the copy first, a delete that cannot reach Redis changes nothing and fails (the player is told to
try again), so the session is whole in both places or gone from both.
"""

from django.contrib.sessions.backends import cached_db
from django.contrib.sessions.backends.db import SessionStore as DatabaseStore


class SessionStore(cached_db.SessionStore):
    def delete(self, session_key=None):
        session_key = session_key or self.session_key
        if session_key is None:
            return
        self._cache.delete(self.cache_key_prefix + session_key)
        DatabaseStore.delete(self, session_key)
