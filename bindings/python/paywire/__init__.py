"""Python binding of libpaywire, the paywall and purchase core.

    import paywire
    with paywire.Client({"fallback": {"path": "bundle.json"}}) as client:
        paywall = client.call("get_paywall", {"placement_id": "onboarding"})    # the raw contract
        paywall = client.get_paywall(placement_id="onboarding")                 # typed: models.Paywall

The typed methods and models (paywire.models, paywire.methods) are generated from the wire
schema by tools/codegen; `paywire.aio` is the same surface for asyncio.

Events are read by polling (`Client.events`, `Client.poll`): ctypes callbacks from the core's
threads cost about ten times more per event and must be kept referenced, so this binding does
not use them.
"""
import ctypes
import json
import threading
import time
import warnings
from decimal import Decimal
from typing import TYPE_CHECKING, Any, Dict, Iterator, List, Mapping, Optional, Tuple

from . import _native
from ._modelbase import UNSET, DecodeError
from .methods import TypedMethods

if TYPE_CHECKING:
    from . import models
    from .models import AnyEvent, parse_event
else:
    # The typed models load on first use (paywire/_lazy.py): a program of raw calls never pays
    # for importing them.
    from ._lazy import lazy_module
    models = lazy_module(__name__ + ".models")

    def __getattr__(name: str) -> Any:
        if name in ("AnyEvent", "parse_event"):
            return getattr(models, name)
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")

__all__ = ["Client", "PaywireError", "PaywireWarning", "STATUS", "abi_version", "version", "models", "parse_event", "AnyEvent",
           "DecodeError", "UNSET", "schema_mismatch"]
__version__ = "0.2.0"

_lib = _native.load()

#: The pinned status codes of the C ABI.
STATUS = {
    "OK": 0, "FAILED": -1, "INVALID_ARGUMENT": -2, "INVALID_UTF8": -3, "INVALID_JSON": -4,
    "UNKNOWN_METHOD": -5, "VERSION_MISMATCH": -6, "INVALID_HANDLE": -7, "CLOSED": -8,
    "TIMEOUT": -9, "INTERNAL": -10, "NOMEM": -11, "BUSY": -12,
}

# The wire error code the library writes with each status. A refused call_async comes with no
# envelope, so the binding names the code itself, and it must be the one an envelope would carry
# (not the status name lowercased: "invalid_argument" is no wire code).
_WIRE_CODES = {
    -1: "internal", -2: "wrong_param", -3: "invalid_utf8", -4: "decoding_failed", -5: "unknown_method",
    -6: "wrong_fallback_version", -7: "invalid_handle", -8: "closed", -9: "timeout", -10: "internal", -11: "internal",
    -12: "busy",
}

# Why a status came without an envelope, for the ones a caller can act on.
_REFUSALS = {
    -12: "the client already owes the host async_call_limit call_results it has not taken "
         "(poll, or await the calls already made, then retry)",
}


def abi_version() -> int:
    """The loaded library's ABI version (checked against this binding's at import)."""
    return int(_lib.paywire_abi_version())


def version() -> str:
    """The loaded library's version string."""
    return str(_lib.paywire_version().decode())


def _loads(text: str) -> Any:
    # Decimal keeps amounts exact: 9.99 stays 9.99, never 9.9900000000000002.
    return json.loads(text, parse_float=Decimal)


def _dumps(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, default=_encode_decimal)


def _encode_decimal(value: Any) -> Any:
    if isinstance(value, Decimal):
        return float(value) if value != value.to_integral_value() else int(value)
    raise TypeError(f"{type(value).__name__} is not JSON serializable")


class PaywireError(Exception):
    """A failed call: `code` is the wire error code, `status` the ABI status name."""

    def __init__(self, status: str, error: Mapping[str, Any]):
        self.status = status
        self.code = error.get("code", "internal")
        self.message = error.get("message", "")
        self.details = error.get("details", {})
        super().__init__(f"{self.code}: {self.message}")


class PaywireWarning(UserWarning):
    """Something the library ignored or did instead of what was asked, which the answer says:
    a config key it does not know, a paywall served from the device because the backend
    refused the credentials. Shown as Python shows warnings (`warnings.filterwarnings` turns
    them into errors, or silences them)."""


def _warn_about(result: Any, stacklevel: int = 3) -> None:
    """Warns of what a success says went otherwise than asked: client_new's `warnings`, and the
    `source` and `backend_error` of a paywall a copy on the device served because the backend
    refused the request."""
    if not isinstance(result, dict):
        return
    for warning in result.get("warnings") or []:
        if isinstance(warning, dict):
            warnings.warn(PaywireWarning(warning.get("message", warning.get("code", ""))), stacklevel=stacklevel)
    refusal = result.get("backend_error")
    if isinstance(refusal, dict) and "source" in result:
        warnings.warn(PaywireWarning(
            f"the backend refused the request (HTTP {refusal.get('status')}, {refusal.get('code')}): this paywall came "
            f"from the {'fallback bundle' if result['source'] == 'fallback' else 'cache'}; check the api_key"),
            stacklevel=stacklevel)


def _unwrap(status: int, envelope_text: Optional[str]) -> Any:
    if envelope_text is None:
        raise MemoryError("libpaywire could not allocate the result")
    envelope = _loads(envelope_text)
    if "error" in envelope:
        raise PaywireError(_lib.paywire_status_name(status).decode(), envelope["error"])
    return envelope.get("success")


def _refused(status: int, what: str) -> PaywireError:
    """The error for a status that came without an envelope."""
    name = _lib.paywire_status_name(status).decode()
    reason = _REFUSALS.get(status)
    message = f"{what} refused: {name}" + (f": {reason}" if reason else "")
    return PaywireError(name, {"code": _WIRE_CODES.get(status, "internal"), "message": message})


