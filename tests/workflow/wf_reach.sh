#!/usr/bin/env bash
# Ways a call reaches the library besides a direct call, with the ring
# example's wrappers (tests/workflow/reach/):
#   - posix_spawn/posix_spawnp of a measured program with a cleaned
#     environment: the child is measured into <dir>.1, the parent goes on;
#   - a program (and Python's ctypes) that dlopen()s the library and calls
#     through dlsym(handle, ...), also with RTLD_DEEPBIND: every call counted,
#     under LD_PRELOAD and in link-time mode, ABI-level and typed wrappers;
#   - a module that links the library loaded with RTLD_DEEPBIND, and the
#     library loaded by dlmopen(LM_ID_NEWLM): one warning naming it;
#   - another library before the wrapper in symbol lookup (preloaded ahead
#     of it, or the target itself linked before it) that defines wrapped
#     functions: one warning naming it, the count and a function.
# Each run's stdout, stderr (less libwrap's lines) and status equal the
# unwrapped run's.
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
src=$examples/ring
app=$here/reach

step "ring wrapper: init, make, make install"
run_ok init.log bash "$src/init.sh" "$scratch/b"
export LIBWRAP_PATH=$scratch/b/prefix
run_ok make.log make -C b/wrap all install
lib=$scratch/b
preload=$(libwrap-info preload ring)
ring=(-I"$src" -L"$lib" -Wl,-rpath,"$lib" -lring)

# same NAME CMD...: runs CMD unwrapped (NAME.plain.*) and with WRAP (an env
# assignment list) set (NAME.*); stdout, stderr without libwrap's lines, and
# status must be equal. libwrap's lines are left in NAME.libwrap.
same() {
    local name=$1; shift
    local rc=0 prc=0
    "$@" > "$name.plain.out" 2> "$name.plain.err" || prc=$?
    env "${WRAP[@]}" "$@" > "$name.out" 2> "$name.err" || rc=$?
    grep '^libwrap: ' "$name.err" > "$name.libwrap" || true
    grep -v '^libwrap: ' "$name.err" > "$name.rest" || true
    [ "$rc" = "$prc" ] || { cat "$name.err"; fail "$name: status $rc, unwrapped $prc"; }
    diff "$name.plain.out" "$name.out" || fail "$name: stdout differs from the unwrapped run"
    diff "$name.plain.err" "$name.rest" || fail "$name: stderr differs from the unwrapped run"
}
# want DIR VISITS...: DIR's profile has exactly these "symbol visits".
want() {
    local dir=$1; shift
    [ -f "$dir/profile.json" ] || fail "no $dir/profile.json"
    visits "$dir" | sort > got.txt
    printf '%s\n' "$@" | sort > want.txt
    diff want.txt got.txt || fail "visits in $dir"
}

step "posix_spawn, posix_spawnp with a cleaned environment"
run_ok cc.log "$CC" -O2 "$app/spawn_app.c" -o spawn_app "${ring[@]}"
run_ok lt.log libwrap --libwrap=linktime:ring "$CC" -O2 "$app/spawn_app.c" -o spawn_app.lt "${ring[@]}"
for how in spawn spawnp; do
    for mode in preload linktime; do
        d=$PWD/exp-$how-$mode
        if [ $mode = preload ]; then exe=./spawn_app; WRAP=(LD_PRELOAD="$preload"); else exe=./spawn_app.lt; WRAP=(); fi
        WRAP+=(LIBWRAP_EXPERIMENT_DIRECTORY="$d")
        same $how-$mode "$exe" $how
        grep -q 'SPAWN_APP=given' $how-$mode.out || fail "$how-$mode: the child did not get its environment"
        want "$d" 'ring_free 2' 'ring_new 2' 'ring_push 3'
        want "$d.1" 'ring_free 1' 'ring_new 1' 'ring_push 3'
        [ ! -e "$d.2" ] || fail "$how-$mode: $d.2 exists"
        echo "ok: $how ($mode): parent in $d, child in $d.1"
    done
done
step "posix_spawn with LIBWRAP_VERBOSE=exec: the child's directory said once"
LD_PRELOAD=$preload LIBWRAP_VERBOSE=exec LIBWRAP_EXPERIMENT_DIRECTORY=$PWD/exp-say ./spawn_app spawn \
    > say.out 2> say.err || fail "spawn_app under LIBWRAP_VERBOSE=exec: $(cat say.err)"
