"""The games and scorings a player can choose, in words: a short label and one line each, for the
deal form and the Rules section."""

from dataclasses import dataclass

from django.utils.text import capfirst

from game.engine.rules import ALL_RULES, FLAGS, Rules
from game.engine.scoring import HEAD_START_MORE, MAXIMUM
from game.models import Game

FLAG_WORDS = {
    "open": (
        "Open peaks",
        "every card is dealt face up; a card must still be uncovered to be taken, and one still "
        "covered is shown dimmed",
    ),
    "nowrap": ("No wrap", "K and A do not connect: on a K only a Q fits, on an A only a 2"),
    "headstart": (
        "Head start",
        "no card is turned at the deal: any uncovered card may start the waste",
    ),
    "wild": ("Wild card", "you hold one wild card to lay on the waste once; any card fits on it"),
}
STANDARD_WORDS = (
    "Standard",
    "Robert Hogue's TriPeaks: K and A connect, 18 cards face down, one card turned at the deal.",
)
SCORING_WORDS = {
    Game.Scoring.NONE: "clear the peaks; Undo as often as you like",
    Game.Scoring.PYSOL: (
        "a hand starts at \N{MINUS SIGN}52; each card of a run scores 1, doubling every four "
        "cards and for each empty peak; summits add 10, 20 and 40; a cleared table adds 10 for "
        f"each card left in the stock. At most {MAXIMUM['pysol']} a hand "
        f"({MAXIMUM['pysol'] + HEAD_START_MORE} with a head start, whose stock holds a card more)"
    ),
    Game.Scoring.CLASSIC: (
        "each card turned from the stock costs 5; the n-th card of a run scores n; the summits "
        f"add 15, 15 and 30. Quitting early keeps what you made. At most {MAXIMUM['classic']} "
        "a hand"
    ),
}
"""Each scoring's one line; its label is the model's, as every page names it."""


@dataclass(frozen=True)
class Choice:
    name: str
    label: str
    explanation: str


def rules_choice(rules: Rules) -> Choice:
    if not rules.flags:
        return Choice(rules.name, *STANDARD_WORDS)
    words = [FLAG_WORDS[flag] for flag in rules.flags]
    label = " + ".join(label for label, _ in words)
    return Choice(rules.name, label, _sentence("; ".join(line for _, line in words)))


def _sentence(words: str) -> str:
    return words[0].upper() + words[1:] + "."


def _flags_order(rules: Rules) -> tuple:
    return len(rules.flags), [FLAGS.index(flag) for flag in rules.flags]


RULE_CHOICES = [rules_choice(rules) for rules in sorted(ALL_RULES, key=_flags_order)]
"""Every rule set, the standard game first, then one flag, two flags..."""
RULES_BY_NAME = {choice.name: choice for choice in RULE_CHOICES}
FLAG_CHOICES = [rules_choice(Rules.with_flags([flag])) for flag in FLAGS]
"""The standard game's variations one by one, for the Rules section."""
SCORING_CHOICES = [
    Choice(system.value, capfirst(system.label), _sentence(explanation))
    for system, explanation in SCORING_WORDS.items()
]
