"""Playing a game: every change to a player's game goes through here.

A change rebuilds the engine's table from the deal and the moves in play, applies the move and
writes the row with its log entries (`rows.write_game`), only if nobody has written the row since it
was read; if someone has, the change is worked out again on the game as it now stands
(`apply_with_retry`), so no move or log entry is ever lost and two taps never interleave. A request
made for an older table (its version is not the game's, or the player has moved on to another
game) changes nothing: the player gets their current table back.

A player's current game, the one `/` shows, is the one that became their table last
(`current_since`): the newest, unless they took up an older unfinished one again.
"""

import re
import secrets
import statistics
import time
import unicodedata
from collections.abc import Callable
from dataclasses import dataclass, replace
from datetime import UTC, date, datetime
from functools import lru_cache

from django.conf import settings
from django.core.cache import cache
from django.db import IntegrityError, transaction
from django.db.models import F, Q, Sum
from django.http import Http404
from django.utils import timezone
from django.utils.text import capfirst

from game import rows, verdicts
from game.engine.analysis import Analysis as Findings
from game.engine.analysis import analyse
from game.engine.cards import DECK_SIZE, card_label
from game.engine.daily import candidates as daily_candidates
from game.engine.deck import MAX_DEAL_NUMBER, DeckError
from game.engine.geometry import COVERS
from game.engine.hint import Hint, hint_for_table, recommend
from game.engine.knowledge import seed_of, view_of
from game.engine.rules import Rules
from game.engine.scoring import START as SCORE_AT_DEAL
from game.engine.scoring import hand_score, steps
from game.engine.state import DRAW, UNDO, WILD, Move, Table
from game.hint_search import GRACE_S, QUICK, search
from game.models import Action, Analysis, Deal, Game
from game.owners import Owner
from game.stats import played_games

Status = Game.Status
Kind = Action.Kind

RANDOM_DEALS = 1_000_000
"""New deals are drawn from deal numbers 1 .. RANDOM_DEALS."""
UNSTORED = 0
"""The game id in the links of a table dealt to a newcomer and not yet stored (dealt_table)."""
PAUSE_COUNTED = 60_000
"""The first minute (in ms) of every pause counts as play. A page stops the clock while it is
hidden; counting a pause's first minute keeps a short look away honest and stops a client that
pauses between its moves from making its time up: each pause it posts costs it a minute."""
ANALYSIS_SOLVE_BUDGET_MS = 2_000
"""How long each of an analysis's solves may take: the exact solver decides nearly every position
well within it (bench/README.md)."""
UNDECIDED_KEPT_S = 3600
"""How long an analysis a solve's budget cut short is shown as it is before it is tried again
(one decided is kept for good): a busy server may have given the solver too little time."""
DAILY_KEPT_S = 2 * 24 * 3600
"""How long the daily deal chosen for a day is remembered in the cache."""
HINT_KEPT_S = 60
"""How long a hint's answer is kept for other requests asking for the same table at once."""
HINT_POLL_S = 0.02
"""How often a request waiting for another's search of its table looks for the answer."""

STALE = "The table had changed before that tap arrived; this is how it stands now."
MOVED_ON = "The table had changed to another deal before that tap arrived; this is that deal."
DEAL_WON = "This deal is won: start a new deal or replay it."
NOT_YOURS = "There is no such game among yours."
NO_LONGER_IN_PLAY = "That game is no longer in play, so it cannot be taken up again."
RECORD_FIRST = "That daily deal of yours is still open: no other hand of it yet."
SEEN_WHOLE = "you have seen this deal whole, so this hand of it is practice, unscored"
NO_UNDO_WHEN_SCORED = "Undo is off in scored play: a score cannot be bought back."
REVEALED = "You have seen this deal's analysis, so this game stays as it ended."
STANDARD_RULES = "standard"
DAILY_DATE = re.compile(r"[0-9]{4}-[0-9]{2}-[0-9]{2}")
NUMBER_LIKE = re.compile(r"[+-]?\d*[.,]?\d+")
"""What a player types meaning a number, though not a deal number."""
DIGITS_TOGETHER = re.compile(r"\d\d")
"""Never in a deck code (each card is a rank and a suit, ten is T): a number was meant ("#77",
"77.", "1 000")."""


@dataclass
class Outcome:
    """What a request did to a game, for the page to show."""

    row: Game
    table: Table
    message: str = ""
    """Why nothing changed: a refused move or a stale request."""
    note: str = ""
    """Why the table dealt is not quite what was asked for: a choice set aside, and why."""
    news: str = ""
    """What changed, for the live region."""
    moved: str = ""
    """"take", "draw" or "undo" when the table changed."""
    run_reset: int = 0
    """The run a draw has just reset to zero."""
    hint: Hint | None = None
    scored: str = ""
    """In scored play, what the move scored, in words."""
    left: int | None = None
    """The game just left for this one, whose analysis the player may now see (None for a deal
    left untouched)."""
    left_score: int | None = None
    """The final score of a scored hand just left in play, which stays in the bank."""
    left_daily: bool = False
    """The game just left is today's daily deal, which /daily takes up again until its analysis
    is seen."""
    set_aside: int | None = None
    """The game in play set aside unfinished for this one, which the player may take up again
    (a player without an account has no My games to find it in)."""


