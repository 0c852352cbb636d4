from datetime import date, timedelta

import pytest
from django.utils import timezone

from game.engine.deck import format_deck
from game.engine.solver import solve
from game.models import Action, Deal, Game, Verdict
from tests.engine.support import CHAIN_DECK
from tests.site.markup import element, elements, read, text

from .support import changelist, parse, text_of

GAMES = "/admin/game/game/"


def test_a_games_page_shows_its_move_list_and_table_at_any_entry(staff_client, logged_game):
    url = f"{GAMES}{logged_game.pk}/change/"

    latest = parse(staff_client.get(url).content.decode())
    at_one = parse(staff_client.get(url + "?at=1").content.decode())
    at_deal = parse(staff_client.get(url + "?at=0").content.decode())

    entries = latest.find_all("data-seq")
    assert [entry.text.lower().split()[:2] for entry in entries] == [
        ["1", "draw"], ["2", "undo"], ["3", "draw"], ["4", "hint"],
    ]  # fmt: skip
    assert [entry.attrs["data-seq"] for entry in entries if "aria-current" in entry.attrs] == ["4"]
    # The draw leaves 22 cards in the stock, the undo puts one back, the hint changes nothing.
    assert "22 in the stock" in at_one.find("data-table-at").text
    assert "23 in the stock" in at_deal.find("data-table-at").text
    assert "22 in the stock" in latest.find("data-table-at").text


def test_a_long_logs_move_list_comes_a_page_at_a_time_the_page_of_the_entry_shown(staff_client, db):
    kinds = ["draw", "undo"] * 150 + ["draw"]
    game = Game.objects.create(deal=Deal.for_number(1), move_count=151, undo_count=150)
    Action.objects.bulk_create(
        Action(game=game, seq=seq, kind=kind) for seq, kind in enumerate(kinds, 1)
    )
    url = f"{GAMES}{game.pk}/change/"

    latest = parse(staff_client.get(url).content.decode())
    early = parse(staff_client.get(url + "?at=5").content.decode())
    earlier = parse(staff_client.get(url + "?page=1").content.decode())

    listed = [int(entry.attrs["data-seq"]) for entry in latest.find_all("data-seq")]
    assert listed == list(range(201, 302))
    assert "22 in the stock" in latest.find("data-table-at").text
    assert [entry.attrs["data-seq"] for entry in early.find_all("data-seq")][4] == "5"
    assert "22 in the stock" in early.find("data-table-at").text
    assert len(earlier.find_all("data-seq")) == 200
    assert "22 in the stock" in earlier.find("data-table-at").text, "the latest entry's table"


def test_staff_see_face_down_cards_and_the_stock_order(staff_client, logged_game):
    html = staff_client.get(f"{GAMES}{logged_game.pk}/change/?at=0").content.decode()
    deck = logged_game.deal.deck

    face_down = {
        int(card.attrs["data-table-pos"]): card.attrs["data-card-code"]
        for card in parse(html).find_all("data-table-pos")
        if card.attrs["data-state"] == "face-down"
    }
    assert face_down == {pos: deck[2 * pos : 2 * pos + 2] for pos in range(18)}
    stock = text_of(html, "data-stock-order").split()
    assert len(stock) == 23
    assert "".join(stock) == deck[2 * 29 :]


def test_games_are_searched_by_deal_number_deck_code_or_player(staff_client, played):
    def found(term):
        return len(changelist(staff_client.get(GAMES, {"q": term}).content.decode()))

    # Every game is listed, played or not.
    assert found("1") == 3
    assert found("alice") == 3
    assert found(played["second"].deck[:12].lower()) == 3
    assert found("nobody") == 0


def test_games_are_filtered_by_status_and_date(staff_client, played):
    def statuses(**query):
        rows = changelist(staff_client.get(GAMES, query).content.decode())
        return sorted(row["status"].text for row in rows)

    assert statuses(status="dead_end") == ["dead end", "dead end"]
    assert statuses(started_at__year=2026, started_at__month=3, started_at__day=3) == [
        "dead end", "left unfinished", "left untouched",
    ]  # fmt: skip
    assert statuses(status="skipped") == ["left untouched"]
    assert statuses(status="played") == ["dead end", "dead end", "left unfinished", "won"]
    assert statuses() == [
        "dead end", "dead end", "left unfinished", "left untouched", "playing", "won",
    ]  # fmt: skip


