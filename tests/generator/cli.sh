#!/bin/bash
# cli.sh: libwrap-gen's command line (docs/generator.md): outputs and the
# summary line, --dump writing nothing, the filter at generation time,
# "nothing left to wrap" naming its step, usage errors (exit 2).
set -u
gen=$LIBWRAP_STAGE/libexec/libwrap/libwrap-gen
. "$LIBWRAP_SOURCE_DIR/tests/lib.sh"
fail=0
check() { # DESCRIPTION COMMAND...: the command must succeed
    local what=$1; shift
    "$@" || { echo "FAIL: $what"; fail=1; }
}

cat > demo.h <<'H'
#include <stdio.h>
int demo_open(const char *path);
int demo_close(int fd);
void demo_internal_step(void);
int demo_log(const char *fmt, ...);
H
printf '#include "demo.h"\n' > libwrap.h
"${CC:-cc}" -E libwrap.h > libwrap.i || exit 1

# Generation: every output, one summary line, no temporary file.
"$gen" --name demo -o out libwrap.i > summary.txt 2> stderr.txt
check "generate exits 0" [ $? = 0 ]
for f in demo.inventory.json demo.functions.txt demo.wrappers.c demo.wrap demo.skipped.txt missing.filter uncertain.filter; do
    check "output $f" [ -f out/$f ]
done
check "no temporary files" [ -z "$(find out -name '*.tmp')" ]
if [ "$(uname -m)" = x86_64 ]; then
    check "summary line" grep -qx 'GEN   demo: 4 functions, 4 wrapped (ABI-level forwarding); left out 0 MISSING (missing.filter), 0 UNCERTAIN (demo.skipped.txt)' summary.txt
    check "ABI-level wrappers" grep -q 'libwrap_trampoline' out/demo.wrappers.c
fi
"$gen" --name demo --forward typed -o outt libwrap.i > summary-typed.txt 2> /dev/null
check "typed summary line" grep -qx 'GEN   demo: 4 functions, 3 wrapped (typed forwarding); left out 0 MISSING (missing.filter), 0 UNCERTAIN, 1 variadic without va_list twin (demo.skipped.txt)' summary-typed.txt
# A variadic function without a twin that the target does not export
# (cairo-ft.h declares fontconfig's FcPatternBuild) is MISSING, not one
# that --va-twin would help; one it exports stays a variadic without twin.
printf 'int demo_open(const char *p) { return p != 0; }\nint demo_close(int fd) { return fd; }\nvoid demo_internal_step(void) {}\n' > demo_lib.c
"${CC:-cc}" -shared -fPIC -o libdemo.so demo_lib.c
"$gen" --name demo --forward typed --ldflags "-L$PWD" --libs -ldemo -o outm libwrap.i > summary-missing.txt 2> /dev/null
check "typed: a variadic function not exported is MISSING" grep -qx 'GEN   demo: 4 functions, 3 wrapped (typed forwarding); left out 1 MISSING (missing.filter), 0 UNCERTAIN, 0 variadic without va_list twin (demo.skipped.txt)' summary-missing.txt
printf 'int demo_log(const char *fmt, ...) { return fmt != 0; }\n' >> demo_lib.c
"${CC:-cc}" -shared -fPIC -o libdemo.so demo_lib.c
"$gen" --name demo --forward typed --ldflags "-L$PWD" --libs -ldemo -o outv libwrap.i > summary-exported.txt 2> /dev/null
check "typed: a variadic function exported is one without twin" grep -qx 'GEN   demo: 4 functions, 3 wrapped (typed forwarding); left out 0 MISSING (missing.filter), 0 UNCERTAIN, 1 variadic without va_list twin (demo.skipped.txt)' summary-exported.txt
"$gen" --name demo --forward bogus --dump libwrap.i 2> fwd.err; check "bad --forward exits 2" [ $? = 2 ]
check "bad --forward says what is expected" grep -q 'expected abi or typed' fwd.err
check "functions.txt is the dump" cmp out/demo.functions.txt <("$gen" --name demo --dump libwrap.i)
check "wrap file lists wrapped symbols" grep -qx -- '--wrap=demo_open' out/demo.wrap

# --dump writes nothing.
mkdir dumpdir
(cd dumpdir && "$gen" --name demo --dump ../libwrap.i > ../dump.txt)
check "--dump writes no file" [ -z "$(ls -A dumpdir)" ]
check "--dump prints the dump" grep -q '^demo_open name=demo_open file=demo.h:2 ret=int (const char \*path)$' dump.txt

