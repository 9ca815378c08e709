#define _GNU_SOURCE
#include "engine/runner.h"

#include <cJSON.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "casedb/results.h"
#include "common/xalloc.h"
#include "engine/check.h"
#include "engine/devices.h"
#include "engine/fingerprint.h"
#include "engine/plan.h"
#include "engine/watchdog.h"

/* Compiling can take minutes on a cold cache (hipRTC, a large kernel on the cpu backend). */
#define SETUP_LIMIT_S 600.0

/* ---- the worker side --------------------------------------------------------------------- */

static void say_ready(void *arg)
{
    (void)arg;
    fputs("{\"ready\":true}\n", stdout);
    fflush(stdout);
}

int eng_worker_main(void)
{
    size_t cap = 1 << 16, len = 0;
    char *job = xmalloc(cap);
    int c;
    while ((c = getchar()) != EOF && c != '\n') {
        if (len + 2 >= cap)
            job = xrealloc(job, cap *= 2);
        job[len++] = (char)c;
    }
    job[len] = '\0';
    cJSON *j = cJSON_Parse(job);
    free(job);
    if (!j) {
        fputs("{\"error\":\"worker: the job is not valid JSON\"}\n", stdout);
        return 2;
    }
    const cJSON *kind = cJSON_GetObjectItemCaseSensitive(j, "job");
    int status = 0;
    if (cJSON_IsString(kind) && strcmp(kind->valuestring, "probe") == 0) {
        cJSON *devs = eng_devices_json();
        cJSON *o = cJSON_CreateObject();
        cJSON_AddItemToObject(o, "devices", devs);
        char *text = cJSON_PrintUnformatted(o);
        printf("%s\n", text);
        free(text);
        cJSON_Delete(o);
    } else if (cJSON_IsString(kind) && strcmp(kind->valuestring, "check") == 0) {
        const cJSON *spec = cJSON_GetObjectItemCaseSensitive(j, "spec");
        char *text = spec ? cJSON_PrintUnformatted(spec) : NULL;
        struct eng_check_spec s;
        char err[512];
        if (!text || eng_check_spec_parse(text, &s, err, sizeof err) != 0) {
            printf("{\"error\":\"worker: %s\"}\n", text ? err : "no spec");
            status = 2;
        } else {
            struct eng_check_result r;
            eng_check_run(&s, say_ready, NULL, &r);
            char *rt = eng_check_result_json(&r);
            printf("{\"result\":%s}\n", rt);
            free(rt);
            eng_check_spec_free(&s);
        }
        free(text);
    } else {
        fputs("{\"error\":\"worker: unknown job\"}\n", stdout);
        status = 2;
    }
    fflush(stdout);
    cJSON_Delete(j);
    return status;
}

/* ---- the parent side -------------------------------------------------------------------- */

struct done {
    struct eng_planned *p;
    struct eng_check_result r;
    double limit_s;
    double elapsed_s;    /* the worker's wall time after setup (until killed, for a hang) */
    bool met;            /* this check's own expectation */
};

struct run {
    const struct eng_run_opts *o;
    struct eng_machine mach;
    char uuid[37];
    char started[21];
    struct done *checks;
    size_t n;
    FILE *events;
    int total;
};

static void emit(struct run *rn, cJSON *ev)
{
    if (!rn->events) {
        cJSON_Delete(ev);
        return;
    }
    char *t = cJSON_PrintUnformatted(ev);
    fprintf(rn->events, "%s\n", t);
    fflush(rn->events);
    free(t);
    cJSON_Delete(ev);
}

