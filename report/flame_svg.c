/*
 * flame_svg.c - the call-path profile as a self-contained flame graph.
 *
 * Classic layout (Brendan Gregg's flamegraph.pl): the root at the bottom,
 * one row per call depth, width proportional to inclusive time, siblings in
 * name order. Every thread is a frame above the root, so threads read side
 * by side. Names are escaped: C++ names carry < > & that would break XML.
 */
#include <stdlib.h>
#include <string.h>

#include "report.h"

#define WIDTH 1200.0
#define PAD 10.0
#define ROW 17.0
#define TOP 34.0
#define CHAR_PX 7.0  /* 12px monospace */
#define MIN_PX 0.1   /* narrower frames are invisible; leave them out */

/* Click a frame to zoom into it (its subtree fills the width), "all" to
 * reset. Frames overlapping the clicked one horizontally are exactly its
 * ancestors and descendants, so the others are simply hidden. */
static const char zoom_js[] =
    "(function(){var svg=document.getElementById('flamegraph'),W=1200,P=10,"
    "fs=Array.prototype.slice.call(svg.querySelectorAll('g.frame'));"
    "fs.forEach(function(g){var r=g.querySelector('rect'),t=g.querySelector('title').textContent;"
    "g.x0=+r.getAttribute('x');g.w0=+r.getAttribute('width');g.nm=t.slice(0,t.lastIndexOf(' ('));"
    "g.style.cursor='pointer';g.addEventListener('click',function(){zoom(g);});});"
    "function zoom(z){var s=(W-2*P)/z.w0;fs.forEach(function(g){var r=g.querySelector('rect'),"
    "t=g.querySelector('text'),x=P+(g.x0-z.x0)*s,w=g.w0*s;"
    "if(x+w<=P+0.01||x>=W-P-0.01){g.style.display='none';return;}g.style.display='';"
    "if(x<P){w-=P-x;x=P;}if(x+w>W-P)w=W-P-x;r.setAttribute('x',x.toFixed(1));"
    "r.setAttribute('width',w.toFixed(1));t.setAttribute('x',(x+3).toFixed(1));var n=Math.floor((w-6)/7);"
    "t.textContent=w<21?'':g.nm.length<=n?g.nm:g.nm.slice(0,n-2)+'..';});}})();";

typedef struct {
    FILE *out;
    double scale; /* px per ns */
    double total_ns;
    double height;
} flame;

static unsigned hash(const char *s)
{
    unsigned h = 2166136261u;
    for (; *s; s++)
        h = (h ^ (unsigned char)*s) * 16777619u;
    return h;
}

static int cmp_name(const void *pa, const void *pb)
{
    const lwr_node *a = *(const lwr_node *const *)pa, *b = *(const lwr_node *const *)pb;
    int c = strcmp(a->name, b->name);
    return c ? c : strcmp(a->symbol, b->symbol);
}

/* One frame's <g>; whether it is drawn (wide enough), and so its children. */
static int frame_one(flame *f, const char *label, const lwr_node *n, double x, size_t depth, int synthetic)
{
    double w = (double)n->inclusive_ns * f->scale;
    double y = f->height - PAD - (double)(depth + 1) * ROW;
    char a[32], b[32];
    if (w < MIN_PX)
        return 0;
    fputs("<g class=\"frame\"><title>", f->out);
    lwr_xml_escape(f->out, label);
    if (synthetic)
        fprintf(f->out, " (%s, %.2f%%)", lwr_fmt_time(a, (double)n->inclusive_ns),
                f->total_ns > 0 ? 100.0 * (double)n->inclusive_ns / f->total_ns : 0.0);
    else
        fprintf(f->out, " (%llu visits, inclusive %s, exclusive %s, %.2f%%)", (unsigned long long)n->visits,
                lwr_fmt_time(a, (double)n->inclusive_ns), lwr_fmt_time(b, (double)n->exclusive_ns),
                f->total_ns > 0 ? 100.0 * (double)n->inclusive_ns / f->total_ns : 0.0);
    unsigned h = hash(label);
    if (synthetic)
        fprintf(f->out, "</title><rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" fill=\"rgb(%u,%u,%u)\" "
                        "rx=\"2\"/>",
                x, y, w, ROW - 1, 190 + h % 30, 190 + h % 30, 200 + h % 30);
    else
        fprintf(f->out, "</title><rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" fill=\"rgb(%u,%u,%u)\" "
                        "rx=\"2\"/>",
                x, y, w, ROW - 1, 205 + h % 50, (h >> 8) % 200, (h >> 16) % 55);
    /* Every frame has a <text>, empty when the label does not fit: zooming refills it. */
    size_t fit = w > 3 * CHAR_PX ? (size_t)((w - 6) / CHAR_PX) : 0;
    fprintf(f->out, "<text x=\"%.1f\" y=\"%.1f\">", x + 3, y + ROW - 5);
    if (fit > 0) {
        size_t len = strlen(label);
        if (len <= fit) {
            lwr_xml_escape(f->out, label);
        } else if (fit > 2) {
            /* Cut on a byte boundary of a UTF-8 sequence, never inside one. */
            size_t cut = fit - 2;
            while (cut > 0 && ((unsigned char)label[cut] & 0xC0) == 0x80)
                cut--;
            char *s = strndup(label, cut);
            if (s) {
                lwr_xml_escape(f->out, s);
                free(s);
            }
            fputs("..", f->out);
        }
    }
    fputs("</text></g>\n", f->out);
    return 1;
}

