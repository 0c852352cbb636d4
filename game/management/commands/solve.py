"""python manage.py solve [--rules NAME] [--budget-ms N] [--nodes N] [DECK ...]"""

from game.engine.deck import DeckError, format_deck, parse_deck
from game.engine.solver import solve

from ._engine_command import EngineCommand, bad_input


class Command(EngineCommand):
    help = (
        "Solve deals seeing every card: a winning line, a proven loss, or unknown when the "
        "budget runs out. Deck codes as arguments, else one per line on stdin."
    )

    def add_arguments(self, parser):
        parser.add_argument(
            "decks", nargs="*", metavar="DECK", help="deck codes (docs/interfaces.md)"
        )
        parser.add_argument(
            "--budget-ms", type=float, help="clock bound per deck in ms (default: none)"
        )
        parser.add_argument(
            "--nodes", type=int, help="work bound per deck in positions (default: none)"
        )
        self.add_rules_argument(parser)

    def handle(self, *args, decks, budget_ms, nodes, **options):
        self.check_budget(budget_ms, nodes)
        rules = self.rules_option(options)
        if decks:
            sources = [(f"deck {index}", code) for index, code in enumerate(decks, 1)]
        else:
            sources = [(f"stdin line {number}", line) for number, line in self.input_lines(options)]
        # Every deck is read before any is solved, so bad input never leaves half an answer.
        for deck in [_parse(where, text) for where, text in sources]:
            solution = solve(deck, rules, max_nodes=nodes, budget_ms=budget_ms)
            self.emit(
                {
                    "deck": format_deck(deck),
                    "result": solution.result,
                    "moves": list(solution.moves),
                    "nodes": solution.nodes,
                    "ms": round(solution.ms, 3),
                }
            )


def _parse(where: str, text: str) -> tuple[int, ...]:
    try:
        return parse_deck(text)
    except DeckError as error:
        raise bad_input(f"{where}: {error}") from None
