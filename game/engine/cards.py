"""Cards as small integers: index = suit * 13 + rank - 1, so 0..51 in new-deck order."""

RANK_CHARS = "A23456789TJQK"
SUIT_CHARS = "CDHS"
RANK_NAMES = ("ace", "2", "3", "4", "5", "6", "7", "8", "9", "10", "jack", "queen", "king")
SUIT_NAMES = ("clubs", "diamonds", "hearts", "spades")
SUIT_SYMBOLS = ("\u2663", "\u2666", "\u2665", "\u2660")
DECK_SIZE = 52


def rank(card: int) -> int:
    """A=1 ... K=13."""
    return card % 13 + 1


def suit(card: int) -> int:
    return card // 13


def card_code(card: int) -> str:
    """Two characters, rank then suit: 7H, TS, AC."""
    return RANK_CHARS[card % 13] + SUIT_CHARS[card // 13]


def card_from_code(code: str) -> int:
    """Parse a two-character code in either case; ValueError if it is not a card."""
    # ASCII only: upper() would read some other letters as these ("ſ" as S).
    if len(code) != 2 or not code.isascii():
        raise ValueError(f"{code!r} is not a card")
    r = RANK_CHARS.find(code[0].upper())
    s = SUIT_CHARS.find(code[1].upper())
    if r < 0 or s < 0:
        raise ValueError(f"{code!r} is not a card")
    return s * 13 + r


def rank_symbol(card: int) -> str:
    """What a card face shows of its rank: A, 2 ... 10, J, Q, K."""
    return RANK_CHARS[card % 13].replace("T", "10")


def card_label(card: int) -> str:
    """What a screen reader says: '7 of hearts'."""
    return f"{RANK_NAMES[card % 13]} of {SUIT_NAMES[card // 13]}"


def is_red(card: int) -> bool:
    return suit(card) in (1, 2)
