#!/usr/bin/env bash
# Each installed public header must compile alone (no prior includes), as C
# (c99, c11, gnu17) and as C++ (c++11, c++17), with warnings as errors.
set -euo pipefail
. "$LIBWRAP_SOURCE_DIR/tests/lib.sh"
scratch=$LIBWRAP_SCRATCH
inc=$LIBWRAP_STAGE/include
passed=0; failed=0
for h in $(cd "$inc" && find -L . -name '*.h' | sed 's|^\./||' | sort); do
  printf '#include <%s>\n#include <%s>\nint libwrap_header_test;\n' "$h" "$h" > t.c
  cp t.c t.cc
  for std in c99 c11 gnu17; do
    if ${CC:-cc} -std=$std -Wall -Wextra -Werror -I"$inc" -c t.c -o t.o 2>err.txt; then
      passed=$((passed + 1))
    else
      echo "FAIL: $h with -std=$std:"; cat err.txt; failed=$((failed + 1))
    fi
  done
  for std in c++11 c++17; do
    if ${CXX:-c++} -std=$std -Wall -Wextra -Werror -I"$inc" -c t.cc -o t.o 2>err.txt; then
      passed=$((passed + 1))
    else
      echo "FAIL: $h with -std=$std:"; cat err.txt; failed=$((failed + 1))
    fi
  done
done
[ "$passed" -gt 0 ] || { echo "FAIL: no public header found under $inc"; exit 1; }
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
