"""A visitor with neither a session nor an account is dealt a table that is stored nowhere: a
page view writes nothing (no session, no game, no log row, no deal). Their first action stores the
table they were dealt, with their session, and acts on it."""

from datetime import timedelta

import pytest
from django.contrib.sessions.models import Session
from django.test import Client

from game import play
from game.models import Action, Deal, Game
from game.play import STALE
from tests.day import TODAY
from tests.site.conftest import HTMX
from tests.site.markup import element, elements, message

pytestmark = pytest.mark.django_db

STORED = (Session, Game, Action, Deal)


def stored_rows() -> dict:
    return {model.__name__: model.objects.count() for model in STORED}


def dealt(page) -> dict:
    """What a newcomer's page shows of their table: its game id and version, and the form field
    every action sends for it: its deal's number, or the daily deal's day (its number unsaid)."""
    game, version = element(page, data_table=True)["data-table"].split(":")
    fields = {
        (field["name"], field["value"])
        for field in elements(page, "input")
        if field.attrs.get("name") in ("dealt", "daily")
    }
    assert len(fields) == 1, "every form sends the one dealt deal"
    return {"game": int(game), "version": int(version)} | dict(fields)


def first_action(client, page, action, data=None, htmx=True):
    table = dealt(page.content)
    form = {"version": table["version"], **table, **(data or {})}
    return client.post(f"/game/{table['game']}/{action}", form, headers=HTMX if htmx else {})


def test_page_views_write_nothing():
    before = stored_rows()

    pages = [Client().get("/") for _ in range(30)]

    assert [page.status_code for page in pages] == [200] * 30
    assert stored_rows() == before
    assert all("sessionid" not in page.cookies for page in pages)
    # Each is dealt a table of its own, its clock not yet running.
    assert len({dealt(page.content)["dealt"] for page in pages}) > 1
    assert not element(pages[0].content, "time", data_clock=True).has("data-running")


@pytest.mark.parametrize("htmx", [True, False], ids=["htmx", "plain"])
def test_the_first_tap_stores_the_dealt_table_and_is_applied(htmx):
    client = Client()
    page = client.get("/")
    number = int(dealt(page.content)["dealt"])

    response = first_action(client, page, "draw", htmx=htmx)

    assert response.status_code == (200 if htmx else 302)
    game = Game.objects.get()
    assert game.deal.number == number
    assert game.moves == ["draw"] and game.running_since is not None
    assert list(game.actions.values_list("kind", flat=True)) == ["new", "draw"]
    again = client.get("/").content
    assert dealt_table_id(again) == game.pk and not elements(again, "input", name="dealt")
    assert not element(page.content, id="tip").has("hidden")
    assert element(again, id="tip").has("hidden"), "the tip was shown on the first visit"


def dealt_table_id(page) -> int:
    return int(element(page, data_table=True)["data-table"].split(":")[0])


@pytest.mark.parametrize(
    ("action", "data"),
    [("take", {"pos": 18}), ("undo", {}), ("hint", {}), ("new", {}), ("replay", {}),
     ("deal", {"deal": "4242"})],
)  # fmt: skip
def test_any_first_action_stores_one_table_and_answers_with_it(action, data):
    client = Client()
    page = client.get("/")

    response = first_action(client, page, action, data)

    assert response.status_code == 200
    games = Game.objects.all()
    assert {game.session_key for game in games} == {client.session.session_key}
    shown = dealt_table_id(response.content)
    assert shown == games.latest("current_since", "pk").pk
    # The answer's controls act on the stored game from now on.
    assert all(form["action"].startswith(f"/game/{shown}/") for form in
               elements(response.content, "form", hx_post=True))  # fmt: skip


@pytest.mark.parametrize("forged", [None, "", "zero", "0", "9" * 19], ids=repr)
def test_a_first_action_without_a_real_dealt_deal_stores_nothing(forged):
    client = Client()
    page = client.get("/")
    table = dealt(page.content)
    form = {"version": 0} | ({"dealt": forged} if forged is not None else {})
    before = stored_rows()

    response = client.post(f"/game/{table['game']}/draw", form, headers=HTMX)

    assert response.status_code == 400 and message(response.content)
    assert stored_rows() == before


@pytest.mark.parametrize(
    ("action", "data"),
    [("take", {"pos": "28"}), ("take", {"pos": "-1"}), ("draw", {"version": "one"}),
     ("deal", {"deal": "ZZ"}), ("deal", {"rules": "reverse"}), ("deal", {"scoring": "vegas"}),
     ("again", {"moves": "3"})],
)  # fmt: skip
@pytest.mark.parametrize("htmx", [True, False], ids=["htmx", "plain"])
def test_a_refused_first_action_stores_nothing_and_shows_the_table_dealt(action, data, htmx):
    client = Client()
    page = client.get("/")
    before = stored_rows()

    response = first_action(client, page, action, data, htmx=htmx)

    assert response.status_code == 400 and message(response.content)
    assert stored_rows() == before and "sessionid" not in response.cookies
    assert dealt(response.content) == dealt(page.content), "the table they were dealt, unstored"
    # Still a newcomer's first action to come: the next, made right, stores the table.
    assert first_action(client, page, "draw").status_code == 200
    assert Game.objects.get().deal.number == int(dealt(page.content)["dealt"])


