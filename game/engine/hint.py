"""The Hint: a move worth making, judged only on what the player has seen.

While cards are unknown, each legal move is scored by playing it out on sampled deals: the unseen
cards are dealt at random into the face-down places and the unknown stock places, and a no-peek
policy (`ROLLOUT_POLICY`) plays each sample to its end. Every move is tried on the same samples, so
the comparison is not blurred by some moves drawing luckier deals than others. A move scores its
wins, plus a little for cards cleared so that hopeless-looking positions still get a sensible
move. Counting full-information solver wins instead barely separates the moves: with every card
in view almost every sample is winnable whatever is played now. A move clearly behind the leader
on the samples so far gets no more of them (`_Race`), so the work goes to telling the close ones
apart, and the search ends once one move is left.

The reason given says why in words read off the position (what the move turns over, what can
follow it), never how the samples came out.

Laying the wild card is one more legal move, tried on the same samples; the playouts after every
other move keep it to the last. So the hint advises it only where laying it now did better than
keeping it, and a draw while it is held says to keep it.

Only when every card is known does the exact solver run; then a proven win gives the first move of
the winning line, and a proven loss gives the "unsolvable" verdict if no card is face down on the
peaks either (one an undo turned back over is known, but the table still hides it: the verdict
waits until it is turned up again, as the spec words it). Nothing else ever gives the verdict.
"""

import random
import time
from dataclasses import dataclass

from .cards import DECK_SIZE, RANK_NAMES, card_label, rank
from .geometry import COVERS, TABLEAU_SIZE
from .knowledge import PlayerView, known_deck, known_ranks, view_of
from .policy import (
    Fits,
    Tableau,
    exposed_mask,
    fits_table,
    play_out,
    policy_move,
    scoring_policy,
    to_come_in_view,
)
from .rules import STANDARD
from .solver import most_cleared, solve
from .state import ALL_REMOVED, DRAW, WILD, Move, Table

UNSOLVABLE = "unsolvable"

ROLLOUT_POLICY = scoring_policy
"""The playouts' player: the strongest no-peek policy on its own, since a move is judged by how
it goes on after it."""
DEFAULT_NODES = 60_000
"""Work bound when none is given: moves played in playouts (and solver nodes when every card is
known). More bought no more wins (bench/README.md); the clock bound caps the slowest hints."""
DEFAULT_BUDGET_MS = 1_000.0
CLEARED_WEIGHT = 0.1
"""A whole table cleared without a win is worth this fraction of a win."""


@dataclass(frozen=True)
class Hint:
    move: Move | None
    """A tableau position, "draw", or None once the game is over."""
    verdict: str | None
    """"unsolvable" only when every card is known, none face down, and the solver proved the deal
    lost."""
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
        solution = solve(**_known_position(view), max_nodes=nodes, budget_ms=budget_ms)
        if solution.result == "win":
            move = solution.moves[0]
            return Hint(move, None, f"{_describe(view, move)}: it leads to clearing the table.")
        nodes = max(0, nodes - solution.nodes)
        if solution.result == "loss" and view.nothing_hidden:
            return _unsolvable(view, seed, nodes, deadline)
    return _best_by_rollouts(view, seed, nodes, deadline)


def _known_position(view: PlayerView) -> dict:
    """The position, every card of it known, as the solver takes it."""
    return {
        "deck": known_deck(view),
        "rules": view.rules,
        "removed": view.removed,
        "stock_next": DECK_SIZE - view.stock_count,
        "waste_card": view.waste_top,
        "wild_held": view.wild_held,
    }


