# shellcheck shell=bash
# anchors.sh - the one lookup of installed wrappers, sourced by libwrap and
# libwrap-info (installed as libexec/libwrap/anchors.sh). A wrapper NAME is
# installed when PREFIX/share/libwrap/NAME.libwrap (its anchor: key=value
# lines written by make install) exists; the prefixes are those of
# LIBWRAP_PATH (colon-separated), then the toolchain's. Needs $toolchain.

anchor_prefixes=()
IFS=: read -r -a _lw_p <<< "${LIBWRAP_PATH:-}"
for _lw in ${_lw_p[@]+"${_lw_p[@]}"}; do [ -n "$_lw" ] && anchor_prefixes+=("$_lw"); done
anchor_prefixes+=("$toolchain")
unset _lw _lw_p

# find_anchor NAME: prints PREFIX/share/libwrap/NAME.libwrap of the first
# prefix that has it; status 1 when none has.
find_anchor() {
    local p
    for p in "${anchor_prefixes[@]}"; do
        if [ -f "$p/share/libwrap/$1.libwrap" ]; then echo "$p/share/libwrap/$1.libwrap"; return 0; fi
    done
    return 1
}

# anchor_missing NAME HINT: the message for a wrapper that is not installed.
anchor_missing() {
    echo "no installed wrapper '$1' in $(printf '%s ' "${anchor_prefixes[@]}")(the prefixes of LIBWRAP_PATH, then the toolchain): run make install in its libwrap-init directory, or add its install prefix to LIBWRAP_PATH; $2"
}

# anchor_get ANCHOR KEY: the value, verbatim.
anchor_get() {
    sed -n "s/^$2=//p" "$1" | head -n 1
}

# list_anchors FORMAT: printf FORMAT NAME VARIANTS DISPLAY_NAME PREFIX for
# every installed wrapper; status 1 when there is none.
list_anchors() {
    local p a found=1
    for p in "${anchor_prefixes[@]}"; do
        for a in "$p"/share/libwrap/*.libwrap; do
            [ -f "$a" ] || continue
            found=0
            # shellcheck disable=SC2059 # the format is the caller's
            printf "$1" "$(anchor_get "$a" name)" "$(anchor_get "$a" variants)" \
                "$(anchor_get "$a" display_name)" "$p"
        done
    done
    return $found
}
