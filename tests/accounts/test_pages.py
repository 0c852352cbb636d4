"""Sign up, log in, log out and change password: Django's auth in the site's own look, reachable
from the table, with Django's field names and password validators."""

from datetime import timedelta

import pytest
from django.test import Client
from django.utils import timezone

from game import play, views
from game.models import Game
from tests.accounts.conftest import PASSWORD, account_game, act, log_in, make_user
from tests.site.conftest import HTMX
from tests.site.markup import element, elements, message, text

ACCOUNT_PAGES = ["/accounts/login/", "/accounts/signup/"]


@pytest.mark.parametrize("url", ACCOUNT_PAGES)
def test_account_pages_are_in_the_sites_look(client, db, url):
    response = client.get(url)
    page = response.text

    assert response.status_code == 200
    assert "/static/game/tripeaks.css" in page and "/static/game/accounts.css" in page
    assert "admin" not in page
    assert "<script>" not in page and " style=" not in page
    assert 'name="csrfmiddlewaretoken"' in page
    assert 'href="/"' in page, "the way back to the table"


def test_the_forms_use_djangos_field_names(client, db):
    login, signup = client.get("/accounts/login/").text, client.get("/accounts/signup/").text

    assert 'name="username"' in login and 'name="password"' in login
    for field in ("username", "password1", "password2"):
        assert f'name="{field}"' in signup


def test_opening_the_account_pages_deals_no_game(client, db):
    for url in ACCOUNT_PAGES:
        client.get(url)

    assert not Game.objects.exists()


def test_the_table_links_to_log_in_and_sign_up(client, db):
    page = client.get("/").text

    assert 'href="/accounts/login/"' in page and 'href="/accounts/signup/"' in page


def test_logged_in_the_table_shows_the_player_my_games_and_log_out(client, alice):
    client.force_login(alice)

    page = client.get("/").text

    assert "alice" in page and 'href="/accounts/games/"' in page
    assert 'action="/accounts/logout/"' in page and "data-logout" in page


def test_logging_in_on_a_new_device_shows_no_first_run_tip(client, alice):
    log_in(client, "alice")

    tip = element(client.get("/").content, id="tip")

    assert tip.has("hidden")


@pytest.mark.parametrize(
    ("password1", "password2", "problem"),
    [
        ("password", "password", "This password is too common."),
        ("x7#", "x7#", "This password is too short."),
        ("48120397561", "48120397561", "This password is entirely numeric."),
        ("a long enough pass", "another long pass", "The two password fields didn’t match."),
    ],
)
def test_signup_checks_passwords_with_djangos_validators(client, db, password1, password2, problem):
    data = {"username": "bob", "password1": password1, "password2": password2}

    response = client.post("/accounts/signup/", data)

    assert response.status_code == 200 and problem in response.text
    assert not response.wsgi_request.user.is_authenticated


@pytest.mark.parametrize(
    ("url", "data", "field"),
    [
        ("/accounts/signup/", {"username": "bob", "password1": "a long enough pass"}, "password2"),
        ("/accounts/signup/", {"username": "", "password1": "a", "password2": "b"}, "username"),
        (
            "/accounts/password_change/",
            {"old_password": PASSWORD, "new_password1": "a long pass", "new_password2": "other"},
            "new_password2",
        ),
    ],
)
def test_a_form_sent_back_puts_focus_on_its_first_field_in_error(client, alice, url, data, field):
    if url == "/accounts/password_change/":
        log_in(client, "alice")
    page = client.post(url, data).text

    assert [box["name"] for box in elements(page, "input", autofocus=True)] == [field]


def test_a_failed_login_does_not_say_which_part_was_wrong(client, alice):
    wrong_password = log_in(client, "alice", "nope").text
    unknown_user = log_in(client, "nobody", "nope").text

    message = "Please enter a correct username and password."
    assert message in wrong_password and message in unknown_user
    assert "does not exist" not in unknown_user and "no such" not in unknown_user.lower()
    # The name is given back; the password field, emptied, is where typing goes on.
    assert element(wrong_password, "input", name="username")["value"] == "alice"
    assert element(wrong_password, "input", name="password").has("autofocus")
    assert not element(wrong_password, "input", name="username").has("autofocus")
    assert element(client.get("/accounts/login/").text, "input", name="username").has("autofocus")


def test_a_failed_logins_reason_is_read_with_the_field_focused(client, alice):
    page = log_in(client, "alice", "nope").text

    password = element(page, "input", name="password")
    assert password["aria-invalid"] == "true"
    said = element(page, id=password["aria-describedby"])
    assert "Please enter a correct username and password." in text(said)


def test_login_returns_to_the_page_asked_for(client, alice):
    response = client.post(
        "/accounts/login/?next=/accounts/games/", {"username": "alice", "password": PASSWORD}
    )

    assert response["Location"] == "/accounts/games/"


def test_login_refuses_a_redirect_to_another_site(client, alice):
    response = client.post(
        "/accounts/login/?next=https://evil.example/", {"username": "alice", "password": PASSWORD}
    )

    assert response["Location"] == "/"


def test_login_needs_the_csrf_token(alice):
    client = Client(enforce_csrf_checks=True)

    response = log_in(client, "alice")

    assert response.status_code == 403
    assert not client.get("/").wsgi_request.user.is_authenticated


def test_log_out_is_a_post(client, alice):
    client.force_login(alice)

    assert client.get("/accounts/logout/").status_code == 405
    response = client.post("/accounts/logout/")

    assert response.status_code == 302 and response["Location"] == "/"
    assert not client.get("/").wsgi_request.user.is_authenticated


