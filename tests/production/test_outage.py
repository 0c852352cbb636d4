"""A database or Redis error while answering becomes a short 503 page, never a traceback."""

from unittest import mock

import pytest
import redis
from django.db import InterfaceError, OperationalError

from tests.site.conftest import Player
from tripeaks_site.outage import RESTING


@pytest.fixture
def player(client, db):
    return Player(client)


@pytest.mark.parametrize(
    "error", [OperationalError, InterfaceError, redis.ConnectionError, redis.TimeoutError]
)
@pytest.mark.parametrize("htmx", [True, False])
def test_an_unreachable_service_is_a_503_with_the_resting_message(player, error, htmx):
    game = player.game
    with mock.patch("game.play.move", side_effect=error("connection refused")):
        response = player.post("draw", htmx=htmx)

    html = response.content.decode()
    assert response.status_code == 503
    assert response["Retry-After"]
    assert RESTING in html
    assert "Traceback" not in html and "connection refused" not in html
    # htmx swaps the message into the open table's message region.
    assert '<div id="notice" hx-swap-oob="innerHTML">' in html and "data-message" in html
    game.refresh_from_db()
    assert game.version == 0


def test_other_errors_are_left_to_the_usual_handler(player):
    with (
        mock.patch("game.play.move", side_effect=RuntimeError("a bug")),
        pytest.raises(RuntimeError),
    ):
        player.post("draw")


@pytest.mark.parametrize("htmx", [True, False])
def test_a_server_error_is_the_sites_500_page_with_a_notice_for_the_table(player, htmx):
    # A bug cannot be made to happen on purpose: a failing move stands in for one.
    player.client.raise_request_exception = False
    with mock.patch("game.play.move", side_effect=RuntimeError("a bug")):
        response = player.post("draw", htmx=htmx)

    html = response.content.decode()
    assert response.status_code == 500
    assert "Something went wrong on our side; your game is safe." in html
    assert "Traceback" not in html and "a bug" not in html
    assert '<div id="notice" hx-swap-oob="innerHTML">' in html and "data-message" in html


def test_the_health_check_touches_no_database(client):
    # Without the db fixture, pytest-django refuses any query: answering proves there was none.
    response = client.get("/healthz")

    assert response.status_code == 200 and response.content == b"ok\n"
