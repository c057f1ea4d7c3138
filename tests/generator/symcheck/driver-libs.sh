#!/bin/bash
# generator_symcheck_driver_libs: a compiler driver that links a library by
# itself (mpicc's -lmpi, h5cc's -lhdf5) has that library among the default
# libraries (docs/symcheck.md): a target that is that very library has its
# functions linked, not UNCERTAIN, by the symbol tables and by the probes of
# `libwrap-gen check`; another library exporting the same names makes them
# UNCERTAIN, and a generation left with nothing to wrap says so, and why.
# Arguments: the symcheck driver, the staged libwrap-gen.
. "$(dirname "$0")/lib.sh"
GEN=$2

# libdrv is what the driver adds; libother exports the same names.
mkdir -p "$S/lib" "$S/out" "$S/out-other"
cat > "$S/drv.c" <<'EOS'
int d_one(void) { return 1; }
int d_two(void) { return 2; }
long labs(long x) { return x < 0 ? -x : x; }
EOS
"$CC" -fPIC -shared "$S/drv.c" -o "$S/lib/libdrv.so" &&
    "$CC" -fPIC -shared "$S/drv.c" -o "$S/lib/libother.so" || exit 1

# A wrapper driver like mpicc: it adds its library when it links.
cat > "$S/drvcc" <<EOS
#!/bin/sh
link=yes
for a in "\$@"; do case \$a in -c|-E|-S|-M|-MM) link=no ;; esac; done
[ \$link = yes ] && exec $CC "\$@" -L'$S/lib' -Wl,-rpath,'$S/lib' -ldrv
exec $CC "\$@"
EOS
chmod +x "$S/drvcc"
DRVCC=$S/drvcc

# The default libraries come from the driver's own link line.
out=$(CC=$DRVCC "$DRIVER" default)
expect "default: the library the driver adds" "$S/lib/libdrv\.so - shared$" "$out"
expect "default: libc as well" 'libc\.so\.6 libc\.so\.6 shared$' "$out"
reject "default: not the plugin or the dynamic linker's own line" 'liblto_plugin' "$out"
out=$(CC=$CC "$DRIVER" default)
reject "default of the plain compiler: no libdrv" 'libdrv' "$out"
# A static driver: its archives (gcc also prints COLLECT_GCC_OPTIONS='-static'
# '-o' 'FILE', which is no link line).
if [ -f "$($CC -print-file-name=libc.a)" ]; then
    out=$(CC="$CC -static" "$DRIVER" default)
    expect "default of a -static driver: libc.a" '/libc\.a - static$' "$out"
    reject "default of a -static driver: not libc.so.6" 'libc\.so\.6' "$out"
fi
# A driver that does not know -###: the fixed set (-lc, -lgcc_s, libgcc).
printf '#!/bin/sh\ncase " $* " in *" -### "*) echo "unknown option -###" >&2; exit 1 ;; esac\nexec %s "$@"\n' \
    "$CC" > "$S/oldcc"
chmod +x "$S/oldcc"
out=$(CC=$S/oldcc "$DRIVER" default)
expect "default without -###: libc.so.6" 'libc\.so\.6 libc\.so\.6 shared$' "$out"
expect "default without -###: the compiler runtime" 'libgcc' "$out"

# The symbol tables: the target the driver adds is no uncertainty (labs,
# which libc has too, resolves to it first); another library is.
out=$(CC=$DRVCC "$DRIVER" inventory "-L$S/lib" -ldrv d_one labs)
expect "tables, target = the driver's library: d_one wrapped" '^d_one wrap -$' "$out"
expect "tables, target = the driver's library: labs wrapped" '^labs wrap -$' "$out"
out=$(CC=$DRVCC "$DRIVER" inventory "-L$S/lib" -lother d_one)
expect "tables, another target: d_one UNCERTAIN, also in libdrv" '^d_one uncertain also in libdrv\.so$' "$out"

# inventory DIR NAME HEADER [GEN_ARGS...]: DIR/NAME.inventory.json from
# S/HEADER, as `make` writes it; the output of the generator in DIR/gen.log.
inventory() {
    local dir=$1 name=$2 header=$3; shift 3
    mkdir -p "$dir" && cp "$S/$header" "$dir/" || exit 1
    printf '#include "%s"\n' "$header" > "$dir/libwrap.h"
    (cd "$dir" && $CC -E libwrap.h > libwrap.i && "$GEN" --name "$name" -x c -o . "$@" libwrap.i) \
        > "$dir/gen.log" 2>&1
}
printf 'int d_one(void);\nint d_two(void);\nlong labs(long x);\n' > "$S/drv.h"
inventory "$S/gen" drv drv.h --ldflags "-L$S/lib" --libs -ldrv ||
    { echo "FAIL generating $S/gen"; cat "$S/gen/gen.log"; exit 1; }

