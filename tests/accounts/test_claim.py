"""Logging in keeps the deal on the table; when the account has one in progress too, the player
chooses, and neither is lost."""

import re

from django.test import Client

from accounts import claim
from game import play
from game.engine.deck import format_deck
from game.models import Game
from game.stats import played_games
from tests.accounts.conftest import (
    PASSWORD,
    account_game,
    act,
    anonymous_game,
    log_in,
    make_user,
    start,
)
from tests.engine.support import CHAIN_DECK, CHAIN_ORDER
from tests.site.decks import DEAD_END_DECK
from tests.site.markup import element, elements, message

CHAIN = format_deck(CHAIN_DECK)


def play_anonymously(client: Client, deal: str = CHAIN, takes=(18, 19)) -> Game:
    """Open the table, start a deal and take some cards, without an account."""
    client.get("/")
    game = start(client, anonymous_game(client), deal)
    for pos in takes:
        act(client, game, "take", pos=pos)
    game.refresh_from_db()
    return game


def test_logging_in_claims_the_anonymous_game_and_keeps_it_on_the_table(client, alice):
    game = play_anonymously(client)
    anonymous_key = client.session.session_key

    response = log_in(client, "alice")

    assert response.status_code == 302 and response["Location"] == "/"
    assert client.session.session_key != anonymous_key, "login must cycle the session key"
    game.refresh_from_db()
    assert game.owner == alice and game.session_key == ""
    assert account_game(alice) == game
    page = client.get("/").content.decode()
    assert f'data-table="{game.pk}:{game.version}"' in page and "Cleared 2/28" in page


def test_every_game_of_the_session_joins_the_account(client, alice):
    first = play_anonymously(client)
    act(client, first, "new")
    second = anonymous_game(client)
    act(client, second, "draw")

    log_in(client, "alice")

    assert {first, second} <= set(alice.games.all())
    assert not Game.objects.filter(owner=None).exists()
    assert account_game(alice) == second


def test_signing_up_logs_in_and_claims_the_anonymous_game(client, db):
    game = play_anonymously(client)

    response = client.post(
        "/accounts/signup/",
        {"username": "bob", "password1": "a long enough pass", "password2": "a long enough pass"},
    )

    assert response.status_code == 302 and response["Location"] == "/"
    game.refresh_from_db()
    assert game.owner.username == "bob"
    assert client.get("/").wsgi_request.user.username == "bob"
    assert account_game(game.owner) == game


def test_the_account_deal_comes_back_when_this_device_has_only_an_untouched_deal(alice):
    desktop, phone = Client(), Client()
    log_in(desktop, "alice")
    desktop.get("/")
    theirs = start(desktop, account_game(alice), CHAIN)
    act(desktop, theirs, "take", pos=18)
    phone.get("/")  # deals a fresh game nobody has moved in yet

    response = log_in(phone, "alice")

    assert response["Location"] == "/"
    assert account_game(alice) == theirs
    assert f'data-table="{theirs.pk}:' in phone.get("/").content.decode()


def test_an_untouched_account_deal_gives_way_to_the_deal_played_here(client, alice):
    other = Client()
    log_in(other, "alice")
    other.get("/")
    untouched = account_game(alice)
    here = play_anonymously(client)

    assert log_in(client, "alice")["Location"] == "/"

    assert account_game(alice) == here
    untouched.refresh_from_db()
    assert untouched.status == Game.Status.PLAYING


def _both_in_progress(client, alice):
    """Alice has a deal in progress in her account, and another on this anonymous device."""
    desktop = Client()
    log_in(desktop, "alice")
    desktop.get("/")
    theirs = start(desktop, account_game(alice), "7")
    act(desktop, theirs, "draw")
    here = play_anonymously(client)
    return here, theirs


def test_the_page_a_login_was_for_comes_after_the_choice(client, alice):
    here, theirs = _both_in_progress(client, alice)
    login = {"username": "alice", "password": PASSWORD}

    asked = client.post("/accounts/login/?next=/accounts/games/", login)["Location"]
    page = client.get(asked).content
    form = element(page, "form", action=f"/accounts/games/{here.pk}/continue")
    sent = {field["name"]: field["value"] for field in elements(form, "input", type="hidden")}
    response = client.post(f"/accounts/games/{here.pk}/continue", sent)

    assert asked.startswith("/accounts/choose/?")
    assert response["Location"] == "/accounts/games/"
    other_site = {"next": "https://elsewhere.example/"}
    assert client.post(f"/accounts/games/{here.pk}/continue", other_site)["Location"] == "/"


