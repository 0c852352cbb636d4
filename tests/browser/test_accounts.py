"""Accounts in a real browser: one account on two devices plays one deal, the choice at login,
and the account pages on a phone and a desktop."""

from datetime import timedelta

import pytest
from django.contrib.auth import get_user_model
from django.utils import timezone
from playwright.sync_api import expect

from game import play
from game.engine.deck import format_deck
from game.models import Deal, Game
from game.owners import Owner
from tests.browser.conftest import (
    collect_errors,
    focus_ring_contrast,
    screenshot,
    serious_accessibility_violations,
    start_deal,
    take,
)
from tests.day import TODAY
from tests.engine.support import CHAIN_DECK

pytestmark = pytest.mark.browser

PASSWORD = "correct horse battery staple"
PHONE = {"width": 360, "height": 640}
SIDEWAYS = {"width": 640, "height": 360}
LONG_SIDEWAYS = {"width": 720, "height": 360}  # a longer phone on its side, narrower than the page
DESKTOP = {"width": 1280, "height": 800}


@pytest.fixture
def alice():
    return get_user_model().objects.create_user("alice", password=PASSWORD)


def log_in_from_the_table(page, username="alice") -> None:
    page.goto("/")
    page.locator("nav.account").get_by_role("link", name="Log in").click()
    page.fill("input[name=username]", username)
    page.fill("input[name=password]", PASSWORD)
    page.get_by_role("button", name="Log in").click()


def test_with_text_twice_as_large_the_players_name_still_shows(new_device, alice):
    page = new_device(PHONE)
    page.context.new_cdp_session(page).send("Page.setFontSizes", {"fontSizes": {"standard": 32}})
    log_in_from_the_table(page)

    who = page.locator("nav.account .who")
    expect(who).to_have_text("alice")
    assert who.bounding_box()["width"] >= 40
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]


def expect_table(page, cleared: int) -> None:
    expect(page.locator("#status")).to_have_attribute("data-cleared", str(cleared))


def cards(page) -> list[str]:
    return page.locator("#table button").evaluate_all(
        "buttons => buttons.map(b => b.dataset.pos + ':' + (b.dataset.card || 'down'))"
    )


def test_two_devices_play_one_deal_move_for_move(new_device, alice):
    phone, desktop = new_device(PHONE), new_device(DESKTOP)
    log_in_from_the_table(phone)
    expect(phone.locator("nav.account")).to_contain_text("alice")
    start_deal(phone, CHAIN_DECK)
    for pos in (18, 19, 20):
        take(phone, pos)

    log_in_from_the_table(desktop)

    expect(desktop).to_have_url("/")
    expect_table(desktop, 3)
    assert cards(desktop) == cards(phone)
    table = phone.locator("#table").get_attribute("data-table")
    expect(desktop.locator("#table")).to_have_attribute("data-table", table)

    take(desktop, 21)
    phone.reload()
    expect_table(phone, 4)
    take(phone, 22)

    desktop.reload()
    expect_table(desktop, 5)
    desktop.locator("#controls [data-action=undo]").click()
    expect_table(desktop, 4)
    expect(desktop.locator('[data-pos="22"]')).to_have_count(1)

    phone.reload()
    expect_table(phone, 4)
    expect(phone.locator('[data-pos="22"]')).to_have_count(1)
    assert cards(phone) == cards(desktop)
    game = play.current_game(Owner.of_user(alice))
    assert game.moves == [18, 19, 20, 21] and game.undo_count == 1


def test_a_hint_asked_on_a_device_left_behind_brings_its_table_up_to_date(new_device, alice):
    phone, desktop = new_device(PHONE), new_device(DESKTOP)
    log_in_from_the_table(phone)
    start_deal(phone, CHAIN_DECK)
    log_in_from_the_table(desktop)
    take(desktop, 18)

    phone.locator("#controls [data-action=hint]").click()

    expect_table(phone, 1)
    expect(phone.locator("[data-message]")).to_have_text(play.STALE)
    phone.locator("#controls [data-action=hint]").click()
    expect(phone.locator('[data-pos="19"][data-hint]')).to_be_visible()


def test_a_tab_left_open_after_logging_out_in_another_shows_the_player_logged_out(
    new_device, alice
):
    page = new_device()
    log_in_from_the_table(page)
    start_deal(page, CHAIN_DECK)
    take(page, 18)
    left_open = page.context.new_page()
    errors = collect_errors(left_open)
    left_open.goto("/")
    page.locator("[data-logout]").click()
    expect(page.locator("nav.account")).to_contain_text("Log in")

    left_open.locator('[data-pos="19"]').click()

    # The whole page comes back as the session now stands: logged out, the account's deal kept
    # for the next login, not a stranger's table under the account's name.
    account = left_open.locator("nav.account")
    expect(account).to_contain_text("Log in")
    expect(account).not_to_contain_text("alice")
    assert len(errors) == 1 and "404" in errors[0]  # the tap's refusal: no game of theirs
    log_in_from_the_table(left_open)
    expect_table(left_open, 1)


