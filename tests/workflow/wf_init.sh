#!/usr/bin/env bash
# libwrap-init on good and bad input: the files it writes, the link line it
# prints, --update, and a message that says what is wrong and what to do for
# an unknown flag, a missing library, -l in --ldflags, a bad name or
# language, an initialised directory, a static-only target and
# --from-compile-commands; flags with # and quotes, a prefix with a blank,
# a broken libwrap.h under the template main.c, local.mk and main.
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

step "a C working directory"
run_ok init.log libwrap-init --name zlib -x c --display-name 'zlib (compression)' --libs -lz w
for f in libwrap.h main.c zlib.filter Makefile README.md; do [ -f "w/$f" ] || fail "w/$f not written"; done
grep -q 'shared library: .*libz\.so' init.log || fail "the shared object behind -lz is not named"
grep -q "libwrap --libwrap=linktime:zlib .* -lz" init.log || fail "no ready link line"
grep -q 'LD_PRELOAD=' init.log || fail "no LD_PRELOAD hint"
grep -q '^LIBS *= -lz$' w/Makefile || fail "LIBS not recorded"
grep -q "^LIBWRAP_TOOLCHAIN = $LIBWRAP_STAGE\$" w/Makefile || fail "toolchain prefix not recorded"
grep -q '^DISPLAY_NAME *= zlib (compression)$' w/Makefile || fail "display name"
grep -q '#include <zlib.h>' w/libwrap.h || fail "libwrap.h"
# Only a header that exists is guessed: the gmp library's is gmp.h without
# the lib prefix; a name with no header of its own gets a comment.
run_ok gmp.log libwrap-init --name libgmp -x c --libs -lgmp wg
grep -qx '#include <gmp.h>' wg/libwrap.h || { cat wg/libwrap.h; fail "libgmp: gmp.h not guessed"; }
run_ok nohdr.log libwrap-init --name libm -x c --libs -lm wm
grep -q '^#include' wm/libwrap.h && { cat wm/libwrap.h; fail "libm: a header that does not exist was guessed"; }
grep -q 'found no <libm.h> on the include path' wm/libwrap.h || fail "libm: no comment saying what to write"
# A header that is there but does not preprocess on its own (as pcre2.h
# without PCRE2_CODE_UNIT_WIDTH) is included below the compiler's error,
# with one warning saying what to add.
mkdir -p inc
printf '#ifndef WIDTH\n#error WIDTH must be defined before including width.h\n#endif\nint width_f(int);\n' > inc/width.h
libwrap-init --name width -x c --cppflags "-I$PWD/inc" --libs -lz ww > width.log 2>&1 || { cat width.log; fail "width: init failed"; }
grep -q 'warning: <width.h> is on the include path but does not preprocess on its own: .*#error WIDTH must be defined before including width.h' width.log ||
    { cat width.log; fail "width: no warning that the header does not preprocess on its own"; }
grep -qx '#include <width.h>' ww/libwrap.h && grep -q '#error WIDTH must be defined' ww/libwrap.h ||
    { cat ww/libwrap.h; fail "width: the header and its error are not in libwrap.h"; }
# A header that may not be included directly, whose error names the one to
# include (GLib's gobject/gobject.h: "Only <glib-object.h> can be included
# directly."): libwrap.h includes that one, and init says so.
mkdir -p inc/only
printf '#ifndef ONLY_INSIDE\n#error "Only <only-all.h> can be included directly."\n#endif\nint only_f(int);\n' > inc/only/only.h
printf '#define ONLY_INSIDE\n#include <only/only.h>\n' > inc/only-all.h
libwrap-init --name only -x c --cppflags "-I$PWD/inc" --libs -lz wo > only.log 2>&1 || { cat only.log; fail "only: init failed"; }
grep -q '<only/only.h> is not included directly (.*Only <only-all.h> can be included directly.*): libwrap.h includes <only-all.h>' only.log &&
    grep -qx '#include <only-all.h>' wo/libwrap.h && ! grep -q 'warning' only.log ||
    { cat only.log wo/libwrap.h; fail "only: libwrap.h does not include the header the error names"; }
grep -q '@' w/Makefile && grep -nE '@[A-Z_]+@' w/Makefile && fail "unrendered placeholder"
# README explains the messages it must explain
for topic in 'main does not build' 'libwrap.h does not preprocess' 'MISSING' 'UNCERTAIN' \
             'nothing left to wrap' 'make install fails' 'installcheck fails'; do
    grep -qi -- "$topic" w/README.md || fail "README.md does not explain '$topic'"
