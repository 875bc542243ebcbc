#!/usr/bin/env python3
"""Prints the Debian archive this machine's apt uses, for debootstrap: `URI SUITE KEYRING`.

Read at run time from /etc/apt/sources.list and /etc/apt/sources.list.d/*.list and *.sources
(one-line and deb822 formats), never written into the repository: a clean root is built from
the mirror the machine already trusts. The first `deb` entry of the machine's own release
(VERSION_CODENAME in /etc/os-release) with the `main` component wins.
"""
import shlex
import sys
from pathlib import Path

APT = Path("/etc/apt")
DEFAULT_KEYRING = "/usr/share/keyrings/debian-archive-keyring.gpg"


def codename():
    for line in Path("/etc/os-release").read_text().splitlines():
        if line.startswith("VERSION_CODENAME="):
            return line.split("=", 1)[1].strip().strip('"')
    sys.exit("apt_source: /etc/os-release has no VERSION_CODENAME")


def one_line_entries(text):
    """Entries of the `deb [options] URI suite component...` format."""
    for line in text.splitlines():
        words = shlex.split(line.split("#", 1)[0])
        if len(words) < 4 or words[0] != "deb":
            continue
        options = {}
        if words[1].startswith("["):
            end = next(i for i, word in enumerate(words) if word.endswith("]"))
            for option in " ".join(words[1:end + 1]).strip("[]").split():
                key, _, value = option.partition("=")
                options[key.lower()] = value
            words = [words[0]] + words[end + 1:]
        if len(words) >= 4:
            yield {"types": ["deb"], "uris": [words[1]], "suites": [words[2]], "components": words[3:],
                   "signed-by": options.get("signed-by")}


def deb822_entries(text):
    """Entries of the deb822 `.sources` format (stanzas separated by blank lines)."""
    for stanza in text.split("\n\n"):
        fields, key = {}, None
        for line in stanza.splitlines():
            if line.startswith("#") or not line.strip():
                continue
            if line[0] in " \t" and key:
                fields[key] += "\n" + line.strip()
                continue
            key, _, value = line.partition(":")
            key = key.strip().lower()
            fields[key] = value.strip()
        if not fields or fields.get("enabled", "yes").lower() == "no":
            continue
        yield {"types": fields.get("types", "").split(), "uris": fields.get("uris", "").split(),
               "suites": fields.get("suites", "").split(), "components": fields.get("components", "").split(),
               "signed-by": fields.get("signed-by")}


def entries():
    files = [APT / "sources.list"] + sorted((APT / "sources.list.d").glob("*.list"))
    for path in files:
        if path.is_file():
            yield from one_line_entries(path.read_text())
    for path in sorted((APT / "sources.list.d").glob("*.sources")):
        yield from deb822_entries(path.read_text())


def main():
    suite = codename()
    for entry in entries():
        if "deb" in entry["types"] and suite in entry["suites"] and "main" in entry["components"] and entry["uris"]:
            keyring = entry["signed-by"]
            if not keyring or "\n" in keyring or not Path(keyring).is_file():
                keyring = DEFAULT_KEYRING  # an inline key block, or none named
            print(entry["uris"][0], suite, keyring)
            return
    sys.exit(f"apt_source: no 'deb' source for {suite} with 'main' in /etc/apt/sources.list or sources.list.d")


if __name__ == "__main__":
    main()
