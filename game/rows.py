"""A game's row and its log, read and written by hand-written SQL.

A tap reads one game (`load_game`) and writes it back with its new log entries (`write_game`);
built by the ORM, these statements cost several times the CPU of the rest of the tap
(bench/README.md), so they are written out here once. Their values still go through the model's
fields, exactly as Model.save would send them and a query would load them.

Every write is conditional on the row's `revision`, and bumps it: a write made from a row that
someone else has written since it was read changes nothing and says so, and its caller reads the
game again and decides afresh (`play.apply_with_retry`). A move's write also checks that the game
is still its player's current one. On PostgreSQL the row and its log entries are written by one
statement; on SQLite, which has no data-modifying WITH, by two in one transaction.
"""

from functools import cache, lru_cache

from django.db import DEFAULT_DB_ALIAS, connections, transaction
from django.utils import timezone

from game.models import Action, Deal, Game
from game.owners import Owner

GAME_FIELDS = list(Game._meta.concrete_fields)
GAME_ATTNAMES = [field.attname for field in GAME_FIELDS]
WRITTEN_FIELDS = [field for field in GAME_FIELDS if not field.primary_key]
DEAL_FIELDS = [Deal._meta.get_field(name) for name in ("id", "deck", "number")]
ENTRY_FIELDS = [Action._meta.get_field(name) for name in ("seq", "kind", "pos", "detail", "at")]
LOGGED_COLUMNS = ", ".join(["game_id", *(field.column for field in ENTRY_FIELDS)])

GAME_SQL = """
SELECT {game_columns}, deal.id, deal.deck, deal.number, EXISTS (
    SELECT 1 FROM game_game newer WHERE {newer_is_theirs}
    AND (newer.current_since, newer.id) > (game.current_since, game.id)
) AS moved_on
FROM game_game game JOIN game_deal deal ON deal.id = game.deal_id
WHERE game.id = %s AND {game_is_theirs}
"""
"""One game with its deal, and whether its player has moved on to a newer one. The game's columns
are named, not `game.*`: a prepared statement must not change its columns when a migration adds
one."""
UPDATE_SQL = "UPDATE game_game SET {} WHERE id = %s AND revision = %s".format(
    ", ".join(f"{field.column} = %s" for field in WRITTEN_FIELDS)
)
STILL_CURRENT = """ AND NOT EXISTS (
    SELECT 1 FROM game_game newer WHERE {newer_is_theirs}
    AND (newer.current_since, newer.id) > (game_game.current_since, game_game.id)
)"""
INSERT_SQL = "INSERT INTO game_game ({}) VALUES ({}) RETURNING id".format(
    ", ".join(field.column for field in WRITTEN_FIELDS), ", ".join(["%s"] * len(WRITTEN_FIELDS))
)
LOGGED_UPDATE_SQL = """
WITH written AS ({update} RETURNING id)
INSERT INTO game_action ({logged_columns})
SELECT written.id, entry.* FROM written, (VALUES {entries}) AS entry
RETURNING game_id
"""
"""PostgreSQL: the row's conditional UPDATE and its log entries in one statement; no row comes
back when the update's condition fails."""


def load_game(owner: Owner, game_id: int) -> Game | None:
    """One of the player's games with its deal and `moved_on`; None if it is not theirs."""
    connection = connections[DEFAULT_DB_ALIAS]
    key = owner.session_key if owner.user_id is None else owner.user_id
    with connection.cursor() as cursor:
        cursor.execute(_game_sql(owner.user_id is None), [key, game_id, key])
        found = cursor.fetchone()
    if found is None:
        return None
    values = _loaded(connection, found)
    game_values = values[: len(GAME_FIELDS)]
    deal_values = values[len(GAME_FIELDS) : len(GAME_FIELDS) + len(DEAL_FIELDS)]
    row = Game.from_db(connection.alias, GAME_ATTNAMES, game_values)
    row.deal = Deal.from_db(connection.alias, [field.attname for field in DEAL_FIELDS], deal_values)
    row.moved_on = bool(found[-1])
    return row


