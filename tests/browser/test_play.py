"""Playing in a real browser: clicks, keys, refusals, undo, the empty stock, the dead end, the
win, the Hint, the first-run tip and the clock on a hidden tab."""

import re
import time
from contextlib import contextmanager
from unittest import mock

import pytest
from django.db import OperationalError
from playwright.sync_api import expect

from game.engine.deck import format_deck
from game.engine.state import STILL_FACE_DOWN, STOCK_EMPTY
from game.models import Game
from game.views import ANY_CHOSEN, WINNABLE_CHOSEN
from tests.browser.conftest import (
    draw_the_whole_stock,
    first_held,
    focus_ring_contrast,
    play_to_a_proven_loss,
    screenshot,
    settle,
    start_deal,
    take,
    text_contrast,
    unreachable,
    wait_for,
)
from tests.engine.support import CHAIN_DECK, CHAIN_ORDER, deck_with
from tests.site.decks import DEAD_END_DECK
from tripeaks_site.outage import RESTING

pytestmark = pytest.mark.browser


@contextmanager
def hints_held(page):
    """The block's Hint is still being thought out until the block ends: its request is held
    back, then let through. (The test needs the intercepted fixture.)"""
    held = []
    page.route("**/hint", lambda route: held.append(route))
    yield
    first_held(page, held).continue_()
    page.unroute("**/hint")


def test_win_a_deal_by_clicking_and_copy_its_identifier(page, table):
    page.context.grant_permissions(["clipboard-read", "clipboard-write"])
    page.set_viewport_size({"width": 1280, "height": 800})
    start_deal(table, CHAIN_DECK)

    for pos in CHAIN_ORDER:
        take(table, pos)

    panel = table.locator("#panel")
    expect(panel).to_be_visible()
    expect(panel.locator("h2")).to_have_text("Deal cleared!")
    expect(panel.locator("h2")).to_be_focused()
    expect(panel).to_contain_text("Longest run")
    screenshot(table, "desktop-win")
    # A keyboard player sees where focus is on the paper.
    assert focus_ring_contrast(panel.locator("[data-action=new]"), ".panel") >= 3
    panel.locator("[data-copy]").click()
    expect(panel.locator("[data-copy]")).to_have_text("Copied")
    assert table.evaluate("navigator.clipboard.readText()") == format_deck(CHAIN_DECK)

    panel.get_by_text("See the board").click()
    expect(panel.locator("h2")).to_be_hidden()
    expect(panel.get_by_text("Show the result")).to_be_focused()
    panel.get_by_text("Show the result").click()
    expect(panel.locator("h2")).to_be_focused()
    panel.locator("[data-action=new]").click()
    expect(table.locator("#status")).to_have_attribute("data-cleared", "0")
    expect(panel).to_be_hidden()


def test_without_the_script_a_deal_is_won_and_its_identifier_selected_whole(browser, live_server):
    page = browser.new_context(java_script_enabled=False, base_url=live_server.url).new_page()
    page.goto("/")
    start_deal(page, CHAIN_DECK)
    for pos in CHAIN_ORDER:
        take(page, pos)

    field = page.locator("#panel #deal-id")
    expect(field).to_have_value(format_deck(CHAIN_DECK))
    expect(page.locator("#panel [data-copy]")).to_be_hidden()  # it could not copy
    field.select_text()
    selected = field.evaluate("box => box.value.slice(box.selectionStart, box.selectionEnd)")
    assert selected == format_deck(CHAIN_DECK)
    # The rules show nothing of the keys the script alone gives.
    expect(page.locator("#rules").get_by_text("Keys:")).to_be_hidden()


def test_the_rules_tell_the_keys_the_script_gives(table):
    expect(table.locator("#rules").get_by_text("Keys:")).to_be_visible()


def test_a_mis_tap_shows_its_reason_and_changes_nothing(table):
    stock = table.locator("#stock").get_attribute("data-stock")

    table.locator('[data-pos="0"]').click()

    expect(table.locator("[data-message]")).to_have_text(STILL_FACE_DOWN)
    expect(table.locator("#status")).to_have_attribute("data-cleared", "0")
    expect(table.locator("#stock")).to_have_attribute("data-stock", stock)
    # Read on a band of its own, not on the felt's lighter green.
    assert text_contrast(table.locator("[data-message]")) >= 4.5


@pytest.mark.parametrize(
    ("error", "status", "notice"),
    [(RuntimeError("a bug"), 500, "^Something went wrong"), (OperationalError(), 503, RESTING)],
    ids=["bug", "outage"],
)
def test_a_server_error_shows_its_notice_in_the_open_table(
    page, console_errors, error, status, notice
):
    page.goto("/")
    stock = page.locator("#stock").get_attribute("data-stock")
    # A bug, or the database going away, cannot be made to happen on purpose: a failing move
    # stands in for one.
    with mock.patch("game.play.move", side_effect=error):
        page.locator("#stock").click()
        expect(page.locator("[data-message]")).to_have_text(re.compile(notice))
    screenshot(page, f"server-error-{status}")

    expect(page.locator("#stock")).to_have_attribute("data-stock", stock)
    expect(page).to_have_title("TriPeaks")  # the notice page's own title stays out of the table
    # The browser reports the failed request itself; the page's own script logs nothing.
    assert all(f"status of {status}" in message for message in console_errors), console_errors


