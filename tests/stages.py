#!/usr/bin/env python3
"""The test loop: `make test` and `make test-full` as stages, two at a time, each one timed.

    stages.py test|test-full [--jobs N] [--only STAGE ...]

Each stage is a make target. A stage starts when the stages it needs have passed, at most
--jobs at once (default 2, one per core of the machines this project is tested on); builds run
at a lower CPU priority than tests, so a compile beside a timing-sensitive test slows the
compile, not the test. Each stage's output goes to build/stages/NAME.log; a failing stage's log
is printed in full (its tail when long) and the stages that need it are skipped. The table at
the end gives each stage's time, so a stage that grows shows in every run.
"""
import argparse
import os
import re
import subprocess
import sys
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
LOGS = ROOT / "build" / "stages"
FAILED_LOG_TAIL = 150


class Stage:
    def __init__(self, name, needs=(), build=False):
        self.name, self.needs, self.build = name, tuple(needs), build


# Order matters where several stages are ready at once: the first listed starts first, so the
# long builds go early and the quick checks fill the gaps.
TEST = [
    Stage("deps"),
    Stage("deps-bindings", ["deps"]),
    Stage("devserver", ["deps"], build=True),
    Stage("check-header"),
    Stage("check-api", ["deps"]),
    # The four library targets compile in Embedded Swift (make check-embedded).
    Stage("check-embedded", build=True),
    # The wire, the model and the core compile in Embedded Swift for wasm32, where Int is 32 bits
    # (make check-wasm32): times, amounts, counts and sizes are 64 bits there too.
    Stage("check-wasm32", build=True),
    # The library: the Embedded objects linked into build/lib/libpaywire.so with lld (make lib);
    # every stage below that loads a library loads this one.
    Stage("lib", ["deps", "check-embedded"], build=True),
    # A host's stack walked with _Unwind_Backtrace through the library's frames, from its event
    # handler and its user_data_free (make check-unwind): the unwind tables are there.
    Stage("check-unwind", ["lib"]),
    Stage("harness", ["lib"], build=True),
    Stage("check-exports", ["lib"]),
    Stage("check-needed", ["lib"]),
    # No symbol the library calls needs a glibc newer than GLIBC_FLOOR (make check-glibc).
    Stage("check-glibc", ["lib"]),
    Stage("check-size", ["lib"]),
    Stage("check-unload", ["lib"]),
    Stage("check-backpressure", ["lib"]),
    # The hot paths in instructions under callgrind against bench/instructions.baseline.json:
    # seconds, and the same count however busy the machine is (make bench-instructions).
    Stage("check-instructions", ["lib"]),
    Stage("check-install", ["lib"]),
    Stage("test-swift", ["lib"], build=True),
    Stage("bindings", ["lib", "deps-bindings"], build=True),
    Stage("node", ["deps"], build=True),
    Stage("swift-kit", ["deps"], build=True),
    Stage("conformance-c", ["harness"]),
    Stage("conformance-python", ["lib"]),
    Stage("corpus", ["harness"]),
    Stage("test-python", ["lib"]),
    Stage("test-storage", ["lib"]),
    # The web paywall's browser tests: the Stripe stand-in and headless Chromium (tests/web).
    Stage("test-web", ["deps"]),
    Stage("integration", ["lib", "harness", "devserver"]),
    # The security suite: each attack of a hostile client, on SQLite and on PostgreSQL (tests/security).
    Stage("test-security", ["lib", "devserver"]),
    Stage("contract-postgres", ["lib", "harness", "devserver"]),
    Stage("replica-test", ["lib", "devserver"]),
    Stage("crash-test", ["lib", "devserver"]),
    Stage("ab-check", ["lib", "devserver"]),
    Stage("test-ab", ["lib"]),
    Stage("demo-remote", ["lib", "devserver"]),
    Stage("demo-lifecycle", ["lib", "devserver"]),
    Stage("test-java", ["bindings"]),
    Stage("test-dotnet", ["bindings"]),
    Stage("conformance-java", ["bindings"]),
    Stage("conformance-dotnet", ["bindings"]),
    Stage("test-node", ["node", "lib"]),
    Stage("conformance-node", ["node", "lib"]),
    Stage("test-swift-kit", ["swift-kit", "lib"]),
    Stage("conformance-swift", ["swift-kit", "lib"]),
    Stage("demo-swift", ["swift-kit", "lib"]),
    Stage("docs-swift", ["swift-kit", "lib"]),
    Stage("docs-examples", ["bindings", "node", "lib"]),
    Stage("check-generated"),
    # The workshop's own tools: make test-one and the date sweep (tests/workshop).
    Stage("test-workshop", ["deps", "harness"]),
    Stage("check-ambient"),
    Stage("check-schema-version", ["deps"]),
    Stage("check-python-types", ["deps"]),
    Stage("check-node-types", ["deps"]),
    # After deps-bindings: its test of a Kotlin block needs the kotlinc that stage installs; after
    # devserver: the builder gallery is drawn by the server (--render-paywall).
    Stage("docs-check", ["deps", "deps-bindings", "devserver"]),
    Stage("conformance-matrix", ["conformance-c", "conformance-python", "conformance-java",
                                 "conformance-dotnet", "conformance-node", "conformance-swift", "corpus"]),
]

