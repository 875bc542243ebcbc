"""The docs checks can fail: each test breaks one input in a copy of the repository's sources and
expects tools/docs/reference.py (or mkdocs --strict) to say so. No library build is needed."""
import json
import os
import shutil
import subprocess
import sys

import pytest

REPO = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
sys.path.insert(0, os.path.join(REPO, "tools", "docs"))
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import reference  # noqa: E402
from copies import copy_inputs  # noqa: E402

# What the generator and the checks read, copied so each test may break its own.
INPUTS = ["schema", "api", "tests/conformance/vectors", "Sources/PaywireCore/Methods", "tools/docs/examples.lock.json",
          "docs", "mkdocs.yml", "README.md", "examples/quickstart.c",
          "include", "bindings/python/README.md", "bindings/java/README.md", "bindings/dotnet/README.md",
          "bindings/node/README.md", "bindings/swift/README.md", "bindings/swift/Examples/Docs"]


@pytest.fixture
def root(tmp_path):
    return copy_inputs(tmp_path, INPUTS)


def problems(root, build=True):
    inputs = reference.Inputs(reference.Paths(str(root)))
    if build:
        reference.build(inputs)
    return reference.check(inputs)


def edit_json(path, change):
    data = json.loads(path.read_text())
    change(data)
    path.write_text(json.dumps(data, indent=1))


def test_the_repository_passes(root):
    assert problems(root) == []
    page = (root / "build/docs-src/reference/methods/get_paywall.md").read_text()
    lock = json.loads((root / "tools/docs/examples.lock.json").read_text())["get_paywall"]
    assert "case `%s`" % lock["case"] in page and "## Params" in page and "## Errors" in page


def test_a_method_missing_from_the_schema_has_no_page(root):
    def drop(schema):
        del schema["$defs"]["params"]["get_paywall"]
        del schema["$defs"]["results"]["get_paywall"]
    edit_json(root / "schema/paywire.schema.json", drop)
    found = problems(root)
    assert any("get_paywall" in p and "no reference page" in p for p in found), found
    assert not (root / "build/docs-src/reference/methods/get_paywall.md").exists()


def test_a_method_registered_in_swift_but_not_described(root):
    table = root / "Sources/PaywireCore/Methods/ClientMethods.swift"
    table.write_text(table.read_text() + '\nlet extra: [MethodEntry] = [\n    .now("get_weather") { _, _ in done },\n]\n')
    found = problems(root)
    assert any("get_weather" in p and "no reference page" in p for p in found), found


def test_a_missing_page_is_found(root):
    inputs = reference.Inputs(reference.Paths(str(root)))
    reference.build(inputs)
    os.remove(root / "build/docs-src/reference/methods/identify.md")
    found = reference.check(inputs)
    assert any("identify has no reference page" in p for p in found), found


def locked_step(root, method):
    entry = json.loads((root / "tools/docs/examples.lock.json").read_text())[method]
    return root / "tests/conformance/vectors" / entry["vector"], entry["case"], entry["step"]


def test_an_example_that_drifted_from_its_vector(root):
    path, case_id, index = locked_step(root, "get_sdk_version")

    def change(vector):
        case = next(case for case in vector["cases"] if case["id"] == case_id)
        case["steps"][index]["expect"]["success"]["version"] = "9.9.9"
    edit_json(path, change)
    found = problems(root)
    assert any("get_sdk_version no longer matches" in p for p in found), found


def test_an_example_whose_case_is_gone(root):
    path, case_id, _ = locked_step(root, "set_fallback")
    edit_json(path, lambda vector: vector.update(cases=[c for c in vector["cases"] if c["id"] != case_id]))
    found = problems(root)
    assert any("set_fallback" in p and "no longer exists" in p for p in found), found


def test_lock_records_again_after_a_change_on_purpose(root):
    test_an_example_that_drifted_from_its_vector(root)
    reference.lock(reference.Inputs(reference.Paths(str(root))))
    assert problems(root) == []


