"""New deal, replay, the deal form, the Hint, the clock and the first-run tip."""

import re

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from game import play
from game.engine.deck import deck_for_number
from game.models import Action, Game
from tests.engine.support import CHAIN_DECK
from tests.site.decks import DEAD_END_DECK, KNOWN_LOSS_DECK, KNOWN_LOSS_ORDER


def test_new_deal_leaves_the_old_game_and_deals_a_numbered_one(player):
    old = player.game

    html = player.post("new").content.decode()

    old.refresh_from_db()
    new = player.game
    assert old.status == Game.Status.SKIPPED and new.pk != old.pk and new.deal.number
    assert f"deal {new.deal.number}" in html and "Cleared 0/28" in html
    assert new.actions.get().kind == "new"


def test_a_deal_left_after_a_move_is_left_unfinished_and_played(player):
    old = player.game
    player.post("draw")

    player.post("new")

    old.refresh_from_db()
    assert old.status == Game.Status.LEFT and old.status in Game.PLAYED
    assert old.finished_at is not None and old.running_since is None


def test_replay_deals_the_same_deal_again(player):
    player.start(CHAIN_DECK)
    old = player.game
    player.take(18)

    player.post("replay", htmx=False)

    new = player.game
    assert new.deal == old.deal and new.pk != old.pk and new.moves == []
    assert new.actions.get().kind == "replay"


def test_the_deal_form_takes_a_deal_number(player):
    html = player.post("deal", {"deal": " 42 "}).content.decode()

    assert player.game.deal.number == 42 and "deal 42" in html


def test_a_number_names_a_deal_first_started_by_its_code(player):
    player.start(deck_for_number(42))
    by_code = player.game.deal
    assert by_code.number is None

    html = player.post("deal", {"deal": "42"}).content.decode()

    assert player.game.deal.pk == by_code.pk and player.game.deal.number == 42
    assert "deal 42" in html


@pytest.mark.parametrize("htmx", [True, False])
@pytest.mark.parametrize(
    ("text", "problem"),
    [
        ("", "nothing was typed"),
        ("0", "a deal number is a whole number from 1"),
        ("9" * 5000, "a deal number is a whole number from 1"),
        ("\u00b2", "wrong length"),
        ("AC2C", "wrong length"),
        ("XX" + "AC" * 51, "bad card &#x27;XX&#x27; at position 0"),
        ("AC" * 52, "duplicate card AC at position 1"),
    ],
)
def test_a_bad_deal_is_refused_with_a_clear_message(player, text, problem, htmx):
    game = player.game

    response = player.post("deal", {"deal": text}, htmx=htmx)

    assert response.status_code == 400
    html = response.content.decode()
    assert "data-message>That deal cannot be started: " in html and problem in html
    assert player.game == game and Game.objects.count() == 1


def test_a_hint_marks_a_card_and_is_logged(player):
    player.start(CHAIN_DECK)

    response = player.post("hint")

    html = response.content.decode()
    assert 'id="hint-slot" hx-swap-oob="innerHTML"' in html
    assert 'data-card="AC" aria-label="ace of clubs" data-free data-hint' in html
    game = player.game
    entry = game.actions.last()
    assert (entry.kind, entry.detail["move"], entry.detail["verdict"]) == ("hint", 18, None)
    assert game.hint_count == 1 and game.version == 0


def test_a_hint_to_draw_marks_the_stock(player):
    player.start(DEAD_END_DECK)

    html = player.post("hint").content.decode()

    assert 'data-stock="23" aria-label="stock, 23 cards" data-hint' in html


def test_a_plain_hint_shows_on_the_page_until_the_next_move(player):
    player.start(CHAIN_DECK)
    player.post("hint", htmx=False)

    assert "data-hint" in player.client.get("/").content.decode()

    player.take(18)
    assert "data-hint" not in player.client.get("/").content.decode()


def test_the_unsolvable_verdict_sits_in_the_hint_bar_with_four_exits(player):
    player.start(KNOWN_LOSS_DECK)
    for _ in range(23):
        player.post("draw")
    for pos in KNOWN_LOSS_ORDER:
        player.take(pos)

    html = player.post("hint").content.decode()

    bar = html[html.index('data-verdict="unsolvable"') :]
    for action in ("undo", "hint", "replay", "new"):
        assert f'data-action="{action}"' in bar
    assert "this deal cannot be finished from here" in html
    assert re.search(r'<button[^>]* data-pos="0"[^>]* data-hint', html)  # the king on the summit
    assert player.game.status == Game.Status.PLAYING


