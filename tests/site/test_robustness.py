"""Bad input, stale requests, other players' games, CSRF, the security policy and page weight."""

import gzip
import json
import re
import struct
from pathlib import Path

import brotli
import pytest
from django.conf import settings
from django.contrib.staticfiles import finders
from django.test import Client

from game import play
from game.engine.cards import card_code, card_label
from game.engine.geometry import TABLEAU_SIZE
from game.models import Game
from tests.conftest import returning
from tests.engine.support import CHAIN_DECK
from tests.site.conftest import HTMX, Player
from tests.site.markup import element, elements, message, text

PAGE_BUDGET = 34 * 1024
"""The first visit's bytes as they travel: the page gzipped, the static files as WhiteNoise serves
them to a browser that accepts Brotli."""


@pytest.mark.parametrize("htmx", [True, False])
@pytest.mark.parametrize(
    ("data", "problem"),
    [
        ({"pos": "x"}, "pos must be a whole number"),
        ({"pos": "-1"}, "pos must be a whole number"),
        ({"pos": "28"}, "pos must be a tableau position from 0 to 27"),
        ({}, "pos must be a tableau position from 0 to 27"),
        ({"pos": "18", "version": "v1"}, "version must be a whole number"),
        ({"pos": "\u00b2"}, "pos must be a whole number"),
        ({"pos": "18", "version": "9" * 5000}, "version must be a whole number"),
    ],
)
def test_bad_input_is_a_400_with_a_clear_message(player, data, problem, htmx):
    before = player.game

    response = player.post("take", data, htmx=htmx)

    assert response.status_code == 400
    assert problem in message(response.content)
    after = player.game
    assert (after.version, after.moves) == (before.version, before.moves)


def test_a_bad_table_field_on_try_again_is_refused_for_itself(player):
    player.start(CHAIN_DECK)
    lost = player.game
    player.post("new")
    form = {"version": player.game.version, "moves": "0", "table": "9" * 19}

    response = player.client.post(f"/game/{lost.pk}/again", form, headers=HTMX)

    assert response.status_code == 400
    assert message(response.content) == f"table must be a whole number, not {'9' * 19!r}."


@pytest.mark.parametrize("htmx", [True, False])
def test_an_unknown_game_is_a_404(player, htmx):
    response = player.client.post("/game/999999/draw", {"version": 0}, headers=HTMX if htmx else {})

    assert response.status_code == 404
    assert message(response.content) == play.NOT_YOURS


@pytest.mark.parametrize("game_id", ["9" * 19, "1" + "0" * 19, "18446744073709551616"])
def test_a_game_id_too_large_for_the_database_is_a_404(player, django_user_model, game_id):
    for action in ("draw", "hint", "pause"):
        response = player.client.post(f"/game/{game_id}/{action}", {"version": 0})

        assert response.status_code == 404
    player.client.force_login(django_user_model.objects.create_user("alice"))
    for action in ("continue", "replay"):  # My games'
        assert player.client.post(f"/accounts/games/{game_id}/{action}").status_code == 404


def test_an_unknown_address_is_a_404_in_the_sites_look_with_the_way_back(client, db):
    response = client.get("/no/such/page")

    page = response.content
    assert response.status_code == 404
    assert message(page) == "There is no such page here."
    assert element(page, "link", rel="stylesheet")["href"] == "/static/game/tripeaks.css"
    assert [link.text for link in elements(page, "a", href="/")] == ["Back to the table"]


def test_someone_elses_game_is_a_404_and_stays_as_it_was(player, db):
    victim = player.game
    intruder = Player(Client())

    response = intruder.post("draw", game=victim)

    assert response.status_code == 404 and message(response.content) == play.NOT_YOURS
    victim.refresh_from_db()
    assert victim.moves == [] and victim.version == 0


def test_a_post_without_the_csrf_token_is_refused_with_a_friendly_page(db):
    client = returning(Client(enforce_csrf_checks=True))
    client.get("/")
    game = Game.objects.get()

    response = client.post(f"/game/{game.pk}/draw", {"version": 0})

    assert response.status_code == 403
    assert message(response.content).startswith("This page has expired")
    game.refresh_from_db()
    assert game.moves == []


