"""Scored play on the site (SPEC.md, "Scoring"): the hand's score follows the engine move by move,
Undo is off, and the bank adds up the player's hands in each system."""

import pytest

from game import play
from game.engine.deck import format_deck
from game.engine.scoring import hand_score
from game.models import Game
from game.owners import Owner
from tests.engine.support import CHAIN_DECK, CHAIN_ORDER
from tests.site.markup import element, elements, text


def start_scored(player, system, deck=CHAIN_DECK):
    response = player.post("deal", {"deal": format_deck(deck), "scoring": system})
    assert response.status_code == 200
    return player.game


@pytest.mark.parametrize("system", ["pysol", "classic"])
def test_the_score_follows_the_engine_after_every_move(player, system):
    game = start_scored(player, system)
    assert game.scoring == system and game.score == hand_score(CHAIN_DECK, [], system)

    for count, pos in enumerate(CHAIN_ORDER[:12], start=1):
        assert player.take(pos).status_code == 200
        assert player.game.score == hand_score(CHAIN_DECK, CHAIN_ORDER[:count], system)


def test_undo_is_off_in_scored_play_and_says_why(player):
    unscored_undo = element(player.page.content, "button", data_action="undo")
    start_scored(player, "pysol")
    # Its button says so before it is tried, to a pointer resting on it.
    undo = element(player.client.get("/").content, "button", data_action="undo")
    assert undo["title"].strip() and not unscored_undo.has("title")
    player.take(CHAIN_ORDER[0])

    response = player.post("undo")

    assert element(response.content, data_message=True).text.strip() == play.NO_UNDO_WHEN_SCORED
    assert player.game.moves == [CHAIN_ORDER[0]]


def test_new_deal_and_replay_keep_the_scoring_and_a_left_hand_keeps_its_score(player):
    first = start_scored(player, "classic")
    player.take(CHAIN_ORDER[0])
    player.take(CHAIN_ORDER[1])

    player.post("new")
    left = Game.objects.get(pk=first.pk)
    assert left.status == Game.Status.LEFT and left.score == 1 + 2
    assert player.game.scoring == "classic"
    player.post("replay")
    assert player.game.scoring == "classic"


def test_leaving_a_scored_hand_in_play_says_what_it_leaves_in_the_bank(player):
    start_scored(player, "classic")
    player.take(CHAIN_ORDER[0])

    left = player.post("new").content
    untouched = player.post("new").content

    assert element(left, data_left_score=True)["data-left-score"] == "1"
    assert not elements(element(left, id="notice"), data_message=True)
    untouched_score = hand_score(player.game.deal.cards, [], "classic")
    assert element(untouched, data_left_score=True)["data-left-score"] == str(untouched_score)
    # Unscored, or scored and already over, a hand left says nothing of a bank.
    player.post("deal", {"deal": "", "scoring": "none"})
    assert not elements(player.post("new").content, data_left_score=True)
    start_scored(player, "classic")
    for pos in CHAIN_ORDER:
        player.take(pos)
    assert player.game.status == Game.Status.WON
    assert not elements(player.post("new").content, data_left_score=True)


def owner_of(player) -> Owner:
    return Owner(session_key=player.client.session.session_key)


def test_replaying_a_scored_hand_in_play_ends_it_rather_than_setting_it_aside(player):
    """Set aside, it could be taken up again knowing every card the replay showed."""
    hand = start_scored(player, "classic")
    player.take(CHAIN_ORDER[0])  # +1

    outcome = play.replay_deal(owner_of(player), hand.pk)  # My games' Replay

    ended = Game.objects.get(pk=hand.pk)
    assert ended.status == Game.Status.LEFT and ended.score == 1 and ended.finished_at
    assert outcome.left_score == 1
    with pytest.raises(play.NotInPlay):
        play.continue_game(owner_of(player), hand.pk, unfinished=True)


def set_aside_for_another(player) -> None:
    """Put the table aside unfinished, as My games' Replay of another deal does."""
    play.replay_deal(owner_of(player), Game.objects.filter(deal__number=7).first().pk)


