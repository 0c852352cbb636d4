"""A game's log as staff read it: one line per entry, with the card each take took."""

from dataclasses import dataclass
from datetime import datetime

from game.engine.cards import card_code
from game.models import Action


@dataclass(frozen=True)
class LogEntry:
    seq: int
    kind: str
    card: str
    """The card taken, for a take; empty otherwise."""
    at: datetime


def log_entries(deck: tuple[int, ...], actions: list[Action]) -> list[LogEntry]:
    return [
        LogEntry(action.seq, action.get_kind_display(), card_taken(deck, action), action.at)
        for action in actions
    ]


def card_taken(deck: tuple[int, ...], action: Action) -> str:
    """The code of the card a take took; empty for any other entry."""
    return card_code(deck[action.pos]) if action.pos is not None else ""
