"""New deal, replay, the deal form, the Hint, the clock and the first-run tip."""

import threading
from datetime import timedelta

import pytest
from django.apps import apps
from django.core.cache import cache
from django.db import connection
from django.db.models import F
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from game import play, views
from game.engine.deck import deck_for_number, format_deck
from game.models import Action, Game
from tests.engine.support import CHAIN_DECK, CHAIN_ORDER
from tests.site.conftest import Player
from tests.site.decks import DEAD_END_DECK, KNOWN_LOSS_DECK, KNOWN_LOSS_ORDER
from tests.site.markup import actions, card, element, elements, message, text


def status(html) -> str:
    """What the status bar says."""
    return element(html, data_cleared=True).text


def hinted(html) -> list:
    return elements(html, data_hint=True)


def hint_bar(html) -> str:
    """What the hint bar says."""
    return element(html, id="hint-slot").text


def test_new_deal_leaves_the_old_game_and_deals_a_numbered_one(player):
    old = player.game

    html = player.post("new").content

    old.refresh_from_db()
    new = player.game
    assert old.status == Game.Status.SKIPPED and new.pk != old.pk and new.deal.number
    assert f"deal {new.deal.number}" in status(html) and "Cleared 0/28" in status(html)
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


@pytest.mark.parametrize(
    "typed",
    [" 42 ", "deal 42", "Deal  42", "\uff14\uff12", "\u0664\u0662", "deal\u300042"],
    ids=["spaced", "named", "named-spaced", "full-width", "arabic-indic", "ideographic-space"],
)
def test_the_deal_form_takes_a_deal_number_as_typed_or_as_the_table_names_it(player, typed):
    html = player.post("deal", {"deal": typed}).content

    assert player.game.deal.number == 42 and "deal 42" in status(html)


def test_a_number_names_a_deal_first_started_by_its_code(player):
    player.start(deck_for_number(42))
    by_code = player.game.deal
    assert by_code.number is None

    html = player.post("deal", {"deal": "42"}).content

    assert player.game.deal.pk == by_code.pk and player.game.deal.number == 42
    assert "deal 42" in status(html)


def test_the_deal_form_with_nothing_typed_deals_a_random_deal(player):
    left = player.game

    response = player.post("deal", {"deal": "  "})

    assert response.status_code == 200
    assert player.game != left and player.game.deal.number


@pytest.mark.parametrize("htmx", [True, False])
@pytest.mark.parametrize(
    ("text", "problem"),
    [
        ("0", "a deal number is a whole number from 1"),
        ("-5", "a deal number is a whole number from 1"),
        ("+5", "a deal number is a whole number from 1"),
        ("-\u0665", "a deal number is a whole number from 1"),
        ("1.5", "a deal number is a whole number from 1"),
        ("9" * 5000, "a deal number is a whole number from 1"),
        ("#77", "a deal number is a whole number from 1"),
        ("77.", "a deal number is a whole number from 1"),
        ("1 000", "a deal number is a whole number from 1"),
        ("\u00bd", "wrong length"),
        ("AC2C", "wrong length"),
        ("XX" + "AC" * 51, "bad card 'XX' at position 0"),
        ("AC" * 52, "duplicate card AC at position 1"),
    ],
)
def test_a_bad_deal_is_refused_with_a_clear_message(player, text, problem, htmx):
    game = player.game

    response = player.post("deal", {"deal": text}, htmx=htmx)

    assert response.status_code == 400
    said = message(response.content)
    assert said.startswith("That deal cannot be started: ") and problem in said
    assert player.game == game and Game.objects.count() == 1
    # A table as it stands now: Back later must not show it as the table.
    assert "no-store" in response["Cache-Control"]


@pytest.mark.parametrize("htmx", [True, False])
def test_a_refused_deal_gives_the_form_back_as_the_player_filled_it_in(player, htmx):
    chosen = {"deal": "5x", "rules": "open+nowrap", "scoring": "pysol", "winnable": "on"}

    response = player.post("deal", chosen, htmx=htmx)

    assert response.status_code == 400
    form = element(response.content, data_deal_form=True)
    assert element(form, "input", name="deal")["value"] == "5x"
    for field in ("rules", "scoring"):
        shown = element(element(form, "select", name=field), "option", selected=True)
        assert shown["value"] == chosen[field]
    assert element(form, "input", name="winnable").has("checked")
    # Given back, not kept: a refused deal changes nothing, the player's choices included.
    assert not element(player.client.get("/").content, "input", name="winnable").has("checked")


