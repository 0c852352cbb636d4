"""make_demo_data: made-up play that stays true to the rules and to what counts as played."""

import importlib
import io
from datetime import timedelta

import pytest
from django.apps import apps
from django.core.cache import cache
from django.core.management import call_command
from django.core.management.base import CommandError
from django.utils import timezone

from game import stats
from game.engine.rules import Rules
from game.engine.scoring import CLASSIC, MAXIMUM, PYSOL, START, hand_score
from game.engine.solver import solve
from game.engine.state import Table
from game.management.commands import make_demo_data
from game.management.commands.make_demo_data import RULE_SETS
from game.models import Deal, Game

Status = Game.Status
DEMO = dict(games=300, deals=20, days=5, players=4, logged=60, daily_days=3, seed=3)


@pytest.fixture(scope="module")
def _demo_data(django_db_setup, django_db_blocker):
    """The demo data, made once for the module's tests (each test's changes are rolled back),
    then flushed as after any test that commits. The daily deal of a day is remembered in the
    cache, which outlives the database: it starts and ends empty too. Of its twenty deals the
    first five count as the popular ones, so that the rest are the long tail."""
    with django_db_blocker.unblock(), pytest.MonkeyPatch.context() as patch:
        patch.setattr(make_demo_data, "POPULAR_DEALS", 5)
        cache.clear()
        call_command("make_demo_data", **DEMO)
        yield
        call_command("flush", interactive=False, verbosity=0)
        cache.clear()


@pytest.fixture
def demo(_demo_data, db):
    return Game.objects.all()


def test_logged_games_replay_under_their_rules_to_their_stored_state_and_score(demo):
    logged = demo.filter(logged__gt=0).select_related("deal")
    assert logged.count() == DEMO["logged"]
    for game in logged:
        rules = Rules.from_name(game.rules)
        table = Table.replay(game.deal.cards, game.moves, rules)
        assert (table.cleared, table.longest_run) == (game.cleared, game.longest_run)
        assert (game.status == Status.WON) == table.won
        assert list(game.actions.values_list("seq", flat=True)) == list(range(1, game.logged + 1))
        if game.scoring != Game.Scoring.NONE:
            assert game.score == hand_score(game.deal.cards, game.moves, game.scoring, rules)
            assert game.undo_count == 0, "scored play has no undo"


def test_the_demo_plays_several_rule_sets_and_scorings(demo):
    assert demo.filter(rules="standard").count() > demo.exclude(rules="standard").count() > 0
    assert {game.rules for game in demo} <= set(RULE_SETS)
    for scoring in (PYSOL, CLASSIC):
        scores = demo.filter(scoring=scoring).values_list("score", flat=True)
        assert scores and all(score <= MAXIMUM[scoring] for score in scores)
    assert min(demo.filter(scoring=PYSOL).values_list("score", flat=True)) >= START[PYSOL]
    assert all(stats.score_distributions().values())


def test_games_are_won_only_on_deals_the_solver_does_not_prove_lost_under_their_rules(demo):
    """Staff's verdicts come from the exact solver (here without the clock's budget, which a slow
    machine could run out of): a game won on a deal it proves lost is one real play never makes."""
    played = demo.filter(daily=None).values_list("deal", "rules").distinct()
    lost = [
        (deal, rules)
        for deal, rules in played
        if solve(Deal.objects.get(pk=deal).cards, Rules.from_name(rules)).result == "loss"
    ]
    assert lost, "the demo plays deals that cannot be won"
    for deal, rules in lost:
        assert not demo.filter(deal=deal, rules=rules, status=Status.WON).exists()


def test_the_same_seed_makes_the_same_games(demo):
    def figures(games):
        return list(
            games.filter(daily=None)
            .order_by("pk")
            .values_list("deal", "owner", "rules", "scoring", "status", "cleared", "score",
                         "move_count", "active_ms", "hint_count", "undo_count", "moves")
        )  # fmt: skip

    made = figures(demo)
    last = demo.order_by("pk").last().pk

    call_command("make_demo_data", **DEMO)

    assert figures(demo.filter(pk__gt=last)) == made


def test_daily_records_are_one_deal_a_day_once_per_player(demo):
    records = demo.exclude(daily=None)
    days = set(records.values_list("daily", flat=True))
    assert days and days <= {timezone.now().date() - timedelta(days=ago) for ago in range(3)}
    for day in days:
        assert records.filter(daily=day).values("deal").distinct().count() == 1
        owners = list(records.filter(daily=day).values_list("owner", flat=True))
        assert None not in owners and len(owners) == len(set(owners))
    for game in records:
        assert game.rules == "standard" and game.started_at.date() == game.daily
        assert game.finished_at is None or game.finished_at <= timezone.now()


def test_a_left_game_had_a_move_and_a_skipped_one_none(demo):
    assert demo.filter(daily=None).count() == DEMO["games"]
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


def test_a_second_run_keeps_one_daily_record_per_player_and_day(demo):
    first = set(demo.exclude(daily=None).values_list("owner", "daily", "deal"))
    records_before = demo.exclude(daily=None).count()
    said = io.StringIO()

    call_command("make_demo_data", **DEMO | {"games": 10, "logged": 0, "seed": 4}, stdout=said)

    added = demo.exclude(daily=None).count() - records_before
    assert f"and {added} daily deal records" in said.getvalue()

    assert set(demo.exclude(daily=None).values_list("owner", "daily", "deal")) >= first
    assert demo.exclude(daily=None).count() == len(
        set(demo.exclude(daily=None).values_list("owner", "daily"))
    )


@pytest.mark.parametrize(
    ("option", "value"),
    [("games", 0), ("deals", 10**20), ("days", 1_000_000), ("daily_days", -1), ("players", -1)],
)
def test_a_count_out_of_range_is_refused_naming_its_option(db, option, value):
    games = Game.objects.count()

    with pytest.raises(CommandError) as refused:
        call_command("make_demo_data", **DEMO | {option: value})

    assert refused.value.returncode == 2
    assert str(refused.value).startswith("--" + option.replace("_", "-"))
    assert Game.objects.count() == games
