"""After the deal: whether it could be won, and the last move after which it still could."""

import math
import random

from game.engine.analysis import analyse
from game.engine.deck import deck_for_number
from game.engine.solver import solve_table
from game.engine.state import DRAW, Table
from tests.engine.support import CHAIN_DECK, CHAIN_ORDER

NODES = {"max_nodes": 2_000_000}


def careless_line(number: int, seed: int) -> tuple[tuple[int, ...], list]:
    """A deal and a line played on it to the end, taking a random fitting card, else drawing."""
    rng = random.Random(seed)
    table = Table(deck_for_number(number))
    while not table.over:
        takes = table.legal_takes()
        table.apply(rng.choice(takes) if takes else DRAW)
    return table.deck, table.moves


def winnable_after(deck, moves) -> bool:
    return solve_table(Table.replay(deck, moves), **NODES).result == "win"


def test_a_won_game_is_winnable_and_has_nothing_more_to_say():
    analysis = analyse(CHAIN_DECK, CHAIN_ORDER, **NODES)

    assert analysis.winnable is True and analysis.last_winnable is None
    assert Table.replay(CHAIN_DECK, analysis.line).won


def lost_lines(count: int):
    """Careless lines that lost a deal that could be won: the first `count` of deals 1, 2, ..."""
    found = 0
    for number in range(1, 1000):
        deck, line = careless_line(number, seed=number)
        if not Table.replay(deck, line).won and winnable_after(deck, []):
            yield deck, line
            found += 1
            if found == count:
                return


def test_a_lost_line_is_lost_exactly_after_its_last_winnable_prefix():
    for deck, line in lost_lines(8):
        analysis = analyse(deck, line, **NODES)

        k = analysis.last_winnable
        assert analysis.winnable is True and 0 <= k <= len(line)
        assert winnable_after(deck, line[:k])
        assert k == len(line) or not winnable_after(deck, line[: k + 1])
        assert analysis.losing_move == (line[k] if k < len(line) else None)
        assert Table.replay(deck, [*line[:k], *analysis.line]).won
        assert analysis.solves <= math.ceil(math.log2(len(line) + 2)) + 2


def test_a_deal_that_cannot_be_won_says_so():
    lost = next(
        deck
        for deck in (deck_for_number(number) for number in range(1, 500))
        if not winnable_after(deck, [])
    )

    analysis = analyse(lost, [DRAW], **NODES)

    assert analysis.winnable is False and analysis.last_winnable is None and analysis.line == ()


def test_a_game_left_while_still_winnable_is_winnable_after_every_move():
    analysis = analyse(CHAIN_DECK, CHAIN_ORDER[:5], **NODES)

    assert analysis.last_winnable == 5 and analysis.losing_move is None
    assert Table.replay(CHAIN_DECK, [*CHAIN_ORDER[:5], *analysis.line]).won


def test_an_analysis_cut_short_says_it_is_undecided_and_never_names_a_wrong_move():
    decided = set()
    for deck, line in lost_lines(4):
        full = analyse(deck, line, **NODES)
        for max_nodes in (50, 1_000, solve_table(Table(deck)).nodes, 5_000):
            cut = analyse(deck, line, max_nodes=max_nodes)
            decided.add(cut.decided)
            if cut.decided:
                assert (cut.winnable, cut.last_winnable, cut.losing_move) == (
                    full.winnable, full.last_winnable, full.losing_move,
                )  # fmt: skip
            else:
                assert cut.last_winnable is None and cut.losing_move is None
                # Where the line lost it is unknown; a winning line from the start may be.
                assert cut.winnable is None or Table.replay(deck, cut.line).won
    assert decided == {True, False}
