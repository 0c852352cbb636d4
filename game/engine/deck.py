"""Deck codes (SPEC.md) and deal numbers.

A deck code is the 52 two-character cards concatenated in deal order. A deal number maps to a deck
through a shuffle keyed by a secret of the site, so that nobody without the key can work out a
deal's face-down cards and stock from its number, while one site deals the same cards for the same
number on every version and platform. The shuffle uses only HMAC-SHA256 (RFC 2104, FIPS 180-4),
never a library's random generator, and is written out here so that it can be re-implemented:

1. The key is the site's deal key as UTF-8 bytes; `number` is the deal number (1 .. 2**63-1).
2. Random bytes, in counter mode: block c (c = 0, 1, 2, ...) is
   HMAC-SHA256(key, number as 8 bytes big-endian || c as 4 bytes big-endian), 32 bytes; the
   stream is block 0, then block 1, and so on. It is read four bytes at a time, each read as an
   unsigned 32-bit big-endian integer x.
3. Start from the new-deck order AC..KC, AD..KD, AH..KH, AS..KS (cards 0-51) and shuffle it by
   Fisher-Yates from the top down: for i = 51 down to 1, let n = i + 1; take the next x, and take
   another for as long as x >= 2**32 - (2**32 mod n) (so that every j is equally likely); let
   j = x mod n and swap the cards at positions i and j.
"""

import hashlib
import hmac
from functools import lru_cache

from .cards import DECK_SIZE, card_code, card_from_code

CODE_LENGTH = 2 * DECK_SIZE
MAX_DEAL_NUMBER = 2**63 - 1

DEVELOPMENT_DEAL_KEY = "tripeaks-development-deal-key"
"""The key for development and for the engine's own tools; a site in production has its own."""

_WORD_SPACE = 2**32


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


def _keyed_words(key: str, number: int):
    """Unsigned 32-bit big-endian words of the HMAC-SHA256 counter-mode stream for a number."""
    secret = key.encode()
    prefix = number.to_bytes(8, "big")
    counter = 0
    while True:
        block = hmac.digest(secret, prefix + counter.to_bytes(4, "big"), hashlib.sha256)
        for start in range(0, len(block), 4):
            yield int.from_bytes(block[start : start + 4], "big")
        counter += 1


def _below(words, bound: int) -> int:
    """A uniform whole number in [0, bound): words beyond the largest multiple of bound are
    skipped, since taking them modulo bound would favour the small numbers."""
    limit = _WORD_SPACE - _WORD_SPACE % bound
    word = next(words)
    while word >= limit:
        word = next(words)
    return word % bound


def deck_for_number(number: int, key: str = DEVELOPMENT_DEAL_KEY) -> tuple[int, ...]:
    """The deal for a deal number (1 .. 2**63-1) under a site's deal key: the shuffle above."""
    if not 1 <= number <= MAX_DEAL_NUMBER:
        raise DeckError(f"a deal number is a whole number from 1 to {MAX_DEAL_NUMBER}")
    cards = list(range(DECK_SIZE))
    words = _keyed_words(key, number)
    for i in range(DECK_SIZE - 1, 0, -1):
        j = _below(words, i + 1)
        cards[i], cards[j] = cards[j], cards[i]
    return tuple(cards)
