/* tui/run_report.h: one run written up as Markdown or HTML. The report's outline is written
 * once (report_write); what differs between the two formats is a small table of emitters
 * (heading, facts, table, code block, escaping), one per format. */
#include "tui/run_report.h"

#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "casedb/case.h"
#include "casedb/cdb.h"
#include "casedb/results_query.h"
#include "common/text.h"
#include "common/xalloc.h"
#include "tui/clipboard.h"
#include "tui/cmdline.h"
#include "tui/report_bundle.h"
#include "tui/results_fmt.h"

/* ---- escaping ---------------------------------------------------------------------------- */

/* Markdown inside a table cell or a line of text: characters that would start markup are
 * backslash-escaped ('|' would end the cell), and '<' '>' '&' are entities so no raw HTML gets
 * through. */
static void md_text(FILE *out, const char *s)
{
    for (; *s; s++) {
        switch (*s) {
        case '<': fputs("&lt;", out); break;
        case '>': fputs("&gt;", out); break;
        case '&': fputs("&amp;", out); break;
        case '|': case '\\': case '`': case '*': case '_': case '[': case ']': case '#':
        case '~':
            fputc('\\', out);
            fputc(*s, out);
            break;
        default: fputc(*s, out);
        }
    }
}

static void html_text(FILE *out, const char *s)
{
    for (; *s; s++) {
        switch (*s) {
        case '<': fputs("&lt;", out); break;
        case '>': fputs("&gt;", out); break;
        case '&': fputs("&amp;", out); break;
        case '"': fputs("&quot;", out); break;
        case '\'': fputs("&#39;", out); break;
        default: fputc(*s, out);
        }
    }
}

/* ---- the two formats ---------------------------------------------------------------------- */

struct emitter {
    void (*text)(FILE *out, const char *s); /* escaped, already sanitised text */
    void (*begin)(FILE *out, const char *title);
    void (*end)(FILE *out);
    void (*heading)(FILE *out, const char *title);
    void (*facts_begin)(FILE *out);
    void (*fact)(FILE *out, const char *label, const char *value);
    void (*facts_end)(FILE *out);
    void (*table_head)(FILE *out, const char *const *cols, size_t n);
    void (*row_begin)(FILE *out);
    void (*cell)(FILE *out, const char *s);
    void (*row_end)(FILE *out);
    void (*table_end)(FILE *out);
    void (*code)(FILE *out, const char *s);
    void (*para)(FILE *out, const char *s);
};

static void md_begin(FILE *out, const char *title)
{
    fputs("## ", out);
    md_text(out, title);
    fputs("\n\n", out);
}
static void md_end(FILE *out) { fputs("<sub>written by kladder report</sub>\n", out); }
static void md_heading(FILE *out, const char *title)
{
    fputs("### ", out);
    md_text(out, title);
    fputs("\n\n", out);
}
static void md_fact(FILE *out, const char *label, const char *value)
{
    fputs("- **", out);
    md_text(out, label);
    fputs(":** ", out);
    md_text(out, value);
    fputc('\n', out);
}
static void md_facts_begin(FILE *out) { (void)out; }
static void md_facts_end(FILE *out) { fputc('\n', out); }
static void md_table_head(FILE *out, const char *const *cols, size_t n)
{
    fputc('|', out);
    for (size_t i = 0; i < n; i++)
        fprintf(out, " %s |", cols[i]);
    fputs("\n|", out);
    for (size_t i = 0; i < n; i++)
        fputs(" --- |", out);
    fputc('\n', out);
}
static void md_row_begin(FILE *out) { fputc('|', out); }
static void md_cell(FILE *out, const char *s)
{
    fputc(' ', out);
    md_text(out, *s ? s : "-");
    fputs(" |", out);
}
static void md_row_end(FILE *out) { fputc('\n', out); }
static void md_table_end(FILE *out) { fputc('\n', out); }
/* A fence longer than any run of backticks in the text, so the text cannot close it. */
static void md_code(FILE *out, const char *s)
{
    size_t longest = 0, run = 0;
    for (const char *p = s; *p; p++) {
        run = *p == '`' ? run + 1 : 0;
        if (run > longest)
            longest = run;
    }
    size_t fence = longest < 3 ? 3 : longest + 1;
    for (size_t i = 0; i < fence; i++)
        fputc('`', out);
    fputs("sh\n", out);
    fputs(s, out);
    fputc('\n', out);
    for (size_t i = 0; i < fence; i++)
        fputc('`', out);
    fputs("\n\n", out);
}
static void md_para(FILE *out, const char *s)
{
    md_text(out, s);
    fputs("\n\n", out);
}

