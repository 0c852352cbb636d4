"""Fill the database with made-up play for staff to explore and for benchmarks.

Most games are figures only (no log), drawn from plausible distributions: a few deals are played
far more than others, players win over half of their games (only on deals the solver shows
winnable), some deals are left untouched, dates spread over the last --days days. Most are the
standard game, the rest other rule sets; about a quarter are scored hands (PySolFC points or
Hogue's original), without undo as scored play is.
A few (--logged) are real games played by a random player through the engine, with a full log,
so that a game's page has a move list and a table to show, and a score worked out from the moves.
Over the last --daily-days days, about half the demo players have a record of the day's daily
deal.
"""

import random
from dataclasses import replace
from datetime import UTC, datetime, time, timedelta
from itertools import accumulate
from math import log

from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.hashers import make_password
from django.core.management.base import BaseCommand, CommandError
from django.db import connection, transaction
from django.template.defaultfilters import pluralize
from django.utils import timezone

from game.engine.deck import deck_for_number, format_deck
from game.engine.rules import Rules
from game.engine.scoring import CLASSIC, MAXIMUM, PYSOL, START, hand_score
from game.engine.solver import DEPTH_FIRST_NODES, solve
from game.engine.state import Table
from game.models import Action, Deal, Game
from game.play import daily_deal

BATCH = 2000
DEMO_PLAYER_PREFIX = "demo-player-"
UNWINNABLE_SHARE = 0.05
"""Share of deals made (nearly) impossible for players, so the hardest-deals list has members."""
SKIPPED_SHARE = 0.1
"""Share of the games not won that were dealt and left at once, as many a visitor does."""
RULE_SETS = {"standard": 0.8, "wild": 0.07, "open+nowrap": 0.05, "headstart": 0.04, "nowrap": 0.04}
"""Rule sets of the demo games and their shares."""
SCORED_SHARE = 0.25
PROOF_NODES = DEPTH_FIRST_NODES
"""Positions the solver may search to show a deal winnable under a game's rules before the game is
made up as won: its first, depth-first stage, which finds the line of most winnable deals
(game/engine/solver.py). A deal it does not show winnable is never won, whether it can be or not,
so that staff never see a game won on a deal the solver proves lost. Positions rather than time,
so that a seed makes the same data on any machine."""
POPULAR_DEALS = 100
POPULAR_PROOF_NODES = 1_500
"""The most played deals, on which half the games are played and which the statistics list, are
given enough for the solver's second stage too: it shows most deals the first misses winnable, at
a few times the work."""
PROOF_RULES = {
    name: replace(Rules.from_name(name), open_peaks=False, wild=False, first_waste=True)
    for name in RULE_SETS
}
"""The rule set whose winning line shows a deal winnable under each: the solver sees every card
(open peaks change nothing for it), a wild card held never hurts, and a headstart's first draw
turns the standard game's first waste card. So one solve serves the standard game, wild and
headstart, and one nowrap and open+nowrap."""
DAILY_SHARE = 0.5
"""Share of the demo players with a record of a given day's daily deal."""


RANGES = {
    "games": (1, 10_000_000),
    "deals": (1, 1_000_000),
    "days": (1, 3_650),
    "players": (0, 100_000),
    "logged": (0, 10_000_000),
    "daily_days": (0, 3_650),
}
"""What each option may be: enough for any demonstration, and dates within the calendar."""


