#!/usr/bin/env python3
"""The library built with PAYWIRE_NO_BUILTIN_HTTP=1 (for hosts that always carry requests
themselves): transport.type http is refused naming the field; the host transport works."""
import sys

import paywire

try:
    paywire.Client({"transport": {"type": "http", "base_url": "http://127.0.0.1:1"}})
    sys.exit("no-http build: transport.type http was accepted")
except paywire.PaywireError as error:
    if error.code != "wrong_param" or error.details.get("field") != "transport.type":
        sys.exit(f"no-http build: expected wrong_param on transport.type, got {error.code}: {error}")
with paywire.Client({"profile_id": "p", "transport": {"type": "host", "base_url": "https://api.test"}}) as client:
    client.call("get_profile", {"fetch_policy": "return_cache_data_else_load"})
print("no-http build: no libcurl linked; transport.type http refused naming the field; host transport works")