done

step "a broken libwrap.h under the template main.c (which includes it)"
# main is built first, and the template main.c includes libwrap.h: the
# message is libwrap.h's, not main's.
cp w/libwrap.h w/libwrap.h.good
for bad in '#include <no_such_header.h>' '#error libwrap.h broken on purpose' '#include "libwrap.h"'; do
    cp w/libwrap.h.good w/libwrap.h
    echo "$bad" >> w/libwrap.h
    expect_fail brokenh.log "make: error: libwrap.h does not preprocess: fix its #include lines" make -C w
    grep -q 'main does not build' brokenh.log && { cat brokenh.log; fail "a broken libwrap.h ($bad) is reported as main's"; }
done
cp w/libwrap.h.good w/libwrap.h

step "local.mk: a change there links main again"
run_ok main1.log make -C w main
echo 'MAIN_LIBS = -lno_such_lib_libwrap' > w/local.mk
expect_fail mainlibs.log "make: error: main does not build from main.c" make -C w main
rm w/local.mk
run_ok main2.log make -C w main

step "flags with # and \$, quotes, a prefix with a blank"
# '#' would start a make comment: -DB=2 after it was lost.
run_ok hash.log libwrap-init --name zlib -x c --display-name 'zlib #1' --cppflags '-DA=1 -DHASH=#x -DB=2 -DD=$x' --libs -lz wh
run_ok hash-make.log make -C wh V=1 main zlib.libwrap
grep -q -- '-DA=1 -DHASH=#x -DB=2 -DD=\$x main.c' hash-make.log || { cat hash-make.log; fail "flags after a # were lost"; }
grep -qx 'display_name=zlib #1' wh/zlib.libwrap || { cat wh/zlib.libwrap; fail "display name with a #"; }
# An unterminated quote in --cppflags is refused before anything is made,
# as in --libs and --ldflags.
expect_fail q1.log "libwrap-init: error: --cppflags: unterminated quote in \"-I'/tmp\": close it or remove it" \
    libwrap-init --name zlib -x c --cppflags "-I'/tmp" --libs -lz dq1
expect_fail q2.log "libwrap-init: error: --ldflags: unterminated quote in \"-L\"/tmp\": close it or remove it" \
    libwrap-init --name zlib -x c --ldflags '-L"/tmp' dq2
# A quoted -I with a blank finds the library's header.
mkdir -p 'inc dir' && echo 'int qq_f(void);' > 'inc dir/qq.h'
run_ok qq.log libwrap-init --name qq -x c --cppflags "-I'$scratch/inc dir'" --libs -lz wq
grep -qx '#include <qq.h>' wq/libwrap.h || { cat wq/libwrap.h; fail "a quoted -I was not searched for the header"; }
# A prefix with a blank (or a colon) cannot be preloaded or searched: refused
# at init and by make install and make installcheck, before anything is made.
expect_fail sp1.log "--prefix '$scratch/has space/p' holds a blank or a colon, which LD_PRELOAD and LIBWRAP_PATH take as separators" \
    libwrap-init --name zlib -x c --libs -lz --prefix "$scratch/has space/p" dsp
expect_fail sp2.log "--prefix '$scratch/a:b' holds a blank or a colon" libwrap-init --name zlib -x c --libs -lz --prefix "$scratch/a:b" dsp
for t in install installcheck; do
    expect_fail "sp-$t.log" "make: error: PREFIX '$scratch/has space/p' holds a blank or a colon" make -C w "$t" PREFIX="$scratch/has space/p"
done
[ ! -e "$scratch/has space" ] && [ ! -e "$scratch/has" ] && [ ! -e w/space ] || fail "make install with a blank in PREFIX made folders"
[ ! -e w/zlib.wrappers.c ] || fail "make install with a bad PREFIX built the wrappers first"
for d in dq1 dq2 dsp; do [ ! -e "$d" ] || fail "a refused init left $d behind"; done

