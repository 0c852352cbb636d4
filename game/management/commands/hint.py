"""python manage.py hint --deck CODE [--rules NAME] [--moves JSON_LIST] [--budget-ms N] [--nodes N]
[--seed S]"""

import json
import time

from game.engine.deck import DeckError, parse_deck
from game.engine.hint import hint_for_table
from game.engine.state import DRAW, UNDO, WILD, Table

from ._engine_command import EngineCommand, bad_input


class Command(EngineCommand):
    help = "The site's Hint for a position, judged only on the cards the player has seen."

    def add_arguments(self, parser):
        parser.add_argument("--deck", required=True, help="deck code (docs/interfaces.md)")
        parser.add_argument(
            "--moves",
            default="[]",
            help='JSON list of moves from the deal: positions 0-27, "draw", "wild" (and "undo")',
        )
        self.add_rules_argument(parser)
        self.add_budget_arguments(parser)

    def handle(self, *args, **options):
        hint_options = self.hint_options(options)
        rules = self.rules_option(options)
        try:
            deck = parse_deck(options["deck"])
        except DeckError as error:
            raise bad_input(f"--deck: {error}") from None
        game = Table(deck, rules)
        moves = _parse_moves(options["moves"])
        for index, move in enumerate(moves):
            if game.won:  # as on the site, where a won deal takes no move, not even an undo
                raise bad_input(f"--moves[{index}]: the deal is already won")
            try:
                refusal = game.apply(move)
            except ValueError as error:
                raise bad_input(f"--moves[{index}]: {error}") from None
            if refusal:
                raise bad_input(f"--moves[{index}] {json.dumps(move)}: {refusal}")
        started = time.perf_counter()
        hint = hint_for_table(game, **hint_options)
        ms = round((time.perf_counter() - started) * 1000, 1)
        self.emit({"move": hint.move, "verdict": hint.verdict, "reason": hint.reason, "ms": ms})


def _parse_moves(text: str) -> list:
    try:
        moves = json.loads(text)
    except json.JSONDecodeError as error:
        raise bad_input(f"--moves is not valid JSON: {error}") from None
    except RecursionError:
        raise bad_input("--moves is nested too deeply: it is a flat list of moves") from None
    except ValueError:  # a number of more digits than Python converts
        raise bad_input("--moves holds a number far too long to be a position") from None
    if not isinstance(moves, list):
        raise bad_input("--moves must be a JSON list")
    for index, move in enumerate(moves):
        is_position = isinstance(move, int) and not isinstance(move, bool)
        if not (is_position or move in (DRAW, WILD, UNDO)):
            raise bad_input(
                f'--moves[{index}]: {json.dumps(move)} is not a position, "draw" or "wild"'
            )
    return moves
