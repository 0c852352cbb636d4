"""The table on every screen: phone portrait, phone held sideways and desktop. The peaks, the
pile and the four controls fit the viewport and can be tapped; the tip moves no card; the result
panels stay in the viewport and leave the controls free; the deal form's labels stay with their
fields; the rules are a landmark."""

import pytest
from playwright.sync_api import expect

from game.engine.deck import format_deck, parse_deck
from tests.browser.conftest import (
    AXE,
    draw_the_whole_stock,
    outside,
    overlapped,
    play_to_a_proven_loss,
    screenshot,
    settle,
    start_deal,
    take,
    unreachable,
)
from tests.engine.support import CHAIN_DECK, CHAIN_ORDER
from tests.site.decks import (
    DEAD_END_DECK,
    KNOWN_LOSS_DECK,
    LAST_CHANCE_DECK,
    LAST_CHANCE_STOCK,
)

pytestmark = pytest.mark.browser

# The last: a 1080p monitor less the browser's own bars.
SIZES = [(360, 640), (640, 360), (812, 375), (768, 1024), (1280, 800), (1920, 960)]
CONTROLS = ["undo", "hint", "new"]
WIN_EXITS = [
    "#panel [data-action=new]",
    "#panel [data-action=replay]",
    "#panel .actions [data-look]",
    "#panel .actions [data-analysis]",
]
# Half a phone's screen held sideways (split screen), and small phones held sideways.
SMALL_SIDEWAYS = [(392, 360), (432, 360), (480, 320)]


def controls() -> list[str]:
    return [*(f"#controls [data-action={name}]" for name in CONTROLS), '#controls a[href="#rules"]']


@pytest.fixture(params=SIZES, ids=[f"{width}x{height}" for width, height in SIZES])
def screen(request, page):
    width, height = request.param
    page.set_viewport_size({"width": width, "height": height})
    return f"{width}x{height}"


def test_the_deal_fits_and_every_place_can_be_tapped(screen, table):
    cards = [f"#c{pos}" for pos in range(28)]
    assert unreachable(table, ["#stock", "[data-waste]", *controls()]) == []
    assert outside(table, cards) == []
    assert table.evaluate("document.documentElement.scrollWidth") <= table.viewport_size["width"]
    screenshot(table, f"screens-deal-{screen}")


def test_cards_use_the_height_and_the_width(page, table):
    widths = {}
    for width, height in SIZES:
        page.set_viewport_size({"width": width, "height": height})
        widths[(width, height)] = table.locator("#c18").bounding_box()["width"]
    # A desktop gets large cards, not a phone's column of felt.
    assert widths[(1280, 800)] >= 2 * widths[(360, 640)]
    # A large monitor's are larger still: the table is not a laptop's in a sea of felt.
    assert widths[(1920, 960)] >= 1.2 * widths[(1280, 800)]
    # Held sideways, a phone's cards are sized by its height, yet no smaller than upright.
    assert widths[(812, 375)] >= widths[(360, 640)]


LINES = """(element) => {
    const range = document.createRange();
    range.selectNodeContents(element);
    return new Set([...range.getClientRects()].map((rect) => Math.round(rect.top))).size;
}"""


def test_the_tip_takes_one_line_and_dismissing_it_moves_no_card_nor_control(
    screen, page, console_errors
):
    page.goto("/")
    tip = page.locator("#tip")
    expect(tip).to_be_visible()
    still = [*(f"#c{pos}" for pos in range(18, 28)), *controls()]
    places = [page.locator(part).bounding_box() for part in still]
    pile = page.locator("#pile").bounding_box()

    assert tip.bounding_box()["y"] >= pile["y"] + pile["height"]
    if page.viewport_size["width"] >= 640:  # a phone held upright has room for no such line
        assert tip.evaluate(LINES) == 1
    page.keyboard.press("Escape")
    expect(tip).to_be_hidden()
    assert [page.locator(part).bounding_box() for part in still] == places
    assert console_errors == []


