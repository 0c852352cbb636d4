"""Browser tests: a page on the live server that fails the test on any console error (a Content
Security Policy violation shows up there), and helpers to start a chosen deal."""

from pathlib import Path

import pytest
from playwright.sync_api import expect

from game.engine.deck import format_deck

SCREENSHOTS = Path(__file__).resolve().parents[2] / "artifacts" / "screenshots"


@pytest.fixture(autouse=True)
def _database(transactional_db):
    """The live server and the test share the database."""


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
    quiet(page)


def quiet(page) -> None:
    """Closing a page hides it, which pauses the clock with a request of its own; keep that
    request from racing the database flush after the test."""
    page.evaluate(
        """document.addEventListener(
            "visibilitychange", (event) => event.stopImmediatePropagation(), true)"""
    )


def start_deal(page, deck) -> None:
    """Start a deal from its deck code through the deal form, as a player would."""
    before = page.locator("#table").get_attribute("data-table")
    form = page.locator("[data-deal-form]")
    form.locator("input[name=deal]").fill(format_deck(deck))
    form.locator("button").click()
    expect(page.locator("#table")).not_to_have_attribute("data-table", before)


def take(page, pos: int) -> None:
    page.locator(f'[data-pos="{pos}"]').click()
    expect(page.locator(f'[data-pos="{pos}"]')).to_have_count(0)


def screenshot(page, name: str) -> None:
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    # Playwright's own ways to still animations and hide the caret inject styles, which the
    # site's policy refuses; let the card finish flying instead.
    page.wait_for_timeout(400)
    page.screenshot(path=SCREENSHOTS / f"{name}.png", full_page=True, caret="initial")