def test_a_tab_whose_token_went_out_of_date_reloads_at_its_next_tap_and_plays_on(new_device, alice):
    page = new_device()
    log_in_from_the_table(page)
    left_open = page.context.new_page()  # its one refusal would fail new_device's console check
    left_open.goto("/")
    page.locator("[data-logout]").click()
    log_in_from_the_table(page)  # a login gives the browser a new token

    # Refused, its token being the old one: the page comes anew, and the tap after it is played.
    with left_open.expect_navigation():
        left_open.locator("#stock").click()
    expect(left_open.locator("#stock")).to_have_attribute("data-stock", "23")
    left_open.locator("#stock").click()
    expect(left_open.locator("#stock")).to_have_attribute("data-stock", "22")


def test_logging_in_with_a_deal_on_each_side_asks_which_to_continue(new_device, alice):
    desktop = new_device(DESKTOP)
    log_in_from_the_table(desktop)
    desktop.locator("[data-deal-form] input[name=deal]").fill("7")
    desktop.locator("[data-deal-form] button").click()
    expect(desktop.locator(".status small")).to_have_text("deal 7")
    desktop.locator("#stock").click()
    expect(desktop.locator("#stock")).to_have_attribute("data-stock", "22")
    phone = new_device(PHONE)
    phone.goto("/")
    start_deal(phone, CHAIN_DECK)
    take(phone, 18)
    take(phone, 19)

    log_in_from_the_table(phone)

    expect(phone).to_have_url("/accounts/choose/")
    expect(phone.locator("[data-choice]")).to_have_count(2)
    # Each figure's name stands on the line of its value.
    for name, value in zip(
        phone.locator("[data-choice] dt").all(),
        phone.locator("[data-choice] dd").all(),
        strict=True,
    ):
        assert name.bounding_box()["y"] == value.bounding_box()["y"]
    screenshot(phone, "accounts-choice-phone")
    desktop.goto("/accounts/choose/")  # the desktop was not asked: it goes to the table
    expect(desktop).to_have_url("/")
    phone.set_viewport_size(DESKTOP)
    screenshot(phone, "accounts-choice-desktop")

    phone.locator("[data-choice]").nth(1).get_by_role("button").click()

    expect(phone).to_have_url("/")
    expect(phone.locator(".status small")).to_have_text("deal 7")
    phone.goto("/accounts/games/")
    phone.get_by_role("button", name="Continue").click()
    expect_table(phone, 2)


def test_account_pages_on_phones_upright_and_sideways_and_a_desktop(new_device, alice):
    deal = Deal.for_number(5)
    results = [Game.Status.WON, Game.Status.DEAD_END, Game.Status.WON, Game.Status.LEFT]
    for i, status in enumerate(results):
        Game.objects.create(
            owner=alice, deal=deal, status=status, move_count=30 + i, active_ms=200_000 + i,
            longest_run=6 + i, cleared=28 if status == Game.Status.WON else 11 + i,
        )  # fmt: skip
    # A scored hand on a deal typed by its code, which the best hands name in full.
    Game.objects.create(
        owner=alice, deal=Deal.for_code(format_deck(CHAIN_DECK)), status=Game.Status.WON,
        scoring=Game.Scoring.PYSOL, score=2100, move_count=28, cleared=28,
        finished_at=timezone.now(),
    )  # fmt: skip
    # Practice set aside unfinished, in no figure, says so in its result: the widest a result reads.
    Game.objects.create(
        owner=alice, deal=deal, status=Game.Status.PLAYING, practice=True, move_count=3,
        current_since=timezone.now() - timedelta(days=1),
    )  # fmt: skip
    screens = {
        "phone": PHONE,
        "sideways": SIDEWAYS,
        "long-sideways": LONG_SIDEWAYS,
        "desktop": DESKTOP,
    }
    for name, viewport in screens.items():
        page = new_device(viewport)
        page.goto("/accounts/signup/")
        page.fill("input[name=username]", "bob")
        page.fill("input[name=password1]", "password")
        page.fill("input[name=password2]", "password")
        page.get_by_role("button", name="Sign up").click()
        expect(page.locator(".errorlist")).to_contain_text("too common")
        screenshot(page, f"accounts-signup-{name}")
        page.goto("/accounts/login/")
        screenshot(page, f"accounts-login-{name}")
        log_in_from_the_table(page)
        page.goto("/accounts/games/")
        expect(page.locator("[data-played]")).to_have_text("5")
        assert page.evaluate("document.documentElement.scrollWidth") <= viewport["width"]
        column = page.locator("main").bounding_box()
        history = page.locator(".history").last.bounding_box()
        assert column["x"] <= history["x"], "the history's left edge is on the page"
        assert history["x"] + history["width"] <= column["x"] + column["width"]
        # A game's name heads its card of figures on a phone, and starts its row in a table.
        game = page.locator("[data-by-rules] tbody th").bounding_box()
        played = page.locator('[data-by-rules] tbody [data-figure="played"]').bounding_box()
        if name != "desktop":
            assert game["y"] + game["height"] <= played["y"], (game, played)
        else:
            assert game["x"] + game["width"] <= played["x"] and game["y"] == played["y"]
        screenshot(page, f"accounts-games-{name}")