@pytest.mark.usefixtures("intercepted")
def test_a_tap_on_its_way_shows_it_was_taken_in_until_its_answer(page):
    page.goto("/")
    start_deal(page, CHAIN_DECK)
    held = []
    page.route("**/take", lambda route: held.append(route))
    card = page.locator(f"#c{CHAIN_ORDER[0]}")

    def dimming():
        return card.evaluate("(card) => getComputedStyle(card).filter")

    idle = dimming()

    card.click()
    first_held(page, held)
    expect(card).to_have_class(re.compile(r"\bsent\b"))
    assert wait_for(lambda: dimming() != idle, page=page), "dimmed after a moment"
    held[0].continue_()
    page.unroute("**/take")

    expect(page.locator("#status")).to_contain_text("Cleared 1/28")
    expect(page.locator(".sent")).to_have_count(0)


@pytest.mark.parametrize("failure", ["no connection", "a proxy's 502"])
@pytest.mark.usefixtures("intercepted")
def test_a_tap_that_gets_no_answer_says_so_and_the_next_one_plays(page, failure):
    page.goto("/")

    def fail(route):
        if failure == "no connection":
            route.abort("internetdisconnected")
        else:
            route.fulfill(status=502, body="Bad Gateway")

    page.route("**/draw", fail)
    page.locator("#stock").click()
    expect(page.locator("[data-message]")).to_contain_text("No answer from the site")
    expect(page.locator("#stock")).to_have_attribute("data-stock", "23")
    page.unroute("**/draw")

    page.locator("#stock").click()
    expect(page.locator("#stock")).to_have_attribute("data-stock", "22")


def test_undo_covers_a_card_again_as_face_down(table):
    start_deal(table, CHAIN_DECK)
    take(table, 18)
    take(table, 19)
    expect(table.locator('[data-pos="9"]')).to_have_attribute("data-card", "JC")

    table.locator("#controls [data-action=undo]").click()

    card = table.locator('[data-pos="9"]')
    expect(card).not_to_have_attribute("data-card", "JC")
    expect(card).to_have_attribute("aria-label", "face-down card, left peak, row 3, 1 of 3")
    expect(table.locator('[data-pos="19"]')).to_have_attribute("data-card", "2C")


def test_keyboard_only_play(table):
    start_deal(table, CHAIN_DECK)
    status = table.locator("#status")

    table.keyboard.press("ArrowRight")
    expect(table.locator('[data-pos="18"]')).to_be_focused()
    for cleared in range(1, 4):
        table.keyboard.press("Enter")
        expect(status).to_have_attribute("data-cleared", str(cleared))
        # Focus moves on to the card that can be taken next.
        expect(table.locator(f'[data-pos="{18 + cleared}"]')).to_be_focused()
    table.keyboard.press(" ")
    expect(status).to_have_attribute("data-cleared", "4")

    table.keyboard.press("d")
    expect(table.locator("#stock")).to_have_attribute("data-stock", "22")
    expect(status).to_have_attribute("data-run", "0")
    table.keyboard.press("u")
    expect(table.locator("#stock")).to_have_attribute("data-stock", "23")
    table.keyboard.press("h")
    expect(table.locator("#hint-slot .bar")).to_be_visible()
    expect(table.locator("#table [data-hint]")).to_have_count(1)
    table.keyboard.press("Escape")
    expect(table.locator("#hint-slot .bar")).to_have_count(0)
    expect(table.locator("[data-hint]")).to_have_count(0)
    table.keyboard.press("n")
    expect(status).to_have_attribute("data-cleared", "0")
    expect(status).to_contain_text("deal ")


@pytest.mark.parametrize("focus", ["nowhere", "on the card last played"])
def test_scrolled_down_to_the_rules_the_keys_are_the_pages(table, focus):
    start_deal(table, CHAIN_DECK)
    take(table, 18)
    if focus == "nowhere":
        table.evaluate("document.activeElement.blur()")
    table.evaluate("scrollTo(0, document.body.scrollHeight / 2)")  # as a wheel would
    assert table.locator("#table").evaluate("table => table.getBoundingClientRect().bottom") < 0
    scrolled = table.evaluate("scrollY")
    played = table.locator("#table").get_attribute("data-table")

    for key in ("ArrowDown", "d", "n"):
        table.keyboard.press(key)

    table.wait_for_function("(before) => scrollY > before", arg=scrolled)  # on down the rules
    expect(table.locator("#table")).to_have_attribute("data-table", played)  # no draw, no deal


def test_on_the_account_links_the_keys_are_the_pages(table):
    played = table.locator("#table").get_attribute("data-table")
    table.locator("nav.account a").first.focus()

    table.keyboard.press("n")
    table.keyboard.press("ArrowRight")

    expect(table.locator("nav.account a").first).to_be_focused()
    expect(table.locator("#table")).to_have_attribute("data-table", played)