def test_no_verdict_while_a_card_is_unseen(player):
    player.start(KNOWN_LOSS_DECK)
    for _ in range(23):
        player.post("draw")
    for pos in KNOWN_LOSS_ORDER[:-1]:
        player.take(pos)

    html = player.post("hint").content.decode()

    assert "data-verdict" not in html and "data-hint" in html


def test_a_hint_for_a_table_that_has_moved_on_is_dropped(player):
    player.start(CHAIN_DECK)
    stale = player.game
    player.take(18)

    html = player.post("hint", game=stale).content.decode()

    assert play.STALE in html and "data-hint" not in html
    assert player.game.hint_count == 0


def test_a_hint_asked_again_for_the_same_table_answers_without_searching_again(player, monkeypatch):
    player.start(CHAIN_DECK)
    searches = []
    searching = play.search

    def counted_search(view, **options):
        searches.append(view)
        return searching(view, **options)

    monkeypatch.setattr(play, "search", counted_search)
    asked = [player.post("hint"), player.post("hint")]
    assert player.take(18).status_code == 200
    asked.append(player.post("hint"))

    assert len(searches) == 2
    assert all("data-hint" in response.content.decode() for response in asked)
    game = player.game
    assert game.hint_count == 3
    entries = [entry.detail for entry in game.actions.filter(kind="hint")]
    assert [entry["version"] for entry in entries] == [0, 0, 1]
    assert entries[0] == entries[1]


def test_a_hint_whose_table_changes_during_its_search_is_dropped(player, monkeypatch):
    player.start(CHAIN_DECK)
    searching = play.search

    def search_while_a_tap_lands(view, **options):
        # The real search, with another request's tap landing before it answers, as a second
        # tab or device would.
        found = searching(view, **options)
        assert player.take(18).status_code == 200
        return found

    monkeypatch.setattr(play, "search", search_while_a_tap_lands)
    html = player.post("hint").content.decode()

    assert play.STALE in html and "data-hint" not in html
    game = player.game
    assert game.hint_count == 0 and game.version == 1
    assert list(game.actions.values_list("kind", flat=True))[-1] == "take"


def test_looking_at_a_table_whose_clock_runs_writes_nothing(player):
    with CaptureQueriesContext(connection) as queries:
        assert player.client.get("/").status_code == 200

    changes = [
        q["sql"]
        for q in queries
        if q["sql"].split()[0] in ("INSERT", "UPDATE", "DELETE") or "FOR UPDATE" in q["sql"]
    ]
    assert changes == []  # no write, and no row lock for others to wait on


def test_pause_and_resume_stop_and_start_the_clock(player):
    game = player.game
    assert game.running_since is not None

    assert player.post("pause").status_code == 204
    game.refresh_from_db()
    assert game.running_since is None
    banked = game.active_ms

    assert player.post("resume").status_code == 204
    game.refresh_from_db()
    assert game.running_since is not None and game.active_ms == banked
    assert [k for k in game.actions.values_list("kind", flat=True)][-2:] == ["pause", "resume"]


def test_a_move_while_paused_resumes_the_clock(player):
    player.start(CHAIN_DECK)
    player.post("pause")

    player.take(18)

    assert player.game.running_since is not None
    assert list(player.game.actions.values_list("kind", flat=True))[-2:] == ["resume", "take"]


def test_the_first_run_tip_shows_once_and_goes_on_any_action(player):
    assert "Tip: tap a card" in player.page.content.decode()

    again = player.client.get("/")
    assert "Tip: tap a card" not in again.content.decode()
    assert "sessionid" not in again.cookies  # nothing new to remember: the session is not rewritten
    html = player.post("draw").content.decode()
    assert '<p id="tip" class="tip" hidden hx-swap-oob="true"></p>' in html


def test_every_kind_of_action_lands_in_the_log():
    logged = set(Action.Kind.values)

    assert {"take", "draw", "undo", "hint", "new", "replay", "pause", "resume"} <= logged
    assert {"win", "dead_end"} <= logged
