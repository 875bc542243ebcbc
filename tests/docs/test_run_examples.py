"""tools/docs/run_examples.py: which blocks it runs, which it only shows, and that a failing or
unrunnable example fails the check (make docs-examples runs the real pages)."""
import os
import sys
import zipfile

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(REPO, "tools", "docs"))
import run_examples  # noqa: E402


def page(root, path, text):
    full = os.path.join(root, path)
    os.makedirs(os.path.dirname(full), exist_ok=True)
    with open(full, "w", encoding="utf-8") as out:
        out.write(text)


def test_blocks_of_one_language_on_a_page_make_one_program_and_titled_blocks_are_shown(tmp_path):
    page(tmp_path, "README.md", "```python\nx = 1\n```\n\n```sh\nmake\n```\n\n```python\nprint(x)\n```\n")
    page(tmp_path, "bindings/java/README.md", '```java title="shown"\nint a = 1;\n```\n\n```kotlin\nfun main() {}\n```\n')
    found, shown, problems = run_examples.programs(str(tmp_path))
    assert found == [("README.md", "python", "x = 1\n\nprint(x)\n"),
                     ("bindings/java/README.md", "kotlin", "fun main() {}\n")]
    assert [(p, why) for p, _, why in shown] == [("README.md", "commands or output"),
                                                 ("bindings/java/README.md", "fenced with more than its language")]
    assert problems == []


def test_a_block_nothing_runs_is_a_problem(tmp_path):
    page(tmp_path, "docs/getting-started/ruby.md", "```ruby\nputs 1\n```\n")
    _, _, problems = run_examples.programs(str(tmp_path))
    assert len(problems) == 1 and "```ruby" in problems[0]


def test_snippet_lines_are_replaced_by_the_file_lines_they_name(tmp_path):
    page(tmp_path, "examples/a.py", "# heading\nprint('a')\n")
    page(tmp_path, "README.md", '```python\n--8<-- "examples/a.py:2:"\n```\n')
    found, _, _ = run_examples.programs(str(tmp_path))
    assert found == [("README.md", "python", "print('a')\n\n")]


def test_an_example_that_fails_fails_the_check_and_runs_in_an_empty_folder(tmp_path, capsys):
    page(tmp_path, "README.md", "```python\nimport os, sys\nprint(sorted(os.listdir('.')))\nsys.exit(3)\n```\n")
    assert run_examples.main(["run_examples.py", str(tmp_path)]) == 1
    out = capsys.readouterr()
    assert "FAILED README.md (python): exit 3" in out.out and "['example.py']" in out.out
    assert "0 passed, 1 failed" in out.out


def test_a_kotlin_block_that_does_not_compile_fails_the_check(tmp_path, capsys):
    # kotlinc (make deps-kotlin) compiles it; a type error is its exit 1, not a block shown. The
    # binding's jar is there (empty), so the error is the block's, not a missing classpath entry.
    os.makedirs(tmp_path / "build" / "java")
    zipfile.ZipFile(tmp_path / "build" / "java" / "paywire.jar", "w").close()
    page(tmp_path, "bindings/java/README.md", '```kotlin\nfun main() {\n    val n: Int = "nine"\n    println(n)\n}\n```\n')
    assert run_examples.main(["run_examples.py", str(tmp_path)]) == 1
    out = capsys.readouterr()
    assert "FAILED bindings/java/README.md (kotlin): exit 1" in out.out and "type mismatch" in out.out.lower()
    assert "0 passed, 1 failed" in out.out
