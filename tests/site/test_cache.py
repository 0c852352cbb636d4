"""The Redis cache (REDIS_URL): values and sessions round-trip through a real Redis, and one
client serves every call."""

import os

import pytest
import redis
from django.contrib.sessions.backends.cached_db import SessionStore
from django.core.cache import caches
from django.test import override_settings

REDIS_URL = "redis://127.0.0.1:6379/15"
REDIS_CACHE = {"default": {"BACKEND": "tripeaks_site.cache.RedisCache", "LOCATION": REDIS_URL}}


@pytest.fixture
def redis_cache():
    try:
        redis.Redis.from_url(REDIS_URL).ping()
    except redis.RedisError as error:
        message = f"Redis does not answer at {REDIS_URL}: {error}"
        if os.environ.get("CI") == "true":
            pytest.fail(message, pytrace=False)
        pytest.skip(message)
    with override_settings(CACHES=REDIS_CACHE):
        cache = caches["default"]
        yield cache
        cache.clear()


def test_values_round_trip_through_one_client(redis_cache):
    redis_cache.set("answer", {"deal": 42}, timeout=30)

    assert redis_cache.get("answer") == {"deal": 42}
    client = redis_cache._cache.get_client()
    assert redis_cache._cache.get_client(write=True) is client


@pytest.mark.django_db
def test_a_session_is_read_back_from_redis(redis_cache):
    session = SessionStore()
    session["tipped"] = True
    session.save()

    assert SessionStore(session.session_key)["tipped"] is True
    assert redis_cache.get(session.cache_key) == {"tipped": True}