# The filter at generation time.
cat > demo.filter <<'F'
LIBWRAP_REGION_NAMES_BEGIN
  EXCLUDE demo_internal_*
LIBWRAP_REGION_NAMES_END
F
"$gen" --name demo --dump --filter demo.filter libwrap.i > filtered.txt
check "filtered function" grep -q '^demo_internal_step .* skip=filtered' filtered.txt
check "others kept" grep -q '^demo_close name=demo_close [^[]*)$' filtered.txt
printf 'LIBWRAP_REGION_NAMES_BEGIN\n  EXCLUDE *\nLIBWRAP_REGION_NAMES_END\n' > all.filter
"$gen" --name demo -o out2 --filter all.filter libwrap.i 2> all.err
check "everything filtered exits 1" [ $? = 1 ]
check "names the filter step" grep -q 'nothing left to wrap after the filter' all.err
check "no output after an error" [ ! -e out2/demo.inventory.json ]
printf 'LIBWRAP_REGION_NAMES_BEGIN\n  BOGUS x\n' > bad.filter
"$gen" --name demo --dump --filter bad.filter libwrap.i > /dev/null 2> bad.err
check "bad filter exits 1" [ $? = 1 ]
check "bad filter names file:line" grep -q '^bad.filter:2' bad.err

# Nothing in scope: libwrap.h names only a standard header next to nothing.
printf '#include <stdio.h>\n#include "empty.h"\n' > libwrap2.h
: > empty.h
"${CC:-cc}" -E libwrap2.h > libwrap2.i
"$gen" --name demo -o out3 libwrap2.i 2> scope.err
check "nothing in scope exits 1" [ $? = 1 ]
check "names the scope step" grep -q 'nothing left to wrap after the scope' scope.err
# A library header that includes gcc's intrinsics (SDL.h: <immintrin.h>):
# what libclang rejects there is gcc's; the library's function is wrapped,
# and nothing is said.
if [ -f "$(${CC:-cc} -print-file-name=include)/immintrin.h" ]; then
    printf '#include <immintrin.h>\nint intr_f(int x);\n' > intr.h
    printf '#include "intr.h"\n' > libwrap5.h
    "${CC:-cc}" -E libwrap5.h > libwrap5.i
    "$gen" --name intr -o out5 libwrap5.i > intr.out 2> intr.err
    check "a header with gcc's intrinsics generates" [ $? = 0 ]
    check "the library's function is wrapped" grep -qx -- '--wrap=intr_f' out5/intr.wrap
    check "nothing is said of gcc's headers" [ ! -s intr.err ]
fi
# libwrap.h names a header of macros only (libtiff's tiff.h, whose functions
# tiffio.h declares): the message names it.
printf '#include "tags.h"\n' > libwrap3.h
printf '#define TAG_WIDTH 256\ntypedef unsigned tag_t;\n' > tags.h
"${CC:-cc}" -E libwrap3.h > libwrap3.i
"$gen" --name demo -o out4 libwrap3.i 2> tags.err
check "a header without functions exits 1" [ $? = 1 ]
check "names the header without functions" grep -q 'libwrap.h includes tags.h, which declares no function of the library: include the header that declares its functions' tags.err

# libwrap-gen drop: a wrapper that does not compile is left out; errors in
# every wrapper left (a broken template, compiler or flags) fail.
errs() { # N...: an error in the typed wrapper of each function N (its index)
    for n in "$@"; do
        echo "outt/demo.wrappers.c:$(grep -n "libwrap_[a-z]*_$n\b" outt/demo.wrappers.c | head -1 | cut -d: -f1):5: error: expected ';'"
    done
}
drop() { "$gen" drop --inventory outt/demo.inventory.json --wrappers outt/demo.wrappers.c --log "$1" --out "$2"; }
ns=$(grep -o 'libwrap_w_[0-9]*' outt/demo.wrappers.c | sed 's/libwrap_w_//' | sort -un)
errs ${ns%%$'\n'*} > one.log
drop one.log one.dropped 2> one.err
check "one wrapper's error: dropped" [ $? = 0 ]
check "the one dropped" [ "$(cut -f1 one.dropped)" = demo_open ]
# An error inside a template of the preamble (libwrap_missing<T> with a
# type it cannot take), which gcc places by the wrapper line that
# instantiated it ("required from here"): that wrapper's function.
n0=${ns%%$'\n'*}
at=$(grep -n "libwrap_[a-z]*_$n0\b" outt/demo.wrappers.c | head -1 | cut -d: -f1)
printf "outt/demo.wrappers.c: In instantiation of 'static T libwrap_missing<T>::value() [with T = Handle]':\noutt/demo.wrappers.c:%s:100:   required from here\noutt/demo.wrappers.c:3:14: error: return type 'class Handle' is incomplete\n" \
    "$at" > inst.log
