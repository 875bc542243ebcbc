#!/bin/bash
# run.sh DIST WORK: proves the artefacts in DIST where no Swift exists (`make dist-check`).
#
# Builds a fresh minimal Debian root in WORK/root with debootstrap, from the archive this
# machine's apt uses (read now by apt_source.py, never stored in the repository), with only a C
# compiler, pkg-config, jansson's header and Python added. Then runs inside.sh in it: the
# tarball, the Debian packages, the wheel in a plain venv, the released conformance kit, the
# on-demand libcurl, then the other bindings' packages (jar and POM, NuGet, npm, PaywireKit's
# sources) with the toolchains Debian has for them; each getting-started page runs there as
# written, installing from the release. The root is removed afterwards; its log stays in WORK.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
dist=$1
work=$2
root=$work/root

[ "$(id -u)" = 0 ] || { echo "dist-check: needs root (debootstrap and chroot)"; exit 1; }
read -r mirror suite keyring < <(python3 "$here/apt_source.py")

# shellcheck source=debian_root.sh
. "$here/debian_root.sh"

echo "dist-check: debootstrap $suite from $mirror into $root (log: $work/debootstrap.log)"
packages=python3,python3-venv,gcc,libc6-dev,pkg-config,libjansson-dev
if ! debootstrap --variant=minbase --keyring="$keyring" --include="$packages" "$suite" "$root" "$mirror" \
     > "$work/debootstrap.log" 2>&1; then
  tail -20 "$work/debootstrap.log"
  exit 1
fi
cp /etc/resolv.conf "$root/etc/resolv.conf"

# What the checks use, copied in: the artefacts, the C program of `make check-install`, the
# Python checks, and jsonschema and PyYAML for the conformance driver (fetched here for the
# root's Python).
check=$root/paywire-check
mkdir -p "$check"
cp -R "$dist" "$check/dist"
cp "$repo/tests/install/hello.c" "$here/inside.sh" "$here/check_http.py" "$here/maven.py" "$check/"
# The getting-started pages, each way of the release (tools/docs/run_examples.py writes every
# page's files and the script of that way, as the page gives them; the root has no checkout).
for way in tarball Debian release; do
  python3 "$repo/tools/docs/run_examples.py" "$repo" --extract "$check/pages/$way" --way "$way" > /dev/null
done
for page in c python java-kotlin csharp node; do
  ls "$check"/pages/*/"$page"/run.sh > /dev/null 2>&1 || { echo "dist-check: docs/getting-started/$page.md has no release way"; exit 1; }
done
# The kit's driver needs jsonschema and pyyaml, and cryptography for the vectors of signed answers
# (it signs the backend's answers with the key pair they carry): wheels for the root's Python.
python_version=$(chroot "$root" /usr/bin/python3 -c 'import sys; print("%d.%d" % sys.version_info[:2])')
python3 -m pip download -q --only-binary=:all: --python-version "$python_version" --implementation cp \
  --platform "manylinux2014_$(uname -m)" --platform "manylinux_2_17_$(uname -m)" \
  --dest "$check/wheelhouse" 'jsonschema>=4.18' pyyaml cryptography

mount -t proc proc "$root/proc"
mkdir -p "$root/dev/shm"
mount -t tmpfs shm "$root/dev/shm"
env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME=/root LANG=C.UTF-8 TERM=dumb DEBIAN_FRONTEND=noninteractive \
  chroot "$root" /bin/bash /paywire-check/inside.sh