/* Asks a worker which backends and devices exist; picks ours. */
static int probe(struct run *rn, char *backend, size_t blen, struct eng_device_info *info,
                 char *err, size_t errlen)
{
    const struct eng_run_opts *o = rn->o;
    struct eng_worker_result w;
    if (eng_worker_run(o->exe, "{\"job\":\"probe\"}", 120, 120, &w, err, errlen) != 0)
        return -1;
    cJSON *j = w.answer ? cJSON_Parse(w.answer) : NULL;
    const cJSON *devs = j ? cJSON_GetObjectItemCaseSensitive(j, "devices") : NULL;
    if (!cJSON_IsArray(devs)) {
        snprintf(err, errlen, "probing the devices failed (worker status %d)%s%.400s", w.status,
                 w.stderr_tail[0] ? ": " : "", w.stderr_tail);
        cJSON_Delete(j);
        eng_worker_result_free(&w);
        return -1;
    }
    eng_worker_result_free(&w);
    int rc = -1;
    char reasons[1024] = "";
    for (const cJSON *b = devs->child; b; b = b->next) {
        const cJSON *name = cJSON_GetObjectItemCaseSensitive(b, "backend");
        const cJSON *avail = cJSON_GetObjectItemCaseSensitive(b, "available");
        const cJSON *reason = cJSON_GetObjectItemCaseSensitive(b, "reason");
        if (!cJSON_IsString(name))
            continue;
        if (o->backend && strcmp(o->backend, name->valuestring) != 0)
            continue;
        if (!cJSON_IsTrue(avail)) {
            size_t l = strlen(reasons);
            snprintf(reasons + l, sizeof reasons - l, "%s%s: %s", l ? "; " : "", name->valuestring,
                     cJSON_IsString(reason) ? reason->valuestring : "unavailable");
            continue;
        }
        const cJSON *list = cJSON_GetObjectItemCaseSensitive(b, "devices");
        const cJSON *dev = cJSON_GetArrayItem(list, o->device);
        if (!dev) {
            snprintf(err, errlen, "the %s backend has %d device(s); --device %d does not exist",
                     name->valuestring, cJSON_GetArraySize(list), o->device);
            break;
        }
        if (cJSON_GetObjectItemCaseSensitive(dev, "error")) {
            snprintf(err, errlen, "%s device %d: %s", name->valuestring, o->device,
                     cJSON_GetObjectItemCaseSensitive(dev, "error")->valuestring);
            break;
        }
        snprintf(backend, blen, "%s", name->valuestring);
        eng_device_info_from_json(dev, info);
        rc = 0;
        break;
    }
    if (rc != 0 && !err[0])
        snprintf(err, errlen, "%s%.900s", o->backend ? "backend unavailable: " : "no backend available: ",
                 reasons[0] ? reasons : o->backend ? o->backend : "none");
    cJSON_Delete(j);
    return rc;
}

static void run_one(struct run *rn, struct done *d)
{
    const struct eng_check_spec *s = &d->p->spec;
    d->limit_s = s->timeout_s;
    char *spec = eng_check_spec_json(s);
    char *job = xasprintf("{\"job\":\"check\",\"spec\":%s}", spec);
    free(spec);
    struct eng_worker_result w;
    char err[512] = "";
    struct eng_check_result *r = &d->r;
    eng_check_result_init(r);
    if (eng_worker_run(rn->o->exe, job, SETUP_LIMIT_S, s->timeout_s, &w, err, sizeof err) != 0) {
        snprintf(r->detail, sizeof r->detail, "%s", err);
        free(job);
        return;
    }
    free(job);
    cJSON *j = w.answer ? cJSON_Parse(w.answer) : NULL;
    const cJSON *res = j ? cJSON_GetObjectItemCaseSensitive(j, "result") : NULL;
    char *rt = res ? cJSON_PrintUnformatted(res) : NULL;
    if (w.cancelled) {
        r->verdict = CDB_CANCELLED;
        snprintf(r->detail, sizeof r->detail, "the run was interrupted");
    } else if (w.killed && w.ready) {
        r->verdict = CDB_HANG;
        snprintf(r->detail, sizeof r->detail,
                 "stopped by the watchdog after the %g s limit: the kernel did not finish", s->timeout_s);
    } else if (w.killed) {
        r->verdict = CDB_ERROR;
        snprintf(r->detail, sizeof r->detail,
                 "setup (compiling, allocating) did not finish within %g s", SETUP_LIMIT_S);
    } else if (rt && eng_check_result_parse(rt, r, err, sizeof err) == 0) {
        if (w.status != 0) {
            /* A report, then a crash or a sanitizer finding at exit: not a clean result. */
            size_t l = strlen(r->detail);
            snprintf(r->detail + l, sizeof r->detail - l,
                     "%sthe worker then exited with status %d%s%.600s", l ? "; " : "", w.status,
                     w.stderr_tail[0] ? ": " : "", w.stderr_tail);
            r->verdict = CDB_ERROR;
        }
    } else {
        const char *tail = w.stderr_tail;
        size_t tl = strlen(tail);
        if (tl > 600)
            tail += tl - 600;
        r->verdict = CDB_ERROR;
        snprintf(r->detail, sizeof r->detail, "the worker %s %d without a result%s%.600s",
                 w.status > 128 ? "died with signal" : "exited with status",
                 w.status > 128 ? w.status - 128 : w.status, tail[0] ? ": " : "", tail);
    }
    d->elapsed_s = w.elapsed_s;
    free(rt);
    cJSON_Delete(j);
    eng_worker_result_free(&w);
    if (r->verdict == CDB_HANG)
        r->max_err = NAN;
}

