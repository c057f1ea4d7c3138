/*
 * symcheck.c - the functions the target libraries really export, read from
 * their symbol tables with libelf (symcheck.h).
 */
#define _GNU_SOURCE
#include "symcheck.h"

#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ldsearch.h"
#include "strbuf.h"

/* Not in every <elf.h>: GNU_UNIQUE binding and the version "hidden" bit. */
#ifndef STB_GNU_UNIQUE
#define STB_GNU_UNIQUE 10
#endif
#ifndef STT_GNU_IFUNC
#define STT_GNU_IFUNC 10
#endif
#ifndef VERSYM_HIDDEN
#define VERSYM_HIDDEN 0x8000
#endif

typedef struct export_slot {
    char *name;     /* NULL: empty slot */
    uint32_t hash;
    uint32_t file;  /* index of the first file that exports it */
} export_slot;

struct lw_libset {
    lw_ldfiles files;
    export_slot *slots; /* open addressing, linear probing, power-of-2 size */
    size_t cap, count;
};

static uint32_t name_hash(const char *s)
{
    uint32_t h = 2166136261u; /* FNV-1a */
    for (; *s; s++)
        h = (h ^ (unsigned char)*s) * 16777619u;
    return h;
}

static export_slot *find_slot(export_slot *slots, size_t cap, const char *name, uint32_t h)
{
    for (size_t i = h & (cap - 1);; i = (i + 1) & (cap - 1))
        if (!slots[i].name || (slots[i].hash == h && strcmp(slots[i].name, name) == 0))
            return &slots[i];
}

static void grow(lw_libset *set)
{
    size_t cap = set->cap ? 2 * set->cap : 1024;
    export_slot *slots = xcalloc(cap, sizeof *slots);
    for (size_t i = 0; i < set->cap; i++)
        if (set->slots[i].name)
            *find_slot(slots, cap, set->slots[i].name, set->slots[i].hash) = set->slots[i];
    free(set->slots);
    set->slots = slots;
    set->cap = cap;
}

static void add_export(lw_libset *set, const char *name, uint32_t file)
{
    if (2 * (set->count + 1) > set->cap)
        grow(set);
    uint32_t h = name_hash(name);
    export_slot *s = find_slot(set->slots, set->cap, name, h);
    if (s->name)
        return;
    s->name = xstrdup(name);
    s->hash = h;
    s->file = file;
    set->count++;
}

static const export_slot *lookup(const lw_libset *set, const char *name)
{
    if (!set || set->cap == 0 || !name)
        return NULL;
    const export_slot *s = find_slot(set->slots, set->cap, name, name_hash(name));
    return s->name ? s : NULL;
}

/* A symbol a new link can bind a call to. Visibility limits what a shared
 * object exports; inside a static link a hidden definition in an archive
 * member still resolves the program's references (glibc's atexit lives in
 * libc_nonshared.a as a hidden symbol, one copy per linked object). */
static bool exported_function(const GElf_Sym *sym, bool relocatable)
{
    int bind = GELF_ST_BIND(sym->st_info), type = GELF_ST_TYPE(sym->st_info);
    int vis = GELF_ST_VISIBILITY(sym->st_other);
    return sym->st_shndx != SHN_UNDEF &&
           (bind == STB_GLOBAL || bind == STB_WEAK || bind == STB_GNU_UNIQUE) &&
           (type == STT_FUNC || type == STT_GNU_IFUNC) &&
           (relocatable || vis == STV_DEFAULT || vis == STV_PROTECTED);
}

/* Reads one ELF object: .dynsym of a shared object (with its versions and
 * DT_SONAME), .symtab of a relocatable object (an archive member). */
