"""The hint and selfplay commands (SPEC.md, Commands), called through Django's call_command; the
exit status and the one line on stderr of bad input are pinned by a real process in
tests/engine/test_solve_command.py, which all the engine's commands share."""

import json

import pytest
from django.conf import settings
from django.core.management.base import CommandError

from game.engine.deck import deck_for_number, format_deck, parse_deck
from game.engine.knowledge import view_of
from game.engine.rules import Rules
from game.engine.scoring import START, hand_score
from game.engine.state import DRAW, WILD, Table
from tests.engine.support import CHAIN_DECK, CHAIN_ORDER, STUCK_DECK, each_rule_set, run_command

DEAL_1 = format_deck(deck_for_number(1, settings.TRIPEAKS_DEAL_KEY))
STUCK = format_deck(STUCK_DECK)
CHAIN = format_deck(CHAIN_DECK)


def refusal(*args: str, stdin: str = "") -> str:
    """The message of the CommandError that bad input raises; it exits with status 2."""
    with pytest.raises(CommandError) as refused:
        run_command(*args, stdin=stdin)
    assert refused.value.returncode == 2
    message = str(refused.value)
    assert "\n" not in message
    return message


def test_hint_answers_one_json_object_and_repeats_itself_with_nodes_and_seed():
    args = ("hint", "--deck", DEAL_1, "--moves", '["draw"]', "--nodes", "5000", "--seed", "3")
    [answer] = run_command(*args)

    assert answer["verdict"] is None
    assert answer["move"] in view_of(Table.replay(parse_deck(DEAL_1), ["draw"])).legal_moves()
    assert isinstance(answer["reason"], str)
    assert run_command(*args)[0]["move"] == answer["move"]


@pytest.mark.parametrize("rules", each_rule_set())
def test_hint_plays_by_the_rules_it_is_given(rules):
    [answer] = run_command("hint", "--rules", rules.name, "--deck", DEAL_1, "--nodes", "2000")
    assert answer["move"] in view_of(Table(parse_deck(DEAL_1), rules)).legal_moves()


def test_hint_reads_the_wild_card_in_the_moves():
    # The stuck deck's stock drawn to its end: nothing fits, but the wild card is held.
    drawn = [DRAW] * 23
    moves = json.dumps(drawn)
    [held] = run_command("hint", "--rules", "wild", "--deck", STUCK, "--moves", moves)
    assert held["move"] == WILD and held["reason"].startswith("Lay the wild card")

    laid = json.dumps([*drawn, WILD])
    [after] = run_command("hint", "--rules", "wild", "--deck", STUCK, "--moves", laid)
    assert after["move"] in range(18, 28)


@pytest.mark.parametrize(
    ("args", "named"),
    [
        (("--deck", "7H"), "--deck"),
        (("--deck", DEAL_1, "--moves", "[0]"), "--moves[0]"),
        (("--deck", DEAL_1, "--moves", "not json"), "--moves"),
        (("--deck", DEAL_1, "--moves", '["jump"]'), '"jump"'),
        (("--deck", DEAL_1, "--moves", '["wild"]'), "wild card"),
        (("--deck", DEAL_1, "--rules", "wild", "--moves", '["wild", "wild"]'), "--moves[1]"),
        (("--deck", DEAL_1, "--rules", "open+open"), "'open'"),
        (("--deck", DEAL_1, "--nodes", "many"), "--nodes"),
        (("--deck", DEAL_1, "--moves", "[" * 30_000 + "]" * 30_000), "nested"),
        (("--deck", DEAL_1, "--moves", f"[{'9' * 5000}]"), "--moves"),
        (("--deck", CHAIN, "--moves", json.dumps([*CHAIN_ORDER, "draw"])), "--moves[28]"),
        (("--deck", CHAIN, "--moves", json.dumps([*CHAIN_ORDER, "undo"])), "already won"),
        ((), "--deck"),
    ],
)
def test_hint_refuses_bad_input_naming_it(args, named):
    assert named in refusal("hint", *args)


def test_selfplay_plays_the_sites_numbered_deals_then_sums_up():
    *deals, last = run_command("selfplay", "--deals", "2", "--nodes", "2000")

    key = settings.TRIPEAKS_DEAL_KEY
    assert [deal["deck"] for deal in deals] == [
        format_deck(deck_for_number(number, key)) for number in (1, 2)
    ]
    for deal in deals:
        assert deal["won"] == (deal["cleared"] == 28)
        assert Table.replay(parse_deck(deal["deck"]), deal["moves"]).cleared == deal["cleared"]
    summary = last["summary"]
    assert summary["deals"] == 2
    assert summary["won"] == sum(deal["won"] for deal in deals)
    assert summary["win_rate"] == summary["won"] / 2
    assert summary["ms_per_hint"] >= 0


@pytest.mark.parametrize("name", ["headstart+wild", "open+nowrap"])
def test_selfplay_plays_by_the_rules_it_is_given(name):
    rules = Rules.from_name(name)
    [deal, _] = run_command("selfplay", "--rules", name, "--nodes", "2000", stdin=DEAL_1 + "\n")

    table = Table.replay(parse_deck(DEAL_1), deal["moves"], rules)
    assert table.over and table.cleared == deal["cleared"]
    assert deal["moves"].count(WILD) <= rules.wild


def test_selfplay_reads_deck_codes_from_stdin_and_refuses_a_bad_one():
    records = run_command("selfplay", "--nodes", "2000", stdin=f"\n{DEAL_1}\n")
    assert [record["deck"] for record in records[:-1]] == [DEAL_1]

    assert "stdin line 2" in refusal("selfplay", "--nodes", "2000", stdin=f"{DEAL_1}\nXX\n")
    assert "'vegas'" in refusal("selfplay", "--rules", "vegas", "--deals", "1")


@pytest.mark.parametrize("system", ["pysol", "classic"])
def test_selfplay_scores_each_hand_as_the_site_does(system):
    *deals, last = run_command("selfplay", "--deals", "3", "--nodes", "1000", "--scoring", system)

    for deal in deals:
        deck = parse_deck(deal["deck"])
        assert deal["score"] == hand_score(deck, deal["moves"], system)
        assert deal["best_moment"] >= max(deal["score"], START[system])
    summary = last["summary"]
    assert summary["mean_score"] == pytest.approx(sum(d["score"] for d in deals) / 3, abs=0.01)
    paid = sum(deal["best_moment"] > deal["score"] for deal in deals) / 3
    assert summary.get("quitting_early_paid", paid) == paid
    assert ("quitting_early_paid" in summary) == (system == "classic")


def test_selfplay_refuses_an_unknown_scoring():
    assert "unknown scoring 'vegas'" in refusal("selfplay", "--scoring", "vegas", "--deals", "1")


@pytest.mark.parametrize("deals", ["-1", str(2**63)])
def test_selfplay_refuses_a_count_of_deals_past_the_deal_numbers(deals):
    assert "--deals" in refusal("selfplay", "--deals", deals, "--nodes", "1000")
