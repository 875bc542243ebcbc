"""Loads libpaywire and declares its C ABI for ctypes.

Every string the library returns is declared c_void_p (not c_char_p, which would lose the
pointer and leak it), copied with string_at, then released with paywire_string_free.
"""
import ctypes
import ctypes.util
import os
import sys
from pathlib import Path
from typing import Any, Iterator, Optional

ABI_VERSION = 1

EVENT_FN = ctypes.CFUNCTYPE(None, ctypes.c_char_p, ctypes.c_void_p)
FREE_FN = ctypes.CFUNCTYPE(None, ctypes.c_void_p)


class LibraryNotFound(OSError):
    """libpaywire could not be found or has an incompatible ABI."""


def _candidates() -> Iterator[str]:
    """Where to look, in order: PAYWIRE_LIBRARY (alone, when set), the library inside this
    package (a wheel from `make dist` carries it), a checkout's build/lib, the loader's search
    path, the install prefixes."""
    explicit = os.environ.get("PAYWIRE_LIBRARY")
    if explicit:
        yield explicit
        return
    here = Path(__file__).resolve().parent
    yield str(here / f"libpaywire.so.{ABI_VERSION}")
    for parent in [here.parent.parent.parent, *here.parents]:
        yield str(parent / "build" / "lib" / f"libpaywire.so.{ABI_VERSION}")
    found = ctypes.util.find_library("paywire")
    if found:
        yield found
    for prefix in (os.environ.get("PAYWIRE_PREFIX"), "/usr/local", "/usr", sys.prefix):
        if prefix:
            yield str(Path(prefix) / "lib" / f"libpaywire.so.{ABI_VERSION}")


def load() -> Any:
    """Returns the loaded library with prototypes declared; raises LibraryNotFound."""
    tried = []
    for path in _candidates():
        if os.path.sep in path and not os.path.exists(path):
            tried.append(path)
            continue
        try:
            lib = ctypes.CDLL(path)
        except OSError as error:
            tried.append(f"{path} ({error})")
            continue
        _declare(lib)
        version = lib.paywire_abi_version()
        if version != ABI_VERSION:
            raise LibraryNotFound(f"{path} has ABI {version}, this binding needs ABI {ABI_VERSION}")
        setattr(lib, "path", path)  # where it was found, for messages and tests
        return lib
    raise LibraryNotFound("libpaywire not found: install a paywire wheel that carries it (`make dist` builds "
                          "one), install libpaywire1, or set PAYWIRE_LIBRARY. Tried: " + "; ".join(tried))


def _declare(lib: Any) -> None:
    out_string = ctypes.POINTER(ctypes.c_void_p)
    lib.paywire_abi_version.restype = ctypes.c_uint32
    lib.paywire_abi_version.argtypes = []
    lib.paywire_version.restype = ctypes.c_char_p  # static, never freed
    lib.paywire_version.argtypes = []
    lib.paywire_status_name.restype = ctypes.c_char_p  # static, never freed
    lib.paywire_status_name.argtypes = [ctypes.c_int32]
    lib.paywire_string_free.restype = None
    lib.paywire_string_free.argtypes = [ctypes.c_void_p]
    lib.paywire_client_new.restype = ctypes.c_int32
    lib.paywire_client_new.argtypes = [ctypes.c_char_p, ctypes.POINTER(ctypes.c_void_p), out_string]
    lib.paywire_client_free.restype = None
    lib.paywire_client_free.argtypes = [ctypes.c_void_p]
    lib.paywire_client_call.restype = ctypes.c_int32
    lib.paywire_client_call.argtypes = [ctypes.c_void_p, ctypes.c_char_p, ctypes.c_char_p, out_string]
    lib.paywire_client_call_async.restype = ctypes.c_int32
    lib.paywire_client_call_async.argtypes = [ctypes.c_void_p, ctypes.c_char_p, ctypes.c_char_p,
                                              ctypes.POINTER(ctypes.c_uint64)]
    lib.paywire_client_set_event_handler.restype = ctypes.c_int32
    lib.paywire_client_set_event_handler.argtypes = [ctypes.c_void_p, EVENT_FN, ctypes.c_void_p, FREE_FN]
    lib.paywire_client_poll.restype = ctypes.c_int32
    lib.paywire_client_poll.argtypes = [ctypes.c_void_p, ctypes.c_int32, out_string]


def take_string(lib: Any, pointer: Optional[int]) -> Optional[str]:
    """Copies a library-owned string and frees it; None for NULL."""
    if not pointer:
        return None
    try:
        return ctypes.string_at(pointer).decode("utf-8")
    finally:
        lib.paywire_string_free(pointer)
