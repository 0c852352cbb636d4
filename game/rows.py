"""A game's row and log, read and written by hand-written SQL.

Every move reads one game and writes it back with its new log entries. The ORM builds these
statements afresh each time, and building them took several times longer than the database takes
to run them, so the statements are written out here, once; the values still go through the
model's fields, so they reach each backend exactly as Model.save would send them and come back as
a query would load them. Each function looks up the thread's connection once: every attribute
read through `django.db.connection` goes through a thread-local proxy.

On PostgreSQL a move needs no transaction of its own (see `change`): the row and its log entries
are written by one statement, and only if nobody has written the row since it was read. Each
process also keeps the rows it last read or wrote (`RECENT_ROWS`), so a tap usually reads
nothing: its write finds out whether the kept row is still the one in the database. A tap is
then one statement and one round trip to the database, where a locked transaction took five.
"""

import threading
from contextlib import nullcontext
from functools import cache, lru_cache

from django.db import DEFAULT_DB_ALIAS, InterfaceError, OperationalError, connections, transaction
from django.utils import timezone

from game.models import Action, Deal, Game

GAME_SQL = """
SELECT {game_columns}, deal.deck, deal.number, {token} AS token,
    EXISTS (
        SELECT 1 FROM game_game newer
        WHERE {newer_is_theirs}
        AND (newer.current_since, newer.id) > (game.current_since, game.id)
    ) AS moved_on
FROM game_game game JOIN game_deal deal ON deal.id = game.deal_id
WHERE game.id = %s AND {game_is_theirs}
"""
"""One game with its deal and whether its player has moved on to another (`play.latest` has a
later one), with the row's `token` on PostgreSQL (see `save`). The game's columns are named, not
`game.*`: a prepared statement must not change its columns when a migration adds one."""
TOKEN = "{table}.xmin::text || ' ' || {table}.ctid::text"
"""PostgreSQL: what changes whenever the row is written, by anyone. Every write makes a new version
of the row: xmin names the transaction that wrote it, and ctid where it lies, which tells apart
two versions written by one transaction."""
GAME_FIELDS = list(Game._meta.concrete_fields)
GAME_ATTNAMES = [field.attname for field in GAME_FIELDS]
GAME_COLUMNS = ", ".join(f"game.{field.column}" for field in GAME_FIELDS)
DEAL_FIELDS = [Deal._meta.get_field(name) for name in ("deck", "number")]

UPDATED_FIELDS = [field for field in GAME_FIELDS if not field.primary_key]
UPDATE_SQL = "UPDATE game_game SET {} WHERE id = %s".format(
    ", ".join(f"{field.column} = %s" for field in UPDATED_FIELDS)
)
INSERT_SQL = "INSERT INTO game_game ({}) VALUES ({})".format(
    ", ".join(field.column for field in UPDATED_FIELDS), ", ".join(["%s"] * len(UPDATED_FIELDS))
)
GAME_KEY = Action._meta.get_field("game")
ENTRY_FIELDS = [Action._meta.get_field(name) for name in ("seq", "kind", "pos", "detail", "at")]
LOGGED_FIELDS = [GAME_KEY, *ENTRY_FIELDS]

WRITE_SQL = """
WITH written AS ({write}{unchanged}{current} RETURNING id, {token} AS token)
INSERT INTO game_action ({logged_columns})
SELECT written.id, entry.* FROM written, (VALUES {entries}) AS entry
RETURNING (SELECT token FROM written), (SELECT id FROM written)
"""
"""PostgreSQL: the row (UPDATE_SQL, or INSERT_SQL for a new game) and its new log entries in one
statement, so in one transaction of its own. With a token (the row as it was read) the row is
written only if it is unchanged since, and with `current` only if it is still its player's current
game; else nothing is, and the statement returns no rows."""
NEWER = """
NOT EXISTS (
    SELECT 1 FROM game_game newer
    WHERE {newer_is_theirs}
    AND (newer.current_since, newer.id) > (game_game.current_since, game_game.id)
)"""
"""PostgreSQL, for WRITE_SQL: the player has not moved on from the game (GAME_SQL's `moved_on`)."""

