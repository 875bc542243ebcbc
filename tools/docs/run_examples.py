#!/usr/bin/env python3
"""The getting-started pages, each run as a newcomer runs it: in a new folder outside the clone,
with the artefact the page names, its commands exactly as the page writes them, and no
environment variable the page does not set. The page is the test: when the page and the test
disagree, the test fails.

    run_examples.py ROOT                          every page, installing "From a clone" (make docs-examples)
    run_examples.py ROOT --page swift.md ...      only these pages
    run_examples.py ROOT --list                   what each page writes and runs, by way
    run_examples.py ROOT --extract OUT --way WAY  each page's files and script for WAY, written into
                                                  OUT/<page>/ (make dist-check runs them in its root)

What a page holds (docs/getting-started/*.md, with the bindings' READMEs they include by
`--8<--` lines, as the site's snippets extension includes them):
- ```LANG title="FILE" is a file the newcomer writes: FILE, in the folder; an untitled ```LANG
  block after it adds to that file (a program shown in parts, with prose between);
- ```sh title="..." is a way to install, named by its title: "From a clone of Paywire" (the way
  `make test` runs), "From the release" and its kinds ("From the release tarball", "From the
  Debian packages": the ways `make dist-check` runs, in a root with the release's files);
- an untitled ```sh block is a command every way runs, in page order, after the way's block;
- ```text and ```console blocks are output, shown only. Any other block is a problem.

How it runs: a new temporary folder holds `app/`, where the page's files are written and its
commands run (one `bash -e` script: the way's block, then the commands), and `paywire`, a link
to the clone, which is the page's "clone beside this folder (../paywire)". The environment is
the caller's without what a newcomer would not have set: PAYWIRE_*, LD_LIBRARY_PATH,
PKG_CONFIG_PATH, PYTHONPATH, CLASSPATH, NODE_PATH, MONO_PATH and make's own variables.
"""
import argparse
import concurrent.futures
import glob
import os
import re
import shutil
import subprocess
import sys
import tempfile

FENCE = re.compile(r"^```([^\n]*)\n(.*?)^```", re.S | re.M)
INCLUDE = re.compile(r'^--8<-- "([^"]+)"$', re.M)
TITLE = re.compile(r'^(\w+)(?: title="([^"]+)")?$')
SHOWN = {"text", "console"}
PAGES = "docs/getting-started/*.md"
CLONE_WAY = "clone"
# What a newcomer's shell has not set: variables that would let a page pass without saying so.
UNSET = ("LD_LIBRARY_PATH", "LD_PRELOAD", "PKG_CONFIG_PATH", "PYTHONPATH", "CLASSPATH", "NODE_PATH", "MONO_PATH",
         "MAKEFLAGS", "MFLAGS", "MAKELEVEL", "MAKEOVERRIDES")
# A Swift package builds all of PaywireKit first: minutes on a loaded two-core machine.
TIMEOUT = {"swift.md": 900}
DEFAULT_TIMEOUT = 300


def expand(root, text):
    """The text with each `--8<-- "path:start:end"` line replaced by those lines of the file (from
    1, both optional), as pymdownx.snippets includes them, in code blocks and out of them."""
    def lines(match):
        path, _, span = match.group(1).partition(":")
        with open(os.path.join(root, path), encoding="utf-8") as source:
            text = source.read()
        if not span:
            return text
        start, _, end = span.partition(":")
        return "".join(text.splitlines(keepends=True)[int(start or 1) - 1:int(end) if end else None])
    return INCLUDE.sub(lambda m: expand(root, lines(m)).rstrip("\n"), text)


class Page:
    """What one page writes (files) and runs (ways, commands), or why it cannot be run."""

    def __init__(self, name, text):
        self.name = name
        self.files = {}       # path -> text, in the order the page gives them
        self.ways = {}        # title -> script
        self.commands = []    # untitled sh blocks
        self.problems = []
        current = {}          # language -> the file its untitled blocks add to
        for info, body in FENCE.findall(text):
            match = TITLE.match(info.strip())
            if not match:
                self.problems.append("%s: a block fenced ```%s, which is neither a file, a way nor a command" % (name, info))
                continue
            language, title = match.group(1), match.group(2)
            if language == "sh":
                if title:
                    self.ways[title] = body
                else:
                    self.commands.append(body)
            elif language in SHOWN:
                continue
            elif title:
                self.files[title] = body
                current[language] = title
            elif language in current:
                self.files[current[language]] += "\n" + body
            else:
                self.problems.append("%s: an untitled ```%s block with no file before it: title the first one "
                                     "(```%s title=\"FILE\")" % (name, language, language))

    def way(self, wanted):
        """The title of the way `wanted` names (a word of it: clone, release, tarball, Debian)."""
        for title in self.ways:
            if wanted.lower() in title.lower():
                return title
        return None

    def script(self, title):
        return "\n".join(["set -e", "# " + title, self.ways[title]] + self.commands)


