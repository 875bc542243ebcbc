"""The site's diagrams, drawn when the site is built, so a page shows them without a network.

A page keeps each diagram's source in a fence: ```dot for graphs (Graphviz), ```plantuml for
sequence diagrams (PlantUML; Graphviz has no lifelines). site_hooks.py makes these SuperFences
custom fences whose formatter runs the renderer Debian packages (graphviz, plantuml; `make deps`
installs them) and puts the SVG in the page, inline. Nothing is fetched at build or view time: no
script draws them in the browser.

A source the renderer refuses fails the build (SuperFencesException: any other exception would
make SuperFences quietly show the source as code instead).
"""
import re
import shutil
import subprocess

from pymdownx.superfences import SuperFencesException

FONT = "Helvetica,Arial,sans-serif"
# The site's look, given to every diagram so the sources need not repeat it.
PLANTUML_SKIN = """\
skinparam defaultFontName %s
skinparam defaultFontSize 12
skinparam shadowing false
skinparam ParticipantPadding 2
skinparam sequence {
  ParticipantBorderColor #5c6bc0
  ParticipantBackgroundColor #eef0f8
  LifeLineBorderColor #9e9e9e
  ArrowColor #37474f
}
skinparam note {
  BackgroundColor #fff8e1
  BorderColor #f9a825
}
hide footbox
""" % FONT
RENDERERS = {
    "dot": ["dot", "-Tsvg", "-Gfontname=" + FONT, "-Nfontname=" + FONT, "-Efontname=" + FONT],
    # Exits non-zero (200) on a source it cannot read.
    "plantuml": ["plantuml", "-tsvg", "-pipe"],
}
PACKAGES = {"dot": "graphviz", "plantuml": "plantuml"}
# What precedes the <svg> element in the renderers' output, and the comments inside it: none of it
# belongs in an HTML page (the DOCTYPE names a URL, the comments repeat the source).
PROLOG = re.compile(r"\A.*?(?=<svg\b)", re.S)
COMMENT = re.compile(r"<!--.*?-->\n?", re.S)
ROOT_STYLE = re.compile(r"\A(<svg\b[^>]*?)\s+style=\"[^\"]*\"")


class DiagramError(Exception):
    """The renderer is missing or refused the source."""


def _plantuml_source(source):
    body = source.strip()
    if body.startswith("@startuml"):
        body = body[len("@startuml"):]
    if body.endswith("@enduml"):
        body = body[:-len("@enduml")]
    return "@startuml\n%s%s\n@enduml\n" % (PLANTUML_SKIN, body.strip("\n"))


def render(kind, source):
    """The diagram as an inline <svg> element."""
    command = RENDERERS[kind]
    if shutil.which(command[0]) is None:
        raise DiagramError("%s is not installed (Debian package %s; `make deps` installs it)"
                           % (command[0], PACKAGES[kind]))
    text = _plantuml_source(source) if kind == "plantuml" else source
    run = subprocess.run(command, input=text.encode(), capture_output=True, timeout=120)
    if run.returncode != 0 or b"<svg" not in run.stdout:
        raise DiagramError("%s refused the diagram (exit %d): %s"
                           % (command[0], run.returncode, run.stderr.decode(errors="replace").strip()))
    svg = COMMENT.sub("", PROLOG.sub("", run.stdout.decode())).strip()
    # Scales down with the page instead of overflowing it; keeps its own size where it fits.
    svg = ROOT_STYLE.sub(r"\1", svg)
    return svg.replace("<svg", '<svg style="max-width: 100%; height: auto"', 1)


def _figure(kind, source):
    try:
        svg = render(kind, source)
    except DiagramError as error:
        raise SuperFencesException(str(error)) from error
    return '<figure class="diagram diagram-%s">\n%s\n</figure>' % (kind, svg)


def fence_dot(source, language, class_name, options, md, **kwargs):
    """SuperFences formatter of ```dot fences."""
    return _figure("dot", source)


def fence_plantuml(source, language, class_name, options, md, **kwargs):
    """SuperFences formatter of ```plantuml fences."""
    return _figure("plantuml", source)
