"""The hand-written statements of game.rows read and write exactly what the ORM does, and every
write is conditional on the row's revision, on SQLite and PostgreSQL alike."""

import threading
from concurrent.futures import ThreadPoolExecutor
from datetime import timedelta
from importlib import import_module

import psycopg
import pytest
from django.apps import apps
from django.db import close_old_connections, connection
from django.db.models import F
from django.utils import timezone

from game import play, rows
from game.models import Action, Deal, Game
from game.owners import Owner

pytestmark = pytest.mark.django_db

OWNER = Owner(session_key="s" * 32)
SOMEONE_ELSE = Owner(session_key="t" * 32)


def field_values(game: Game) -> dict:
    return {field.attname: getattr(game, field.attname) for field in Game._meta.concrete_fields}


def written_behind_its_back(game: Game, **changes) -> None:
    """Another request's write of the game, as every write is: its revision bumped."""
    Game.objects.filter(pk=game.pk).update(revision=F("revision") + 1, **changes)


@pytest.fixture
def stored():
    """A game whose every column holds something other than its default."""
    game = play.open_table(OWNER).row
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
        revision=9,
        finished_at=timezone.now(),
    )
    return Game.objects.get(pk=game.pk)


def test_load_game_loads_a_game_and_its_deal_as_the_orm_does(stored):
    loaded = rows.load_game(OWNER, stored.pk)

    assert field_values(loaded) == field_values(stored)
    assert timezone.is_aware(loaded.running_since)
    assert (loaded.deal.pk, loaded.deal.deck, loaded.deal.number) == (
        stored.deal.pk,
        stored.deal.deck,
        stored.deal.number,
    )
    assert loaded.moved_on is False


def test_load_game_finds_no_game_of_another_player(stored, django_user_model):
    account = Owner.of_user(django_user_model.objects.create_user("alice", password="x"))

    assert rows.load_game(SOMEONE_ELSE, stored.pk) is None
    assert rows.load_game(account, stored.pk) is None
    assert rows.load_game(OWNER, stored.pk + 1000) is None


def test_load_game_tells_that_the_player_has_moved_on(stored):
    play.new_deal(OWNER, stored.pk, stored.version)

    assert rows.load_game(OWNER, stored.pk).moved_on is True


def test_write_game_writes_every_field_bumps_the_revision_and_appends_to_the_log(stored):
    row = rows.load_game(OWNER, stored.pk)
    row.moves = [18, "draw"]
    row.seen = [0, 1, 2]
    row.status = Game.Status.DEAD_END
    row.running_since = None
    row.finished_at = timezone.now()
    row.version += 1
    before = timezone.now()

    assert rows.write_game(row, [("undo", None), ("take", 19), ("hint", {"move": 3})])

    saved = Game.objects.get(pk=row.pk)
    assert field_values(saved) == field_values(row) | {"updated_at": saved.updated_at}
    assert saved.revision == stored.revision + 1 and saved.logged == stored.logged + 3
    assert saved.updated_at >= before
    log = list(saved.actions.values_list("seq", "kind", "pos", "detail"))[-3:]
    assert log == [
        (stored.logged + 1, "undo", None, {}),
        (stored.logged + 2, "take", 19, {}),
        (stored.logged + 3, "hint", None, {"move": 3}),
    ]


def test_write_game_inserts_a_new_game_with_its_first_entry():
    row = Game(deal=Deal.for_number(5), running_since=timezone.now(), **OWNER.fields)

    assert rows.write_game(row, [("new", {"deal": "5"})])

    assert field_values(Game.objects.get(pk=row.pk)) == field_values(row)
    entry = Action.objects.get(game=row)
    assert (entry.seq, entry.kind, entry.detail) == (1, "new", {"deal": "5"})
    row.hint_count = 1
    assert rows.write_game(row, [("hint", {})])  # the row as inserted is the row to write next
    assert Game.objects.get(pk=row.pk).logged == 2


