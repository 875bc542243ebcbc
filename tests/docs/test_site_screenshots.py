"""The built site in headless Chromium (`make docs-screens`): the home page and get_paywall's
reference page render (screenshots in build/docs-screens, checked to be more than a blank page),
the home page's diagrams are drawn (not shown as their source) by a browser that can reach no
host but this one, nothing a page loads comes from elsewhere, and search finds get_paywall.

Search is checked in the served site's search index, the data Material's search runs on. The
live search box was tried first: it takes `?q=get_paywall`, but in headless Chromium 156 the
page's search never left "Initializing search", so a test on it would only measure that."""
import functools
import http.server
import json
import os
import struct
import subprocess
import sys
import threading
import urllib.request
import zlib

import pytest

sys.path.insert(0, os.path.dirname(__file__))
from browser import Browser, chromium_path  # noqa: E402

REPO = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
SHOTS = os.path.join(REPO, "build", "docs-screens")

pytestmark = pytest.mark.skipif(chromium_path() is None, reason="chromium is not installed (make docs-screens installs it)")


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    """The site built as `make docs` builds it, into a directory of the test's own."""
    out = str(tmp_path_factory.mktemp("site"))
    subprocess.run([sys.executable, "tools/docs/reference.py", "build"], cwd=REPO, check=True)
    subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict", "-f", "build/mkdocs.yml", "-d", out],
                   cwd=REPO, check=True, capture_output=True)
    return out


@pytest.fixture(scope="module")
def server(site):
    handler = functools.partial(_QuietHandler, directory=site)
    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)   # port 0: a free one
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    yield "http://127.0.0.1:%d/" % httpd.server_address[1]
    httpd.shutdown()
    httpd.server_close()


class _QuietHandler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args):
        pass


@pytest.fixture(scope="module")
def browser():
    chromium = Browser()
    yield chromium
    chromium.close()


def png_facts(path):
    """(width, height, share of non-zero bytes in the filtered scanlines): a blank page filters
    to almost nothing but zeros."""
    with open(path, "rb") as source:
        data = source.read()
    assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
    width, height = struct.unpack(">II", data[16:24])
    idat, offset = b"", 8
    while offset < len(data):
        length, kind = struct.unpack(">I4s", data[offset:offset + 8])
        if kind == b"IDAT":
            idat += data[offset + 8:offset + 8 + length]
        offset += 12 + length
    raw = zlib.decompress(idat)
    return width, height, sum(1 for byte in raw if byte) / len(raw)


def shoot(browser, url, name, heading):
    browser.open(url)
    title = browser.wait_for("document.querySelector('article h1') && document.querySelector('article h1').textContent")
    assert heading in (title or ""), "%s: the page's heading is %r" % (url, title)
    os.makedirs(SHOTS, exist_ok=True)
    path = os.path.join(SHOTS, name)
    browser.screenshot(path)
    width, height, ink = png_facts(path)
    assert width >= 800 and height >= 600, (width, height)
    assert os.path.getsize(path) > 20000 and ink > 0.01, "%s looks blank (%d bytes, %.3f ink)" % (
        path, os.path.getsize(path), ink)
    return browser


def test_home_page_renders(server, browser):
    shoot(browser, server, "home.png", "Paywire")
    links = browser.evaluate("[...document.querySelectorAll('nav a')].map(a => a.textContent.trim()).join('|')")
    assert "Getting started" in links or "C" in links.split("|"), links


def test_home_page_diagrams_are_drawn_without_a_network(server, browser):
    browser.open(server)
    browser.wait_for("document.querySelector('article h1')")
    figures = browser.evaluate("""[...document.querySelectorAll('article figure.diagram')].map(f => {
        const svg = f.querySelector('svg'), box = svg && svg.getBoundingClientRect();
        return {kind: f.className, width: box ? box.width : 0, height: box ? box.height : 0,
                texts: svg ? svg.querySelectorAll('text').length : 0,
                words: svg ? svg.textContent.replace(/\\s+/g, ' ') : '',
                top: box ? box.top + window.scrollY : 0, left: box ? box.left + window.scrollX : 0};
    })""")
    assert [f["kind"] for f in figures] == ["diagram diagram-dot", "diagram diagram-plantuml"], figures
    fits, calls = figures
    for figure in figures:
        assert figure["width"] > 300 and figure["height"] > 200 and figure["texts"] >= 8, figure
    assert all(word in fits["words"] for word in ("PaywireWire", "PaywireModel", "PaywireCore", "Paywire: the C boundary"))
    assert "EventHub" in calls["words"] and "paywire_string_free" in calls["words"]
    # Not their source shown as text, nor code a browser script would have to draw.
    source = browser.evaluate("[...document.querySelectorAll('article pre, .mermaid')].map(e => e.textContent).join('|')")
    assert "digraph" not in source and "flowchart" not in source and "participant" not in source
    path = os.path.join(SHOTS, "home-diagram.png")
    os.makedirs(SHOTS, exist_ok=True)
    browser.screenshot(path, clip={"x": fits["left"], "y": fits["top"], "width": fits["width"], "height": fits["height"]})
    width, height, ink = png_facts(path)
    assert abs(width - fits["width"]) <= 2 and ink > 0.02, (width, height, ink)
    # Everything the page loaded came from this server.
    loaded = browser.evaluate("performance.getEntriesByType('resource').map(e => e.name)")
    assert loaded and all(url.startswith(server) or url.startswith(("data:", "blob:")) for url in loaded), loaded


def test_get_paywall_reference_renders(server, browser):
    shoot(browser, server + "reference/methods/get_paywall/", "get_paywall.png", "get_paywall")
    sections = browser.evaluate("[...document.querySelectorAll('article h2')].map(h => h.textContent).join('|')")
    for section in ("Params", "Result", "Errors", "Example"):
        assert section in sections, sections


def test_search_finds_get_paywall(server, browser):
    browser.open(server + "?q=get_paywall")
    assert browser.evaluate("document.querySelector('.md-search__input').value") == "get_paywall"
    with urllib.request.urlopen(server + "search/search_index.json", timeout=10) as answer:
        index = json.load(answer)
    hits = [doc for doc in index["docs"] if doc["location"].startswith("reference/methods/get_paywall/")]
    assert any("get_paywall" in doc["title"] for doc in hits), [doc["location"] for doc in hits][:5]