[ "$(grep -c 'posix_spawn:' say.err)" = 1 ] && grep -qx \
    "libwrap: \[exec\] posix_spawn: the child measures into $PWD/exp-say.N, the first N free" say.err ||
    { cat say.err >&2; fail "LIBWRAP_VERBOSE=exec: not one line naming exp-say.N"; }
[ -d exp-say.1 ] || fail "no exp-say.1"

step "posix_spawn without LIBWRAP_EXPERIMENT_DIRECTORY: the child's directory beside the parent's"
mkdir default && (cd default && LD_PRELOAD=$preload ../spawn_app spawn > out.txt)
dirs=$(cd default && ls -d libwrap-*)
[ "$(echo "$dirs" | wc -l)" = 2 ] || fail "default directories: $dirs"
first=$(echo "$dirs" | head -1)
[ "$(echo "$dirs" | tail -1)" = "$first.1" ] || fail "default directories: $dirs"
want "default/$first" 'ring_free 2' 'ring_new 2' 'ring_push 3'
want "default/$first.1" 'ring_free 1' 'ring_new 1' 'ring_push 3'
echo "ok: $first and $first.1"

step "dlopen + dlsym(handle): every call measured"
thirteen=('ring_new 1' 'ring_push 10' 'ring_size 1' 'ring_free 1')
run_ok cc.log "$CC" -O2 "$app/dl_app.c" -o dl_app -ldl
for mode in plain deepbind; do
    WRAP=(LD_PRELOAD="$preload" LIBWRAP_EXPERIMENT_DIRECTORY=$PWD/exp-dl-$mode)
    same dl-$mode ./dl_app $mode "$lib/libring.so"
    [ ! -s dl-$mode.libwrap ] || { cat dl-$mode.libwrap; fail "dl-$mode: libwrap said something"; }
    want exp-dl-$mode "${thirteen[@]}"
    echo "ok: dlopen ($mode) + dlsym under LD_PRELOAD: 13 of 13 calls"
done
# Typed wrappers (--forward typed) answer too: they register their
# functions with the runtime at load.
run_ok init-typed.log bash "$src/init.sh" "$scratch/t"
run_ok make-typed.log make -C t/wrap GENFLAGS='--forward typed' all
grep -q 'libwrap_trampoline' t/wrap/ring.wrappers.c && fail "the typed wrappers are ABI-level ones"
for mode in plain deepbind; do
    WRAP=(LD_PRELOAD="$scratch/t/wrap/libwrap_ring_runtime.so" LIBWRAP_EXPERIMENT_DIRECTORY=$PWD/exp-dlt-$mode)
    same dlt-$mode ./dl_app $mode "$scratch/t/libring.so"
    [ ! -s dlt-$mode.libwrap ] || { cat dlt-$mode.libwrap; fail "dlt-$mode: libwrap said something"; }
    want exp-dlt-$mode "${thirteen[@]}"
    echo "ok: dlopen ($mode) + dlsym under LD_PRELOAD, typed wrappers: 13 of 13 calls"
done
run_ok lt.log libwrap --libwrap=linktime:ring "$CC" -O2 "$app/dl_app.c" -o dl_app.lt -ldl "${ring[@]}"
WRAP=(LIBWRAP_EXPERIMENT_DIRECTORY=$PWD/exp-dl-linktime)
same dl-linktime ./dl_app.lt plain "$lib/libring.so"
want exp-dl-linktime "${thirteen[@]}"
echo "ok: dlopen + dlsym in link-time mode: 13 of 13 calls"
# Typed link-time wrappers register their functions too.
grep -q 'libwrap_register_all' t/wrap/ring.wrappers.c || fail "the typed link-time wrappers register nothing"
run_ok make-typed-install.log make -C t/wrap GENFLAGS='--forward typed' install
LIBWRAP_PATH=$scratch/t/prefix run_ok ltt.log libwrap --libwrap=linktime:ring "$CC" -O2 "$app/dl_app.c" -o dl_app.ltt -ldl \
    -I"$src" -L"$scratch/t" -Wl,-rpath,"$scratch/t" -lring
ldd dl_app.ltt > ltt.ldd
grep -q "$scratch/t/prefix/lib/libwrap_ring_linktime.so" ltt.ldd || fail "dl_app.ltt is not linked with the typed link-time wrapper"
for mode in plain deepbind; do
    WRAP=(LIBWRAP_EXPERIMENT_DIRECTORY=$PWD/exp-dlt-linktime-$mode)
    same dlt-linktime-$mode ./dl_app.ltt $mode "$scratch/t/libring.so"
    [ ! -s dlt-linktime-$mode.libwrap ] || { cat dlt-linktime-$mode.libwrap; fail "dlt-linktime-$mode: libwrap said something"; }
    want exp-dlt-linktime-$mode "${thirteen[@]}"
    echo "ok: dlopen ($mode) + dlsym in link-time mode, typed wrappers: 13 of 13 calls"
