"""Hand-built decks for the site and browser tests (CHAIN_DECK, a win by taking in order, lives
with the engine tests)."""

from tests.engine.support import deck_with

DEAD_END_BASE = ["6C", "6D", "6H", "6S", "7C", "7D", "7H", "7S", "8C", "8D"]

DEAD_END_DECK = deck_with({18 + i: code for i, code in enumerate(DEAD_END_BASE)} | {51: "KS"})
"""Base row 6 6 6 6 7 7 7 7 8 8 and a king as the last stock card: drawing the whole stock ends
in a dead end, and nothing fits the first waste card (the ace of clubs) either."""

KNOWN_LOSS_ORDER = [*range(18, 28), *range(9, 18), *range(3, 9)]
KNOWN_LOSS_DECK = deck_with(
    {pos: "A23456789TJQK"[i % 13] + "CD"[i // 13] for i, pos in enumerate(KNOWN_LOSS_ORDER)}
    | {0: "KH", 1: "5H", 2: "5S", 51: "KS"}
)
"""Draw the whole stock (it ends on a king), then take the 25 cards under the summits in
KNOWN_LOSS_ORDER (A, 2, ... K, A, ... Q): every card has been shown, the summits are K 5 5, and
only the king fits the queen. Everything is known, one move is left, and the deal is lost."""

LAST_CHANCE_STOCK = ["KC", "KD", "KH", "KS", "JC", "JH", "JS", "9H"]
LAST_CHANCE_DECK = deck_with(
    {18: "TC", 19: "QC", 20: "JD"}
    | {21 + i: code for i, code in enumerate(["5C", "5D", "5H", "5S", "4C", "4D", "4H"])}
    | {28: "9S"}
    | {29 + i: code for i, code in enumerate(LAST_CHANCE_STOCK)}
)
"""Draw the eight stock cards listed (every king, the other jacks, then the 9 of hearts), take
the 10 of clubs (18) and the jack of diamonds (20): the queen of clubs (19) is the one card that
fits, it turns over two cards, and no card left can ever take it again. Its hint's reason is
about as long as a reason gets."""
