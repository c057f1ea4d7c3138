#!/usr/bin/env bash
# The link prefix `libwrap` and `libwrap-info` against installed anchors:
# compile-only commands pass through untouched, the wrapper goes before the
# target library (or at the end), modes and LIBWRAP_PATH, and the messages for
# unknown wrappers and static-only targets.
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

# A compiler that prints its arguments, one per line.
cat > printargs <<'SH'
#!/bin/sh
for a in "$@"; do echo "$a"; done
SH
chmod +x printargs
cc=$scratch/printargs

# Two installed wrappers in a prefix named by LIBWRAP_PATH: foo (shared and
# static target), bar (static-only target).
p=$scratch/prefix
mkdir -p "$p/share/libwrap" "$p/lib"
cat > "$p/share/libwrap/foo.libwrap" <<A
name=foo
display_name=Foo library
language=c
ldflags=-L/opt/foo/lib
libs=-lfoo
target_shared=/opt/foo/lib/libfoo.so.1
target_static=
variants=linktime.so linktime.a runtime.so runtime.a
toolchain=$LIBWRAP_STAGE
A
cat > "$p/share/libwrap/bar.libwrap" <<A
name=bar
display_name=bar
language=c
ldflags=
libs=$scratch/libbar.a
target_shared=
target_static=$scratch/libbar.a
variants=linktime.a
toolchain=$LIBWRAP_STAGE
A
echo "foo was made by libwrap-init --name foo" > "$p/share/libwrap/foo.summary"
touch libbar.a
export LIBWRAP_PATH=/nonexistent:$p

step "compile-only commands are untouched"
for flag in -c -E -S -M -MM; do
    out=$(libwrap --libwrap=foo "$cc" "$flag" x.c -o x.o -lfoo)
    [ "$out" = "$(printf '%s\n' "$flag" x.c -o x.o -lfoo)" ] || fail "$flag: command changed: $out"
done

step "link-time: response file and wrapper before the first -lfoo"
out=$(libwrap --libwrap=linktime:foo "$cc" main.o -o app -L/opt/foo/lib -lfoo -lm -lfoo)
expected=$(printf '%s\n' main.o -o app -L/opt/foo/lib "-Wl,@$p/share/libwrap/foo.wrap" \
    "-Wl,$p/lib/libwrap_foo_linktime.so" "-Wl,-rpath,$p/lib" "-L$LIBWRAP_STAGE/lib" -llibwrap_runtime \
    "-Wl,-rpath,$LIBWRAP_STAGE/lib" -Wl,--push-state,--no-as-needed -lfoo -Wl,--pop-state -lm \
    -Wl,--push-state,--no-as-needed -lfoo -Wl,--pop-state)
[ "$out" = "$expected" ] || { diff <(echo "$expected") <(echo "$out") || true; fail "link-time line"; }

step "default mode is link-time; -static picks the archive"
out=$(libwrap --libwrap=foo "$cc" -static main.o -lfoo)
grep -qx -- "-Wl,$p/lib/libwrap_foo_linktime.a" <<< "$out" || fail "-static: no archive: $out"
grep -qx -- "-Wl,@$p/share/libwrap/foo.wrap" <<< "$out" || fail "default mode is not link-time"

step "-static and -static-pie: the wrapper's and the runtime's archives, the runtime whole"
for link in -static -static-pie; do
    out=$(libwrap --libwrap=foo "$cc" $link main.o -lfoo)
    expected=$(printf '%s\n' $link main.o "-Wl,@$p/share/libwrap/foo.wrap" "-Wl,$p/lib/libwrap_foo_linktime.a" \
        "-Wl,--whole-archive,$LIBWRAP_STAGE/lib/liblibwrap_runtime.a,--no-whole-archive" -lfoo)
    [ "$out" = "$expected" ] || { diff <(echo "$expected") <(echo "$out") || true; fail "$link line"; }
