"""The Hint: it reads only what the player has seen, and a verdict needs every card known."""

import random
import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from game.engine.cards import card_label
from game.engine.deck import deck_for_number, parse_deck
from game.engine.hint import (
    MIN_ROUNDS,
    ROLLOUT_POLICY,
    UNSOLVABLE,
    _Race,
    _why,
    hint_for_table,
    recommend,
)
from game.engine.knowledge import view_of
from game.engine.policy import greedy_policy, policy_move
from game.engine.rules import ALL_RULES, STANDARD, Rules
from game.engine.solver import solve, solve_table
from game.engine.state import DRAW, UNDO, WILD, Table

from .support import CHAIN_DECK, STUCK_DECK, deck_with, each_rule_set

OPEN_PEAKS = Rules(open_peaks=True)
OPEN_WILD = Rules(open_peaks=True, wild=True)
FEW_NODES = 3_000


def random_actions(game: Table, rng: random.Random, steps: int) -> list:
    """Play random legal takes, draws, wild cards and undos on the game; returns the log."""
    log = []
    for _ in range(steps):
        if game.over:
            break
        choice = rng.random()
        takes = game.legal_takes()
        if choice < 0.15 and game.moves:
            action = UNDO
        elif choice < 0.2 and game.wild_held:
            action = WILD
        elif (choice < 0.45 or not takes) and game.stock_count:
            action = DRAW
        else:
            action = rng.choice(takes or [WILD])
        assert game.apply(action) is None
        log.append(action)
    return log


def shuffle_unseen(game: Table, rng: random.Random) -> tuple[int, ...]:
    """The same deal with the never-shown cards dealt differently among their places."""
    hidden = [pos for pos in range(52) if pos not in game.seen]
    cards = [game.deck[pos] for pos in hidden]
    rng.shuffle(cards)
    deck = list(game.deck)
    for pos, card in zip(hidden, cards, strict=True):
        deck[pos] = card
    return tuple(deck)


@pytest.mark.parametrize("rules", each_rule_set())
@settings(max_examples=10, deadline=None)
@given(number=st.integers(1, 10_000), play_seed=st.integers(0, 2**32), steps=st.integers(0, 60))
def test_cards_never_seen_do_not_change_the_hint(rules, number, play_seed, steps):
    rng = random.Random(play_seed)
    game = Table(deck_for_number(number), rules)
    log = random_actions(game, rng, steps)
    twin = Table.replay(shuffle_unseen(game, rng), log, rules)

    assert view_of(twin) == view_of(game)
    hint = hint_for_table(game, seed=7, max_nodes=FEW_NODES, budget_ms=None)
    assert hint_for_table(twin, seed=7, max_nodes=FEW_NODES, budget_ms=None) == hint
    if not view_of(game).fully_known:
        assert hint.verdict is None


def test_same_position_seed_and_nodes_give_the_same_hint():
    game = Table(deck_for_number(3))
    first = hint_for_table(game, seed=5, max_nodes=20_000, budget_ms=None)
    assert hint_for_table(game, seed=5, max_nodes=20_000, budget_ms=None) == first


def test_knowledge_survives_undo():
    game = Table(deck_for_number(1))
    drawn_card = game.deck[game.stock_next]
    game.draw()
    game.undo()
    view = view_of(game)
    assert view.stock[0] == drawn_card
    assert drawn_card not in view.unseen
    assert all(card is None for card in view.stock[1:])

    # Play until a peak card has been turned up, then undo everything: it is face down again,
    # and still known.
    game = Table(deck_for_number(1))
    while not any(pos < 18 for pos in game.seen):
        game.apply(policy_move(view_of(game), greedy_policy))
    turned_up = min(game.seen)
    while game.moves:
        game.undo()
    view = view_of(game)
    assert not view.is_face_up(turned_up)
    assert view.tableau[turned_up] == game.deck[turned_up]
    assert game.deck[turned_up] not in view.unseen


def fully_known_at_the_deal(number: int, rules: Rules = OPEN_PEAKS) -> Table:
    """Open peaks, and the whole stock drawn and put back: every card is known."""
    game = Table(deck_for_number(number), rules)
    for _ in range(game.stock_count):
        game.draw()
    while game.moves:
        game.undo()
    assert view_of(game).fully_known
    return game


def first_deal_with(result: str, rules: Rules = OPEN_PEAKS) -> int:
    for number in range(1, 400):
        if solve(deck_for_number(number), rules).result == result:
            return number
    pytest.fail(f"no deal with result {result} among the first 400")


@pytest.mark.parametrize("rules", [OPEN_PEAKS, OPEN_WILD], ids=lambda rules: rules.name)
def test_a_proven_win_gives_a_move_on_a_winning_line(rules):
    game = fully_known_at_the_deal(first_deal_with("win", rules), rules)
    hint = hint_for_table(game, seed=0, max_nodes=2_000_000, budget_ms=None)

    assert hint.verdict is None
    assert game.apply(hint.move) is None
    assert solve_table(game).result == "win"


