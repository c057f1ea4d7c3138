/*
 * html.c - one self-contained HTML report: summary, function table,
 * per-thread tables, flame graph (inline SVG) and timeline (canvas drawn by
 * inline script from embedded, downsampled data). Nothing is fetched from
 * the network, so the file can be mailed or opened on a cluster login node.
 */
#include <stdlib.h>
#include <string.h>

#include "report.h"

/* Enough for a readable timeline; keeps the page at a few MB. */
#define TIMELINE_SPANS 50000

static const char css[] =
    "body{font-family:system-ui,sans-serif;margin:20px;color:#222;max-width:1260px}"
    "h1{font-size:22px}h2{font-size:18px;margin-top:28px;border-bottom:1px solid #ddd}"
    "table{border-collapse:collapse;font-size:13px}"
    "th,td{padding:3px 8px;border-bottom:1px solid #eee;text-align:right;white-space:nowrap}"
    "th{background:#f4f4f4;cursor:pointer;user-select:none}"
    "td.name,th.name{text-align:left;font-family:monospace}"
    ".thr{color:#a05a00}"
    "tr:hover td{background:#fff6dd}"
    ".meta{color:#555}.note{color:#777;font-style:italic}"
    ".arg{margin:10px 0 18px}.arg h3{font-size:14px;font-family:monospace;margin:4px 0}"
    ".hist td.bar{text-align:left;width:320px}.hist span{display:inline-block;height:11px;background:#4a7ab5}"
    "#timeline-canvas{border:1px solid #ddd}#timeline-tip{font-family:monospace;min-height:1.3em}";

/* Click a column header to sort by it; numbers sort by their raw value. */
static const char sort_js[] =
    "document.querySelectorAll('table.sortable').forEach(function(t){"
    "t.querySelectorAll('th').forEach(function(th,i){th.addEventListener('click',function(){"
    "var b=t.tBodies[0],rows=Array.prototype.slice.call(b.rows),d=th.dataset.dir==='a'?-1:1;"
    "th.dataset.dir=d>0?'a':'d';rows.sort(function(x,y){var p=x.cells[i],q=y.cells[i];"
    "var u=p.dataset.v,v=q.dataset.v;if(u!==undefined)return d*(v-u);"
    "return d*p.textContent.localeCompare(q.textContent);});"
    "rows.forEach(function(r){b.appendChild(r);});});});});";

static const char timeline_js[] =
    "(function(){var T=LIBWRAP_TIMELINE,c=document.getElementById('timeline-canvas'),"
    "tip=document.getElementById('timeline-tip'),x=c.getContext('2d'),W=1200,L=150,R=10,H=14,G=22;"
    "var lanes=[],y=0;T.threads.forEach(function(t){var m=0;t.spans.forEach(function(s){if(s[1]>m)m=s[1];});"
    "lanes.push({t:t,y:y,h:(m+1)*H});y+=(m+1)*H+G;});"
    "c.width=W;c.height=Math.max(y,30);var sc=(W-L-R)/Math.max(T.duration,1);"
    "function col(n){var h=2166136261;for(var i=0;i<n.length;i++){h=Math.imul(h^n.charCodeAt(i),16777619)>>>0;}"
    "return 'rgb('+(205+h%50)+','+((h>>>8)%200)+','+((h>>>16)%55)+')';}"
    "function nm(s){return s[0]<0?'(many calls)':T.regions[s[0]];}"
    "x.font='11px monospace';lanes.forEach(function(l){x.fillStyle='#222';x.fillText(l.t.name,4,l.y+11);"
    "l.t.spans.forEach(function(s){var n=nm(s),a=L+s[2]*sc,w=Math.max(1,(s[3]-s[2])*sc);"
    "x.fillStyle=s[0]<0?'#bbb':col(n);x.fillRect(a,l.y+s[1]*H,w,H-1);"
    "if(w>40){x.save();x.beginPath();x.rect(a,l.y+s[1]*H,w,H);x.clip();x.fillStyle='#000';"
    "x.fillText(n,a+2,l.y+s[1]*H+10);x.restore();}});});c.setAttribute('data-drawn',lanes.length);"
    "function fmt(ns){return ns<1e3?ns+' ns':ns<1e6?(ns/1e3).toFixed(2)+' us':ns<1e9?(ns/1e6).toFixed(2)+' ms'"
    ":(ns/1e9).toFixed(3)+' s';}"
    "c.addEventListener('mousemove',function(e){var r=c.getBoundingClientRect(),"
    "px=(e.clientX-r.left)*c.width/r.width,py=(e.clientY-r.top)*c.height/r.height,t=(px-L)/sc,hit=null;"
    "lanes.forEach(function(l){if(py<l.y||py>=l.y+l.h)return;var d=Math.floor((py-l.y)/H);"
    "l.t.spans.forEach(function(s){if(s[1]===d&&t>=s[2]-1/sc&&t<=s[3]+1/sc)hit=[l,s];});});"
    "tip.textContent=hit?hit[0].t.name+': '+nm(hit[1])+' at '+fmt(hit[1][2])+', '+fmt(hit[1][3]-hit[1][2])"
    "+(hit[1][4]>1?' ('+hit[1][4]+' calls merged)':''):'';});})();";