RECENT_ROWS = 4096
"""PostgreSQL: how many rows each process keeps, as it last read or wrote them, with their tokens
(see `fetch`); the oldest kept is dropped first."""
_recent: dict[int, tuple] = {}
_recent_lock = threading.Lock()


def change():
    """The scope of one change to a game: read the row, work out the move, `save`. SQLite lets one
    writer at a time in, so there this is a transaction that takes the write lock as it begins
    (`transaction_mode`); PostgreSQL needs none: `save` writes only a row unchanged since it was
    read, and says whether it did, so the caller reads again and decides afresh."""
    if _versioned(connections[DEFAULT_DB_ALIAS]):
        return nullcontext()
    return transaction.atomic()


def _versioned(connection) -> bool:
    """Whether the game query reads each row's token and `save` writes only an unchanged row: one
    decision for both, so that no row is ever written unchecked for want of a token."""
    return connection.vendor == "postgresql"


def game_query(owner: dict, game_id: int, lock: bool = False) -> tuple[str, list]:
    """GAME_SQL for one of the player's games, and its parameters."""
    connection = connections[DEFAULT_DB_ALIAS]
    owner_key = _owner_key(owner)
    newer_is_theirs, key = _theirs("newer", *owner_key)
    game_is_theirs, _ = _theirs("game", *owner_key)
    sql = GAME_SQL.format(
        game_columns=GAME_COLUMNS,
        token=TOKEN.format(table="game") if _versioned(connection) else "NULL",
        newer_is_theirs=newer_is_theirs,
        game_is_theirs=game_is_theirs,
    )
    if lock and connection.features.has_select_for_update:
        sql += " FOR UPDATE OF game"
    return sql, [key, game_id, key]


def fetch(owner: dict, game_id: int, lock: bool = False, recent: bool = False) -> Game | None:
    """One of the player's games with its deal and `moved_on`, or None if it is not theirs.

    With `recent`, on PostgreSQL, the row as this process last read or wrote it, if it kept it:
    `recent` is then set on the row and `moved_on` is False, both unchecked. Such a row may be
    out of date, so it is good only for a `save` that checks both (`current`): an answer that
    writes nothing must come from the database's own row."""
    connection = connections[DEFAULT_DB_ALIAS]
    if recent and not lock and _versioned(connection):
        row = _recalled(owner, game_id)
        if row is not None:
            return row
    found = _first_row(connection, *game_query(owner, game_id, lock))
    if found is None:
        return None
    values = _loaded(connection, found)
    row = Game.from_db(connection.alias, GAME_ATTNAMES, values[: len(GAME_FIELDS)])
    deal = [row.deal_id, *values[len(GAME_FIELDS) :]]
    row.deal = Deal.from_db(connection.alias, ["id", "deck", "number"], deal)
    row.token, row.moved_on, row.recent = found[-2], bool(found[-1]), False
    if row.token is not None:
        _remember(row)
    return row


def _remember(row: Game) -> None:
    """Keep the row as it now stands in the database, as its token says."""
    values = tuple(_copied(getattr(row, name)) for name in GAME_ATTNAMES)
    with _recent_lock:
        _recent.pop(row.pk, None)
        _recent[row.pk] = (values, row.deal, row.token)
        if len(_recent) > RECENT_ROWS:
            del _recent[next(iter(_recent))]


def _recalled(owner: dict, game_id: int) -> Game | None:
    """The kept row of one of the player's games, if there is one."""
    kept = _recent.get(game_id)
    if kept is None:
        return None
    values, deal, token = kept
    row = Game.from_db(DEFAULT_DB_ALIAS, GAME_ATTNAMES, [_copied(value) for value in values])
    if _owner_key(owner) != (row.owner_id, row.session_key if row.owner_id is None else None):
        return None
    row.deal, row.token, row.moved_on, row.recent = deal, token, False, True
    return row


def _copied(value):
    """A JSON column's list apart from the row's, which its caller may change."""
    return list(value) if isinstance(value, list) else value


