"""python manage.py selfplay [--rules NAME] [--scoring S] [--budget-ms N] [--nodes N] [--seed S]
[--deals N]

With --scoring, each hand is scored as the site scores it, and the summary gives the mean hand
score; for classic, also how often quitting early (leaving the hand at its best moment) would
have kept more than playing it out."""

import statistics
from collections.abc import Iterable
from itertools import accumulate

from django.conf import settings

from game.engine.deck import (
    MAX_DEAL_NUMBER,
    DeckError,
    deck_for_number,
    format_deck,
    parse_deck,
)
from game.engine.hint import play_by_hints
from game.engine.scoring import CLASSIC, NONE, START, ScoringError, steps, system_named

from ._engine_command import EngineCommand, bad_input


class Command(EngineCommand):
    help = (
        "Play deals by following the Hint alone: the site's deal numbers 1..N, or deck codes "
        "on stdin."
    )

    def add_arguments(self, parser):
        parser.add_argument("--deals", type=int, help="play deal numbers 1..N (else read stdin)")
        parser.add_argument(
            "--scoring",
            default=None,
            help="score each hand: pysol or classic (none, the default: no scores)",
        )
        self.add_rules_argument(parser)
        self.add_budget_arguments(parser)

    def handle(self, *args, **options):
        hint_options = self.hint_options(options)
        rules = self.rules_option(options)
        system = self.scoring_option(options)
        won = hints = played = 0
        hint_ms = 0.0
        scores, quitting_paid = [], 0
        for deck in self.decks(options):
            game, times = play_by_hints(deck, rules, **hint_options)
            played += 1
            won += game.won
            hints += len(times)
            hint_ms += sum(times)
            line = {"deck": format_deck(deck), "won": game.won, "cleared": game.cleared}
            if system:
                running = list(
                    accumulate(step.points for step in steps(deck, game.moves, system, rules))
                )
                score = START[system] + (running[-1] if running else 0)
                best = START[system] + max([0, *running])
                scores.append(score)
                quitting_paid += best > score
                line |= {"score": score, "best_moment": best}
            self.emit(line | {"moves": game.moves})
        summary = {
            "deals": played,
            "won": won,
            "win_rate": won / played if played else 0.0,
            "ms_per_hint": round(hint_ms / hints, 2) if hints else 0.0,
        }
        if system:
            summary["mean_score"] = round(statistics.fmean(scores), 2) if scores else 0.0
            if system == CLASSIC:
                summary["quitting_early_paid"] = quitting_paid / played if played else 0.0
        self.emit({"summary": summary})

    def scoring_option(self, options) -> str | None:
        if options["scoring"] is None:
            return None
        try:
            system = system_named(options["scoring"])
        except ScoringError as error:
            raise bad_input(str(error)) from None
        return None if system == NONE else system

    def decks(self, options) -> Iterable[tuple[int, ...]]:
        """The decks to play: dealt one by one as they are played, or read whole from stdin
        first, so that a bad line is refused before any is played."""
        deals = options["deals"]
        if deals is not None:
            if not 0 <= deals <= MAX_DEAL_NUMBER:
                raise bad_input(f"--deals must be a deal count from 0 to {MAX_DEAL_NUMBER}")
            key = settings.TRIPEAKS_DEAL_KEY
            return (deck_for_number(number, key) for number in range(1, deals + 1))
        decks = []
        for line_number, line in self.input_lines(options):
            try:
                decks.append(parse_deck(line))
            except DeckError as error:
                raise bad_input(f"stdin line {line_number}: {error}") from None
        return decks
