#!/bin/sh
# check_exports.sh LIBRARY ABI SONAME HEADER
# Fails unless LIBRARY exports exactly the functions HEADER declares, each under the version node
# PAYWIRE_<ABI>, carries SONAME, and loads no Swift runtime (make check-exports holds the
# library to it).
set -eu
library=$1 abi=$2 soname=$3 header=$4
exported=$(nm -D --defined-only "$library" | awk 'NF==3 {print $3}' | sort -u)
unversioned=$(echo "$exported" | grep -v "@@PAYWIRE_$abi\$" || true)
[ -z "$unversioned" ] || { echo "exports outside the version node PAYWIRE_$abi:" $unversioned; exit 1; }
exported=$(echo "$exported" | sed 's/@@.*//')
declared=$(grep -oE '\bpaywire_[a-z0-9_]+[[:space:]]*\(' "$header" | tr -d ' (' | sort -u)
if [ "$exported" != "$declared" ]; then
  echo "exports differ from $header (< declared, > exported):"
  printf '%s\n' "$declared" > "${TMPDIR:-/tmp}/paywire-declared.$$"
  printf '%s\n' "$exported" | diff "${TMPDIR:-/tmp}/paywire-declared.$$" - || true
  rm -f "${TMPDIR:-/tmp}/paywire-declared.$$"
  exit 1
fi
readelf -d "$library" | grep -q "Library soname: \[$soname\]" || { echo "SONAME is not $soname"; exit 1; }
if ldd "$library" | grep -q libswift; then echo "library depends on the Swift runtime:"; ldd "$library"; exit 1; fi
echo "exports: $(echo $exported | wc -w) symbols, all declared in $(basename "$header"), all in PAYWIRE_$abi; SONAME $soname; no libswift*"
