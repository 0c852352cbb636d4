import functools
import random

import pytest

from game.engine import solver
from game.engine.cards import rank
from game.engine.deck import deck_for_number
from game.engine.geometry import COVERED_BY, TABLEAU_SIZE
from game.engine.rules import ALL_RULES, STANDARD, Rules
from game.engine.solver import solve, solve_table
from game.engine.state import ALL_REMOVED, DRAW, WILD, Table

from .support import CHAIN_DECK, deck_with, each_rule_set

NO_WRAP = Rules(wrap=False)
WILD_RULES = Rules(wild=True)
NO_WRAP_WILD = Rules(wrap=False, wild=True)

# The solver's stages, each forced to decide on its own: the depth-first search (small positions
# never outgrow it), the beam sweep (the depth-first stage gives up at once) and the full sweep
# (the beam keeps nothing, so it never finds a win).
STAGES = {
    "depth-first": {},
    "beam": {"DEPTH_FIRST_NODES": 1},
    "full-sweep": {"DEPTH_FIRST_NODES": 1, "BEAM_WIDTH": 0},
}

# Without the K-A wrap an ace fits only a 2. The aces at 19 and 26 each hold down two of the
# 2s (9 and 4 under 19, 16 and 8 under 26), so whichever ace goes first needs a 2 that only the
# other ace can free: a loss. With the wrap a king opens the way.
WRAP_DECK = deck_with({19: "AC", 26: "AD", 9: "2C", 4: "2D", 16: "2H", 8: "2S"})

# The 7s at 19 and 26 hold down all four 6s and all four 8s (9, 10, 3, 4 and 16, 17, 7, 8): the
# first 7 taken would need a 6 or an 8 freed by the other 7, so neither ever goes and the deal is
# lost under any rules. No card is stranded on its own (each 7 has partners it does not hold
# down): only the search proves it.
LOCKED_SEVENS_DECK = deck_with(
    {
        **{19: "7C", 9: "6C", 10: "6D", 3: "6H", 4: "6S"},
        **{26: "7D", 16: "8C", 17: "8D", 7: "8H", 8: "8S"},
    }
)


@pytest.fixture(params=STAGES, ids=list(STAGES))
def stage(request, monkeypatch):
    for name, value in STAGES[request.param].items():
        monkeypatch.setattr(solver, name, value)
    return request.param


def brute_force_wins(deck, rules, removed, stock_next, waste_card, wild_held=False) -> bool:
    """Every line, with no pruning (only positions already judged are remembered): whether one of
    them clears the table. A waste_card of None is an empty waste or the wild card on it: any card
    fits."""

    @functools.cache
    def wins(removed, stock_next, waste_card, wild_held):
        if removed == ALL_REMOVED:
            return True
        for pos in range(TABLEAU_SIZE):
            there = not removed >> pos & 1
            uncovered = all(removed >> below & 1 for below in COVERED_BY[pos])
            fits = waste_card is None or rules.fits(rank(waste_card), rank(deck[pos]))
            after = removed | 1 << pos
            if there and uncovered and fits and wins(after, stock_next, deck[pos], wild_held):
                return True
        if stock_next < len(deck) and wins(removed, stock_next + 1, deck[stock_next], wild_held):
            return True
        return wild_held and wins(removed, stock_next, None, False)

    return wins(removed, stock_next, waste_card, wild_held)


def game_at(deck, rules, removed, stock_next, waste_card, wild_held=False) -> Table:
    """A Table put at an arbitrary position through its public fields, to judge moves from it.
    Under rules with a wild card, a waste_card of None once it is spent is the wild card."""
    game = Table(deck, rules)
    game.removed, game.stock_next, game.wild_held = removed, stock_next, wild_held
    wild_on_waste = rules.wild and not wild_held
    game.waste = [waste_card] if waste_card is not None or wild_on_waste else []
    return game


def wins_by_replay(game: Table, moves) -> bool:
    return all(game.apply(move) is None for move in moves) and game.won