@pytest.mark.parametrize("width, height", [(360, 640), (640, 360), (1280, 800)])
def test_the_wild_card_says_what_it_does_held_and_laid(table, width, height):
    """A phone shows no title: the button says it in words, and once laid, what lies on the waste
    is said in a line shown, not only to a screen reader. Neither moves a control."""
    table.set_viewport_size({"width": width, "height": height})
    start_deal(table, CHAIN_DECK, rules="wild")
    undo = table.locator("#controls [data-action=undo]")
    place = undo.bounding_box()

    expect(table.locator("[data-action=wild]")).to_have_text("Wild card any card fits on it")
    assert unreachable(table, ["[data-action=wild] small"]) == []
    table.locator("[data-action=wild]").click()
    said = table.locator("#notice p").filter(has_text="any card fits onto it")
    expect(said).to_have_text("Wild card laid: any card fits onto it.")
    settle(table)

    assert said.evaluate("(line) => line.clientWidth > 100 && line.checkVisibility()")
    assert unreachable(table, ["#notice p", "[data-waste]"]) == []
    assert undo.bounding_box() == place
    screenshot(table, f"play-wild-laid-{width}x{height}")


def test_the_letter_keys_can_be_turned_off_on_this_device(table):
    start_deal(table, CHAIN_DECK, rules="wild")
    take(table, 18)  # something to undo
    letter_keys = table.get_by_label("Letter keys play")
    letter_keys.uncheck()
    table.reload()
    expect(letter_keys).not_to_be_checked()  # kept on the device
    actions = []
    table.on("request", lambda request: request.method == "POST" and actions.append(request.url))

    table.locator("#stock").focus()
    for key in ("u", "h", "n", "d", "w", "D"):
        table.keyboard.press(key)
    table.keyboard.press("ArrowRight")  # the other keys still play
    table.keyboard.press("Enter")

    expect(table.locator("#status")).to_have_attribute("data-cleared", "2")
    assert [url.rsplit("/", 1)[-1] for url in actions] == ["take"]  # a letter's would come first
    letter_keys.check()
    table.locator("#stock").focus()
    table.keyboard.press("d")
    expect(table.locator("#stock")).to_have_attribute("data-stock", "22")


def test_a_tab_follows_the_letter_keys_turned_off_in_another(table):
    start_deal(table, CHAIN_DECK)
    other = table.context.new_page()
    other.goto("/")
    other.get_by_label("Letter keys play").uncheck()

    expect(table.get_by_label("Letter keys play")).not_to_be_checked()
    table.locator("#stock").focus()
    table.keyboard.press("d")
    table.keyboard.press("ArrowRight")
    table.keyboard.press("Enter")
    expect(table.locator("#status")).to_have_attribute("data-cleared", "1")
    expect(table.locator("#stock")).to_have_attribute("data-stock", "23")


def test_a_table_brought_back_shows_how_it_stands(table):
    start_deal(table, CHAIN_DECK)
    take(table, 18)
    table.goto("/accounts/login/")
    other = table.context.new_page()
    other.goto("/")
    take(other, 19)

    table.go_back()

    expect(table.locator("#status")).to_have_attribute("data-cleared", "2")


def test_after_an_undo_focus_is_on_a_card_that_can_be_played(table):
    start_deal(table, CHAIN_DECK)
    table.keyboard.press("ArrowRight")
    table.keyboard.press("Enter")
    expect(table.locator('[data-pos="19"]')).to_be_focused()

    table.keyboard.press("u")

    expect(table.locator("#status")).to_have_attribute("data-cleared", "0")
    # The 2 it was on fits the waste's king no more: focus goes to the ace that does.
    expect(table.locator('[data-pos="18"]')).to_be_focused()


def test_tab_reaches_the_cards_that_can_be_taken_and_then_the_stock(table):
    start_deal(table, CHAIN_DECK)
    table.locator("nav.account a").last.focus()

    reached = []
    while not reached or reached[-1] != "stock":
        table.keyboard.press("Tab")
        reached.append(table.evaluate("document.activeElement.id"))
        assert len(reached) <= 30, reached
    takeable = table.locator("#table [data-free]").evaluate_all("all => all.map((e) => e.id)")
    assert reached == [*takeable, "stock"]
    # A covered card still answers a tap with its reason.
    table.locator('[data-pos="0"]').click()
    expect(table.locator("[data-message]")).to_have_text(STILL_FACE_DOWN)


def test_enter_after_a_hint_plays_the_move_it_marks(table):
    start_deal(table, CHAIN_DECK)
    table.locator("#stock").focus()

    table.keyboard.press("h")
    hinted = table.locator("#table [data-hint]")
    expect(hinted).to_be_focused()
    pos = hinted.get_attribute("data-pos")
    table.keyboard.press("Enter")

    expect(table.locator("#status")).to_have_attribute("data-cleared", "1")
    expect(table.locator(f'[data-pos="{pos}"]')).to_have_count(0)
    expect(table.locator("#stock")).to_have_attribute("data-stock", "23")