def _first_row(connection, sql: str, params: list, repeatable: bool = True) -> tuple | None:
    """The first row of a statement that also stands for the request's connection health check
    (CONN_HEALTH_CHECKS): a kept connection that the database has dropped, as a restart does, is
    replaced and the statement sent again, without the check's own round trip before every tap.
    Only a `repeatable` statement outside a transaction may be sent twice: a read, or a write
    that checks the row's token (had the first one gone through, the second finds the row
    changed and writes nothing)."""
    stands_for_check = (
        repeatable
        and connection.health_check_enabled
        and not connection.health_check_done
        and connection.connection is not None
        and not connection.in_atomic_block
    )
    if stands_for_check:
        connection.health_check_done = True
    try:
        return _fetchone(connection, sql, params)
    except (OperationalError, InterfaceError):
        if not stands_for_check:
            raise
        connection.close()
    return _fetchone(connection, sql, params)


def _fetchone(connection, sql: str, params: list) -> tuple | None:
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        return cursor.fetchone()


def save(row: Game, entries: list, current: bool = False) -> bool:
    """Write the row and append entries (kind, position or detail) to its log, in order. False,
    with nothing written, when someone else has written the row since `fetch` read it, or, with
    `current`, when its player has moved on to another game (only on PostgreSQL outside a
    transaction holding the row's lock: see `change`). The row counts its log entries, so
    numbering the next ones needs no query."""
    assert entries, "every write of a game is logged"
    connection = connections[DEFAULT_DB_ALIAS]
    log = _entries(connection, row.logged + 1, entries)
    row.logged += len(entries)
    if row.pk is None:
        _insert(connection, row, log)
        return True
    if not _versioned(connection):
        write(row)
        _append(connection, row.pk, log)
        return True
    token = getattr(row, "token", None)
    sql, params = _write_query(row, token, _updated(connection, row), log, current)
    written = _first_row(connection, sql, params, repeatable=token is not None)
    if written is None:
        row.logged -= len(entries)
        return False
    row.token = written[0]
    _remember(row)
    return True


def write(row: Game) -> None:
    """Write the row as it stands and add nothing to its log: for what is no move in it (a game
    left for another deal, or taken up again), inside the transaction that locked it."""
    connection = connections[DEFAULT_DB_ALIAS]
    with connection.cursor() as cursor:
        cursor.execute(UPDATE_SQL, _updated(connection, row))


def _updated(connection, row: Game) -> list:
    """UPDATE_SQL's parameters for the row."""
    return [*_columns(connection, row, adding=False), row.pk]


def _columns(connection, row: Game, adding: bool) -> list:
    """The row's UPDATED_FIELDS values as the database takes them, as Model.save prepares them
    for an update or, `adding`, an insert."""
    values = [field.pre_save(row, adding) for field in UPDATED_FIELDS]
    return _prepared(connection, UPDATED_FIELDS, values)


def _insert(connection, row: Game, log: list[list]) -> None:
    """A new game with its first log entries; on PostgreSQL in one statement, and kept, so its
    first tap reads nothing either."""
    values = _columns(connection, row, adding=True)
    if _versioned(connection):
        sql = _write_sql(len(log), False, "", insert=True)
        params = [*values, *(value for entry in log for value in entry)]
        row.token, row.pk = _fetchone(connection, sql, params)
        _remember(row)
    else:
        with connection.cursor() as cursor:
            cursor.execute(f"{INSERT_SQL} RETURNING id", values)
            (row.pk,) = cursor.fetchone()
        _append(connection, row.pk, log)
    # As the ORM leaves a saved row: a later save() updates it.
    row._state.adding, row._state.db = False, connection.alias


def _write_query(
    row: Game, token: str | None, update: list, log: list[list], current: bool
) -> tuple[str, list]:
    """PostgreSQL: WRITE_SQL for the row's UPDATE_SQL values and its log entries, checked against
    the token if there is one, and its parameters."""
    checks = [] if token is None else [token]
    newer_is_theirs = ""
    if current:
        newer_is_theirs, key = _theirs("newer", row.owner_id, row.session_key)
        checks.append(key)
    sql = _write_sql(len(log), token is not None, newer_is_theirs)
    return sql, [*update, *checks, *(value for entry in log for value in entry)]