@pytest.mark.parametrize("width, height", [(360, 640), (640, 360), (568, 320), (812, 375)])
def test_on_a_phone_the_win_panel_hides_the_whole_status_line(table, width, height):
    table.set_viewport_size({"width": width, "height": height})
    start_deal(table, CHAIN_DECK)
    for pos in CHAIN_ORDER:
        take(table, pos)
    expect(table.locator("#panel h2")).to_have_text("Deal cleared!")
    settle(table)
    table.evaluate("() => scrollTo(0, 0)")

    panel = table.locator("#panel").bounding_box()
    for part in ("#status h1", "#status p"):
        line = table.locator(part).bounding_box()
        assert panel["x"] <= line["x"] and line["x"] + line["width"] <= panel["x"] + panel["width"]
        assert (
            panel["y"] <= line["y"] and line["y"] + line["height"] <= panel["y"] + panel["height"]
        )


def too_small_for_a_finger(page, selector: str) -> list[dict]:
    """The boxes of the targets under 44 px either way."""
    boxes = page.locator(selector).evaluate_all(
        "all => all.map((e) => e.getBoundingClientRect().toJSON())"
    )
    assert boxes
    return [box for box in boxes if box["width"] < 44 or box["height"] < 44]


# The smallest phone in use, where a panel has least room above the controls.
PANEL_SIZES = [(320, 568), *SIZES]


@pytest.mark.parametrize(
    "screen", PANEL_SIZES, indirect=True, ids=lambda size: "x".join(map(str, size))
)
def test_the_win_panel_fits_and_leaves_the_controls_free(screen, table):
    start_deal(table, CHAIN_DECK)
    for pos in CHAIN_ORDER:
        take(table, pos)
    expect(table.locator("#panel h2")).to_have_text("Deal cleared!")
    settle(table)

    assert unreachable(table, ["#panel", *controls()]) == []
    assert overlapped(table, "#panel", controls()) == []
    assert unreachable(table, WIN_EXITS) == []
    assert too_small_for_a_finger(table, "#panel .result :is(.btn, #deal-id)") == []
    screenshot(table, f"screens-won-{screen}")
    table.keyboard.press("ArrowRight")  # not to the stock, which the panel may cover
    expect(table.locator("#panel h2")).to_be_focused()
    table.locator("#panel .actions [data-look]").click()  # folded, only its way back stays
    expect(table.locator("#panel .result")).to_be_hidden()
    assert unreachable(table, ["#panel .show", *controls()]) == []
    table.locator("#stock").click()  # refused, and its reason in view beside the way back
    expect(table.locator("[data-message]")).to_be_visible()
    assert unreachable(table, ["[data-message]", "#panel .show", *controls()]) == []


# The size of the smallest words shown in an element.
SMALLEST_TEXT = """(within) => {
  const walker = document.createTreeWalker(within, NodeFilter.SHOW_TEXT);
  const sizes = [];
  while (walker.nextNode()) {
    const shown = walker.currentNode.parentElement;
    if (walker.currentNode.textContent.trim() && shown.checkVisibility()) {
      sizes.push(parseFloat(getComputedStyle(shown).fontSize));
    }
  }
  return Math.min(...sizes);
}"""


def win_a_scored_hand(table, width: int, height: int) -> None:
    """A hand of PySolFC points won, on a screen of this size."""
    table.set_viewport_size({"width": width, "height": height})
    start_deal(table, CHAIN_DECK, scoring="pysol")
    for pos in CHAIN_ORDER:
        take(table, pos)


@pytest.mark.parametrize("width, height", [(360, 640), (640, 360)])
def test_a_scored_win_panels_words_are_all_12_px_or_more(table, width, height):
    win_a_scored_hand(table, width, height)
    expect(table.locator("#panel .figures")).to_contain_text("Bank")

    assert table.locator("#panel").evaluate(SMALLEST_TEXT) >= 12
    screenshot(table, f"screens-won-scored-words-{width}x{height}")


@pytest.mark.parametrize(
    "screen", PANEL_SIZES, indirect=True, ids=lambda size: "x".join(map(str, size))
)
def test_the_dead_end_panel_fits_and_leaves_the_controls_free(screen, table):
    start_deal(table, DEAD_END_DECK)
    draw_the_whole_stock(table)
    expect(table.locator("#panel h2")).to_have_text("No legal move")

    assert unreachable(table, ["#panel", *controls()]) == []
    assert overlapped(table, "#panel", controls()) == []
    exits = ["#panel [data-action=undo]", "#panel [data-action=replay]", "#panel [data-analysis]"]
    assert unreachable(table, [*exits, "#panel .actions [data-look]"]) == []
    screenshot(table, f"screens-dead-end-{screen}")


