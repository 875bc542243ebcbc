"""The backend spec tested by an outside tool: schemathesis generates requests from
api/openapi.yaml (valid and invalid ones, missing headers and auth, other methods) against a
dev server started with an app key and an operator key, each operation given the one its
security scheme names (tests/api/schemathesis.toml), and runs every check it has (status codes and bodies as
specified, invalid data refused, valid data accepted, 405 with Allow, auth enforced)."""
import os
import subprocess
import sys

from conftest import ROOT, DevServer

KEY = "schemathesis-key"


#: schemathesis's command line, run by this interpreter (`make deps` installs it from PyPI).
SCHEMATHESIS = [sys.executable, "-c", "import sys; from schemathesis.cli import schemathesis; sys.exit(schemathesis())"]


def test_the_dev_server_conforms_to_its_spec_under_schemathesis(tmp_path):
    server = DevServer("--app-key", KEY, "--stripe-webhook-secret", "whsec_schemathesis")
    env = {**os.environ, "PAYWIRE_SCHEMATHESIS_APP_KEY": KEY, "PAYWIRE_SCHEMATHESIS_OPERATOR_KEY": server.operator.secret}
    try:
        run = subprocess.run(
            [*SCHEMATHESIS, "--config-file", str(ROOT / "tests/api/schemathesis.toml"), "run",
             str(ROOT / "api/openapi.yaml"), "--url", server.url,
             "--checks", "all", "--max-examples", os.environ.get("PAYWIRE_SCHEMATHESIS_EXAMPLES", "20"),
             # How fast hypothesis makes data says something of the machine's load, not the server.
             "--suppress-health-check", "too_slow",
             "--seed", "1", "--no-color", "--report", "junit", "--report-dir", str(tmp_path)],
            capture_output=True, text=True, timeout=600, cwd=tmp_path, env=env)
    finally:
        server.stop()
    if run.returncode != 0:
        sys.stdout.write(run.stdout[-20000:])
    assert run.returncode == 0, "schemathesis found failures (output above)"
    assert " passed" in run.stdout