def test_a_newcomers_first_hint_takes_focus_too_and_enter_plays_it(table):
    table.locator("#controls [data-action=undo]").focus()

    table.keyboard.press("h")
    hinted = table.locator("[data-hint]")
    expect(hinted).to_be_focused()
    pos = hinted.get_attribute("data-pos")  # a card, else the stock
    table.keyboard.press("Enter")

    if pos is None:
        expect(table.locator("#stock")).to_have_attribute("data-stock", "22")
    else:
        expect(table.locator(f'[data-pos="{pos}"]')).to_have_count(0)


@pytest.mark.usefixtures("intercepted")
def test_a_hint_leaves_focus_where_the_player_moved_it_meanwhile(table):
    start_deal(table, CHAIN_DECK)

    with hints_held(table):
        table.keyboard.press("h")
        expect(table.locator("#checking")).to_be_visible()
        table.locator("#stock").focus()

    expect(table.locator("#table [data-hint]")).to_have_count(1)
    expect(table.locator("#stock")).to_be_focused()


def test_after_a_win_tab_passes_over_the_stock_left_under_the_panel(table):
    table.set_viewport_size({"width": 360, "height": 640})
    start_deal(table, CHAIN_DECK)
    for pos in CHAIN_ORDER:
        take(table, pos)
    expect(table.locator("#panel h2")).to_be_focused()

    reached = set()
    for key in ["Tab"] * 40 + ["Shift+Tab"] * 40:
        table.keyboard.press(key)
        reached.add(table.evaluate("document.activeElement.id"))
    assert "deal-id" in reached  # the walk went through the panel
    assert "stock" not in reached
    # Its 23 cards are still told.
    expect(table.locator("#stock")).to_have_attribute("aria-label", "stock, 23 cards")


def test_the_stock_empties_greys_out_and_the_dead_end_panel_appears(table):
    start_deal(table, DEAD_END_DECK)
    stock = table.locator("#stock")

    draw_the_whole_stock(table)

    expect(stock).to_contain_class("empty")
    expect(table.locator("#pile .note")).to_have_text(
        "Nothing left to turn: 28 cards still standing."
    )
    panel = table.locator("#panel")
    expect(panel.locator("h2")).to_have_text("No legal move")
    expect(panel.locator("h2")).to_be_focused()  # not the stock, now empty and under the panel
    screenshot(table, "dead-end")
    # The panel folds away to show the table where the deal ended, as a won one does, its way
    # back ringed as on the felt.
    panel.get_by_text("See the board").click()
    expect(panel.get_by_text("Show the result")).to_be_focused()
    assert focus_ring_contrast(panel.get_by_text("Show the result"), "html") >= 3
    assert unreachable(table, ["#pile .note", "[data-waste]", "#c27"]) == []
    stock.click()  # refused, and the result stays folded away
    expect(table.locator("[data-message]")).to_have_text(STOCK_EMPTY)
    expect(panel.locator("h2")).to_be_hidden()
    panel.get_by_text("Show the result").click()
    expect(panel.locator("h2")).to_be_focused()

    panel.locator("[data-action=undo]").click()
    expect(panel).to_be_hidden()
    expect(stock).to_have_attribute("data-stock", "1")


def test_a_result_folded_away_opens_for_another_deals_result(table):
    start_deal(table, DEAD_END_DECK)
    draw_the_whole_stock(table)
    table.locator("#panel").get_by_text("See the board").click()
    other = table.context.new_page()  # another tab, where the deal is replayed to its end
    other.goto("/")
    other.locator("#panel [data-action=replay]").click()
    expect(other.locator("#panel")).to_be_hidden()
    draw_the_whole_stock(other)

    table.locator("#stock").click()  # answered with the replay's table and its result

    expect(table.locator("#panel h2")).to_be_visible()


def test_the_unsolvable_verdict_stays_in_the_hint_bar_with_four_exits(table):
    play_to_a_proven_loss(table)

    verdict = table.locator("#hint-slot [data-verdict=unsolvable]")
    expect(verdict).to_be_visible()
    expect(table.locator("#hint-slot")).to_contain_text("cannot be finished from here")
    expect(table.locator('[data-pos="0"][data-hint]')).to_be_visible()
    expect(table.locator("#panel")).to_be_hidden()  # the deal is not ended for the player
    for action in ("undo", "hint", "replay", "new"):
        expect(verdict.locator(f"[data-action={action}]")).to_have_count(1)
    screenshot(table, "verdict")
    assert focus_ring_contrast(verdict.locator("[data-action=undo]"), ".bar") >= 3
    table.keyboard.press("Escape")  # focus was in the bar: it goes back to the Hint button
    expect(table.locator("#controls [data-action=hint]")).to_be_focused()
    table.locator("#controls [data-action=hint]").click()
    verdict.locator("[data-action=undo]").click()
    expect(table.locator("#status")).to_have_attribute("data-cleared", "24")
    expect(table.locator("#hint-slot [data-verdict]")).to_have_count(0)