def test_a_hint_on_a_dead_end_folded_away_is_said_clear_of_the_way_back(screen, table):
    start_deal(table, DEAD_END_DECK)
    draw_the_whole_stock(table)
    table.locator("#panel .actions [data-look]").click()
    way_back = table.locator("#panel .show")
    expect(way_back).to_be_visible()

    table.locator("#controls [data-action=hint]").click()

    said = table.locator("[data-message]")
    expect(said).to_have_text("No card fits and the stock is empty: there is no legal move.")
    settle(table)
    words, button = said.bounding_box(), way_back.bounding_box()
    apart_across = (
        words["x"] + words["width"] <= button["x"] or button["x"] + button["width"] <= words["x"]
    )
    apart_down = (
        words["y"] + words["height"] <= button["y"] or button["y"] + button["height"] <= words["y"]
    )
    assert apart_across or apart_down
    assert unreachable(table, ["#panel .show", *controls()]) == []
    screenshot(table, f"screens-dead-end-hint-{screen}")


@pytest.mark.parametrize("width, height", [(360, 640), (390, 844)])
def test_a_proven_loss_puts_its_exits_before_the_controls_as_the_tab_order_does(
    table, width, height
):
    """On a phone held upright a hint comes under the controls; a verdict, with exits of its own,
    before them, where the tab order has it."""
    table.set_viewport_size({"width": width, "height": height})
    play_to_a_proven_loss(table)
    verdict = table.locator("#hint-slot [data-verdict]")
    expect(verdict).to_be_visible()

    exits = [f"#hint-slot [data-action={name}]" for name in ("undo", "hint", "replay", "new")]
    assert unreachable(table, [*exits, *controls()]) == []
    bar = verdict.bounding_box()
    first = table.locator("#controls [data-action=undo]").bounding_box()
    assert bar["y"] + bar["height"] <= first["y"], (bar, first)
    screenshot(table, f"screens-verdict-{width}x{height}")


@pytest.mark.parametrize("width, height", [(1280, 800), (1280, 640)])
def test_a_proven_loss_under_open_peaks_brings_its_exits_into_view(table, width, height):
    table.set_viewport_size({"width": width, "height": height})
    # Every card face up, and the stock drawn out with cards still to take: a loss known at once.
    code = format_deck(DEAD_END_DECK)
    start_deal(
        table,
        parse_deck(code.replace("KS", "XX").replace("8D", "KS").replace("XX", "8D")),
        rules="open",
    )
    draw_the_whole_stock(table)

    table.locator("#controls [data-action=hint]").click()

    verdict = table.locator("#hint-slot [data-verdict]")
    expect(verdict).to_be_visible()
    settle(table)
    assert outside(table, ["#hint-slot [data-verdict]"]) == []
    expect(table.locator("#table [data-hint]")).to_be_focused()


def test_the_empty_stock_and_its_note_fit_and_move_no_card(screen, table):
    start_deal(table, KNOWN_LOSS_DECK)
    stock = table.locator("#stock")
    for left in range(22, 0, -1):
        stock.click()
        expect(stock).to_have_attribute("data-stock", str(left))
    settle(table)
    still = ["#stock", "[data-waste]", "#c18", "#c27", *controls()]
    places = [table.locator(part).bounding_box() for part in still]

    stock.click()  # the last card: the stock greys out and its note comes
    expect(stock).to_have_attribute("data-stock", "0")
    settle(table)
    expect(table.locator("#pile .note")).to_be_visible()
    assert [table.locator(part).bounding_box() for part in still] == places
    expect(table.locator("#panel")).to_be_hidden()

    pile = ["#stock", "[data-waste]", "#pile .note"]
    assert unreachable(table, [*pile, *controls()]) == []
    assert outside(table, ["#c0", "#c27"]) == []
    screenshot(table, f"screens-empty-stock-{screen}")


def test_a_hint_and_a_refusal_fit(screen, table):
    start_deal(table, CHAIN_DECK)
    table.locator("#c19").click()
    expect(table.locator("[data-message]")).to_be_visible()
    settle(table)  # the message shakes: on a phone it spans the screen, and the shake goes past it
    assert unreachable(table, ["[data-message]", *controls()]) == []
    screenshot(table, f"screens-refusal-{screen}")

    table.locator("#controls [data-action=hint]").click()
    expect(table.locator("#hint-slot .bar")).to_be_visible()
    assert unreachable(table, ["#hint-slot .bar", "#stock", *controls()]) == []
    screenshot(table, f"screens-hint-{screen}")