class Stale(Exception):
    """The request was made for a table the player no longer has."""


class StillPlaying(Exception):
    """The game is not over: nothing may be said of its hidden cards yet."""


class NotInPlay(Exception):
    """The game is over: it cannot be taken up as one still being played."""


Change = Callable[[Game], tuple[Outcome | None, list]]
"""A change to a game: the row, changed in place, to what the page shows and the log entries to
write with it (none: nothing to write). Raises Stale for a request made for another table."""


def current_game(owner: Owner) -> Game | None:
    """The game on the player's table."""
    row = owner.games().select_related("deal").order_by("-current_since", "-pk").first()
    if row is not None:
        row.moved_on = False
    return row


def table_of(row: Game) -> Table:
    """The table from the deal and the moves in play under the game's rules, with everything the
    player has seen."""
    table = Table.replay(row.deal.cards, row.moves, rules_named(row.rules))
    table.seen |= set(row.seen)
    return table


@lru_cache(maxsize=64)
def rules_named(name: str) -> Rules:
    return Rules.from_name(name)


@dataclass(frozen=True)
class Chosen:
    """The deal a player typed into the deal form."""

    deal: Deal | None
    """None when nothing was typed: a random deal."""
    daily: date | None = None
    """The day, when the deal typed is a daily deal's."""


def deal_from_text(text: str) -> Chosen:
    """The deal a player typed: a deal number (alone or as "deal 77"), a daily deal's name
    ("daily 2026-12-05"; "daily" alone: today's) or a deck code. Raises DeckError.
    Full-width characters, as some keyboards type them, read as their plain forms."""
    text = unicodedata.normalize("NFKC", text).strip()
    if text.lower().startswith("deal "):  # as the table's heading names a deal: "deal 77"
        text = text[len("deal ") :].strip()
    if not text:
        return Chosen(None)
    name, *date_typed = text.split(maxsplit=1)
    if name.lower() == "daily":
        day = daily_date(*date_typed) if date_typed else today()
        return Chosen(daily_deal(day), day)
    return Chosen(_deal_named(text))


def _deal_named(text: str) -> Deal:
    if text.isdecimal():  # any script's digits: int() reads them all
        # More digits than any deal number has: let the range check say so.
        too_long = len(text) > len(str(MAX_DEAL_NUMBER))
        return Deal.for_number(MAX_DEAL_NUMBER + 1 if too_long else int(text))
    if NUMBER_LIKE.fullmatch(text) or DIGITS_TOGETHER.search(text):
        # "-5", "+5", "1.5", "#77": meant as a number, so answered as one, not as a deck code.
        return Deal.for_number(0)
    return Deal.for_code(text)


def open_table(
    owner: Owner, resume: bool = True, first_deal: Callable[[], Deal] | None = None
) -> Outcome:
    """The player's current game, a new deal if there is none (`first_deal`'s, else a random
    one); the clock runs while they look (with `resume`), so a look at a table whose clock is
    stopped restarts it."""
    row = current_game(owner)
    if row is None:
        row = _start(owner, (first_deal or random_deal)(), Kind.NEW)
    elif resume and row.running_since is None and row.status == Status.PLAYING:

        def resumed(row: Game) -> tuple[Outcome, list]:
            return Outcome(row, table_of(row)), _resume_clock(row)

        return apply_with_retry(owner, row.pk, resumed, current=False, first=row)
    return Outcome(row, table_of(row))


def dealt_table(day: date | None = None, number: int | None = None) -> Outcome:
    """A table for a newcomer, stored nowhere, its clock stopped: a page view writes nothing.
    That day's daily deal, else the deal of `number` (DeckError if no deal has it), else a random
    one. Their first action stores it (store_dealt)."""
    if day is None:
        number = random_number() if number is None else number
        deal = Deal(deck=Deal.deck_of(number), number=number)
    else:
        deal = daily_deal(day)
    row = Game(deal=deal, daily=day)
    row.moved_on = False
    return Outcome(row, table_of(row))


def store_dealt(owner: Owner, deal: Deal, daily: date | None = None) -> int:
    """The game a newcomer's first action acts on: the table of `deal` they were dealt (as their
    record of the daily deal of `daily`, if given), stored now with its clock starting; or their
    table, if another of their requests stored it first. Raises Stale if the table stored first
    is of another deal: the request is for a table dealt in another tab, which nobody has now,
    and must not be played on theirs."""
    row = current_game(owner)
    if row is None:
        return _start(owner, deal, Kind.NEW, daily=daily).pk
    if row.deal_id != deal.pk:
        raise Stale
    return row.pk


def move(owner: Owner, game_id: int, version: int | None, action: Move) -> Outcome:
    """Take a card (a position), draw or undo."""
    return apply_with_retry(owner, game_id, lambda row: _make_move(row, version, action))


