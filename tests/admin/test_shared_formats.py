"""Staff read a game's time and its cards as the player does: one clock format, one card face."""

import pytest
from django.contrib.auth import get_user_model
from django.test import Client

from game.display import face
from game.engine.cards import card_from_code
from game.models import Deal, Game

from .support import changelist, parse, text_of


@pytest.fixture
def alice_game(db):
    """A game alice left after a few moves and 119.6 seconds of play."""
    alice = get_user_model().objects.create_user("alice")
    return Game.objects.create(
        deal=Deal.for_number(1), owner=alice, status=Game.Status.LEFT, move_count=3,
        active_ms=119_600,
    )  # fmt: skip


def test_staff_and_player_read_the_same_time_for_a_game(staff_client, alice_game):
    player = Client()
    player.force_login(alice_game.owner)

    staff_rows = changelist(staff_client.get("/admin/game/game/").content.decode())
    history = player.get("/accounts/games/").content.decode()

    staff_time = staff_rows[0]["active_time"].text
    player_time = parse(history).find("data-game", str(alice_game.pk)).find("data-label", "Time")
    # The player's clock never showed 2:00, so neither page does.
    assert staff_time == player_time.text == "1:59"


def test_the_staff_picture_draws_each_card_with_the_players_face(staff_client, alice_game):
    html = staff_client.get(f"/admin/game/game/{alice_game.pk}/change/?at=0").content.decode()

    cards = parse(html).find_all("data-card-code")
    assert len(cards) == 28 + 2  # the peaks, the waste and the stock's next card
    for card in cards:
        shown = face(card_from_code(card.attrs["data-card-code"]))
        assert card.text.endswith(shown["rank"] + shown["suit"])
        assert shown["label"] in card.text
        assert ("red" in card.classes) == shown["red"]


def test_statistics_without_games_show_no_average_time(staff_client):
    html = staff_client.get("/admin/statistics/").content.decode()

    assert text_of(html, "data-avg-time") == "– won games –"
