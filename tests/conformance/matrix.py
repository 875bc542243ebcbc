#!/usr/bin/env python3
"""The conformance matrix: every runner of one `make test` against every vector file.

    matrix.py DIR [RUNNER ...]

Each driver run given `--results DIR/RUNNER.json` leaves its passed/failed counts per vector file
and its time there (write_results below); this prints them side by side, runners in the order
given (default: every result file in DIR), and exits 1 when a named runner left no results or any
case failed. A file a runner did not run shows as "-".
"""
import json
import sys
from pathlib import Path


def write_results(path, runner, cases, verdicts, origins, seconds, durations):
    """Called by driver.py: one run's outcome per vector file, its wall time, and its ten
    slowest cases (where to look when a runner's time grows)."""
    files = {}
    for case, conforms in zip(cases, verdicts):
        counts = files.setdefault(origins[case["id"]], {"passed": 0, "failed": 0})
        counts["passed" if conforms else "failed"] += 1
    Path(path).parent.mkdir(parents=True, exist_ok=True)
    Path(path).write_text(json.dumps({"runner": runner, "seconds": round(seconds, 1), "files": files,
                                      "passed": sum(verdicts), "failed": len(verdicts) - sum(verdicts),
                                      "slowest": {case_id: round(seconds, 2) for case_id, seconds in
                                                  sorted(durations.items(), key=lambda item: -item[1])[:10]}}, indent=1))


def cell(counts):
    return "-" if counts is None else f"{counts['passed']}/{counts['failed']}"


def main(arguments):
    if not arguments:
        sys.exit(__doc__)
    directory = Path(arguments[0])
    names = arguments[1:] or sorted(path.stem for path in directory.glob("*.json"))
    results, missing = {}, []
    for name in names:
        path = directory / f"{name}.json"
        if path.exists():
            results[name] = json.loads(path.read_text())
        else:
            missing.append(name)
    runners = [name for name in names if name in results]
    files = sorted({file for result in results.values() for file in result["files"]})
    width = max([len("vector file")] + [len(file) for file in files])
    columns = [max(len(name), 9) for name in runners]

    def row(label, values):
        return "  ".join([label.ljust(width)] + [value.rjust(size) for value, size in zip(values, columns)])

    print("conformance matrix: passed/failed cases per runner and vector file")
    print(row("vector file", runners))
    for file in files:
        print(row(file, [cell(results[name]["files"].get(file)) for name in runners]))
    print(row("all", [cell(results[name]) for name in runners]))
    print(row("seconds", [f"{results[name]['seconds']:.1f}" for name in runners]))
    for name in missing:
        print(f"no results from runner {name} in {directory}")
    passed = sum(result["passed"] for result in results.values())
    failed = sum(result["failed"] for result in results.values())
    print(f"matrix: {passed} passed, {failed} failed")
    return 1 if failed or missing else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
