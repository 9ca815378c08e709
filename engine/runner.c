/* `kladder run`, the parent side: loads the suites, asks a worker for the device, plans every
 * target's checks, runs them one after another in the run's worker under the watchdog, and
 * tells the reporters (engine/reporter.h) as it goes. It prints nothing itself. */
#define _GNU_SOURCE
#include "engine/runner.h"
#include "engine/rung.h"

#include <cJSON.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "casedb/results.h"
#include "common/fileio.h"
#include "common/paths.h"
#include "common/xalloc.h"
#include "engine/check.h"
#include "engine/backend/backend.h"
#include "engine/backend/devices.h"
#include "engine/machine/fingerprint.h"
#include "engine/plan.h"
#include "engine/reporter.h"
#include "engine/toolchain/sanitizer_run.h"
#include "engine/watchdog/watchdog.h"
#include "engine/watchdog/worker_signal.h"

/* Compiling can take minutes on a cold cache (hipRTC, a large kernel on the cpu backend). */
#define SETUP_LIMIT_S 600.0

struct run {
    const struct eng_run_opts *o;
    const struct eng_rung *own; /* the rung whose own run this is (claim), or NULL: suites' */
    struct eng_run_ask ask;     /* what of the options a rung's claim reads */
    struct eng_worker *worker;  /* runs the checks one after another; replaced when it ends */
    size_t worker_first;        /* the first check it ran */
    struct eng_run_info info;
    struct eng_done *checks;
    size_t n, cap;
    /* --sanitizer: the tool's path, the folder of its logs (one per check), the log of the
     * running worker, whether a worker now starts under the tool (after the probe), whether the
     * last job's worker was stopped by a limit, and the checks the tool added (owned here) */
    char san_path[1024];
    char *san_dir;
    char san_log[1200];
    bool under_tool;
    bool last_killed;
    struct eng_planned **san_planned;
    size_t nsan;
};

/* Ends the current worker. One that exits with a status (a sanitizer's finding at exit, a
 * crash while cleaning up) fails the run: it is not pinned on the check it ran last. */
static void worker_stop(struct run *rn, size_t next)
{
    if (!rn->worker)
        return;
    char tail[2048];
    /* one that ended already (killed, crashed, "last") was accounted for by its check */
    bool asked = !eng_worker_ended(rn->worker);
    int status = eng_worker_stop(rn->worker, 30, tail, sizeof tail);
    rn->worker = NULL;
    if (asked && status != 0 && !rn->info.worker_exit[0] && !eng_cancelled()) {
        size_t tl = strlen(tail);
        snprintf(rn->info.worker_exit, sizeof rn->info.worker_exit,
                 "the worker that ran checks %zu to %zu exited with status %d%s%.500s",
                 rn->worker_first, next ? next - 1 : 0, status, tl ? ": " : "",
                 tl > 500 ? tail + tl - 500 : tail);
    }
}

/* One job on the run's worker, started (again) when there is none. */
static int worker_job(struct run *rn, size_t seq, const char *job, double setup_s, double limit_s,
                      struct eng_worker_result *w, char *err, size_t errlen)
{
    if (rn->worker && eng_worker_ended(rn->worker))
        worker_stop(rn, seq);
    if (!rn->worker) {
        char **prefix = NULL;
        if (rn->under_tool) {
            snprintf(rn->san_log, sizeof rn->san_log, "%s/check-%zu.log", rn->san_dir, seq);
            unlink(rn->san_log); /* a log of an earlier worker for this check is not ours */
            prefix = eng_san_argv(rn->san_path, rn->o->sanitizer, rn->san_log);
        }
        rn->worker = eng_worker_start_under(prefix, rn->o->exe, err, errlen);
        eng_san_argv_free(prefix);
        if (!rn->worker)
            return -1;
        rn->worker_first = seq;
    }
    return eng_worker_job(rn->worker, job, setup_s, limit_s, w, err, errlen);
}

