"""Django's Redis cache, keeping one client per connection pool.

Django's client builds a new `redis.Redis` for every cache call, and building one (it copies a
table of response callbacks) costs more than the call itself: on the session read that every
request makes, about a twentieth of a tap. A client is safe to share between threads.
"""

from django.core.cache.backends import redis


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
