"""No-peek playing policies and fast playouts of them.

A policy looks only at the cards that are face up and uncovered ("exposed") and at the waste
rank; it never reads a face-down card or the stock, so the same code plays a real game from the
player's view and plays out sampled deals inside the hint engine.

Positions here are reduced to what play depends on, for speed: the rank (1-13) at each tableau
position, a bitmask of taken positions, a bitmask of exposed ones, the waste rank (0 while the
waste is empty or shows the wild card: any card fits either way), the stock as a sequence of
ranks and whether the wild card is still held. A policy may also count, per rank, the cards still
to come: neither uncovered on the table nor turned from the stock. That is public whatever their
places are: four of each rank less the ones the player has watched come into play.

The policies keep the wild card to the last: they lay it only when nothing fits and the stock is
spent, when it is the one move left. Whether laying it sooner pays is the hint's to judge.
"""

from collections.abc import Callable, Sequence
from functools import lru_cache

from .cards import rank
from .geometry import COVER_MASK, COVERS, ROW_OF, TABLEAU_SIZE
from .knowledge import PlayerView, known_ranks
from .rules import NUM_RANKS, Rules
from .state import ALL_REMOVED, DRAW, WILD, Move

RANKS = range(1, NUM_RANKS + 1)
BITS = tuple(1 << pos for pos in range(TABLEAU_SIZE))

Fits = tuple[tuple[int, ...], ...]
"""fits[waste_rank]: the card ranks that may be taken onto that waste (rank 0: an empty waste)."""


def fits_table(rules: Rules) -> Fits:
    return tuple(
        tuple(card for card in RANKS if waste == 0 or rules.fits(waste, card))
        for waste in range(NUM_RANKS + 1)
    )


class Tableau:
    """The ranks at the tableau positions (0 where unknown; such a card never fits), with, for
    each waste rank, the bitmask of positions whose card fits it, so that finding the cards that
    may be taken is one AND with the exposed positions."""

    __slots__ = ("fit_masks", "fits", "rank_masks", "ranks")

    def __init__(self, ranks: Sequence[int], fits: Fits):
        self.ranks = ranks
        self.fits = fits
        self.rank_masks = [0] * (NUM_RANKS + 1)  # the positions holding each rank (disjoint)
        for bit, card in zip(BITS, ranks, strict=True):
            self.rank_masks[card] |= bit
        self.fit_masks = [sum(map(self.rank_masks.__getitem__, fitting)) for fitting in fits]


Policy = Callable[[int, int, int, Tableau, list[int]], int]
"""policy(candidates, exposed, removed, tableau, to_come) -> the position to take, where
candidates is the non-empty bitmask of exposed positions whose card fits the waste and
to_come[rank] counts the cards of that rank still to come."""


@lru_cache(maxsize=4096)
def exposed_mask(removed: int) -> int:
    """Positions still standing with both covering cards taken. Cached: a hint plays out every
    sample from the same few tables."""
    return sum(
        1 << pos
        for pos in range(TABLEAU_SIZE)
        if not removed >> pos & 1 and removed & COVER_MASK[pos] == COVER_MASK[pos]
    )


UNCOVERING = tuple(
    tuple((upper, COVER_MASK[upper]) for upper in COVERS[pos]) for pos in range(TABLEAU_SIZE)
)
"""UNCOVERING[pos]: (position, cover mask) of each card that pos holds down, for the playout
loops."""


def _held_down(pos: int) -> int:
    held = 0
    for upper in COVERS[pos]:
        held |= 1 << upper | _held_down(upper)
    return held


HELD_DOWN = tuple(_held_down(pos) for pos in range(TABLEAU_SIZE))
"""HELD_DOWN[pos]: the positions that pos holds down, directly or through the cards above it."""


def greedy_policy(
    candidates: int, exposed: int, removed: int, tableau: Tableau, to_come: list[int]
) -> int:
    """The simple player: take a fitting card whenever there is one, the one lowest on the table
    (the highest position); draw only when nothing fits."""
    return candidates.bit_length() - 1


def digging_policy(
    candidates: int, exposed: int, removed: int, tableau: Tableau, to_come: list[int]
) -> int:
    """Dig: take the fitting card that turns the most face-down cards over, counting one row
    lower on the table as worth as much as one card turned over; ties to the highest position.
    Taking from the bottom first keeps every peak opening up (about 2 points of wins over
    greedy_policy on its own)."""
    best_pos, best_value = -1, -1
    while candidates:
        pos = candidates.bit_length() - 1
        candidates ^= 1 << pos
        taken = removed | 1 << pos
        value = ROW_OF[pos]
        for _, cover in UNCOVERING[pos]:
            value += taken & cover == cover
        if value > best_value:
            best_pos, best_value = pos, value
    return best_pos


# The weights of scoring_policy, per card counted; tuned by the policy's own play (bench/README.md).
TURNED_OVER = 4
"""Each card the take turns over."""
STILL_HELD_DOWN = 4
"""Each card standing that it holds down, however high: digging where most is still buried."""
IN_RUN = 6
"""Each card of the longest run it starts among the exposed cards."""
SAME_RANK = 4
"""Each other exposed card of its rank: one of them can be taken now and another kept."""
NEIGHBOUR_EXPOSED = -8
NEIGHBOUR_TO_COME = -5
"""Each card one rank from it, exposed or still to come: the fewer there are, the fewer chances
to take this card later, so the sooner it should go while it fits."""


