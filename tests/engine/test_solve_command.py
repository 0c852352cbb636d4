"""`python manage.py solve` (SPEC.md, Commands), called through Django's call_command; one real
process pins the exit status and the single line on stderr."""

import subprocess
import sys
from pathlib import Path

import pytest
from django.core.management.base import CommandError

from game.engine.deck import deck_for_number, format_deck, parse_deck
from game.engine.rules import Rules
from game.engine.solver import solve
from game.engine.state import WILD, Table
from game.management.commands.solve import Command as SolveCommand

from .support import run_command

REPO_ROOT = Path(__file__).resolve().parents[2]
WON_DEAL = format_deck(deck_for_number(1))
LOST_DEAL = format_deck(deck_for_number(24))


def refusal(*args: str, stdin: str = "") -> str:
    """The message of the CommandError that bad input raises; it exits with status 2."""
    with pytest.raises(CommandError) as refused:
        run_command("solve", *args, stdin=stdin)
    assert refused.value.returncode == 2
    message = str(refused.value)
    assert "\n" not in message
    return message


def test_decks_as_arguments():
    spaced_lower_case = " ".join(WON_DEAL[i : i + 2].lower() for i in range(0, 104, 2))
    won, lost = run_command("solve", spaced_lower_case, LOST_DEAL)
    for record in (won, lost):
        assert set(record) == {"deck", "result", "moves", "nodes", "ms"}
        assert isinstance(record["nodes"], int) and isinstance(record["ms"], float)
    assert won["deck"] == WON_DEAL and won["result"] == "win"
    assert Table.replay(parse_deck(WON_DEAL), won["moves"]).won
    assert (lost["deck"], lost["result"], lost["moves"]) == (LOST_DEAL, "loss", [])


def test_decks_on_stdin_one_per_line():
    records = run_command("solve", stdin=f"{LOST_DEAL}\n\n{WON_DEAL.lower()}\n")
    assert [(r["deck"], r["result"]) for r in records] == [(LOST_DEAL, "loss"), (WON_DEAL, "win")]


@pytest.mark.parametrize("name", ["standard", "open+nowrap", "headstart", "wild", "nowrap+wild"])
def test_each_rule_set_is_solved_by_its_own_rules(name):
    rules = Rules.from_name(name)
    [record] = run_command("solve", "--rules", name, LOST_DEAL)
    assert record["result"] == solve(parse_deck(LOST_DEAL), rules).result != "unknown"
    if record["result"] == "win":
        assert Table.replay(parse_deck(LOST_DEAL), record["moves"], rules).won
        assert record["moves"].count(WILD) <= rules.wild


def test_the_wild_card_wins_a_deal_lost_without_it():
    [lost] = run_command("solve", LOST_DEAL)
    [won] = run_command("solve", "--rules", "wild", LOST_DEAL)
    assert (lost["result"], won["result"]) == ("loss", "win")
    assert WILD in won["moves"]


def test_a_spent_budget_is_unknown():
    [record] = run_command("solve", "--nodes", "10", LOST_DEAL)
    assert (record["result"], record["moves"]) == ("unknown", [])
    assert record["nodes"] <= 10


def test_bad_decks_are_refused_before_any_answer():
    message = refusal(WON_DEAL, WON_DEAL[:-2])
    assert "deck 2" in message and "wrong length" in message
    duplicate = WON_DEAL[:-2] + WON_DEAL[:2]
    message = refusal(stdin=f"{WON_DEAL}\n{duplicate}\n")
    assert "stdin line 2" in message and "duplicate" in message


@pytest.mark.parametrize(
    ("args", "named"),
    [
        (("--nodes", "many"), "--nodes"),
        (("--budget-ms", "0"), "--budget-ms"),
        (("--budget-ms", "nan"), "positive"),
        (("--rules", "vegas"), "'vegas'"),
        (("--rules", "wild+open"), "'open'"),
    ],
)
def test_bad_options_are_refused_naming_them(args, named):
    assert named in refusal(*args, WON_DEAL)


def test_an_option_argparse_refuses_on_the_command_line_is_one_line_and_status_2(capsys):
    with pytest.raises(SystemExit) as exited:
        SolveCommand().run_from_argv(["manage.py", "solve", "--nodes", "many", WON_DEAL])
    assert exited.value.code == 2
    written = capsys.readouterr()
    lines = written.err.splitlines()
    assert written.out == "" and len(lines) == 1 and "--nodes" in lines[0]


def test_bad_input_exits_2_with_one_line_on_stderr_and_nothing_on_stdout():
    process = subprocess.run(
        [sys.executable, "manage.py", "solve", "--rules", "open+open", WON_DEAL],
        cwd=REPO_ROOT,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert process.returncode == 2
    assert process.stdout == ""
    lines = process.stderr.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in process.stderr
    assert "--rules" in lines[0] and "'open'" in lines[0]