static void td_time(FILE *out, uint64_t ns)
{
    char b[32];
    fprintf(out, "<td data-v=\"%llu\">%s</td>", (unsigned long long)ns, lwr_fmt_time(b, (double)ns));
}

static void func_table(FILE *out, const lwr_profile *p, lwr_func *f, size_t n, const char *id)
{
    uint64_t total = 0;
    int job = p->is_job && p->nranks > 1 && n && f[0].has_rank_stats;
    for (size_t i = 0; i < n; i++)
        total += f[i].exclusive_ns;
    lwr_sort_funcs(f, n, LWR_SORT_EXCLUSIVE);
    fprintf(out, "<table class=\"sortable profile\" id=\"%s\"><thead><tr><th class=\"name\">function</th>"
                 "<th>visits</th><th>inclusive</th><th>exclusive</th><th>mean</th><th>min</th><th>max</th>"
                 "<th>excl%%</th>",
            id);
    for (size_t m = 0; m < p->nmetrics; m++) {
        fputs("<th>", out);
        lwr_xml_escape(out, p->metrics[m].name);
        fputs("</th>", out);
    }
    if (job)
        fputs("<th>ranks</th><th title=\"exclusive time of the rank with the least\">rank min</th>"
              "<th>rank mean</th><th title=\"exclusive time of the rank with the most\">rank max</th>",
              out);
    fputs("</tr></thead>\n<tbody>\n", out);
    for (size_t i = 0; i < n; i++) {
        fputs("<tr class=\"fn\"><td class=\"name\" title=\"", out);
        lwr_xml_escape(out, f[i].symbol);
        if (*f[i].file) {
            fputs(" (", out);
            lwr_xml_escape(out, f[i].file);
            fprintf(out, ":%lld)", (long long)f[i].line);
        }
        fputs("\">", out);
        lwr_xml_escape(out, f[i].name);
        if (f[i].throttled) {
            /* Its times are estimates (LIBWRAP_THROTTLE), as in the table. */
            fputs(" <span class=\"thr\" title=\"visits exact; times estimated from the calls timed, ", out);
            lwr_xml_escape(out, f[i].throttled);
            fputs(" (LIBWRAP_THROTTLE)\">[throttled ", out);
            lwr_xml_escape(out, f[i].throttled);
            fputs("]</span>", out);
        }
        fprintf(out, "</td><td data-v=\"%llu\">%llu</td>", (unsigned long long)f[i].visits,
                (unsigned long long)f[i].visits);
        td_time(out, f[i].inclusive_ns);
        td_time(out, f[i].exclusive_ns);
        td_time(out, f[i].visits ? f[i].inclusive_ns / f[i].visits : 0);
        if (f[i].has_minmax) {
            td_time(out, f[i].min_ns);
            td_time(out, f[i].max_ns);
        } else {
            fputs("<td data-v=\"0\">-</td><td data-v=\"0\">-</td>", out);
        }
        double share = total ? 100.0 * (double)f[i].exclusive_ns / (double)total : 0.0;
        fprintf(out, "<td data-v=\"%.4f\">%.1f%%</td>", share, share);
        for (size_t m = 0; m < p->nmetrics; m++) {
            char b[40];
            lwr_fmt_metric(b, f[i].metrics[m]);
            fprintf(out, "<td data-v=\"%.17g\">%s</td>", f[i].metrics[m], b);
        }
        if (job) {
            char b[32];
            const lwr_rank_stat *x = &f[i].rank_exclusive;
            fprintf(out, "<td data-v=\"%llu\">%llu/%zu</td>", (unsigned long long)f[i].ranks_called,
                    (unsigned long long)f[i].ranks_called, p->nranks);
            fprintf(out, "<td data-v=\"%llu\">%s on rank %lld</td>", (unsigned long long)x->min,
                    lwr_fmt_time(b, (double)x->min), (long long)x->min_rank);
            td_time(out, (uint64_t)x->mean);
            fprintf(out, "<td data-v=\"%llu\">%s on rank %lld</td>", (unsigned long long)x->max,
                    lwr_fmt_time(b, (double)x->max), (long long)x->max_rank);
        }
        fputs("</tr>\n", out);
    }
    fputs("</tbody></table>\n", out);
}

