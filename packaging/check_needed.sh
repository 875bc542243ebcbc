#!/bin/sh
# check_needed.sh LIBRARY ALLOWED...
# Fails unless every NEEDED entry of LIBRARY is in the allow-list, and says which is not. Keeps
# what a host loads with libpaywire to the C and C++ runtimes (libcurl is dlopened on demand).
set -eu
library=$1
shift
needed=$(readelf -d "$library" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p')
[ -n "$needed" ] || { echo "check-needed: no NEEDED entries read from $library"; exit 1; }
status=0
for entry in $needed; do
  allowed=no
  for name in "$@"; do [ "$entry" = "$name" ] && allowed=yes; done
  if [ $allowed = no ]; then
    echo "check-needed: $library needs $entry, which is not in the allow-list ($*)"
    status=1
  fi
done
[ $status = 0 ] && echo "check-needed: $(basename "$library") needs only" $needed
exit $status
