"""The typed layer and the library must come from one schema: a client refuses a library built
from another, naming both hashes."""
import hashlib
import pathlib

import pytest

import paywire
from paywire import models

SCHEMA = pathlib.Path(__file__).resolve().parents[3] / "schema/paywire.schema.json"


def test_the_library_and_the_binding_were_built_from_this_schema():
    ours = hashlib.sha256(SCHEMA.read_bytes()).hexdigest()
    assert models.SCHEMA_SHA256 == ours
    with paywire.Client({"profile_id": "fingerprint"}) as client:
        assert client.call("get_sdk_version")["schema_sha256"] == ours


def test_a_library_built_from_another_schema_is_refused_naming_both(monkeypatch):
    library = models.SCHEMA_SHA256
    monkeypatch.setattr(models, "SCHEMA_SHA256", "0" * 64)
    with pytest.raises(paywire.PaywireError) as refused:
        paywire.Client({"profile_id": "fingerprint"})
    assert refused.value.status == "VERSION_MISMATCH" and refused.value.code == "schema_mismatch"
    assert refused.value.details == {"library_schema_sha256": library, "binding_schema_sha256": "0" * 64}
    assert library in refused.value.message and "0" * 64 in refused.value.message
