import os
from pathlib import Path

import pytest

# Playwright's sync API runs an event loop in the test thread; Django would otherwise refuse
# ORM calls made there (fixtures, assertions against the database) while a browser test runs.
os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")

# Debian's Chromium, not a Playwright-downloaded build: only package registries are reachable.
CHROMIUM = Path("/usr/bin/chromium")


@pytest.fixture(scope="session")
def base_url(live_server):
    """Browser tests open relative URLs, page.goto("/"), on Django's live server."""
    return live_server.url


@pytest.fixture(scope="session")
def browser_type_launch_args(browser_type_launch_args):
    if not CHROMIUM.exists():
        message = f"{CHROMIUM} is missing: apt-get install chromium"
        if os.environ.get("CI") == "true":
            pytest.fail(message, pytrace=False)
        pytest.skip(message)
    return {
        **browser_type_launch_args,
        "executable_path": str(CHROMIUM),
        "headless": True,
        "args": [
            "--no-sandbox",
            "--disable-gpu",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--disable-quic",
            "--no-first-run",
        ],
    }
