#!/bin/sh
# check_relocations.sh LIBRARY LINE: fails when LIBRARY carries more than LINE dynamic relocations
# (.rela.dyn and .rela.plt entries: the work the dynamic linker does on every load, and pages it
# dirties). Prints the relative ones apart, the figure issue 57 sets its goal in.
set -eu
library=$1
line=$2
relocations=$(readelf -rW "$library" | grep -cE '^[0-9a-f]{8,} ' || true)
relative=$(readelf -rW "$library" | grep -cE '^[0-9a-f]{8,} +[0-9a-f]+ +R_[A-Z0-9_]+_RELATIVE' || true)
if [ "$relocations" -gt "$line" ]; then
  echo "relocations: $library carries $relocations dynamic relocations ($relative relative), above the line of $line"
  exit 1
fi
echo "relocations: $library carries $relocations dynamic relocations ($relative relative), within the line of $line"
