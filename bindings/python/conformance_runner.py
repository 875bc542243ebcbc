#!/usr/bin/env python3
"""The Python runner of the Paywire conformance kit.

Reads the primitive ops of tests/conformance/README.md as JSON lines on stdin and answers each
with one JSON line, calling libpaywire through this binding's ctypes declarations (so it can
also pass NULL pointers and raw bytes, as the C runner does).
"""
import ctypes
import json
import sys
import threading

import paywire
from paywire import _native

lib = paywire._lib
clients = {}        # name -> handle (int)
inboxes = {}        # name -> {"events": [...], "frees": n, "cond": Condition}
keepalive = []      # ctypes callbacks must outlive every call into them
made_up_object = ctypes.create_string_buffer(64)


def resolve(ref):
    if ref is None or ref == "null":
        return None
    if ref == "made_up":
        return 0x1234
    if ref == "made_up_heap":
        return ctypes.addressof(made_up_object)
    if ref.startswith("freed:"):
        return clients.get(ref[6:])
    return clients.get(ref)


def argument(op, key):
    """A string argument as bytes: <key>_text verbatim, <key>_hex raw bytes, <key>_repeat, or
    <key> (a string as is, anything else as JSON); None means a NULL pointer."""
    if isinstance(op.get(key + "_text"), str):
        return op[key + "_text"].encode()
    if isinstance(op.get(key + "_hex"), str):
        return bytes.fromhex(op[key + "_hex"])
    repeat = op.get(key + "_repeat")
    if isinstance(repeat, dict):
        return (repeat.get("prefix", "") + repeat["text"] * repeat["times"] + repeat.get("suffix", "")).encode()
    value = op.get(key)
    if value is None:
        return None
    return (value if isinstance(value, str) else json.dumps(value)).encode()


def result(reply, status, pointer, key="envelope"):
    reply["status"] = status
    reply["status_name"] = lib.paywire_status_name(status).decode()
    text = _native.take_string(lib, pointer)
    if text is None:
        reply[key] = None
        return reply
    reply["raw"] = text
    try:
        reply[key] = json.loads(text)
    except ValueError:
        reply["unparseable"] = text
    return reply


def op_hello(op):
    return {"runner": "python", "abi_version": lib.paywire_abi_version(), "version": paywire.version(),
            "header_abi_version": _native.ABI_VERSION,
            "status_names": {str(code): lib.paywire_status_name(code).decode() for code in range(-13, 2)}}


def op_client_new(op):
    name = op.get("client", "main")
    handle = ctypes.c_void_p()
    out = ctypes.c_void_p()
    status = lib.paywire_client_new(argument(op, "config"),
                                    None if op.get("null_out_client") else ctypes.byref(handle), ctypes.byref(out))
    reply = result({}, status, out.value)
    reply["client_set"] = bool(handle.value)
    if handle.value:
        clients[name] = handle.value
        inboxes[name] = {"events": [], "frees": 0, "cond": threading.Condition()}
    return reply


def op_call(op):
    out = ctypes.c_void_p()
    status = lib.paywire_client_call(resolve(op.get("client")), argument(op, "method"), argument(op, "params"),
                                     None if op.get("null_out_json") else ctypes.byref(out))
    return result({}, status, out.value)


def op_call_async(op):
    call_id = ctypes.c_uint64()
    status = lib.paywire_client_call_async(resolve(op.get("client")), argument(op, "method"), argument(op, "params"),
                                           None if op.get("null_out_call_id") else ctypes.byref(call_id))
    return {"status": status, "status_name": lib.paywire_status_name(status).decode(), "call_id": call_id.value}


def op_poll(op):
    out = ctypes.c_void_p()
    status = lib.paywire_client_poll(resolve(op.get("client")), op.get("timeout_ms", 0), ctypes.byref(out))
    return result({}, status, out.value, "event" if status == 0 else "envelope")


def op_poll_while_freeing(op):
    name = op["client"]
    handle = clients[name]
    timer = threading.Timer(op["free_after_ms"] / 1000.0, lambda: lib.paywire_client_free(handle))
    timer.start()
    reply = op_poll(op)
    timer.join()
    return reply


def op_set_event_handler(op):
    name = op.get("client")
    inbox = inboxes.get(name)
    if op.get("enabled", True) is False:
        status = lib.paywire_client_set_event_handler(resolve(name), _native.EVENT_FN(), None, _native.FREE_FN())
    elif inbox is None:
        status = lib.paywire_client_set_event_handler(resolve(name), _native.EVENT_FN(lambda e, u: None), None, _native.FREE_FN())
    else:
        def on_event(event_json, user_data, inbox=inbox):
            with inbox["cond"]:
                inbox["events"].append(json.loads(event_json.decode()))
                inbox["cond"].notify_all()

        def on_free(user_data, inbox=inbox):
            with inbox["cond"]:
                inbox["frees"] += 1

        callbacks = (_native.EVENT_FN(on_event), _native.FREE_FN(on_free))
        keepalive.append(callbacks)
        status = lib.paywire_client_set_event_handler(resolve(name), callbacks[0], None, callbacks[1])
    return {"status": status, "status_name": lib.paywire_status_name(status).decode()}


def op_drain_events(op):
    inbox = inboxes[op["client"]]
    with inbox["cond"]:
        inbox["cond"].wait_for(lambda: len(inbox["events"]) >= op.get("count", 0), timeout=op.get("timeout_ms", 0) / 1000.0)
        events, inbox["events"] = inbox["events"], []
        return {"events": events, "user_data_frees": inbox["frees"]}


def op_client_free(op):
    name = op.get("client")
    lib.paywire_client_free(resolve(name))
    reply = {}
    if name in inboxes:
        with inboxes[name]["cond"]:
            reply["user_data_frees"] = inboxes[name]["frees"]
    return reply


def op_string_free_null(op):
    lib.paywire_string_free(None)
    return {}


def op_decode(op):
    """Reads a library's JSON (a result of `method`, or an event) into the typed models and
    writes it back (tests/conformance/future.py: what a newer library may write)."""
    from paywire import models
    data = paywire._loads(op["json_text"])
    if op["kind"] == "event":
        event = models.parse_event(data)
        kind = "unknown" if isinstance(event, models.UnknownEvent) else "known"
        return {"decoded_text": paywire._dumps(event.to_json()), "event_type": kind}
    value = models.RESULT_DECODERS[op["method"]](data)
    return {"decoded_text": paywire._dumps(models.RESULT_ENCODERS[op["method"]](value))}


OPS = {
    "hello": op_hello, "client_new": op_client_new, "call": op_call, "call_raw": op_call,
    "call_async": op_call_async, "poll": op_poll, "poll_while_freeing": op_poll_while_freeing,
    "set_event_handler": op_set_event_handler, "drain_events": op_drain_events,
    "client_free": op_client_free, "string_free_null": op_string_free_null, "decode": op_decode,
}


def main():
    freed = set()
    for line in sys.stdin:
        if not line.strip():
            continue
        op = json.loads(line)
        handler = OPS.get(op.get("op"))
        reply = handler(op) if handler else {"runner_error": "unknown op", "op": op.get("op")}
        if op.get("op") in ("client_free", "poll_while_freeing") and op.get("client") in clients:
            freed.add(op["client"])
        if "id" in op:
            reply["id"] = op["id"]
        sys.stdout.write(json.dumps(reply, ensure_ascii=False) + "\n")
        sys.stdout.flush()
    for name, handle in clients.items():
        if name not in freed:
            lib.paywire_client_free(handle)


if __name__ == "__main__":
    main()