/* Asks the worker which backends and devices exist; picks ours. */
static int probe(struct run *rn, char *backend, size_t blen, struct eng_device_info *info,
                 char *err, size_t errlen)
{
    const struct eng_run_opts *o = rn->o;
    struct eng_worker_result w;
    char *job = xasprintf("{\"job\":\"probe\",\"backend\":%s%s%s}", o->backend ? "\"" : "",
                          o->backend ? o->backend : "null", o->backend ? "\"" : "");
    int rc0 = worker_job(rn, 0, job, 120, 120, &w, err, errlen);
    free(job);
    if (rc0 != 0)
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

/* A check the backend ended with a finding (ENG_WORKER_EXIT_FINDING): its last stderr line,
 * without the "kladder worker: " prefix, is the detail of a failure. */
static void finding_from_tail(const char *tail, struct eng_check_result *r)
{
    size_t n = strlen(tail);
    while (n && tail[n - 1] == '\n')
        n--;
    size_t start = n;
    while (start && tail[start - 1] != '\n')
        start--;
    const char *line = tail + start;
    size_t len = n - start;
    static const char prefix[] = "kladder worker: ";
    if (len >= sizeof prefix - 1 && !strncmp(line, prefix, sizeof prefix - 1)) {
        line += sizeof prefix - 1;
        len -= sizeof prefix - 1;
    }
    r->verdict = CDB_FAIL;
    snprintf(r->detail, sizeof r->detail, "%.*s", (int)len, line);
    /* the backend ends a kernel this way only for an access it proved wrong */
    eng_check_defect(r, strstr(r->detail, "shared memory") ? "bounds" : "fault");
}

static void run_one(struct run *rn, struct eng_done *d)
{
    const struct eng_check_spec *s = &d->p->spec;
    /* kernels under the vendor's sanitizer run many times slower: not a hang */
    double limit = s->timeout_s * (rn->o->sanitizer ? ENG_SAN_TIMEOUT_FACTOR : 1);
    d->limit_s = limit;
    char *spec = eng_check_spec_json(s);
    char *job = xasprintf("{\"job\":\"check\",\"spec\":%s}", spec);
    free(spec);
    struct eng_worker_result w;
    char err[512] = "";
    struct eng_check_result *r = &d->r;
    eng_check_result_init(r);
    rn->last_killed = false;
    if (worker_job(rn, (size_t)(d - rn->checks), job, SETUP_LIMIT_S, limit, &w, err,
                   sizeof err) != 0) {
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
        eng_check_defect(r, "hang");
        char note[1024] = "";
        const struct eng_rung *R = eng_rung_find(s->rung);
        const char *what = R && R->hang_note ? R->hang_note(s, note, sizeof note) : NULL;
        snprintf(r->detail, sizeof r->detail, "stopped by the watchdog after the %g s limit: the %s "
                 "did not finish%s", limit, what ? what : "kernel", note);
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
        } else if (r->verdict == CDB_ERROR && strstr(r->detail, ENG_FAULT_PREFIX)) {
            /* the kernel faulted on the device: what a crash of the worker is on the cpu
             * backend (counted as caught on a buggy variant, a failure where crashes fail) */
            const struct eng_rung *R = eng_rung_find(s->rung);
            d->crashed = true;
            eng_check_defect(r, "fault");
            if (!s->baseline && R && R->crash_fails)
                r->verdict = CDB_FAIL;
        }
    } else {
        const char *tail = w.stderr_tail;
        size_t tl = strlen(tail);
        while (tl && (tail[tl - 1] == '\n' || tail[tl - 1] == '\r'))
            w.stderr_tail[--tl] = '\0'; /* its last line's end is no part of the detail */
        if (tl > 600)
            tail += tl - 600;
        const struct eng_rung *R = eng_rung_find(s->rung);
        if (w.ready && w.status == ENG_WORKER_EXIT_FINDING) {
            /* the backend stopped the kernel with a finding (an access past shared memory)
             * as its last line on stderr: a failure of the kernel, not of the worker */
            finding_from_tail(w.stderr_tail, r);
            worker_stop(rn, (size_t)(d - rn->checks) + 1);
            goto done;
        }
        int sig = w.status > 128 ? w.status - 128 : 0;
        if (sig && !eng_signal_is_crash(sig)) {
            /* killed from outside, not by the watchdog: no finding about the kernel, so no
             * catch of a buggy variant either (worker_signal.h) */
            r->verdict = CDB_ERROR;
            snprintf(r->detail, sizeof r->detail,
                     "the worker was killed by signal %d (%s) from outside kladder (not by its "
                     "watchdog): an error of this check, nothing is known about the kernel%s%.600s",
                     sig, eng_signal_name(sig), tail[0] ? ": " : "", tail);
            goto done;
        }
        bool launched_and_died = w.ready && !s->baseline && R && R->crash_fails;
        d->crashed = w.ready && sig;
        if (d->crashed || launched_and_died)
            eng_check_defect(r, "crash");
        r->verdict = launched_and_died ? CDB_FAIL : CDB_ERROR;
        snprintf(r->detail, sizeof r->detail, "%sthe worker %s %d without a result%s%.600s",
                 launched_and_died ? "the kernel took the process down after its launch: " : "",
                 w.status > 128 ? "died with signal" : "exited with status",
                 w.status > 128 ? w.status - 128 : w.status, tail[0] ? ": " : "", tail);
        if (launched_and_died) /* the worker is gone: the next check gets a fresh one */
            worker_stop(rn, (size_t)(d - rn->checks) + 1);
    }
done:
    d->elapsed_s = w.elapsed_s;
    rn->last_killed = w.killed || w.cancelled;
    free(rt);
    cJSON_Delete(j);
    eng_worker_result_free(&w);
    /* A check that ended in an error may leave the device in a state of its own (a faulted
     * context): the next check gets a fresh worker. */
    if (r->verdict == CDB_ERROR || d->crashed)
        worker_stop(rn, (size_t)(d - rn->checks) + 1);
    if (r->verdict == CDB_HANG)
        r->max_err = NAN;
}


/* A short name for a hazard's kind: "race-error", "invalid-global-write",
 * "barrier-error-detected". */
