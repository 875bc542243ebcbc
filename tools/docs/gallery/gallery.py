#!/usr/bin/env python3
"""The builder gallery: a picture of every section type and plan style, as the web paywall draws it.

  gallery.py build --server BIN [--out build/docs-src]
      renders each placement of tools/docs/gallery/bundle.json with `BIN --render-paywall`,
      screenshots it in headless Chromium at a phone's width (390 CSS px, the height the content
      needs), writes the pictures to OUT/concepts/gallery/<name>.png and the gallery's Markdown
      into OUT/concepts/views.md where its marker is (`make docs` runs this between
      reference.py build and mkdocs)
  gallery.py check --server BIN
      the quick half, no browser: the spec has a placement for every name the builder lists
      (`BIN --list-section-types`) and none other, and each renders without a `pw-unknown` note

Each placement of the spec is one picture: `section.<type>` shows that section type (a nested
one with a child), `plan.<style>` a plan_selection in that style; its paywall_name is the line of
text beside the picture. The pictures are built, never committed. Any problem fails the build:
a name without a picture is a gallery that lies about the builder.
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
BUNDLE = os.path.join(HERE, "bundle.json")
PRODUCTS = os.path.join(HERE, "products.json")
# Where the gallery goes inside the docs' sources, and the comment of views.md it replaces.
PAGE = os.path.join("concepts", "views.md")
PICTURES = os.path.join("concepts", "gallery")
MARKER = "<!-- builder gallery: tools/docs/gallery/gallery.py writes it here when make docs builds the site -->"
# The kinds `--list-section-types` prints and the prefix of their placements in the spec.
KINDS = {"section_type": "section", "plan_style": "plan"}
WIDTH = 390
MAX_HEIGHT = 2000
BOTTOM_MARGIN = 24
# The page's clock while it is photographed: the countdown's placement ends 2 d 05:30 later, so
# its picture reads the same in every build.
FROZEN_NOW_MS = 1735689600000


class GalleryProblem(Exception):
    pass


def builder_names(server):
    """{kind: [names]} as the server's builder lists them (section types, plan styles)."""
    run = subprocess.run([server, "--list-section-types"], capture_output=True, text=True, timeout=60)
    if run.returncode != 0:
        raise GalleryProblem("%s --list-section-types failed: %s" % (server, run.stderr.strip()))
    names = {kind: [] for kind in KINDS}
    for line in run.stdout.splitlines():
        kind, _, name = line.partition(" ")
        if kind in names:
            names[kind].append(name)
    return names


def load_spec(path=BUNDLE):
    """[(placement id, caption)] in the spec's order."""
    with open(path, encoding="utf-8") as source:
        placements = json.load(source)["placements"]
    return [(pid, placement["variations"][0].get("paywall_name", "")) for pid, placement in placements.items()]


def expected_ids(names):
    """The placement ids the builder's names call for: `section.header`, `plan.accordion`, ..."""
    return ["%s.%s" % (KINDS[kind], name) for kind in KINDS for name in names[kind]]


def coverage_problems(names, spec):
    """What keeps the spec from being the builder's whole list: a name without a placement, a
    placement naming nothing the builder has, a picture without its line of text."""
    expected, present = expected_ids(names), [pid for pid, _ in spec]
    problems = ["%s has no picture: the gallery spec (tools/docs/gallery/bundle.json) has no placement %s"
                % (pid.split(".", 1)[1], pid) for pid in expected if pid not in present]
    problems += ["placement %s of the gallery spec is not a section type or plan style the builder lists" % pid
                 for pid in present if pid not in expected]
    problems += ["placement %s of the gallery spec has no paywall_name, the line of text beside its picture" % pid
                 for pid, caption in spec if not caption.strip()]
    return problems


def render(server, placement, bundle=BUNDLE, products=PRODUCTS):
    """The preview page of one placement (HTML), or GalleryProblem with the server's words."""
    run = subprocess.run([server, "--render-paywall", bundle, "--products", products, "--placement", placement],
                         capture_output=True, text=True, timeout=60)
    if run.returncode != 0:
        raise GalleryProblem("%s does not render (exit %d): %s" % (placement, run.returncode, run.stderr.strip()))
    # The class is in every page's stylesheet; a note is an element that has it.
    if 'class="pw-unknown"' in run.stdout:
        raise GalleryProblem("%s renders with a note of something the page cannot draw (pw-unknown)" % placement)
    return run.stdout


def picture_name(placement):
    """`section.carousel` -> `section-carousel` (a section type and a plan style share `carousel`)."""
    return placement.replace(".", "-")


def check(server):
    """The quick half: coverage, and every placement renders cleanly. Returns the problems."""
    spec = load_spec()
    problems = coverage_problems(builder_names(server), spec)
    for placement, _ in spec:
        try:
            render(server, placement)
        except GalleryProblem as problem:
            problems.append(str(problem))
    return problems


