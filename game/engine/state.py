"""A TriPeaks game in play: take, draw, the wild card and unlimited undo, with knowledge that never
goes back."""

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from .cards import DECK_SIZE, rank
from .geometry import COVER_MASK, COVERS, FIRST_WASTE, TABLEAU_SIZE
from .rules import STANDARD, Rules

NOT_ONE_RANK = "that card is not one rank from the waste card"
NO_WRAP = "K and A do not connect in this game"
STILL_COVERED = "that card is still covered"
STILL_FACE_DOWN = "that card is still face down"
STOCK_EMPTY = "no cards left to turn"
ALREADY_TAKEN = "that card is no longer on the table"
NOTHING_TO_UNDO = "nothing to undo"
NO_WILD_CARD = "these rules have no wild card"
WILD_ALREADY_PLAYED = "the wild card has already been played"

DRAW = "draw"
WILD = "wild"
UNDO = "undo"

Move = int | str
"""A tableau position 0-27 (take that card), "draw", or "wild" (lay the wild card)."""

ALL_REMOVED = (1 << TABLEAU_SIZE) - 1


class IllegalAction(ValueError):
    """An action in a replayed log that the rules refuse."""


@dataclass(frozen=True)
class _Played:
    move: Move
    run_before: int
    longest_before: int


class Peaks:
    """What a table shows of its peak cards, from the bits of the cards taken (`removed`) and the
    rules: shared by the table and by a player's view of it, each of which says how many cards
    are left in the stock (`stock_count`) and which cards may be taken (`legal_takes`)."""

    removed: int
    rules: Rules
    wild_held: bool
    """The player still holds the wild card (only under rules with one)."""

    @property
    def won(self) -> bool:
        return self.removed == ALL_REMOVED

    @property
    def dead_end(self) -> bool:
        return (
            not self.won and not self.stock_count and not self.wild_held and not self.legal_takes()
        )

    @property
    def over(self) -> bool:
        return self.won or self.dead_end

    def is_removed(self, pos: int) -> bool:
        return bool(self.removed >> pos & 1)

    def is_uncovered(self, pos: int) -> bool:
        return self.removed & COVER_MASK[pos] == COVER_MASK[pos]

    def is_face_up(self, pos: int) -> bool:
        return not self.is_removed(pos) and (self.rules.open_peaks or self.is_uncovered(pos))

    def legal_moves(self) -> list[Move]:
        """Every move the rules allow now: takes, then drawing, then laying the wild card."""
        return [
            *self.legal_takes(),
            *([DRAW] if self.stock_count else []),
            *([WILD] if self.wild_held else []),
        ]


