"""The date sweep (tests/dates/sweep.py) names what failed on a date in its own output: CI keeps
nothing but the stage's log."""
import datetime
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tests/dates"))
import sweep  # noqa: E402

PYTEST_OUTPUT = """\
....F.
=================================== FAILURES ===================================
E   AssertionError: assert 'recorded' == 'applied'
=========================== short test summary info ============================
FAILED tests/integration/test_a.py::test_one - AssertionError: assert 'recorded' == 'applied'
1 failed, 5 passed in 3.00s
"""


def test_a_failed_suite_echoes_its_summary_and_assertions_into_the_sweeps_output(capsys):
    sweep.print_failure(PYTEST_OUTPUT, datetime.datetime(2027, 3, 31, 12), "integration")
    printed = capsys.readouterr().out
    assert "2027-03-31 integration" in printed
    assert "FAILED tests/integration/test_a.py::test_one" in printed
    assert "E   AssertionError: assert 'recorded' == 'applied'" in printed


def test_output_without_a_pytest_summary_is_echoed_by_its_last_lines(capsys):
    sweep.print_failure("\n".join(f"line {n}" for n in range(100)), datetime.datetime(2028, 2, 29, 12), "integration")
    printed = capsys.readouterr().out
    assert "line 99" in printed and "line 59" not in printed


def test_the_failed_names_are_read_from_pytest_and_the_conformance_driver():
    output = PYTEST_OUTPUT + "FAIL remote.etag: expected 1 event\n"
    assert sweep.failures(output) == ["remote.etag", "tests/integration/test_a.py::test_one"]
