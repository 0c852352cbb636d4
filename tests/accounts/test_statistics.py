"""A player's statistics, computed from a built history, and the My games page that shows them."""

from datetime import UTC, datetime, timedelta

import pytest
from django.test import Client

from accounts import records
from game.models import Deal, Game
from tests.accounts.conftest import account_game, act, make_user

Status = Game.Status
W, D, L = Status.WON, Status.DEAD_END, Status.LEFT
START = datetime(2026, 5, 1, 9, tzinfo=UTC)


def game_of(user, status, *, finished: int | None, moves=30, ms=300_000, run=5, deal=1):
    """A game finished `finished` hours after START (None: never finished)."""
    at = None if finished is None else START + timedelta(hours=finished)
    return Game.objects.create(
        owner=user,
        deal=Deal.for_number(deal),
        status=status,
        move_count=moves,
        active_ms=ms,
        longest_run=run,
        cleared=28 if status == W else 12,
        started_at=START + timedelta(hours=finished or 0, minutes=-5),
        finished_at=at,
    )


@pytest.fixture
def history(alice):
    """Results in the order they finished: W W D W W W L W W, created out of that order, plus
    games that do not count."""
    results = [(W, 120_000), (W, 95_000), (D, 40_000), (W, 300_000), (W, 88_000), (W, 99_000)]
    results += [(L, 10_000), (W, 150_000), (W, 91_000)]
    for hour, (status, ms) in reversed(list(enumerate(results, start=1))):
        game_of(alice, status, finished=hour, ms=ms, run=hour)
    game_of(alice, L, finished=5, moves=0, run=0)  # left untouched: not part of the record
    game_of(alice, Status.PLAYING, finished=None, run=17)  # in progress: not played yet
    game_of(make_user("bob"), W, finished=3, ms=1_000, run=28)  # someone else's
    return alice


def test_statistics_of_a_built_history(history):
    figures = records.statistics(history)

    assert (figures.played, figures.won) == (9, 7)
    assert figures.win_rate == pytest.approx(7 / 9)
    assert figures.best_time_ms == 88_000 and figures.best_time == "1:28"
    assert figures.longest_run == 17, "the longest run of any game, in progress too"
    assert (figures.current_streak, figures.best_streak) == (2, 3)


def test_a_player_with_no_games(alice):
    figures = records.statistics(alice)

    assert (figures.played, figures.won, figures.longest_run) == (0, 0, 0)
    assert figures.win_rate is None and figures.best_time is None
    assert (figures.current_streak, figures.best_streak) == (0, 0)


@pytest.mark.parametrize(
    ("wins", "streaks"),
    [
        ([], (0, 0)),
        ([True, True, False], (0, 2)),
        ([False, True], (1, 1)),
        ([True, False, True, True, True, False, True, True], (2, 3)),
    ],
)
def test_streaks(wins, streaks):
    assert records.streaks(wins) == streaks


def test_my_games_shows_the_statistics_and_every_counted_game(history):
    client = Client()
    client.force_login(history)

    page = client.get("/accounts/games/").content.decode()

    assert "<dd data-played>9</dd>" in page and "<dd data-won>7</dd>" in page
    assert "<dd data-win-rate>78%</dd>" in page and "<dd data-best-time>1:28</dd>" in page
    assert "<dd data-streak>2</dd>" in page and "<dd data-best-streak>3</dd>" in page
    assert page.count("<tr data-game=") == 10
    assert page.count('data-action="replay"') == 10
    assert page.count(">On the table</a>") == 1, "the game in progress is the table"
    for heading in ("Deal", "Result", "Cleared", "Longest run", "Time", "Moves", "Date"):
        assert f'<th scope="col">{heading}</th>' in page
    assert "Dead end" in page and "Left" in page and "Unfinished" in page


def test_my_games_pages_a_long_history(alice):
    for hour in range(30):
        game_of(alice, W, finished=hour)
    client = Client()
    client.force_login(alice)

    first, second = client.get("/accounts/games/"), client.get("/accounts/games/?page=2")

    assert first.text.count("<tr data-game=") == 25 and "Page 1 of 2" in first.text
    assert second.text.count("<tr data-game=") == 5


def test_replay_from_my_games_deals_that_deal_again_and_leaves_the_table(alice):
    old = game_of(alice, D, finished=1, deal=42)
    client = Client()
    client.force_login(alice)
    client.get("/")
    act(client, old, "new")
    table = account_game(alice)
    act(client, table, "draw")

    response = client.post(f"/accounts/games/{old.pk}/replay")

    assert response["Location"] == "/"
    fresh = account_game(alice)
    assert fresh.deal.number == 42 and fresh.moves == [] and fresh.pk not in (old.pk, table.pk)
    assert f'data-table="{fresh.pk}:0"' in client.get("/").text
    table.refresh_from_db()
    assert table.status == Status.LEFT and table.finished_at is not None


def test_my_games_needs_an_account(client, db):
    response = client.get("/accounts/games/")

    assert response.status_code == 302 and response["Location"].startswith("/accounts/login/")
