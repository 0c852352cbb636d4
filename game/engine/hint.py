"""The Hint: a move worth making, judged only on what the player has seen.

While cards are unknown, each legal move is scored by playing it out on sampled deals: the unseen
cards are dealt at random into the face-down places and the unknown stock places, and a no-peek
policy (`ROLLOUT_POLICY`) plays each sample to its end. Every move is tried on the same samples, so
the comparison is not blurred by some moves drawing luckier deals than others. A move scores its
wins, plus a little for cards cleared so that hopeless-looking positions still get a sensible
move. Counting full-information solver wins instead barely separates the moves: with every card
in view almost every sample is winnable whatever is played now.

Laying the wild card is one more legal move, tried on the same samples; the playouts after every
other move keep it to the last. So the hint advises it only where laying it now did better than
keeping it, and a draw while it is held says to keep it.

Only when every card is known does the exact solver run; then a proven win gives the first move of
the winning line and a proven loss gives the "unsolvable" verdict. Nothing else ever does.
"""

import random
import time
from dataclasses import dataclass

from .cards import DECK_SIZE, card_label, rank
from .knowledge import PlayerView, known_deck, known_ranks, view_of
from .policy import Fits, Tableau, digging_policy, fits_table, play_out, policy_move
from .rules import STANDARD
from .solver import solve
from .state import DRAW, WILD, Move, Table

UNSOLVABLE = "unsolvable"

ROLLOUT_POLICY = digging_policy
DEFAULT_NODES = 60_000
"""Work bound when none is given: moves played in playouts (and solver nodes when every card is
known); about 40 ms a hint at the median."""
DEFAULT_BUDGET_MS = 1_000.0
CLEARED_WEIGHT = 0.1
"""A whole table cleared without a win is worth this fraction of a win."""


@dataclass(frozen=True)
class Hint:
    move: Move | None
    """A tableau position, "draw", or None once the game is over."""
    verdict: str | None
    """"unsolvable" only when every card is known and the solver proved the deal lost."""
    reason: str


def hint_for_table(table: Table, **options) -> Hint:
    """The hint for a live table, from the player's knowledge of it alone."""
    return recommend(view_of(table), **options)


def recommend(
    view: PlayerView,
    *,
    seed: int = 0,
    max_nodes: int | None = None,
    budget_ms: float | None = DEFAULT_BUDGET_MS,
) -> Hint:
    started = time.perf_counter()
    if view.won:
        return Hint(None, None, "The table is clear: the deal is won.")
    if view.over:
        return Hint(None, None, "No card fits and the stock is empty: there is no legal move.")
    nodes = DEFAULT_NODES if max_nodes is None else max_nodes
    deadline = None if budget_ms is None else started + budget_ms / 1000

    if view.fully_known:
        solution = solve(
            known_deck(view),
            view.rules,
            removed=view.removed,
            stock_next=DECK_SIZE - view.stock_count,
            waste_card=view.waste_top,
            wild_held=view.wild_held,
            max_nodes=nodes,
            budget_ms=budget_ms,
        )
        if solution.result == "win":
            move = solution.moves[0]
            return Hint(move, None, f"{_describe(view, move)}: it leads to clearing the table.")
        nodes = max(0, nodes - solution.nodes)
        if solution.result == "loss":
            move = _best_by_rollouts(view, seed, nodes, deadline).move
            return Hint(
                move,
                UNSOLVABLE,
                "Every card is known and this deal cannot be finished from here. "
                f"{_describe(view, move)}: it clears the most cards.",
            )
    return _best_by_rollouts(view, seed, nodes, deadline)


@dataclass(frozen=True)
class _SampledTable:
    """A deal consistent with the view, in ranks: the tableau, the stock from its next card."""

    tableau: Tableau
    stock: list[int]


def _sampler(view: PlayerView, rng: random.Random, fits: Fits):
    """Yield deals consistent with the view: the unseen cards, in index order, shuffled into the
    unknown places. Neither their real places nor their real order can reach the result."""
    ranks = known_ranks(view.tableau)
    stock = known_ranks(view.stock)
    hidden_tableau = [
        pos for pos, card in enumerate(view.tableau) if card is None and not view.is_removed(pos)
    ]
    hidden_stock = [i for i, card in enumerate(view.stock) if card is None]
    unseen_ranks = [rank(card) for card in view.unseen]
    split = len(hidden_tableau)
    while True:
        rng.shuffle(unseen_ranks)
        for pos, card in zip(hidden_tableau, unseen_ranks, strict=False):  # the rest: stock
            ranks[pos] = card
        for i, card in zip(hidden_stock, unseen_ranks[split:], strict=True):
            stock[i] = card
        yield _SampledTable(Tableau(list(ranks), fits), list(stock))


