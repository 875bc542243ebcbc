"""Copies of the repository's inputs, laid out as in the repository, for a test to break."""
import os
import shutil

REPO = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))


def copy_inputs(target_root, items):
    for item in items:
        source, target = os.path.join(REPO, item), target_root / item
        target.parent.mkdir(parents=True, exist_ok=True)
        (shutil.copytree if os.path.isdir(source) else shutil.copy)(source, target)
    return target_root
