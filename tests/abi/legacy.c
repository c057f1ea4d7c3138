/*
 * legacy.c - a runtime wrapper of libm's cbrt as libwrap generated it
 * before libwrap_abi_entry had its `dispatch`: the entry's third field is
 * the wrapper itself, the library record ends after `params`, the wrapper
 * jumps to libwrap_trampoline through the GOT, and the object registers
 * through libwrap_abi_preload (tests/abi/legacy.sh).
 */
#include <dlfcn.h>
#include <stdint.h>

struct old_region {
    const char *symbol, *name, *file;
    uint32_t line;
    int32_t id;
};
struct old_library {
    const char *soname;
    void *(*next)(const char *symbol);
    void *params;
};
struct old_entry {
    void *orig;
    const struct old_library *lib;
    const void *self;
    uint32_t flags;
    int32_t state;
    struct old_region region;
};

void libwrap_abi_preload(struct old_entry *entries, uint32_t n);
void libwrap_resolve_begin(void);
void libwrap_resolve_end(void);

static void *old_next(const char *symbol)
{
    libwrap_resolve_begin();
    void *p = dlsym(RTLD_NEXT, symbol);
    libwrap_resolve_end();
    return p;
}

static const struct old_library old_lib = {"libm.so.6", old_next, 0};
extern char old_wrapper[] __asm__("cbrt");
static struct old_entry old_entries[1] __asm__("old_entries") __attribute__((used, aligned(64))) = {
    {0, &old_lib, old_wrapper, 0, 0, {"cbrt", "cbrt", "/usr/include/x86_64-linux-gnu/bits/mathcalls.h", 1, 0}},
};

__asm__("\t.text\n"
        "\t.globl cbrt\n"
        "\t.type cbrt, @function\n"
        "\t.p2align 4\n"
        "cbrt:\n"
        "\t.cfi_startproc\n"
        "\tleaq old_entries(%rip), %r11\n"
        "\tjmp *libwrap_trampoline@GOTPCREL(%rip)\n"
        "\t.cfi_endproc\n"
        "\t.size cbrt, .-cbrt\n"
        "\t.previous\n");

__attribute__((constructor)) static void old_register(void)
{
    libwrap_abi_preload(old_entries, 1);
}
