"""Clients that misbehave against a real server: ones that send their request a line a second
hold no worker, and a huge upload is refused before it is read."""

import socket
import time

import pytest

from tests.production.harness import Client, Gunicorn, prepare, production_env
from tripeaks_site.workers import ARRIVAL_SECONDS

pytestmark = [pytest.mark.production, pytest.mark.slow]

WORKERS = 2
PROMPT_SECONDS = 2.0


@pytest.fixture(scope="module")
def server(database_url):
    env = production_env(database_url)
    prepare(env)
    with Gunicorn(env, workers=WORKERS) as server:
        yield server


def connect(port: int) -> socket.socket:
    return socket.create_connection(("127.0.0.1", port), timeout=30)


def timed_get(port: int, path: str) -> tuple[int, float]:
    start = time.monotonic()
    response = Client(port).request("GET", path, timeout=30)
    return response.status, time.monotonic() - start


def test_clients_sending_a_line_a_second_leave_the_workers_to_everyone_else(server):
    slow = [connect(server.port) for _ in range(WORKERS * 5)]
    try:
        for sock in slow:
            sock.sendall(b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n")
        for line in range(3):
            time.sleep(1)
            for sock in slow:
                sock.sendall(f"X-Line-{line}: more\r\n".encode())
            status, seconds = timed_get(server.port, "/healthz")
            assert status == 200 and seconds < PROMPT_SECONDS, (status, seconds)

        status, seconds = timed_get(server.port, "/accounts/login/")
        assert status == 200 and seconds < PROMPT_SECONDS, (status, seconds)
        # A slow client is still served once its request is in.
        slow[0].sendall(b"Connection: close\r\n\r\n")
        assert slow[0].recv(100).startswith(b"HTTP/1.1 200")
    finally:
        for sock in slow:
            sock.close()


def test_a_huge_upload_is_refused_before_it_is_sent(server):
    with connect(server.port) as sock:
        sock.sendall(
            b"POST /game/1/draw HTTP/1.1\r\nHost: 127.0.0.1\r\n"
            b"Content-Type: multipart/form-data; boundary=b\r\n"
            b"Content-Length: 209715200\r\n\r\n--b\r\n"
            b'Content-Disposition: form-data; name="upload"; filename="big.bin"\r\n\r\n'
            + b"x"
            * 65536
        )
        sock.settimeout(PROMPT_SECONDS)
        answer = sock.recv(100)

    assert answer.startswith(b"HTTP/1.1 413"), answer


def test_a_request_that_never_comes_in_is_answered_408_and_closed(server):
    with connect(server.port) as sock:
        sock.sendall(b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n")
        sock.settimeout(ARRIVAL_SECONDS + 5)
        answer = sock.recv(100)
        assert answer.startswith(b"HTTP/1.1 408"), answer
        assert sock.recv(100) == b"", "and closed"
