"""The date the tests run on: the system's, or another one for the whole run.

`PAYWIRE_CLOCK_OFFSET_MS` (set by tests/dates/sweep.py and by `make test-dates`) moves every
clock of a test run by the same amount: the server's (its `--clock-offset-ms` reads that very
variable from the environment it inherits), the library's (`clock_offset_ms` in each client's
config, added by `client_config`), and the tests' own (`now_ms`, `now_s`). So a suite runs on the
last day of a month, or on 29 February, without faking the system clock.

Time measured for waiting (deadlines, sleeps) stays on the system's clocks: only dates move.
"""
import datetime
import os
import time

#: The environment variable the server reads as --clock-offset-ms, and the tests read here.
VARIABLE = "PAYWIRE_CLOCK_OFFSET_MS"
OFFSET_MS = int(os.environ.get(VARIABLE, "0") or "0")


def now_ms():
    """Milliseconds since the epoch on the run's clock."""
    return int(time.time() * 1000) + OFFSET_MS


def now_s():
    """Whole seconds since the epoch on the run's clock (JWTs, Stripe's timestamps)."""
    return now_ms() // 1000


def now():
    """The run's time as an aware UTC datetime (certificates' validity)."""
    return datetime.datetime.fromtimestamp(now_ms() / 1000, tz=datetime.timezone.utc)


def client_config(config):
    """`config` for a client of the library that lives in the run's time (a copy; unchanged when
    the run is on today's date)."""
    if not OFFSET_MS or not isinstance(config, dict) or "clock_offset_ms" in config:
        return config
    return {**config, "clock_offset_ms": OFFSET_MS}


def offset_to(moment):
    """The offset that puts the system's clock at `moment` (an aware datetime) now."""
    return int(moment.timestamp() * 1000) - int(time.time() * 1000)
