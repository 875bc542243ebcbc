#!/usr/bin/env python3
"""Older bindings against today's library: `make compat`.

    compat.py [--release VERSION ...] [--runners c,python,...] [--keep]

For each earlier release of the schema's MAJOR that schema/released.json names (default: every
one whose version is below VERSION; the release VERSION names is today's own code, run by
`make test`), this checks out the release's commit in a git worktree under build/compat (any
clone with that commit in its history will do: tags are not needed), builds that release's
conformance runners the release's own way (its Makefile, its sources), and runs them, with that
release's vectors, against TODAY's library (build/lib). Today's driver is the judge: it checks
every envelope and event against today's schema, which the library must satisfy.

What may legitimately differ between releases is written down as rules (README.md beside this
file says why each is sound), applied to the release's vectors and bindings in the worktree and
printed, never a list of skipped cases:

  release identity   the `version` of a get_sdk_version result is today's VERSION, and its
                     `schema_version` the library's, not the release's (the release's own values
                     are what a later library must not repeat; that the library's schema has the
                     release's MAJOR and a MINOR at least the release's is checked first);
  additive members   an expected result or event is matched as a subset: a later MINOR may add
                     members (the release's binding keeps and ignores them, as the future
                     vectors prove), every value the release expected is still compared;
  formats learned    a vendor fallback file of a format the release did not read yet (its
  later              `wrong_fallback_version` with `older: "library"`) is one today's library may
                     read: the release's file is given a format newer than every one today's
                     library reads (it says which, in the same error), and the expected error
                     names that format and today's newest, so the release's case still proves
                     that a file newer than the library is refused;
  schema gate        a release whose schema carries no version (before schema versions) has
                     bindings that refuse any library built from another schema hash. The
                     driver applies in their place the rule of schema versions (the library's
                     schema has the release's MAJOR and a MINOR at least the release's: checked
                     here first) and then writes the library's hash where the release's
                     bindings state the release's own, so the rest of each binding runs as
                     released.

The worktree is removed afterwards (--keep leaves it for a look).
"""
import argparse
import hashlib
import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
WORK = ROOT / "build" / "compat"
LIBRARY = ROOT / "build" / "lib" / "libpaywire.so.1.0.0"
DRIVER = ROOT / "tests" / "conformance" / "driver.py"
RUNNERS = ("c", "python", "java", "dotnet", "node")
JAVA_LIBS = "/usr/share/java/jna.jar:/usr/share/java/gson.jar"


def say(text):
    print(f"compat: {text}", flush=True)


def run(command, cwd=ROOT, env=None, quiet=False):
    """Runs a command, failing the whole check (with its output) when it fails."""
    result = subprocess.run(command, cwd=cwd, env=env, text=True,
                            stdout=subprocess.PIPE if quiet else None, stderr=subprocess.STDOUT if quiet else None)
    if result.returncode != 0:
        if quiet:
            print(result.stdout[-4000:])
        sys.exit(f"compat: FAILED: {' '.join(map(str, command))} (exit {result.returncode})")
    return result


def version_tuple(text):
    return tuple(int(part) for part in text.split("."))


def ask_library(method, params):
    """(status, envelope) of one call to today's library from a fresh client."""
    probe = ("import ctypes, json, sys\n"
             "lib = ctypes.CDLL(sys.argv[1])\n"
             "lib.paywire_client_new.argtypes = [ctypes.c_char_p, ctypes.POINTER(ctypes.c_void_p), ctypes.POINTER(ctypes.c_void_p)]\n"
             "lib.paywire_client_call.argtypes = [ctypes.c_void_p, ctypes.c_char_p, ctypes.c_char_p, ctypes.POINTER(ctypes.c_void_p)]\n"
             "lib.paywire_client_free.argtypes = [ctypes.c_void_p]\n"
             "lib.paywire_string_free.argtypes = [ctypes.c_void_p]\n"
             "client, out = ctypes.c_void_p(), ctypes.c_void_p()\n"
             "assert lib.paywire_client_new(b'{}', ctypes.byref(client), ctypes.byref(out)) == 0\n"
             "lib.paywire_string_free(out)\n"
             "status = lib.paywire_client_call(client, sys.argv[2].encode(), sys.argv[3].encode(), ctypes.byref(out))\n"
             "text = ctypes.string_at(out.value).decode()\n"
             "lib.paywire_string_free(out); lib.paywire_client_free(client)\n"
             "print(json.dumps([status, json.loads(text)]))\n")
    result = subprocess.run([sys.executable, "-c", probe, str(LIBRARY), method, json.dumps(params)],
                            capture_output=True, text=True)
    if result.returncode != 0:
        sys.exit(f"compat: cannot ask {LIBRARY} for {method}: {result.stderr.strip()[-800:]}")
    return json.loads(result.stdout)


