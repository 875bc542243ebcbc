#!/usr/bin/env python3
"""Every code example of the READMEs and getting-started pages, compiled and run against the
built library, each from a fresh empty folder (an example may not depend on the current one).

    run_examples.py ROOT          runs them all (make docs-examples)
    run_examples.py ROOT --list   prints what it would run and what it only shows

The pages: README.md, docs/getting-started/*.md, bindings/*/README.md. Each page's blocks of
one language, in order, make one program (a later block may use what an earlier one defined).
A block fenced with more than its language (```java title="...") is shown, not run, and is
listed as such; so are ```sh and ```text blocks (commands and output, not programs). A block
of any other language fails the check: a new language needs its runner here. ```swift blocks
are built and run by `make docs-swift` (tools/docs/swift_examples.py names the pages); a page
with Swift that it does not name fails here. A line `--8<-- "path"` inside a block is replaced
by the file, as the site's snippets extension does.

C, Java, Kotlin and C# are compiled first, as their READMEs say; a compiler's warning fails.
Kotlin is Debian's kotlinc 1.3 (make deps-kotlin), slow to start: one compile per page.

Each program gets PAYWIRE_LIBRARY (the built library) and PAYWIRE_EXAMPLES (the checkout's
examples/, absolute): the examples read their config and bundle from there, as a host with the
Debian package reads /usr/share/paywire/examples.
"""
import concurrent.futures
import glob
import os
import re
import shutil
import subprocess
import sys
import tempfile

import swift_examples

FENCE = re.compile(r"^```([^\n]*)\n(.*?)^```", re.S | re.M)
SNIPPET = re.compile(r'^--8<-- "([^"]+)"$', re.M)
SHOWN = {"sh", "text", "console"}
RUN_TIMEOUT = 120
SLOW = {"kotlin"}


def pages(root):
    found = ["README.md"] + sorted(glob.glob("docs/getting-started/*.md", root_dir=root)) \
        + sorted(glob.glob("bindings/*/README.md", root_dir=root))
    return [page for page in found if os.path.exists(os.path.join(root, page))]


def programs(root):
    """([(page, language, source)], [(page, info, why)], [problems])."""
    runnable, shown, problems = {}, [], []
    for page in pages(root):
        text = open(os.path.join(root, page), encoding="utf-8").read()
        for info, body in FENCE.findall(text):
            words = info.split()
            language = words[0] if words else ""
            if len(words) > 1:
                shown.append((page, info, "fenced with more than its language"))
            elif language in SHOWN:
                shown.append((page, info, "commands or output"))
            elif language == "swift":
                if page not in swift_examples.PROGRAMS:
                    problems.append("%s has ```swift that make docs-swift does not run (tools/docs/swift_examples.py)" % page)
            elif language in RUNNERS:
                body = SNIPPET.sub(lambda m: snippet(root, m.group(1)), body)
                runnable.setdefault((page, language), []).append(body)
            else:
                problems.append("%s: a ```%s block, which nothing runs: add its runner to tools/docs/run_examples.py, "
                                "or fence it with a title to show it only" % (page, language))
    found = [(page, language, "\n".join(blocks)) for (page, language), blocks in runnable.items()]
    return found, shown, problems


def snippet(root, spec):
    """The text of `--8<-- "path:start:end"` (lines from 1, both optional), as pymdownx.snippets reads it."""
    path, _, lines = spec.partition(":")
    text = open(os.path.join(root, path), encoding="utf-8").read()
    if not lines:
        return text
    start, _, end = lines.partition(":")
    chosen = text.splitlines(keepends=True)[int(start or 1) - 1:int(end) if end else None]
    return "".join(chosen)


# ---- one runner per language: (files to write, commands), run in an empty folder --------------
def run_c(ctx, source):
    return {"example.c": source}, [
        [os.environ.get("CC", "cc"), "-std=c99", "-Wall", "-Wextra", "-Werror", "-pedantic", "-I", ctx["include"],
         "example.c", "-o", "example", "-L", ctx["libdir"], "-lpaywire", "-Wl,-rpath," + ctx["libdir"]],
        ["./example"]]


def run_python(ctx, source):
    return {"example.py": source}, [[sys.executable, "example.py"]]


def run_java(ctx, source):
    match = re.search(r"^public (?:final )?class (\w+)", source, re.M)
    name = match.group(1) if match else "Example"
    classpath = ctx["java_cp"]
    return {name + ".java": source}, [
        ["javac", "-Xlint:all", "-Werror", "--release", "11", "-cp", classpath, "-d", ".", name + ".java"],
        ["java", "-cp", classpath + ":.", name]]


