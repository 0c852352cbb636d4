"""Every tap reads its game (unless its process kept the row) and writes it back. On PostgreSQL,
among many other players' games, indexes serve each part of both, so a tap costs the same with a
thousand games or a hundred million."""

import pytest
from django.db import connection

from game import play, rows
from game.models import Deal

pytestmark = [
    pytest.mark.skipif(
        connection.vendor != "postgresql", reason="query plans are PostgreSQL's (its own CI pass)"
    ),
    pytest.mark.django_db,
]

OTHER_GAMES = 20_000
OTHER_DEALS = 5_000


@pytest.fixture
def crowded():
    """Many games of other players, most of them anonymous, of many deals, with the planner's
    statistics for both tables (which also makes the plans independent of what earlier tests
    left in the planner's idea of the tables' sizes)."""
    first = Deal.for_number(1)
    with connection.cursor() as cursor:
        # Stand-in deck codes: the plan depends on how many deals there are, not on their cards.
        cursor.execute(
            "INSERT INTO game_deal (deck, number, created_at, verdict, verdict_nodes)"
            " SELECT md5(i::text) || md5((-i)::text), NULL, now(), '', NULL"
            " FROM generate_series(1, %s) AS i",
            [OTHER_DEALS],
        )
        cursor.execute(
            "INSERT INTO game_game (owner_id, session_key, deal_id, status, moves, seen, cleared,"
            " longest_run, move_count, undo_count, hint_count, active_ms, version, logged,"
            " started_at, current_since, updated_at)"
            " SELECT NULL, md5(i::text), %s + i %% %s, 'playing', '[]', '[]', 0, 0, 0, 0, 0, 0,"
            " 0, 0, now(), now() - i * interval '1 second', now()"
            " FROM generate_series(1, %s) AS i",
            [first.pk, OTHER_DEALS, OTHER_GAMES],
        )
        cursor.execute("ANALYZE game_game, game_deal")


def plan_of_the_game_query(owner, game, lock):
    sql, params = rows.game_query(owner, game.pk, lock)
    with connection.cursor() as cursor:
        cursor.execute(f"EXPLAIN {sql}", params)
        return "\n".join(row[0] for row in cursor.fetchall())


# A tap reads the game without a lock; a hint, a new deal or the clock lock it.
@pytest.mark.parametrize("lock", [False, True])
def test_an_anonymous_players_game_query_reads_no_whole_table(crowded, lock):
    owner = {"owner": None, "session_key": "k" * 32}
    game = play.current(owner).row

    assert "Seq Scan" not in plan_of_the_game_query(owner, game, lock)


@pytest.mark.parametrize("lock", [False, True])
def test_an_account_holders_game_query_reads_no_whole_table(crowded, django_user_model, lock):
    owner = {"owner": django_user_model.objects.create_user("alice", password="x")}
    game = play.current(owner).row

    assert "Seq Scan" not in plan_of_the_game_query(owner, game, lock)


def plan_of_a_taps_write(owner, monkeypatch):
    game = play.current(owner).row
    sent = []
    first_row = rows._first_row

    def sending(connection, sql, params, **options):
        sent.append((sql, params))
        return first_row(connection, sql, params, **options)

    monkeypatch.setattr(rows, "_first_row", sending)
    play.move(owner, game.pk, game.version, "draw")
    sql, params = sent[-1]
    assert "NOT EXISTS" in sql  # the write checks that the player has not moved on
    with connection.cursor() as cursor:
        cursor.execute(f"EXPLAIN {sql}", params)
        return "\n".join(row[0] for row in cursor.fetchall())


def test_an_anonymous_players_write_reads_no_whole_table(crowded, monkeypatch):
    owner = {"owner": None, "session_key": "k" * 32}

    assert "Seq Scan" not in plan_of_a_taps_write(owner, monkeypatch)


def test_an_account_holders_write_reads_no_whole_table(crowded, django_user_model, monkeypatch):
    owner = {"owner": django_user_model.objects.create_user("alice", password="x")}

    assert "Seq Scan" not in plan_of_a_taps_write(owner, monkeypatch)
