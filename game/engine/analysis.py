"""After the deal: could it be won, and where was it lost? Full information, so only once the game
is over.

A position after k moves of a played line is winnable only if the one after k - 1 was (any win
from the later one is a win from the earlier), so along a line winnability goes from true to false
once at most, and a binary search over the line's prefixes finds the last winnable one in about
log2(moves) solves.
"""

from collections.abc import Sequence
from dataclasses import dataclass

from .rules import STANDARD, Rules
from .solver import solve_table
from .state import Move, Table

WIN, LOSS, UNKNOWN = "win", "loss", "unknown"


@dataclass(frozen=True)
class Analysis:
    winnable: bool | None
    """Whether the deal could be won from the start; None when the budget ran out first."""
    last_winnable: int | None
    """For a line that did not win from a winnable deal: the most moves after which a win was
    still possible (the whole line, if it was left still winnable)."""
    losing_move: Move | None
    """The move played after `last_winnable` moves, which lost the deal; None if there is none."""
    line: tuple[Move, ...]
    """A winning line from the deal's start, or from `last_winnable` moves into the played line."""
    solves: int
    """Positions solved to find all this."""
    nodes: int
    """Positions the solver searched to decide the deal from its start."""
    decided: bool = True
    """False when a solve's budget ran out first: whether the deal could be won (winnable None)
    or, for a line not won from a winnable deal, where it was lost (last_winnable None) is not
    known, and a later try with more time may tell."""


def analyse(
    deck: Sequence[int], moves: Sequence[Move], rules: Rules = STANDARD, **budget
) -> Analysis:
    """The analysis of the line `moves` (the moves in play, undone ones left out) played on the
    deal `deck`; `budget` (max_nodes, budget_ms) bounds each solve."""
    solved = {}

    def solution(count: int):
        if count not in solved:
            solved[count] = solve_table(Table.replay(deck, moves[:count], rules), **budget)
        return solved[count]

    start = solution(0)
    if start.result != WIN:
        if start.result == UNKNOWN:
            return Analysis(None, None, None, (), len(solved), start.nodes, decided=False)
        return Analysis(False, None, None, (), len(solved), start.nodes)
    if Table.replay(deck, moves, rules).won:
        return Analysis(True, None, None, start.moves, len(solved), start.nodes)
    won, lost = 0, len(moves) + 1  # solution(won) is a win; lost: no win after so many moves
    while lost - won > 1:
        middle = (won + lost) // 2
        result = solution(middle).result
        if result == UNKNOWN:  # a winning line from the start is known, where it was lost not
            return Analysis(True, None, None, start.moves, len(solved), start.nodes, decided=False)
        won, lost = (middle, lost) if result == WIN else (won, middle)
    losing_move = moves[won] if won < len(moves) else None
    return Analysis(True, won, losing_move, solution(won).moves, len(solved), start.nodes)