def _unsolvable(view: PlayerView, seed: int, nodes: int, deadline: float | None) -> Hint:
    """The verdict for a lost deal whose every card is known, with the first move of a line that
    takes as many cards as any can (or, past the budget, the rollouts' best)."""
    left_ms = None if deadline is None else max(0.0, (deadline - time.perf_counter()) * 1000)
    line = most_cleared(**_known_position(view), max_nodes=nodes, budget_ms=left_ms)
    if line:
        move, why = line[0], "it leads to clearing the most cards"
    elif line is None:
        move, why = _best_by_rollouts(view, seed, nodes, deadline).move, "the best line found"
    else:  # no card can be taken again, whatever is drawn
        move = DRAW if view.stock_count else WILD
        why = "no card on the peaks can be taken again"
    return Hint(
        move,
        UNSOLVABLE,
        "Every card is known and this deal cannot be finished from here. "
        f"{_describe(view, move)}: {why}.",
    )


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
    playout_cost = 28 - view.removed.bit_count() + view.stock_count + view.wild_held
    samples = _sampler(view, random.Random(seed), fits)
    race = _Race(moves)
    spent = 0
    # Every sample is the same deal when nothing is unknown: one round says it all.
    max_rounds = 1 if view.fully_known else None
    while (
        len(race.running) > 1
        and spent + len(race.running) * playout_cost <= max_nodes
        and race.rounds != max_rounds
    ):
        if deadline is not None and race.rounds and time.perf_counter() > deadline:
            break
        table = next(samples)
        outcomes = {}
        for move in race.running:
            cleared, played = _play_out_after(view, table, move)
            outcomes[move] = cleared
            spent += played + 1
        race.add_round(outcomes)
    if not race.rounds:
        return Hint(fallback, None, f"{_describe(view, fallback)}: a quick suggestion.")

    def score(move: Move) -> tuple[float, bool, bool, bool]:
        # Ties go to the policy's own choice, then to keeping the wild card, then to taking
        # rather than drawing.
        return race.total[move], move == fallback, move != WILD, move != DRAW

    best = max(race.running, key=score)
    if view.fully_known:
        return Hint(best, None, f"{_describe(view, best)}: the best line found so far.")
    return Hint(best, None, f"{_describe(view, best)}: {_why(view, best)}.")


MIN_ROUNDS = 128
"""Rounds every move plays before any may be dropped. On a few samples the wins and losses that
tell two moves apart are too few to say how spread they are, and a move dropped then was too
often the better one (bench/README.md)."""
DROP_SE = 2.0
"""A move is dropped once its paired shortfall to the leader is this many standard errors."""


class _Race:
    """The moves' scores on shared samples, dropping a move once it is clearly behind the leader,
    so that the samples go to the moves still in contention. The difference between two moves on
    the same sample is far less spread than either score, which is what makes "clearly" cheap.

    "Behind" counts wins alone. The cards cleared vary little from move to move, so their small
    differences would look certain long before the wins have shown which move wins more: a move
    would be dropped for clearing a card less in the lost samples."""

    def __init__(self, moves: list[Move]):
        self.running = list(moves)
        self.rounds = 0
        self.total = dict.fromkeys(moves, 0.0)
        # For each ordered pair (a, b): the sum of a's wins less b's, and of its square.
        self.pair_sum = {(a, b): 0 for a in moves for b in moves if a != b}
        self.pair_squares = dict.fromkeys(self.pair_sum, 0)

    def add_round(self, cleared: dict[Move, int]) -> None:
        """One sample's outcome for each running move: the cards it cleared (all 28: a win)."""
        self.rounds += 1
        for move, count in cleared.items():
            self.total[move] += (count == TABLEAU_SIZE) + CLEARED_WEIGHT * count / TABLEAU_SIZE
        for a in self.running:
            for b in self.running:
                if a != b:
                    gap = (cleared[a] == TABLEAU_SIZE) - (cleared[b] == TABLEAU_SIZE)
                    self.pair_sum[a, b] += gap
                    self.pair_squares[a, b] += gap * gap
        if self.rounds >= MIN_ROUNDS:
            self._drop_the_clearly_behind()

    def _drop_the_clearly_behind(self) -> None:
        n = self.rounds
        leader = max(self.running, key=self.total.__getitem__)
        kept = [leader]
        for move in self.running:
            if move == leader:
                continue
            mean = self.pair_sum[move, leader] / n
            variance = max(0.0, (self.pair_squares[move, leader] - n * mean * mean) / (n - 1))
            if mean + DROP_SE * (variance / n) ** 0.5 >= 0:
                kept.append(move)
        self.running = [move for move in self.running if move in kept]


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