def _entries(connection, first: int, entries: list) -> list[list]:
    """Each entry's ENTRY_FIELDS values as the database takes them, numbered from `first`."""
    now = timezone.now()
    prepared = []
    for seq, (kind, extra) in enumerate(entries, start=first):
        pos = extra if isinstance(extra, int) else None
        detail = extra if isinstance(extra, dict) else {}
        prepared.append(_prepared(connection, ENTRY_FIELDS, (seq, kind, pos, detail, now)))
    return prepared


def _append(connection, game_id: int, log: list[list]) -> None:
    game = GAME_KEY.get_db_prep_save(game_id, connection)
    with connection.cursor() as cursor:
        cursor.execute(_insert_sql(len(log)), [value for entry in log for value in (game, *entry)])


def _owner_key(owner: dict) -> tuple[int | None, str | None]:
    """The player's account id, or None and their anonymous session's key."""
    if owner["owner"] is None:
        return None, owner["session_key"]
    return owner["owner"].pk, None


def _theirs(alias: str, owner_id: int | None, session_key: str | None) -> tuple[str, object]:
    """The condition that a game (table alias) is the player's, as the indexes serve it, and its
    parameter."""
    if owner_id is None:
        return f"{alias}.owner_id IS NULL AND {alias}.session_key = %s", session_key
    return f"{alias}.owner_id = %s", owner_id


@cache
def _write_sql(count: int, checked: bool, newer_is_theirs: str, insert: bool = False) -> str:
    """WRITE_SQL for `count` entries; `checked`: only if the row's token is as it was read;
    `newer_is_theirs` (if any): only if no game so named is newer; `insert`: a new game. Each
    entry's values are cast to their columns' types (VALUES alone would take a missing position
    for text)."""
    casts = [field.cast_db_type(connections[DEFAULT_DB_ALIAS]) for field in ENTRY_FIELDS]
    entry = "({})".format(", ".join(f"%s::{cast}" for cast in casts))
    return WRITE_SQL.format(
        write=INSERT_SQL if insert else UPDATE_SQL,
        unchanged=f" AND {TOKEN.format(table='game_game')} = %s" if checked else "",
        current=f" AND {NEWER.format(newer_is_theirs=newer_is_theirs)}" if newer_is_theirs else "",
        token=TOKEN.format(table="game_game"),
        logged_columns=", ".join(field.column for field in LOGGED_FIELDS),
        entries=", ".join([entry] * count),
    )


@cache
def _insert_sql(count: int) -> str:
    columns = ", ".join(field.column for field in LOGGED_FIELDS)
    row = "({})".format(", ".join(["%s"] * len(LOGGED_FIELDS)))
    return f"INSERT INTO game_action ({columns}) VALUES {', '.join([row] * count)}"


def _prepared(connection, fields, values) -> list:
    """Values as the database takes them (JSON and times adapted to the backend)."""
    return [
        field.get_db_prep_save(value, connection)
        for field, value in zip(fields, values, strict=True)
    ]


def _loaded(connection, found: tuple) -> list:
    """GAME_SQL's game and deal columns as a query loads them (JSON decoded; on SQLite, times
    parsed and made aware)."""
    loaded = []
    for value, (column, converters) in zip(found, _converters(connection), strict=False):
        for convert in converters:
            value = convert(value, column, connection)
        loaded.append(value)
    return loaded


@lru_cache(maxsize=64)
def _converters(connection) -> list:
    """For each game and deal column of GAME_SQL, the backend's and the field's converters, as the
    ORM would apply them. Per connection object (one per thread), built once."""
    columns = [field.get_col(field.model._meta.db_table) for field in GAME_FIELDS + DEAL_FIELDS]
    return [
        (column, connection.ops.get_db_converters(column) + column.get_db_converters(connection))
        for column in columns
    ]