def library_schema():
    """(schema_version, schema_sha256) of today's library, as its get_sdk_version says."""
    status, envelope = ask_library("get_sdk_version", {})
    if status != 0:
        sys.exit(f"compat: {LIBRARY} refused get_sdk_version: {envelope}")
    success = envelope["success"]
    return success["schema_version"], success["schema_sha256"]


def library_fallback_formats():
    """The vendor fallback formats today's library reads: a file of a format no library has yet
    is refused with an error that lists them."""
    far = {"data": {}, "meta": {"version": 1_000_000, "developer_ids": [], "response_created_at": 1}}
    status, envelope = ask_library("set_fallback", {"bundle": far})
    supported = envelope.get("error", {}).get("details", {}).get("supported")
    if status == 0 or not isinstance(supported, list) or not supported:
        sys.exit(f"compat: {LIBRARY} did not name the fallback formats it reads: {envelope}")
    return supported


# ---------------------------------------------------------------------------- the rules

def identity_rule(case, today):
    """get_sdk_version's `version` and `schema_version` are today's (`today` maps each key to its
    value): in a call's expected success, or a call_result event's."""
    changed = 0

    def fix(success):
        nonlocal changed
        for key, value in today.items():
            if isinstance(success, dict) and isinstance(success.get(key), str) and success[key] != value:
                success[key] = value
                changed += 1

    for step in case.get("steps", []):
        if step.get("call") == "get_sdk_version":
            fix(step.get("expect", {}).get("success"))
        for event in walk_events(step):
            if event.get("method") == "get_sdk_version":
                fix(event.get("envelope", {}).get("success"))
    return changed


def walk_events(step):
    """Every expected event object of a step (an `events` list, an op's expected event)."""
    found = [event for event in step.get("events", []) if isinstance(event, dict)]
    expected = step.get("expect", {}).get("event")
    if isinstance(expected, dict):
        found.append(expected)
    return found


def formats_rule(case, source, target, supported):
    """A release's 'this file is newer than the library' case, for a format today's library reads,
    gets a file newer than today's newest format: the release's claim, with today's numbers."""
    changed = 0
    newer, newest = max(supported) + 1, max(supported)
    for index, step in enumerate(case.get("steps", [])):
        error = step.get("expect", {}).get("error", {})
        details = error.get("details", {})
        if error.get("code") != "wrong_fallback_version" or details.get("older") != "library" \
                or details.get("found") not in supported:
            continue
        if "params_text" in step:
            params = json.loads(step["params_text"])
            params["bundle"]["meta"]["version"] = newer
            step["params_text"] = json.dumps(params)
        else:
            holder = step["op"]["config"]["fallback"] if "op" in step else step["params"]
            bundle = json.loads((source / holder["path"]).read_text(encoding="utf-8"))
            bundle["meta"]["version"] = newer
            rewritten = target / f"{case['id']}.step{index}.json"
            rewritten.write_text(json.dumps(bundle), encoding="utf-8")
            holder["path"] = str(rewritten)
        details["found"], details["expected"] = newer, newest
        changed += 1
    return changed


def additive_rule(case):
    """Exact expectations become subsets: a later MINOR may add members; values are still compared."""
    changed = 0
    for step in case.get("steps", []):
        expect = step.get("expect")
        if isinstance(expect, dict) and ("success" in expect or "event" in expect) and expect.get("match") != "subset":
            expect["match"] = "subset"
            changed += 1
        if "events" in step and step.get("match") == "exact":
            step["match"] = "subset"
            changed += 1
    return changed


