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

step "the bindings' toolchains, from Debian (the library stays the Debian package's)"
# Installed only now, so the checks above ran in a root without any of them.
apt-get install -y -qq --no-install-recommends default-jdk-headless libjna-java libgoogle-gson-java \
  mono-runtime mono-mcs libmono-system-json4.0-cil nuget nodejs npm node-gyp libnode-dev g++ make \
  > /tmp/apt-bindings.log 2>&1 || { tail -30 /tmp/apt-bindings.log; exit 1; }
version=$(pkg-config --modversion paywire)
examples=/usr/share/paywire/examples

step "jar and POM: put into a Maven repository, their dependencies (JNA, Gson) resolved from Debian's; the Java quick start"
classpath=$(python3 maven.py dist/paywire-$version.pom dist/paywire-$version.jar /opt/m2)
unzip_pom() { python3 -c 'import sys, zipfile; sys.stdout.write(zipfile.ZipFile(sys.argv[1]).read("META-INF/maven/dev.paywire/paywire/pom.xml").decode())' "$1"; }
diff <(unzip_pom dist/paywire-$version.jar) dist/paywire-$version.pom && echo "the jar carries the same POM"
java_app=$(mktemp -d)
javac -Xlint:all -Werror --release 11 -cp "$classpath" -d "$java_app" quickstart/YourApp.java
(cd "$(mktemp -d)" && PAYWIRE_EXAMPLES=$examples java -cp "$classpath:$java_app" YourApp)

step "NuGet package: installed from a folder feed with nuget; the C# quick start"
mkdir -p /opt/feed && cp dist/Paywire.$version.nupkg /opt/feed/
nuget install Paywire -Version "$version" -Source /opt/feed -OutputDirectory /opt/nuget -NonInteractive > /tmp/nuget.log 2>&1 \
  || { cat /tmp/nuget.log; exit 1; }
dll=/opt/nuget/Paywire.$version/lib/net45/Paywire.dll
ls -l "$dll"
cs_app=$(mktemp -d)
cp quickstart/YourApp.cs "$cs_app/"
(cd "$cs_app" && mcs -warnaserror -r:System.Json.dll -r:"$dll" YourApp.cs && cp "$dll" . && cd "$(mktemp -d)" && \
  PAYWIRE_EXAMPLES=$examples mono "$cs_app/YourApp.exe")

step "npm tarball: npm install builds its addon against the installed paywire.h; the Node quick start"
node_app=$(mktemp -d)
cp quickstart/example.mjs "$node_app/"
# Debian's node has its headers in /usr/include/node (libnode-dev): node-gyp is told, as it
# otherwise downloads them.
(cd "$node_app" && npm_config_nodedir=/usr npm install --offline --no-audit --no-fund "/paywire-check/dist/paywire-$version.tgz" \
  > /tmp/npm-install.log 2>&1) || { tail -40 /tmp/npm-install.log; exit 1; }
ls -l "$node_app/node_modules/paywire/build/Release/paywire.node"
(cd "$node_app" && PAYWIRE_EXAMPLES=$examples node example.mjs)
node -e 'const p = require(process.argv[1]); if (p.version() !== process.argv[2]) { console.error("version " + p.version()); process.exit(1); } console.log("paywire " + p.version() + " from the system library")' \
  "$node_app/node_modules/paywire" "$version"

step "PaywireKit sources: the archive holds the Swift package of this version (not built: no Swift here)"
swift_dir=$(mktemp -d)
tar -xzf "dist/paywire-swift-$version.tar.gz" -C "$swift_dir"
kit=$swift_dir/PaywireKit-$version
for file in Package.swift README.md Sources/PaywireKit Sources/CPaywire/include/paywire.h Sources/PaywireConformanceRunner Tests; do
  [ -e "$kit/$file" ] || { echo "PaywireKit-$version lacks $file"; exit 1; }
done
[ ! -L "$kit/Sources/CPaywire/include/paywire.h" ] || { echo "paywire.h is a link in the archive"; exit 1; }
grep -q "^#define PAYWIRE_VERSION \"$version\"" "$kit/Sources/CPaywire/include/paywire.h" \
  || { echo "the archive's paywire.h is not version $version"; exit 1; }
cmp "$kit/Sources/CPaywire/include/paywire.h" /usr/include/paywire.h && echo "PaywireKit-$version: its header is the installed one ($version)"
echo "$(find "$kit" -name '*.swift' | wc -l) Swift files"

step "all artefacts work without Swift"
