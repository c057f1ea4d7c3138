#!/bin/bash
# mpi_job.sh SCENARIO - a job of many processes measured with libwrap
# (SPEC section 6), with Open MPI's mpirun: 4 ranks x 2 threads calling the
# wrapped library mlib (what mpi_setup built). Every measured run is
# compared with the same run unmeasured: stdout, stderr and exit status
# byte for byte. Each run happens in an empty directory, which must hold
# exactly one experiment directory afterwards, and nothing else.
set -eu
scenario=$1
TEST_LABEL=mpi_$scenario
. "$(dirname "$0")/lib.sh"
S=${MPI_SETUP:?}
[ -f "$S/ready" ] || fail "mpi_setup did not complete ($S)"
[ "$scenario" = mpich ] || need_openmpi
export LIBWRAP_PATH=$S/prefix
PRELOAD=$(libwrap-info preload mlib)
NP=4 CALLS=300
# Open MPI's jobs here write the job's one reduced profile unless a test
# asks for parts (a later -x wins); parts are the default of the runtime
# and MPICH's jobs below keep it.
MPIRUN=("${MPIRUN:-mpirun}" "${MPIRUN_OPTS[@]}" -x LIBWRAP_JOB_PARTS=false)

# job NAME [VAR=VALUE...] -- COMMAND...: COMMAND (with the variables, also
# given to `timeout`, which must leave nothing either) in the empty
# directory NAME/; stdout, stderr, status in NAME.out, NAME.err, NAME.status.
job() {
    local name=$1 st=0 vars=()
    shift
    while [ "$1" != -- ]; do
        vars+=("$1")
        shift
    done
    shift
    rm -rf "$name"
    mkdir "$name"
    (cd "$name" && env ${vars[@]+"${vars[@]}"} timeout 120 "$@" > "../$name.out" 2> "../$name.err") || st=$?
    echo "$st" > "$name.status"
    [ "$st" != 124 ] || fail "$name: $* did not end within 120 s"
}

# same NAME REF: NAME ran as REF did, byte for byte.
same() {
    cmp -s "$1.out" "$2.out" || fail "$1: stdout differs from the unmeasured run: $(diff "$2.out" "$1.out" | head -5)"
    cmp -s "$1.err" "$2.err" || fail "$1: stderr differs from the unmeasured run: $(diff "$2.err" "$1.err" | head -10)"
    cmp -s "$1.status" "$2.status" || fail "$1: exit status $(cat "$1.status"), unmeasured $(cat "$2.status")"
}

# only_dir NAME: prints the one entry of NAME/ (a directory), or fails.
only_dir() {
    local n
    n=$(ls -A "$1" | wc -l)
    [ "$n" = 1 ] || fail "$1: expected one experiment directory and nothing else, found: $(ls -A "$1" | tr '\n' ' ')"
    local d="$1/$(ls -A "$1")"
    [ -d "$d" ] || fail "$1: $d is not a directory"
    echo "$d"
}

# check_job DIR NP STEPS [HOSTS]: DIR is the directory of a job of NP ranks,
# each with its part rank-N whose profile names it and counts STEPS
# mlib_step calls (2 threads); every rank finished. HOSTS: "h0 h1 ..." per
# rank. LAUNCHER: what the profiles must name (default Open MPI).
check_job() {
    local d=$1 np=$2 steps=$3 hosts=${4:-} launcher=${LAUNCHER:-Open MPI}
    grep -q '^JOB_KEY=' "$d/config.txt" || fail "$d/config.txt lacks the job's key"
    grep -qx "JOB_SIZE=$np" "$d/config.txt" || fail "$d/config.txt: JOB_SIZE is not $np"
    if [ ! -f "$d/rank-0/profile.json" ]; then
        check_reduced "$d" "$np" "$steps"
        return
    fi
    # Parts, and the job's profile reduced from them at exit.
    check_reduced "$d" "$np" "$steps" exit
    [ "$(grep -c '^rank ' "$d/finished.txt")" = "$np" ] || fail "$d/finished.txt: not $np finished ranks"
    local r host
    for ((r = 0; r < np; r++)); do
        host=$(hostname)
        [ -n "$hosts" ] && host=$(echo $hosts | cut -d' ' -f$((r + 1)))
        $CHECK "$d/rank-$r" "prof['rank'] == $r" "prof['size'] == $np" "prof['pid'] > 0" \
            "prof['host'] == '$host'" "prof['launcher'] == '$launcher'" "len(threads) == 2" \
            "visits('mlib_step') == $steps" "visits('mlib_chain') == 2" \
            "all(len(t['callpath']) == 2 for t in threads)" > /dev/null
    done
    # The processes' pids are distinct: every rank wrote its own part.
    python3 - "$d" "$np" <<'PY' || fail "$d: the parts are not of $2 distinct processes"
import json, sys
pids = {json.load(open("%s/rank-%d/profile.json" % (sys.argv[1], r)))["pid"] for r in range(int(sys.argv[2]))}
sys.exit(len(pids) != int(sys.argv[2]))
PY
    for e in $(ls -A "$d"); do
        case $e in
            config.txt | finished.txt | profile.json | profile.txt | profiles.lwrt | rank-[0-9]* | traces | traces.otf2 | traces.def) ;;
            *) fail "$d: unexpected $e" ;;
        esac
    done
}

# check_reduced DIR NP STEPS [exit]: the job's one profile, reduced over
# its NP ranks at MPI_Finalize (with "exit": at exit, from the parts beside
# it): the sums are NP times each rank's exact visits, every rank's own
# visits are the smallest and the largest, and (at MPI_Finalize) no rank
# wrote a profile of its own (with tracing, parts hold their traces only).
# CHAINS: each rank's mlib_chain visits (default 2; 0: the program has none).
check_reduced() {
    local d=$1 np=$2 steps=$3 at=${4:-MPI_Finalize} launcher=${LAUNCHER:-Open MPI}
    python3 - "$d" "$np" "$steps" "$launcher" "$at" "${CHAINS:-2}" <<'PY' || fail "$d: the job's reduced profile is wrong"
import json, os, sys
d, np, steps, launcher, at = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4], sys.argv[5]
chains = int(sys.argv[6])
p = json.load(open(d + "/profile.json"))
assert p["reduced"]["ranks"] == np and p["reduced"]["ranks_reduced"] == np, p["reduced"]
assert p["reduced"]["at"] == at, p["reduced"]
assert p["size"] == np and p["launcher"] == launcher, (p["size"], p["launcher"])
f = {x["symbol"]: x for x in p["functions"]}
for sym, per in (("mlib_step", steps), ("mlib_chain", chains))[:2 if chains else 1]:
    r = f[sym]["ranks"]
    assert f[sym]["visits"] == np * per, (sym, f[sym]["visits"])
    assert r["called"] == np and r["visits"]["min"] == r["visits"]["max"] == per, (sym, r)
    assert r["visits"]["mean"] == per and 0 <= r["visits"]["max_rank"] < np, r
    e = r["exclusive_ns"]
    assert e["min"] <= e["mean"] <= e["max"] and abs(e["mean"] * np - f[sym]["exclusive_ns"]) <= np, (e, f[sym])
# the call tree: one thread, the paths summed over ranks and threads
cp = {n["symbol"]: n for n in p["threads"][0]["callpath"]}
assert len(p["threads"]) == 1 and cp["mlib_step"]["visits"] == np * steps, cp
assert cp["mlib_step"]["ranks"]["visits"]["min"] == steps
if at == "exit":
    # Reduced from the parts: the job's sums are the parts' sums.
    import glob
    parts = [json.load(open(q)) for q in glob.glob(d + "/rank-*/profile.json") + glob.glob(d + "/ranks/*/rank-*/profile.json")]
    assert sorted(q["rank"] for q in parts) == list(range(np)), [q["rank"] for q in parts]
    for sym, x in f.items():
        got = sum(g["visits"] for q in parts for g in q["functions"] if g["symbol"] == sym)
        assert x["visits"] == got, (sym, x["visits"], got)
    sys.exit(0)
for e in os.listdir(d):
    assert not os.path.exists(os.path.join(d, e, "profile.json")), "a part's own profile: " + e
PY
    [ "${4:-}" = exit ] && return
    for e in $(ls -A "$d"); do
        case $e in
            config.txt | profile.json | profile.txt | finished.txt | rank-[0-9]* | traces | traces.otf2 | traces.def) ;;
            *) fail "$d: unexpected $e" ;;
        esac
    done
    if [ ! -e "$d/rank-0" ]; then
        [ "$(ls -A "$d" | tr '\n' ' ')" = "config.txt profile.json profile.txt " ] ||
            fail "$d: a profiled job without tracing holds more than 3 files: $(ls -A "$d")"
    else
        [ "$(grep -c '^rank ' "$d/finished.txt")" = "$np" ] || fail "$d/finished.txt: not $np finished ranks"
    fi
}

# check_trace DIR NP STEPS: one archive for the whole job, read by
# otf2-print: a location group per rank, a location per thread, every call.
check_trace() {
    local d=$1 np=$2 steps=$3
    "$OTF2_PRINT" "$d/traces.otf2" > events.txt 2> print.err || fail "otf2-print rejects $d/traces.otf2: $(head -3 print.err)"
    "$OTF2_PRINT" -G "$d/traces.otf2" > defs.txt 2>> print.err || fail "otf2-print -G rejects $d/traces.otf2"
    [ ! -s print.err ] || fail "otf2-print complains: $(head -3 print.err)"
    [ "$(grep -c '^LOCATION_GROUP ' defs.txt)" = "$np" ] || fail "expected $np location groups: $(grep LOCATION_GROUP defs.txt)"
    [ "$(grep -c '^LOCATION ' defs.txt)" = $((2 * np)) ] || fail "expected $((2 * np)) locations"
    local r
    for ((r = 0; r < np; r++)); do
        grep -q "^LOCATION_GROUP .*Name: \"rank $r\"" defs.txt || fail "no location group for rank $r"
    done
    local enters
    enters=$(awk '$1 == "ENTER" && /Region: "mlib_step"/ { n++ } END { print n + 0 }' events.txt)
    [ "$enters" = $((np * steps)) ] || fail "expected $((np * steps)) ENTER of mlib_step in the job's trace, got $enters"
    [ "$(awk '$1 == "ENTER" { print $2 }' events.txt | sort -u | wc -l)" = $((2 * np)) ] \
        || fail "not every location has events"
    [ "$(grep -c '^ENTER' events.txt)" = "$(grep -c '^LEAVE' events.txt)" ] || fail "ENTER and LEAVE do not pair"
    # Each rank's part is still a trace of its own.
    "$OTF2_PRINT" "$d/rank-1/traces.otf2" > part.txt 2> print.err || fail "the part of rank 1 is not readable alone"
    [ "$(grep -c '^ENTER.*"mlib_step"' part.txt)" = "$steps" ] || fail "the part of rank 1 lost events"
}

# same_events A B: the two archives hold the same events at the same
# times, location by location (named "rank R thread T"; their numbers may
# differ), with nothing for otf2-print to complain about.
same_events() {
    /usr/bin/python3 - "$OTF2_PRINT" "$1" "$2" <<'PY'
import re, subprocess, sys
def events(anchor):
    run = lambda *a: subprocess.run([sys.argv[1], *a, anchor], capture_output=True, text=True, check=True)
    defs, evts = run("-G"), run()
    assert not defs.stderr and not evts.stderr, (anchor, defs.stderr, evts.stderr)
    name = dict(re.findall(r'^LOCATION +(\d+) +Name: "([^"]*)"', defs.stdout, re.M))
    ev = [(name[m[1]], int(m[2]), m[0], re.sub(r"<\d+>", "", m[3]))
          for m in re.findall(r"^(ENTER|LEAVE|PARAMETER_\w+|METRIC) +(\d+) +(\d+) +(.*)$", evts.stdout, re.M)]
    assert ev, anchor
    return sorted(ev)
a, b = events(sys.argv[2]), events(sys.argv[3])
assert a == b, (len(a), len(b), next(((x, y) for x, y in zip(a, b) if x != y), None))
PY
}

