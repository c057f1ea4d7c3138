# bench/kit.sh - sourced by the benchmarks' --prepare: what a program
# needs beside glibc, copied into a folder that travels with it.
#
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
