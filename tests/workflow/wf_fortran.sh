#!/usr/bin/env bash
# A Fortran-ABI library (docs/workflow.md, Fortran libraries): make names the
# header that declares the exported Fortran procedures libwrap.h leaves out,
# or says that none does; a CHARACTER argument selected with
# LIBWRAP_ARGUMENTS is refused with its reason, never read as a C string.
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
command -v gfortran > /dev/null || { echo "SKIP: no gfortran"; exit 77; }
cp -r "$here/fortran" src
src=$scratch/src
gfortran -O2 -fPIC -shared "$src/fdemo.f90" -o libfdemo.so
export LIBWRAP_PATH=$scratch/prefix
run_ok init.log libwrap-init --name fdemo -x c --cppflags "-I$src" \
    --ldflags "-L$scratch -Wl,-rpath,$scratch" --libs -lfdemo --prefix "$scratch/prefix" w
cd w
echo '#include "fdemo.h"' > libwrap.h
printf '#include "fdemo.h"\nint main(void) { return fdemo_version() == 3 ? 0 : 1; }\n' > main.c

step "make names the header of the undeclared Fortran procedures"
run_ok make.log make
cat make.log
grep -q "warning: libfdemo.so exports 2 Fortran-ABI functions (fnoproto_, fscale_) that libwrap.h does not declare: they are not measured; $src/fdemo_f77.h declares 1 of them: add #include <fdemo_f77.h> to libwrap.h" make.log \
    || fail "no warning naming fdemo_f77.h"

step "with the header: the rest exist without a C prototype"
echo '#include "fdemo_f77.h"' >> libwrap.h
run_ok make2.log make
cat make2.log
# fdemo_x.h declares fnoproto_ but conflicts with fdemo_f77.h: named as
# such, with its error, never as the header to add.
grep -q "warning: libfdemo.so exports 1 Fortran-ABI function (fnoproto_) that libwrap.h does not declare: it is not measured; $src/fdemo_x.h declares 1 of them, but does not compile after libwrap.h's headers ($src/fdemo_x.h:4:15: error: typedef redefinition with different types ('float' vs 'double'))" make2.log \
    || fail "no warning for fnoproto_ naming the conflict of fdemo_x.h"
step "without the conflicting header: no header declares the rest"
rm "$src/fdemo_x.h"
touch libwrap.h
run_ok make3.log make
grep -q "warning: libfdemo.so exports 1 Fortran-ABI function (fnoproto_) that libwrap.h does not declare: it is not measured; no header in the -I or system include directories declares them" make3.log \
    || fail "no warning for fnoproto_"
grep -qx -- '--wrap=fscale_' fdemo.wrap || fail "fscale_ is not wrapped"
run_ok install.log make install

step "a CHARACTER argument is refused, with its reason"
for mode in linktime runtime; do
    run_ok "link-$mode.log" libwrap --libwrap=$mode:fdemo "$CC" -I"$src" "$src/app.c" \
        -L"$scratch" -Wl,-rpath,"$scratch" -lfdemo -o "app.$mode"
    LIBWRAP_ARGUMENTS='fscale_:jobz,fscale_:jobz_len' LIBWRAP_EXPERIMENT_DIRECTORY=$PWD/exp-$mode \
        "./app.$mode" > "out-$mode.txt" 2> "err-$mode.txt" || { cat "err-$mode.txt"; fail "app.$mode"; }
    cat "err-$mode.txt"
    grep -qx 'fdemo 3: -2 -4 -6' "out-$mode.txt" || fail "$mode: output changed"
    [ "$(grep -c 'LIBWRAP_ARGUMENTS' "err-$mode.txt")" = 1 ] || fail "$mode: not exactly one warning"
    grep -q 'fscale_: parameter "jobz" (const char \*) cannot be recorded: a Fortran CHARACTER argument' \
        "err-$mode.txt" || fail "$mode: no reason for jobz"
    python3 - "exp-$mode/profile.json" <<'PY' || fail "$mode: profile arguments"
import json, sys
p = json.load(open(sys.argv[1]))
f = {x["symbol"]: x for x in p["functions"]}
assert f["fscale_"]["visits"] == 2, f["fscale_"]
args = {a["name"]: a for a in f["fscale_"].get("arguments", [])}
assert "jobz" not in args, args
assert args["jobz_len"]["sum"] == 2 and args["jobz_len"]["count"] == 2, args
PY
done

step "a C library's own names with a trailing '_' are not taken for Fortran's"
cd "$scratch"
echo 'int cint_open(void);' > cint.h
cat > cint.c <<'C'
int cint_open(void) { return 1; }
int cint_open_(void) { return 1; } /* as libevent's evutil_gettime_monotonic_ */
int evq_scan_(void) { return 3; }  /* as libevent's evmap_delete_all_ */
C
# None of them; then, the library needing gfortran's run-time library (a
# Fortran library's names), cint_open_ and evq_scan_.
for rt in c fortran; do
    extra=()
    [ $rt = c ] || extra=(-Wl,--no-as-needed -lgfortran)
    $CC -O2 -fPIC -shared cint.c -o libcint.so "${extra[@]}"
    rm -rf cint-$rt
    run_ok init-$rt.log libwrap-init --name cint -x c --cppflags "-I$scratch" \
        --ldflags "-L$scratch -Wl,-rpath,$scratch" --libs -lcint --prefix "$scratch/prefix" cint-$rt
    echo '#include "cint.h"' > cint-$rt/libwrap.h
    printf '#include "cint.h"\nint main(void) { return cint_open() == 1 ? 0 : 1; }\n' > cint-$rt/main.c
    run_ok make-cint-$rt.log make -C cint-$rt
    cat make-cint-$rt.log
    if [ $rt = c ]; then
        ! grep -q Fortran make-cint-$rt.log || fail "c: a C library's names taken for Fortran's"
    else
        want="exports 2 Fortran-ABI functions (cint_open_, evq_scan_) that"
        grep -qF "$want" make-cint-$rt.log || fail "fortran: not the warning \"$want\""
    fi
done

# Two targets, one whose names are a C library's own (cint's, dropped) and
# one with a FORTRAN 77 name: the warning names the library of the names it
# lists, not both (a GTK wrapper's libglib beside zlib's gzgetc_).
$CC -O2 -fPIC -shared cint.c -o libcint.so
echo 'int plainf_(void) { return 4; }' > plainf.c
$CC -O2 -fPIC -shared plainf.c -o libplainf.so
rm -rf two
run_ok init-two.log libwrap-init --name two -x c --cppflags "-I$scratch" \
    --ldflags "-L$scratch -Wl,-rpath,$scratch" --libs "-lcint -lplainf" --prefix "$scratch/prefix" two
echo '#include "cint.h"' > two/libwrap.h
printf '#include "cint.h"\nint main(void) { return cint_open() == 1 ? 0 : 1; }\n' > two/main.c
run_ok make-two.log make -C two
grep -qF "warning: libplainf.so exports 1 Fortran-ABI function (plainf_) that" make-two.log ||
    { cat make-two.log; fail "two targets: the warning does not name libplainf.so alone"; }
echo PASS