static void kind_slug(const struct eng_san_hazard *h, char *out, size_t n)
{
    if (!strncmp(h->kind, "race (", 6)) {
        snprintf(out, n, "race-%s", strstr(h->kind, "(warning)") ? "warning" : "error");
        return;
    }
    size_t k = 0;
    bool dash = false;
    for (const char *c = h->kind; *c && *c != '.' && strncmp(c, " of ", 4) && k + 2 < n && k < 40;
         c++) {
        if ((*c >= 'a' && *c <= 'z') || (*c >= '0' && *c <= '9') || (*c >= 'A' && *c <= 'Z')) {
            if (dash && k)
                out[k++] = '-';
            dash = false;
            out[k++] = (char)(*c | 0x20);
        } else {
            dash = true;
        }
    }
    out[k] = '\0';
    if (!k)
        snprintf(out, n, "hazard");
}

/* The next slot of the run's checks (they grow as the sanitizer adds its own). */
static struct eng_done *next_done(struct run *rn)
{
    if (rn->n == rn->cap) {
        rn->cap = rn->cap ? rn->cap * 2 : 16;
        rn->checks = xrealloc(rn->checks, rn->cap * sizeof *rn->checks);
    }
    struct eng_done *d = &rn->checks[rn->n];
    memset(d, 0, sizeof *d);
    return d;
}

/* One check of the sanitizer's beside rn->checks[origin], recorded through the reporters. */
static void add_san_check(struct run *rn, struct eng_reporter **reps, size_t origin,
                          const char *kind, enum cdb_verdict v, const char *detail)
{
    const struct eng_done *o = &rn->checks[origin];
    struct eng_planned *p = xcalloc(1, sizeof *p);
    snprintf(p->spec.backend, sizeof p->spec.backend, "%s", o->p->spec.backend);
    p->spec.rung = o->p->spec.rung;
    p->spec.suite = xstrdup(o->p->spec.suite);
    p->spec.variant = xstrdup(o->p->spec.variant);
    p->spec.baseline = o->p->spec.baseline;
    p->spec.mode = o->p->spec.mode;
    p->spec.schedule = o->p->spec.schedule;
    p->spec.seed = o->p->spec.seed;
    p->spec.wave = o->p->spec.wave;
    p->spec.device = o->p->spec.device;
    p->spec.name = xasprintf("sanitizer:%s%s%s@%s", rn->o->sanitizer, kind[0] ? ":" : "", kind,
                             o->p->spec.name);
    snprintf(p->label, sizeof p->label, "%s", o->p->label);
    p->suite_name = o->p->suite_name;
    snprintf(p->sanitizer, sizeof p->sanitizer, "%s", rn->o->sanitizer);
    rn->san_planned = xrealloc(rn->san_planned, (rn->nsan + 1) * sizeof *rn->san_planned);
    rn->san_planned[rn->nsan++] = p;
    char shape[sizeof o->r.shape];
    snprintf(shape, sizeof shape, "%s", o->r.shape);
    double limit = o->limit_s;
    struct eng_done *d = next_done(rn); /* o may move from here on */
    d->p = p;
    d->limit_s = limit;
    eng_check_result_init(&d->r);
    d->r.verdict = v;
    snprintf(d->r.shape, sizeof d->r.shape, "%s", shape);
    snprintf(d->r.oracle, sizeof d->r.oracle, "%s", rn->o->sanitizer);
    snprintf(d->r.detail, sizeof d->r.detail, "%s", detail);
    d->met = eng_check_met(d);
    size_t seq = rn->n++;
    d->seq = seq;
    rn->info.total++; /* the run's checks, planned and added: a progress bar stays within it */
    for (size_t k = 0; reps[k]; k++) {
        if (reps[k]->check_start)
            reps[k]->check_start(reps[k], &rn->info, seq, d);
        if (reps[k]->check_done)
            reps[k]->check_done(reps[k], &rn->info, seq, d);
    }
}

/* After rn->checks[origin] ran in a worker of its own under the tool: that worker is stopped,
 * its log read, and each hazard becomes a failing check; a clean log one passing check, so
 * that "ran and found nothing" differs from "not run". A check that ran no kernel (skipped,
 * cancelled) adds nothing. */
static void sanitizer_checks(struct run *rn, struct eng_reporter **reps, size_t origin)
{
    worker_stop(rn, origin + 1);
    enum cdb_verdict ov = rn->checks[origin].r.verdict;
    if (ov == CDB_SKIP || ov == CDB_CANCELLED || !rn->san_log[0])
        return;
    const char *tool = rn->o->sanitizer;
    char oname[256];
    snprintf(oname, sizeof oname, "%s", rn->checks[origin].p->spec.name);
    struct eng_san_hazard *h;
    size_t nh;
    char err[768];
    char detail[1536];
    bool finished = !rn->last_killed;
    if (eng_san_read_log(rn->san_log, tool, finished, &h, &nh, err, sizeof err) != 0) {
        add_san_check(rn, reps, origin, "", CDB_ERROR, err);
    } else if (nh == 0) {
        snprintf(detail, sizeof detail, "%s reported no hazard in the kernels of check %s%s", tool,
                 oname, finished ? "" : " before the worker was stopped");
        add_san_check(rn, reps, origin, "", finished ? CDB_PASS : CDB_SKIP, detail);
    } else {
        for (size_t i = 0; i < nh && i < ENG_SAN_PRINT_LIMIT; i++) {
            char kind[48], what[900];
            kind_slug(&h[i], kind, sizeof kind);
            eng_san_describe(&h[i], what, sizeof what);
            snprintf(detail, sizeof detail, "%s (while check %.200s ran; report %.300s)", what, oname,
                     rn->san_log);
            add_san_check(rn, reps, origin, kind, CDB_FAIL, detail);
        }
    }
    free(h);
    rn->san_log[0] = '\0';
}

