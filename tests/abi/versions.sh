#!/usr/bin/env bash
# versions.sh FORWARD (abi or typed)
#
# A symbol with two versions (versions/foo_new.c): foo@V1, the old sum that
# binaries linked against the old library (versions/foo_old.c, V1 only)
# still get, and the default foo@@V2. The wrappers are generated against
# the new library. app.c linked against the old library (it references
# foo@V1) and against the new one (foo@V2) runs against the new library
# unwrapped, under LD_PRELOAD of the runtime wrapper, and linked with the
# link-time wrapper (against the old and the new library): stdout, stderr
# and the exit status must be identical to the unwrapped run, and the
# visits in profile.json those of the version the program uses. baz is one
# function under three versions at one address (baz@V1, baz@@V2, baz@V3):
# only the version the program was linked against tells them apart, and
# both linkages name the one it uses.
set -euo pipefail

forward=$1
src=$LIBWRAP_SOURCE_DIR/tests/abi/versions
gen=$LIBWRAP_STAGE/libexec/libwrap/libwrap-gen
inc=$LIBWRAP_STAGE/include
rtlib=$LIBWRAP_STAGE/lib
TEST_LABEL="versions $forward"
source "$LIBWRAP_SOURCE_DIR/tests/lib.sh"
here=$PWD
cc=${CC:-cc}

mkdir -p old new
$cc -fPIC -shared -Wl,-soname,libfoo.so.1 -Wl,--version-script="$src/old.map" -o old/libfoo.so "$src/foo_old.c"
$cc -fPIC -shared -Wl,-soname,libfoo.so.1 -Wl,--version-script="$src/new.map" -o new/libfoo.so "$src/foo_new.c"
ln -sf libfoo.so old/libfoo.so.1
ln -sf libfoo.so new/libfoo.so.1
$cc -I"$src" -c "$src/app.c" -o app.o
$cc -o app_old app.o -Lold -lfoo
$cc -o app_new app.o -Lnew -lfoo
readelf --dyn-syms -W app_old | grep -q ' foo@V1' || fail "app_old does not reference foo@V1"
readelf --dyn-syms -W app_new | grep -q ' baz@V2' || fail "app_new does not reference baz@V2"

printf '#include "foo.h"\n' > libwrap.h
$cc -E -I"$src" libwrap.h > libwrap.i
"$gen" --quiet --name foo -x c --forward "$forward" --cppflags "-I$src" --ldflags "-L$here/new" \
    --libs -lfoo -o gen libwrap.i
grep -qx 'foo name=foo file=foo.h:[0-9]* ret=int (const int \*v, int n) \[versions=@V1,@@V2\]' \
    gen/foo.functions.txt || fail "the inventory does not list foo's versions: $(grep ^foo gen/foo.functions.txt)"
python3 - gen/foo.inventory.json <<'PY' || fail "NAME.inventory.json does not hold foo's versions"
import json, sys
fs = {f["symbol"]: f for f in json.load(open(sys.argv[1]))["functions"]}
assert fs["foo"]["versions"] == [{"version": "V1", "default": False}, {"version": "V2", "default": True}]
assert "versions" not in fs["bar"]
assert fs["baz"]["versions"] == [{"version": "V1", "default": False}, {"version": "V2", "default": True},
                                 {"version": "V3", "default": False}], fs["baz"]
PY
[ "$(grep -c -- --wrap=foo gen/foo.wrap)" = 1 ] || fail "foo.wrap must name foo once"

for mode in linktime runtime; do
    MODE=$(echo $mode | tr a-z A-Z)
    $cc -O2 -fPIC -Wall -Wextra -Werror -DLIBWRAP_$MODE -I"$inc" -I. -I"$src" -c gen/foo.wrappers.c -o $mode.o ||
        fail "the $mode wrappers do not compile under -Wall -Wextra -Werror"
done
rt=(-L"$rtlib" -llibwrap_runtime -Wl,-rpath,"$rtlib")
# With the interposers (exec, dl...), as the generated Makefile links it.
$cc -shared -o libwrap_foo_runtime.so runtime.o -Wl,--whole-archive "$rtlib/liblibwrap_exec.a" \
    -Wl,--no-whole-archive -Wl,--no-undefined -Wl,--version-script=gen/foo.versions "${rt[@]}" -ldl
readelf --dyn-syms -W libwrap_foo_runtime.so | grep -q ' foo@V1$' || fail "the runtime wrapper does not export foo@V1"
readelf --dyn-syms -W libwrap_foo_runtime.so | grep -q ' foo@@V2$' || fail "the runtime wrapper does not export foo@@V2"
! readelf --dyn-syms -W libwrap_foo_runtime.so | grep -q 'libwrap_x_' || fail "the runtime wrapper exports its local names"
rm -f libwrap_foo_linktime.a && ar rcs libwrap_foo_linktime.a linktime.o
for lib in old new; do
    $cc -o linked_$lib app.o -Wl,@gen/foo.wrap libwrap_foo_linktime.a -L$lib -lfoo "${rt[@]}" ||
        fail "the link-time wrapper does not link against the $lib library"
