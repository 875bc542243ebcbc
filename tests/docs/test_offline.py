"""What tools/docs/offline.py counts as a load from another host, page by page."""
import os
import sys

import pytest

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..", "tools", "docs"))
import offline  # noqa: E402


@pytest.mark.parametrize("html", [
    '<script src="https://unpkg.com/mermaid@10/dist/mermaid.min.js"></script>',
    '<script src="//cdn.example.org/a.js"></script>',
    '<link rel="stylesheet" href="https://fonts.googleapis.com/css?family=Roboto">',
    '<link href="https://fonts.gstatic.com" rel="preconnect">',
    '<style>@import url("https://fonts.googleapis.com/css?family=Roboto");</style>',
    '<div style="background: url(https://example.org/x.png)"></div>',
    '<img src="http://example.org/logo.png">',
    '<pre class="mermaid">flowchart LR\n a --> b</pre>',
])
def test_a_load_from_another_host_is_found(html):
    assert offline.page_problems("<html><body>%s</body></html>" % html, "page.html")


@pytest.mark.parametrize("html", [
    '<a href="https://squidfunk.github.io/mkdocs-material/">Material</a>',
    '<script src="../assets/javascripts/bundle.js"></script>',
    '<link rel="stylesheet" href="assets/stylesheets/main.css">',
    '<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink"><text>x</text></svg>',
    '<img src="data:image/svg+xml;base64,AAAA">',
    '<pre><code class="language-mermaid">flowchart LR</code></pre>',
])
def test_what_stays_local_passes(html):
    assert offline.page_problems("<html><body>%s</body></html>" % html, "page.html") == []


def test_a_style_sheet_that_imports_from_another_host_is_found():
    assert offline.css_problems('@import "https://fonts.googleapis.com/css";', "main.css")
    assert offline.css_problems('a { background: url("../images/x.svg") }', "main.css") == []