LIVE_REGIONS = "[aria-live], [role=status], [role=alert]"


def test_a_screen_reader_hears_the_hints_reason_alone(table):
    """Not "Checking for a good move…" before every hint, nor a proven loss's exits read on
    after its verdict as if they were words of it."""
    play_to_a_proven_loss(table)
    expect(table.locator("#hint-slot [data-verdict]")).to_be_visible()

    regions = table.evaluate(
        """(live) => [...document.querySelectorAll(live)].map((region) => ({
            said: region.textContent.trim(), buttons: region.querySelectorAll("button").length,
        }))""",
        LIVE_REGIONS,
    )
    verdict = [region for region in regions if "cannot be finished" in region["said"]]
    assert len(verdict) == 1 and verdict[0]["buttons"] == 0
    assert not table.locator("#checking").evaluate("(p, live) => p.closest(live)", LIVE_REGIONS)
    table.keyboard.press("Escape")  # the hint put away, nothing of it is left to be read
    expect(table.locator("#hint-said")).to_be_empty()


def test_a_deal_dealt_from_the_form_is_played_on_from_the_keyboard(table):
    field = table.locator("[data-deal-form] input[name=deal]")
    field.fill(format_deck(CHAIN_DECK))
    with table.expect_response("**/deal"):
        field.press("Enter")

    expect(table.locator('[data-pos="18"]')).to_be_focused()  # the one card that fits
    table.keyboard.press("Enter")
    expect(table.locator("#status")).to_have_attribute("data-cleared", "1")


@pytest.mark.usefixtures("intercepted")
def test_enter_pressed_while_a_hint_is_thought_out_plays_the_hinted_move(table):
    start_deal(table, CHAIN_DECK)
    table.locator("#stock").focus()

    with hints_held(table):
        table.keyboard.press("h")
        expect(table.locator("#checking")).to_be_visible()
        table.keyboard.press("Enter")  # before the hint has landed: not a draw on the stock

    expect(table.locator("#status")).to_have_attribute("data-cleared", "1")  # the hinted ace
    expect(table.locator("#stock")).to_have_attribute("data-stock", "23")


@pytest.mark.usefixtures("intercepted")
def test_the_hint_shows_checking_and_taps_go_on_meanwhile(table):
    start_deal(table, CHAIN_DECK)

    with hints_held(table):
        table.locator("#controls [data-action=hint]").click()
        expect(table.locator("#checking")).to_be_visible()
        take(table, 18)

    expect(table.locator("#checking")).to_be_hidden()
    # That hint answered the table before the take: it is dropped, not shown.
    expect(table.locator("#hint-slot .bar")).to_have_count(0)
    table.locator("#controls [data-action=hint]").click()
    expect(table.locator('[data-pos="19"][data-hint]')).to_be_visible()
    expect(table.locator("#hint-slot")).to_contain_text("Take the 2 of clubs")


@pytest.mark.usefixtures("intercepted")
def test_a_newcomers_hint_asked_while_their_first_draw_is_out_waits_for_it(page, console_errors):
    # A newcomer's first request stores their table and starts their session. A hint sent before
    # its answer carries no session either, so it would start a second one, and the table on
    # screen would then answer no one. Here the hint could only answer last.
    page.goto("/")
    held = {"draw": [], "hint": []}
    page.route("**/game/0/draw", lambda route: held["draw"].append(route))
    page.route("**/game/0/hint", lambda route: held["hint"].append(route))
    with page.expect_request("**/game/0/draw"):
        page.locator("#stock").click()
    page.keyboard.press("h")
    page.wait_for_timeout(300)
    first_held(page, held["draw"]).continue_()
    expect(page.locator("#stock")).to_have_attribute("data-stock", "22")
    for route in held["hint"]:
        route.continue_()

    expect(page.locator("#hint-slot .bar")).to_be_visible()
    page.locator("#stock").click()
    expect(page.locator("#stock")).to_have_attribute("data-stock", "21")
    assert Game.objects.count() == 1
    assert console_errors == []


@pytest.mark.usefixtures("intercepted")
def test_a_newcomers_tap_made_while_their_first_deal_is_dealt_is_not_made_on_it(page):
    # Aimed at the table on screen, not at deal 77, unseen yet.
    page.goto("/")
    held = []
    page.route("**/game/0/deal", lambda route: held.append(route))
    form = page.locator("[data-deal-form]")
    form.locator("input[name=deal]").fill("77")
    with page.expect_request("**/game/0/deal"):
        form.locator("button").click()
    page.locator("#stock").click()
    first_held(page, held).continue_()
    expect(page.locator("h1")).to_contain_text("deal 77")

    page.wait_for_timeout(500)  # time for a queued draw to have gone out, were it made
    expect(page.locator("#stock")).to_have_attribute("data-stock", "23")
    assert Game.objects.get(deal__number=77).moves == []