static const struct emitter md = {
    .text = md_text, .begin = md_begin, .end = md_end, .heading = md_heading,
    .facts_begin = md_facts_begin, .fact = md_fact,
    .facts_end = md_facts_end, .table_head = md_table_head, .row_begin = md_row_begin,
    .cell = md_cell, .row_end = md_row_end, .table_end = md_table_end, .code = md_code,
    .para = md_para,
};

static void html_begin(FILE *out, const char *title)
{
    fputs("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>", out);
    html_text(out, title);
    /* the whole look is here: a report opens offline, with nothing to fetch */
    fputs("</title>\n<style>\n"
          "body { font-family: sans-serif; margin: 2em; max-width: 80em; }\n"
          "table { border-collapse: collapse; margin-bottom: 1em; }\n"
          "th, td { border: 1px solid #999; padding: 0.2em 0.5em; text-align: left; "
          "vertical-align: top; }\n"
          "th { background: #eee; }\n"
          "pre { background: #f4f4f4; padding: 0.5em; overflow-x: auto; }\n"
          "</style>\n</head>\n<body>\n<h1>", out);
    html_text(out, title);
    fputs("</h1>\n", out);
}
static void html_end(FILE *out)
{
    fputs("<p><small>written by kladder report</small></p>\n</body>\n</html>\n", out);
}
static void html_heading(FILE *out, const char *title)
{
    fputs("<h2>", out);
    html_text(out, title);
    fputs("</h2>\n", out);
}
static void html_facts_begin(FILE *out) { fputs("<ul>\n", out); }
static void html_fact(FILE *out, const char *label, const char *value)
{
    fputs("<li><b>", out);
    html_text(out, label);
    fputs(":</b> ", out);
    html_text(out, value);
    fputs("</li>\n", out);
}
static void html_facts_end(FILE *out) { fputs("</ul>\n", out); }
static void html_table_head(FILE *out, const char *const *cols, size_t n)
{
    fputs("<table>\n<tr>", out);
    for (size_t i = 0; i < n; i++)
        fprintf(out, "<th>%s</th>", cols[i]);
    fputs("</tr>\n", out);
}
static void html_row_begin(FILE *out) { fputs("<tr>", out); }
static void html_cell(FILE *out, const char *s)
{
    fputs("<td>", out);
    html_text(out, *s ? s : "-");
    fputs("</td>", out);
}
static void html_row_end(FILE *out) { fputs("</tr>\n", out); }
static void html_table_end(FILE *out) { fputs("</table>\n", out); }
static void html_code(FILE *out, const char *s)
{
    fputs("<pre><code>", out);
    html_text(out, s);
    fputs("</code></pre>\n", out);
}
static void html_para(FILE *out, const char *s)
{
    fputs("<p>", out);
    html_text(out, s);
    fputs("</p>\n", out);
}

static const struct emitter html = {
    .text = html_text, .begin = html_begin, .end = html_end, .heading = html_heading,
    .facts_begin = html_facts_begin, .fact = html_fact, .facts_end = html_facts_end,
    .table_head = html_table_head,
    .row_begin = html_row_begin, .cell = html_cell, .row_end = html_row_end,
    .table_end = html_table_end, .code = html_code, .para = html_para,
};

/* ---- helpers ------------------------------------------------------------------------------ */

/* Every string from the database goes out through here: control characters never reach the
 * reader's terminal or page. */
static void fact(const struct emitter *e, FILE *out, const char *label, const char *value)
{
    char *v = text_sanitize(value && *value ? value : "n/a", false);
    e->fact(out, label, v);
    free(v);
}
static void cell(const struct emitter *e, FILE *out, const char *value)
{
    char *v = text_sanitize(value ? value : "", false);
    e->cell(out, v);
    free(v);
}

