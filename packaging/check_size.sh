#!/bin/sh
# check_size.sh LIBRARY LINE: fails when the stripped LIBRARY is above LINE bytes (make dist and
# make dist-check hold the Makefile's SIZE_LINE; make size says where the bytes are).
set -eu
library=$1
line=$2
size=$(stat -c %s "$library")
if [ "$size" -gt "$line" ]; then
  echo "size: $library is $size bytes stripped, above the line of $line by $((size - line)) (make size tells where)"
  exit 1
fi
echo "size: $library is $size bytes stripped, within the line of $line ($((line - size)) to spare)"