static bool check_met(const struct done *d)
{
    enum cdb_verdict v = d->r.verdict;
    if (d->p->expect_fail)
        return v == CDB_FAIL || v == CDB_HANG || v == CDB_SKIP;
    return v == CDB_PASS || v == CDB_SKIP;
}

static const char *schedule_name(enum eng_schedule s)
{
    return s == ENG_SCHED_ADVERSARIAL ? "adversarial" : s == ENG_SCHED_RANDOM ? "random" : "default";
}

static void progress(struct run *rn, int i, const char *name)
{
    if (!rn->o->progress)
        return;
    int width = 30, fill = rn->total ? i * width / rn->total : width;
    fprintf(stderr, "\r\033[K[");
    for (int k = 0; k < width; k++)
        fputc(k < fill ? '#' : '-', stderr);
    fprintf(stderr, "] %d/%d %.50s", i, rn->total, name ? name : "");
    if (!name)
        fprintf(stderr, "\r\033[K");
    fflush(stderr);
}

/* ---- reports ---------------------------------------------------------------------------- */

struct summary {
    int fixed_total, fixed_ok, base_total, base_ok, buggy_total, buggy_caught, skipped;
    bool met;
    enum cdb_verdict verdict;
    /* per suite: was the buggy variant caught where it ran */
    char escaped[512];
    /* buggy variants not caught while some of their checks were skipped (beyond this backend) */
    char inconclusive[512];
};

static void summarise(struct run *rn, struct summary *s)
{
    memset(s, 0, sizeof *s);
    s->met = true;
    bool any_hang = false, any_error = false, any_fail = false;
    for (size_t i = 0; i < rn->n; i++) {
        struct done *d = &rn->checks[i];
        enum cdb_verdict v = d->r.verdict;
        if (v == CDB_SKIP)
            s->skipped++;
        /* "passed" counts checks that ran and passed: a skipped one meets the expectation (it
         * failed nothing) but is counted among the skipped, not the passed */
        if (d->p->spec.baseline) {
            s->base_total++;
            s->base_ok += d->met && v == CDB_PASS;
        } else if (!d->p->expect_fail) {
            s->fixed_total++;
            s->fixed_ok += d->met && v == CDB_PASS;
        } else {
            s->buggy_total++;
            s->buggy_caught += v == CDB_FAIL || v == CDB_HANG;
        }
        if (!d->p->expect_fail && !d->met) {
            s->met = false;
            any_hang |= v == CDB_HANG;
            any_error |= v == CDB_ERROR || v == CDB_CANCELLED;
            any_fail |= v == CDB_FAIL;
        }
        if (d->p->expect_fail && (v == CDB_ERROR || v == CDB_CANCELLED)) {
            s->met = false;
            any_error = true;
        }
    }
    /* A buggy variant must be caught per (suite, rung) on every rung its suite names as the one
     * that catches it; on other rungs (a whole-matrix run) not catching it is the lesson, not a
     * failure. */
    for (size_t i = 0; i < rn->n; i++) {
        struct done *d = &rn->checks[i];
        if (!d->p->expect_fail || !d->p->claimed)
            continue;
        bool first = true;
        for (size_t k = 0; k < i; k++)
            if (rn->checks[k].p->expect_fail && rn->checks[k].p->spec.rung == d->p->spec.rung &&
                !strcmp(rn->checks[k].p->spec.suite, d->p->spec.suite))
                first = false;
        if (!first)
            continue;
        bool skipped = false, caught = false;
        for (size_t k = i; k < rn->n; k++) {
            struct done *e = &rn->checks[k];
            if (!e->p->expect_fail || e->p->spec.rung != d->p->spec.rung ||
                strcmp(e->p->spec.suite, d->p->spec.suite))
                continue;
            skipped |= e->r.verdict == CDB_SKIP;
            caught |= e->r.verdict == CDB_FAIL || e->r.verdict == CDB_HANG;
        }
        /* Not caught but some checks could not run here: inconclusive, reported, not failed. */
        if (!caught && skipped) {
            size_t l = strlen(s->inconclusive);
            snprintf(s->inconclusive + l, sizeof s->inconclusive - l, "%s%s rung %d",
                     l ? ", " : "", d->p->spec.suite, d->p->spec.rung);
        }
        if (!caught && !skipped) {
            s->met = false;
            any_fail = true;
            size_t l = strlen(s->escaped);
            snprintf(s->escaped + l, sizeof s->escaped - l, "%s%s rung %d", l ? ", " : "",
                     d->p->spec.suite, d->p->spec.rung);
        }
    }
    s->verdict = s->met ? CDB_PASS : any_fail ? CDB_FAIL : any_hang ? CDB_HANG
                                   : any_error ? CDB_ERROR : CDB_FAIL;
    if (eng_cancelled())
        s->verdict = CDB_CANCELLED;
}

