"""Real servers for the production tests and the web benchmark: a scratch database, gunicorn in
production mode on a loopback port, and a player that speaks plain HTTP to it.

The player reads the page only through SPEC.md's markup hooks (data-table, data-pos, data-free,
data-stock, data-waste, data-cleared, the CSRF field), as an outside client would. No Django
here: the servers are separate processes, so the tests look at the database with psycopg.
"""

import atexit
import http.client
import os
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

import psycopg
import redis

from game.engine.deck import parse_deck
from game.engine.state import Table
from tests.site.markup import element, elements, message, start_tags

ROOT = Path(__file__).resolve().parents[2]
GUNICORN = Path(sys.executable).with_name("gunicorn")
HTMX = {"HX-Request": "true"}
STALE_WORDS = "The table had changed"


# Each test process collects the static files into a folder of its own: a server starting in one
# process must never index files that another process's collectstatic is replacing.
STATIC_ROOT = Path(tempfile.mkdtemp(prefix="tripeaks-static-"))
atexit.register(shutil.rmtree, STATIC_ROOT, ignore_errors=True)


def production_env(database_url: str, **extra: str) -> dict:
    """Production settings over plain HTTP on loopback (DJANGO_INSECURE_LOCAL_HTTP)."""
    env = {key: value for key, value in os.environ.items() if not key.startswith("DJANGO_")}
    return env | {
        "DJANGO_DEBUG": "0",
        "DJANGO_SECRET_KEY": secrets.token_urlsafe(50),
        "TRIPEAKS_DEAL_KEY": secrets.token_urlsafe(32),
        "DJANGO_INSECURE_LOCAL_HTTP": "1",
        "DJANGO_ALLOWED_HOSTS": "127.0.0.1",
        "DATABASE_URL": database_url,
        "DJANGO_STATIC_ROOT": str(STATIC_ROOT),
        **extra,
    }


def manage(env: dict, *args: str) -> None:
    subprocess.run(
        [sys.executable, "manage.py", *args], env=env, cwd=ROOT, check=True, capture_output=True
    )


def prepare(env: dict) -> None:
    """Tables and hashed static files, as a deploy does before starting the servers."""
    manage(env, "migrate", "--noinput")
    manage(env, "collectstatic", "--noinput")


# PostgreSQL


def database_url_named(url: str, name: str) -> str:
    parts = urlsplit(url)
    return urlunsplit(parts._replace(path=f"/{name}"))