drop inst.log inst.dropped 2> inst.err
check "an error in the preamble's template: its instantiating wrapper dropped" [ "$(cut -f1 inst.dropped 2>/dev/null)" = demo_open ]
errs $ns > every.log
drop every.log every.dropped 2> every.err
check "every wrapper's error: fails" [ $? = 1 ]
check "says every wrapper fails" grep -q 'every one of the 3 wrappers of outt/demo.wrappers.c fails to compile' every.err
check "nothing dropped" [ ! -s every.dropped ]
# An error on an indented line, which gcc quotes as "  LINE |     text": the
# quote is the file's line (its indentation kept), so the function is
# dropped, not taken for a file generated again while it compiled (exit 3,
# which made make compile 5 times and fail). A quote that differs from the
# file still says so.
mkdir -p outd
bad_n=$(grep -n '^    return libwrap_r_[0-9]*;$' outt/demo.wrappers.c | head -1 | cut -d: -f1)
sed "${bad_n:-0}s/;\$/ +;/" outt/demo.wrappers.c > outd/demo.wrappers.c
bad_text=$(sed -n "${bad_n:-0}p" outd/demo.wrappers.c)
check "an indented line made wrong" [ "${bad_text% +;}" != "$bad_text" ]
dropd() { "$gen" drop --inventory outt/demo.inventory.json --wrappers outd/demo.wrappers.c --log "$1" --out "$2"; }
printf "outd/demo.wrappers.c:%s:25: error: expected expression before ';' token\n%5s | %s\n      |                         ^\n" \
    "$bad_n" "$bad_n" "$bad_text" > indented.log
dropd indented.log indented.dropped 2> indented.err
check "an error on an indented line: dropped (exit 0)" [ $? = 0 ]
check "the one on the indented line dropped" [ "$(cut -f1 indented.dropped 2>/dev/null)" = demo_open ]
printf "outd/demo.wrappers.c:%s:25: error: expected expression before ';' token\n%5s |     return other;\n" \
    "$bad_n" "$bad_n" > changed.log
dropd changed.log changed.dropped 2> changed.err
check "a quote unlike the file: compile again (exit 3)" [ $? = 3 ]
check "says the file changed" grep -q 'changed while it was compiled' changed.err
# The same with gcc's own messages, where the compiler is gcc.
if "${CC:-cc}" --version 2>/dev/null | grep -q 'Free Software Foundation'; then
    "${CC:-cc}" -x c -O2 -fPIC -I"$LIBWRAP_STAGE/include" -DLIBWRAP_LINKTIME -c outd/demo.wrappers.c -o outd/demo.o \
        2> gcc.log
    check "the wrong line does not compile" [ $? != 0 ]
    check "gcc quotes the indented line" grep -qx -- " *$bad_n |     return libwrap_r_[0-9]* +;" gcc.log
    dropd gcc.log gcc.dropped 2> gcc.err
    check "gcc's error on an indented line: dropped (exit 0)" [ $? = 0 ]
    check "the one gcc rejects dropped" [ "$(cut -f1 gcc.dropped 2>/dev/null)" = demo_open ]
fi

# Manual twins and usage errors.
"$gen" --name demo --dump --va-twin demo_log=demo_vlog libwrap.i 2> twin.err > /dev/null
check "unknown twin exits 1" [ $? = 1 ]
check "unknown twin named" grep -q 'demo_vlog is not declared' twin.err
"$gen" --dump libwrap.i 2> /dev/null; check "missing --name exits 2" [ $? = 2 ]
"$gen" --name 9bad --dump libwrap.i 2> /dev/null; check "bad --name exits 2" [ $? = 2 ]
"$gen" --name demo -x fortran --dump libwrap.i 2> /dev/null; check "bad -x exits 2" [ $? = 2 ]
"$gen" --name demo --bogus libwrap.i 2> /dev/null; check "unknown option exits 2" [ $? = 2 ]
"$gen" --name demo 2> /dev/null; check "no input exits 2" [ $? = 2 ]
"$gen" --help | grep -q '^usage: libwrap-gen'; check "--help" [ $? = 0 ]

