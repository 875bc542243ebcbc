#!/usr/bin/env python3
"""The documentation site's reference, generated, and the checks that keep it true.

  reference.py build   copies docs/ to build/docs-src, writes the reference pages there from the
                       schema, the OpenAPI spec and the vectors, and writes build/mkdocs.yml
                       (the root mkdocs.yml plus a nav entry per method) for `mkdocs build`
  reference.py check   fails when a method of the Swift method table has no reference page,
                       when an example no longer matches the vector case it was taken from,
                       when the README's examples or links drift from the code they show, or
                       when the Swift of a page differs from the program built from it
                       (swift_examples.py)
  reference.py lock    records again which vector case each method's example comes from
                       (tools/docs/examples.lock.json), after a vector changed on purpose

Run from the repository root. Broken links inside the site are mkdocs --strict's to find.
"""
import argparse
import json
import os
import shutil
import sys

import yaml

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import pages    # noqa: E402
import sources  # noqa: E402
import swift_examples  # noqa: E402
from readme import readme_problems  # noqa: E402


class Paths:
    """Where every input and output lives; the tests point these at temporary copies."""

    def __init__(self, root="."):
        join = lambda *parts: os.path.join(root, *parts)  # noqa: E731
        self.root = root
        self.schema = join("schema", "paywire.schema.json")
        self.openapi = join("api", "openapi.yaml")
        self.vectors = join("tests", "conformance", "vectors")
        self.methods = join("Sources", "PaywireCore", "Methods")
        self.lock = join("tools", "docs", "examples.lock.json")
        self.docs = join("docs")
        self.mkdocs = join("mkdocs.yml")
        self.out = join("build", "docs-src")
        self.config = join("build", "mkdocs.yml")


class Inputs:
    """Everything read once: the schema's sections, the spec's routes, the vectors, the lock."""

    def __init__(self, paths):
        self.paths = paths
        schema = sources.load_schema(paths.schema)
        self.defs = schema["$defs"]
        self.params = sources.schema_section(schema, "params")
        self.results = sources.schema_section(schema, "results")
        self.events = sources.schema_section(schema, "events")
        self.routes = sources.routes(sources.load_openapi(paths.openapi))
        self.vectors = sources.load_vectors(paths.vectors)
        self.methods = sources.swift_methods(paths.methods)
        self.lock = {}
        if os.path.exists(paths.lock):
            with open(paths.lock, encoding="utf-8") as source:
                self.lock = json.load(source)

    def pick(self, method):
        """The example shown for a method: the locked case when it still exists, else the best."""
        entry = self.lock.get(method)
        if entry:
            found = sources.find_step(self.vectors, entry["vector"], entry["case"], entry["step"])
            if found:
                return dict(entry, example=sources.example_of(found[0], entry["step"]))
        return self.best(method)

    def best(self, method):
        ranked = sources.candidates(self.vectors, method)
        if not ranked:
            return None
        _, file, case_id, index = ranked[0]
        case, _ = sources.find_step(self.vectors, file, case_id, index)
        return {"vector": file, "case": case_id, "step": index, "example": sources.example_of(case, index)}


def _write(path, text):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w", encoding="utf-8") as out:
        out.write(text)


def reference_methods(inputs):
    """The methods that get a page: those the schema describes (params and result)."""
    return sorted(set(inputs.params) & set(inputs.results))


def build(inputs):
    """Writes build/docs-src (hand pages and generated reference) and build/mkdocs.yml."""
    paths = inputs.paths
    shutil.rmtree(paths.out, ignore_errors=True)
    shutil.copytree(paths.docs, paths.out)
    reference = os.path.join(paths.out, "reference")
    methods = reference_methods(inputs)
    for method in methods:
        page = pages.method_page(method, inputs.params[method], inputs.results[method],
                                 sources.error_codes(inputs.vectors, method), inputs.pick(method))
        _write(os.path.join(reference, "methods", method + ".md"), page)
    _write(os.path.join(reference, "methods", "index.md"), pages.methods_index(methods, inputs.params))
    _write(os.path.join(reference, "events.md"), pages.events_page(inputs.events))
    _write(os.path.join(reference, "config.md"), pages.config_page(inputs.defs["config"]))
    _write(os.path.join(reference, "errors.md"), pages.errors_page(inputs.defs["error_code"], inputs.defs["error"]))
    _write(os.path.join(reference, "routes.md"), pages.routes_page(inputs.routes))
    _write(paths.config, site_config(paths, methods))