done

step "Python's ctypes"
cat > ctypes_app.py <<PY
import ctypes, sys
r = ctypes.CDLL(sys.argv[1])
r.ring_new.restype = ctypes.c_void_p
r.ring_size.restype = ctypes.c_size_t
h = ctypes.c_void_p(r.ring_new(16))
for i in range(10):
    r.ring_push(h, i)
print("ctypes: size", r.ring_size(h))
r.ring_free(h)
PY
WRAP=(LD_PRELOAD="$preload" LIBWRAP_EXPERIMENT_DIRECTORY=$PWD/exp-ctypes)
same ctypes python3 ctypes_app.py "$lib/libring.so"
want exp-ctypes "${thirteen[@]}"
echo "ok: ctypes: 13 of 13 calls"

step "a library without a soname, loaded by the program itself"
# Built without -Wl,-soname: the wrapper knows it by its path, and the
# program's dlopen of it (by that path) finds the wrapper's target.
mkdir -p ns && $CC -O2 -fPIC -shared -I"$src" "$src/ring.c" -o ns/libring.so
readelf -d ns/libring.so | grep -q SONAME && fail "ns/libring.so has a soname"
run_ok init-ns.log libwrap-init --name ringns -x c --cppflags "-I$src" --ldflags "-L$PWD/ns -Wl,-rpath,$PWD/ns" \
    --libs -lring --prefix "$PWD/ns/prefix" ns/wrap
cp "$src/libwrap.h" "$src/main.c" ns/wrap/
run_ok make-ns.log make -C ns/wrap all install
WRAP=(LD_PRELOAD="$(LIBWRAP_PATH=$PWD/ns/prefix libwrap-info preload ringns)" LIBWRAP_EXPERIMENT_DIRECTORY=$PWD/exp-ns)
same ns ./dl_app plain "$PWD/ns/libring.so"
[ ! -s ns.libwrap ] || fail "ns: libwrap said something: $(cat ns.libwrap)"
want exp-ns "${thirteen[@]}"
echo "ok: a library without a soname, loaded with dlopen: 13 of 13 calls"

step "a probe (dlsym(RTLD_DEFAULT)) before the program loads the library"
# Under the preloaded wrapper the probe finds the wrapper's definition; its
# call loads the library by its soname along the wrapper's run path (the
# -Wl,-rpath of libwrap-init), as the wrapper once loaded it itself.
LD_PRELOAD="$preload" LIBWRAP_EXPERIMENT_DIRECTORY=$PWD/exp-probe ./dl_app probe "$lib/libring.so" > probe.out 2> probe.err ||
    fail "probe: $(cat probe.err)"
[ "$(sed -n 1p probe.out)" = "probe: works" ] && [ "$(sed -n 2p probe.out)" = "probe again: works" ] ||
    fail "probe: the probe's call did not load the library: $(cat probe.out probe.err)"
[ ! -s probe.err ] || fail "probe: $(cat probe.err)"
want exp-probe 'ring_new 3' 'ring_push 10' 'ring_size 1' 'ring_free 3'
# Where the run path does not find it either, the probe's call fails (one
# warning); once the program loads the library by its path, its calls
# through dlsym and through the probe's pointer are measured.
mkdir -p away && mv "$lib/libring.so" away/
LD_PRELOAD="$preload" LIBWRAP_EXPERIMENT_DIRECTORY=$PWD/exp-probe-away ./dl_app probe "$PWD/away/libring.so" \
    > probe-away.out 2> probe-away.err || { mv away/libring.so "$lib/"; fail "probe (away): $(cat probe-away.err)"; }
mv away/libring.so "$lib/"
printf '%s\n' 'probe: fails' 'probe again: works' 'plain: size 10' > want.out
diff want.out probe-away.out || fail "probe (away): output"
[ "$(wc -l < probe-away.err)" = 1 ] && grep -q 'cannot find the original ring_new in libring.so' probe-away.err ||
    fail "probe (away): not the one warning: $(cat probe-away.err)"
want exp-probe-away 'ring_new 2' 'ring_push 10' 'ring_size 1' 'ring_free 2'
echo "ok: a probe's call loads the library along the wrapper's run path; a library loaded later is measured"

