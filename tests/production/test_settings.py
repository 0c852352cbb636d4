"""Production mode's settings, checked the way a deploy runs them: in a fresh process."""

import http.client
import json
import os
import re
import shutil
import socket
import subprocess
import sys
from pathlib import Path

import brotli
import pytest

from tests.production.harness import (
    GUNICORN,
    ROOT,
    Gunicorn,
    free_port,
    manage,
    prepare,
    production_env,
    wait_until,
)


def run_manage(env, *args, timeout=None):
    return subprocess.run(
        [sys.executable, "manage.py", *args],
        env=env,
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=timeout,
    )


def deploy_env(static_root: Path) -> dict:
    """Production mode as deployed: HTTPS, its host name, its static files in static_root."""
    env = production_env("postgres://postgres@127.0.0.1:5432/unused")
    del env["DJANGO_INSECURE_LOCAL_HTTP"]
    return env | {
        "DJANGO_ALLOWED_HOSTS": "tripeaks.example",
        "DJANGO_STATIC_ROOT": str(static_root),
    }


@pytest.fixture(scope="module")
def collected_static_root(tmp_path_factory):
    static_root = tmp_path_factory.mktemp("static")
    manage(deploy_env(static_root), "collectstatic", "--noinput")
    return static_root


def test_check_deploy_is_clean_with_the_production_defaults(collected_static_root):
    result = run_manage(
        deploy_env(collected_static_root), "check", "--deploy", "--fail-level", "WARNING"
    )

    assert result.returncode == 0, result.stdout + result.stderr
    assert "no issues" in result.stdout


def test_check_deploy_says_when_the_static_files_are_not_collected(tmp_path):
    result = run_manage(deploy_env(tmp_path), "check", "--deploy")

    assert result.returncode != 0
    assert "The static files are not collected" in result.stderr
    assert "manage.py collectstatic" in result.stderr


def test_check_deploy_says_when_a_static_file_came_after_collectstatic(
    collected_static_root, tmp_path
):
    static_root = shutil.copytree(collected_static_root, tmp_path / "static")
    manifest = static_root / "staticfiles.json"
    collected = json.loads(manifest.read_text())
    del collected["paths"]["game/tripeaks.css"]  # as if the file were new since
    manifest.write_text(json.dumps(collected))

    result = run_manage(deploy_env(static_root), "check", "--deploy")

    assert result.returncode != 0
    assert "out of date" in result.stderr and "such as game/tripeaks.css" in result.stderr
    assert "manage.py collectstatic" in result.stderr


def test_production_mode_without_a_secret_refuses_to_start_with_a_clear_message():
    env = production_env("sqlite:///unused.sqlite3")
    del env["DJANGO_SECRET_KEY"]

    result = run_manage(env, "check")

    assert result.returncode != 0
    assert "DJANGO_SECRET_KEY must be set when DJANGO_DEBUG is off" in result.stderr


@pytest.mark.parametrize(
    ("name", "value"),
    [
        ("TRIPEAKS_TRUSTED_PROXIES", "-1"),
        ("TRIPEAKS_TRUSTED_PROXIES", "one"),
        ("TRIPEAKS_HINT_BUDGET_MS", "0"),
        ("TRIPEAKS_HINT_BUDGET_MS", "1.5"),
        ("TRIPEAKS_HINT_RATE", "30"),
        ("TRIPEAKS_HINT_RATE", "abc"),
        ("TRIPEAKS_HINT_ADDRESS_RATE", "120/M"),
        ("TRIPEAKS_HINT_ADDRESS_RATE", "100/0m"),
        ("TRIPEAKS_HINT_RATE", "0/m"),  # every Hint refused, not "no limit" (empty)
        ("REDIS_URL", "cache:6379"),
    ],
)
def test_a_malformed_setting_refuses_to_start_with_a_one_line_message(tmp_path, name, value):
    env = production_env(f"sqlite:///{tmp_path}/unused.sqlite3", **{name: value})

    result = run_manage(env, "check")

    assert result.returncode != 0
    last_line = result.stderr.splitlines()[-1]
    assert last_line.startswith(f"django.core.exceptions.ImproperlyConfigured: {name} must "), (
        result.stderr
    )


