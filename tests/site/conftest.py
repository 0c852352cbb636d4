"""A player at the table through Django's test client: htmx posts by default, plain on request."""

import pytest
from django.core.cache import cache

from game.engine.deck import format_deck
from game.models import Game
from tests.conftest import returning

HTMX = {"HX-Request": "true"}


class Player:
    def __init__(self, client):
        self.client = returning(client)
        self.page = client.get("/")

    @property
    def game(self) -> Game:
        return Game.objects.filter(session_key=self.client.session.session_key).latest("pk")

    def post(self, action, data=None, *, htmx=True, game=None):
        game = game or self.game
        data = {"version": game.version, **(data or {})}
        return self.client.post(f"/game/{game.pk}/{action}", data, headers=HTMX if htmx else {})

    def take(self, pos, **options):
        return self.post("take", {"pos": pos}, **options)

    def start(self, deck):
        """Start a deal by its deck code."""
        response = self.post("deal", {"deal": format_deck(deck)})
        assert response.status_code == 200
        return response


@pytest.fixture
def player(client, db):
    return Player(client)


@pytest.fixture(autouse=True)
def empty_cache():
    """Each test starts with an empty cache: rolled back, a test's game ids are used again by the
    next, and a hint kept for one table must not answer for another's."""
    cache.clear()
