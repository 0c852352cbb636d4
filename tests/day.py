"""The one UTC date a test run plays on. The daily deal changes at midnight: a run that crosses
it would see today's deal change between a test's steps, so every test sees this day instead
(tests/conftest.py sets the site's clock for the daily deal to it)."""

from datetime import UTC, datetime

TODAY = datetime.now(UTC).date()