@pytest.mark.parametrize("entries", [[("draw", None)], []], ids=["logged", "unlogged"])
def test_write_game_writes_nothing_to_a_row_written_since_it_was_read(stored, entries):
    row = rows.load_game(OWNER, stored.pk)
    written_behind_its_back(stored, hint_count=9)
    row.version += 1

    assert rows.write_game(row, entries) is False

    saved = Game.objects.get(pk=stored.pk)
    assert (saved.version, saved.logged, saved.hint_count) == (stored.version, stored.logged, 9)
    assert saved.actions.count() == stored.actions.count()
    assert (row.revision, row.logged) == (stored.revision, stored.logged)


def test_a_moves_write_checks_that_the_game_is_still_the_players_table(stored):
    row = rows.load_game(OWNER, stored.pk)
    Game.objects.create(deal=stored.deal, current_since=timezone.now(), **OWNER.fields)

    assert rows.write_game(row, [("draw", None)], current=True) is False
    assert rows.write_game(row, [("pause", None)]) is True


def interleaved(monkeypatch, between):
    """Run `between()` once, right after the next game read: another request that lands between
    this one's read and its write."""
    load_game = rows.load_game

    def load_then_interleave(owner, game_id):
        row = load_game(owner, game_id)
        monkeypatch.setattr(rows, "load_game", load_game)
        between()
        return row

    monkeypatch.setattr(rows, "load_game", load_then_interleave)


def test_a_move_that_loses_the_race_is_stale_or_worked_out_again(monkeypatch):
    """Another request writes the game after this tap read it: the tap, made for the table it
    read, is stale; one without a version is applied to the table as the other left it."""
    game = play.open_table(OWNER).row
    interleaved(monkeypatch, lambda: play.move(OWNER, game.pk, game.version, "draw"))
    stale = play.move(OWNER, game.pk, game.version, "draw")

    assert stale.message == play.STALE and stale.row.version == game.version + 1

    interleaved(monkeypatch, lambda: play.move(OWNER, game.pk, None, "draw"))
    applied = play.move(OWNER, game.pk, None, "draw")

    assert not applied.message and applied.row.version == game.version + 3
    saved = Game.objects.get(pk=game.pk)
    assert saved.moves == ["draw"] * 3 and saved.version == game.version + 3
    assert list(saved.actions.values_list("kind", flat=True)) == ["new", "draw", "draw", "draw"]


def test_a_hint_entry_is_not_written_over_a_move_that_landed_first(monkeypatch):
    game = play.open_table(OWNER).row
    written_by_the_move = []

    def tap_during_search():
        written_by_the_move.append(play.move(OWNER, game.pk, game.version, "draw"))

    monkeypatch.setattr(
        play, "search", lambda *a, **k: tap_during_search() or play.Hint(0, None, "")
    )
    answer = play.hint(OWNER, game.pk, game.version)

    assert answer.message == play.STALE and answer.hint is None
    saved = Game.objects.get(pk=game.pk)
    assert saved.hint_count == 0 and saved.moves == ["draw"]


def test_two_requests_to_leave_one_table_start_one_new_game(monkeypatch):
    game = play.open_table(OWNER).row
    interleaved(monkeypatch, lambda: play.new_deal(OWNER, game.pk, game.version))

    second = play.new_deal(OWNER, game.pk, game.version)

    games = OWNER.games()
    assert games.count() == 2
    fresh = games.exclude(pk=game.pk).get()
    assert second.message == play.MOVED_ON and second.row.pk == fresh.pk
    assert games.get(pk=game.pk).status == Game.Status.SKIPPED


def test_a_tap_on_a_game_its_player_left_elsewhere_meanwhile_is_stale(monkeypatch):
    first = play.open_table(OWNER).row
    table = play.new_deal(OWNER, first.pk, first.version).row
    interleaved(monkeypatch, lambda: play.continue_game(OWNER, first.pk))

    answer = play.move(OWNER, table.pk, table.version, "draw")

    assert answer.message == play.MOVED_ON and answer.row.pk == first.pk
    assert Game.objects.get(pk=table.pk).moves == []


