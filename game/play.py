"""Playing a game: every change to a player's game goes through here, one request at a time.

A change rebuilds the table from the deal and the moves in play, applies the move and writes the
log and the snapshot together, so no move or log entry is ever lost and two taps never
interleave: a move writes the row only if it is as the move read it (`rows.change`), the rarer
changes lock it (select_for_update inside a transaction). A request made against an older
table (its version is not the game's, or the game is no longer the player's current one) changes
nothing: the player gets the current table back.

A player's current game, the one `/` shows, is the one that became their table last
(`current_since`): the newest game, unless they took up an older unfinished one again.
"""

import secrets
from dataclasses import dataclass

from django.conf import settings
from django.db import transaction
from django.db.models import Q
from django.http import Http404
from django.utils import timezone

from game import rows
from game.engine import state
from game.engine.cards import card_label
from game.engine.deck import MAX_DEAL_NUMBER, DeckError
from game.engine.hint import Hint
from game.engine.knowledge import view_of
from game.hint_search import search
from game.models import Action, Deal, Game

Status = Game.Status
Kind = Action.Kind

RANDOM_DEALS = 1_000_000
"""New deals are drawn from deal numbers 1 .. RANDOM_DEALS."""

STALE = "The table had changed before that tap arrived; this is how it stands now."
DEAL_WON = "This deal is won: start a new deal or replay it."
NOT_YOURS = "There is no such game among yours."
NO_DEAL = "nothing was typed: type a deal number or a deck code"


@dataclass
class Outcome:
    """What a request did to a game, for the page to show."""

    row: Game
    table: state.Table
    message: str = ""
    """Why nothing changed: a refused move or a stale request."""
    news: str = ""
    """What changed, for the live region."""
    moved: str = ""
    """"take", "draw" or "undo" when the table changed."""
    run_reset: int = 0
    """The run a draw has just reset to zero."""
    hint: Hint | None = None


RENEWED = "renewed"
"""Session key: the day the session was last renewed."""


def owner_of(request) -> dict:
    """Filter and fields naming the requester's games: the user, else the anonymous session.

    The first request of each day renews the session (a changed session is saved, and its cookie
    sent again with a new expiry), so it lasts for as long as the player keeps coming back, not
    two weeks from their first visit: an anonymous player reaches their games only through it."""
    today = timezone.localdate().isoformat()
    if request.session.get(RENEWED) != today:
        request.session[RENEWED] = today
    if request.user.is_authenticated:
        return {"owner": request.user}
    if request.session.session_key is None:
        request.session.save()
    return {"owner": None, "session_key": request.session.session_key}


def latest(owner: dict) -> Game | None:
    """The player's current game."""
    games = Game.objects.filter(**owner).select_related("deal")
    return games.order_by("-current_since", "-pk").first()


def table_of(row: Game) -> state.Table:
    """The table from the deal and the moves in play, with everything the player has seen."""
    table = state.Table.replay(row.deal.cards, row.moves)
    table.seen |= set(row.seen)
    return table


def deal_from_text(text: str) -> Deal:
    """A deal from what a player typed: a deal number or a deck code. Raises DeckError."""
    text = text.strip()
    if not text:
        raise DeckError(NO_DEAL)
    if text.isascii() and text.isdigit():
        # More digits than any deal number has: let the range check say so.
        too_long = len(text) > len(str(MAX_DEAL_NUMBER))
        return Deal.for_number(MAX_DEAL_NUMBER + 1 if too_long else int(text))
    return Deal.for_code(text)


def current(owner: dict, resume: bool = True) -> Outcome:
    """The player's current game, a new deal if there is none; the clock runs while they look.
    Only a change takes a transaction: a look at a table whose clock runs writes nothing."""
    row = latest(owner)
    if row is None:
        with transaction.atomic():
            row = _start(owner, _random_deal(), Kind.NEW)
    elif resume and row.running_since is None and row.status == Status.PLAYING:
        with transaction.atomic():
            row = _lock(owner, row.pk)
            if entries := _resume_clock(row):
                rows.save(row, entries)
    return Outcome(row, table_of(row))


def move(owner: dict, game_id: int, version: int | None, action: state.Move) -> Outcome:
    """Take a card (a position), draw or undo (written as `_changed` says)."""
    return _changed(owner, game_id, lambda row: _moved(row, version, action))


