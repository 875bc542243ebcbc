"""`make check-generated` (generate.py --check) fails on a hand edit of generated code, naming
the file, and passes on what the generator writes."""
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]
OUTPUTS = ["bindings/python/paywire/models.py", "bindings/python/paywire/methods.py",
           "Sources/PaywireWire/SchemaFingerprint.swift",
           "bindings/java/src/dev/paywire/model", "bindings/java/src/dev/paywire/TypedMethods.java",
           "bindings/dotnet/src/Models.g.cs", "bindings/dotnet/src/TypedMethods.g.cs",
           "bindings/node/models.d.ts", "bindings/node/lib/methods.js", "bindings/node/lib/methods.d.ts"]


def checkout_copy(tmp_path):
    """The generator, the schema and the committed outputs, laid out as in the repository."""
    for path in ["tools/codegen", "schema/paywire.schema.json", *OUTPUTS]:
        source, target = ROOT / path, tmp_path / path
        target.parent.mkdir(parents=True, exist_ok=True)
        (shutil.copytree if source.is_dir() else shutil.copy)(source, target)
    return tmp_path


def check(root):
    return subprocess.run([sys.executable, str(root / "tools/codegen/generate.py"), "--check"],
                          capture_output=True, text=True, timeout=120)


def test_committed_output_is_what_the_generator_writes(tmp_path):
    result = check(checkout_copy(tmp_path))
    assert result.returncode == 0, result.stderr


def test_a_hand_edit_of_generated_code_fails_naming_the_file(tmp_path):
    root = checkout_copy(tmp_path)
    models = root / OUTPUTS[0]
    models.write_text(models.read_text().replace("    variation_id: str\n", "    variation_id: int\n", 1))
    result = check(root)
    assert result.returncode == 1
    assert f"stale: {OUTPUTS[0]}" in result.stderr and OUTPUTS[1] not in result.stderr


def test_a_schema_change_not_regenerated_fails(tmp_path):
    root = checkout_copy(tmp_path)
    schema = root / "schema/paywire.schema.json"
    schema.write_text(schema.read_text().replace('"variation_id"', '"variation_key"'))
    result = check(root)
    assert result.returncode == 1 and f"stale: {OUTPUTS[0]}" in result.stderr


def test_a_hand_edit_of_java_or_csharp_fails_naming_the_file(tmp_path):
    root = checkout_copy(tmp_path)
    paywall = root / OUTPUTS[3] / "Paywall.java"
    paywall.write_text(paywall.read_text().replace("private String variationId;", "private Object variationId;", 1))
    models = root / OUTPUTS[5]
    models.write_text(models.read_text().replace("public string VariationId", "public object VariationId", 1))
    result = check(root)
    assert result.returncode == 1
    assert f"stale: {OUTPUTS[3]}/Paywall.java" in result.stderr and f"stale: {OUTPUTS[5]}" in result.stderr


def test_a_stray_file_in_a_generated_directory_fails(tmp_path):
    root = checkout_copy(tmp_path)
    (root / OUTPUTS[3] / "Handmade.java").write_text("package dev.paywire.model;\n")
    result = check(root)
    assert result.returncode == 1 and f"stale: {OUTPUTS[3]}/Handmade.java" in result.stderr


def test_a_hand_edit_of_the_node_declarations_or_methods_fails_naming_the_file(tmp_path):
    root = checkout_copy(tmp_path)
    declarations = root / OUTPUTS[7]
    declarations.write_text(declarations.read_text().replace("  variation_id: string;\n", "  variation_id: number;\n", 1))
    methods = root / OUTPUTS[8]
    methods.write_text(methods.read_text().replace("  getPaywall(params = {}) {", "  getPaywall(params) {", 1))
    result = check(root)
    assert result.returncode == 1
    assert f"stale: {OUTPUTS[7]}" in result.stderr and f"stale: {OUTPUTS[8]}" in result.stderr
    assert f"stale: {OUTPUTS[9]}" not in result.stderr