def test_showing_a_hint_moves_no_control(screen, table):
    """The Hint button stays under the finger: a hint lies over the message row on a wide screen,
    and comes under the controls on a narrow one held upright."""
    table.keyboard.press("Escape")  # the first-run tip, which any action ends
    expect(table.locator("#tip")).to_be_hidden()
    places = [table.locator(control).bounding_box() for control in controls()]

    table.locator("#controls [data-action=hint]").click()
    expect(table.locator("#hint-slot .bar")).to_be_visible()

    assert [table.locator(control).bounding_box() for control in controls()] == places


@pytest.mark.parametrize("width, height", [(568, 320), (640, 360)])
def test_on_a_phone_held_sideways_showing_a_hint_moves_no_control(table, width, height):
    table.set_viewport_size({"width": width, "height": height})
    start_deal(table, CHAIN_DECK)
    places = [table.locator(control).bounding_box() for control in controls()]

    table.locator("#controls [data-action=hint]").click()
    expect(table.locator("#hint-slot .bar")).to_be_visible()

    assert [table.locator(control).bounding_box() for control in controls()] == places
    assert unreachable(table, ["#hint-slot .bar", "#table [data-hint]", *controls()]) == []


@pytest.mark.parametrize("width, height", [(320, 568), (412, 915), (568, 320), (640, 360)])
def test_the_status_line_keeps_its_lines_through_a_scored_hand(table, width, height):
    """Figures growing a digit, a score changing sign, a run's reset: none may add a line to the
    status, which would move the table and the stock under the finger."""
    table.set_viewport_size({"width": width, "height": height})
    start_deal(table, CHAIN_DECK, rules="wild", scoring="pysol")
    still = ["#stock", "#c18", *controls()]
    places = [table.locator(part).bounding_box() for part in still]

    take(table, 18)
    table.locator("#stock").click()  # the run of one ends: the counter shows its reset
    expect(table.locator("#status .run.reset")).to_be_visible()
    settle(table)

    assert [table.locator(part).bounding_box() for part in still[:1] + still[2:]] == (
        places[:1] + places[2:]
    )


def ask_for_a_long_hint(page) -> None:
    """A two-clause reason: the longest kind the hint bar has to hold."""
    start_deal(page, LAST_CHANCE_DECK)
    stock = page.locator("#stock")
    for left in range(22, 22 - len(LAST_CHANCE_STOCK), -1):
        stock.click()
        expect(stock).to_have_attribute("data-stock", str(left))
    take(page, 18)
    take(page, 20)
    page.locator("#controls [data-action=hint]").click()
    expect(page.locator("#hint-slot .bar")).to_contain_text("fits now or never")


def test_a_long_hint_leaves_the_hinted_card_and_the_controls_free(screen, table):
    ask_for_a_long_hint(table)
    settle(table)  # a card still flying from the last take covers what it passes over
    assert unreachable(table, ["#hint-slot .bar", "[data-hint]", "#stock", *controls()]) == []
    assert overlapped(table, "#hint-slot .bar", controls()) == []  # not even their edges
    screenshot(table, f"screens-long-hint-{screen}")


# A select's own padding, border and arrow, beside its text.
SELECT_CHROME_PX = 40


@pytest.mark.parametrize("width", [320, 1280])
def test_the_deal_forms_game_list_shows_every_game_of_up_to_two_rules_whole(page, table, width):
    page.set_viewport_size({"width": width, "height": 800})
    game = table.locator("#rules-choice")

    room, needed = game.evaluate(
        """(select) => {
          const pen = document.createElement("canvas").getContext("2d");
          pen.font = getComputedStyle(select).font;
          const named = [...select.options].filter((each) => each.text.split(" + ").length <= 2);
          return [select.getBoundingClientRect().width,
                  Math.max(...named.map((option) => pen.measureText(option.text).width))];
        }"""
    )

    assert needed + SELECT_CHROME_PX <= room
    assert table.evaluate("document.documentElement.scrollWidth") <= width


def test_the_narrowest_phone_does_not_overflow(page, table):
    page.set_viewport_size({"width": 320, "height": 568})
    assert table.evaluate("document.documentElement.scrollWidth") <= 320


