"""Logging filters for production's stderr."""

import logging
import time

QUIET_S = 60


class OnceAMinute(logging.Filter):
    """One record a minute (per process) through, its exception named on the same line. While
    Redis is away every cache call logs the error it ignored, several a request, each with its
    traceback: the operator needs to know Redis is away, not to read it hundreds of times."""

    def __init__(self):
        super().__init__()
        self.last = -QUIET_S

    def filter(self, record: logging.LogRecord) -> bool:
        now = time.monotonic()
        if now - self.last < QUIET_S:
            return False
        self.last = now
        if record.exc_info:
            error = record.exc_info[1]
            error = error.__cause__ or error  # the cache's own error wraps Redis's
            record.msg = f"{record.getMessage()}: {type(error).__name__}: {error}"
            record.args = None
            record.exc_info = record.exc_text = None
        return True