def test_logging_out_stops_the_tables_clock_until_the_player_is_back(client, alice):
    log_in(client, "alice")
    client.get("/")
    game = account_game(alice)
    act(client, game, "draw")

    client.post("/accounts/logout/")
    game.refresh_from_db()
    assert game.running_since is None, "the page's own pause comes too late to be let in"
    away = timezone.now() - timedelta(hours=8)
    Game.objects.filter(pk=game.pk).update(paused_at=away)  # a night logged out
    log_in(client, "alice")
    client.get("/")

    game.refresh_from_db()
    assert game.running_since is not None
    assert game.elapsed_ms() < play.PAUSE_COUNTED + 60_000, "a pause counts its first minute"


@pytest.mark.parametrize("then", [None, "bob"], ids=["logged out", "logged in as another"])
def test_a_tap_from_a_page_left_open_after_logging_out_reloads_it_and_changes_nothing(
    client, alice, then
):
    log_in(client, "alice")
    client.get("/")
    game = account_game(alice)
    client.post("/accounts/logout/")  # in another tab
    if then:
        make_user(then)
        log_in(client, then)

    response = act(client, game, "draw")

    assert response.status_code == 404 and response["HX-Refresh"] == "true"
    game.refresh_from_db()
    assert game.moves == []
    reloaded = client.get("/").content
    if then:  # logged out, the page's "Log in" says it
        assert message(reloaded) == views.GONE_FROM_HERE
    assert not elements(client.get("/").content, data_message=True), "said once, if at all"


@pytest.mark.parametrize("page", ["/", "/daily"])
def test_a_tap_with_a_token_gone_out_of_date_reloads_the_page_saying_why(alice, page):
    client = Client(enforce_csrf_checks=True)
    client.get("/accounts/login/")
    logged_in = {"username": "alice", "password": PASSWORD}
    client.post(
        "/accounts/login/", logged_in | {"csrfmiddlewaretoken": client.cookies["csrftoken"].value}
    )
    shown = client.get(page).content
    token = elements(shown, "input", name="csrfmiddlewaretoken")[0]["value"]
    game = account_game(alice)
    make_user("bob")  # in another tab, in as bob: the token changes
    client.post("/accounts/logout/", {"csrfmiddlewaretoken": token})
    client.get("/accounts/login/")
    bob = {"username": "bob", "password": PASSWORD}
    client.post(
        "/accounts/login/", bob | {"csrfmiddlewaretoken": client.cookies["csrftoken"].value}
    )

    sent = {"version": game.version, "csrfmiddlewaretoken": token}
    response = client.post(f"/game/{game.pk}/draw", sent, headers=HTMX)

    assert response.status_code == 403 and response["HX-Refresh"] == "true"
    game.refresh_from_db()
    assert game.moves == []
    assert message(client.get(page).content) == views.GONE_FROM_HERE


def test_change_password(client, alice):
    assert client.get("/accounts/password_change/")["Location"].startswith("/accounts/login/")
    log_in(client, "alice")
    phone = Client()
    log_in(phone, "alice")
    page = client.get("/accounts/password_change/").text
    assert "accounts.css" in page and 'name="old_password"' in page
    account = element(page, "input", autocomplete="username")
    assert account["value"] == "alice" and account.has("hidden"), "for password managers"
    new = "a brand new passphrase"
    data = {"old_password": PASSWORD, "new_password1": new, "new_password2": new}

    response = client.post("/accounts/password_change/", data)

    assert response["Location"] == "/accounts/password_change/done/"
    assert "Password changed" in client.get(response["Location"]).text
    alice.refresh_from_db()
    assert alice.check_password(new)
    assert client.get("/").wsgi_request.user == alice, "still logged in on this device"
    assert not phone.get("/").wsgi_request.user.is_authenticated, "the page says it logs out"


def test_a_logged_in_player_visiting_log_in_or_sign_up_goes_to_the_table(client, alice):
    client.force_login(alice)

    for url in ACCOUNT_PAGES:
        assert client.get(url)["Location"] == "/"


@pytest.mark.parametrize("url", ["/accounts/logout/", "/accounts/games/{pk}/continue"])
def test_account_posts_need_the_csrf_token(alice, url):
    client = Client(enforce_csrf_checks=True)
    client.force_login(alice)
    client.get("/")
    game = Game.objects.get(owner=alice)

    response = client.post(url.format(pk=game.pk))

    assert response.status_code == 403
    assert client.get("/").wsgi_request.user == alice


def test_my_games_names_the_deal_each_rows_buttons_act_on(client, alice):
    log_in(client, "alice")
    client.get("/")
    game = account_game(alice)
    act(client, game, "draw")
    act(client, game, "new")  # left: its analysis and a replay are offered

    page = client.get("/accounts/games/").content

    row = element(page, "tr", data_game=str(game.pk))
    deal = element(row, "td", data_label="Deal")
    buttons = [*elements(row, "button"), *elements(row, "a", data_analysis=True)]
    assert len(buttons) >= 2
    assert {button["aria-describedby"] for button in buttons} == {deal["id"]}


def test_my_games_is_kept_by_no_cache(client, alice):
    client.force_login(alice)

    response = client.get("/accounts/games/")

    assert response.status_code == 200
    assert {"no-store", "private"} <= set(response["Cache-Control"].replace(",", " ").split())
