#!/bin/bash
# run.sh LIBRARY WORK: the library loads and serves on the oldest glibc the project keeps a host
# on (`make check-old-glibc`, in make test-full).
#
# check-glibc reads the symbol versions the library asks for; this runs it there. Builds a
# minimal Debian 11 root (glibc 2.31) in WORK/root with debootstrap, from the mirror this
# machine's apt uses (apt_source.py), with only Python and SQLite added, and runs the Python
# binding's typed sample in it on LIBRARY: a client with a storage directory (the outbox in
# SQLite, files read through statx), the paywall in French from the example bundle, its products,
# a view's events from the delivery thread, an error, and the same through asyncio. The root is
# removed afterwards; its log stays in WORK.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
library=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
work=$2
root=$work/root
suite=bullseye

[ "$(id -u)" = 0 ] || { echo "check-old-glibc: needs root (debootstrap and chroot)"; exit 1; }
read -r mirror _ keyring < <(python3 "$repo/packaging/dist-check/apt_source.py")

# shellcheck source=../dist-check/debian_root.sh
. "$repo/packaging/dist-check/debian_root.sh"

echo "check-old-glibc: debootstrap $suite from $mirror into $root (log: $work/debootstrap.log)"
if ! debootstrap --variant=minbase --keyring="$keyring" --include=python3,libsqlite3-0 "$suite" "$root" "$mirror" \
     > "$work/debootstrap.log" 2>&1; then
  tail -20 "$work/debootstrap.log"
  exit 1
fi
# sed reads to the end: with pipefail, head's early exit would fail the script on ldd's SIGPIPE.
glibc=$(chroot "$root" /usr/bin/ldd --version | sed -n 1p)
echo "check-old-glibc: $glibc"

check=$root/paywire-check
mkdir -p "$check/lib" "$check/storage"
cp "$library" "$check/lib/libpaywire.so.1"
cp -R "$repo/bindings/python" "$check/python"
cp "$repo/examples/config.json" "$repo/examples/bundle.json" "$check/"
# The sample's config, with a storage directory: the outbox's SQLite file and the cache's files.
python3 - "$check/config.json" <<'PYTHON'
import json, sys
path = sys.argv[1]
config = json.load(open(path))
config["storage_dir"] = "/paywire-check/storage"
json.dump(config, open(path, "w"))
PYTHON

mount -t proc proc "$root/proc"
output=$(env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME=/root LANG=C.UTF-8 PAYWIRE_LIBRARY=/paywire-check/lib/libpaywire.so.1 \
  PYTHONPATH=/paywire-check/python chroot "$root" /usr/bin/python3 /paywire-check/python/examples/typed_sample.py \
  /paywire-check/config.json /paywire-check/bundle.json 2>&1) || { echo "$output"; echo "check-old-glibc: the sample failed on $glibc"; exit 1; }
echo "$output"
for expected in "variation onboarding-annual-first" "premium_annual: 59.99 USD / year" "appeared: onboarding" \
                "error code: not_found" "aio: "; do
  grep -qF "$expected" <<< "$output" || { echo "check-old-glibc: the sample did not print '$expected'"; exit 1; }
done
[ -n "$(ls -A "$check/storage")" ] || { echo "check-old-glibc: the client wrote nothing to its storage directory"; exit 1; }
echo "check-old-glibc: the library loads and serves on $glibc"
