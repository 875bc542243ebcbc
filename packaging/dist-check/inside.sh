#!/bin/bash
# Runs inside the fresh Debian root of run.sh, from /paywire-check: every artefact of dist/
# installed and used the way a user would, on a system that has never seen Swift.
set -euo pipefail
cd /paywire-check
step() { echo; echo "dist-check: $*"; }
strict=(-std=c99 -Wall -Wextra -Werror -pedantic)

step "no Swift toolchain or runtime in this root"
if command -v swift swiftc >/dev/null; then echo "a Swift toolchain is installed"; exit 1; fi
found=$(find / -xdev \( -name 'libswift*' -o -name 'swift-frontend' -o -name 'libdispatch.so*' \) -print -quit)
[ -z "$found" ] || { echo "Swift found in the root: $found"; exit 1; }
echo "none found"

step "tarball: unpacked anywhere, a C program built with its pkg-config file"
mkdir -p /opt/tarball
tar -xzf dist/paywire-*-linux-*.tar.gz -C /opt/tarball --strip-components=1
export PKG_CONFIG_PATH=/opt/tarball/lib/pkgconfig
cc "${strict[@]}" hello.c -o /tmp/hello-tarball $(pkg-config --cflags --libs paywire)
LD_LIBRARY_PATH=/opt/tarball/lib /tmp/hello-tarball
unset PKG_CONFIG_PATH

step "Debian packages: installed with apt, a C program built only from pkg-config"
# Without Recommends (libcurl4), so the on-demand loading of libcurl can be tried without it below.
apt-get install -y -qq --no-install-recommends ./dist/libpaywire1_*.deb ./dist/libpaywire-dev_*.deb > /tmp/apt-install.log 2>&1 \
  || { cat /tmp/apt-install.log; exit 1; }
dpkg-query -W -f='${Package} ${Version}: Depends: ${Depends}; Recommends: ${Recommends}\n' libpaywire1 libpaywire-dev
cc "${strict[@]}" hello.c -o /tmp/hello $(pkg-config --cflags --libs paywire)
/tmp/hello
library=$(readlink -f "$(pkg-config --variable=libdir paywire)/libpaywire.so")
echo "NEEDED of $library:" $(readelf -d "$library" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p')
cmp "$library" /opt/tarball/lib/libpaywire.so.*.*.* && echo "the same bytes as the tarball's library"
diff -r /usr/share/paywire /opt/tarball/share/paywire && echo "/usr/share/paywire is the tarball's share/paywire"

step "wheel: installed into a plain venv, the Python quick start"
python3 -m venv /opt/venv
/opt/venv/bin/pip install -q --no-index dist/paywire-*.whl
(cd "$(mktemp -d)" && /opt/venv/bin/python /paywire-check/quickstart.py)   # from any folder: the examples are the package's

step "built-in HTTP: refused naming libcurl while it is missing; loaded once libcurl4 (the recommended package) is installed"
if ldconfig -p | grep -q 'libcurl\.so\.4'; then echo "libcurl.so.4 is installed already"; exit 1; fi
/opt/venv/bin/python /paywire-check/check_http.py missing
apt-get update -qq > /tmp/apt-update.log 2>&1 || { cat /tmp/apt-update.log; exit 1; }
apt-get install -y -qq libcurl4 > /tmp/apt-curl.log 2>&1 || { cat /tmp/apt-curl.log; exit 1; }
/opt/venv/bin/python /paywire-check/check_http.py present

step "the released conformance kit (/usr/share/paywire) against the installed library"
/opt/venv/bin/pip install -q --no-index --find-links wheelhouse 'jsonschema>=4.18' pyyaml
kit=/usr/share/paywire
cc "${strict[@]}" -O2 $kit/runners/c/harness.c -o /tmp/paywire-harness $(pkg-config --cflags --libs paywire jansson) -lpthread
/opt/venv/bin/python $kit/tests/conformance/driver.py --runner c --jobs 2 --openapi $kit/api/openapi.yaml \
  --vectors $kit/tests/conformance/vectors --vectors $kit/tests/corpus -- /tmp/paywire-harness
echo "(python runner: the library inside the wheel)"
/opt/venv/bin/python $kit/tests/conformance/driver.py --runner python --jobs 2 -- \
  /opt/venv/bin/python $kit/runners/python/conformance_runner.py

step "all artefacts work without Swift"