static void add_num_or_null(cJSON *o, const char *k, double v)
{
    if (isnan(v))
        cJSON_AddNullToObject(o, k);
    else
        cJSON_AddNumberToObject(o, k, v);
}

static cJSON *machine_json(const struct cdb_machine *m)
{
    cJSON *o = cJSON_CreateObject();
    cJSON_AddStringToObject(o, "id", m->id);
    cJSON_AddStringToObject(o, "host", m->host);
    cJSON_AddStringToObject(o, "backend", m->backend);
    cJSON_AddStringToObject(o, "device", m->device);
    cJSON_AddStringToObject(o, "target", m->target);
    cJSON_AddNumberToObject(o, "wave_size", m->wave_size);
    add_num_or_null(o, "compute_units", m->compute_units > 0 ? (double)m->compute_units : (double)NAN);
    add_num_or_null(o, "mem_bytes", m->mem_bytes > 0 ? (double)m->mem_bytes : (double)NAN);
    cJSON_AddStringToObject(o, "driver_version", m->driver_version);
    cJSON_AddStringToObject(o, "runtime_version", m->runtime_version);
    cJSON_AddStringToObject(o, "compiler_version", m->compiler_version);
    if (m->compute_partition)
        cJSON_AddStringToObject(o, "compute_partition", m->compute_partition);
    else
        cJSON_AddNullToObject(o, "compute_partition");
    if (m->memory_partition)
        cJSON_AddStringToObject(o, "memory_partition", m->memory_partition);
    else
        cJSON_AddNullToObject(o, "memory_partition");
    cJSON_AddStringToObject(o, "kladder_version", m->kladder_version);
    cJSON_AddStringToObject(o, "kladder_commit", m->kladder_commit);
    return o;
}

