#!/usr/bin/env bash
# render.sh - `libwrap-gen render`, the template renderer that the emitters
# and libwrap-init share (docs/templates.md): placeholders, directives,
# pass-through of text that merely contains '@', and errors that name the
# template and line and leave no output.
set -euo pipefail

gen=$LIBWRAP_STAGE/libexec/libwrap/libwrap-gen
. "$LIBWRAP_SOURCE_DIR/tests/lib.sh"
mkdir -p tdir

# expect_status CODE OUT ERR COMMAND...
expect_status() {
    local code=$1 out=$2 err=$3 status=0
    shift 3
    "$@" > "$out" 2> "$err" || status=$?
    [ "$status" = "$code" ] || { cat "$err" >&2; fail "'$*' exited $status, expected $code"; }
}

cat > make.in <<'EOF'
# @NAME@ Makefile
all: lib@NAME@.so
	@echo "building $@ from $< for user@example.org"
	@@ @lower@ @NAME @1X@ @NAME@@NAME@
@if PREFIX@
prefix = @PREFIX@
@else@
prefix = /usr/local
@endif@
  @if !STATIC@
shared = yes
	@endif@
@if STATIC@
static = yes
@endif@
EOF
printf 'no newline at end: @NAME@' >> make.in

expect_status 0 out1 err1 "$gen" render make.in NAME=zlib PREFIX=/opt/z STATIC=
cat > expected1 <<'EOF'
# zlib Makefile
all: libzlib.so
	@echo "building $@ from $< for user@example.org"
	@@ @lower@ @NAME @1X@ zlibzlib
prefix = /opt/z
shared = yes
EOF
printf 'no newline at end: zlib' >> expected1
cmp expected1 out1 || { diff expected1 out1 >&2; fail "render output differs"; }

expect_status 0 out2 err2 "$gen" render make.in NAME=x PREFIX= STATIC=1
grep -qx 'prefix = /usr/local' out2 || fail "@else@ branch not taken for an empty value"
grep -qx 'static = yes' out2 || fail "@if STATIC@ not taken for a non-empty value"
if grep -q 'shared = yes' out2; then fail "@if !STATIC@ taken for a non-empty value"; fi

# An unknown variable is an error naming template:line, with no output.
expect_status 1 out3 err3 "$gen" render make.in NAME=zlib PREFIX=/opt
grep -q '^libwrap-gen: make.in:10: unknown variable STATIC' err3 ||
    { cat err3 >&2; fail "unknown variable: wrong message"; }
[ ! -s out3 ] || fail "a failed render wrote output"

# Unbalanced blocks, reported before any data is looked at.
printf 'a\n@if X@\nb\n@end@\n' > bad1.in
expect_status 1 out4 err4 "$gen" render bad1.in X=1
grep -q '^libwrap-gen: bad1.in:4: @end@ closes @if X@ of line 2: expected @endif@' err4 ||
    { cat err4 >&2; fail "mismatched block: wrong message"; }
printf '@foreach L@\nb\n' > bad2.in
expect_status 1 out5 err5 "$gen" render bad2.in
grep -q '^libwrap-gen: bad2.in:1: @foreach L@ is never closed' err5 ||
    { cat err5 >&2; fail "unclosed block: wrong message"; }
printf 'a\n@endif@\n' > bad3.in
expect_status 1 out6 err6 "$gen" render bad3.in
grep -q '^libwrap-gen: bad3.in:2: @endif@ without an open block' err6 ||
    { cat err6 >&2; fail "stray @endif@: wrong message"; }
# A scalar is not a list.
printf '@foreach L@\nb\n@end@\n' > bad4.in
expect_status 1 out7 err7 "$gen" render bad4.in L=1
grep -q 'L is not a list' err7 || { cat err7 >&2; fail "@foreach on a scalar: wrong message"; }

# Usage errors.
expect_status 2 out8 err8 "$gen" render make.in lower=1
expect_status 2 out9 err9 "$gen" render
expect_status 1 out10 err10 "$gen" render no-such-template NAME=x

# A bare name is looked up in the template directory, with or without .in.
printf 'hello @WHO@\n' > tdir/greet.in
expect_status 0 out11 err11 "$gen" render --templates tdir greet WHO=world
[ "$(cat out11)" = "hello world" ] || fail "--templates lookup: got '$(cat out11)'"
expect_status 0 out12 err12 "$gen" render --templates tdir greet.in WHO=you
[ "$(cat out12)" = "hello you" ] || fail "--templates lookup with .in: got '$(cat out12)'"
echo "ok render"
