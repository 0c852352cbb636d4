# Python 3.13: pyenv's (via .python-version), else one on PATH, else a pyenv install.
PYTHON ?= $(shell pyenv which python3.13 2>/dev/null || command -v python3.13 2>/dev/null \
	|| ls -d $${PYENV_ROOT:-$$HOME/.pyenv}/versions/3.13*/bin/python3.13 2>/dev/null | tail -n 1)
VENV := .venv
PYTEST_ARGS ?=
# Test processes: two, one a core. The production tests stop the database the others use, so they
# run on their own (WORKERS=0, see .ci/run).
WORKERS ?= 2

.PHONY: run prod test test-fast lint

run: $(VENV)/.installed
	$(VENV)/bin/python manage.py migrate
	$(VENV)/bin/python manage.py runserver 127.0.0.1:8000

# Production mode on http://127.0.0.1:8000/ for a local trial: plain HTTP (no TLS here), a
# throwaway secret and deal key unless DJANGO_SECRET_KEY and TRIPEAKS_DEAL_KEY are set (a new deal
# key deals other cards for every number), DATABASE_URL and REDIS_URL as exported.
prod: $(VENV)/.installed
	$(eval export DJANGO_DEBUG=0)
	$(eval export DJANGO_INSECURE_LOCAL_HTTP=1)
	$(eval export DJANGO_SECRET_KEY ?= $(shell $(VENV)/bin/python -c "import secrets; print(secrets.token_urlsafe(50))"))
	$(eval export TRIPEAKS_DEAL_KEY ?= $(shell $(VENV)/bin/python -c "import secrets; print(secrets.token_urlsafe(32))"))
	$(VENV)/bin/python manage.py collectstatic --noinput
	$(VENV)/bin/python manage.py migrate
	$(VENV)/bin/gunicorn tripeaks_site.wsgi --bind 127.0.0.1:8000

test: $(VENV)/.installed
	$(VENV)/bin/pytest -n $(WORKERS) $(PYTEST_ARGS)

# The quick loop: everything but the browser tests and the tests marked slow.
test-fast: $(VENV)/.installed
	$(VENV)/bin/pytest -n $(WORKERS) -m "not browser and not slow" $(PYTEST_ARGS)

lint: $(VENV)/.installed
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .

$(VENV)/bin/python:
	@test -n "$(PYTHON)" || { echo "Python 3.13 not found: install it or run make PYTHON=/path/to/python3.13" >&2; exit 1; }
	$(PYTHON) -m venv $(VENV)

# Reinstall only when the dependencies change.
$(VENV)/.installed: pyproject.toml | $(VENV)/bin/python
	$(VENV)/bin/python -m pip install --quiet -e '.[dev]'
	touch $@
