import random

import pytest

from game.engine import solver
from game.engine.cards import rank
from game.engine.deck import deck_for_number
from game.engine.geometry import COVERED_BY, TABLEAU_SIZE
from game.engine.rules import STANDARD, Rules
from game.engine.solver import solve, solve_table
from game.engine.state import ALL_REMOVED, DRAW, Table

from .support import CHAIN_DECK, deck_with

NO_WRAP = Rules(wrap=False)

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


def brute_force_wins(deck, rules, removed, stock_next, waste_card) -> bool:
    """Every line, with no memory and no pruning: whether one of them clears the table."""
    if removed == ALL_REMOVED:
        return True
    for pos in range(TABLEAU_SIZE):
        there = not removed >> pos & 1
        uncovered = all(removed >> below & 1 for below in COVERED_BY[pos])
        fits = waste_card is None or rules.fits(rank(waste_card), rank(deck[pos]))
        if (
            there
            and uncovered
            and fits
            and brute_force_wins(deck, rules, removed | 1 << pos, stock_next, deck[pos])
        ):
            return True
    return stock_next < len(deck) and brute_force_wins(
        deck, rules, removed, stock_next + 1, deck[stock_next]
    )


def game_at(deck, rules, removed, stock_next, waste_card) -> Table:
    """A Table put at an arbitrary position through its public fields, to judge moves from it."""
    game = Table(deck, rules)
    game.removed, game.stock_next = removed, stock_next
    game.waste = [] if waste_card is None else [waste_card]
    return game


def wins_by_replay(game: Table, moves) -> bool:
    return all(game.apply(move) is None for move in moves) and game.won


def small_position(rng: random.Random):
    """A random deck with 1-7 tableau cards left (taken in a random legal order), 0-12 stock cards
    left, and a waste card among those already played."""
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
    return tuple(deck), removed, stock_next, waste_card


@pytest.mark.parametrize("rules", [STANDARD, NO_WRAP], ids=["wrap", "no-wrap"])
def test_agrees_with_brute_force_on_small_positions(stage, rules):
    rng = random.Random(f"small positions {rules}")
    results = []
    for _ in range(200):
        deck, *position = small_position(rng)
        removed, stock_next, waste_card = position
        solution = solve(deck, rules, removed=removed, stock_next=stock_next, waste_card=waste_card)
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


def test_out_of_budget_is_unknown_never_loss():
    deck = deck_for_number(24)
    full = solve(deck)
    assert full.result == "loss"
    for max_nodes in (0, 1, 10, 100, 1000, full.nodes // 2, full.nodes - 1):
        short = solve(deck, max_nodes=max_nodes)
        assert (short.result, short.moves) == ("unknown", ())
        assert short.nodes <= max_nodes
    # The work is deterministic: the exact node count it took is just enough.
    just_enough = solve(deck, max_nodes=full.nodes)
    assert (just_enough.result, just_enough.nodes) == ("loss", full.nodes)
    assert full.nodes > 0 and full.ms > 0
    assert solve(deck, budget_ms=1).result == "unknown"
    assert solve(LOCKED_SEVENS_DECK, max_nodes=1).result == "unknown"


def test_a_won_table_needs_no_moves():
    solution = solve(CHAIN_DECK, removed=ALL_REMOVED, max_nodes=1)
    assert (solution.result, solution.moves) == ("win", ())


def random_game(number: int, rng: random.Random) -> Table:
    """A deal played some way in by random legal moves, takes more likely than draws."""
    game = Table(deck_for_number(number))
    for _ in range(rng.randint(5, 40)):
        takes = game.legal_takes()
        if game.over:
            break
        if takes and (rng.random() < 0.7 or not game.stock_count):
            game.take(rng.choice(takes))
        else:
            game.draw()
    return game


def test_mid_game_positions():
    rng = random.Random("mid-game")
    results = set()
    for number in range(1, 41):
        game = random_game(number, rng)
        solution = solve_table(game)
        results.add(solution.result)
        if solution.result == "win":
            assert Table.replay(game.deck, [*game.moves, *solution.moves]).won
            continue
        # A lost position: no move leads anywhere better.
        assert solution.result == "loss" and not game.won
        for move in [*game.legal_takes(), *([DRAW] if game.stock_count else [])]:
            after = Table.replay(game.deck, [*game.moves, move])
            assert solve_table(after).result == "loss"
    assert results == {"win", "loss"}
