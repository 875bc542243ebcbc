"""mkdocs hooks of the site (build/mkdocs.yml names this file; reference.py writes that config).

on_config: ```dot and ```plantuml fences become diagrams drawn at build time (diagrams.py).
on_post_build: the built site loads nothing from another host (offline.py), or the build fails.
"""
import os
import sys

from mkdocs.exceptions import PluginError

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import diagrams  # noqa: E402
import offline  # noqa: E402


def on_config(config):
    superfences = config.mdx_configs.setdefault("pymdownx.superfences", {})
    fences = superfences.setdefault("custom_fences", [])
    fences += [{"name": "dot", "class": "diagram", "format": diagrams.fence_dot},
               {"name": "plantuml", "class": "diagram", "format": diagrams.fence_plantuml}]
    return config


def on_post_build(config):
    problems = offline.site_problems(config.site_dir)
    if problems:
        raise PluginError("the site would need a network:\n  " + "\n  ".join(problems))
