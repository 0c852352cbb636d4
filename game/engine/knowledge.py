"""What the player knows about a game, and nothing more.

A hint must not depend on cards the player has never seen, so it works from a `PlayerView`
rather than from a `Table`. The view keeps every card the player has been shown, including cards
that an undo has turned face down again and drawn cards that an undo has put back into the stock
(their places are known too). Cards never shown are only a set: `unseen`, sorted by card index so
that nothing about their deal order can leak through it.
"""

import hashlib
from dataclasses import dataclass

from .cards import DECK_SIZE, rank
from .geometry import TABLEAU_SIZE
from .rules import Rules
from .state import Peaks, Table


@dataclass(frozen=True)
class PlayerView(Peaks):
    rules: Rules
    removed: int
    """Bit p set: tableau position p has been taken."""
    tableau: tuple[int | None, ...]
    """The card at each tableau position still standing if the player has seen it, else None
    (None too for positions already taken)."""
    stock: tuple[int | None, ...]
    """The stock from the next card to turn onwards: a card where the player has seen it there
    (drawn, then undone), else None."""
    waste_top: int | None
    """The card on top of the waste; None while it is empty or shows the wild card."""
    wild_held: bool
    """The player still holds the wild card."""
    unseen: tuple[int, ...]
    """The cards never shown, in card-index order."""

    @property
    def stock_count(self) -> int:
        return len(self.stock)

    @property
    def fully_known(self) -> bool:
        """No face-down card and no stock card the player has not seen."""
        return not self.unseen

    @property
    def nothing_hidden(self) -> bool:
        """Every card known and none face down on the peaks: a card an undo has turned back over
        is known but face down, as the table shows it."""
        return self.fully_known and all(
            self.is_removed(pos) or self.is_face_up(pos) for pos in range(TABLEAU_SIZE)
        )

    def legal_takes(self) -> list[int]:
        fits = self.rules.fits
        top = self.waste_top
        return [
            pos
            for pos in range(TABLEAU_SIZE)
            if not self.is_removed(pos)
            and self.is_uncovered(pos)
            and (top is None or fits(rank(top), rank(self.tableau[pos])))
        ]


def known_ranks(cards) -> list[int]:
    """The rank of each card the player knows, 0 where the card is unknown (or gone)."""
    return [0 if card is None else rank(card) for card in cards]


def view_of(table: Table) -> PlayerView:
    """The player's knowledge of a table: reads the deck only through `Table.known_card`."""
    known = [table.known_card(deck_pos) for deck_pos in range(DECK_SIZE)]
    tableau = tuple(None if table.is_removed(pos) else known[pos] for pos in range(TABLEAU_SIZE))
    seen_cards = {card for card in known if card is not None}
    return PlayerView(
        rules=table.rules,
        removed=table.removed,
        tableau=tableau,
        stock=tuple(known[table.stock_next :]),
        waste_top=table.waste_top,
        wild_held=table.wild_held,
        unseen=tuple(sorted(set(range(DECK_SIZE)) - seen_cards)),
    )


def seed_of(view: PlayerView) -> int:
    """A search seed of the view's own: the same knowledge of a table, in any game and at any
    point of it, imagines the same deals for its unseen cards, so the Hint says the same."""
    return int.from_bytes(hashlib.sha256(repr(view).encode()).digest()[:8], "big")


def known_deck(view: PlayerView) -> tuple[int, ...]:
    """A deck code's worth of cards for a fully known view, laid out as the solver reads a game in
    progress: standing tableau cards at their positions and the stock at the end. Positions whose
    card no longer plays a part (taken cards, the waste) get the remaining cards in index order."""
    if not view.fully_known:
        raise ValueError("the view still has cards the player has not seen")
    stock_next = DECK_SIZE - view.stock_count
    layout: list[int | None] = [*view.tableau, *([None] * (stock_next - TABLEAU_SIZE)), *view.stock]
    leftovers = iter(sorted(set(range(DECK_SIZE)) - {card for card in layout if card is not None}))
    return tuple(next(leftovers) if card is None else card for card in layout)
