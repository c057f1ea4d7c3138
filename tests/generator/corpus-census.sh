#!/bin/bash
# corpus-census.sh CASE: libwrap-gen's inventory of a corpus library against
# the census in $LIBWRAP_CORPUS/CASE (api-functions.txt): the declared
# functions, preprocessed by clang (exact) and by $CC (up to the documented
# differences in corpus-differences.txt), then the functions the symbol
# check keeps versus the census's "declared and exported".
# Exit 77 (skipped) when the corpus or the library's headers are missing.
set -u
case=$1
here=$(cd "$(dirname "$0")" && pwd)
gen=$LIBWRAP_STAGE/libexec/libwrap/libwrap-gen
dir=$LIBWRAP_CORPUS/$case
scratch=$LIBWRAP_SCRATCH
. "$LIBWRAP_SOURCE_DIR/tests/lib.sh"
[ -f "$dir/case.env" ] || { echo "SKIP: no corpus case $dir"; exit 77; }
# shellcheck disable=SC1091
source "$dir/case.env"
printf '%s\n' "$HEADERS" > libwrap.h
cut -f2 "$dir/api-functions.txt" | sort > census-declared.txt
awk -F'\t' '$3 == "exported" { print $2 }' "$dir/api-functions.txt" | sort > census-both.txt
fail=0

# compare STEP OURS CENSUS: every difference must be documented, and every
# documented plain symbol must differ.
compare() {
    local step=$1 ours=$2 census=$3
    { comm -23 "$ours" "$census" | sed 's/^/+/'; comm -13 "$ours" "$census" | sed 's/^/-/'; } > "diff-$step.txt"
    awk -v c="$case" -v s="$step" '$1 == c && $2 == s { print $3 }' "$here/corpus-differences.txt" > "doc-$step.txt"
    local line pat covered
    while IFS= read -r line; do
        covered=0
        while IFS= read -r pat; do
            # shellcheck disable=SC2053
            [[ $line == $pat ]] && { covered=1; break; }
        done < "doc-$step.txt"
        [ $covered = 1 ] || { echo "FAIL ($step): undocumented difference $line"; fail=1; }
    done < "diff-$step.txt"
    while IFS= read -r pat; do
        case $pat in *'*'*) continue ;; esac
        grep -qxF -- "$pat" "diff-$step.txt" || { echo "FAIL ($step): documented difference $pat does not occur"; fail=1; }
    done < "doc-$step.txt"
    echo "$step: $(wc -l < "$ours") ours, $(wc -l < "$census") census, $(wc -l < "diff-$step.txt") documented differences"
}

# declared SUFFIX: the symbols declared in scope (duplicates once).
declared() {
    grep -v -e ' skip=out-of-scope' -e ' skip=duplicate' "dump-$1.txt" | cut -d' ' -f1 | sort > "ours-$1.txt"
}

run_gen() { # TAG CC [extra args]
    local tag=$1 cc=$2; shift 2
    # shellcheck disable=SC2086
    if ! $cc -E $CPPFLAGS libwrap.h > "libwrap-$tag.i" 2> "cpp-$tag.err"; then
        echo "SKIP: $cc cannot preprocess the headers of $case (install ${DEV_PACKAGE:-its -dev package})"
        cat "cpp-$tag.err"; exit 77
    fi
    "$gen" --name "$NAME" --dump --forward typed --cppflags "$CPPFLAGS" "$@" "libwrap-$tag.i" > "dump-$tag.txt" \
        || { echo "FAIL: libwrap-gen on libwrap-$tag.i"; exit 1; }
}

clang=$(command -v clang || true)
if [ -n "$clang" ]; then
    run_gen clang "$clang"
    declared clang
    compare clang ours-clang.txt census-declared.txt
fi
run_gen cc "${CC:-cc}"
declared cc
compare gcc ours-cc.txt census-declared.txt

# The symbol check: what is neither MISSING nor UNCERTAIN is what the
# census calls declared and exported.
if [ -n "$clang" ]; then
    run_gen check "$clang" --ldflags "$LDFLAGS" --libs "$LIBS"
    grep -v -e ' skip=out-of-scope' -e ' skip=duplicate' -e ' skip=missing' -e ' skip=uncertain' \
        dump-check.txt | cut -d' ' -f1 | sort > ours-check.txt
    compare check ours-check.txt census-both.txt
    # Variadics without a va_list twin: as many as the census counts.
    want=$(sed -n 's/^variadic: .*without: \([0-9]*\).*/\1/p' "$dir/api-summary.txt")
    got=$(grep -c ' skip=variadic' dump-check.txt)
    [ "$got" = "${want:-0}" ] || { echo "FAIL: $got variadics without twin, census says ${want:-0}"; fail=1; }
    echo "wrapped: $(grep -vc ' skip=' dump-check.txt); left out: $(grep -o ' skip=[a-z-]*' dump-check.txt | sort | uniq -c | tr -s ' \n' ' ')"
fi
exit $fail
