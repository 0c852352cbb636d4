"""python manage.py selfplay [--budget-ms N] [--nodes N] [--seed S] [--deals N]"""

import sys

from game.engine.deck import DeckError, deck_for_number, format_deck, parse_deck
from game.engine.hint import play_by_hints

from ._engine_command import EngineCommand, bad_input


class Command(EngineCommand):
    help = "Play deals by following the Hint alone: deal numbers 1..N, or deck codes on stdin."

    def add_arguments(self, parser):
        parser.add_argument("--deals", type=int, help="play deal numbers 1..N (else read stdin)")
        self.add_budget_arguments(parser)

    def handle(self, *args, **options):
        hint_options = self.hint_options(options)
        decks = list(_decks(options["deals"]))
        won = hints = 0
        hint_ms = 0.0
        for deck in decks:
            game, times = play_by_hints(deck, **hint_options)
            won += game.won
            hints += len(times)
            hint_ms += sum(times)
            self.emit(
                {
                    "deck": format_deck(deck),
                    "won": game.won,
                    "cleared": game.cleared,
                    "moves": game.moves,
                }
            )
        summary = {
            "deals": len(decks),
            "won": won,
            "win_rate": won / len(decks) if decks else 0.0,
            "ms_per_hint": round(hint_ms / hints, 2) if hints else 0.0,
        }
        self.emit({"summary": summary})


def _decks(deals: int | None):
    if deals is not None:
        if deals < 0:
            raise bad_input("--deals must not be negative")
        return [deck_for_number(number) for number in range(1, deals + 1)]
    decks = []
    for line_number, line in enumerate(sys.stdin, 1):
        if line.strip():
            try:
                decks.append(parse_deck(line))
            except DeckError as error:
                raise bad_input(f"stdin line {line_number}: {error}") from None
    return decks
