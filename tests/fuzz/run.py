#!/usr/bin/env python3
"""Runs the libFuzzer targets for a fixed time each and reports coverage and speed.

    python3 tests/fuzz/run.py --seconds 60 --jobs 2 --bin build/fuzz/bin --work build/fuzz

Seeds each target from the conformance vectors and the bad-input corpus (tests/fuzz/seeds.py),
keeps the corpus it grows in WORK/corpus/<target> (so later runs start where earlier ones
stopped), writes each run's log to WORK/logs/<target>.log, and fails when any target found a
crash, a leak or a timeout: the input is then in WORK/artifacts/<target>/ (see
tests/fuzz/README.md for turning it into a tests/corpus case). Run from the repository root.
"""
import argparse
import os
import re
import shutil
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import seeds  # noqa: E402

TARGETS = ["fuzz_call", "fuzz_client_new", "fuzz_fallback", "fuzz_onboarding"]
PROGRESS = re.compile(r"^#(\d+)\s+(INITED|NEW|REDUCE|pulse|DONE)\s+cov: (\d+) ft: (\d+) corp: (\d+)/\S+.*?(?:exec/s: (\d+))?\s+rss: (\d+)Mb")


def summarize(log_text):
    """Coverage at start and end, executions, speed and memory, from a libFuzzer log."""
    inited = last = None
    for line in log_text.splitlines():
        match = PROGRESS.match(line)
        if match:
            inited = match if match.group(2) == "INITED" else inited
            last = match
    first = inited or last
    stats = dict(re.findall(r"^stat::(\w+):\s+(\d+)", log_text, re.M))
    if last is None:
        return None
    return {
        "start_cov": int(first.group(3)), "cov": int(last.group(3)), "ft": int(last.group(4)),
        "corpus": int(last.group(5)), "rss_mb": int(last.group(7)),
        "execs": int(stats.get("number_of_executed_units", last.group(1))),
        "exec_per_sec": int(stats.get("average_exec_per_sec", last.group(6) or 0)),
    }


def run_target(target, args, work):
    corpus = work / "corpus" / target
    artifacts = work / "artifacts" / target
    for directory in (corpus, artifacts, work / "logs"):
        directory.mkdir(parents=True, exist_ok=True)
    # Leaks: LeakSanitizer checks the whole process when it exits (a leak fails the run). The
    # per-input check (-detect_leaks=1, `--leaks-per-input`) names the leaking input, but costs
    # speed (over half, measured when the boundary still ran on libdispatch): memory a worker
    # thread of the library frees after an input ends sends every input through a full scan.
    command = [str(Path(args.bin).resolve() / target), f"-max_total_time={args.seconds}", "-print_final_stats=1",
               f"-timeout={args.timeout}", "-rss_limit_mb=4096", f"-dict={work / 'seeds' / 'paywire.dict'}",
               f"-detect_leaks={1 if args.leaks_per_input else 0}",
               f"-artifact_prefix={artifacts}/", str(corpus), str(work / "seeds" / target)]
    if args.nice:
        command = ["nice", "-n", "19"] + command
    env = dict(os.environ, SWIFT_BACKTRACE="enable=no", PAYWIRE_FUZZ_SCRATCH=str(work / "scratch"))
    log_path = work / "logs" / f"{target}.log"
    started = time.monotonic()
    with open(log_path, "w") as log:
        status = subprocess.run(command, stdout=log, stderr=subprocess.STDOUT, env=env).returncode
    text = log_path.read_text(errors="replace")
    return target, status, summarize(text), time.monotonic() - started, log_path, sorted(artifacts.iterdir())


def prepare_scratch(work):
    """The client_new target's scratch directory: a fresh one, with the bundles its seeds name."""
    scratch = work / "scratch"
    shutil.rmtree(scratch, ignore_errors=True)
    shutil.copytree(work / "seeds" / "bundles", scratch / "bundles")


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seconds", type=int, required=True, help="time per target")
    parser.add_argument("--jobs", type=int, default=1, help="targets run at once")
    parser.add_argument("--bin", required=True, help="directory of the built targets")
    parser.add_argument("--work", required=True, help="seeds, corpora, artifacts and logs")
    parser.add_argument("--timeout", type=int, default=30, help="seconds one input may take")
    parser.add_argument("--nice", action="store_true", help="run at the lowest CPU priority")
    parser.add_argument("--leaks-per-input", action="store_true",
                        help="check for leaks after every input (slower; names the leaking input)")
    parser.add_argument("targets", nargs="*", default=TARGETS)
    args = parser.parse_args()
    work = Path(args.work).resolve()
    shutil.rmtree(work / "seeds", ignore_errors=True)
    seeds.main(work / "seeds")
    prepare_scratch(work)
    for target in args.targets:
        shutil.rmtree(work / "artifacts" / target, ignore_errors=True)

    failed = []
    print(f"fuzz: {len(args.targets)} targets, {args.seconds} s each, {args.jobs} at a time")
    with ThreadPoolExecutor(max_workers=args.jobs) as pool:
        for target, status, summary, elapsed, log_path, artifacts in pool.map(lambda t: run_target(t, args, work), args.targets):
            if summary:
                print(f"  {target:16} cov {summary['cov']:5} edges (after the seeds {summary['start_cov']}), ft {summary['ft']}, "
                      f"{summary['execs']} execs in {elapsed:.0f} s = {summary['exec_per_sec']}/s, "
                      f"corpus {summary['corpus']}, rss {summary['rss_mb']} MB")
            if status != 0 or artifacts or summary is None:
                failed.append(target)
                print(f"  {target}: FAILED (exit {status}); log {log_path}; artifacts: {[str(a) for a in artifacts]}")
                print("".join(log_path.read_text(errors="replace").splitlines(keepends=True)[-40:]))
    if failed:
        sys.exit(f"fuzz: findings in {', '.join(failed)}")
    print("fuzz: no crash, leak or timeout")


if __name__ == "__main__":
    main()