def test_with_a_deal_in_progress_on_both_sides_the_player_chooses(client, alice):
    here, theirs = _both_in_progress(client, alice)

    response = log_in(client, "alice")

    assert response.status_code == 302 and response["Location"] == "/accounts/choose/"
    page = client.get("/accounts/choose/").content.decode()
    for game in (here, theirs):
        assert f'data-choice="{game.pk}"' in page
        assert f"/accounts/games/{game.pk}/continue" in page
    assert "Cleared" in page and "2/28" in page and "0/28" in page and "<code>7</code>" in page
    # Played moments ago, in words: not "0 minutes ago".
    assert re.search(r"<dt>Last played</dt><dd>(now|\d+\s+seconds? ago)</dd>", page)
    # Until the player picks, the table is the deal they were just playing here.
    assert account_game(alice) == here


def test_choosing_the_account_deal_keeps_the_other_unfinished(client, alice):
    here, theirs = _both_in_progress(client, alice)
    log_in(client, "alice")

    response = client.post(f"/accounts/games/{theirs.pk}/continue")

    assert response["Location"] == "/"
    assert account_game(alice) == theirs
    here.refresh_from_db()
    assert here.owner == alice and here.status == Game.Status.PLAYING
    assert here.running_since is None, "the deal set aside stops its clock"
    assert client.get("/accounts/choose/")["Location"] == "/", "the choice is made once"
    history = client.get("/accounts/games/").content.decode()
    assert f"/accounts/games/{here.pk}/continue" in history


def test_the_deal_set_aside_can_be_continued_later_exactly_as_it_was(client, alice):
    here, theirs = _both_in_progress(client, alice)
    log_in(client, "alice")
    client.post(f"/accounts/games/{theirs.pk}/continue")
    act(client, theirs, "draw")

    client.post(f"/accounts/games/{here.pk}/continue")

    assert account_game(alice) == here
    page = client.get("/").content.decode()
    assert f'data-table="{here.pk}:{here.version}"' in page and "Cleared 2/28" in page
    assert "set aside" in element(page, "form", action=f"/game/{theirs.pk}/take-up").text
    theirs.refresh_from_db()
    assert theirs.status == Game.Status.PLAYING and theirs.move_count == 2


def test_choosing_this_devices_deal_keeps_the_account_deal_unfinished(client, alice):
    here, theirs = _both_in_progress(client, alice)
    log_in(client, "alice")

    client.post(f"/accounts/games/{here.pk}/continue")

    assert account_game(alice) == here
    theirs.refresh_from_db()
    assert theirs.status == Game.Status.PLAYING and theirs.running_since is None


def test_a_stale_tap_from_the_other_device_after_the_choice_changes_nothing(client, alice):
    here, theirs = _both_in_progress(client, alice)
    log_in(client, "alice")
    desktop = Client()
    desktop.force_login(alice)

    response = act(desktop, theirs, "draw")

    assert response.status_code == 200 and play.MOVED_ON in response.content.decode()
    theirs.refresh_from_db()
    assert theirs.move_count == 1


def test_the_in_progress_test():
    assert not claim.in_progress(None)
    assert not claim.in_progress(Game(status=Game.Status.PLAYING, move_count=0))
    assert not claim.in_progress(Game(status=Game.Status.WON, move_count=30))
    assert claim.in_progress(Game(status=Game.Status.PLAYING, move_count=1))


def test_logging_in_with_no_game_in_the_session_changes_nothing(client, alice):
    other = Client()
    log_in(other, "alice")
    other.get("/")
    theirs = account_game(alice)

    assert log_in(client, "alice")["Location"] == "/"

    assert account_game(alice) == theirs
    assert make_user("carol").games.count() == 0


def test_a_finished_game_cannot_be_continued(client, alice):
    game = play_anonymously(client)
    log_in(client, "alice")
    act(client, game, "new")
    game.refresh_from_db()
    assert game.status == Game.Status.LEFT

    response = client.post(f"/accounts/games/{game.pk}/continue", follow=True)

    assert message(response.content) == play.NO_LONGER_IN_PLAY
    game.refresh_from_db()
    assert game.status == Game.Status.LEFT and account_game(alice) != game


def test_logging_in_with_an_untouched_deal_keeps_a_finished_account_game_on_the_table(
    client, alice
):
    finished = play_anonymously(client)
    log_in(client, "alice")
    Game.objects.filter(pk=finished.pk).update(status=Game.Status.WON, running_since=None)
    client.post("/accounts/logout/")
    client.get("/")  # a fresh deal, never touched

    response = log_in(client, "alice")

    assert response.status_code == 302 and response["Location"] == "/"
    assert account_game(alice) == finished


def win_and_read_the_analysis(client: Client, game: Game) -> None:
    for pos in CHAIN_ORDER[len(game.moves) :]:
        act(client, game, "take", pos=pos)
    game.refresh_from_db()
    assert game.status == Game.Status.WON
    assert client.get(f"/game/{game.pk}/analysis").status_code == 200


def counted(user) -> set[Game]:
    return set(played_games().filter(owner=user))


