"""Scored hands, the analysis, winnable deals only and the daily deal, played in the browser."""

import json
import re

import pytest
from playwright.sync_api import expect

from game import play
from game.engine.scoring import hand_score
from game.engine.state import DRAW, Table
from game.models import Deal, Game
from game.views import WINNABLE_CHOSEN
from tests.browser.conftest import contrast, first_held, screenshot, start_deal, take
from tests.day import TODAY
from tests.engine.support import CHAIN_DECK, CHAIN_ORDER
from tests.engine.test_analysis import lost_lines

pytestmark = pytest.mark.browser

SIZES = [(360, 640), (640, 360), (1280, 800)]


def score_shown(page) -> int:
    return int(page.locator("[data-score]").get_attribute("data-score"))


def play_move(page, move) -> None:
    if move == DRAW:
        count = int(page.locator("#stock").get_attribute("data-stock"))
        page.locator("#stock").click()
        expect(page.locator("#stock")).to_have_attribute("data-stock", str(count - 1))
    else:
        take(page, move)


# Where a faded, taken card and a standing one overlap, which of them is on top; the overlaps
# counted too, so that a test finding none on top also shows that there were some to look at.
TAKEN_ON_TOP = """() => {
  const cards = [...document.querySelectorAll(".peaks .card")];
  const found = { overlaps: 0, takenOnTop: [] };
  for (const taken of cards.filter((card) => card.matches(".taken"))) {
    for (const standing of cards.filter((card) => !card.matches(".taken"))) {
      const a = taken.getBoundingClientRect(), b = standing.getBoundingClientRect();
      const left = Math.max(a.left, b.left), right = Math.min(a.right, b.right);
      const top = Math.max(a.top, b.top), bottom = Math.min(a.bottom, b.bottom);
      if (right - left < 4 || bottom - top < 4) continue;
      found.overlaps += 1;
      if (document.elementFromPoint((left + right) / 2, (top + bottom) / 2)?.closest(".taken")) {
        found.takenOnTop.push(taken.dataset.card);
      }
    }
  }
  return found;
}"""


def taken_cards_over_standing_ones(page) -> list[str]:
    found = page.evaluate(TAKEN_ON_TOP)
    assert found["overlaps"], "no taken card overlaps a standing one here"
    return found["takenOnTop"]


@pytest.mark.parametrize("system", ["pysol", "classic"])
def test_a_whole_scored_hand_shows_the_engines_score_after_every_move(table, system):
    deck, line = CHAIN_DECK, CHAIN_ORDER
    start_deal(table, deck, scoring=system)
    assert score_shown(table) == hand_score(deck, [], system)

    for count, move in enumerate(line, start=1):
        play_move(table, move)
        assert score_shown(table) == hand_score(deck, line[:count], system)
        if count == 3:
            table.locator("#controls [data-action=undo]").click()
            expect(table.locator("[data-message]")).to_contain_text("Undo is off")
            assert score_shown(table) == hand_score(deck, line[:count], system)

    expect(table.locator("#panel")).to_be_visible()
    bank = int(table.locator("[data-bank]").get_attribute("data-bank"))
    assert bank == sum(game.score for game in Game.objects.filter(scoring=system))
    for width, height in SIZES:
        table.set_viewport_size({"width": width, "height": height})
        screenshot(table, f"scored-{system}-won-{width}x{height}")
        if width > height:
            # Sideways the score and the bank stay on the title's line, as at the deal.
            title, figures = (
                table.locator(f"#status {part}").bounding_box() for part in ("h1", "p")
            )
            assert figures["y"] < title["y"] + title["height"]


# What on the page reaches past either side of the screen.
OFF_THE_SIDES = """() => [...document.querySelectorAll("main *")].filter((element) => {
  const box = element.getBoundingClientRect();
  return box.width > 0 && (box.left < 0 || box.right > document.documentElement.clientWidth);
}).map((element) => element.outerHTML.slice(0, 60))"""


def test_a_dead_end_then_its_analysis_and_try_again_from_the_last_winnable_move(table):
    deck, line = next(lost_lines(1))
    start_deal(table, deck)
    for move in line:
        play_move(table, move)
    expect(table.locator("#panel h2")).to_have_text("No legal move")

    table.locator("#panel [data-analysis]").click()

    page = table.locator("[data-deck]")
    expect(page).to_have_attribute("data-winnable", "true")
    k = int(page.get_attribute("data-last-winnable"))
    winning = json.loads(page.get_attribute("data-line"))
    assert Table.replay(deck, [*line[:k], *winning]).won
    table.get_by_role("link", name="Forward").click()
    expect(table.locator("[data-step]")).to_have_attribute("data-step", "1")
    assert taken_cards_over_standing_ones(table) == []
    for width, height in SIZES:
        table.set_viewport_size({"width": width, "height": height})
        screenshot(table, f"analysis-{width}x{height}")
        # The table and the step forward are in view together, the whole table on the screen.
        for part in (".peaks", "[rel=next]"):
            box = table.locator(part).bounding_box()
            assert box["x"] >= 0 and box["x"] + box["width"] <= width
            assert box["y"] >= 0 and box["y"] + box["height"] <= height
    # Sideways on a small phone the words stay above the table, not squeezed off the screen.
    table.set_viewport_size({"width": 480, "height": 320})
    assert table.evaluate(OFF_THE_SIDES) == []
    table.locator("[data-action=again]").click()
    expect(table.locator("#table")).to_be_visible()
    game = Game.objects.order_by("-pk").first()
    assert game.moves == line[:k]


