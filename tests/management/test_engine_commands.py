"""The hint and selfplay commands, run as outside tools run them (SPEC.md, Commands)."""

import json
import subprocess
import sys
from pathlib import Path

import pytest

from game.engine.deck import deck_for_number, format_deck

ROOT = Path(__file__).resolve().parents[2]
DEAL_1 = format_deck(deck_for_number(1))


def manage(*args, stdin=""):
    return subprocess.run(
        [sys.executable, "manage.py", *args],
        cwd=ROOT,
        input=stdin,
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_hint_answers_one_json_object_and_repeats_itself_with_nodes_and_seed():
    args = ("hint", "--deck", DEAL_1, "--moves", '["draw"]', "--nodes", "5000", "--seed", "3")
    first = manage(*args)

    assert first.returncode == 0, first.stderr
    answer = json.loads(first.stdout)
    assert answer["verdict"] is None
    assert answer["move"] == "draw" or 0 <= answer["move"] <= 27
    assert isinstance(answer["reason"], str)
    assert json.loads(manage(*args).stdout)["move"] == answer["move"]


@pytest.mark.parametrize(
    "args",
    [
        ("--deck", "7H"),
        ("--deck", DEAL_1, "--moves", "[0]"),
        ("--deck", DEAL_1, "--moves", "not json"),
        ("--deck", DEAL_1, "--moves", '["jump"]'),
        ("--deck", DEAL_1, "--nodes", "many"),
        (),
    ],
)
def test_hint_refuses_bad_input_with_one_line_and_status_2(args):
    result = manage("hint", *args)

    assert result.returncode == 2
    assert result.stdout == ""
    assert len(result.stderr.strip().splitlines()) == 1
    assert "Traceback" not in result.stderr


def test_selfplay_plays_numbered_deals_then_sums_up():
    result = manage("selfplay", "--deals", "2", "--nodes", "2000")

    assert result.returncode == 0, result.stderr
    *deals, last = [json.loads(line) for line in result.stdout.splitlines()]
    assert [deal["deck"] for deal in deals] == [DEAL_1, format_deck(deck_for_number(2))]
    for deal in deals:
        assert deal["won"] == (deal["cleared"] == 28)
    summary = last["summary"]
    assert summary["deals"] == 2
    assert summary["won"] == sum(deal["won"] for deal in deals)
    assert summary["win_rate"] == summary["won"] / 2
    assert summary["ms_per_hint"] >= 0


def test_selfplay_reads_deck_codes_from_stdin_and_refuses_a_bad_one():
    result = manage("selfplay", "--nodes", "2000", stdin=DEAL_1 + "\n")
    assert json.loads(result.stdout.splitlines()[0])["deck"] == DEAL_1

    result = manage("selfplay", "--nodes", "2000", stdin="XX\n")
    assert result.returncode == 2
    assert len(result.stderr.strip().splitlines()) == 1
