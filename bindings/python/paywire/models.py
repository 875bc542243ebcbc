"""Typed models of the Paywire wire: params and results of every method, events, errors.

The models are generated from schema/paywire.schema.json by tools/codegen into
paywire/_generated/models.py; this module is their public name (`from paywire import models`,
`paywire.models.Paywall`), so user code does not depend on where the generated code lives.
"""
from ._generated.models import *  # noqa: F401,F403