def hint(owner: Owner, game_id: int, version: int | None) -> Outcome:
    """The Hint for the table as it stands. The search runs without holding anything, so taps go
    on meanwhile; its log entry is then written as a move's is, onto the row only if it is
    unchanged since it was read for the search. If a tap lands first, this hint is stale and is
    neither logged nor shown. Asked again for the same table, it answers as it did, without
    searching again: pressing Hint twice costs the machine one search."""
    row = _load(owner, game_id)
    if _stale(row, version):
        return as_it_stands(owner, row)
    table = table_of(row)
    if row.revealed:  # no move is left to suggest
        return Outcome(row, table, message=REVEALED)
    if table.over:  # said as a refusal is, in the message row: nothing to mark
        return Outcome(row, table, message=hint_for_table(table).reason)
    asked_at = row.version
    found = last_hint(row) or _search_once(row, view_of(table))
    detail = {"move": found.move, "verdict": found.verdict, "reason": found.reason}

    def log_hint(row: Game) -> tuple[Outcome, list]:
        if _stale(row, asked_at):
            raise Stale
        row.hint_count += 1
        entries = [*_resume_clock(row), (Kind.HINT, {**detail, "version": asked_at})]
        # No news: the hint bar, a live region of its own, says it.
        return Outcome(row, table, hint=found), entries

    return apply_with_retry(owner, game_id, log_hint, first=row)


def bank_of(row: Game) -> int:
    """The sum of all the hands its player has played in the game's scoring system, this one
    included."""
    games = Owner(row.owner_id, row.session_key).games().filter(scoring=row.scoring)
    others = games.exclude(pk=row.pk).aggregate(bank=Sum("score"))["bank"] or 0
    return others + row.score


def last_hint(row: Game) -> Hint | None:
    """The hint shown with this table, if one was asked for since the last move."""
    if not row.hint_count:
        return None
    entry = row.actions.filter(kind=Kind.HINT).order_by("-seq").first()
    if entry is None or entry.detail.get("version") != row.version:
        return None
    detail = entry.detail
    return Hint(detail["move"], detail["verdict"], detail["reason"])


def leave(
    owner: Owner,
    game_id: int,
    version: int | None,
    deal: Deal | None,
    kind,
    played: list[Move] = (),
    *,
    rules: str | None = None,
    scoring: str | None = None,
    practice: bool = False,
    set_aside: bool = False,
) -> Outcome:
    """Start a new game (of `deal`, or this game's deal again when None, with the moves `played`
    already made; `practice`: see Game.practice), leaving this one (with `set_aside`, putting it
    by unfinished instead once its player has moved, as taking up another game does); under this
    game's rules and scoring unless others are given.
    The left game's write is conditional like a move's, so two requests to leave one table start
    one new game between them: the second finds the table gone and is stale."""
    while True:
        row = _load(owner, game_id)
        if _stale(row, version):
            return as_it_stands(owner, row)
        records = owner.games().filter(deal=deal or row.deal, daily__isnull=False)
        if any(map(still_a_record, records)):
            return Outcome(row, table_of(row), message=RECORD_FIRST)
        left_score, entries = None, []
        # A scored hand is not set aside for another hand of its deal (see _end_scored_hands_of).
        dealt_again = row.scoring != Game.Scoring.NONE and deal in (None, row.deal)
        if row.status == Status.PLAYING and set_aside and row.move_count and not dealt_again:
            _pause_clock(row)
            entries.append((Kind.PAUSE, None))
        elif row.status == Status.PLAYING:
            _end_as_left(row)
            if row.scoring != Game.Scoring.NONE:
                left_score = row.score
        aside = row.pk if row.status == Status.PLAYING else None
        left = None if aside else row.pk
        asked = scoring or scoring_handed_on(row)
        with transaction.atomic():
            if rows.write_game(row, entries, current=True):
                fresh = _start(
                    owner,
                    deal or row.deal,
                    kind,
                    left=left,
                    played=played,
                    rules=rules or row.rules,
                    scoring=asked,
                    practice=practice,
                )
                news = f"{capfirst(fresh.name_in_play)} dealt."
                table = table_of(fresh)
                # An untouched deal left has nothing to look back at.
                looked_back = None if row.status == Status.SKIPPED else left
                daily = _daily_left_unseen(row)
                # A score asked for, or kept from the hand left, and not given says why (see
                # _start); not the scoring New deal hands on after practice, which nobody asked.
                wanted = scoring or row.scoring
                unscored = fresh.practice and not practice and wanted != Game.Scoring.NONE
                return Outcome(
                    fresh,
                    table,
                    note=SEEN_WHOLE if unscored else "",
                    news=news,
                    left=looked_back,
                    left_score=left_score,
                    left_daily=daily,
                    set_aside=aside,
                )


def scoring_handed_on(row: Game) -> str:
    """The scoring a game left for another hands on: its own, or after practice (always unscored)
    that of its player's last game played for real."""
    if not row.practice:
        return row.scoring
    owner = Owner(user_id=row.owner_id, session_key=row.session_key)
    real = owner.games().filter(practice=False).order_by("-pk").values_list("scoring", flat=True)
    return real.first() or Game.Scoring.NONE


def new_deal(owner: Owner, game_id: int, version: int | None, winnable: bool = False) -> Outcome:
    """A random deal under the table's rules; with `winnable`, one the solver proves winnable."""
    rules = _load(owner, game_id).rules
    return leave(owner, game_id, version, random_deal(rules, winnable), Kind.NEW)


