"""The table moves: a taken card flies to the waste, a drawn one slides from the stock, an undone
one flies back, a turned card flips, a refusal shakes, a win rains the deck. Reduced motion stills
all of it, and no animation holds back the next tap."""

import pytest
from playwright.sync_api import expect

from game.engine.cards import SUIT_SYMBOLS, is_red, rank_symbol, suit
from tests.browser.conftest import settle, start_deal, take
from tests.engine.support import CHAIN_DECK, CHAIN_ORDER

pytestmark = pytest.mark.browser

# Tap in the page, wait for htmx to settle the answer, then say which elements are animating.
TAP_AND_LOOK = """async (selector) => {
  const settled = new Promise((resolve) =>
    document.addEventListener("htmx:afterSettle", resolve, { once: true }));
  document.querySelector(selector).click();
  await settled;
  return document.getAnimations()
    .filter((animation) => animation.playState === "running")
    .map((animation) => {
      const target = animation.effect.target;
      if (target.classList.contains("cascade")) return "cascade";
      return target.id || (target.matches("[data-waste]") ? "waste" : target.className);
    });
}"""


def moving_after(page, selector: str) -> list[str]:
    return page.evaluate(TAP_AND_LOOK, selector)


def moving_after_each(page, first: str, then: str) -> tuple[list[str], list[str]]:
    """What moves after a tap on `first`, and then, once the table is still, on `then`."""
    moving = moving_after(page, first)
    settle(page)
    return moving, moving_after(page, then)


@pytest.fixture
def chain(table):
    start_deal(table, CHAIN_DECK)
    return table


# Tap in the page and hold the flight it starts (`element`, `flight`), to read it at any moment.
TAP_AND_HOLD_THE_FLIGHT = """
  const settled = new Promise((resolve) =>
    document.addEventListener("htmx:afterSettle", resolve, { once: true }));
  document.querySelector(tapped).click();
  await settled;
  const element = document.querySelector(flying);
  const flight = element.getAnimations().find((each) => !(each instanceof CSSAnimation));
  flight.pause();
"""

# Where the flying element starts, and the waste's card kept under it meanwhile.
FIRST_FRAME = (
    """async ([tapped, flying]) => {"""
    + TAP_AND_HOLD_THE_FLIGHT
    + """
  flight.currentTime = 0;
  const { x, y, width, height } = element.getBoundingClientRect();
  const under = [...document.querySelectorAll(".pile .under b")].map((rank) => rank.dataset.g);
  flight.finish();
  return { x, y, width, height, under };
}"""
)


def first_frame(page, tapped: str, flying: str) -> dict:
    return page.evaluate(FIRST_FRAME, [tapped, flying])


def assert_at(frame: dict, box: dict) -> None:
    for side in ("x", "y", "width", "height"):
        assert frame[side] == pytest.approx(box[side], abs=2), side


@pytest.mark.parametrize("size", [(1280, 800), (360, 640)], ids=["desktop", "phone"])
def test_a_taken_card_flies_from_its_place_and_size_to_the_waste(chain, size):
    """The peaks' cards are smaller than the waste (on a phone by half): the flight grows it from
    the one to the other, rather than starting at the waste's size over the card's neighbours."""
    chain.set_viewport_size(dict(zip(("width", "height"), size, strict=True)))
    settle(chain)
    card = chain.locator("#c18").bounding_box()

    assert_at(first_frame(chain, "#c18", "[data-waste]"), card)


@pytest.mark.parametrize("size", [(360, 640), (640, 360)], ids=["upright", "sideways"])
def test_the_wild_card_flies_from_its_button_onto_the_waste_and_back(table, size):
    """Laid, the wild card comes from the button that held it, over the waste's card, not out of
    the stock as a draw would; undone, it goes back into that button."""
    table.set_viewport_size(dict(zip(("width", "height"), size, strict=True)))
    start_deal(table, CHAIN_DECK, rules="wild")
    button = table.locator("[data-action=wild]").bounding_box()
    waste = table.locator("[data-waste]").bounding_box()
    rank = table.locator("[data-waste] b").get_attribute("data-g")

    laid = first_frame(table, "[data-action=wild]", "[data-waste]")
    settle(table)
    undone = first_frame(table, "#controls [data-action=undo]", "[data-action=wild]")

    assert_at(laid, button)
    assert laid["under"] == [rank]
    assert_at(undone, waste)
    expect(table.locator("[data-waste]")).to_have_attribute("data-waste", "KS")