# report_total DIR: the job's mlib_step visits from libwrap-report --format=tsv.
# ranks NAME NP VARS...: NP processes of the program without MPI ($S/plain,
# CALLS calls) started together in NAME/ as a launcher starts the ranks of
# a job, each given VARS (evaluated per rank: $r is its rank) and the
# wrapper, and the arguments PLAIN_ARGS after CALLS; rank R's stdout in
# NAME.R.out. Every rank must succeed, with nothing on stderr.
ranks() {
    local name=$1 np=$2 r st=0
    shift 2
    rm -rf "$name" && mkdir "$name"
    for r in $(seq 0 $((np - 1))); do
        (cd "$name" && eval "env $* LD_PRELOAD=$PRELOAD $S/plain $CALLS ${PLAIN_ARGS:-}" \
            > "../$name.$r.out" 2> "../$name.$r.err") &
    done
    wait || st=$?
    [ $st = 0 ] || fail "$name: a rank failed"
    for r in $(seq 0 $((np - 1))); do
        [ ! -s "$name.$r.err" ] || fail "$name: rank $r's stderr: $(head -3 "$name.$r.err")"
    done
}

report_total() {
    libwrap-report --format=tsv "$1" > report.tsv || fail "libwrap-report --format=tsv $1 failed"
    awk -F'\t' '$1 == "mlib_step" { print $5 }' report.tsv
}

steps=$((2 * CALLS))
case $scenario in
private)
    # MPI in a module the program loads with dlopen(RTLD_LOCAL) (mpi4py,
    # a plugin): libmpi is not in the global scope, where the wrapper's
    # MPI_Init interposer stands first; it finds the module's libmpi, and
    # the job runs, measured, as unmeasured (it failed with error 16).
    cat > plugin.c <<'C'
#include <mpi.h>
#include <stdio.h>
#include "mlib.h"
int run(long calls)
{
    int rank, size;
    if (MPI_Init(NULL, NULL) != MPI_SUCCESS)
        return 2;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    long x = 1, sum = 0;
    for (long i = 0; i < calls; i++)
        x = mlib_step(x);
    x &= 0xffff;
    MPI_Reduce(&x, &sum, 1, MPI_LONG, MPI_SUM, 0, MPI_COMM_WORLD);
    if (rank == 0)
        printf("size %d sum %ld\n", size, sum);
    return MPI_Finalize() == MPI_SUCCESS ? 0 : 3;
}
C
    cat > host.c <<'C'
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
int main(int argc, char **argv)
{
    void *h = dlopen(argv[1], RTLD_NOW | RTLD_LOCAL);
    int (*run)(long) = h ? (int (*)(long))dlsym(h, "run") : NULL;
    if (!run) {
        fprintf(stderr, "host: %s\n", dlerror());
        return 1;
    }
    return run(atol(argv[2]));
}
C
    "$MPICC" -O2 -fPIC -shared -I"$mpi_here" plugin.c -o plugin.so -L"$S/lib" -Wl,-rpath,"$S/lib" -lmlib
    $CC -O2 host.c -o host -ldl
    job ref -- "${MPIRUN[@]}" -np 2 "$PWD/host" "$PWD/plugin.so" $CALLS
    grep -q '^size 2 ' ref.out || fail "the unmeasured job: $(cat ref.out ref.err)"
    job prof -- "${MPIRUN[@]}" -np 2 -x LD_PRELOAD="$PRELOAD" "$PWD/host" "$PWD/plugin.so" $CALLS
    same prof ref
    [ "$(report_total "$(only_dir prof)")" = $((2 * CALLS)) ] || fail "private: not the job's total visits"
    # A singleton (no mpirun), as `python3 -c "from mpi4py import MPI"` is.
    job one_ref -- "$PWD/host" "$PWD/plugin.so" $CALLS
    job one LD_PRELOAD="$PRELOAD" -- "$PWD/host" "$PWD/plugin.so" $CALLS
    same one one_ref
    $CHECK "$(only_dir one)" "visits('mlib_step') == $CALLS" || fail "private singleton: the visits"
    ;;
wrap_mpi)
    # A wrapper of the MPI library itself: its MPI_Init, MPI_Finalize and
    # MPI_Abort take the place of the runtime's interposers (weak) and take
    # their steps: the job's reduction at MPI_Finalize, and a rank that
    # calls MPI_Abort writes its part first, its MPI_Abort counted.
    need_openmpi
    link=$("$MPICC" -showme:link | tr ' ' '\n' | grep -vx -- -lmpi | tr '\n' ' ')
    libwrap-init --name ompi -x c --cppflags "$("$MPICC" -showme:compile)" --ldflags "$link" --libs -lmpi \
        --prefix "$PWD/prefix" w > init.log 2>&1 || { cat init.log; fail "libwrap-init failed"; }
    echo '#include <mpi.h>' > w/libwrap.h
    printf '#include <mpi.h>\nint main(void) { return 0; }\n' > w/main.c
    printf 'SCOREP_REGION_NAMES_BEGIN\n  EXCLUDE *\n  INCLUDE MPI_Init MPI_Comm_rank MPI_Barrier MPI_Abort MPI_Finalize\nSCOREP_REGION_NAMES_END\n' > w/ompi.filter
    make -C w all install > make.log 2>&1 || { cat make.log; fail "make install of the MPI library's wrapper failed"; }
    cat > ab.c <<'C'
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
int main(int argc, char **argv)
{
    int rank;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Barrier(MPI_COMM_WORLD);
    if (argc > 1 && rank == 1)
        MPI_Abort(MPI_COMM_WORLD, 3);
    MPI_Barrier(MPI_COMM_WORLD);
    printf("rank %d done\n", rank);
    MPI_Finalize();
    return 0;
}
C
    "$MPICC" -O2 ab.c -o ab
    pre=$(LIBWRAP_PATH=$PWD/prefix libwrap-info preload ompi)
    job fin -- "${MPIRUN[@]}" -np 2 -x LD_PRELOAD="$pre" -x LIBWRAP_VERBOSE=job "$PWD/ab"
    [ "$(cat fin.status)" = 0 ] || fail "wrap_mpi: the job failed: $(cat fin.err)"
    [ "$(grep -c 'MPI_Finalize: a rank measured' fin.err)" = 2 ] ||
        fail "wrap_mpi: MPI_Finalize's step not taken on each rank: $(cat fin.err)"
    $CHECK "$(only_dir fin)" "visits('MPI_Barrier') == 4" "visits('MPI_Init') == 2" >/dev/null
    job abort -- "${MPIRUN[@]}" -np 2 -x LD_PRELOAD="$pre" -x LIBWRAP_JOB_PARTS=true "$PWD/ab" abort
    [ "$(cat abort.status)" != 0 ] || fail "wrap_mpi: MPI_Abort did not end the job"
    d=$(only_dir abort)
    [ -f "$d/rank-1/profile.json" ] || fail "wrap_mpi: the rank that aborted wrote no part: $(ls "$d/rank-1")"
    $CHECK "$d/rank-1" "visits('MPI_Abort') == 1" "visits('MPI_Barrier') == 1" >/dev/null
    # Another wrapper preloaded first: its copy of the interposers (weak)
    # is what the program calls, and leaves the step to the MPI wrapper.
    job abort2 -- "${MPIRUN[@]}" -np 2 -x LD_PRELOAD="$(libwrap-info preload mlib) $pre" -x LIBWRAP_JOB_PARTS=true \
        "$PWD/ab" abort
    d=$(only_dir abort2)
    $CHECK "$d/rank-1" "visits('MPI_Abort') == 1" >/dev/null ||
        fail "wrap_mpi: another wrapper first: the rank's part lacks its MPI_Abort"
    ;;
preload_x)
    # LD_PRELOAD given to the ranks only (mpirun -x), profile then trace.
    job ref -- "${MPIRUN[@]}" -np $NP "$S/app" $CALLS
    grep -q "^ranks $NP, calls per thread $CALLS" ref.out || fail "the unmeasured run failed: $(cat ref.err)"
    job prof -- "${MPIRUN[@]}" -np $NP -x LD_PRELOAD="$PRELOAD" "$S/app" $CALLS
    same prof ref
    d=$(only_dir prof)
    [[ $d =~ /libwrap-ompi-[0-9]+$ ]] || fail "default job directory name: $d"
    check_job "$d" $NP $steps
    [ -f "$d/profile.json" ] || fail "no job profile reduced at MPI_Finalize"
    [ "$(report_total "$d")" = $((NP * steps)) ] || fail "libwrap-report: not the job's total visits"
    [ ! -e "$d/traces.otf2" ] || fail "a trace without LIBWRAP_ENABLE_TRACING"
    # LIBWRAP_JOB_PARTS=true: a part per rank, as a lone process writes it.
    job parts -- "${MPIRUN[@]}" -np $NP -x LD_PRELOAD="$PRELOAD" -x LIBWRAP_JOB_PARTS=true "$S/app" $CALLS
    same parts ref
    d=$(only_dir parts)
    [ -f "$d/rank-0/profile.json" ] || fail "LIBWRAP_JOB_PARTS=true: no part per rank"
    check_job "$d" $NP $steps
    # Both there: the report reads the parts (--rank N), or the job's
    # profile when named.
    libwrap-report --rank 2 "$d" > rank2.txt 2> rank2.err && grep -q "rank 2" rank2.txt ||
        fail "libwrap-report --rank 2 on parts beside the job's profile: $(head -3 rank2.err)"
    ! libwrap-report --rank 2 "$d/profile.json" > /dev/null 2> rank2.err &&
        grep -q "the ranks' parts are read with libwrap-report $d --rank 2" rank2.err ||
        fail "libwrap-report --rank 2 on the job's profile beside parts: $(cat rank2.err)"
    [ "$(report_total "$d")" = $((NP * steps)) ] || fail "libwrap-report on parts: not the job's total visits"
    # LIBWRAP_JOB_PARTS unset (auto): parts in a job of at most a group
    # (LIBWRAP_JOB_GROUP_SIZE), the profile reduced at MPI_Finalize in a
    # larger one; every rank decides alike from MPI's size.
    auto_mpirun=("${MPIRUN[0]}" "${MPIRUN_OPTS[@]}")
    for g in $NP $((NP - 1)); do
        job auto$g -- "${auto_mpirun[@]}" -np $NP -x LD_PRELOAD="$PRELOAD" -x LIBWRAP_JOB_GROUP_SIZE=$g "$S/app" $CALLS
        same auto$g ref
        d=$(only_dir auto$g)
        check_job "$d" $NP $steps
        if [ $g = $NP ]; then
            [ -f "$d/profile.json" ] && [ -f "$d/rank-0/profile.json" ] ||
                fail "auto, $NP ranks in a group of $g: not a part per rank and the job's profile"
            resolved="true" why="at most"
        else
            python3 -c 'import json, sys; assert json.load(open(sys.argv[1]))["reduced"]["at"] == "MPI_Finalize"' \
                "$d/profile.json" || fail "auto, $NP ranks in groups of $g: not the profile reduced at MPI_Finalize"
            resolved="false" why="more than"
        fi
        grep -qx "LIBWRAP_JOB_PARTS=$resolved" "$d/config.txt" &&
            grep -qx "# LIBWRAP_JOB_PARTS as set: auto (a job of $NP ranks, $why LIBWRAP_JOB_GROUP_SIZE=$g)" "$d/config.txt" ||
            fail "auto$g: config.txt: $(grep LIBWRAP_JOB_PARTS "$d/config.txt")"
    done
    echo "ok: LIBWRAP_JOB_PARTS=auto: parts in a group of $NP, the profile reduced at MPI_Finalize in groups of $((NP - 1))"
    # Traced in groups of 2: the trace merged as a tree (each group's last
    # rank, then the job's), with MPI.
    job tgroups -- "${auto_mpirun[@]}" -np $NP -x LD_PRELOAD="$PRELOAD" -x LIBWRAP_JOB_GROUP_SIZE=2 \
        -x LIBWRAP_ENABLE_TRACING=true "$S/app" $CALLS
    same tgroups ref
    d=$(only_dir tgroups)
    for g in $(seq 0 $(((NP - 1) / 2))); do
        "$OTF2_PRINT" -G "$d/ranks/$(printf %03d $g)/traces.otf2" > gdefs.txt ||
            fail "traced in groups: no archive of group $g"
    done
    "$OTF2_PRINT" "$d/traces.otf2" > events.txt 2> print.err && [ ! -s print.err ] ||
        fail "traced in groups: the job's archive: $(head -3 print.err)"
    [ "$(awk '$1 == "ENTER" && /Region: "mlib_step"/ { n++ } END { print n + 0 }' events.txt)" = $((NP * steps)) ] ||
        fail "traced in groups: not every ENTER of mlib_step in the job's archive"
    echo "ok: traced in groups of 2: merged as a tree"
    job trace -- "${MPIRUN[@]}" -np $NP -x LD_PRELOAD="$PRELOAD" -x LIBWRAP_ENABLE_TRACING=true "$S/app" $CALLS
    same trace ref
    d=$(only_dir trace)
    check_job "$d" $NP $steps
    check_trace "$d" $NP $steps
    # The job's profile, reduced at MPI_Finalize, in ns as the trace is:
    # mlib_chain's 8 calls of some 100 us take as long in both (its ticks
    # read as ns would make it 2 to 4 times as long on x86-64).
    python3 - "$d/profile.json" events.txt defs.txt <<'PY' || fail "the job's profile is not in ns"
