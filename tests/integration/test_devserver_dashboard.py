"""GET /dashboard in headless Chromium: the numbers on the rendered page are the results
route's, the sample-ratio flag shows, a holdout's row is marked as the baseline with the forced
exposures counted, and screenshots are kept in build/test-output."""
import html.parser
import shutil
import subprocess

import pytest

from conftest import HOLDOUT_PLACEMENT, ROOT, DevServer, bundle_with_a_holdout, purchase, record, shown

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
            if "data-holdout" in attrs:
                self.cells[(self.test, self.variation, "holdout")] = attrs["data-holdout"]
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


def dashboard_copy(server):
    """The dashboard's page, fetched with the server's operator key, as a file Chromium opens:
    `--dump-dom` cannot sign in (test_dashboard_login.py does, through WebDriver), and the page
    has no script and no external asset, so the copy draws as the page does."""
    status, _, page = server.call("GET", "/dashboard")
    assert status == 200, page
    OUTPUT.mkdir(parents=True, exist_ok=True)
    copy = OUTPUT / f"dashboard-{server.port}.html"
    copy.write_bytes(page)
    return copy.as_uri()


def dashboard_dom(server):
    """The dashboard's DOM as headless Chromium builds it."""
    page = chromium("--dump-dom", dashboard_copy(server))
    assert page.returncode == 0, page.stderr[-2000:]
    return page.stdout.decode()


def screenshot(server, name, height):
    """The dashboard as Chromium draws it, kept as build/test-output/NAME."""
    OUTPUT.mkdir(parents=True, exist_ok=True)
    shot = OUTPUT / name
    shot.unlink(missing_ok=True)
    taken = chromium(f"--screenshot={shot}", f"--window-size=1280,{height}", dashboard_copy(server))
    assert taken.returncode == 0, taken.stderr[-2000:]
    assert shot.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_the_dashboard_shows_the_results_route_numbers(devserver):
    assert CHROMIUM, "no chromium on PATH: `make deps` installs Debian's chromium"
    records = [shown(f"a-{i}", A) for i in range(90)] + [shown(f"b-{i}", B) for i in range(40)]
    for start in range(0, len(records), 100):
        devserver.post_events(records[start:start + 100])
    for i in range(7):
        cell = {"placement_id": "onboarding", "ab_test_name": "onboarding_annual_first", "variation_id": A}
        devserver.call("POST", "/v1/purchases", purchase(f"a-{i}", f"tx-{i}", amount="9.99", attribution=cell))
    results = devserver.call("GET", "/v1/experiments/onboarding/results")[2]

    page = dashboard_dom(devserver)
    cells = Cells()
    cells.feed(page)
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
    assert "Sample ratio mismatch" in page
    assert cells.svg >= 3, "one chart per experiment of the bundle's placements"
    screenshot(devserver, "dashboard.png", height=1400)


def exposure(profile_id, variation_id, forced=False):
    """A paywall_shown of the placement 'upgrade' as the library records it."""
    params = {"placement_id": HOLDOUT_PLACEMENT, "audience_name": "All Users", "revision": 1,
              "ab_test_name": "upgrade_holdout", "variation_id": variation_id}
    params.update({"holdout": True} if variation_id == "upgrade-none" else {"paywall_id": "pw", "paywall_name": "P"})
    if forced:
        params["forced"] = True
    return record(profile_id, "paywall_shown", params)


def test_the_dashboard_shows_the_holdout_row_as_the_baseline_and_the_forced_exposures(tmp_path):
    assert CHROMIUM, "no chromium on PATH: `make deps` installs Debian's chromium"
    server = DevServer("--bundle", bundle_with_a_holdout(tmp_path))
    try:
        records = ([exposure(f"m-{i}", "upgrade-monthly") for i in range(40)] + [exposure(f"a-{i}", "upgrade-annual") for i in range(38)]
                   + [exposure(f"h-{i}", "upgrade-none") for i in range(21)]
                   + [exposure("tester-0", "upgrade-none", forced=True), exposure("tester-1", "upgrade-annual", forced=True)])
        for start in range(0, len(records), 100):
            assert server.post_events(records[start:start + 100])[0] == 200
        for profile, count in (("m", 6), ("a", 3), ("h", 2)):
            for i in range(count):
                cell = None if profile == "h" else {"placement_id": HOLDOUT_PLACEMENT, "ab_test_name": "upgrade_holdout",
                                                    "variation_id": "upgrade-monthly" if profile == "m" else "upgrade-annual"}
                assert server.call("POST", "/v1/purchases", purchase(f"{profile}-{i}", f"tx-{profile}-{i}", attribution=cell))[0] == 200
        results = server.call("GET", f"/v1/experiments/{HOLDOUT_PLACEMENT}/results")[2]
        page = dashboard_dom(server)
        screenshot(server, "dashboard-holdout.png", height=2200)
    finally:
        server.stop()
    cells = Cells()
    cells.feed(page)
    [experiment] = results["experiments"]
    test = experiment["ab_test_name"]
    rows = {v["variation_id"]: v for v in experiment["variations"]}
    assert [v for v, row in rows.items() if row["holdout"]] == ["upgrade-none"]
    baseline = rows["upgrade-none"]["conversion"]["rate"]
    assert (rows["upgrade-none"]["exposed"], rows["upgrade-none"]["purchasers"]) == (21, 2)
    for v, row in rows.items():
        assert cells.cells[(test, v, "holdout")] == ("true" if row["holdout"] else "false")
        assert int(cells.cells[(test, v, "exposed")]) == row["exposed"]
        assert int(cells.cells[(test, v, "purchasers")]) == row["purchasers"]
        assert cells.cells[(test, v, "rate")] == f"{row['conversion']['rate'] * 100:.2f} %"
        if row["holdout"]:
            assert cells.cells[(test, v, "baseline")] == "holdout · baseline"
            assert cells.cells[(test, v, "vs_baseline")] == "baseline"
        else:
            assert (test, v, "baseline") not in cells.cells
            assert cells.cells[(test, v, "vs_baseline")] == f"{(row['conversion']['rate'] - baseline) * 100:+.2f} pts"
    assert experiment["forced_exposures"] == 2
    assert int(cells.cells[(test, None, "forced_exposures")]) == 2
    assert float(cells.cells[(test, None, "chi_square")]) == pytest.approx(experiment["sample_ratio"]["chi_square"], rel=1e-3)
    # The example's experiment has no holdout: nothing to read its variations against.
    assert cells.cells[("onboarding_annual_first", "onboarding-monthly-first", "vs_baseline")] == "–"
