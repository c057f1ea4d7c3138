#!/usr/bin/env bash
# The whole workflow on the ring example, as a new user runs it: init, make,
# make check, make install, make installcheck; then the link prefix in both
# modes and LD_PRELOAD of an unmodified program that also calls the library
# from a dlopen()ed module and whose library calls its own exported function.
# Bad input in the working directory (broken libwrap.h, main that does not
# link, a filter that leaves nothing, an unwritable prefix) must give a
# message saying what to do and leave the directory usable.
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

step "init (examples/ring/init.sh)"
run_ok init.log bash "$examples/ring/init.sh" "$scratch/b"
prefix=$scratch/b/prefix
export LIBWRAP_PATH=$prefix
cd b/wrap

step "make"
run_ok make.log make
cat make.log
grep -Eq '^  CCLD +main$' make.log || fail "no quiet CCLD main line"
grep -Eq '^  CC +ring\.linktime\.o$' make.log || fail "no quiet CC line"
grep -q 'ring' make.log && grep -Eq 'GEN.*ring' make.log || fail "no generator summary line"
grep -q -- '-fPIC' make.log && fail "quiet output shows commands"
for f in libwrap_ring_linktime.so libwrap_ring_linktime.a libwrap_ring_runtime.so libwrap_ring_runtime.a \
         ring.wrap ring.wrappers.c ring.inventory.json; do [ -f "$f" ] || fail "make did not build $f"; done
for s in ring_new ring_free ring_push ring_pop ring_push_all ring_size ring_sum; do
    grep -qx -- "--wrap=$s" ring.wrap || fail "$s is not wrapped"
done
# docs/wrappers.md: the runtime wrapper has no NEEDED on the target (it
# references none of its symbols), so that an LD_PRELOAD of it does not
# load the library into a program that does not use it.
readelf -d libwrap_ring_runtime.so | grep -q '(NEEDED).*\[libring\.so\]' &&
    fail "libwrap_ring_runtime.so has NEEDED on libring.so: $(readelf -d libwrap_ring_runtime.so | grep NEEDED)"
# docs/wrappers.md: the wrapper's table of its own functions is relocated
# without a symbol lookup each: no absolute relocation names a symbol the
# wrapper defines (the originals, undefined there, are looked up).
for so in libwrap_ring_runtime.so libwrap_ring_linktime.so; do
    own=$(readelf -rW $so | awk '$3 ~ /^R_(X86_64_64|AARCH64_ABS64)$/ && $4 !~ /^0+$/')
    [ -z "$own" ] || fail "$so relocates its table of wrappers by symbol: $own"
done
run_ok make2.log make
grep -q 'Nothing to be done\|is up to date' make2.log || { cat make2.log; fail "second make rebuilt something"; }
touch ring.wrappers.c
run_ok makev.log make V=1
grep -q -- '-DLIBWRAP_LINKTIME' makev.log || fail "V=1 does not show the commands"

step "make check"
run_ok check.log make check JOBS=2
cat check.log
[ -f missing.filter ] && [ -f uncertain.filter ] || fail "make check wrote no filters"
grep -q 'ring_' missing.filter && fail "make check calls an exported function MISSING"
run_ok afterchk.log make
grep -q 'GEN .*link probes of make check applied (0 verdicts changed)' afterchk.log ||
    { cat afterchk.log; fail "the next make did not use the probes' verdicts"; }
run_ok check2.log make check JOBS=2
run_ok afterchk2.log make
grep -q 'Nothing to be done\|is up to date' afterchk2.log || { cat afterchk2.log; fail "make check twice regenerated"; }
# A probe's verdict decides over the symbol tables': a function the probes
# call MISSING is left out by the next make, with the probe's reason.
cp check.cache check.cache.good
sed -i 's/^O ring_sum$/M ring_sum/' check.cache
run_ok afterforged.log make
grep -q 'GEN .*left out 1 MISSING .*link probes of make check applied (1 verdict changed)' afterforged.log ||
    { cat afterforged.log; fail "a MISSING verdict of the probes was not applied"; }
