"""Exact full-information solver: from any position, find a winning line or prove there is none.

A position is (removed tableau positions, deck index of the next stock card, waste rank, whether
the wild card is still held). Every move removes a tableau card, spends a stock card or spends
the wild card, so positions never repeat.

Stock dominance. A player at (removed, s, waste) can copy any line played from (removed, s + 1,
waste): the same takes, with the first draw of that line made as two draws, after which both
tables are identical. So having more stock left never hurts: a position lost at s is lost at every
later s, and for each (removed, waste) only the earliest stock index matters.

The wild card. Holding it never hurts either (a line that never lays it is open to its holder),
and once laid it only matters to the next move: any card fits onto it, and a draw would bury it
unused. So the solver lays it only as part of a wild take, the wild card and at once an uncovered
card that does not fit the waste (one that fits needs no wild card). For each (removed, waste) it
keeps the earliest stock index twice, with the wild card held and with it spent.

The solve runs in up to three stages, each cheap enough to try before the next:

1. A depth-first search that tries the takes that uncover the most cards first, then draws, then
   wild takes, with a table that keeps, per (removed, waste, wild card held), the earliest stock
   index proven lost. It finds the line of most winnable deals within a few hundred positions and
   decides small positions outright.
2. A beam sweep (the sweep below, keeping only the tables of each level that have spent the
   least stock) finds most of the wins the first stage missed. It never claims a loss.
3. The full sweep decides the position exactly. Level by level (one level per card taken) it
   computes every (removed, waste, wild card held) the player can reach and the earliest stock
   index at which it can be reached; by stock dominance that is all there is to know. A table has
   only 22,932 removed sets that can occur, so the sweep is bounded however hard the deal is. The
   position is won exactly when the empty table is reached, and lost when a level comes up empty.
   The last level reached then holds the tables that clear the most cards; walked back from one,
   the sweep gives a line that takes as many as any (`most_cleared`, for the lost deal's hint).
"""

import heapq
import time
from collections.abc import Sequence
from dataclasses import dataclass

from .cards import rank
from .geometry import COVER_MASK, COVERS, FIRST_WASTE, TABLEAU_SIZE
from .rules import NUM_RANKS, STANDARD, Rules
from .state import ALL_REMOVED, DRAW, WILD, Move, Table

DECK_END = 52
NEVER = DECK_END + 1
"""A stock index beyond any real one: "not reachable" in the sweep, "not lost" in the table."""

EMPTY_WASTE = 0
"""Waste rank slot for an empty waste (only before the first move without first_waste)."""
NO_RANK = NUM_RANKS + 1
"""A waste rank slot that is never reachable, to pad the ranks that fit A or K without wrap."""
SLOTS = NUM_RANKS + 2
"""Waste slots of one layer: with a wild card the sweep keeps a layer with it held (slots
0..SLOTS-1) and one with it spent (SLOTS..2*SLOTS-1)."""
WILD_HELD_BIT = 1 << TABLEAU_SIZE + 4
"""In the depth-first table's keys, above the removed bits and the waste rank."""

DEPTH_FIRST_NODES = 500
"""Positions the depth-first stage may visit before the sweeps take over."""
BEAM_WIDTH = 32
"""Tables per level the beam sweep keeps."""
CLOCK_CHECK_EVERY = 1024
"""Positions between looks at the clock: reading it every time would cost more than the search."""

_DEAL = object()
"""Default for waste_card: the waste of the deal."""


@dataclass(frozen=True)
class Solution:
    result: str
    """"win", "loss" (proven) or "unknown" (the budget ran out first)."""
    moves: tuple[Move, ...]
    """A winning line from the given position; empty unless result is "win"."""
    nodes: int
    """Positions examined (tables, in the sweeps), over all stages. With max_nodes alone as the
    budget the work, and so the answer, is the same on every run."""
    ms: float
    """Wall-clock time of the solve."""


_exposed_cache: dict[int, tuple[int, ...]] = {}


def _exposed(removed: int) -> tuple[int, ...]:
    """The positions of the cards that may be taken from this table (uncovered, still there).
    The same few thousand tables recur in every deal, so the answers are kept for the life of
    the process (about 23,000 tables, a few megabytes at most)."""
    exposed = _exposed_cache.get(removed)
    if exposed is None:
        exposed = _exposed_cache[removed] = tuple(
            pos
            for pos in range(TABLEAU_SIZE)
            if not removed >> pos & 1 and COVER_MASK[pos] & removed == COVER_MASK[pos]
        )
    return exposed