@pytest.mark.parametrize(
    "rules", [OPEN_PEAKS, Rules.from_name("open+nowrap+wild")], ids=lambda rules: rules.name
)
def test_a_proven_loss_gives_the_verdict_and_still_a_legal_move(rules):
    game = fully_known_at_the_deal(first_deal_with("loss", rules), rules)
    hint = hint_for_table(game, seed=0, max_nodes=2_000_000, budget_ms=None)

    assert hint.verdict == UNSOLVABLE
    assert "cannot be finished" in hint.reason
    assert hint.move in view_of(game).legal_moves()


def test_no_verdict_while_a_known_card_lies_face_down_again():
    # Every card seen (a winning line played up to its last take, the stock drawn through), then
    # undone to the deal and the stock drawn through at once: lost, every card known, and the 18
    # cards of the upper rows face down again. The spec's verdict needs none face down.
    for number in range(1, 400):
        game = Table(deck_for_number(number))
        line = solve_table(game).moves
        for move in line[:-1]:
            game.apply(move)
        while game.stock_count:
            game.draw()
        while game.moves:
            game.undo()
        while game.stock_count:
            game.draw()
        if line and solve_table(game).result == "loss":
            break
    else:
        pytest.fail("no such deal among the first 400")
    view = view_of(game)
    assert view.fully_known and not view.nothing_hidden

    hint = hint_for_table(game, seed=0, max_nodes=2_000_000, budget_ms=None)

    assert hint.verdict is None and "cannot be finished" not in hint.reason
    assert hint.move in view.legal_moves()


def test_the_view_knows_whether_the_wild_card_is_held():
    game = Table(CHAIN_DECK, OPEN_WILD)
    assert view_of(game).wild_held and WILD in view_of(game).legal_moves()
    game.apply(WILD)
    assert not view_of(game).wild_held and WILD not in view_of(game).legal_moves()
    game.undo()
    assert view_of(game).wild_held
    assert not view_of(Table(CHAIN_DECK, OPEN_PEAKS)).wild_held


def test_the_wild_card_when_it_is_the_one_move_left():
    game = Table(STUCK_DECK, Rules(wild=True))
    for _ in range(game.stock_count):
        game.draw()
    assert view_of(game).legal_moves() == [WILD]
    hint = hint_for_table(game, max_nodes=FEW_NODES, budget_ms=None)
    assert hint.move == WILD and hint.reason.startswith("Lay the wild card")
    assert policy_move(view_of(game), ROLLOUT_POLICY) == WILD


@pytest.mark.parametrize("rules", [Rules(wild=True), Rules(wrap=False, wild=True)], ids=str)
def test_reasons_are_words_not_counts(rules):
    game = Table(deck_for_number(9), rules)
    reasons = []
    while not game.over:
        hint = hint_for_table(game, max_nodes=FEW_NODES, budget_ms=None)
        reasons.append(re.sub(CARD_NAME, "the card", hint.reason))
        if hint.move == DRAW and game.wild_held:
            assert "keep the wild card" in hint.reason
        game.apply(hint.move)
    assert not any(char.isdigit() for reason in reasons for char in reason)


CARD_NAME = "|".join(card_label(card) for card in range(52))


def test_a_take_says_what_it_turns_over_and_what_can_follow_it():
    game = Table(CHAIN_DECK)
    game.take(18)
    hint = hint_for_table(game, max_nodes=FEW_NODES, budget_ms=None)
    assert hint.move == 19
    assert "turns over a card" in hint.reason
    assert f"the {card_label(game.deck[20])} can follow it" in hint.reason

    game = Table(CHAIN_DECK, OPEN_PEAKS)
    game.take(18)
    hint = hint_for_table(game, max_nodes=FEW_NODES, budget_ms=None)
    assert f"it frees the {card_label(game.deck[9])}" in hint.reason