def test_a_tap_with_an_out_of_date_csrf_token_asks_for_the_page_anew(db):
    """A token goes out of date when the player logs in or out in another tab. An app on a
    phone's home screen has no reload button: the page reloads itself, with a fresh token."""
    client = returning(Client(enforce_csrf_checks=True))
    client.get("/")
    game = Game.objects.get()

    response = client.post(f"/game/{game.pk}/draw", {"version": 0}, headers=HTMX)

    assert response.status_code == 403 and response["HX-Refresh"] == "true"
    game.refresh_from_db()
    assert game.moves == []


def htmx_csrf_token(page) -> str:
    """The token htmx sends with every request: a header named in the body's hx-headers."""
    headers = json.loads(element(page, "body")["hx-headers"])
    return {name.lower(): value for name, value in headers.items()}["x-csrftoken"]


def test_htmx_sends_the_pages_csrf_token_and_a_fragments_forms_post_as_they_stand(db):
    client = returning(Client(enforce_csrf_checks=True))
    page = client.get("/").content
    token = htmx_csrf_token(page)
    game = Game.objects.get()

    response = client.post(
        f"/game/{game.pk}/draw",
        {"version": 0},
        headers={"HX-Request": "true", "X-CSRFToken": token},
    )

    assert response.status_code == 200
    # Each form in the fragments carries the token field, as on the page: posted as it stands,
    # with no header, the next draw is made.
    draw = element(response.content, "form", action=f"/game/{game.pk}/draw")
    sent = {field["name"]: field["value"] for field in elements(draw, "input", type="hidden")}
    assert "csrfmiddlewaretoken" in sent
    assert client.post(f"/game/{game.pk}/draw", sent).status_code == 302
    game.refresh_from_db()
    assert game.moves == ["draw", "draw"]


def test_a_stale_version_gets_the_current_table_back(player):
    player.start(CHAIN_DECK)
    player.take(18)

    response = player.post("take", {"pos": 19, "version": 0})

    html = response.content
    assert response.status_code == 200 and message(html) == play.STALE
    assert element(html, data_cleared=True)["data-cleared"] == "1"
    assert player.game.moves == [18]


def test_a_tap_on_a_game_left_in_another_tab_shows_the_players_current_table(player):
    left = player.game
    player.post("new", game=left)
    current = player.game

    response = player.post("draw", game=left)

    html = response.content
    assert message(html) == play.MOVED_ON
    assert element(html, data_table=True)["data-table"] == f"{current.pk}:{current.version}"
    left.refresh_from_db()
    assert left.moves == [] and left.status == Game.Status.SKIPPED


def test_a_double_submitted_new_deal_deals_once(player):
    old = player.game
    player.post("new", game=old)

    response = player.post("new", {"version": 0}, game=old)

    assert message(response.content) == play.MOVED_ON
    assert Game.objects.count() == 2


def test_the_security_policy_forbids_inline_code(player):
    policy = player.page["Content-Security-Policy"]

    assert "script-src 'self'" in policy and "style-src 'self'" in policy
    assert "unsafe" not in policy
    page = player.page.content
    assert all(script.has("src") and not script.text for script in elements(page, "script"))
    assert not elements(page, "style") and not elements(page, style=True)
    inline = [
        name for each in elements(page) for name in each.attrs if name.startswith(("on", "hx-on"))
    ]
    assert inline == []


def _without_tokens(html: str) -> str:
    """The page without its CSRF tokens, random text that may spell anything."""
    tokens = [field["value"] for field in elements(html, "input", name="csrfmiddlewaretoken")]
    if elements(html, "body"):
        tokens.append(htmx_csrf_token(html))
    for token in tokens:
        html = html.replace(token, "")
    return html