# What is slow and rarely changes its verdict: sanitizer and fuzzer builds, every vector under
# valgrind, the soak. CI runs all of it (.ci/run).
FULL = TEST + [
    # The bindings against the next MINOR's vectors, and the docs' screens in Chromium: minutes of
    # make test's fifteen that rarely change their verdict.
    Stage("conformance-future", ["bindings", "node", "swift-kit", "lib"]),
    Stage("docs-screens", ["docs-check"]),
    Stage("corpus-full", ["harness", "conformance-matrix"]),
    # The corpus and the ABI vectors (a client freed with work in flight among them) on a library
    # and C runner built with AddressSanitizer: a build of its own (make corpus-asan).
    Stage("corpus-asan", ["deps"], build=True),
    # The integration suite, the outbox's kill test and the A/B check again, on PostgreSQL
    # (make test meets PostgreSQL in replica-test): four minutes of a make test's fifteen.
    Stage("integration-postgres", ["lib", "devserver"]),
    # The integration suite on the last day of a 31-day month and on 29 February (make test-dates).
    Stage("test-dates", ["lib", "harness", "devserver"]),
    Stage("stress", ["devserver", "test-swift"], build=True),
    Stage("fuzz-build", ["test-swift"], build=True),
    Stage("fuzz-smoke", ["fuzz-build"]),
    # The server's pure rules as unit tests, on the devserver's debug build (a test build and
    # link on top of it).
    Stage("test-server-unit", ["devserver"], build=True),
    # The library loads and serves a client in a Debian 11 root (glibc 2.31): check-glibc's symbol
    # versions, run (make check-old-glibc).
    Stage("check-old-glibc", ["lib"]),
    # Every earlier release's C, Python, Java, C# and Node runners, built from its commit, with its
    # vectors against today's library (tests/compat).
    Stage("compat", ["lib", "deps-bindings"]),
]

PLANS = {"test": TEST, "test-full": FULL}


def run_stage(stage, make):
    LOGS.mkdir(parents=True, exist_ok=True)
    log = LOGS / f"{stage.name}.log"
    command = ([] if not stage.build else ["nice", "-n", "10"]) + [make, "--no-print-directory", stage.name]
    started = time.monotonic()
    with open(log, "w") as out:
        code = subprocess.call(command, cwd=ROOT, stdout=out, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL)
    return code, time.monotonic() - started, log


def print_log(log):
    lines = log.read_text(errors="replace").splitlines()
    if len(lines) > FAILED_LOG_TAIL:
        print(f"  ... {len(lines) - FAILED_LOG_TAIL} earlier lines in {log.relative_to(ROOT)}")
    for line in lines[-FAILED_LOG_TAIL:]:
        print(f"  | {line}")


