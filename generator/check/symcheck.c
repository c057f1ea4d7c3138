/*
 * symcheck.c - the functions the target libraries really export, read from
 * their symbol tables with libelf (symcheck.h).
 */
#define _GNU_SOURCE
#include "check/symcheck.h"

#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check/ldsearch.h"
#include "util/strbuf.h"

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

/* A version of a name in one shared object: its index in the object's
 * version definitions (the order they were defined, oldest first) and
 * whether it is the default (foo@@V2) or an old one (foo@V1). */
typedef struct sym_version {
    char *name;
    uint16_t index;
    bool is_default;
} sym_version;

typedef struct export_slot {
    char *name;     /* NULL: empty slot */
    uint32_t hash;
    uint32_t file;  /* index of the first file that exports it */
    bool exported;  /* false: only old versions seen so far */
    uint32_t vfile; /* the file its versions were read from */
    sym_version *vers;
    size_t nvers;
} export_slot;

struct lwg_libset {
    lwg_ldfiles files;
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

static void grow(lwg_libset *set)
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

static export_slot *add_name(lwg_libset *set, const char *name, uint32_t file)
{
    if (2 * (set->count + 1) > set->cap)
        grow(set);
    uint32_t h = name_hash(name);
    export_slot *s = find_slot(set->slots, set->cap, name, h);
    if (s->name)
        return s;
    s->name = xstrdup(name);
    s->hash = h;
    s->file = file;
    s->vfile = file;
    set->count++;
    return s;
}

static void add_export(lwg_libset *set, const char *name, uint32_t file)
{
    export_slot *s = add_name(set, name, file);
    if (!s->exported) {
        s->exported = true;
        s->file = file;
    }
}

/* Records that `file` defines version `vname` (index `ndx`) of `name`. Only
 * the versions of one file count: the file that exports the name. */
static void add_version(lwg_libset *set, const char *name, uint32_t file, const char *vname,
                        uint16_t ndx, bool is_default)
{
    export_slot *s = add_name(set, name, file);
    if (s->nvers && s->vfile != file)
        return;
    s->vfile = file;
    for (size_t i = 0; i < s->nvers; i++)
        if (s->vers[i].index == ndx)
            return;
    s->vers = xrealloc(s->vers, (s->nvers + 1) * sizeof *s->vers);
    size_t at = s->nvers++;
    while (at > 0 && s->vers[at - 1].index > ndx) {
        s->vers[at] = s->vers[at - 1];
        at--;
    }
    s->vers[at] = (sym_version){xstrdup(vname), ndx, is_default};
}

static const export_slot *lookup(const lwg_libset *set, const char *name)
{
    if (!set || set->cap == 0 || !name)
        return NULL;
    const export_slot *s = find_slot(set->slots, set->cap, name, name_hash(name));
    return s->name && s->exported ? s : NULL;
}

/* The names of a shared object's version definitions, by index (the
 * SHT_GNU_verdef section); NULL entries for indexes it does not define. */
static char **read_verdefs(Elf *elf, Elf_Scn *scn, size_t *n)
{
    *n = 0;
    GElf_Shdr sh;
    Elf_Data *d = scn && gelf_getshdr(scn, &sh) ? elf_getdata(scn, NULL) : NULL;
    if (!d)
        return NULL;
    char **names = NULL;
    size_t off = 0;
    for (size_t i = 0; i < sh.sh_info; i++) {
        GElf_Verdef vd;
        GElf_Verdaux va;
        if (!gelf_getverdef(d, (int)off, &vd) || !gelf_getverdaux(d, (int)(off + vd.vd_aux), &va))
            break;
        const char *name = elf_strptr(elf, sh.sh_link, va.vda_name);
        size_t ndx = vd.vd_ndx & 0x7fff;
        if (name && !(vd.vd_flags & VER_FLG_BASE)) {
            if (ndx >= *n) {
                names = xrealloc(names, (ndx + 1) * sizeof *names);
                memset(names + *n, 0, (ndx + 1 - *n) * sizeof *names);
                *n = ndx + 1;
            }
            names[ndx] = xstrdup(name);
        }
        if (vd.vd_next == 0)
            break;
        off += vd.vd_next;
    }
    return names;
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

/* A Fortran compiler's run-time library, by its DT_NEEDED name: GNU,
 * LLVM (flang, old and new), Intel, NVIDIA/PGI. */
static bool fortran_runtime_lib(const char *needed)
{
    static const char *const prefixes[] = {"libgfortran.", "libflang.", "libFortranRuntime.",
                                           "libflang_rt.", "libifcore", "libifport.", "libpgf90",
                                           "libnvf."};
    for (size_t i = 0; i < sizeof prefixes / sizeof *prefixes; i++)
        if (strncmp(needed, prefixes[i], strlen(prefixes[i])) == 0)
            return true;
    return false;
}

/* The names gcc gives the marker symbols of its LTO objects: a slim object
 * (only IR) defines __gnu_lto_slim, older gccs __gnu_lto_v1 (fat ones too). */
static bool gnu_lto_marker(const char *name)
{
    return strncmp(name, "__gnu_lto_", 10) == 0;
}

/* Reads one ELF object: .dynsym of a shared object (with its versions and
 * DT_SONAME), .symtab of a relocatable object (an archive member).
 * *lto_ir (when not NULL) tells whether the object is one of gcc's slim LTO
 * objects: .gnu.lto_ sections and no definition in its symbol table but
 * the __gnu_lto_ markers, so only the archive index knows its functions. */
static int read_elf(lwg_libset *set, Elf *elf, uint32_t file, const char *path, bool *lto_ir)
{
    if (lto_ir)
        *lto_ir = false;
    GElf_Ehdr eh;
    if (!gelf_getehdr(elf, &eh))
        return 0; /* not an object we can read (an archive's odd member) */
    GElf_Word want = eh.e_type == ET_DYN ? SHT_DYNSYM : SHT_SYMTAB;
    Elf_Scn *scn = NULL, *symscn = NULL, *verscn = NULL, *dynscn = NULL, *defscn = NULL;
    GElf_Shdr symsh = {0}, sh;
    size_t shstrndx = 0;
    bool have_shstr = eh.e_type == ET_REL && elf_getshdrstrndx(elf, &shstrndx) == 0;
    bool lto_sections = false, slim_marker = false;
    size_t ndefined = 0;
    while ((scn = elf_nextscn(elf, scn)) != NULL) {
        if (!gelf_getshdr(scn, &sh))
            continue;
        if (have_shstr && !lto_sections) {
            const char *sname = elf_strptr(elf, shstrndx, sh.sh_name);
            lto_sections = sname && strncmp(sname, ".gnu.lto_", 9) == 0;
        }
        if (sh.sh_type == want) {
            symscn = scn;
            symsh = sh;
        } else if (sh.sh_type == SHT_GNU_versym) {
            verscn = scn;
        } else if (sh.sh_type == SHT_GNU_verdef) {
            defscn = scn;
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
            const char *str = dyn.d_tag == DT_SONAME || dyn.d_tag == DT_NEEDED
                                  ? elf_strptr(elf, dsh.sh_link, dyn.d_un.d_val)
                                  : NULL;
            if (str && dyn.d_tag == DT_SONAME)
                set->files.files[file].soname = xstrdup(str);
            if (str && dyn.d_tag == DT_NEEDED && fortran_runtime_lib(str))
                set->files.files[file].fortran_runtime = true;
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
    size_t ndefs = 0;
    char **defs = vers ? read_verdefs(elf, defscn, &ndefs) : NULL;
    size_t nsyms = symsh.sh_entsize ? symsh.sh_size / symsh.sh_entsize : 0;
    for (size_t i = 0; i < nsyms; i++) {
        GElf_Sym sym;
        if (!gelf_getsym(data, (int)i, &sym))
            continue;
        if (sym.st_shndx == SHN_UNDEF) {
            const char *name = elf_strptr(elf, symsh.sh_link, sym.st_name);
            if (name && strncmp(name, "_gfortran_", 10) == 0)
                set->files.files[file].fortran_runtime = true;
            continue;
        }
        if (eh.e_type == ET_REL && GELF_ST_BIND(sym.st_info) != STB_LOCAL) {
            const char *name = elf_strptr(elf, symsh.sh_link, sym.st_name);
            if (name && gnu_lto_marker(name))
                slim_marker |= strcmp(name, "__gnu_lto_slim") == 0;
            else if (name && *name)
                ndefined++;
        }
        if (!exported_function(&sym, eh.e_type == ET_REL))
            continue;
        const char *name = elf_strptr(elf, symsh.sh_link, sym.st_name);
        if (!name || !*name)
            continue;
        if (vers) {
            /* Several versions of one name are several entries: the default
             * one (exp@@GLIBC_2.29) is linkable; old ones (exp@GLIBC_2.2.5)
             * carry the hidden bit and only serve old binaries. 0 is local,
             * 1 the unversioned global. */
            GElf_Versym v;
            if (!gelf_getversym(vers, (int)i, &v) || (v & 0x7fff) == 0)
                continue;
            size_t ndx = v & 0x7fff;
            if (ndx < ndefs && defs[ndx])
                add_version(set, name, file, defs[ndx], (uint16_t)ndx, !(v & VERSYM_HIDDEN));
            if (v & VERSYM_HIDDEN)
                continue;
        }
        add_export(set, name, file);
    }
    for (size_t i = 0; i < ndefs; i++)
        free(defs[i]);
    free(defs);
    if (lto_ir)
        *lto_ir = eh.e_type == ET_REL && (slim_marker || (lto_sections && ndefined == 0));
    return 0;
}

/* An archive member that is LLVM bitcode (clang -flto): raw or in the
 * bitcode wrapper (Darwin's, also written elsewhere). Its first bytes are
 * read from the file: elf_rawfile would copy the whole member into memory
 * that elf_end does not free (elfutils 0.188, ELF_C_READ). */
static bool bitcode_member(int fd, Elf *member)
{
    unsigned char b[4];
    int64_t base = elf_getbase(member);
    return base >= 0 && pread(fd, b, sizeof b, (off_t)base) == (ssize_t)sizeof b &&
           ((b[0] == 'B' && b[1] == 'C' && b[2] == 0xc0 && b[3] == 0xde) ||
            (b[0] == 0xde && b[1] == 0xc0 && b[2] == 0x17 && b[3] == 0x0b));
}

/* Is `off` one of the n ascending offsets in `v`? */
static bool has_offset(const int64_t *v, size_t n, int64_t off)
{
    size_t lo = 0, hi = n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (v[mid] == off)
            return true;
        if (v[mid] < off)
            lo = mid + 1;
        else
            hi = mid;
    }
    return false;
}

/* The functions of an archive's LTO members (their offsets in `ir`, header
 * offsets as elf_getaroff gives them, ascending: the members' order in the
 * file), from the archive index: gcc-ar,
 * llvm-ar and an ar that loads the LTO plugin (Debian's does, from
 * /usr/lib/bfd-plugins) list the names the IR defines. The index does not
 * say whether a name is a function, nor its binding or visibility: a name
 * listed for an IR member counts as exported, which for a static link it
 * is. Members with ELF symbol tables keep their answers (read_elf). An
 * index that lists none of the IR members' names (ar without the plugin
 * lists only __gnu_lto_slim; ar S writes none) marks the file, so that
 * MISSING can say why. */
static void read_ar_index(lwg_libset *set, Elf *ar, uint32_t file, const int64_t *ir, size_t nir)
{
    set->files.files[file].lto_ir = true;
    size_t n = 0, found = 0;
    Elf_Arsym *syms = elf_getarsym(ar, &n);
    for (size_t i = 0; syms && i < n; i++) {
        const char *name = syms[i].as_name;
        if (!name || !*name || gnu_lto_marker(name) ||
            !has_offset(ir, nir, (int64_t)syms[i].as_off))
            continue;
        add_export(set, name, file);
        found++;
    }
    if (!syms)
        (void)elf_errno(); /* no index: not an error of the next call */
    set->files.files[file].lto_unindexed = found == 0;
}

static int read_file(lwg_libset *set, uint32_t file)
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
         * lists names without their type, binding or visibility. Only LTO
         * members, whose symbol tables say nothing, are read from the index. */
        Elf_Cmd cmd = ELF_C_READ;
        Elf *member;
        int64_t *ir = NULL;
        size_t nir = 0;
        while (rc == 0 && (member = elf_begin(fd, cmd, elf)) != NULL) {
            int64_t off = elf_getaroff(member);
            bool lto_ir = false;
            if (elf_kind(member) == ELF_K_ELF)
                rc = read_elf(set, member, file, path, &lto_ir);
            else
                lto_ir = bitcode_member(fd, member);
            if (lto_ir && off >= 0) {
                ir = xrealloc(ir, (nir + 1) * sizeof *ir);
                ir[nir++] = off;
            }
            cmd = elf_next(member);
            elf_end(member);
        }
        if (rc == 0 && nir)
            read_ar_index(set, elf, file, ir, nir);
        free(ir);
    } else if (elf_kind(elf) == ELF_K_ELF) {
        GElf_Ehdr eh;
        if (gelf_getehdr(elf, &eh))
            set->files.files[file].is_static = eh.e_type != ET_DYN;
        rc = read_elf(set, elf, file, path, NULL);
    } else {
        fprintf(stderr, "libwrap-gen: %s: neither ELF nor an ar archive\n", path);
        rc = -1;
    }
    elf_end(elf);
    close(fd);
    return rc;
}

static lwg_libset *load(lwg_ldfiles *files)
{
    if (elf_version(EV_CURRENT) == EV_NONE) {
        fprintf(stderr, "libwrap-gen: libelf: %s\n", elf_errmsg(-1));
        ldfiles_free(files);
        return NULL;
    }
    lwg_libset *set = xcalloc(1, sizeof *set);
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

lwg_libset *libset_resolve(const char *ldflags, const char *libs)
{
    lwg_ldfiles files = {0};
    if (ldsearch_resolve(ldflags, libs, &files) != 0) {
        ldfiles_free(&files);
        return NULL;
    }
    return load(&files);
}

lwg_libset *libset_default(void)
{
    lwg_ldfiles files = {0};
    if (ldsearch_default(&files) != 0) {
        ldfiles_free(&files);
        return NULL;
    }
    return load(&files);
}

void libset_free(lwg_libset *set)
{
    if (!set)
        return;
    for (size_t i = 0; i < set->cap; i++) {
        free(set->slots[i].name);
        for (size_t k = 0; k < set->slots[i].nvers; k++)
            free(set->slots[i].vers[k].name);
        free(set->slots[i].vers);
    }
    free(set->slots);
    ldfiles_free(&set->files);
    free(set);
}

size_t libset_count(const lwg_libset *set)
{
    return set ? set->files.n : 0;
}

const lwg_libfile *libset_file(const lwg_libset *set, size_t i)
{
    return set && i < set->files.n ? &set->files.files[i] : NULL;
}

bool libset_static_only(const lwg_libset *set)
{
    if (!set || set->files.n == 0)
        return false;
    for (size_t i = 0; i < set->files.n; i++)
        if (!set->files.files[i].is_static)
            return false;
    return true;
}

bool libset_exports(const lwg_libset *set, const char *symbol)
{
    return lookup(set, symbol) != NULL;
}

bool libset_exporter(const lwg_libset *set, const char *symbol, size_t *file)
{
    const export_slot *s = lookup(set, symbol);
    if (s)
        *file = s->file;
    return s != NULL;
}

void libset_each(const lwg_libset *set, void (*fn)(const char *name, size_t file, void *data), void *data)
{
    for (size_t i = 0; set && i < set->cap; i++)
        if (set->slots[i].name && set->slots[i].exported)
            fn(set->slots[i].name, set->slots[i].file, data);
}

static const char *file_label(const lwg_libfile *f)
{
    if (f->soname)
        return f->soname;
    const char *slash = strrchr(f->path, '/');
    return slash ? slash + 1 : f->path;
}

static bool has_path(const lwg_libset *set, const char *path)
{
    for (size_t i = 0; i < set->files.n; i++)
        if (strcmp(set->files.files[i].path, path) == 0)
            return true;
    return false;
}

/* A function whose symbol the target exports in several versions gets
 * them all, each its own wrapper and region (docs/inventory.md). One
 * version, or none, is the common case: nothing is recorded. */
static void set_versions(lwg_function *f, const export_slot *s)
{
    if (!s || s->nvers < 2 || s->vfile != s->file)
        return;
    const char **names = xcalloc(s->nvers, sizeof *names);
    size_t def = s->nvers, ndef = 0;
    for (size_t k = 0; k < s->nvers; k++) {
        names[k] = s->vers[k].name;
        if (s->vers[k].is_default) {
            def = k;
            ndef++;
        }
    }
    if (ndef == 1)
        function_set_versions(f, names, s->nvers, def);
    free(names);
}

void symcheck_inventory(lwg_inventory *inv, const lwg_libset *targets,
                        const lwg_libset *defaults, size_t *n_missing,
                        size_t *n_uncertain)
{
    size_t missing = 0, uncertain = 0;
    /* "not exported by A B"; an archive of LTO objects that its index does
     * not list cannot say what it exports: name it apart, with the way out. */
    strbuf sb = STRBUF_INIT, lto = STRBUF_INIT;
    for (size_t i = 0; targets && i < targets->files.n; i++) {
        const lwg_libfile *t = &targets->files.files[i];
        strbuf *to = t->lto_unindexed ? &lto : &sb;
        sb_printf(to, "%s%s", to->len ? " " : "", file_label(t));
    }
    char *labels = sb_steal(&sb), *lto_labels = sb_steal(&lto);
    if (*lto_labels)
        sb_printf(&sb,
                  "%s%s%snot known in %s: LTO objects that the archive index does not "
                  "list (made by ar without the LTO plugin, or without an index): rebuild "
                  "the archive with gcc-ar (llvm-ar for clang -flto), or compile with "
                  "-ffat-lto-objects",
                  *labels ? "not exported by " : "", labels, *labels ? "; " : "", lto_labels);
    else
        sb_printf(&sb, "not exported by %s", labels);
    char *why_missing = sb_steal(&sb);
    free(labels);
    free(lto_labels);

    /* Without targets there is no truth to check against: mark nothing. */
    for (size_t i = 0; targets && targets->files.n && i < inv->nfuncs; i++) {
        lwg_function *f = &inv->funcs[i];
        if (f->skip != LWG_WRAP)
            continue;
        if (!libset_exports(targets, f->symbol)) {
            function_skip(f, LWG_SKIP_MISSING, why_missing);
            missing++;
            continue;
        }
        set_versions(f, lookup(targets, f->symbol));
        const export_slot *d = lookup(defaults, f->symbol);
        /* A default library that is itself a target (wrapping libc) does
         * not make its own functions uncertain. */
        const lwg_libfile *in = d ? &defaults->files.files[d->file] : NULL;
        if (in && !has_path(targets, in->path)) {
            char *detail = xstrdup_printf("also in %s", file_label(in));
            function_skip(f, LWG_SKIP_UNCERTAIN, detail);
            free(detail);
            uncertain++;
        }
    }
    free(why_missing);
    if (n_missing)
        *n_missing = missing;
    if (n_uncertain)
        *n_uncertain = uncertain;
}