bool eng_check_met(const struct eng_done *d)
{
    enum cdb_verdict v = d->r.verdict;
    /* the sanitizer's view: a hazard in a buggy kernel is a finding, met either way */
    if (d->p->sanitizer[0])
        return v == CDB_PASS || v == CDB_SKIP ||
               (v == CDB_FAIL && !strcmp(d->p->spec.variant, "buggy"));
    /* A buggy check is one try of its rung at the bug: passing says "not reached here", which
     * is expected of some shapes (docs/engine.md). Whether the rung caught the bug is the run's
     * judgement over all its checks (judge_buggy), never one check's. */
    if (d->p->expect_fail)
        return v == CDB_FAIL || v == CDB_HANG || v == CDB_SKIP || v == CDB_PASS || v == CDB_DOUBT ||
               (v == CDB_ERROR && d->crashed);
    /* a user's suite declares nothing of its unit test on the buggy variant: catching the
     * bug there is reported (text_end), and only an error of the harness is unmet */
    if (d->p->spec.baseline && !d->p->reproducer && !d->p->control &&
        !strcmp(d->p->spec.variant, "buggy"))
        return (v != CDB_ERROR || d->crashed) && v != CDB_CANCELLED;
    /* an oracle in doubt is not a failure of the kernel (docs/engine.md, "Verdicts") */
    return v == CDB_PASS || v == CDB_SKIP || v == CDB_DOUBT;
}

/* The same check of the other variant: the same suite, rung, check, shape set and mode, one
 * side "fixed" and the other "buggy" (or the two baselines). */
static bool counterparts(const struct eng_planned *f, const struct eng_planned *b)
{
    const struct eng_check_spec *x = &f->spec, *y = &b->spec;
    return !f->sanitizer[0] && !b->sanitizer[0] && !f->expect_fail && x->baseline == y->baseline &&
           x->variant && y->variant && !strcmp(x->variant, "fixed") && !strcmp(y->variant, "buggy") &&
           !strcmp(eng_planned_suite(f), eng_planned_suite(b)) && x->rung == y->rung &&
           x->name && y->name && !strcmp(x->name, y->name) && x->mode == y->mode &&
           x->lag == y->lag && x->schedule == y->schedule && x->wave == y->wave &&
           x->seed == y->seed && f->pct_added == b->pct_added;
}

/* Do two failures accuse the oracle rather than either kernel: both fail by the same oracle,
 * on values alone. Where they fail is not asked: two correct kernels that round differently
 * fail a reference that is wrong for both at different first elements, and a fixed variant
 * that fails a check can never make that check a catch of the buggy one (docs/engine.md,
 * "doubt"). A defect (a race, an access past an end, a fault, a crash) is a fact about the
 * variant that ran, shown without any reference: two kernels that share it are both wrong. */
static bool same_failure(const struct eng_check_result *a, const struct eng_check_result *b)
{
    return a->verdict == CDB_FAIL && b->verdict == CDB_FAIL && !a->defect[0] && !b->defect[0] &&
           !strcmp(a->oracle, b->oracle);
}

static void prefix_detail(struct eng_check_result *r, const char *words)
{
    size_t n = sizeof r->detail, w = strlen(words), len = strlen(r->detail);
    if (w + 2 >= n)
        return;
    if (len + w + 2 >= n)
        len = n - w - 3; /* cut where it fills, as every note is */
    memmove(r->detail + w + (len ? 2 : 0), r->detail, len);
    memcpy(r->detail, words, w);
    if (len)
        memcpy(r->detail + w, ": ", 2);
    r->detail[w + (len ? 2 : 0) + len] = '\0';
}

void eng_run_doubt_same_failures(struct eng_done *checks, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        struct eng_done *f = &checks[i];
        for (size_t k = 0; k < n && f->r.verdict == CDB_FAIL; k++) {
            struct eng_done *b = &checks[k];
            if (k == i || !counterparts(f->p, b->p) || !same_failure(&f->r, &b->r))
                continue;
            char words[200];
            if (f->r.first_bad >= 0 && f->r.first_bad == b->r.first_bad)
                snprintf(words, sizeof words, "in doubt: the fixed and the buggy variant fail this "
                         "check the same way (oracle %s, first at element %lld)", f->r.oracle,
                         (long long)f->r.first_bad);
            else
                snprintf(words, sizeof words, "in doubt: the fixed and the buggy variant fail this "
                         "check the same way (oracle %s)", f->r.oracle);
            /* what would settle it, after the finding the words prefix */
            static const char settle[] = "; to settle it: a reference that is right there (give "
                "it kl_acc accumulators, so that a wide build can arbitrate) or a contract that "
                "says which answer is right (the output's domain, nonfinite)";
            for (int side = 0; side < 2; side++) {
                struct eng_done *d = side ? b : f;
                d->r.verdict = CDB_DOUBT;
                d->doubted = true;
                prefix_detail(&d->r, words);
                size_t l = strlen(d->r.detail);
                if (l + sizeof settle < sizeof d->r.detail)
                    memcpy(d->r.detail + l, settle, sizeof settle);
                else /* cut the finding, never the way out of the doubt */
                    memcpy(d->r.detail + sizeof d->r.detail - sizeof settle, settle, sizeof settle);
                d->met = eng_check_met(d);
            }
        }
    }
}