step "refuses an initialised directory; --update keeps user files"
echo '/* mine */' >> w/main.c
echo '# mine' >> w/zlib.filter
expect_fail again.log "already initialised .*--update" libwrap-init --name zlib -x c --libs -lz w
run_ok update.log libwrap-init --name zlib -x c --libs '-lz -lm' --update w
grep -q 'mine' w/main.c && grep -q 'mine' w/zlib.filter || fail "--update changed user files"
grep -q '^LIBS *= -lz -lm$' w/Makefile || fail "--update did not rewrite the Makefile"
# --update takes the settings the Makefile records for the options not
# given (libwrap-init's own hints: --update --libs, --update --prefix), and
# says the whole setting in INIT_COMMAND.
run_ok u0.log libwrap-init --name zlib -x c99 --display-name 'Z #1' --cppflags "-DA=1 -I'$scratch/inc dir' -DH=#x" \
    --ldflags -L/usr/lib --libs -lz --prefix "$scratch/up" wu
cp wu/Makefile wu/Makefile.0
run_ok u1.log libwrap-init --update --libs '-lz -lm' wu
diff <(grep -Ev '^(LIBS|TARGET_SHARED|INIT_COMMAND) ' wu/Makefile.0) <(grep -Ev '^(LIBS|TARGET_SHARED|INIT_COMMAND) ' wu/Makefile) ||
    fail "--update --libs changed other settings"
grep -q '^LIBS *= -lz -lm$' wu/Makefile || fail "--update --libs did not change LIBS"
(cd wu && run_ok ../u2.log libwrap-init --update --prefix "$scratch/up2")
grep -qx "PREFIX *= $scratch/up2" wu/Makefile && grep -q '^LIBS *= -lz -lm$' wu/Makefile &&
    [ "$(sed -n 's/^CPPFLAGS *= //p' wu/Makefile)" = "-DA=1 -I'$scratch/inc dir' -DH=\\#x" ] ||
    { grep -E '^(PREFIX|LIBS|CPPFLAGS) ' wu/Makefile; fail "--update --prefix DIR (in DIR) lost a setting"; }
grep -q "^INIT_COMMAND *= .*libwrap-init --name zlib -x c99 --display-name Z.*--cppflags .*--libs -lz.*-lm --prefix $scratch/up2 --update \.$" wu/Makefile ||
    { grep INIT_COMMAND wu/Makefile; fail "INIT_COMMAND after --update"; }
run_ok u3.log libwrap-init --update --cppflags '' wu
grep -qx 'CPPFLAGS *= ' wu/Makefile && grep -q '^STD *= c99$' wu/Makefile || fail "--update --cppflags '' did not clear CPPFLAGS alone"

step "C++, -x c++17, and the default directory"
mkdir cxx && (cd cxx && run_ok ../cxx.log libwrap-init --name tx -x c++17 --libs -lstdc++)
[ -f cxx/main.cc ] && [ ! -f cxx/main.c ] || fail "C++ gets main.cc"
grep -q '^STD *= c++17$' cxx/Makefile && grep -q '^MAIN_SRC *= main.cc$' cxx/Makefile || fail "C++ Makefile"

step "bad input"
expect_fail e1.log "unknown option '--frobnicate'" libwrap-init --name x -x c --frobnicate d1
expect_fail e2.log "libwrap-init: error: -lnosuchlib: no libnosuchlib.so or libnosuchlib.a in -L dirs.*add -L DIR" \
    libwrap-init --name x -x c --libs -lnosuchlib d2
expect_fail e3.log "--ldflags holds the library '-lz': libraries belong in --libs" \
    libwrap-init --name x -x c --ldflags '-L/usr/lib -lz' d3
expect_fail e3b.log "--ldflags holds the library '-Wl,--as-needed,-lz': libraries belong in --libs \(for example --libs '-lz'\)" \
    libwrap-init --name x -x c --ldflags '-Wl,--as-needed,-lz' d3b
expect_fail e3c.log "for example --libs '-lz'" libwrap-init --name x -x c --ldflags '-Wl,--library=z' d3c
expect_fail e3d.log "for example --libs '-lz'" libwrap-init --name x -x c --ldflags '-Wl,-l,z' d3d
expect_fail e4.log "--name '1x' is not a C identifier" libwrap-init --name 1x -x c d4
expect_fail e5.log "-x 'fortran': expected c, c\+\+" libwrap-init --name x -x fortran d5
expect_fail e7.log "-x 'c\+\+26': expected c, c\+\+" libwrap-init --name x -x c++26 d7
expect_fail e6.log "--name NAME is required" libwrap-init -x c d6
expect_fail e8.log "--name is empty" libwrap-init --name '' -x c d8
echo 'not a directory' > afile
expect_fail e9.log "afile is a file, not a directory" libwrap-init --name zlib -x c --libs -lz afile
expect_fail e10.log "cannot create directory afile/sub: afile is a file, not a directory" libwrap-init --name zlib -x c --libs -lz afile/sub
[ "$(cat afile)" = 'not a directory' ] || fail "init changed a file named as DIR"
for d in d1 d2 d3 d4 d5 d6 d7 d8; do [ ! -e "$d" ] || fail "a failed init left $d behind"; done