static int read_elf(lw_libset *set, Elf *elf, uint32_t file, const char *path)
{
    GElf_Ehdr eh;
    if (!gelf_getehdr(elf, &eh))
        return 0; /* not an object we can read (an archive's odd member) */
    GElf_Word want = eh.e_type == ET_DYN ? SHT_DYNSYM : SHT_SYMTAB;
    Elf_Scn *scn = NULL, *symscn = NULL, *verscn = NULL, *dynscn = NULL;
    GElf_Shdr symsh = {0}, sh;
    while ((scn = elf_nextscn(elf, scn)) != NULL) {
        if (!gelf_getshdr(scn, &sh))
            continue;
        if (sh.sh_type == want) {
            symscn = scn;
            symsh = sh;
        } else if (sh.sh_type == SHT_GNU_versym) {
            verscn = scn;
        } else if (sh.sh_type == SHT_DYNAMIC) {
            dynscn = scn;
        }
    }

    if (dynscn && !set->files.files[file].soname) {
        Elf_Data *d = elf_getdata(dynscn, NULL);
        GElf_Shdr dsh;
        gelf_getshdr(dynscn, &dsh);
        GElf_Dyn dyn;
        for (int i = 0; d && gelf_getdyn(d, i, &dyn); i++) {
            if (dyn.d_tag == DT_SONAME) {
                const char *so = elf_strptr(elf, dsh.sh_link, dyn.d_un.d_val);
                if (so)
                    set->files.files[file].soname = xstrdup(so);
                break;
            }
            if (dyn.d_tag == DT_NULL)
                break;
        }
    }
    if (!symscn)
        return 0;

    Elf_Data *data = elf_getdata(symscn, NULL);
    Elf_Data *vers = verscn && eh.e_type == ET_DYN ? elf_getdata(verscn, NULL) : NULL;
    if (!data) {
        fprintf(stderr, "libwrap-gen: %s: unreadable symbol table: %s\n", path, elf_errmsg(-1));
        return -1;
    }
    size_t nsyms = symsh.sh_entsize ? symsh.sh_size / symsh.sh_entsize : 0;
    for (size_t i = 0; i < nsyms; i++) {
        GElf_Sym sym;
        if (!gelf_getsym(data, (int)i, &sym) || !exported_function(&sym, eh.e_type == ET_REL))
            continue;
        if (vers) {
            /* Several versions of one name are several entries: the default
             * one (exp@@GLIBC_2.29) is linkable; old ones (exp@GLIBC_2.2.5)
             * carry the hidden bit and only serve old binaries. 0 is local. */
            GElf_Versym v;
            if (!gelf_getversym(vers, (int)i, &v) || (v & VERSYM_HIDDEN) || (v & 0x7fff) == 0)
                continue;
        }
        const char *name = elf_strptr(elf, symsh.sh_link, sym.st_name);
        if (name && *name)
            add_export(set, name, file);
    }
    return 0;
}

static int read_file(lw_libset *set, uint32_t file)
{
    const char *path = set->files.files[file].path;
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) {
        fprintf(stderr, "libwrap-gen: %s: %s\n", path, strerror(errno));
        return -1;
    }
    int rc = 0;
    Elf *elf = elf_begin(fd, ELF_C_READ, NULL);
    if (!elf) {
        fprintf(stderr, "libwrap-gen: %s: not readable as ELF: %s\n", path, elf_errmsg(-1));
        close(fd);
        return -1;
    }
    if (elf_kind(elf) == ELF_K_AR) {
        /* Every member's own symbol table: the archive index (elf_getarsym)
         * lists names without their type, binding or visibility. */
        Elf_Cmd cmd = ELF_C_READ;
        Elf *member;
        while (rc == 0 && (member = elf_begin(fd, cmd, elf)) != NULL) {
            if (elf_kind(member) == ELF_K_ELF)
                rc = read_elf(set, member, file, path);
            cmd = elf_next(member);
            elf_end(member);
        }
    } else if (elf_kind(elf) == ELF_K_ELF) {
        GElf_Ehdr eh;
        if (gelf_getehdr(elf, &eh))
            set->files.files[file].is_static = eh.e_type != ET_DYN;
        rc = read_elf(set, elf, file, path);
    } else {
        fprintf(stderr, "libwrap-gen: %s: neither ELF nor an ar archive\n", path);
        rc = -1;
    }
    elf_end(elf);
    close(fd);
    return rc;
}

