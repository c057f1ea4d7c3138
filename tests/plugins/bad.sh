#!/bin/bash
# plugins_bad: plugins that cannot be used are one warning each, and the
# run is otherwise the run without them: byte-identical stdout, the same
# exit status, the same profile. An unknown name, a file that is not a
# shared object, a shared object without libwrap_plugin_entry, one built
# for the next ABI version, a plugin of the other kind; and the search
# order: LIBWRAP_PLUGIN_PATH in its order, then the built-in directory.
TEST_LABEL=bad
. "$(dirname "$0")/lib.sh"
build_plug
pcc() { # pcc OUTPUT FLAGS...: a test plugin from bad_plugins.c
    local out=$1
    shift
    mkdir -p "$(dirname "$out")"
    $CC -O2 -fPIC -shared -fvisibility=hidden -Wall -Wextra -Werror -I"$STAGE/include" "$@" \
        -o "$out" "$plugsrc/bad_plugins.c"
}
pcc noentry.so -DBAD_NO_ENTRY
pcc abi_next.so -DBAD_ABI_NEXT
pcc p1/libwrap_plugin_live.so -DMARKER='"p1"'
pcc p2/libwrap_plugin_live.so -DMARKER='"p2"'
pcc init_says.so -DBAD_INIT_SAYS
pcc init_silent.so -DBAD_INIT_SILENT
seq 1 2000 >notaplugin.so # text, not ELF
mkdir empty

# same_profile A B: the same functions, visits, call paths and metrics.
same_profile() {
    python3 - "$1.exp/profile.json" "$2.exp/profile.json" <<'PY' || fail "$2: the profile differs from $1's"
import json, sys
def shape(path):
    p = json.load(open(path))
    def tree(nodes):
        return sorted((n["symbol"], n["visits"], sorted(n["metrics"]), tree(n["children"])) for n in nodes)
    return (p["metrics"], p.get("samples"),
            sorted((f["symbol"], f["name"], f["visits"], sorted(f["metrics"])) for f in p["functions"]),
            [tree(t["callpath"]) for t in p["threads"]])
a, b = shape(sys.argv[1]), shape(sys.argv[2])
if a != b:
    print(a, b, sep="\n"); sys.exit(1)
PY
}

