#!/bin/bash
# plugins_missing_builtin: a runtime whose plugin directory lacks a
# built-in component (here papi, as in a build without PAPI or a package
# split) says so once and measures the rest: a copy of
# liblibwrap_runtime.so in a directory whose libwrap/ has every plugin but
# libwrap_plugin_papi.so, preloaded, with LIBWRAP_METRIC_PAPI and
# LIBWRAP_METRIC_RUSAGE set: exactly one warning, about papi; ru_minflt
# measured; the output unchanged.
TEST_LABEL=missing_builtin
. "$(dirname "$0")/lib.sh"
build_plug
mkdir -p rt/lib/libwrap
cp "$STAGE/lib/liblibwrap_runtime.so" rt/lib/
for p in "$PLUGIN_DIR"/libwrap_plugin_*.so; do
    case $p in */libwrap_plugin_papi.so) ;; *) ln -s "$p" rt/lib/libwrap/ ;; esac
done
[ ! -e rt/lib/libwrap/libwrap_plugin_papi.so ] || fail "set-up: papi is still there"
[ -e rt/lib/libwrap/libwrap_plugin_rusage.so ] || fail "set-up: rusage is missing"
copy=$PWD/rt/lib/liblibwrap_runtime.so

run_app plain plain -- io "$plugsrc/plug_lib.c" 100
# The copy comes first: it is the liblibwrap_runtime.so (by its soname)
# that the wrapper, or the link-time program, then uses.
run_app preload preload LD_PRELOAD="$copy $PWD/libwrap_plug_runtime.so" LIBWRAP_METRIC_PAPI=PAPI_TOT_INS \
    LIBWRAP_METRIC_RUSAGE=ru_minflt -- io "$plugsrc/plug_lib.c" 100
run_app linktime linktime LD_PRELOAD="$copy" LIBWRAP_METRIC_PAPI=PAPI_TOT_INS \
    LIBWRAP_METRIC_RUSAGE=ru_minflt -- io "$plugsrc/plug_lib.c" 100
for mode in preload linktime; do
    same_output plain $mode
    one_warning $mode "metric source 'papi' is not loaded: libwrap_plugin_papi.so is neither on LIBWRAP_PLUGIN_PATH \(not set\) nor in $PWD/rt/lib/libwrap$"
    $CHECK $mode.exp "visits('plug_read') == 1" "visits('plug_add') == 1000" \
        "[m['name'] for m in prof['metrics']] == ['ru_minflt']" "'ru_minflt' in fn('plug_read')['metrics']"
    grep -qx 'LIBWRAP_METRIC_PAPI=none' $mode.exp/config.txt && grep -qx '# LIBWRAP_METRIC_PAPI as set: PAPI_TOT_INS' $mode.exp/config.txt &&
        grep -qx 'LIBWRAP_METRIC_RUSAGE=ru_minflt' $mode.exp/config.txt || fail "$mode: config.txt: $(cat $mode.exp/config.txt)"
done
# The plugins were the copy's: the runtime looked for them beside itself.
run_app staged preload LIBWRAP_VERBOSE=plugin LD_PRELOAD="$copy $PWD/libwrap_plug_runtime.so" \
    LIBWRAP_METRIC_RUSAGE=ru_minflt -- io "$plugsrc/plug_lib.c" 100
grep -q "loaded plugin 'rusage' from $PWD/rt/lib/libwrap/libwrap_plugin_rusage.so" staged.err ||
    fail "the plugins were not taken from the copy's directory: $(cat staged.err)"
echo "PASS missing_builtin"
