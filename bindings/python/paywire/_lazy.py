"""Modules loaded on first use.

The typed models are some 5,500 generated lines that take a fifth of a second to import; a
program that only uses the raw contract (`client.call`), or the conformance runner, which starts
a process per case, should not pay for them. `lazy_module` is importlib's own recipe
(`importlib.util.LazyLoader`): the module object exists at once and runs on its first attribute
access.
"""
import importlib.util
import sys
from types import ModuleType


def lazy_module(name: str) -> ModuleType:
    """The module `name`, executed on its first attribute access (at once if already loaded)."""
    if name in sys.modules:
        return sys.modules[name]
    spec = importlib.util.find_spec(name)
    if spec is None or spec.loader is None:
        raise ImportError(f"no module named {name!r}")
    loader = importlib.util.LazyLoader(spec.loader)
    spec.loader = loader
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    loader.exec_module(module)
    return module