def solve(
    deck: Sequence[int],
    rules: Rules = STANDARD,
    *,
    removed: int = 0,
    stock_next: int | None = None,
    waste_card=_DEAL,
    wild_held: bool | None = None,
    max_nodes: int | None = None,
    budget_ms: float | None = None,
) -> Solution:
    """Solve the position given by the deal, the removed tableau bits, the deck index of the next
    stock card, the waste top card (None: an empty waste, or the wild card on it) and whether the
    wild card is still held. Omitted, they are the deal's own. max_nodes and budget_ms bound the
    work; when either runs out the result is "unknown"."""
    started = time.perf_counter()
    if wild_held is None:
        wild_held = rules.wild
    elif wild_held and not rules.wild:
        raise ValueError(f"the rules {rules.name!r} have no wild card")
    if stock_next is None:
        stock_next = FIRST_WASTE + 1 if rules.first_waste else FIRST_WASTE
    if waste_card is _DEAL:
        waste_card = deck[FIRST_WASTE] if rules.first_waste else None
    waste_rank = EMPTY_WASTE if waste_card is None else rank(waste_card)
    deadline = None if budget_ms is None else started + budget_ms / 1000
    budget = _Budget(max_nodes, deadline)
    try:
        line = _decide(_Deal(deck, rules), budget, (removed, stock_next, waste_rank, wild_held))
        result = "loss" if line is None else "win"
    except _OutOfBudget:
        result, line = "unknown", None
    ms = (time.perf_counter() - started) * 1000
    return Solution(result, tuple(line or ()), budget.nodes, ms)


def solve_table(table: Table, **budget) -> Solution:
    """Solve from a live table's current position (max_nodes / budget_ms as for solve)."""
    return solve(
        table.deck,
        table.rules,
        removed=table.removed,
        stock_next=table.stock_next,
        waste_card=table.waste_top,
        wild_held=table.wild_held,
        **budget,
    )


def most_cleared(
    deck: Sequence[int],
    rules: Rules = STANDARD,
    *,
    removed: int,
    stock_next: int,
    waste_card,
    wild_held: bool,
    max_nodes: int | None = None,
    budget_ms: float | None = None,
) -> tuple[Move, ...] | None:
    """A line from the position (given as to solve) that takes as many cards as any line can:
    to the last level the full sweep reaches. None when the budget runs out first."""
    deadline = None if budget_ms is None else time.perf_counter() + budget_ms / 1000
    budget = _Budget(max_nodes, deadline)
    waste_rank = EMPTY_WASTE if waste_card is None else rank(waste_card)
    deal = _Deal(deck, rules)
    try:
        levels = _levels(deal, budget, removed, stock_next, waste_rank, wild_held)
    except _OutOfBudget:
        return None
    if not levels[-1]:
        levels.pop()
    return tuple(_line_back(deal, levels, min(levels[-1])))


def _decide(deal, budget, position):
    """The winning line from (removed, stock_next, waste_rank, wild_held), or None when it is
    lost."""
    try:
        return _DepthFirst(deal, budget).solve(*position)
    except _GaveUp:
        pass
    line = _sweep(deal, budget, *position, beam_width=BEAM_WIDTH)
    if line is not None:
        return line
    return _sweep(deal, budget, *position)


class _OutOfBudget(Exception):
    pass


class _Budget:
    def __init__(self, max_nodes, deadline):
        self.nodes = 0
        self.max_nodes = max_nodes
        self.deadline = deadline
        self.next_clock_check = CLOCK_CHECK_EVERY

    def spend(self, nodes: int) -> None:
        """Count work about to be done, or stop the solve if it would go over budget."""
        if self.max_nodes is not None and self.nodes + nodes > self.max_nodes:
            raise _OutOfBudget
        self.nodes += nodes
        if self.nodes >= self.next_clock_check:
            self.next_clock_check = self.nodes + CLOCK_CHECK_EVERY
            if self.deadline is not None and time.perf_counter() >= self.deadline:
                raise _OutOfBudget


