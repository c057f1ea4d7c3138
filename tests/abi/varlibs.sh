#!/usr/bin/env bash
# varlibs.sh NAME - the variadic functions that typed wrappers (and Score-P's
# and TAU's) leave out, wrapped by default at the ABI level and counted
# exactly: libcurl's curl_easy_setopt and curl_easy_getinfo, ncurses'
# mvprintw, mvwprintw, wprintw, printw and tiparm, libxml2's xmlStrPrintf.
# varlibs/NAME.c calls them a known number of times with every kind of
# argument; linked with the link-time wrapper and under LD_PRELOAD of the
# runtime one, it prints the same stdout and stderr and exits the same as
# unwrapped, and the profile has exactly those visits. Skipped (77) when the
# library's -dev package is not installed.
set -euo pipefail
name=${1:?usage: varlibs.sh curl|ncurses|libxml2}
src=$LIBWRAP_SOURCE_DIR/tests/abi/varlibs
gen=$LIBWRAP_STAGE/libexec/libwrap/libwrap-gen
inc=$LIBWRAP_STAGE/include
rtlib=$LIBWRAP_STAGE/lib

cppflags=() args=() expect_linked=() expect_preload=()
case $name in
curl)
    header='#include <curl/curl.h>' libs=(-lcurl) probe=curl/curl.h
    variadic=(curl_easy_setopt curl_easy_getinfo)
    expect=('visits("curl_easy_setopt") == 30' 'visits("curl_easy_getinfo") == 15'
            'visits("curl_easy_perform") == 5')
    # LD_PRELOAD also sees libcurl's own calls: curl_easy_perform makes a
    # multi handle (curl_easy_init again) and sets it up (curl_multi_setopt,
    # variadic too).
    expect_linked=('visits("curl_easy_init") == 5')
    expect_preload=('visits("curl_easy_init") == 10' 'visits("curl_multi_setopt") == 5')
    ;;
ncurses)
    header=$'#include <curses.h>\n#include <term.h>' libs=(-lncurses -ltinfo) probe=curses.h
    variadic=(mvprintw mvwprintw wprintw printw tiparm)
    expect=('visits("mvprintw") == 5' 'visits("mvwprintw") == 1' 'visits("wprintw") == 1'
            'visits("printw") == 1' 'visits("tiparm") == 1' 'visits("newterm") == 1')
    ;;
libxml2)
    header='#include <libxml/xmlstring.h>' libs=(-lxml2) probe=libxml2/libxml/xmlstring.h
    cppflags=(-I/usr/include/libxml2)
    variadic=(xmlStrPrintf)
    expect=('visits("xmlStrPrintf") == 10')
    ;;
*) echo "varlibs.sh: unknown library $name" >&2; exit 2 ;;
esac
[ -f "/usr/include/$probe" ] || [ -f "/usr/include/x86_64-linux-gnu/$probe" ] ||
    { echo "no $probe: skipped"; exit 77; }

TEST_LABEL="abi $name"
source "$LIBWRAP_SOURCE_DIR/tests/lib.sh"
here=$PWD

printf '%s\n' "$header" > libwrap.h
cc -E "${cppflags[@]}" libwrap.h > libwrap.i
"$gen" --name "$name" -x c --cppflags "${cppflags[*]}" --libs "${libs[*]}" -o gen libwrap.i > gen.log
cat gen.log
for s in "${variadic[@]}"; do
    grep -qx -- "--wrap=$s" "gen/$name.wrap" || fail "$s is not wrapped"
done
grep -q '^\[variadic\]' "gen/$name.skipped.txt" && fail "variadic functions left out: $(grep -A3 '^\[variadic\]' "gen/$name.skipped.txt")"
for mode in linktime runtime; do
    MODE=$(echo $mode | tr a-z A-Z)
    cc -O2 -fPIC -Wall -Wextra -Werror -DLIBWRAP_$MODE -I"$inc" -c "gen/$name.wrappers.c" -o $mode.o
done
rt=(-L"$rtlib" -llibwrap_runtime -Wl,-rpath,"$rtlib")
cc -shared -o "libwrap_${name}_linktime.so" linktime.o -Wl,@"gen/$name.wrap" "${libs[@]}" "${rt[@]}"
cc -shared -o "libwrap_${name}_runtime.so" runtime.o -Wl,--no-as-needed "${libs[@]}" "${rt[@]}" -ldl
cc -O2 "${cppflags[@]}" -c "$src/$name.c" -o prog.o
cc -o plain prog.o "${libs[@]}"
cc -o linked prog.o -Wl,@"gen/$name.wrap" -L. -l"wrap_${name}_linktime" "${libs[@]}" "${rt[@]}" -Wl,-rpath,"$here"

head -c 3000 "$LIBWRAP_SOURCE_DIR/LICENSE" > input.txt
args=("$here/input.txt")
s=0; ./plain "${args[@]}" > plain.out 2> plain.err || s=$?
echo $s > plain.status
[ -s plain.out ] || fail "the unwrapped program printed nothing"
for run in linked preload; do
    cmd=(./linked "${args[@]}")
    [ $run = preload ] && cmd=(env LD_PRELOAD=$here/libwrap_${name}_runtime.so ./plain "${args[@]}")
    s=0
    LIBWRAP_EXPERIMENT_DIRECTORY=$here/exp-$run "${cmd[@]}" > $run.out 2> $run.err || s=$?
    echo $s > $run.status
    for f in status out err; do
        cmp -s plain.$f $run.$f || { diff plain.$f $run.$f || true; fail "$run: $f differs from the unwrapped run"; }
    done
    checks=("${expect[@]}")
    if [ $run = linked ]; then checks+=("${expect_linked[@]}"); else checks+=("${expect_preload[@]}"); fi
    $CHECK "$here/exp-$run" "${checks[@]}" || fail "$run: visits differ from the calls of $name.c"
    echo "ok $run: stdout, stderr, exit status identical; ${checks[*]}"
done