@pytest.mark.parametrize("touch", [False, True], ids=["pointer", "touch screen"])
def test_a_playable_card_lifts_under_a_pointer_but_not_after_a_touch(new_device, touch):
    """A touch screen keeps the last place touched as hovered: a card there would stay lifted."""
    page = new_device({"width": 360, "height": 640}, is_mobile=touch, has_touch=touch)
    page.goto("/")
    start_deal(page, CHAIN_DECK)
    card = page.locator("#c18")  # the ace, on the king

    card.hover()
    settle(page)

    lifted = card.evaluate("(card) => getComputedStyle(card).transform") != "none"
    assert lifted is not touch


def test_a_drawn_card_slides_from_the_stock_and_back_when_undone(chain):
    drawn, undone = moving_after_each(chain, "#stock", "#controls [data-action=undo]")
    assert "waste" in drawn and "stock" in undone
    # The card flies back, not the stock's count with it, which shows once it has landed.
    count = chain.locator("#stock span")
    assert count.evaluate("(count) => getComputedStyle(count).visibility") == "hidden"
    expect(count).to_be_visible()
    expect(chain.locator("#stock")).to_have_attribute("data-stock", "23")


def test_a_card_turned_face_up_flips_and_an_undone_one_flies_back(chain):
    take(chain, 18)
    assert "c9" in moving_after(chain, "#c19")
    expect(chain.locator("#c9")).to_have_attribute("data-card", "JC")

    moving = moving_after(chain, "#controls [data-action=undo]")
    assert "c19" in moving and "c9" in moving
    expect(chain.locator("#c9")).to_contain_class("back")


# Tap in the page and hold the first frame of every animation it starts: what moves, from where.
ALL_FIRST_FRAMES = """async (tapped) => {
  const settled = new Promise((resolve) =>
    document.addEventListener("htmx:afterSettle", resolve, { once: true }));
  document.querySelector(tapped).click();
  await settled;
  return document.getAnimations().map((animation) => {
    animation.pause();
    animation.currentTime = 0;
    const element = animation.effect.target;
    const { x, y, width, height } = element.getBoundingClientRect();
    animation.finish();
    const name = element.id || (element.matches("[data-waste]") ? "waste" : element.className);
    return [name, { x, y, width, height }];
  });
}"""


@pytest.mark.parametrize("dealt", ["#controls [data-action=new]", "[data-deal-form] button"])
def test_a_deal_made_mid_game_is_dealt_from_the_stock(chain, dealt):
    """Not as undone moves: the cards taken flying back out of the waste and the others turning
    where they lie, the card drawn going back into the stock."""
    chain.set_viewport_size({"width": 360, "height": 640})
    for pos in CHAIN_ORDER[:4]:
        take(chain, pos)
    chain.locator("#stock").click()
    expect(chain.locator("#stock")).to_have_attribute("data-stock", "22")
    settle(chain)
    stock = chain.locator("#stock").bounding_box()

    moving = dict(chain.evaluate(ALL_FIRST_FRAMES, dealt))

    assert sorted(moving) == sorted([*(f"c{pos}" for pos in range(28)), "waste"])
    for frame in moving.values():
        assert_at(frame, stock)


# Step through the flight a tap starts: what, at each moment, lies over the flying element's
# middle (made hit-testable for this, as a flying card lets taps through).
OVER_IN_FLIGHT = (
    """async ([tapped, flying]) => {"""
    + TAP_AND_HOLD_THE_FLIGHT
    + """
  element.style.pointerEvents = "auto";
  const over = new Set();
  for (let at = 0; at < flight.effect.getTiming().duration; at += 10) {
    flight.currentTime = at;
    const { left, top, width, height } = element.getBoundingClientRect();
    const hit = document.elementFromPoint(left + width / 2, top + height / 2);
    if (!element.contains(hit)) over.add(hit.closest("[id]").id);
  }
  flight.finish();
  return [...over];
}"""
)


@pytest.mark.parametrize("size", [(1280, 800), (360, 640)], ids=["desktop", "phone"])
def test_an_undone_card_flies_back_over_the_cards_it_passes(chain, size):
    chain.set_viewport_size(dict(zip(("width", "height"), size, strict=True)))
    take(chain, 18)
    settle(chain)

    over = chain.evaluate(OVER_IN_FLIGHT, ["#controls [data-action=undo]", "#c18"])

    assert over == []


def test_a_growing_run_swells_its_counter_and_a_draw_pulses_its_reset(chain):
    taken, drawn = moving_after_each(chain, "#c18", "#stock")
    assert "run" in taken and "run reset" in drawn
    expect(chain.locator("#status")).to_have_attribute("data-run", "0")