def start_deal(
    owner: Owner,
    game_id: int,
    version: int | None,
    chosen: Chosen,
    rules: str | None,
    scoring: str | None,
    winnable: bool = False,
) -> Outcome:
    """The deal the player chose (none: a random one, winnable with `winnable`), under the rules
    and scoring they chose (None: the table's). A daily deal is played under the rules it is
    winnable under, the standard ones; today's is the player's record of it, as /daily deals it."""
    if chosen.daily:
        return _start_daily(owner, game_id, version, chosen, rules, scoring)
    deal = chosen.deal or random_deal(rules or _load(owner, game_id).rules, winnable)
    return leave(owner, game_id, version, deal, Kind.NEW, rules=rules, scoring=scoring)


def _start_daily(
    owner: Owner, game_id: int, version: int | None, chosen: Chosen, rules, scoring
) -> Outcome:
    """A daily deal typed into the deal form, saying so when the game or scoring chosen there
    is set aside for it."""
    other_rules = rules not in (None, STANDARD_RULES)
    if chosen.daily == today():
        outcome = open_daily(owner, chosen.daily)
        set_aside = other_rules or scoring not in (None, Game.Scoring.NONE)
        why = "today's daily deal is standard and unscored, as everyone plays it"
    elif (record := owner.games().filter(daily=chosen.daily).first()) and still_a_record(record):
        # A past day's record, which no other hand of its deal may rehearse (see leave).
        outcome = _taking_up(owner, current_game(owner), record.pk)
        set_aside = True
        why = "your record of that daily deal, as you left it"
    else:
        outcome = leave(
            owner, game_id, version, chosen.deal, Kind.NEW, rules=STANDARD_RULES, scoring=scoring
        )
        set_aside = other_rules
        why = "a daily deal is played under the standard rules"
    if set_aside and not outcome.message:
        return replace(outcome, note=why)
    return outcome


def replay_table(owner: Owner, game_id: int, version: int | None) -> Outcome:
    """The table's deal again, from the start."""
    return leave(owner, game_id, version, None, Kind.REPLAY)


def replay_deal(
    owner: Owner, game_id: int, table: int | None = None, version: int | None = None
) -> Outcome:
    """Play the deal of any of the player's games again (My games' Replay)."""
    source = _load(owner, game_id)
    return _play_again(owner, source, table, version, scoring=source.scoring)


def _play_again(
    owner: Owner, source: Game, table: int | None, version: int | None, **options
) -> Outcome:
    """A game's deal again under its rules (with leave's `options`), asked from a page other than
    the table (My games, an analysis). The table is set aside, as when My games' Continue takes up
    another game: one being played stays unfinished, to be taken up again later (one untouched is
    left: My games need not list deals never played). The table is the game `table` at `version`
    as the page asking showed it, if it says (the same request sent twice is then stale, and sets
    aside nothing the first one dealt), else the table as it stands."""
    table = current_game(owner).pk if table is None else table
    deal, rules = source.deal, source.rules
    return leave(owner, table, version, deal, Kind.REPLAY, rules=rules, set_aside=True, **options)


def analysis_of(owner: Owner, game_id: int) -> tuple[Game, Analysis | Findings]:
    """One of the player's games and its analysis, once it is over (StillPlaying before). It shows
    them every card, so from then on the game stays as it ended: an undo out of a dead end, or a
    left daily deal taken up again, could otherwise be won by its winning line."""
    while True:
        row = _load(owner, game_id)
        if row.status == Status.PLAYING:
            raise StillPlaying
        # Marked first, by a write like any other (conditional on the row as read, its revision
        # bumped): an undo from another tab either lands before it, and the game is played on,
        # or is worked out again after it, and refused.
        revealing = Game.objects.filter(pk=row.pk, revision=row.revision)
        seen = {"revealed": True, "revealed_at": timezone.now(), "revision": F("revision") + 1}
        if row.revealed or revealing.update(**seen):
            _known_from_now_on(owner, row)
            return row, analysis_of_game(row)


def _known_from_now_on(owner: Owner, seen: Game) -> None:
    """The player's other games of a deal they have seen whole: one still in play is practice from
    now on (see make_practice), and a left one (a daily record /daily would take up) stays as it
    ended. Each write bumps the revision, so a move read before it is worked out again after."""
    others = owner.games().filter(deal=seen.deal).exclude(pk=seen.pk)
    now = timezone.now()
    make_practice(others.filter(status=Status.PLAYING), now)
    others.filter(status=Status.LEFT, revealed=False).update(
        revealed=True, revealed_at=now, revision=F("revision") + 1
    )


def make_practice(games, seen_at: datetime) -> None:
    """These games, not over when their player saw their deal whole (`seen_at`), are practice:
    in no record. One begun since is what it would have been dealt as on one device, unscored
    practice from the start; one unscored goes on as practice. A scored hand begun before keeps
    in its bank the points it had made by then and makes no more, so that looking cannot wipe out
    a hand going badly (a score bought back): one still in play ends there, left, since scored
    play cannot go on with every card known. Written like any other write of a game, its
    revision bumped."""
    games = games.filter(practice=False)
    unscored = Q(scoring=Game.Scoring.NONE) | Q(started_at__gt=seen_at)
    games.filter(unscored).update(
        practice=True, scoring=Game.Scoring.NONE, score=0, revision=F("revision") + 1
    )
    for game_id in games.values_list("pk", flat=True):
        _end_scored_hand(game_id, seen_at)