def _changed(owner: dict, game_id: int, change) -> Outcome:
    """Apply `change` (a row to its outcome and log entries, as `_moved`) to the game and write
    it. The change is worked out on the row as this process last saw it, if it kept it
    (`rows.fetch`), else as read; should that row be out of date, or another request write the
    game between reading and writing it, the change is worked out again on the game as the
    database now holds it (a request made for the older table is then stale): each round,
    someone's write goes through. An answer that writes nothing (a refusal, a stale request) is
    given only from a row just read."""
    recent = True
    while True:
        with rows.change():
            row = _owned(owner, game_id, recent=recent)
            recent = False
            outcome, entries = change(row)
            if entries and rows.save(row, entries, current=True):
                return outcome
            if not entries and not row.recent:
                return outcome or _answer_stale(owner, row)


def _moved(row: Game, version: int | None, action: state.Move) -> tuple[Outcome | None, list]:
    """The move applied to the row, and the log entries to write with it; no entries when it
    changes nothing, and no outcome either when the request is stale."""
    if _stale(row, version):
        return None, []
    table = table_of(row)
    if row.status == Status.WON:
        return Outcome(row, table, message=DEAL_WON), []
    run_before = table.run
    refusal = table.apply(action)
    if refusal:
        return Outcome(row, table, message=refusal), []
    entries = _resume_clock(row)
    outcome = Outcome(row, table, moved=_kind_of(action))
    if action == state.UNDO:
        row.undo_count += 1
        entries.append((Kind.UNDO, None))
        outcome.news = "Move undone."
    else:
        row.move_count += 1
        entries.append((Kind.DRAW, None) if action == state.DRAW else (Kind.TAKE, action))
        outcome.news = _news(table, action, run_before)
        if action == state.DRAW:
            outcome.run_reset = run_before
    entries += _settle(row, table)
    row.moves = table.moves
    row.seen = sorted(table.seen)
    row.cleared = table.cleared
    row.longest_run = table.longest_run
    row.version += 1
    return outcome, entries


def leave(owner: dict, game_id: int, version: int | None, deal: Deal | None, kind) -> Outcome:
    """Start a new game (of `deal`, or this game's deal again when None), leaving this one."""
    with transaction.atomic():
        row = _lock(owner, game_id)
        if _stale(row, version):
            return _answer_stale(owner, row)
        if row.status == Status.PLAYING:
            _stop_clock(row)
            row.status = row.left_status()
            row.finished_at = timezone.now()
            rows.write(row)
        fresh = _start(owner, deal or row.deal, kind, left=row.pk)
        return Outcome(fresh, table_of(fresh), news=f"Deal {fresh.deal.identifier} dealt.")


def new_deal(owner: dict, game_id: int, version: int | None) -> Outcome:
    return leave(owner, game_id, version, _random_deal(), Kind.NEW)


def replay_deal(owner: dict, game_id: int) -> Outcome:
    """Play the deal of any of the player's games again; the table is left as by New deal."""
    deal = _owned(owner, game_id).deal
    return leave(owner, latest(owner).pk, None, deal, Kind.REPLAY)


def hint(owner: dict, game_id: int, version: int | None) -> Outcome:
    """The Hint for the table as it stands. The search runs without holding the row, so taps go
    on meanwhile; its log entry is then written as a move is (`_changed`), onto the row only if it
    is still the one the search was for. If a tap lands first, this hint is stale and is neither
    logged nor shown. Asked again for the same table, it answers as it did, without searching
    again: pressing Hint twice costs the machine one search."""
    row = _owned(owner, game_id)
    if _stale(row, version):
        return _answer_stale(owner, row)
    table = table_of(row)
    asked_at = row.version
    found = last_hint(row) or search(
        view_of(table), seed=row.pk * 1_000_003 + asked_at, budget_ms=settings.HINT_BUDGET_MS
    )
    detail = {"move": found.move, "verdict": found.verdict, "reason": found.reason}

    def logged(row: Game) -> tuple[Outcome | None, list]:
        if _stale(row, asked_at):
            return None, []
        row.hint_count += 1
        entries = [*_resume_clock(row), (Kind.HINT, {**detail, "version": asked_at})]
        return Outcome(row, table, news=found.reason, hint=found), entries

    return _changed(owner, game_id, logged)


def last_hint(row: Game) -> Hint | None:
    """The hint shown with this table, if one was asked for since the last move."""
    if not row.hint_count:
        return None
    entry = row.actions.filter(kind=Kind.HINT).order_by("-seq").first()
    if entry is None or entry.detail.get("version") != row.version:
        return None
    detail = entry.detail
    return Hint(detail["move"], detail["verdict"], detail["reason"])


