"""The hand-written statements of game.rows read and write exactly what the ORM does."""

from datetime import timedelta

import psycopg
import pytest
from django.db import OperationalError, close_old_connections, connection
from django.http import Http404
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from game import play, rows
from game.models import Action, Deal, Game

pytestmark = pytest.mark.django_db

OWNER = {"owner": None, "session_key": "s" * 32}


def field_values(game: Game) -> dict:
    return {field.attname: getattr(game, field.attname) for field in Game._meta.concrete_fields}


@pytest.fixture
def stored():
    """A game whose every column holds something other than its default."""
    game = play.current(OWNER).row
    Game.objects.filter(pk=game.pk).update(
        moves=[18, "draw", 20],
        seen=[0, 5, 18, 27],
        cleared=2,
        longest_run=2,
        move_count=3,
        undo_count=1,
        hint_count=4,
        active_ms=61_234,
        running_since=timezone.now() - timedelta(seconds=5),
        version=7,
        finished_at=timezone.now(),
    )
    return Game.objects.get(pk=game.pk)


def test_fetch_loads_a_game_and_its_deal_as_the_orm_does(stored):
    fetched = rows.fetch(OWNER, stored.pk)

    assert field_values(fetched) == field_values(stored)
    assert timezone.is_aware(fetched.running_since)
    assert (fetched.deal.pk, fetched.deal.deck, fetched.deal.number) == (
        stored.deal.pk,
        stored.deal.deck,
        stored.deal.number,
    )
    assert fetched.moved_on is False


def test_fetch_finds_no_game_of_another_player(stored):
    assert rows.fetch({"owner": None, "session_key": "t" * 32}, stored.pk) is None
    assert rows.fetch(OWNER, stored.pk + 1000) is None


def test_fetch_tells_that_the_player_has_moved_on(stored):
    play.new_deal(OWNER, stored.pk, stored.version)

    assert rows.fetch(OWNER, stored.pk).moved_on is True


def test_save_writes_every_field_and_appends_to_the_log(stored):
    row = rows.fetch(OWNER, stored.pk, lock=True)
    row.moves = [18, "draw"]
    row.seen = [0, 1, 2]
    row.status = Game.Status.DEAD_END
    row.running_since = None
    row.finished_at = timezone.now()
    row.version += 1
    before = timezone.now()

    rows.save(row, [("undo", None), ("take", 19), ("hint", {"move": 3, "verdict": ""})])

    saved = Game.objects.get(pk=row.pk)
    assert field_values(saved) == field_values(row) | {"updated_at": saved.updated_at}
    assert saved.updated_at >= before and saved.logged == stored.logged + 3
    log = list(saved.actions.values_list("seq", "kind", "pos", "detail"))[-3:]
    assert log == [
        (stored.logged + 1, "undo", None, {}),
        (stored.logged + 2, "take", 19, {}),
        (stored.logged + 3, "hint", None, {"move": 3, "verdict": ""}),
    ]


def test_save_inserts_a_new_game_with_its_first_entry():
    row = Game(deal=Deal.for_number(5), running_since=timezone.now(), **OWNER)

    rows.save(row, [("new", {"deal": "5"})])

    assert field_values(Game.objects.get(pk=row.pk)) == field_values(row)
    assert row.logged == 1
    entry = Action.objects.get(game=row)
    assert (entry.seq, entry.kind, entry.detail) == (1, "new", {"deal": "5"})
    row.hint_count = 1
    row.save()  # the ORM takes the row as stored: it updates it
    assert Game.objects.filter(**OWNER).get().hint_count == 1


postgres_only = pytest.mark.skipif(
    connection.vendor != "postgresql",
    reason="PostgreSQL writes a move without a transaction; SQLite takes the write lock instead",
)


@postgres_only
def test_save_writes_nothing_to_a_row_written_since_it_was_read(stored):
    row = rows.fetch(OWNER, stored.pk)
    Game.objects.filter(pk=stored.pk).update(hint_count=9)  # someone else's write
    row.version += 1

    assert rows.save(row, [("draw", None)]) is False

    saved = Game.objects.get(pk=stored.pk)
    assert (saved.version, saved.logged, saved.hint_count) == (stored.version, stored.logged, 9)
    assert saved.actions.count() == stored.actions.count()
    assert row.logged == stored.logged