def test_settings_in_their_accepted_forms_start(tmp_path):
    env = production_env(
        f"sqlite:///{tmp_path}/unused.sqlite3",
        TRIPEAKS_TRUSTED_PROXIES="2",
        TRIPEAKS_HINT_BUDGET_MS="500",
        TRIPEAKS_HINT_RATE="100/5m",
        TRIPEAKS_HINT_ADDRESS_RATE="",
        REDIS_URL="rediss://cache.example:6380/0",
    )

    result = run_manage(env, "check")

    assert result.returncode == 0, result.stderr


def test_gunicorn_refuses_to_start_with_no_workers(tmp_path):
    env = production_env(f"sqlite:///{tmp_path}/unused.sqlite3", WEB_CONCURRENCY="0")

    result = subprocess.run(
        [str(GUNICORN), "tripeaks_site.wsgi", "--check-config"],
        env=env,
        cwd=ROOT,
        capture_output=True,
        text=True,
    )

    assert result.returncode != 0
    assert "WEB_CONCURRENCY must be a whole number, 1 or more: not 0." in result.stderr


def test_a_database_that_never_answers_is_given_up_on_within_seconds():
    # The kernel takes the connection into the listening queue; nothing ever answers it.
    with socket.create_server(("127.0.0.1", 0)) as silent:
        env = production_env(f"postgres://postgres@127.0.0.1:{silent.getsockname()[1]}/unused")
        connect = "from django.db import connection; connection.ensure_connection()"

        result = run_manage(env, "shell", "-c", connect, timeout=15)

    assert result.returncode != 0
    assert "OperationalError" in result.stderr and "timeout" in result.stderr, result.stderr


@pytest.mark.slow
@pytest.mark.parametrize("web_concurrency", ["3", None])
def test_gunicorn_runs_preloaded_sync_workers_more_than_cores_unless_told(
    tmp_path, web_concurrency
):
    env = production_env(f"sqlite:///{tmp_path}/unused.sqlite3")
    env.pop("WEB_CONCURRENCY", None)
    if web_concurrency:
        env["WEB_CONCURRENCY"] = web_concurrency

    with Gunicorn(env, workers=None) as server:
        if web_concurrency:
            wait_until(lambda: len(server.workers()) == int(web_concurrency))
        else:
            # A Hint holds its worker while it searches: the others keep every core busy.
            wait_until(lambda: len(server.workers()) > os.process_cpu_count())
        connection = http.client.HTTPConnection("127.0.0.1", server.port, timeout=10)
        connection.request("GET", "/healthz")
        response = connection.getresponse()
        memory = [memory_of(worker) for worker in server.workers()]

    # A sync worker serves one request per connection, and says so.
    assert response.status == 200
    assert response.getheader("Connection") == "close"
    # The site was loaded before the fork: most of a worker's memory is shared with the others
    # (about a quarter is its own, where a worker that loads the site itself owns three quarters).
    assert all(own < resident / 2 for own, resident in memory), memory


def memory_of(pid: int) -> tuple[int, int]:
    """A process's own written memory and its resident memory, in kB (Linux)."""
    lines = Path(f"/proc/{pid}/smaps_rollup").read_text().splitlines()
    fields = {line.split(":")[0]: int(line.split()[1]) for line in lines if line.endswith("kB")}
    return fields["Private_Dirty"], fields["Rss"]


# A bug cannot be made to happen on purpose: a view that fails stands in for one.
FAILING_REQUEST = """
import django
django.setup()
from django.test import Client
from game import play
def broken(*args, **kwargs):
    raise RuntimeError("a bug in the view")
play.table_of = broken
response = Client(raise_request_exception=False).get("/", headers={"host": "127.0.0.1"})
print(response.status_code)
"""