def _hidden_cards(game):
    """Cards the player must not be told: face-down peak cards and the stock."""
    table = play.table_of(game)
    hidden = [
        table.deck[p]
        for p in range(TABLEAU_SIZE)
        if not table.is_removed(p) and not table.is_face_up(p)
    ]
    return hidden + list(table.deck[table.stock_next :])


def _assert_nothing_hidden_shows(game, html):
    html = _without_tokens(html)
    for card in _hidden_cards(game):
        code = card_code(card)
        assert not re.search(rf"(?<![A-Za-z0-9]){code}(?![A-Za-z0-9])", html), code
        assert card_label(card) not in html, card_label(card)
    assert game.deal.deck not in html


@pytest.mark.slow  # a whole game played and every answer read
def test_face_down_cards_and_the_stock_never_appear(player):
    """Play a numbered deal to its end, looking at every response and page along the way."""
    player.post("deal", {"deal": "7"})
    for _ in range(80):
        game = player.game
        table = play.table_of(game)
        if table.over:
            break
        legal = table.legal_takes()
        responses = [
            player.take(legal[0]) if legal else player.post("draw"),
            player.post("hint"),
            player.take(0),
        ]
        game = player.game
        for response in [*responses, player.client.get("/")]:
            _assert_nothing_hidden_shows(game, response.content.decode())
    assert play.table_of(player.game).over


def test_the_first_page_weighs_at_most_its_budget_compressed(player):
    html = player.page.content
    loaded = [
        *(script["src"] for script in elements(html, "script", src=True)),
        *(link["href"] for link in elements(html, "link", href=True)),
    ]
    # Fetched only when the page is added to an iPhone's home screen.
    loaded.remove(element(html, "link", rel="apple-touch-icon")["href"])
    assert all(re.fullmatch("/[^/].*", address) for address in loaded), "all from the site"

    def travelled(address: str) -> int:
        if address.startswith("/static/"):
            return len(brotli.compress(static_file(address)))
        return len(gzip.compress(player.client.get(address).content))  # the app manifest

    weight = len(gzip.compress(html)) + sum(map(travelled, loaded))

    assert elements(html, "link", rel="stylesheet") and elements(html, "script", src=True)
    assert weight <= PAGE_BUDGET, weight


def test_the_tables_page_and_a_notice_page_name_the_sites_icon(player, client):
    for page in (player.page.content, client.get("/no/such/page").content):
        icon = element(page, "link", rel="icon")
        assert icon["type"] == "image/svg+xml"
        assert static_file(icon["href"]).startswith(b"<svg")


def test_the_table_describes_itself_to_search_engines_and_link_previews(player):
    description = element(player.page.content, "meta", name="description")["content"]

    assert "TriPeaks" in description and len(description) <= 160  # what a result shows whole


def test_what_asks_for_favicon_ico_gets_the_icon_the_pages_name(player, client):
    named = element(player.page.content, "link", rel="icon")["href"]
    assert client.get("/favicon.ico").headers["Location"] == named


def test_the_app_manifest_starts_at_the_table_with_the_icon_the_pages_name(player, client):
    page = player.page.content
    response = client.get(element(page, "link", rel="manifest")["href"])

    assert response["Content-Type"] == "application/manifest+json"
    manifest = json.loads(response.content)
    assert (manifest["start_url"], manifest["display"]) == ("/", "standalone")
    assert [icon["src"] for icon in manifest["icons"]] == [
        element(page, "link", rel="icon")["href"]
    ]
    assert manifest["theme_color"] == element(page, "meta", name="theme-color")["content"]


def test_an_iphones_home_screen_gets_the_icon_as_a_square_180_px_png(player):
    icon = static_file(element(player.page.content, "link", rel="apple-touch-icon")["href"])

    assert icon.startswith(b"\x89PNG\r\n\x1a\n")
    assert struct.unpack(">II", icon[16:24]) == (180, 180)  # the header's width and height


@pytest.mark.parametrize("path", ["/manifest.webmanifest", "/robots.txt"])
def test_the_sites_own_small_files_are_kept_by_browsers_for_a_while(client, path):
    response = client.get(path)

    kept = dict(part.strip().partition("=")[::2] for part in response["Cache-Control"].split(","))
    assert "public" in kept and int(kept["max-age"]) >= 600


