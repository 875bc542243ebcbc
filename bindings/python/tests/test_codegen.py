"""`make check-generated` (generate.py --check) fails on a hand edit of generated code, naming
the file, and passes on what the generator writes. Every generated file is set apart, says so on
its first line the way Go's tools and GitHub's linguist read it, and is marked linguist-generated
in .gitattributes; nothing hand-written is."""
import re
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]
sys.path.insert(0, str(ROOT / "tools" / "codegen"))
import generate  # noqa: E402

PYTHON, FINGERPRINT, JAVA, CS_MODELS, CS_METHODS, NODE, SWIFT = generate.OUTPUTS
MODELS_PY, METHODS_PY = f"{PYTHON}/models.py", f"{PYTHON}/methods.py"
JAVA_MODEL = f"{JAVA}/dev/paywire/model"
NODE_MODELS, NODE_METHODS, NODE_METHOD_DECLARATIONS = (f"{NODE}/models.d.ts", f"{NODE}/methods.js",
                                                       f"{NODE}/methods.d.ts")
# What Go's tools and GitHub's linguist take for generated code, on the first line.
GO_RULE = re.compile(r"^(//|#) Code generated .* DO NOT EDIT\.$")


def checkout_copy(tmp_path):
    """The generator, the schema and the committed outputs, laid out as in the repository."""
    for path in ["tools/codegen", "schema/paywire.schema.json", *generate.OUTPUTS]:
        source, target = ROOT / path, tmp_path / path
        target.parent.mkdir(parents=True, exist_ok=True)
        if source.is_dir():
            shutil.copytree(source, target, ignore=shutil.ignore_patterns("__pycache__"))
        else:
            shutil.copy(source, target)
    return tmp_path


def check(root):
    return subprocess.run([sys.executable, str(root / "tools/codegen/generate.py"), "--check"],
                          capture_output=True, text=True, timeout=120)


def test_committed_output_is_what_the_generator_writes(tmp_path):
    result = check(checkout_copy(tmp_path))
    assert result.returncode == 0, result.stderr


def test_a_hand_edit_of_generated_code_fails_naming_the_file(tmp_path):
    root = checkout_copy(tmp_path)
    models = root / MODELS_PY
    models.write_text(models.read_text().replace("    variation_id: str\n", "    variation_id: int\n", 1))
    result = check(root)
    assert result.returncode == 1
    assert f"stale: {MODELS_PY}" in result.stderr and METHODS_PY not in result.stderr


def test_a_schema_change_not_regenerated_fails(tmp_path):
    root = checkout_copy(tmp_path)
    schema = root / "schema/paywire.schema.json"
    schema.write_text(schema.read_text().replace('"variation_id"', '"variation_key"'))
    result = check(root)
    assert result.returncode == 1 and f"stale: {MODELS_PY}" in result.stderr


def test_a_hand_edit_of_java_or_csharp_fails_naming_the_file(tmp_path):
    root = checkout_copy(tmp_path)
    paywall = root / JAVA_MODEL / "Paywall.java"
    paywall.write_text(paywall.read_text().replace("private String variationId;", "private Object variationId;", 1))
    models = root / CS_MODELS
    models.write_text(models.read_text().replace("public string VariationId", "public object VariationId", 1))
    result = check(root)
    assert result.returncode == 1
    assert f"stale: {JAVA_MODEL}/Paywall.java" in result.stderr and f"stale: {CS_MODELS}" in result.stderr


def test_a_stray_file_in_a_generated_directory_fails(tmp_path):
    root = checkout_copy(tmp_path)
    (root / JAVA_MODEL / "Handmade.java").write_text("package dev.paywire.model;\n")
    (root / PYTHON / "handmade.py").write_text("x = 1\n")
    (root / PYTHON / "__pycache__").mkdir(exist_ok=True)
    (root / PYTHON / "__pycache__" / "models.cpython-311.pyc").write_bytes(b"left by running the code")
    result = check(root)
    assert result.returncode == 1, result.stderr
    assert f"stale: {JAVA_MODEL}/Handmade.java" in result.stderr and f"stale: {PYTHON}/handmade.py" in result.stderr
    assert "__pycache__" not in result.stderr


