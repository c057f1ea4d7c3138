# A runtime built without PAPI: naming PAPI events is one warning, and the
# other sources still work.
DRIVER=$1
. "$(dirname "$0")/lib.sh"

run nopapi LIBWRAP_METRIC_PAPI=PAPI_TOT_INS,PAPI_L1_DCM LIBWRAP_METRIC_RUSAGE=ru_minflt
expect_one_warning "LIBWRAP_METRIC_PAPI is set to 'PAPI_TOT_INS,PAPI_L1_DCM', but this libwrap was built without PAPI support"
expect_count 1
expect_positive main ru_minflt
echo PASS
