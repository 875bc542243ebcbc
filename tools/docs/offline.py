"""The built site needs no network: no page loads a script, a style sheet or a font from another
host, and no page asks the browser to draw a diagram (Material fetches Mermaid from a CDN for any
`mermaid` block). site_hooks.py runs this on every build and fails it; tests/docs run it on a
site of their own.

Links people follow (`<a href="https://...">`) are not loads and are allowed; so are the XML
namespaces of inline SVG.
"""
import os
import re
from html.parser import HTMLParser

# A URL the browser would fetch from elsewhere: with a scheme, or protocol-relative.
REMOTE = re.compile(r"^\s*(?:[a-zA-Z][a-zA-Z0-9+.-]*:)?//")
# <link rel=...> values that make the browser fetch (or connect) at once.
FETCHING_RELS = {"stylesheet", "preload", "modulepreload", "preconnect", "dns-prefetch", "prefetch", "icon",
                 "manifest"}
# url(...) and @import in CSS, quoted or not.
CSS_URL = re.compile(r"""(?:url\(\s*["']?|@import\s+["'])([^"')\s]+)""")


class _Loads(HTMLParser):
    """Collects (what, url) of every fetch a page's markup asks for."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.loads, self.diagrams_in_browser = [], 0
        self._in_style = False

    def handle_starttag(self, tag, attrs):
        attrs = {name: value or "" for name, value in attrs}
        if tag == "script" and attrs.get("src"):
            self.loads.append(("script", attrs["src"]))
        elif tag == "link" and FETCHING_RELS & set(attrs.get("rel", "").lower().split()):
            self.loads.append(("link rel=%s" % attrs.get("rel"), attrs.get("href", "")))
        elif tag in ("img", "iframe", "embed", "source", "audio", "video") and attrs.get("src"):
            self.loads.append((tag, attrs["src"]))
        elif tag == "object" and attrs.get("data"):
            self.loads.append((tag, attrs["data"]))
        if "mermaid" in attrs.get("class", "").split():
            self.diagrams_in_browser += 1
        if attrs.get("style"):
            self.loads += [("style attribute", url) for url in CSS_URL.findall(attrs["style"])]
        self._in_style = tag == "style"

    def handle_endtag(self, tag):
        self._in_style = False

    def handle_data(self, data):
        if self._in_style:
            self.loads += [("style", url) for url in CSS_URL.findall(data)]


def page_problems(html, name="page"):
    """What in one page's markup would reach the network."""
    parser = _Loads()
    parser.feed(html)
    problems = ["%s loads %s from another host (%s)" % (name, url, what)
                for what, url in parser.loads if REMOTE.match(url)]
    if parser.diagrams_in_browser:
        problems.append("%s has %d Mermaid block(s), which the browser would fetch Mermaid from a CDN to draw; "
                        "draw them at build time (```dot or ```plantuml fences, tools/docs/diagrams.py)"
                        % (name, parser.diagrams_in_browser))
    return problems


def css_problems(css, name="style sheet"):
    return ["%s loads %s from another host" % (name, url) for url in CSS_URL.findall(css) if REMOTE.match(url)]


def site_problems(site_dir):
    """Every page and style sheet of a built site."""
    problems = []
    for folder, _, files in os.walk(site_dir):
        for file in sorted(files):
            path = os.path.join(folder, file)
            name = os.path.relpath(path, site_dir)
            if file.endswith(".html"):
                with open(path, encoding="utf-8") as page:
                    problems += page_problems(page.read(), name)
            elif file.endswith(".css"):
                with open(path, encoding="utf-8") as sheet:
                    problems += css_problems(sheet.read(), name)
    return problems