def _end_scored_hand(game_id: int, seen_at: datetime) -> None:
    """A scored hand made practice: its score what it stood at `seen_at`, by its log (scored play
    has no undo, so every move logged is in play)."""

    def end(row: Game) -> bool:
        if row.practice:
            return False
        logged = row.actions.filter(kind__in=(Kind.TAKE, Kind.DRAW, Kind.WILD), at__lte=seen_at)
        moves = [action.move for action in logged]
        row.score = hand_score(row.deal.cards, moves, row.scoring, rules_named(row.rules))
        row.practice = True
        if row.status == Status.PLAYING:
            _end_as_left(row)
            row.revealed, row.revealed_at = True, seen_at
        return True

    _rewrite(game_id, end)


def analysis_of_game(row: Game) -> Analysis | Findings:
    """The game's analysis, worked out the first time it is asked for and kept; one a solve's
    budget cut short, the engine's findings, only for a while (UNDECIDED_KEPT_S)."""
    if row.status == Status.PLAYING:
        raise StillPlaying
    stored = Analysis.objects.filter(game=row).first()
    if stored is not None:
        return stored
    undecided_key = f"analysis-undecided:{row.pk}:{row.version}"  # played on, it ends anew
    if (found := cache.get(undecided_key)) is not None:
        return found
    found = analyse(
        row.deal.cards, row.moves, rules_named(row.rules), budget_ms=ANALYSIS_SOLVE_BUDGET_MS
    )
    if found.winnable is not None:  # the deal's verdict too, as My games and the staff count them
        result = Deal.Verdict.WINNABLE if found.winnable else Deal.Verdict.UNWINNABLE
        verdicts.record(row.deal, row.rules, result, found.nodes)
    if not found.decided:
        cache.set(undecided_key, found, timeout=UNDECIDED_KEPT_S)
        return found
    stored, _ = Analysis.objects.get_or_create(
        game=row,
        defaults={
            "winnable": found.winnable,
            "last_winnable": found.last_winnable,
            "losing_move": found.losing_move,
            "line": list(found.line),
            "solves": found.solves,
        },
    )
    return stored


def try_again_from(
    owner: Owner, game_id: int, count: int, table: int | None = None, version: int | None = None
) -> Outcome:
    """Play a finished game's deal again from its first `count` moves, setting the table aside
    (the game `table` at `version`, if the request says: see _play_again). Its player has seen
    every card in the analysis: it is practice, unscored and in no record, lest a score or a win
    be bought."""
    source = _load(owner, game_id)
    if source.status == Status.PLAYING:
        raise StillPlaying
    if not 0 <= count <= len(source.moves):
        moves = "1 move" if len(source.moves) == 1 else f"{len(source.moves)} moves"
        raise ValueError(f"that game has {moves} in play, not {count}")
    played = source.moves[:count]
    return _play_again(owner, source, table, version, played=played, practice=True)


def open_daily(owner: Owner, day: date) -> Outcome:
    """The daily deal of `day` on the player's table: the game that is their record of it, if
    they have begun it, else a new one. The table it replaces goes as when another game is taken
    up (see take_up)."""
    table = current_game(owner)
    record = owner.games().filter(daily=day).first()
    if record is None:
        try:
            with transaction.atomic():
                record = _start(owner, daily_deal(day), Kind.NEW, daily=day)
        except IntegrityError:  # begun at the same moment by another request of theirs
            record = owner.games().get(daily=day)
    return _taking_up(owner, table, record.pk)


def take_up(owner: Owner, game_id: int) -> Outcome:
    """One of the player's games still in play made their table again (see continue_game), saying
    what became of the table it replaces."""
    try:
        return _taking_up(owner, current_game(owner), game_id, unfinished=True)
    except NotInPlay:
        return replace(open_table(owner), message=NO_LONGER_IN_PLAY)


def _taking_up(owner: Owner, table: Game | None, game_id: int, unfinished: bool = False):
    """continue_game, saying what became of `table`, the one it replaced, if it was being played:
    set aside unfinished, to be taken up again later; or, a scored hand of the deal now taken up,
    left with the score it had made (see _end_scored_hands_of)."""
    continue_game(owner, game_id, unfinished=unfinished)
    outcome = open_table(owner)
    played = table and table.status == Status.PLAYING and table.move_count
    if not played or table.pk == game_id:
        return outcome
    table.refresh_from_db(fields=["status", "score"])
    if table.status == Status.PLAYING:
        return replace(outcome, set_aside=table.pk)
    if table.status == Status.LEFT and table.scoring != Game.Scoring.NONE:
        return replace(outcome, left_score=table.score)
    return outcome


