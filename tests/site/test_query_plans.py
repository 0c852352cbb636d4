"""Every tap reads its game and writes it back. On PostgreSQL, among many other players' games,
indexes serve each part of both, so a tap costs the same with a thousand games or a hundred
million."""

import pytest
from django.db import connection

from game import play
from game.models import Deal
from game.owners import Owner

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
            "INSERT INTO game_deal (deck, number, created_at)"
            " SELECT md5(i::text) || md5((-i)::text), NULL, now()"
            " FROM generate_series(1, %s) AS i",
            [OTHER_DEALS],
        )
        cursor.execute(
            "INSERT INTO game_game (owner_id, session_key, deal_id, status, moves, seen, cleared,"
            " longest_run, move_count, undo_count, hint_count, active_ms, version, revision,"
            " logged, started_at, current_since, updated_at, rules, scoring, score, revealed,"
            " practice)"
            " SELECT NULL, md5(i::text), %s + i %% %s, 'playing', '[]', '[]', 0, 0, 0, 0, 0, 0,"
            " 0, 0, 0, now(), now() - i * interval '1 second', now(), 'standard', 'none', 0,"
            " FALSE, FALSE"
            " FROM generate_series(1, %s) AS i",
            [first.pk, OTHER_DEALS, OTHER_GAMES],
        )
        cursor.execute("ANALYZE game_game, game_deal")


def statements_of(action) -> list[tuple[str, list]]:
    """The statements `action` sends, with their parameters."""
    sent = []

    def record(execute, sql, params, many, context):
        sent.append((sql, params))
        return execute(sql, params, many, context)

    with connection.execute_wrapper(record):
        action()
    return sent


def plans(statements) -> list[str]:
    plans = []
    with connection.cursor() as cursor:
        for sql, params in statements:
            cursor.execute(f"EXPLAIN {sql}", params)
            plans.append("\n".join(row[0] for row in cursor.fetchall()))
    return plans


def a_taps_statements(owner: Owner) -> list[tuple[str, list]]:
    game = play.open_table(owner).row
    sent = statements_of(lambda: play.move(owner, game.pk, game.version, "draw"))
    assert game.moves != play.current_game(owner).moves  # the tap was played
    return sent


def test_an_anonymous_players_tap_reads_no_whole_table(crowded):
    sent = a_taps_statements(Owner(session_key="k" * 32))

    assert not [plan for plan in plans(sent) if "Seq Scan" in plan]


def test_an_account_holders_tap_reads_no_whole_table(crowded, django_user_model):
    user = django_user_model.objects.create_user("alice", password="x")
    sent = a_taps_statements(Owner.of_user(user))

    assert not [plan for plan in plans(sent) if "Seq Scan" in plan]
