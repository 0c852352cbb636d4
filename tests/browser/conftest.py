"""Browser tests: Debian's Chromium against Django's live server, a page that fails the test on
any console error (a Content Security Policy violation shows up there), and helpers to start a
chosen deal, wait for the server and check a page with axe."""

import os
import re
import threading
import time
from pathlib import Path

import pytest
from django.core.cache import cache
from django.test import override_settings
from playwright.sync_api import expect

from game.engine.deck import format_deck
from tests.site.decks import KNOWN_LOSS_DECK, KNOWN_LOSS_ORDER

# Playwright's sync API runs an event loop in the test thread; Django would otherwise refuse
# ORM calls made there (fixtures, assertions against the database) while a browser test runs.
os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")

# Debian's Chromium, not a Playwright-downloaded build: only package registries are reachable.
CHROMIUM = Path("/usr/bin/chromium")
AXE = Path(__file__).with_name("axe-4.14.1.min.js")
REQUEST_GRACE_S = 0.2
"""Time for a request sent as a page closes to reach the live server."""
SCREENSHOTS = Path(__file__).resolve().parents[2] / "artifacts" / "screenshots"


@pytest.fixture(scope="session")
def base_url(live_server):
    """Browser tests open relative URLs, page.goto("/"), on Django's live server."""
    return live_server.url


@pytest.fixture(scope="session")
def browser_type_launch_args(browser_type_launch_args):
    """CI must run the browser tests: there a missing Chromium fails them; elsewhere they are
    skipped."""
    if not CHROMIUM.exists():
        message = f"{CHROMIUM} is missing: apt-get install chromium"
        if os.environ.get("CI") == "true":
            pytest.fail(message, pytrace=False)
        pytest.skip(message)
    return {
        **browser_type_launch_args,
        "executable_path": str(CHROMIUM),
        "headless": True,
        "args": [
            "--no-sandbox",
            "--disable-gpu",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--disable-quic",
            "--no-first-run",
        ],
    }


@pytest.fixture(scope="session", autouse=True)
def _hints_decided_by_their_work_bound():
    """The live server shares two cores with Chromium and the other test process, and a Hint's
    search runs in the idle scheduling class (game/hint_search.py): under that load a 1 s clock
    can leave it no time at all, and the Hint would be the quick suggestion. With a clock this
    long the work bound decides, as on an idle machine."""
    with override_settings(HINT_BUDGET_MS=10_000):
        yield


@pytest.fixture(autouse=True)
def _uncounted():
    """Each test starts uncounted: the live server counts logins per address in its cache, and the
    account tests log in often enough to reach that limit within a minute."""
    cache.clear()


@pytest.fixture(autouse=True)
def _database(transactional_db, browser):
    """The live server and the test share the database. Closing a page hides it, and a hidden page
    pauses its clock with a request of its own: before the database is flushed, every page is
    closed and the server has answered, so that no request races the flush."""
    yield
    for context in browser.contexts:
        context.close()
    time.sleep(REQUEST_GRACE_S)
    wait_for(lambda: not _live_server_busy())


def _live_server_busy() -> bool:
    return any(thread.name.endswith("(process_request_thread)") for thread in threading.enumerate())


def wait_for(condition, timeout_s: float = 5.0, page=None) -> bool:
    """Poll `condition` until it holds or the time is up; whether it held. With a page, wait
    through Playwright, which meanwhile hands its events to the test's handlers (time.sleep would
    hold them back)."""
    deadline = time.monotonic() + timeout_s
    while not condition():
        if time.monotonic() > deadline:
            return False
        if page is None:
            time.sleep(0.02)
        else:
            page.wait_for_timeout(20)
    return True


def first_held(page, held: list):
    """The first request a test's route handler has held back. The handler hears of a request on
    a later Playwright event than the one that shows the page sent it, so wait for it."""
    wait_for(lambda: held, page=page)
    return held[0]


def collect_errors(page) -> list[str]:
    """The page's console errors and uncaught exceptions, as they happen."""
    errors = []
    page.on("console", lambda message: message.type == "error" and errors.append(message.text))
    page.on("pageerror", lambda error: errors.append(str(error)))
    return errors


@pytest.fixture
def console_errors(page):
    return collect_errors(page)


@pytest.fixture
def intercepted(page):
    """The page's requests pass through Playwright's routing from its start, so that a route a
    test adds later holds every request it matches. Chromium switches interception on for the
    first route a little after Playwright returns, and a request sent meanwhile slips past."""
    page.route("**/*", lambda route: route.fallback())


@pytest.fixture
def table(page, console_errors):
    """The table page, opened; the test fails if the page logs an error."""
    page.goto("/")
    yield page
    assert console_errors == []


@pytest.fixture
def new_device(browser, live_server):
    """Opens pages in browser contexts of their own, like separate devices (a desktop unless a
    viewport is given; options as Playwright's new_context takes them); each fails the test on a
    console error."""
    opened = []

    def open_device(viewport=None, **options):
        viewport = viewport or {"width": 1280, "height": 800}
        context = browser.new_context(base_url=live_server.url, viewport=viewport, **options)
        page = context.new_page()
        opened.append((context, collect_errors(page)))
        return page

    yield open_device
    for context, errors in opened:
        assert errors == []
        context.close()