/* A job: one row per process. */
static void ranks_table(FILE *out, const lwr_profile *p)
{
    fputs("<table class=\"sortable\" id=\"ranks-table\"><thead><tr><th>rank</th><th class=\"name\">host</th>"
          "<th>pid</th><th>threads</th><th>visits</th><th>exclusive</th></tr></thead>\n<tbody>\n",
          out);
    for (size_t i = 0; i < p->nparts; i++) {
        const lwr_part *q = &p->parts[i];
        fprintf(out, "<tr class=\"rank\"><td data-v=\"%lld\">%lld%s</td><td class=\"name\">", (long long)q->rank,
                (long long)q->rank, q->image ? " (exec)" : "");
        lwr_xml_escape(out, q->host);
        fprintf(out, "</td><td data-v=\"%lld\">%lld</td><td data-v=\"%zu\">%zu</td><td data-v=\"%llu\">%llu</td>",
                (long long)q->pid, (long long)q->pid, q->nthreads, q->nthreads, (unsigned long long)q->visits,
                (unsigned long long)q->visits);
        td_time(out, q->exclusive_ns);
        fputs("</tr>\n", out);
    }
    fputs("</tbody></table>\n", out);
}

/* One recorded argument: its statistics, then its log2 histogram or its
 * most frequent values as bars. */
