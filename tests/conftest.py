import pytest
from django.test import Client, override_settings

from tests.day import TODAY


@pytest.fixture(scope="session", autouse=True)
def _test_settings():
    """Two costs that production pays once per process, tests pay per test: hashing a password
    the production way takes a good part of a second, and tests create users by the dozen, here
    and on the live server's threads; and every test client loads the middleware anew, where
    WhiteNoise would list every file under STATIC_ROOT (autorefresh looks a file up when it is
    asked for instead). And every test's players come from one address, which would soon ask
    for more Hints than one address may (tests/site/test_deals_and_hints.py sets a rate to test
    it). The servers the production tests start keep the real settings."""
    with override_settings(
        PASSWORD_HASHERS=["django.contrib.auth.hashers.MD5PasswordHasher"],
        WHITENOISE_AUTOREFRESH=True,
        HINT_ADDRESS_RATE=None,
    ):
        yield


@pytest.fixture(autouse=True)
def _one_day(monkeypatch):
    """The daily deal's day is the run's (tests/day.py), midnight or not."""
    from game import display, play  # the site's modules load once Django is set up

    for module in (play, display):
        monkeypatch.setattr(module, "today", lambda: TODAY)


def returning(client: Client) -> Client:
    """A visitor who has a session: they have been here and acted before. A newcomer, with none,
    is dealt a table that is stored only at their first action (tests/site/test_newcomers.py)."""
    client.session.save()  # the test client makes a session and sets its cookie
    return client


@pytest.fixture
def client(client, db):
    """pytest-django's client as a returning visitor."""
    return returning(client)