class _Deal:
    """Tables built once per solve from the deck and the rules."""

    def __init__(self, deck: Sequence[int], rules: Rules):
        self.ranks = ranks = [rank(card) for card in deck]
        fitting = [
            tuple(other for other in range(1, NUM_RANKS + 1) if rules.fits(r, other))
            for r in range(NUM_RANKS + 1)
        ]
        self.waste_slots = [()] + [
            (*fitting[r], EMPTY_WASTE, NO_RANK)[:3] for r in range(1, NUM_RANKS + 1)
        ]
        """waste_slots[r]: the waste slots a card of rank r may be taken onto, padded to three."""
        rank_mask = [0] * (NUM_RANKS + 1)
        for pos in range(TABLEAU_SIZE):
            rank_mask[ranks[pos]] |= 1 << pos
        self.fit_mask = [ALL_REMOVED] + [
            sum(rank_mask[other] for other in fitting[r]) for r in range(1, NUM_RANKS + 1)
        ]
        """fit_mask[r]: tableau positions whose card may go onto waste rank r (any if empty)."""
        self.reached_by_drawing = self._reached_by_drawing(ranks)
        take_slots = [(ranks[pos], *self.waste_slots[ranks[pos]]) for pos in range(TABLEAU_SIZE)]
        self.layers = (
            (take_slots, 0, SLOTS),
            ([tuple(SLOTS + slot for slot in slots) for slots in take_slots], SLOTS, 2 * SLOTS),
        )
        """Per layer of the sweep (wild card held, then spent): for each position, the slot its
        card lands in and the three slots it may be taken from, and the layer's slot range."""
        self.take_by_drawing = [
            [NEVER]
            + [min(row[slot] for slot in self.waste_slots[r]) for r in range(1, NUM_RANKS + 1)]
            + [NEVER]
            for row in self.reached_by_drawing
        ]
        """take_by_drawing[s][r]: the earliest stock index, drawing on from s, at which a card of
        rank r fits the waste; repeated for the second layer's slots."""
        for row in self.take_by_drawing:
            row *= 2

    @staticmethod
    def _reached_by_drawing(ranks):
        """reached_by_drawing[s][r]: the earliest stock index after drawing from s until the
        waste shows rank r, or NEVER."""
        table = [[NEVER] * SLOTS for _ in range(DECK_END + 1)]
        for s in range(DECK_END - 1, FIRST_WASTE - 1, -1):
            table[s] = table[s + 1].copy()
            table[s][ranks[s]] = s + 1
        return table


class _DepthFirst:
    """Stage 1: depth-first search, best moves first, with a table of proven-lost positions."""

    def __init__(self, deal: _Deal, budget: _Budget):
        self.deal = deal
        self.budget = budget
        self.nodes_left = DEPTH_FIRST_NODES
        self.lost_from: dict[int, int] = {}
        """(removed, waste rank, wild card held) packed into one int -> earliest stock index
        proven lost."""
        self.line: list[Move] = []

    def solve(self, removed, stock_next, waste_rank, wild_held):
        """The winning line, or None if lost; _GaveUp past DEPTH_FIRST_NODES positions."""
        won = self._search(removed, stock_next, waste_rank, wild_held)
        return self.line[::-1] if won else None

    def _search(self, removed, stock_next, waste_rank, wild_held):
        """Whether the position is won; on a win, self.line holds the line in reverse."""
        self.budget.spend(1)
        self.nodes_left -= 1
        if not self.nodes_left:
            raise _GaveUp
        if removed == ALL_REMOVED:
            return True
        key = removed | waste_rank << TABLEAU_SIZE | (WILD_HELD_BIT if wild_held else 0)
        if stock_next >= self.lost_from.get(key, NEVER):
            return False
        # A position lost with the wild card held is lost without it too.
        if not wild_held and stock_next >= self.lost_from.get(key | WILD_HELD_BIT, NEVER):
            return False
        for moves, child_removed, child_stock, child_rank, child_wild in self._children(
            removed, stock_next, waste_rank, wild_held
        ):
            if self._search(child_removed, child_stock, child_rank, child_wild):
                self.line.extend(reversed(moves))
                return True
        self.lost_from[key] = stock_next
        return False

    def _children(self, removed, stock_next, waste_rank, wild_held):
        """Moves in the order worth trying: takes that uncover the most cards first, then the
        draw, then wild takes (the same order among them)."""
        ranks = self.deal.ranks
        fitting = self.deal.fit_mask[waste_rank]
        takes = []
        wild_takes = []
        candidates = (ALL_REMOVED if wild_held else fitting) & ~removed
        while candidates:
            low = candidates & -candidates
            candidates ^= low
            pos = low.bit_length() - 1
            if COVER_MASK[pos] & removed != COVER_MASK[pos]:
                continue
            after = removed | low
            uncovered = sum(
                1 for upper in COVERS[pos] if COVER_MASK[upper] & after == COVER_MASK[upper]
            )
            (takes if fitting & low else wild_takes).append((-uncovered, pos, after))
        takes.sort()
        wild_takes.sort()
        children = [((pos,), after, stock_next, ranks[pos], wild_held) for _, pos, after in takes]
        if stock_next < DECK_END:
            children.append(((DRAW,), removed, stock_next + 1, ranks[stock_next], wild_held))
        children.extend(
            ((WILD, pos), after, stock_next, ranks[pos], False) for _, pos, after in wild_takes
        )
        return children


class _GaveUp(Exception):
    """The depth-first stage reached its own limit without deciding the position."""


def _sweep(deal: _Deal, budget: _Budget, *position, beam_width=None):
    """The winning line, or None: the position is lost, or with a beam_width the narrowed
    sweep did not find a win."""
    levels = _levels(deal, budget, *position, beam_width=beam_width)
    if not levels[-1]:
        return None
    return _line_back(deal, levels, ALL_REMOVED)


