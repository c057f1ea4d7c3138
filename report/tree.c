/*
 * tree.c - the call-path profile as an indented tree, one per thread.
 *
 * Children are listed by inclusive time (ties by name) so that the hot path
 * reads from the top; --depth folds everything below a level into a count.
 */
#include <stdlib.h>
#include <string.h>

#include "report.h"

static int cmp_node(const void *pa, const void *pb)
{
    const lwr_node *a = *(const lwr_node *const *)pa, *b = *(const lwr_node *const *)pb;
    if (a->inclusive_ns != b->inclusive_ns)
        return a->inclusive_ns < b->inclusive_ns ? 1 : -1;
    int c = strcmp(a->name, b->name);
    return c ? c : strcmp(a->symbol, b->symbol);
}

static size_t descendants(const lwr_node *n)
{
    size_t k = n->nchildren;
    for (size_t i = 0; i < n->nchildren; i++)
        k += descendants(&n->children[i]);
    return k;
}

static void print_node(FILE *out, const lwr_node *n, int depth, int max_depth)
{
    char a[32], b[32];
    fprintf(out, "%12s  %12s  %10llu  %*s%s", lwr_fmt_time(a, (double)n->inclusive_ns),
            lwr_fmt_time(b, (double)n->exclusive_ns), (unsigned long long)n->visits, 2 * depth, "", n->name);
    if (n->throttled) /* its times are estimates (LIBWRAP_THROTTLE), as in the table */
        fprintf(out, " [throttled %s]", n->throttled);
    if (max_depth > 0 && depth + 1 >= max_depth && n->nchildren) {
        fprintf(out, "  [+%zu]\n", descendants(n));
        return;
    }
    fputc('\n', out);
    const lwr_node **order = (const lwr_node **)lwr_sorted_view(n->children, n->nchildren,
                                                                sizeof *n->children, cmp_node);
    for (size_t i = 0; i < n->nchildren; i++)
        print_node(out, order[i], depth + 1, max_depth);
    free(order);
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
        const lwr_node **order = (const lwr_node **)lwr_sorted_view(
            root->children, root->nchildren, sizeof *root->children, cmp_node);
        for (size_t i = 0; i < root->nchildren; i++)
            print_node(out, order[i], 0, max_depth);
        free(order);
    }
    return 0;
}