static lw_libset *load(lw_ldfiles *files)
{
    if (elf_version(EV_CURRENT) == EV_NONE) {
        fprintf(stderr, "libwrap-gen: libelf: %s\n", elf_errmsg(-1));
        ldfiles_free(files);
        return NULL;
    }
    lw_libset *set = xcalloc(1, sizeof *set);
    set->files = *files;
    memset(files, 0, sizeof *files);
    for (size_t i = 0; i < set->files.n; i++) {
        if (read_file(set, (uint32_t)i) != 0) {
            libset_free(set);
            return NULL;
        }
    }
    return set;
}

lw_libset *libset_resolve(const char *ldflags, const char *libs)
{
    lw_ldfiles files = {0};
    if (ldsearch_resolve(ldflags, libs, &files) != 0) {
        ldfiles_free(&files);
        return NULL;
    }
    return load(&files);
}

lw_libset *libset_default(void)
{
    lw_ldfiles files = {0};
    if (ldsearch_default(&files) != 0) {
        ldfiles_free(&files);
        return NULL;
    }
    return load(&files);
}

void libset_free(lw_libset *set)
{
    if (!set)
        return;
    for (size_t i = 0; i < set->cap; i++)
        free(set->slots[i].name);
    free(set->slots);
    ldfiles_free(&set->files);
    free(set);
}

size_t libset_count(const lw_libset *set)
{
    return set ? set->files.n : 0;
}

const lw_libfile *libset_file(const lw_libset *set, size_t i)
{
    return set && i < set->files.n ? &set->files.files[i] : NULL;
}

bool libset_static_only(const lw_libset *set)
{
    if (!set || set->files.n == 0)
        return false;
    for (size_t i = 0; i < set->files.n; i++)
        if (!set->files.files[i].is_static)
            return false;
    return true;
}

bool libset_exports(const lw_libset *set, const char *symbol)
{
    return lookup(set, symbol) != NULL;
}

static const char *file_label(const lw_libfile *f)
{
    if (f->soname)
        return f->soname;
    const char *slash = strrchr(f->path, '/');
    return slash ? slash + 1 : f->path;
}

static bool has_path(const lw_libset *set, const char *path)
{
    for (size_t i = 0; i < set->files.n; i++)
        if (strcmp(set->files.files[i].path, path) == 0)
            return true;
    return false;
}

void symcheck_inventory(lw_inventory *inv, const lw_libset *targets,
                        const lw_libset *defaults, size_t *n_missing,
                        size_t *n_uncertain)
{
    size_t missing = 0, uncertain = 0;
    strbuf sb = STRBUF_INIT;
    for (size_t i = 0; targets && i < targets->files.n; i++)
        sb_printf(&sb, "%s%s", i ? " " : "", file_label(&targets->files.files[i]));
    char *labels = sb_steal(&sb);

    /* Without targets there is no truth to check against: mark nothing. */
    for (size_t i = 0; targets && targets->files.n && i < inv->nfuncs; i++) {
        lw_function *f = &inv->funcs[i];
        if (f->skip != LW_WRAP)
            continue;
        if (!libset_exports(targets, f->symbol)) {
            char *detail = xstrdup_printf("not exported by %s", labels);
            function_skip(f, LW_SKIP_MISSING, detail);
            free(detail);
            missing++;
            continue;
        }
        const export_slot *d = lookup(defaults, f->symbol);
        /* A default library that is itself a target (wrapping libc) does
         * not make its own functions uncertain. */
        const lw_libfile *in = d ? &defaults->files.files[d->file] : NULL;
        if (in && !has_path(targets, in->path)) {
            char *detail = xstrdup_printf("also in %s", file_label(in));
            function_skip(f, LW_SKIP_UNCERTAIN, detail);
            free(detail);
            uncertain++;
        }
    }
    free(labels);
    if (n_missing)
        *n_missing = missing;
    if (n_uncertain)
        *n_uncertain = uncertain;
}