class Loop:
    """Starts each stage once its needs have passed; one owner of what ran and how it went."""

    def __init__(self, stages, jobs, make):
        self.stages, self.jobs, self.make = stages, jobs, make
        self.outcome = {}   # name -> ("passed" | "FAILED" | "skipped", seconds)
        self.running = set()
        self.changed = threading.Condition()

    def ready(self):
        for stage in self.stages:
            if stage.name in self.outcome or stage.name in self.running:
                continue
            states = [self.outcome.get(need, (None,))[0] for need in stage.needs]
            if any(state in ("FAILED", "skipped") for state in states):
                self.outcome[stage.name] = ("skipped", 0.0)
                print(f"stage {stage.name}: skipped (a stage it needs failed)", flush=True)
                continue
            if all(state == "passed" for state in states):
                return stage
        return None

    def worker(self, stage):
        code, seconds, log = run_stage(stage, self.make)
        with self.changed:
            self.running.discard(stage.name)
            self.outcome[stage.name] = ("passed" if code == 0 else "FAILED", seconds)
            print(f"stage {stage.name}: {'ok' if code == 0 else f'FAILED (exit {code})'} in {seconds:.1f} s", flush=True)
            if code != 0:
                print_log(log)
            self.changed.notify_all()

    def run(self):
        with self.changed:
            while len(self.outcome) < len(self.stages):
                stage = self.ready() if len(self.running) < self.jobs else None
                if stage is not None:
                    self.running.add(stage.name)
                    threading.Thread(target=self.worker, args=(stage,), daemon=True).start()
                elif self.running:
                    self.changed.wait()
                else:
                    # Nothing runs and nothing could start: ready() has skipped what it could,
                    # perhaps the last stages of the plan (then the loop is done).
                    known = len(self.outcome)
                    if known < len(self.stages) and self.ready() is None and len(self.outcome) == known:
                        raise SystemExit("stages.py: a stage needs a stage that is not in the plan")


DIGEST = re.compile(r"^(FAILED |ERROR |E   |error:|.*\bError\b|make(\[\d+\])?: \*\*\*)")


def digest(log, at_most=12):
    """The lines of a failed stage's log that say what failed (pytest's FAILED/ERROR lines and
    assertion lines, compilers' errors, make's), the last `at_most` of them: printed once more
    under the table, because a CI page often shows only the end of the output."""
    lines = [line for line in log.read_text(errors="replace").splitlines() if DIGEST.match(line)]
    return lines[-at_most:]


def summary(stages, outcome, wall):
    print("\nstage times (s):")
    for stage in stages:
        state, seconds = outcome[stage.name]
        print(f"  {stage.name:<20} {seconds:7.1f}  {state}")
    busy = sum(seconds for _, seconds in outcome.values())
    print(f"  {'wall clock':<20} {wall:7.1f}  (stages added up: {busy:.1f})")


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("plan", choices=sorted(PLANS))
    parser.add_argument("--jobs", type=int, default=int(os.environ.get("STAGE_JOBS", "2")))
    parser.add_argument("--only", nargs="+", help="run these stages and the stages they need")
    arguments = parser.parse_args()
    stages = PLANS[arguments.plan]
    if arguments.only:
        stages = closure(stages, arguments.only)
    started = time.monotonic()
    loop = Loop(stages, max(1, arguments.jobs), os.environ.get("MAKE", "make"))
    loop.run()
    summary(stages, loop.outcome, time.monotonic() - started)
    failed = [name for name, (state, _) in loop.outcome.items() if state != "passed"]
    if failed:
        for name in failed:
            if loop.outcome[name][0] == "FAILED":
                print(f"\n{name} (build/stages/{name}.log), what failed:")
                for line in digest(LOGS / f"{name}.log"):
                    print(f"  | {line[:300]}")
        print(f"make {arguments.plan}: {len(failed)} stage(s) did not pass: {' '.join(failed)}")
        return 1
    print(f"make {arguments.plan}: all {len(stages)} stages passed")
    return 0


def closure(stages, names):
    by_name = {stage.name: stage for stage in stages}
    unknown = [name for name in names if name not in by_name]
    if unknown:
        raise SystemExit(f"stages.py: no stage named {' '.join(unknown)}")
    wanted, pending = set(), list(names)
    while pending:
        name = pending.pop()
        if name not in wanted:
            wanted.add(name)
            pending.extend(by_name[name].needs)
    return [stage for stage in stages if stage.name in wanted]


if __name__ == "__main__":
    sys.exit(main())