done
readelf --dyn-syms -W linked_old | grep -q ' foo@V1' || fail "linked against the old library, the program must reference foo@V1"
! readelf --dyn-syms -W linked_old | grep -q 'foo@V2' || fail "linked against the old library, the program references foo@V2"

# run NAME VERSION-SYMBOL BAZ-SYMBOL PROGRAM REFERENCE [VAR=VALUE...]: runs
# PROGRAM against the new library, compares its stdout, stderr (so no
# warning) and exit status with the unwrapped run REFERENCE, and checks the
# visits.
run() {
    local name=$1 vsym=$2 bsym=$3 bin=$4 ref=$5
    shift 5
    set +e
    env LD_LIBRARY_PATH="$here/new" LIBWRAP_EXPERIMENT_DIRECTORY="$here/exp_$name" "$@" ./$bin > $name.out 2> $name.err
    echo $? > $name.rc
    set -e
    for x in out err rc; do
        cmp -s $ref.$x $name.$x || fail "$name: $x differs from the unwrapped run: $(cat $name.$x)"
    done
    python3 - "$here/exp_$name/profile.json" "$vsym" "$bsym" <<'PY' || fail "$name: wrong visits in profile.json"
import json, sys
got = {f["symbol"]: int(f["visits"]) for f in json.load(open(sys.argv[1]))["functions"]}
want = {sys.argv[2]: 3, "bar": 2, sys.argv[3]: 1}
if got != want:
    sys.exit("visits %s, expected %s" % (got, want))
PY
}
for bin in app_old app_new; do
    set +e
    LD_LIBRARY_PATH="$here/new" ./$bin > $bin.out 2> $bin.err
    echo $? > $bin.rc
    set -e
done
grep -qx 'foo sum=303' app_old.out || fail "app_old against the new library: $(cat app_old.out), expected the V1 sum 303"
grep -qx 'foo sum=606' app_new.out || fail "app_new: $(cat app_new.out), expected the V2 sum 606"

run preload_old 'foo@V1' 'baz@V1' app_old app_old LD_PRELOAD="$here/libwrap_foo_runtime.so"
run preload_new 'foo@@V2' 'baz@@V2' app_new app_new LD_PRELOAD="$here/libwrap_foo_runtime.so"
run linked_old 'foo@V1' 'baz@V1' linked_old app_old
run linked_new 'foo@@V2' 'baz@@V2' linked_new app_new
# An argument rule naming the function without its version records every
# version's calls (pci_fill_info for pci_fill_info@@LIBPCI_3.8), no warning.
for v in old new; do
    run args_$v "$([ $v = old ] && echo 'foo@V1' || echo 'foo@@V2')" "$([ $v = old ] && echo 'baz@V1' || echo 'baz@@V2')" \
        app_$v app_$v LD_PRELOAD="$here/libwrap_foo_runtime.so" LIBWRAP_ARGUMENTS=foo:n
    python3 - "$here/exp_args_$v/profile.json" <<'PY' || fail "args_$v: foo's n not recorded"
import json, sys
fs = [f for f in json.load(open(sys.argv[1]))["functions"] if f["symbol"].startswith("foo@")]
args = [a for f in fs for a in f.get("arguments", []) if a["name"] == "n"]
if len(args) != 1 or int(args[0]["count"]) != 3:
    sys.exit("arguments of foo: %s" % [f.get("arguments") for f in fs])
PY
done

# A function of one version (bar@V1) called through pointers from dlvsym
# and dlsym: each call measured, under LD_PRELOAD and (ABI-level wrappers)
# at link time.
$cc -I"$src" -c "$src/dlv.c" -o dlv.o
$cc -o dlv_plain dlv.o -Lnew -lfoo -ldl
$cc -o dlv_linked dlv.o -Wl,@gen/foo.wrap libwrap_foo_linktime.a -Lnew -lfoo "${rt[@]}" -ldl
LD_LIBRARY_PATH="$here/new" ./dlv_plain > dlv_plain.out || fail "dlv: the unwrapped run failed"
hows=preload
[ "$forward" = abi ] && hows="preload linked"
for how in $hows; do
    exe=./dlv_plain env=(LD_PRELOAD="$here/libwrap_foo_runtime.so")
    [ $how = linked ] && exe=./dlv_linked env=()
    env LD_LIBRARY_PATH="$here/new" LIBWRAP_EXPERIMENT_DIRECTORY="$here/exp_dlv_$how" ${env[@]+"${env[@]}"} $exe \
        > dlv_$how.out 2> dlv_$how.err || fail "dlv ($how) failed: $(cat dlv_$how.err)"
    cmp -s dlv_plain.out dlv_$how.out && [ ! -s dlv_$how.err ] || fail "dlv ($how): output differs"
    python3 - "$here/exp_dlv_$how/profile.json" <<'PY' || fail "dlv ($how): bar's visits"
import json, sys
got = {f["symbol"]: int(f["visits"]) for f in json.load(open(sys.argv[1]))["functions"]}
if got.get("bar") != 6:
    sys.exit("bar %s, expected 6 (3 through dlvsym, 2 through dlsym, 1 direct)" % got.get("bar"))
PY
done
echo "ok $TEST_LABEL: foo@V1 and foo@@V2 measured in both linkages; bar through dlvsym and dlsym"