done
expect_fail e0.log "takes link-time wrappers only: use --libwrap=linktime:foo" libwrap --libwrap=runtime:foo "$cc" -static main.o -lfoo

step "-Wl,-Bstatic around the target: its archive wrapper, the shared runtime"
out=$(libwrap --libwrap=foo "$cc" main.o -Wl,-Bstatic -lfoo -Wl,-Bdynamic -lm)
expected=$(printf '%s\n' main.o -Wl,-Bstatic "-Wl,@$p/share/libwrap/foo.wrap" "-Wl,$p/lib/libwrap_foo_linktime.a" \
    -Wl,-Bdynamic "-L$LIBWRAP_STAGE/lib" -llibwrap_runtime "-Wl,-rpath,$LIBWRAP_STAGE/lib" -Wl,-Bstatic \
    -lfoo -Wl,-Bdynamic -lm)
[ "$out" = "$expected" ] || { diff <(echo "$expected") <(echo "$out") || true; fail "-Bstatic line"; }
out=$(libwrap --libwrap=foo "$cc" main.o -Wl,-Bstatic -lz -Wl,-Bdynamic -lfoo)
grep -qx -- "-Wl,$p/lib/libwrap_foo_linktime.so" <<< "$out" || fail "-Bdynamic again: not the shared wrapper: $out"

step "runtime mode: no response file, runtime wrapper"
out=$(libwrap --libwrap=runtime:foo "$cc" main.o -lfoo)
grep -q -- '\.wrap' <<< "$out" && fail "runtime mode added a response file: $out"
# The runtime wrapper stands for the library's functions wherever they are
# called from, the program's other libraries too: kept NEEDED under
# --as-needed though the program may reference none of them.
[ "$(echo "$out" | sed -n 2,4p | tr '\n' ' ')" = "-Wl,--push-state,--no-as-needed -Wl,$p/lib/libwrap_foo_runtime.so -Wl,--pop-state " ] ||
    fail "runtime wrapper not first before -lfoo, kept NEEDED: $out"
# The runtime wrapper does not depend on the target: the program keeps it,
# --as-needed or not (docs/wrappers.md).
[ "$(echo "$out" | tail -n 3 | tr '\n' ' ')" = "-Wl,--push-state,--no-as-needed -lfoo -Wl,--pop-state " ] ||
    fail "runtime mode: -lfoo not kept NEEDED: $out"
# Link-time mode too: the program's references are the wrapper's now
# (__wrap_), and without it --as-needed would drop the target from the
# program, behind libc in the lookup order (jemalloc's malloc lost).
out=$(libwrap --libwrap=foo "$cc" main.o -lfoo)
[ "$(echo "$out" | tail -n 3 | tr '\n' ' ')" = "-Wl,--push-state,--no-as-needed -lfoo -Wl,--pop-state " ] ||
    fail "link-time mode: -lfoo not kept NEEDED: $out"

step "the target as -Xlinker -lfoo, -l:libfoo.so.1, -Wl,-lfoo"
out=$(libwrap --libwrap=runtime:foo "$cc" main.o -Xlinker -lfoo -lm)
expected=$(printf '%s\n' main.o -Wl,--push-state,--no-as-needed "-Wl,$p/lib/libwrap_foo_runtime.so" -Wl,--pop-state \
    "-Wl,-rpath,$p/lib" "-L$LIBWRAP_STAGE/lib" \
    -llibwrap_runtime "-Wl,-rpath,$LIBWRAP_STAGE/lib" -Wl,--push-state,--no-as-needed -Xlinker -lfoo \
    -Wl,--pop-state -lm)