class Table(Peaks):
    def __init__(self, deck: Sequence[int], rules: Rules = STANDARD):
        if sorted(deck) != list(range(DECK_SIZE)):
            raise ValueError("a deck holds each of the 52 cards exactly once")
        self.deck = tuple(deck)
        self.rules = rules
        self.removed = 0
        """Bit p set: tableau position p has been taken."""
        self.stock_next = FIRST_WASTE
        """Deck position of the next card to turn; the stock is deck[stock_next:]."""
        self.waste: list[int | None] = []
        """Cards laid on the waste, bottom first; None stands for the wild card."""
        self.wild_held = rules.wild
        self.run = 0
        self.longest_run = 0
        self._history: list[_Played] = []
        self.seen: set[int] = set()
        """Deck positions of every card ever shown; never shrinks."""
        shown = range(TABLEAU_SIZE) if rules.open_peaks else range(18, TABLEAU_SIZE)
        self.seen.update(shown)
        if rules.first_waste:
            self._turn_stock_card()

    @classmethod
    def replay(cls, deck: Sequence[int], actions: Iterable[Move], rules: Rules = STANDARD):
        """Rebuild a table from its deal and its log of takes, draws and undos."""
        table = cls(deck, rules)
        for action in actions:
            refusal = table.apply(action)
            if refusal:
                raise IllegalAction(f"{action!r}: {refusal}")
        return table

    def apply(self, action: Move) -> str | None:
        """Play one logged action; returns the refusal reason, or None when it was played."""
        if action == DRAW:
            return self.draw()
        if action == UNDO:
            return self.undo()
        if action == WILD:
            return self.play_wild()
        if isinstance(action, int) and not isinstance(action, bool):
            return self.take(action)
        raise ValueError(f"unknown action {action!r}")

    # What the table shows

    def known_card(self, deck_pos: int) -> int | None:
        """The card at a deck position if it has ever been shown, else None."""
        return self.deck[deck_pos] if deck_pos in self.seen else None

    @property
    def waste_top(self) -> int | None:
        """The card on top of the waste; None while the waste is empty or the wild card is on
        top, and then any card fits onto it."""
        return self.waste[-1] if self.waste else None

    @property
    def wild_on_waste(self) -> bool:
        return bool(self.waste) and self.waste[-1] is None

    @property
    def stock_count(self) -> int:
        return DECK_SIZE - self.stock_next

    @property
    def cleared(self) -> int:
        return self.removed.bit_count()

    @property
    def moves(self) -> list[Move]:
        """The moves that lead from the deal to this table (undone moves left out)."""
        return [played.move for played in self._history]

    def refusal(self, pos: int) -> str | None:
        """Why taking the card at pos would be refused, or None if it may be taken."""
        if not 0 <= pos < TABLEAU_SIZE:
            raise ValueError(f"tableau positions are 0-{TABLEAU_SIZE - 1}, not {pos}")
        if self.is_removed(pos):
            return ALREADY_TAKEN
        if not self.is_uncovered(pos):
            untouched = not self.removed & COVER_MASK[pos]
            if untouched and not self.is_face_up(pos):
                return STILL_FACE_DOWN
            return STILL_COVERED
        top = self.waste_top
        if top is not None and not self.rules.fits(rank(top), rank(self.deck[pos])):
            # Where K and A would connect but for these rules, the rule is the reason.
            return NO_WRAP if STANDARD.fits(rank(top), rank(self.deck[pos])) else NOT_ONE_RANK
        return None

    def legal_takes(self) -> list[int]:
        return [pos for pos in range(TABLEAU_SIZE) if self.refusal(pos) is None]

    # Moves

    def take(self, pos: int) -> str | None:
        reason = self.refusal(pos)
        if reason:
            return reason
        self._history.append(_Played(pos, self.run, self.longest_run))
        self.removed |= 1 << pos
        self.waste.append(self.deck[pos])
        self.run += 1
        self.longest_run = max(self.longest_run, self.run)
        self.seen.update(upper for upper in COVERS[pos] if self.is_uncovered(upper))
        return None

    def draw(self) -> str | None:
        if not self.stock_count:
            return STOCK_EMPTY
        self._history.append(_Played(DRAW, self.run, self.longest_run))
        self._turn_stock_card()
        self.run = 0
        return None

    def play_wild(self) -> str | None:
        """Lay the wild card on the waste: it neither scores nor ends the run."""
        if not self.rules.wild:
            return NO_WILD_CARD
        if not self.wild_held:
            return WILD_ALREADY_PLAYED
        self._history.append(_Played(WILD, self.run, self.longest_run))
        self.waste.append(None)
        self.wild_held = False
        return None

    def undo(self) -> str | None:
        if not self._history:
            return NOTHING_TO_UNDO
        played = self._history.pop()
        self.waste.pop()
        if played.move == DRAW:
            self.stock_next -= 1
        elif played.move == WILD:
            self.wild_held = True
        else:
            self.removed &= ~(1 << played.move)
        self.run = played.run_before
        self.longest_run = played.longest_before
        return None

    def _turn_stock_card(self) -> None:
        self.seen.add(self.stock_next)
        self.waste.append(self.deck[self.stock_next])
        self.stock_next += 1

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Table):
            return NotImplemented
        return self.__dict__ == other.__dict__

    __hash__ = None
