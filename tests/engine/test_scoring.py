"""Scored play (SPEC.md, "Scoring"): the two systems' maxima on perfect hands, small lines worked
out by hand, and a hand's score as the sum of its steps."""

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from game.engine.deck import deck_for_number, parse_deck
from game.engine.rules import Rules
from game.engine.scoring import (
    CLASSIC,
    HEAD_START_MORE,
    MAXIMUM,
    PYSOL,
    START,
    ScoringError,
    hand_score,
    steps,
    system_named,
)
from game.engine.state import DRAW, WILD, Table
from tests.engine.support import CHAIN_DECK, CHAIN_ORDER, RANKS, deck_with

# Each peak from its base up to its summit, the peaks left to right: every peak is emptied as
# early as it can be, so the later, longer-run cards are doubled as often as they can be.
PEAK_BY_PEAK = [
    *(18, 19, 20, 21, 9, 10, 11, 3, 4, 0),
    *(22, 23, 24, 12, 13, 14, 5, 6, 1),
    *(25, 26, 27, 15, 16, 17, 7, 8, 2),
]
# The waste card an ace, then one rank up at each take: the whole table in one run, no draw.
PERFECT_DECK = deck_with(
    {
        28: "AS",
        **{pos: RANKS[(i + 1) % 13] + "CDH"[(i + 1) // 13] for i, pos in enumerate(PEAK_BY_PEAK)},
    }
)


def test_a_perfect_pysol_hand_scores_its_maximum():
    assert Table.replay(PERFECT_DECK, PEAK_BY_PEAK).won

    assert hand_score(PERFECT_DECK, PEAK_BY_PEAK, PYSOL) == MAXIMUM[PYSOL] == 2336


def test_a_perfect_pysol_hand_with_a_head_start_keeps_one_stock_card_more():
    head_start = Rules(first_waste=False)
    assert Table.replay(PERFECT_DECK, PEAK_BY_PEAK, head_start).stock_count == 24

    most = MAXIMUM[PYSOL] + HEAD_START_MORE
    assert hand_score(PERFECT_DECK, PEAK_BY_PEAK, PYSOL, head_start) == most == 2346


def test_a_perfect_classic_hand_scores_its_maximum():
    assert hand_score(PERFECT_DECK, PEAK_BY_PEAK, CLASSIC) == MAXIMUM[CLASSIC] == 466


def test_emptying_the_peaks_later_scores_less():
    """The chain deck clears the base row first and the summits last."""
    assert hand_score(CHAIN_DECK, CHAIN_ORDER, PYSOL) < MAXIMUM[PYSOL]
    assert hand_score(CHAIN_DECK, CHAIN_ORDER, CLASSIC) == MAXIMUM[CLASSIC]  # one run is all


def test_a_short_pysol_line_worked_out_by_hand():
    # Waste 7S; the base row 8H, 9H, then a draw (6C turned), then 5C and 4C.
    deck = deck_with({28: "7S", 18: "8H", 19: "9H", 20: "5C", 21: "4C", 29: "6C"})
    line = [18, 19, DRAW, 20, 21]

    scored = steps(deck, line, PYSOL)

    assert [step.points for step in scored] == [1, 1, 0, 1, 1]
    assert scored[1].words == "+1, run of 2"
    assert hand_score(deck, line, PYSOL) == START[PYSOL] + 4 == -48


def test_a_pysol_run_doubles_every_four_cards_and_for_each_empty_peak():
    scored = steps(PERFECT_DECK, PEAK_BY_PEAK, PYSOL)

    assert [step.points for step in scored[:9]] == [1, 1, 1, 1, 2, 2, 2, 2, 4]
    # The first summit: card 10 of the run (4) doubled for the peak it empties, and 5 doubled.
    assert scored[9].points == 4 * 2 + 10
    assert scored[9].words == "+18, run of 10, ×2 for an empty peak, +10 for the summit"
    assert scored[10].words == "+8, run of 11, ×2 for an empty peak"
    last = scored[-1]
    assert last.points == 64 * 8 + 40 + 23 * 10
    assert "+230 for 23 cards left in the stock" in last.words


def test_a_short_classic_line_worked_out_by_hand():
    deck = deck_with({28: "7S", 18: "8H", 19: "9H", 20: "5C", 21: "4C", 29: "6C"})
    line = [18, 19, DRAW, 20, 21]

    scored = steps(deck, line, CLASSIC)

    assert [step.points for step in scored] == [1, 2, -5, 1, 2]
    assert scored[2].words == "−5 for the card turned"
    assert hand_score(deck, line, CLASSIC) == 1


def test_classic_summits_add_15_15_and_30():
    scored = steps(PERFECT_DECK, PEAK_BY_PEAK, CLASSIC)
    summits = [scored[PEAK_BY_PEAK.index(summit)] for summit in (0, 1, 2)]

    assert [step.points for step in summits] == [10 + 15, 19 + 15, 28 + 30]
    assert summits[2].words == "+58, run of 28, +30 for the third summit"


@pytest.mark.parametrize("system", [PYSOL, CLASSIC])
def test_the_wild_card_scores_nothing_and_keeps_the_run(system):
    wild = Rules(wild=True)
    with_wild = [*PEAK_BY_PEAK[:6], WILD, *PEAK_BY_PEAK[6:]]

    scored = steps(PERFECT_DECK, with_wild, system, wild)

    assert scored[6].points == 0
    assert scored[:6] + scored[7:] == steps(PERFECT_DECK, PEAK_BY_PEAK, system, wild)
    assert hand_score(PERFECT_DECK, with_wild, system, wild) == MAXIMUM[system]


def test_an_unknown_scoring_is_refused_by_name():
    assert system_named("pysol") == PYSOL
    with pytest.raises(ScoringError, match="unknown scoring 'vegas'"):
        system_named("vegas")
    with pytest.raises(ScoringError) as refused:
        system_named("y" * 60_000)
    assert len(str(refused.value)) < 100, "a long name is not repeated back"


def random_line(number: int, seed: int) -> tuple[tuple[int, ...], list]:
    """A deal and a line of legal takes and draws from it, chosen at random."""
    rng = random.Random(seed)
    table = Table(deck_for_number(number))
    while not table.over:
        takes = table.legal_takes()
        table.apply(rng.choice(takes) if takes and rng.random() < 0.8 else DRAW)
    return table.deck, table.moves


@settings(max_examples=60, deadline=None)
@given(st.integers(1, 10_000), st.integers(0, 2**32), st.sampled_from([PYSOL, CLASSIC]))
def test_a_hands_score_grows_by_exactly_each_steps_points(number, seed, system):
    """A step depends only on the moves up to it: a hand scored so far and then played on adds
    exactly its later steps, so no running total is needed to know the score."""
    deck, line = random_line(number, seed)
    whole = steps(deck, line, system)

    for cut in (0, len(line) // 3, len(line) // 2, len(line)):
        assert steps(deck, line[:cut], system) == whole[:cut]
        later = sum(step.points for step in whole[cut:])
        assert hand_score(deck, line, system) == hand_score(deck, line[:cut], system) + later
    assert START[system] - 5 * len(line) <= hand_score(deck, line, system) <= MAXIMUM[system]


def test_one_card_left_in_the_stock_is_one_card():
    deck = parse_deck(
        "2H3H4H6D5D4D3D2DADJCQCKCQDJDTD9D8D7DAC2C3C4C5C6C7C8C9CTC2SAHAS3S4S5H5S6H6S7H7S8H8S9H9STHTS"
        "JHJSQHQSKHKDKS"
    )
    line = [DRAW] * 22 + CHAIN_ORDER

    last = steps(deck, line, PYSOL)[-1]

    assert "+10 for 1 card left in the stock" in last.words
