# LIBWRAP_METRIC_PAPI=PAPI_TOT_INS: counted where PAPI offers it (papi_avail
# lists it); elsewhere exactly one warning naming it, and an unchanged run.
DRIVER=$1
HAVE_PAPI=$2
. "$(dirname "$0")/lib.sh"

run base
run papi LIBWRAP_METRIC_PAPI=PAPI_TOT_INS
if [ "$HAVE_PAPI" = 1 ] && command -v papi_avail > /dev/null && papi_avail -a 2>/dev/null | grep -qw PAPI_TOT_INS &&
    ! papi_avail -e PAPI_TOT_INS 2>&1 | grep -q 'NOT available'; then
    echo "PAPI_TOT_INS available: checking the working path"
    expect_no_warning
    expect_count 1
    grep -qx "def PAPI_TOT_INS # papi accumulated" out.txt || fail "definition"
    expect_positive main PAPI_TOT_INS
    expect_positive thread PAPI_TOT_INS
else
    echo "PAPI_TOT_INS not available: checking the warning"
    if [ "$HAVE_PAPI" = 1 ]; then
        expect_one_warning "papi: cannot open 'PAPI_TOT_INS': .*; continuing without it"
    else
        expect_one_warning "built without PAPI support"
    fi
    cmp -s base.out papi.out || fail "output differs from the run without metrics"
fi

# An unknown name is one warning on any machine.
run unknown LIBWRAP_METRIC_PAPI=PAPI_NO_SUCH_EVENT
if [ "$HAVE_PAPI" = 1 ]; then
    expect_one_warning "papi: unknown event 'PAPI_NO_SUCH_EVENT'"
fi
cmp -s base.out unknown.out || fail "output differs from the run without metrics"
echo PASS