# The probes: linked with the driver, which adds -ldrv itself.
out=$("$GEN" check --inventory "$S/gen/drv.inventory.json" --cc "$DRVCC" --ldflags "-L$S/lib" \
      --libs -ldrv -o "$S/out" --quiet 2>&1); rc=$?
expect "probes, target = the driver's library: exit 0" '^0$' "$rc"
expect "probes, target = the driver's library: all linked" \
    '^CHECK drv: 3 symbols, 3 linked, 0 MISSING .* 0 UNCERTAIN' "$out"
inventory "$S/gen" drv drv.h --ldflags "-L$S/lib" --libs -ldrv --probed "$S/out/check.cache"; rc=$?
expect "generation with those verdicts: all wrapped" '^0 GEN   drv: 3 functions, 3 wrapped' \
    "$rc $(cat "$S/gen/gen.log")"

# Another target than the driver's library: all UNCERTAIN, and generation,
# left with nothing, names the reason instead of blaming the flags.
inventory "$S/gen-other" drv drv.h --ldflags "-L$S/lib" --libs -lother ||
    { echo "FAIL generating $S/gen-other"; cat "$S/gen-other/gen.log"; exit 1; }
out=$("$GEN" check --inventory "$S/gen-other/drv.inventory.json" --cc "$DRVCC" \
      --ldflags "-L$S/lib" --libs -lother -o "$S/out-other" --quiet 2>&1)
expect "probes, another target: all UNCERTAIN" '^CHECK drv: 3 symbols, 0 linked, 0 MISSING .* 3 UNCERTAIN' "$out"
inventory "$S/gen-other" drv drv.h --ldflags "-L$S/lib" --libs -lother --probed "$S/out-other/check.cache"; rc=$?
log=$(cat "$S/gen-other/gen.log")
expect "nothing left (probes): fails" '^1$' "$rc"
expect "nothing left (probes): counts the UNCERTAIN and names the probes' reason" \
    'nothing left to wrap after the symbol check; all 3 functions are UNCERTAIN .*link probe: links without the target libraries too' "$log"
expect "nothing left (probes): says what to do" 'INCLUDE MANGLED' "$log"
reject "nothing left (probes): does not blame the exports" 'export none' "$log"
CC=$DRVCC inventory "$S/gen-tables" drv drv.h --ldflags "-L$S/lib" --libs -lother; rc=$?
log=$(cat "$S/gen-tables/gen.log")
expect "nothing left (tables): fails" '^1$' "$rc"
expect "nothing left (tables): names the default library" 'UNCERTAIN .*also in libdrv\.so' "$log"
reject "nothing left (tables): does not blame the exports" 'export none' "$log"
# Nothing exported at all is still the flags' fault.
printf 'int d_absent(void);\n' > "$S/absent.h"
inventory "$S/gen-absent" drv absent.h --ldflags "-L$S/lib" --libs -ldrv; rc=$?
log=$(cat "$S/gen-absent/gen.log")
expect "nothing left (MISSING): fails" '^1$' "$rc"
expect "nothing left (MISSING): the targets export none" \
    'export none of the declared functions .*not exported by libdrv\.so.*check --ldflags/--libs' "$log"

# Open MPI's or MPICH's mpicc, when installed: wrapping libmpi with it.
if command -v mpicc >/dev/null; then
    printf 'int MPI_Init(int *argc, char ***argv);\nint MPI_Finalize(void);\n' > "$S/mpi.h"
    inventory "$S/mpi" m mpi.h --libs -lmpi ||
        { echo "FAIL generating $S/mpi"; cat "$S/mpi/gen.log"; exit 1; }
    out=$("$GEN" check --inventory "$S/mpi/m.inventory.json" --cc mpicc --libs -lmpi \
          -o "$S/out-mpi" --quiet 2>&1)
    expect "mpicc, --libs -lmpi: linked" '^CHECK m: 2 symbols, 2 linked, 0 MISSING .* 0 UNCERTAIN' "$out"
else
    echo "skip mpicc: not installed"
fi

finish
