"""Only a game's owner, its account or its anonymous session, sees or acts on it: anyone else
gets a 404 from every URL that names a game, and the game stays as it was."""

import pytest
from django.test import Client
from django.urls import reverse

from game.models import Game
from game.urls import urlpatterns as table_urls
from tests.accounts.conftest import account_game, act, anonymous_game, log_in, make_user
from tests.conftest import returning
from tests.site.conftest import HTMX

# Every URL that names one game: the table's actions and its analysis, and My games' continue
# and replay.
GAME_URLS = [p.name for p in table_urls if "game_id" in p.pattern.converters] + [
    "continue_game",
    "replay_deal",
]


def test_the_list_covers_every_action_of_the_table():
    assert set(GAME_URLS) >= {"take", "draw", "undo", "hint", "new", "replay", "deal", "pause"}
    assert {"resume", "continue_game", "replay_deal"} <= set(GAME_URLS)


def request_for(client, name, game, data, headers=None):
    """The request a page sends to the URL: a look at the analysis, a post for any action."""
    url = reverse(name, args=[game.pk])
    if name == "analysis":
        return client.get(url, headers=headers)
    return client.post(url, data, headers=headers)


@pytest.fixture
def victims(db):
    """Alice's account game and an anonymous visitor's game, both with a card drawn."""
    alice_client, visitor = Client(), returning(Client())
    alice = make_user("alice")
    log_in(alice_client, "alice")
    alice_client.get("/")
    visitor.get("/")
    games = [account_game(alice), anonymous_game(visitor)]
    for owner, game in zip([alice_client, visitor], games, strict=True):
        assert act(owner, game, "draw").status_code == 200
    return games


@pytest.fixture
def mallory(db):
    client = Client()
    make_user("mallory")
    log_in(client, "mallory")
    client.get("/")
    return client


def _snapshot(game: Game):
    game.refresh_from_db()
    return (
        game.owner_id,
        game.session_key,
        game.status,
        game.moves,
        game.version,
        game.actions.count(),
    )


@pytest.mark.parametrize("name", GAME_URLS)
@pytest.mark.parametrize("htmx", [True, False])
def test_a_third_user_gets_404_on_every_game_url(victims, mallory, name, htmx):
    for game in victims:
        before = _snapshot(game)
        data = {"version": game.version, "pos": 18, "deal": "7"}

        response = request_for(mallory, name, game, data, HTMX if htmx else None)

        assert response.status_code == 404, (name, game)
        assert _snapshot(game) == before


@pytest.mark.parametrize("name", GAME_URLS)
def test_an_anonymous_visitor_gets_404_on_an_account_game(victims, name):
    alice_game = victims[0]
    before = _snapshot(alice_game)
    stranger = Client()
    stranger.get("/")

    data = {"version": alice_game.version, "pos": 18, "deal": "7"}

    response = request_for(stranger, name, alice_game, data)

    # The account pages ask a stranger to log in first; the table's actions answer 404.
    assert response.status_code in ((302,) if name in ("continue_game", "replay_deal") else (404,))
    assert _snapshot(alice_game) == before


def test_a_third_user_sees_neither_game_anywhere(victims, mallory):
    for page in (mallory.get("/"), mallory.get("/accounts/games/")):
        html = page.content.decode()
        for game in victims:
            assert f'data-table="{game.pk}:' not in html
            assert f"/game/{game.pk}/" not in html and f"/accounts/games/{game.pk}/" not in html