def test_taking_a_game_up_while_a_tap_lands_on_the_table_it_replaces(monkeypatch):
    first = play.open_table(OWNER).row
    table = play.new_deal(OWNER, first.pk, first.version).row
    interleaved(monkeypatch, lambda: play.move(OWNER, table.pk, table.version, "draw"))

    taken_up = play.continue_game(OWNER, first.pk)

    assert taken_up.pk == play.current_game(OWNER).pk == first.pk
    aside = Game.objects.get(pk=table.pk)
    assert aside.moves == ["draw"] and aside.running_since is None
    assert list(aside.actions.values_list("kind", flat=True)) == ["new", "draw", "pause"]


def test_pausing_while_a_tap_lands_keeps_both(monkeypatch):
    game = play.open_table(OWNER).row
    interleaved(monkeypatch, lambda: play.move(OWNER, game.pk, game.version, "draw"))

    play.pause(OWNER, game.pk)

    saved = Game.objects.get(pk=game.pk)
    assert saved.moves == ["draw"] and saved.running_since is None
    assert list(saved.actions.values_list("kind", flat=True)) == ["new", "draw", "pause"]


def test_a_game_claimed_at_login_is_written_like_any_other(client, django_user_model):
    """A tap read before the claim cannot write the game back to the anonymous session."""
    django_user_model.objects.create_user("alice", password="a long pass phrase")
    client.get("/")
    anonymous = Owner(session_key=client.session.session_key)
    row = rows.load_game(anonymous, play.current_game(anonymous).pk)

    client.post("/accounts/login/", {"username": "alice", "password": "a long pass phrase"})

    row.version += 1
    assert rows.write_game(row, [("draw", None)], current=True) is False
    assert Game.objects.get(pk=row.pk).owner.username == "alice"


postgres_only = pytest.mark.skipif(
    connection.vendor != "postgresql", reason="SQLite runs one write at a time"
)


@postgres_only
@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("by_code_too", [False, True], ids=["by number", "by number and code"])
def test_a_new_deal_started_by_many_requests_at_once_is_stored_once(by_code_too):
    """Requests inserting one new deal at once collide on its deck and on its number: none may
    fail, and all of them get the one row, which keeps the number."""
    at_once = 8
    start = threading.Barrier(at_once)

    def deal(number, request):
        start.wait()
        try:
            if by_code_too and request % 2:
                return Deal.for_code(Deal.deck_of(number)).pk
            return Deal.for_number(number).pk
        finally:
            connection.close()

    with ThreadPoolExecutor(at_once) as pool:
        for number in range(9001, 9011):
            assert len(set(pool.map(deal, [number] * at_once, range(at_once)))) == 1
    assert Deal.objects.filter(number__range=(9001, 9010)).count() == 10


@postgres_only
@pytest.mark.django_db(transaction=True)
def test_a_tap_after_the_database_dropped_the_connection_is_answered():
    """As after a database restart: the next request finds the kept connection gone (Django's
    CONN_HEALTH_CHECKS), connects again and answers."""
    game = play.open_table(OWNER).row
    connection.ensure_connection()
    dropped = connection.connection.info.backend_pid
    with psycopg.connect(**connection.get_connection_params()) as other:
        other.execute("SELECT pg_terminate_backend(%s)", [dropped])
    close_old_connections()  # a new request begins

    answer = play.move(OWNER, game.pk, None, "draw")

    assert not answer.message and connection.connection.info.backend_pid != dropped


def test_deals_stored_under_another_key_are_named_by_their_code_after_the_migration(settings):
    """A deal number stored before the shuffle was keyed by the site's key."""
    migration = import_module("game.migrations.0015_deal_numbers_under_the_sites_key")
    old = Deal.for_number(7)
    settings.TRIPEAKS_DEAL_KEY = "the site's real key"
    kept = Deal.for_number(8)

    migration.forget_numbers_of_other_decks(apps, None)

    old.refresh_from_db()
    kept.refresh_from_db()
    assert old.number is None and kept.number == 8
    assert Deal.for_number(7).deck != old.deck  # deal 7 can be dealt again, its new cards
