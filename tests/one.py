#!/usr/bin/env python3
"""Runs one test file of any suite, with what the Makefile would give it.

    make test-one FILE=PATH [ENGINE=postgres]
    python3 tests/one.py PATH [--engine sqlite|postgres] [-- EXTRA ARGUMENTS]

PATH picks the suite:
- `tests/unit/<Module>/...Tests.swift`: the library's unit tests of that file (swift test --filter);
- `server/Tests/<Target>/...swift`: the server's unit tests of that file;
- `tests/<suite>/.../test_*.py`: that pytest file against the built library and dev server
  (`--engine postgres` runs it on a PostgreSQL started for the run, as integration-postgres does);
- a vector file (`tests/conformance/vectors/*.json`, `tests/corpus/*.json`): its cases through
  the C runner.

It builds only what the file needs first (make lib/devserver/harness/deps), and prints the
command it runs, so the same command can be run again by hand. EXTRA ARGUMENTS go to that
command (pytest's `-k NAME`, the driver's `--case ID`).
"""
import argparse
import os
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
LIBRARY = ROOT / "build/lib/libpaywire.so.1.0.0"
MAKE = os.environ.get("MAKE", "make")

#: Swift declarations that hold tests: a suite type, or a top-level @Test function.
SUITE = re.compile(r"^@Suite(?:\([^)]*\))?\s+(?:final )?(?:struct|class|enum) (\w+)", re.M)
FREE_TEST = re.compile(r"^@Test[^\n]*\n\s*func (\w+)", re.M)


class Refusal(Exception):
    """A path this script cannot place in a suite; the message says which paths it can."""


def swift_filter(path, target):
    """The `swift test --filter` pattern matching every test declared in `path`."""
    text = path.read_text()
    names = sorted(set(SUITE.findall(text)) | set(FREE_TEST.findall(text)))
    if not names:
        raise Refusal(f"{path} declares no test suite or @Test function")
    return f"^{target}\\.({'|'.join(names)})\\b"


def unit_plan(relative, path):
    """A library unit test file: tests/unit/<Module>/File.swift, target <Module>Tests."""
    parts = relative.parts
    if len(parts) < 4:
        raise Refusal(f"{relative}: a unit test lives in tests/unit/<Module>/ (one folder per module)")
    target = parts[2] + "Tests"
    return [], ["swift", "test", "--filter", swift_filter(path, target)], {}


def server_unit_plan(relative, path):
    """A server unit test file: server/Tests/<Target>/File.swift."""
    target = relative.parts[2]
    return ["deps"], ["swift", "test", "--package-path", "server", "--filter", swift_filter(path, target)], {}


def pytest_plan(relative, engine):
    env = {"PAYWIRE_LIBRARY": str(LIBRARY), "PYTHONPATH": str(ROOT / "bindings/python")}
    command = [sys.executable, "-m", "pytest", "-q", "-rfE", str(relative)]
    if engine == "postgres":
        env["PAYWIRE_DEVSERVER"] = str(ROOT / "tests/postgres/devserver_on_postgres.py")
        command = [sys.executable, "tests/postgres/cluster.py", "--", *command]
    return ["lib", "devserver", "deps"], command, env


def vector_plan(relative):
    command = [sys.executable, "tests/conformance/driver.py", "--runner", "c", "--vectors", str(relative),
               "--", str(ROOT / "build/bin/paywire-harness")]
    return ["harness"], command, {}


def plan(path, engine):
    """(make targets to build first, the command, extra environment) for one test file."""
    path = path.resolve()
    if not path.is_file():
        raise Refusal(f"{path}: no such file")
    try:
        relative = path.relative_to(ROOT)
    except ValueError:
        raise Refusal(f"{path} is not inside the repository ({ROOT})") from None
    parts = relative.parts
    if engine == "postgres" and not (parts[0] == "tests" and path.suffix == ".py"):
        raise Refusal("--engine postgres applies to the pytest suites only")
    if parts[:2] == ("tests", "unit") and path.suffix == ".swift":
        return unit_plan(relative, path)
    if parts[:2] == ("server", "Tests") and path.suffix == ".swift" and len(parts) > 3:
        return server_unit_plan(relative, path)
    if parts[0] == "tests" and path.suffix == ".py" and path.name.startswith("test_"):
        return pytest_plan(relative, engine)
    if parts[0] == "tests" and path.suffix == ".json" and parts[1] in ("conformance", "corpus"):
        return vector_plan(relative)
    raise Refusal(f"{relative}: not a test file of a known suite (tests/unit/<Module>/*.swift, "
                  "server/Tests/<Target>/*.swift, tests/<suite>/test_*.py, or a vector file under "
                  "tests/conformance or tests/corpus)")


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("file", type=Path)
    parser.add_argument("--engine", choices=["sqlite", "postgres"], default="sqlite")
    own = sys.argv[1:]
    extra = own[own.index("--") + 1:] if "--" in own else []
    arguments = parser.parse_args(own[:own.index("--")] if "--" in own else own)
    try:
        targets, command, env = plan(arguments.file, arguments.engine)
    except Refusal as refusal:
        print(f"test-one: {refusal}", file=sys.stderr)
        return 2
    if targets:
        built = subprocess.run([MAKE, "--no-print-directory", *targets], cwd=ROOT)
        if built.returncode != 0:
            return built.returncode
    command = command + extra
    shown = " ".join(f"{name}={value}" for name, value in env.items())
    print(f"test-one: {shown + ' ' if shown else ''}{' '.join(command)}", flush=True)
    return subprocess.run(command, cwd=ROOT, env=dict(os.environ, **env)).returncode


if __name__ == "__main__":
    sys.exit(main())
