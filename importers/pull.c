/* Pull orchestration (pull.h): resolve targets, fetch concurrently, parse in parallel threads,
 * merge one host per transaction. */
#include "importers/pull.h"

#include <pthread.h>
#include <time.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "casedb/cdb.h"
#include "casedb/merge.h"
#include "casedb/hosts.h"
#include "common/text.h"
#include "common/xalloc.h"
#include "importers/results_json.h"

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

void imp_pull_opts_init(struct imp_pull_opts *o)
{
    memset(o, 0, sizeof *o);
    imp_fetch_opts_init(&o->fetch);
}

struct target {
    struct imp_pull_result *res;
    char *url;
    char *origin; /* NULL: named after the exporting host once the document is read */
    char *cursor;
    struct imp_fetch_item fetch;
    struct imp_results_doc doc;
    bool parsed;
};

static void set_label(struct imp_pull_result *r, const char *s)
{
    char *t = text_fit(s, (int)sizeof r->label / 2, true, NULL);
    snprintf(r->label, sizeof r->label, "%s", t);
    free(t);
}

/* Resolves one spec into t; on failure fills t->res->err and returns -1. */
static int resolve(struct cdb *db, const char *spec, struct target *t)
{
    struct imp_pull_result *r = t->res;
    set_label(r, spec);
    struct cdb_host_list hl;
    char err[512];
    int found = 0;
    if (cdb_host_name_valid(spec)) {
        found = cdb_host_find(db, spec, false, &hl, err, sizeof err);
    } else if (imp_url_check(spec, err, sizeof err) == 0) {
        found = cdb_host_find(db, spec, true, &hl, err, sizeof err);
        if (found == 0) {
            cdb_host_list_free(&hl);
            t->url = xstrdup(spec);
            return 0;
        }
    } else {
        char *shown = text_fit(spec, 60, true, NULL);
        snprintf(r->err, sizeof r->err, "'%s' is neither a host of `kladder hosts list` nor a "
                 "URL (%s)", shown, err);
        free(shown);
        r->unknown = true;
        return -1;
    }
    if (found < 0) {
        snprintf(r->err, sizeof r->err, "%s", err);
        return -1;
    }
    if (found == 0) {
        snprintf(r->err, sizeof r->err,
                 "no host named '%s' (add it with `kladder hosts add %s URL`)", spec, spec);
        cdb_host_list_free(&hl);
        r->unknown = true;
        return -1;
    }
    const struct cdb_host *h = &hl.items[0];
    t->origin = xstrdup(h->name);
    t->url = xstrdup(h->url);
    t->cursor = xstrdup_or_null(h->cursor);
    snprintf(r->origin, sizeof r->origin, "%s", h->name);
    set_label(r, h->name);
    cdb_host_list_free(&hl);
    return 0;
}

/* A host name made from the exporting host's name: lower case, other characters become '-'. */
static char *name_from_export(const char *host)
{
    char buf[65];
    size_t n = 0;
    for (const char *p = host; *p && n < 64; p++) {
        char c = *p >= 'A' && *p <= 'Z' ? (char)(*p - 'A' + 'a') : *p;
        buf[n++] = strchr("abcdefghijklmnopqrstuvwxyz0123456789._-", c) && c ? c : '-';
    }
    buf[n] = '\0';
    return cdb_host_name_valid(buf) ? xstrdup(buf) : NULL;
}

/* For a URL pulled without a host row: file the runs under the exporting host's name, unless
 * that name already belongs to another URL. */
static int origin_for_url(struct cdb *db, struct target *t)
{
    struct imp_pull_result *r = t->res;
    char *name = name_from_export(t->doc.exported_host);
    if (!name) {
        snprintf(r->err, sizeof r->err,
                 "the document's exporting host gives no usable host name; add the URL with "
                 "`kladder hosts add NAME URL` and pull NAME");
        return -1;
    }
    struct cdb_host_list hl;
    char err[512];
    int found = cdb_host_find(db, name, false, &hl, err, sizeof err);
    if (found < 0) {
        snprintf(r->err, sizeof r->err, "%s", err);
        free(name);
        return -1;
    }
    if (found) {
        char *url = text_fit(hl.items[0].url, 60, true, NULL);
        snprintf(r->err, sizeof r->err,
                 "the document comes from '%s', a host name already used for %s; add this URL "
                 "under another name with `kladder hosts add NAME URL`",
                 name, url);
        free(url);
        cdb_host_list_free(&hl);
        free(name);
        return -1;
    }
    cdb_host_list_free(&hl);
    t->origin = name;
    snprintf(r->origin, sizeof r->origin, "%s", name);
    return 0;
}

static void *parse_one(void *arg)
{
    struct target *t = arg;
    double t0 = now_s();
    /* the result's label names the URL already, so the message does not */
    t->parsed = imp_results_parse(t->fetch.body, t->fetch.len, NULL, &t->doc, t->res->err,
                                  sizeof t->res->err) == 0;
    imp_fetch_item_clear(&t->fetch); /* the arena holds what is needed */
    t->res->parse_s = now_s() - t0;
    return NULL;
}

/* Parses every fetched document, several at a time: validation of a large document is the
 * longest step of a pull, and the documents are independent. */