def small_position(rng: random.Random, rules: Rules):
    """A random deck with 1-7 tableau cards left (taken in a random legal order), 0-12 stock cards
    left, and a waste card among those already played; under rules with a wild card, the wild
    card held, or spent and now and then still on the waste."""
    deck = list(range(52))
    rng.shuffle(deck)
    removed = 0
    cards_left = rng.randint(1, 7)
    while TABLEAU_SIZE - removed.bit_count() > cards_left:
        takeable = [
            pos
            for pos in range(TABLEAU_SIZE)
            if not removed >> pos & 1 and all(removed >> below & 1 for below in COVERED_BY[pos])
        ]
        removed |= 1 << rng.choice(takeable)
    stock_next = rng.randint(40, 52)
    played = [deck[pos] for pos in range(TABLEAU_SIZE) if removed >> pos & 1]
    waste_card = rng.choice(played + deck[TABLEAU_SIZE:stock_next])
    wild_held = rules.wild and rng.random() < 0.5
    if rules.wild and not wild_held and rng.random() < 0.2:
        waste_card = None
    return tuple(deck), removed, stock_next, waste_card, wild_held


# From a given position open peaks change nothing (the solver sees every card) and neither does
# headstart (it only shapes the deal): small positions need only the other two flags.
POSITION_RULES = [rules for rules in ALL_RULES if not rules.open_peaks and rules.first_waste]


@pytest.mark.parametrize("rules", each_rule_set(POSITION_RULES))
def test_agrees_with_brute_force_on_small_positions(stage, rules):
    rng = random.Random(f"small positions {rules}")
    results = []
    for _ in range(150):
        deck, *position = small_position(rng, rules)
        removed, stock_next, waste_card, wild_held = position
        solution = solve(
            deck,
            rules,
            removed=removed,
            stock_next=stock_next,
            waste_card=waste_card,
            wild_held=wild_held,
        )
        won = brute_force_wins(deck, rules, *position)
        assert solution.result == ("win" if won else "loss")
        if won:
            assert wins_by_replay(game_at(deck, rules, *position), solution.moves)
        else:
            assert solution.moves == ()
        results.append(solution.result)
    assert 0.2 < results.count("win") / len(results) < 0.8


@pytest.mark.parametrize("number", [*range(1, 9), 24, 52])
def test_stages_agree_on_whole_deals(number, monkeypatch):
    deck = deck_for_number(number)
    default = solve(deck)
    for name, value in STAGES["full-sweep"].items():
        monkeypatch.setattr(solver, name, value)
    exact = solve(deck)
    assert default.result == exact.result != "unknown"
    for solution in (default, exact):
        if solution.result == "win":
            assert Table.replay(deck, solution.moves).won


def first_lost_deal(rules: Rules) -> int:
    """The first deal number that the solver proves lost under the rules."""
    return next(n for n in range(1, 1000) if solve(deck_for_number(n), rules).result == "loss")


@pytest.mark.parametrize("rules", each_rule_set())
def test_stages_agree_on_whole_deals_under_every_rule_set(rules, monkeypatch):
    decks = [deck_for_number(number) for number in range(1, 4)]
    default = [solve(deck, rules) for deck in decks]
    for name, value in STAGES["full-sweep"].items():
        monkeypatch.setattr(solver, name, value)
    exact = [solve(deck, rules) for deck in decks]
    for deck, by_default, by_sweep in zip(decks, default, exact, strict=True):
        assert by_default.result == by_sweep.result != "unknown"
        for solution in (by_default, by_sweep):
            if solution.result == "win":
                assert Table.replay(deck, solution.moves, rules).won
                assert solution.moves.count(WILD) <= rules.wild


def test_known_lost_deals_are_lost():
    # Deals 24 and 67 are among the few of the first hundred that cannot be won.
    assert solve(deck_for_number(24)).result == "loss"
    assert solve(deck_for_number(67)).result == "loss"


def test_a_win_that_needs_the_wrap(stage):
    solution = solve(WRAP_DECK)
    assert solution.result == "win"
    game = Table(WRAP_DECK)
    wrapped = False
    for move in solution.moves:
        before = rank(game.waste_top)
        assert game.apply(move) is None
        wrapped |= move != DRAW and {before, rank(game.waste_top)} == {1, 13}
    assert game.won and wrapped
    assert solve(WRAP_DECK, NO_WRAP).result == "loss"


def test_a_proven_loss(stage):
    for rules in (STANDARD, NO_WRAP):
        solution = solve(LOCKED_SEVENS_DECK, rules)
        assert (solution.result, solution.moves) == ("loss", ())


