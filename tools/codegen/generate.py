"""Generates the typed layer of the bindings from schema/paywire.schema.json.

    python3 tools/codegen/generate.py [--root DIR]

writes, under DIR (default: the repository), every file listed in OUTPUTS. `make generate` runs
it on the repository; `make check-generated` runs it into a temporary directory and compares.
Standard library only, so a fresh clone needs nothing installed to regenerate.
"""
import argparse
import hashlib
import json
import sys
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


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--root", type=Path, default=ROOT, help="where to write the outputs")
    parser.add_argument("--schema", type=Path, default=ROOT / SCHEMA)
    args = parser.parse_args()
    for path, text in render(args.schema.read_bytes()).items():
        target = args.root / path
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
