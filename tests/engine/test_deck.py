import pytest

from game.engine.cards import card_code, card_from_code, card_label, rank
from game.engine.deck import DeckError, deck_for_number, format_deck, parse_deck

NEW_DECK = "".join(r + s for s in "CDHS" for r in "A23456789TJQK")


def test_card_codes_round_trip():
    assert [card_code(c) for c in range(52)] == [NEW_DECK[i : i + 2] for i in range(0, 104, 2)]
    assert card_from_code("7h") == card_from_code("7H")
    assert rank(card_from_code("AS")) == 1 and rank(card_from_code("KD")) == 13
    assert card_label(card_from_code("7H")) == "7 of hearts"
    assert card_label(card_from_code("TS")) == "10 of spades"


def test_parse_accepts_either_case_and_white_space():
    spaced = " ".join(NEW_DECK[i : i + 2].lower() for i in range(0, 104, 2))
    assert format_deck(parse_deck(spaced + "\n")) == NEW_DECK
    assert parse_deck(NEW_DECK) == tuple(range(52))


@pytest.mark.parametrize(
    ("code", "message"),
    [
        (NEW_DECK[:-2], "wrong length: a deck code has 104 characters (52 cards), got 102"),
        (NEW_DECK + "AC", "wrong length: a deck code has 104 characters (52 cards), got 106"),
        ("", "wrong length: a deck code has 104 characters (52 cards), got 0"),
        (NEW_DECK[:20] + "1C" + NEW_DECK[22:], "bad card '1C' at position 10"),
        (NEW_DECK[:20] + "X!" + NEW_DECK[22:], "bad card 'X!' at position 10"),
        # A letter that upper() turns into a suit's (the long s) is still not a card.
        (
            NEW_DECK[:79] + "\N{LATIN SMALL LETTER LONG S}" + NEW_DECK[80:],
            "bad card 'Aſ' at position 39",
        ),
        ("AC" * 52, "duplicate card AC at position 1 (already at position 0)"),
    ],
)
def test_parse_errors_name_the_problem(code, message):
    with pytest.raises(DeckError) as error:
        parse_deck(code)
    assert str(error.value) == message


def test_deal_numbers_are_fixed_shuffles():
    first = deck_for_number(1)
    assert sorted(first) == list(range(52))
    assert deck_for_number(1) == first != deck_for_number(2)
    # Pinned so that a change to the documented shuffle cannot pass unnoticed.
    assert format_deck(first) == (
        "QDKD9D3C3DASTC6D3H5H4C6H3S8HKHAH4H7S2C6C8CADTD9C5STSJCQCKSTH2DQS4S8DKC4DAC2H8SJDJS7CQH5D7H"
        "JH9S5C9H6S7D2S"
    )
    assert len({deck_for_number(n) for n in range(1, 200)}) == 199


@pytest.mark.parametrize("number", [0, -3, 2**63])
def test_deal_numbers_out_of_range_are_refused(number):
    with pytest.raises(DeckError, match="a deal number is a whole number from 1 to"):
        deck_for_number(number)