static void fmt_us(double v, char *buf, size_t len)
{
    if (isnan(v))
        snprintf(buf, len, "n/a");
    else
        snprintf(buf, len, "%.3g", v);
}

static bool failed(enum cdb_verdict v)
{
    return v == CDB_FAIL || v == CDB_HANG || v == CDB_ERROR || v == CDB_DOUBT;
}

/* The variant a failing check is set beside: buggy's fixed, baseline-buggy's baseline-fixed. */
static void fixed_name(const char *variant, char *buf, size_t len)
{
    const char *b = variant ? strstr(variant, "buggy") : NULL;
    if (!b) {
        buf[0] = '\0';
        return;
    }
    snprintf(buf, len, "%.*sfixed%s", (int)(b - variant), variant, b + strlen("buggy"));
}

static const struct cdb_check *fixed_beside(const struct cdb_run_detail *d,
                                            const struct cdb_check *c)
{
    char want[64];
    fixed_name(c->variant, want, sizeof want);
    if (!want[0])
        return NULL;
    for (size_t i = 0; i < d->n_checks; i++) {
        const struct cdb_check *o = &d->checks[i];
        if (o->rung == c->rung && o->variant && !strcmp(o->variant, want) &&
            o->suite && c->suite && !strcmp(o->suite, c->suite) && o->check && c->check &&
            !strcmp(o->check, c->check) && o->shape && c->shape && !strcmp(o->shape, c->shape))
            return o;
    }
    return NULL;
}

/* ---- the outline -------------------------------------------------------------------------- */

static void write_case(const struct emitter *e, FILE *out, struct cdb *db,
                       const struct cdb_run *r)
{
    const char *id = r->case_id ? r->case_id : r->suite;
    struct cdb_case c;
    char err[256];
    if (!id || cdb_case_get(db, id, &c, err, sizeof err) != 1) {
        fact(e, out, "case", "none (the run's suite is not a case of the index)");
        return;
    }
    char buf[512];
    fact(e, out, "case", c.id);
    fact(e, out, "title", c.title_en);
    struct cdb_gap *gaps = NULL;
    size_t n_gaps = 0;
    if (cdb_gaps_load(db, &gaps, &n_gaps, err, sizeof err) == 0 && c.gap >= 1 &&
        (size_t)c.gap <= n_gaps) {
        snprintf(buf, sizeof buf, "%d, %s", c.gap, gaps[c.gap - 1].name_en);
        fact(e, out, "gap", buf);
    }
    for (size_t i = 0; i < n_gaps; i++)
        cdb_gap_free(&gaps[i]);
    free(gaps);
    snprintf(buf, sizeof buf, "%d", c.rung);
    fact(e, out, "lowest rung that catches it", buf);
    for (size_t i = 0; i < c.n_refs; i++)
        if (e == &md) /* a link is welcome in a tracker; the HTML fetches and links nothing */
            fact(e, out, "reference", c.refs[i].url ? c.refs[i].url : c.refs[i].ref);
        else
            fact(e, out, "reference", c.refs[i].ref);
    cdb_case_free(&c);
}

static void write_machine(const struct emitter *e, FILE *out, const struct cdb_run_info *ri)
{
    const struct cdb_machine *m = &ri->machine;
    char buf[64];
    fact(e, out, "host", ri->run.host);
    fact(e, out, "pulled from", ri->origin ? ri->origin : "no (run on this host)");
    fact(e, out, "backend", m->backend);
    fact(e, out, "device", m->device);
    fact(e, out, "target", m->target);
    snprintf(buf, sizeof buf, "%d", m->wave_size);
    fact(e, out, "wave size", m->wave_size ? buf : NULL);
    snprintf(buf, sizeof buf, "%d", m->compute_units);
    fact(e, out, "compute units", m->compute_units ? buf : NULL);
    fact(e, out, "driver", m->driver_version);
    fact(e, out, "runtime", m->runtime_version);
    fact(e, out, "compiler", m->compiler_version);
    fact(e, out, "compute partition", m->compute_partition);
    fact(e, out, "memory partition", m->memory_partition);
    fact(e, out, "kladder", m->kladder_version);
    fact(e, out, "kladder commit", m->kladder_commit);
    fact(e, out, "machine id", m->id);
}

