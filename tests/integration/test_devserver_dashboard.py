"""GET /dashboard in headless Chromium: the numbers on the rendered page are the results
route's, the sample-ratio flag shows, and a screenshot is kept in build/test-output."""
import html.parser
import shutil
import subprocess

import pytest

from conftest import ROOT, purchase, shown

OUTPUT = ROOT / "build" / "test-output"
A, B = "onboarding-monthly-first", "onboarding-annual-first"
CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")


class Cells(html.parser.HTMLParser):
    """Text of every element with data-field, by (ab test, variation or None, field)."""

    def __init__(self):
        super().__init__()
        self.cells, self.stack, self.test, self.variation, self.svg = {}, [], None, None, 0

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if "data-ab-test" in attrs:
            self.test = attrs["data-ab-test"]
        if tag == "tr":
            self.variation = attrs.get("data-variation")
        if tag == "svg":
            self.svg += 1
        self.stack.append((tag, attrs.get("data-field")))
        if attrs.get("data-field"):
            self.cells[(self.test, self.variation, attrs["data-field"])] = ""
        if attrs.get("data-mismatch"):
            self.cells[(self.test, None, "mismatch")] = attrs["data-mismatch"]

    def handle_endtag(self, tag):
        while self.stack and self.stack.pop()[0] != tag:
            pass
        if tag == "tr":
            self.variation = None

    def handle_data(self, data):
        for tag, field in reversed(self.stack):
            if field:
                self.cells[(self.test, self.variation, field)] += data
                break


def chromium(*args):
    return subprocess.run([CHROMIUM, "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars", *args],
                          capture_output=True, timeout=120)


def test_the_dashboard_shows_the_results_route_numbers(devserver):
    assert CHROMIUM, "no chromium on PATH: `make deps` installs Debian's chromium"
    records = [shown(f"a-{i}", A) for i in range(90)] + [shown(f"b-{i}", B) for i in range(40)]
    for start in range(0, len(records), 100):
        devserver.post_events(records[start:start + 100])
    for i in range(7):
        cell = {"placement_id": "onboarding", "ab_test_name": "onboarding_annual_first", "variation_id": A}
        devserver.call("POST", "/v1/purchases", purchase(f"a-{i}", f"tx-{i}", amount="9.99", attribution=cell))
    results = devserver.call("GET", "/v1/experiments/onboarding/results")[2]

    page = chromium("--dump-dom", devserver.url + "/dashboard")
    assert page.returncode == 0, page.stderr[-2000:]
    cells = Cells()
    cells.feed(page.stdout.decode())
    [experiment] = results["experiments"]
    test = experiment["ab_test_name"]
    for variation in experiment["variations"]:
        v = variation["variation_id"]
        assert int(cells.cells[(test, v, "exposed")]) == variation["exposed"]
        assert int(cells.cells[(test, v, "purchasers")]) == variation["purchasers"]
        assert cells.cells[(test, v, "rate")] == f"{variation['conversion']['rate'] * 100:.2f} %"
        assert cells.cells[(test, v, "interval")] == \
            f"{variation['conversion']['low'] * 100:.2f} % – {variation['conversion']['high'] * 100:.2f} %"
        revenue = ", ".join(f"{r['currency_code']} {r['amount']}" for r in variation["revenue"]) or "–"
        assert cells.cells[(test, v, "revenue")] == revenue
    ratio = experiment["sample_ratio"]
    assert ratio["mismatch"] is True   # 90 against 40 at 50/50
    assert cells.cells[(test, None, "mismatch")] == "true"
    assert float(cells.cells[(test, None, "p_value")]) == pytest.approx(ratio["p_value"], rel=1e-3)
    assert float(cells.cells[(test, None, "chi_square")]) == pytest.approx(ratio["chi_square"], rel=1e-3)
    assert "Sample ratio mismatch" in page.stdout.decode()
    assert cells.svg >= 3, "one chart per experiment of the bundle's placements"

    OUTPUT.mkdir(parents=True, exist_ok=True)
    shot = OUTPUT / "dashboard.png"
    shot.unlink(missing_ok=True)
    taken = chromium(f"--screenshot={shot}", "--window-size=1280,1400", devserver.url + "/dashboard")
    assert taken.returncode == 0, taken.stderr[-2000:]
    assert shot.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
