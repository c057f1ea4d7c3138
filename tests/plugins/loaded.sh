#!/bin/bash
# plugins_loaded HAVE_PAPI: the core of the runtime needs only libc, and
# the built-in components bring their libraries only when asked for. ldd of
# liblibwrap_runtime.so, of the generated LD_PRELOAD wrapper and of a
# link-time program lists no third-party library; the files mapped into a
# measured process (/proc/self/maps) include OTF2's and PAPI's libraries
# (and their plugins) with tracing and a PAPI metric, and none of them
# without.
HAVE_PAPI=$1
TEST_LABEL=loaded
. "$(dirname "$0")/lib.sh"
build_plug

# What the runtime itself may bring: the C library and the loader (libdl
# and libpthread are parts of libc since glibc 2.34, separate before), and
# the measured program's own objects.
system='(linux-vdso\.so\.1|linux-gate\.so\.1|libc\.so\.6|libdl\.so\.2|libpthread\.so\.0|ld-linux[-a-z0-9_]*\.so\.[0-9]+)(\.[0-9]+)*'
ours='libplug\.so|liblibwrap_runtime\.so|libwrap_plug_runtime\.so|app_plain|app_linktime'

for obj in "$STAGE/lib/liblibwrap_runtime.so" libwrap_plug_runtime.so app_linktime \
           "$PLUGIN_DIR"/libwrap_plugin_{perf,rusage,proc,live}.so; do
    ldd "$obj" >ldd.out 2>&1 || fail "ldd $obj: $(cat ldd.out)"
    other=$(awk '{print $1}' ldd.out | sed 's|.*/||' | grep -Evx "$system|$ours" || true)
    [ -z "$other" ] || fail "$obj depends on $(echo $other): $(cat ldd.out)"
    echo "ok ldd $(basename "$obj"): $(awk '{print $1}' ldd.out | sed 's|.*/||' | tr '\n' ' ')"
done

# needed PLUGIN: the libraries the built-in plugin PLUGIN brings (its
# DT_NEEDED less the C library and the loader).
needed() {
    readelf -d "$PLUGIN_DIR/libwrap_plugin_$1.so" | sed -n 's/.*(NEEDED).*\[\(.*\)\]$/\1/p' |
        grep -Evx "$system" || true
}
otf2_libs=$(needed otf2)
[ -n "$otf2_libs" ] || fail "the otf2 plugin needs no library? $(readelf -d "$PLUGIN_DIR/libwrap_plugin_otf2.so")"
papi_libs=
[ "$HAVE_PAPI" != 1 ] || papi_libs=$(needed papi)

# has NAME LIB: NAME.out (the files mapped into the measured process)
# lists LIB, under its soname or the name of the file it links to
# (libfoo.so.10 -> libfoo.so.10.0.0).
has() { grep -Eqx -- "$(printf '%s' "$2" | sed 's/[.]/\\./g')(\.[0-9]+)*" "$1.out"; }
for mode in preload linktime; do
    run_app none_$mode $mode -- maps
    [ "$(cat none_$mode.rc)" = 0 ] || fail "$mode: maps failed: $(cat none_$mode.err)"
    no_messages none_$mode
    other=$(grep -Evx "$system|$ours" none_$mode.out || true)
    [ -z "$other" ] || fail "$mode: a run that asks for no component maps $(echo $other)"

    run_app rusage_$mode $mode LIBWRAP_METRIC_RUSAGE=ru_minflt -- maps
    no_messages rusage_$mode
    other=$(grep -Evx "$system|$ours|libwrap_plugin_rusage\.so" rusage_$mode.out || true)
    [ -z "$other" ] || fail "$mode: with rusage alone, $(echo $other) are mapped too"
    has rusage_$mode libwrap_plugin_rusage.so || fail "$mode: the rusage plugin is not mapped"

    # Tracing and PAPI: their plugins and libraries are in the process (a
    # PAPI that cannot count here may warn: what matters is what is mapped).
    run_app both_$mode $mode LIBWRAP_ENABLE_TRACING=true LIBWRAP_METRIC_PAPI=PAPI_TOT_INS -- maps
    [ "$(cat both_$mode.rc)" = 0 ] || fail "$mode: maps with tracing failed: $(cat both_$mode.err)"
    has both_$mode libwrap_plugin_otf2.so || fail "$mode: tracing on, the otf2 plugin is not mapped"
    for lib in $otf2_libs $papi_libs; do
        has both_$mode "$lib" || fail "$mode: $lib is not mapped with tracing and PAPI: $(cat both_$mode.out)"
        ! has none_$mode "$lib" && ! has rusage_$mode "$lib" || fail "$mode: $lib is mapped without being asked for"
    done
    [ "$HAVE_PAPI" != 1 ] || has both_$mode libwrap_plugin_papi.so || fail "$mode: the papi plugin is not mapped"
    echo "ok $mode: with tracing and PAPI: $(echo $otf2_libs $papi_libs); without: none"
done
[ "$HAVE_PAPI" = 1 ] || echo "note: built without PAPI: only OTF2's libraries were checked"
echo "PASS loaded"
