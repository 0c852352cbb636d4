"""What the engine's commands share: one-line errors with exit status 2, the rule set and budget
options, deck codes on stdin, and JSON lines on stdout (docs/interfaces.md, Commands)."""

import json
import math
import sys

from django.core.management.base import BaseCommand, CommandError

from game.engine.hint import DEFAULT_BUDGET_MS
from game.engine.rules import FLAGS, STANDARD_NAME, Rules, RulesError


def bad_input(message: str) -> CommandError:
    return CommandError(message, returncode=2)


class EngineCommand(BaseCommand):
    stealth_options = ("stdin",)
    """call_command(..., stdin=...) stands in for the process's standard input."""

    def create_parser(self, prog_name, subcommand, **kwargs):
        parser = super().create_parser(prog_name, subcommand, **kwargs)

        def one_line_error(message):
            if not parser.called_from_command_line:
                raise bad_input(message)
            # argparse would print the usage too; the contract is one clear line and status 2.
            sys.stderr.write(f"{prog_name} {subcommand}: error: {message}\n")
            sys.exit(2)

        parser.error = one_line_error
        return parser

    def add_rules_argument(self, parser):
        parser.add_argument(
            "--rules",
            default=STANDARD_NAME,
            help=f"rule set: {STANDARD_NAME}, or flags joined by '+' in the order "
            f"{'+'.join(FLAGS)} (default {STANDARD_NAME})",
        )

    def rules_option(self, options) -> Rules:
        try:
            return Rules.from_name(options["rules"])
        except RulesError as error:
            raise bad_input(f"--rules: {error}") from None

    def add_budget_arguments(self, parser):
        parser.add_argument(
            "--budget-ms",
            type=float,
            help=f"clock bound per hint in ms (default {DEFAULT_BUDGET_MS:g}, none with --nodes)",
        )
        parser.add_argument("--nodes", type=int, help="work bound per hint; repeatable results")
        parser.add_argument("--seed", type=int, default=0, help="seed for the sampled deals")

    def check_budget(self, budget_ms: float | None, nodes: int | None) -> None:
        # "not budget_ms > 0" also refuses nan, which compares false with everything.
        if budget_ms is not None and not (budget_ms > 0 and math.isfinite(budget_ms)):
            raise bad_input("--budget-ms must be a positive number of milliseconds")
        if nodes is not None and nodes < 0:
            raise bad_input("--nodes must not be negative")

    def hint_options(self, options) -> dict:
        budget_ms, nodes = options["budget_ms"], options["nodes"]
        self.check_budget(budget_ms, nodes)
        if budget_ms is None and nodes is None:
            budget_ms = DEFAULT_BUDGET_MS
        return {"seed": options["seed"], "max_nodes": nodes, "budget_ms": budget_ms}

    def input_lines(self, options) -> list[tuple[int, str]]:
        """The non-blank lines of standard input, numbered from 1."""
        stream = options.get("stdin") or sys.stdin
        return [(number, line) for number, line in enumerate(stream, 1) if line.strip()]

    def emit(self, record: dict) -> None:
        self.stdout.write(json.dumps(record))
        self.stdout.flush()