def daily_results(day: date) -> dict:
    """How the day's players did with its daily deal: how many played it to the end, the share
    who cleared it, and the median time of those who did."""
    finished = played_games().filter(daily=day)
    played = finished.count()
    won_ms = sorted(finished.filter(status=Status.WON).values_list("active_ms", flat=True))
    return {
        "played": played,
        "cleared_share": len(won_ms) / played if played else None,
        "median_ms": statistics.median(won_ms) if won_ms else None,
    }


def continue_game(owner: Owner, game_id: int, *, unfinished: bool = False) -> Game:
    """Make one of the player's games their table, exactly as it was left (with `unfinished`, only
    if it is still being played, else NotInPlay: a finished game stays as it ended). Only the
    table's clock runs: any other game's (the table it replaces, a game claimed at login) is
    stopped, and an unfinished one stays unfinished, to be taken up again later."""
    while True:
        running = owner.games().filter(running_since__isnull=False).exclude(pk=game_id)
        aside = list(running.select_related("deal"))
        row = _load(owner, game_id)
        if unfinished and row.status != Status.PLAYING:
            raise NotInPlay
        row.current_since = timezone.now()
        with transaction.atomic():
            # Written in one order, so two devices swapping tables at once cannot deadlock.
            games = sorted([row, *aside], key=lambda game: game.pk)
            if all(_take_up_or_set_aside(game, row) for game in games):
                if row.status == Status.PLAYING or _daily_left_unseen(row):  # to be played on
                    _end_scored_hands_of(owner, row.deal, but=row.pk)
                return row
            transaction.set_rollback(True)


def pause_table(owner: Owner) -> None:
    """Stop the clock of the player's table, if it runs: they are leaving it."""
    row = current_game(owner)
    if row is not None and row.running_since is not None:
        pause(owner, row.pk)


def pause(owner: Owner, game_id: int) -> None:
    """Stop the clock while the player's page is hidden (see PAUSE_COUNTED)."""

    def stop(row: Game) -> tuple[None, list]:
        if row.running_since is None:
            return None, []
        _pause_clock(row)
        return None, [(Kind.PAUSE, None)]

    apply_with_retry(owner, game_id, stop, current=False)


def resume(owner: Owner, game_id: int) -> int | None:
    """Start the clock again for the player's page in view; the clock's reading then (ms), for the
    page to show, or None if the player has moved on from this game."""

    def restart(row: Game) -> tuple[int | None, list]:
        if _stale(row, None):
            return None, []
        entries = _resume_clock(row)
        return row.elapsed_ms(), entries

    return apply_with_retry(owner, game_id, restart, current=False)


def apply_with_retry(
    owner: Owner, game_id: int, change: Change, *, current: bool = True, first: Game | None = None
) -> Outcome | None:
    """Work `change` out on one of the player's games and write it, with `current` only while it
    is still their table. Each round reads the game (the first may use the row the caller has
    just read) and writes it only if nobody wrote it in between; else the next round works the
    change out again on the game as the database now holds it. Each round someone's write goes
    through, so this ends."""
    row = first
    while True:
        row = row or _load(owner, game_id)
        try:
            outcome, entries = change(row)
        except Stale:
            return as_it_stands(owner, row)
        if not entries or rows.write_game(row, entries, current=current):
            return outcome
        row = None


# Helpers


def _make_move(
    row: Game, version: int | None, action: Move, table: Table | None = None
) -> tuple[Outcome, list]:
    """The move applied to the row (and to `table`, the row's own unless given), and the log
    entries to write with it (none when the rules refuse it)."""
    if _stale(row, version):
        raise Stale
    table = table or table_of(row)
    if row.status == Status.WON:
        return Outcome(row, table, message=DEAL_WON), []
    if row.revealed:
        return Outcome(row, table, message=REVEALED), []
    if action == UNDO and row.scoring != Game.Scoring.NONE:
        return Outcome(row, table, message=NO_UNDO_WHEN_SCORED), []
    run_before = table.run
    refusal = table.apply(action)
    if refusal:
        return Outcome(row, table, message=refusal), []
    entries = _resume_clock(row)
    outcome = Outcome(row, table, moved=_kind_of(action), news=_news(table, action, run_before))
    if action == UNDO:
        row.undo_count += 1
        entries.append((Kind.UNDO, None))
    else:
        row.move_count += 1
        entries.append((Kind.TAKE, action) if isinstance(action, int) else (action, None))
        if action == DRAW:
            outcome.run_reset = run_before
        if row.scoring != Game.Scoring.NONE:
            *_, step = steps(table.deck, table.moves, row.scoring, table.rules)
            row.score = hand_score(table.deck, table.moves, row.scoring, table.rules)
            outcome.scored = step.words
    entries += _settle(row, table)
    row.moves = table.moves
    row.seen = sorted(table.seen)
    row.cleared = table.cleared
    row.longest_run = table.longest_run
    row.version += 1
    return outcome, entries


def still_a_record(row: Game) -> bool:
    """Whether the game is a player's record of a daily deal that can still be played on (in play,
    at a dead end an undo leads out of, or today's left: see analysis_of), with cards of it unseen.
    No other hand of its deal is dealt for them meanwhile: the record would be rehearsed."""
    if row.daily is None or row.practice or len(row.seen) == DECK_SIZE:
        return False
    undone_yet = row.status == Status.DEAD_END and not row.revealed  # undo leads out of it
    return row.status == Status.PLAYING or undone_yet or _daily_left_unseen(row)