@pytest.mark.usefixtures("intercepted")
def test_a_newcomers_tap_made_while_their_first_hint_searches_waits_for_it(page, console_errors):
    page.goto("/")
    held = []
    page.route("**/game/0/hint", lambda route: held.append(route))
    with page.expect_request("**/game/0/hint"):
        page.keyboard.press("h")
    page.locator("#stock").click()
    page.wait_for_timeout(300)
    # Sent now, the draw would carry no session and start one of its own: it waits.
    expect(page.locator("#stock")).to_have_attribute("data-stock", "23")
    first_held(page, held).continue_()

    expect(page.locator("#stock")).to_have_attribute("data-stock", "22")
    page.locator("#stock").click()
    expect(page.locator("#stock")).to_have_attribute("data-stock", "21")
    assert Game.objects.count() == 1
    assert console_errors == []


def test_the_first_run_tip_shows_once_and_goes_on_any_action(page, console_errors):
    page.goto("/")
    tip = page.locator("#tip")
    expect(tip).to_be_visible()
    page.locator("#stock").click()
    expect(tip).to_be_hidden()

    page.goto("/")
    expect(tip).to_be_hidden()
    assert console_errors == []


def test_ticking_winnable_deals_only_says_so_beside_the_box_and_the_tip_goes(page):
    page.goto("/")
    controls = page.locator("#controls .controls")
    where = "e => e.getBoundingClientRect().top + scrollY"  # on the page, however scrolled
    before = controls.evaluate(where)
    expect(page.locator("#tip")).to_be_visible()

    page.locator("input[name=winnable]").check()

    expect(page.locator("#winnable-chosen")).to_have_text(WINNABLE_CHOSEN)
    expect(page.locator("#tip")).to_be_hidden()
    assert controls.evaluate(where) == before
    page.locator("input[name=winnable]").uncheck()
    expect(page.locator("#winnable-chosen")).to_have_text(ANY_CHOSEN)


def test_escape_closes_the_first_run_tip(table):
    expect(table.locator("#tip")).to_be_visible()
    table.keyboard.press("Escape")
    expect(table.locator("#tip")).to_be_hidden()


HIDE = """hidden => {
  Object.defineProperty(document, "hidden", {configurable: true, get: () => hidden});
  Object.defineProperty(document, "visibilityState", {
    configurable: true, get: () => (hidden ? "hidden" : "visible")});
  document.dispatchEvent(new Event("visibilitychange"));
}"""


def test_the_clock_stops_while_the_tab_is_hidden_and_a_short_look_away_counts(table):
    # A newcomer's table is stored, and its clock started, by their first action.
    table.locator("#stock").click()
    expect(table.locator("#table")).not_to_have_attribute("data-table", re.compile("^0:"))
    game = Game.objects.get(pk=table.locator("#table").get_attribute("data-table").split(":")[0])
    hidden_since = time.monotonic()

    # The log entry is written after the row, so once it shows, the row has its new clock (the
    # live server may share this test's SQLite connection and show a change before it commits).
    table.evaluate(HIDE, True)
    assert wait_for(lambda: _last_kind(game) == "pause")
    banked = _refreshed(game).active_ms
    assert game.running_since is None
    table.wait_for_timeout(1200)
    assert _refreshed(game).elapsed_ms() == banked

    table.evaluate(HIDE, False)
    assert wait_for(lambda: _last_kind(game) == "resume")
    assert _refreshed(game).running_since is not None
    # Well under a minute away: the whole pause is played time again, and no more than it.
    credited = game.active_ms - banked
    assert 1200 <= credited <= (time.monotonic() - hidden_since) * 1000


def test_a_table_in_view_starts_the_clock_again_that_another_tab_stopped(table):
    table.locator("#stock").click()
    expect(table.locator("#table")).not_to_have_attribute("data-table", re.compile("^0:"))
    game = Game.objects.get(pk=table.locator("#table").get_attribute("data-table").split(":")[0])
    other = table.context.new_page()
    other.clock.install()
    other.goto("/")
    expect(other.locator("#table")).to_have_attribute(
        "data-table", table.locator("#table").get_attribute("data-table")
    )

    # The first tab hidden after the second opened (as a reloaded page's stop may land after
    # the new page): the clock stops though the game is in view.
    table.evaluate(HIDE, True)
    assert wait_for(lambda: _last_kind(game) == "pause")
    other.clock.run_for(31_000)
    assert wait_for(lambda: _last_kind(game) == "resume")
    assert _refreshed(game).running_since is not None


def _last_kind(game):
    return game.actions.values_list("kind", flat=True).last()


def _refreshed(game):
    game.refresh_from_db()
    return game


def first_take_held(page):
    """Deal the chain deck and tap its first card, whose take is held back until the test lets it
    through or fails it: the route held. Later takes are not held. (The test needs the
    intercepted fixture.)"""
    start_deal(page, CHAIN_DECK)
    held = []
    page.route("**/take", lambda route: held.append(route))
    page.locator("#c18").click()
    out = first_held(page, held)
    page.unroute("**/take")
    return out


