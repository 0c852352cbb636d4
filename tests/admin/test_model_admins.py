import re

from game.engine.solver import solve
from game.models import Deal

from .support import text_of


def test_a_games_page_shows_its_move_list_and_table_at_any_entry(staff_client, logged_game):
    url = f"/admin/game/game/{logged_game.pk}/change/"

    latest = staff_client.get(url).content.decode()
    at_one = staff_client.get(url + "?at=1").content.decode()
    at_deal = staff_client.get(url + "?at=0").content.decode()

    assert [text_of(latest, f'data-seq="{seq}"').split()[1].lower() for seq in (1, 2, 3, 4)] == [
        "draw", "undo", "draw", "hint",
    ]  # fmt: skip
    assert 'data-seq="4" class="tp-log-current"' in latest
    # The draw leaves 22 cards in the stock, the undo puts one back, the hint changes nothing.
    assert "22 in the stock" in text_of(at_one, "data-table-at")
    assert "23 in the stock" in text_of(at_deal, "data-table-at")
    assert "22 in the stock" in text_of(latest, "data-table-at")


def test_staff_see_face_down_cards_and_the_stock_order(staff_client, logged_game):
    html = staff_client.get(f"/admin/game/game/{logged_game.pk}/change/?at=0").content.decode()

    face_down = re.findall(r'data-table-pos="(\d+)" data-state="face-down" data-card-code', html)
    assert sorted(map(int, face_down)) == list(range(18))
    stock = text_of(html, "data-stock-order").split()
    assert len(stock) == 23
    assert "".join(stock) == logged_game.deal.deck[2 * 29 :]


def test_games_are_searched_by_deal_number_deck_code_or_player(staff_client, played):
    changelist = "/admin/game/game/"

    def found(term):
        html = staff_client.get(changelist, {"q": term}).content.decode()
        return int(re.search(r"(\d+) results?", html).group(1))

    # Every game is listed, played or not.
    assert found("1") == 3
    assert found("alice") == 3
    assert found(played["second"].deck[:12].lower()) == 3
    assert found("nobody") == 0


def test_games_are_filtered_by_status_and_date(staff_client, played):
    html = staff_client.get("/admin/game/game/", {"status__exact": "dead_end"}).content.decode()
    assert "2 results" in html

    day = {"started_at__year": 2026, "started_at__month": 3, "started_at__day": 3}
    html = staff_client.get("/admin/game/game/", day).content.decode()
    assert "3 results" in html

    html = staff_client.get("/admin/game/game/", {"status__exact": "skipped"}).content.decode()
    assert "1 result" in html and "left untouched" in html


def test_the_log_is_read_only(staff_client, logged_game):
    action = logged_game.actions.first()

    assert staff_client.get("/admin/game/action/add/").status_code == 403
    change_page = staff_client.get(f"/admin/game/action/{action.pk}/change/").content.decode()
    assert 'name="_save"' not in change_page
    assert staff_client.get(f"/admin/game/action/{action.pk}/delete/").status_code == 403


def test_deals_are_searched_by_number(staff_client, played):
    html = staff_client.get("/admin/game/deal/", {"q": "2"}).content.decode()

    assert "1 result" in html
    # Deal 2 has three games, of which two were played (the third was left untouched).
    played_link = re.search(r'<td class="field-games_played"><a href="([^"]+)">(\d+)</a>', html)
    assert played_link[2] == "2"
    games = staff_client.get(played_link[1].replace("&amp;", "&")).content.decode()
    statuses = re.findall(r'<td class="field-status">([^<]*)</td>', games)
    assert sorted(statuses) == ["dead end", "left unfinished"]


def test_compute_verdict_action_stores_the_solvers_verdict(staff_client, played):
    deal = played["first"]

    response = staff_client.post(
        "/admin/game/deal/",
        {"action": "compute_verdict", "_selected_action": [deal.pk]},
        follow=True,
    )

    assert response.status_code == 200
    deal.refresh_from_db()
    assert (deal.verdict, deal.verdict_nodes) == (Deal.Verdict.WINNABLE, solve(deal.cards).nodes)


def test_the_verdict_action_solves_a_batch_at_a_time(staff_client, played, monkeypatch):
    monkeypatch.setattr("game.admin.deals.ACTION_VERDICT_LIMIT", 1)
    deals = [played["first"].pk, played["second"].pk]

    response = staff_client.post(
        "/admin/game/deal/",
        {"action": "compute_verdict", "_selected_action": deals},
        follow=True,
    )

    assert "1 more are waiting: run it again." in response.content.decode()
    assert Deal.objects.filter(pk__in=deals).exclude(verdict="").count() == 1
