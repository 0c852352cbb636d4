"""Scored play: a hand's score as a pure function of the rules, the deal and the moves.

Two systems (SPEC.md, "Scoring"):
- `pysol`, PySolFC's "Three Peaks (Scored)": a hand starts at -52; the n-th card of the current
  run scores 2^((n-1) // 4), doubled for each peak already empty after this take; taking a summit
  adds 5 doubled as often (10, 20, 40); clearing the table adds 10 for each card left in the stock.
  At most 2336 a hand, 2346 with a head start (its stock holds a card more).
- `classic`, Robert Hogue's original money scoring: each card turned from the stock costs 5 (the
  one turned at the deal is free); the n-th card of the current run scores n; the first and the
  second summit add 15 each, the third 30. At most 466 a hand.

Nothing is kept between moves but the table itself, so a score can never drift from the log: it is
the sum of the steps of the moves in play.
"""

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from .rules import STANDARD, Rules
from .state import DRAW, Move, Table

NONE = "none"
PYSOL = "pysol"
CLASSIC = "classic"
SYSTEMS = (NONE, PYSOL, CLASSIC)

START = {PYSOL: -52, CLASSIC: 0}
"""What a hand is worth as it is dealt."""
MAXIMUM = {PYSOL: 2336, CLASSIC: 466}
"""The most a hand can score: every card in one run, the peaks emptied as early as they can be,
and (pysol) the whole stock left. A head start's stock holds one card more: in pysol, a hand can
then make HEAD_START_MORE more."""

SUMMITS = (0, 1, 2)
DRAW_COST = 5
"""classic: what each card turned from the stock costs."""
CLASSIC_SUMMIT_BONUS = (15, 15, 30)
"""classic: for the first, second and third summit taken."""
PYSOL_SUMMIT_BONUS = 5
PYSOL_STOCK_BONUS = 10
"""pysol: for each card left in the stock when the table is cleared."""
HEAD_START_MORE = PYSOL_STOCK_BONUS

PEAKS_WORDS = {1: "an empty peak", 2: "two empty peaks", 3: "three empty peaks"}
ORDINALS = ("first", "second", "third")


class ScoringError(ValueError):
    """An unknown scoring system; the message names it and the known ones."""


def system_named(name: str) -> str:
    """The scoring system called `name`; raises ScoringError for any other name."""
    if name not in SYSTEMS:
        known = ", ".join(SYSTEMS)
        if len(name) > max(map(len, SYSTEMS)):  # not repeated back in full, however long
            raise ScoringError(f"no scoring has a name that long: choose one of {known}")
        raise ScoringError(f"unknown scoring {name!r}: choose one of {known}")
    return name


@dataclass(frozen=True)
class Step:
    """What one move scored, and why in words ("+4, run of 9, ×2 for an empty peak")."""

    points: int
    words: str


def steps(
    deck: Sequence[int], moves: Iterable[Move], system: str, rules: Rules = STANDARD
) -> list[Step]:
    """The step each move of a line scores under `system`, replaying it from the deal."""
    table = Table(deck, rules)
    scored = []
    for move in moves:
        refusal = table.apply(move)
        if refusal:
            raise ValueError(f"{move!r}: {refusal}")
        scored.append(_step(table, move, system))
    return scored


def hand_score(
    deck: Sequence[int], moves: Iterable[Move], system: str, rules: Rules = STANDARD
) -> int:
    """What the hand played by `moves` has made so far."""
    return START[system] + sum(step.points for step in steps(deck, moves, system, rules))


def _step(table: Table, move: Move, system: str) -> Step:
    """What `move`, just played on `table`, scored."""
    if system == NONE:
        return Step(0, "")
    if move == DRAW:
        if system == CLASSIC:
            return Step(-DRAW_COST, f"−{DRAW_COST} for the card turned")
        return Step(0, "")
    if not isinstance(move, int):
        return Step(0, "")  # the wild card scores nothing
    run = table.run
    empty = sum(table.is_removed(summit) for summit in SUMMITS)
    summit = move in SUMMITS
    if system == CLASSIC:
        parts = [f"run of {run}"]
        points = run
        if summit:
            bonus = CLASSIC_SUMMIT_BONUS[empty - 1]
            points += bonus
            parts.append(f"+{bonus} for the {ORDINALS[empty - 1]} summit")
        return Step(points, _words(points, parts))
    factor = 2**empty
    points = 2 ** ((run - 1) // 4) * factor
    parts = [f"run of {run}"]
    if empty:
        parts.append(f"×{factor} for {PEAKS_WORDS[empty]}")
    if summit:
        points += PYSOL_SUMMIT_BONUS * factor
        parts.append(f"+{PYSOL_SUMMIT_BONUS * factor} for the summit")
    if table.won and table.stock_count:
        bonus = PYSOL_STOCK_BONUS * table.stock_count
        points += bonus
        cards = "card" if table.stock_count == 1 else "cards"
        parts.append(f"+{bonus} for {table.stock_count} {cards} left in the stock")
    return Step(points, _words(points, parts))


def _words(points: int, parts: list[str]) -> str:
    return ", ".join([f"+{points}" if points >= 0 else f"−{-points}", *parts])