/* What went wrong over a run's checks, for its one verdict. */
struct tally {
    bool hang, error, fail;
};

/* The first defect that fails the run, for the summary's first line: a fixed or baseline
 * variant (or a sanitizer's hazard in one) shown wrong by itself, not by a reference. */
static void note_defect(const struct eng_done *d, struct eng_summary *s)
{
    const char *kind = d->r.defect[0] ? d->r.defect : d->p->sanitizer[0] ? d->r.oracle : NULL;
    if (s->defect[0] || !kind || (d->r.verdict != CDB_FAIL && d->r.verdict != CDB_HANG &&
                                  d->r.verdict != CDB_ERROR))
        return;
    snprintf(s->defect, sizeof s->defect, "%s in %s (%s) at rung %d, check %.80s%s%.80s: %.400s",
             kind, eng_planned_suite(d->p), d->p->label, d->p->spec.rung, d->p->spec.name,
             d->r.shape[0] ? ", " : "", d->r.shape, d->r.detail);
}

/* Each check into the summary's counts; whether the run's own expectations hold so far. */
static void tally_checks(const struct eng_done *checks, size_t n, struct eng_summary *s, struct tally *t)
{
    for (size_t i = 0; i < n; i++) {
        const struct eng_done *d = &checks[i];
        enum cdb_verdict v = d->r.verdict;
        if (v == CDB_SKIP)
            s->skipped++;
        s->doubts += v == CDB_DOUBT;
        /* The sanitizer's checks are beside the rung's, counted in none of its tallies: a
         * hazard on a fixed variant fails the run, one on a buggy variant does not catch it. */
        if (d->p->sanitizer[0]) {
            if (!d->met) {
                note_defect(d, s);
                s->met = false;
                t->fail |= v == CDB_FAIL;
                t->error |= v == CDB_ERROR || v == CDB_CANCELLED;
                t->hang |= v == CDB_HANG;
            }
            continue;
        }
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
            s->buggy_caught += v == CDB_FAIL || v == CDB_HANG || (v == CDB_ERROR && d->crashed);
        }
        if (!d->p->expect_fail && !d->met) {
            note_defect(d, s);
            s->met = false;
            t->hang |= v == CDB_HANG;
            t->error |= v == CDB_ERROR || v == CDB_CANCELLED;
            t->fail |= v == CDB_FAIL;
        }
        if (d->p->expect_fail && ((v == CDB_ERROR && !d->crashed) || v == CDB_CANCELLED)) {
            s->met = false;
            t->error = true;
        }
        if (d->p->control && v != CDB_SKIP && v != CDB_CANCELLED) {
            s->control_checks++;
            s->false_alarms += v != CDB_PASS && v != CDB_DOUBT;
        }
    }
}

/* Per (suite, rung), whether its buggy variant was caught, shown uncaught, or left open. */
static void judge_buggy(const struct eng_done *checks, size_t n, struct eng_summary *s, struct tally *t)
{
    /* A reproducer's buggy variant must be caught per (suite, rung): its suite declares only
     * rungs it supports, and its buggy variant is its claim of a bug each of them catches (a
     * suite of one's own may claim the same, "expect_caught"). Any other suite claims nothing
     * of the kind: it asks which of the rungs it lists catch its bug, and the reports answer
     * (eng_user_suite_catches); a rung that misses it is an answer, not an unmet expectation. */
    for (size_t i = 0; i < n; i++) {
        const struct eng_done *d = &checks[i];
        if (!d->p->expect_fail || !d->p->expect_caught)
            continue;
        bool first = true;
        for (size_t k = 0; k < i; k++)
            if (checks[k].p->expect_fail && checks[k].p->spec.rung == d->p->spec.rung &&
                !strcmp(checks[k].p->spec.suite, d->p->spec.suite))
                first = false;
        if (!first)
            continue;
        bool skipped = false, caught = false;
        for (size_t k = i; k < n; k++) {
            const struct eng_done *e = &checks[k];
            if (!e->p->expect_fail || e->p->spec.rung != d->p->spec.rung ||
                strcmp(e->p->spec.suite, d->p->spec.suite))
                continue;
            skipped |= e->r.verdict == CDB_SKIP;
            caught |= e->r.verdict == CDB_FAIL || e->r.verdict == CDB_HANG ||
                      (e->r.verdict == CDB_ERROR && e->crashed);
        }
        /* Not caught but some checks could not run here: nothing was shown either way. That is
         * inconclusive, never a pass: the run exits 1 and says so (docs/engine.md). */
        if (!caught && skipped) {
            size_t l = strlen(s->inconclusive);
            snprintf(s->inconclusive + l, sizeof s->inconclusive - l, "%s%s rung %d",
                     l ? ", " : "", eng_planned_suite(d->p), d->p->spec.rung);
        }
        if (!caught && !skipped) {
            s->met = false;
            t->fail = true;
            size_t l = strlen(s->escaped);
            snprintf(s->escaped + l, sizeof s->escaped - l, "%s%s rung %d", l ? ", " : "",
                     eng_planned_suite(d->p), d->p->spec.rung);
        }
    }
}

