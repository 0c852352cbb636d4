"""Faults under play: the database stopping, Redis stopping, a worker killed mid-move. Nothing is
lost or half done, because every change to a game is one transaction."""

import http.client
import os
import random
import shutil
import signal
import threading
import time

import pytest
from django.db import connections

from tests.production.harness import (
    MOVING,
    Gunicorn,
    Player,
    PrivateRedis,
    postgres_cluster,
    prepare,
    production_env,
    run_threads,
    stored_games,
)
from tripeaks_site.outage import RESTING

pytestmark = [pytest.mark.production, pytest.mark.slow]

PLAYERS = 8
KILL_SECONDS = 6.0
KILL_EVERY_SECONDS = 0.3


def assert_every_game_replays_from_its_log(database_url):
    games = stored_games(database_url)
    assert games
    for game in games:
        assert game.moves == game.replayed_moves(), f"game {game.pk}"
        assert game.version == sum(kind in MOVING for _, kind, _ in game.log), f"game {game.pk}"
        seqs = [seq for seq, _, _ in game.log]
        assert seqs == list(range(1, len(seqs) + 1)), f"game {game.pk}"


def test_stopping_postgresql_mid_play_fails_cleanly_and_loses_nothing(servers, database_url):
    player = Player([server.port for server in servers])
    player.open()
    for turn in range(6):
        action, form = player.next_move()
        player.act(action, server=turn, **form)
    before = player.table

    try:
        postgres_cluster("stop")
        for server in range(2):
            action, form = player.next_move()
            refused = player.act(action, server=server, **form)
            page = player.client(server).request("GET", "/")
            for response in (refused, page):
                assert response.status == 503
                assert RESTING in response.body and "Traceback" not in response.body
    finally:
        postgres_cluster("start")
        # This test process's own connections died with the server; later tests reconnect.
        connections.close_all()

    for server in range(2):
        assert player.open(server) == before
    for turn in range(4):
        action, form = player.next_move()
        assert player.act(action, server=turn, **form).status == 200
    assert player.table.version == before.version + 4
    assert_every_game_replays_from_its_log(database_url)


@pytest.fixture
def private_redis():
    if shutil.which("redis-server") is None:
        pytest.skip("needs redis-server on the PATH")
    server = PrivateRedis()
    server.start()
    yield server
    server.stop()


def test_stopping_redis_mid_play_loses_nothing_and_play_goes_on(database_url, private_redis):
    env = production_env(database_url, REDIS_URL=private_redis.url)
    prepare(env)
    with Gunicorn(env, workers=2) as server:
        player = Player([server.port])
        player.open()

        def play(moves):
            for _ in range(moves):
                action, form = player.next_move()
                assert player.act(action, **form).status == 200

        play(4)
        private_redis.stop()
        try:
            # The session comes from the database now, and every tap is answered.
            play(4)
            assert player.open().version == 8
        finally:
            private_redis.start()
        play(4)

    assert player.table.version == 12
    assert_every_game_replays_from_its_log(database_url)


def test_a_worker_killed_mid_move_leaves_each_move_whole_or_absent(servers, database_url):
    ports = [server.port for server in servers]
    deadline = time.monotonic() + KILL_SECONDS
    failures = []

    def play(i):
        player = Player(ports)
        turn = i
        lost_track = True
        while time.monotonic() < deadline:
            turn += 1
            try:
                if lost_track:
                    player.open(turn)
                action, form = player.next_move()
                lost_track = player.act(action, server=turn, **form).status != 200
            except (OSError, http.client.HTTPException):
                # The worker died under this request (before or while it answered): go on from
                # what the server shows.
                failures.append(turn)
                lost_track = True

    kills = []

    def kill_workers():
        while time.monotonic() < deadline:
            time.sleep(KILL_EVERY_SECONDS)
            workers = random.choice(servers).workers()
            if workers:
                victim = random.choice(workers)
                try:
                    os.kill(victim, signal.SIGKILL)
                    kills.append(victim)
                except ProcessLookupError:
                    pass

    killer = threading.Thread(target=kill_workers)
    killer.start()
    run_threads(PLAYERS, play)
    killer.join()

    assert len(kills) >= KILL_SECONDS / KILL_EVERY_SECONDS / 2
    assert failures, "no request was cut off by a kill"
    assert_every_game_replays_from_its_log(database_url)