def scoring_policy(
    candidates: int, exposed: int, removed: int, tableau: Tableau, to_come: list[int]
) -> int:
    """Take the fitting card with the best weighted score of what it opens, the run it starts and
    how hard it would be to take later; ties to the highest position. About 7 points of wins over
    greedy_policy on its own."""
    ranks, fits, fit_masks = tableau.ranks, tableau.fits, tableau.fit_masks
    rank_masks = tableau.rank_masks
    best_pos, best_value = -1, -(1 << 30)
    while candidates:
        pos = candidates.bit_length() - 1
        bit = 1 << pos
        candidates ^= bit
        card = ranks[pos]
        taken = removed | bit
        others = exposed ^ bit
        value = STILL_HELD_DOWN * (HELD_DOWN[pos] & ~taken).bit_count()
        for _, cover in UNCOVERING[pos]:
            if taken & cover == cover:
                value += TURNED_OVER
        value += SAME_RANK * (others & rank_masks[card]).bit_count()
        value += NEIGHBOUR_EXPOSED * (others & fit_masks[card]).bit_count()
        for neighbour in fits[card]:
            value += NEIGHBOUR_TO_COME * to_come[neighbour]
        value += IN_RUN * _longest_run(card, others, fits, rank_masks)
        if value > best_value:
            best_pos, best_value = pos, value
    return best_pos


def _longest_run(waste: int, exposed: int, fits: Fits, rank_masks: list[int]) -> int:
    """How many of the exposed cards can be taken one after another onto the waste rank, leaving
    out the cards that taking them would turn over (unknown until then). Cards of one rank are
    alike here, so only one of each rank is tried at each step."""
    longest = 0
    for card in fits[waste]:
        of_rank = exposed & rank_masks[card]
        if of_rank:
            run = 1 + _longest_run(card, exposed ^ (of_rank & -of_rank), fits, rank_masks)
            if run > longest:
                longest = run
    return longest


def to_come_in_play_out(tableau: Tableau, removed: int, exposed: int, stock: Sequence[int]):
    """The cards of each rank still to come, as the player of a full-information deal knows them:
    those covered on the table and those in the stock."""
    to_come = [0] * (NUM_RANKS + 1)
    ranks = tableau.ranks
    standing_covered = ALL_REMOVED & ~(removed | exposed)
    while standing_covered:
        pos = standing_covered.bit_length() - 1
        standing_covered ^= 1 << pos
        to_come[ranks[pos]] += 1
    for card in stock:
        to_come[card] += 1
    return to_come


def play_out(
    tableau: Tableau,
    removed: int,
    waste: int,
    stock: Sequence[int],
    policy: Policy,
    wild_held: bool = False,
) -> tuple[int, int]:
    """Play a full-information deal to its end with a no-peek policy.
    Returns (cards cleared from the tableau, moves played)."""
    fit_masks = tableau.fit_masks
    ranks = tableau.ranks
    exposed = exposed_mask(removed)
    to_come = to_come_in_play_out(tableau, removed, exposed, stock)
    cleared_before = removed.bit_count()
    stock_size = len(stock)
    next_card = 0
    wild_laid = 0
    while removed != ALL_REMOVED:
        candidates = exposed & fit_masks[waste]
        if candidates:
            # A lone candidate is every policy's choice: no need to ask.
            if candidates & (candidates - 1):
                pos = policy(candidates, exposed, removed, tableau, to_come)
            else:
                pos = candidates.bit_length() - 1
            bit = 1 << pos
            removed |= bit
            exposed ^= bit
            for upper, cover in UNCOVERING[pos]:
                if removed & cover == cover:
                    exposed |= 1 << upper
                    to_come[ranks[upper]] -= 1
            waste = ranks[pos]
        elif next_card < stock_size:
            waste = stock[next_card]
            to_come[waste] -= 1
            next_card += 1
        elif wild_held:
            waste = 0
            wild_held = False
            wild_laid = 1
        else:
            break
    cleared = removed.bit_count()
    return cleared, cleared - cleared_before + next_card + wild_laid


def policy_move(view: PlayerView, policy: Policy) -> Move | None:
    """What a policy plays from a player's view; None when the game is over."""
    if view.over:
        return None
    tableau = Tableau(known_ranks(view.tableau), fits_table(view.rules))
    waste = 0 if view.waste_top is None else rank(view.waste_top)
    exposed = exposed_mask(view.removed)
    candidates = exposed & tableau.fit_masks[waste]
    if candidates:
        return policy(candidates, exposed, view.removed, tableau, to_come_in_view(view, exposed))
    return DRAW if view.stock_count else WILD


def to_come_in_view(view: PlayerView, exposed: int) -> list[int]:
    """The cards of each rank still to come, from the player's view: the unseen ones, and the
    ones seen but not in play (a covered card under open peaks or turned before an undo, a stock
    card drawn and put back)."""
    to_come = [0] * (NUM_RANKS + 1)
    covered = [
        card
        for pos, card in enumerate(view.tableau)
        if card is not None and not (view.removed | exposed) >> pos & 1
    ]
    for card in (*view.unseen, *covered, *(card for card in view.stock if card is not None)):
        to_come[rank(card)] += 1
    return to_come
