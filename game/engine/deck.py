"""Deck codes (SPEC.md) and deal numbers.

A deck code is the 52 two-character cards concatenated in deal order. A deal number maps to a deck
by a shuffle written out here so that it never changes: a 64-bit linear congruential generator
(Knuth's MMIX constants) seeded with the number drives a Fisher-Yates shuffle of the new-deck
order AC..KC, AD..KD, AH..KH, AS..KS.
"""

from functools import lru_cache

from .cards import DECK_SIZE, card_code, card_from_code

CODE_LENGTH = 2 * DECK_SIZE
MAX_DEAL_NUMBER = 2**63 - 1

_LCG_MULTIPLIER = 6364136223846793005
_LCG_INCREMENT = 1442695040888963407
_MASK64 = 2**64 - 1


class DeckError(ValueError):
    """A deck code or deal number that is not valid; the message names the problem."""


@lru_cache(maxsize=1024)
def parse_deck(code: str) -> tuple[int, ...]:
    """Cards in deal order from a deck code, in either case, white space ignored. Remembered for
    the codes in use: the site rebuilds a table from its deck code on every move."""
    compact = "".join(code.split())
    if len(compact) != CODE_LENGTH:
        raise DeckError(
            f"wrong length: a deck code has {CODE_LENGTH} characters (52 cards), got {len(compact)}"
        )
    cards: list[int] = []
    first_seen: dict[int, int] = {}
    for i in range(DECK_SIZE):
        text = compact[2 * i : 2 * i + 2]
        try:
            card = card_from_code(text)
        except ValueError:
            raise DeckError(f"bad card {text!r} at position {i}") from None
        if card in first_seen:
            raise DeckError(
                f"duplicate card {card_code(card)} at position {i} "
                f"(already at position {first_seen[card]})"
            )
        first_seen[card] = i
        cards.append(card)
    return tuple(cards)


def format_deck(cards: tuple[int, ...] | list[int]) -> str:
    return "".join(card_code(card) for card in cards)


def _lcg_outputs(seed: int):
    """High 32 bits of each successive 64-bit LCG state."""
    state = seed & _MASK64
    while True:
        state = (state * _LCG_MULTIPLIER + _LCG_INCREMENT) & _MASK64
        yield state >> 32


def deck_for_number(number: int) -> tuple[int, ...]:
    """The deal for a deal number (1 .. 2**63-1): Fisher-Yates from the top of the deck down,
    swapping card i with card j = (next32 * (i + 1)) >> 32."""
    if not 1 <= number <= MAX_DEAL_NUMBER:
        raise DeckError(f"a deal number is a whole number from 1 to {MAX_DEAL_NUMBER}")
    cards = list(range(DECK_SIZE))
    outputs = _lcg_outputs(number)
    for i in range(DECK_SIZE - 1, 0, -1):
        j = (next(outputs) * (i + 1)) >> 32
        cards[i], cards[j] = cards[j], cards[i]
    return tuple(cards)