@pytest.mark.parametrize("url", ["/accounts/login/", "/accounts/signup/", "/accounts/games/"])
def test_account_pages_have_no_serious_accessibility_violations(new_device, alice, url):
    page = new_device(bypass_csp=True)
    if url.endswith("games/"):
        log_in_from_the_table(page)
    page.goto(url)

    assert serious_accessibility_violations(page) == []


def test_a_focused_field_shows_its_ring_on_the_paper_clear_of_its_help(new_device):
    page = new_device(PHONE)
    page.goto("/accounts/signup/")
    field = page.locator("#id_username")
    assert focus_ring_contrast(field, ".sheet") >= 3
    reach = field.evaluate(
        "(field) => { const ring = getComputedStyle(field);"
        " return parseFloat(ring.outlineWidth) + parseFloat(ring.outlineOffset); }"
    )
    help_box = page.locator("#id_username_helptext").bounding_box()
    assert help_box["y"] + help_box["height"] <= field.bounding_box()["y"] - reach


def test_the_longest_name_leaves_the_account_links_on_a_phone(new_device):
    name = "a" * 150  # the most Django's username field holds
    get_user_model().objects.create_user(name, password=PASSWORD)
    page = new_device(PHONE)
    log_in_from_the_table(page, name)

    for url in ("/", "/accounts/games/"):
        page.goto(url)
        who = page.locator("nav.account .who")
        expect(who).to_have_attribute("title", name)
        assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
        account = page.locator("nav.account")
        daily, games = (
            account.get_by_role("link", name=name) for name in ("Daily deal", "My games")
        )
        for link in (daily, games, page.locator("[data-logout]")):
            box = link.bounding_box()
            assert box["x"] >= 0 and box["x"] + box["width"] <= PHONE["width"], (url, box)


def test_the_history_keeps_a_deals_number_and_a_daily_deals_name_on_one_line(new_device, alice):
    today = TODAY
    for deal, daily in (
        (Deal.for_number(585321), today),
        (Deal.for_code(format_deck(CHAIN_DECK)), None),
    ):
        Game.objects.create(
            owner=alice, deal=deal, daily=daily, status=Game.Status.LEFT, move_count=3,
            rules="headstart+wild",
        )  # fmt: skip
    page = new_device()
    log_in_from_the_table(page)
    for viewport in (PHONE, DESKTOP):
        page.set_viewport_size(viewport)
        page.goto("/accounts/games/")
        deals = page.locator('.history td[data-label="Deal"] code')
        expect(deals).to_have_text([format_deck(CHAIN_DECK), f"daily {today.isoformat()}"])
        daily, code = deals.nth(1).bounding_box(), deals.nth(0).bounding_box()
        one_line = page.locator('.history td[data-label="Result"]').first.bounding_box()["height"]
        assert daily["height"] <= one_line < code["height"], "the deck code breaks, not the name"
        assert page.evaluate("document.documentElement.scrollWidth") <= viewport["width"]


@pytest.mark.parametrize("viewport", [PHONE, DESKTOP], ids=["phone", "desktop"])
def test_my_games_with_text_twice_as_large_keeps_to_the_screen(new_device, alice, viewport):
    for deal, status in (
        (Deal.for_number(5), Game.Status.WON),
        (Deal.for_number(6), Game.Status.LEFT),
    ):
        Game.objects.create(owner=alice, deal=deal, status=status, move_count=30, cleared=20)
    page = new_device(viewport)
    page.context.new_cdp_session(page).send("Page.setFontSizes", {"fontSizes": {"standard": 32}})
    log_in_from_the_table(page)

    page.goto("/accounts/games/")

    expect(page.locator("[data-played]")).to_have_text("2")
    assert page.evaluate("document.documentElement.scrollWidth") <= viewport["width"]