/* Per (suite, rung), whether any check executed at all. */
static void judge_executed(const struct eng_done *checks, size_t n, struct eng_summary *s)
{
    /* A target whose every check was skipped tested nothing: a pass would be the zero-test CI
     * job of aiter-5133 (docs/engine.md, rung 7). Counted per (suite, rung), from this run. */
    for (size_t i = 0; i < n; i++) {
        const struct eng_check_spec *sp = &checks[i].p->spec;
        bool first = true;
        for (size_t k = 0; k < i && first; k++)
            if (checks[k].p->spec.rung == sp->rung && !strcmp(checks[k].p->spec.suite, sp->suite))
                first = false;
        if (!first)
            continue;
        int ran = 0;
        for (size_t k = i; k < n; k++) {
            const struct eng_done *e = &checks[k];
            if (e->p->spec.rung == sp->rung && !strcmp(e->p->spec.suite, sp->suite))
                ran += e->r.verdict != CDB_SKIP && e->r.verdict != CDB_CANCELLED;
        }
        if (ran == 0 && !eng_cancelled()) {
            /* tested nothing: not met (exit 1), yet neither a pass nor a failure of the
             * kernel, so inconclusive unless something else failed */
            s->met = false;
            size_t l = strlen(s->none_executed);
            snprintf(s->none_executed + l, sizeof s->none_executed - l, "%s%s rung %d",
                     l ? ", " : "", eng_planned_suite(checks[i].p), sp->rung);
        }
    }
}

void eng_run_summarise(const struct eng_done *checks, size_t n, bool worker_failed,
                       struct eng_summary *s)
{
    memset(s, 0, sizeof *s);
    s->met = true;
    struct tally tl = {0}, *t = &tl;
    tally_checks(checks, n, s, t);
    judge_buggy(checks, n, s, t);
    judge_executed(checks, n, s);
    for (size_t i = 0; i < n; i++)
        s->executed += checks[i].r.verdict != CDB_SKIP && checks[i].r.verdict != CDB_CANCELLED;
    if (worker_failed) {
        s->met = false;
        t->error = true;
    }
    if (s->inconclusive[0] || s->none_executed[0]) {
        s->met = false;
        /* only when nothing else went wrong: a failure says more than an open question */
        s->is_inconclusive = !t->fail && !t->hang && !t->error;
    }
    s->verdict = s->met ? CDB_PASS : t->fail ? CDB_FAIL : t->hang ? CDB_HANG
                                   : t->error ? CDB_ERROR : s->is_inconclusive ? CDB_SKIP : CDB_FAIL;
    /* A run that met every expectation but holds a check in doubt proved less than a pass:
     * its verdict is doubt (exit 3), and each doubt says what would settle it. */
    if (s->met && s->doubts > 0) {
        s->met = false;
        s->in_doubt = true;
        s->verdict = CDB_DOUBT;
    }
    /* An interrupted run proved nothing either way: no bug "not caught" by checks that never
     * ran, no open question, only that it was cancelled. */
    if (eng_cancelled()) {
        s->verdict = CDB_CANCELLED;
        s->met = s->is_inconclusive = s->in_doubt = false;
        s->escaped[0] = s->inconclusive[0] = s->none_executed[0] = '\0';
    }
}

int eng_summary_exit(const struct eng_summary *s)
{
    return s->met ? 0 : s->in_doubt ? 3 : 1;
}

static void reporters_free(struct eng_reporter **r)
{
    for (size_t i = 0; r && r[i]; i++)
        r[i]->free(r[i]);
    free(r);
}

/* Loads every target's manifest (a mistake in one is reported before any device is touched)
 * and plans their checks for the chosen device. 0, or -1 with a message. */
static int load_manifests(const struct eng_run_target *targets, size_t ntargets,
                          struct eng_manifest ***out, char *err, size_t errlen)
{
    struct eng_manifest **ms = xcalloc(ntargets + 1, sizeof *ms);
    for (size_t t = 0; t < ntargets; t++) {
        ms[t] = eng_manifest_load(targets[t].suite, NULL, err, errlen);
        if (ms[t] && eng_plan_check_rung(ms[t], targets[t].rung, err, errlen) != 0) {
            eng_manifest_free(ms[t]);
            ms[t] = NULL;
        }
        if (!ms[t]) {
            for (size_t k = 0; k < t; k++)
                eng_manifest_free(ms[k]);
            free(ms);
            return -1;
        }
    }
    *out = ms;
    return 0;
}