def test_games_sorted_by_time_follow_the_time_shown_the_clock_of_a_game_in_play_included(
    staff_client, db
):
    """A game in play shows its banked time and the minutes its clock has been running since."""
    deal = Deal.for_number(1)
    Game.objects.create(deal=deal, status=Game.Status.DEAD_END, move_count=9, active_ms=60_000)
    Game.objects.create(deal=deal, status=Game.Status.LEFT, move_count=9, active_ms=120_000)
    Game.objects.create(
        deal=deal, move_count=3, active_ms=10_000,
        running_since=timezone.now() - timedelta(minutes=5),
    )  # fmt: skip
    [head] = parse(staff_client.get(GAMES).content.decode()).find_all(
        "class", "sortable column-active_time"
    )
    [sort] = [part.attrs["href"] for part in head.descendants() if part.tag == "a"]

    rows = changelist(staff_client.get(f"{GAMES}{sort}").content.decode())

    assert [row["active_time"].text for row in rows] == ["1:00", "2:00", "5:10"]


def test_games_are_listed_and_filtered_by_their_rules_in_words(staff_client, played):
    Game.objects.create(deal=played["second"], rules="open+nowrap", status=Game.Status.WON)
    page = staff_client.get(GAMES, {"rules": "open+nowrap"}).content.decode()

    assert [row["game_rules"].text for row in changelist(page)] == ["Open peaks + No wrap"]
    selected = [item.text for item in elements(page, "li", **{"class": "selected"})]
    assert selected[:2] == ["All", "Open peaks + No wrap"], "each filter says what is chosen"


def test_the_log_is_read_only(staff_client, logged_game):
    action = logged_game.actions.first()
    change = f"/admin/game/action/{action.pk}/change/"

    assert staff_client.get(change).status_code == 200
    assert staff_client.post(change, {"kind": "draw"}).status_code == 403
    assert staff_client.get("/admin/game/action/add/").status_code == 403
    assert staff_client.get(f"/admin/game/action/{action.pk}/delete/").status_code == 403
    assert staff_client.post(f"/admin/game/action/{action.pk}/delete/").status_code == 403
    assert logged_game.actions.get(pk=action.pk).kind == action.kind


@pytest.mark.parametrize("term", ["2", "deal 2"])
def test_deals_are_searched_by_number(staff_client, played, term):
    # Neither counted: the deal under other rules is another game, and practice is no play.
    for rules, practice in (("open", False), ("standard", True)):
        Game.objects.create(
            deal=played["second"], rules=rules, practice=practice, status=Game.Status.WON
        )
    [deal] = changelist(staff_client.get("/admin/game/deal/", {"q": term}).content.decode())

    # Deal 2 has three games, of which two were played (the third was left untouched).
    assert deal["identifier"].text == "2"
    assert deal["games_played"].text == "2"
    games = staff_client.get(deal["games_played"].find("href").attrs["href"]).content.decode()
    # The sidebar's filters say what the link chose, so that another choice replaces it.
    assert [item.text for item in elements(games, "li", **{"class": "selected"})][:4] == [
        "played (won, dead end or left)", "Standard", "All", "No",
    ]  # fmt: skip
    assert sorted(row["status"].text for row in changelist(games)) == [
        "dead end", "left unfinished",
    ]  # fmt: skip


def test_compute_verdict_action_stores_the_solvers_verdict(staff_client, played):
    deal = played["first"]

    response = staff_client.post(
        "/admin/game/deal/",
        {"action": "compute_verdict", "_selected_action": [deal.pk]},
        follow=True,
    )

    assert response.status_code == 200
    stored = Verdict.objects.get(deal=deal, rules="standard")
    assert (stored.result, stored.nodes) == (Deal.Verdict.WINNABLE, solve(deal.cards).nodes)
    listed = changelist(staff_client.get("/admin/game/deal/").content.decode())
    verdicts = {row["identifier"].text: row["standard_verdict"].text for row in listed}
    assert verdicts == {"1": "winnable", "2": "–"}