def pages(root, only=None):
    found = []
    for path in sorted(glob.glob(os.path.join(root, PAGES))):
        name = os.path.basename(path)
        if only and name not in only:
            continue
        with open(path, encoding="utf-8") as source:
            found.append(Page(name, expand(root, source.read())))
    return found


def newcomer_environment():
    return {key: value for key, value in os.environ.items() if not key.startswith("PAYWIRE_") and key not in UNSET}


def run_page(root, page, way):
    """(ok, report): the page's files written into a new folder beside a link to the clone, and its
    way's script run there."""
    title = page.way(way)
    if title is None:
        return False, "%s: no way titled with %r (ways: %s)" % (page.name, way, ", ".join(page.ways) or "none")
    folder = tempfile.mkdtemp(prefix="paywire-newcomer-")
    try:
        os.symlink(os.path.abspath(root), os.path.join(folder, "paywire"))
        app = os.path.join(folder, "app")
        write(app, page)
        try:
            run = subprocess.run(["bash", "-e", "-c", page.script(title)], cwd=app, env=newcomer_environment(),
                                 capture_output=True, text=True, stdin=subprocess.DEVNULL,
                                 timeout=TIMEOUT.get(page.name, DEFAULT_TIMEOUT))
        except subprocess.TimeoutExpired:
            return False, "%s (%s): did not end within %d s" % (page.name, title, TIMEOUT.get(page.name, DEFAULT_TIMEOUT))
        log = "$ %s\n%s%s" % (page.script(title).replace("\n", "\n$ "), run.stdout, run.stderr)
        if run.returncode != 0:
            return False, "%s (%s): exit %d\n%s" % (page.name, title, run.returncode, log)
        return True, "%s (%s): ran\n%s" % (page.name, title, log)
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def write(folder, page):
    os.makedirs(folder, exist_ok=True)
    for path, text in page.files.items():
        target = os.path.join(folder, path)
        os.makedirs(os.path.dirname(target), exist_ok=True)
        with open(target, "w", encoding="utf-8") as out:
            out.write(text)


def extract(root, out, way):
    """Each page's files and its `way` script, as OUT/<page>/files/... and OUT/<page>/run.sh."""
    written = []
    for page in pages(root):
        title = page.way(way)
        if title is None or page.problems:
            continue
        target = os.path.join(out, page.name[:-3])
        write(os.path.join(target, "files"), page)
        with open(os.path.join(target, "run.sh"), "w", encoding="utf-8") as script:
            script.write(page.script(title) + "\n")
        written.append("%s (%s)" % (page.name, title))
    return written


def main(argv):
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("root")
    parser.add_argument("--list", action="store_true")
    parser.add_argument("--page", nargs="+", help="only these pages (file names)")
    parser.add_argument("--way", default=CLONE_WAY)
    parser.add_argument("--extract", metavar="OUT")
    arguments = parser.parse_args(argv[1:])
    found = pages(arguments.root, arguments.page)
    problems = [problem for page in found for problem in page.problems]
    if arguments.extract:
        for entry in extract(arguments.root, arguments.extract, arguments.way):
            print("extracted " + entry)
        return 0
    if arguments.list:
        for page in found:
            print("%s: writes %s; ways: %s; %d command block(s)" % (
                page.name, ", ".join(page.files) or "nothing", "; ".join(page.ways) or "none", len(page.commands)))
        for problem in problems:
            print("PROBLEM " + problem)
        return 1 if problems else 0
    runnable = [page for page in found if not page.problems]
    failed = list(problems)
    with concurrent.futures.ThreadPoolExecutor(max_workers=2) as pool:
        # The longest first (Swift builds a package, Kotlin starts a compiler); reports in page order.
        order = sorted(runnable, key=lambda page: -TIMEOUT.get(page.name, DEFAULT_TIMEOUT))
        started = {page.name: pool.submit(run_page, arguments.root, page, arguments.way) for page in order}
        for page in runnable:
            ok, report = started[page.name].result()
            print(report if ok else "FAILED " + report, flush=True)
            if not ok:
                failed.append(report.split("\n", 1)[0])
    for problem in failed:
        print("docs-examples: " + problem, file=sys.stderr)
    print("docs-examples: %d page(s) ran as written, %d failed" % (len(runnable) - (len(failed) - len(problems)), len(failed)))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