def _daily_left_unseen(row: Game) -> bool:
    """Today's daily deal left without its analysis seen: /daily takes it up again."""
    return row.status == Status.LEFT and row.daily == today() and not row.revealed


def _take_up_or_set_aside(game: Game, table: Game) -> bool:
    """Write the game taken up as the table, or stop another game's clock."""
    if game is table:
        return rows.write_game(game)
    _pause_clock(game)
    return rows.write_game(game, [(Kind.PAUSE, None)])


def _search_once(row: Game, view) -> Hint:
    """The hint's search, run once for a table however many requests ask at the same time: the
    first to ask searches, and the others, in any app server process, wait for its answer in the
    shared cache (as long as the search itself may take), else take the quick suggestion."""
    answer_key, searching_key = f"hint:{row.pk}:{row.version}", f"searching:{row.pk}:{row.version}"
    options = {"seed": seed_of(view), "budget_ms": settings.HINT_BUDGET_MS}
    wait = 2 * settings.HINT_BUDGET_MS / 1000 + GRACE_S
    # add() is False only when someone else holds the key; when the cache cannot be reached it
    # answers None, and each request searches for itself.
    if cache.add(searching_key, True, timeout=wait) is not False:
        found = search(view, **options)
        cache.set(answer_key, found, timeout=HINT_KEPT_S)
        return found
    deadline = time.monotonic() + wait
    while time.monotonic() < deadline:
        if (found := cache.get(answer_key)) is not None:
            return found
        time.sleep(HINT_POLL_S)
    return recommend(view, **options | QUICK)


def random_deal(rules: str = STANDARD_RULES, winnable: bool = False) -> Deal:
    """A deal drawn at random; with `winnable`, drawn again until the solver proves one winnable
    under `rules` (almost every deal is: the first one drawn, nearly always)."""
    while True:
        deal = Deal.for_number(random_number())
        if not winnable or verdicts.is_winnable(deal, rules):
            return deal


def random_number() -> int:
    return secrets.randbelow(RANDOM_DEALS) + 1


def today() -> date:
    """The day of the daily deal: dates are UTC's, the same for every player."""
    return datetime.now(UTC).date()


def daily_date(text: str) -> date:
    """The date of a daily deal, typed as YYYY-MM-DD, once that day has come (UTC)."""
    try:
        # Only as the deal's name writes it: fromisoformat alone also reads 20261201 or 2026-W49.
        if not DAILY_DATE.fullmatch(text):
            raise ValueError
        day = date.fromisoformat(text)
    except ValueError:
        raise DeckError(
            f"a daily deal is named by its date, daily YYYY-MM-DD, not {text[:20]!r}"
        ) from None
    if day > today():
        raise DeckError(f"the daily deal of {day.isoformat()} is not out yet")
    return day


def daily_deal(day: date) -> Deal:
    """The day's deal: the first of its candidates (game.engine.daily) that can be won."""
    key = f"daily-deal:{day.isoformat()}"
    if (deal_id := cache.get(key)) is not None and (
        deal := Deal.objects.filter(pk=deal_id).first()
    ):
        return deal
    for number in daily_candidates(day, settings.TRIPEAKS_DEAL_KEY):
        deal = Deal.for_number(number)
        if verdicts.is_winnable(deal, STANDARD_RULES):
            cache.set(key, deal.pk, timeout=DAILY_KEPT_S)
            return deal


def _load(owner: Owner, game_id: int) -> Game:
    """One of the player's games; 404 for anyone else's."""
    row = rows.load_game(owner, game_id)
    if row is None:
        raise Http404(NOT_YOURS)
    return row


def _stale(row: Game, version: int | None) -> bool:
    """A request for a game the player has moved on from, or for an older table."""
    return row.moved_on or (version is not None and version != row.version)


def as_it_stands(owner: Owner, row: Game | None = None) -> Outcome:
    """What a stale request gets: the player's table as it stands, `row`'s unless they have moved
    on from it (their current one when no row is given: the request's table was never stored)."""
    if row is not None and row.moved_on:  # another deal taken up, in another tab or device
        current = current_game(owner)
        return Outcome(current, table_of(current), message=MOVED_ON)
    row = row or current_game(owner)
    return Outcome(row, table_of(row), message=STALE)


def _seen_whole(owner: Owner, deal: Deal) -> bool:
    """Whether the player has seen every card of `deal`: in its analysis (a game of it revealed),
    in practice (dealt from an analysis), or in play (each card turned up at some time, in one
    game or across several, as open peaks and a stock drawn through show them, undone or not)."""
    games = owner.games().filter(deal=deal).values_list("revealed", "practice", "seen")
    seen = set()
    for revealed, practice, positions in games:
        if revealed or practice:
            return True
        seen.update(positions)
    return len(seen) == DECK_SIZE


