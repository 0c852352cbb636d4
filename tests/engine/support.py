"""Hand-built decks, comparisons and command calls for engine tests."""

import io
import json

import pytest
from django.core.management import call_command

from game.engine.cards import card_from_code
from game.engine.rules import ALL_RULES, Rules

RANKS = "A23456789TJQK"


def deck_with(placements: dict[int, str]) -> tuple[int, ...]:
    """A deck with the given cards at the given deck positions; the rest in new-deck order."""
    placed = {pos: card_from_code(code) for pos, code in placements.items()}
    rest = iter(card for card in range(52) if card not in placed.values())
    return tuple(placed[pos] if pos in placed else next(rest) for pos in range(52))


# Taking the base row left to right, then row 3, row 2 and the summits, in that order, walks the
# ranks A, 2, ... K, A, 2, ... K, A, 2 with no draw: a win straight from the deal.
CHAIN_ORDER = [*range(18, 28), *range(9, 18), *range(3, 9), *range(0, 3)]
CHAIN_DECK = deck_with(
    {
        28: "KS",
        **{pos: RANKS[i % 13] + "CDH"[i // 13] for i, pos in enumerate(CHAIN_ORDER)},
    }
)

# Kings and queens on the base row with a jack and a 2, a 7 on the waste and a 5 last in the
# stock: nothing fits once the stock is spent.
STUCK_DECK = deck_with(
    {
        **{18 + i: "KQ"[i % 2] + "CDHS"[i // 2] for i in range(8)},
        **{26: "JC", 27: "2D", 28: "7S", 51: "5C"},
    }
)


def table_of(game):
    """Everything about a game but its knowledge: what the table shows and how it got there."""
    return {k: v for k, v in game.__dict__.items() if k != "seen"}


def run_command(name: str, *args: str, stdin: str = "") -> list[dict]:
    """The JSON lines an engine command writes, called in this process (CommandError for bad
    input, as the command line turns it into status 2 and one line)."""
    out = io.StringIO()
    call_command(name, *args, stdin=io.StringIO(stdin), stdout=out, stderr=io.StringIO())
    return [json.loads(line) for line in out.getvalue().splitlines()]


def each_rule_set(rule_sets: list[Rules] = ALL_RULES) -> list:
    """Rule sets as test parameters: the standard game and each single flag in the quick loop
    (make test-fast), their combinations with the slow tests (make test runs them all)."""
    return [
        pytest.param(rules, id=rules.name, marks=[pytest.mark.slow] if "+" in rules.name else [])
        for rules in rule_sets
    ]
