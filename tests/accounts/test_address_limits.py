"""Posts per client address (tripeaks_site/limits.py): logging in, signing up and changing a
password are each limited per address, whatever user names are tried; past the rate the answer
is a 429 page in the site's look. The address is the connection's, or behind the site's own
proxies the one the outermost of them saw."""

import pytest
from django.test import Client, RequestFactory

from tests.accounts.conftest import PASSWORD, log_in, make_user
from tests.production.harness import free_port
from tests.site.markup import element, text
from tripeaks_site.limits import client_address

THROTTLED = "Too many tries from here"
WRONG = "Please enter a correct username and password"
RATE = 3


@pytest.fixture(autouse=True)
def _small_rates(settings):
    settings.TRIPEAKS_ADDRESS_RATES = {
        group: f"{RATE}/h" for group in ("login", "signup", "password_change")
    }


def from_address(address: str, forwarded: str | None = None) -> Client:
    headers = {"X-Forwarded-For": forwarded} if forwarded else None
    return Client(REMOTE_ADDR=address, headers=headers)


def assert_throttled(response):
    assert response.status_code == 429
    assert THROTTLED in response.text and "data-throttled" in response.text
    assert 'href="/static/game/accounts.css"' in response.text, "in the site's look"


def test_login_posts_are_limited_per_address_whatever_the_user_names(db):
    client = from_address("198.51.100.7")

    answers = [log_in(client, f"random{i}", "guess") for i in range(RATE)]
    assert all(WRONG in answer.text for answer in answers)

    assert_throttled(log_in(client, "random-next", "guess"))
    assert WRONG in log_in(from_address("198.51.100.8"), "random", "guess").text


def test_the_staffs_login_counts_with_the_players_login(db, settings):
    # Each form's own period, so that the wait said is the login's and no other's.
    settings.TRIPEAKS_ADDRESS_RATES = {
        "login": f"{RATE}/h",
        "signup": f"{RATE}/d",
        "password_change": f"{RATE}/m",
    }
    client = from_address("198.51.100.7")
    staff_login = {"username": "random", "password": "guess"}

    answers = [client.post("/admin/login/", staff_login) for _ in range(RATE - 1)]
    assert all(answer.status_code == 200 for answer in answers)
    log_in(client, "random-player", "guess")

    refused = client.post("/admin/login/", staff_login)
    assert_throttled(refused)
    assert text(element(refused.content, data_wait=True)) == "up to an hour", "the login's rate"
    assert_throttled(log_in(client, "random-player", "guess"))


def test_past_the_rate_even_the_right_password_waits(db):
    make_user("alice")
    client = from_address("198.51.100.7")
    for i in range(RATE):
        log_in(client, f"random{i}", "guess")

    assert_throttled(log_in(client, "alice", PASSWORD))
    assert not client.get("/").wsgi_request.user.is_authenticated


def test_opening_the_pages_is_not_counted(db):
    client = from_address("198.51.100.7")
    for _ in range(RATE + 2):
        assert client.get("/accounts/login/").status_code == 200
        assert client.get("/accounts/signup/").status_code == 200

    assert WRONG in log_in(client, "random", "guess").text


def test_signup_is_limited_per_address_and_then_tells_nothing_about_user_names(db):
    make_user("alice")
    client = from_address("198.51.100.7")
    taken = {"username": "alice", "password1": PASSWORD, "password2": PASSWORD}

    for _ in range(RATE):
        assert "already exists" in client.post("/accounts/signup/", taken).text

    answer = client.post("/accounts/signup/", taken)
    assert_throttled(answer)
    assert "already exists" not in answer.text
    assert element(answer.content, data_wait=True).text == "up to an hour"  # the rate's period


def test_password_change_posts_are_limited_per_address(db):
    alice = make_user("alice")
    client = from_address("198.51.100.7")
    client.force_login(alice)
    mismatched = {"old_password": PASSWORD, "new_password1": "one new", "new_password2": "other"}

    for _ in range(RATE):
        assert client.post("/accounts/password_change/", mismatched).status_code == 200

    assert_throttled(client.post("/accounts/password_change/", mismatched))


