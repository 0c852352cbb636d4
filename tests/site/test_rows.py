"""The hand-written statements of game.rows read and write exactly what the ORM does."""

from datetime import timedelta

import pytest
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

    assert Game.objects.get(pk=row.pk).logged == 1
    entry = Action.objects.get(game=row)
    assert (entry.seq, entry.kind, entry.detail) == (1, "new", {"deal": "5"})
