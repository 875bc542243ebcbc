"""A client accepts a library whose schema has the binding's MAJOR and a MINOR at least the
binding's, and refuses any other with VERSION_MISMATCH, naming both versions."""
import hashlib
import json
import pathlib

import pytest

import paywire
from paywire import models

SCHEMA = pathlib.Path(__file__).resolve().parents[3] / "schema/paywire.schema.json"


def test_the_library_and_the_binding_were_built_from_this_schema():
    ours = hashlib.sha256(SCHEMA.read_bytes()).hexdigest()
    version = json.loads(SCHEMA.read_text())["version"]
    assert (models.SCHEMA_SHA256, models.SCHEMA_VERSION) == (ours, version)
    with paywire.Client({"profile_id": "fingerprint"}) as client:
        said = client.call("get_sdk_version")
        assert (said["schema_sha256"], said["schema_version"]) == (ours, version)


@pytest.mark.parametrize("library, binding", [("1.1", "1.1"), ("1.2", "1.1"), ("1.10", "1.9"), ("3.0", "3.0")])
def test_a_library_of_the_same_major_and_a_minor_at_least_ours_is_accepted(library, binding):
    assert paywire.schema_mismatch(library, binding) is None


@pytest.mark.parametrize("library, binding", [("1.0", "1.1"), ("2.0", "1.1"), ("0.9", "1.0"), (None, "1.1"),
                                              ("1", "1.1"), ("one.two", "1.1")])
def test_any_other_library_is_refused_naming_both(library, binding):
    refused = paywire.schema_mismatch(library, binding)
    assert refused is not None
    assert refused.status == "VERSION_MISMATCH" and refused.code == "schema_mismatch"
    assert refused.details == {"library_schema_version": library, "binding_schema_version": binding}
    assert str(library) in refused.message and binding in refused.message


def test_a_client_refuses_a_library_older_than_its_binding(monkeypatch):
    major, minor = models.SCHEMA_VERSION.split(".")
    newer = f"{major}.{int(minor) + 1}"
    monkeypatch.setattr(models, "SCHEMA_VERSION", newer)
    with pytest.raises(paywire.PaywireError) as refused:
        paywire.Client({"profile_id": "fingerprint"})
    assert refused.value.status == "VERSION_MISMATCH"
    assert refused.value.details == {"library_schema_version": f"{major}.{minor}", "binding_schema_version": newer}


def test_a_client_accepts_a_library_newer_than_its_binding(monkeypatch):
    major, minor = models.SCHEMA_VERSION.split(".")
    if minor == "0":
        pytest.skip("no older MINOR of this MAJOR")
    monkeypatch.setattr(models, "SCHEMA_VERSION", f"{major}.{int(minor) - 1}")
    with paywire.Client({"profile_id": "fingerprint"}) as client:
        assert client.call("get_sdk_version")["schema_version"] == f"{major}.{minor}"