def test_the_verdict_action_solves_a_batch_at_a_time(staff_client, played, monkeypatch):
    monkeypatch.setattr("game.admin.deals.ACTION_VERDICT_LIMIT", 1)
    deals = [played["first"].pk, played["second"].pk]

    response = staff_client.post(
        "/admin/game/deal/",
        {"action": "compute_verdict", "_selected_action": deals},
        follow=True,
    )

    assert "1 more are waiting: run it again." in response.content.decode()
    assert Verdict.objects.filter(deal__in=deals).count() == 1


def test_a_deals_page_lists_its_verdict_under_each_rule_set(staff_client, played):
    deal = played["first"]
    Verdict.objects.create(deal=deal, rules="standard", result="winnable", nodes=120)
    Verdict.objects.create(deal=deal, rules="open+nowrap", result="unwinnable", nodes=4500)

    html = staff_client.get(f"/admin/game/deal/{deal.pk}/change/").content.decode()

    [verdicts] = [row.text for row in read(html).descendants() if "field-verdicts" in row.classes]
    assert "Open peaks + No wrap: not winnable (4500 positions searched)" in verdicts
    assert "Standard: winnable (120 positions searched)" in verdicts


def test_a_deal_is_read_not_changed_or_deleted_while_its_verdict_can_be_computed(
    staff_client, played
):
    deal = played["second"]

    page = staff_client.get(f"/admin/game/deal/{deal.pk}/change/").content.decode()

    assert not elements(page, name="_save"), "nothing on the page to save"
    assert staff_client.post(f"/admin/game/deal/{deal.pk}/delete/").status_code == 403
    assert Deal.objects.filter(pk=deal.pk).exists()
    listed = staff_client.get("/admin/game/deal/").content.decode()
    assert elements(listed, "option", value="compute_verdict")
    assert "Select deal to view" in listed and "to change" not in listed


def test_games_are_filtered_by_the_verdict_under_their_own_rules(staff_client, played):
    first, second = played["first"], played["second"]
    Verdict.objects.create(deal=first, rules="standard", result="winnable", nodes=1)
    Verdict.objects.create(deal=second, rules="wild", result="winnable", nodes=1)
    wild = Game.objects.create(deal=second, rules="wild", status=Game.Status.WON, move_count=5)

    def games(verdict):
        rows = changelist(staff_client.get(GAMES, {"verdict": verdict}).content.decode())
        return sorted(int(row["id"].text) for row in rows)

    of_first = [game.pk for game in played["games"] if game.deal == first]
    assert games("winnable") == sorted([*of_first, wild.pk]), "the wild game by its wild verdict"
    assert games("undecided") == sorted(game.pk for game in played["games"] if game.deal == second)
    deals = changelist(
        staff_client.get("/admin/game/deal/", {"verdict": "winnable"}).content.decode()
    )
    assert [row["identifier"].text for row in deals] == ["1"]


def test_a_games_table_is_replayed_under_its_own_rules(staff_client, db):
    game = Game.objects.create(deal=Deal.for_number(1), rules="wild", move_count=2)
    Action.objects.create(game=game, seq=1, kind="wild")
    Action.objects.create(game=game, seq=2, kind="take", pos=18)

    html = staff_client.get(f"{GAMES}{game.pk}/change/").content.decode()

    assert "Cleared 1/28" in text_of(html, "data-table-at")
    assert "wild card" in text_of(html, "data-seq", "1").lower()


def test_staff_pages_name_their_icon_so_the_browser_asks_for_no_favicon(staff_client, client):
    for url in ["/admin/", "/admin/statistics/", GAMES]:
        assert elements(staff_client.get(url).content, "link", rel="icon"), url
    staff_client.logout()
    assert elements(client.get("/admin/login/").content, "link", rel="icon")


def test_a_games_table_shows_the_wild_card_held_and_laid(staff_client, db):
    game = Game.objects.create(deal=Deal.for_number(1), rules="wild", move_count=1)
    Action.objects.create(game=game, seq=1, kind="wild")
    page = f"{GAMES}{game.pk}/change/"

    dealt = staff_client.get(f"{page}?at=0").content
    laid = staff_client.get(f"{page}?at=1").content

    assert "the wild card held" in text(element(dealt, data_table_at=True))
    assert "wild card held" not in text(element(laid, data_table_at=True))
    assert elements(laid, "g", data_card_code="wild")
    assert not elements(dealt, "g", data_card_code="wild")


