"""A game's row and log, read and written by hand-written SQL.

Every move reads one game and writes it back with its new log entries. The ORM builds these
statements afresh each time, and building them took several times longer than the database takes
to run them, so the three statements are written out here, once; the values still go through
the model's fields, so they reach each backend exactly as Model.save would send them and come
back as a query would load them. Each function looks up the thread's connection once: every
attribute read through `django.db.connection` goes through a thread-local proxy.
"""

from functools import cache, lru_cache

from django.db import DEFAULT_DB_ALIAS, connections
from django.utils import timezone

from game.models import Action, Deal, Game

GAME_SQL = """
SELECT {game_columns}, deal.deck, deal.number,
    EXISTS (
        SELECT 1 FROM game_game newer
        WHERE {newer_is_theirs}
        AND (newer.current_since, newer.id) > (game.current_since, game.id)
    ) AS moved_on
FROM game_game game JOIN game_deal deal ON deal.id = game.deal_id
WHERE game.id = %s AND {game_is_theirs}
"""
"""One game with its deal and whether its player has moved on to another (`play.latest` has a
later one). The game's columns are named, not `game.*`: a prepared statement must not change its
columns when a migration adds one."""
GAME_FIELDS = list(Game._meta.concrete_fields)
GAME_ATTNAMES = [field.attname for field in GAME_FIELDS]
GAME_COLUMNS = ", ".join(f"game.{field.column}" for field in GAME_FIELDS)
DEAL_FIELDS = [Deal._meta.get_field(name) for name in ("deck", "number")]

UPDATED_FIELDS = [field for field in GAME_FIELDS if not field.primary_key]
UPDATE_SQL = "UPDATE game_game SET {} WHERE id = %s".format(
    ", ".join(f"{field.column} = %s" for field in UPDATED_FIELDS)
)
LOGGED_FIELDS = [
    Action._meta.get_field(name) for name in ("game", "seq", "kind", "pos", "detail", "at")
]


def game_query(owner: dict, game_id: int, lock: bool = False) -> tuple[str, list]:
    """GAME_SQL for one of the player's games, and its parameters."""
    connection = connections[DEFAULT_DB_ALIAS]
    newer_is_theirs, key = _theirs("newer", owner)
    game_is_theirs, _ = _theirs("game", owner)
    sql = GAME_SQL.format(
        game_columns=GAME_COLUMNS, newer_is_theirs=newer_is_theirs, game_is_theirs=game_is_theirs
    )
    if lock and connection.features.has_select_for_update:
        sql += " FOR UPDATE OF game"
    return sql, [key, game_id, key]


def fetch(owner: dict, game_id: int, lock: bool = False) -> Game | None:
    """One of the player's games with its deal and `moved_on`, or None if it is not theirs."""
    connection = connections[DEFAULT_DB_ALIAS]
    with connection.cursor() as cursor:
        cursor.execute(*game_query(owner, game_id, lock))
        found = cursor.fetchone()
    if found is None:
        return None
    values = _loaded(connection, found)
    row = Game.from_db(connection.alias, GAME_ATTNAMES, values[: len(GAME_FIELDS)])
    deal = [row.deal_id, *values[len(GAME_FIELDS) :]]
    row.deal = Deal.from_db(connection.alias, ["id", "deck", "number"], deal)
    row.moved_on = bool(found[-1])
    return row


def save(row: Game, entries: list) -> None:
    """Write the row and append entries (kind, position or detail) to its log, in order. The row
    counts its log entries, so numbering the next ones needs no query."""
    first = row.logged + 1
    row.logged += len(entries)
    connection = connections[DEFAULT_DB_ALIAS]
    with connection.cursor() as cursor:
        if row.pk is None:
            row.save()
        else:
            values = [field.pre_save(row, False) for field in UPDATED_FIELDS]
            cursor.execute(UPDATE_SQL, [*_prepared(connection, UPDATED_FIELDS, values), row.pk])
        now = timezone.now()
        params = []
        for seq, (kind, extra) in enumerate(entries, start=first):
            pos = extra if isinstance(extra, int) else None
            detail = extra if isinstance(extra, dict) else {}
            params += _prepared(connection, LOGGED_FIELDS, (row.pk, seq, kind, pos, detail, now))
        cursor.execute(_insert_sql(len(entries)), params)


def _theirs(alias: str, owner: dict) -> tuple[str, object]:
    """The condition that a game (table alias) is the player's, as the indexes serve it, and its
    parameter."""
    if owner["owner"] is None:
        return f"{alias}.owner_id IS NULL AND {alias}.session_key = %s", owner["session_key"]
    return f"{alias}.owner_id = %s", owner["owner"].pk


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