static void html_argument(FILE *out, const lwr_func *f, const lwr_arg *a)
{
    char b1[48], b2[48], b3[48];
    fputs("<div class=\"arg\"><h3>", out);
    lwr_xml_escape(out, f->name);
    fputs(": ", out);
    lwr_xml_escape(out, a->name);
    fputs(" <span class=\"meta\">(", out);
    lwr_xml_escape(out, a->type);
    fprintf(out, ")</span></h3><p class=\"meta\">%llu values", (unsigned long long)a->count);
    if (a->numeric && a->count)
        fprintf(out, ", sum %s, min %s, max %s, mean %.6g", lwr_num_fmt(b1, &a->sum), lwr_num_fmt(b2, &a->min),
                lwr_num_fmt(b3, &a->max), lwr_num_double(&a->sum) / (double)a->count);
    fputs("</p>\n<table class=\"hist\"><tbody>", out);
    uint64_t most = 1;
    for (size_t k = 0; k < a->nhist; k++)
        most = a->hist[k].count > most ? a->hist[k].count : most;
    for (size_t k = 0; k < a->nvalues; k++)
        most = a->values[k].count > most ? a->values[k].count : most;
    int dbl = strcmp(a->kind, "double") == 0;
    for (size_t k = 0; k < a->nhist; k++) {
        const lwr_bucket *h = &a->hist[k];
        fprintf(out, "<tr><td class=\"name\">%s%s, %s%s</td><td>%llu</td><td class=\"bar\"><span style=\"width:%.1f%%\">"
                     "</span></td></tr>",
                h->lo.kind == LWR_NUM_NONE ? "(" : "[", h->lo.kind == LWR_NUM_NONE ? "-inf" : lwr_num_fmt(b1, &h->lo),
                h->hi.kind == LWR_NUM_NONE ? "inf" : lwr_num_fmt(b2, &h->hi),
                h->hi.kind == LWR_NUM_NONE || dbl ? ")" : "]", (unsigned long long)h->count,
                100.0 * (double)h->count / (double)most);
    }
    for (size_t k = 0; k < a->nvalues && k < 20; k++) {
        fputs("<tr><td class=\"name\">", out);
        if (a->values[k].is_string)
            fputc('"', out);
        lwr_xml_escape(out, a->values[k].text);
        if (a->values[k].is_string)
            fputc('"', out);
        fprintf(out, "</td><td>%llu</td><td class=\"bar\"><span style=\"width:%.1f%%\"></span></td></tr>",
                (unsigned long long)a->values[k].count, 100.0 * (double)a->values[k].count / (double)most);
    }
    uint64_t rest = a->other;
    for (size_t k = 20; k < a->nvalues; k++)
        rest += a->values[k].count;
    if (rest)
        fprintf(out, "<tr><td class=\"name\">(other values)</td><td>%llu</td><td></td></tr>", (unsigned long long)rest);
    fputs("</tbody></table></div>\n", out);
}

void lwr_html_arguments(FILE *out, const lwr_profile *p)
{
    if (!lwr_profile_has_arguments(p))
        return;
    fputs("<h2 id=\"arguments\">Arguments</h2>\n<p class=\"note\">Values recorded with LIBWRAP_ARGUMENTS: "
          "log2 histograms of numbers (buckets [lo, hi]), the most frequent strings and enum values.</p>\n",
          out);
    for (size_t i = 0; i < p->nfuncs; i++)
        for (size_t k = 0; k < p->funcs[i].nargs; k++)
            html_argument(out, &p->funcs[i], &p->funcs[i].args[k]);
}

