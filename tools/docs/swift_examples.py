#!/usr/bin/env python3
"""The Swift the docs show, as programs the Swift package builds and `make docs-swift` runs.

    swift_examples.py write    writes each program from its page (after editing a page)
    swift_examples.py check    fails naming each program that differs from its page

Each page's ```swift blocks, in order, make one program (top-level code in main.swift): the
README's "From Swift" is bindings/swift/Examples/Docs/Readme, docs/getting-started/swift.md is
Examples/Docs/GettingStarted. A block titled as a file other than a `main.swift`
(```swift title="Package.swift"```) is not part of it: the page's manifest, which `make
docs-examples` uses when it runs the page from an empty folder. `reference.py check` (make docs-check) runs the
check, so a page edited without `write` fails there, and a program that no longer compiles
fails `make swift-kit`.
"""
import os
import re
import sys

PROGRAMS = {
    "README.md": "bindings/swift/Examples/Docs/Readme/main.swift",
    "docs/getting-started/swift.md": "bindings/swift/Examples/Docs/GettingStarted/main.swift",
}


def blocks(text):
    """The ```swift blocks of a page's program, without their fences: untitled ones, and one
    titled as a `main.swift` (the file the program's blocks make)."""
    return [body for title, body in re.findall(r'^```swift(?: title="([^"]*)")?\n(.*?)^```', text, re.S | re.M)
            if not title or title.endswith("main.swift")]


def program(page, text):
    found = blocks(text)
    header = ["// Extracted by tools/docs/swift_examples.py from %s: do not edit." % page,
              "// Its ```swift blocks in order; `make docs-swift-examples` writes this again, `make docs-check`",
              "// fails when it differs from the page, `make docs-swift` runs it.", ""]
    body = []
    for number, block in enumerate(found, 1):
        body += ["// ---- block %d of %d" % (number, len(found)), block.rstrip("\n"), ""]
    return "\n".join(header + body)


def programs(root):
    """Path -> text of every program, from the pages under `root`."""
    out = {}
    for page, target in PROGRAMS.items():
        with open(os.path.join(root, page), encoding="utf-8") as source:
            out[target] = program(page, source.read())
    return out


def problems(root):
    found = []
    for page, target in PROGRAMS.items():
        path = os.path.join(root, target)
        wanted = programs(root)[target]
        current = open(path, encoding="utf-8").read() if os.path.exists(path) else None
        if not blocks(open(os.path.join(root, page), encoding="utf-8").read()):
            found.append("%s has no ```swift block (its program %s would be empty)" % (page, target))
        elif current != wanted:
            found.append("the Swift of %s differs from %s: run `make docs-swift-examples`" % (page, target))
    return found


def write(root):
    for target, text in programs(root).items():
        path = os.path.join(root, target)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        if not os.path.exists(path) or open(path, encoding="utf-8").read() != text:
            with open(path, "w", encoding="utf-8") as out:
                out.write(text)


def main(argv):
    if argv[1:] == ["write"]:
        write(".")
        return 0
    if argv[1:] == ["check"]:
        found = problems(".")
        for problem in found:
            print("docs-check: " + problem, file=sys.stderr)
        return 1 if found else 0
    print(__doc__, file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv))
