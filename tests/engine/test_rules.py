"""Rule sets by name (SPEC.md, "Rule variants"): parsed, refused with the problem named, and
formatted back."""

import pytest

from game.engine.rules import ALL_RULES, FLAGS, STANDARD, Rules, RulesError


def test_every_rule_set_has_one_name_that_reads_back_as_itself():
    names = [rules.name for rules in ALL_RULES]
    assert len(set(names)) == len(ALL_RULES) == 2 ** len(FLAGS)
    assert len(set(ALL_RULES)) == len(ALL_RULES)
    for rules in ALL_RULES:
        assert Rules.from_name(rules.name) == rules


def test_names_and_what_they_mean():
    assert Rules.from_name("standard") == STANDARD == Rules()
    assert STANDARD.name == "standard"
    assert Rules.from_name("open+nowrap") == Rules(open_peaks=True, wrap=False)
    assert Rules.from_name("headstart+wild") == Rules(first_waste=False, wild=True)
    every_flag = Rules.from_name("open+nowrap+headstart+wild")
    assert (every_flag.open_peaks, every_flag.wrap, every_flag.first_waste, every_flag.wild) == (
        True,
        False,
        False,
        True,
    )
    assert Rules(wild=True, wrap=False).name == "nowrap+wild"


@pytest.mark.parametrize(
    ("name", "named"),
    [
        ("vegas", ["'vegas'"]),
        ("open+Wild", ["'Wild'"]),
        ("open+", ["''"]),
        ("Standard", ["'Standard'"]),
        ("standard+wild", ["'standard'"]),
        ("open+open", ["'open'"]),
        ("open+wild+open", ["'open'"]),
        ("nowrap+open", ["'open'", "'nowrap'"]),
        ("wild+headstart", ["'headstart'", "'wild'"]),
    ],
)
def test_a_bad_name_is_refused_naming_the_problem(name, named):
    with pytest.raises(RulesError) as refused:
        Rules.from_name(name)
    message = str(refused.value)
    assert all(culprit in message for culprit in named)
    assert "\n" not in message


def test_an_empty_name_is_refused():
    with pytest.raises(RulesError):
        Rules.from_name("")


def test_a_name_longer_than_any_rule_sets_is_refused_without_being_repeated():
    longest = "+".join(FLAGS)
    assert Rules.from_name(longest).flags == tuple(FLAGS)

    with pytest.raises(RulesError) as refused:
        Rules.from_name("x" * 3000)
    assert "x" * 30 not in str(refused.value)