@pytest.mark.parametrize("change, expected", [
    (lambda text: text.replace("paywire_client_free(client);", "/* leaked */"), "C example differs"),
    (lambda text: text.replace('locale="fr"', 'locale="de"'), "Python example differs"),
    (lambda text: text.replace('locale: "fr"', 'locale: "de"'), "the Swift of README.md differs"),
    (lambda text: text.replace("make demo\nmake test\n", "make deps\nmake demo\nmake test\n"), "exactly `make demo`"),
    (lambda text: text + "[gone](docs/concepts/gone.md)\n", "does not exist"),
    (lambda text: text + "[gen](docs/reference/methods/get_paywall.md)\n", "a generated page"),
    (lambda text: text + "line\n" * 200, "at most 200"),
])
def test_readme_drift(root, change, expected):
    readme = root / "README.md"
    readme.write_text(change(readme.read_text()))
    found = problems(root, build=False)
    assert any(expected in p for p in found), found


def test_a_c_example_that_does_not_compile(root):
    if shutil.which(os.environ.get("CC", "cc")) is None:
        pytest.skip("no C compiler")
    for path in (root / "examples/quickstart.c", root / "README.md"):
        path.write_text(path.read_text().replace("paywire_client_free(client);", "paywire_client_free(client, 1);"))
    found = problems(root, build=False)
    assert any("does not compile" in p for p in found), found


def mkdocs_build(root):
    return subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict", "-f", "build/mkdocs.yml"],
                          cwd=root, capture_output=True, text=True)


def test_the_site_build_draws_the_diagrams_and_fails_on_a_broken_link(root):
    pytest.importorskip("material")
    problems(root)
    run = mkdocs_build(root)
    assert run.returncode == 0, run.stderr
    # The diagrams are drawn into the pages (one build serves both checks: each costs seconds).
    home = built_page(root, "")
    assert home.count('<figure class="diagram diagram-dot">') == 1 and home.count('<figure class="diagram diagram-plantuml">') == 1
    assert "PaywireCore: the parts" in home and "digraph" not in home and "@startuml" not in home
    assert '<figure class="diagram diagram-dot">' in built_page(root, "concepts/outbox")
    assert "mermaid" not in home
    page = root / "build/docs-src/concepts/audiences.md"
    page.write_text(page.read_text() + "\n[outbox](outbox-gone.md) and [anchor](views.md#no-such-anchor)\n")
    run = mkdocs_build(root)
    assert run.returncode != 0 and "outbox-gone.md" in run.stderr and "no-such-anchor" in run.stderr, run.stderr


def test_the_swift_of_the_getting_started_page_is_the_program_the_package_builds(root):
    page = root / "docs/getting-started/swift.md"
    page.write_text(page.read_text().replace("try await client.logShowPaywall(paywall)", "print(paywall.paywallId)"))
    found = problems(root, build=False)
    assert any("the Swift of docs/getting-started/swift.md differs" in p for p in found), found
    import swift_examples  # tools/docs, on the path above
    swift_examples.write(str(root))
    assert "print(paywall.paywallId)" in (root / "bindings/swift/Examples/Docs/GettingStarted/main.swift").read_text()
    assert swift_examples.problems(str(root)) == []


def built_page(root, page):
    with open(root / "build/docs" / page / "index.html", encoding="utf-8") as html:
        return html.read()


@pytest.mark.parametrize("addition, expected", [
    ("\n```dot\ndigraph { a -> }\n```\n", "dot refused the diagram"),
    ('\n<script src="https://cdn.example.org/mermaid.min.js"></script>\n',
     "concepts/audiences/index.html loads https://cdn.example.org/mermaid.min.js"),
])
def test_a_diagram_the_renderer_refuses_or_a_load_from_another_host_fails_the_site_build(root, addition, expected):
    pytest.importorskip("material")
    problems(root)
    page = root / "build/docs-src/concepts/audiences.md"
    page.write_text(page.read_text() + addition)
    run = mkdocs_build(root)
    assert run.returncode != 0 and expected in run.stderr, run.stderr[-2000:]