def _levels(
    deal: _Deal, budget: _Budget, removed, stock_next, waste_rank, wild_held, beam_width=None
) -> list[dict[int, list[int]]]:
    """The sweep's levels, up to the empty table or the first empty level.

    levels[k] maps each table reachable with k more cards taken to its earliest stock indices,
    one slot per waste rank (NEVER where that waste rank cannot be had), in one layer, or in two
    while the wild card is held (held, then spent). A beam keeps only the beam_width tables of
    each level that have spent the least stock."""
    layers = deal.layers if wild_held else deal.layers[:1]
    width = SLOTS * len(layers)
    start = [NEVER] * width
    start[waste_rank] = stock_next
    levels = [{removed: start}]
    take_by_drawing = deal.take_by_drawing
    ranks = deal.ranks
    while levels[-1] and ALL_REMOVED not in levels[-1]:
        level = levels[-1]
        budget.spend(len(level))
        following: dict[int, list[int]] = {}
        for table, earliest in level.items():
            exposed = _exposed_cache.get(table) or _exposed(table)
            # With the wild card spent, a position no earlier than the held layer's earliest
            # is worth nothing: a wild take from there reaches whatever it would, as early.
            held_first = NEVER
            for take_slots, low, high in layers:
                # From the layer's earliest position the player may draw on to any later stock
                # card and take onto that; by_drawing[slot] is the earliest that allows a rank.
                first = min(earliest[low:high])
                if first >= held_first:
                    continue
                by_drawing = take_by_drawing[first]
                for pos in exposed:
                    slot, slot_a, slot_b, slot_c = take_slots[pos]
                    reached = min(
                        earliest[slot_a], earliest[slot_b], earliest[slot_c], by_drawing[slot]
                    )
                    if reached >= held_first:
                        continue
                    after = table | 1 << pos
                    slots = following.get(after)
                    if slots is None:
                        slots = following[after] = [NEVER] * width
                    if reached < slots[slot]:
                        slots[slot] = reached
                if not low:
                    held_first = first
            if wild_held and held_first != NEVER:
                # A wild take, from the held layer's earliest position, of any uncovered card
                # (none needed where the card could be taken there with the wild card kept).
                for pos in exposed:
                    after = table | 1 << pos
                    slots = following.get(after)
                    if slots is None:
                        slots = following[after] = [NEVER] * width
                    elif slots[ranks[pos]] <= held_first:
                        continue
                    slot = SLOTS + ranks[pos]
                    if held_first < slots[slot]:
                        slots[slot] = held_first
        if beam_width is not None and len(following) > beam_width:
            following = dict(heapq.nsmallest(beam_width, following.items(), key=_stock_spent))
        levels.append(following)
    return levels


def _stock_spent(entry):
    return min(entry[1])


def _line_back(deal: _Deal, levels, table: int):
    """Walk the sweep's levels back from `table`, in the last of them, to the start, collecting
    the moves."""
    earliest = levels[-1][table]
    stock_index = min(earliest)
    slot = earliest.index(stock_index)
    line: list[Move] = []
    for depth in range(len(levels) - 1, 0, -1):
        pos, table, slot, wild_take = _last_take(deal, levels[depth - 1], table, stock_index, slot)
        line.append(pos)
        before_earliest = levels[depth - 1][table]
        if wild_take:
            line.append(WILD)
        elif before_earliest[slot] != stock_index:
            # That waste rank came from drawing on from the layer's earliest position.
            low = slot - slot % SLOTS
            layer = before_earliest[low : low + SLOTS]
            first = min(layer)
            line.extend([DRAW] * (stock_index - first))
            stock_index, slot = first, low + layer.index(first)
    return line[::-1]


def _last_take(deal: _Deal, level_before, table, stock_index, slot):
    """The take that led to (table, stock_index, slot) from the level before: the card on the
    waste, the table before it, the slot it was taken from at that stock index and whether it
    was a wild take."""
    low = slot - slot % SLOTS
    waste_rank = slot - low
    for pos in range(TABLEAU_SIZE):
        before = table & ~(1 << pos)
        if deal.ranks[pos] != waste_rank or before == table or before not in level_before:
            continue
        if COVER_MASK[pos] & before != COVER_MASK[pos]:
            continue
        earliest = level_before[before]
        layer = earliest[low : low + SLOTS]
        if min(layer) != NEVER:
            with_draws = list(map(min, layer, deal.reached_by_drawing[min(layer)]))
            for taken_from in deal.waste_slots[waste_rank]:
                if with_draws[taken_from] == stock_index:
                    return pos, before, low + taken_from, False
        if low and min(earliest[:SLOTS]) == stock_index:
            return pos, before, earliest.index(stock_index), True
    raise AssertionError("the sweep recorded a position it cannot explain")
