"""The daily deal: one deal number for each UTC date, the same for everyone, that only the site's
key can foresee.

Candidates for a date are HMAC-SHA256(key, "daily YYYY-MM-DD #i") for i = 0, 1, 2, ..., each read
as a big-endian integer and reduced to a deal number from 1 to DAILY_DEALS; the daily deal is the
first candidate the exact solver proves winnable.
"""

import hashlib
import hmac
from collections.abc import Iterator
from datetime import date

DAILY_DEALS = 1_000_000


def candidates(day: date, key: str) -> Iterator[int]:
    """The deal numbers that may be the daily deal of `day`, in the order they are tried."""
    i = 0
    while True:
        message = f"daily {day.isoformat()} #{i}".encode()
        digest = hmac.new(key.encode(), message, hashlib.sha256).digest()
        yield int.from_bytes(digest) % DAILY_DEALS + 1
        i += 1
