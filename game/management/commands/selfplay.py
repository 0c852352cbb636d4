"""python manage.py selfplay [--rules NAME] [--budget-ms N] [--nodes N] [--seed S] [--deals N]"""

from django.conf import settings

from game.engine.deck import DeckError, deck_for_number, format_deck, parse_deck
from game.engine.hint import play_by_hints

from ._engine_command import EngineCommand, bad_input


class Command(EngineCommand):
    help = (
        "Play deals by following the Hint alone: the site's deal numbers 1..N, or deck codes "
        "on stdin."
    )

    def add_arguments(self, parser):
        parser.add_argument("--deals", type=int, help="play deal numbers 1..N (else read stdin)")
        self.add_rules_argument(parser)
        self.add_budget_arguments(parser)

    def handle(self, *args, **options):
        hint_options = self.hint_options(options)
        rules = self.rules_option(options)
        decks = self.decks(options)
        won = hints = 0
        hint_ms = 0.0
        for deck in decks:
            game, times = play_by_hints(deck, rules, **hint_options)
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

    def decks(self, options) -> list[tuple[int, ...]]:
        deals = options["deals"]
        if deals is not None:
            if deals < 0:
                raise bad_input("--deals must not be negative")
            key = settings.TRIPEAKS_DEAL_KEY
            return [deck_for_number(number, key) for number in range(1, deals + 1)]
        decks = []
        for line_number, line in self.input_lines(options):
            try:
                decks.append(parse_deck(line))
            except DeckError as error:
                raise bad_input(f"stdin line {line_number}: {error}") from None
        return decks
