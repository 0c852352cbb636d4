"""Every password checked counts toward the lockout (tripeaks_site/limits.py): a burst of guesses
sent at once checks no more passwords than the lockout allows, and wrong old passwords on the
password change page count as wrong passwords at login do."""

import threading
import time

import pytest
from django.contrib.auth import get_user_model
from django.contrib.auth.hashers import MD5PasswordHasher, make_password
from django.db import connections
from django.test import Client

from tests.accounts.conftest import PASSWORD, log_in, make_user

LOCKED = "Logging in is paused"
WAIT_SECONDS = 20


class GatedHasher(MD5PasswordHasher):
    """Holds every password check until the test lets it finish, so that the test decides which
    checks run at the same time."""

    algorithm = "gated_md5"
    started = 0
    lock = threading.Lock()
    permits = threading.Semaphore(0)

    def verify(self, password, encoded):
        with GatedHasher.lock:
            GatedHasher.started += 1
        assert GatedHasher.permits.acquire(timeout=WAIT_SECONDS)
        return super().verify(password, encoded)


@pytest.fixture
def gated(settings):
    settings.PASSWORD_HASHERS = ["tests.accounts.test_password_attempts.GatedHasher"]
    GatedHasher.started = 0
    GatedHasher.permits = threading.Semaphore(0)
    return GatedHasher


def wait_for(condition):
    deadline = time.monotonic() + WAIT_SECONDS
    while not condition():
        assert time.monotonic() < deadline, "gave up waiting"
        time.sleep(0.01)


class Attempts:
    """Login posts to `url` on threads of their own, each from its own browser at the same
    address."""

    def __init__(self, url: str):
        self.url = url
        self.answers = {}
        self.threads = []

    def send(self, name: str, password: str):
        def post():
            try:
                form = {"username": "alice", "password": password}
                self.answers[name] = Client().post(self.url, form)
            finally:
                connections.close_all()

        thread = threading.Thread(target=post)
        self.threads.append(thread)
        thread.start()

    def settled(self) -> int:
        """Attempts that are either answered or held inside their password check."""
        return len(self.answers) + GatedHasher.started


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("url", ["/accounts/login/", "/admin/login/"], ids=["players", "staff"])
def test_a_burst_of_guesses_checks_no_more_passwords_than_the_lockout_allows(gated, settings, url):
    get_user_model().objects.create(
        username="alice", password=make_password(PASSWORD), is_staff=True
    )
    attempts = Attempts(url)
    guesses = settings.AXES_FAILURE_LIMIT + 3
    for i in range(guesses):
        attempts.send(f"wrong {i}", f"not the password {i}")
    wait_for(lambda: attempts.settled() == guesses)

    # The right password, sent while the wrong ones are still being checked.
    attempts.send("right", PASSWORD)
    wait_for(lambda: attempts.settled() == guesses + 1)
    # The checks finish one at a time, as their failures are written.
    for finished in range(len(attempts.answers) + 1, guesses + 2):
        gated.permits.release()
        wait_for(lambda finished=finished: len(attempts.answers) >= finished)
    for thread in attempts.threads:
        thread.join()

    assert gated.started <= settings.AXES_FAILURE_LIMIT
    right = attempts.answers["right"]
    assert right.status_code == 429 and LOCKED in right.text


def change_password(client: Client, old: str):
    new = "a brand new passphrase"
    data = {"old_password": old, "new_password1": new, "new_password2": new}
    return client.post("/accounts/password_change/", data)


def test_wrong_old_passwords_lock_the_account_out_as_wrong_logins_do(db, settings):
    alice = make_user("alice")
    client = Client()
    client.force_login(alice)

    *before, last = (change_password(client, "a guess") for _ in range(settings.AXES_FAILURE_LIMIT))

    assert all(response.status_code == 200 for response in before)
    assert last.status_code == 429 and LOCKED in last.text
    assert change_password(client, PASSWORD).status_code == 429
    assert log_in(Client(), "alice", PASSWORD).status_code == 429
    alice.refresh_from_db()
    assert alice.check_password(PASSWORD), "the password was not changed"


def test_wrong_logins_lock_the_password_change_too(db, settings):
    alice = make_user("alice")
    for _ in range(settings.AXES_FAILURE_LIMIT):
        log_in(Client(), "alice", "a guess")
    client = Client()
    client.force_login(alice)

    assert change_password(client, PASSWORD).status_code == 429


def test_a_change_refused_for_other_reasons_is_no_wrong_password(db, settings):
    alice = make_user("alice")
    client = Client()
    client.force_login(alice)
    mismatched = {"old_password": PASSWORD, "new_password1": "one new", "new_password2": "other"}

    for _ in range(settings.AXES_FAILURE_LIMIT):
        assert client.post("/accounts/password_change/", mismatched).status_code == 200

    assert log_in(Client(), "alice", PASSWORD).status_code == 302