static int plan_all(struct run *rn, const char *backend, struct eng_manifest **ms,
                    const struct eng_run_target *targets, size_t ntargets,
                    struct eng_planned **plan, size_t *nplan, char *err, size_t errlen)
{
    const struct eng_run_opts *o = rn->o;
    struct eng_plan_opts po = {.backend = backend, .device = o->device, .wave = rn->info.wave,
                               .code_object = o->code_object,
                               .schedule = o->schedule, .schedule_given = o->schedule_given,
                               .seed = o->seed, .repeats = o->repeats,
                               .repeat_auto = o->repeat_auto, .rate = o->rate,
                               .confidence = o->confidence,
                               .timeout_s = o->timeout_s > 0 ? o->timeout_s : 60,
                               .fixed = o->fixed, .buggy = o->buggy, .baseline = true,
                               .nlag = o->nlag, .lag_auto = o->lag_auto,
                               .rung_args = o->rung_args};
    memcpy(po.lag, o->lag, sizeof po.lag);
    if (rn->own)
        return rn->own->plan_claimed(&rn->ask, rn->info.uuid, &po, plan, nplan, err, errlen);
    int rc = 0;
    for (size_t t = 0; t < ntargets && rc == 0; t++) {
        size_t first = *nplan;
        rc = eng_plan_rung(ms[t], targets[t].suite, targets[t].rung, &po, plan, nplan, err,
                           errlen);
        for (size_t i = first; rc == 0 && i < *nplan; i++) {
            struct eng_planned *p = &(*plan)[i];
            p->suite_name = ms[t]->name;
            /* A control suite's variants are all correct: each must pass, none is expected
             * to be caught. */
            p->control = ms[t]->control;
            p->reproducer = ms[t]->case_id != NULL;
            p->expect_caught = p->reproducer || ms[t]->expect_caught;
            if (p->control)
                p->expect_fail = false;
        }
    }
    return rc;
}

/* Each suite source of the plan compiled once before the first check (a worker's build job):
 * a source that does not compile is one setup error naming its first error and line, instead
 * of the same compiler log once per check. 0, or -1 with that error in err. What the build
 * cannot judge (no answer, a prebuilt code object, a source compiled per shape) is left to the
 * checks. Not under the vendor's sanitizer, whose logs are the checks'. */
static int build_sources(struct run *rn, const struct eng_planned *plan, size_t nplan, char *err,
                         size_t errlen)
{
    for (size_t i = 0; i < nplan && !rn->under_tool && !eng_cancelled(); i++) {
        bool seen = false;
        for (size_t k = 0; k < i && !seen; k++)
            seen = strcmp(plan[k].spec.suite, plan[i].spec.suite) == 0;
        if (seen)
            continue;
        char *spec = eng_check_spec_json(&plan[i].spec);
        char *job = xasprintf("{\"job\":\"build\",\"spec\":%s}", spec);
        free(spec);
        struct eng_worker_result w;
        char werr[512];
        int rc = worker_job(rn, 0, job, SETUP_LIMIT_S, SETUP_LIMIT_S, &w, werr, sizeof werr);
        free(job);
        if (rc != 0)
            continue;
        cJSON *j = w.answer ? cJSON_Parse(w.answer) : NULL;
        const cJSON *why = j ? cJSON_GetObjectItemCaseSensitive(j, "why") : NULL;
        bool broken = j && cJSON_IsFalse(cJSON_GetObjectItemCaseSensitive(j, "built")) &&
                      cJSON_IsString(why);
        if (broken)
            snprintf(err, errlen, "suite %s: %s", plan[i].suite_name, why->valuestring);
        cJSON_Delete(j);
        eng_worker_result_free(&w);
        if (broken)
            return -1;
    }
    return 0;
}

/* One planned check, told to every reporter before and after; cancelled without running once
 * the run is interrupted. */
static void run_planned(struct run *rn, struct eng_reporter **reps, struct eng_planned *p)
{
    struct eng_done *d = next_done(rn);
    d->p = p;
    size_t i = rn->n++;
    d->seq = i;
    for (size_t k = 0; reps[k]; k++)
        if (reps[k]->check_start)
            reps[k]->check_start(reps[k], &rn->info, i, d);
    if (eng_cancelled()) {
        eng_check_result_init(&d->r);
        d->r.verdict = CDB_CANCELLED;
        snprintf(d->r.detail, sizeof d->r.detail, "the run was interrupted");
    } else {
        run_one(rn, d);
    }
    d->met = eng_check_met(d);
    for (size_t k = 0; reps[k]; k++)
        if (reps[k]->check_done)
            reps[k]->check_done(reps[k], &rn->info, i, d);
    if (rn->o->sanitizer)
        sanitizer_checks(rn, reps, i);
}

/* What the run is recorded under: its variants, its one rung and suite (0 and NULL when it
 * spans several), its case and command line. */
static void describe_run(struct run *rn, const struct eng_run_claim *claim,
                         struct eng_manifest **ms, const struct eng_run_target *targets,
                         size_t ntargets)
{
    const struct eng_run_opts *o = rn->o;
    struct eng_run_info *info = &rn->info;
    info->schedule = o->schedule;
    info->variant = rn->own ? claim->variant : o->fixed && o->buggy ? "both" : o->fixed ? "fixed" : "buggy";
    info->rung = rn->own ? rn->own->number : ntargets == 1 || o->case_id ? targets[0].rung : 0;
    for (size_t t = 1; t < ntargets; t++)
        if (targets[t].rung != targets[0].rung)
            info->rung = 0;
    /* recorded under the suite's own name, not the path it was given by; one suite's several
     * rungs are still that suite */
    info->suite = rn->own ? claim->suite : ms[0]->name;
    for (size_t t = 1; t < ntargets; t++)
        if (strcmp(ms[t]->name, ms[0]->name) != 0)
            info->suite = NULL;
    info->case_id = o->case_id;
    info->argv = o->argv_text;
}