@pytest.mark.usefixtures("intercepted")
def test_taps_queued_behind_a_slow_one_pass_over_a_card_gone_and_play_on(table):
    out = first_take_held(table)

    for place in ("#c18", "#c19", "#stock"):  # tapped twice while nothing seemed to happen
        table.locator(place).click()
    out.continue_()

    expect(table.locator("#stock")).to_have_attribute("data-stock", "22")
    expect(table.locator("#status")).to_have_attribute("data-cleared", "2")
    assert Game.objects.latest("pk").moves == [18, 19, "draw"]


@pytest.mark.usefixtures("intercepted")
def test_taps_queued_behind_one_that_gets_no_answer_are_not_made(page):
    page.goto("/")  # not the table fixture: the lost take is logged as an error
    lost = first_take_held(page)

    page.locator("#stock").click()  # meant for the table the lost take would have left
    lost.abort("internetdisconnected")

    expect(page.locator("[data-message]")).to_contain_text("No answer from the site")
    page.wait_for_timeout(500)  # time for a queued draw to have gone out, were it made
    expect(page.locator("[data-message]")).to_contain_text("No answer from the site")
    assert Game.objects.latest("pk").moves == []


@pytest.mark.usefixtures("intercepted")
def test_a_deal_asked_for_while_a_tap_is_out_is_dealt_once_it_is_answered(table):
    out = first_take_held(table)

    table.locator("#deal").fill("77")
    table.locator("#deal").press("Enter")
    out.continue_()

    expect(table.locator("#status h1 small")).to_have_text("deal 77")


@pytest.mark.usefixtures("intercepted")
def test_taps_queued_for_a_deal_another_tab_has_replaced_are_not_made(table):
    start_deal(table, CHAIN_DECK)
    other = table.context.new_page()
    other.goto("/")
    start_deal(other, CHAIN_DECK)  # the same cards, dealt again: another game
    held = []
    table.route("**/take", lambda route: held.append(route))
    table.locator("#c18").click()
    out = first_held(table, held)
    table.unroute("**/take")

    table.locator("#c18").click()  # queued: its ace would fit the other game's king too
    out.continue_()

    expect(table.locator("[data-message]")).to_contain_text("changed to another deal")
    table.wait_for_timeout(500)  # time for the queued tap to have gone out, were it made
    assert Game.objects.latest("pk").moves == []
    expect(table.locator("#status")).to_have_attribute("data-cleared", "0")


@pytest.mark.usefixtures("intercepted")
def test_a_newcomers_taps_queued_for_a_deal_another_tab_stored_first_are_not_made(table):
    # Two tabs of one newcomer, each dealt a table of its own: the other's first tap stores its
    # deal, and the first tab's answer is that deal.
    other = table.context.new_page()
    other.goto("/")
    other.locator("#stock").click()
    expect(other.locator("#table")).not_to_have_attribute("data-table", re.compile("^0:"))
    held = []
    table.route("**/draw", lambda route: held.append(route))
    table.locator("#stock").click()
    out = first_held(table, held)
    table.unroute("**/draw")

    table.locator("#stock").click()  # queued, for the deal this tab was dealt
    out.continue_()

    expect(table.locator("#table")).not_to_have_attribute("data-table", re.compile("^0:"))
    table.wait_for_timeout(500)  # time for the queued draw to have gone out, were it made
    assert Game.objects.get().moves == ["draw"]


def test_a_double_taps_second_tap_on_the_card_beneath_is_let_go(table):
    start_deal(table, CHAIN_DECK)
    take(table, 18)
    table.locator("#c9").click(force=True)  # where the 18th card was: a card still covered

    table.wait_for_timeout(300)
    expect(table.locator("[data-message]")).to_have_count(0)
    table.wait_for_timeout(400)  # the taken card has landed: a tap there now is meant
    table.locator("#c9").click(force=True)
    expect(table.locator("[data-message]")).to_contain_text("still covered")


# The ace and the 2 under the 3 of clubs, which the 2 turns up: it fits at once.
TURNED_UP_FITS = deck_with({28: "KS", 18: "AC", 19: "2C", 9: "3C"})


def test_a_double_taps_second_tap_on_a_card_the_first_turned_up_is_let_go(table):
    """The card came face up under the finger: the player never saw it, and in scored play
    there is no undo."""
    start_deal(table, TURNED_UP_FITS)
    take(table, 18)
    # The 2 taken, the 3 of clubs turns up under the finger, and fits; the second tap comes as
    # the table is redrawn (a pointer's click would miss the card mid-flip).
    table.evaluate(
        """async () => {
      const answered = new Promise((resolve) =>
        document.addEventListener("htmx:afterRequest", resolve, { once: true }));
      document.querySelector("#c19").click();
      await answered;
      document.querySelector("#c9").click();
    }"""
    )

    table.wait_for_timeout(300)
    expect(table.locator("#c9")).to_have_attribute("data-card", "3C")  # still on the table
    expect(table.locator("[data-message]")).to_have_count(0)
    table.wait_for_timeout(400)  # seen now: a tap on it is meant
    take(table, 9)