@pytest.mark.slow
def test_a_server_error_in_production_mode_is_logged_to_stderr(tmp_path):
    env = production_env(f"sqlite:///{tmp_path}/db.sqlite3")
    env["DJANGO_SETTINGS_MODULE"] = "tripeaks_site.settings"
    prepare(env)

    result = subprocess.run(
        [sys.executable, "-c", FAILING_REQUEST], env=env, cwd=ROOT, capture_output=True, text=True
    )

    assert result.stdout.strip() == "500", result.stderr
    assert "Internal Server Error: /" in result.stderr
    assert "RuntimeError: a bug in the view" in result.stderr


@pytest.fixture(scope="module")
def sqlite_server(tmp_path_factory):
    """One production server on a SQLite database, its static files collected under hashed names."""
    env = production_env(f"sqlite:///{tmp_path_factory.mktemp('site')}/db.sqlite3")
    prepare(env)
    with Gunicorn(env, workers=1) as server:
        yield server


def get(server, path: str, headers: dict | None = None):
    """A GET to the server: its response and the bytes of its body."""
    connection = http.client.HTTPConnection("127.0.0.1", server.port, timeout=10)
    connection.request("GET", path, headers=headers or {})
    response = connection.getresponse()
    return response, response.read()


@pytest.mark.slow
def test_static_files_travel_brotli_compressed_to_a_browser_that_accepts_it(sqlite_server):
    _, page = get(sqlite_server, "/")
    stylesheet = re.search(r'<link rel="stylesheet" href="([^"]+)"', page.decode()).group(1)
    response, body = get(sqlite_server, stylesheet, {"Accept-Encoding": "gzip, br"})

    assert response.status == 200 and response.getheader("Content-Encoding") == "br"
    source = ROOT / "static" / "game" / "tripeaks.css"
    assert brotli.decompress(body) == source.read_bytes()


@pytest.mark.slow
def test_favicon_ico_leads_to_the_sites_icon_under_its_hashed_name(sqlite_server):
    redirect, _ = get(sqlite_server, "/favicon.ico")
    location = redirect.getheader("Location")
    icon, body = get(sqlite_server, location)

    assert redirect.status == 302 and re.search(r"/icon\.[0-9a-f]{12}\.svg$", location), location
    assert icon.status == 200 and body == (ROOT / "static" / "game" / "icon.svg").read_bytes()


def head(server, path: str):
    connection = http.client.HTTPConnection("127.0.0.1", server.port, timeout=10)
    connection.request("HEAD", path)
    return connection.getresponse()


@pytest.mark.slow
def test_a_head_request_is_answered_as_a_get_with_no_body_for_gunicorn_to_drop(sqlite_server):
    _, page = get(sqlite_server, "/")
    stylesheet = re.search(r'<link rel="stylesheet" href="([^"]+)"', page.decode()).group(1)

    for path in ["/", "/healthz", "/accounts/login/", "/favicon.ico", stylesheet]:
        got, _ = get(sqlite_server, path)
        asked = head(sqlite_server, path)
        assert asked.status == got.status, path
        assert asked.getheader("Content-Type") == got.getheader("Content-Type"), path

    # gunicorn keeps a HEAD response's body off the wire, and logs a warning for each it drops.
    sqlite_server.stderr.seek(0)
    assert "no-body response" not in sqlite_server.stderr.read().decode()


def test_while_redis_is_away_the_log_says_so_in_one_line_a_minute():
    env = production_env("sqlite:///unused.sqlite3", REDIS_URL=f"redis://127.0.0.1:{free_port()}/0")

    result = run_manage(
        env, "shell", "-c", "from django.core.cache import cache\nfor _ in range(5): cache.get('x')"
    )

    assert result.returncode == 0, result.stderr
    (line,) = result.stderr.splitlines()
    assert "Exception ignored" in line and "ConnectionError" in line