int eng_run(const struct eng_run_opts *o, const struct eng_run_target *targets, size_t ntargets)
{
    struct run rn = {.o = o};
    struct eng_run_info *info = &rn.info;
    eng_watchdog_install();
    char err[1024] = "";
    struct eng_manifest **ms = NULL;
    struct eng_planned *plan = NULL;
    size_t nplan = 0;
    struct eng_reporter **reps = NULL;
    char backend[16];
    struct eng_device_info dev;
    int status = 2;
    struct eng_run_claim claim = {0};
    rn.ask = (struct eng_run_ask){.e2e = o->e2e, .model = o->model, .model_case = o->model_case,
                                  .model_large = o->model_large};
    if ((rn.own = eng_rung_claiming(&rn.ask, &claim)))
        ntargets = 0; /* the rung's own run (rung 8's evaluation or model): no suite is loaded */
    if (o->sanitizer && rn.own) {
        snprintf(err, sizeof err, "--sanitizer watches the kernels of rung checks; rung %d's %s "
                 "is not one", rn.own->number, claim.what);
        goto setup_error;
    }
    if (o->sanitizer && eng_san_find(rn.san_path, sizeof rn.san_path, err, sizeof err) != 0)
        goto setup_error;
    if ((ntargets && load_manifests(targets, ntargets, &ms, err, sizeof err) != 0) ||
        probe(&rn, backend, sizeof backend, &dev, err, sizeof err) != 0)
        goto setup_error;
    const struct eng_backend *B = eng_backend_find(backend);
    if (o->sanitizer) {
        /* KLADDER_SANITIZER_ANY_BACKEND=1 is for tests only: a fake tool around the cpu backend */
        const char *any = getenv("KLADDER_SANITIZER_ANY_BACKEND");
        if (!(B && B->caps.sanitizer) && !(any && !strcmp(any, "1"))) {
            snprintf(err, sizeof err, "--sanitizer %s runs compute-sanitizer, which watches the "
                     "cuda backend's kernels only; this run's backend is %s (--backend cuda)",
                     o->sanitizer, backend);
            goto setup_error;
        }
        worker_stop(&rn, 0); /* the probe's worker ran outside the tool */
        rn.under_tool = true;
    }
    info->emulated = B && B->caps.emulated;
    info->wave = info->emulated ? (o->wave ? o->wave : 32) : dev.wave_size;
    eng_fingerprint(&info->mach, backend, &dev, info->wave);
    cdb_uuid_new(info->uuid);
    if (o->sanitizer) {
        /* the tool's reports are kept beside the database, one per check, named by the run */
        char *data = paths_data_dir();
        rn.san_dir = xasprintf("%s/sanitizer/%s", data, info->uuid);
        free(data);
        if (file_mkdirs(rn.san_dir, err, sizeof err) != 0)
            goto setup_error;
    }
    if (plan_all(&rn, backend, ms, targets, ntargets, &plan, &nplan, err, sizeof err) != 0 ||
        (!rn.own && build_sources(&rn, plan, nplan, err, sizeof err) != 0) ||
        !(reps = o->open_reports(o, err, sizeof err)))
        goto setup_error;

    cdb_now_iso(info->started);
    info->total = nplan;
    describe_run(&rn, &claim, ms, targets, ntargets);
    for (size_t k = 0; reps[k]; k++)
        if (reps[k]->start)
            reps[k]->start(reps[k], info);

    for (size_t pi = 0; pi < nplan; pi++)
        run_planned(&rn, reps, &plan[pi]);
    worker_stop(&rn, rn.n);

    struct eng_summary s;
    eng_run_doubt_same_failures(rn.checks, rn.n);
    eng_run_summarise(rn.checks, rn.n, rn.info.worker_exit[0] != '\0', &s);
    cdb_now_iso(info->finished);
    status = eng_summary_exit(&s);
    for (size_t k = 0; reps[k]; k++)
        if (reps[k]->end && reps[k]->end(reps[k], info, &s, rn.checks, rn.n) != 0) {
            status = 2;
            /* the reports after it do not call a run met that was not recorded whole */
            s.met = false;
            if (s.verdict == CDB_PASS)
                s.verdict = CDB_ERROR;
        }
    eng_watchdog_reap();
    goto done;

setup_error:
    worker_stop(&rn, 0);
    fprintf(stderr, "kladder run: %s\n", err);
done:
    reporters_free(reps);
    for (size_t t = 0; ms && t < ntargets; t++)
        eng_manifest_free(ms[t]);
    free(ms);
    free(rn.checks);
    eng_planned_free(plan, nplan);
    for (size_t i = 0; i < rn.nsan; i++) {
        eng_check_spec_free(&rn.san_planned[i]->spec);
        free(rn.san_planned[i]);
    }
    free(rn.san_planned);
    free(rn.san_dir);
    return status;
}