def test_a_hint_marks_a_card_and_is_logged(player):
    player.start(CHAIN_DECK)

    response = player.post("hint")

    html = response.content
    assert element(html, id="hint-slot").has("hx-swap-oob")
    assert hinted(html) == [card(html, 18)]
    # Said once, by the hint's live region: the notice's, the moves' news, says nothing.
    reason = text(element(html, id="hint-slot"))
    assert reason.startswith("Take the ace of clubs") and not text(element(html, id="notice"))
    assert text(element(html, id="hint-said")) == reason
    ace = card(html, 18)
    assert (ace["data-card"], ace["aria-label"]) == ("AC", "ace of clubs, bottom row, 1 of 10")
    assert ace.has("data-free")
    game = player.game
    entry = game.actions.last()
    assert (entry.kind, entry.detail["move"], entry.detail["verdict"]) == ("hint", 18, None)
    assert game.hint_count == 1 and game.version == 0


def test_a_hint_to_draw_marks_the_stock(player):
    player.start(DEAD_END_DECK)

    html = player.post("hint").content

    stock = element(html, "button", data_stock=True)
    assert hinted(html) == [stock]
    assert (stock["data-stock"], stock["aria-label"]) == ("23", "stock, 23 cards")


@pytest.mark.parametrize("ending", ["won", "dead end"])
def test_a_hint_on_a_finished_deal_says_why_in_the_message_row_and_is_no_hint(player, ending):
    if ending == "won":
        player.start(CHAIN_DECK)
        for pos in CHAIN_ORDER:
            player.take(pos)
    else:
        player.start(DEAD_END_DECK)
        for _ in range(23):
            player.post("draw")
    finished = player.game
    assert finished.status != Game.Status.PLAYING

    html = player.post("hint").content

    said = {"won": "The table is clear: the deal is won.",
            "dead end": "No card fits and the stock is empty: there is no legal move."}  # fmt: skip
    assert message(html) == said[ending]
    assert not hinted(html) and not text(element(html, id="hint-slot"))
    game = player.game
    assert game.hint_count == 0 and game.actions.filter(kind="hint").count() == 0
    assert game.version == finished.version


def test_a_plain_hint_shows_on_the_page_until_the_next_move(player):
    player.start(CHAIN_DECK)
    player.post("hint", htmx=False)

    assert hinted(player.client.get("/").content)

    player.take(18)
    assert not hinted(player.client.get("/").content)


def test_in_scored_play_the_unsolvable_verdict_offers_no_undo(player):
    player.post("deal", {"deal": format_deck(KNOWN_LOSS_DECK), "scoring": "pysol"})
    for _ in range(23):
        player.post("draw")
    for pos in KNOWN_LOSS_ORDER:
        player.take(pos)

    verdict = element(player.post("hint").content, data_verdict="unsolvable")

    assert actions(verdict) == {"hint", "replay", "new"}


def test_the_unsolvable_verdict_sits_in_the_hint_bar_with_four_exits(player):
    player.start(KNOWN_LOSS_DECK)
    for _ in range(23):
        player.post("draw")
    for pos in KNOWN_LOSS_ORDER:
        player.take(pos)

    html = player.post("hint").content

    verdict = element(html, data_verdict="unsolvable")
    assert actions(verdict) == {"undo", "hint", "replay", "new"}
    assert "this deal cannot be finished from here" in text(verdict)  # with its reason
    assert hinted(html) == [card(html, 0)]  # the king on the summit
    assert player.game.status == Game.Status.PLAYING


def test_no_verdict_while_a_card_is_unseen(player):
    player.start(KNOWN_LOSS_DECK)
    for _ in range(23):
        player.post("draw")
    for pos in KNOWN_LOSS_ORDER[:-1]:
        player.take(pos)

    html = player.post("hint").content

    assert not elements(html, data_verdict=True) and hinted(html)


def test_a_hint_for_a_table_that_has_moved_on_is_dropped(player):
    player.start(CHAIN_DECK)
    stale = player.game
    player.take(18)

    html = player.post("hint", game=stale).content

    assert message(html) == play.STALE and not hinted(html)
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
    assert all(hinted(response.content) for response in asked)
    game = player.game
    assert game.hint_count == 3
    entries = [entry.detail for entry in game.actions.filter(kind="hint")]
    assert [entry["version"] for entry in entries] == [0, 0, 1]
    assert entries[0] == entries[1]


