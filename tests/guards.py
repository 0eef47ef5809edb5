"""Test helpers that turn a hang into a failure (issue 11: never a hang)."""
from __future__ import annotations

import signal
from contextlib import contextmanager


class TookTooLong(Exception):
    pass


@contextmanager
def finishes_within(seconds: float):
    """Fail (instead of hanging the suite) when the body runs longer than ``seconds``. A blocking
    read is interrupted too: the alarm's handler raises in the main thread."""
    def alarm(signum, frame):
        raise TookTooLong(f"still running after {seconds} s")

    old = signal.signal(signal.SIGALRM, alarm)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, old)
