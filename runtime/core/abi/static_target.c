/*
 * static_target.c - a wrapped library linked statically into the program
 * (docs/workflow.md, "A target linked into the program").
 *
 * A compiler wrapper such as HDF5's h5cc links the library's archive into
 * the program: the program's calls to it are direct calls inside the
 * executable, which neither a preloaded wrapper nor --wrap of a later link
 * reaches. When a wrapper library registers its functions (at its load),
 * the executable's symbol table (its dynamic one where it is stripped)
 * is read once: functions of the wrapped library that the executable
 * defines itself (and that are not the wrapper's own definitions) are
 * named in one warning, with the way out.
 */
#include "core/abi/abi.h"

#include <elf.h>
#include <fcntl.h>
#include <link.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

/* The executable's defined functions: names (into its mapped file) and
 * run-time addresses, sorted by name; loaded once. */
static struct {
    int loaded;
    size_t n;
    const char **name;
    uintptr_t *addr;
} lw_exe;

static int lw_main_base(struct dl_phdr_info *info, size_t size, void *data)
{
    (void)size;
    *(uintptr_t *)data = info->dlpi_addr; /* the first object: the program */
    return 1;
}

static const char **lw_sort_names;
static int lw_by_name(const void *a, const void *b)
{
    return strcmp(lw_sort_names[*(const size_t *)a], lw_sort_names[*(const size_t *)b]);
}

static void lw_exe_load(void)
{
    lw_exe.loaded = 1;
    int fd = open("/proc/self/exe", O_RDONLY | O_CLOEXEC);
    struct stat st;
    if (fd < 0)
        return;
    if (fstat(fd, &st) != 0 || (size_t)st.st_size < sizeof(ElfW(Ehdr))) {
        close(fd);
        return;
    }
    const unsigned char *f = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
    close(fd);
    if (f == MAP_FAILED)
        return;
    /* Kept mapped: the names point into it. */
    const ElfW(Ehdr) *eh = (const void *)f;
    size_t size = (size_t)st.st_size;
    if (memcmp(eh->e_ident, ELFMAG, SELFMAG) || eh->e_shoff == 0 || eh->e_shentsize != sizeof(ElfW(Shdr)) ||
        eh->e_shoff + (size_t)eh->e_shnum * sizeof(ElfW(Shdr)) > size)
        return;
    const ElfW(Shdr) *sh = (const void *)(f + eh->e_shoff);
    /* The full symbol table, or where the program is stripped, the
     * dynamic one: a program linked with -rdynamic (redis-cli with its
     * hiredis inside) still names the copies there. */
    unsigned table = eh->e_shnum;
    for (unsigned i = 0; i < eh->e_shnum; i++)
        if (sh[i].sh_link < eh->e_shnum &&
            (sh[i].sh_type == SHT_SYMTAB || (sh[i].sh_type == SHT_DYNSYM && table == eh->e_shnum)))
            table = i;
    if (table == eh->e_shnum)
        return;
    const ElfW(Shdr) *strs = &sh[sh[table].sh_link];
    if (sh[table].sh_offset + sh[table].sh_size > size || strs->sh_offset + strs->sh_size > size)
        return;
    const ElfW(Sym) *sym = (const void *)(f + sh[table].sh_offset);
    size_t nsym = sh[table].sh_size / sizeof *sym;
    const char *names = (const char *)f + strs->sh_offset;
    const char **name = malloc(nsym * sizeof *name);
    uintptr_t *addr = malloc(nsym * sizeof *addr);
    size_t *order = malloc(nsym * sizeof *order);
    if (!name || !addr || !order) {
        free(name);
        free(addr);
        free(order);
        return;
    }
    uintptr_t base = 0;
    dl_iterate_phdr(lw_main_base, &base);
    size_t n = 0;
    for (size_t k = 0; k < nsym; k++) {
        if (ELF64_ST_TYPE(sym[k].st_info) != STT_FUNC || sym[k].st_shndx == SHN_UNDEF ||
            sym[k].st_name >= strs->sh_size)
            continue;
        name[n] = names + sym[k].st_name;
        addr[n] = base + sym[k].st_value;
        order[n] = n;
        n++;
    }
    lw_sort_names = name;
    qsort(order, n, sizeof *order, lw_by_name);
    lw_exe.name = malloc((n ? n : 1) * sizeof *lw_exe.name);
    lw_exe.addr = malloc((n ? n : 1) * sizeof *lw_exe.addr);
    if (lw_exe.name && lw_exe.addr) {
        for (size_t k = 0; k < n; k++) {
            lw_exe.name[k] = name[order[k]];
            lw_exe.addr[k] = addr[order[k]];
        }
        lw_exe.n = n;
    }
    free(name);
    free(addr);
    free(order);
}

/* The run-time address of the executable's own function `name`, or 0. */
static uintptr_t lw_exe_defines(const char *name, size_t len)
{
    size_t lo = 0, hi = lw_exe.n;
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        int c = strncmp(lw_exe.name[mid], name, len);
        if (c == 0 && lw_exe.name[mid][len])
            c = 1;
        if (c == 0)
            return lw_exe.addr[mid];
        if (c < 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    return 0;
}

void lw_static_target_check(const libwrap_abi_entry *entries, uint32_t n)
{
    if (!lw_exe.loaded)
        lw_exe_load();
    if (!lw_exe.n)
        return;
    uint32_t found = 0;
    const char *example = NULL;
    size_t example_len = 0;
    for (uint32_t i = 0; i < n; i++) {
        const char *sym = entries[i].region.symbol;
        if (!sym)
            continue;
        const char *at = strchr(sym, '@');
        size_t len = at ? (size_t)(at - sym) : strlen(sym);
        uintptr_t a = lw_exe_defines(sym, len);
        /* The wrapper's own definition (a wrapper archive linked into the
         * program) is not the library's. */
        if (!a || a == (uintptr_t)lw_abi_wrapper(&entries[i]))
            continue;
        if (!found++) {
            example = sym;
            example_len = len;
        }
    }
    /* Named with the process and the library: a shell that bundles its
     * own copy (Debian's bash has readline's) may be one of many processes
     * that a wrapper preloaded reaches. */
    const char *lib = n && entries[0].lib && entries[0].lib->soname ? entries[0].lib->soname : NULL;
    if (found)
        lw_warn("the program %s (pid %ld) contains %u function%s of %s linked statically (%.*s%s): "
                "its calls to them inside the program are not measured; link it with the shared "
                "library instead (HDF5's h5cc: -shlib; a program that bundles its own copy of the "
                "library must be built against the shared one)",
                lw_program_name(), (long)getpid(), found, found == 1 ? "" : "s",
                lib ? lib : "a wrapped library", (int)example_len, example, found > 1 ? ", ..." : "");
}
