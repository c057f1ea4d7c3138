/*
 * installcheck.h - the verdict of `make installcheck` on one measured run
 * of main (docs/workflow.md). The audit module in audit/ records which
 * library functions the unwrapped main called; this compares the runs.
 */
#ifndef LIBWRAP_GEN_INSTALLCHECK_H
#define LIBWRAP_GEN_INSTALLCHECK_H

typedef struct installcheck_options {
    const char *mode;       /* "linktime" or "runtime", for messages */
    const char *inventory;  /* the installed NAME.inventory.json: what is wrapped */
    const char *baseline;   /* PREFIX of the unwrapped run's .out, .err, .status */
    const char *run;        /* PREFIX of the measured run's */
    const char *profile;    /* the measured run's experiment directory */
    const char *called;     /* what main called (the audit module), or NULL */
    const char *referenced; /* main.o's undefined symbols, or NULL */
} installcheck_options;

/* Prints the verdict; returns 0 when the run passes, 1 (after a message
 * saying what differs or was not measured) when it does not. */
int installcheck_verdict(const installcheck_options *opt);

#endif /* LIBWRAP_GEN_INSTALLCHECK_H */
