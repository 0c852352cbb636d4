"""Browser tests: a page on the live server that fails the test on any console error (a Content
Security Policy violation shows up there), and helpers to start a chosen deal."""

import threading
import time
from pathlib import Path

import pytest
from playwright.sync_api import expect

from game.engine.deck import format_deck

REQUEST_GRACE_S = 0.2
"""Time for a request sent as a page closes to reach the live server."""
SCREENSHOTS = Path(__file__).resolve().parents[2] / "artifacts" / "screenshots"


@pytest.fixture(autouse=True)
def _database(transactional_db, browser):
    """The live server and the test share the database. Closing a page hides it, and a hidden page
    pauses its clock with a request of its own: before the database is flushed, every page is
    closed and the server has answered, so that no request races the flush."""
    yield
    for context in browser.contexts:
        context.close()
    time.sleep(REQUEST_GRACE_S)
    deadline = time.monotonic() + 5
    while time.monotonic() < deadline and any(
        thread.name.endswith("(process_request_thread)") for thread in threading.enumerate()
    ):
        time.sleep(0.02)


@pytest.fixture
def console_errors(page):
    errors = []
    page.on("console", lambda message: message.type == "error" and errors.append(message.text))
    page.on("pageerror", lambda error: errors.append(str(error)))
    return errors


@pytest.fixture
def table(page, console_errors):
    """The table page, opened; the test fails if the page logs an error."""
    page.goto("/")
    yield page
    assert console_errors == []


def start_deal(page, deck) -> None:
    """Start a deal from its deck code through the deal form, as a player would."""
    before = page.locator("#table").get_attribute("data-table")
    form = page.locator("[data-deal-form]")
    form.locator("input[name=deal]").fill(format_deck(deck))
    form.locator("button").click()
    expect(page.locator("#table")).not_to_have_attribute("data-table", before)


def draw_the_whole_stock(page) -> None:
    stock = page.locator("#stock")
    for left in range(22, -1, -1):
        stock.click()
        expect(stock).to_have_attribute("data-stock", str(left))


def take(page, pos: int) -> None:
    page.locator(f'[data-pos="{pos}"]').click()
    expect(page.locator(f'[data-pos="{pos}"]')).to_have_count(0)


def screenshot(page, name: str) -> None:
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    # Playwright's own ways to still animations and hide the caret inject styles, which the
    # site's policy refuses; let the card finish flying instead.
    page.wait_for_timeout(400)
    page.screenshot(path=SCREENSHOTS / f"{name}.png", full_page=True, caret="initial")
