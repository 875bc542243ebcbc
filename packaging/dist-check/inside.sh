#!/bin/bash
# Runs inside the fresh Debian root of run.sh, from /paywire-check: every artefact of dist/
# installed and used the way a user would, on a system that has never seen Swift.
set -euo pipefail
cd /paywire-check
step() { echo; echo "dist-check: $*"; }
strict=(-std=c99 -Wall -Wextra -Werror -pedantic)

# A getting-started page, the way of the release it names: its files and commands (as
# tools/docs/run_examples.py extracted them from the page) run in a new folder that holds the
# release's files, with nothing set but what the page sets.
page() {
  local way=$1 name=$2 app
  app=$(mktemp -d)
  cp -R "/paywire-check/pages/$way/$name/files/." "$app/"
  ln -s /paywire-check/dist/* "$app/"
  echo "docs/getting-started/$name.md, from the release ($way):"
  (cd "$app" && env -u PKG_CONFIG_PATH bash -e "/paywire-check/pages/$way/$name/run.sh")
  PAGE_FOLDER=$app
}
# The pages say `sudo` where a user needs root; here everything runs as root already.
printf '#!/bin/sh\n# dist-check runs as root: sudo is the command itself.\nexec "$@"\n' > /usr/local/bin/sudo
chmod +x /usr/local/bin/sudo
# chroot starts with run.sh's bare PATH; a user's shell has /usr/local/bin in it (and so the shim).
export PATH=/usr/local/bin:$PATH

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
page tarball c

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
page Debian c

python3 -m venv /opt/venv
/opt/venv/bin/pip install -q --no-index dist/paywire-*.whl

step "built-in HTTP: refused naming libcurl while it is missing; loaded once libcurl4 (the recommended package) is installed"
if ldconfig -p | grep -q 'libcurl\.so\.4'; then echo "libcurl.so.4 is installed already"; exit 1; fi
/opt/venv/bin/python /paywire-check/check_http.py missing
apt-get update -qq > /tmp/apt-update.log 2>&1 || { cat /tmp/apt-update.log; exit 1; }
apt-get install -y -qq libcurl4 > /tmp/apt-curl.log 2>&1 || { cat /tmp/apt-curl.log; exit 1; }
/opt/venv/bin/python /paywire-check/check_http.py present

# After libcurl4: the page's tour talks to a backend through the library's own HTTP client.
step "wheel: the Python getting-started page (a plain venv, the wheel, app.py and tour.py), with the wheel's own library"
page release python
"$PAGE_FOLDER/venv/bin/python" -c 'import paywire, pathlib; path = pathlib.Path(paywire._lib.path).resolve(); \
  assert path.parent == pathlib.Path(paywire.__file__).resolve().parent, path; print("the library came from the wheel:", path)'

step "the released conformance kit (/usr/share/paywire) against the installed library"
/opt/venv/bin/pip install -q --no-index --find-links wheelhouse 'jsonschema>=4.18' pyyaml cryptography
kit=/usr/share/paywire
cc "${strict[@]}" -O2 $kit/runners/c/harness.c -o /tmp/paywire-harness $(pkg-config --cflags --libs paywire jansson) -lpthread
/opt/venv/bin/python $kit/tests/conformance/driver.py --runner c --jobs 2 --openapi $kit/api/openapi.yaml \
  --vectors $kit/tests/conformance/vectors --vectors $kit/tests/corpus -- /tmp/paywire-harness
echo "(python runner: the library inside the wheel)"
/opt/venv/bin/python $kit/tests/conformance/driver.py --runner python --jobs 2 -- \
  /opt/venv/bin/python $kit/runners/python/conformance_runner.py

step "the bindings' toolchains, from Debian (the library stays the Debian package's)"
# Installed only now, so the checks above ran in a root without any of them.
# No C++ compiler, make or node-gyp: the npm package compiles nothing when it is installed.
apt-get install -y -qq --no-install-recommends default-jdk-headless libjna-java libgoogle-gson-java kotlin \
  mono-runtime mono-mcs libmono-system-json4.0-cil nuget nodejs npm \
  > /tmp/apt-bindings.log 2>&1 || { tail -30 /tmp/apt-bindings.log; exit 1; }
version=$(pkg-config --modversion paywire)

step "jar and POM: put into a Maven repository, their dependencies (JNA, Gson) resolved from Debian's; the Java and Kotlin page"
python3 maven.py dist/paywire-$version.pom dist/paywire-$version.jar /opt/m2 > /dev/null
unzip_pom() { python3 -c 'import sys, zipfile; sys.stdout.write(zipfile.ZipFile(sys.argv[1]).read("META-INF/maven/dev.paywire/paywire/pom.xml").decode())' "$1"; }
diff <(unzip_pom dist/paywire-$version.jar) dist/paywire-$version.pom && echo "the jar carries the same POM"
page release java-kotlin

step "NuGet package: installed from a folder feed with nuget; the C# page"
page release csharp

step "npm tarball: installed offline, its addon prebuilt and the library inside (no compiler here); the Node page"
page release node
node_package=$PAGE_FOLDER/node_modules/paywire
[ ! -e "$node_package/binding.gyp" ] || { echo "the npm package carries binding.gyp: npm would build it"; exit 1; }
node -e 'const p = require(process.argv[1]); if (p.version() !== process.argv[2] || !p.libraryPath.startsWith(process.argv[1])) { console.error(p.version() + " " + p.libraryPath); process.exit(1); } console.log("paywire " + p.version() + " from the library inside the package: " + p.libraryPath)' \
  "$(readlink -f "$node_package")" "$version"

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
