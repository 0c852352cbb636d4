"""Bad input, stale requests, other players' games, CSRF, the security policy and page weight."""

import re
from pathlib import Path

import pytest
from django.contrib.staticfiles import finders
from django.test import Client

from game import play
from game.engine.cards import card_code, card_label
from game.engine.geometry import TABLEAU_SIZE
from game.models import Game
from tests.engine.support import CHAIN_DECK
from tests.site.conftest import HTMX, Player

PAGE_BUDGET = 80 * 1024


@pytest.mark.parametrize("htmx", [True, False])
@pytest.mark.parametrize(
    ("data", "problem"),
    [
        ({"pos": "x"}, "pos must be a whole number"),
        ({"pos": "-1"}, "pos must be a whole number"),
        ({"pos": "28"}, "pos must be a tableau position from 0 to 27"),
        ({}, "pos must be a tableau position from 0 to 27"),
        ({"pos": "18", "version": "v1"}, "version must be a whole number"),
        ({"pos": "\u00b2"}, "pos must be a whole number"),
        ({"pos": "18", "version": "9" * 5000}, "version must be a whole number"),
    ],
)
def test_bad_input_is_a_400_with_a_clear_message(player, data, problem, htmx):
    before = player.game

    response = player.post("take", data, htmx=htmx)

    assert response.status_code == 400
    assert problem in response.content.decode()
    after = player.game
    assert (after.version, after.moves) == (before.version, before.moves)


@pytest.mark.parametrize("htmx", [True, False])
def test_an_unknown_game_is_a_404(player, htmx):
    response = player.client.post("/game/999999/draw", {"version": 0}, headers=HTMX if htmx else {})

    assert response.status_code == 404
    assert play.NOT_YOURS in response.content.decode()


@pytest.mark.parametrize("game_id", ["9" * 19, "1" + "0" * 19, "18446744073709551616"])
def test_a_game_id_too_large_for_the_database_is_a_404(player, game_id):
    for action in ("draw", "hint", "pause"):
        response = player.client.post(f"/game/{game_id}/{action}", {"version": 0})

        assert response.status_code == 404


def test_an_unknown_address_is_a_404_in_the_sites_look_with_the_way_back(client, db):
    response = client.get("/no/such/page")

    page = response.content.decode()
    assert response.status_code == 404
    assert "There is no such page here." in page and "/static/game/tripeaks.css" in page
    assert '<a class="btn" href="/">Back to the table</a>' in page


def test_someone_elses_game_is_a_404_and_stays_as_it_was(player, db):
    victim = player.game
    intruder = Player(Client())

    response = intruder.post("draw", game=victim)

    assert response.status_code == 404 and play.NOT_YOURS in response.content.decode()
    victim.refresh_from_db()
    assert victim.moves == [] and victim.version == 0


def test_a_post_without_the_csrf_token_is_refused_with_a_friendly_page(db):
    client = Client(enforce_csrf_checks=True)
    client.get("/")
    game = Game.objects.get()

    response = client.post(f"/game/{game.pk}/draw", {"version": 0})

    assert response.status_code == 403
    assert "This page has expired" in response.content.decode()
    game.refresh_from_db()
    assert game.moves == []


def test_htmx_sends_the_csrf_token_from_the_page_so_fragments_leave_the_field_out(db):
    client = Client(enforce_csrf_checks=True)
    page = client.get("/").content.decode()
    token = re.search(r'"x-csrftoken": "([^"]+)"', page)[1]
    assert 'name="csrfmiddlewaretoken"' in page  # plain posts need it
    game = Game.objects.get()

    response = client.post(
        f"/game/{game.pk}/draw",
        {"version": 0},
        headers={"HX-Request": "true", "X-CSRFToken": token},
    )

    assert response.status_code == 200
    assert "csrfmiddlewaretoken" not in response.content.decode()
    game.refresh_from_db()
    assert game.moves == ["draw"]


def test_a_stale_version_gets_the_current_table_back(player):
    player.start(CHAIN_DECK)
    player.take(18)

    response = player.post("take", {"pos": 19, "version": 0})

    html = response.content.decode()
    assert response.status_code == 200 and play.STALE in html
    assert 'data-cleared="1"' in html
    assert player.game.moves == [18]


def test_a_tap_on_a_game_left_in_another_tab_shows_the_players_current_table(player):
    left = player.game
    player.post("new", game=left)
    current = player.game

    response = player.post("draw", game=left)

    html = response.content.decode()
    assert play.STALE in html
    assert f'data-table="{current.pk}:{current.version}"' in html
    left.refresh_from_db()
    assert left.moves == [] and left.status == Game.Status.SKIPPED


def test_a_double_submitted_new_deal_deals_once(player):
    old = player.game
    player.post("new", game=old)

    response = player.post("new", {"version": 0}, game=old)

    assert play.STALE in response.content.decode()
    assert Game.objects.count() == 2


def test_the_security_policy_forbids_inline_code(player):
    policy = player.page["Content-Security-Policy"]

    assert "script-src 'self'" in policy and "style-src 'self'" in policy
    assert "unsafe" not in policy
    page = player.page.content.decode()
    assert "<script>" not in page and " style=" not in page and "hx-on" not in page


def _without_tokens(html: str) -> str:
    html = re.sub(r'name="csrfmiddlewaretoken" value="[^"]*"', "", html)
    return re.sub(r'"x-csrftoken": "[^"]*"', "", html)


def _hidden_cards(game):
    """Cards the player must not be told: face-down peak cards and the stock."""
    table = play.table_of(game)
    hidden = [
        table.deck[p]
        for p in range(TABLEAU_SIZE)
        if not table.is_removed(p) and not table.is_face_up(p)
    ]
    return hidden + list(table.deck[table.stock_next :])


def _assert_nothing_hidden_shows(game, html):
    html = _without_tokens(html)
    for card in _hidden_cards(game):
        code = card_code(card)
        assert not re.search(rf"(?<![A-Za-z0-9]){code}(?![A-Za-z0-9])", html), code
        assert card_label(card) not in html, card_label(card)
    assert game.deal.deck not in html


def test_face_down_cards_and_the_stock_never_appear(player):
    """Play a numbered deal to its end, looking at every response and page along the way."""
    player.post("deal", {"deal": "7"})
    for _ in range(80):
        game = player.game
        table = play.table_of(game)
        if table.over:
            break
        legal = table.legal_takes()
        responses = [
            player.take(legal[0]) if legal else player.post("draw"),
            player.post("hint"),
            player.take(0),
        ]
        game = player.game
        for response in [*responses, player.client.get("/")]:
            _assert_nothing_hidden_shows(game, response.content.decode())
    assert play.table_of(player.game).over


def test_the_first_page_weighs_at_most_80_kb(player):
    html = player.page.content
    assets = re.findall(r'(?:src|href)="/static/([^"]+)"', html.decode())
    weight = len(html) + sum(Path(finders.find(path)).stat().st_size for path in assets)

    assert len(assets) == 3
    assert weight <= PAGE_BUDGET, weight
