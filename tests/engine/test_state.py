import copy

import pytest

from game.engine.cards import card_from_code, rank
from game.engine.deck import deck_for_number
from game.engine.rules import Rules
from game.engine.state import (
    DRAW,
    NO_WILD_CARD,
    NO_WRAP,
    NOT_ONE_RANK,
    STILL_COVERED,
    STILL_FACE_DOWN,
    STOCK_EMPTY,
    UNDO,
    WILD,
    WILD_ALREADY_PLAYED,
    IllegalAction,
    Table,
)

from .support import CHAIN_DECK, CHAIN_ORDER, STUCK_DECK, deck_with, table_of


def test_the_deal_shows_eleven_cards():
    game = Table(deck_for_number(7))
    face_up = [pos for pos in range(28) if game.is_face_up(pos)]
    assert face_up == list(range(18, 28))
    assert game.waste_top == game.deck[28]
    assert game.stock_count == 23 and game.cleared == 0 and game.run == 0
    assert game.seen == set(range(18, 29))
    assert not game.won and not game.dead_end


@pytest.mark.parametrize(
    ("waste", "card", "fits_with_wrap"),
    [("KS", "AH", True), ("AS", "KH", True), ("AS", "2H", True), ("7S", "6H", True),
     ("7S", "8H", True), ("JS", "QH", True), ("AS", "QH", False), ("KS", "2H", False),
     ("7S", "7H", False)],
)  # fmt: skip
def test_one_rank_either_way_with_the_k_a_wrap(waste, card, fits_with_wrap):
    deck = deck_with({28: waste, 18: card})
    assert (Table(deck).refusal(18) is None) == fits_with_wrap
    wraps = {rank(card_from_code(waste)), rank(card_from_code(card))} == {1, 13}
    no_wrap = Table(deck, Rules(wrap=False))
    assert (no_wrap.refusal(18) is None) == (fits_with_wrap and not wraps)
    if fits_with_wrap and wraps:
        assert no_wrap.refusal(18) == NO_WRAP


def refused_unchanged(game, action, reason):
    before = copy.deepcopy(game)
    assert game.apply(action) == reason
    assert game == before


def test_each_refusal_has_its_reason_and_changes_nothing():
    game = Table(deck_with({28: "7S", 18: "8H", 19: "KH", 20: "6C"}))
    refused_unchanged(game, 19, NOT_ONE_RANK)
    refused_unchanged(game, 9, STILL_FACE_DOWN)
    refused_unchanged(game, 0, STILL_FACE_DOWN)
    assert game.take(18) is None
    # One of its two covers is gone: it is still held down.
    refused_unchanged(game, 9, STILL_COVERED)
    for _ in range(23):
        assert game.draw() is None
    refused_unchanged(game, DRAW, STOCK_EMPTY)


def test_open_peaks_show_every_card_but_covered_ones_stay_put():
    game = Table(deck_for_number(3), Rules(open_peaks=True))
    assert all(game.is_face_up(pos) for pos in range(28))
    assert game.seen == set(range(29))
    assert game.refusal(0) == STILL_COVERED
    assert game.refusal(9) == STILL_COVERED
    assert game.legal_takes() == Table(deck_for_number(3)).legal_takes()


def test_without_a_first_waste_card_any_uncovered_card_opens_the_waste():
    game = Table(deck_for_number(3), Rules(first_waste=False))
    assert game.waste_top is None and game.stock_count == 24
    assert game.seen == set(range(18, 28))
    assert game.legal_takes() == list(range(18, 28))


def test_a_headstart_stock_turns_deck_position_28_first():
    game = Table(deck_for_number(3), Rules(first_waste=False))
    assert game.draw() is None
    assert game.waste_top == game.deck[28] and game.stock_count == 23
    assert 28 in game.seen
    assert game.undo() is None
    assert game.waste_top is None and game.stock_count == 24 and game.known_card(28) is not None


def test_a_headstart_waste_can_start_with_any_face_up_card():
    for pos in range(18, 28):
        game = Table(CHAIN_DECK, Rules(first_waste=False))
        assert game.take(pos) is None
        assert game.waste_top == CHAIN_DECK[pos] and game.run == 1


WILD_RULES = Rules(wild=True)


def test_the_wild_card_lets_any_uncovered_card_follow_and_keeps_the_run():
    # The chain deck's base row climbs A, 2, 3, ...: after the ace and the 2, the 4 does not fit.
    game = Table(CHAIN_DECK, WILD_RULES)
    assert game.wild_held and WILD in game.legal_moves()
    assert game.take(18) is None and game.take(19) is None
    refused_unchanged(game, 21, NOT_ONE_RANK)
    assert game.apply(WILD) is None
    assert not game.wild_held and game.wild_on_waste and game.waste_top is None
    assert (game.run, game.longest_run) == (2, 2)
    assert WILD not in game.legal_moves()
    assert set(game.legal_takes()) == {9, *range(20, 28)}
    assert game.take(21) is None
    assert game.waste_top == CHAIN_DECK[21] and not game.wild_on_waste
    assert game.run == 3 and game.moves == [18, 19, WILD, 21]