def test_a_scored_hand_set_aside_ends_when_its_deal_is_dealt_again(player):
    player.post("deal", {"deal": "7"})
    hand = start_scored(player, "pysol")
    player.take(CHAIN_ORDER[0])
    set_aside_for_another(player)
    assert Game.objects.get(pk=hand.pk).status == Game.Status.PLAYING

    player.post("deal", {"deal": format_deck(CHAIN_DECK), "scoring": "none"})
    for _ in range(23):
        player.post("draw")  # the stock seen whole, unscored

    ended = Game.objects.get(pk=hand.pk)
    assert ended.status == Game.Status.LEFT and ended.moves == [CHAIN_ORDER[0]]
    assert ended.score == hand_score(CHAIN_DECK, [CHAIN_ORDER[0]], "pysol")


def test_taking_up_another_hand_of_its_deal_ends_a_scored_hand_set_aside(player):
    player.post("deal", {"deal": "7"})
    unscored = player.start(CHAIN_DECK) and player.game
    player.take(CHAIN_ORDER[0])
    set_aside_for_another(player)
    scored = start_scored(player, "classic")
    player.post("draw")  # −5
    set_aside_for_another(player)

    play.continue_game(owner_of(player), unscored.pk, unfinished=True)

    ended = Game.objects.get(pk=scored.pk)
    assert ended.status == Game.Status.LEFT and ended.score == -5
    assert Game.objects.get(pk=unscored.pk).status == Game.Status.PLAYING


def test_the_bank_is_the_sum_of_the_players_hands_in_that_system(player):
    start_scored(player, "classic")
    player.take(CHAIN_ORDER[0])
    player.post("new")
    player.post("draw")
    start_scored(player, "pysol")

    classic_hands = Game.objects.filter(scoring="classic")
    assert play.bank_of(classic_hands.latest("pk")) == sum(game.score for game in classic_hands)
    assert play.bank_of(player.game) == -52


@pytest.mark.parametrize("scoring", ["vegas", "", "PYSOL"])
def test_an_unknown_scoring_is_refused_and_changes_nothing(player, scoring):
    before = player.game

    response = player.post("deal", {"deal": "7", "scoring": scoring})

    assert response.status_code == 400
    assert "unknown scoring" in element(response.content, data_message=True).text
    assert player.game == before


def test_the_status_bar_shows_the_hands_score_and_the_bank_and_each_take_says_what_it_scored(
    player,
):
    start_scored(player, "pysol")

    html = player.take(CHAIN_ORDER[0]).content

    score = element(html, data_score=True)
    bank = element(html, data_bank=True)
    assert int(score["data-score"]) == player.game.score == -51
    assert int(bank["data-bank"]) == play.bank_of(player.game)
    assert text(score) == "Score \N{MINUS SIGN}51"  # a minus sign, as in "−5 for the card turned"
    assert "+1, run of 1" in text(element(html, id="notice"))
    # Shown as well as said: the page's own words, hidden from screen readers, which hear them
    # with the move's news.
    assert text(element(html, data_points=True)) == "+1, run of 1"


def test_unscored_play_shows_no_score(player):
    html = player.client.get("/").content

    assert not elements(html, data_score=True) and not elements(html, data_bank=True)


def test_a_deal_seen_whole_across_two_games_is_dealt_again_as_practice(player):
    """Open peaks show the 28; a standard game's stock drawn through shows the other 24."""
    player.post("deal", {"deal": "4242", "rules": "open"})
    player.post("deal", {"deal": "4242", "rules": "standard"})
    for _ in range(23):
        player.post("draw")
    assert len(player.game.seen) < 52, "neither game alone showed every card"

    player.post("deal", {"deal": "4242", "scoring": "pysol"})

    assert (player.game.practice, player.game.scoring) == (True, "none")


@pytest.mark.parametrize(("draws", "seen_whole"), [(23, True), (22, False)])
def test_a_deal_whose_every_card_was_seen_in_play_is_dealt_again_as_practice(
    player, draws, seen_whole
):
    """Open peaks show the 28 at the deal; a stock drawn through and undone shows the rest."""
    player.post("deal", {"deal": "4242", "rules": "open"})
    for _ in range(draws):
        player.post("draw")
    for _ in range(draws):
        player.post("undo")

    page = player.post("deal", {"deal": "4242", "scoring": "pysol"}).content

    game = player.game
    assert (game.practice, game.scoring) == (seen_whole, "none" if seen_whole else "pysol")
    said = text(element(page, data_note=True)) if seen_whole else ""
    assert ("practice, unscored" in said) == seen_whole
