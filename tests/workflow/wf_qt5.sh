#!/usr/bin/env bash
# Qt 5 Gui + Widgets, the library-wrapping paper's case, with no edit:
# examples/qt5/init.sh (the paper's init line), make, make check, make
# install, make installcheck. Then:
#   - the link-time profile of the paper's main has its 7 calls once each,
#     and the LD_PRELOAD profile has Qt's own calls beneath them;
#   - qt_app.cc (signals connected by pointer-to-member, QString::sprintf,
#     painted images and a grabbed widget's pixels) behaves exactly as
#     unwrapped in both modes: exit status, stdout and stderr;
#   - Qt signals are left out with their own reason, overloads have
#     readable names.
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
qt=/usr/include/x86_64-linux-gnu/qt5
[ -d "$qt/QtWidgets" ] || { echo "SKIP: Qt 5 headers not installed (qtbase5-dev)"; exit 77; }
export QT_QPA_PLATFORM=offscreen XDG_RUNTIME_DIR=$scratch/xdg
mkdir -p -m 700 "$XDG_RUNTIME_DIR"
prefix=$scratch/prefix
export LIBWRAP_PATH=$prefix

step "init and make, make check, make install, make installcheck"
run_ok init.log bash "$examples/qt5/init.sh" "$scratch/w" "$prefix"
cd w
run_ok make.log make
cat make.log
grep -Eq '^GEN .* [0-9]+ Qt signals' make.log || fail "signals are not reported as left out"
grep -q 'that do not parse' make.log && fail "declarations that do not parse"
grep -q -- '--wrap=_ZN15QAbstractButton7clickedEb$' qtgui_and_qtwidgets.wrap && fail "QAbstractButton::clicked (a signal) is wrapped"
grep -q -- '--wrap=_ZN15QAbstractButton5clickEv$' qtgui_and_qtwidgets.wrap || fail "QAbstractButton::click is not wrapped"
grep -A3 '^\[signal\]' qtgui_and_qtwidgets.skipped.txt | head -4
for m in LINKTIME RUNTIME; do
    run_ok werror.log "$CXX" -x c++ -O2 -fPIC -Wall -Wextra -Werror -I"$LIBWRAP_STAGE/include" -DLIBWRAP_$m \
        -c qtgui_and_qtwidgets.wrappers.c -o werror.o
done
rm -f werror.o
echo "ok: the wrappers compile under -Wall -Wextra -Werror in both modes"
run_ok check.log make check JOBS=2
tail -n 3 check.log
run_ok install.log make install
run_ok ic.log make installcheck
cat ic.log
grep -q 'OK .*linktime: .*stdout, stderr and exit status identical' ic.log || fail "installcheck linktime"
grep -q 'OK .*runtime: .*stdout, stderr and exit status identical' ic.log || fail "installcheck runtime"

step "the paper's main: its 7 calls once each (link time), Qt's own beneath (LD_PRELOAD)"
python3 - installcheck/linktime/profile.json installcheck/runtime/profile.json <<'PY'
import json, sys
want = ["QApplication::QApplication(int &, char **, int)", "QWidget::QWidget(QWidget *, Qt::WindowFlags)",
        "QImage::QImage(int, int, QImage::Format)", "QWidget::show()", "QApplication::exec()",
        "QWidget::~QWidget()", "QApplication::~QApplication()"]
lt = json.load(open(sys.argv[1]))
visits = {f["name"]: f["visits"] for f in lt["functions"]}
bad = [(n, visits.get(n)) for n in want if visits.get(n) != 1]
if bad:
    sys.exit("link time: not visited once: %s\nvisited: %s" % (bad, sorted(visits)))
rt = json.load(open(sys.argv[2]))
def children(nodes, name):
    for n in nodes:
        if n["name"] == name:
            return n.get("children", [])
        c = children(n.get("children", []), name)
        if c:
            return c
    return []
roots = [t["callpath"] for t in rt["threads"]]
below = [c["name"] for r in roots for c in children(r, "QApplication::QApplication(int &, char **, int)")]
if not below:
    sys.exit("LD_PRELOAD: no Qt call measured beneath QApplication::QApplication")
print("ok: 7 calls once each; beneath QApplication::QApplication under LD_PRELOAD: %d functions, e.g. %s"
      % (len(below), ", ".join(below[:3])))
PY
[ $? = 0 ] || fail "profile of main"

step "qt_app: signals, QString::sprintf, painting; both modes as unwrapped"
cd "$scratch"
run_ok cc.log "$CXX" -O2 -fPIC -Wall -Wextra -Werror -I$qt -c "$here/qt5/qt_app.cc" -o qt_app.o
libs="-lQt5Widgets -lQt5Gui -lQt5Core"
run_ok ld.log "$CXX" qt_app.o -o qt_app $libs
run_ok lt.log libwrap --libwrap=linktime:qtgui_and_qtwidgets "$CXX" qt_app.o -o qt_app.linktime $libs
st=0; ./qt_app > ref.out 2> ref.err || st=$?
echo "$st" > ref.status
cat ref.out
grep -q 'signals: clicked 2 triggered 1 toggled 11 moved 42 renamed 1' ref.out || fail "qt_app's own run"
preload=$(libwrap-info preload qtgui_and_qtwidgets)
for mode in linktime runtime; do
    # A lost signal leaves the event loop running: the timeout ends it.
    if [ $mode = linktime ]; then cmd=(./qt_app.linktime); else cmd=(env LD_PRELOAD="$preload" ./qt_app); fi
    cmd=(timeout 120 "${cmd[@]}")
    st=0; LIBWRAP_EXPERIMENT_DIRECTORY=$scratch/exp.$mode "${cmd[@]}" > $mode.out 2> $mode.err || st=$?
    echo "$st" > $mode.status
    for s in status out err; do
        cmp -s ref.$s $mode.$s || { diff ref.$s $mode.$s; fail "$mode: $s differs from the unwrapped run"; }
    done
    visits "exp.$mode" > $mode.visits
    for want in '_ZN15QAbstractButton5clickEv 2' '_ZN7QAction8activateENS_11ActionEventE 1' '_ZN7QString7sprintfEPKcz 1'; do
        grep -qx "$want" $mode.visits || fail "$mode: expected visits '$want': $(grep "${want% *}" $mode.visits)"
    done
    echo "ok: $mode: exit status, stdout and stderr identical; click 2, QAction::activate 1, QString::sprintf 1"
done

step "readable names: overloads told apart"
python3 - exp.linktime/profile.json <<'PY'
import json, sys
names = [f["name"] for f in json.load(open(sys.argv[1]))["functions"]]
for n in ("QPainter::drawEllipse(const QRectF &)", "QImage::bytesPerLine() const"):
    if n not in names:
        sys.exit("no region named %r: %s" % (n, names))
print("ok:", len(names), "regions, all with parameters, e.g. QPainter::drawEllipse(const QRectF &)")
PY
[ $? = 0 ] || fail "names"
echo PASS