def serious_accessibility_violations(page) -> list:
    """axe's serious and critical findings on the open page. axe is injected as an inline script,
    which the site's policy rightly forbids: the page's context must bypass it."""
    page.add_script_tag(path=AXE)
    results = page.evaluate("axe.run()")
    return [
        (violation["id"], violation["help"], [node["html"] for node in violation["nodes"]])
        for violation in results["violations"]
        if violation["impact"] in ("serious", "critical")
    ]


def start_deal(page, deck, rules="standard", scoring="none") -> None:
    """Start a deal through the deal form, as a player would: from its deck code, or a new deal
    when deck is None, under the rules and scoring chosen."""
    before = page.locator("#table").get_attribute("data-table")
    form = page.locator("[data-deal-form]")
    form.locator("input[name=deal]").fill(format_deck(deck) if deck else "")
    form.locator("select[name=rules]").select_option(rules)
    form.locator("select[name=scoring]").select_option(scoring)
    form.locator("button").click()
    expect(page.locator("#table")).not_to_have_attribute("data-table", before)
    settle(page)


def settle(page) -> None:
    """Wait for the cards to stop moving, as a player sees the table at rest."""
    page.wait_for_function("() => document.getAnimations().length === 0")


def draw_the_whole_stock(page) -> None:
    stock = page.locator("#stock")
    for left in range(22, -1, -1):
        stock.click()
        expect(stock).to_have_attribute("data-stock", str(left))


def play_to_a_proven_loss(page) -> None:
    """Every card known and no win left, the deal not yet at a dead end; the Hint asked, so that
    its bar shows the verdict."""
    start_deal(page, KNOWN_LOSS_DECK)
    draw_the_whole_stock(page)
    for pos in KNOWN_LOSS_ORDER:
        take(page, pos)
    page.locator("#controls [data-action=hint]").click()


def take(page, pos: int) -> None:
    page.locator(f'[data-pos="{pos}"]').click()
    expect(page.locator(f'[data-pos="{pos}"]')).to_have_count(0)


def screenshot(page, name: str) -> None:
    """The page at rest, once its animations have ended (Playwright's own ways to still them and
    to hide the caret inject styles, which the site's policy refuses)."""
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    settle(page)
    page.screenshot(path=SCREENSHOTS / f"{name}.png", full_page=True, caret="initial")


def contrast(first: str, second: str) -> float:
    """WCAG's contrast ratio of two CSS colours as getComputedStyle gives them ("rgb(…)")."""

    def luminance(colour: str) -> float:
        channels = [float(c) / 255 for c in re.findall(r"[0-9.]+", colour)[:3]]
        r, g, b = (c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4 for c in channels)
        return 0.2126 * r + 0.7152 * g + 0.0722 * b

    light, dark = sorted([luminance(first), luminance(second)], reverse=True)
    return (light + 0.05) / (dark + 0.05)


def focus_ring_contrast(element, surface: str) -> float:
    """Focus the element as a keyboard player would and give the contrast of its focus ring
    against the surface it sits on (the nearest ancestor matching the selector); 0 if no ring
    shows."""
    # After a key, focus moved by the page shows its ring, as it does for a keyboard player.
    element.page.keyboard.press("Tab")
    element.focus()
    colours = element.evaluate(
        """(element, surface) => element.matches(':focus-visible') && [
            getComputedStyle(element).outlineColor,
            getComputedStyle(element.closest(surface)).backgroundColor,
        ]""",
        surface,
    )
    return contrast(*colours) if colours else 0


def text_contrast(element) -> float:
    """The contrast of an element's text against its own background (opaque enough to count)."""
    colour, background = element.evaluate(
        "e => [getComputedStyle(e).color, getComputedStyle(e).backgroundColor]"
    )
    alpha = re.findall(r"[0-9.]+", background)[3:]
    return contrast(colour, background) if not alpha or float(alpha[0]) >= 0.8 else 0


# What the player must reach without scrolling, and whether a tap at its centre reaches it.
REACHABLE = """(selectors) => selectors.map((selector) => {
  const element = document.querySelector(selector);
  const box = element.getBoundingClientRect();
  const hit = document.elementFromPoint(box.left + box.width / 2, box.top + box.height / 2);
  return {
    selector,
    inside: box.left >= 0 && box.top >= 0 && box.right <= innerWidth && box.bottom <= innerHeight,
    tappable: element === hit || element.contains(hit),
  };
})"""


def unreachable(page, selectors: list[str]) -> list[dict]:
    return [
        place
        for place in page.evaluate(REACHABLE, selectors)
        if not (place["inside"] and place["tappable"])
    ]


def overlapped(page, over: str, selectors: list[str]) -> list[str]:
    """The elements whose boxes `over`'s box overlaps, even by a sliver at their edge."""
    return page.evaluate(
        """([over, selectors]) => {
      const top = document.querySelector(over).getBoundingClientRect();
      return selectors.filter((selector) => {
        const box = document.querySelector(selector).getBoundingClientRect();
        const across = box.left < top.right && top.left < box.right;
        return across && box.top < top.bottom && top.top < box.bottom;
      });
    }""",
        [over, selectors],
    )


def outside(page, selectors: list[str]) -> list[dict]:
    """The places not wholly in the viewport (a card under another is inside, yet not tappable)."""
    return [place for place in page.evaluate(REACHABLE, selectors) if not place["inside"]]
