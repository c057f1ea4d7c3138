/* plugin.c - an extension module linked against libhard, dlopen()ed with
 * RTLD_LOCAL as Python loads extensions: libhard is then not in the global
 * scope, and dlsym(RTLD_NEXT) from a preloaded wrapper cannot see it. */
#include "hard.h"

int plugin_run(void);

int plugin_run(void)
{
    return hard_i32(5, 6) + hard_counter();
}