def _best_by_rollouts(view: PlayerView, seed: int, max_nodes: int, deadline: float | None) -> Hint:
    moves = view.legal_moves()
    if len(moves) == 1:
        return Hint(moves[0], None, _forced_reason(view, moves[0]))
    fallback = policy_move(view, ROLLOUT_POLICY)

    fits = fits_table(view.rules)
    # A playout makes at most one move per card standing, per stock card and for the wild card.
    round_cost = len(moves) * (28 - view.removed.bit_count() + view.stock_count + view.wild_held)
    samples = _sampler(view, random.Random(seed), fits)
    wins = dict.fromkeys(moves, 0)
    cleared = dict.fromkeys(moves, 0)
    rounds = spent = 0
    # Every sample is the same deal when nothing is unknown: one round says it all.
    max_rounds = 1 if view.fully_known else None
    while spent + round_cost <= max_nodes and rounds != max_rounds:
        if deadline is not None and rounds and time.perf_counter() > deadline:
            break
        table = next(samples)
        for move in moves:
            result, played = _play_out_after(view, table, move)
            wins[move] += result == 28
            cleared[move] += result
            spent += played + 1
        rounds += 1
    if not rounds:
        return Hint(fallback, None, f"{_describe(view, fallback)}: a quick suggestion.")

    def score(move: Move) -> tuple[float, bool, bool, bool]:
        # Ties go to the policy's own choice, then to keeping the wild card, then to taking
        # rather than drawing.
        value = wins[move] + CLEARED_WEIGHT * cleared[move] / 28
        return value, move == fallback, move != WILD, move != DRAW

    best = max(moves, key=score)
    if view.fully_known:
        return Hint(best, None, f"{_describe(view, best)}: the best line found so far.")
    return Hint(best, None, f"{_describe(view, best)}: {_how_often(wins[best], rounds)}")


def _play_out_after(view: PlayerView, table: _SampledTable, move: Move) -> tuple[int, int]:
    """Play `move` on a sampled deal, then the rollout policy to the end: (cleared, moves played
    after `move`)."""
    tableau, stock, wild_held = table.tableau, table.stock, view.wild_held
    if move == DRAW:
        result, played = play_out(
            tableau, view.removed, stock[0], stock[1:], ROLLOUT_POLICY, wild_held
        )
    elif move == WILD:
        result, played = play_out(tableau, view.removed, 0, stock, ROLLOUT_POLICY)
    else:
        removed = view.removed | 1 << move
        result, played = play_out(
            tableau, removed, tableau.ranks[move], stock, ROLLOUT_POLICY, wild_held
        )
    return result, played


def _how_often(wins: int, rounds: int) -> str:
    """How often a move cleared the table on the sampled deals, in words."""
    share = wins / rounds
    if not wins:
        return "no line cleared the table from here, and it clears the most cards."
    if share > 0.8:
        often = "almost all"
    elif share > 0.6:
        often = "most"
    elif share > 0.4:
        often = "about half"
    elif share > 0.15:
        often = "some"
    else:
        often = "a few"
    return f"it cleared the table in {often} of the deals that fit the cards you have seen."


def play_by_hints(deck, rules=STANDARD, **options) -> tuple[Table, list[float]]:
    """Play a deal by following the hint alone; returns the finished table and ms per hint."""
    table = Table(deck, rules)
    times = []
    while True:
        started = time.perf_counter()
        hint = hint_for_table(table, **options)
        times.append((time.perf_counter() - started) * 1000)
        if hint.move is None:
            return table, times
        table.apply(hint.move)


def _forced_reason(view: PlayerView, move: Move) -> str:
    if move == DRAW:
        return "Nothing fits the waste card: draw."
    if move == WILD:
        return "Lay the wild card: nothing else fits and the stock is empty."
    return f"{_describe(view, move)}: it is the only move."


def _describe(view: PlayerView, move: Move) -> str:
    """The move in words; a draw while the wild card could be laid instead says to keep it."""
    if move == WILD:
        return "Lay the wild card"
    if move == DRAW:
        return "Draw from the stock" + (" and keep the wild card for now" if view.wild_held else "")
    return f"Take the {card_label(view.tableau[move])}"