def take_up(owner: dict, game_id: int, *, unfinished: bool = False) -> Game:
    """Make one of the player's games their table, exactly as it was left (with `unfinished`,
    only if it is still being played: a finished game stays as it ended). Only the table's clock
    runs: any other game's (the table it replaces, a game claimed at login) is stopped, and an
    unfinished one stays unfinished, to be taken up again later."""
    with transaction.atomic():
        games = Game.objects.select_for_update(of=("self",)).select_related("deal")
        # Locked in one order, so two devices swapping tables at once cannot deadlock.
        taken_up = Q(pk=game_id, status=Status.PLAYING) if unfinished else Q(pk=game_id)
        mine = games.filter(taken_up | Q(running_since__isnull=False), **owner)
        locked = {row.pk: row for row in mine.order_by("pk")}
        row = locked.pop(game_id, None)
        if row is None:
            raise Http404(NOT_YOURS)
        for aside in locked.values():
            _stop_clock(aside)
            rows.save(aside, [(Kind.PAUSE, None)])
        row.current_since = timezone.now()
        rows.write(row)
        return row


def pause(owner: dict, game_id: int) -> None:
    with transaction.atomic():
        row = _lock(owner, game_id)
        if row.running_since is not None:
            _stop_clock(row)
            rows.save(row, [(Kind.PAUSE, None)])


def resume(owner: dict, game_id: int) -> None:
    with transaction.atomic():
        row = _lock(owner, game_id)
        if not _stale(row, None) and (entries := _resume_clock(row)):
            rows.save(row, entries)


# Helpers


def _random_deal() -> Deal:
    return Deal.for_number(secrets.randbelow(RANDOM_DEALS) + 1)


def _owned(owner: dict, game_id: int, lock: bool = False, recent: bool = False) -> Game:
    """One of the player's games (404 for anyone else's), locked for the transaction if asked,
    or as this process last saw it if it kept it (`recent`: see `rows.fetch`)."""
    row = rows.fetch(owner, game_id, lock, recent)
    if row is None:
        raise Http404(NOT_YOURS)
    return row


def _lock(owner: dict, game_id: int) -> Game:
    return _owned(owner, game_id, lock=True)


def _stale(row: Game, version: int | None) -> bool:
    """A request for a game the player has moved on from, or for an older table."""
    return row.moved_on or (version is not None and version != row.version)


def _answer_stale(owner: dict, row: Game) -> Outcome:
    """What a stale request gets: the player's table as it stands, which is another game's if
    they have moved on from this one."""
    if row.moved_on:
        row = latest(owner)
    return Outcome(row, table_of(row), message=STALE)


def _start(owner: dict, deal: Deal, kind, left: int | None = None) -> Game:
    table = state.Table(deal.cards)
    row = Game(deal=deal, seen=sorted(table.seen), running_since=timezone.now(), **owner)
    detail = {"deal": deal.identifier} | ({"left": left} if left else {})
    rows.save(row, [(kind, detail)])
    return row


def _settle(row: Game, table: state.Table) -> list:
    """The status after a move: a win or dead end stops the clock, undoing a dead end restarts
    it."""
    status = Status.WON if table.won else Status.DEAD_END if table.dead_end else Status.PLAYING
    if status == row.status:
        return []
    row.status = status
    if status == Status.PLAYING:
        row.finished_at = None
        return _resume_clock(row)
    _stop_clock(row)
    row.finished_at = timezone.now()
    return [(Kind.WIN if status == Status.WON else Kind.DEAD_END, None)]


def _resume_clock(row: Game) -> list:
    if row.running_since is not None or row.status != Status.PLAYING:
        return []
    row.running_since = timezone.now()
    return [(Kind.RESUME, None)]


def _stop_clock(row: Game) -> None:
    row.active_ms = row.elapsed_ms()
    row.running_since = None


def _kind_of(action: state.Move) -> str:
    return action if isinstance(action, str) else "take"


def _news(table: state.Table, action: state.Move, run_before: int) -> str:
    """The live region's sentence after a take or draw."""
    top = card_label(table.waste_top)
    if action == state.DRAW:
        reset = f" Run reset from {run_before} to 0." if run_before else ""
        return f"Drew the {top}.{reset} {table.stock_count} left in the stock."
    if table.won:
        return f"Took the {top}. All 28 cleared: the deal is won!"
    news = f"Took the {top}. Cleared {table.cleared} of 28, run {table.run}."
    return news + (" No legal move is left." if table.dead_end else "")