grep -q -- '--wrap=ring_sum$' ring.wrap && fail "ring_sum is wrapped though the probes found it MISSING"
grep -q '^ring_sum.*link probe' ring.skipped.txt || fail "ring_sum's reason is not the probe's"
cp check.cache.good check.cache
run_ok afterrestore.log make
grep -qx -- '--wrap=ring_sum' ring.wrap || fail "ring_sum is not wrapped again"
# A function declared after make check (a header added to libwrap.h) has
# no verdict in the cache: the symbol tables judge it, as without a cache
# (docs/symcheck.md); a function the library does not export is MISSING,
# not wrapped (its wrapper would not link).
cp libwrap.h libwrap.h.good
echo 'int ring_extra(int);' > extra.h
echo '#include "extra.h"' >> libwrap.h
run_ok afterextra.log make
grep -q 'GEN .*left out 1 MISSING .*link probes of make check applied (0 verdicts changed; 1 symbol without a verdict judged by the symbol tables: run make check)' afterextra.log ||
    { cat afterextra.log; fail "a function declared since make check was not judged by the symbol tables"; }
grep -q -- '--wrap=ring_extra$' ring.wrap && fail "ring_extra, which libring does not export, is wrapped"
cp libwrap.h.good libwrap.h
run_ok afterextra2.log make

step "make install, libwrap-info"
run_ok install.log make install
for f in lib/libwrap_ring_linktime.so lib/libwrap_ring_runtime.so lib/libwrap_ring_linktime.a \
         share/libwrap/ring.libwrap share/libwrap/ring.summary share/libwrap/ring.wrap \
         share/libwrap/ring.filter share/libwrap/ring.inventory.json; do
    [ -f "$prefix/$f" ] || fail "make install did not install $f"
done
grep -q '^ring ' <<< "$(libwrap-info list)" || fail "libwrap-info list does not show ring"
grep -q 'libwrap-init --name ring' <<< "$(libwrap-info summary ring)" || fail "summary lacks the init command"
[ "$(libwrap-info preload ring)" = "$prefix/lib/libwrap_ring_runtime.so" ] || fail "preload path"

run_ok summary.log make show-summary
grep -q 'init command: .*libwrap-init --name ring' summary.log && grep -q 'GEN *ring: 7 functions' summary.log \
    || { cat summary.log; fail "make show-summary"; }

step "make installcheck"
run_ok ic.log make installcheck
cat ic.log
grep -q 'OK .*linktime: 7 wrapped functions' ic.log || fail "installcheck linktime"
grep -q 'OK .*runtime: 7 wrapped functions' ic.log || fail "installcheck runtime"

# expected-profile.txt: SYMBOL LINKTIME RUNTIME
check_profile() {   # DIR COLUMN
    visits "$1" | sort > got.txt
    grep -v '^#' "$examples/ring/expected-profile.txt" | awk -v c="$2" '{ print $1, $c }' | sort > want.txt
    diff want.txt got.txt || fail "$1: visits differ from expected-profile.txt (column $2)"
}
check_profile installcheck/linktime 2
check_profile installcheck/runtime 3

step "link prefix, link-time and runtime"
src=$examples/ring
for mode in linktime runtime; do
    # --as-needed (Ubuntu's gcc's default): the program itself keeps the
    # target, as it does without the wrapper, in both modes: the runtime
    # wrapper does not load it (docs/wrappers.md), and the link-time one
    # has the program's references; dropped, the target would come after
    # libc in the lookup order (an allocator's malloc lost to libc's).
    run_ok "link-$mode.log" libwrap --libwrap=$mode:ring "$CC" -O2 -I"$src" "$src/main.c" -o main.$mode \
        -L"$scratch/b" -Wl,-rpath,"$scratch/b" -Wl,--as-needed -lring
    readelf -d main.$mode | grep -q '(NEEDED).*\[libring\.so\]' || fail "$mode: main has no NEEDED on libring.so"
    LIBWRAP_EXPERIMENT_DIRECTORY=$PWD/exp-$mode ./main.$mode > out.$mode
    cmp out.$mode installcheck/main.out || fail "$mode: output differs"
done
check_profile exp-linktime 2
check_profile exp-runtime 3
# The target in the other spellings gcc and ld read (two words, the
# linker's words, a response file holding main's object and naming another
# that holds the target): the runtime wrapper still comes before it, and
# every call is measured.
"$CC" -O2 -I"$src" -c "$src/main.c" -o main.o
printf '%s\n' main.o @ring.rsp > link.rsp
printf '%s\n' '-l "ring"' > ring.rsp
for spelling in "main.o -l ring" "main.o -Xlinker -l -Xlinker ring" "main.o -Wl,--library=ring" @link.rsp; do
    read -r -a w <<< "$spelling"
    run_ok link-sp.log libwrap --libwrap=runtime:ring "$CC" -o main.sp -L"$scratch/b" -Wl,-rpath,"$scratch/b" \
        -Wl,--as-needed "${w[@]}"
    rm -rf exp-sp
    LIBWRAP_EXPERIMENT_DIRECTORY=$PWD/exp-sp ./main.sp > out.sp 2> err.sp || fail "$spelling: main failed: $(cat err.sp)"
    cmp out.sp installcheck/main.out || fail "$spelling: output differs"
    [ -d exp-sp ] || fail "runtime wrapper after the target ('$spelling'): nothing measured: $(cat err.sp)"
    check_profile exp-sp 3
