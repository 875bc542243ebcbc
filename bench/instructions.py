#!/usr/bin/env python3
"""The core bench's hot paths in instructions per operation, under callgrind (make bench-instructions).

    instructions.py BENCH BUNDLE [--baseline FILE] [--check | --write]

Runs BENCH (bench/instructions.c) under `valgrind --tool=callgrind`, reads the count of each figure
from the dump the program asks for after it (the calling thread's only: the library's own threads
answer async calls, which no figure includes), and prints instructions per operation beside the
baseline measured in the same run and the bench's target ratio. Swift's hashing is made
deterministic (SWIFT_DETERMINISTIC_HASHING), so the same binary and input count the same.

--check compares each Paywire figure with the committed FILE and fails when one grew by more than
5%: a change that makes a path dearer on purpose updates FILE in the same commit (--write).
"""
import argparse
import json
import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path

# figure -> (label, its baseline figure, the baseline's label, target ratio)
FIGURES = {
    "call": ("(a) call get_log_level, NULL params", "call.strdup", "strdup+free of the result", 10),
    "poll": ("(c) poll drain, per event", "poll.strdup", "strdup+free of an event", 8),
    "get_paywall": ("(b) warm get_paywall through the ABI", "get_paywall.jansson", "jansson parse+dump", 0.1),
    "record": ("(f) log_show_paywall, committed", "record.sqlite", "SQLite insert+commit of it", 1.5),
}
GROWTH_ALLOWED = 0.05


def run(bench, bundle):
    """Instructions per operation of every figure the bench dumped."""
    with tempfile.TemporaryDirectory(prefix="paywire-callgrind-") as work:
        command = ["valgrind", "--tool=callgrind", "--collect-atstart=no", "--separate-threads=yes",
                   f"--callgrind-out-file={work}/callgrind.out", bench, bundle]
        env = dict(os.environ, SWIFT_DETERMINISTIC_HASHING="1")
        done = subprocess.run(command, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        if done.returncode != 0:
            sys.exit(f"instructions: {bench} failed under callgrind (exit {done.returncode}):\n{done.stderr[-3000:]}")
        figures = {}
        # The calling thread's dumps: callgrind.out.<n>-01.
        for path in sorted(Path(work).glob("callgrind.out.*-01")):
            text = path.read_text(errors="replace")
            trigger = re.search(r"^desc: Trigger: Client Request: (\S+) (\d+)$", text, re.M)
            total = re.search(r"^(?:summary|totals): (\d+)", text, re.M)
            if trigger and total:
                figures[trigger.group(1)] = int(total.group(1)) / int(trigger.group(2))
    missing = [name for name, (_, base, _, _) in FIGURES.items() for name in (name, base) if name not in figures]
    if missing:
        sys.exit(f"instructions: no count for {', '.join(missing)}")
    return figures


def report(figures, baseline):
    print("instructions per operation (callgrind; the calling thread; ratios against baselines counted in the same run)")
    for name, (label, base, base_label, target) in FIGURES.items():
        value, base_value = figures[name], figures[base]
        ratio = value / base_value
        line = (f"{label:<40} {value:10.0f} Ir   {base_label:<27} {base_value:9.0f} Ir   ratio {ratio:7.3f}   "
                f"target <= {target:<4g} {'ok' if ratio <= target else 'MISSED'}")
        if name in baseline:
            line += f"   committed {baseline[name]:.0f} ({(value / baseline[name] - 1) * 100:+.1f}%)"
        print(line)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("bench")
    parser.add_argument("bundle")
    parser.add_argument("--baseline", type=Path, default=Path(__file__).with_name("instructions.baseline.json"))
    mode = parser.add_mutually_exclusive_group()
    mode.add_argument("--check", action="store_true", help="fail when a figure grew more than 5%% over the baseline")
    mode.add_argument("--write", action="store_true", help="write the counts of this run as the baseline")
    arguments = parser.parse_args()
    baseline = json.loads(arguments.baseline.read_text())["instructions_per_operation"] if arguments.baseline.exists() else {}
    figures = run(arguments.bench, arguments.bundle)
    report(figures, baseline)
    if arguments.write:
        counts = {name: round(figures[name]) for key in FIGURES for name in (key, FIGURES[key][1])}
        arguments.baseline.write_text(json.dumps({
            "about": "Instructions per operation of bench/instructions.c under callgrind (make bench-instructions). "
                     "make test fails when a Paywire figure grows by more than 5% over this; a change that makes "
                     "one dearer on purpose writes it again (make bench-instructions-baseline) in the same commit.",
            "instructions_per_operation": counts}, indent=2) + "\n")
        print(f"written: {arguments.baseline}")
    if arguments.check:
        if not baseline:
            sys.exit(f"instructions: no baseline in {arguments.baseline} (make bench-instructions-baseline)")
        grown = [f"{FIGURES[name][0]}: {figures[name]:.0f} Ir, committed {baseline[name]:.0f} "
                 f"(+{(figures[name] / baseline[name] - 1) * 100:.1f}%)"
                 for name in FIGURES if name in baseline and figures[name] > baseline[name] * (1 + GROWTH_ALLOWED)]
        if grown:
            print("\ngrew by more than 5% over " + str(arguments.baseline) + ":\n  " + "\n  ".join(grown))
            print("make it cheaper again, or, when the cost is meant, write the baseline again in the same change "
                  "(make bench-instructions-baseline)")
            sys.exit(1)
        print(f"\ninstructions: every figure within 5% of {arguments.baseline}")


if __name__ == "__main__":
    main()