def write_game(row: Game, entries: list = (), *, current: bool = False) -> bool:
    """Write the row and append `entries` (kind, then a position or a detail dict) to its log, in
    order, if nobody has written the row since it was read (and, with `current`, its player has not
    moved on to another game). False, with nothing written and the row as it was, otherwise.

    A new row (no pk) is inserted. The row counts its log entries, so numbering the next ones needs
    no query."""
    connection = connections[DEFAULT_DB_ALIAS]
    log = _entries(connection, row.logged + 1, entries)
    if row.pk is None:
        row.logged += len(log)
        _insert(connection, row, log)
        return True
    read_revision, logged = row.revision, row.logged
    row.revision, row.logged = read_revision + 1, logged + len(log)
    update, params = _update(connection, row, read_revision, current)
    with connection.cursor() as cursor:
        if not log:
            cursor.execute(update, params)
            written = cursor.rowcount == 1
        elif connection.vendor == "postgresql":
            sql = LOGGED_UPDATE_SQL.format(
                update=update, logged_columns=LOGGED_COLUMNS, entries=_entry_rows(len(log))
            )
            cursor.execute(sql, [*params, *(value for entry in log for value in entry)])
            written = cursor.fetchone() is not None
        else:
            with transaction.atomic(savepoint=False):
                cursor.execute(update, params)
                written = cursor.rowcount == 1
                if written:
                    _append(cursor, row.pk, log)
    if not written:
        row.revision, row.logged = read_revision, logged
    return written


@cache
def _game_sql(anonymous: bool) -> str:
    owner = Owner(user_id=None if anonymous else 0)
    return GAME_SQL.format(
        game_columns=", ".join(f"game.{field.column}" for field in GAME_FIELDS),
        newer_is_theirs=_theirs("newer", owner)[0],
        game_is_theirs=_theirs("game", owner)[0],
    )


def _update(connection, row: Game, read_revision: int, current: bool) -> tuple[str, list]:
    """UPDATE_SQL (with STILL_CURRENT if asked) for the row, and its parameters."""
    values = _prepared(connection, WRITTEN_FIELDS, [f.pre_save(row, False) for f in WRITTEN_FIELDS])
    sql, params = UPDATE_SQL, [*values, row.pk, read_revision]
    if current:
        newer_is_theirs, key = _theirs("newer", Owner(row.owner_id, row.session_key))
        sql += STILL_CURRENT.format(newer_is_theirs=newer_is_theirs)
        params.append(key)
    return sql, params


def _insert(connection, row: Game, log: list[list]) -> None:
    values = _prepared(connection, WRITTEN_FIELDS, [f.pre_save(row, True) for f in WRITTEN_FIELDS])
    with transaction.atomic(savepoint=False), connection.cursor() as cursor:
        cursor.execute(INSERT_SQL, values)
        (row.pk,) = cursor.fetchone()
        if log:
            _append(cursor, row.pk, log)


def _append(cursor, game_id: int, log: list[list]) -> None:
    rows = ", ".join(["({})".format(", ".join(["%s"] * (1 + len(ENTRY_FIELDS))))] * len(log))
    params = [value for entry in log for value in (game_id, *entry)]
    cursor.execute(f"INSERT INTO game_action ({LOGGED_COLUMNS}) VALUES {rows}", params)


@cache
def _entry_rows(count: int) -> str:
    """VALUES rows for `count` log entries, each value cast to its column's type (VALUES alone
    would take a missing position for text)."""
    connection = connections[DEFAULT_DB_ALIAS]
    casts = [field.cast_db_type(connection) for field in ENTRY_FIELDS]
    entry = "({})".format(", ".join(f"%s::{cast}" for cast in casts))
    return ", ".join([entry] * count)


def _entries(connection, first: int, entries: list) -> list[list]:
    """Each entry's ENTRY_FIELDS values as the database takes them, numbered from `first`."""
    now = timezone.now()
    prepared = []
    for seq, (kind, extra) in enumerate(entries, start=first):
        pos = extra if isinstance(extra, int) else None
        detail = extra if isinstance(extra, dict) else {}
        prepared.append(_prepared(connection, ENTRY_FIELDS, (seq, kind, pos, detail, now)))
    return prepared


def _theirs(alias: str, owner: Owner) -> tuple[str, object]:
    """The condition that a game (table alias) is the player's, as the indexes serve it, and its
    parameter."""
    if owner.user_id is None:
        return f"{alias}.owner_id IS NULL AND {alias}.session_key = %s", owner.session_key
    return f"{alias}.owner_id = %s", owner.user_id


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
    """For each game and deal column of GAME_SQL, the backend's and the field's converters, as
    the ORM applies them. Per connection object (one per thread)."""
    columns = [field.get_col(field.model._meta.db_table) for field in GAME_FIELDS + DEAL_FIELDS]
    return [
        (column, connection.ops.get_db_converters(column) + column.get_db_converters(connection))
        for column in columns
    ]