def searching_elsewhere(game):
    """Another request, in another process, is searching for this table's hint."""
    cache.add(f"searching:{game.pk}:{game.version}", True, timeout=30)


def test_a_hint_asked_while_another_request_searches_its_table_takes_that_answer(
    player, monkeypatch
):
    player.start(CHAIN_DECK)
    game = player.game
    searching_elsewhere(game)
    monkeypatch.setattr(play, "search", lambda view, **options: pytest.fail("searched again"))
    theirs = play.Hint(19, None, "Take the 8: it opens the way.")
    answering = threading.Timer(0.2, cache.set, [f"hint:{game.pk}:{game.version}", theirs])
    answering.start()

    html = player.post("hint").content

    answering.join()
    assert "Take the 8: it opens the way." in hint_bar(html)
    assert hinted(html) == [card(html, 19)]


def test_a_hint_whose_other_search_never_answers_is_the_quick_suggestion(
    player, monkeypatch, settings
):
    settings.HINT_BUDGET_MS = 50
    monkeypatch.setattr(play, "GRACE_S", 0.1)
    player.start(CHAIN_DECK)
    searching_elsewhere(player.game)
    monkeypatch.setattr(play, "search", lambda view, **options: pytest.fail("searched again"))

    html = player.post("hint").content

    assert hinted(html) and player.game.hint_count == 1


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
    html = player.post("hint").content

    assert message(html) == play.STALE and not hinted(html)
    game = player.game
    assert game.hint_count == 0 and game.version == 1
    assert list(game.actions.values_list("kind", flat=True))[-1] == "take"


def every_row():
    """Every row the site keeps, sessions included: a write shows as a change here (a game row's
    every write bumps its revision)."""
    return {
        model._meta.label: list(model._base_manager.order_by("pk").values())
        for model in apps.get_models()
    }


def test_looking_at_a_table_whose_clock_runs_writes_nothing(player):
    before = every_row()
    with CaptureQueriesContext(connection) as queries:
        assert player.client.get("/").status_code == 200

    assert every_row() == before
    # A row lock changes no row, so only the statements show one: none takes a lock that others
    # would wait on.
    assert not [query for query in queries if "FOR UPDATE" in query["sql"].upper()]


def test_pause_and_resume_stop_and_start_the_clock(player):
    game = player.game
    assert game.running_since is not None

    assert player.post("pause").status_code == 204
    game.refresh_from_db()
    assert game.running_since is None
    banked = game.active_ms

    resumed = player.post("resume")
    assert resumed.status_code == 204
    game.refresh_from_db()
    # A pause this short is counted as play (see play.PAUSE_COUNTED).
    assert game.running_since is not None and banked <= game.active_ms < banked + 1000
    # The page shows the clock as the server has it now.
    assert int(resumed["X-Clock"]) == game.active_ms
    assert [k for k in game.actions.values_list("kind", flat=True)][-2:] == ["pause", "resume"]


def test_a_move_while_paused_resumes_the_clock(player):
    player.start(CHAIN_DECK)
    player.post("pause")

    player.take(18)

    assert player.game.running_since is not None
    assert list(player.game.actions.values_list("kind", flat=True))[-2:] == ["resume", "take"]


def paused_for(player, seconds: int) -> Game:
    """The game as its page left it `seconds` ago: paused, with nothing played since."""
    assert player.post("pause").status_code == 204
    game = player.game
    back_then = timezone.now() - timedelta(seconds=seconds)
    Game.objects.filter(pk=game.pk).update(paused_at=back_then, revision=F("revision") + 1)
    return Game.objects.get(pk=game.pk)


@pytest.mark.parametrize(("paused_s", "counted_s"), [(10, 10), (600, play.PAUSE_COUNTED / 1000)])
def test_the_first_minute_of_a_pause_counts_as_play(player, paused_s, counted_s):
    paused = paused_for(player, paused_s)

    assert player.post("draw").status_code == 200

    played = player.game.elapsed_ms() - paused.active_ms
    assert counted_s * 1000 <= played < counted_s * 1000 + 2000


def test_pausing_between_moves_saves_no_time(player):
    """A client that posts a pause before each move: each move still costs the time it took."""
    for _ in range(3):
        paused_for(player, 20)
        assert player.post("draw").status_code == 200

    assert player.game.elapsed_ms() >= 3 * 20_000


def tip(html):
    return element(html, id="tip")