/* The frame of n and those above it (its call paths), siblings in name
 * order from the left, depth first without recursion: a call path may be
 * LWR_MAX_CALL_DEPTH deep. */
struct frames {
    flame *f;
    size_t depth;
};

/* A child frame at *x, the next one after it; its own children from
 * where it starts. */
static int frame_visit(const lwr_node *k, size_t d, double *x, double *child_x, void *ud)
{
    const struct frames *fr = ud;
    double at = *x;
    *x += (double)k->inclusive_ns * fr->f->scale;
    *child_x = at;
    return frame_one(fr->f, k->name, k, at, fr->depth + d, 0);
}

static void frame(flame *f, const char *label, const lwr_node *n, double x, size_t depth, int synthetic)
{
    if (!frame_one(f, label, n, x, depth, synthetic))
        return;
    struct frames fr = {f, depth};
    lwr_walk_sorted(n, cmp_name, x, frame_visit, &fr);
}

int lwr_flame_svg(FILE *out, const lwr_profile *p, int standalone)
{
    /* A synthetic root above the threads, which are synthetic themselves. */
    lwr_node root = {.symbol = "", .name = "all"};
    lwr_node *threads = calloc(p->nthreads ? p->nthreads : 1, sizeof *threads);
    char **labels = calloc(p->nthreads ? p->nthreads : 1, sizeof *labels);
    if (!threads || !labels) {
        perror(LWR_PROG);
        exit(1);
    }
    size_t depth = 1;
    for (size_t t = 0; t < p->nthreads; t++) {
        threads[t] = p->threads[t].root;
        char label[64];
        if (!(labels[t] = strdup(lwr_thread_label(&p->threads[t], label)))) {
            perror(LWR_PROG);
            exit(1);
        }
        root.inclusive_ns += threads[t].inclusive_ns;
        size_t d = lwr_tree_depth(&threads[t]) + 1;
        if (d > depth)
            depth = d;
    }
    flame f = {.out = out, .total_ns = (double)root.inclusive_ns};
    f.scale = root.inclusive_ns ? (WIDTH - 2 * PAD) / (double)root.inclusive_ns : 0;
    f.height = TOP + (double)depth * ROW + PAD;

    if (standalone)
        fputs("<?xml version=\"1.0\" encoding=\"UTF-8\" standalone=\"no\"?>\n", out);
    fprintf(out,
            "<svg id=\"flamegraph\" xmlns=\"http://www.w3.org/2000/svg\" version=\"1.1\" width=\"%.0f\" "
            "height=\"%.0f\" viewBox=\"0 0 %.0f %.0f\">\n",
            WIDTH, f.height, WIDTH, f.height);
    fputs("<style>text{font-family:monospace;font-size:12px;fill:#000;pointer-events:none}"
          "g.frame:hover rect{stroke:#000;stroke-width:0.5}</style>\n",
          out);
    fprintf(out, "<rect x=\"0\" y=\"0\" width=\"%.0f\" height=\"%.0f\" fill=\"#fdf8ee\"/>\n", WIDTH, f.height);
    fprintf(out, "<text x=\"%.0f\" y=\"22\" text-anchor=\"middle\" style=\"font-size:16px\">Flame graph: ",
            WIDTH / 2);
    lwr_xml_escape(out, *p->program ? p->program : p->path);
    if (p->is_job && p->rank >= 0)
        fprintf(out, " (rank %lld)", (long long)p->rank);
    else if (p->is_job)
        fprintf(out, " (%zu ranks)", p->nranks);
    fprintf(out, "</text>\n<text x=\"%.0f\" y=\"22\" text-anchor=\"end\" style=\"fill:#888\">click to zoom, "
                 "all to reset</text>\n",
            WIDTH - PAD);
    if (root.inclusive_ns == 0) {
        fprintf(out, "<text x=\"%.0f\" y=\"%.0f\" text-anchor=\"middle\">no measured time</text>\n", WIDTH / 2,
                f.height - PAD - 4);
    } else {
        frame(&f, "all", &root, PAD, 0, 1);
        double x = PAD;
        for (size_t t = 0; t < p->nthreads; t++) {
            frame(&f, labels[t], &threads[t], x, 1, 1);
            x += (double)threads[t].inclusive_ns * f.scale;
        }
    }
    fprintf(out, "<script type=\"text/javascript\"><![CDATA[%s]]></script>\n", zoom_js);
    fputs("</svg>\n", out);
    for (size_t t = 0; t < p->nthreads; t++)
        free(labels[t]);
    free(labels);
    free(threads);
    return 0;
}
