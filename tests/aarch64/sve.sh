#!/usr/bin/env bash
# sve.sh - a function whose arguments use SVE registers (the SVE vector
# PCS) is never forwarded at the ABI level on AArch64: libwrap-gen --target
# aarch64-linux-gnu leaves it out with its reason, and wraps the others of
# the same header.
source "$LIBWRAP_SOURCE_DIR/tests/aarch64/lib.sh"
gen=$LIBWRAP_STAGE/libexec/libwrap/libwrap-gen
cat > libwrap.h <<'H'
#include <arm_sve.h>
svint32_t sve_add(svbool_t pg, svint32_t a, svint32_t b);
svfloat64x2_t sve_pair(svfloat64_t a);
int plain_fn(int x);
H
aarch64-linux-gnu-gcc -march=armv8.2-a+sve -E libwrap.h > libwrap.i
"$gen" --quiet --name sve -x c --target $host -o gen libwrap.i 2> gen.err || { cat gen.err >&2; fail "libwrap-gen"; }
for f in sve_add sve_pair; do
    grep -q "^$f	.*SVE vector or predicate registers" gen/sve.skipped.txt ||
        fail "$f is not left out with its reason: $(cat gen/sve.skipped.txt)"
    ! grep -qx -- "--wrap=$f" gen/sve.wrap || fail "$f is wrapped at the ABI level"
done
grep -qx -- "--wrap=plain_fn" gen/sve.wrap || fail "plain_fn is not wrapped"
echo "ok: SVE functions left out of ABI-level wrappers with their reason"
