#!/usr/bin/env bash
# wf_corpus.sh NAME: a corpus library through the whole workflow, as a new
# user runs it (the init command of examples/NAME/init.sh), then the
# measurements against the corpus references:
#   - main linked with `libwrap --libwrap=linktime:NAME`: output identical to
#     the unwrapped main, visits equal to the `exe` column of
#     expected-uftrace-main.txt;
#   - main linked with `--libwrap=runtime:NAME`: the `all` column;
#   - the corpus's real program under LD_PRELOAD=$(libwrap-info preload NAME):
#     output identical, visits equal to the `all` column of expected-uftrace.txt;
#   - main under LD_PRELOAD with a listener that clobbers registers, and with
#     every parameter and result recorded: output identical;
# on the hdr=y rows that were wrapped, with the documented exceptions of
# exceptions-NAME.txt.
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
name=${1:?usage: wf_corpus.sh NAME}
corpus=${LIBWRAP_CORPUS:?}/$name
[ -f "$corpus/case.env" ] || fail "$corpus/case.env: corpus case missing"
exceptions=$here/exceptions-$name.txt
[ -f "$exceptions" ] || exceptions=/dev/null
prefix=$scratch/prefix
export LIBWRAP_PATH=$prefix

step "init and make, make check, make install, make installcheck"
run_ok init.log bash "$examples/$name/init.sh" "$scratch/w" "$prefix"
cd w
run_ok make.log make
cat make.log
run_ok check.log make check JOBS=2
cat check.log
run_ok install.log make install
run_ok ic.log make installcheck
cat ic.log
cd "$scratch"
# examples/NAME/expected-profile.txt (SYMBOL LINKTIME RUNTIME) is what
# installcheck measures: the visits in both modes.
expected=$examples/$name/expected-profile.txt
if [ -f "$expected" ]; then
    for col in 2:linktime 3:runtime; do
        visits "w/installcheck/${col#*:}" | sort > got.txt
        grep -v '^#' "$expected" | awk -v c="${col%%:*}" '$c > 0 { print $1, $c }' | sort > want.txt
        diff want.txt got.txt || fail "installcheck ${col#*:}: visits differ from examples/$name/expected-profile.txt"
    done
    echo "installcheck's visits equal examples/$name/expected-profile.txt"
fi

