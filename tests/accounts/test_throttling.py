"""Login throttling (django-axes): repeated wrong passwords lock out that user name from that
address for a while, and the page says so; nothing tells whether the user name exists."""

import re

from django.conf import settings
from django.test import Client

from tests.accounts.conftest import PASSWORD, log_in

LOCKED = "Logging in is paused"
WRONG = "Please enter a correct username and password"


def fail(client: Client, username: str, times: int):
    return [log_in(client, username, "not the password") for _ in range(times)]


def test_the_lockout_settings():
    assert settings.AUTHENTICATION_BACKENDS[0] == "axes.backends.AxesStandaloneBackend"
    assert "axes.middleware.AxesMiddleware" in settings.MIDDLEWARE
    assert settings.AXES_LOCKOUT_PARAMETERS == [["username", "ip_address"]]
    assert settings.AXES_FAILURE_LIMIT == 5
    assert settings.AXES_COOLOFF_TIME.total_seconds() == 15 * 60


def test_wrong_passwords_lock_the_user_name_out_and_say_so(client, alice):
    *before, last = fail(client, "alice", settings.AXES_FAILURE_LIMIT)

    assert all(response.status_code == 200 for response in before)
    assert all(WRONG in response.content.decode() for response in before)
    assert last.status_code == 429
    page = last.content.decode()
    assert LOCKED in page and "paused for 15 minutes" in page
    assert 'href="/static/game/accounts.css"' in page, "the lockout page is in the site's look"


def test_the_right_password_is_refused_while_locked_out(client, alice):
    fail(client, "alice", settings.AXES_FAILURE_LIMIT)

    response = log_in(client, "alice", PASSWORD)

    assert response.status_code == 429 and LOCKED in response.content.decode()
    assert not client.get("/").wsgi_request.user.is_authenticated


def test_the_lockout_is_for_that_user_name_from_that_address_only(client, alice, db):
    fail(client, "alice", settings.AXES_FAILURE_LIMIT)

    assert log_in(Client(REMOTE_ADDR="203.0.113.9"), "alice")["Location"] == "/"
    assert WRONG in log_in(client, "bob", "whatever").content.decode()


def test_a_success_before_the_limit_starts_the_count_again(client, alice):
    fail(client, "alice", settings.AXES_FAILURE_LIMIT - 1)
    assert log_in(client, "alice").status_code == 302
    client.post("/accounts/logout/")

    responses = fail(client, "alice", settings.AXES_FAILURE_LIMIT - 1)

    assert all(response.status_code == 200 for response in responses)


def test_unknown_and_known_user_names_get_the_same_answers(client, alice, db):
    known = fail(client, "alice", settings.AXES_FAILURE_LIMIT)
    unknown = fail(client, "nobody", settings.AXES_FAILURE_LIMIT)

    def words(response):
        html = re.sub(r'(csrfmiddlewaretoken" value=|"x-csrftoken": )"[^"]*"', "", response.text)
        return response.status_code, html.replace("nobody", "alice")

    assert [words(r) for r in known] == [words(r) for r in unknown]