def test_the_wild_card_is_laid_once_and_only_where_the_rules_have_one():
    game = Table(CHAIN_DECK, WILD_RULES)
    assert game.apply(WILD) is None
    refused_unchanged(game, WILD, WILD_ALREADY_PLAYED)
    refused_unchanged(Table(CHAIN_DECK), WILD, NO_WILD_CARD)
    assert WILD not in Table(CHAIN_DECK).legal_moves()
    assert NO_WILD_CARD != WILD_ALREADY_PLAYED


def test_undoing_the_wild_card_gives_it_back():
    game = Table(CHAIN_DECK, WILD_RULES)
    game.take(18)
    before = copy.deepcopy(game)
    game.apply(WILD)
    game.take(27)
    assert game.undo() is None
    assert game.wild_on_waste and game.refusal(27) is None
    assert game.undo() is None
    assert game == before
    assert game.wild_held and game.waste_top == CHAIN_DECK[18]


def test_undo_after_take_re_covers_the_card_but_keeps_the_knowledge():
    game = Table(CHAIN_DECK)
    assert game.take(18) is None
    before = copy.deepcopy(game)
    assert game.take(19) is None
    assert game.is_face_up(9) and 9 in game.seen
    assert game.undo() is None
    assert table_of(game) == table_of(before)
    assert not game.is_face_up(9) and game.refusal(9) == STILL_COVERED
    assert game.known_card(9) == CHAIN_DECK[9]


def test_undo_after_draw_restores_the_stock_and_the_run():
    game = Table(CHAIN_DECK)
    game.take(18)
    game.take(19)
    before = copy.deepcopy(game)
    assert game.draw() is None
    assert game.run == 0 and game.longest_run == 2 and game.stock_count == 22
    assert game.undo() is None
    assert table_of(game) == table_of(before)
    assert game.run == 2 and game.known_card(29) == CHAIN_DECK[29]


def test_runs_count_takes_since_the_last_draw():
    game = Table(CHAIN_DECK)
    for pos in CHAIN_ORDER[:5]:
        game.take(pos)
    game.draw()
    assert (game.run, game.longest_run) == (0, 5)
    game.undo()
    game.take(CHAIN_ORDER[5])
    assert (game.run, game.longest_run) == (6, 6)


def test_clearing_all_28_wins_with_cards_left_in_the_stock():
    game = Table(CHAIN_DECK)
    for pos in CHAIN_ORDER:
        assert game.take(pos) is None
    assert game.won and game.cleared == 28 and game.stock_count == 23
    assert game.longest_run == 28 and not game.dead_end


def test_dead_end_only_once_the_stock_is_empty():
    game = Table(STUCK_DECK)
    for _ in range(22):
        assert game.draw() is None
        assert not game.dead_end
    game.draw()
    assert game.stock_count == 0 and game.legal_takes() == []
    assert game.dead_end and not game.won and game.legal_moves() == []
    game.undo()
    assert not game.dead_end


def test_no_dead_end_while_the_wild_card_is_held():
    game = Table(STUCK_DECK, WILD_RULES)
    for _ in range(23):
        game.draw()
    assert game.legal_takes() == [] and game.legal_moves() == [WILD]
    assert not game.dead_end and not game.over
    game.apply(WILD)
    assert game.legal_takes() == list(range(18, 28)) and not game.dead_end
    game.take(27)  # the 2: no ace or 3 is uncovered
    assert game.dead_end


def test_a_log_with_undos_rebuilds_the_live_game():
    live = Table(deck_for_number(11))
    log = []
    for step in range(60):
        legal = live.legal_takes()
        if step % 7 == 6:
            action = UNDO
        elif legal and step % 3:
            action = legal[step % len(legal)]
        else:
            action = DRAW
        if live.apply(action) is None:
            log.append(action)
    assert Table.replay(deck_for_number(11), log) == live


def test_a_log_holding_the_wild_card_rebuilds_the_live_game():
    live = Table(CHAIN_DECK, WILD_RULES)
    log = [18, 19, WILD, 22, UNDO, 21, DRAW, UNDO, UNDO, UNDO, WILD, 27]
    for action in log:
        assert live.apply(action) is None
    assert Table.replay(CHAIN_DECK, log, WILD_RULES) == live
    assert live.moves == [18, 19, WILD, 27]


def test_a_log_with_an_illegal_action_is_refused():
    with pytest.raises(IllegalAction, match="that card is still face down"):
        Table.replay(deck_for_number(1), [DRAW, 0])
    with pytest.raises(IllegalAction, match=NO_WILD_CARD):
        Table.replay(deck_for_number(1), [WILD])