done
# -static, the target in two words: the wrapper's archive before the
# library's (after it, its references to the originals stay undefined).
run_ok link-static.log libwrap --libwrap=linktime:ring "$CC" -static main.o -o main.static -L"$scratch/b" -l ring
LIBWRAP_EXPERIMENT_DIRECTORY=$PWD/exp-static ./main.static > out.static
cmp out.static installcheck/main.out || fail "-static -l ring: output differs"
check_profile exp-static 2
# A target that no word names as libwrap reads them (a linker script
# that does): the wrapper goes at the end, after it, and the link says so.
printf 'INPUT(-lring)\n' > ring.ld
run_ok link-ld.log libwrap --libwrap=runtime:ring "$CC" main.o -o main.ld -L"$scratch/b" -Wl,-rpath,"$scratch/b" ring.ld
grep -q "^libwrap: warning: main.ld needs libring\.so.* before the wrapper libwrap_ring_runtime\.so" link-ld.log ||
    { cat link-ld.log; fail "a runtime wrapper linked after its target: no warning"; }
grep -q warning link-sp.log && { cat link-sp.log; fail "a warning where the wrapper comes first"; }
# A program that calls the library only through another library of its
# own: --as-needed keeps the runtime wrapper, which the program itself
# references nothing of, and the other library's calls are measured.
cat > helper.c <<'C'
#include "ring.h"
int helper_sum(void);
int helper_sum(void)
{
    ring *r = ring_new(2);
    ring_push(r, 4);
    int s = ring_sum(r);
    ring_free(r);
    return s;
}
C
printf '#include <stdio.h>\nint helper_sum(void);\nint main(void)\n{\n    printf("%%d\\n", helper_sum());\n    return 0;\n}\n' > via.c
"$CC" -O2 -fPIC -shared -I"$src" helper.c -o libhelper.so -L"$scratch/b" -lring
run_ok link-via.log libwrap --libwrap=runtime:ring "$CC" -O2 via.c -o via -Wl,--as-needed \
    -L"$scratch/b" -Wl,-rpath,"$scratch/b" -lring -L. -Wl,-rpath,"$PWD" -lhelper
readelf -d via | grep -q '(NEEDED).*libwrap_ring_runtime\.so' || fail "--as-needed dropped the runtime wrapper: $(readelf -d via | grep NEEDED)"
[ "$(LIBWRAP_EXPERIMENT_DIRECTORY=$PWD/exp-via ./via)" = 4 ] || fail "via: wrong output"
visits exp-via | sort > got.txt
printf '%s\n' 'ring_free 1' 'ring_new 1' 'ring_push 1' 'ring_sum 1' > want.txt
diff want.txt got.txt || fail "a library's calls under a runtime wrapper kept by --as-needed"

step "LD_PRELOAD: unmodified program, dlopen()ed module, the library's own calls"
app=$scratch/b/ring_app
"$app" "$scratch/b/ring_plugin.so" > app.out
LD_PRELOAD=$(libwrap-info preload ring) LIBWRAP_EXPERIMENT_DIRECTORY=$PWD/exp-app \
    "$app" "$scratch/b/ring_plugin.so" > app.wrapped.out
cmp app.out app.wrapped.out || fail "LD_PRELOAD changed the program's output"
visits exp-app | sort > got.txt
printf '%s\n' 'ring_free 1' 'ring_new 1' 'ring_push 13' 'ring_push_all 1' 'ring_size 1' 'ring_sum 1' > want.txt
diff want.txt got.txt || fail "LD_PRELOAD visits (ring_push: 3 from ring_push_all, 10 from the plugin)"