def test_a_deal_dealt_by_its_code_is_listed_cut_short_and_given_whole_on_its_page(staff_client, db):
    code = format_deck(CHAIN_DECK)
    deal = Deal.for_code(code)
    Game.objects.create(deal=deal, status=Game.Status.WON, move_count=28)

    [game] = changelist(staff_client.get(GAMES).content.decode())
    [listed] = changelist(staff_client.get("/admin/game/deal/").content.decode())

    for cell in (game["deal_link"], listed["identifier"]):
        assert len(cell.text) <= 16 and code.startswith(cell.text.rstrip("…"))
    assert code in staff_client.get(f"/admin/game/deal/{deal.pk}/change/").content.decode()


def test_the_log_lists_the_latest_play_first(staff_client, db):
    older, newer = (Game.objects.create(deal=Deal.for_number(n), move_count=1) for n in (1, 2))
    for game in (older, newer):
        Action.objects.create(game=game, seq=1, kind="draw")
    Action.objects.create(game=older, seq=2, kind="draw")

    rows = changelist(staff_client.get("/admin/game/action/").content.decode())

    assert [(row["game_link"].text, row["seq"].text) for row in rows] == [
        (f"Game {older.pk}", "2"), (f"Game {newer.pk}", "1"), (f"Game {older.pk}", "1"),
    ]  # fmt: skip
    # Each entry's own link is its number: the game's link is not wrapped in another.
    for row in rows:
        (game_link,) = [part for part in row["game_link"].children if part.tag == "a"]
        assert game_link.text and not [part for part in game_link.children if part.tag == "a"]
        assert [part.text for part in row["seq"].children if part.tag == "a"] == [row["seq"].text]


def test_the_log_sorted_by_game_lists_the_games_by_their_number(staff_client, db):
    """The column shows a game's number: sorted by it, not by when the game began."""
    first, second = (Game.objects.create(deal=Deal.for_number(n), move_count=1) for n in (1, 2))
    Game.objects.filter(pk=first.pk).update(started_at=second.started_at - timedelta(hours=1))
    for game in (first, second):
        Action.objects.create(game=game, seq=1, kind="draw")
    log = staff_client.get("/admin/game/action/").content.decode()
    [head] = parse(log).find_all("class", "sortable column-game_link")
    [sort] = [part.attrs["href"] for part in head.descendants() if part.tag == "a"]

    rows = changelist(staff_client.get(f"/admin/game/action/{sort}").content.decode())

    assert [row["game_link"].text for row in rows] == [f"Game {first.pk}", f"Game {second.pk}"]


LEFT = Game.Status.LEFT


@pytest.mark.parametrize("term", ["daily 2026-12-06", "2026-12-06"])
def test_a_daily_deal_is_found_by_the_name_players_see(staff_client, db, term):
    day = date(2026, 12, 6)
    deal = Deal.for_number(359643)
    daily = [  # one record of the day per player
        Game.objects.create(deal=deal, daily=day, move_count=1, session_key=key, status=LEFT)
        for key in "ab"
    ]
    Game.objects.create(deal=deal, move_count=1, status=LEFT)  # typed: no daily record
    Game.objects.create(deal=Deal.for_number(7), daily=date(2026, 12, 5), move_count=1)

    games = changelist(staff_client.get(GAMES, {"q": term}).content.decode())
    deals = changelist(staff_client.get("/admin/game/deal/", {"q": term}).content.decode())

    assert sorted(int(row["id"].text) for row in games) == sorted(game.pk for game in daily)
    assert [row["identifier"].text for row in deals] == ["359643"]
    # Its figures as a search by number gives them, not multiplied by the day's records.
    [by_number] = changelist(
        staff_client.get("/admin/game/deal/", {"q": "359643"}).content.decode()
    )
    assert deals[0]["games_played"].text == by_number["games_played"].text
