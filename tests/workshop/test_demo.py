"""`make demo` (the C harness's --demo) is a session a newcomer reads and a check: it ends on one
line saying whether every step answered as it should, and exits 1 when one did not."""
import json
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
HARNESS = ROOT / "build" / "bin" / "paywire-harness"


def demo(config):
    return subprocess.run([str(HARNESS), "--demo", str(config)], cwd=ROOT, capture_output=True, text=True, timeout=60)


def test_the_example_session_ends_on_one_line_saying_it_passed():
    run = demo(ROOT / "examples" / "config.json")
    assert run.returncode == 0, run.stdout[-2000:] + run.stderr
    last = run.stdout.strip().splitlines()[-1]
    assert last.startswith("demo: passed. 17 calls answered as expected, 3 of them deliberate mistakes"), last
    assert "UNEXPECTED" not in run.stdout


def test_a_session_whose_steps_do_not_answer_as_expected_ends_saying_so_and_exits_1(tmp_path):
    # The example config without its bundle: the client starts, but no paywall or onboarding is
    # served, so the steps that expect one are marked and the last line says the demo failed.
    config = json.loads((ROOT / "examples" / "config.json").read_text())
    del config["fallback"]
    path = tmp_path / "config.json"
    path.write_text(json.dumps(config))
    run = demo(path)
    assert run.returncode == 1, run.stdout[-2000:] + run.stderr
    assert "UNEXPECTED: this step expects status OK" in run.stdout
    last = run.stdout.strip().splitlines()[-1]
    assert last.startswith("demo: FAILED, ") and "did not answer as expected" in last, last
