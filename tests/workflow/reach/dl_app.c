/*
 * dl_app.c - a plugin host: loads a library with dlopen (or dlmopen) and
 * calls it only through dlsym, 13 calls (ring_new, 10 ring_push, ring_size,
 * ring_free). Or loads a module that links the library and calls it.
 *
 *   dl_app plain|deepbind|dlmopen LIBRING     the 13 calls
 *   dl_app module MODULE...                   each dlopen(RTLD_DEEPBIND), module_run()
 *   dl_app modplain MODULE                    dlopen without it, module_run()
 *   dl_app probe LIBRING                      a probe first: dlsym(RTLD_DEFAULT,
 *       "ring_new") (absent unwrapped; under a preloaded wrapper its
 *       definition, whose call loads the library), a ring made and freed
 *       through it; the library loaded; the probe's pointers again; the
 *       13 calls
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdio.h>
#include <string.h>

typedef struct ring ring;

static void *need(void *h, const char *name)
{
    void *p = dlsym(h, name);
    if (!p)
        fprintf(stderr, "dl_app: %s\n", dlerror());
    return p;
}

int main(int argc, char **argv)
{
    if (argc > 3 && !strcmp(argv[1], "module")) {
        /* Several modules, each loaded and run in turn (PHP's extensions). */
        for (int i = 2; i < argc; i++) {
            void *m = dlopen(argv[i], RTLD_NOW | RTLD_DEEPBIND);
            int (*run)(void) = m ? (int (*)(void))need(m, "module_run") : NULL;
            if (!run) {
                fprintf(stderr, "dl_app: %s\n", m ? "no module_run" : dlerror());
                return 1;
            }
            printf("module %d: %d\n", i - 1, run());
        }
        return 0;
    }
    if (argc != 3) {
        fprintf(stderr, "usage: dl_app plain|deepbind|dlmopen|probe|module|modplain LIBRARY\n");
        return 2;
    }
    const char *mode = argv[1];
    ring *(*pnew)(size_t) = NULL;
    void (*pdel)(ring *) = NULL;
    if (!strcmp(mode, "probe")) {
        pnew = (ring * (*)(size_t)) dlsym(RTLD_DEFAULT, "ring_new");
        pdel = (void (*)(ring *))dlsym(RTLD_DEFAULT, "ring_free");
        ring *r = pnew && pdel ? pnew(4) : NULL;
        printf("probe: %s\n", !pnew ? "absent" : r ? "works" : "fails");
        if (r)
            pdel(r);
        mode = "plain";
    }
    void *h = !strcmp(mode, "dlmopen") ? dlmopen(LM_ID_NEWLM, argv[2], RTLD_NOW)
              : dlopen(argv[2], RTLD_NOW | (strcmp(mode, "plain") && strcmp(mode, "modplain") ? RTLD_DEEPBIND : 0));
    if (!h) {
        fprintf(stderr, "dl_app: %s\n", dlerror());
        return 1;
    }
    if (pnew && pdel) {
        ring *r = pnew(4);
        printf("probe again: %s\n", r ? "works" : "fails");
        if (r)
            pdel(r);
    }
    if (!strcmp(mode, "module") || !strcmp(mode, "modplain")) {
        int (*run)(void) = (int (*)(void))need(h, "module_run");
        if (!run)
            return 1;
        printf("module: %d\n", run());
        return 0;
    }
    ring *(*new)(size_t) = (ring * (*)(size_t)) need(h, "ring_new");
    int (*push)(ring *, int) = (int (*)(ring *, int))need(h, "ring_push");
    size_t (*size)(const ring *) = (size_t(*)(const ring *))need(h, "ring_size");
    void (*del)(ring *) = (void (*)(ring *))need(h, "ring_free");
    if (!new || !push || !size || !del)
        return 1;
    ring *r = new(16);
    for (int i = 0; i < 10; i++)
        push(r, i);
    printf("%s: size %zu\n", mode, size(r));
    del(r);
    return 0;
}