class Command(BaseCommand):
    help = __doc__.splitlines()[0]

    def add_arguments(self, parser):
        parser.add_argument("--games", type=int, default=100_000, help="games to make")
        parser.add_argument("--deals", type=int, default=3_000, help="deal numbers 1..N")
        parser.add_argument("--days", type=int, default=90, help="spread games over these days")
        parser.add_argument("--players", type=int, default=300, help="demo user accounts")
        parser.add_argument("--logged", type=int, default=200, help="games played with a log")
        parser.add_argument(
            "--daily-days", type=int, default=30, help="days with daily deal records"
        )
        parser.add_argument("--seed", type=int, default=1, help="the same seed, the same data")

    def handle(self, *args, games, deals, days, players, logged, daily_days, seed, **options):
        given = {
            "games": games, "deals": deals, "days": days,
            "players": players, "logged": logged, "daily_days": daily_days,
        }  # fmt: skip
        for name, value in given.items():
            low, high = RANGES[name]
            if not low <= value <= high:
                option = "--" + name.replace("_", "-")
                raise CommandError(f"{option} must be from {low} to {high:,}", returncode=2)
        dailies_before = Game.objects.filter(daily__isnull=False).count()
        rng = random.Random(seed)
        with transaction.atomic():
            deal_ids = _demo_deals(deals)
            owner_ids = _demo_players(players)
            maker = _GameMaker(rng, deal_ids, owner_ids, days, timezone.now())
            made = 0
            while made < games:
                size = min(BATCH, games - made)
                batch = [maker.game(logged=made + i < logged) for i in range(size)]
                Game.objects.bulk_create(batch)
                Action.objects.bulk_create(
                    [action for game in batch for action in maker.actions_of(game)],
                    batch_size=BATCH,
                )
                made += size
            dailies = maker.daily_records(daily_days)
            # A second run keeps each player's first record of a day, as play does.
            Game.objects.bulk_create(dailies, batch_size=BATCH, ignore_conflicts=True)
        # Statistics for the query planner, as after any bulk load: without them PostgreSQL
        # guesses a few hundred games and sorts 100,000 on disk to count them by day.
        with connection.cursor() as cursor:
            cursor.execute("ANALYZE")
        added_dailies = Game.objects.filter(daily__isnull=False).count() - dailies_before
        self.stdout.write(
            f"Made {games} game{pluralize(games)} ({min(logged, games)} with a log) "
            f"of {deals} deal{pluralize(deals)} by {players} player{pluralize(players)} and "
            "anonymous visitors, "
            f"and {added_dailies} daily deal records over {daily_days} days."
        )


def _demo_deals(count: int) -> list[int]:
    Deal.objects.bulk_create(
        [
            Deal(
                number=number, deck=format_deck(deck_for_number(number, settings.TRIPEAKS_DEAL_KEY))
            )
            for number in range(1, count + 1)
        ],
        ignore_conflicts=True,
        batch_size=BATCH,
    )
    numbered = Deal.objects.filter(number__range=(1, count)).order_by("number")
    return list(numbered.values_list("id", flat=True))


def _demo_players(count: int) -> list[int]:
    usernames = [f"{DEMO_PLAYER_PREFIX}{n:04d}" for n in range(1, count + 1)]
    User = get_user_model()
    no_login = make_password(None)
    User.objects.bulk_create(
        [User(username=name, password=no_login) for name in usernames], ignore_conflicts=True
    )
    return list(User.objects.filter(username__in=usernames).values_list("id", flat=True))