[ "$out" = "$expected" ] || { diff <(echo "$expected") <(echo "$out") || true; fail "-Xlinker -lfoo line"; }
for w in -l:libfoo.so.1 -Wl,-lfoo; do
    out=$(libwrap --libwrap=linktime:foo "$cc" main.o "$w" -lm)
    [ "$(echo "$out" | sed -n 2p)" = "-Wl,@$p/share/libwrap/foo.wrap" ] || fail "$w is not the target: $out"
    [ "$(echo "$out" | tail -n 4 | tr '\n' ' ')" = "-Wl,--push-state,--no-as-needed $w -Wl,--pop-state -lm " ] ||
        fail "$w: order: $out"
done

step "target named by path; static target; two wrappers"
out=$(libwrap --libwrap=linktime:foo,bar "$cc" main.o "$scratch/libbar.a" /opt/foo/lib/libfoo.so.1)
[ "$(echo "$out" | sed -n 2p)" = "-Wl,@$p/share/libwrap/foo.wrap" ] || fail "wrappers not before $scratch/libbar.a: $out"
grep -qx -- "-Wl,$p/lib/libwrap_bar_linktime.a" <<< "$out" || fail "static-only bar: no archive: $out"
[ "$(echo "$out" | grep -v -- '^-Wl,--p[ou][ps]' | tail -n 2 | head -n 1)" = "$scratch/libbar.a" ] || fail "order: $out"

step "no target on the line: appended at the end"
out=$(libwrap --libwrap=foo "$cc" main.o -o app)
[ "$(echo "$out" | sed -n 4p)" = "-Wl,@$p/share/libwrap/foo.wrap" ] || fail "not appended: $out"

step "help and libwrap-info"
grep -E -q '^ +foo +linktime.so' <<< "$(libwrap --libwrap=help)" || fail "--libwrap=help does not list foo"
grep -q '^bar ' <<< "$(libwrap-info list)" || fail "libwrap-info list"
[ "$(libwrap-info --list)" = "$(libwrap-info list)" ] || fail "--list differs from list"
touch "$p/lib/libwrap_foo_runtime.so"
[ "$(libwrap-info preload foo)" = "$p/lib/libwrap_foo_runtime.so" ] || fail "preload path"
[ "$(libwrap-info --preload foo)" = "$p/lib/libwrap_foo_runtime.so" ] || fail "preload path"
# Several names (blanks or commas): the paths joined by colons, as
# LD_PRELOAD takes them.
[ "$(libwrap-info preload foo foo,foo)" = "$p/lib/libwrap_foo_runtime.so:$p/lib/libwrap_foo_runtime.so:$p/lib/libwrap_foo_runtime.so" ] ||
    fail "preload of several names: $(libwrap-info preload foo foo,foo)"
grep -q 'libwrap-init --name foo' <<< "$(libwrap-info summary foo)" || fail "summary"
[ "$(libwrap-info --summary foo)" = "$(libwrap-info summary foo)" ] || fail "--summary"

step "errors"
expect_fail e1.log "no installed wrapper 'nope' in .*LIBWRAP_PATH" libwrap --libwrap=nope "$cc" main.o
expect_fail e2.log "has no runtime variant .*use --libwrap=linktime:bar" libwrap --libwrap=runtime:bar "$cc" main.o
expect_fail e3.log "unknown mode 'static'" libwrap --libwrap=static:foo "$cc" main.o
expect_fail e4.log "no --libwrap=NAME before the compiler" libwrap "$cc" main.o
expect_fail e5.log "runtime wrapper .* LD_PRELOAD cannot measure" libwrap-info preload bar
expect_fail e5b.log "wrapper 'bar' has no runtime wrapper" libwrap-info preload foo bar
expect_fail e6.log "unknown command 'frobnicate'" libwrap-info frobnicate
# No name at all (an empty variable): an error, not an empty LD_PRELOAD.
expect_fail e6b.log "preload: no wrapper NAME given" libwrap-info preload ""
expect_fail e6c.log "preload: no wrapper NAME given" libwrap-info preload " , "
expect_fail e7.log "no installed wrapper 'nope'" libwrap-info summary nope
echo PASS