def test_on_a_phone_the_games_name_moves_to_the_next_line_whole(page, table):
    page.set_viewport_size({"width": 360, "height": 640})
    start_deal(table, None, rules="open+nowrap+headstart")
    name = table.locator("#status h1 .rules-name")
    # One box, the dot before it included: the name did not break inside itself (between "No"
    # and "wrap", say), nor leave its dot behind at the end of the line above.
    expect(name).to_have_text("· Open peaks + No wrap + Head start")
    assert name.evaluate("element => element.getClientRects().length") == 1
    deal = table.locator("#status h1 small").bounding_box()
    assert deal["y"] < name.bounding_box()["y"]  # it did move to the next line


@pytest.mark.parametrize("width", [320, 360])
def test_the_runs_pulse_at_the_screens_edge_never_scrolls_the_page_sideways(table, width):
    table.set_viewport_size({"width": width, "height": 640})
    start_deal(table, CHAIN_DECK, rules="open+nowrap+headstart+wild", scoring="pysol")
    take(table, 18)
    table.locator("#stock").click()  # the run of one ends: "Run 0 reset" pulses
    expect(table.locator("#status .run.reset")).to_be_visible()

    assert widest_scroll_while_it_moves(table) <= width


@pytest.mark.parametrize("width", [320, 360])
def test_a_refusals_shake_never_scrolls_the_page_sideways(table, width):
    table.set_viewport_size({"width": width, "height": 640})
    start_deal(table, CHAIN_DECK)
    table.locator("#c19").click()  # its reason takes the screen's width, and shakes
    expect(table.locator("[data-message]")).to_be_visible()

    assert widest_scroll_while_it_moves(table) <= width


@pytest.mark.parametrize("width", [320, 360])
def test_a_left_hands_score_and_the_way_to_its_analysis_move_no_control(table, width):
    """Upright, the message row keeps room for two lines, so that what a tap says moves nothing
    under the thumb: the notice of a scored hand left keeps to them on the narrowest phone."""
    table.set_viewport_size({"width": width, "height": 640})
    start_deal(table, CHAIN_DECK, scoring="pysol")
    take(table, 18)
    where = "(element) => element.getBoundingClientRect().top + scrollY"
    places = [table.locator(control).evaluate(where) for control in controls()]

    start_deal(table, None, scoring="pysol")

    expect(table.locator("#notice [data-left-score]")).to_be_visible()
    expect(table.locator("#notice [data-analysis]")).to_be_visible()
    assert [table.locator(control).evaluate(where) for control in controls()] == places


@pytest.mark.parametrize("width, height", [(360, 640), (640, 360), (1280, 800)])
def test_the_way_to_the_last_deals_analysis_is_a_fingers_size_and_moves_no_control(
    table, width, height
):
    """Its reach spills past the message row's line on to the felt around it, clear of the cards
    and the controls, and that row keeps its height."""
    table.set_viewport_size({"width": width, "height": height})
    start_deal(table, CHAIN_DECK)
    take(table, 18)
    places = [table.locator(control).bounding_box() for control in controls()]

    table.locator("#controls [data-action=new]").click()

    link = "#notice [data-analysis]"
    expect(table.locator(link)).to_have_text("See the analysis of the previous deal")
    assert too_small_for_a_finger(table, link) == []
    assert [table.locator(control).bounding_box() for control in controls()] == places
    cards = [f"#c{pos}" for pos in range(18, 28)]
    assert overlapped(table, link, [*cards, "#stock", "[data-waste]", *controls()]) == []
    screenshot(table, f"screens-last-deals-analysis-{width}x{height}")


@pytest.mark.parametrize("width, height", [(360, 640), (412, 915), (640, 360), (1280, 800)])
def test_a_head_starts_empty_waste_says_what_to_do_legibly_within_its_place(table, width, height):
    table.set_viewport_size({"width": width, "height": height})
    start_deal(table, None, rules="headstart")
    waste = table.locator(".waste.empty")
    expect(waste).to_have_text("Take any card")

    size, words, place = waste.evaluate(
        """(waste) => {
          const words = document.createRange();
          words.selectNodeContents(waste);
          const edge = parseFloat(getComputedStyle(waste).borderTopWidth);
          const box = waste.getBoundingClientRect();
          const inside = [box.left + edge, box.top + edge, box.right - edge, box.bottom - edge];
          const drawn = words.getBoundingClientRect();
          return [parseFloat(getComputedStyle(waste).fontSize),
                  [drawn.left, drawn.top, drawn.right, drawn.bottom], inside];
        }"""
    )
    # As large as the place allows, in proportion to it on a desktop's large cards.
    assert size >= max(12, (place[2] - place[0]) / 7)
    assert place[0] <= words[0] and place[1] <= words[1]
    assert words[2] <= place[2] and words[3] <= place[3]


