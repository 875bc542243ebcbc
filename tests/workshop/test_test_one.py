"""make test-one (tests/one.py) places every kind of test file in its suite, and refuses the rest
with a message naming what it takes."""
import re
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tests"))
import one  # noqa: E402


def test_a_library_unit_file_runs_its_modules_target_filtered_to_the_suites_it_declares():
    targets, command, env = one.plan(ROOT / "tests/unit/PaywireCore/TransferAndRedemptionTests.swift", "sqlite")
    assert targets == [] and env == {}
    assert command[:3] == ["swift", "test", "--filter"]
    assert command[3] == r"^PaywireCoreTests\.(IdentityAnswerTests|RedemptionLinkTests|RestoreAnswerTests)\b"


def test_every_unit_suite_is_reached_by_its_own_files_filter_and_by_no_other_file():
    files = sorted((ROOT / "tests/unit").glob("*/*.swift"))
    suites = {}
    for path in files:
        for name in one.SUITE.findall(path.read_text()):
            suites[name] = path
    assert suites, "tests/unit declares no suites"
    for name, home in suites.items():
        reached = []
        for path in files:
            try:
                _, command, _ = one.plan(path, "sqlite")
            except one.Refusal:
                continue
            if re.search(command[3], f"{path.parent.name}Tests.{name}/aTest()"):
                reached.append(path)
        assert reached == [home], name


def test_a_server_unit_file_runs_in_the_server_package():
    path = next((ROOT / "server/Tests").glob("*/*Tests.swift"))
    targets, command, _ = one.plan(path, "sqlite")
    assert targets == ["deps"]
    assert command[:4] == ["swift", "test", "--package-path", "server"]
    assert command[5].startswith(f"^{path.parent.name}\\.(")


def test_a_pytest_file_gets_the_built_library_and_on_postgres_a_cluster_of_its_own():
    path = ROOT / "tests/integration/test_http_transport.py"
    targets, command, env = one.plan(path, "sqlite")
    assert targets == ["lib", "devserver", "deps"]
    assert env["PAYWIRE_LIBRARY"].endswith("build/lib/libpaywire.so.1.0.0")
    assert command[-1] == "tests/integration/test_http_transport.py"
    _, command, env = one.plan(path, "postgres")
    assert command[1] == "tests/postgres/cluster.py"
    assert env["PAYWIRE_DEVSERVER"].endswith("devserver_on_postgres.py")


def test_a_vector_file_runs_through_the_c_runner():
    targets, command, _ = one.plan(ROOT / "tests/conformance/vectors/abi.json", "sqlite")
    assert targets == ["harness"]
    assert command[command.index("--vectors") + 1] == "tests/conformance/vectors/abi.json"


@pytest.mark.parametrize("path, engine, says", [
    ("README.md", "sqlite", "not a test file of a known suite"),
    ("tests/unit/NoSuchTests.swift", "sqlite", "no such file"),
    ("tests/conformance/vectors/abi.json", "postgres", "pytest suites only"),
    ("/etc/hostname", "sqlite", "not inside the repository"),
])
def test_a_path_of_no_suite_is_refused_naming_what_is_taken(path, engine, says):
    with pytest.raises(one.Refusal, match=says):
        one.plan(ROOT / path, engine)
