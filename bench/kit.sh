# bench/kit.sh - sourced by the benchmarks for --prepare KIT (the programs
# and what they need beside glibc, into a folder that travels with them)
# and --prepared KIT (run from it, on a machine without the toolchain).
#
# kit_mode ARGS...: `mode` (run, prepare or prepared) and `kit` (the
# folder, made absolute) from a leading --prepare KIT or --prepared KIT;
# `kit_shift` the arguments they took, for the caller's `shift`.
kit_mode() {
    mode=run kit= kit_shift=0
    case ${1:-} in
        --prepare | --prepared)
            mode=${1#--}
            mkdir -p "$2"
            kit=$(cd "$2" && pwd)
            kit_shift=2
            ;;
    esac
}

# kit_libs DEST FILE...: the shared libraries FILEs load (ldd), less glibc's
# own, copied into DEST (a run under LD_LIBRARY_PATH=DEST finds them).
kit_libs() {
    local dest=$1 f
    shift
    mkdir -p "$dest"
    for f in "$@"; do
        ldd "$f" | awk '$2 == "=>" && $3 ~ /^\// { print $3 }'
    done | sort -u | grep -v -E '/(libc|libm|libpthread|libdl|librt|libresolv|libutil)\.so|/ld-linux' |
        while read -r f; do cp -L "$f" "$dest/"; done
}
