#!/usr/bin/env bash
# check-layering-generator.sh [BUILD_DIR]: the generator's dependency rule.
#
# The rule is the "#   layer FOLDER: MAY-USE..." lines of
# generator/CMakeLists.txt (one place; generator/README.md explains it).
# Two checks, each naming every violation:
#   1. includes: a file of generator/FOLDER includes "OTHER/x.h" only when
#      OTHER is FOLDER or in its list; "OTHER/internal.h" only from OTHER;
#      <clang-c/...> only in the folders marked with libclang;
#   2. links: from nm on BUILD_DIR's object files of libwrap-gen (defined
#      versus undefined global symbols), the folders each folder calls must
#      be in its list, and the folder graph must have no cycle.
# Exit 0 when both hold, 1 otherwise (2: usage, or no object files).
set -euo pipefail
src=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build=${1:-$src/build}
gen=$src/generator
objdir=$build/generator/CMakeFiles/libwrap-gen.dir
fail=0

declare -A allowed clang
while read -r _ _ folder deps; do
    folder=${folder%:}
    if [[ $deps == *"(libclang)"* ]]; then clang[$folder]=1; deps=${deps//(libclang)/}; fi
    allowed[$folder]=" $folder ${deps} "
done < <(grep -E '^#   layer [a-z.]+:' "$gen/CMakeLists.txt")
if [ ${#allowed[@]} -eq 0 ]; then
    echo "check-layering-generator: $gen/CMakeLists.txt: no '#   layer FOLDER: ...' lines" >&2
    exit 2
fi

folder_of() { # path relative to generator/ -> its folder ("." for main.c)
    case $1 in */*) echo "${1%%/*}" ;; *) echo . ;; esac
}

# 1. includes
while IFS= read -r -d '' file; do
    rel=${file#"$gen"/}
    case $rel in installcheck/audit/*) continue ;; esac # its own shared object
    from=$(folder_of "$rel")
    if [ -z "${allowed[$from]+x}" ]; then
        echo "$gen/$rel: folder '$from' has no layer line in generator/CMakeLists.txt"
        fail=1
        continue
    fi
    while IFS=: read -r line inc; do
        if [[ $inc =~ \#[[:space:]]*include[[:space:]]*\"([a-z_]+)/([^\"]+)\" ]]; then
            to=${BASH_REMATCH[1]} header=${BASH_REMATCH[2]}
            if [[ ${allowed[$from]} != *" $to "* ]]; then
                echo "$gen/$rel:$line: includes \"$to/$header\": $from/ may use only:${allowed[$from]}"
                fail=1
            elif [ "$header" = internal.h ] && [ "$to" != "$from" ]; then
                echo "$gen/$rel:$line: includes \"$to/internal.h\": only $to/ may"
                fail=1
            fi
        elif [[ $inc =~ \#[[:space:]]*include[[:space:]]*\<clang-c/ ]] && [ -z "${clang[$from]+x}" ]; then
            echo "$gen/$rel:$line: includes libclang: only the folders marked (libclang) may"
            fail=1
        fi
    done < <(grep -nE '^[[:space:]]*#[[:space:]]*include' "$file" || true)
done < <(find "$gen" -name '*.[ch]' -print0 | sort -z)

# 2. links
# Only the objects of sources that exist: a build tree keeps the objects
# of files since moved or deleted.
objects=()
while IFS= read -r o; do
    rel=${o#"$objdir"/}
    [ -f "$gen/${rel%.o}" ] && objects+=("$o")
done < <(find "$objdir" -name '*.o' 2>/dev/null | sort)
if [ ${#objects[@]} -eq 0 ]; then
    echo "check-layering-generator: no object files of libwrap-gen under $objdir: build first" >&2
    exit 2
fi
declare -A owner
for o in "${objects[@]}"; do
    f=$(folder_of "${o#"$objdir"/}")
    while read -r sym; do
        owner[$sym]=$f
    done < <(nm -g --defined-only "$o" | awk 'NF == 3 { print $3 }')
done
edges=$(mktemp)
trap 'rm -f "$edges"' EXIT
for o in "${objects[@]}"; do
    rel=${o#"$objdir"/}
    f=$(folder_of "$rel")
    while read -r sym; do
        to=${owner[$sym]:-}
        [ -n "$to" ] && [ "$to" != "$f" ] || continue
        echo "$f $to" >> "$edges"
        if [[ ${allowed[$f]} != *" $to "* ]]; then
            echo "generator/${rel%.o}: calls $sym of $to/: $f/ may use only:${allowed[$f]}"
            fail=1
        fi
    done < <(nm -u "$o" | awk '{ print $NF }')
done
sort -u -o "$edges" "$edges"
if ! tsort "$edges" > /dev/null 2> "$edges.err"; then
    echo "the folders of generator/ call each other in a cycle:"
    grep -v 'input contains a loop' "$edges.err" | sed 's/^tsort: /  /'
    fail=1
fi
rm -f "$edges.err"

if [ $fail -eq 0 ]; then
    echo "generator layering: OK ($(wc -l < "$edges") folder dependencies, no cycle)"
fi
exit $fail
