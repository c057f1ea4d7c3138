#!/usr/bin/env bash
# The link prefix `libwrap` and `libwrap-info` against installed anchors:
# compile-only commands pass through untouched, the wrapper goes before the
# target library (or at the end), modes and LIBWRAP_PATH, and the messages for
# unknown wrappers and static-only targets.
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

# A compiler that prints its arguments, one per line; a response file @FILE
# as @FILE{, its lines, }.
cat > printargs <<'SH'
#!/bin/sh
for a in "$@"; do
    case $a in @?*) [ -f "${a#@}" ] && { echo "$a{"; cat "${a#@}"; echo "}"; continue; } ;; esac
    echo "$a"
done
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
for link in -static -static-pie --static --static-pie; do
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

step "a target archive of LTO objects linked with -flto: one warning after the link"
# Real objects: gcc -flto writes IR (.gnu.lto_ sections), gcc-ar the archive.
if command -v gcc > /dev/null && command -v gcc-ar > /dev/null; then
    mkdir -p lto && echo 'int bar_fn(int x) { return x + 1; }' > lto/bar.c && echo 'int main(void) { return 0; }' > lto/m.c
    gcc -O2 -flto -c lto/bar.c -o lto/bar.o && gcc -O2 -flto -c lto/m.c -o lto/m-ir.o && gcc -O2 -c lto/m.c -o lto/m.o ||
        fail "compiling the LTO objects"
    cp libbar.a libbar.a.plain && rm -f libbar.a && gcc-ar rcs libbar.a lto/bar.o || fail "gcc-ar"
    lto_warn="^libwrap: warning: $scratch/libbar.a holds link-time-optimisation objects, and app is linked with -flto: .* calls of bar from its -flto objects are not measured; link the program with -fno-lto and an archive built with -ffat-lto-objects, or with the shared library"
    for line in "-flto lto/m.o" "lto/m-ir.o" "-flto=auto -O2 lto/m.o" "-fno-lto -flto lto/m.o" "-static -flto lto/m.o"; do
        libwrap --libwrap=linktime:bar "$cc" $line -o app "$scratch/libbar.a" > lto.out 2> lto.err || fail "$line: the link failed"
        [ "$(wc -l < lto.err)" = 1 ] && grep -q -- "$lto_warn" lto.err || fail "$line: not the one warning: $(cat lto.err)"
    done
    for line in "lto/m.o" "-flto -fno-lto lto/m-ir.o"; do
        libwrap --libwrap=linktime:bar "$cc" $line -o app "$scratch/libbar.a" > lto.out 2> lto.err || fail "$line: the link failed"
        [ ! -s lto.err ] || fail "$line (no LTO): a warning: $(cat lto.err)"
    done
    # An archive of ordinary objects: nothing to say.
    mv libbar.a.plain libbar.a
    libwrap --libwrap=linktime:bar "$cc" -flto lto/m-ir.o -o app "$scratch/libbar.a" > lto.out 2> lto.err || fail "the link failed"
    [ ! -s lto.err ] || fail "an ordinary archive: a warning: $(cat lto.err)"
else
    echo "no gcc and gcc-ar: the LTO warning is not tried"
fi

step "a target known by its file, named -lNAME on the line: the wrappers before it"
out=$(libwrap --libwrap=linktime:bar "$cc" main.o -L"$scratch" -lbar -lm)
[ "$(echo "$out" | sed -n 2,3p)" = "$(printf '%s\n' "-L$scratch" "-Wl,@$p/share/libwrap/bar.wrap")" ] &&
    [ "$(echo "$out" | grep -v -- '^-Wl,--p[ou][ps]' | grep -n -x -- -lbar | cut -d: -f1)" -gt \
      "$(echo "$out" | grep -n -x -- "-Wl,$p/lib/libwrap_bar_linktime.a" | cut -d: -f1)" ] ||
    fail "-lbar: the wrapper archive not before it: $out"

step "no target on the line: appended at the end"
out=$(libwrap --libwrap=foo "$cc" main.o -o app)
[ "$(echo "$out" | sed -n 4p)" = "-Wl,@$p/share/libwrap/foo.wrap" ] || fail "not appended: $out"

step "the target in two words, in the linker's words: the wrappers before the first"
# What goes before the target in link-time mode, up to the pushed state.
before=("-Wl,@$p/share/libwrap/foo.wrap" "-Wl,$p/lib/libwrap_foo_linktime.so" "-Wl,-rpath,$p/lib" \
    "-L$LIBWRAP_STAGE/lib" -llibwrap_runtime "-Wl,-rpath,$LIBWRAP_STAGE/lib" -Wl,--push-state,--no-as-needed)
for spelling in "-l foo" "-Wl,-l,foo" "-Wl,--library=foo" "-Wl,--library,foo" "-Wl,-l -Wl,foo" \
                "-Xlinker -l -Xlinker foo" "-Xlinker --library=foo" "--for-linker=-lfoo" "--for-linker -lfoo"; do
    read -r -a w <<< "$spelling"
    out=$(libwrap --libwrap=linktime:foo "$cc" main.o "${w[@]}" -lm)
    expected=$(printf '%s\n' main.o "${before[@]}" "${w[@]}" -Wl,--pop-state -lm)
    [ "$out" = "$expected" ] || { diff <(echo "$expected") <(echo "$out") || true; fail "'$spelling' is not read as the target"; }