def test_the_first_run_tip_shows_once_and_goes_on_any_action(player):
    first = tip(player.page.content)
    assert not first.has("hidden") and first.text.startswith("Tip: tap a card")

    again = player.client.get("/")
    assert tip(again.content).has("hidden")
    assert "sessionid" not in again.cookies  # nothing new to remember: the session is not rewritten
    gone = tip(player.post("draw").content)
    assert gone.has("hx-swap-oob") and gone.has("hidden")
    assert tip(player.client.get("/daily").content).has("hidden")


def test_every_kind_of_action_lands_in_the_log():
    logged = set(Action.Kind.values)

    assert {"take", "draw", "undo", "hint", "new", "replay", "pause", "resume"} <= logged
    assert {"win", "dead_end"} <= logged


def test_hints_past_the_players_rate_are_refused_with_a_reason(player, settings, monkeypatch):
    settings.HINT_RATE = "3/m"
    quick = play.Hint(18, None, "Take the ace.")
    monkeypatch.setattr(play, "search", lambda view, **options: quick)
    player.start(CHAIN_DECK)

    answers = [player.post("hint") for _ in range(4)]

    assert [answer.status_code for answer in answers] == [200, 200, 200, 429]
    wait = int(answers[-1]["Retry-After"])
    assert 1 <= wait <= 60  # what is left of the minute
    assert message(answers[-1].content) == views.too_many_hints(wait)
    assert f"in {wait} second" in message(answers[-1].content)
    assert player.game.hint_count == 3


def test_hints_past_the_addresss_rate_are_refused_whatever_session_asks(db, settings, monkeypatch):
    # A client that drops its cookie before each Hint is a new player every time.
    settings.HINT_ADDRESS_RATE = "3/m"
    quick = play.Hint(18, None, "Take the ace.")
    monkeypatch.setattr(play, "search", lambda view, **options: quick)
    players = [Player(Client()) for _ in range(4)]

    answers = [player.post("hint") for player in players]
    elsewhere = Player(Client(REMOTE_ADDR="192.0.2.7")).post("hint")

    assert [answer.status_code for answer in answers] == [200, 200, 200, 429]
    wait = int(answers[-1]["Retry-After"])
    assert 1 <= wait <= 60
    assert message(answers[-1].content) == views.too_many_hints(wait)
    assert elsewhere.status_code == 200  # another address counts on its own


def test_one_players_hints_past_their_rate_leave_the_others_at_their_address_theirs(
    db, settings, monkeypatch
):
    settings.HINT_RATE, settings.HINT_ADDRESS_RATE = "2/m", "4/m"
    quick = play.Hint(18, None, "Take the ace.")
    monkeypatch.setattr(play, "search", lambda view, **options: quick)
    eager, other = Player(Client()), Player(Client())

    burst = [eager.post("hint").status_code for _ in range(6)]

    assert burst == [200, 200, 429, 429, 429, 429]
    assert [other.post("hint").status_code for _ in range(2)] == [200, 200]


# A head start's position where taking the 5 of hearts and drawing are close: which the search
# prefers turns on the deals it imagines for the unseen cards.
CLOSE_CALL_DECK = (
    "7C8S7DJH3D5SQSKC3C8HKS6C6D2SAS4SJCAH7HTC5HJDTSQCTD4H4CKH4D3H2DTH9S6S5D8C8D9H9CKD7SQH3SAD5C6H"
    "QD2HJS9D2CAC"
)
CLOSE_CALL_MOVES = [27, 23, 21, 19, "draw", "draw", "undo"]


def test_the_same_position_gets_the_same_hint_in_any_game_at_any_point(player, settings):
    """The player's knowledge decides the hint, not which game or which move of it they are at:
    the same table and the same cards seen, the same advice."""
    settings.HINT_BUDGET_MS = 30_000  # the search's work bound decides, not the machine's speed
    answers = set()
    for _ in range(2):  # two games of the deal
        player.post("deal", {"deal": CLOSE_CALL_DECK, "rules": "headstart"})
        for move in CLOSE_CALL_MOVES:
            made = player.post(move) if isinstance(move, str) else player.take(move)
            assert made.status_code == 200
        for _ in range(4):  # and the same table at four of its versions
            html = player.post("hint").content
            answers.add((hint_bar(html), tuple(mark.attrs.get("id") for mark in hinted(html))))
            player.post("draw")
            player.post("undo")

    assert len(answers) == 1, answers