def test_without_trusted_proxies_x_forwarded_for_is_ignored(db, settings):
    settings.TRIPEAKS_TRUSTED_PROXIES = 0
    for i in range(RATE):
        log_in(from_address("198.51.100.7", forwarded=f"203.0.113.{i}"), "random", "guess")

    assert_throttled(log_in(from_address("198.51.100.7", forwarded="203.0.113.99"), "x", "y"))


def test_behind_a_trusted_proxy_each_client_is_counted_apart(db, settings):
    settings.TRIPEAKS_TRUSTED_PROXIES = 1
    proxy = "10.0.0.2"
    for i in range(RATE):
        log_in(from_address(proxy, forwarded="203.0.113.5"), f"random{i}", "guess")

    assert_throttled(log_in(from_address(proxy, forwarded="203.0.113.5"), "random", "guess"))
    assert WRONG in log_in(from_address(proxy, forwarded="203.0.113.6"), "random", "guess").text
    # What a client writes into the header itself comes before what the proxy appends.
    forged = from_address(proxy, forwarded="192.0.2.1, 203.0.113.5")
    assert_throttled(log_in(forged, "random", "guess"))


@pytest.mark.parametrize(
    ("proxies", "forwarded", "address"),
    [
        (0, "203.0.113.5", "10.0.0.2"),
        (1, None, "10.0.0.2"),
        (1, "203.0.113.5", "203.0.113.5"),
        (1, "192.0.2.1, 203.0.113.5", "203.0.113.5"),
        (2, "192.0.2.1, 203.0.113.5, 10.0.0.1", "203.0.113.5"),
        # One proxy fewer than configured answered: the one that did saw the client.
        (2, "203.0.113.5", "203.0.113.5"),
        (1, "2001:db8::5", "2001:db8::5"),
        (1, "not an address", "10.0.0.2"),
    ],
)
def test_the_client_address(settings, proxies, forwarded, address):
    settings.TRIPEAKS_TRUSTED_PROXIES = proxies
    headers = {"X-Forwarded-For": forwarded} if forwarded else {}
    request = RequestFactory(REMOTE_ADDR="10.0.0.2").get("/", headers=headers)

    assert client_address(request) == address


def test_the_lockout_counts_the_client_behind_the_proxy_too(db, settings):
    settings.TRIPEAKS_TRUSTED_PROXIES = 1
    settings.TRIPEAKS_ADDRESS_RATES = {"login": "100/h"}
    make_user("alice")
    guesser = from_address("10.0.0.2", forwarded="203.0.113.5")
    for _ in range(settings.AXES_FAILURE_LIMIT):
        log_in(guesser, "alice", "not the password")

    assert log_in(guesser, "alice", PASSWORD).status_code == 429
    assert log_in(from_address("10.0.0.2", forwarded="203.0.113.6"), "alice").status_code == 302


@pytest.fixture
def redis_away(settings):
    """The cache on a Redis that refuses connections, configured as production's: its errors
    are ignored, so a read is a miss and a write is skipped."""
    port = free_port()
    settings.CACHES = {
        "default": {
            "BACKEND": "django_redis.cache.RedisCache",
            "LOCATION": f"redis://127.0.0.1:{port}/0",
            "OPTIONS": {"IGNORE_EXCEPTIONS": True},
        }
    }


def test_while_redis_is_away_nobody_is_throttled_and_the_lockout_still_counts(
    db, settings, redis_away
):
    make_user("alice")
    client = from_address("198.51.100.7")

    answers = [log_in(client, f"random{i}", "guess") for i in range(RATE + 2)]
    assert all(WRONG in answer.text for answer in answers)
    assert log_in(client, "alice", PASSWORD).status_code == 302

    guesser = from_address("198.51.100.8")
    limit = settings.AXES_FAILURE_LIMIT
    *before, last = (log_in(guesser, "alice", "a guess") for _ in range(limit))
    assert all(WRONG in answer.text for answer in before)
    assert last.status_code == 429 and "Logging in is paused" in last.text
