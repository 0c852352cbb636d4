"""Two gunicorn servers sharing one PostgreSQL database: one game, many servers, many taps."""

import pytest

from game.engine.cards import card_code
from tests.production.harness import MOVING, STALE_WORDS, Player, run_threads, stored_games

pytestmark = [pytest.mark.production, pytest.mark.slow]

MOVES = 40
TAPS = 20


def stored(database_url, game_id):
    return next(game for game in stored_games(database_url) if game.pk == game_id)


def test_a_game_played_alternately_through_both_servers_stays_consistent(servers, database_url):
    ports = [server.port for server in servers]
    player = Player(ports)
    player.open(server=0)
    seen = []
    for turn in range(MOVES):
        action, form = player.next_move()
        if action == "new":
            break
        version = player.table.version
        response = player.act(action, server=turn, **form)
        assert response.status == 200 and not player.table.message
        assert player.table.version == version + 1
        seen.append((action, form.get("pos"), player.table.waste, player.table.cleared))

    game = stored(database_url, player.table.game)
    assert game.version == len(seen)
    assert game.moves == game.replayed_moves() == [pos if a == "take" else a for a, pos, *_ in seen]
    # Move for move, each server showed what the engine computes from the log.
    for count, (_, _, waste, cleared) in enumerate(seen, start=1):
        table = game.table_after(count)
        assert (card_code(table.waste_top), table.cleared) == (waste, cleared)
    # And both servers now show the same table.
    assert player.open(server=0) == player.open(server=1)


def test_twenty_simultaneous_taps_with_one_version_apply_exactly_once(servers, database_url):
    ports = [server.port for server in servers]
    player = Player(ports)
    table = player.open()
    action, form = player.next_move()

    def tap(i):
        return player.clients[i % 2].request(
            "POST",
            f"/game/{table.game}/{action}",
            form | {"version": table.version},
            {"HX-Request": "true", "X-CSRFToken": table.csrf},
        )

    responses = run_threads(TAPS, tap)

    assert [r.status for r in responses] == [200] * TAPS
    assert sum(STALE_WORDS not in r.body for r in responses) == 1
    game = stored(database_url, table.game)
    assert game.version == table.version + 1
    assert game.moves == game.replayed_moves() and len(game.moves) == 1


def test_twenty_simultaneous_draws_are_applied_one_at_a_time(servers, database_url):
    """Without a version each draw counts: none lost, none doubled, the log in step."""
    ports = [server.port for server in servers]
    player = Player(ports)
    table = player.open()

    def draw(i):
        return player.clients[i % 2].request(
            "POST",
            f"/game/{table.game}/draw",
            {},
            {"HX-Request": "true", "X-CSRFToken": table.csrf},
        )

    responses = run_threads(TAPS, draw)

    assert [r.status for r in responses] == [200] * TAPS
    game = stored(database_url, table.game)
    assert game.moves == ["draw"] * TAPS == game.replayed_moves()
    assert game.version == TAPS
    seqs = [seq for seq, _, _ in game.log]
    assert seqs == list(range(1, len(seqs) + 1))
    assert sum(kind in MOVING for _, kind, _ in game.log) == TAPS