import json, re, sys
p = json.load(open(sys.argv[1]))
prof = next(f["inclusive_ns"] for f in p["functions"] if f["symbol"] == "mlib_chain")
tps = int(re.search(r"Ticks per Seconds: (\d+)", open(sys.argv[3]).read()).group(1))
start, trace = {}, 0
for line in open(sys.argv[2]):
    m = re.match(r'(ENTER|LEAVE) +(\d+) +(\d+) +Region: "mlib_chain"', line)
    if m and m[1] == "ENTER":
        start[m[2]] = int(m[3])
    elif m:
        trace += (int(m[3]) - start.pop(m[2])) * 1e9 / tps
print("mlib_chain: %d ns in the job's profile, %d ns in its trace" % (prof, trace))
sys.exit(not (0.9 * trace < prof < 1.1 * trace))
PY
    [ "$(report_total "$d")" = $((NP * steps)) ] || fail "libwrap-report: not the job's total visits"
    # Rank 2 calls nothing: the ranks agree at MPI_Finalize that one of them
    # measured, so rank 2 writes an empty part and the last rank merges.
    job idle_ref -- "${MPIRUN[@]}" -np $NP "$S/app" $CALLS idle=2
    job idle -- "${MPIRUN[@]}" -np $NP -x LD_PRELOAD="$PRELOAD" -x LIBWRAP_ENABLE_TRACING=true "$S/app" $CALLS idle=2
    same idle idle_ref
    d=$(only_dir idle)
    [ ! -e "$d/rank-2/profile.json" ] || fail "idle rank: a part's own profile"
    # The reduced profile knows rank 2 lacked every call: 0 there.
    python3 - "$d/profile.json" <<'PY' || fail "idle rank: the reduced profile does not show rank 2 at 0"
import json, sys
p = json.load(open(sys.argv[1]))
r = {f["symbol"]: f for f in p["functions"]}["mlib_step"]["ranks"]
assert r["called"] == 3 and r["visits"]["min"] == 0 and r["visits"]["min_rank"] == 2, r
assert r["visits"]["max"] == 600 and r["visits"]["mean"] == 450, r
PY
    [ "$(grep -c '^rank ' "$d/finished.txt")" = $NP ] || fail "idle rank: not $NP finished"
    "$OTF2_PRINT" -G "$d/traces.otf2" > defs.txt 2> print.err || fail "idle rank: the last rank did not merge"
    [ "$(grep -c '^LOCATION ' defs.txt)" = 6 ] || fail "idle rank: expected 6 locations"
    libwrap-report "$d" | grep -Eq "^mlib_step .* 3/$NP " || fail "idle rank: the table does not say 3/$NP ranks"
    ;;
preload_launcher)
    # LD_PRELOAD and the settings exported to mpirun itself (and to
    # `timeout`): the launcher, the shells of `sh -c` and system(), md5sum
    # measure nothing and leave nothing, with tracing on.
    cmd=(sh -c "$S/app $CALLS system; echo done | md5sum > /dev/null")
    job ref -- "${MPIRUN[@]}" -np $NP "${cmd[@]}"
    job prof LD_PRELOAD="$PRELOAD" -- "${MPIRUN[@]}" -np $NP "${cmd[@]}"
    same prof ref
    check_job "$(only_dir prof)" $NP $steps
    job trace LD_PRELOAD="$PRELOAD" LIBWRAP_ENABLE_TRACING=true -- "${MPIRUN[@]}" -np $NP "${cmd[@]}"
    same trace ref
    d=$(only_dir trace)
    check_job "$d" $NP $steps
    check_trace "$d" $NP $steps
    # The log says what is on disk: results written by the 4 ranks only.
    job log LD_PRELOAD="$PRELOAD" LIBWRAP_ENABLE_TRACING=true LIBWRAP_VERBOSE=lifecycle -- \
        "${MPIRUN[@]}" -np $NP "${cmd[@]}"
    d=$(only_dir log)
    [ "$(grep -c 'results written to' log.err)" = $NP ] || fail "expected $NP 'results written' lines: $(grep results log.err)"
    for r in 0 1 2 3; do
        grep -q "^libwrap: rank $r: \[lifecycle\] results written to $PWD/$d/rank-$r (profile " log.err \
            || fail "rank $r: the log does not name its directory $d/rank-$r"
    done
    grep -q 'nothing written' log.err || fail "processes that measured nothing do not say so"
    ! grep -q 'no results written' log.err || fail "old message"
    # The launcher itself calls a wrapped library: Open MPI's mpirun opens
    # its topology with zlib's gzopen. With a zlib wrapper exported to it
    # besides mlib's, and a directory named, the launcher is not measured:
    # the named directory is the job's, and holds the ranks' results only.
    [ -f /usr/include/zlib.h ] || skip "zlib's header not installed (Debian: apt-get install zlib1g-dev)"
    libwrap-init --name zl -x c --libs -lz --prefix "$PWD/zprefix" zw > zinit.log 2>&1 ||
        { cat zinit.log; fail "libwrap-init of zlib failed"; }
    echo '#include <zlib.h>' >> zw/libwrap.h
    printf '#include <zlib.h>\nint main(void)\n{\n    return zlibVersion()[0] == 0;\n}\n' > zw/main.c
    make -C zw all install > zmake.log 2>&1 || { cat zmake.log; fail "make install of the zlib wrapper failed"; }
    ZPRE=$(LIBWRAP_PATH=$PWD/zprefix libwrap-info preload zl)
    both="$ZPRE $PRELOAD"
    job zref -- "${MPIRUN[@]}" -np $NP "$S/app" $CALLS
    job zlaunch LD_PRELOAD="$both" LIBWRAP_EXPERIMENT_DIRECTORY=exp LIBWRAP_VERBOSE=job -- \
        "${MPIRUN[@]}" -np $NP "$S/app" $CALLS
    same_out() {
        cmp -s "$1.out" "$2.out" && cmp -s "$1.status" "$2.status" || fail "$1: output or status differs"
    }
    same_out zlaunch zref
    grep -q "^libwrap: \[job\] .*mpirun.* is a launcher (mpirun): not measured" zlaunch.err ||
        fail "the launcher does not say it is not measured: $(grep -v 'rank' zlaunch.err | head -3)"
    [ "$(ls -A zlaunch)" = exp ] || fail "the launcher left: $(ls -A zlaunch)"
    check_job zlaunch/exp $NP $steps
    python3 - zlaunch/exp/profile.json <<'PY' || fail "the job's profile holds the launcher's calls"
import json, sys
p = json.load(open(sys.argv[1]))
assert p["program"].endswith("/app") and p["reduced"]["ranks"] == 4, p["program"]
PY
    # Parts on request: only rank parts, each with its exact visits.
    job zparts LD_PRELOAD="$both" LIBWRAP_EXPERIMENT_DIRECTORY=exp LIBWRAP_JOB_PARTS=true -- \
        "${MPIRUN[@]}" -x LIBWRAP_JOB_PARTS=true -np $NP "$S/app" $CALLS
    same zparts zref
    # (the ranks' MPI_Init calls gzopen too, on a thread of their own)
    for r in 0 1 2 3; do
        $CHECK zparts/exp/rank-$r "prof['rank'] == $r" "visits('mlib_step') == $steps" "visits('mlib_chain') == 2" \
            > /dev/null || fail "rank $r's part"
    done
    [ "$(ls -A zparts/exp | tr '\n' ' ')" = "config.txt finished.txt profile.json profile.txt profiles.lwrt rank-0 rank-1 rank-2 rank-3 " ] ||
        fail "not only the ranks' parts: $(ls -A zparts/exp)"
    # LIBWRAP_MEASURE_LAUNCHER=true: the launcher in a part of its own,
    # beside the job's results, which stay the job's.
    job zmeasure LD_PRELOAD="$both" LIBWRAP_EXPERIMENT_DIRECTORY=exp LIBWRAP_MEASURE_LAUNCHER=true -- \
        "${MPIRUN[@]}" -np $NP "$S/app" $CALLS
    same zmeasure zref
    lp=$(ls -d zmeasure/exp/launcher-mpirun-* 2> /dev/null) || fail "no launcher part: $(ls -A zmeasure/exp)"
    $CHECK "$lp" "visits('gzopen') > 0" "prof['size'] == 1" "'launcher' not in prof" > /dev/null ||
        fail "the launcher's part does not hold its gzopen calls"
    python3 - zmeasure/exp <<'PY' || fail "with the launcher measured, the job's directory is not the job's"
import json, os, sys
d = sys.argv[1]
p = json.load(open(d + "/profile.json"))
assert p["reduced"]["ranks"] == 4 and p["program"].endswith("/app"), p["program"]
e = sorted(os.listdir(d))
assert len(e) == 4 and e[0] == "config.txt" and e[1].startswith("launcher-mpirun-") and e[2:] == ["profile.json", "profile.txt"], e
PY
    grep -q '^JOB_KEY=ompi:' zmeasure/exp/config.txt || fail "the named directory's config.txt is not the job's"
    # A program named as a launcher is recognised by its name alone.
    mkdir -p fake && cp "$S/plain" fake/srun
    job fake_ref -- "$PWD/fake/srun" 10
    job fakel LD_PRELOAD="$PRELOAD" -- "$PWD/fake/srun" 10
    same fakel fake_ref
    [ -z "$(ls -A fakel)" ] || fail "a program named srun was measured: $(ls -A fakel)"
    job fakem LD_PRELOAD="$PRELOAD" LIBWRAP_MEASURE_LAUNCHER=true -- "$PWD/fake/srun" 10
    same fakem fake_ref
    $CHECK "$(only_dir fakem)" "visits('mlib_step') == 20" > /dev/null || fail "srun measured on request"
    ;;
linktime)
    # The program linked with libwrap --libwrap=linktime:mlib.
    job ref -- "${MPIRUN[@]}" -np $NP "$S/app.lt" $CALLS
    job prof -- "${MPIRUN[@]}" -np $NP "$S/app.lt" $CALLS
    same prof ref
    check_job "$(only_dir prof)" $NP $steps
    job trace -- "${MPIRUN[@]}" -np $NP -x LIBWRAP_ENABLE_TRACING=true "$S/app.lt" $CALLS
    same trace ref
    d=$(only_dir trace)
    check_job "$d" $NP $steps
    check_trace "$d" $NP $steps
    job trace_env LIBWRAP_ENABLE_TRACING=true -- "${MPIRUN[@]}" -np $NP "$S/app.lt" $CALLS
    same trace_env ref
    check_trace "$(only_dir trace_env)" $NP $steps
    ;;
two_nodes)
    # A second node that is this machine: Open MPI's rsh agent is a script
    # that runs orted here, in a UTS namespace named node2 when it can. The
    # settings and LD_PRELOAD are exported to mpirun, so the agent's shell
    # and the remote orted have them too: they must leave nothing.
    cat > fake_ssh <<'SH'
#!/bin/sh
while [ $# -gt 0 ]; do
    case $1 in
        -*) shift ;;
        *) host=$1; shift; break ;;
    esac
done
if unshare --uts true 2>/dev/null; then
    exec unshare --uts sh -c "hostname '$host' && $*"