def markdown(spec):
    """The gallery section of the builder reference: one table per kind, one picture a row."""
    out = ["## Builder gallery", "",
           "Every section type and plan style as the web paywall draws it on a phone 390 px wide "
           "(`paywire-server --render-paywall`, in preview mode). Each picture is drawn from a placement "
           "of `tools/docs/gallery/bundle.json` when the site is built.", ""]
    titles = {"section": ("Section types", "Section type", "section type"),
              "plan": ("Plan styles of `plan_selection`", "Plan style", "plan style")}
    for prefix, (title, column, kind) in titles.items():
        out += ["### " + title, "", "| %s | What it draws | Picture |" % column, "|---|---|---|"]
        for placement, caption in spec:
            head, _, name = placement.partition(".")
            if head != prefix:
                continue
            alt = "The %s %s, as the web paywall draws it" % (name, kind)
            out.append("| `%s` | %s | ![%s](gallery/%s.png){ width=\"260\" loading=lazy } |"
                       % (name, caption.replace("|", "\\|"), alt, picture_name(placement)))
        out.append("")
    return "\n".join(out)


def insert(page_path, section):
    with open(page_path, encoding="utf-8") as source:
        text = source.read()
    if text.count(MARKER) != 1:
        raise GalleryProblem("%s must hold the gallery's marker once: %s" % (page_path, MARKER))
    with open(page_path, "w", encoding="utf-8") as out:
        out.write(text.replace(MARKER, section))


class Camera:
    """Headless Chromium (chromedriver, Selenium 4; `make deps` installs them) as a phone: the
    viewport set through DevTools emulation, so its width is exactly WIDTH CSS pixels; no network
    (every name but the loopback's fails to resolve); reduced motion; a frozen clock."""

    def __init__(self, profile_dir):
        import shutil
        from selenium import webdriver
        from selenium.webdriver.chrome.service import Service

        chromium = shutil.which("chromium") or shutil.which("chromium-browser")
        driver = shutil.which("chromedriver")
        if not chromium or not driver:
            raise GalleryProblem("chromium and chromedriver are needed for the gallery's pictures (make deps installs them)")
        options = webdriver.ChromeOptions()
        options.binary_location = chromium
        for argument in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu", "--no-first-run",
                         "--disable-extensions", "--hide-scrollbars", "--user-data-dir=" + profile_dir,
                         "--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE localhost", "--window-size=%d,900" % WIDTH):
            options.add_argument(argument)
        self.driver = webdriver.Chrome(service=Service(executable_path=driver), options=options)
        self.driver.set_page_load_timeout(30)
        self.cdp("Emulation.setEmulatedMedia", features=[{"name": "prefers-reduced-motion", "value": "reduce"}])
        self.cdp("Page.addScriptToEvaluateOnNewDocument",
                 source="Date.now = function () { return %d; };" % FROZEN_NOW_MS)

    def cdp(self, command, **params):
        return self.driver.execute_cdp_cmd(command, params)

    def viewport(self, height):
        self.cdp("Emulation.setDeviceMetricsOverride", width=WIDTH, height=height, deviceScaleFactor=1, mobile=True,
                 screenWidth=WIDTH, screenHeight=height)

    def shoot(self, html_path, png_path):
        """The page at WIDTH, as tall as its content (at most MAX_HEIGHT), into png_path."""
        import base64
        self.viewport(844)
        self.driver.get("file://" + html_path)
        # The body's own height: the document's is at least the viewport's. The page's top
        # padding is given again below the content, so a picture does not end at its last pixel.
        height = self.driver.execute_script("return Math.ceil(document.body.getBoundingClientRect().height)")
        height = max(1, min(int(height) + BOTTOM_MARGIN, MAX_HEIGHT))
        self.viewport(height)
        data = self.cdp("Page.captureScreenshot", format="png")["data"]
        with open(png_path, "wb") as out:
            out.write(base64.b64decode(data))

    def close(self):
        self.driver.quit()


def build(server, out):
    """Renders and photographs every placement and writes the gallery into the docs' sources."""
    spec = load_spec()
    problems = coverage_problems(builder_names(server), spec)
    if problems:
        raise GalleryProblem("\n".join(problems))
    pictures = os.path.join(out, PICTURES)
    os.makedirs(pictures, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix="paywire-gallery-") as work:
        pages = []
        for placement, _ in spec:
            html_path = os.path.join(work, picture_name(placement) + ".html")
            with open(html_path, "w", encoding="utf-8") as page:
                page.write(render(server, placement))
            pages.append((html_path, os.path.join(pictures, picture_name(placement) + ".png")))
        camera = Camera(os.path.join(work, "profile"))
        try:
            for html_path, png_path in pages:
                camera.shoot(html_path, png_path)
        finally:
            camera.close()
    missing = [png for _, png in pages if not os.path.exists(png) or os.path.getsize(png) == 0]
    if missing:
        raise GalleryProblem("pictures not written: " + ", ".join(missing))
    insert(os.path.join(out, PAGE), markdown(spec))
    return len(pages)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("command", choices=["build", "check"])
    parser.add_argument("--server", required=True, help="the paywire-server binary (make devserver: build/dev/paywire-server)")
    parser.add_argument("--out", default=os.path.join("build", "docs-src"), help="the docs' sources (default build/docs-src)")
    args = parser.parse_args(argv)
    try:
        if args.command == "build":
            count = build(os.path.abspath(args.server), args.out)
            print("gallery: %d pictures -> %s" % (count, os.path.join(args.out, PICTURES)))
            return 0
        problems = check(os.path.abspath(args.server))
    except GalleryProblem as problem:
        problems = [str(problem)]
    for problem in problems:
        print("gallery: " + problem, file=sys.stderr)
    if not problems:
        print("gallery: every section type and plan style has a placement, and each renders")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
