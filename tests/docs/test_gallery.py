"""The builder gallery (tools/docs/gallery) cannot leave a section type or plan style out: its spec
is held to the names the server's builder lists, and each placement renders without a note of
something the page cannot draw. No browser: `make docs` takes the pictures and fails when one is
missing. Needs the server (`make devserver`; PAYWIRE_SERVER names another binary)."""
import json
import os
import subprocess
import sys

import pytest

REPO = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
sys.path.insert(0, os.path.join(REPO, "tools", "docs", "gallery"))
import gallery  # noqa: E402

SERVER = os.environ.get("PAYWIRE_SERVER", os.path.join(REPO, "build", "dev", "paywire-server"))


@pytest.fixture(scope="module")
def server():
    assert os.access(SERVER, os.X_OK), "%s is not built: run make devserver (or set PAYWIRE_SERVER)" % SERVER
    return SERVER


@pytest.fixture(scope="module")
def names(server):
    return gallery.builder_names(server)


def test_the_server_lists_the_builders_21_section_types_and_12_plan_styles(names):
    assert len(names["section_type"]) == 21 and "sticky_footer" in names["section_type"]
    assert len(names["plan_style"]) == 12 and "accordion" in names["plan_style"]


def test_the_spec_has_a_placement_for_every_section_type_and_plan_style(names):
    assert gallery.coverage_problems(names, gallery.load_spec()) == []


def test_a_section_type_without_a_placement_is_found(names):
    spec = [entry for entry in gallery.load_spec() if entry[0] != "section.countdown"]
    assert gallery.coverage_problems(names, spec) == [
        "countdown has no picture: the gallery spec (tools/docs/gallery/bundle.json) has no placement section.countdown"]


def test_a_name_the_builder_does_not_list_and_a_missing_caption_are_found(names):
    spec = gallery.load_spec() + [("plan.marquee", "Plans that scroll by."), ("section.header", " ")]
    problems = gallery.coverage_problems(names, spec)
    assert any("plan.marquee" in p and "not a section type or plan style" in p for p in problems), problems
    assert any("section.header of the gallery spec has no paywall_name" in p for p in problems), problems


def test_every_placement_renders_without_a_note_of_what_the_page_cannot_draw(server):
    for placement, _ in gallery.load_spec():
        html = gallery.render(server, placement)
        assert html.startswith("<!DOCTYPE html>") and 'class="pw-unknown"' not in html, placement


def test_a_placement_the_page_cannot_draw_is_refused(server, tmp_path):
    bundle = json.loads(open(gallery.BUNDLE, encoding="utf-8").read())
    variation = bundle["placements"]["section.divider"]["variations"][0]
    # A button of an action the page does not know: valid for the builder, a note on the page.
    variation["builder"]["sections"] = [{"type": "cta_button", "text": "Go", "action": "open_url"}]
    path = tmp_path / "bundle.json"
    path.write_text(json.dumps(bundle))
    with pytest.raises(gallery.GalleryProblem, match="pw-unknown"):
        gallery.render(server, "section.divider", bundle=str(path))


def test_a_layout_that_does_not_check_exits_1_naming_the_field(server, tmp_path):
    bundle = json.loads(open(gallery.BUNDLE, encoding="utf-8").read())
    bundle["placements"]["section.spacer"]["variations"][0]["builder"]["sections"][1]["height"] = -4
    path = tmp_path / "bundle.json"
    path.write_text(json.dumps(bundle))
    run = subprocess.run([server, "--render-paywall", str(path), "--products", gallery.PRODUCTS, "--placement", "section.spacer"],
                         capture_output=True, text=True, timeout=60)
    assert run.returncode == 1 and run.stdout == "" and "height" in run.stderr, (run.returncode, run.stderr)


def test_an_unknown_placement_exits_1(server):
    run = subprocess.run([server, "--render-paywall", gallery.BUNDLE, "--products", gallery.PRODUCTS, "--placement", "nowhere"],
                         capture_output=True, text=True, timeout=60)
    assert run.returncode == 1 and "nowhere" in run.stderr


def test_the_gallery_markdown_shows_every_picture_with_alt_text_naming_it():
    text = gallery.markdown(gallery.load_spec())
    assert "## Builder gallery" in text
    assert "![The sticky_footer section type, as the web paywall draws it](gallery/section-sticky_footer.png)" in text
    assert "![The carousel plan style, as the web paywall draws it](gallery/plan-carousel.png)" in text
    assert "![The carousel section type, as the web paywall draws it](gallery/section-carousel.png)" in text
    assert text.count("](gallery/") == len(gallery.load_spec())