done
# -static with the target in two words: the wrapper's archive before it.
out=$(libwrap --libwrap=foo "$cc" -static main.o -l foo)
expected=$(printf '%s\n' -static main.o "-Wl,@$p/share/libwrap/foo.wrap" "-Wl,$p/lib/libwrap_foo_linktime.a" \
    "-Wl,--whole-archive,$LIBWRAP_STAGE/lib/liblibwrap_runtime.a,--no-whole-archive" -l foo)
[ "$out" = "$expected" ] || { diff <(echo "$expected") <(echo "$out") || true; fail "-static -l foo line"; }

step "response files (@FILE, as gcc reads them): the target, -c, -static inside"
export TMPDIR=$scratch/tmp
mkdir -p "$TMPDIR"
# A quoted word with a blank, the target in two quoted words, from a
# response file named in another one.
printf '%s\n' "'my obj.o' -l \"foo\"" > inner.rsp
printf '%s\n' '@inner.rsp' > outer.rsp
# The words of the new response file, as buildargv reads them back.
for rsp in inner.rsp outer.rsp; do
    out=$(libwrap --libwrap=linktime:foo "$cc" main.o "@$rsp" -lm | sed 's|^@'"$TMPDIR"'/libwrap\.[A-Za-z0-9]*{$|@TMP{|')
    expected=$(printf '%s\n' main.o '@TMP{' 'my\ obj.o' "${before[@]}" -l foo -Wl,--pop-state '}' -lm)
    [ "$out" = "$expected" ] || { diff <(echo "$expected") <(echo "$out") || true; fail "@$rsp: the target inside is not read"; }
done
[ -z "$(ls "$TMPDIR")" ] || fail "libwrap left its response files: $(ls "$TMPDIR")"
# One without the target stays as it is.
printf 'a.o b.o\n' > objs.rsp
out=$(libwrap --libwrap=linktime:foo "$cc" @objs.rsp -lfoo)
[ "$(echo "$out" | head -n 3 | tr "\n" " ")" = "@objs.rsp{ a.o b.o } " ] || fail "@objs.rsp changed: $out"
printf -- '-c\n' > compile.rsp
out=$(libwrap --libwrap=foo "$cc" @compile.rsp x.c -o x.o -lfoo)
[ "$out" = "$(printf '%s\n' '@compile.rsp{' -c '}' x.c -o x.o -lfoo)" ] || fail "-c in a response file: command changed: $out"
printf -- '-static\n' > static.rsp
out=$(libwrap --libwrap=foo "$cc" @static.rsp main.o -lfoo)
grep -qx -- "-Wl,$p/lib/libwrap_foo_linktime.a" <<< "$out" &&
    grep -qx -- "-Wl,--whole-archive,$LIBWRAP_STAGE/lib/liblibwrap_runtime.a,--no-whole-archive" <<< "$out" ||
    fail "-static in a response file: not the archives: $out"
unset TMPDIR

step "the machine the command's flags choose (-m32): refused in one line"
if [ "$(uname -m)" = x86_64 ]; then
    # As gcc does: -dumpmachine ignores -m32, -print-multiarch follows it.
    cat > m32cc <<'SH'
#!/bin/sh
m=x86_64-linux-gnu
for a in "$@"; do case $a in -m32) m=i386-linux-gnu ;; esac; done
for a in "$@"; do
    case $a in
        -dumpmachine) echo x86_64-linux-gnu; exit 0 ;;
        -print-multiarch) echo $m; exit 0 ;;
    esac
done
echo linked
SH
    chmod +x m32cc
    printf -- '-m32\n' > m32.rsp
    for flags in -m32 @m32.rsp "-m32 -static"; do
        read -r -a w <<< "$flags"
        expect_fail m32.log "^libwrap: error: wrapper 'foo' is for this machine \(x86_64\), but .*m32cc -m32 compiles for i386-linux-gnu: link the program for x86_64 \(without -m32\)" \
            libwrap --libwrap=foo "$scratch/m32cc" "${w[@]}" main.o -lfoo
        [ "$(wc -l < m32.log)" = 1 ] || { cat m32.log; fail "$flags: more than one line"; }
    done
    [ "$(libwrap --libwrap=foo "$scratch/m32cc" -m64 main.o -lfoo)" = linked ] || fail "-m64 refused"
    # The real compilers, where they compile for i386 with -m32 (clang
    # needs no multilib to say so).
    for real in gcc clang; do
        command -v $real > /dev/null || continue
        case "$($real -m32 -print-multiarch 2>/dev/null) $($real -m32 -dumpmachine 2>/dev/null)" in *i?86-*) ;; *) continue ;; esac
        expect_fail m32-$real.log "^libwrap: error: wrapper 'foo' is for this machine \(x86_64\), but $real -m32 compiles for i[3-6]86-" \
            libwrap --libwrap=foo $real -m32 main.o -lfoo
        [ "$(wc -l < m32-$real.log)" = 1 ] || { cat m32-$real.log; fail "$real -m32: more than one line"; }
    done
fi

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
