"""The Redis cache (REDIS_URL): values and sessions round-trip through a real Redis, one client
serves every call, and play goes on while Redis cannot be reached."""

import os

import pytest
import redis
from django.contrib.sessions.models import Session
from django.core.cache import caches
from django.test import override_settings

from game.models import Game
from tests.accounts.conftest import PASSWORD, make_user
from tests.production.harness import free_port
from tests.site.conftest import Player
from tripeaks_site import settings as site_settings
from tripeaks_site.outage import RESTING
from tripeaks_site.sessions import SessionStore

REDIS_URL = "redis://127.0.0.1:6379/15"


# Test processes share this Redis: each keeps to keys of its own prefix and clears only those.
REDIS_CACHE = {
    "default": site_settings.redis_cache(REDIS_URL)
    | {"KEY_PREFIX": os.environ.get("PYTEST_XDIST_WORKER", "main")}
}
# A real client against a port where nothing listens: Redis down, as a player would meet it.
UNREACHABLE_CACHE = {"default": site_settings.redis_cache(f"redis://127.0.0.1:{free_port()}/15")}
# The same Redis, asked for a database it does not have: it answers every connection with an
# error, as one out of disk (MISCONF) answers writes.
ERRING_CACHE = {"default": site_settings.redis_cache("redis://127.0.0.1:6379/9999")}
REDIS_AWAY = pytest.mark.parametrize(
    "away", [UNREACHABLE_CACHE, ERRING_CACHE], ids=["unreachable", "erring"]
)


@pytest.fixture
def redis_cache():
    try:
        redis.Redis.from_url(REDIS_URL).ping()
    except redis.RedisError as error:
        message = f"Redis does not answer at {REDIS_URL}: {error}"
        if os.environ.get("CI") == "true":
            pytest.fail(message, pytrace=False)
        pytest.skip(message)
    with override_settings(CACHES=REDIS_CACHE, SESSION_ENGINE="tripeaks_site.sessions"):
        cache = caches["default"]
        yield cache
        cache.delete_pattern("*")


def test_values_round_trip_through_redis(redis_cache):
    redis_cache.set("answer", {"deal": 42}, timeout=30)

    assert redis_cache.get("answer") == {"deal": 42}
    assert redis.Redis.from_url(REDIS_URL).exists(redis_cache.make_key("answer"))


@pytest.mark.django_db
def test_a_session_is_read_back_from_redis(redis_cache):
    session = SessionStore()
    session["tipped"] = True
    session.save()

    assert SessionStore(session.session_key)["tipped"] is True
    assert redis_cache.get(session.cache_key) == {"tipped": True}


@REDIS_AWAY
def test_without_redis_every_cache_call_answers_as_an_empty_cache(redis_cache, away):
    redis_cache.set("answer", 42, timeout=30)
    with override_settings(CACHES=away):
        cache = caches["default"]

        assert cache.get("answer", "missed") == "missed"
        assert cache.get_many(["answer"]) == {}
        assert "answer" not in cache
        cache.set("answer", 43, timeout=30)
        cache.set_many({"answer": 44})
        assert not cache.add("other", 1)
        cache.delete("answer")
        cache.delete_many(["answer"])
        assert cache.incr("counter", ignore_key_check=True) is None

    assert redis_cache.get("answer") == 42


@pytest.mark.django_db
def test_without_redis_a_sessions_delete_fails_rather_than_leave_its_copy(redis_cache):
    session = SessionStore()
    session["tipped"] = True
    session.save()
    with override_settings(CACHES=UNREACHABLE_CACHE), pytest.raises(redis.ConnectionError):
        SessionStore(session.session_key).delete()

    assert SessionStore(session.session_key)["tipped"] is True


@pytest.mark.django_db
@REDIS_AWAY
def test_without_redis_play_goes_on_from_the_database(client, redis_cache, away):
    player = Player(client)
    game = player.game
    with override_settings(CACHES=away):
        assert client.get("/").status_code == 200
        response = player.post("draw")

    assert response.status_code == 200
    game.refresh_from_db()
    assert game.version == 1
    assert Game.objects.count() == 1


@pytest.mark.django_db
@REDIS_AWAY
def test_logging_out_without_redis_changes_nothing_and_says_to_try_again(client, redis_cache, away):
    client.force_login(make_user("alice"))
    session_key = client.session.session_key
    with override_settings(CACHES=away):
        response = client.post("/accounts/logout/")

    assert response.status_code == 503 and RESTING in response.text
    # The session is whole in the database and in Redis, so it is the same once Redis is back.
    assert Session.objects.filter(session_key=session_key).exists()
    assert redis_cache.get(SessionStore.cache_key_prefix + session_key) is not None
    assert client.get("/accounts/games/").status_code == 200

    client.post("/accounts/logout/")
    assert not Session.objects.filter(session_key=session_key).exists()
    assert redis_cache.get(SessionStore.cache_key_prefix + session_key) is None


@pytest.mark.django_db
@REDIS_AWAY
def test_logging_in_without_redis_changes_nothing_and_says_to_try_again(client, redis_cache, away):
    make_user("alice")
    game = Player(client).game
    session_key = client.session.session_key
    with override_settings(CACHES=away):
        response = client.post("/accounts/login/", {"username": "alice", "password": PASSWORD})

    assert response.status_code == 503 and RESTING in response.text
    game.refresh_from_db()
    assert game.owner is None and game.session_key == session_key
    assert client.session.session_key == session_key
    assert client.get("/accounts/games/").status_code == 302


@pytest.mark.django_db
@REDIS_AWAY
def test_changing_a_password_without_redis_changes_nothing_and_says_to_try_again(
    client, redis_cache, away
):
    alice = make_user("alice")
    client.force_login(alice)
    new = "a brand new passphrase"
    data = {"old_password": PASSWORD, "new_password1": new, "new_password2": new}
    with override_settings(CACHES=away):
        response = client.post("/accounts/password_change/", data)

    assert response.status_code == 503 and RESTING in response.text
    alice.refresh_from_db()
    assert alice.check_password(PASSWORD)  # the password the player was told is unchanged
    assert client.get("/accounts/games/").status_code == 200  # still logged in, to try again