# check-case.sh builds main with $CC unquoted: the link prefix goes in front.
case_run() {    # DIR [VAR=VALUE...]: one check-case.sh run in DIR
    local d=$1; shift
    mkdir -p "$d"
    (cd "$d" && env "$@" BUILD_DIR="$d" bash "$LIBWRAP_CORPUS/check-case.sh" "$name" > case.log 2> case.err) || true
    if grep -q 'failed' "$d/case.err"; then cat "$d/case.err" "$d"/*.err; fail "$d: check-case.sh: a run failed"; fi
}
lang=$(. "$corpus/case.env"; echo "$LANGUAGE")
ccvar=CC; [ "$lang" = c++ ] && ccvar=CXX
cc=${!ccvar}

step "baseline (unwrapped)"
case_run "$scratch/base"

step "main --libwrap=linktime:$name, real program under LD_PRELOAD"
# Every preloaded process writes its own experiment directory: the first
# lt/libwrap-real, the next ones lt/libwrap-real.1, .2 ... (an absolute path,
# since real.sh may change directory).
preload=$(libwrap-info preload "$name")
case_run "$scratch/lt" "$ccvar=libwrap --libwrap=linktime:$name $cc" \
    MAIN_RUN="env LIBWRAP_EXPERIMENT_DIRECTORY=$scratch/lt/exp-main" \
    REAL_RUN="env LD_PRELOAD=$preload LIBWRAP_EXPERIMENT_DIRECTORY=$scratch/lt/libwrap-real"

step "main --libwrap=runtime:$name"
case_run "$scratch/rt" "$ccvar=libwrap --libwrap=runtime:$name $cc" \
    MAIN_RUN="env LIBWRAP_EXPERIMENT_DIRECTORY=$scratch/rt/exp-main"

for f in main.out real.out; do
    cmp base/$f lt/$f || fail "$f differs under measurement (link-time main, LD_PRELOAD real program)"
done
cmp base/main.out rt/main.out || fail "main.out differs under measurement (runtime-linked main)"
echo "outputs identical to the unwrapped runs"

step "the real program under LD_PRELOAD with a per-call listener that changes every register it may"
# tests/abi/clobber_listener.c: every vector register, the caller-saved
# general registers and errno changed in each enter and exit callback. The
# trampoline keeps the argument and result registers around it, and no
# vector register for the functions flagged LIBWRAP_ABI_NO_VECTOR (docs/abi.md):
# a wrong flag changes the program's output.
$CC -O2 -fPIC -shared -fvisibility=hidden -Wall -Werror -I"$LIBWRAP_STAGE/include" \
    -o libwrap_plugin_clobber.so "$LIBWRAP_SOURCE_DIR/tests/abi/clobber_listener.c" ||
    fail "the clobbering listener does not build"
case_run "$scratch/cl" MAIN_RUN="env LD_PRELOAD=$preload LIBWRAP_LISTENERS=$scratch/libwrap_plugin_clobber.so CLOBBER_OUT=$scratch/cl/clobber-main.txt LIBWRAP_EXPERIMENT_DIRECTORY=$scratch/cl/exp-main" \
    REAL_RUN="env LD_PRELOAD=$preload LIBWRAP_LISTENERS=$scratch/libwrap_plugin_clobber.so CLOBBER_OUT=$scratch/cl/clobber-real.txt LIBWRAP_EXPERIMENT_DIRECTORY=$scratch/cl/libwrap-real"
for f in main.out real.out; do
    cmp base/$f cl/$f || fail "$f differs with the clobbering per-call listener"
done
for f in cl/clobber-main.txt cl/clobber-real.txt; do
    [ -s $f ] || fail "$f: the listener wrote nothing"
    ! grep -v -E '^enters ([0-9]+) exits \1 errors 0$' $f || fail "$f: the listener saw unmatched or disordered calls"
done
echo "outputs identical with the clobbering listener ($(cat cl/clobber-real.txt | head -1))"

step "the real program under LD_PRELOAD recording every parameter and result"
# LIBWRAP_ARGUMENTS='*:*,*:return': the trampoline's recording path for the
# functions whose integers are recorded, the C hooks and the gate for
# floating-point values and strings. The same output, and a value for each
# visit of every recorded function.
case_run "$scratch/ar" MAIN_RUN="env LD_PRELOAD=$preload LIBWRAP_ARGUMENTS=*:*,*:return LIBWRAP_EXPERIMENT_DIRECTORY=$scratch/ar/exp-main"
for f in main.out main.err; do
    cmp base/$f ar/$f || fail "$f differs with every argument recorded"
done
python3 - ar/exp-main/profile.json <<'PY' || fail "recorded arguments: not a value for each visit"
import json, sys
fs = json.load(open(sys.argv[1]))["functions"]
rec = [(f["symbol"], a["name"], a["count"], f["visits"]) for f in fs for a in f.get("arguments", [])]
bad = [r for r in rec if r[2] != r[3]]
print("%d arguments of %d functions recorded%s" % (len(rec), len({r[0] for r in rec}), bad and ": %r" % bad[:5] or ""))
sys.exit(1 if bad or not rec else 0)
PY
echo "output identical with every argument recorded"

if [ "$name" = gmp ]; then
    step "a rule naming a function by the name its header's macro gives it"
    # gmp.h makes mpz_gcd __gmpz_gcd: the warning names it.
    LIBWRAP_ARGUMENTS=mpz_gcd:* LIBWRAP_EXPERIMENT_DIRECTORY=$scratch/ren rt/main > ren.out 2> ren.err ||
        fail "main with LIBWRAP_ARGUMENTS=mpz_gcd:* failed"
    grep -q 'no function [^ ]* (pid [0-9]*) called matches "mpz_gcd" (rule "mpz_gcd:\*"): it recorded nothing for it; did you mean __gmpz_gcd' ren.err ||
        { cat ren.err; fail "the warning does not name __gmpz_gcd"; }
    # The same in a runtime filter: the rule's file and line, and the name.
    # A MANGLED rule names the linker symbol: mpz_sub is no symbol either.
    printf 'LIBWRAP_REGION_NAMES_BEGIN\n  EXCLUDE mpz_mul\n  EXCLUDE mpz_gcd\n  EXCLUDE MANGLED mpz_sub\nLIBWRAP_REGION_NAMES_END\n' > ren.filter
    LIBWRAP_FILTERING_FILE=$scratch/ren.filter LIBWRAP_EXPERIMENT_DIRECTORY=$scratch/ren-filter rt/main > ren-filter.out 2> ren-filter.err ||
        fail "main with a filter naming mpz_gcd failed"
    grep -qx "libwrap: warning: LIBWRAP_FILTERING_FILE $scratch/ren.filter:3: \"mpz_gcd\" names no function: its header renames it, and the program calls __gmpz_gcd; name that in the rule" ren-filter.err ||
        { cat ren-filter.err; fail "the filter's warning does not name __gmpz_gcd"; }
    grep -qx "libwrap: warning: LIBWRAP_FILTERING_FILE $scratch/ren.filter:4: \"mpz_sub\" names no function: its header renames it, and the program calls __gmpz_sub; name that in the rule" ren-filter.err ||
        { cat ren-filter.err; fail "the MANGLED rule's warning does not name __gmpz_sub"; }
    [ "$(grep -c 'names no function' ren-filter.err)" = 3 ] || { cat ren-filter.err; fail "not one warning for each of the three rules"; }
fi

step "visits against the corpus references"
wrap=$prefix/share/libwrap/$name.wrap
status=0
python3 "$here/compare_counts.py" "$corpus/expected-uftrace-main.txt" exe "$wrap" "$exceptions" linktime lt/exp-main || status=1
python3 "$here/compare_counts.py" "$corpus/expected-uftrace-main.txt" all "$wrap" "$exceptions" runtime rt/exp-main || status=1
mapfile -t real_dirs < <(find lt -maxdepth 1 -name 'libwrap-*' -type d | sort)
[ ${#real_dirs[@]} -gt 0 ] || fail "the real program under LD_PRELOAD wrote no experiment directory"
python3 "$here/compare_counts.py" "$corpus/expected-uftrace.txt" all "$wrap" "$exceptions" real "${real_dirs[@]}" || status=1
[ $status = 0 ] || fail "visits differ from the references"
echo PASS
