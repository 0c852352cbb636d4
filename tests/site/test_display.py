"""The two formats every page shares: a clock time, and a card's face."""

from itertools import product

from game.display import clock, face
from game.engine.cards import RANK_CHARS, SUIT_CHARS, card_from_code

SUIT_ON_THE_FACE = {"C": "\u2663", "D": "\u2666", "H": "\u2665", "S": "\u2660"}


def test_a_clock_time_counts_whole_seconds_as_the_live_clock_does():
    # tripeaks.js floors the milliseconds while the clock ticks: a page never runs ahead of it.
    assert clock(0) == "0:00"
    assert clock(59_999) == "0:59"
    assert clock(60_000) == "1:00"
    assert clock(54_750.5) == "0:54"  # an average is a fraction of a millisecond
    assert clock(62 * 60_000 + 3_000) == "62:03"  # minutes go on past the hour


def test_no_time_is_no_clock_time():
    assert clock(None) is None


def test_every_face_shows_its_cards_rank_suit_words_and_colour():
    for rank, suit in product(RANK_CHARS, SUIT_CHARS):
        shown = face(card_from_code(rank + suit))

        assert shown["code"] == rank + suit
        assert shown["rank"] == ("10" if rank == "T" else rank)
        assert shown["suit"] == SUIT_ON_THE_FACE[suit]
        assert shown["red"] == (suit in "DH")


def test_a_face_is_spoken_in_words():
    assert face(card_from_code("QH"))["label"] == "queen of hearts"
    assert face(card_from_code("TC"))["label"] == "10 of clubs"
    assert face(card_from_code("AS"))["label"] == "ace of spades"