def site_config(paths, methods):
    """The generated config: the root one inherited, the nav given a page per method (a glob in
    the root nav would need a plugin; a method added must appear without editing the nav)."""
    with open(paths.mkdocs, encoding="utf-8") as source:
        nav = yaml.safe_load(source)["nav"]
    method_nav = ["reference/methods/index.md"] + [{m: "reference/methods/%s.md" % m} for m in methods]
    for section in nav:
        if isinstance(section, dict) and "Reference" in section:
            section["Reference"] = [{"Methods": method_nav} if isinstance(item, dict) and "Methods" in item else item
                                    for item in section["Reference"]]
    config_dir = os.path.dirname(os.path.abspath(paths.config))
    return yaml.safe_dump({
        "INHERIT": os.path.relpath(os.path.abspath(paths.mkdocs), config_dir),
        "docs_dir": os.path.relpath(os.path.abspath(paths.out), config_dir),
        "site_dir": "docs",
        "nav": nav,
        # This checkout's hooks, also for a copy of the inputs elsewhere (tests/docs).
        "hooks": [os.path.relpath(os.path.join(HERE, "site_hooks.py"), config_dir)],
    }, sort_keys=False)


def coverage_problems(inputs):
    """A method the Swift table registers must have a page; a page must name a real method."""
    problems = []
    pages_dir = os.path.join(inputs.paths.out, "reference", "methods")
    for method in inputs.methods:
        if method not in inputs.params or method not in inputs.results:
            problems.append("method %s (Sources/PaywireCore/Methods) is missing from the schema's "
                            "$defs/params or $defs/results, so it has no reference page" % method)
        elif not os.path.exists(os.path.join(pages_dir, method + ".md")):
            problems.append("method %s has no reference page (run reference.py build)" % method)
    for method in sorted(set(inputs.params) - set(inputs.methods)):
        problems.append("the schema describes %s, which Sources/PaywireCore/Methods does not register" % method)
    overview = os.path.join(inputs.paths.docs, "concepts", "methods.md")
    if os.path.exists(overview):
        with open(overview, encoding="utf-8") as source:
            text = source.read()
        problems += ["docs/concepts/methods.md does not link method %s" % method for method in inputs.methods
                     if "(../reference/methods/%s.md)" % method not in text]
    return problems


def example_problems(inputs):
    """Each method's example is regenerated from the case the lock names and compared."""
    problems = []
    for method in inputs.methods:
        entry = inputs.lock.get(method)
        if entry is None:
            if sources.candidates(inputs.vectors, method):
                problems.append("method %s has no recorded example (run make docs-lock)" % method)
            continue
        found = sources.find_step(inputs.vectors, entry["vector"], entry["case"], entry["step"])
        if found is None:
            problems.append("the example of %s came from %s case %s step %d, which no longer exists (run make docs-lock)"
                            % (method, entry["vector"], entry["case"], entry["step"]))
        elif sources.example_of(found[0], entry["step"]) != entry["example"]:
            problems.append("the example of %s no longer matches %s case %s step %d (run make docs-lock if the "
                            "vector changed on purpose)" % (method, entry["vector"], entry["case"], entry["step"]))
    problems += ["the lock records an example for %s, which is not a method" % method
                 for method in sorted(set(inputs.lock) - set(inputs.methods))]
    return problems


def check(inputs):
    return (coverage_problems(inputs) + example_problems(inputs) + readme_problems(inputs.paths.root)
            + swift_examples.problems(inputs.paths.root))


def lock(inputs):
    """Records the example case of every method: the same case when it still has that step."""
    recorded = {}
    for method in inputs.methods:
        pick = inputs.pick(method)
        if pick is not None:
            recorded[method] = pick
    with open(inputs.paths.lock, "w", encoding="utf-8") as out:
        json.dump(recorded, out, indent=1, sort_keys=True, ensure_ascii=False)
        out.write("\n")
    return recorded


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("command", choices=["build", "check", "lock"])
    parser.add_argument("--root", default=".", help="the repository root (default: the current directory)")
    args = parser.parse_args(argv)
    inputs = Inputs(Paths(args.root))
    if args.command == "build":
        build(inputs)
        print("reference: %d methods, %d events, %d config keys, %d routes -> %s"
              % (len(reference_methods(inputs)), len(inputs.events), len(inputs.defs["config"]["properties"]),
                 len(inputs.routes), inputs.paths.out))
        return 0
    if args.command == "lock":
        print("recorded the examples of %d methods in %s" % (len(lock(inputs)), inputs.paths.lock))
        return 0
    problems = check(inputs)
    for problem in problems:
        print("docs-check: " + problem, file=sys.stderr)
    if not problems:
        print("docs-check: %d methods, each with a page and an example true to its vector; README examples "
              "match their code; the pages' Swift is the programs make docs-swift runs" % len(inputs.methods))
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