def widest_scroll_while_it_moves(page) -> int:
    """The page's widest scroll width over its animations, each held at every 20 ms in turn."""
    return page.evaluate(
        """() => {
          const moving = document.getAnimations();
          moving.forEach((a) => a.pause());
          let widest = 0;
          for (let at = 0; at <= 600; at += 20) {
            moving.forEach((a) => { a.currentTime = at; });
            widest = Math.max(widest, document.documentElement.scrollWidth);
          }
          return widest;
        }"""
    )


@pytest.mark.parametrize("width, height", [(568, 320), (640, 360), (740, 360), (915, 412)])
def test_a_held_wild_card_beside_the_pile_keeps_a_sideways_phone_from_scrolling(
    table, width, height
):
    table.set_viewport_size({"width": width, "height": height})
    start_deal(table, None, rules="wild")
    expect(table.locator("[data-action=wild]")).to_be_visible()
    assert table.evaluate("document.documentElement.scrollWidth") <= width


@pytest.mark.parametrize("width, height", SMALL_SIDEWAYS)
def test_a_small_screen_sideways_keeps_a_scored_hand_and_a_held_wild_card_in_view(
    table, width, height
):
    table.set_viewport_size({"width": width, "height": height})
    start_deal(table, None, rules="nowrap+wild", scoring="pysol")
    expect(table.locator("[data-action=wild]")).to_be_visible()
    table_parts = ["#status h1", "#status p", "#table", "#stock", ".pile .waste"]
    assert outside(table, [*table_parts, "[data-action=wild]"]) == []
    screenshot(table, f"screens-wild-scored-{width}x{height}")


@pytest.mark.parametrize("width, height", SMALL_SIDEWAYS)
def test_a_small_screen_sideways_keeps_the_win_panels_exits_in_view(table, width, height):
    win_a_scored_hand(table, width, height)
    expect(table.locator("#panel h2")).to_have_text("Deal cleared!")
    settle(table)

    assert unreachable(table, WIN_EXITS) == []
    # Whole, none of them scrolled out of sight within the panel.
    assert table.locator("#panel").evaluate("panel => panel.scrollHeight <= panel.clientHeight")
    screenshot(table, f"screens-won-scored-{width}x{height}")


@pytest.mark.parametrize("width, height", [(568, 320), (640, 360)])
def test_a_scored_win_folded_away_keeps_its_points_and_the_controls_in_view(table, width, height):
    win_a_scored_hand(table, width, height)
    table.locator("#panel .actions [data-look]").click()
    expect(table.locator("#panel .result")).to_be_hidden()
    settle(table)

    # The winning take's points are the longest line a move says, beside the way back.
    assert unreachable(table, ["[data-points]", "#panel .show", *controls()]) == []
    screenshot(table, f"screens-won-scored-folded-{width}x{height}")


def test_the_board_folded_into_view_shows_whole_from_the_top(table):
    table.set_viewport_size({"width": 568, "height": 320})
    start_deal(table, DEAD_END_DECK)
    draw_the_whole_stock(table)
    expect(table.locator("#panel h2")).to_have_text("No legal move")
    table.evaluate("() => scrollTo(0, 120)")  # as a thumb scrolls down to the panel's exits

    table.locator("#panel .actions [data-look]").click()

    expect(table.locator("#panel .show")).to_be_focused()
    assert table.evaluate("scrollY") == 0
    assert unreachable(table, ["#status h1", "#c0", "#c2", "#panel .show"]) == []


@pytest.mark.parametrize("width, height", [(320, 568), (360, 640), (640, 360), (1280, 800)])
def test_what_a_tap_says_moves_no_control(table, width, height):
    table.set_viewport_size({"width": width, "height": height})
    start_deal(table, CHAIN_DECK)
    undo = table.locator("#controls [data-action=undo]")
    place = undo.bounding_box()

    for pos, said in [(0, "still face down"), (19, "not one rank from the waste card")]:
        table.locator(f'[data-pos="{pos}"]').click(force=True)  # a face-down card is disabled
        expect(table.locator("[data-message]")).to_contain_text(said)
        settle(table)
        assert undo.bounding_box() == place, said
    screenshot(table, f"screens-refused-{width}x{height}")