int lwr_html(const char *out_path, const lwr_profile *p, const char *trace_anchor, int64_t rank)
{
    lwr_timeline *tl = NULL;
    FILE *probe = trace_anchor ? fopen(trace_anchor, "rb") : NULL;
    if (probe) {
        fclose(probe);
        if (lwr_timeline_build(trace_anchor, TIMELINE_SPANS, rank, &tl))
            return -1;
    }
    lwr_out file;
    if (lwr_out_open(&file, out_path)) {
        lwr_timeline_free(tl);
        return -1;
    }
    FILE *out = file.f;
    const char *prog = *p->program ? p->program : p->path;
    fputs("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>libwrap report: ", out);
    lwr_xml_escape(out, prog);
    fprintf(out, "</title><style>%s</style></head>\n<body>\n<h1>libwrap report: ", css);
    lwr_xml_escape(out, prog);
    if (p->is_job && p->rank >= 0) {
        fprintf(out, "</h1>\n<p class=\"meta\">rank %lld of ", (long long)p->rank);
        lwr_xml_escape(out, *p->launcher ? p->launcher : "MPI");
        fputs(" job ", out);
        lwr_xml_escape(out, p->job);
        fprintf(out, ", pid %lld, timer ", (long long)p->pid);
    } else if (p->is_job) {
        fputs("</h1>\n<p class=\"meta\">", out);
        lwr_xml_escape(out, *p->launcher ? p->launcher : "MPI");
        fputs(" job ", out);
        lwr_xml_escape(out, p->job);
        if (p->reduced)
            fprintf(out, ": %zu ranks, reduced at %s, timer ", p->nranks, p->reduced_at);
        else
            fprintf(out, ": %zu ranks, %zu processes, timer ", p->nranks, p->nparts);
    } else {
        fprintf(out, "</h1>\n<p class=\"meta\">pid %lld, timer ", (long long)p->pid);
    }
    lwr_xml_escape(out, *p->timer ? p->timer : "?");
    fprintf(out, ", %zu functions, %zu threads, from ", p->nfuncs, p->nthreads);
    lwr_xml_escape(out, p->path);
    fputs(". Sections: <a href=\"#functions\">functions</a>, ", out);
    if (p->is_job && p->rank < 0)
        fputs("<a href=\"#ranks\">ranks</a>, ", out);
    if (lwr_profile_has_arguments(p))
        fputs("<a href=\"#arguments\">arguments</a>, ", out);
    fputs("<a href=\"#flame\">flame graph</a>, <a href=\"#timeline\">timeline</a>, "
          "<a href=\"#threads\">threads</a>.</p>\n",
          out);

    fputs(p->is_job && p->rank < 0 ? "<h2 id=\"functions\">Functions (all ranks and threads)</h2>\n"
                                   : "<h2 id=\"functions\">Functions (all threads)</h2>\n",
          out);
    lwr_func *f = malloc((p->nfuncs ? p->nfuncs : 1) * sizeof *f);
    if (!f) {
        perror(LWR_PROG);
        exit(1);
    }
    memcpy(f, p->funcs, p->nfuncs * sizeof *f);
    func_table(out, p, f, p->nfuncs, "functions-table");
    free(f);

    if (p->is_job && p->rank < 0) {
        fputs("<h2 id=\"ranks\">Ranks</h2>\n", out);
        ranks_table(out, p);
    }
    lwr_html_arguments(out, p);

    fputs("<h2 id=\"flame\">Flame graph</h2>\n<p class=\"note\">Width is inclusive time; hover a frame for "
          "its visits and times.</p>\n",
          out);
    lwr_flame_svg(out, p, 0);

    fputs("<h2 id=\"timeline\">Timeline</h2>\n", out);
    if (tl) {
        fputs(p->is_job ? "<p class=\"note\">One lane per rank and thread, on the job's time base, calls nested by "
                          "depth, "
                        : "<p class=\"note\">One lane per thread, calls nested by depth, ",
              out);
        fputs("from the first measured call to the last. In long traces, runs of short calls are merged into "
              "one span (grey when they were different functions). Hover for details.</p>\n"
              "<div id=\"timeline-tip\"></div>\n"
              "<canvas id=\"timeline-canvas\" width=\"1200\" height=\"40\"></canvas>\n",
              out);
        if (lwr_timeline_dropped(tl))
            fprintf(out, "<p class=\"note\">%llu calls are not drawn (too many or too deep); open timeline.json "
                         "from <code>libwrap-report --timeline</code> in Perfetto for all of them.</p>\n",
                    (unsigned long long)lwr_timeline_dropped(tl));
        fputs("<script>var LIBWRAP_TIMELINE=", out);
        lwr_timeline_write_js(out, tl);
        fprintf(out, ";\n%s</script>\n", timeline_js);
    } else {
        fputs("<p class=\"note\">No trace in this experiment; run with LIBWRAP_ENABLE_TRACING=true to get "
              "one.</p>\n",
              out);
    }

    fputs("<h2 id=\"threads\">Threads</h2>\n", out);
    for (size_t t = 0; t < p->nthreads; t++) {
        lwr_func *rows;
        size_t n;
        char id[48], label[64];
        lwr_thread_functions(p, &p->threads[t], &rows, &n);
        fprintf(out, "<details%s><summary>%s (%zu functions)</summary>\n", t == 0 ? " open" : "",
                lwr_thread_label(&p->threads[t], label), n);
        snprintf(id, sizeof id, "thread-%zu-table", t);
        func_table(out, p, rows, n, id);
        fputs("</details>\n", out);
        lwr_funcs_free(rows, n);
    }
    fprintf(out, "<script>%s</script>\n</body></html>\n", sort_js);
    lwr_timeline_free(tl);
    return lwr_out_commit(&file);
}
