"""Staff see the analysis of any finished game, from its admin page; players still see only their
own (tests/site/test_analysis.py)."""

import json

from django.contrib.auth import get_user_model
from django.test import Client

from game.engine.analysis import analyse
from game.engine.deck import format_deck
from game.engine.state import Table
from game.models import Deal, Game
from tests.engine.test_analysis import lost_lines
from tests.site.markup import element, elements, text

DECK, LINE = next(lost_lines(1))


def lost_game(owner=None, status=Game.Status.DEAD_END) -> Game:
    return Game.objects.create(
        owner=owner,
        deal=Deal.for_code(format_deck(DECK)),
        moves=list(LINE),
        move_count=len(LINE),
        status=status,
    )


def test_staff_follow_the_game_page_to_its_analysis(staff_client, db):
    game = lost_game(get_user_model().objects.create_user("alice"))

    change = staff_client.get(f"/admin/game/game/{game.pk}/change/").content
    link = element(change, "a", data_analysis_link=True)["href"]
    response = staff_client.get(link)

    assert response.status_code == 200
    page = element(response.content, data_deck=True)
    expected = analyse(DECK, LINE)
    assert page["data-deck"] == game.deal.deck
    assert int(page["data-last-winnable"]) == expected.last_winnable
    line = json.loads(page["data-line"])
    assert Table.replay(DECK, [*LINE[: expected.last_winnable], *line]).won
    assert element(staff_client.get(f"{link}?step=1").content, data_step=True)["data-step"] == "1"
    # Written for staff: of the player, and back to the game's page.
    assert "After the player's first" in text(response.content)
    links = [a["href"] for a in elements(response.content, "a") if text(a) == "Back to the game"]
    assert links == [f"/admin/game/game/{game.pk}/change/"]


def test_a_game_still_being_played_has_no_analysis_yet(staff_client, db):
    game = lost_game(status=Game.Status.PLAYING)

    change = staff_client.get(f"/admin/game/game/{game.pk}/change/").content.decode()
    response = staff_client.get(f"/admin/game/game/{game.pk}/analysis/")

    assert "once the game is over" in change
    assert response.status_code == 404
    assert "still being played" in element(response.content, data_message=True).text


def test_the_staff_analysis_is_for_staff_alone(db):
    owner = get_user_model().objects.create_user("alice")
    game = lost_game(owner)
    client = Client()
    client.force_login(owner)

    response = client.get(f"/admin/game/game/{game.pk}/analysis/")

    assert response.status_code == 302 and response.url.startswith("/admin/login/")
    assert Client().get(f"/admin/game/game/{game.pk + 1}/analysis/").status_code == 302
