"""make_demo_data: made-up play that stays true to the rules and to what counts as played."""

import importlib

import pytest
from django.apps import apps
from django.core.management import call_command

from game import stats
from game.engine.state import Table
from game.models import Deal, Game

Status = Game.Status


@pytest.fixture
def demo(db):
    call_command("make_demo_data", games=300, deals=20, days=5, players=4, logged=60, seed=3)
    return Game.objects.all()


def test_logged_games_replay_through_the_engine_to_their_stored_state(demo):
    logged = demo.filter(logged__gt=0).select_related("deal")
    assert logged.count() == 60
    for game in logged:
        table = Table.replay(game.deal.cards, game.moves)
        assert (table.cleared, table.longest_run) == (game.cleared, game.longest_run)
        assert (game.status == Status.WON) == table.won
        assert list(game.actions.values_list("seq", flat=True)) == list(range(1, game.logged + 1))


def test_a_left_game_had_a_move_and_a_skipped_one_none(demo):
    assert demo.count() == 300
    assert demo.filter(status=Status.SKIPPED).exists()
    assert not demo.filter(status=Status.LEFT, move_count=0).exists()
    assert not demo.filter(status=Status.SKIPPED, move_count__gt=0).exists()
    assert stats.overview().played == demo.filter(status__in=Game.PLAYED).count()


def test_the_migration_marks_untouched_left_games_skipped(db):
    migration = importlib.import_module("game.migrations.0007_skipped_deals")
    deal = Deal.for_number(1)
    untouched = Game.objects.create(deal=deal, status=Status.LEFT)
    touched = Game.objects.create(deal=deal, status=Status.LEFT, move_count=3)

    migration.mark_skipped(apps, None)

    assert Game.objects.get(pk=untouched.pk).status == Status.SKIPPED
    assert Game.objects.get(pk=touched.pk).status == Status.LEFT
    migration.unmark_skipped(apps, None)
    assert Game.objects.get(pk=untouched.pk).status == Status.LEFT
