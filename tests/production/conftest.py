"""Real gunicorn servers over a scratch PostgreSQL database, for the production tests.

They run in the PostgreSQL pass of .ci/run (DATABASE_URL names a PostgreSQL database) and are
skipped otherwise. The database is dedicated (dropped afterwards), because the fault tests stop
the whole local PostgreSQL cluster for a few seconds.
"""

import os

import pytest

from tests.production.harness import Gunicorn, prepare, production_env, scratch_postgres

SCRATCH_DATABASE = "tripeaks_production_test"


def postgres_url() -> str:
    url = os.environ.get("DATABASE_URL", "")
    if not url.startswith(("postgres://", "postgresql://")):
        pytest.skip("needs DATABASE_URL naming a PostgreSQL database (the PostgreSQL pass of CI)")
    return url


@pytest.fixture(scope="session")
def database_url():
    """The scratch database, migrated, and the static files collected: once for all the modules,
    which each look only at the games they play."""
    with scratch_postgres(postgres_url(), SCRATCH_DATABASE) as url:
        prepare(production_env(url))
        yield url


@pytest.fixture(scope="module")
def servers(database_url):
    """Two app servers on different loopback ports sharing the database; their ports."""
    env = production_env(database_url)
    with Gunicorn(env, workers=2) as first, Gunicorn(env, workers=2) as second:
        yield first, second