def test_on_the_narrowest_phone_undo_refused_in_scored_play_moves_no_control(table):
    table.set_viewport_size({"width": 320, "height": 568})
    start_deal(table, CHAIN_DECK, scoring="pysol")
    take(table, 18)
    settle(table)
    places = [table.locator(control).bounding_box() for control in controls()]

    table.locator("#controls [data-action=undo]").click()
    expect(table.locator("[data-message]")).to_contain_text("Undo is off")
    settle(table)

    assert [table.locator(control).bounding_box() for control in controls()] == places


@pytest.mark.parametrize("rules", ["standard", "wild"])
def test_on_the_narrowest_phone_the_empty_stocks_note_moves_no_control(table, rules):
    table.set_viewport_size({"width": 320, "height": 568})
    start_deal(table, KNOWN_LOSS_DECK, rules=rules)
    stock = table.locator("#stock")
    for left in range(22, 0, -1):
        stock.click()
        expect(stock).to_have_attribute("data-stock", str(left))
    settle(table)
    places = [table.locator(control).bounding_box() for control in controls()]

    stock.click()
    expect(table.locator("#pile .note")).to_be_visible()
    settle(table)
    assert [table.locator(control).bounding_box() for control in controls()] == places


@pytest.mark.parametrize("width, height", [(360, 640), (640, 360), (1280, 800)])
def test_laying_the_wild_card_moves_no_card(table, width, height):
    table.set_viewport_size({"width": width, "height": height})
    start_deal(table, None, rules="wild")
    table.mouse.move(0, 0)  # off the cards: one under the pointer rises
    settle(table)
    still = ["#stock", "[data-waste]", "#c18", "#c27"]
    places = [table.locator(part).bounding_box() for part in still]

    table.locator("[data-action=wild]").click()
    expect(table.locator("[data-waste=wild]")).to_be_visible()
    settle(table)
    assert [table.locator(part).bounding_box() for part in still] == places


@pytest.mark.parametrize("width, height", [(320, 568), (360, 640)])
def test_a_held_wild_card_and_the_empty_stock_note_squeeze_neither_the_cards_nor_the_page(
    table, width, height
):
    table.set_viewport_size({"width": width, "height": height})
    start_deal(table, None, rules="wild")
    card_width = table.locator("#stock").bounding_box()["width"]
    draw_the_whole_stock(table)
    expect(table.locator(".pile .note")).to_be_visible()
    settle(table)

    assert table.evaluate("document.documentElement.scrollWidth") <= width
    for pile_part in ("#stock", ".pile .waste", "[data-action=wild]", ".pile .note"):
        box = table.locator(pile_part).bounding_box()
        assert box["x"] >= 0 and box["x"] + box["width"] <= width, pile_part
    for card in ("#stock", ".pile .waste"):
        assert table.locator(card).bounding_box()["width"] == card_width
    screenshot(table, f"screens-wild-held-stock-spent-{width}")


def test_the_rules_sit_in_a_landmark(browser, live_server):
    context = browser.new_context(bypass_csp=True, base_url=live_server.url)
    page = context.new_page()
    page.goto("/")
    page.add_script_tag(path=AXE)
    result = page.evaluate("axe.run({ runOnly: ['region'] })")
    assert result["violations"] == []


def test_a_page_that_only_says_one_thing_says_it_before_the_way_back(screen, page):
    page.goto("/no-such-page")
    message = page.locator("[data-message]").bounding_box()
    back = page.get_by_role("link", name="Back to the table").bounding_box()
    assert message["y"] + message["height"] <= back["y"]
    screenshot(page, f"screens-not-found-{screen}")


def test_each_label_of_the_deal_form_sits_before_its_field_or_just_over_it(screen, table):
    form = table.locator("[data-deal-form]")
    for field in ("deal", "rules-choice", "scoring-choice"):
        label = form.locator(f'label[for="{field}"]').bounding_box()
        box = form.locator(f"#{field}").bounding_box()
        label_middle = label["y"] + label["height"] / 2
        label_bottom = label["y"] + label["height"]
        beside = (
            label["x"] + label["width"] <= box["x"]
            and box["y"] <= label_middle <= box["y"] + box["height"]
        )
        over = label_bottom <= box["y"] <= label_bottom + 12
        assert beside or over, (field, label, box)


