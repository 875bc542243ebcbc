#!/bin/bash
# run.sh DIST WORK: proves the artefacts in DIST where no Swift exists (`make dist-check`).
#
# Builds a fresh minimal Debian root in WORK/root with debootstrap, from the archive this
# machine's apt uses (read now by apt_source.py, never stored in the repository), with only a C
# compiler, pkg-config, jansson's header and Python added. Then runs inside.sh in it: the
# tarball, the Debian packages, the wheel in a plain venv, the released conformance kit, the
# on-demand libcurl, then the other bindings' packages (jar and POM, NuGet, npm, PaywireKit's
# sources) with the toolchains Debian has for them. The root is removed afterwards; its log stays in WORK.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
dist=$1
work=$2
root=$work/root

[ "$(id -u)" = 0 ] || { echo "dist-check: needs root (debootstrap and chroot)"; exit 1; }
read -r mirror suite keyring < <(python3 "$here/apt_source.py")

# Only fresh mounts (proc, a tmpfs for shared memory), never the host's /dev; and removal stays
# on the root's own file system, so a mount that would not go cannot take host files with it.
unmount() {
  for mount in "$root/dev/shm" "$root/proc"; do
    if mountpoint -q "$mount" 2>/dev/null; then umount "$mount" || umount -l "$mount"; fi
  done
}
cleanup() {
  unmount
  rm -rf --one-file-system "$root"
}
trap cleanup EXIT
unmount
rm -rf --one-file-system "$work"
mkdir -p "$work"

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
cp "$repo/tests/install/hello.c" "$here/inside.sh" "$here/quickstart.py" "$here/check_http.py" "$here/maven.py" "$check/"
# The Java, C# and Node quick starts: the programs of the bindings' READMEs, as make docs-examples
# extracts them (tools/docs/run_examples.py), written out here since the root has no checkout.
mkdir -p "$check/quickstart"
python3 - "$repo" "$check/quickstart" <<'PYTHON'
import sys
sys.path.insert(0, sys.argv[1] + "/tools/docs")
import run_examples
names = {("bindings/java/README.md", "java"): "YourApp.java", ("bindings/dotnet/README.md", "csharp"): "YourApp.cs",
         ("bindings/node/README.md", "js"): "example.mjs"}
found, _, _ = run_examples.programs(sys.argv[1])
for page, language, source in found:
    if (page, language) in names:
        open(sys.argv[2] + "/" + names.pop((page, language)), "w", encoding="utf-8").write(source)
if names:
    sys.exit("dist-check: no quick start found in %s" % ", ".join(page for page, _ in names))
PYTHON
python_version=$(chroot "$root" /usr/bin/python3 -c 'import sys; print("%d.%d" % sys.version_info[:2])')
python3 -m pip download -q --only-binary=:all: --python-version "$python_version" --implementation cp \
  --platform "manylinux2014_$(uname -m)" --platform "manylinux_2_17_$(uname -m)" \
  --dest "$check/wheelhouse" 'jsonschema>=4.18' pyyaml

mount -t proc proc "$root/proc"
mkdir -p "$root/dev/shm"
mount -t tmpfs shm "$root/dev/shm"
env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME=/root LANG=C.UTF-8 TERM=dumb DEBIAN_FRONTEND=noninteractive \
  chroot "$root" /bin/bash /paywire-check/inside.sh