step "init and the generator agree on every flag form"
# One resolver (libwrap-gen resolve) and one language check (libwrap-gen
# language) for init, generation and the symbol check.
gen=$LIBWRAP_STAGE/libexec/libwrap/libwrap-gen
mkdir -p fl && cp "$(readlink -f /usr/lib/x86_64-linux-gnu/libz.so)" fl/libzz.so
forms=("-Wl,-L$scratch/fl|-lzz" "-L'$scratch/fl'|-lzz" "-L$scratch/fl|-Wl,--library=zz" \
       "-L $scratch/fl|-l zz" "|$scratch/fl/libzz.so" "-L$scratch/fl|-l:libzz.so")
k=0
for form in "${forms[@]}"; do
    k=$((k + 1)); ld=${form%%|*} lb=${form#*|}
    run_ok "form$k.log" libwrap-init --name zz -x c --ldflags "$ld" --libs "$lb" "f$k"
    grep -q "shared library: $scratch/fl/libzz.so" "form$k.log" || { cat "form$k.log"; fail "init: --ldflags $ld --libs $lb"; }
    "$gen" resolve --ldflags "$ld" --libs "$lb" | grep -q "$scratch/fl/libzz.so" || fail "generator: --ldflags $ld --libs $lb"
done
for l in c9x gnu++2a c++1z; do
    run_ok "lang-$l.log" libwrap-init --name zlib -x "$l" --libs -lz "l-$l"
    "$gen" language "$l" > /dev/null || fail "the generator refuses -x $l, which init accepted"
done
"$gen" language c++26 2> /dev/null && fail "the generator accepts -x c++26, which init refuses"
echo "ok: ${#forms[@]} flag forms and 3 language spellings agree"

step "an unwritable prefix is reported at init"
run_ok pw.log libwrap-init --name zlib -x c --libs -lz --prefix /proc/libwrap-nowhere pw
grep -q "warning: the prefix /proc/libwrap-nowhere is not writable .*make install will fail" pw.log || { cat pw.log; fail "unwritable prefix"; }
[ -f pw/Makefile ] || fail "the warning stopped init"

step "static-only target"
mkdir -p ring && make -s -C ring -f "$examples/ring/Makefile" O=. libring.a > /dev/null
run_ok st.log libwrap-init --name ring -x c --cppflags "-I$examples/ring" --ldflags "-L$scratch/ring" --libs -lring st
grep -q 'only static archives were found .*libring.a.*link-time wrappers only' st.log || { cat st.log; fail "static-only not reported"; }
grep -q '^STATIC_ONLY *= 1$' st/Makefile || fail "static-only not recorded"
grep -q 'LD_PRELOAD=' st.log && fail "static-only target offered LD_PRELOAD"
run_ok st2.log libwrap-init --name ring -x c --ldflags "-L$scratch/ring" --libs -lring --static-only-target-library st2
grep -q 'warning' st2.log && { cat st2.log; fail "confirmed static-only still warns"; }

step "--from-compile-commands"
mkdir -p proj/src
cat > proj/compile_commands.json <<JSON
[ { "directory": "$scratch/proj", "file": "src/a.c",
    "command": "cc -Iinclude -I/opt/x/include -DFOO=1 -std=c11 -O2 -c src/a.c -o a.o" },
  { "directory": "$scratch/proj", "file": "src/b.c",
    "arguments": ["cc", "-I", "include", "-DBAR", "-isystem", "/opt/y", "-c", "src/b.c"] } ]
JSON
run_ok cc.log libwrap-init --name p -x c --from-compile-commands proj/compile_commands.json --libs -lz pc
grep -q "^CPPFLAGS *= -I$scratch/proj/include -I/opt/x/include -DFOO=1 -DBAR -isystem /opt/y\$" pc/Makefile \
    || { grep CPPFLAGS pc/Makefile; fail "flags from compile_commands.json"; }
echo '{' > bad.json
expect_fail e7.log "bad.json: not a compile_commands.json" libwrap-init --name p -x c --from-compile-commands bad.json --libs -lz pd
echo PASS
