"""tools/docs/run_examples.py: what a getting-started page writes and runs, and that a page that
fails, or cannot be run as written, fails the check (make docs-examples runs the real pages)."""
import os
import sys

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(REPO, "tools", "docs"))
import run_examples  # noqa: E402


def page(root, path, text):
    full = os.path.join(root, path)
    os.makedirs(os.path.dirname(full), exist_ok=True)
    with open(full, "w", encoding="utf-8") as out:
        out.write(text)


def only(root, name):
    return run_examples.pages(str(root), [name])[0]


def test_titled_blocks_are_files_untitled_ones_add_to_them_and_sh_blocks_are_ways_and_commands(tmp_path):
    page(tmp_path, "docs/getting-started/x.md",
         '```sh title="From a clone of Paywire"\nmake -C ../paywire lib\n```\n\n'
         '```sh title="From the release"\ntar -xzf x.tar.gz\n```\n\n'
         '```python title="app.py"\nx = 1\n```\n\ntext between\n\n```python\nprint(x)\n```\n\n'
         '```sh\npython3 app.py\n```\n\n```text\nthe output\n```\n')
    found = only(tmp_path, "x.md")
    assert found.files == {"app.py": "x = 1\n\nprint(x)\n"}
    assert list(found.ways) == ["From a clone of Paywire", "From the release"]
    assert found.commands == ["python3 app.py\n"]
    assert found.problems == []
    assert found.way("clone") == "From a clone of Paywire" and found.way("release") == "From the release"
    assert found.script("From the release").splitlines() == ["set -e", "# From the release", "tar -xzf x.tar.gz", "",
                                                             "python3 app.py"]


def test_an_untitled_program_block_with_no_file_before_it_is_a_problem(tmp_path):
    page(tmp_path, "docs/getting-started/x.md", "```ruby\nputs 1\n```\n")
    assert "no file before it" in only(tmp_path, "x.md").problems[0]
    page(tmp_path, "docs/getting-started/y.md", "```python {.odd}\nx = 1\n```\n")
    assert "neither a file, a way nor a command" in only(tmp_path, "y.md").problems[0]


def test_included_lines_are_expanded_in_code_blocks_and_out_of_them(tmp_path):
    page(tmp_path, "examples/a.py", "# heading\nprint('a')\n")
    page(tmp_path, "bindings/x/README.md", "# X\n\n```sh\necho included\n```\n")
    page(tmp_path, "docs/getting-started/x.md",
         '```python title="a.py"\n--8<-- "examples/a.py:2:"\n```\n\n--8<-- "bindings/x/README.md:3:"\n')
    found = only(tmp_path, "x.md")
    assert found.files == {"a.py": "print('a')\n"}
    assert found.commands == ["echo included\n"]


def test_a_page_runs_in_a_new_folder_beside_the_clone_without_variables_it_does_not_set(tmp_path, capsys, monkeypatch):
    monkeypatch.setenv("PAYWIRE_LIBRARY", "/somewhere/libpaywire.so.1")
    monkeypatch.setenv("LD_LIBRARY_PATH", "/somewhere")
    page(tmp_path, "docs/getting-started/x.md",
         '```sh title="From a clone of Paywire"\ntest -L ../paywire && test -f ../paywire/docs/getting-started/x.md\n```\n\n'
         '```sh title="From the release"\ntrue\n```\n\n'
         '```python title="app.py"\nimport os, sys\nprint(sorted(os.listdir(".")), os.environ.get("PAYWIRE_LIBRARY"), '
         'os.environ.get("LD_LIBRARY_PATH"))\nsys.exit(3)\n```\n\n```sh\npython3 app.py\n```\n')
    assert run_examples.main(["run_examples.py", str(tmp_path)]) == 1
    out = capsys.readouterr().out
    assert "FAILED x.md (From a clone of Paywire): exit 3" in out
    assert "['app.py'] None None" in out
    assert "0 page(s) ran as written, 1 failed" in out


def test_a_page_without_the_way_asked_for_fails(tmp_path, capsys):
    page(tmp_path, "docs/getting-started/x.md", '```sh\ntrue\n```\n')
    assert run_examples.main(["run_examples.py", str(tmp_path)]) == 1
    assert "no way titled with 'clone'" in capsys.readouterr().out


def test_extract_writes_each_pages_files_and_the_script_of_a_way(tmp_path):
    page(tmp_path, "docs/getting-started/x.md",
         '```sh title="From the release tarball"\ntar -xzf x.tar.gz\n```\n\n```c title="app.c"\nint main(void) { return 0; }\n```\n\n'
         '```sh\ncc app.c\n```\n')
    out = tmp_path / "out"
    assert run_examples.main(["run_examples.py", str(tmp_path), "--extract", str(out), "--way", "tarball"]) == 0
    assert (out / "x" / "files" / "app.c").read_text() == "int main(void) { return 0; }\n"
    assert "tar -xzf x.tar.gz" in (out / "x" / "run.sh").read_text()