@pytest.mark.parametrize("width, height", [(320, 568), (360, 640), (768, 1024)])
def test_forward_stays_under_the_finger_step_after_step(table, width, height):
    table.set_viewport_size({"width": width, "height": height})
    deck, line = next(lost_lines(1))
    start_deal(table, deck)
    for move in line:
        play_move(table, move)
    table.locator("#panel [data-analysis]").click()
    expect(table.locator("[data-step]")).to_be_attached()
    table.wait_for_load_state()
    forward = table.get_by_role("link", name="Forward")
    place = forward.bounding_box()

    for step in range(1, 7):
        forward.click()
        expect(table.locator("[data-step]")).to_have_attribute("data-step", str(step))
        table.wait_for_load_state()  # laid out with its stylesheets, as the finger meets it
        assert forward.bounding_box() == place


def test_the_analysis_names_red_cards_in_the_piles_as_readably_as_any_text(table):
    start_deal(table, CHAIN_DECK)
    for pos in CHAIN_ORDER:
        take(table, pos)
    table.locator("#panel [data-analysis]").click()
    table.get_by_role("link", name="Start").click()  # the whole stock, hearts among it

    red = table.locator(".piles .red").first
    colour = red.evaluate("e => getComputedStyle(e).color")
    band = table.locator(".piles").evaluate("e => getComputedStyle(e).backgroundColor")
    assert float(re.findall(r"[0-9.]+", band)[3]) >= 0.8, "a band the text lies on"
    assert contrast(colour, band) >= 4.5


SEEN_WHOLE = """(card) => {
    const box = card.querySelector("i").getBoundingClientRect();
    const shown = document.elementFromPoint(box.x + box.width / 2, box.y + box.height / 2);
    return shown !== null && shown.closest(".card") === card;
}"""


@pytest.mark.parametrize("width, height", [(360, 640), (1280, 800)])
def test_every_card_of_the_analysis_shows_its_suit(table, width, height):
    table.set_viewport_size({"width": width, "height": height})
    start_deal(table, CHAIN_DECK)
    for pos in CHAIN_ORDER:
        take(table, pos)
    table.locator("#panel [data-analysis]").click()
    table.get_by_role("link", name="Start").click()  # the whole deal on the table

    cards = table.locator(".analysis .peaks .card")
    expect(cards).to_have_count(28)
    hidden = [card.get_attribute("class") for card in cards.all() if not card.evaluate(SEEN_WHOLE)]
    assert hidden == []


def test_with_the_winnable_box_ticked_every_new_deal_can_be_won(table):
    with table.expect_response("**/winnable-only"):  # kept as it is ticked, without Play
        table.locator("input[name=winnable]").check()
    expect(table.locator("#winnable-chosen")).to_have_text(WINNABLE_CHOSEN)
    for _ in range(3):
        before = table.locator("#table").get_attribute("data-table")
        table.locator("#controls [data-action=new]").click()
        expect(table.locator("#table")).not_to_have_attribute("data-table", before)

    expect(table.locator("input[name=winnable]")).to_be_checked()
    games = Game.objects.exclude(deal__number=None).order_by("-pk")[:3]
    assert all(game.deal.verdicts.get(rules="standard").result == "winnable" for game in games)


@pytest.mark.usefixtures("intercepted")
def test_the_winnable_box_is_kept_though_a_tap_is_still_on_its_way(table):
    held = []
    table.route("**/draw", lambda route: held.append(route))
    table.locator("#stock").click()
    draw = first_held(table, held)

    with table.expect_response("**/winnable-only"):
        table.locator("input[name=winnable]").check()
    draw.continue_()
    expect(table.locator("#stock")).to_have_attribute("data-stock", "22")
    table.unroute("**/draw")

    table.reload()
    expect(table.locator("input[name=winnable]")).to_be_checked()


def test_two_players_get_the_same_daily_deal(browser, base_url):
    today = TODAY.isoformat()
    shown = []
    for _ in range(2):
        page = browser.new_context(base_url=base_url).new_page()
        page.goto("/daily")
        expect(page.locator("#status h1")).to_contain_text(f"daily {today}")
        shown.append(
            [card.get_attribute("data-card") for card in page.locator("[data-card]").all()]
        )
        page.locator("#stock").click()  # a look stores nothing; the first tap, their record
        expect(page.locator("#stock")).to_have_attribute("data-stock", "22")
    assert shown[0] == shown[1]
    daily = Game.objects.filter(daily=today)
    assert daily.count() == 2 and len({game.deal_id for game in daily}) == 1
    assert play.daily_deal(TODAY) == Deal.objects.get(pk=daily[0].deal_id)


def test_a_deal_dealt_from_the_daily_page_is_the_one_a_reload_shows(page):
    page.goto("/daily")
    stock = page.locator("#stock")
    stock.click()  # the daily's record begun
    expect(stock).to_have_attribute("data-stock", "22")
    start_deal(page, CHAIN_DECK, scoring="classic")
    take(page, 18)
    dealt = page.locator("#table").get_attribute("data-table")

    page.reload()

    expect(page).to_have_url(re.compile(r"/$"))
    expect(page.locator("#table")).to_have_attribute("data-table", dealt)