def test_a_newcomers_post_to_a_stored_game_is_refused_and_stores_nothing(player):
    someone_elses = player.game
    before = stored_rows()

    response = Client().post(f"/game/{someone_elses.pk}/draw", {"version": 0}, headers=HTMX)

    assert response.status_code == 404
    assert stored_rows() == before


def test_a_look_at_the_daily_deal_writes_nothing_and_the_first_action_stores_the_record():
    deal = play.daily_deal(TODAY)  # picked once a day, for everyone
    before = stored_rows()
    client = Client()

    page = client.get("/daily")

    assert page.status_code == 200 and "sessionid" not in page.cookies
    assert stored_rows() == before
    assert f"daily {TODAY.isoformat()}" in page.content.decode()
    # Its number unsaid: typed into the deal form, it would be an ordinary game to rehearse on.
    assert dealt(page.content).keys() == {"game", "version", "daily"}
    assert not element(page.content, id="tip").has("hidden"), "a first visit, by a shared link"
    assert first_action(client, page, "draw").status_code == 200
    record = Game.objects.get()
    assert (record.daily, record.deal, record.moves) == (TODAY, deal, ["draw"])
    assert client.get("/daily").content.count(b'name="dealt"') == 0, "their record from now on"


@pytest.mark.parametrize("forged", ["tomorrow", "2026-02-30", "12/07/2026"])
def test_a_first_action_on_a_forged_daily_deal_stores_nothing(forged):
    client = Client()
    page = client.get("/daily")
    table = dealt(page.content)
    table["daily"] = (TODAY + timedelta(days=1)).isoformat() if forged == "tomorrow" else forged
    before = stored_rows()

    response = client.post(f"/game/{table['game']}/draw", table, headers=HTMX)

    assert response.status_code == 400 and message(response.content)
    assert stored_rows() == before


def test_a_first_action_on_a_past_days_daily_deal_stores_an_ordinary_game_not_a_record():
    # Shown before midnight (UTC) and first played after it, or forged: no record of a past day
    # can be begun, to count in its results and a streak.
    yesterday = TODAY - timedelta(days=1)
    deal = play.daily_deal(yesterday)
    client = Client()
    table = dealt(client.get("/daily").content)
    table["daily"] = yesterday.isoformat()

    assert client.post(f"/game/{table['game']}/draw", table, headers=HTMX).status_code == 200

    game = Game.objects.get()
    assert (game.deal, game.daily, game.moves) == (deal, None, ["draw"])


@pytest.mark.parametrize(("method", "action"), [("get", "analysis"), ("post", "pause"),
                                                 ("post", "resume")])  # fmt: skip
def test_a_newcomers_look_at_or_clock_signal_for_a_stored_game_writes_nothing(
    player, method, action
):
    someone_elses = player.game
    before = stored_rows()
    client = Client()

    response = getattr(client, method)(f"/game/{someone_elses.pk}/{action}")

    assert response.status_code == 404 and "sessionid" not in response.cookies
    assert stored_rows() == before


@pytest.mark.parametrize("action", ["pause", "resume"])
def test_hiding_and_showing_a_dealt_table_stores_nothing(action):
    client = Client()
    client.get("/")
    before = stored_rows()

    assert client.post(f"/game/0/{action}").status_code == 204
    assert stored_rows() == before


def test_a_tap_on_a_table_dealt_in_another_tab_is_stale_once_the_first_tab_stored_its_own():
    # Two tabs opened before any action are dealt two tables. Once the first tab's Hint has
    # stored its table (and started the session), the second tab's table is nobody's: a draw
    # there must change nothing, not draw on the first tab's deal.
    client = Client()
    first, second = client.get("/"), client.get("/")
    assert dealt(first.content)["dealt"] != dealt(second.content)["dealt"]
    assert first_action(client, first, "hint").status_code == 200
    stored = Game.objects.get()

    response = first_action(client, second, "draw")

    stored.refresh_from_db()
    assert response.status_code == 200 and stored.move_count == 0 and Game.objects.count() == 1
    assert dealt_table_id(response.content) == stored.pk
    assert message(response.content) == STALE


def test_ticking_the_winnable_box_stores_the_dealt_table_with_the_choice():
    client = Client()
    page = client.get("/")
    table = dealt(page.content)

    response = client.post("/winnable-only", {"winnable": "on", "dealt": table["dealt"]})

    assert response.status_code == 204
    assert Game.objects.get().running_since is None, "its clock stopped, as the page shows it"
    seen_again = client.get("/")
    assert dealt_table_id(seen_again.content) == Game.objects.get().pk
    assert Game.objects.get().deal.number == int(table["dealt"]), "the table chosen at, kept"
    assert element(seen_again.content, "input", name="winnable").has("checked")


@pytest.mark.parametrize("forged", ["", "zero", "9" * 19], ids=repr)
def test_ticking_the_winnable_box_with_a_forged_dealt_deal_stores_nothing(forged):
    client = Client()
    client.get("/")
    before = stored_rows()

    response = client.post("/winnable-only", {"winnable": "on", "dealt": forged}, headers=HTMX)

    assert response.status_code == 400 and message(response.content)
    assert stored_rows() == before