for mode in preload linktime; do
    run_app base_$mode $mode -- io "$plugsrc/plug_lib.c" 100
    no_messages base_$mode
    # bad NAME PATTERN VAR=VALUE...: one warning matching PATTERN, else as base.
    bad() {
        local name=${1}_$mode pat=$2
        shift 2
        run_app "$name" $mode "$@" -- io "$plugsrc/plug_lib.c" 100
        same_output base_$mode "$name"
        one_warning "$name" "$pat"
        same_profile base_$mode "$name"
    }
    bad unknown_listener "event listener 'nosuch' is not loaded: libwrap_plugin_nosuch.so is neither on LIBWRAP_PLUGIN_PATH \(not set\) nor in $PLUGIN_DIR$" \
        LIBWRAP_LISTENERS=nosuch
    bad unknown_metric "metric source 'nosuch' is not loaded: libwrap_plugin_nosuch.so is neither on LIBWRAP_PLUGIN_PATH \($PWD/empty\) nor in $PLUGIN_DIR$" \
        LIBWRAP_METRIC_PLUGINS=nosuch LIBWRAP_PLUGIN_PATH=$PWD/empty
    bad missing_path "event listener '$PWD/nosuch.so' is not loaded: no such file" \
        LIBWRAP_LISTENERS=$PWD/nosuch.so
    bad not_elf "event listener '$PWD/notaplugin.so' is not loaded: .*notaplugin.so: invalid ELF header" \
        LIBWRAP_LISTENERS=$PWD/notaplugin.so
    bad no_entry "event listener '$PWD/noentry.so' is not loaded: $PWD/noentry.so has no libwrap_plugin_entry \(is it a libwrap plugin\?\)" \
        LIBWRAP_LISTENERS=$PWD/noentry.so
    bad abi_next "event listener '$PWD/abi_next.so' is not loaded: $PWD/abi_next.so was built for plugin ABI version $(($(sed -n 's/^#define LIBWRAP_PLUGIN_ABI_VERSION //p' "$STAGE/include/libwrap/plugin.h") + 1)), this runtime has version" \
        LIBWRAP_LISTENERS=$PWD/abi_next.so
    bad metric_as_listener "event listener 'proc' is not used: $PLUGIN_DIR/libwrap_plugin_proc.so provides no event listener" \
        LIBWRAP_LISTENERS=proc
    bad listener_as_metric "metric source 'live' is not used: $PLUGIN_DIR/libwrap_plugin_live.so provides no metric source" \
        LIBWRAP_METRIC_PLUGINS=live
    # An init that fails: one warning, with the plugin's own reason when it
    # gave one; config.txt lists only the plugins in use, and the setting
    # as a comment.
    bad init_says "event listener '$PWD/init_says.so' is not used: its init failed: marker: cannot open /dev/nosuch$" \
        LIBWRAP_LISTENERS=$PWD/init_says.so
    bad init_silent "event listener '$PWD/init_silent.so' is not used: its init failed \(returned -1\) without saying why$" \
        LIBWRAP_LISTENERS=$PWD/init_silent.so
    grep -qx 'LIBWRAP_LISTENERS=none' init_says_$mode.exp/config.txt &&
        grep -qx "# LIBWRAP_LISTENERS as set: $PWD/init_says.so" init_says_$mode.exp/config.txt ||
        fail "$mode: config.txt lists a listener whose init failed: $(grep LISTENERS init_says_$mode.exp/config.txt)"
    grep -qx 'LIBWRAP_LISTENERS=none' unknown_listener_$mode.exp/config.txt &&
        grep -qx '# LIBWRAP_LISTENERS as set: nosuch' unknown_listener_$mode.exp/config.txt ||
        fail "$mode: config.txt lists a listener never loaded: $(grep LISTENERS unknown_listener_$mode.exp/config.txt)"
    grep -qx 'LIBWRAP_METRIC_PLUGINS=none' listener_as_metric_$mode.exp/config.txt &&
        grep -qx '# LIBWRAP_METRIC_PLUGINS as set: live' listener_as_metric_$mode.exp/config.txt ||
        fail "$mode: config.txt lists a metric source not used: $(grep METRIC_PLUGINS listener_as_metric_$mode.exp/config.txt)"
    # Nothing of it is left: no live.txt from a plugin that was refused.
    [ ! -e listener_as_metric_$mode.exp/live.txt ] || fail "$mode: a refused plugin wrote live.txt"
    # Named in the wrong list first, then in the right one: one warning,
    # and it works as the listener it is.
    run_app both_lists_$mode $mode LIBWRAP_METRIC_PLUGINS=live LIBWRAP_LISTENERS=live -- io "$plugsrc/plug_lib.c" 100
    same_output base_$mode both_lists_$mode
    one_warning both_lists_$mode "metric source 'live' is not used: $PLUGIN_DIR/libwrap_plugin_live.so provides no metric source"
    [ -s both_lists_$mode.exp/live.txt ] || fail "$mode: live, named as a metric source first, was not loaded as a listener"
    grep -qx 'LIBWRAP_LISTENERS=live' both_lists_$mode.exp/config.txt &&
        grep -qx 'LIBWRAP_METRIC_PLUGINS=none' both_lists_$mode.exp/config.txt &&
        grep -qx '# LIBWRAP_METRIC_PLUGINS as set: live' both_lists_$mode.exp/config.txt &&
        ! grep -q '^# LIBWRAP_LISTENERS' both_lists_$mode.exp/config.txt ||
        fail "$mode: config.txt is not what was used: $(grep -e LISTENERS -e METRIC_PLUGINS both_lists_$mode.exp/config.txt)"

    # The search order: the first directory of LIBWRAP_PLUGIN_PATH that has
    # libwrap_plugin_live.so wins over the later ones and the built-in one.
    bad order1 "marker: marker p1$" LIBWRAP_LISTENERS=live LIBWRAP_PLUGIN_PATH=$PWD/p1:$PWD/p2
    bad order2 "marker: marker p2$" LIBWRAP_LISTENERS=live LIBWRAP_PLUGIN_PATH=$PWD/empty::$PWD/p2:$PWD/p1
    [ ! -e order1_$mode.exp/live.txt ] && [ ! -e order2_$mode.exp/live.txt ] ||
        fail "$mode: the built-in live ran although LIBWRAP_PLUGIN_PATH had one"
    run_app order3_$mode $mode LIBWRAP_LISTENERS=live LIBWRAP_PLUGIN_PATH=$PWD/empty -- io "$plugsrc/plug_lib.c" 100
    same_output base_$mode order3_$mode
    no_messages order3_$mode
    [ -f order3_$mode.exp/live.txt ] || fail "$mode: the built-in live was not found after LIBWRAP_PLUGIN_PATH"
    # A path is a path: the same plugin named by its file.
    run_app bypath_$mode $mode LIBWRAP_METRIC_PLUGINS=$PLUGIN_DIR/libwrap_plugin_proc.so LIBWRAP_METRIC_PROC=rchar \
        -- io "$plugsrc/plug_lib.c" 100
    same_output base_$mode bypath_$mode
    no_messages bypath_$mode
    $CHECK bypath_$mode.exp "fn('plug_read')['metrics'] == {'rchar': 100}"
    echo "ok $mode"
done
echo "PASS bad"
