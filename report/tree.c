/*
 * tree.c - the call-path profile as an indented tree, one per thread.
 *
 * Children are listed by inclusive time (ties by name) so that the hot path
 * reads from the top; --depth folds everything below a level into a count.
 * The walk is iterative (call paths may be LWR_MAX_CALL_DEPTH deep), and,
 * as in the runtime's profile.txt, the indentation stops growing at
 * INDENT_MAX levels, past which the level is written ("[depth 65] f"): a
 * deep tree's text grows with its size, not its size times its depth.
 */
#include <stdlib.h>
#include <string.h>

#include "report.h"

#define INDENT_MAX 64

static int cmp_node(const void *pa, const void *pb)
{
    const lwr_node *a = *(const lwr_node *const *)pa, *b = *(const lwr_node *const *)pb;
    if (a->inclusive_ns != b->inclusive_ns)
        return a->inclusive_ns < b->inclusive_ns ? 1 : -1;
    int c = strcmp(a->name, b->name);
    return c ? c : strcmp(a->symbol, b->symbol);
}

static void count(lwr_node *n, size_t depth, void *ud)
{
    (void)depth;
    *(size_t *)ud += n->nchildren;
}

static size_t descendants(const lwr_node *n)
{
    size_t k = 0;
    lwr_tree_walk((lwr_node *)n, count, NULL, &k);
    return k;
}

/* A node's line (`depth` 0 at the top); whether its children follow. */
static int print_line(FILE *out, const lwr_node *n, size_t depth, int max_depth)
{
    char a[32], b[32];
    fprintf(out, "%12s  %12s  %10llu  %*s", lwr_fmt_time(a, (double)n->inclusive_ns),
            lwr_fmt_time(b, (double)n->exclusive_ns), (unsigned long long)n->visits,
            2 * (int)(depth < INDENT_MAX ? depth : INDENT_MAX), "");
    if (depth >= INDENT_MAX)
        fprintf(out, "[depth %zu] ", depth + 1);
    fputs(n->name, out);
    if (n->throttled) /* its times are estimates (LIBWRAP_THROTTLE), as in the table */
        fprintf(out, " [throttled %s]", n->throttled);
    if (max_depth > 0 && depth + 1 >= (size_t)max_depth && n->nchildren) {
        fprintf(out, "  [+%zu]\n", descendants(n));
        return 0;
    }
    fputc('\n', out);
    return n->nchildren > 0;
}

struct paths {
    FILE *out;
    int max_depth;
};

static int print_visit(const lwr_node *k, size_t depth, double *x, double *child_x, void *ud)
{
    (void)x, (void)child_x;
    const struct paths *p = ud;
    return print_line(p->out, k, depth - 1, p->max_depth);
}

/* The call paths below `root`, depth first, each node's children sorted. */
static void print_paths(FILE *out, const lwr_node *root, int max_depth)
{
    struct paths p = {out, max_depth};
    lwr_walk_sorted(root, cmp_node, 0, print_visit, &p);
}

int lwr_print_tree(FILE *out, const lwr_profile *p, int max_depth)
{
    if (p->nthreads == 0) {
        fprintf(stderr, "%s: %s: no \"threads\" call paths in this profile; the tree needs them\n", LWR_PROG,
                p->path);
        return -1;
    }
    for (size_t t = 0; t < p->nthreads; t++) {
        const lwr_node *root = &p->threads[t].root;
        char a[32], label[64];
        fprintf(out, "%s%s (%s in measured calls)\n", t ? "\n" : "", lwr_thread_label(&p->threads[t], label),
                lwr_fmt_time(a, (double)root->inclusive_ns));
        fprintf(out, "%12s  %12s  %10s  %s\n", "inclusive", "exclusive", "visits", "function");
        print_paths(out, root, max_depth);
    }
    return 0;
}