def rewrite_vectors(source, target, today, supported):
    """The release's vector files with the rules applied; returns (files, identity, additive,
    formats) counts."""
    totals = [0, 0, 0, 0]
    bundles = target / "bundles"
    bundles.mkdir(parents=True)
    for directory in ("tests/conformance/vectors", "tests/corpus"):
        out = target / Path(directory).name
        out.mkdir(parents=True)
        for path in sorted((source / directory).glob("*.json")):
            suite = json.loads(path.read_text(encoding="utf-8"))
            for case in suite.get("cases", []) if isinstance(suite, dict) else []:
                totals[1] += identity_rule(case, today)
                totals[2] += additive_rule(case)
                totals[3] += formats_rule(case, source, bundles, supported)
            (out / path.name).write_text(json.dumps(suite, indent=1, ensure_ascii=False), encoding="utf-8")
            totals[0] += 1
    return [target / "vectors", target / "corpus"], totals


def schema_gate(source, release_schema_version, library_version, library_sha):
    """The schema-version rule in place of a pre-version binding's exact hash check."""
    release_schema = json.loads((source / "schema/paywire.schema.json").read_text(encoding="utf-8"))
    theirs, ours = version_tuple(release_schema_version), version_tuple(library_version)
    if ours[0] != theirs[0] or ours[1] < theirs[1]:
        sys.exit(f"compat: FAILED: the library's schema {library_version} is not one a {release_schema_version} "
                 f"binding accepts (same MAJOR, MINOR at least its own)")
    if "version" in release_schema:
        say("the release's bindings compare schema versions themselves: no gate to replace")
        return
    released_sha = hashlib.sha256((source / "schema/paywire.schema.json").read_bytes()).hexdigest()
    patched = []
    for path in sorted((source / "bindings").rglob("*")):
        if path.is_file() and path.suffix in (".py", ".java", ".cs", ".js", ".ts", ".swift"):
            text = path.read_text(encoding="utf-8", errors="surrogateescape")
            if released_sha in text:
                path.write_text(text.replace(released_sha, library_sha), encoding="utf-8", errors="surrogateescape")
                patched.append(str(path.relative_to(source)))
    say(f"schema gate: library schema {library_version} accepted for a {release_schema_version} binding "
        f"(same MAJOR, MINOR at least); the release's hash {released_sha[:12]} replaced by the library's "
        f"{library_sha[:12]} in {len(patched)} files: {', '.join(patched)}")
    for binding in ("python", "java", "dotnet", "node"):
        if not any(name.startswith(f"bindings/{binding}/") for name in patched):
            sys.exit(f"compat: FAILED: no schema hash found in the release's {binding} binding: the gate rule no longer fits it")


# ---------------------------------------------------------------------------- runners

def build_runners(source, work, runners, env):
    """{runner: command}, each built from the release's sources (its Makefile where it has one)."""
    commands = {}
    make = ["make", "--no-print-directory", "-C", str(source)]
    if "c" in runners:
        jansson = subprocess.run(["pkg-config", "--cflags", "--libs", "jansson"], capture_output=True, text=True).stdout.split()
        harness = work / "paywire-harness"
        run(["cc", "-std=c99", "-O2", f"-I{source / 'include'}", str(source / "Sources/paywire-harness/harness.c"),
             "-o", str(harness), f"-L{LIBRARY.parent}", "-lpaywire", f"-Wl,-rpath,{LIBRARY.parent}", *jansson, "-lpthread"])
        commands["c"] = [str(harness)]
    if "python" in runners:
        commands["python"] = [sys.executable, str(source / "bindings/python/conformance_runner.py")]
    if "java" in runners:
        run(make + ["build/java/paywire.jar", "build/java/paywire-conformance.jar"], env=env, quiet=True)
        classpath = f"{JAVA_LIBS}:{source}/build/java/paywire.jar:{source}/build/java/paywire-conformance.jar"
        commands["java"] = ["java", "-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC", "-Xlog:disable",
                            "-Xlog:all=warning:stderr", "-cp", classpath, "dev.paywire.conformance.ConformanceRunner"]
    if "dotnet" in runners:
        run(make + ["build/dotnet/Paywire.dll", "build/dotnet/paywire-conformance.exe"], env=env, quiet=True)
        commands["dotnet"] = ["mono", str(source / "build/dotnet/paywire-conformance.exe")]
    if "node" in runners:
        run(make + ["node"], env=env, quiet=True)
        commands["node"] = ["node", str(source / "bindings/node/conformance_runner.js")]
    return commands


