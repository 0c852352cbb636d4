"""The table on a phone and on a desktop: it fits, its targets are big enough, it is accessible."""

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import (
    AXE,
    contrast,
    draw_the_whole_stock,
    screenshot,
    serious_accessibility_violations,
    start_deal,
    take,
)
from tests.engine.support import CHAIN_DECK, CHAIN_ORDER
from tests.site.decks import KNOWN_LOSS_DECK

pytestmark = pytest.mark.browser


@pytest.fixture
def phone(page):
    page.set_viewport_size({"width": 360, "height": 640})
    return page


def test_phone_portrait_fits_without_horizontal_scroll(phone, table):
    scroll_width = table.evaluate("document.documentElement.scrollWidth")
    assert scroll_width <= 360

    for card in table.locator("#table button").all():
        box = card.bounding_box()
        assert box["height"] >= 44
        assert box["x"] >= 0 and box["x"] + box["width"] <= 360
    for button in table.locator(".controls .btn, #stock").all():
        box = button.bounding_box()
        assert box["height"] >= 44 and box["width"] >= 44
    # The account links and the deal form's box reach as far for a finger, in less of a line.
    for target in table.locator(".account a, .deal .check").all():
        assert target.bounding_box()["height"] >= 44
    for link in table.locator(".account a").all():  # "Log in", the shortest, too
        assert link.bounding_box()["width"] >= 44
    screenshot(table, "phone-start")


def test_quick_taps_on_a_phone_never_zoom_the_page(phone, table):
    # Chromium never double-tap zooms a page fitted to the device's width, so what is checked is
    # what mobile Safari honours: every target on the page lets through pans and pinches only.
    for target in table.locator("#play button, #play a").all():
        assert target.evaluate("element => getComputedStyle(element).touchAction") == "manipulation"


def test_a_phones_browser_bar_takes_the_felts_colour(phone, table):
    bar = table.locator('meta[name="theme-color"]').get_attribute("content")
    felt = table.evaluate(
        "getComputedStyle(document.documentElement).getPropertyValue('--felt').trim()"
    )
    assert bar.lower() == felt.lower()


def test_a_phone_can_install_the_table_as_an_app(phone, table):
    cdp = table.context.new_cdp_session(table)
    manifest = cdp.send("Page.getAppManifest")
    errors = {error["errorId"] for error in cdp.send("Page.getInstallabilityErrors")[
        "installabilityErrors"]}  # fmt: skip

    # Test contexts are private windows, where Chromium installs nothing: that is the one
    # reason left.
    assert errors <= {"in-incognito"}
    assert manifest["manifest"]["display"] == "kStandalone"
    colour = manifest["manifest"]["themeColor"]
    bar = table.locator('meta[name="theme-color"]').get_attribute("content")
    assert colour == "rgba({},{},{},1)".format(*bytes.fromhex(bar.removeprefix("#")))


def test_phone_mid_game(phone, table):
    start_deal(table, CHAIN_DECK)
    for pos in CHAIN_ORDER[:12]:
        take(table, pos)
    table.locator("#stock").click()
    expect(table.locator("#status")).to_have_attribute("data-run", "0")
    screenshot(table, "phone-mid-game")


def test_desktop_plays_with_the_mouse(page, table):
    page.set_viewport_size({"width": 1280, "height": 800})
    start_deal(table, CHAIN_DECK)
    for pos in CHAIN_ORDER[:5]:
        take(table, pos)
    expect(table.locator("#status")).to_contain_text("Cleared 5/28")
    assert table.evaluate("document.documentElement.scrollWidth") <= 1280
    screenshot(table, "desktop-mid-game")


def test_no_serious_accessibility_violations(browser, live_server):
    context = browser.new_context(bypass_csp=True, base_url=live_server.url)
    page = context.new_page()
    page.goto("/")

    assert serious_accessibility_violations(page) == []


def test_zoomed_in_past_the_narrowest_phone_every_card_can_be_scrolled_to(page, table):
    page.set_viewport_size({"width": 180, "height": 320})  # a 360 px phone at 200 % zoom

    for pos in (18, 27):
        card = table.locator(f"#c{pos}")
        card.scroll_into_view_if_needed()
        box = card.bounding_box()
        assert box["x"] >= 0 and box["x"] + box["width"] <= 180


def test_the_rules_link_takes_focus_to_the_rules(table):
    table.locator('#controls a[href="#rules"]').focus()
    table.keyboard.press("Enter")

    expect(table.locator("#rules")).to_be_focused()


def test_the_empty_stocks_count_is_as_legible_as_the_rest(new_device):
    page = new_device(bypass_csp=True)
    page.goto("/")
    start_deal(page, KNOWN_LOSS_DECK)
    draw_the_whole_stock(page)
    expect(page.locator("#stock")).to_contain_class("empty")

    # axe only asks for a review of a single character's contrast: its measure is checked here.
    page.add_script_tag(path=AXE)
    checked = page.evaluate("() => axe.run('#stock', { runOnly: ['color-contrast'] })")
    ratios = [
        check["data"]["contrastRatio"]
        for outcome in ("violations", "incomplete", "passes")
        for rule in checked[outcome]
        for node in rule["nodes"]
        for check in node["any"]
    ]
    assert ratios and min(ratios) >= 4.5


def test_in_forced_colours_the_buttons_and_fields_keep_their_edges(new_device):
    # Windows' high-contrast themes drop every background: an edge must show the control.
    page = new_device(forced_colors="active")
    page.goto("/")

    edges = page.locator("#controls .btn, [data-deal-form] :is(input[name=deal], select, .btn)")
    assert edges.count() == 8  # four controls; the deal's box, two lists and Play
    edge = "(e) => [getComputedStyle(e).borderTopWidth, getComputedStyle(e).borderTopColor]"
    for width, colour in edges.evaluate_all(f"all => all.map({edge})"):
        assert width != "0px" and colour != "rgba(0, 0, 0, 0)", (width, colour)


def test_rotating_and_resizing_keep_the_deal_as_it_was(phone, table):
    start_deal(table, CHAIN_DECK)
    take(table, 18)
    before = table.locator("#table").inner_html()

    for size in ({"width": 640, "height": 360}, {"width": 1280, "height": 800}):
        table.set_viewport_size(size)
        assert table.locator("#table").inner_html() == before
    table.reload()
    expect(table.locator("#status")).to_have_attribute("data-cleared", "1")
    expect(table.locator('[data-pos="19"]')).to_have_attribute("data-card", "2C")


def test_under_open_peaks_a_covered_card_is_dimmed_its_rank_still_legible(phone, table):
    start_deal(table, CHAIN_DECK, rules="open")
    inks = "e => [getComputedStyle(e).color, getComputedStyle(e).backgroundColor]"
    free_paper = table.locator("#c18").evaluate(inks)[1]

    for pos in (9, 12):  # a club and a diamond, both under the base row
        card = table.locator(f"#c{pos}")
        expect(card).to_contain_class("covered")
        ink, paper = card.evaluate(inks)
        assert contrast(paper, free_paper) >= 2  # told apart at a glance, not 1.4:1
        assert contrast(ink, paper) >= 4.5
    screenshot(table, "phone-open-peaks")