fi
exec sh -c "$*"
SH
    chmod +x fake_ssh
    printf 'localhost slots=2\nnode2 slots=2\n' > hosts
    hosts="$(hostname) $(hostname)"
    unshare --uts true 2>/dev/null && hosts="$hosts node2 node2" || hosts="$hosts $hosts"
    two=("${MPIRUN[@]}" --hostfile "$PWD/hosts" --mca plm_rsh_agent "$PWD/fake_ssh" -np $NP)
    job ref -- "${two[@]}" "$S/app" $CALLS
    grep -q "^ranks $NP" ref.out || fail "the two-node launch does not work here: $(cat ref.err)"
    job trace LD_PRELOAD="$PRELOAD" LIBWRAP_ENABLE_TRACING=true -- "${two[@]}" -x LIBWRAP_JOB_PARTS=true "$S/app" $CALLS
    same trace ref
    d=$(only_dir trace)
    check_job "$d" $NP $steps "$hosts"
    check_trace "$d" $NP $steps
    [ "$(grep -c '^SYSTEM_TREE_NODE ' defs.txt)" = "$(echo $hosts | tr ' ' '\n' | sort -u | wc -l)" ] \
        || fail "not a system tree node per host: $(grep SYSTEM_TREE defs.txt)"
    # The clock offsets of the second node's ranks are measured (or, on a
    # loaded machine, found too slow to measure); rank 0's node is not.
    job clock LD_PRELOAD="$PRELOAD" LIBWRAP_ENABLE_TRACING=true LIBWRAP_VERBOSE=job -- "${two[@]}" "$S/app" $CALLS
    # The profile reduced over both nodes.
    check_reduced "$(only_dir clock)" $NP $steps
    if [ "${hosts##* }" = node2 ]; then
        for r in 2 3; do
            grep -Eq "^libwrap: rank $r: \[job\] clock: (rank 0's monotonic clock is ours [-+][0-9]+ ns|round trip)" \
                clock.err || fail "rank $r: no clock measurement: $(grep clock clock.err)"
        done
        # The same kernel: a measured offset is within its round trip of 0.
        awk '/monotonic clock is ours/ { for (i = 1; i < NF; i++) if ($i == "ours") o = $(i + 1) + 0;
                                        if (o < 0) o = -o; if (o > 200000) bad = 1 } END { exit bad }' \
            clock.err || fail "offset far from 0 on one machine: $(grep clock clock.err)"
    fi
    ! grep -Eq "^libwrap: rank [01]: \[job\] clock" clock.err || fail "ranks on rank 0's node measured their clock"
    ;;
plain)
    # A program without MPI: the rank comes from mpirun's environment only.
    # Its parts (LIBWRAP_JOB_PARTS=false reduces such a job through files:
    # the groups scenario).
    MPIRUN+=(-x LIBWRAP_JOB_PARTS=true)
    job ref -- "${MPIRUN[@]}" -np $NP "$S/plain" $CALLS
    job trace -- "${MPIRUN[@]}" -np $NP -x LD_PRELOAD="$PRELOAD" -x LIBWRAP_ENABLE_TRACING=true "$S/plain" $CALLS
    same trace ref
    d=$(only_dir trace)
    # Merged by the last rank: no chain call in this program.
    python3 - "$d" <<'PY' || fail "plain: parts lack the rank"
import json, sys
for r in range(4):
    p = json.load(open("%s/rank-%d/profile.json" % (sys.argv[1], r)))
    assert p["rank"] == r and p["size"] == 4 and p["launcher"] == "Open MPI"
PY
    "$OTF2_PRINT" -G "$d/traces.otf2" > defs.txt || fail "the last rank did not merge the trace"
    [ "$(grep -c '^LOCATION ' defs.txt)" = 8 ] || fail "expected 8 locations"
    [ "$(report_total "$d")" = $((NP * steps)) ] || fail "libwrap-report: not the job's total visits"
    job lt -- "${MPIRUN[@]}" -np $NP "$S/plain.lt" $CALLS
    same lt ref
    [ "$(report_total "$(only_dir lt)")" = $((NP * steps)) ] || fail "link-time: not the job's total visits"
    # Rank 2 measures nothing: without MPI no rank knows; the count stays
    # short, the trace is merged by libwrap-report.
    job idle_ref -- "${MPIRUN[@]}" -np $NP "$S/plain" $CALLS idle=2
    job idle -- "${MPIRUN[@]}" -np $NP -x LD_PRELOAD="$PRELOAD" -x LIBWRAP_ENABLE_TRACING=true "$S/plain" $CALLS idle=2
    same idle idle_ref
    d=$(only_dir idle)
    [ ! -e "$d/rank-2" ] || fail "rank 2 measured nothing but left a directory"
    [ ! -e "$d/traces.otf2" ] || fail "merged without rank 2's end being known"
    [ "$(report_total "$d")" = $((3 * steps)) ] || fail "libwrap-report on an unmerged job"
    libwrap-report --merge "$d" > merge.out || fail "libwrap-report --merge failed"
    grep -q "merged the traces of 3 processes" merge.out || fail "--merge: $(cat merge.out)"
    "$OTF2_PRINT" -G "$d/traces.otf2" > defs.txt || fail "--merge wrote no readable archive"
    [ "$(grep -c '^LOCATION ' defs.txt)" = 6 ] || fail "expected 6 locations after --merge"
    libwrap-report --merge "$d" > merge2.out || fail "a second --merge failed"
    ! grep -q merged merge2.out || fail "an up-to-date merge was redone"
    # Two measured programs per rank, one after the other: the second is
    # rank-N.1; the job's trace holds both (merged again at the end).
    job twice -- "${MPIRUN[@]}" -np $NP -x LD_PRELOAD="$PRELOAD" -x LIBWRAP_ENABLE_TRACING=true \
        sh -c "$S/plain $CALLS > /dev/null; $S/plain $CALLS > /dev/null"
    d=$(only_dir twice)
    for r in 0 1 2 3; do
        [ -f "$d/rank-$r/profile.json" ] && [ -f "$d/rank-$r.1/profile.json" ] || fail "rank $r: not two parts"
    done
    libwrap-report --timeline "$d" > /dev/null || fail "timeline of a job of 8 processes"
    "$OTF2_PRINT" -G "$d/traces.otf2" > defs.txt
    [ "$(grep -c '^LOCATION ' defs.txt)" = 16 ] || fail "expected 16 locations, the trace holds $(grep -c '^LOCATION ' defs.txt)"
    ;;
lone)
    # Without a launcher (an MPI singleton), and mpirun -np 1: as before,
    # a lone process's directory, named for its PID.
    job ref -- "$S/app" $CALLS
    job prof LD_PRELOAD="$PRELOAD" LIBWRAP_ENABLE_TRACING=true -- "$S/app" $CALLS
    same prof ref
    d=$(only_dir prof)
    [[ $d =~ /libwrap-[0-9]{8}_[0-9]{6}_[0-9]+$ ]] || fail "default directory name $d"
    $CHECK "$d" "visits('mlib_step') == $steps" "prof['rank'] == 0" "prof['size'] == 1" "'launcher' not in prof" \
        "prof['pid'] == int('$d'.rsplit('_', 1)[1])"
    "$OTF2_PRINT" "$d/traces.otf2" > events.txt || fail "lone trace unreadable"
    grep -q 'Name: "process ' <("$OTF2_PRINT" -G "$d/traces.otf2") || fail "lone trace: no process location group"
    job one_ref -- "${MPIRUN[@]}" -np 1 "$S/app" $CALLS
    job one LD_PRELOAD="$PRELOAD" -- "${MPIRUN[@]}" -np 1 "$S/app" $CALLS
    same one one_ref
    d=$(only_dir one)
    [ -f "$d/profile.json" ] && [ ! -e "$d/rank-0" ] || fail "mpirun -np 1: not a lone process's layout"
    # A lone process that measures nothing leaves nothing, tracing on too.
    job none_ref -- sh -c 'echo | md5sum; true'
    job none LD_PRELOAD="$PRELOAD" LIBWRAP_ENABLE_TRACING=true -- sh -c 'echo | md5sum; true'
    same none none_ref
    [ -z "$(ls -A none)" ] || fail "processes that measured nothing left: $(ls -A none)"
    ;;
messages)
    # Messages say which rank speaks; one warning per rank and variable.
    job ref -- "${MPIRUN[@]}" -np $NP "$S/app" $CALLS
    job warn -- "${MPIRUN[@]}" -np $NP -x LD_PRELOAD="$PRELOAD" -x LIBWRAP_TIMER=sundial "$S/app" $CALLS
    cmp -s warn.out ref.out && cmp -s warn.status ref.status || fail "a warning changed the program's output or status"
    [ "$(grep -c '^libwrap: ' warn.err)" = $NP ] || fail "expected one warning per rank: $(cat warn.err)"
    for r in 0 1 2 3; do
        grep -q "^libwrap: rank $r: warning: LIBWRAP_TIMER=\"sundial\" is not valid" warn.err \
            || fail "no warning naming rank $r: $(cat warn.err)"
    done
    # A directory that cannot be made: a clear message per rank naming it,
    # the program as without measurement.
    job bad -- "${MPIRUN[@]}" -np $NP -x LD_PRELOAD="$PRELOAD" -x LIBWRAP_EXPERIMENT_DIRECTORY=/proc/libwrap-job \
        "$S/app" $CALLS
    cmp -s bad.out ref.out && cmp -s bad.status ref.status || fail "an unwritable directory changed the program's output"
    [ -z "$(ls -A bad)" ] || fail "results went elsewhere: $(ls -A bad)"
    # Rank 0 writes the job's profile, so it alone says so; with a part
    # per rank, every rank does.
    grep -q "^libwrap: rank 0: warning: cannot create the experiment directory /proc/libwrap-job: .*set LIBWRAP_EXPERIMENT_DIRECTORY to a writable place" \
        bad.err || fail "rank 0: no clear message: $(cat bad.err)"
    [ "$(grep -c '^libwrap: ' bad.err)" = 1 ] || fail "reduced: more than rank 0's message: $(cat bad.err)"
    job badp -- "${MPIRUN[@]}" -np $NP -x LD_PRELOAD="$PRELOAD" -x LIBWRAP_EXPERIMENT_DIRECTORY=/proc/libwrap-job \
        -x LIBWRAP_JOB_PARTS=true "$S/app" $CALLS
    [ -z "$(ls -A badp)" ] || fail "results went elsewhere: $(ls -A badp)"
    for r in 0 1 2 3; do
        grep -q "^libwrap: rank $r: warning: cannot create the experiment directory /proc/libwrap-job: .*set LIBWRAP_EXPERIMENT_DIRECTORY to a writable place" \
            badp.err || fail "rank $r: no clear message: $(cat badp.err)"
    done
    # The program's exit status is its own (mpirun reports it; its message
    # names Open MPI's job id, which differs between any two runs).
    job st_ref -- "${MPIRUN[@]}" -np $NP "$S/app" $CALLS exit=3
    job st -- "${MPIRUN[@]}" -np $NP -x LD_PRELOAD="$PRELOAD" "$S/app" $CALLS exit=3
    [ "$(cat st_ref.status)" = 3 ] || fail "the unmeasured run did not exit with 3"
    for f in st_ref st; do sed -E 's/\[\[[0-9]+,/[[JOB,/' $f.err > $f.norm; done
    cmp -s st.out st_ref.out && cmp -s st.norm st_ref.norm && cmp -s st.status st_ref.status \
        || fail "exit status run differs: $(diff st_ref.norm st.norm | head -5)"
    # A rank that calls MPI_Abort writes its part first: the launcher then
    # ends the job, that rank perhaps by SIGKILL. (On a loaded machine
    # Open MPI's mpirun may not come back after an abort, measured or not:
    # the run is bounded, and what the rank wrote is what is checked.)
    rm -rf ab && mkdir ab
    (cd ab && timeout -k 5 60 "${MPIRUN[@]}" -np $NP -x LD_PRELOAD="$PRELOAD" -x LIBWRAP_JOB_PARTS=true \
        "$S/app" $CALLS abort=1 > ../ab.out 2> ../ab.err) || true
    d=$(only_dir ab)
    $CHECK "$d/rank-1" "prof['rank'] == 1" "visits('mlib_step') == $steps" > /dev/null ||
        fail "MPI_Abort: rank 1 did not write its part: $(ls "$d" "$d/rank-1" 2>&1 | tr '\n' ' ')"
    echo "ok: a rank that calls MPI_Abort writes its part"
    ;;
explicit_dir)
    # LIBWRAP_EXPERIMENT_DIRECTORY names the job's directory; a second job,
    # or a lone process, given the same name never mixes into it.
    job ref -- "${MPIRUN[@]}" -np $NP "$S/app" $CALLS
    rm -rf x
    mkdir x
    for i in 1 2; do
        (cd x && LIBWRAP_ENABLE_TRACING=true timeout 120 "${MPIRUN[@]}" -np $NP -x LD_PRELOAD="$PRELOAD" \
            -x LIBWRAP_ENABLE_TRACING -x LIBWRAP_EXPERIMENT_DIRECTORY=exp "$S/app" $CALLS > ../x$i.out 2> ../x$i.err) \
            || fail "job $i failed: $(cat x$i.err)"
        cmp -s x$i.out ref.out && cmp -s x$i.err ref.err || fail "job $i: output differs"
    done
    (cd x && LIBWRAP_EXPERIMENT_DIRECTORY=exp LD_PRELOAD="$PRELOAD" "$S/plain" 10 > /dev/null) || fail "lone run failed"
    [ "$(ls -A x | tr '\n' ' ')" = "exp exp.1 exp.2 " ] || fail "expected exp exp.1 exp.2, found: $(ls -A x)"
    check_job x/exp $NP $steps
    check_job x/exp.1 $NP $steps
    check_trace x/exp $NP $steps
    [ -f x/exp.2/profile.json ] && [ ! -e x/exp.2/rank-0 ] || fail "the lone process did not get exp.2"
    grep -qx "LIBWRAP_EXPERIMENT_DIRECTORY=$PWD/x/exp/rank-2" x/exp/rank-2/config.txt || fail "part config.txt"
    ;;
