from datetime import UTC, datetime

import pytest
from django.contrib.auth import get_user_model

from game.models import Action, Deal, Game


def on(day: int, hour: int = 10) -> datetime:
    return datetime(2026, 3, day, hour, tzinfo=UTC)


@pytest.fixture
def staff_client(client, db):
    staff = get_user_model().objects.create_user("staff", is_staff=True, is_superuser=True)
    client.force_login(staff)
    return client


@pytest.fixture
def played(db):
    """Four played games of two deals, with figures picked so every average is easy to work out,
    and two that are not played: a deal left untouched and a game in progress."""
    alice = get_user_model().objects.create_user("alice")
    first, second = Deal.for_number(1), Deal.for_number(2)
    rows = [
        # deal, status, cleared, run, moves, ms, hints, undos, day
        (first, Game.Status.WON, 28, 12, 40, 120_000, 2, 0, 1),
        (first, Game.Status.DEAD_END, 20, 5, 45, 60_000, 0, 3, 1),
        (second, Game.Status.DEAD_END, 10, 3, 30, 31_000, 1, 1, 3),
        (second, Game.Status.LEFT, 0, 0, 5, 9_000, 0, 0, 3),
        (second, Game.Status.SKIPPED, 0, 0, 0, 0, 0, 0, 3),
        (first, Game.Status.PLAYING, 6, 6, 8, 20_000, 1, 1, 1),
    ]
    games = [
        Game.objects.create(
            deal=deal,
            status=status,
            cleared=cleared,
            longest_run=run,
            move_count=moves,
            active_ms=ms,
            hint_count=hints,
            undo_count=undos,
            started_at=on(day),
            owner=alice if deal == first else None,
        )  # fmt: skip
        for deal, status, cleared, run, moves, ms, hints, undos, day in rows
    ]
    return {"first": first, "second": second, "games": games, "alice": alice}


@pytest.fixture
def logged_game(db):
    """A game of deal 1 with a short log: draw, undo, draw, hint."""
    game = Game.objects.create(deal=Deal.for_number(1), move_count=2, undo_count=1, hint_count=1)
    for seq, kind in enumerate(["draw", "undo", "draw", "hint"], 1):
        Action.objects.create(game=game, seq=seq, kind=kind)
    return game