def table_with_larger_text(new_device, width: int, height: int, size: int = 24):
    """The table on a device whose reader set the browser's own default text size to `size` px
    instead of 16."""
    page = new_device({"width": width, "height": height})
    page.context.new_cdp_session(page).send("Page.setFontSizes", {"fontSizes": {"standard": size}})
    page.goto("/")
    return page


@pytest.mark.parametrize("width, height", [(568, 320), (640, 360), (1280, 800)])
def test_with_text_twice_as_large_the_controls_keep_their_words_inside(new_device, width, height):
    page = table_with_larger_text(new_device, width, height, size=32)

    buttons = page.locator("#controls .controls .btn")
    overflowing = buttons.evaluate_all(
        "buttons => buttons.filter(b => b.scrollWidth > b.clientWidth).map(b => b.textContent)"
    )
    assert buttons.count() == 4 and overflowing == []
    screenshot(page, f"screens-text-twice-controls-{width}x{height}")


@pytest.mark.parametrize("width, height", [(360, 640), (568, 320), (640, 360)])
def test_with_text_twice_as_large_the_analysis_keeps_to_the_screen(new_device, width, height):
    page = table_with_larger_text(new_device, width, height, size=32)
    start_deal(page, DEAD_END_DECK)
    draw_the_whole_stock(page)
    page.locator("#panel [data-analysis]").click()

    again = page.locator("[data-action=again]")
    expect(again).to_be_visible()
    # Its style sheet loaded (a new device has none cached): measured before, the page is laid out
    # without it.
    page.wait_for_load_state()
    assert again.evaluate("b => b.scrollWidth <= b.clientWidth"), "its words inside"
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    verdict = page.locator(".verdict").bounding_box()
    assert verdict["x"] >= 0 and verdict["width"] >= width / 3, verdict  # a column to read
    screenshot(page, f"analysis-text-twice-{width}x{height}")


@pytest.mark.parametrize("width, height", [(360, 640), (640, 360)])
def test_with_text_twice_as_large_nothing_leaves_the_screen_sideways(new_device, width, height):
    page = table_with_larger_text(new_device, width, height, size=32)
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    start_deal(page, CHAIN_DECK)
    for pos in CHAIN_ORDER:
        take(page, pos)
    expect(page.locator("#panel h2")).to_have_text("Deal cleared!")
    settle(page)

    # The panel may scroll within the screen; its exits stay across it.
    exits = page.locator("#panel .actions .btn").evaluate_all(
        "buttons => buttons.map(b => b.getBoundingClientRect())"
    )
    assert len(exits) == 4 and all(box["left"] >= 0 and box["right"] <= width for box in exits)
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    screenshot(page, f"screens-double-text-won-{width}x{height}")


@pytest.mark.parametrize("width, height", [(360, 640), (640, 360)])
def test_with_larger_text_the_controls_stay_on_screen_and_clear_of_the_hint(
    new_device, width, height
):
    page = table_with_larger_text(new_device, width, height)
    ask_for_a_long_hint(page)

    assert page.evaluate("document.documentElement.scrollWidth") <= width
    said = page.locator("#hint-slot .bar").bounding_box()
    for control in page.locator("#controls .btn").all():
        box = control.bounding_box()
        assert box["x"] >= 0 and box["x"] + box["width"] <= width, box
        assert box["y"] >= said["y"] + said["height"] or box["y"] + box["height"] <= said["y"]
    screenshot(page, f"screens-larger-text-{width}x{height}")


@pytest.mark.parametrize("width, height", [(568, 320), (640, 360), (812, 375)])
def test_with_larger_text_the_dead_ends_exits_keep_their_words_inside(new_device, width, height):
    page = table_with_larger_text(new_device, width, height)
    start_deal(page, DEAD_END_DECK)
    draw_the_whole_stock(page)
    expect(page.locator("#panel h2")).to_have_text("No legal move")
    settle(page)

    exits = page.locator("#panel .actions .btn")
    overflowing = exits.evaluate_all(
        "buttons => buttons.filter(b => b.scrollWidth > b.clientWidth).map(b => b.textContent)"
    )
    assert exits.count() == 5 and overflowing == []
    screenshot(page, f"screens-larger-text-dead-end-{width}x{height}")
