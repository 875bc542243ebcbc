"""What SwiftPM says of a package: its targets, their dependencies and sources (`swift package
describe`), and the packages of this repository that build on it (`swift package dump-package`
of each other Package.swift). The manifests are asked, never read as text."""
import json
import os
import shutil
import subprocess
import tempfile

# Folders that hold no package of the repository's own.
SKIPPED = {"build", "dist", "site", "node_modules", "__pycache__"}


class SwiftPMError(Exception):
    pass


def _ask(package, *command):
    if shutil.which("swift") is None:
        raise SwiftPMError("swift is not on PATH: the architecture page is read from SwiftPM")
    # A scratch path of its own: never waits for (or disturbs) a build of the same package.
    with tempfile.TemporaryDirectory(prefix="paywire-swiftpm-") as scratch:
        run = subprocess.run(["swift", "package", "--package-path", package, "--scratch-path", scratch, *command],
                             capture_output=True, text=True, timeout=300)
    if run.returncode != 0:
        raise SwiftPMError("swift package %s in %s failed: %s" % (" ".join(command), package, run.stderr.strip()))
    return json.loads(run.stdout)


def describe(root):
    """The root package: {"products": [...], "targets": [...]} as `describe --type json` gives them."""
    return _ask(root, "describe", "--type", "json")


def manifests(root):
    """Every Package.swift below root but root's own, as folders relative to root, sorted."""
    found = []
    for folder, subfolders, files in os.walk(root):
        subfolders[:] = sorted(d for d in subfolders if not d.startswith(".") and d not in SKIPPED)
        if "Package.swift" in files and os.path.abspath(folder) != os.path.abspath(root):
            found.append(os.path.relpath(folder, root))
    return sorted(found)


def dependents(root):
    """The packages below root that depend on it by path: [{"path", "name", "targets": [{"name",
    "type", "products": [root products it uses], "depends_on": [targets of its own package]}],
    "others": [other packages]}]."""
    here = os.path.realpath(root)
    found = []
    for folder in manifests(root):
        dump = _ask(os.path.join(root, folder), "dump-package")
        on_root, others = False, []
        for dependency in dump.get("dependencies", []):
            kind, [entry] = next(iter(dependency.items()))
            if kind == "fileSystem" and os.path.realpath(entry.get("path", "")) == here:
                on_root, root_name = True, entry.get("nameForTargetDependencyResolutionOnly") or entry.get("identity")
            else:
                remote = entry.get("location", {}).get("remote", [{}])
                url = remote[0].get("urlString", "") if remote and isinstance(remote[0], dict) else ""
                others.append(url.rstrip("/").rsplit("/", 1)[-1].removesuffix(".git") or entry.get("identity", "?"))
        if not on_root:
            continue
        targets, own = [], {target["name"] for target in dump.get("targets", [])}
        for target in dump.get("targets", []):
            products = sorted({dep["product"][0] for dep in target.get("dependencies", [])
                               if "product" in dep and dep["product"][1] == root_name})
            # A target of the same package, named as a target or by name alone.
            depends_on = [entry[0] for dep in target.get("dependencies", []) for kind, entry in dep.items()
                          if kind in ("byName", "target") and entry and entry[0] in own]
            targets.append({"name": target["name"], "type": target.get("type", ""), "products": products,
                            "depends_on": depends_on})
        found.append({"path": folder, "name": dump.get("name", folder), "targets": targets, "others": others})
    return found
