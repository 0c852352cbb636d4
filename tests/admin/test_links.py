"""Staff are linked only to the pages they may open: a deal, a game or the games of a deal is
plain text to staff without the permission to view it, rather than a link to a refusal."""

from itertools import combinations
from urllib.parse import urlsplit

import pytest
from django.contrib.auth import get_user_model
from django.contrib.auth.models import Permission

from game.models import Action

from .support import changelist, parse

VIEW = ["view_game", "view_deal", "view_action"]


def staff_who_may(client, *codenames):
    clerk = get_user_model().objects.create_user("clerk", is_staff=True)
    clerk.user_permissions.add(*Permission.objects.filter(codename__in=codenames))
    client.force_login(clerk)
    return clerk


def html_of(client, url) -> str:
    response = client.get(url)
    assert response.status_code == 200, url
    return response.content.decode()


def links(cell) -> list[str]:
    return [element.attrs["href"] for element in cell.find_all("href")]


@pytest.fixture
def often_played(logged_game):
    """The logged game's deal played ten times more, so the statistics list it among the hardest
    and the most played deals, with its verdict stored (the page has nothing to solve)."""
    logged_game.deal.verdicts.create(rules="standard", result="winnable", nodes=1)
    for _ in range(10):
        logged_game.deal.games.create(status="dead_end", move_count=5)
    return logged_game


def pages_open_to(codenames, game) -> list[str]:
    """The staff pages a clerk with these permissions may open: lists, a page of each model and
    the statistics."""
    pages = ["/admin/"]
    if "view_game" in codenames:
        pages += ["/admin/game/game/", f"/admin/game/game/{game.pk}/change/", "/admin/statistics/"]
    if "view_deal" in codenames:
        pages += ["/admin/game/deal/", f"/admin/game/deal/{game.deal_id}/change/"]
    if "view_action" in codenames:
        action = Action.objects.filter(game=game).first()
        pages += ["/admin/game/action/", f"/admin/game/action/{action.pk}/change/"]
    return pages


@pytest.mark.parametrize(
    "codenames",
    [combo for size in (1, 2, 3) for combo in combinations(VIEW, size)],
    ids="+".join,
)
def test_no_staff_page_links_to_a_page_refused_to_its_viewer(client, often_played, codenames):
    staff_who_may(client, *codenames)

    for page in pages_open_to(codenames, often_played):
        for href in links(parse(html_of(client, page))):
            path = urlsplit(href).path
            # Other pages only: a list's own sorting and filters lead back to the list.
            if path.startswith("/admin/") and path != page and "password" not in path:
                assert client.get(href).status_code != 403, f"{page} links to {href}"


def test_a_game_names_its_deal_with_a_link_only_for_staff_who_may_view_deals(client, logged_game):
    clerk = staff_who_may(client, "view_game")
    deal_page = f"/admin/game/deal/{logged_game.deal_id}/change/"
    game_page = f"/admin/game/game/{logged_game.pk}/change/"

    [row] = changelist(html_of(client, "/admin/game/game/"))
    [field] = parse(html_of(client, game_page)).find_all("class", "form-row field-deal_text")
    for cell in (row["deal_text"], field):
        assert "1" in cell.text and not links(cell)
    assert client.get(deal_page).status_code == 403

    clerk.user_permissions.add(Permission.objects.get(codename="view_deal"))
    [row] = changelist(html_of(client, "/admin/game/game/"))
    [field] = parse(html_of(client, game_page)).find_all("class", "form-row field-deal_link")
    for cell in (row["deal_link"], field):
        assert links(cell) == [deal_page]
    assert client.get(deal_page).status_code == 200


def test_the_log_names_its_game_with_a_link_only_for_staff_who_may_view_games(client, logged_game):
    clerk = staff_who_may(client, "view_action")
    game_page = f"/admin/game/game/{logged_game.pk}/change/"

    rows = changelist(html_of(client, "/admin/game/action/"))
    assert [row["game_text"].text for row in rows] == [f"Game {logged_game.pk}"] * 4
    assert not [href for row in rows for href in links(row["game_text"]) if "/game/game/" in href]

    clerk.user_permissions.add(Permission.objects.get(codename="view_game"))
    rows = changelist(html_of(client, "/admin/game/action/"))
    assert {href for row in rows for href in links(row["game_link"])} == {game_page}


def test_a_deal_links_its_games_played_only_for_staff_who_may_view_games(client, logged_game):
    logged_game.deal.games.create(status="won", move_count=40)
    clerk = staff_who_may(client, "view_deal")

    [row] = changelist(html_of(client, "/admin/game/deal/"))
    assert row["games_played_text"].text == "1" and not links(row["games_played_text"])

    clerk.user_permissions.add(Permission.objects.get(codename="view_game"))
    [row] = changelist(html_of(client, "/admin/game/deal/"))
    [games] = links(row["games_played"])
    assert urlsplit(games).path == "/admin/game/game/"
    assert client.get(games).status_code == 200


def test_staff_who_may_change_deals_may_view_them_and_are_linked_to_them(client, often_played):
    """Django lets the permission to change a model stand for the one to view it."""
    staff_who_may(client, "view_game", "change_deal")
    deal_page = f"/admin/game/deal/{often_played.deal_id}/change/"

    row = changelist(html_of(client, "/admin/game/game/"))[0]
    most_played = parse(html_of(client, "/admin/statistics/")).find("id", "most-played")

    assert deal_page in links(row["deal_link"]) and deal_page in links(most_played)
    assert client.get(deal_page).status_code == 200