static cJSON *check_json(const struct done *d)
{
    const struct eng_check_spec *s = &d->p->spec;
    cJSON *c = cJSON_CreateObject();
    cJSON_AddNumberToObject(c, "rung", s->rung);
    cJSON_AddStringToObject(c, "suite", s->suite);
    cJSON_AddStringToObject(c, "variant", d->p->label);
    cJSON_AddStringToObject(c, "check", s->name);
    cJSON_AddStringToObject(c, "shape", d->r.shape);
    cJSON_AddStringToObject(c, "verdict", cdb_verdict_name(d->r.verdict));
    cJSON_AddStringToObject(c, "expected", d->p->expect_fail ? "fail" : "pass");
    cJSON_AddBoolToObject(c, "expectation_met", d->met);
    cJSON_AddStringToObject(c, "detail", d->r.detail);
    cJSON_AddStringToObject(c, "oracle", d->r.oracle);
    cJSON_AddStringToObject(c, "mode", eng_mode_name(s->mode));
    cJSON *t = cJSON_AddObjectToObject(c, "time_us");
    add_num_or_null(t, "median", d->r.t_med_us);
    add_num_or_null(t, "min", d->r.t_min_us);
    add_num_or_null(t, "max", d->r.t_max_us);
    if (d->r.first_bad >= 0)
        cJSON_AddNumberToObject(c, "first_bad", (double)d->r.first_bad);
    else
        cJSON_AddNullToObject(c, "first_bad");
    if (d->r.bad_count >= 0)
        cJSON_AddNumberToObject(c, "bad_count", (double)d->r.bad_count);
    else
        cJSON_AddNullToObject(c, "bad_count");
    add_num_or_null(c, "max_err", d->r.max_err);
    cJSON_AddNumberToObject(c, "repeats", d->r.repeats);
    cJSON_AddNumberToObject(c, "limit_s", d->limit_s);
    cJSON_AddNumberToObject(c, "elapsed_s", round(d->elapsed_s * 1000) / 1000);
    return c;
}

static void xml_escaped(FILE *f, const char *s)
{
    for (; s && *s; s++) {
        unsigned char c = (unsigned char)*s;
        switch (c) {
        case '<': fputs("&lt;", f); break;
        case '>': fputs("&gt;", f); break;
        case '&': fputs("&amp;", f); break;
        case '"': fputs("&quot;", f); break;
        case '\'': fputs("&apos;", f); break;
        default:
            /* XML 1.0 forbids most control characters even as references. */
            if (c < 0x20 && c != '\n' && c != '\t' && c != '\r')
                fputc('?', f);
            else
                fputc(c, f);
        }
    }
}

