# shellcheck shell=bash
# tests/lib.sh - the helpers every test script sources, first:
#
#   . "$LIBWRAP_SOURCE_DIR/tests/lib.sh"
#
# It makes a fresh scratch directory ($LIBWRAP_SCRATCH, the test's own) the
# working directory and removes every LIBWRAP_* setting inherited from the
# caller (each test makes its own) but those ctest gives and
# LIBWRAP_UPDATE_GOLDEN. Then:
#   fail MESSAGE   prints "FAIL (TEST_LABEL): MESSAGE" and the head of each
#                  file named in FAIL_SHOW that exists, exits 1
#   skip MESSAGE   prints "SKIP (TEST_LABEL): MESSAGE", exits 77 (skipped)
#   CHECK          the profile checker (tests/runtime/check_profile.py)
#   wrap_library   a library's wrappers built as the generated Makefile does
# TEST_LABEL is the ctest name unless the script set it before.
#
# LIBWRAP_UPDATE_GOLDEN=1 makes the tests with golden files rewrite them
# instead of comparing (review the diff before committing); no other name
# is accepted (tests/README.md).
: "${LIBWRAP_SCRATCH:?LIBWRAP_SCRATCH must name the scratch directory of the test (run it through ctest)}"
TEST_LABEL=${TEST_LABEL:-$(basename "$LIBWRAP_SCRATCH")}
FAIL_SHOW=${FAIL_SHOW:-}
CHECK="python3 $LIBWRAP_SOURCE_DIR/tests/runtime/check_profile.py"
rm -rf "$LIBWRAP_SCRATCH"
mkdir -p "$LIBWRAP_SCRATCH"
cd "$LIBWRAP_SCRATCH"
for v in $(compgen -e); do
    case $v in
        LIBWRAP_STAGE | LIBWRAP_SOURCE_DIR | LIBWRAP_BINARY_DIR | LIBWRAP_CORPUS | LIBWRAP_SCRATCH) ;;
        LIBWRAP_UPDATE_GOLDEN) ;;
        LIBWRAP_*) unset "$v" ;;
    esac
done

fail() {
    echo "FAIL ($TEST_LABEL): $*" >&2
    local f
    for f in $FAIL_SHOW; do
        [ -f "$f" ] && { echo "--- $f" >&2; head -20 "$f" >&2; }
    done
    exit 1
}

skip() {
    echo "SKIP ($TEST_LABEL): $*"
    exit 77
}

# wrap_library NAME INCLUDE CPPFLAGS LDFLAGS LIBS [libwrap-gen options...]:
# the wrappers of the library that `#include INCLUDE` declares, generated
# into gen-NAME/ and built here as the working directory's Makefile builds
# them: NAME-linktime.o and NAME-runtime.o (compiled under -Wall -Wextra
# -Werror), libwrap_NAME_linktime.so and libwrap_NAME_runtime.so (the exec,
# signal and dl interposers linked whole, the target after --no-as-needed),
# with an rpath to the runtime and to this directory.
# run_preloaded WRAPPER DIR CMD...: CMD unwrapped, then with WRAPPER
# preloaded measuring into DIR; its stdout, stderr and status must be the
# unwrapped run's (plain.out, plain.err; m.out, m.err).
run_preloaded() {
    local wrapper=$1 dir=$2 st=0
    shift 2
    "$@" > plain.out 2> plain.err || fail "the unwrapped run failed: $(cat plain.err)"
    LD_PRELOAD=$wrapper LIBWRAP_EXPERIMENT_DIRECTORY=$dir "$@" > m.out 2> m.err || st=$?
    [ $st = 0 ] || fail "status $st under the wrapper: $(cat m.err)"
    cmp -s plain.out m.out || fail "stdout differs: $(cat m.out)"
    cmp -s plain.err m.err || fail "stderr differs: $(cat m.err)"
}

wrap_library() {
    local name=$1 include=$2 cppflags=$3 ldflags=$4 libs=$5 mode
    shift 5
    # LW_TEST_HOST: wrappers for another machine (tests/aarch64), CC its compiler.
    local cc=${CC:-cc} rtlib=$LIBWRAP_STAGE/lib${LW_TEST_HOST:+/$LW_TEST_HOST}
    local rt=(-L"$rtlib" -llibwrap_runtime -Wl,-rpath,"$rtlib" -Wl,-rpath,"$PWD")
    local exec_objs=(-Wl,--whole-archive "$rtlib/liblibwrap_exec.a" -Wl,--no-whole-archive)
    printf '#include %s\n' "$include" > $name.h
    $cc -E $cppflags $name.h > $name.i || fail "$name: $include does not preprocess"
    CC=$cc "$LIBWRAP_STAGE/libexec/libwrap/libwrap-gen" --quiet --name $name -x c --cppflags "$cppflags" \
        ${LW_TEST_HOST:+--target "$LW_TEST_HOST"} \
        --ldflags "$ldflags" --libs "$libs" -o gen-$name "$@" $name.i || fail "$name: libwrap-gen failed"
    for mode in linktime runtime; do
        $cc -O2 -fPIC -Wall -Wextra -Werror -DLIBWRAP_${mode^^} -I"$LIBWRAP_STAGE/include" $cppflags \
            -c gen-$name/$name.wrappers.c -o $name-$mode.o ||
            fail "the $name $mode wrappers do not compile under -Wall -Wextra -Werror"
    done
    $cc -shared -o libwrap_${name}_linktime.so $name-linktime.o "${exec_objs[@]}" \
        -Wl,@gen-$name/$name.wrap $ldflags $libs "${rt[@]}"
    $cc -shared -o libwrap_${name}_runtime.so $name-runtime.o "${exec_objs[@]}" $ldflags \
        -Wl,--no-as-needed $libs "${rt[@]}" -ldl
}
