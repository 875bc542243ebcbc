#!/bin/sh
# check_glibc.sh LIBRARY FLOOR: fails when a symbol LIBRARY takes from glibc needs a version newer
# than FLOOR (e.g. 2.28): the oldest C library a host can load it with. Prints the newest version
# it needs and the symbols that need it.
set -eu
library=$1
floor=$2
needs=$(objdump -T "$library" | awk '$0 ~ /\*UND\*/ && match($0, /GLIBC_[0-9.]+/) { print substr($0, RSTART + 6, RLENGTH - 6) " " $NF }' | sort -t' ' -k1,1V)
newest=$(printf '%s\n' "$needs" | tail -n 1 | cut -d' ' -f1)
[ -n "$newest" ] || { echo "check-glibc: $library takes nothing from glibc, which cannot be right"; exit 1; }
symbols=$(printf '%s\n' "$needs" | awk -v v="$newest" '$1 == v { print $2 }' | tr '\n' ' ')
if [ "$(printf '%s\n%s\n' "$floor" "$newest" | sort -V | tail -n 1)" != "$floor" ]; then
  echo "check-glibc: $library needs glibc $newest ($symbols), above the floor of $floor"
  printf '%s\n' "$needs" | tail -n 12
  exit 1
fi
echo "check-glibc: $library needs glibc $newest at most ($symbols), within the floor of $floor"