static int write_junit(struct run *rn, const struct summary *s, const char *path)
{
    char *tmp = xasprintf("%s.tmp", path);
    FILE *f = fopen(tmp, "w");
    if (!f) {
        fprintf(stderr, "kladder run: cannot write %s\n", path);
        free(tmp);
        return -1;
    }
    int failures = 0, errors = 0, skipped = 0;
    double total = 0;
    for (size_t i = 0; i < rn->n; i++) {
        struct done *d = &rn->checks[i];
        if (!d->met && d->r.verdict == CDB_ERROR)
            errors++;
        else if (!d->met)
            failures++;
        skipped += d->r.verdict == CDB_SKIP;
        if (!isnan(d->r.t_med_us))
            total += d->r.t_med_us / 1e6;
    }
    failures += s->escaped[0] != '\0';
    fprintf(f, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites>\n");
    fprintf(f, "  <testsuite name=\"kladder\" tests=\"%zu\" failures=\"%d\" errors=\"%d\" skipped=\"%d\" "
               "time=\"%.6f\" timestamp=\"",
            rn->n + 1, failures, errors, skipped, total);
    xml_escaped(f, rn->started);
    fprintf(f, "\" hostname=\"");
    xml_escaped(f, rn->mach.m.host);
    fprintf(f, "\">\n");
    for (size_t i = 0; i < rn->n; i++) {
        struct done *d = &rn->checks[i];
        const struct eng_check_spec *sp = &d->p->spec;
        fprintf(f, "    <testcase classname=\"");
        xml_escaped(f, sp->suite);
        fprintf(f, ".%s\" name=\"rung%d.", d->p->label, sp->rung);
        xml_escaped(f, sp->name);
        fprintf(f, "\" time=\"%.6f\">\n", isnan(d->r.t_med_us) ? 0.0 : d->r.t_med_us / 1e6);
        if (d->r.verdict == CDB_SKIP) {
            fprintf(f, "      <skipped message=\"");
            xml_escaped(f, d->r.detail);
            fprintf(f, "\"/>\n");
        } else if (!d->met) {
            fprintf(f, "      <%s message=\"%s (expected %s)\">", d->r.verdict == CDB_ERROR ? "error" : "failure",
                    cdb_verdict_name(d->r.verdict), d->p->expect_fail ? "fail" : "pass");
            xml_escaped(f, d->r.detail);
            fprintf(f, "</%s>\n", d->r.verdict == CDB_ERROR ? "error" : "failure");
        }
        fprintf(f, "      <system-out>verdict: %s, expected: %s; ", cdb_verdict_name(d->r.verdict),
                d->p->expect_fail ? "fail" : "pass");
        xml_escaped(f, d->r.shape);
        fprintf(f, "; ");
        xml_escaped(f, d->r.detail);
        fprintf(f, "</system-out>\n    </testcase>\n");
    }
    fprintf(f, "    <testcase classname=\"kladder\" name=\"buggy-variants-caught\" time=\"0\">\n");
    if (s->escaped[0]) {
        fprintf(f, "      <failure message=\"buggy variant not caught\">");
        xml_escaped(f, s->escaped);
        fprintf(f, "</failure>\n");
    }
    fprintf(f, "    </testcase>\n  </testsuite>\n</testsuites>\n");
    bool ok = fflush(f) == 0 && fsync(fileno(f)) == 0;
    ok &= fclose(f) == 0;
    if (!ok || rename(tmp, path) != 0) {
        fprintf(stderr, "kladder run: cannot write %s\n", path);
        unlink(tmp);
        free(tmp);
        return -1;
    }
    free(tmp);
    return 0;
}

static void print_text(struct run *rn, const struct summary *s)
{
    for (size_t i = 0; i < rn->n; i++) {
        struct done *d = &rn->checks[i];
        char t[32] = "";
        if (!isnan(d->r.t_med_us))
            snprintf(t, sizeof t, "%10.1f us", d->r.t_med_us);
        printf("%-6s %-15s r%d %-34.34s %-32.32s %s%s\n", cdb_verdict_name(d->r.verdict),
               d->p->label, d->p->spec.rung, d->p->spec.name, d->r.shape, t,
               d->p->expect_fail && (d->r.verdict == CDB_FAIL || d->r.verdict == CDB_HANG)
                   ? "  (expected)"
                   : d->p->expect_fail && d->r.verdict == CDB_PASS ? "  (not reached here)"
                   : d->met                                       ? ""
                                                                  : "  (UNEXPECTED)");
        if (d->r.detail[0] && (d->r.verdict != CDB_PASS))
            printf("       %.400s\n", d->r.detail);
    }
    printf("\n%s: baseline %d/%d passed, fixed %d/%d passed, buggy caught by %d of %d checks%s%s; "
           "%d skipped\n",
           s->met ? "expectation met" : "EXPECTATION NOT MET", s->base_ok, s->base_total,
           s->fixed_ok, s->fixed_total, s->buggy_caught, s->buggy_total,
           s->escaped[0] ? "; not caught: " : "", s->escaped, s->skipped);
    if (s->inconclusive[0])
        printf("inconclusive (the checks that reach the bug were skipped here): %s\n",
               s->inconclusive);
}

int eng_run(const struct eng_run_opts *o, const struct eng_run_target *targets, size_t ntargets)
{
    struct run rn = {.o = o};
    eng_watchdog_install();
    if (o->events_fd >= 0) {
        rn.events = fdopen(dup(o->events_fd), "w");
        if (!rn.events) {
            fprintf(stderr, "kladder run: --events %d is not a writable descriptor\n", o->events_fd);
            return 2;
        }
    }
    char err[1024] = "";
    /* Manifests first: a mistake in one is reported before any device is touched. */
    struct eng_manifest **ms = xcalloc(ntargets + 1, sizeof *ms);
    for (size_t t = 0; t < ntargets; t++) {
        ms[t] = eng_manifest_load(targets[t].suite, NULL, err, sizeof err);
        if (!ms[t]) {
            fprintf(stderr, "kladder run: %s\n", err);
            for (size_t k = 0; k < t; k++)
                eng_manifest_free(ms[k]);
            free(ms);
            if (rn.events)
                fclose(rn.events);
            return 2;
        }
    }
    char backend[16];
    struct eng_device_info info;
    if (probe(&rn, backend, sizeof backend, &info, err, sizeof err) != 0) {
        for (size_t t = 0; t < ntargets; t++)
            eng_manifest_free(ms[t]);
        free(ms);
        fprintf(stderr, "kladder run: %s\n", err);
        if (rn.events)
            fclose(rn.events);
        return 2;
    }
    const struct eng_backend *B = eng_backend_find(backend);
    bool emulated = B && B->caps.emulated;
    int wave = emulated ? (o->wave ? o->wave : 32) : info.wave_size;
    eng_fingerprint(&rn.mach, backend, &info, wave);

    /* Plan every target. */
    struct eng_planned *plan = NULL;
    size_t nplan = 0;
    struct eng_plan_opts po = {.backend = backend, .device = o->device, .wave = wave,
                               .schedule = o->schedule, .seed = o->seed, .repeats = o->repeats,
                               .timeout_s = o->timeout_s > 0 ? o->timeout_s : 60,
                               .fixed = o->fixed, .buggy = o->buggy, .baseline = true};
    int plan_rc = 0;
    for (size_t t = 0; t < ntargets && plan_rc == 0; t++)
        plan_rc = eng_plan_rung(ms[t], targets[t].suite, targets[t].rung, &po, &plan, &nplan, err,
                                sizeof err);
    for (size_t t = 0; t < ntargets; t++)
        eng_manifest_free(ms[t]);
    free(ms);
    if (plan_rc != 0) {
        fprintf(stderr, "kladder run: %s\n", err);
        eng_planned_free(plan, nplan);
        if (rn.events)
            fclose(rn.events);
        return 2;
    }
    rn.checks = xcalloc(nplan + 1, sizeof *rn.checks);
    rn.n = nplan;
    rn.total = (int)nplan;
    for (size_t i = 0; i < nplan; i++)
        rn.checks[i].p = &plan[i];

    cdb_uuid_new(rn.uuid);
    cdb_now_iso(rn.started);
    const char *variant = o->fixed && o->buggy ? "both" : o->fixed ? "fixed" : "buggy";
    int rung_label = ntargets == 1 || o->case_id ? targets[0].rung : 0;
    for (size_t t = 1; t < ntargets; t++)
        if (targets[t].rung != targets[0].rung)
            rung_label = 0;
    if (o->db) {
        struct cdb_run r = {.uuid = rn.uuid, .machine_id = rn.mach.m.id, .host = rn.mach.m.host,
                            .rung = rung_label, .suite = ntargets == 1 ? targets[0].suite : NULL,
                            .case_id = o->case_id, .variant = variant, .argv = o->argv_text,
                            .started = rn.started, .finished = NULL, .verdict = CDB_RUNNING};
        if (cdb_machine_put(o->db, &rn.mach.m, err, sizeof err) != 0 ||
            cdb_run_put(o->db, &r, err, sizeof err) != 0) {
            fprintf(stderr, "kladder run: recording the run failed: %s\n", err);
            o = o; /* keep running: results still print */
        }
    }
    cJSON *ev = cJSON_CreateObject();
    cJSON_AddStringToObject(ev, "event", "start");
    cJSON_AddStringToObject(ev, "run_id", rn.uuid);
    cJSON_AddNumberToObject(ev, "total", (double)nplan);
    cJSON_AddItemToObject(ev, "machine", machine_json(&rn.mach.m));
    cJSON_AddStringToObject(ev, "schedule", schedule_name(o->schedule));
    emit(&rn, ev);
    if (!o->json)
        printf("kladder run %s: %zu checks on %s (%s, %s, wave %d)%s%s\n", rn.uuid, nplan, backend,
               info.name, rn.mach.target, wave, emulated ? ", schedule " : "",
               emulated ? schedule_name(o->schedule) : "");
    if (!o->json && emulated)
        printf("the cpu backend emulates a GPU: it is slow, and checks beyond its reach are "
               "skipped with the reason\n");
    fflush(stdout);

    for (size_t i = 0; i < nplan; i++) {
        struct done *d = &rn.checks[i];
        progress(&rn, (int)i, d->p->spec.name);
        ev = cJSON_CreateObject();
        cJSON_AddStringToObject(ev, "event", "check-start");
        cJSON_AddNumberToObject(ev, "seq", (double)i);
        cJSON_AddNumberToObject(ev, "rung", d->p->spec.rung);
        cJSON_AddStringToObject(ev, "suite", d->p->spec.suite);
        cJSON_AddStringToObject(ev, "variant", d->p->label);
        cJSON_AddStringToObject(ev, "check", d->p->spec.name);
        emit(&rn, ev);
        if (eng_cancelled()) {
            eng_check_result_init(&d->r);
            d->r.verdict = CDB_CANCELLED;
            snprintf(d->r.detail, sizeof d->r.detail, "the run was interrupted");
        } else {
            run_one(&rn, d);
        }
        d->met = check_met(d);
        if (o->db) {
            struct cdb_check c = {
                .run_uuid = rn.uuid, .seq = (int)i, .rung = d->p->spec.rung,
                .suite = d->p->spec.suite, .variant = d->p->label, .check = d->p->spec.name,
                .shape = d->r.shape, .oracle = d->r.oracle, .verdict = d->r.verdict,
                .detail = d->r.detail, .first_bad = d->r.first_bad, .bad_count = d->r.bad_count,
                .max_err = d->r.max_err, .time_median_us = d->r.t_med_us,
                .time_min_us = d->r.t_min_us, .time_max_us = d->r.t_max_us,
                .repeats = d->r.repeats, .limit_s = d->limit_s};
            if (cdb_check_put(o->db, &c, err, sizeof err) != 0)
                fprintf(stderr, "kladder run: recording check %s failed: %s\n", d->p->spec.name, err);
        }
        ev = cJSON_CreateObject();
        cJSON_AddStringToObject(ev, "event", "check-done");
        cJSON_AddNumberToObject(ev, "seq", (double)i);
        cJSON_AddItemToObject(ev, "check", check_json(d));
        emit(&rn, ev);
    }
    progress(&rn, (int)nplan, NULL);

    struct summary s;
    summarise(&rn, &s);
    char finished[21];
    cdb_now_iso(finished);
    if (o->db && cdb_run_finish(o->db, rn.uuid, finished, s.verdict, err, sizeof err) != 0)
        fprintf(stderr, "kladder run: recording the run's end failed: %s\n", err);

    cJSON *rep = cJSON_CreateObject();
    cJSON_AddStringToObject(rep, "run_id", rn.uuid);
    cJSON_AddStringToObject(rep, "verdict", cdb_verdict_name(s.verdict));
    cJSON_AddBoolToObject(rep, "expectation_met", s.met);
    if (s.escaped[0])
        cJSON_AddStringToObject(rep, "buggy_not_caught", s.escaped);
    if (s.inconclusive[0])
        cJSON_AddStringToObject(rep, "inconclusive", s.inconclusive);
    cJSON_AddStringToObject(rep, "started", rn.started);
    cJSON_AddStringToObject(rep, "finished", finished);
    cJSON_AddStringToObject(rep, "schedule", schedule_name(o->schedule));
    cJSON_AddItemToObject(rep, "machine", machine_json(&rn.mach.m));
    cJSON *arr = cJSON_AddArrayToObject(rep, "checks");
    for (size_t i = 0; i < rn.n; i++)
        cJSON_AddItemToArray(arr, check_json(&rn.checks[i]));
    if (o->json) {
        char *t = cJSON_Print(rep);
        printf("%s\n", t);
        free(t);
    } else {
        print_text(&rn, &s);
    }
    cJSON_Delete(rep);
    ev = cJSON_CreateObject();
    cJSON_AddStringToObject(ev, "event", "end");
    cJSON_AddStringToObject(ev, "run_id", rn.uuid);
    cJSON_AddStringToObject(ev, "verdict", cdb_verdict_name(s.verdict));
    cJSON_AddBoolToObject(ev, "expectation_met", s.met);
    emit(&rn, ev);
    eng_watchdog_reap();
    int status = s.met ? 0 : 1;
    if (o->junit && write_junit(&rn, &s, o->junit) != 0)
        status = 2;
    if (rn.events)
        fclose(rn.events);
    free(rn.checks);
    eng_planned_free(plan, nplan);
    return status;
}
