"""Hand-built decks for the site and browser tests (CHAIN_DECK, a win by taking in order, lives
with the engine tests)."""

from tests.engine.support import deck_with

DEAD_END_BASE = ["6C", "6D", "6H", "6S", "7C", "7D", "7H", "7S", "8C", "8D"]

DEAD_END_DECK = deck_with({18 + i: code for i, code in enumerate(DEAD_END_BASE)} | {51: "KS"})
"""Base row 6 6 6 6 7 7 7 7 8 8 and a king as the last stock card: drawing the whole stock ends
in a dead end, and nothing fits the first waste card (the ace of clubs) either."""
