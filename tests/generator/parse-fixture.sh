#!/bin/bash
# parse-fixture.sh FIXTURE.h [CC]: preprocesses a fixture header, runs
# `libwrap-gen --dump` on it and checks the expectations it carries:
#   // CHECK: LINE      LINE appears in the dump, exactly
#   // CHECK-NOT: TEXT  no dump line contains TEXT
#   // CHECK-SKIP: SYM REASON  the dump line of SYM says skip=REASON
#   // CHECK-WRAP: SYM NAME     SYM (source name NAME) is wrapped; for system
#                       headers, whose line numbers differ between systems
#   // ARGS: ...        extra libwrap-gen arguments
#   // CPPFLAGS: ...    preprocessor flags (relative to the fixture's folder),
#                       also passed as --cppflags
#   // EXIT: N          expected exit status of libwrap-gen (default 0)
#   // LANG: c++        a C++ fixture (preprocessed and compiled as C++)
# Every wrapped function (a dump line without " skip=") must have a CHECK
# line. Then the wrappers are generated and compiled in both linkages.
set -u
fixture=$1
cc=${2:-${CC:-cc}}
gen=${LIBWRAP_GEN:-$LIBWRAP_STAGE/libexec/libwrap/libwrap-gen}  # LIBWRAP_GEN: a sanitizer build
name=$(basename "$fixture" .h)
scratch=$LIBWRAP_SCRATCH
. "$LIBWRAP_SOURCE_DIR/tests/lib.sh"
dir=$(cd "$(dirname "$fixture")" && pwd)
src=$dir/$(basename "$fixture")

directive() { sed -n "s|^// $1: ||p" "$src"; }
cppflags=$(directive CPPFLAGS)
args=$(directive ARGS)
want_exit=$(directive EXIT); want_exit=${want_exit:-0}
if [ "$(directive LANG)" = c++ ]; then
    cc="$cc -x c++"
    args="-x c++ $args"
fi
fail=0

(cd "$dir" && eval "$cc -E $cppflags \"$src\"" > "$scratch/libwrap.i") || { echo "FAIL: $cc -E $src"; exit 1; }
(cd "$dir" && eval "\"$gen\" --name fixture --dump --forward typed --cppflags \"\$cppflags\" $args \"$scratch/libwrap.i\"") \
    > "$scratch/dump.txt" 2> "$scratch/stderr.txt"
rc=$?
if [ "$rc" != "$want_exit" ]; then
    echo "FAIL: libwrap-gen exited $rc, expected $want_exit"; cat "$scratch/stderr.txt"; exit 1
fi

directive CHECK > "$scratch/checks.txt"
while IFS= read -r line; do
    grep -qxF -- "$line" "$scratch/dump.txt" || { echo "FAIL: missing: $line"; fail=1; }
done < "$scratch/checks.txt"
while IFS= read -r text; do
    grep -F -- "$text" "$scratch/dump.txt" && { echo "FAIL: CHECK-NOT matched: $text"; fail=1; }
done < <(directive CHECK-NOT)
while read -r sym reason; do
    grep -q -- "^$sym .* skip=$reason\b" "$scratch/dump.txt" || { echo "FAIL: $sym is not skipped as $reason"; fail=1; }
done < <(directive CHECK-SKIP)
while read -r sym name; do
    grep -q -- "^$sym name=$name [^[]*)\( \[[^]]*\]\)\?$" "$scratch/dump.txt" || { echo "FAIL: $sym ($name) is not wrapped"; fail=1; }
done < <(directive CHECK-WRAP)
directive CHECK-WRAP | cut -d' ' -f1 > "$scratch/wrap-checks.txt"
while IFS= read -r line; do
    case $line in *" skip="*) continue ;; esac
    grep -qxF -- "$line" "$scratch/checks.txt" || grep -qxF -- "${line%% *}" "$scratch/wrap-checks.txt" \
        || { echo "FAIL: wrapped without a CHECK line: $line"; fail=1; }
done < "$scratch/dump.txt"
if [ $fail != 0 ]; then
    echo "--- dump:"; cat "$scratch/dump.txt"; exit 1
fi
[ "$want_exit" = 0 ] || exit 0

# The declarators must compile: generate the wrappers and build both modes.
(cd "$dir" && eval "\"$gen\" --name fixture --quiet -o \"$scratch/out\" --cppflags \"\$cppflags\" $args \"$scratch/libwrap.i\"") \
    || { echo "FAIL: generation"; exit 1; }
for mode in LINKTIME RUNTIME; do
    (cd "$dir" && eval "$cc -c -w -DLIBWRAP_$mode $cppflags -I\"$LIBWRAP_STAGE/include\" \
        \"$scratch/out/fixture.wrappers.c\" -o \"$scratch/wrappers-$mode.o\"") \
        || { echo "FAIL: fixture.wrappers.c does not compile with -DLIBWRAP_$mode"; exit 1; }
done
echo "ok: $(grep -c . "$scratch/checks.txt") checks, $(grep -vc ' skip=' "$scratch/dump.txt") wrapped"
