"""Django's Redis cache, keeping one client per connection pool, and riding out a Redis outage.

Django's client builds a new `redis.Redis` for every cache call, and building one (it copies a
table of response callbacks) costs more than the call itself: on the session read that every
request makes, about a twentieth of a tap. A client is safe to share between threads.

While Redis cannot be reached, a read is a miss and a write is skipped (as Django's sessions
already skip one after writing their row), so sessions come from the database, which holds every
one, and play goes on. A delete is never skipped: a copy left behind would be read again once
Redis is back (`tripeaks_site.sessions`).
"""

import logging

import redis as redis_py
from django.core.cache.backends import redis
from django.core.cache.backends.base import DEFAULT_TIMEOUT

logger = logging.getLogger(__name__)

UNREACHABLE = (redis_py.ConnectionError, redis_py.TimeoutError)


class RedisCacheClient(redis.RedisCacheClient):
    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self._clients = {}

    def get_client(self, key=None, *, write=False):
        index = self._get_connection_pool_index(write)
        if index not in self._clients:
            self._clients[index] = self._client(connection_pool=self._get_connection_pool(write))
        return self._clients[index]


class RedisCache(redis.RedisCache):
    def __init__(self, server, params):
        super().__init__(server, params)
        self._class = RedisCacheClient

    def get(self, key, default=None, version=None):
        try:
            return super().get(key, default, version)
        except UNREACHABLE as error:
            return _unreachable(error, default)

    def get_many(self, keys, version=None):
        try:
            return super().get_many(keys, version)
        except UNREACHABLE as error:
            return _unreachable(error, {})

    def has_key(self, key, version=None):
        try:
            return super().has_key(key, version)
        except UNREACHABLE as error:
            return _unreachable(error, False)

    def set(self, key, value, timeout=DEFAULT_TIMEOUT, version=None):
        try:
            super().set(key, value, timeout, version)
        except UNREACHABLE as error:
            _unreachable(error, None)


def _unreachable(error, answer):
    logger.warning("Redis unreachable, going without the cache: %s", error)
    return answer