report)
    # libwrap-report on a job's reduced profile: the sums and the ranks'
    # extremes; no rank of its own to show.
    job red -- "${MPIRUN[@]}" -np $NP -x LD_PRELOAD="$PRELOAD" -x LIBWRAP_ENABLE_TRACING=true "$S/app" $CALLS
    d=$(only_dir red)
    libwrap-report "$d" > red.txt || fail "table of a reduced profile"
    grep -q "Open MPI job .*: $NP ranks, reduced at MPI_Finalize" red.txt || fail "reduced: header $(head -1 red.txt)"
    grep -Eq "^mlib_step +$((NP * steps)) .* $NP/$NP " red.txt || fail "reduced: table row: $(cat red.txt)"
    ! libwrap-report --rank 2 "$d" > /dev/null 2> red2.err || fail "--rank 2 of a reduced profile succeeded"
    grep -q "LIBWRAP_JOB_PARTS=true" red2.err || fail "--rank 2 of a reduced profile: $(cat red2.err)"
    libwrap-report --tree --flamegraph --timeline --html "$d" > /dev/null || fail "pictures of a reduced profile"
    grep -q "all ranks and threads" "$d/flamegraph.svg" || fail "reduced: the flame graph's tree"
    # Every table and picture of a job with its parts.
    job trace -- "${MPIRUN[@]}" -np $NP -x LD_PRELOAD="$PRELOAD" -x LIBWRAP_ENABLE_TRACING=true \
        -x LIBWRAP_JOB_PARTS=true "$S/app" $CALLS
    d=$(only_dir trace)
    libwrap-report "$d" > table.txt || fail "table"
    grep -q "Open MPI job .*: $NP ranks, $NP processes" table.txt || fail "table header: $(head -1 table.txt)"
    grep -Eq "^mlib_step +$((NP * steps)) .* $NP/$NP " table.txt || fail "table row: $(cat table.txt)"
    libwrap-report --format=json "$d" > table.json || fail "json"
    python3 - table.json $NP $steps <<'PY' || fail "the JSON table of a job"
import json, sys
doc, np, steps = json.load(open(sys.argv[1])), int(sys.argv[2]), int(sys.argv[3])
assert doc["job"]["size"] == np and len(doc["job"]["processes"]) == np, doc["job"]
assert [p["rank"] for p in doc["job"]["processes"]] == list(range(np))
row = {f["symbol"]: f for f in doc["functions"]}["mlib_step"]
assert row["visits"] == np * steps
r = row["ranks"]
assert r["called"] == np and r["visits"]["min"] == r["visits"]["max"] == steps, r
assert r["exclusive_ns"]["min"] <= r["exclusive_ns"]["mean"] <= r["exclusive_ns"]["max"], r
assert 0 <= r["exclusive_ns"]["max_rank"] < np
PY
    libwrap-report --format=tsv --rank 2 "$d" > rank2.tsv || fail "--rank 2"
    [ "$(awk -F'\t' '$1 == "mlib_step" { print $5 }' rank2.tsv)" = $steps ] || fail "--rank 2: $(cat rank2.tsv)"
    libwrap-report --rank 2 "$d" | head -1 | grep -q "rank 2 of job" || fail "--rank 2: header"
    ! libwrap-report --rank 9 "$d" > /dev/null 2> rank9.err || fail "--rank 9 of 4 ranks succeeded"
    grep -q "no profile of rank 9" rank9.err || fail "--rank 9: $(cat rank9.err)"
    libwrap-report --format=tsv --threads "$d" > threads.tsv || fail "--threads"
    [ "$(head -1 threads.tsv | cut -f1,2)" = "$(printf 'rank\tthread')" ] || fail "--threads: no rank column"
    [ "$(grep -c mlib_step threads.tsv)" = $((2 * NP)) ] || fail "--threads: not a row per rank and thread"
    libwrap-report --tree "$d" > tree.txt || fail "--tree"
    [ "$(grep -c '^rank [0-9] thread [0-9]* (' tree.txt)" = $((2 * NP)) ] || fail "--tree: a tree per rank and thread"
    libwrap-report --flamegraph --timeline --html "$d" > pictures.txt || fail "pictures"
    python3 - "$d" $NP $steps <<'PY' || fail "pictures of a job"
import json, sys, xml.etree.ElementTree as ET
from html.parser import HTMLParser
d, np, steps = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
svg = open(d + "/flamegraph.svg").read()
ET.fromstring(svg.split("?>", 1)[1])
assert all("rank %d thread" % r in svg for r in range(np))
tl = json.load(open(d + "/timeline.json"))["traceEvents"]
procs = {e["pid"]: e["args"]["name"] for e in tl if e["name"] == "process_name"}
assert sorted(procs.values()) == ["rank %d" % r for r in range(np)], procs
lanes = {(e["pid"], e["tid"]) for e in tl if e["name"] == "thread_name"}
assert len(lanes) == 2 * np, lanes
calls = [e for e in tl if e.get("ph") == "X" and e["name"] == "mlib_step"]
assert len(calls) == np * steps, len(calls)
html = open(d + "/report.html").read()
class P(HTMLParser):
    rows = 0
    def handle_starttag(self, tag, attrs):
        if tag == "tr" and ("class", "rank") in attrs:
            P.rows += 1
P().feed(html)
assert P.rows == np, P.rows
assert "rank 3 thread" in html and "ranks-table" in html
PY
    libwrap-report --rank 1 --timeline=rank1.json "$d" > /dev/null || fail "--rank 1 --timeline"
    python3 -c "
import json, sys
tl = json.load(open('rank1.json'))['traceEvents']
names = {e['args']['name'] for e in tl if e['name'] == 'thread_name'}
assert names == {'rank 1 thread 1', 'rank 1 thread 2'}, names
" || fail "--rank 1 --timeline: not rank 1's threads only"
    ;;
launcher_env)
    # Slurm's srun and a PMIx launcher, as the ranks see them: their
    # environment. The 4 processes of a step are started here with what
    # srun gives each task (SLURM_JOB_ID, SLURM_STEP_ID, SLURM_PROCID,
    # SLURM_STEP_NUM_TASKS), then with PMIx's (PMIX_RANK, PMIX_NAMESPACE).
    # A batch script's own SLURM_PROCID (no step id) is a lone process.
    "$S/plain" $CALLS > lone.out
    ranks slurm 4 'SLURM_JOB_ID=4242 SLURM_STEP_ID=7 SLURM_PROCID=$r SLURM_STEP_NUM_TASKS=4 SLURM_NTASKS=4' \
        LIBWRAP_ENABLE_TRACING=true
    for r in 0 1 2 3; do cmp -s lone.out slurm.$r.out || fail "slurm: rank $r's output differs"; done
    d=$(only_dir slurm)
    [ "$d" = slurm/libwrap-slurm-4242.7 ] || fail "Slurm job directory name: $d"
    LAUNCHER=Slurm
    python3 - "$d" <<'PY' || fail "slurm: the parts do not name their ranks"
import json, sys
for r in range(4):
    p = json.load(open("%s/rank-%d/profile.json" % (sys.argv[1], r)))
    assert p["rank"] == r and p["size"] == 4 and p["launcher"] == "Slurm" and p["job"] == "4242.7", p
PY
    "$OTF2_PRINT" -G "$d/traces.otf2" > defs.txt || fail "slurm: the last rank did not merge"
    [ "$(grep -c '^LOCATION ' defs.txt)" = 8 ] || fail "slurm: expected 8 locations"
    [ "$(report_total "$d")" = $((NP * steps)) ] || fail "slurm: not the job's total visits"
    ranks pmix 4 'PMIX_RANK=$r PMIX_NAMESPACE=prterun-node-77@1 SLURM_STEP_NUM_TASKS=4' \
        LIBWRAP_ENABLE_TRACING=true
    d=$(only_dir pmix)
    [ "$d" = pmix/libwrap-pmix-prterun-node-77_1 ] || fail "PMIx job directory name (a safe file name): $d"
    [ "$(report_total "$d")" = $((NP * steps)) ] || fail "pmix: not the job's total visits"
    # A batch script: SLURM_PROCID without a step is not a rank of a job.
    rm -rf batch && mkdir batch
    (cd batch && SLURM_JOB_ID=4242 SLURM_PROCID=0 SLURM_NTASKS=4 LD_PRELOAD=$PRELOAD "$S/plain" $CALLS > /dev/null)
    [[ $(only_dir batch) =~ ^batch/libwrap-[0-9]{8}_[0-9]{6}_[0-9]+$ ]] || fail "a batch script is a lone process"
    ;;
groups)
    # A job of more ranks than a group (LIBWRAP_JOB_GROUP_SIZE, 1000 by
    # default; 3 here): 8 ranks started as srun starts them, without MPI,
    # with a part per rank (LIBWRAP_JOB_PARTS=true). Parts in ranks/000
    # (0-2), ranks/001 (3-5), ranks/002 (6-7); each group counts its ranks
    # in its own finished.txt, the job's counts the 3 groups; the last
    # rank merges one trace of all 8 ranks; the report, --rank and the
    # Python package read the job as one.
    G=3 N=8
    "$S/plain" $CALLS > lone.out
    ranks grp $N 'SLURM_JOB_ID=5151 SLURM_STEP_ID=0 SLURM_PROCID=$r SLURM_STEP_NUM_TASKS=$N' \
        LIBWRAP_JOB_GROUP_SIZE=$G LIBWRAP_JOB_PARTS=true LIBWRAP_ENABLE_TRACING=true
    for r in $(seq 0 $((N - 1))); do
        cmp -s lone.out grp.$r.out || fail "groups: rank $r's output differs"
    done
    d=$(only_dir grp)
    grep -qx "JOB_GROUP_SIZE=$G" "$d/config.txt" || fail "groups: config.txt lacks JOB_GROUP_SIZE=$G"
    [ -z "$(ls -d "$d"/rank-* 2> /dev/null)" ] || fail "groups: parts at the top of the job directory"
    [ "$(ls "$d/ranks" | tr '\n' ' ')" = "000 001 002 " ] || fail "groups: ranks/ holds $(ls "$d/ranks")"
    for r in $(seq 0 $((N - 1))); do
        g=$(printf %03d $((r / G)))
        python3 - "$d/ranks/$g/rank-$r/profile.json" $r $N <<'PY' || fail "groups: rank $r's part"
import json, sys
p = json.load(open(sys.argv[1]))
assert p["rank"] == int(sys.argv[2]) and p["size"] == int(sys.argv[3]) and p["launcher"] == "Slurm", p
PY
    done
    for g in 000 001 002; do
        want=$([ $g = 002 ] && echo 2 || echo 3)
        [ "$(grep -c '^rank ' "$d/ranks/$g/finished.txt")" = "$want" ] || fail "groups: ranks/$g/finished.txt: $(cat "$d/ranks/$g/finished.txt")"
    done
    [ "$(grep -c '^group ' "$d/finished.txt")" = 3 ] && [ "$(wc -l < "$d/finished.txt")" = 3 ] ||
        fail "groups: the job's finished.txt should count the 3 groups: $(cat "$d/finished.txt")"
    "$OTF2_PRINT" -G "$d/traces.otf2" > defs.txt || fail "groups: the last rank did not merge"
    [ "$(grep -c '^LOCATION_GROUP ' defs.txt)" = $N ] || fail "groups: expected $N location groups"
    [ "$(grep -c '^LOCATION ' defs.txt)" = $((2 * N)) ] || fail "groups: expected $((2 * N)) locations"
    [ "$(report_total "$d")" = $((N * steps)) ] || fail "groups: not the job's total visits"
    # The job's profile, from the groups' records of the parts' trees.
    LAUNCHER=Slurm CHAINS=0 check_reduced "$d" $N $steps exit
    libwrap-report --format=tsv --rank 7 "$d" > r7.tsv || fail "groups: --rank 7"
    [ "$(awk -F'\t' '$1 == "mlib_step" { print $5 }' r7.tsv)" = $steps ] || fail "groups: --rank 7: not rank 7's visits"
    PYTHONPATH=$(libwrap-info python-path) /usr/bin/python3 - "$d" $N $steps <<'PY' || fail "groups: the Python package"
