"""Prints paywire/_generated/methods.py (paywire.methods re-exports it): one typed method per
wire method, keyword params from the params schema (required ones without default), the result
decoded into its model. The same text serves the blocking client and paywire.aio; only
`async`/`await` differ."""
from typing import Dict, List

from python_emit import HEADER, docstring, field_default, field_type, models_py, py_type
from schema_ir import Model


def _method(model: Model, method: str, is_async: bool) -> List[str]:
    cls = model.classes[model.params[method]]
    fields = [f for f in cls.fields if f.required] + [f for f in cls.fields if not f.required]
    args = ["self"] + (["*"] if fields else []) + [f"{f.pyname}: {field_type(f, 'models.')}{field_default(f)}" for f in fields]
    result = py_type(model.results[method], "models.")
    prefix, wait = ("async def", "await ") if is_async else ("def", "")
    out = ["", f"    {prefix} {method}({', '.join(args)}) -> {result}:"]
    described = [f"{f.pyname}: {' '.join(f.doc.split())}" for f in fields if f.doc]
    text = f"Calls `{method}`. " + ("; ".join(described) if described else "")
    out += docstring(text.strip(), "        ")
    build = ", ".join(f"{f.pyname}={f.pyname}" for f in fields)
    out += [f"        params = models.{cls.name}({build})",
            f'        return models.decode_{method}_result({wait}self._call_typed("{method}", params.to_json()))']
    return out


def methods_py(model: Model, schema_id: str) -> str:
    out = [HEADER.format(schema_id=schema_id).rstrip("\n"),
           '"""Typed wire methods, mixed into paywire.Client (TypedMethods) and paywire.aio.Client',
           '(AsyncTypedMethods); each builds its params model and decodes the result into its model."""',
           "from __future__ import annotations", "",
           "from decimal import Decimal  # noqa: F401 (numbers in signatures)",
           "from typing import TYPE_CHECKING, Any, Dict, List, Literal, Optional, Union  # noqa: F401", "",
           "from .. import _modelbase as _mb  # noqa: F401 (UNSET defaults)",
           "",
           "if TYPE_CHECKING:",
           "    from . import models",
           "else:",
           "    # Loaded at the first typed call: the raw contract alone does not import the models.",
           "    from .._lazy import lazy_module",
           "    models = lazy_module(__package__ + \".models\")"]
    for is_async in (False, True):
        name = "AsyncTypedMethods" if is_async else "TypedMethods"
        call = "async def" if is_async else "def"
        out += ["", "", f"class {name}:",
                f'    """Every wire method, typed{" and awaitable" if is_async else ""}. Subclasses supply _call_typed."""',
                "", f"    {call} _call_typed(self, method: str, params: Dict[str, Any]) -> Any:",
                "        raise NotImplementedError"]
        for method in model.params:
            out += _method(model, method, is_async)
    return "\n".join(out) + "\n"


# The package of generated modules, apart from the hand-written ones; paywire/models.py and
# paywire/methods.py re-export them under the public names.
DIR = "bindings/python/paywire/_generated"


def init_py(schema_id: str) -> str:
    return HEADER.format(schema_id=schema_id) + (
        '"""The typed layer generated from the wire schema. Import it as paywire.models and\n'
        'paywire.methods, the public names; these modules may move."""\n')


def outputs(model: Model, schema_id: str, sha256: str, version: str) -> Dict[str, str]:
    """Path -> text of every generated file of the Python binding."""
    return {f"{DIR}/__init__.py": init_py(schema_id), f"{DIR}/models.py": models_py(model, schema_id, sha256, version),
            f"{DIR}/methods.py": methods_py(model, schema_id)}