@pytest.mark.parametrize("rules", each_rule_set([WILD_RULES, NO_WRAP_WILD]))
def test_a_win_that_needs_the_wild_card(stage, rules):
    # The locked sevens: the wild card lets one 7 go first.
    solution = solve(LOCKED_SEVENS_DECK, rules)
    assert solution.result == "win" and solution.moves.count(WILD) == 1
    assert Table.replay(LOCKED_SEVENS_DECK, solution.moves, rules).won
    spent = solve(LOCKED_SEVENS_DECK, rules, wild_held=False)
    assert (spent.result, spent.moves) == ("loss", ())


def test_a_wild_card_on_the_waste_takes_any_card(stage):
    # The wild card already laid: as on an empty waste, the base-row ace starts the one run.
    position = {"removed": 0, "stock_next": 52, "waste_card": None, "wild_held": False}
    solution = solve(CHAIN_DECK, WILD_RULES, **position)
    assert solution.result == "win"
    assert wins_by_replay(game_at(CHAIN_DECK, WILD_RULES, **position), solution.moves)


def test_no_wild_card_to_hold_without_the_rule():
    with pytest.raises(ValueError, match="no wild card"):
        solve(CHAIN_DECK, STANDARD, wild_held=True)


def test_an_empty_waste_takes_any_card(stage):
    # With the stock spent and the waste still empty, the first take has nothing to fit: the
    # chain deck's base-row ace starts the one run that clears the table.
    rules = Rules(first_waste=False)
    position = {"removed": 0, "stock_next": 52, "waste_card": None}
    solution = solve(CHAIN_DECK, rules, **position)
    assert solution.result == "win"
    assert wins_by_replay(game_at(CHAIN_DECK, rules, **position), solution.moves)


@pytest.mark.parametrize("number", range(1, 6))
def test_without_a_first_waste_card(number, stage):
    rules = Rules(first_waste=False)
    solution = solve(deck_for_number(number), rules)
    assert solution.result == "win"
    assert Table.replay(deck_for_number(number), solution.moves, rules).won


@pytest.mark.parametrize("rules", each_rule_set([STANDARD, NO_WRAP_WILD]))
def test_out_of_budget_is_unknown_never_loss(rules):
    deck = deck_for_number(first_lost_deal(rules))
    full = solve(deck, rules)
    assert full.result == "loss"
    for max_nodes in (0, 1, 10, 100, 1000, full.nodes // 2, full.nodes - 1):
        short = solve(deck, rules, max_nodes=max_nodes)
        assert (short.result, short.moves) == ("unknown", ())
        assert short.nodes <= max_nodes
    # The work is deterministic: the exact node count it took is just enough.
    just_enough = solve(deck, rules, max_nodes=full.nodes)
    assert (just_enough.result, just_enough.nodes) == ("loss", full.nodes)
    assert full.nodes > 0 and full.ms > 0
    assert solve(deck, rules, budget_ms=1).result == "unknown"
    assert solve(LOCKED_SEVENS_DECK, rules, max_nodes=1).result == "unknown"


def test_a_won_table_needs_no_moves():
    solution = solve(CHAIN_DECK, removed=ALL_REMOVED, max_nodes=1)
    assert (solution.result, solution.moves) == ("win", ())


def random_game(number: int, rules: Rules, rng: random.Random) -> Table:
    """A deal played some way in by random legal moves, takes more likely than draws and draws
    more likely than the wild card."""
    game = Table(deck_for_number(number), rules)
    for _ in range(rng.randint(5, 40)):
        if game.over:
            break
        takes = game.legal_takes()
        others = [move for move in game.legal_moves() if move not in takes]
        if takes and (rng.random() < 0.7 or not others):
            game.take(rng.choice(takes))
        else:
            game.apply(DRAW if DRAW in others and rng.random() < 0.8 else others[-1])
    return game


@pytest.mark.parametrize("rules", each_rule_set([STANDARD, NO_WRAP_WILD]))
def test_mid_game_positions(rules):
    rng = random.Random(f"mid-game {rules.name}")
    results = set()
    for number in range(1, 41):
        game = random_game(number, rules, rng)
        solution = solve_table(game)
        results.add(solution.result)
        if solution.result == "win":
            assert Table.replay(game.deck, [*game.moves, *solution.moves], rules).won
            continue
        # A lost position: no move leads anywhere better.
        assert solution.result == "loss" and not game.won
        for move in game.legal_moves():
            after = Table.replay(game.deck, [*game.moves, move], rules)
            assert solve_table(after).result == "loss"
    assert results == {"win", "loss"}