def _major_minor(text: Any) -> Optional[Tuple[int, int]]:
    parts = text.split(".") if isinstance(text, str) else []
    if len(parts) != 2 or not all(part.isdigit() for part in parts):
        return None
    return int(parts[0]), int(parts[1])


def schema_mismatch(library: Any, binding: str) -> Optional[PaywireError]:
    """None when a library whose schema is `library` (MAJOR.MINOR; None when it says none) can
    serve a binding generated from `binding`: the same MAJOR, a MINOR at least the binding's.
    Else the VERSION_MISMATCH error naming both."""
    theirs, ours = _major_minor(library), _major_minor(binding)
    if theirs is not None and ours is not None and theirs[0] == ours[0] and theirs[1] >= ours[1]:
        return None
    return PaywireError("VERSION_MISMATCH", {
        "code": "schema_mismatch",
        "message": f"libpaywire speaks wire schema {library}, this binding was generated from {binding}: it "
                   f"needs schema {binding.split('.')[0]}.x at {binding} or newer (use the binding of the library's release)",
        "details": {"library_schema_version": library, "binding_schema_version": binding}})


class Client(TypedMethods):
    """One Paywire client. Thread-safe; close it (or use `with`) to release it. Besides the raw
    `call`, every wire method is a typed method (client.get_paywall(placement_id=...))."""

    def __init__(self, config: Optional[Mapping[str, Any]] = None):
        self._lock = threading.Lock()
        handle = ctypes.c_void_p()
        out = ctypes.c_void_p()
        config_text = None if config is None else _dumps(config).encode()
        status = _lib.paywire_client_new(config_text, ctypes.byref(handle), ctypes.byref(out))
        _warn_about(_unwrap(status, _native.take_string(_lib, out.value)))
        self._handle: Optional[int] = handle.value
        self._refuse_another_schema()

    def _refuse_another_schema(self) -> None:
        """The typed layer was generated from one schema version: a library of the same MAJOR and
        a MINOR at least ours only adds what the tolerant models keep; any other is refused here,
        naming both versions."""
        library = self.call("get_sdk_version").get("schema_version")
        refused = schema_mismatch(library, models.SCHEMA_VERSION)
        if refused is not None:
            self.close()
            raise refused

    def call(self, method: str, params: Optional[Mapping[str, Any]] = None) -> Any:
        """Calls `method` and returns its result; raises PaywireError on failure."""
        out = ctypes.c_void_p()
        params_text = None if params is None else _dumps(params).encode()
        status = _lib.paywire_client_call(self._live(), method.encode(), params_text, ctypes.byref(out))
        result = _unwrap(status, _native.take_string(_lib, out.value))
        _warn_about(result)
        return result

    def _call_typed(self, method: str, params: Dict[str, Any]) -> Any:
        return self.call(method, params)

    def call_async(self, method: str, params: Optional[Mapping[str, Any]] = None) -> int:
        """Queues `method`; returns the call id its `call_result` event will carry."""
        call_id = ctypes.c_uint64()
        params_text = None if params is None else _dumps(params).encode()
        status = _lib.paywire_client_call_async(self._live(), method.encode(), params_text, ctypes.byref(call_id))
        if status != 0:
            raise _refused(status, "call_async")
        return int(call_id.value)

    def poll(self, timeout: float = 0.0) -> Optional[Dict[str, Any]]:
        """The next event as a dict, or None when none came within `timeout` seconds."""
        out = ctypes.c_void_p()
        status = _lib.paywire_client_poll(self._live(), int(timeout * 1000), ctypes.byref(out))
        text = _native.take_string(_lib, out.value)
        if status == STATUS["OK"]:
            event: Dict[str, Any] = _loads(text or "{}")
            return event
        if status == STATUS["TIMEOUT"]:
            return None
        _unwrap(status, text)
        return None

    def events(self, timeout: float = 0.0) -> Iterator[Dict[str, Any]]:
        """Yields events until none arrives for `timeout` seconds."""
        while True:
            event = self.poll(timeout)
            if event is None:
                return
            yield event

    def typed_events(self, timeout: float = 0.0) -> Iterator["AnyEvent"]:
        """`events`, each parsed into its model (models.UnknownEvent for a name the schema lacks)."""
        for event in self.events(timeout):
            yield models.parse_event(event)

    def wait_for(self, call_id: int, timeout: float = 5.0) -> Tuple[Any, List[Dict[str, Any]]]:
        """Polls until the `call_result` of `call_id` arrives; returns its result or raises.
        Other events seen meanwhile are returned in the second element."""
        deadline = time.monotonic() + timeout
        others: List[Dict[str, Any]] = []
        while time.monotonic() < deadline:
            event = self.poll(max(0.0, deadline - time.monotonic()))
            if event is None:
                continue
            if event.get("event") == "call_result" and event.get("call_id") == call_id:
                envelope = event["envelope"]
                if "error" in envelope:
                    raise PaywireError(event["status_name"], envelope["error"])
                _warn_about(envelope.get("success"))
                return envelope.get("success"), others
            others.append(event)
        raise TimeoutError(f"no call_result for call {call_id} within {timeout} s")

    def close(self) -> None:
        """Frees the client; later calls raise PaywireError(closed). Safe to call twice."""
        with self._lock:
            handle, self._handle = self._handle, None
        if handle:
            _lib.paywire_client_free(handle)

    def _live(self) -> int:
        handle = self._handle
        if handle is None:
            raise PaywireError("CLOSED", {"code": "closed", "message": "the client is closed"})
        return handle

    def __enter__(self) -> "Client":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def __del__(self) -> None:
        try:
            self.close()
        except Exception:
            pass
