#!/usr/bin/env python3
"""Runs test suites on other dates and prints which tests each date fails.

    sweep.py [--dates ISO ...] [--suites NAME ...] [--year YEAR]

Every clock of a run moves by one offset (tests/timeshift.py): the server's (--clock-offset-ms,
read from PAYWIRE_CLOCK_OFFSET_MS), the library's (clock_offset_ms in each client's config) and
the tests' own. Without --dates the run is the last day of each month of --year (default: the
next year) and 29 February of the next leap year, each at 12:00 UTC: where month lengths, leap
days and "one calendar month later" show. Exits 1 when any date fails a test.

`make test-dates` (in make test-full) runs the integration suite on two fixed dates: the last day
of a 31-day month and 29 February.
"""
import argparse
import calendar
import datetime
import os
import re
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tests"))
import timeshift  # noqa: E402

LIBRARY = ROOT / "build/lib/libpaywire.so.1.0.0"
RESULTS = ROOT / "build/dates"

#: Each suite: the command that runs it; it reads the offset from the environment.
SUITES = {
    "integration": [sys.executable, "-m", "pytest", "-q", "-rfE", "-p", "no:cacheprovider", "tests/integration"],
    "web": [sys.executable, "-m", "pytest", "-q", "-rfE", "-p", "no:cacheprovider", "tests/web"],
    "conformance-python": [sys.executable, "tests/conformance/driver.py", "--runner", "python", "--jobs", "2",
                           "--", sys.executable, "bindings/python/conformance_runner.py"],
    "conformance-c": [sys.executable, "tests/conformance/driver.py", "--runner", "c", "--jobs", "2",
                      "--", "build/bin/paywire-harness"],
}


def month_ends(year):
    """The last day of each month of `year`, at noon UTC."""
    return [datetime.datetime(year, month, calendar.monthrange(year, month)[1], 12, tzinfo=datetime.timezone.utc)
            for month in range(1, 13)]


def next_leap_day(after):
    year = after.year + (1 if (after.month, after.day) > (2, 29) else 0)
    while not calendar.isleap(year):
        year += 1
    return datetime.datetime(year, 2, 29, 12, tzinfo=datetime.timezone.utc)


def parse_date(text):
    moment = datetime.datetime.fromisoformat(text.replace("Z", "+00:00"))
    return moment if moment.tzinfo else moment.replace(tzinfo=datetime.timezone.utc)


def failures(output):
    """The failed tests' or cases' names a suite printed."""
    pytest = re.findall(r"^(?:FAILED|ERROR) (\S+)", output, re.M)  # pytest -rfE
    driver = re.findall(r"^FAIL (\S+?):", output, re.M)        # tests/conformance/driver.py
    return sorted(set(pytest + driver))


def run(suite, moment, log_dir):
    """(exit code, failed names, seconds) of `suite` on the date `moment`."""
    env = dict(os.environ, PAYWIRE_LIBRARY=str(LIBRARY), PYTHONPATH=str(ROOT / "bindings/python"))
    env[timeshift.VARIABLE] = str(timeshift.offset_to(moment))
    started = time.monotonic()
    done = subprocess.run(SUITES[suite], cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                          text=True, stdin=subprocess.DEVNULL)
    log = log_dir / f"{moment:%Y-%m-%d}-{suite}.log"
    log.write_text(done.stdout)
    if done.returncode != 0:
        print_failure(done.stdout, moment, suite)
    return done.returncode, failures(done.stdout), time.monotonic() - started


def print_failure(output, moment, suite, at_most=40):
    """What a failed suite said, echoed into this run's own output: CI keeps no file but the
    stage's log, and a failure that shows only as an exit code cannot be diagnosed."""
    lines = output.splitlines()
    summary = [index for index, line in enumerate(lines) if "short test summary info" in line]
    start = summary[-1] if summary else max(0, len(lines) - at_most)
    print(f"--- {moment:%Y-%m-%d} {suite}: the end of its output", flush=True)
    for line in lines[start:start + at_most]:
        print(line)
    assertions = [line for line in lines if line.startswith("E   ")]
    for line in assertions[:20]:
        print(line[:400])


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--dates", nargs="+", type=parse_date, help="ISO 8601 times (default: month ends and 29 February)")
    parser.add_argument("--year", type=int, default=datetime.date.today().year + 1)
    parser.add_argument("--suites", nargs="+", choices=sorted(SUITES), default=["integration"])
    arguments = parser.parse_args()
    dates = arguments.dates or month_ends(arguments.year) + [next_leap_day(datetime.datetime(arguments.year, 1, 1))]
    RESULTS.mkdir(parents=True, exist_ok=True)
    rows, failed = [], False
    for moment in dates:
        for suite in arguments.suites:
            code, names, seconds = run(suite, moment, RESULTS)
            failed = failed or code != 0
            verdict = "ok" if code == 0 else (", ".join(names) or f"exit {code}, see {RESULTS}")
            rows.append((f"{moment:%Y-%m-%d}", suite, len(names) if code else 0, verdict))
            print(f"{moment:%Y-%m-%d %H:%M}Z {suite}: {verdict} ({seconds:.0f} s)", flush=True)
    print("\n| date | suite | failed | tests |\n|---|---|---|---|")
    for row in rows:
        print("| " + " | ".join(str(cell) for cell in row) + " |")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