static void parse_all(struct target *ts, size_t n)
{
    enum { MAX_THREADS = 8 };
    for (size_t base = 0; base < n; base += MAX_THREADS) {
        pthread_t th[MAX_THREADS];
        bool started[MAX_THREADS] = {false};
        size_t k = n - base < MAX_THREADS ? n - base : MAX_THREADS;
        for (size_t i = 0; i < k; i++) {
            struct target *t = &ts[base + i];
            if (!t->fetch.ok)
                continue;
            started[i] = k > 1 && pthread_create(&th[i], NULL, parse_one, t) == 0;
            if (!started[i])
                parse_one(t);
        }
        for (size_t i = 0; i < k; i++)
            if (started[i])
                pthread_join(th[i], NULL);
    }
}

static void merge_one(struct cdb *db, struct target *t, const struct imp_pull_opts *o,
                      const char *now)
{
    struct imp_pull_result *r = t->res;
    if (!t->origin) {
        if (origin_for_url(db, t) != 0)
            return;
        set_label(r, t->origin);
    }
    const char *cursor = o->full ? NULL : t->cursor;
    struct cdb_merge_run *keep = xcalloc(t->doc.n_runs + 1, sizeof *keep);
    size_t n = 0;
    for (size_t i = 0; i < t->doc.n_runs; i++) {
        if (cursor && strcmp(t->doc.runs[i].run.finished, cursor) < 0)
            r->older_runs++;
        else
            keep[n++] = t->doc.runs[i];
    }
    const char *newest = t->doc.newest_finished;
    if (t->cursor && (!newest || strcmp(t->cursor, newest) > 0))
        newest = t->cursor; /* a source whose clock went back does not move the cursor back */
    struct cdb_merge_input in = {.machines = t->doc.machines,
                                 .n_machines = t->doc.n_machines,
                                 .runs = keep,
                                 .n_runs = n};
    struct cdb_merge_target mt = {.origin = t->origin, .url = t->url, .when = now, .cursor = newest};
    struct cdb_merge_stats st;
    char err[600];
    double t0 = now_s();
    int rc = cdb_merge(db, &mt, &in, &st, err, sizeof err);
    r->merge_s = now_s() - t0;
    if (rc != 0) {
        char *src = text_fit(t->url, 100, true, NULL);
        snprintf(r->err, sizeof r->err, "%s: %s", src, err);
        free(src);
    } else {
        r->ok = true;
        r->new_runs = st.new_runs;
        r->new_checks = st.new_checks;
        r->present_runs = st.present_runs;
        r->new_machines = st.new_machines;
    }
    free(keep);
}

int imp_pull(struct cdb *db, const char *const *specs, size_t n, const struct imp_pull_opts *o,
             struct imp_pull_result **out, size_t *n_out, char *err, size_t errlen)
{
    *out = NULL;
    *n_out = 0;
    struct cdb_host_list all = {0};
    const char **names = NULL;
    if (n == 0) {
        if (cdb_hosts_list(db, &all, err, errlen) != 0)
            return -1;
        if (all.n == 0) {
            cdb_host_list_free(&all);
            snprintf(err, errlen, "no hosts to pull from; add one with `kladder hosts add NAME URL`");
            return -1;
        }
        names = xcalloc(all.n, sizeof *names);
        for (size_t i = 0; i < all.n; i++)
            names[i] = all.items[i].name;
        specs = names;
        n = all.n;
    }
    struct imp_pull_result *res = xcalloc(n + 1, sizeof *res);
    struct target *ts = xcalloc(n + 1, sizeof *ts);
    size_t nt = 0;
    for (size_t i = 0; i < n; i++) {
        struct target *t = &ts[nt];
        t->res = &res[nt];
        if (resolve(db, specs[i], t) != 0) {
            nt++;
            continue;
        }
        bool dup = false; /* the same source twice would only conflict with itself */
        for (size_t j = 0; j < nt && !dup; j++)
            dup = ts[j].url && strcmp(ts[j].url, t->url) == 0;
        if (dup) {
            free(t->url), free(t->origin), free(t->cursor);
            memset(t, 0, sizeof *t);
            memset(&res[nt], 0, sizeof res[nt]);
            continue;
        }
        t->fetch.url = t->url;
        nt++;
    }
    /* fetch every resolved target at once */
    struct imp_fetch_item *items = xcalloc(nt + 1, sizeof *items);
    size_t *map = xcalloc(nt + 1, sizeof *map), nf = 0;
    for (size_t i = 0; i < nt; i++)
        if (ts[i].url) {
            items[nf] = ts[i].fetch;
            map[nf++] = i;
        }
    double t0 = now_s();
    if (nf > 0 && imp_fetch_all(items, nf, &o->fetch) < 0) {
        for (size_t i = 0; i < nf; i++)
            snprintf(items[i].err, sizeof items[i].err, "libcurl could not be started");
    }
    for (size_t i = 0; i < nf; i++) {
        struct target *t = &ts[map[i]];
        t->fetch = items[i];
        t->fetch.url = t->url;
        if (!t->fetch.ok)
            snprintf(t->res->err, sizeof t->res->err, "%s", items[i].err);
    }
    for (size_t i = 0; i < nt; i++)
        res[i].fetch_s = now_s() - t0;
    free(items);
    free(map);
    parse_all(ts, nt);
    char now[21];
    cdb_now_iso(now);
    int failed = 0;
    for (size_t i = 0; i < nt; i++) {
        struct target *t = &ts[i];
        if (t->parsed)
            merge_one(db, t, o, now);
        if (!t->res->ok)
            failed++;
        imp_results_doc_free(&t->doc);
        imp_fetch_item_clear(&t->fetch);
        free(t->url), free(t->origin), free(t->cursor);
    }
    free(ts);
    free(names);
    cdb_host_list_free(&all);
    *out = res;
    *n_out = nt;
    return failed;
}