def _start(
    owner: Owner,
    deal: Deal,
    kind,
    left: int | None = None,
    played=(),
    rules: str = STANDARD_RULES,
    scoring: str = Game.Scoring.NONE,
    daily=None,
    practice: bool = False,
) -> Game:
    """A new game of `deal` on the player's table, with the moves `played` made and logged. A deal
    the player has seen whole (_seen_whole) is dealt as practice, unscored, whatever asks for it
    (Replay, the deal form): a score or a win could be bought."""
    if not practice and _seen_whole(owner, deal):
        practice = True
    if practice:
        scoring = Game.Scoring.NONE
    _end_scored_hands_of(owner, deal)
    row = Game(
        deal=deal,
        rules=rules,
        scoring=scoring,
        daily=daily,
        practice=practice,
        running_since=timezone.now(),
        **owner.fields,
    )
    row.moved_on = False
    row.score = SCORE_AT_DEAL.get(scoring, 0)
    detail = {"deal": row.identifier} | ({"left": left} if left else {})
    entries = [(kind, detail)]
    table = table_of(row)
    for move in played:
        outcome, logged = _make_move(row, None, move, table)
        entries += logged
    row.move_count = 0  # those moves were given, not made: the game counts once its player moves
    row.seen = sorted(table.seen)
    rows.write_game(row, entries)
    return row


def _settle(row: Game, table: Table) -> list:
    """The status after a move: a win or dead end stops the clock, undoing a dead end restarts
    it."""
    status = Status.WON if table.won else Status.DEAD_END if table.dead_end else Status.PLAYING
    if status == row.status:
        return []
    row.status = status
    if status == Status.PLAYING:
        row.finished_at = None
        # An analysis is of the game as it ended; played on, it ends anew (staff may have looked).
        Analysis.objects.filter(game=row).delete()
        return _resume_clock(row)
    _stop_clock(row)
    row.finished_at = timezone.now()
    return [(Kind.WIN if status == Status.WON else Kind.DEAD_END, None)]


def _resume_clock(row: Game) -> list:
    if row.running_since is not None or row.status != Status.PLAYING:
        return []
    row.running_since = timezone.now()
    if row.paused_at is not None:
        row.active_ms += min(_ms_between(row.paused_at, row.running_since), PAUSE_COUNTED)
        row.paused_at = None
    return [(Kind.RESUME, None)]


def _pause_clock(row: Game) -> None:
    _stop_clock(row)
    row.paused_at = timezone.now()


def _ms_between(start, end) -> int:
    return int((end - start).total_seconds() * 1000)


def _stop_clock(row: Game) -> None:
    row.active_ms = row.elapsed_ms()
    row.running_since = None


def _end_as_left(row: Game) -> None:
    """A game in play ends here, left for another (skipped if untouched), with what it made."""
    _stop_clock(row)
    row.status = row.left_status()
    row.finished_at = timezone.now()


def _end_scored_hands_of(owner: Owner, deal: Deal, but: int | None = None) -> None:
    """The player's scored hands of `deal` set aside unfinished (but the game `but`) end, left
    with what they made: the deal is being played in another hand, which shows its cards, and a
    scored hand taken up again knowing them could buy its score back."""

    def end(row: Game) -> bool:
        if row.status != Status.PLAYING:
            return False
        _end_as_left(row)
        return True

    in_play = owner.games().filter(deal=deal, status=Status.PLAYING).exclude(pk=but)
    for game_id in in_play.exclude(scoring=Game.Scoring.NONE).values_list("pk", flat=True):
        _rewrite(game_id, end)


def _rewrite(game_id: int, change: Callable[[Game], bool]) -> None:
    """Work `change` out on the game as stored (False: nothing to change) and write it if nobody
    wrote it in between; else work it out again on the game as it then stands."""
    while True:
        row = Game.objects.select_related("deal").get(pk=game_id)
        if not change(row) or rows.write_game(row):
            return


def _kind_of(action: Move) -> str:
    return action if isinstance(action, str) else "take"


def _news(table: Table, action: Move, run_before: int) -> str:
    """The live region's sentence after a move: what it did and what the table shows now, as
    the eye takes it in."""
    if action == UNDO:
        return f"Move undone. The waste shows {_waste_words(table)}."
    if action == WILD:
        news = "Wild card laid: any card fits onto it."
    elif action == DRAW:
        reset = f" Run reset from {run_before} to 0." if run_before else ""
        news = f"Drew {_waste_words(table)}.{reset} {table.stock_count} left in the stock."
    elif table.won:
        return f"Took {_waste_words(table)}. All 28 cleared: the deal is won!"
    else:
        opened = [card_label(table.deck[up]) for up in COVERS[action] if table.is_uncovered(up)]
        verb = "Freed" if table.rules.open_peaks else "Turned over"
        turned = f" {verb} the {' and the '.join(opened)}." if opened else ""
        news = (
            f"Took {_waste_words(table)}.{turned} Cleared {table.cleared} of 28, run {table.run}."
        )
    # However it came, a dead end is said: the panel that shows it is not read out.
    return news + (" No legal move is left." if table.dead_end else "")


def _waste_words(table: Table) -> str:
    if table.wild_on_waste:
        return "the wild card"
    return "nothing" if table.waste_top is None else f"the {card_label(table.waste_top)}"