step "LD_PRELOAD: a program without the library loads nothing of it; one that loads it later is measured"
# grep reads its own mappings: the wrapper (libwrap_ring_runtime.so) but
# not libring.so, and it leaves no results.
LD_PRELOAD=$(libwrap-info preload ring) LIBWRAP_EXPERIMENT_DIRECTORY=$PWD/exp-none \
    grep -c '/libring\.so$' /proc/self/maps > none.out && fail "libring.so is mapped: $(cat none.out)"
[ "$(cat none.out)" = 0 ] || fail "grep under LD_PRELOAD printed $(cat none.out)"
[ -e exp-none ] && fail "a program that does not use the library left results"
# A program that does not link libring: it dlopen()s it and the plugin
# privately (RTLD_LOCAL, as Python loads extensions); the plugin's calls
# bind to the preloaded wrapper, whose originals are then found in the
# library where it is, at the first call.
cat > late.c <<'EOF'
#include <dlfcn.h>
#include <stdio.h>
int main(int argc, char **argv)
{
    (void)argc;
    /* Twice, closing both in between: the second round finds the library
     * where its originals are. */
    for (int round = 0; round < 2; round++) {
        void *lib = dlopen(argv[1], RTLD_NOW | RTLD_LOCAL), *plugin = dlopen(argv[2], RTLD_NOW | RTLD_LOCAL);
        if (!lib || !plugin)
            return fprintf(stderr, "late: %s\n", dlerror()), 1;
        void *(*new_)(size_t) = (void *(*)(size_t))dlsym(lib, "ring_new");
        void (*free_)(void *) = (void (*)(void *))dlsym(lib, "ring_free");
        int (*fill)(void *, int) = (int (*)(void *, int))dlsym(plugin, "ring_plugin_fill");
        void *r = new_ ? new_(16) : NULL;
        if (!r || !free_ || !fill)
            return fprintf(stderr, "late: no ring\n"), 1;
        printf("late: plugin filled %d\n", fill(r, 10));
        free_(r);
        dlclose(plugin);
        dlclose(lib);
    }
    return 0;
}
EOF
run_ok late-cc.log "$CC" -O2 -Wall -Werror late.c -o late -ldl
./late "$scratch/b/libring.so" "$scratch/b/ring_plugin.so" > late.out 2> late.err || fail "late: $(cat late.err)"
LD_PRELOAD=$(libwrap-info preload ring) LIBWRAP_EXPERIMENT_DIRECTORY=$PWD/exp-late LIBWRAP_VERBOSE=resolve \
    ./late "$scratch/b/libring.so" "$scratch/b/ring_plugin.so" > late.wrapped.out 2> late.wrapped.err ||
    fail "late under LD_PRELOAD: $(cat late.wrapped.err)"
cmp late.out late.wrapped.out || fail "LD_PRELOAD changed the output of a program that loads the library late"
grep -q 'libring.so is not loaded: its .* originals are looked up at its first call' late.wrapped.err ||
    fail "no lookup deferred: $(cat late.wrapped.err)"
visits exp-late | sort > got.txt
printf '%s\n' 'ring_free 2' 'ring_new 2' 'ring_push 20' > want.txt
diff want.txt got.txt || fail "visits of a library loaded after the wrapper"
# Calibrated before the library's calls (at its dlopen), and not at all
# in the program that does not use it.
grep -qx 'LIBWRAP_COMPENSATE=true' exp-late/config.txt || fail "late: not compensated: $(grep COMPENSATE exp-late/config.txt)"
# The same with typed wrappers (--forward typed), linked as the Makefile
# links runtime wrappers: each original is found at its own first call.
gen=$LIBWRAP_STAGE/libexec/libwrap/libwrap-gen
printf '#include "ring.h"\n' > ringt.h
"$CC" -E -I"$src" ringt.h > ringt.i
run_ok ringt-gen.log env CC="$CC" "$gen" --quiet --name ringt -x c --cppflags "-I$src" --ldflags "-L$scratch/b" \
    --libs -lring --forward typed -o gen-typed ringt.i
run_ok ringt-cc.log "$CC" -O2 -fPIC -Wall -Wextra -Werror -DLIBWRAP_RUNTIME -I"$LIBWRAP_STAGE/include" -I"$src" \
    -c gen-typed/ringt.wrappers.c -o ringt.o
run_ok ringt-ld.log "$CC" -shared -o libwrap_ringt_runtime.so ringt.o -Wl,--whole-archive \
    "$LIBWRAP_STAGE/lib/liblibwrap_exec.a" -Wl,--no-whole-archive -L"$scratch/b" -Wl,--as-needed -lring \
    -Wl,--no-as-needed -L"$LIBWRAP_STAGE/lib" -llibwrap_runtime -Wl,-rpath,"$LIBWRAP_STAGE/lib" -ldl