# libwrap-gen compile-commands (libwrap-init --from-compile-commands): the
# flags of every entry; JSON that is not such a file is named at
# FILE:LINE:COLUMN with what was expected; every member is type-checked.
mkdir -p cc && cd cc
cc_ok() { # DESCRIPTION EXPECTED-LINE: the flags of cc.json
    local out; out=$("$gen" compile-commands cc.json 2> cc.err)
    check "compile-commands: $1 (exit 0)" [ $? = 0 ]
    check "compile-commands: $1 (flags)" [ "$out" = "$2" ]
}
cc_bad() { # DESCRIPTION PATTERN: exit 1 and a message matching PATTERN, no crash
    "$gen" compile-commands cc.json > /dev/null 2> cc.err
    local rc=$?
    check "compile-commands: $1 (exit $rc, want 1)" [ $rc = 1 ]
    grep -Eq -- "$2" cc.err || { echo "FAIL: compile-commands: $1: message"; cat cc.err; echo "  (wanted /$2/)"; fail=1; }
}
printf '[{"directory": "/src", "file": "a.c", "arguments": ["cc", "-Iinc", "-DX=1", "-c", "a.c"]},\n {"directory": "/src", "file": "b.c", "command": "cc -I /opt/i -std=c11 -c b.c"}]\n' > cc.json
cc_ok "arguments and command" "-I/src/inc -DX=1 -I/opt/i -std=c11"
printf '\xef\xbb\xbf[{"directory": "/src", "file": "a.c", "arguments": ["cc", "-Iinc"]}]\n' > cc.json
cc_ok "a UTF-8 byte order mark is skipped" "-I/src/inc"
printf '[{"directory": "/src", "file": "a.c", "arguments": ["cc", null]}]' > cc.json
cc_bad "null in arguments" 'cc.json: entry 1: "arguments" must be an array of strings: element 2 is null'
printf '[{"directory": "/src", "file": "a.c", "arguments": "cc -Iinc"}]' > cc.json
cc_bad "arguments as a string" 'cc.json: entry 1: "arguments" must be an array of strings, not a string'
printf '[{"directory": 5, "file": "a.c", "arguments": ["cc", "-Iinc"]}]' > cc.json
cc_bad "a number for the directory" 'cc.json: entry 1: "directory" must be a string, not a number'
printf '[{"directory": "/src", "file": "a.c", "command": null}]' > cc.json
cc_bad "null for the command" 'cc.json: entry 1: "command" must be a string, not null'
printf '[1]' > cc.json
cc_bad "an entry that is no object" 'cc.json: entry 1: expected an object'
: > cc.json
cc_bad "an empty file" 'cc.json: not a compile_commands.json: cc.json:1:1: the file is empty'
printf '[{"directory": "/src", "file": "a.c",\n  "command": "cc -c a.c"},\n {"directory": "/src"' > cc.json
cc_bad "a file cut off" "cc.json: not a compile_commands.json: cc.json:3:22: the file ends too soon \\(cut off\\?\\): the object begun at 3:2 is not closed: expected '}'"
printf '[{"directory": "/src", "file": "a.c", "command": "cc -c a.c"}]\n trailing {' > cc.json
cc_bad "text after the array" 'cc.json: not a compile_commands.json: cc.json:2:2: more text after the JSON array: expected the end of the file'
printf '[{"directory": "/src"\n  "file": "a.c"}]' > cc.json
cc_bad "invalid JSON" "cc.json: not a compile_commands.json: cc.json:2:3: invalid JSON: object value separator ',' expected"
cd ..

# installcheck's verdict on a profile whose call path nests 40 calls deep
# (a library's own calls, under LD_PRELOAD: MagickCore's nest 15 deep,
# past json-c's default depth of 32 levels), with demo_open called.
mkdir -p ic/exp
for f in base run; do printf 'out\n' > ic/$f.out; : > ic/$f.err; echo 0 > ic/$f.status; done
echo demo_open > ic/called.txt
echo demo_open > ic/referenced.txt
python3 - ic/exp/profile.json <<'PY'
import json, sys
node = {"symbol": "demo_close", "name": "demo_close", "visits": 1, "children": []}
for _ in range(40):
    node = {"symbol": "demo_open", "name": "demo_open", "visits": 1, "children": [node]}
json.dump({"libwrap_profile": 1, "functions": [{"symbol": "demo_open", "visits": 40}],
           "threads": [{"id": 0, "callpath": [node]}]}, open(sys.argv[1], "w"))
PY
"$gen" installcheck --mode runtime --inventory out/demo.inventory.json --baseline ic/base --run ic/run \
    --profile ic/exp --referenced ic/referenced.txt --called ic/called.txt > ic.log 2>&1
check "installcheck reads a deeply nested profile" grep -q 'OK    runtime: 1 wrapped function that main called was measured' ic.log
[ $fail = 0 ] || cat ic.log

[ $fail = 0 ] && echo ok
exit $fail