static void write_failures(const struct emitter *e, FILE *out, const struct cdb_run_detail *d)
{
    static const char *const cols[] = {"check", "rung", "variant", "verdict", "shape",
                                       "value class", "seam", "first bad", "detail",
                                       "fixed variant beside"};
    size_t n = 0;
    for (size_t i = 0; i < d->n_checks; i++) {
        const struct cdb_check *c = &d->checks[i];
        if (!failed(c->verdict))
            continue;
        if (n++ == 0)
            e->table_head(out, cols, sizeof cols / sizeof cols[0]);
        char rung[16], first[32] = "", seam[512] = "", beside[512] = "";
        snprintf(rung, sizeof rung, "%d", c->rung);
        if (c->first_bad >= 0)
            snprintf(first, sizeof first, "%lld", (long long)c->first_bad);
        if (c->seam)
            snprintf(seam, sizeof seam, "%s: %s / %s", c->seam, c->seam_a ? c->seam_a : "?",
                     c->seam_b ? c->seam_b : "?");
        const struct cdb_check *f = fixed_beside(d, c);
        if (f) {
            char med[32];
            fmt_us(f->time_median_us, med, sizeof med);
            snprintf(beside, sizeof beside, "%s %s (median %s µs)%s%s", f->variant,
                     cdb_verdict_name(f->verdict), med, f->detail && *f->detail ? ": " : "",
                     f->detail ? f->detail : "");
        } else {
            snprintf(beside, sizeof beside, "not run");
        }
        e->row_begin(out);
        cell(e, out, c->check), cell(e, out, rung), cell(e, out, c->variant);
        cell(e, out, cdb_verdict_name(c->verdict)), cell(e, out, c->shape);
        cell(e, out, c->value_class); /* none recorded: the manifest's inits, or an older export */
        cell(e, out, seam), cell(e, out, first), cell(e, out, c->detail), cell(e, out, beside);
        e->row_end(out);
    }
    if (n)
        e->table_end(out);
    else
        e->para(out, "No check failed.");
}

static void write_timings(const struct emitter *e, FILE *out, const struct cdb_run_detail *d)
{
    static const char *const cols[] = {"check", "rung", "variant", "shape", "verdict",
                                       "median µs", "min µs", "max µs", "spread", "repeats"};
    size_t n = 0;
    for (size_t i = 0; i < d->n_checks; i++) {
        const struct cdb_check *c = &d->checks[i];
        if (isnan(c->time_median_us))
            continue;
        if (n++ == 0)
            e->table_head(out, cols, sizeof cols / sizeof cols[0]);
        char rung[16], med[32], mn[32], mx[32], spread[32] = "n/a", rep[16];
        snprintf(rung, sizeof rung, "%d", c->rung);
        fmt_us(c->time_median_us, med, sizeof med);
        fmt_us(c->time_min_us, mn, sizeof mn);
        fmt_us(c->time_max_us, mx, sizeof mx);
        /* the spread a reader needs before trusting a time: half the range over the median;
         * one launch has none to show */
        if (c->repeats < 2)
            snprintf(spread, sizeof spread, "one launch");
        else if (!isnan(c->time_min_us) && !isnan(c->time_max_us) && c->time_median_us > 0)
            snprintf(spread, sizeof spread, "±%.1f%%",
                     50.0 * (c->time_max_us - c->time_min_us) / c->time_median_us);
        snprintf(rep, sizeof rep, "%d", c->repeats);
        e->row_begin(out);
        cell(e, out, c->check), cell(e, out, rung), cell(e, out, c->variant);
        cell(e, out, c->shape), cell(e, out, cdb_verdict_name(c->verdict));
        cell(e, out, med), cell(e, out, mn), cell(e, out, mx), cell(e, out, spread);
        cell(e, out, rep);
        e->row_end(out);
    }
    if (n)
        e->table_end(out);
    else
        e->para(out, "No check was timed.");
}