class _GameMaker:
    def __init__(self, rng, deal_ids, owner_ids, days, now):
        self.rng = rng
        self.deal_ids = deal_ids
        self.owner_ids = owner_ids
        self.days = days
        self.now = now
        # Popularity falls off with rank, as for shared deal numbers: deal 1 is played most.
        self.cumulative_popularity = list(
            accumulate(1 / (rank + 1) ** 0.9 for rank in range(len(deal_ids)))
        )
        self.win_chance = [
            rng.uniform(0, 0.05) if rng.random() < UNWINNABLE_SHARE else rng.betavariate(4, 2.2)
            for _ in deal_ids
        ]
        self.logs: dict[int, list[Action]] = {}
        self.shown_winnable: dict[tuple[int, Rules], bool] = {}

    def game(self, *, logged: bool) -> Game:
        rng = self.rng
        index = rng.choices(range(len(self.deal_ids)), cum_weights=self.cumulative_popularity)[0]
        # More games lately: the site is growing.
        started = self.now - timedelta(days=self.days * (1 - rng.random() ** 0.6))
        scoring = Game.Scoring.NONE
        if rng.random() < SCORED_SHARE:
            scoring = rng.choice([PYSOL, CLASSIC])
        game = Game(
            deal_id=self.deal_ids[index],
            rules=rng.choices(list(RULE_SETS), weights=list(RULE_SETS.values()))[0],
            scoring=scoring,
            started_at=started,
            hint_count=_some(rng, 0.3, 5),
            # Scored play has no undo.
            undo_count=_some(rng, 0.35, 6) if scoring == Game.Scoring.NONE else 0,
            **self._owner(),
        )
        if logged:
            self._play_with_log(game, index)
        else:
            won = rng.random() < self.win_chance[index] and self._winnable(index, game.rules)
            self._figures(game, won=won)
        return game

    def _winnable(self, index: int, rules: str) -> bool:
        key = (index, PROOF_RULES[rules])
        if key not in self.shown_winnable:
            popular = index < POPULAR_DEALS
            self.shown_winnable[key] = _shown_winnable(index + 1, key[1], popular=popular)
        return self.shown_winnable[key]

    def daily_records(self, days: int) -> list[Game]:
        """Each demo player's record of about half the daily deals of the last `days` days, today
        included (one started lately may still be in play): figures only, standard and
        unscored."""
        records = []
        today = self.now.date()
        for ago in range(days):
            day = today - timedelta(days=ago)
            deal = daily_deal(day)
            start = datetime.combine(day, time(), tzinfo=UTC)
            # Played within the day and, today, finished by now.
            window = min(timedelta(hours=22), self.now - timedelta(minutes=30) - start)
            window = max(window, timedelta(0))
            for owner_id in self.owner_ids:
                if self.rng.random() >= DAILY_SHARE:
                    continue
                played = start + window * self.rng.random()
                game = Game(
                    deal=deal,
                    daily=day,
                    owner_id=owner_id,
                    started_at=played,
                    hint_count=_some(self.rng, 0.3, 5),
                    undo_count=_some(self.rng, 0.35, 6),
                )
                # The daily deal is one the solver has shown winnable (play.daily_deal).
                self._figures(game, won=self.rng.random() < 0.7)
                records.append(game)
        return records

    def actions_of(self, game: Game) -> list[Action]:
        actions = self.logs.pop(id(game), [])
        for action in actions:
            action.game = game
        return actions

    def _owner(self) -> dict:
        if self.owner_ids and self.rng.random() < 0.6:
            return {"owner_id": self.rng.choice(self.owner_ids)}
        return {"session_key": f"{self.rng.getrandbits(128):032x}"}

    def _figures(self, game: Game, *, won: bool) -> None:
        rng = self.rng
        recent = self.now - game.started_at < timedelta(hours=1)
        if won:
            game.status, game.cleared = Game.Status.WON, 28
            game.longest_run = round(rng.triangular(6, 22, 10))
            draws = rng.randint(10, 23)
        elif recent and rng.random() < 0.5:
            game.status, game.cleared = Game.Status.PLAYING, rng.randint(0, 16)
            draws = rng.randint(0, 12)
        elif rng.random() < SKIPPED_SHARE:
            game.status, game.cleared, game.undo_count = Game.Status.SKIPPED, 0, 0
            draws = 0
        elif rng.random() < 0.75:
            game.status, game.cleared = Game.Status.DEAD_END, round(rng.triangular(6, 27, 20))
            draws = 23
        else:
            game.status, game.cleared = Game.Status.LEFT, rng.randint(0, 22)
            draws = rng.randint(0, 20)
        if not won:
            game.longest_run = min(game.cleared, round(rng.triangular(1, 12, 4)))
        game.move_count = game.cleared + draws + game.undo_count
        if game.status == Game.Status.LEFT:
            game.status = game.left_status()
        game.active_ms = int(rng.lognormvariate(log(2500 * max(game.move_count, 4)), 0.45))
        if game.scoring != Game.Scoring.NONE:
            game.score = _made_up_score(rng, game)
        self._finish(game)

    def _play_with_log(self, game: Game, index: int) -> None:
        """Play the deal through the engine, taking a random legal card most of the time."""
        rng = self.rng
        deck = deck_for_number(index + 1, settings.TRIPEAKS_DEAL_KEY)
        rules = Rules.from_name(game.rules)
        table = Table(deck, rules)
        undoes = game.scoring == Game.Scoring.NONE
        entries: list[tuple[str, int | None]] = []
        leaves = rng.random() < 0.15
        while not table.over and not (leaves and rng.random() < 0.02):
            takes = table.legal_takes()
            if table.wild_held and (not takes or rng.random() < 0.02):
                table.play_wild()
                entries.append((Action.Kind.WILD, None))
            elif undoes and table.moves and rng.random() < 0.04:
                table.undo()
                entries.append((Action.Kind.UNDO, None))
            elif rng.random() < 0.03:
                entries.append((Action.Kind.HINT, None))
            elif takes and (rng.random() < 0.9 or not table.stock_count):
                pos = rng.choice(takes)
                table.take(pos)
                entries.append((Action.Kind.TAKE, pos))
            else:
                table.draw()
                entries.append((Action.Kind.DRAW, None))
        game.cleared, game.longest_run = table.cleared, table.longest_run
        game.moves, game.seen = table.moves, sorted(table.seen)
        if game.scoring != Game.Scoring.NONE:
            game.score = hand_score(deck, table.moves, game.scoring, rules)
        kinds = [kind for kind, _ in entries]
        game.undo_count = kinds.count(Action.Kind.UNDO)
        game.hint_count = kinds.count(Action.Kind.HINT)
        game.move_count = sum(kinds.count(kind) for kind in (Action.Kind.TAKE, Action.Kind.DRAW))
        game.status = (
            Game.Status.WON
            if table.won
            else Game.Status.DEAD_END
            if table.dead_end
            else game.left_status()
        )
        seconds_apart = [rng.uniform(1, 6) for _ in entries]
        game.active_ms = int(sum(seconds_apart) * 1000)
        at = game.started_at
        actions = []
        for seq, ((kind, pos), gap) in enumerate(zip(entries, seconds_apart, strict=True), 1):
            at += timedelta(seconds=gap)
            actions.append(Action(seq=seq, kind=kind, pos=pos, at=at))
        game.logged = len(actions)
        self.logs[id(game)] = actions
        self._finish(game)

    def _finish(self, game: Game) -> None:
        if game.status != Game.Status.PLAYING:
            game.finished_at = game.started_at + timedelta(milliseconds=game.active_ms)