@contextmanager
def scratch_postgres(admin_url: str, name: str):
    """A fresh database next to the one in admin_url, dropped afterwards."""

    def execute(sql):
        with psycopg.connect(admin_url, autocommit=True) as connection:
            connection.execute(sql)

    execute(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")
    execute(f"CREATE DATABASE {name}")
    try:
        yield database_url_named(admin_url, name)
    finally:
        execute(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")


def postgres_cluster(command: str) -> None:
    """Start or stop the local PostgreSQL cluster (Debian's pg_ctlcluster; needs root)."""
    version = sorted(os.listdir("/etc/postgresql"))[-1]
    subprocess.run(
        ["pg_ctlcluster", "--skip-systemctl-redirect", version, "main", command, "-m", "fast"]
        if command == "stop"
        else ["pg_ctlcluster", "--skip-systemctl-redirect", version, "main", command],
        check=True,
        capture_output=True,
    )
    if command == "start":
        wait_until(lambda: subprocess.run(["pg_isready", "-q", "-h", "127.0.0.1"]).returncode == 0)


class PrivateRedis:
    """A Redis server of the test's own on a free loopback port, keeping nothing on disk: it can be
    stopped and started again without touching the machine's shared Redis."""

    def __init__(self):
        self.port = free_port()
        self.url = f"redis://127.0.0.1:{self.port}/0"
        self.process = None

    def start(self) -> None:
        self.process = subprocess.Popen(
            [
                "redis-server",
                "--bind",
                "127.0.0.1",
                "--port",
                str(self.port),
                "--save",
                "",
                "--appendonly",
                "no",
            ],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        wait_until(lambda: redis_answers(self.url))

    def stop(self) -> None:
        self.process.terminate()
        self.process.wait(timeout=10)


def redis_answers(url: str) -> bool:
    try:
        return redis.Redis.from_url(url).ping()
    except redis.RedisError:
        return False


@dataclass
class StoredGame:
    pk: int
    deck: str
    moves: list
    version: int
    log: list[tuple[int, str, int | None]]
    """(seq, kind, pos) in order."""

    def replayed_moves(self) -> list:
        """The moves in play rebuilt from the log alone: the engine's view of the truth."""
        moves = [pos if kind == "take" else kind for _, kind, pos in self.log if kind in MOVING]
        return Table.replay(parse_deck(self.deck), moves).moves

    def table_after(self, count: int) -> Table:
        """The table after the first `count` moves in play."""
        return Table.replay(parse_deck(self.deck), self.moves[:count])


MOVING = {"take", "draw", "undo"}
"""Log entries that change the table; each one bumps the game's version."""


def stored_games(database_url: str) -> list[StoredGame]:
    with psycopg.connect(database_url) as connection:
        games = connection.execute(
            "SELECT g.id, d.deck, g.moves, g.version FROM game_game g"
            " JOIN game_deal d ON d.id = g.deal_id ORDER BY g.id"
        ).fetchall()
        log = connection.execute(
            "SELECT game_id, seq, kind, pos FROM game_action ORDER BY game_id, seq"
        ).fetchall()
    entries = {}
    for game_id, seq, kind, pos in log:
        entries.setdefault(game_id, []).append((seq, kind, pos))
    return [
        StoredGame(pk, deck, moves, version, entries.get(pk, []))
        for pk, deck, moves, version in games
    ]


# Servers


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def wait_until(ready, timeout=30.0, step=0.1) -> None:
    deadline = time.monotonic() + timeout
    while not ready():
        if time.monotonic() > deadline:
            raise TimeoutError("gave up waiting")
        time.sleep(step)


class Gunicorn:
    """One app server: `gunicorn tripeaks_site.wsgi` on a loopback port, with the site's
    gunicorn.conf.py (its number of workers unless given) and these options."""

    def __init__(self, env: dict, workers: int | None = 2, *options: str):
        self.env = env
        self.options = [*(["--workers", str(workers)] if workers else []), *options]
        self.port = None
        self.process = None
        self.stderr = None

    def __enter__(self):
        # The server inherits a socket bound here: a port only probed as free could be taken by
        # another process's connection before the server got round to binding it.
        with socket.socket() as bound:
            bound.bind(("127.0.0.1", 0))
            self.port = bound.getsockname()[1]
            command = [str(GUNICORN), "tripeaks_site.wsgi", "--bind", f"fd://{bound.fileno()}"]
            self.stderr = tempfile.TemporaryFile()  # noqa: SIM115 (closed in __exit__)
            self.process = subprocess.Popen(
                [*command, *self.options, "--graceful-timeout", "5"],
                env=self.env,
                cwd=ROOT,
                pass_fds=[bound.fileno()],
                stdout=subprocess.DEVNULL,
                stderr=self.stderr,
            )
        wait_until(self._answers)
        return self

    def __exit__(self, *exc):
        self.process.send_signal(signal.SIGTERM)
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
        self.stderr.close()

    def _answers(self) -> bool:
        if self.process.poll() is not None:
            self.stderr.seek(0)
            said = self.stderr.read().decode(errors="replace")[-2000:]
            raise RuntimeError(f"gunicorn exited with status {self.process.returncode}:\n{said}")
        try:
            return Client(self.port).request("GET", "/healthz").status == 200
        except OSError:
            return False

    def workers(self) -> list[int]:
        children = Path(f"/proc/{self.process.pid}/task/{self.process.pid}/children")
        return [int(pid) for pid in children.read_text().split()]


# Clients


@dataclass
class Response:
    status: int
    body: str


class Client:
    """HTTP to one server, with the cookies of whoever uses it (shared between servers)."""

    def __init__(self, port: int, cookies: dict | None = None, keep_alive: bool = False):
        self.port = port
        self.cookies = {} if cookies is None else cookies
        self.keep_alive = keep_alive
        self.connection = None

    def request(self, method, path, form=None, headers=None, timeout=30.0) -> Response:
        body = "&".join(f"{name}={value}" for name, value in (form or {}).items())
        headers = dict(headers or {})
        if form is not None:
            headers["Content-Type"] = "application/x-www-form-urlencoded"
        if self.cookies:
            headers["Cookie"] = "; ".join(f"{k}={v}" for k, v in self.cookies.items())
        if not self.keep_alive:
            headers["Connection"] = "close"
        kept, self.connection = self.connection, None
        try:
            reply, text = self._exchange(kept, method, path, body, headers, timeout)
        except (BrokenPipeError, ConnectionResetError, http.client.RemoteDisconnected):
            if kept is None:
                raise
            # The server closed the kept-alive connection while it sat idle (gunicorn's keepalive
            # timeout), before reading this request: send it on a new one, as a browser does.
            reply, text = self._exchange(None, method, path, body, headers, timeout)
        for header, value in reply.getheaders():
            if header.lower() == "set-cookie":
                name, _, rest = value.partition("=")
                self.cookies[name.strip()] = rest.split(";", 1)[0]
        return Response(reply.status, text)

    def _exchange(self, connection, method, path, body, headers, timeout):
        connection = connection or http.client.HTTPConnection(
            "127.0.0.1", self.port, timeout=timeout
        )
        try:
            connection.request(method, path, body=body or None, headers=headers)
            reply = connection.getresponse()
            text = reply.read().decode()
        except BaseException:
            connection.close()
            raise
        if self.keep_alive:
            self.connection = connection
        else:
            connection.close()
        return reply, text


@dataclass
class PageTable:
    """What a page or fragment shows, read from SPEC.md's markup hooks."""

    game: int
    version: int
    free: list[int]
    stock: int
    waste: str
    cleared: int
    hint: int | str | None
    csrf: str = field(compare=False)
    message: str = ""
    over: bool = False
    dealt: int | None = field(default=None, compare=False)
    """A newcomer's table, stored nowhere yet: the deal number its forms send."""

    @classmethod
    def parse(cls, html: str, csrf: str = "") -> "PageTable":
        page = start_tags(html)
        game, version = map(int, element(page, data_table=True)["data-table"].split(":"))
        free = [
            int(card["data-pos"])
            for card in elements(page, "button", data_pos=True, data_free=True)
        ]
        hinted = elements(page, "button", data_hint=True)
        hint = None
        if hinted:
            hint = int(hinted[0]["data-pos"]) if hinted[0].has("data-pos") else "draw"
        token = elements(page, "input", name="csrfmiddlewaretoken")
        said = elements(page, data_message=True)
        stock = int(element(page, data_stock=True)["data-stock"])
        won = [panel for panel in elements(page, id="panel") if "won" in panel["class"].split()]
        dealt = elements(page, "input", name="dealt")
        return cls(
            game=game,
            version=version,
            free=free,
            stock=stock,
            waste=element(page, data_waste=True)["data-waste"],
            cleared=int(element(page, data_cleared=True)["data-cleared"]),
            hint=hint,
            csrf=token[0]["value"] if token else csrf,
            message=message(html) if said else "",
            over=not free and stock == 0 or bool(won),
            dealt=int(dealt[0]["value"]) if dealt else None,
        )


class Player:
    """One browser's worth of cookies, playing through whichever server it is handed."""

    def __init__(self, ports: list[int], keep_alive: bool = False):
        self.cookies = {}
        self.clients = [Client(port, self.cookies, keep_alive) for port in ports]
        self.table = None

    def client(self, server: int = 0) -> Client:
        return self.clients[server % len(self.clients)]

    def open(self, server: int = 0) -> PageTable:
        """The player's table. A newcomer's is stored by their first action: here a Hint, which
        moves no card."""
        response = self.client(server).request("GET", "/")
        assert response.status == 200, response.body[:300]
        self.table = PageTable.parse(response.body)
        if self.table.dealt is not None:
            assert self.act("hint", server).status == 200
        return self.table

    def act(self, action: str, server: int = 0, version=True, **form) -> Response:
        """Post one action as htmx does; the table follows what the answer shows."""
        response = self.post(action, server, version, **form)
        self.follow(response)
        return response

    def post(self, action: str, server: int = 0, version=True, **form) -> Response:
        """Post one action as htmx does, the table left as it was until `follow`."""
        table = self.table
        form = form | ({"version": table.version} if version else {})
        form |= {"dealt": table.dealt} if table.dealt is not None else {}
        headers = HTMX | {"X-CSRFToken": table.csrf}
        return self.client(server).request("POST", f"/game/{table.game}/{action}", form, headers)

    def follow(self, response: Response) -> None:
        """Read the table off an answer to `post`."""
        if response.status == 200:
            self.table = PageTable.parse(response.body, self.table.csrf)

    def next_move(self) -> tuple[str, dict]:
        """A legal move: a new deal once the game is over, else a card that fits, else a draw."""
        table = self.table
        if table.over:
            return "new", {}
        if table.free:
            return "take", {"pos": table.free[0]}
        return "draw", {}


def run_threads(count: int, target, *args) -> list:
    """Run target(i, *args) on count threads started together; their results in order."""
    results = [None] * count
    start = threading.Barrier(count)

    def body(i):
        start.wait()
        results[i] = target(i, *args)

    threads = [threading.Thread(target=body, args=(i,)) for i in range(count)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=120)
    return results