UNDER_AFTER_TAP = """async (selector) => {
  const settled = new Promise((resolve) =>
    document.addEventListener("htmx:afterSettle", resolve, { once: true }));
  document.querySelector(selector).click();
  await settled;
  const under = document.querySelectorAll(".pile .under");
  const at = under[0]?.getBoundingClientRect();
  const rank = under[0]?.querySelector("b").dataset.g;
  return { count: under.length, rank, at: [at?.left, at?.top] };
}"""


@pytest.mark.parametrize("tapped", [f"#c{CHAIN_ORDER[0]}", "#stock"], ids=["take", "draw"])
def test_the_waste_card_stays_under_the_one_flying_onto_it(chain, tapped):
    before = chain.locator("[data-waste] b").get_attribute("data-g")

    under = chain.evaluate(UNDER_AFTER_TAP, tapped)
    settle(chain)

    waste = chain.locator("[data-waste]").bounding_box()
    assert (under["count"], under["rank"]) == (1, before)
    assert [round(value) for value in under["at"]] == [round(waste["x"]), round(waste["y"])]
    expect(chain.locator(".under")).to_have_count(0)


def test_a_refused_tap_shakes_the_card_beside_its_reason(chain):
    moving = moving_after(chain, "#c19")

    expect(chain.locator("[data-message]")).to_be_visible()
    assert "c19" in moving and "message" in moving


def test_a_win_rains_the_cards_cleared_before_the_panel(chain):
    for pos in CHAIN_ORDER[:-1]:
        take(chain, pos)
    moving = moving_after(chain, f"#c{CHAIN_ORDER[-1]}")

    assert "cascade" in moving and "panel" in moving
    rain = chain.evaluate(
        """() => [...document.querySelectorAll(".cascade")].map((card) => ({
          face: card.querySelector("b").dataset.g + card.querySelector("i").dataset.g,
          red: card.classList.contains("red"),
          at: [Math.round(parseFloat(card.style.left)), Math.round(parseFloat(card.style.top))],
        }))"""
    )
    settle(chain)
    # The 28 cards taken, in the order taken, not the last one again and again.
    cleared = [CHAIN_DECK[pos] for pos in CHAIN_ORDER]
    faces = [rank_symbol(card) + SUIT_SYMBOLS[suit(card)] for card in cleared]
    assert [card["face"] for card in rain] == faces
    assert [card["red"] for card in rain] == [is_red(card) for card in cleared]
    # From the waste, where the last card is landing, not from the place it was taken from.
    waste = chain.locator("[data-waste]").bounding_box()
    assert {tuple(card["at"]) for card in rain} == {(round(waste["x"]), round(waste["y"]))}
    expect(chain.locator("#panel h2")).to_have_text("Deal cleared!")
    expect(chain.locator(".cascade")).to_have_count(0, timeout=3000)


def test_reduced_motion_stills_every_animation(page, chain):
    page.emulate_media(reduced_motion="reduce")
    assert moving_after(chain, "#c19") == []
    assert moving_after(chain, "#c18") == []
    assert moving_after(chain, "#c19") == []
    for pos in CHAIN_ORDER[2:-1]:
        take(chain, pos)
    assert moving_after(chain, f"#c{CHAIN_ORDER[-1]}") == []
    expect(chain.locator(".cascade")).to_have_count(0)


def test_reduced_motion_stills_the_draw_and_the_wild_card(page, table):
    page.emulate_media(reduced_motion="reduce")
    start_deal(table, CHAIN_DECK, rules="wild")
    assert moving_after(table, "#stock") == []
    assert moving_after(table, "[data-action=wild]") == []
    assert moving_after(table, "#controls [data-action=undo]") == []


def test_a_quick_second_tap_on_a_slow_connection_is_applied(page, chain):
    network = page.context.new_cdp_session(page)
    network.send("Network.enable")
    network.send(
        "Network.emulateNetworkConditions",
        {"offline": False, "latency": 150, "downloadThroughput": -1, "uploadThroughput": -1},
    )

    chain.evaluate(
        """() => {
      document.querySelector("#c18").click();
      setTimeout(() => document.querySelector("#stock").click(), 40);
    }"""
    )

    expect(chain.locator("#status")).to_have_attribute("data-cleared", "1")
    expect(chain.locator("#stock")).to_have_attribute("data-stock", "22")
    expect(chain.locator("[data-message]")).to_have_count(0)


def test_a_tap_while_a_card_is_in_flight_is_applied(chain):
    assert "waste" in moving_after(chain, "#c18")
    box = chain.locator("#c19").bounding_box()
    chain.mouse.click(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)

    expect(chain.locator("#status")).to_have_attribute("data-cleared", "2")
    expect(chain.locator("[data-message]")).to_have_count(0)