def _shown_winnable(number: int, rules: Rules, *, popular: bool) -> bool:
    """Whether the solver shows deal `number` winnable under `rules`, within the work it is given
    on such a deal."""
    if popular:
        budget = POPULAR_PROOF_NODES
    elif rules.wrap:
        budget = PROOF_NODES
    else:
        # A quarter of deals cannot be won without wrap, and the first stage finds the line of
        # few of the rest: in the long tail the work would buy few won games.
        return False
    deck = deck_for_number(number, settings.TRIPEAKS_DEAL_KEY)
    return solve(deck, rules, max_nodes=budget).result == "win"


def _made_up_score(rng: random.Random, game: Game) -> int:
    """A figures-only hand's score: from the deal's value up to the system's maximum, higher the
    more it cleared."""
    start, most = START[game.scoring], MAXIMUM[game.scoring]
    share = game.cleared / 28 * rng.uniform(0.1, 0.6) + (
        0.2 if game.status == Game.Status.WON else 0
    )
    return round(start + (most - start) * min(share, 1))


def _some(rng: random.Random, chance: float, most: int) -> int:
    """0 for most games; for a share `chance` of them, a count from 1 to `most`, small ones
    likelier."""
    return 0 if rng.random() >= chance else min(most, 1 + int(rng.expovariate(0.8)))
