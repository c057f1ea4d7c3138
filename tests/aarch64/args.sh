#!/usr/bin/env bash
# args.sh FORWARD - tests/arguments on AArch64: LIBWRAP_ARGUMENTS with
# wrappers of FORWARD (abi: the default, which reads the values where
# AAPCS64 passes them, libwrap_param.abi_a64; typed), in both linkages:
# integers of every width in x0-x7, doubles in v0-v7 and one on the stack,
# float, bool, enums, strings, results in x0 and v0, a parameter after a
# struct passed by reference and after a small struct in one register;
# exact counts, sums, extremes, histograms and values, traced too.
source "$LIBWRAP_SOURCE_DIR/tests/aarch64/lib.sh"
CC=aarch64-linux-gnu-gcc LW_TEST_HOST=$host exec bash "$LIBWRAP_SOURCE_DIR/tests/arguments/args.sh" "$1"
