/*
 * drop.h - one wrapper that does not compile never fails the build: the
 * compiler's errors on NAME.wrappers.c are attributed to the wrappers they
 * are in and recorded in NAME.dropped, which generation reads back.
 */
#ifndef LIBWRAP_GEN_DROP_H
#define LIBWRAP_GEN_DROP_H

#include "model/inventory.h"

typedef struct drop_options {
    const char *inventory; /* NAME.inventory.json */
    const char *wrappers;  /* NAME.wrappers.c as compiled */
    const char *log;       /* the compiler's messages */
    const char *out;       /* NAME.dropped, appended to */
} drop_options;

/* Appends "SYMBOL<TAB>file:line: error" to opt->out for each wrapper with
 * an error and warns once per function. Returns the exit status: 0; 1
 * after a message (an error in no wrapper is not one function's problem);
 * 3 when NAME.wrappers.c changed while it compiled (compile again). */
int drop_record(const drop_options *opt);

/* Reads a NAME.dropped file and leaves its functions out as
 * LWG_SKIP_COMPILE. Returns how many, or -1 after a message. */
int drop_load(lwg_inventory *inv, const char *path);

#endif /* LIBWRAP_GEN_DROP_H */
