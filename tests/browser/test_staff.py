"""The staff pages in a real browser: the admin's index, the deal statistics and the games list,
on a phone and a desktop."""

import pytest
from django.contrib.auth import get_user_model

from game.engine.deck import format_deck
from game.models import Action, Deal, Game
from tests.browser.conftest import screenshot
from tests.engine.support import CHAIN_DECK

pytestmark = pytest.mark.browser

PASSWORD = "staff pass phrase"
PHONE = {"width": 360, "height": 640}
DESKTOP = {"width": 1280, "height": 800}


def staff_on(new_device, viewport: dict, url: str):
    """A new device whose staff member has logged in through the admin's form, landing on url."""
    get_user_model().objects.create_superuser("staff", password=PASSWORD)
    page = new_device(viewport)
    page.goto(f"/admin/login/?next={url}")
    page.fill("input[name=username]", "staff")
    page.fill("input[name=password]", PASSWORD)
    page.click("input[type=submit]")
    return page


def test_staff_pages_keep_within_a_phone_and_a_desktop(new_device):
    for rules in ("standard", "open+nowrap+headstart+wild"):  # the longest rule set's name
        Game.objects.create(
            deal=Deal.for_number(7), status=Game.Status.WON, cleared=28, move_count=40, rules=rules
        )
    page = staff_on(new_device, PHONE, "/admin/")

    for viewport in (PHONE, DESKTOP):
        page.set_viewport_size(viewport)
        for url in ("/admin/", "/admin/statistics/", "/admin/game/game/"):
            page.goto(url)
            # Django's own result lists scroll inside their box; the page itself never sideways.
            assert page.evaluate("document.documentElement.scrollWidth") <= viewport["width"], url
        # The statistics' own tables fit their modules, with nothing to scroll to.
        page.goto("/admin/statistics/")
        overflowing = page.locator(".tp-sections .module").evaluate_all(
            "modules => modules.filter(m => m.scrollWidth > m.clientWidth).map(m => m.id)"
        )
        assert overflowing == [], viewport
        page.goto("/admin/")
        screenshot(page, f"staff-index-{viewport['width']}")
        link = page.get_by_role("link", name="Deal statistics").bounding_box()
        assert link["width"] > link["height"], "the link reads on one line"
    # On a desktop the recent actions stand level with the first module, the statistics'.
    recent = page.locator("#recent-actions-module").bounding_box()
    statistics = page.locator("#statistics-link").bounding_box()
    assert abs(recent["y"] - statistics["y"]) < 2


def test_a_games_table_picture_labels_the_waste_beside_it(new_device):
    game = Game.objects.create(deal=Deal.for_number(7), move_count=1)
    Action.objects.create(game=game, seq=1, kind="draw")
    page = staff_on(new_device, DESKTOP, f"/admin/game/game/{game.pk}/change/")

    label = page.locator(".tp-pile-label").bounding_box()
    # The pile's cards are the pictures with no tableau position: the waste, then the stock.
    waste = page.locator(".tp-table > g:not([data-table-pos])").first.bounding_box()
    assert label["x"] + label["width"] <= waste["x"], "the label ends before the waste card"


def test_a_deals_page_shows_its_whole_deck_code_on_a_phone_and_a_desktop(new_device):
    deal = Deal.for_number(7)
    page = staff_on(new_device, PHONE, f"/admin/game/deal/{deal.pk}/change/")

    for viewport in (PHONE, DESKTOP):
        page.set_viewport_size(viewport)
        code = page.locator(".field-deck .readonly")
        assert code.inner_text().strip() == deal.deck
        # Wrapped within its box, where it ran past the box's edge and was cut there.
        assert code.evaluate("field => field.scrollWidth <= field.clientWidth"), viewport
        assert page.evaluate("document.documentElement.scrollWidth") <= viewport["width"]


def test_the_pages_of_a_deal_typed_by_its_code_keep_within_a_phone_and_a_desktop(new_device):
    # Such a deal is named by its code: one 104-character word in headings and breadcrumbs.
    deal = Deal.for_code(format_deck(CHAIN_DECK))
    game = Game.objects.create(deal=deal, status=Game.Status.WON, cleared=28, move_count=28)
    urls = [f"/admin/game/game/{game.pk}/change/", f"/admin/game/deal/{deal.pk}/change/"]
    page = staff_on(new_device, PHONE, urls[0])

    for viewport in (PHONE, DESKTOP):
        page.set_viewport_size(viewport)
        for url in urls:
            page.goto(url)
            assert page.evaluate("document.documentElement.scrollWidth") <= viewport["width"], url


def test_the_games_list_shows_its_order_and_what_each_came_to_on_a_laptop(new_device):
    Game.objects.create(deal=Deal.for_number(7), status=Game.Status.WON, cleared=28, move_count=40)
    page = staff_on(new_device, DESKTOP, "/admin/game/game/")

    results = page.locator("#changelist .results").bounding_box()
    for column in ("started_at", "status", "cleared"):
        heading = page.locator(f"th.column-{column}").bounding_box()
        assert heading["x"] + heading["width"] <= results["x"] + results["width"], column