def test_a_hand_edit_of_the_node_declarations_or_methods_fails_naming_the_file(tmp_path):
    root = checkout_copy(tmp_path)
    declarations = root / NODE_MODELS
    declarations.write_text(declarations.read_text().replace("  variation_id: string;\n", "  variation_id: number;\n", 1))
    methods = root / NODE_METHODS
    methods.write_text(methods.read_text().replace("  getPaywall(params = {}) {", "  getPaywall(params) {", 1))
    result = check(root)
    assert result.returncode == 1
    assert f"stale: {NODE_MODELS}" in result.stderr and f"stale: {NODE_METHODS}" in result.stderr
    assert f"stale: {NODE_METHOD_DECLARATIONS}" not in result.stderr


def test_a_hand_edit_of_the_swift_models_fails_naming_the_file(tmp_path):
    root = checkout_copy(tmp_path)
    models = root / SWIFT / "Models.g.swift"
    models.write_text(models.read_text().replace("public var paywallId: String", "public var paywallID: String"))
    (root / SWIFT / "Handmade.swift").write_text("// not generated\n")
    result = check(root)
    assert result.returncode == 1, result.stderr
    assert f"stale: {SWIFT}/Models.g.swift" in result.stderr and f"stale: {SWIFT}/Handmade.swift" in result.stderr


def test_a_hand_edit_of_the_library_fingerprint_fails_naming_the_file(tmp_path):
    root = checkout_copy(tmp_path)
    fingerprint = root / FINGERPRINT
    fingerprint.write_text(re.sub(r'sha256 = "[0-9a-f]+"', 'sha256 = "0"', fingerprint.read_text()))
    result = check(root)
    assert result.returncode == 1 and f"stale: {FINGERPRINT}" in result.stderr


def generated_files():
    files = generate.render((ROOT / generate.SCHEMA).read_bytes())
    assert len(files) > 100
    return files


def test_every_generated_file_says_so_on_its_first_line():
    for path, text in generated_files().items():
        assert GO_RULE.match(text.split("\n", 1)[0]), path
        assert text.split("\n", 1)[0].endswith(" Code generated by tools/codegen. DO NOT EDIT."), path


def test_generated_code_is_set_apart_from_hand_written_code():
    """A folder of its own (Python, Java, Node, Swift), or the .g.cs suffix (C#), per binding."""
    apart = {"bindings/python/": "bindings/python/paywire/_generated/",
             "bindings/java/": "bindings/java/src-generated/",
             "bindings/node/": "bindings/node/lib/generated/",
             "bindings/swift/": "bindings/swift/Sources/PaywireKit/Generated/"}
    for path in generated_files():
        binding = next((prefix for prefix in apart if path.startswith(prefix)), None)
        if binding:
            assert path.startswith(apart[binding]), path
        elif path.startswith("bindings/dotnet/"):
            assert path.endswith(".g.cs"), path
        else:
            assert path == FINGERPRINT, path


def git(*args, stdin=None):
    return subprocess.run(["git", *args], cwd=ROOT, input=stdin, capture_output=True, text=True,
                          check=True, timeout=60).stdout


def marked_generated(paths):
    answer = git("check-attr", "--stdin", "linguist-generated", stdin="".join(p + "\n" for p in paths))
    return {line.split(": ")[0] for line in answer.splitlines() if line.endswith(": linguist-generated: true")}


def test_gitattributes_marks_every_generated_file_and_nothing_hand_written():
    files = generated_files()
    assert marked_generated(files) == set(files), set(files) - marked_generated(files)
    # The other way round: a tracked file marked generated says so on its first line (tools/codegen's,
    # swift-openapi-generator's for the server (make server-generate), or a page tools/docs writes).
    tracked = git("ls-files").splitlines()
    for path in sorted(marked_generated(tracked)):
        first = (ROOT / path).read_text().split("\n", 1)[0]
        assert (re.search(r"Code generated by (tools/\w+|swift-openapi-generator).* DO NOT EDIT\.", first)
                or "Extracted by tools/docs" in first), path