@pytest.mark.usefixtures("intercepted")
def test_a_double_taps_second_tap_sent_before_the_first_is_answered_is_let_go(table):
    """On a slow connection it lands on the same card, gone once the first is answered: that
    is no news to the player."""
    out = first_take_held(table)
    table.locator("#c18").click()
    out.continue_()

    expect(table.locator("#status")).to_have_attribute("data-cleared", "1")
    table.wait_for_timeout(500)  # time for the queued tap to have been said, were it queued
    expect(table.locator("[data-message]")).to_have_count(0)
    assert Game.objects.latest("pk").moves == [18]


@pytest.mark.usefixtures("intercepted")
def test_a_face_down_card_tapped_while_a_take_is_out_is_not_taken_once_turned_up(table):
    start_deal(table, TURNED_UP_FITS)
    take(table, 18)
    held = []
    table.route("**/take", lambda route: held.append(route))
    table.locator("#c19").click()
    out = first_held(table, held)
    table.unroute("**/take")

    table.locator("#c9").click(force=True)  # face down: the 2's answer turns it up, and it fits
    out.continue_()

    expect(table.locator("#c9")).to_have_attribute("data-card", "3C")
    table.wait_for_timeout(500)  # time for a queued tap to have gone out, were it queued
    assert Game.objects.latest("pk").moves == [18, 19]


def test_a_quick_tap_elsewhere_after_a_take_is_answered(table):
    start_deal(table, CHAIN_DECK)
    take(table, 18)
    table.locator("#c20").click()  # the 3: not under the ace just taken, and it does not fit

    expect(table.locator("[data-message]")).to_contain_text("not one rank")


@pytest.mark.usefixtures("intercepted")
def test_a_tap_queued_behind_a_take_is_answered_though_it_comes_just_after_it(table):
    out = first_take_held(table)
    table.locator("#c20").click()  # the 3 cannot follow the ace
    out.continue_()

    expect(table.locator("[data-message]")).to_contain_text("not one rank")
    assert Game.objects.latest("pk").moves == [18]


@pytest.mark.usefixtures("intercepted")
def test_a_hint_answered_while_a_take_is_out_leaves_the_take_its_table(table):
    # The hint's answer redraws the table, whose form sent the take: the take's answer, arriving
    # after, comes from a form no longer on the page, and must still swap nothing itself.
    out = first_take_held(table)
    table.locator("#controls [data-action=hint]").click()
    expect(table.locator("#hint-slot .bar")).to_be_visible()

    out.continue_()

    expect(table.locator("#status")).to_have_attribute("data-cleared", "1")
    expect(table.locator("#table [data-free]").first).to_be_visible()
    expect(table.locator("#controls [data-action=undo]")).to_be_visible()


@pytest.mark.usefixtures("intercepted")
def test_new_deal_pressed_twice_while_its_answer_is_out_deals_once(table):
    start_deal(table, CHAIN_DECK)
    games_before = Game.objects.count()
    dealt_before = table.locator("#table").get_attribute("data-table")
    held = []
    table.route("**/new", lambda route: held.append(route))
    new_deal = table.locator("#controls [data-action=new]")
    new_deal.click()
    out = first_held(table, held)
    table.unroute("**/new")

    new_deal.click()  # a double tap's second
    out.continue_()

    expect(table.locator("#table")).not_to_have_attribute("data-table", dealt_before)
    dealt = table.locator("#table").get_attribute("data-table")
    table.wait_for_timeout(500)  # time for a queued New deal to have gone out, were it made
    assert Game.objects.count() == games_before + 1
    expect(table.locator("#table")).to_have_attribute("data-table", dealt)


def test_in_forced_colours_the_hint_is_told_from_focus_and_its_bar_has_an_edge(table):
    table.emulate_media(forced_colors="active")
    start_deal(table, CHAIN_DECK)
    table.locator("#controls [data-action=hint]").click()
    hinted = table.locator("#table [data-hint]")
    expect(hinted).to_be_visible()

    assert hinted.evaluate("e => getComputedStyle(e).outlineStyle") == "dashed"
    edge = table.locator("#hint-slot .bar").evaluate("e => getComputedStyle(e).borderTopColor")
    assert edge != "rgba(0, 0, 0, 0)" and edge != table.locator("#hint-slot .bar").evaluate(
        "e => getComputedStyle(e).backgroundColor"
    )


def test_a_swap_never_writes_a_style_attribute_which_the_pages_policy_forbids(table):
    # Something outside the page (a browser's autofill, say) may leave a style attribute on the
    # deal field; the swap that deals must not write it back (the browser logs each refused).
    table.locator("#deal").evaluate(
        "(field) => { field.style.color = 'red'; field.style.color = ''; }"
    )
    assert table.locator("#deal").get_attribute("style") == ""

    start_deal(table, DEAD_END_DECK)

    expect(table.locator("#stock")).to_have_attribute("data-stock", "23")
    settle(table)
