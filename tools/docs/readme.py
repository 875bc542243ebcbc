"""The README shows code that runs elsewhere: its C example is examples/quickstart.c (compiled
against the header here; docs/getting-started/c.md builds and runs it, `make docs-examples`) and
its Python example is `app.py` of bindings/python/README.md (docs/getting-started/python.md runs
it from a wheel). These checks keep the README's copies identical to those, and its links live."""
import os
import re
import shutil
import subprocess

C_EXAMPLE = os.path.join("examples", "quickstart.c")
PY_EXAMPLE = os.path.join("bindings", "python", "README.md")
PY_FILE = "app.py"


def fenced(text, language):
    """The first ``` block of that language, without its fences."""
    match = re.search(r"^```%s\n(.*?)^```" % re.escape(language), text, re.S | re.M)
    return match.group(1) if match else None


def c_example(root):
    with open(os.path.join(root, C_EXAMPLE), encoding="utf-8") as source:
        text = source.read()
    return text[text.index("#include"):]   # the file's opening comment is not shown


def python_example(root):
    """The Python README's `app.py` block, without its fences."""
    with open(os.path.join(root, PY_EXAMPLE), encoding="utf-8") as source:
        text = source.read()
    match = re.search(r'^```python title="%s"\n(.*?)^```' % re.escape(PY_FILE), text, re.S | re.M)
    return match.group(1) if match else None


def link_problems(root, text):
    problems = []
    for target in re.findall(r"\]\(([^)\s]+)\)", text):
        if re.match(r"[a-z]+:", target) or target.startswith("#"):
            continue
        path = target.split("#", 1)[0]
        if path.startswith("docs/reference/") and path != "docs/reference/index.md":
            problems.append("README links %s, a generated page: link docs/reference/index.md" % target)
        elif not os.path.exists(os.path.join(root, path)):
            problems.append("README links %s, which does not exist" % target)
    return problems


def compile_problems(root):
    """The C example compiles against the header as C99 (no library needed: syntax only)."""
    compiler = shutil.which(os.environ.get("CC", "cc"))
    if compiler is None:
        return []
    run = subprocess.run([compiler, "-std=c99", "-Wall", "-Wextra", "-Werror", "-pedantic", "-fsyntax-only",
                          "-I", os.path.join(root, "include"), os.path.join(root, C_EXAMPLE)],
                         capture_output=True, text=True)
    return [] if run.returncode == 0 else ["%s does not compile: %s" % (C_EXAMPLE, run.stderr.strip())]


def readme_problems(root):
    with open(os.path.join(root, "README.md"), encoding="utf-8") as source:
        text = source.read()
    problems = []
    lines = text.count("\n")
    if lines > 200:
        problems.append("README.md has %d lines; at most 200 (move the rest to docs/)" % lines)
    if fenced(text, "c") != c_example(root):
        problems.append("README's C example differs from %s" % C_EXAMPLE)
    if fenced(text, "python") != python_example(root):
        problems.append("README's Python example differs from %s in %s" % (PY_FILE, PY_EXAMPLE))
    if fenced(text, "sh") != "make demo\nmake test\n":
        problems.append("README's quick start must be exactly `make demo` and `make test`")
    return problems + link_problems(root, text) + compile_problems(root)