LD_PRELOAD=$PWD/libwrap_ringt_runtime.so LIBWRAP_EXPERIMENT_DIRECTORY=$PWD/exp-late-typed \
    ./late "$scratch/b/libring.so" "$scratch/b/ring_plugin.so" > late.typed.out 2> late.typed.err ||
    fail "late under the typed wrapper: $(cat late.typed.err)"
cmp late.out late.typed.out || fail "the typed wrapper changed the output of a program that loads the library late"
visits exp-late-typed | sort > got.txt
diff want.txt got.txt || fail "visits of a library loaded after its typed wrapper"
grep -qx 'LIBWRAP_COMPENSATE=true' exp-late-typed/config.txt || fail "late, typed: not compensated"
LD_PRELOAD=$(libwrap-info preload ring) LIBWRAP_VERBOSE=timer grep -c '/libring\.so$' /proc/self/maps \
    > none.out 2> none.err || true
grep -q 'compensation (' none.err && fail "a program that does not use the library calibrated: $(cat none.err)"

step "bad input leaves the directory usable"
cp libwrap.h libwrap.h.good; cp main.c main.c.good; cp ring.filter ring.filter.good
echo '#include <no_such_header.h>' >> libwrap.h
expect_fail bad1.log "libwrap.h does not preprocess: fix its #include lines" make
cp libwrap.h.good libwrap.h
echo 'void not_a_ring_function(void); int f(void) { not_a_ring_function(); return 0; }' >> main.c
expect_fail bad2.log "main does not build from main.c" make
cp main.c.good main.c
# A library main needs that is not the target (zlib): MAIN_LIBS, in
# local.mk, links main and the installcheck's programs with it, and
# nothing of it is wrapped.
sed 's/^int main(void)$/#include <zlib.h>\nint main(void)/; s/^    return 0;$/    printf("crc %lx\\n", crc32(0L, (const unsigned char *)"ring", 4));\n    return 0;/' \
    main.c.good > main.c
grep -q 'crc32' main.c || fail "the zlib variant of main.c was not made"
expect_fail bad5.log "main does not build from main.c" make
cp local.mk local.mk.good 2>/dev/null || : > local.mk.good
echo 'MAIN_LIBS = -lz' >> local.mk
run_ok mainlibs.log make
run_ok mainlibs-ic.log make installcheck
grep -q 'crc32' ring.functions.txt && fail "MAIN_LIBS made zlib a target"
cp main.c.good main.c
cp local.mk.good local.mk
printf 'LIBWRAP_REGION_NAMES_BEGIN\n  EXCLUDE *\nLIBWRAP_REGION_NAMES_END\n' > ring.filter
expect_fail bad3.log "nothing left to wrap|no function" make
cp ring.filter.good ring.filter
expect_fail bad4.log "cannot write to /proc/libwrap-nowhere/lib .*make install PREFIX=DIR" \
    make install PREFIX=/proc/libwrap-nowhere
run_ok again.log make
run_ok again-ic.log make installcheck

step "installcheck judges the run: a path not taken passes, a stderr difference fails"
# ring_sum is referenced by main.o but called only with an argument: the
# audit of the run tells it was not called, which is reported, not failed.
sed 's/printf("pushed %zu, size %zu, sum %d\\n", pushed, ring_size(r), ring_sum(r));/printf("pushed %zu, size %zu\\n", pushed, ring_size(r));\n    if (argc > 1)\n        printf("sum %d\\n", ring_sum(r));/; s/int main(void)/int main(int argc, char **argv)/; s/^{$/{\n    (void)argv;/' \
    main.c.good > main.c
grep -q 'if (argc > 1)' main.c || fail "the not-taken variant of main.c was not made"
run_ok nottaken.log make installcheck
grep -q 'OK .*linktime: 6 wrapped functions that main called' nottaken.log &&
    grep -q 'referenced by main but not called on this run: ring_sum' nottaken.log ||
    { cat nottaken.log; fail "a call on a path not taken"; }
# ring_sum called through its address as well as directly: the loader
# binds it at the start, not at a call, so the audit does not see it
# called; its visits do.
sed 's/^    ring_free(r);$/    int (*volatile sum_of)(const ring *) = ring_sum;\n    printf("sum again %d\\n", sum_of(r));\n    ring_free(r);/' \
    main.c.good > main.c
