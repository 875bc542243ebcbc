"""Generates the typed layer of the bindings from schema/paywire.schema.json.

    python3 tools/codegen/generate.py [--root DIR]     writes every file of OUTPUTS under DIR
    python3 tools/codegen/generate.py --check          fails, naming each stale file

`make generate` writes them into the repository; `make check-generated` runs --check, which
generates into a temporary directory and compares with what is committed.
Standard library only, so a fresh clone needs nothing installed to regenerate.
"""
import argparse
import difflib
import hashlib
import json
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import csharp_methods  # noqa: E402
import java_emit  # noqa: E402
import java_methods  # noqa: E402
import marker  # noqa: E402
import python_methods  # noqa: E402
import schema_ir  # noqa: E402
import swift_methods  # noqa: E402
import ts_emit  # noqa: E402
import ts_methods  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
SCHEMA = "schema/paywire.schema.json"
FINGERPRINT = "Sources/PaywireWire/SchemaFingerprint.swift"
# Every generated file is in one of these: a directory is wholly generated (a file in it that the
# generator no longer writes is stale too), a file is one the generator writes. Each binding's
# generated code is set apart the way its ecosystem does it: a package, a source root or a folder
# of its own, or the .g.cs suffix. .gitattributes marks each of them linguist-generated.
OUTPUTS = [python_methods.DIR, FINGERPRINT, java_emit.ROOT,
           "bindings/dotnet/src/Models.g.cs", "bindings/dotnet/src/TypedMethods.g.cs",
           ts_emit.DIR, swift_methods.OUT]
# Left behind by running the generated code, not written by the generator.
IGNORED = {"__pycache__"}


def fingerprint_swift(sha256: str, version: str) -> str:
    """The library's copy of the schema's hash and version: get_sdk_version says both; the kit
    compares the hash, a generated binding the version."""
    return (f"// {marker.MARK}\n"
            "// From schema/paywire.schema.json: `make generate` writes it again.\n\n"
            "/// The wire schema this library was built from, as `get_sdk_version` says it: its sha256\n"
            "/// (`schema_sha256`, which the conformance kit requires byte for byte) and its MAJOR.MINOR\n"
            "/// (`schema_version`: a binding accepts the same MAJOR and a MINOR at least its own).\n"
            "package enum SchemaFingerprint {\n"
            f"    package static let sha256 = \"{sha256}\"\n"
            f"    package static let version = \"{version}\"\n"
            "}\n")


def render(schema_bytes: bytes) -> dict:
    """Path -> text of every generated file."""
    schema = json.loads(schema_bytes)
    model = schema_ir.build(schema)
    sha256 = hashlib.sha256(schema_bytes).hexdigest()
    version = schema["version"]  # MAJOR.MINOR; tools/schemaver checks it says what changed
    files = {
        **python_methods.outputs(model, schema["$id"], sha256, version),
        FINGERPRINT: fingerprint_swift(sha256, version),
        **java_methods.outputs(model, schema["$id"], sha256, version),
        **csharp_methods.outputs(model, schema["$id"], sha256, version),
        **ts_methods.outputs(model, schema["$id"], sha256, version),
        **swift_methods.outputs(schema, schema["$id"], sha256, version),
    }
    for path, text in files.items():
        # A generator's own slip, caught before anything is written or compared.
        assert marker.is_marked(text), f"{path} lacks the first line `{marker.MARK}`"
        assert any(path == out or path.startswith(out + "/") for out in OUTPUTS), f"{path} is outside OUTPUTS"
    return files


def orphans(root: Path, files: dict) -> list:
    """Files in a generated directory that the generator does not write, relative to root."""
    found = []
    for directory in (path for path in OUTPUTS if "." not in Path(path).name):
        if (root / directory).is_dir():
            for path in sorted((root / directory).rglob("*")):
                relative = path.relative_to(root).as_posix()
                if path.is_file() and relative not in files and not IGNORED & set(Path(relative).parts):
                    found.append(relative)
    return found


def write(root: Path, files: dict) -> None:
    for orphan in orphans(root, files):
        (root / orphan).unlink()
    for path, text in files.items():
        target = root / path
        target.parent.mkdir(parents=True, exist_ok=True)
        if not target.exists() or target.read_text() != text:  # an unchanged file keeps its mtime: no rebuild
            target.write_text(text)


def check(root: Path, files: dict) -> int:
    """0 when every committed output equals a fresh generation; else names each stale one."""
    stale = 0
    with tempfile.TemporaryDirectory(prefix="paywire-codegen-") as tmp:
        write(Path(tmp), files)
        for path in files:
            fresh = (Path(tmp) / path).read_text()
            committed = root / path
            current = committed.read_text() if committed.exists() else ""
            if current != fresh:
                stale += 1
                print(f"stale: {path} differs from what {SCHEMA} generates (hand edit, or the schema or "
                      f"generator changed); run `make generate` and commit it", file=sys.stderr)
                diff = difflib.unified_diff(current.splitlines(), fresh.splitlines(), f"committed/{path}",
                                            f"generated/{path}", lineterm="", n=1)
                print("\n".join(list(diff)[:40]), file=sys.stderr)
    for orphan in orphans(root, files):
        stale += 1
        print(f"stale: {orphan} is in a generated directory but {SCHEMA} does not generate it; "
              f"run `make generate` (which removes it) and commit", file=sys.stderr)
    if not stale:
        print(f"generated: {len(files)} files match {SCHEMA}")
    return 1 if stale else 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--root", type=Path, default=ROOT, help="the checkout: schema in, outputs out")
    parser.add_argument("--check", action="store_true", help="compare instead of writing")
    args = parser.parse_args()
    files = render((args.root / SCHEMA).read_bytes())
    if args.check:
        return check(args.root, files)
    write(args.root, files)
    return 0


if __name__ == "__main__":
    sys.exit(main())
