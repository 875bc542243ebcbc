#!/bin/sh
# check_relocations.sh LIBRARY LINE RELATIVE_LINE: fails when LIBRARY carries more than LINE
# dynamic relocations (.rela.dyn and .rela.plt entries: the work the dynamic linker does on every
# load, and pages it dirties), or more than RELATIVE_LINE relative ones (the figure issue 57 sets
# its line in: pointers in the library's own data, which Swift's metadata and tables of string
# literals are made of).
set -eu
library=$1
line=$2
relative_line=$3
relocations=$(readelf -rW "$library" | grep -cE '^[0-9a-f]{8,} ' || true)
relative=$(readelf -rW "$library" | grep -cE '^[0-9a-f]{8,} +[0-9a-f]+ +R_[A-Z0-9_]+_RELATIVE' || true)
if [ "$relocations" -gt "$line" ]; then
  echo "relocations: $library carries $relocations dynamic relocations ($relative relative), above the line of $line"
  exit 1
fi
if [ "$relative" -gt "$relative_line" ]; then
  echo "relocations: $library carries $relative relative relocations, above the line of $relative_line"
  exit 1
fi
echo "relocations: $library carries $relocations dynamic relocations ($relative relative), within the lines of $line and $relative_line relative"
