#!/bin/bash
# bench/scale/run.sh [RANKS...] - a large job's results on this machine,
# simulated (docs/mpi.md, "Scale"). For each size (default 1000 10000):
# RANKS processes of a small program (tests/mpi/plain_app.c: 2 threads
# calling a wrapped library) measured with LD_PRELOAD and tracing on, each
# given the environment that srun gives a task of one step (SLURM_JOB_ID,
# SLURM_STEP_ID, SLURM_PROCID, SLURM_STEP_NUM_TASKS), BATCH at a time. No
# MPI: the layout, the completion protocol and the merge are the real ones.
# Each size runs twice: traced with the default LIBWRAP_JOB_PARTS=auto (a
# part per rank in a job of at most a group, LIBWRAP_JOB_GROUP_SIZE; in a
# larger job the parts hold the ranks' traces only and the job's one
# profile is reduced through files), and untraced with
# LIBWRAP_JOB_PARTS=false (the job's one profile, reduced through files,
# at every size). MODES="trace parts reduced" adds a traced run with
# LIBWRAP_JOB_PARTS=true (a profile part per rank at every size).
# Prints the files and directories the job left, the largest directory,
# the metadata operations in the job directory (with strace: creates,
# mkdirs, links, renames, unlinks; appends to finished.txt files and the
# most appends to one file), LIBWRAP_JOB_PARTS as config.txt resolves it
# and the profile parts left, the trace's merge (in a job of groups: each
# group's, by its last rank, then the job's), and libwrap-report's
# wall time and peak memory on the job.
#   bench/scale/run.sh 1000 10000
# Environment: BUILD (default ./build), BATCH (default 8), CALLS (calls
# per thread, default 100), LIBWRAP_JOB_GROUP_SIZE (default 1000),
# MODES (default "trace reduced"), STRACE=0 to leave out the metadata count (strace slows every rank, and
# the merge most: its times are the job's own only without it).
set -eu
here=$(cd "$(dirname "$0")/../.." && pwd)
build=$(cd "${BUILD:-$here/build}" && pwd)
export PATH=$build/stage/bin:$PATH
CC=${CC:-cc}
BATCH=${BATCH:-8}
CALLS=${CALLS:-100}
SIZES=("$@")
[ ${#SIZES[@]} -gt 0 ] || SIZES=(1000 10000)
src=$here/tests/mpi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work"

mkdir lib
$CC -O2 -fPIC -shared -o lib/libmlib.so "$src/mlib.c"
libwrap-init --name mlib -x c --cppflags "-I$src" --ldflags "-L$PWD/lib -Wl,-rpath,$PWD/lib" --libs -lmlib \
    --prefix "$PWD/prefix" "$PWD/wrap" > init.log 2>&1 || { cat init.log; exit 1; }
printf '#include "mlib.h"\n' > wrap/libwrap.h
printf '#include "mlib.h"\nint main(void)\n{\n    return mlib_step(1) < 0;\n}\n' > wrap/main.c
make -C wrap all install > make.log 2>&1 || { cat make.log; exit 1; }
export LIBWRAP_PATH=$PWD/prefix
PRELOAD=$(libwrap-info preload mlib)
$CC -O2 -I"$src" "$src/plain_app.c" -o plain -L"$PWD/lib" -Wl,-rpath,"$PWD/lib" -lmlib -pthread
have_strace=${STRACE:-1}
[ "$have_strace" = 0 ] || command -v strace > /dev/null ||
    { have_strace=0; echo "strace not found: metadata operations not counted (apt-get install strace)"; }

now() { date +%s.%N; }
# run N MODE: the job of N ranks; MODE "trace" (traced, merged by the
# last rank, LIBWRAP_JOB_PARTS as by default), "parts" (the same with
# LIBWRAP_JOB_PARTS=true) or "reduced" (LIBWRAP_JOB_PARTS=false, no
# tracing: the job's one profile reduced through files at exit).
run() {
    local n=$1 mode=$2 settings
    case $mode in
        trace) settings="LIBWRAP_ENABLE_TRACING=true" ;;
        parts) settings="LIBWRAP_ENABLE_TRACING=true LIBWRAP_JOB_PARTS=true" ;;
        reduced) settings="LIBWRAP_JOB_PARTS=false" ;;
        *) echo "unknown mode $mode (trace, parts, reduced)"; exit 1 ;;
    esac
    rm -rf run && mkdir run
    # The ranks, BATCH at a time; with strace, the file system calls of
    # every rank (-f: its threads too) in one log per rank.
    t0=$(now)
    seq 0 $((n - 1)) | (cd run && xargs -P "$BATCH" -I{} env SLURM_JOB_ID=77 SLURM_STEP_ID=0 SLURM_PROCID={} \
        SLURM_STEP_NUM_TASKS="$n" LD_PRELOAD="$PRELOAD" $settings LIBWRAP_VERBOSE=job,plugin \
        $([ $have_strace = 1 ] && echo "strace -f -qq --seccomp-bpf -e trace=%file,%desc -e signal=none -o ../st.{}") \
        ./../plain "$CALLS" > /dev/null 2> ../log) || { echo "$n ranks: a rank failed"; tail -5 log; exit 1; }
    t1=$(now)
    d=$(ls -d run/libwrap-*)
    files=$(find "$d" -type f | wc -l)
    dirs=$(find "$d" -type d | wc -l)
    biggest=$(find "$d" -type d -exec sh -c 'echo "$(ls -A "$1" | wc -l) $1"' _ {} \; | sort -rn | head -1)
    printf '\n%d ranks, %s (%s at a time): %.1f s in all\n' "$n" "$mode" "$BATCH" "$(echo "$t1 - $t0" | bc)"
    printf '  LIBWRAP_JOB_PARTS=%s; profile parts: %d\n' \
        "$(sed -n 's/^LIBWRAP_JOB_PARTS=//p; s/^# LIBWRAP_JOB_PARTS as set: / as set: /p' "$d/config.txt" | tr -d '\n')" \
        "$(find "$d" -path '*/rank-*/profile.json' | wc -l)"
    printf '  left: %d files, %d directories; largest directory: %s entries (%s)\n' "$files" "$dirs" \
        "${biggest%% *}" "${biggest#*/libwrap-slurm-77.0}"
    # The trace's merge: in a job of groups, each group's last rank merges
    # its group (summed up here: on this machine while other ranks still
    # run), the job's last rank its own group's, then the job's archive.
    last=$(sed -n 's/^libwrap: \(rank [0-9]*\): .*merged the group archives.*/\1/p' log)
    grep -h 'merged [0-9]* trace parts into [^ ]*/ranks/' log |
        awk -v last="$last" '{ for (i = 1; i < NF; i++) if ($(i + 1) == "ms") { ms = $i; n++; s += ms; if (ms > max) max = ms } }
             index($0, "libwrap: " last ":") == 1 { mine = ms }
             END { if (n) printf "  %d group merges (by the last rank of each group): %.1f ms mean, %.1f ms at most; the job'"'"'s last rank'"'"'s: %.1f ms\n", n, s / n, max, mine }'
    grep -h 'merged .* trace parts\|the job.s profile of' log | grep -v ' into [^ ]*/ranks/' |
        sed 's/^libwrap[^:]*: /  /; s| into [^ ]*| into DIR|; s| to [^ ]*/profile.json| to DIR/profile.json|' || true
    if [ $have_strace = 1 ]; then
        # Only calls on the job directory; failed ones count too (a
        # metadata server answers them as well).
        cat st.* | grep -F "$PWD/$d" > fs.log || true
        creates=$(grep -cE 'open(at)?\(.*O_CREAT' fs.log || true)
        mkdirs=$(grep -cE '(^| )mkdir(at)?\(' fs.log || true)
        links=$(grep -cE '(^| )(sym)?link(at)?\(' fs.log || true)
        renames=$(grep -cE '(^| )rename(at2?)?\(' fs.log || true)
        unlinks=$(grep -cE '(^| )(unlink|rmdir)(at)?\(' fs.log || true)
        stats=$(grep -cE '(^| )(stat|lstat|newfstatat|statx|access|faccessat2?)\(' fs.log || true)
        appends=$(grep -E 'O_APPEND' fs.log | sed 's/[^"]*"\([^"]*\)".*/\1/' | sort | uniq -c | sort -rn)
        printf '  metadata operations in the job directory: %d creates, %d mkdirs, %d links, %d renames, %d unlinks, %d stats\n' \
            "$creates" "$mkdirs" "$links" "$renames" "$unlinks" "$stats"
        printf '  appends (finished.txt, profiles.lwrt): %d to %d files, at most %d to one file\n' \
            "$(echo "$appends" | awk '{ s += $1 } END { print s + 0 }')" "$(echo "$appends" | grep -c . || true)" \
            "$(echo "$appends" | head -1 | awk '{ print $1 + 0 }')"
        rm -f st.* fs.log
    fi
    # libwrap-report on the job: its time and peak memory.
    python3 - "$d" <<'PY'
import resource, subprocess, sys, time
t = time.time()
r = subprocess.run(["libwrap-report", "--format=tsv", sys.argv[1]], stdout=subprocess.PIPE, stderr=subprocess.PIPE)
dt = time.time() - t
kb = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
if r.returncode:
    sys.exit("libwrap-report failed: " + r.stderr.decode()[-500:])
print("  libwrap-report --format=tsv: %.2f s, %.0f MB peak" % (dt, kb / 1024))
PY
}

for n in "${SIZES[@]}"; do
    for mode in ${MODES:-trace reduced}; do
        run "$n" "$mode"
    done
done