# Kings and queens on the base row beside the cards a test places at 18 and 19.
HIGH_BASE = {20 + i: "KQ"[i % 2] + "CDHS"[i // 2] for i in range(8)}


def test_a_card_freed_that_can_follow_is_named_once():
    game = Table(deck_with({18: "5C", 19: "6C", 9: "7D", **HIGH_BASE, 28: "4S"}), OPEN_PEAKS)
    game.take(18)
    hint = hint_for_table(game, max_nodes=FEW_NODES, budget_ms=None)
    assert hint.move == 19
    assert "it frees the 7 of diamonds, which can follow it" in hint.reason
    assert hint.reason.count("7 of diamonds") == 1


def test_two_cards_that_can_follow_are_either_not_both():
    # On the 9 both the 8 and the 10 fit; once either is taken, the other no longer does.
    view = view_of(Table(deck_with({**HIGH_BASE, 18: "9D", 19: "8C", 20: "TC", 28: "TS"})))
    assert "either of two cards can follow it" in _why(view, 18)


def test_an_open_card_freed_that_can_follow_is_told_apart_from_one_that_cannot():
    placed = {**HIGH_BASE, 28: "4S", 18: "5C", 20: "6H", 19: "7C", 9: "8D", 10: "JH"}
    game = Table(deck_with(placed), OPEN_PEAKS)
    for pos in (18, 20):
        game.take(pos)
    assert _why(view_of(game), 19).startswith(
        "it frees the 8 of diamonds, which can follow it, and the jack of hearts"
    )


def test_a_draw_while_cards_fit_says_what_is_kept():
    one_fits = view_of(Table(CHAIN_DECK))
    assert _why(one_fits, DRAW) == "the ace of clubs is worth more kept for a later run"
    two_fit = view_of(Table(deck_with({**HIGH_BASE, 18: "8C", 19: "8H", 20: "9C", 28: "7S"})))
    assert _why(two_fit, DRAW) == "the cards that fit are worth more kept for a later run"


def test_a_take_of_one_of_two_cards_of_a_rank_says_the_other_stays():
    game = Table(deck_with({18: "8C", 19: "8H", **HIGH_BASE, 28: "7S"}))
    hint = hint_for_table(game, max_nodes=FEW_NODES, budget_ms=None)
    assert hint.move in (18, 19)
    kept = game.deck[19 if hint.move == 18 else 18]
    assert f"the {card_label(kept)} stays for a later run" in hint.reason


@pytest.mark.parametrize(
    ("draws", "said"),
    [
        (6, "only one card left is a rank away, so it may not fit again"),
        (7, "no card left is a rank away, so it fits now or never"),
    ],
)
def test_a_take_says_when_few_cards_are_left_to_fit_it_later(draws, said):
    # The stock turns the jacks and then the other 9s: once drawn, they are gone.
    order = ["JC", "JD", "JH", "JS", "9C", "9D", "9H"]
    stock = {29 + i: code for i, code in enumerate(order)}
    game = Table(deck_with({18: "TC", 19: "2C", **HIGH_BASE, 28: "9S", **stock}))
    for _ in range(draws):
        game.draw()
    hint = hint_for_table(game, max_nodes=FEW_NODES, budget_ms=None)
    assert hint.move == 18
    assert said in hint.reason


def test_a_move_clearly_behind_the_leader_stops_getting_samples():
    race = _Race([18, 19, DRAW])
    for round in range(MIN_ROUNDS):
        # 19 is a round behind 18 once: too close to call. Drawing always loses.
        race.add_round({18: 28, 19: 28 if round > 0 else 27, DRAW: 20})
    assert race.running == [18, 19]


def test_a_budget_too_small_for_a_proof_gives_a_suggestion_without_verdict():
    game = fully_known_at_the_deal(first_deal_with("loss"))
    assert solve_table(game, max_nodes=1).result == "unknown"
    hint = hint_for_table(game, seed=0, max_nodes=1, budget_ms=None)

    assert hint.verdict is None
    assert hint.move in view_of(game).legal_moves()


def test_no_verdict_on_a_losing_deal_while_cards_are_unseen():
    number = first_deal_with("loss")
    hint = hint_for_table(Table(deck_for_number(number)), max_nodes=FEW_NODES, budget_ms=None)
    assert hint.verdict is None


@pytest.mark.parametrize("rules", each_rule_set())
def test_following_hints_plays_to_the_end_and_only_then_hints_nothing(rules):
    game = Table(deck_for_number(ALL_RULES.index(rules) + 1), rules)
    while not game.over:
        hint = hint_for_table(game, max_nodes=FEW_NODES, budget_ms=None)
        assert hint.move in view_of(game).legal_moves()
        assert game.apply(hint.move) is None
    assert hint_for_table(game).move is None


def test_nothing_fits_means_draw():
    game = Table(deck_for_number(1))
    while game.legal_takes():
        game.take(game.legal_takes()[0])
    assert recommend(view_of(game), max_nodes=FEW_NODES).move == DRAW


def test_a_tiny_budget_still_gives_a_legal_move_quickly():
    game = Table(deck_for_number(4))
    hint = hint_for_table(game, max_nodes=0)
    assert hint.move in view_of(game).legal_moves()
    assert hint.move == policy_move(view_of(game), ROLLOUT_POLICY)


def table_after(code: str, moves: list, rules: Rules = STANDARD) -> Table:
    game = Table(parse_deck(code), rules)
    for move in moves:
        assert game.apply(move) is None, move
    return game


def most_cleared_from(game: Table) -> int:
    """The most cards any line can clear from the position, by trying every line."""
    seen = {}

    def best(table: Table) -> int:
        key = (table.removed, table.stock_next, table.waste_top, table.wild_held)
        if key not in seen:
            moves = view_of(table).legal_moves()
            seen[key] = max(
                [table.cleared] + [best(Table.replay(table.deck, [*table.moves, m], table.rules))
                                   for m in moves]
            )  # fmt: skip
        return seen[key]

    return best(game)


def test_a_proven_loss_names_a_move_on_a_line_that_clears_the_most_cards():
    code = (
        "TC4C5SAS6CTS8C7C7SKCJS9D6S9S2DKDQC5C7H3CTD4D3H2SKS5HAC3D8S2HQS9CADKHAH5DQD6D4SJH8HQH2CTH8D"
        "JC7D4H9H6HJD3S"
    )
    moves = ["draw"] * 3 + [24] + ["draw"] * 4 + [23] + ["draw"] * 11 + [20, "draw", "draw", UNDO]
    game = table_after(code, [*moves, *["draw"] * 5], Rules.from_name("open+headstart"))
    hint = hint_for_table(game, seed=0, max_nodes=2_000_000, budget_ms=None)

    assert hint.verdict == UNSOLVABLE
    best = most_cleared_from(game)
    game.apply(hint.move)
    assert most_cleared_from(game) == best
    assert "it leads to clearing the most cards" in hint.reason


def test_a_card_face_down_again_after_an_undo_is_never_named():
    code = (
        "JS6HAS4H2H2C7DAHTC3S5HJDKC8C7S4STD9SKH5D3DQH8D8S6SQC6DADJC5CTH7H7CQDJH6C2S5SKSTS4C3C4D2D"
        "9HQSAC9C9DKD8H3H"
    )
    game = table_after(code, ["draw", 26, 19, 24, "draw", "draw", 23, UNDO])
    face_down = [pos for pos in range(28) if not game.is_removed(pos) and not game.is_face_up(pos)]
    assert 14 in face_down  # the 7 of spades, seen before the undo

    reason = hint_for_table(game, max_nodes=FEW_NODES, budget_ms=None).reason

    assert not [pos for pos in face_down if card_label(game.deck[pos]) in reason]


def test_a_card_of_the_rank_kept_is_not_said_to_stay_when_nothing_is_left_to_fit_it():
    code = (
        "ACADAHAS4C4D4H4S5C5D5H5S6C6D6H6S7C7DQCQD2C2D2H2S3C3D3H3SKCKDKHKSJCJDJHJS7H7S8C8D8H8S9C9D"
        "9H9STCTDTHTSQHQS"
    )
    game = table_after(code, ["draw"] * 7)  # every jack and king on the waste

    reason = hint_for_table(game, max_nodes=FEW_NODES, budget_ms=None).reason

    assert "stays for a later run" not in reason
    assert "no card left is a rank away, so it fits now or never" in reason


def test_the_wild_card_is_not_counted_as_a_card_a_rank_away():
    code = (
        "ACADAHAS4C4H4S5C5D5H5S6C6D6H6S7C7D7HQC4D2C2D2H2S3C3D3H3SKCKDKHKSJCJDJHJS7S8C8D8H8S9C9D"
        "9H9STCTDTHTSQDQHQS"
    )
    game = table_after(code, ["draw"] * 7, Rules(wild=True))

    reason = hint_for_table(game, max_nodes=FEW_NODES, budget_ms=None).reason

    assert "one card left is a rank away" not in reason
    assert "no card left but the wild card fits it" in reason


def test_a_take_with_the_stock_spent_does_not_say_it_keeps_the_stock():
    code = (
        "3C3D3H3S5C5D5S7C7D7H7SKCKDKHKSQCQDQH4C9C9D6C9H9STCTDTHTSACADAHAS2C2D2H2S4D4H4S6D6H6S8C8D"
        "8H8SJCJDJHJSQS5H"
    )
    game = table_after(code, ["draw"] * 23)

    reason = hint_for_table(game, max_nodes=FEW_NODES, budget_ms=None).reason

    assert "stock" not in reason


def test_under_open_peaks_a_card_freed_is_named_once_whatever_else_it_frees():
    code = (
        "ACADAHAS2C2D2H2S3C8DKD3D3H3S4D4H4S5D5C7C6CJCJDJHJSQCQDQH4C5H5S6D6H6S7D7H7S8C8H8S9C9D9H9S"
        "TCTDTHTSQSKCKHKS"
    )
    game = table_after(code, [18, 20], OPEN_PEAKS)

    reason = hint_for_table(game, max_nodes=FEW_NODES, budget_ms=None).reason

    assert all(reason.count(card_label(card)) <= 1 for card in range(52)), reason
