"""Players with accounts through Django's test client: they log in through the real form (so
axes and the claim run) and play by posting the table's forms."""

import pytest
from django.contrib.auth import get_user_model
from django.core.cache import cache
from django.test import Client

from game import play
from game.models import Game
from game.owners import Owner
from tests.site.conftest import HTMX

PASSWORD = "correct horse battery staple"


def make_user(username: str):
    return get_user_model().objects.create_user(username, password=PASSWORD)


def log_in(client: Client, username: str, password: str = PASSWORD):
    return client.post("/accounts/login/", {"username": username, "password": password})


def anonymous_game(client: Client) -> Game | None:
    """The game this anonymous visitor's table shows."""
    return play.current_game(Owner(session_key=client.session.session_key))


def account_game(user) -> Game | None:
    """The game on this account's table, on every device."""
    return play.current_game(Owner.of_user(user))


def act(client: Client, game: Game, action: str, **data):
    """Post one of the table's forms for a game, as htmx does, at the game's current version."""
    game.refresh_from_db()
    return client.post(f"/game/{game.pk}/{action}", {"version": game.version, **data}, headers=HTMX)


def start(client: Client, game: Game, deal: str) -> Game:
    """Start a deal (a number or a deck code) from the table's deal form; the new game."""
    assert act(client, game, "deal", deal=deal).status_code == 200
    return Game.objects.latest("pk")


@pytest.fixture(autouse=True)
def _empty_cache():
    """Each test starts uncounted: the limits per address count in the cache, which outlives a
    test's rolled-back database."""
    cache.clear()


@pytest.fixture(autouse=True)
def _fast_passwords(settings):
    """Hashing a password the production way takes a good part of a second."""
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture
def alice(db):
    return make_user("alice")