def run_kotlin(ctx, source):
    # As the README says: kotlinc against the jar, JNA, Gson and the stdlib's AutoCloseable.use
    # (kotlin-stdlib-jdk7), then `kotlin`, which adds the stdlib. Main is top level: YourAppKt.
    # The compiler's JVM only JIT-compiles with C1 and collects serially: half the CPU of its
    # defaults for one short compile.
    classpath = ctx["java_cp"] + ":" + ctx["kotlin_jdk7"]
    return {"YourApp.kt": source}, [
        ["kotlinc", "-J-XX:TieredStopAtLevel=1", "-J-XX:+UseSerialGC", "-Werror", "-jvm-target", "1.8",
         "-cp", classpath, "-d", ".", "YourApp.kt"],
        ["kotlin", "-cp", classpath + ":.", "YourAppKt"]]


def run_csharp(ctx, source):
    # As the README says: compile against Paywire.dll, copy it beside the program, run it.
    return {"YourApp.cs": source}, [
        ["mcs", "-warnaserror", "-r:System.Json.dll", "-r:" + ctx["dll"], "YourApp.cs"],
        ["cp", ctx["dll"], "."],
        ["mono", "YourApp.exe"]]


def run_js(ctx, source):
    # `import ... from 'paywire'` resolves through node_modules, as after an npm install.
    return {"example.mjs": source, "node_modules/paywire": ("link", ctx["node_package"])}, [["node", "example.mjs"]]


RUNNERS = {"c": run_c, "python": run_python, "java": run_java, "kotlin": run_kotlin, "csharp": run_csharp, "js": run_js}


def run_one(ctx, page, language, source):
    """(ok, report) of one program, built and run in a fresh folder."""
    folder = tempfile.mkdtemp(prefix="paywire-example-")
    try:
        files, commands = RUNNERS[language](ctx, source)
        for name, content in files.items():
            path = os.path.join(folder, name)
            os.makedirs(os.path.dirname(path), exist_ok=True)
            if isinstance(content, tuple):
                os.symlink(content[1], path)
            else:
                with open(path, "w", encoding="utf-8") as out:
                    out.write(content)
        log = []
        for command in commands:
            try:
                run = subprocess.run(command, cwd=folder, env=ctx["env"], capture_output=True, text=True,
                                     timeout=RUN_TIMEOUT, stdin=subprocess.DEVNULL)
            except subprocess.TimeoutExpired:
                return False, "%s (%s): %s did not end within %d s" % (page, language, command[0], RUN_TIMEOUT)
            except FileNotFoundError:
                return False, "%s (%s): no %s on this machine (make deps-bindings installs the toolchains)" % (
                    page, language, command[0])
            log.append("$ " + " ".join(command) + "\n" + run.stdout + run.stderr)
            if run.returncode != 0:
                return False, "%s (%s): exit %d\n%s" % (page, language, run.returncode, "".join(log))
        return True, "%s (%s): ran\n%s" % (page, language, "".join(log))
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def context(root):
    root = os.path.abspath(root)
    libdir = os.path.join(root, "build", "lib")
    env = dict(os.environ, PAYWIRE_LIBRARY=os.path.join(libdir, "libpaywire.so.1"),
               PAYWIRE_EXAMPLES=os.path.join(root, "examples"),
               PYTHONPATH=os.path.join(root, "bindings", "python"))
    return {"env": env, "include": os.path.join(root, "include"), "libdir": libdir,
            "java_cp": ":".join(["/usr/share/java/jna.jar", "/usr/share/java/gson.jar",
                                 os.path.join(root, "build", "java", "paywire.jar")]),
            "kotlin_jdk7": "/usr/share/java/kotlin-stdlib-jdk7.jar",
            "dll": os.path.join(root, "build", "dotnet", "Paywire.dll"),
            "node_package": os.path.join(root, "bindings", "node")}


def main(argv):
    root = argv[1] if len(argv) > 1 else "."
    found, shown, problems = programs(root)
    if "--list" in argv:
        for page, language, _ in found:
            print("run   %s (%s)" % (page, language))
        for page, info, why in shown:
            print("shown %s ```%s: %s" % (page, info, why))
        for problem in problems:
            print("PROBLEM " + problem)
        return 1 if problems else 0
    ctx = context(root)
    failed = list(problems)
    with concurrent.futures.ThreadPoolExecutor(max_workers=2) as pool:
        # kotlinc's start is the longest job: it goes first, the others run beside it. Reports
        # come in page order.
        started = {program: pool.submit(run_one, ctx, *program)
                   for program in sorted(found, key=lambda program: program[1] not in SLOW)}
        for program in found:
            ok, report = started[program].result()
            print(report if ok else "FAILED " + report, flush=True)
            if not ok:
                failed.append(report.split("\n", 1)[0])
    for page, info, why in shown:
        print("shown, not run: %s ```%s (%s)" % (page, info, why))
    for problem in failed:
        print("docs-examples: " + problem, file=sys.stderr)
    print("docs-examples: %d passed, %d failed" % (len(found) - (len(failed) - len(problems)), len(failed)))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
