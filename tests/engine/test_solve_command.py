"""`python manage.py solve`, run as a real process so that exit statuses and streams are real."""

import json
import subprocess
import sys
from pathlib import Path

from game.engine.deck import deck_for_number, format_deck, parse_deck
from game.engine.state import Table

REPO_ROOT = Path(__file__).resolve().parents[2]
WON_DEAL = format_deck(deck_for_number(1))
LOST_DEAL = format_deck(deck_for_number(24))


def run_solve(*args: str, stdin: str = "") -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "manage.py", "solve", *args],
        cwd=REPO_ROOT,
        input=stdin,
        capture_output=True,
        text=True,
        timeout=60,
    )


def json_lines(stdout: str) -> list[dict]:
    return [json.loads(line) for line in stdout.splitlines()]


def assert_one_line_error(process, *expected: str):
    assert process.returncode == 2
    assert process.stdout == ""
    lines = process.stderr.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in process.stderr
    for text in expected:
        assert text in lines[0]


def test_decks_as_arguments():
    spaced_lower_case = " ".join(WON_DEAL[i : i + 2].lower() for i in range(0, 104, 2))
    process = run_solve(spaced_lower_case, LOST_DEAL)
    assert process.returncode == 0, process.stderr
    won, lost = json_lines(process.stdout)
    for record in (won, lost):
        assert set(record) == {"deck", "result", "moves", "nodes", "ms"}
        assert isinstance(record["nodes"], int) and isinstance(record["ms"], float)
    assert won["deck"] == WON_DEAL and won["result"] == "win"
    assert Table.replay(parse_deck(WON_DEAL), won["moves"]).won
    assert (lost["deck"], lost["result"], lost["moves"]) == (LOST_DEAL, "loss", [])


def test_decks_on_stdin_one_per_line():
    process = run_solve(stdin=f"{LOST_DEAL}\n\n{WON_DEAL.lower()}\n")
    assert process.returncode == 0, process.stderr
    records = json_lines(process.stdout)
    assert [(r["deck"], r["result"]) for r in records] == [(LOST_DEAL, "loss"), (WON_DEAL, "win")]


def test_a_spent_budget_is_unknown():
    process = run_solve("--nodes", "10", LOST_DEAL)
    assert process.returncode == 0, process.stderr
    [record] = json_lines(process.stdout)
    assert (record["result"], record["moves"]) == ("unknown", [])
    assert record["nodes"] <= 10


def test_bad_deck_exits_2_with_one_line():
    assert_one_line_error(run_solve(WON_DEAL, WON_DEAL[:-2]), "deck 2", "wrong length")
    duplicate = WON_DEAL[:-2] + WON_DEAL[:2]
    process = run_solve(stdin=f"{WON_DEAL}\n{duplicate}\n")
    assert_one_line_error(process, "stdin line 2", "duplicate")


def test_bad_options_exit_2_with_one_line():
    assert_one_line_error(run_solve("--nodes", "many", WON_DEAL), "--nodes")
    assert_one_line_error(run_solve("--budget-ms", "0", WON_DEAL), "--budget-ms")
    assert_one_line_error(run_solve("--budget-ms", "nan", WON_DEAL), "--budget-ms", "positive")