@postgres_only
def test_a_row_read_again_after_a_lost_race_saves(stored):
    rows.fetch(OWNER, stored.pk)
    Game.objects.filter(pk=stored.pk).update(hint_count=9)
    row = rows.fetch(OWNER, stored.pk)
    row.version += 1

    assert rows.save(row, [("draw", None)]) is True
    assert rows.save(row, [("pause", None)]) is True  # its token follows its own writes

    saved = Game.objects.get(pk=stored.pk)
    assert (saved.version, saved.logged) == (stored.version + 1, stored.logged + 2)


@postgres_only
def test_a_move_that_loses_the_race_is_worked_out_again(monkeypatch):
    """Another request writes the game after this tap read it: the tap, made for the table it
    read, is stale; one without a version is applied to the table as the other request left it."""
    game = play.current(OWNER).row
    reads = []
    table_of = play.table_of

    def racing_table_of(row):
        reads.append(row.version)
        if len(reads) == 1:  # between this request's read and its write
            play.move(OWNER, game.pk, row.version, "draw")
        return table_of(row)

    monkeypatch.setattr(play, "table_of", racing_table_of)
    stale = play.move(OWNER, game.pk, game.version, "draw")

    assert stale.message == play.STALE and stale.row.version == game.version + 1

    reads.clear()
    applied = play.move(OWNER, game.pk, None, "draw")

    # This tap's read, the other request's read of the same table, then this tap's second read.
    assert reads == [game.version + 1, game.version + 1, game.version + 2]
    assert not applied.message and applied.row.version == game.version + 3
    saved = Game.objects.get(pk=game.pk)
    assert saved.moves == ["draw"] * 3 and saved.version == game.version + 3
    assert list(saved.actions.values_list("kind", flat=True)) == ["new", "draw", "draw", "draw"]


@postgres_only
@pytest.mark.django_db(transaction=True)
def test_a_taps_read_replaces_a_connection_the_database_dropped(stored):
    """The game's read stands for the request's health check: it finds the kept connection gone
    (as after a database restart), connects again and answers."""
    connection.ensure_connection()
    dropped = connection.connection.info.backend_pid
    with psycopg.connect(**connection.get_connection_params()) as other:
        other.execute("SELECT pg_terminate_backend(%s)", [dropped])
    close_old_connections()  # a new request begins

    assert rows.fetch(OWNER, stored.pk).pk == stored.pk
    assert connection.connection.info.backend_pid != dropped


@postgres_only
@pytest.mark.django_db(transaction=True)
def test_within_a_request_a_dropped_connection_is_an_error(stored):
    rows.fetch(OWNER, stored.pk)  # the request's check is done
    with psycopg.connect(**connection.get_connection_params()) as other:
        other.execute("SELECT pg_terminate_backend(%s)", [connection.connection.info.backend_pid])

    with pytest.raises(OperationalError):
        rows.fetch(OWNER, stored.pk)
    connection.close()


# A process's kept rows (PostgreSQL)


@pytest.fixture
def kept(monkeypatch):
    """This process's kept rows, empty to begin with."""
    monkeypatch.setattr(rows, "_recent", {})
    return rows._recent


def statements(action) -> list[str]:
    with CaptureQueriesContext(connection) as captured:
        action()
    return [query["sql"] for query in captured.captured_queries]


@postgres_only
def test_a_tap_on_a_row_its_process_kept_is_one_statement(kept):
    game = play.current(OWNER).row
    first = play.move(OWNER, game.pk, game.version, "draw")  # read, then written and kept

    sent = statements(lambda: play.move(OWNER, game.pk, first.row.version, "draw"))

    assert len(sent) == 1 and sent[0].lstrip().startswith("WITH written AS (UPDATE")
    saved = Game.objects.get(pk=game.pk)
    assert saved.moves == ["draw", "draw"] and saved.version == game.version + 2


@postgres_only
def test_a_new_game_is_one_statement_and_kept_for_its_first_tap(kept):
    row = Game(deal=Deal.for_number(5), running_since=timezone.now(), **OWNER)

    sent = statements(lambda: rows.save(row, [("new", {"deal": "5"})]))

    assert len(sent) == 1 and sent[0].lstrip().startswith("WITH written AS (INSERT")
    tapped = statements(lambda: play.move(OWNER, row.pk, row.version, "draw"))
    assert len(tapped) == 1 and Game.objects.get(pk=row.pk).moves == ["draw"]