def test_robots_txt_keeps_crawlers_to_the_table_and_the_daily_deal(client):
    response = client.get("/robots.txt")

    assert response["Content-Type"].startswith("text/plain")
    rules = [line.split(":", 1) for line in response.content.decode().splitlines() if ":" in line]
    assert ["User-agent", " *"] in rules
    closed = {path.strip() for field, path in rules if field == "Disallow"}
    assert {"/accounts/", "/admin/", "/game/"} <= closed
    assert not any("/".startswith(path) or "/daily".startswith(path) for path in closed)


def static_file(address: str) -> bytes:
    """The bytes of a static file the site names by its address."""
    return Path(finders.find(address.removeprefix("/static/"))).read_bytes()


def test_every_page_answers_head_as_it_answers_get(player, django_user_model):
    """Uptime monitors, link checkers and load balancers ask with HEAD: a page that answers GET
    answers HEAD the same, without its body."""
    left = player.game
    player.start(CHAIN_DECK)
    staff = Client()
    staff.force_login(django_user_model.objects.create_superuser("staff"))
    pages = [
        (player.client, "/"),
        (player.client, "/daily"),
        (player.client, f"/game/{left.pk}/analysis"),
        (player.client, "/healthz"),
        (player.client, "/favicon.ico"),
        (player.client, "/robots.txt"),
        (player.client, "/manifest.webmanifest"),
        (player.client, "/accounts/login/"),
        (player.client, "/accounts/signup/"),
        (staff, "/accounts/games/"),
        (staff, "/accounts/password_change/"),
        (staff, "/admin/statistics/"),
    ]
    for client, path in pages:
        got = client.get(path)
        asked = client.head(path)
        assert (path, asked.status_code) == (path, got.status_code)
        assert got.status_code in (200, 302) and not asked.content


def test_no_template_comment_runs_past_its_line():
    """Django ends a {# comment #} on its own line: one running on would be shown on the page."""
    unclosed = [
        f"{template.name}:{number}"
        for folder in settings.TEMPLATES[0]["DIRS"]
        for template in folder.rglob("*.html")
        for number, line in enumerate(template.read_text().splitlines(), start=1)
        if re.search(r"\{#(?!.*#\})", line)
    ]
    assert unclosed == []


@pytest.mark.parametrize("address", ["/accounts/logout/", "/game/1/take", "/healthz"])
def test_a_method_an_address_does_not_take_gets_a_page_saying_so(player, address):
    method = "post" if address == "/healthz" else "get"

    response = getattr(player.client, method)(address)

    assert response.status_code == 405 and response["Allow"]
    assert "Nothing was changed" in message(response.content)
    assert "Back to the table" in text(response.content)


def test_each_page_says_what_it_is_in_its_title(player):
    player.post("draw")
    game = player.game
    today = play.today().isoformat()

    titles = {
        "/daily": f"Daily deal {today} · TriPeaks",
        f"/game/{game.pk}/analysis": "Still being played · TriPeaks",
        f"/game/{game.pk}/analysis?step=x": "Not understood · TriPeaks",
    }

    for url, title in titles.items():
        assert text(element(player.client.get(url).content, "title")) == title, url


@pytest.mark.parametrize("method", ["get", "head"])
def test_a_health_probe_by_the_servers_address_is_answered(client, caplog, method):
    """Load balancers probe by the server's address, which the allowed hosts need not list."""
    response = getattr(client, method)("/healthz", headers={"host": "10.0.0.5:8000"})

    assert response.status_code == 200
    assert not caplog.records


@pytest.mark.parametrize(
    ("method", "path"), [("get", "/"), ("get", "/accounts/login/"), ("post", "/healthz")]
)
def test_any_other_request_by_a_host_not_allowed_is_still_refused(client, method, path):
    response = getattr(client, method)(path, headers={"host": "10.0.0.5:8000"})

    assert response.status_code == 400