COUNT_WORDS = ("no", "a", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten")


def _why(view: PlayerView, move: Move) -> str:
    """Why the move, in words read off the position: what it opens, what can follow it, and
    what it keeps back or how few cards are left to fit it later."""
    if move == WILD:
        if not view.stock_count:
            return "the stock is spent and any card here fits after it"
        return "any card here fits after it"
    if move == DRAW:
        return _why_draw(view)
    if view.removed | 1 << move == ALL_REMOVED:
        return "it clears the table"
    parts = [
        *_what_it_opens_and_what_follows(view, move),
        # Few cards to fit onto is a reason only when no card of its rank is kept back.
        _what_it_keeps(view, move) or _how_few_lead_back(view, move),
    ]
    # The first two that apply: a reason short enough to read at a glance.
    said = ", and ".join([part for part in parts if part][:2])
    if said:
        return said
    if view.stock_count:
        return "it clears a card and keeps the stock for later"
    return "it clears one more card"


def _why_draw(view: PlayerView) -> str:
    takes = view.legal_takes()
    if not takes:
        return "nothing here fits the waste card"
    if not any(_opened_by(view, pos) or _followers(view, pos) for pos in takes):
        return "no card here opens anything or leads to another yet"
    if len(takes) == 1:
        return f"the {card_label(view.tableau[takes[0]])} is worth more kept for a later run"
    return "the cards that fit are worth more kept for a later run"


def _opened_by(view: PlayerView, pos: int) -> list[int]:
    """The cards that taking pos uncovers."""
    exposed = exposed_mask(view.removed | 1 << pos)
    return [upper for upper in COVERS[pos] if exposed >> upper & 1]


def _what_it_opens_and_what_follows(view: PlayerView, pos: int) -> list[str]:
    """What taking pos uncovers and the cards in view that could be taken next. Under open
    peaks a card it frees is named once, however it also follows."""
    opened, followers = _opened_by(view, pos), _followers(view, pos)
    if not view.rules.open_peaks:
        turned = f"it turns over {_cards(len(opened))}" if opened else ""
        return [turned, _what_follows(followers, view)]
    freed = [upper for upper in opened if upper not in followers]
    freed_followers = [upper for upper in opened if upper in followers]

    def named(cards: list[int]) -> str:
        return " and ".join(f"the {card_label(view.tableau[card])}" for card in cards)

    # The cards that can follow it first, each clause by its own cards: "it frees the 8 of
    # diamonds, which can follow it, and the king of clubs".
    frees = []
    if freed_followers:
        which = "which" if len(freed_followers) == 1 else "either of which"
        frees.append(f"{named(freed_followers)}, {which} can follow it")
    if freed:
        frees.append(named(freed))
    others = [other for other in followers if other not in opened]
    return ["it frees " + ", and ".join(frees) if frees else "", _what_follows(others, view)]


def _followers(view: PlayerView, pos: int) -> list[int]:
    """The cards face up now that could be taken straight after pos: the run it continues. A
    card it would turn over is not among them, though known from before an undo: its name is
    not for the page while it lies face down."""
    face_up = ALL_REMOVED if view.rules.open_peaks else exposed_mask(view.removed)
    exposed = exposed_mask(view.removed | 1 << pos) & face_up
    return [
        other
        for other in range(TABLEAU_SIZE)
        if exposed >> other & 1
        and view.tableau[other] is not None
        and view.rules.fits(rank(view.tableau[pos]), rank(view.tableau[other]))
    ]


def _what_follows(followers: list[int], view: PlayerView) -> str:
    if not followers:
        return ""
    if len(followers) == 1:
        return f"the {card_label(view.tableau[followers[0]])} can follow it"
    # Either, not both: each fits onto it, and no two of them onto each other.
    return f"{'either' if len(followers) == 2 else 'any'} of {_cards(len(followers))} can follow it"


def _what_it_keeps(view: PlayerView, pos: int) -> str:
    """The other fitting cards of its rank, left in view for a later run: while a card is left
    that they fit onto."""
    card = view.tableau[pos]
    twins = [other for other in view.legal_takes() if rank(view.tableau[other]) == rank(card)]
    twins.remove(pos)
    if not twins or not _a_rank_away(view, pos) + view.wild_held:
        return ""
    if len(twins) == 1:
        return f"the {card_label(view.tableau[twins[0]])} stays for a later run"
    return f"the other {RANK_NAMES[rank(card) - 1]}s stay for later runs"


FEW_LEFT = 2
"""At most this many cards left that a card fits onto (the wild card among them): left
standing, it may not fit again."""


def _how_few_lead_back(view: PlayerView, pos: int) -> str:
    """Whether few cards are left that it fits onto."""
    left = _a_rank_away(view, pos)
    if left + view.wild_held > FEW_LEFT:
        return ""
    if not left:
        if view.wild_held:
            return "no card left but the wild card fits it, so it may not fit again"
        return "no card left is a rank away, so it fits now or never"
    if left == 1:
        return "only one card left is a rank away, so it may not fit again"
    return f"only {_cards(left)} left are a rank away, so it may not fit again"


def _a_rank_away(view: PlayerView, pos: int) -> int:
    """The cards a rank from the card at pos still to be taken, in view or still to come."""
    neighbours = fits_table(view.rules)[rank(view.tableau[pos])]
    exposed = exposed_mask(view.removed)
    to_come = to_come_in_view(view, exposed)
    in_view = sum(
        rank(view.tableau[other]) in neighbours
        for other in range(TABLEAU_SIZE)
        if exposed >> other & 1
    )
    return in_view + sum(to_come[other] for other in neighbours)


def _cards(count: int) -> str:
    return f"{COUNT_WORDS[count]} card{'s' if count != 1 else ''}"


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