import sys, libwrap
e = libwrap.read(sys.argv[1])
assert e.is_job and not e.reduced and sorted(e.processes["rank"]) == list(range(int(sys.argv[2]))), e.processes
s = e.rank_statistics.set_index("symbol").loc["mlib_step"]
assert s["ranks"] == int(sys.argv[2]) and s["visits_min"] == s["visits_max"] == int(sys.argv[3]), s
# The job's profile beside the parts, when named: the same statistics.
j = libwrap.read(sys.argv[1] + "/profile.json")
assert j.reduced, j.processes
t = j.rank_statistics.set_index("symbol").loc["mlib_step"]
assert all(t[k] == s[k] for k in ("ranks", "visits_min", "visits_max", "visits_mean")), (t, s)
PY
    # The trace merged as a tree: the last rank of each group merged it
    # into ranks/G/traces.otf2 (readable alone, numbered as the job's);
    # the job's last rank wrote the job's definitions only. Its events are
    # those of a merge from the parts, and libwrap-report finds it up to
    # date.
    for g in 000 001 002; do
        want=$([ $g = 002 ] && echo 2 || echo 3)
        "$OTF2_PRINT" -G "$d/ranks/$g/traces.otf2" > gdefs.txt 2> print.err && [ ! -s print.err ] ||
            fail "groups: ranks/$g/traces.otf2: $(head -3 print.err)"
        [ "$(grep -c '^LOCATION_GROUP ' gdefs.txt)" = $want ] && [ "$(grep -c '^LOCATION ' gdefs.txt)" = $((2 * want)) ] ||
            fail "groups: ranks/$g/traces.otf2 does not hold its $want ranks"
    done
    flat_copy() { # flat_copy DIR: DIR's parts in flat/, merged from the parts
        rm -rf flat && cp -a "$1" flat && rm -rf flat/traces* flat/.traces-union flat/ranks/*/traces*
        libwrap-report --merge flat > merge.out || fail "groups: libwrap-report --merge of the parts failed"
    }
    flat_copy "$d"
    same_events "$d/traces.otf2" flat/traces.otf2 || fail "groups: the tree's merge differs from a merge of the parts"
    libwrap-report --merge "$d" > merge.out && ! grep -q merged merge.out ||
        fail "groups: libwrap-report merged the job's archive again: $(cat merge.out)"
    # A process of rank 4 that ends after the job's merge (a second
    # program): its group is merged again, and the job's archive holds
    # 9 processes.
    (cd grp && env SLURM_JOB_ID=5151 SLURM_STEP_ID=0 SLURM_PROCID=4 SLURM_STEP_NUM_TASKS=$N LIBWRAP_JOB_GROUP_SIZE=$G \
        LIBWRAP_JOB_PARTS=true LIBWRAP_ENABLE_TRACING=true LD_PRELOAD="$PRELOAD" "$S/plain" $CALLS > ../late.out 2> ../late.err) ||
        fail "groups: the late process failed"
    [ ! -s late.err ] && cmp -s lone.out late.out || fail "groups: the late process's output: $(head -3 late.err)"
    [ -d "$d/ranks/001/rank-4.1" ] || fail "groups: no part rank-4.1"
    "$OTF2_PRINT" -G "$d/traces.otf2" > defs.txt || fail "groups: the late process left no readable archive"
    [ "$(grep -c '^LOCATION_GROUP ' defs.txt)" = $((N + 1)) ] && [ "$(grep -c '^LOCATION ' defs.txt)" = $((2 * N + 2)) ] ||
        fail "groups: after the late process, not $((N + 1)) processes in the job's archive"
    flat_copy "$d"
    same_events "$d/traces.otf2" flat/traces.otf2 || fail "groups: after the late process, the tree's merge differs"
    # A group whose merge fails (here: a merge of it seems to be running):
    # one line says so, and the job's last rank merges from the parts.
    fb=fb/libwrap-slurm-5656.0
    rm -rf fb && mkdir -p $fb/ranks/001 && : > $fb/ranks/001/.merging
    for r in $(seq 0 $((N - 1))); do
        (cd fb && env SLURM_JOB_ID=5656 SLURM_STEP_ID=0 SLURM_PROCID=$r SLURM_STEP_NUM_TASKS=$N LIBWRAP_JOB_GROUP_SIZE=$G \
            LIBWRAP_ENABLE_TRACING=true LD_PRELOAD="$PRELOAD" "$S/plain" $CALLS > ../fb.$r.out 2> ../fb.$r.err) &
    done
    wait
    cat fb.*.err > fb.err
    [ "$(wc -l < fb.err)" = 1 ] &&
        grep -q "warning: otf2: cannot merge the trace of .*/ranks/001: .*; the job's trace is merged from the ranks' parts instead$" fb.err ||
        fail "groups: a group's failed merge: $(cat fb.err)"
    [ ! -e $fb/ranks/001/traces.otf2 ] && [ -e $fb/ranks/000/traces.otf2 ] || fail "groups: the group archives of the failed merge"
    "$OTF2_PRINT" -G "$fb/traces.otf2" > defs.txt && [ "$(grep -c '^LOCATION ' defs.txt)" = $((2 * N)) ] ||
        fail "groups: after a group's failed merge, no archive of the job's $((2 * N)) locations"
    flat_copy "$fb"
    same_events "$fb/traces.otf2" flat/traces.otf2 || fail "groups: after a group's failed merge, the job's archive differs"
    # The job's union file damaged, then a late process of rank 4: the
    # warning names the file, and the job is merged from the parts.
    rm -f $fb/ranks/001/.merging && printf 'not a union\n' > $fb/.traces-union
    (cd fb && env SLURM_JOB_ID=5656 SLURM_STEP_ID=0 SLURM_PROCID=4 SLURM_STEP_NUM_TASKS=$N LIBWRAP_JOB_GROUP_SIZE=$G \
        LIBWRAP_ENABLE_TRACING=true LD_PRELOAD="$PRELOAD" "$S/plain" $CALLS > ../late.out 2> ../late.err) ||
        fail "groups: the late process with a damaged union failed"
    [ "$(wc -l < late.err)" = 1 ] &&
        grep -q "cannot merge the trace of .*/ranks/001: .*/\.traces-union is damaged (not what the trace merge wrote); the job's trace is merged from the ranks' parts instead$" late.err ||
        fail "groups: a damaged union: $(cat late.err)"
    "$OTF2_PRINT" -G "$fb/traces.otf2" > defs.txt && [ "$(grep -c '^LOCATION ' defs.txt)" = $((2 * N + 2)) ] ||
        fail "groups: after a damaged union, not $((N + 1)) processes in the job's archive"
    flat_copy "$fb"
    same_events "$fb/traces.otf2" flat/traces.otf2 || fail "groups: after a damaged union, the job's archive differs"
    # The same where every group has its archive: still one warning (the
    # group's archive, which lacks the late process, is removed), and the
    # job is merged from the parts.
    printf 'not a union\n' > $d/.traces-union
    (cd grp && env SLURM_JOB_ID=5151 SLURM_STEP_ID=0 SLURM_PROCID=4 SLURM_STEP_NUM_TASKS=$N LIBWRAP_JOB_GROUP_SIZE=$G \
        LIBWRAP_JOB_PARTS=true LIBWRAP_ENABLE_TRACING=true LD_PRELOAD="$PRELOAD" "$S/plain" $CALLS > ../late2.out 2> ../late2.err) ||
        fail "groups: a late process with a damaged union and every group archive failed"
    [ "$(wc -l < late2.err)" = 1 ] && grep -q "\.traces-union is damaged" late2.err ||
        fail "groups: a damaged union where every group has its archive: $(cat late2.err)"
    [ ! -e $d/ranks/001/traces.otf2 ] && [ -e $d/ranks/000/traces.otf2 ] || fail "groups: the stale group archive stays"
    "$OTF2_PRINT" -G "$d/traces.otf2" > defs.txt && [ "$(grep -c '^LOCATION ' defs.txt)" = $((2 * N + 4)) ] ||
        fail "groups: after a damaged union, not $((N + 2)) processes in the job's archive"
    flat_copy "$d"
    same_events "$d/traces.otf2" flat/traces.otf2 || fail "groups: after a damaged union (every group archived), the job's archive differs"
    echo "ok: 8 ranks in 3 groups: parts, counts, one merged trace (a tree of group archives), the report and Python"
    # The default (LIBWRAP_JOB_PARTS=auto): the same job of 8 ranks in
    # groups writes the job's one profile, reduced through files at exit,
    # and no profile part (each rank's part holds its trace only; one
    # merged trace); a job of one group (3 ranks) a part per rank.
    ranks auto8 $N 'SLURM_JOB_ID=5454 SLURM_STEP_ID=0 SLURM_PROCID=$r SLURM_STEP_NUM_TASKS=$N' \
        LIBWRAP_JOB_GROUP_SIZE=$G LIBWRAP_ENABLE_TRACING=true
    d=$(only_dir auto8)
    grep -qx "LIBWRAP_JOB_PARTS=false" "$d/config.txt" &&
        grep -qx "# LIBWRAP_JOB_PARTS as set: auto (a job of $N ranks, more than LIBWRAP_JOB_GROUP_SIZE=$G)" "$d/config.txt" ||
        fail "auto, 8 ranks: config.txt: $(grep LIBWRAP_JOB_PARTS "$d/config.txt")"
    python3 - "$d" $N $steps <<'PY' || fail "auto, 8 ranks: not the job's one reduced profile"
import json, os, sys
d, np, steps = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
p = json.load(open(d + "/profile.json"))
assert p["reduced"]["ranks"] == np and p["reduced"]["ranks_reduced"] == np and p["reduced"]["at"] == "exit", p["reduced"]
r = {x["symbol"]: x for x in p["functions"]}["mlib_step"]["ranks"]
assert r["called"] == np and r["visits"]["min"] == r["visits"]["max"] == steps, r
parts = [os.path.join(g, e) for g in sorted(os.listdir(d + "/ranks")) for e in os.listdir(d + "/ranks/" + g) if e.startswith("rank-")]
assert len(parts) == np, parts
for part in parts:
    have = set(os.listdir(d + "/ranks/" + part))
    assert "traces.otf2" in have and not have & {"profile.json", "profile.txt"}, (part, have)
PY
    "$OTF2_PRINT" -G "$d/traces.otf2" > defs.txt || fail "auto, 8 ranks: the last rank did not merge"
    [ "$(grep -c '^LOCATION ' defs.txt)" = $((2 * N)) ] || fail "auto, 8 ranks: expected $((2 * N)) locations"
    [ "$(report_total "$d")" = $((N * steps)) ] || fail "auto, 8 ranks: not the job's total visits"
    ranks auto3 3 'SLURM_JOB_ID=5454 SLURM_STEP_ID=1 SLURM_PROCID=$r SLURM_STEP_NUM_TASKS=3' \
        LIBWRAP_JOB_GROUP_SIZE=$G
    d=$(only_dir auto3)
    grep -qx "LIBWRAP_JOB_PARTS=true" "$d/config.txt" &&
        grep -qx "# LIBWRAP_JOB_PARTS as set: auto (a job of 3 ranks, at most LIBWRAP_JOB_GROUP_SIZE=$G)" "$d/config.txt" ||
        fail "auto, 3 ranks: config.txt: $(grep LIBWRAP_JOB_PARTS "$d/config.txt")"
    LAUNCHER=Slurm CHAINS=0 check_reduced "$d" 3 $steps exit
    for r in 0 1 2; do
        $CHECK "$d/rank-$r" "prof['rank'] == $r" "prof['size'] == 3" "visits('mlib_step') == $steps" > /dev/null
    done
    echo "ok: LIBWRAP_JOB_PARTS=auto: the job's profile in groups, a part per rank in one group"
    # LIBWRAP_TRACE_MERGE=false: the job is complete, its trace is merged
    # afterwards by libwrap-report --merge (4 ranks in 2 groups: by
    # default the job's reduced profile beside the traced parts).
    ranks nomerge 4 'SLURM_JOB_ID=5353 SLURM_STEP_ID=0 SLURM_PROCID=$r SLURM_STEP_NUM_TASKS=4' \
        LIBWRAP_JOB_GROUP_SIZE=$G LIBWRAP_TRACE_MERGE=false LIBWRAP_ENABLE_TRACING=true
    d=$(only_dir nomerge)
    grep -qx "LIBWRAP_TRACE_MERGE=false" "$d/config.txt" || fail "no merge: config.txt lacks the setting"
    [ "$(wc -l < "$d/finished.txt")" = 2 ] || fail "no merge: the job is not complete: $(cat "$d/finished.txt")"
    [ ! -e "$d/traces.otf2" ] || fail "no merge: the last rank merged with LIBWRAP_TRACE_MERGE=false"
    libwrap-report --merge "$d" > merge.out || fail "no merge: libwrap-report --merge failed"
    grep -q "merged the traces of 4 processes" merge.out || fail "no merge: --merge: $(cat merge.out)"
    "$OTF2_PRINT" -G "$d/traces.otf2" > defs.txt || fail "no merge: --merge wrote no readable archive"
    [ "$(grep -c '^LOCATION ' defs.txt)" = 8 ] || fail "no merge: expected 8 locations after --merge"
    echo "ok: LIBWRAP_TRACE_MERGE=false: merged by libwrap-report --merge"
    # LIBWRAP_JOB_PARTS=false without MPI: the job's one profile, reduced
    # through files as the ranks exit (each group's records, then one
    # record per group); no part at all without tracing. Also for a job
    # of one group (3 ranks).
    for n in 8 3; do
        ranks red$n $n 'SLURM_JOB_ID=5252 SLURM_STEP_ID=$n SLURM_PROCID=$r SLURM_STEP_NUM_TASKS=$n' \
            LIBWRAP_JOB_GROUP_SIZE=$G LIBWRAP_JOB_PARTS=false
        for r in $(seq 0 $((n - 1))); do
            cmp -s lone.out red$n.$r.out || fail "reduced $n: rank $r's output differs"
        done
        d=$(only_dir red$n)
        python3 - "$d" $n $steps <<'PY' || fail "reduced $n: the job's profile is wrong"
import json, os, sys
d, np, steps = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
p = json.load(open(d + "/profile.json"))
assert p["reduced"] == {"ranks": np, "ranks_reduced": np, "at": "exit", "metrics_differ": False}, p["reduced"]
assert p["size"] == np and p["launcher"] == "Slurm", p
f = {x["symbol"]: x for x in p["functions"]}
assert list(f) == ["mlib_step"], list(f)
r = f["mlib_step"]["ranks"]
assert f["mlib_step"]["visits"] == np * steps, f["mlib_step"]
assert r["called"] == np and r["visits"]["min"] == r["visits"]["max"] == steps, r
assert 0 <= r["visits"]["min_rank"] < np and r["exclusive_ns"]["min"] <= r["exclusive_ns"]["mean"] <= r["exclusive_ns"]["max"], r
cp = {n["symbol"]: n for n in p["threads"][0]["callpath"]}
assert cp["mlib_step"]["visits"] == np * steps, cp
top = sorted(os.listdir(d))
want = ["config.txt", "finished.txt", "profile.json", "profile.txt", "profiles.lwrt"] + (["ranks"] if np > 3 else [])
assert top == want, top
PY
        grep -q "reduced at exit" "$d/profile.txt" || fail "reduced $n: profile.txt does not say how it was reduced"
        [ "$(report_total "$d")" = $((n * steps)) ] || fail "reduced $n: not the job's total visits"
        libwrap-report "$d" | head -1 | grep -q "Slurm job 5252.$n: $n ranks, reduced at exit" ||
            fail "reduced $n: the report's heading: $(libwrap-report "$d" | head -1)"
        PYTHONPATH=$(libwrap-info python-path) /usr/bin/python3 - "$d" $n $steps <<'PY' || fail "reduced $n: the Python package"
import sys, libwrap
e = libwrap.read(sys.argv[1])
n, steps = int(sys.argv[2]), int(sys.argv[3])
assert e.is_job and e.reduced and e.job["size"] == n and e.ranks == list(range(n)), e
assert e.functions.set_index("symbol").loc["mlib_step", "visits"] == n * steps
s = e.rank_statistics.set_index("symbol").loc["mlib_step"]
assert s["ranks"] == n and s["visits_min"] == s["visits_max"] == steps, s
try:
    e.imbalance("mlib_step")
    raise SystemExit("imbalance() on a reduced profile did not refuse")
except ValueError as x:
    assert "LIBWRAP_JOB_PARTS=true" in str(x)
PY
    done
    [ "$(ls red8/*/ranks/000 | tr '\n' ' ')" = "finished.txt profiles.lwrt " ] || fail "reduced 8: ranks/000 holds $(ls red8/*/ranks/000)"
    echo "ok: LIBWRAP_JOB_PARTS=false without MPI: one profile of the job, reduced through files"
    ;;
arguments)
    # Recorded arguments (LIBWRAP_ARGUMENTS) of a job's ranks, reduced as
    # its profile is: an integer (mlib_step's x) and a string (mlib_tag's
    # name, with its number and result), 4 ranks x 2 threads, the ranks'
    # calls of mlib_tag differing. The job's one profile (at MPI_Finalize
    # with Open MPI and MPICH, through files at exit without MPI) holds
    # the numbers check_arguments.py computes, exactly, and the same as
    # libwrap-report adds up from the same job's parts.
    ARGS='mlib_step:x,mlib_tag:*'
    job ref -- "${MPIRUN[@]}" -np $NP "$S/app" $CALLS tags
    grep -q "^ranks $NP, calls per thread $CALLS" ref.out || fail "the unmeasured run failed: $(cat ref.err)"
    for parts in false true; do
        job ompi_$parts -- "${MPIRUN[@]}" -np $NP -x LD_PRELOAD="$PRELOAD" -x LIBWRAP_ARGUMENTS="$ARGS" \
            -x LIBWRAP_JOB_PARTS=$parts "$S/app" $CALLS tags
        same ompi_$parts ref
    done
    d=$(only_dir ompi_false)
    check_reduced "$d" $NP $steps
    python3 -c 'import json, sys; assert json.load(open(sys.argv[1]))["reduced"]["at"] == "MPI_Finalize"' \
        "$d/profile.json" || fail "Open MPI: the arguments' job is not reduced at MPI_Finalize"
    python3 "$mpi_here/check_arguments.py" "$d" "$(only_dir ompi_true)" $NP $CALLS mpi ||
        fail "Open MPI: the reduced arguments"
    if [ -n "${MPICHCC:-}" ] && [ -x "$MPICHCC" ] && [ -n "${MPICHRUN:-}" ] && [ -x "$MPICHRUN" ]; then
        "$MPICHCC" -O2 -I"$mpi_here" "$mpi_here/mpi_app.c" -o app.mpich -L"$S/lib" -Wl,-rpath,"$S/lib" \
            -lmlib -pthread || fail "mpicc.mpich failed"
        job mref -- "$MPICHRUN" -n $NP "$PWD/app.mpich" $CALLS tags
        for parts in false true; do
            job mpich_$parts -- "$MPICHRUN" -n $NP -genv LD_PRELOAD "$PRELOAD" -genv LIBWRAP_ARGUMENTS "$ARGS" \
                -genv LIBWRAP_JOB_PARTS $parts "$PWD/app.mpich" $CALLS tags
            same mpich_$parts mref
        done
        LAUNCHER=PMI check_reduced "$(only_dir mpich_false)" $NP $steps
        python3 "$mpi_here/check_arguments.py" "$(only_dir mpich_false)" "$(only_dir mpich_true)" $NP $CALLS mpi ||
            fail "MPICH: the reduced arguments"
    else
        echo "MPICH not found (Debian: apt-get install mpich libmpich-dev): its part of the test is left out"
    fi
    # Without MPI, through files: 8 ranks in groups of 3 (the groups'
    # records, then the job's), against the same job's parts.
    for parts in false true; do
        PLAIN_ARGS=tags ranks plain_$parts 8 'SLURM_JOB_ID=5151 SLURM_STEP_ID=$parts SLURM_PROCID=$r SLURM_STEP_NUM_TASKS=8' \
            LIBWRAP_JOB_GROUP_SIZE=3 LIBWRAP_ARGUMENTS="$ARGS" LIBWRAP_JOB_PARTS=$parts
    done
    d=$(only_dir plain_false)
    [ "$(ls "$d" | tr '\n' ' ')" = "config.txt finished.txt profile.json profile.txt profiles.lwrt ranks " ] ||
        fail "without MPI: not the job's one profile: $(ls "$d")"
    python3 "$mpi_here/check_arguments.py" "$d" "$(only_dir plain_true)" 8 $CALLS plain ||
        fail "without MPI: the reduced arguments"
    # 40 ranks, each with a string of its own among mlib_tag's names: 43
    # distinct values, of which the job's profile keeps the 32 most
    # frequent (every merge keeps 32, a tree stays bounded), the rest
    # counted as "other"; alpha, beta, gamma (the most frequent) exact.
    PLAIN_ARGS=tags CALLS=10 ranks many 40 'SLURM_JOB_ID=4949 SLURM_STEP_ID=0 SLURM_PROCID=$r SLURM_STEP_NUM_TASKS=40' \
        LIBWRAP_ARGUMENTS=mlib_tag:name LIBWRAP_JOB_PARTS=false
    python3 - "$(only_dir many)/profile.json" <<'PY' || fail "40 ranks: the values kept of a string"