@postgres_only
def test_a_hint_is_one_read_and_one_write(kept):
    game = play.current(OWNER).row

    sent = statements(lambda: play.hint(OWNER, game.pk, game.version))

    assert len(sent) == 2 and sent[0].lstrip().startswith("SELECT")
    assert sent[1].lstrip().startswith("WITH written AS (UPDATE")
    saved = Game.objects.get(pk=game.pk)
    assert saved.hint_count == 1 and saved.actions.latest("seq").kind == "hint"


@postgres_only
def test_a_kept_row_another_server_has_changed_is_read_again(kept):
    game = play.current(OWNER).row
    first = play.move(OWNER, game.pk, game.version, "draw")
    # Another app server's draw, written behind this process's back.
    Game.objects.filter(pk=game.pk).update(moves=["draw", "draw"], version=first.row.version + 1)

    stale = play.move(OWNER, game.pk, first.row.version, "draw")
    assert stale.message == play.STALE and stale.row.version == first.row.version + 1

    kept.clear()
    play.move(OWNER, game.pk, first.row.version, "draw")  # kept afresh, out of date again
    Game.objects.filter(pk=game.pk).update(moves=["draw"] * 3, version=first.row.version + 2)
    applied = play.move(OWNER, game.pk, first.row.version + 2, "draw")

    assert not applied.message and applied.row.version == first.row.version + 3
    assert Game.objects.get(pk=game.pk).moves == ["draw"] * 4


@postgres_only
def test_a_refusal_is_never_answered_from_a_kept_row(kept):
    game = play.current(OWNER).row
    play.move(OWNER, game.pk, game.version, "draw")
    # Elsewhere the deal was won; this process still keeps the row as it was.
    Game.objects.filter(pk=game.pk).update(status=Game.Status.WON)

    answer = play.move(OWNER, game.pk, None, 0)

    assert answer.message == play.DEAL_WON


@postgres_only
def test_a_tap_on_a_game_its_player_left_elsewhere_is_stale(kept):
    """The player took up another game on another device, which did not write this one (its
    clock was stopped): the kept row still looks current, and the write finds out."""
    first = play.current(OWNER).row
    table = play.new_deal(OWNER, first.pk, first.version).row
    drawn = play.move(OWNER, table.pk, table.version, "draw").row
    play.pause(OWNER, table.pk)
    play.take_up(OWNER, first.pk)

    answer = play.move(OWNER, table.pk, drawn.version, "draw")

    assert answer.message == play.STALE and answer.row.pk == first.pk
    assert Game.objects.get(pk=table.pk).moves == ["draw"]


@postgres_only
def test_a_kept_row_is_not_anyone_elses(kept):
    game = play.current(OWNER).row
    play.move(OWNER, game.pk, game.version, "draw")

    with pytest.raises(Http404):
        play.move({"owner": None, "session_key": "t" * 32}, game.pk, None, "draw")


@postgres_only
def test_a_process_keeps_a_bounded_number_of_rows(kept, monkeypatch):
    monkeypatch.setattr(rows, "RECENT_ROWS", 2)
    games = [play.current({"owner": None, "session_key": f"{i}" * 32}).row for i in range(3)]
    for i, game in enumerate(games):
        rows.fetch({"owner": None, "session_key": f"{i}" * 32}, game.pk)

    assert list(kept) == [games[1].pk, games[2].pk]


@postgres_only
@pytest.mark.django_db(transaction=True)
def test_a_taps_write_replaces_a_connection_the_database_dropped(kept):
    """A tap on a kept row reads nothing: its write stands for the health check instead."""
    game = play.current(OWNER).row
    first = play.move(OWNER, game.pk, game.version, "draw")
    dropped = connection.connection.info.backend_pid
    with psycopg.connect(**connection.get_connection_params()) as other:
        other.execute("SELECT pg_terminate_backend(%s)", [dropped])
    close_old_connections()  # a new request begins

    second = play.move(OWNER, game.pk, first.row.version, "draw")

    assert not second.message and connection.connection.info.backend_pid != dropped
    assert Game.objects.get(pk=game.pk).moves == ["draw", "draw"]
