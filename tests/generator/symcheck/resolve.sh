#!/bin/bash
# generator_symcheck_resolve: link flags resolved into files the way GNU ld does.
. "$(dirname "$0")/lib.sh"

out=$("$DRIVER" split "-L'/a b' \"-Wl,-rpath,/c\" x\\ y ''")
expect "split: quotes and escapes" '^\[-L/a b\]$' "$out"
expect "split: double quotes" '^\[-Wl,-rpath,/c\]$' "$out"
expect "split: backslash" '^\[x y\]$' "$out"
expect "split: empty word" '^\[\]$' "$out"
out=$("$DRIVER" split "'open" 2>&1); rc=$?
expect "split: unterminated quote is an error" 'unterminated quote' "$out rc=$rc"
expect "split: unterminated quote fails" 'rc=1' "rc=$rc"

out=$("$DRIVER" resolve "" "-lz")
expect "-lz: the shared object" '/libz\.so[.0-9]* libz\.so\.1 shared$' "$out"
expect "-lz: not static-only" '^static-only no$' "$out"

out=$("$DRIVER" resolve "" "-lm")
expect "-lm: ld script -> libm.so.6" '/libm\.so\.6 libm\.so\.6 shared$' "$out"
expect "-lm: ld script AS_NEEDED -> libmvec" '/libmvec\.so\.1 libmvec\.so\.1 shared$' "$out"
reject "-lm: the script itself is not a library" '/libm\.so ' "$out"

out=$("$DRIVER" resolve "" "-l:libz.so.1")
expect "-l:libz.so.1: exact file name" 'libz\.so\.1 shared$' "$out"

if [ -e /usr/lib/x86_64-linux-gnu/libz.a ] || [ -e /usr/lib/libz.a ]; then
    out=$("$DRIVER" resolve "-static" "-lz")
    expect "-static -lz: the archive" '/libz\.a - static$' "$out"
    expect "-static -lz: static-only" '^static-only yes$' "$out"
    out=$("$DRIVER" resolve "-Wl,-Bstatic" "-lz -Wl,-Bdynamic -lm")
    expect "-Wl,-Bstatic then -Bdynamic: libz.a" '/libz\.a - static$' "$out"
    expect "-Wl,-Bstatic then -Bdynamic: libm.so.6" 'libm\.so\.6 shared$' "$out"
fi

# A private library: only the archive exists, then both, then an ld script.
mkdir -p "$S/only a" "$S/both" "$S/script"
printf 'int foo_fn(void) { return 1; }\n' > "$S/foo.c"
"$CC" -fPIC -c "$S/foo.c" -o "$S/foo.o"
ar rcs "$S/only a/libfoo.a" "$S/foo.o"
out=$("$DRIVER" resolve "-L'$S/only a'" "-lfoo")
expect "static-only library: the archive" "only a/libfoo\.a - static$" "$out"
expect "static-only library: static-only" '^static-only yes$' "$out"

"$CC" -shared "$S/foo.o" -o "$S/both/libfoo.so" -Wl,-soname,libfoo.so.7
ar rcs "$S/both/libfoo.a" "$S/foo.o"
out=$("$DRIVER" resolve "-L $S/both" "-lfoo")
expect "both: .so preferred" "both/libfoo\.so libfoo\.so\.7 shared$" "$out"
out=$("$DRIVER" resolve "-Wl,-L,$S/both -Wl,-rpath,/ignored -Wl,-Bstatic" "-lfoo")
expect "both with -Wl,-Bstatic: .a" "both/libfoo\.a - static$" "$out"
out=$("$DRIVER" resolve "-Xlinker -L -Xlinker $S/both -Xlinker -rpath -Xlinker /x -pthread" "-lfoo")
expect "-Xlinker pairs; other words ignored" "both/libfoo\.so libfoo\.so\.7 shared$" "$out"
out=$("$DRIVER" resolve "" "-L$S/only\\ a -L$S/both -lfoo")
expect "-L order: first dir wins" "only a/libfoo\.a - static$" "$out"
out=$("$DRIVER" resolve "" "$S/both/libfoo.so")
expect "plain path to a .so" "both/libfoo\.so libfoo\.so\.7 shared$" "$out"

cat > "$S/script/libbar.so" <<EOS
/* GNU ld script
   with a comment */
OUTPUT_FORMAT(elf64-x86-64)
GROUP ( $S/both/libfoo.so AS_NEEDED ( -lz ) )
INPUT(libbaz.a)
EOS
ar rcs "$S/script/libbaz.a" "$S/foo.o"
out=$("$DRIVER" resolve "-L$S/script" "-lbar")
expect "ld script: GROUP absolute path" "both/libfoo\.so libfoo\.so\.7 shared$" "$out"
expect "ld script: -lz inside AS_NEEDED" 'libz\.so\.1 shared$' "$out"
expect "ld script: INPUT relative to the script" "script/libbaz\.a - static$" "$out"

printf 'this is not a library\n' > "$S/script/libjunk.so"
out=$("$DRIVER" resolve "-L$S/script" "-ljunk" 2>&1); rc=$?
expect "junk .so: a clear error" 'libjunk\.so: neither ELF, nor an ar archive, nor a GNU ld script' "$out"
expect "junk .so: fails" '^1$' "$rc"

out=$("$DRIVER" resolve "-L/nonexistent/dir" "-lnosuchlib_libwrap" 2>&1); rc=$?
expect "missing library: names it and the dirs" \
    '^libwrap-gen: -lnosuchlib_libwrap: no libnosuchlib_libwrap\.so or libnosuchlib_libwrap\.a in -L dirs \(/nonexistent/dir\) or the system dirs \(/' "$out"
expect "missing library: fails" '^1$' "$rc"

out=$("$DRIVER" default)
expect "default: libc.so.6" 'libc\.so\.6 libc\.so\.6 shared$' "$out"
expect "default: libc_nonshared.a" 'libc_nonshared\.a - static$' "$out"
expect "default: the compiler runtime" 'libgcc' "$out"
reject "default: not libm" 'libm\.so' "$out"

finish