def test_a_deal_played_here_after_the_account_saw_it_whole_is_practice(client, alice):
    # The winning line read on the account's device, then the deal won anonymously on another,
    # scored: logging in must not bring that in as a real, scored win.
    desktop = Client()
    log_in(desktop, "alice")
    desktop.get("/")
    seen = start(desktop, account_game(alice), CHAIN)
    win_and_read_the_analysis(desktop, seen)
    client.get("/")
    here = start(client, anonymous_game(client), CHAIN)
    act(client, here, "deal", deal=CHAIN, scoring="pysol")
    here = anonymous_game(client)
    win_and_read_the_analysis(client, here)

    log_in(client, "alice")

    # Begun after the line was read, it is what one device would have dealt: unscored practice.
    here.refresh_from_db()
    assert here.owner == alice and here.practice
    assert (here.scoring, here.score) == (Game.Scoring.NONE, 0)
    assert counted(alice) == {seen}


def test_a_deal_seen_whole_here_makes_the_accounts_later_game_of_it_practice(client, alice):
    here = play_anonymously(client, takes=())
    win_and_read_the_analysis(client, here)
    desktop = Client()
    log_in(desktop, "alice")
    desktop.get("/")
    theirs = start(desktop, account_game(alice), CHAIN)  # begun knowing the line, on its account
    act(desktop, theirs, "take", pos=18)

    log_in(client, "alice")

    theirs.refresh_from_db()
    assert theirs.practice and theirs.status == Game.Status.PLAYING
    assert counted(alice) == {here}


def test_a_deal_still_in_play_here_when_the_account_saw_it_whole_is_practice(client, alice):
    # Begun unknowing, but the winning line read on the desktop could finish it here.
    here = play_anonymously(client, takes=(18,))
    desktop = Client()
    log_in(desktop, "alice")
    desktop.get("/")
    win_and_read_the_analysis(desktop, start(desktop, account_game(alice), CHAIN))
    for pos in CHAIN_ORDER[1:]:
        act(client, here, "take", pos=pos)

    log_in(client, "alice")

    here.refresh_from_db()
    assert here.status == Game.Status.WON and here.practice
    assert here not in counted(alice)


def test_a_scored_hand_here_keeps_only_the_points_it_made_before_the_account_saw_it_whole(
    client, alice
):
    here = play_anonymously(client, takes=())
    act(client, here, "deal", deal=CHAIN, scoring="classic")
    here = anonymous_game(client)
    act(client, here, "take", pos=CHAIN_ORDER[0])  # +1, unknowing
    desktop = Client()
    log_in(desktop, "alice")
    desktop.get("/")
    win_and_read_the_analysis(desktop, start(desktop, account_game(alice), CHAIN))
    for pos in CHAIN_ORDER[1:]:  # the rest, with the line known
        act(client, here, "take", pos=pos)

    log_in(client, "alice")

    here.refresh_from_db()
    assert here.status == Game.Status.WON and here.practice and here not in counted(alice)
    assert (here.scoring, here.score) == ("classic", 1)


def test_a_scored_hand_here_ended_by_what_the_account_saw_leaves_the_accounts_deal_on_the_table(
    client, alice
):
    here = play_anonymously(client, takes=())
    act(client, here, "deal", deal=CHAIN, scoring="classic")
    here = anonymous_game(client)
    act(client, here, "take", pos=CHAIN_ORDER[0])
    desktop = Client()
    log_in(desktop, "alice")
    desktop.get("/")
    win_and_read_the_analysis(desktop, start(desktop, account_game(alice), CHAIN))
    theirs = start(desktop, account_game(alice), format_deck(DEAD_END_DECK))
    act(desktop, theirs, "draw")

    chose = log_in(client, "alice")

    here.refresh_from_db()
    assert here.status == Game.Status.LEFT and (here.scoring, here.score) == ("classic", 1)
    assert chose.status_code == 302 and "choose" not in chose.url  # nothing left to choose
    assert account_game(alice) == theirs


def test_a_deal_over_here_before_the_account_saw_it_whole_is_played_for_real(client, alice):
    desktop = Client()
    log_in(desktop, "alice")
    desktop.get("/")
    left = start(desktop, account_game(alice), CHAIN)
    act(desktop, left, "take", pos=18)
    act(desktop, left, "new")  # left unfinished: its analysis is read only later
    here = play_anonymously(client, takes=())
    for pos in CHAIN_ORDER:
        act(client, here, "take", pos=pos)
    # Dealt again on the desktop, won and its analysis read, after the win here: the game left
    # there is marked seen whole then too, though it ended before.
    win_and_read_the_analysis(desktop, start(desktop, account_game(alice), CHAIN))

    log_in(client, "alice")

    here.refresh_from_db()
    assert here.status == Game.Status.WON and not here.practice
    assert here in counted(alice)
