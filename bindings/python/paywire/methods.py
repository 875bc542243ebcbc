"""Typed wire methods, mixed into paywire.Client (TypedMethods) and paywire.aio.Client
(AsyncTypedMethods).

Generated from schema/paywire.schema.json by tools/codegen into paywire/_generated/methods.py;
this module is their public name.
"""
from ._generated.methods import AsyncTypedMethods, TypedMethods

__all__ = ["AsyncTypedMethods", "TypedMethods"]
