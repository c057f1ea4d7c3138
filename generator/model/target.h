/*
 * target.h - the machine the wrappers are generated for (--target TRIPLE,
 * docs/workflow.md "Cross-wrapping"): which forwarding it has, how libclang
 * parses for it, and what its ABI-level wrappers cannot do.
 */
#ifndef LIBWRAP_GEN_TARGET_H
#define LIBWRAP_GEN_TARGET_H

#include "model/inventory.h"

#include <stdbool.h>

/* The architecture of `triple` ("aarch64" of "aarch64-linux-gnu"), or the
 * generator's own when `triple` is NULL; a static buffer. */
const char *target_arch(const char *triple);

/* Whether the runtime has an ABI trampoline for `arch` (x86_64, aarch64). */
bool target_has_abi(const char *arch);

/* libclang's --target=TRIPLE argument, or NULL for the generator's own
 * machine; malloc'd. */
char *target_clang_arg(const char *triple);

/* After parsing, for ABI-level forwarding on `arch`: AArch64 functions
 * whose arguments or result use SVE registers (the SVE vector PCS) are left
 * out with their reason (the trampoline keeps the base PCS's registers
 * only), and the argument locations, which argmeta.c computes for x86-64
 * System V, are cleared (the runtime says per parameter that only typed
 * wrappers record there). Returns the number left out. */
size_t target_adjust_inventory(lwg_inventory *inv, const char *arch);

#endif