import json, sys
p = json.load(open(sys.argv[1]))
a = {x["symbol"]: x for x in p["functions"]}["mlib_tag"]["arguments"]
assert p["reduced"]["ranks_reduced"] == 40 and [x["name"] for x in a] == ["name"], (p["reduced"], a)
a = a[0]
names = {}
for r in range(40):
    for t in range(2):
        for k in range(r + t + 3):
            n = ("alpha", "beta", "gamma")[(r + k) % 3]
            names[n] = names.get(n, 0) + 1
v = {x["value"]: x["count"] for x in a["values"]}
assert a["count"] == sum(2 * r + 9 for r in range(40)) == 1920, a["count"]
assert len(a["values"]) == 32 and a["other"] == 22, (len(a["values"]), a["other"])
assert all(v[n] == c for n, c in names.items()), (v, names)
assert sorted(c for n, c in v.items() if n.startswith("rank-")) == [2] * 29, v
PY
    # A damaged records file: bytes that are no record, and a record of
    # rank 2 whose tree is garbage, between the records of ranks 0 and 1
    # and rank 2's own. Rank 2 reduces the job: two warnings naming the
    # file, and the job's profile still holds every rank, exactly.
    rm -rf dmg && mkdir dmg
    plain_rank() {
        (cd dmg && env SLURM_JOB_ID=5050 SLURM_STEP_ID=0 SLURM_PROCID=$1 SLURM_STEP_NUM_TASKS=3 \
            LIBWRAP_ARGUMENTS="$ARGS" LIBWRAP_JOB_PARTS=false LD_PRELOAD="$PRELOAD" "$S/plain" $CALLS tags \
            > ../dmg.$1.out 2> ../dmg.$1.err)
    }
    plain_rank 0 & plain_rank 1 & wait
    d=$(only_dir dmg)
    python3 - "$d/profiles.lwrt" <<'PY'
import struct, sys
with open(sys.argv[1], "ab") as f:
    f.write(b"not a record" * 3 + b"DRWL")  # 40 bytes, the record's magic last
    tree = struct.pack("<I", 0x4c575254) + b"\xff" * 60
    f.write(struct.pack("<IIqqQ", 0x4c575244, 0, 2, 3, len(tree)) + tree)
PY
    off=$(($(stat -c %s "$d/profiles.lwrt") - 136))
    plain_rank 2
    grep -qx "libwrap: rank 2: warning: $PWD/$d/profiles.lwrt: 40 bytes at offset $off are not a record of ranks' profiles (the file is damaged): they are skipped, the records around them are reduced" dmg.2.err &&
        grep -qx "libwrap: rank 2: warning: $PWD/$d/profiles.lwrt: the record of ranks 2 to 2 at offset $((off + 40)) is not readable (the file is damaged): the job's profile lacks them unless they have another record" dmg.2.err &&
        [ "$(wc -l < dmg.2.err)" = 2 ] || fail "a damaged records file: rank 2's warnings: $(cat dmg.2.err)"
    [ ! -s dmg.0.err ] && [ ! -s dmg.1.err ] || fail "a damaged records file: ranks 0 and 1 warned"
    PLAIN_ARGS=tags ranks dmg_parts 3 'SLURM_JOB_ID=5050 SLURM_STEP_ID=1 SLURM_PROCID=$r SLURM_STEP_NUM_TASKS=3' \
        LIBWRAP_ARGUMENTS="$ARGS" LIBWRAP_JOB_PARTS=true
    python3 "$mpi_here/check_arguments.py" "$d" "$(only_dir dmg_parts)" 3 $CALLS plain ||
        fail "a damaged records file: the reduced arguments"
    echo "ok: a damaged records file: warned, nothing else lost"
    ;;
