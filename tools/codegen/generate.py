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

import python_emit  # noqa: E402
import python_methods  # noqa: E402
import schema_ir  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
SCHEMA = "schema/paywire.schema.json"
OUTPUTS = ["bindings/python/paywire/models.py", "bindings/python/paywire/methods.py"]


def render(schema_bytes: bytes) -> dict:
    """Path -> text of every generated file."""
    schema = json.loads(schema_bytes)
    model = schema_ir.build(schema)
    sha256 = hashlib.sha256(schema_bytes).hexdigest()
    return {
        OUTPUTS[0]: python_emit.models_py(model, schema["$id"], sha256),
        OUTPUTS[1]: python_methods.methods_py(model, schema["$id"]),
    }


def write(root: Path, files: dict) -> None:
    for path, text in files.items():
        target = root / path
        target.parent.mkdir(parents=True, exist_ok=True)
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