/* The user's suite files, so that whoever reads the report can rerun it (tui/report_bundle.h). */
static void write_bundle(const struct emitter *e, FILE *out, const struct cdb_run *r)
{
    struct tui_bundle b;
    tui_report_bundle(r->argv, r->uuid, &b);
    if (b.note)
        e->para(out, b.note);
    if (b.script)
        e->code(out, b.script);
    tui_bundle_free(&b);
}

static void write_report(const struct emitter *e, FILE *out, struct cdb *db,
                         const struct cdb_run_detail *d)
{
    const struct cdb_run_info *ri = &d->info;
    const struct cdb_run *r = &ri->run;
    char title[256], buf[512], counts[160];
    char *what = text_sanitize(r->case_id ? r->case_id : r->suite ? r->suite : "run", false);
    if (r->rung > 0)
        snprintf(title, sizeof title, "kladder: %s rung %d, %s on %s", what, r->rung,
                 cdb_verdict_name(r->verdict), ri->machine.target ? ri->machine.target : "?");
    else
        snprintf(title, sizeof title, "kladder: %s, %s on %s", what, cdb_verdict_name(r->verdict),
                 ri->machine.target ? ri->machine.target : "?");
    free(what);
    char *t = text_sanitize(title, false);
    e->begin(out, t);
    free(t);

    e->heading(out, "Run");
    e->facts_begin(out);
    fact(e, out, "run", r->uuid);
    tui_fmt_run_counts(ri->counts, ri->caught_fail, ri->caught_hang, r->verdict, false, counts,
                       sizeof counts);
    snprintf(buf, sizeof buf, "%s (%s)", cdb_verdict_name(r->verdict), counts);
    fact(e, out, "verdict", buf);
    if (r->exported_verdict && strcmp(r->exported_verdict, cdb_verdict_name(r->verdict)) != 0)
        fact(e, out, "exported as", r->exported_verdict);
    fact(e, out, "suite", r->suite);
    fact(e, out, "variant", r->variant);
    fact(e, out, "started", r->started);
    fact(e, out, "finished", r->finished);
    write_case(e, out, db, r);
    e->facts_end(out);

    e->heading(out, "Machine");
    e->facts_begin(out);
    write_machine(e, out, ri);
    e->facts_end(out);

    char *cmd = tui_cmdline_copy(r->argv, ri->origin);
    if (ri->origin) {
        /* a pulled document's argv is whatever its host wrote: shown as its claim, quoted and
         * commented, never as a command of ours to paste and run (tui/cmdline.h) */
        e->heading(out, "Command recorded by the pulled host (not verified here)");
        char *from = text_sanitize(ri->origin, false);
        char *say = xasprintf("Pulled from %s: this is the command line that document says the "
                              "run had, quoted and given as a comment. kladder did not run it and "
                              "does not vouch for it; read it before running anything.", from);
        e->para(out, say);
        free(say);
        free(from);
        e->code(out, cmd[0] ? cmd : "# (no command recorded)");
    } else {
        e->heading(out, "Reproduce");
        e->code(out, cmd[0] ? cmd : "(no command recorded)");
    }
    free(cmd);
    /* files are bundled only for a run made here: a pulled command's --suite names a path of
     * another machine, and whatever file this one has there is not that run's */
    if (!ri->origin)
        write_bundle(e, out, r);

    e->heading(out, "Failing checks");
    write_failures(e, out, d);
    e->heading(out, "Timings");
    write_timings(e, out, d);
    e->end(out);
}

int tui_run_report(struct cdb *db, const char *id, enum tui_report_format fmt, FILE *out,
                   char *err, size_t errlen)
{
    struct cdb_run_detail d;
    int found = cdb_run_load(db, id, &d, err, errlen);
    if (found < 0)
        return -1;
    if (found == 0) {
        char *shown = text_fit(id, 40, true, NULL);
        snprintf(err, errlen, "no run '%s' (see kladder results)", shown);
        free(shown);
        return 1;
    }
    write_report(fmt == TUI_REPORT_HTML ? &html : &md, out, db, &d);
    cdb_run_detail_free(&d);
    return 0;
}