fftw)
    # The issue's case with the real FFTW (libfftw3-dev): its default
    # wrapper (libwrap-init, make install), 4 ranks x 2 threads, 1000
    # fftw_execute per thread; LD_PRELOAD with -x and exported to mpirun,
    # and link time; profile and trace.
    [ -f /usr/include/fftw3.h ] || skip "FFTW not installed (Debian: apt-get install libfftw3-dev)"
    libwrap-init --name fftw3 -x c --libs -lfftw3 --prefix "$PWD/fprefix" fw > init.log 2>&1 ||
        { cat init.log; fail "libwrap-init of FFTW failed"; }
    grep -qx '#include <fftw3.h>' fw/libwrap.h || fail "libwrap.h of FFTW"
    printf '#include <fftw3.h>\nint main(void)\n{\n    fftw_free(fftw_malloc(16));\n    return 0;\n}\n' > fw/main.c
    make -C fw all install > make.log 2>&1 || { cat make.log; fail "make install of the FFTW wrapper failed"; }
    grep -q -- '--wrap=fftw_execute$' fw/fftw3.wrap || fail "fftw_execute is not wrapped"
    export LIBWRAP_PATH=$PWD/fprefix
    FPRE=$(libwrap-info preload fftw3)
    flink=(-lfftw3 -lm -pthread)
    "$MPICC" -O2 -Wall "$mpi_here/fftw_app.c" -o fapp "${flink[@]}" || fail "mpicc fftw_app.c"
    libwrap --libwrap=linktime:fftw3 "$MPICC" -O2 -Wall "$mpi_here/fftw_app.c" -o fapp.lt "${flink[@]}" ||
        fail "link-time FFTW wrapper with mpicc"
    E=1000
    job fref -- "${MPIRUN[@]}" -np $NP "$PWD/fapp" $E
    grep -q "^ranks $NP, threads 2, fftw_execute per thread $E" fref.out || fail "fftw_app: $(cat fref.out fref.err)"
    # check_fftw NAME: one job directory, every rank named, one archive with
    # 8 locations and every fftw_execute enter, the job's total in the report.
    check_fftw() {
        local d r
        d=$(only_dir "$1")
        # The job's profile: every rank's exact count.
        python3 - "$d/profile.json" $NP $((2 * E)) <<'PY' || fail "$1: the job's profile"
import json, sys
p, np, per = json.load(open(sys.argv[1])), int(sys.argv[2]), int(sys.argv[3])
f = {x["symbol"]: x for x in p["functions"]}["fftw_execute"]
assert p["reduced"]["ranks"] == np and f["visits"] == np * per, f
assert f["ranks"]["visits"]["min"] == f["ranks"]["visits"]["max"] == per, f["ranks"]
PY
        "$OTF2_PRINT" -G "$d/traces.otf2" > "$1.defs" 2> print.err || fail "$1: otf2-print -G: $(head -3 print.err)"
        [ "$(grep -c '^LOCATION ' "$1.defs")" = $((2 * NP)) ] || fail "$1: expected $((2 * NP)) locations"
        "$OTF2_PRINT" "$d/traces.otf2" > "$1.events" 2> print.err || fail "$1: otf2-print: $(head -3 print.err)"
        [ "$(awk '$1 == "ENTER" && /Region: "fftw_execute"/ { n++ } END { print n + 0 }' "$1.events")" = \
          $((2 * NP * E)) ] || fail "$1: not every fftw_execute enter in the job's trace"
        libwrap-report --format=tsv "$d" > "$1.tsv" || fail "$1: libwrap-report"
        [ "$(awk -F'\t' '$1 == "fftw_execute" { print $5 }' "$1.tsv")" = $((2 * NP * E)) ] ||
            fail "$1: libwrap-report: not the job's total fftw_execute visits"
    }
    job fx -- "${MPIRUN[@]}" -np $NP -x LD_PRELOAD="$FPRE" -x LIBWRAP_ENABLE_TRACING=true "$PWD/fapp" $E
    same fx fref
    check_fftw fx
    job fexp LD_PRELOAD="$FPRE" LIBWRAP_ENABLE_TRACING=true -- "${MPIRUN[@]}" -np $NP "$PWD/fapp" $E
    same fexp fref
    check_fftw fexp
    job flt LIBWRAP_ENABLE_TRACING=true -- "${MPIRUN[@]}" -np $NP "$PWD/fapp.lt" $E
    same flt fref
    check_fftw flt
    ;;
mpich)
    # MPICH: its Hydra launcher says the rank (PMI_RANK) but names no job;
    # MPI_Init does (rank 0's name for it), and the MPICH ABI's handles.
    [ -n "${MPICHCC:-}" ] && [ -x "$MPICHCC" ] && [ -n "${MPICHRUN:-}" ] && [ -x "$MPICHRUN" ] \
        || skip "MPICH's mpicc.mpich and mpiexec.mpich not found (Debian: apt-get install mpich libmpich-dev)"
    link=(-I"$mpi_here" -L"$S/lib" -Wl,-rpath,"$S/lib" -lmlib -pthread)
    "$MPICHCC" -O2 "$mpi_here/mpi_app.c" -o app.mpich "${link[@]}" || fail "mpicc.mpich failed"
    libwrap --libwrap=linktime:mlib "$MPICHCC" -O2 "$mpi_here/mpi_app.c" -o app.mpich.lt "${link[@]}" \
        || fail "link-time wrapper with mpicc.mpich failed"
    LAUNCHER=PMI
    job ref -- "$MPICHRUN" -n $NP "$PWD/app.mpich" $CALLS
    grep -q "^ranks $NP" ref.out || fail "MPICH does not run here: $(cat ref.err)"
    job trace -- "$MPICHRUN" -n $NP -genv LD_PRELOAD "$PRELOAD" -genv LIBWRAP_ENABLE_TRACING true "$PWD/app.mpich" $CALLS
    same trace ref
    d=$(only_dir trace)
    [[ $d =~ /libwrap-[0-9]{8}_[0-9]{6}_[0-9]+$ ]] || fail "MPICH job directory not named by rank 0: $d"
    check_job "$d" $NP $steps
    check_trace "$d" $NP $steps
    job lt LIBWRAP_ENABLE_TRACING=true -- "$MPICHRUN" -n $NP "$PWD/app.mpich.lt" $CALLS
    same lt ref
    check_trace "$(only_dir lt)" $NP $steps
    # MPMD with only some programs measured: Hydra does not tell the ranks,
    # so the measured ones would wait in MPI_Init for the others;
    # LIBWRAP_MPI_COLLECTIVES=false keeps the runtime out of MPI.
    job mpmd_ref -- "$MPICHRUN" -n 2 "$PWD/app.mpich" $CALLS : -n 2 "$PWD/app.mpich" $CALLS
    job mpmd -- "$MPICHRUN" -n 2 -env LD_PRELOAD "$PRELOAD" -env LIBWRAP_MPI_COLLECTIVES false \
        "$PWD/app.mpich" $CALLS : -n 2 "$PWD/app.mpich" $CALLS
    same mpmd mpmd_ref
    d=$(only_dir mpmd)
    for r in 0 1; do
        $CHECK "$d/rank-$r" "prof['rank'] == $r" "visits('mlib_step') == $steps" > /dev/null ||
            fail "MPMD: rank $r's part"
    done
    [ ! -e "$d/rank-2" ] && [ ! -e "$d/rank-3" ] || fail "MPMD: unmeasured ranks left parts"
    grep -qx 'LIBWRAP_MPI_COLLECTIVES=false' "$d/config.txt" || fail "MPMD: config.txt lacks the setting"
    # Traced, a call before MPI_Init (as MPI_Init itself is where the MPI
    # library is wrapped): the trace waits for the job's name, rank 0's
    # from MPI, not Hydra's for this node (libwrap-pmi-PID), and holds
    # every call.
    cat > pre.c <<'C'
#include <mpi.h>
#include <stdio.h>
#include "mlib.h"
int main(int argc, char **argv)
{
    long x = mlib_step(1);
    int rank;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    x += mlib_step(rank);
    printf("rank %d %ld\n", rank, x);
    MPI_Finalize();
    return 0;
}
C
    "$MPICHCC" -O2 -I"$mpi_here" pre.c -o pre.mpich -L"$S/lib" -Wl,-rpath,"$S/lib" -lmlib ||
        fail "mpicc.mpich failed (pre.c)"
    job mpich_pre -- "$MPICHRUN" -n 2 -genv LD_PRELOAD "$PRELOAD" -genv LIBWRAP_ENABLE_TRACING true "$PWD/pre.mpich"
    [ "$(cat mpich_pre.status)" = 0 ] || fail "MPICH, traced before MPI_Init: the job failed: $(cat mpich_pre.err)"
    d=$(only_dir mpich_pre)
    [[ ${d##*/} =~ ^libwrap-[0-9]{8}_[0-9]{6}_[0-9]+$ ]] ||
        fail "MPICH, traced before MPI_Init: the job is not named by rank 0 at MPI_Init: ${d##*/}"
    $CHECK "$d" "visits('mlib_step') == 4" >/dev/null || fail "MPICH, traced before MPI_Init: the visits"
    if [ -n "${OTF2_PRINT:-}" ]; then
        [ "$("$OTF2_PRINT" "$d/traces.otf2" 2>/dev/null | grep -c '^ENTER')" = 4 ] ||
            fail "MPICH, traced before MPI_Init: the trace lacks calls"
    fi
    # Without MPI: the launcher's process on this node names the job.
    job plain_ref -- "$MPICHRUN" -n $NP "$S/plain" $CALLS
    job plain -- "$MPICHRUN" -n $NP -genv LD_PRELOAD "$PRELOAD" -genv LIBWRAP_ENABLE_TRACING true "$S/plain" $CALLS
    same plain plain_ref
    d=$(only_dir plain)
    [[ $d =~ /libwrap-pmi-[0-9]+$ ]] || fail "PMI job directory name: $d"
    check_trace "$d" $NP $steps
    ;;
fortran)
    # A Fortran program (`use mpi`): its MPI_INIT and MPI_FINALIZE are
    # interposed too. Rank 2 measures nothing, yet at MPI_FINALIZE the
    # ranks agree that one did: every rank writes its part, the job is
    # counted complete and its last rank merges the trace.
    MPIFC=$(command -v mpifort.openmpi || command -v mpifort || true)
    [ -n "$MPIFC" ] && "$MPIFC" -O2 "$mpi_here/fortran_app.f90" -o fapp -L"$S/lib" -Wl,-rpath,"$S/lib" -lmlib \
        > fc.log 2>&1 || skip "no working Fortran MPI compiler (Debian: apt-get install gfortran): $(head -3 fc.log)"
    job fref -- "${MPIRUN[@]}" -np $NP "$PWD/fapp" $CALLS
    grep -q "^ranks $NP, sum " fref.out || fail "fortran_app: $(cat fref.out fref.err)"
    job ftrace -- "${MPIRUN[@]}" -np $NP -x LD_PRELOAD="$PRELOAD" -x LIBWRAP_ENABLE_TRACING=true \
        -x LIBWRAP_VERBOSE=job -x LIBWRAP_JOB_PARTS=true "$PWD/fapp" $CALLS
    cmp -s ftrace.out fref.out || fail "fortran: stdout differs from the unmeasured run"
    cmp -s ftrace.status fref.status || fail "fortran: exit status differs"
    grep -q "rank 1: \[job\] MPI_Init: " ftrace.err || fail "fortran: MPI_INIT was not interposed: $(head -5 ftrace.err)"
    d=$(only_dir ftrace)
    [ -d "$d/rank-2" ] || fail "fortran: rank 2 wrote no part (MPI_FINALIZE not interposed?)"
    [ "$(grep -c '^rank ' "$d/finished.txt")" = $NP ] || fail "fortran: not $NP finished ranks"
    for r in 0 1 3; do
        $CHECK "$d/rank-$r" "prof['rank'] == $r" "visits('mlib_step') == $CALLS" > /dev/null || fail "fortran: rank $r"
    done
    "$OTF2_PRINT" -G "$d/traces.otf2" > defs.txt 2> print.err || fail "fortran: the last rank did not merge the trace"
    ;;
*)
    fail "unknown scenario $scenario"
    ;;
esac
echo "PASS $scenario"