grep -q 'sum_of(r)' main.c || fail "the address-taken variant of main.c was not made"
run_ok address.log make installcheck
grep -q 'OK .*linktime: 7 wrapped functions that main called' address.log &&
    grep -q 'OK .*runtime: 7 wrapped functions that main called' address.log &&
    ! grep -q 'not called on this run' address.log ||
    { cat address.log; fail "a function called through its address too"; }
# A measured run that writes something else to stderr is a different run.
sed 's/^    ring_free(r);$/    ring_free(r);\n    if (getenv("LIBWRAP_EXPERIMENT_DIRECTORY"))\n        fputs("measured\\n", stderr);/; s/#include <stdio.h>/#include <stdio.h>\n#include <stdlib.h>/' \
    main.c.good > main.c
grep -q 'fputs("measured' main.c || fail "the stderr variant of main.c was not made"
expect_fail stderr.log "installcheck/main.linktime behaves differently from main: diff installcheck/main.err installcheck/main.linktime.err" \
    make installcheck
# A main that crashes unwrapped is no baseline, though every run of it
# crashes alike.
sed 's/^    ring_free(r);$/    ring_free(r);\n    *(volatile int *)0 = 1;/' main.c.good > main.c
grep -q 'volatile int' main.c || fail "the crashing variant of main.c was not made"
expect_fail crash.log "installcheck/main.status: main, run unwrapped, was killed by signal 11 \(Segmentation fault\): fix main.c" \
    make installcheck
# A main that calls nothing of the library (the template's) says so,
# though it leaves no results.
printf '#include <stdio.h>\n#include "ring.h"\nint main(void)\n{\n    puts("nothing");\n    return 0;\n}\n' > main.c
expect_fail none.log "make: error: main called none of the wrapped functions: add calls of the library to the main program" \
    make installcheck
# Calls made in a fork()ed child count in its results (fork-PID/); one
# that ends by _exit writes none: its calls are listed, not failed.
cat > main.c <<'C'
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

#include "ring.h"

int main(void)
{
    ring *r = ring_new(4);
    printf("size %zu\n", ring_size(r));
    fflush(stdout);
    pid_t child = fork();
    if (child == 0) {
        ring_push(r, 3);
        printf("child sum %d\n", ring_sum(r));
        fflush(stdout);
        if (getenv("RING_QUICK"))
            _exit(0);
        exit(0);
    }
    waitpid(child, NULL, 0);
    ring_free(r);
    return 0;
}
C
run_ok fork.log make installcheck
grep -q 'OK .*linktime: 5 wrapped functions that main called were measured' fork.log &&
    grep -q 'OK .*runtime: 5 wrapped functions that main called were measured' fork.log ||
    { cat fork.log; fail "calls of a fork()ed child"; }
run_ok forkexit.log env RING_QUICK=1 make installcheck
grep -q 'OK .*linktime: 3 wrapped functions that main called were measured' forkexit.log &&
    grep -q 'called in a fork()ed child that left no results (one that ends by _exit writes none): ring_push, ring_sum' forkexit.log ||
    { cat forkexit.log; fail "calls of a fork()ed child that ends by _exit"; }
cp main.c.good main.c
run_ok again2.log make

step "make clean"
run_ok clean.log make clean
for f in main libwrap.i ring.wrappers.c libwrap_ring_linktime.so installcheck; do
    [ ! -e "$f" ] || fail "make clean left $f"
done
[ -f libwrap.h ] && [ -f main.c ] && [ -f ring.filter ] || fail "make clean removed user files"

step "static-only target: link-time wrappers only"
cd "$scratch"
mkdir st && cp b/libring.a st/
run_ok st-init.log libwrap-init --name ringst -x c --cppflags "-I$src" --ldflags "-L$scratch/st" --libs -lring \
    --static-only-target-library --prefix "$scratch/stprefix" stw
cp "$src/libwrap.h" "$src/main.c" stw/
export LIBWRAP_PATH=$scratch/stprefix
run_ok st-make.log make -C stw all install installcheck
cat st-make.log
[ -f stw/libwrap_ringst_linktime.a ] && [ ! -e stw/libwrap_ringst_runtime.so ] || fail "static-only variants"
grep -q 'OK .*linktime' st-make.log || fail "static-only installcheck"
grep -q 'OK .*runtime' st-make.log && fail "static-only installcheck ran runtime mode"
echo PASS
