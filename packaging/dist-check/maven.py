#!/usr/bin/env python3
"""maven.py POM JAR REPO: installs a jar and its POM into the Maven repository REPO (Maven's layout,
GROUP/ARTIFACT/VERSION/ARTIFACT-VERSION.jar), resolves each dependency the POM declares in REPO or
in Debian's Maven repository (/usr/share/maven-repo, where libjna-java and libgoogle-gson-java put
theirs), and prints the classpath: the jar, then its dependencies. A dependency the POM names at a
version neither repository has fails, naming it: the POM must declare what the binding is built
and tested with (make dist-check)."""
import shutil
import sys
import xml.etree.ElementTree as ElementTree
from pathlib import Path

NS = {"m": "http://maven.apache.org/POM/4.0.0"}
DEBIAN = Path("/usr/share/maven-repo")


def coordinates(element):
    return tuple(element.findtext(f"m:{name}", namespaces=NS) for name in ("groupId", "artifactId", "version"))


def place(repo, group, artifact, version):
    return repo / Path(*group.split(".")) / artifact / version


def main():
    pom, jar, repo = Path(sys.argv[1]), Path(sys.argv[2]), Path(sys.argv[3])
    project = ElementTree.parse(pom).getroot()
    group, artifact, version = coordinates(project)
    home = place(repo, group, artifact, version)
    home.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(jar, home / f"{artifact}-{version}.jar")
    shutil.copyfile(pom, home / f"{artifact}-{version}.pom")
    classpath = [home / f"{artifact}-{version}.jar"]
    for dependency in project.findall("m:dependencies/m:dependency", NS):
        scope = dependency.findtext("m:scope", default="compile", namespaces=NS)
        if scope not in ("compile", "runtime"):
            continue
        coordinate = coordinates(dependency)
        found = [place(where, *coordinate) / f"{coordinate[1]}-{coordinate[2]}.jar" for where in (repo, DEBIAN)]
        found = [path for path in found if path.exists()]
        if not found:
            sys.exit(f"maven.py: {':'.join(coordinate)}, which {pom.name} declares, is in neither {repo} nor {DEBIAN}")
        print(f"maven.py: {':'.join(coordinate)} from {found[0]}", file=sys.stderr)
        classpath.append(found[0])
    print(":".join(str(path) for path in classpath))


if __name__ == "__main__":
    main()