step "a module linked with the link-time wrapper, loaded under the preloaded one: measured once"
run_ok cc.log libwrap --libwrap=linktime:ring "$CC" -O2 -shared -fPIC "$app/dl_module.c" -o dl_module_lt.so "${ring[@]}"
for mode in modplain module; do
    WRAP=(LD_PRELOAD="$preload" LIBWRAP_EXPERIMENT_DIRECTORY=$PWD/exp-lt-$mode)
    same lt-$mode ./dl_app $mode "$PWD/dl_module_lt.so"
    [ ! -s lt-$mode.libwrap ] || fail "lt-$mode: libwrap said something: $(cat lt-$mode.libwrap)"
    want exp-lt-$mode 'ring_new 1' 'ring_push 2' 'ring_sum 1' 'ring_free 1'
done
# A program linked with the link-time wrapper under the preloaded one:
# each function one row (the two wrappers' registrations are one
# function's), every call counted once.
run_ok cc.log libwrap --libwrap=linktime:ring "$CC" -O2 "$app/both_app.c" -o both_app "${ring[@]}" -ldl
WRAP=(LD_PRELOAD="$preload" LIBWRAP_EXPERIMENT_DIRECTORY=$PWD/exp-both)
same both ./both_app
want exp-both 'ring_new 1' 'ring_push 5' 'ring_sum 1' 'ring_free 1'
echo "ok: a module linked with the link-time wrapper: each call once, RTLD_DEEPBIND or not, no warning"

step "RTLD_DEEPBIND module linking the library, dlmopen: one warning each"
run_ok cc.log "$CC" -O2 -shared -fPIC "$app/dl_module.c" -o dl_module.so "${ring[@]}"
WRAP=(LD_PRELOAD="$preload" LIBWRAP_EXPERIMENT_DIRECTORY=$PWD/exp-module)
same module ./dl_app module "$PWD/dl_module.so"
cat module.libwrap
[ "$(wc -l < module.libwrap)" = 1 ] && grep -q 'dl_module.so was loaded with RTLD_DEEPBIND.*libring.so.*not measured' module.libwrap \
    || fail "module: no single warning naming the module"
# Two such modules: one warning each, each naming its module.
cp dl_module.so dl_module2.so
WRAP=(LD_PRELOAD="$preload" LIBWRAP_EXPERIMENT_DIRECTORY=$PWD/exp-modules)
same modules ./dl_app module "$PWD/dl_module.so" "$PWD/dl_module2.so"
[ "$(wc -l < modules.libwrap)" = 2 ] && grep -q '/dl_module.so was loaded with RTLD_DEEPBIND.*libring.so' modules.libwrap &&
    grep -q '/dl_module2.so was loaded with RTLD_DEEPBIND.*libring.so' modules.libwrap ||
    fail "modules: not one warning a module: $(cat modules.libwrap)"
WRAP=(LD_PRELOAD="$preload" LIBWRAP_EXPERIMENT_DIRECTORY=$PWD/exp-dlmopen)
same dlmopen ./dl_app dlmopen "$lib/libring.so"
cat dlmopen.libwrap
[ "$(wc -l < dlmopen.libwrap)" = 1 ] && grep -q 'libring.so.*dlmopen.*not measured' dlmopen.libwrap \
    || fail "dlmopen: no single warning naming the library"

step "an object before the wrapper in symbol lookup: one warning"
cat > shadow.c <<'C'
#include <stddef.h>
typedef struct ring ring;
size_t ring_size(const ring *r) { (void)r; return 42; }
C
run_ok cc.log "$CC" -O2 -shared -fPIC shadow.c -o libshadow.so
cat > size_app.c <<'C'
#include <stdio.h>
#include "ring.h"
int main(void)
{
    ring *r = ring_new(8);
    for (int i = 0; i < 3; i++)
        ring_push(r, i);
    printf("size %zu\n", ring_size(r));
    ring_free(r);
    return 0;
}
C
run_ok cc.log "$CC" -O2 size_app.c -o size_app "${ring[@]}"
LD_PRELOAD=$PWD/libshadow.so ./size_app > shadowed.out
grep -qx 'size 42' shadowed.out || fail "libshadow.so does not define ring_size first: $(cat shadowed.out)"
# Ahead of the wrapper: ring_size is not measured, and the warning says so.
# shadowed NAME PRELOAD: size_app under PRELOAD prints what it prints
# under libshadow.so alone; libwrap's lines in NAME.libwrap.
shadowed() {
    LD_PRELOAD="$2" LIBWRAP_EXPERIMENT_DIRECTORY=$PWD/exp-$1 ./size_app > $1.out 2> $1.err ||
        fail "$1: size_app failed: $(cat $1.err)"
    cmp -s shadowed.out $1.out || fail "$1: stdout differs: $(cat $1.out)"
    grep '^libwrap: ' $1.err > $1.libwrap || true
    ! grep -v '^libwrap: ' $1.err || fail "$1: stderr"
}
shadowed shadow "$PWD/libshadow.so $preload"
cat shadow.libwrap
[ "$(wc -l < shadow.libwrap)" = 1 ] &&
    grep -q 'libshadow.so comes before the wrapper libwrap_ring_runtime.so in symbol lookup and defines 1 of its [0-9]* functions (ring_size).*measured only where it passes them on.*libwrap-info preload ring) libshadow.so' shadow.libwrap ||
    fail "shadow: no single warning naming libshadow.so and ring_size"