def check_release(release, library_version, library_sha, supported, runners, keep):
    name, commit = release["release"], release["commit"]
    if subprocess.run(["git", "-C", str(ROOT), "cat-file", "-e", f"{commit}^{{commit}}"], capture_output=True).returncode:
        sys.exit(f"compat: FAILED: release {name}'s commit {commit} is not in this clone (git fetch --unshallow)")
    work = WORK / name
    source = work / "src"
    if work.exists():
        subprocess.run(["git", "-C", str(ROOT), "worktree", "remove", "--force", str(source)], capture_output=True)
        shutil.rmtree(work)
    work.mkdir(parents=True)
    run(["git", "-C", str(ROOT), "worktree", "add", "--detach", "--quiet", str(source), commit])
    try:
        say(f"release {name} ({commit[:12]}, schema {release['schema_version']}) against today's library "
            f"({LIBRARY.relative_to(ROOT)}, schema {library_version})")
        schema_gate(source, release["schema_version"], library_version, library_sha)
        today = (ROOT / "VERSION").read_text().strip()
        identity_values = {"version": today, "schema_version": library_version}
        directories, (files, identity, additive, formats) = rewrite_vectors(
            source, work / "vectors", identity_values, supported)
        say(f"vectors: {files} files of the release; release identity rule applied {identity} times "
            f"(version {name} -> {today}, schema {release['schema_version']} -> {library_version}), "
            f"additive-members rule {additive} times, formats-learned-later rule {formats} times "
            f"(today's library reads fallback formats {supported})")
        env = dict(os.environ, PAYWIRE_LIBRARY=str(LIBRARY), PYTHONPATH=str(source / "bindings/python"))
        commands = build_runners(source, work, runners, env)
        failed = []
        for runner, command in commands.items():
            vectors = [argument for directory in directories for argument in ("--vectors", str(directory))]
            expectations = source / "tests/conformance/expectations" / f"{runner}.txt"
            result = subprocess.run([sys.executable, str(DRIVER), "--runner", f"compat-{name}-{runner}", "--jobs", "2",
                                     "--expectations", str(expectations), *vectors, "--", *command],
                                    cwd=source, env=env)
            if result.returncode != 0:
                failed.append(runner)
        if "python" in commands:
            typed = subprocess.run([sys.executable, str(Path(__file__).with_name("typed_python.py")), today],
                                   cwd=source, env=env)
            if typed.returncode != 0:
                failed.append("typed python")
        if failed:
            sys.exit(f"compat: FAILED: release {name}'s {', '.join(failed)} runners against today's library")
        say(f"release {name}: {', '.join(commands)} runners green against today's library")
    finally:
        if not keep:
            subprocess.run(["git", "-C", str(ROOT), "worktree", "remove", "--force", str(source)], capture_output=True)
            # `worktree remove` drops its entry too; no `worktree prune`, which would touch others' entries.
            shutil.rmtree(work, ignore_errors=True)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--release", action="append", help="a release of schema/released.json (repeatable)")
    parser.add_argument("--runners", default=",".join(RUNNERS), help=f"comma-separated, of {', '.join(RUNNERS)}")
    parser.add_argument("--keep", action="store_true", help="leave build/compat/RELEASE for a look")
    args = parser.parse_args()
    runners = [runner for runner in args.runners.split(",") if runner]
    unknown = set(runners) - set(RUNNERS)
    if unknown:
        sys.exit(f"compat: unknown runners {sorted(unknown)}")
    if not LIBRARY.exists():
        sys.exit(f"compat: no {LIBRARY}: make lib first")
    releases = json.loads((ROOT / "schema/released.json").read_text())["releases"]
    library_version, library_sha = library_schema()
    supported = library_fallback_formats()
    today = version_tuple((ROOT / "VERSION").read_text().strip())
    if args.release:
        chosen = [release for release in releases if release["release"] in args.release]
        missing = set(args.release) - {release["release"] for release in chosen}
        if missing:
            sys.exit(f"compat: schema/released.json names no release {sorted(missing)}")
    else:
        major = version_tuple(library_version)[0]
        chosen = [release for release in releases if version_tuple(release["release"]) < today
                  and version_tuple(release["schema_version"])[0] == major]
    if not chosen:
        # A new MAJOR promises nothing to the releases before it; an empty released.json is a mistake.
        if not releases:
            sys.exit("compat: FAILED: schema/released.json names no release")
        say(f"no earlier release of schema MAJOR {library_version.split('.')[0]}: nothing to check")
    for release in chosen:
        check_release(release, library_version, library_sha, supported, runners, args.keep)
    say(f"{len(chosen)} releases green: {', '.join(release['release'] for release in chosen)}")


if __name__ == "__main__":
    main()