want exp-shadow 'ring_free 1' 'ring_new 1' 'ring_push 3'
# A process that does not load the library (a shell, a CGI script under a
# measured server) says nothing of it.
LD_PRELOAD="$PWD/libshadow.so $preload" LIBWRAP_EXPERIMENT_DIRECTORY=$PWD/exp-true /bin/true 2> true.err ||
    fail "/bin/true failed"
[ ! -s true.err ] || fail "a process that does not load the library: $(cat true.err)"
# One that loads it after main began (dlopen of a module that links it, as
# Python imports zlib): the warning comes then.
cat > size_module.c <<'C'
#include "ring.h"
size_t module_size(void)
{
    ring *r = ring_new(8);
    ring_push(r, 1);
    size_t n = ring_size(r);
    ring_free(r);
    return n;
}
C
cat > size_host.c <<'C'
#include <dlfcn.h>
#include <stdio.h>
int main(int argc, char **argv)
{
    void *h = dlopen(argv[1], RTLD_NOW);
    size_t (*f)(void) = h ? (size_t (*)(void))dlsym(h, "module_size") : NULL;
    if (!f)
        return 1;
    printf("size %zu\n", f());
    return 0;
}
C
run_ok cc.log "$CC" -O2 -shared -fPIC size_module.c -o size_module.so "${ring[@]}"
run_ok cc.log "$CC" -O2 size_host.c -o size_host -ldl
LD_PRELOAD="$PWD/libshadow.so $preload" LIBWRAP_EXPERIMENT_DIRECTORY=$PWD/exp-late-shadow ./size_host "$PWD/size_module.so" \
    > late-shadow.out 2> late-shadow.err || fail "late shadow: status $?"
grep -qx 'size 42' late-shadow.out || fail "late shadow: libshadow.so does not come first: $(cat late-shadow.out)"
[ "$(wc -l < late-shadow.err)" = 1 ] && grep -q 'libshadow.so comes before the wrapper libwrap_ring_runtime.so' late-shadow.err ||
    fail "late shadow: not the one warning: $(cat late-shadow.err)"
# Behind it: measured, and passed on to libshadow.so's (the next definition).
shadowed shadow-after "$preload $PWD/libshadow.so"
[ ! -s shadow-after.libwrap ] || { cat shadow-after.libwrap; fail "shadow-after: libwrap said something"; }
want exp-shadow-after 'ring_free 1' 'ring_new 1' 'ring_push 3' 'ring_size 1'
# The runtime wrapper linked after its target: the target comes first.
run_ok cc.log "$CC" -O2 size_app.c -o size_app.late "${ring[@]}" -L"$LIBWRAP_PATH/lib" -Wl,-rpath,"$LIBWRAP_PATH/lib" \
    -Wl,--no-as-needed -lwrap_ring_runtime
./size_app > late.plain.out
LIBWRAP_EXPERIMENT_DIRECTORY=$PWD/exp-late ./size_app.late > late.out 2> late.err || fail "late: failed: $(cat late.err)"
cmp -s late.plain.out late.out || fail "late: stdout differs: $(cat late.out)"
cat late.err
[ "$(wc -l < late.err)" = 1 ] &&
    grep -q '^libwrap: warning: libring.so comes before the wrapper libwrap_ring_runtime.so in symbol lookup and defines \([0-9]*\) of its \1 functions.*libwrap --libwrap=ring cc' late.err ||
    fail "late: no single warning naming libring.so and all the wrapper's functions"
echo "ok: an object before the wrapper: one warning"
echo PASS
