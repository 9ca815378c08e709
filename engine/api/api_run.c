/* Running and recording an op's checks (kladder.h): the database the binary opens, the machine's
 * fingerprint, each check through the engine's device check with the caller's launch in place
 * of a kernel's, recorded by the engine's database reporter, and the run's verdict by the
 * runner's own summary. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "casedb/cdb.h"
#include "common/fileio.h"
#include "common/paths.h"
#include "common/xalloc.h"
#include "engine/api/api_internal.h"
#include "engine/tables/tables.h"
#include "engine/machine/fingerprint.h"
#include "engine/session/input_prefetch.h"
#include "engine/exec/phase_time.h"
#include "engine/report/report.h"
#include "engine/reporter.h"
#include "engine/runner.h"
#include "engine/session/session.h"
#include "importers/case_index.h"

struct kl_db {
    struct cdb *db;
};

struct kl_run {
    kl_db *db;
    kl_op *op;
    struct eng_run_info info;
    struct eng_reporter *rep;
    struct eng_done *done; /* per planned check */
    bool *ran;
    char *argv;
    bool ended;
    kl_launch_fn launch;
    void *user;
};

kl_db *kl_db_open(const char *path)
{
    eng_tables_install();
    char err[1024];
    char *own = path ? xstrdup(path) : paths_default_db();
    if (!path) {
        char *dir = paths_data_dir();
        int rc = file_mkdirs(dir, err, sizeof err);
        free(dir);
        if (rc != 0) {
            api_fail("%s", err);
            free(own);
            return NULL;
        }
    }
    struct cdb *db;
    int rc = cdb_open(own, &db, err, sizeof err);
    free(own);
    /* the case index too, as the binary does on first use: the TUI opens a complete database */
    if (rc != 0 || imp_index_ensure(db, err, sizeof err) != 0) {
        if (rc == 0)
            cdb_close(db);
        api_fail("%s", err);
        return NULL;
    }
    api_ok();
    kl_db *d = xcalloc(1, sizeof *d);
    d->db = db;
    return d;
}

void kl_db_close(kl_db *db)
{
    if (!db)
        return;
    cdb_close(db->db);
    free(db);
}

kl_run *kl_run_begin(kl_db *db, kl_op *op, const char *argv)
{
    if (!op->nplan) {
        api_fail("the op has no planned checks (kl_op_plan first)");
        return NULL;
    }
    const char *backend = op->plan[0].spec.backend;
    const struct eng_backend *B = eng_backend_find(backend);
    char why[512];
    struct eng_device_info dev;
    if (B->load(why, sizeof why) != 0) {
        api_fail("the %s backend is not available: %s", backend, why);
        return NULL;
    }
    if (eng_session_device_info(B, 0, &dev, why, sizeof why) != 0) {
        api_fail("%s device 0: %s", backend, why);
        return NULL;
    }
    api_ok();
    kl_run *r = xcalloc(1, sizeof *r);
    r->db = db;
    r->op = op;
    r->done = xcalloc(op->nplan, sizeof *r->done);
    r->ran = xcalloc(op->nplan, sizeof *r->ran);
    r->argv = argv ? xstrdup(argv) : NULL;
    struct eng_run_info *info = &r->info;
    info->emulated = B->caps.emulated;
    info->wave = info->emulated ? op->plan[0].spec.wave : dev.wave_size;
    eng_fingerprint(&info->mach, backend, &dev, info->wave);
    cdb_uuid_new(info->uuid);
    cdb_now_iso(info->started);
    info->total = op->nplan;
    info->rung = op->plan[0].spec.rung;
    for (size_t i = 1; i < op->nplan; i++)
        if (op->plan[i].spec.rung != info->rung)
            info->rung = 0;
    info->suite = op->m->name;
    info->variant = "fixed";
    info->argv = r->argv;
    r->rep = eng_report_db(db->db);
    r->rep->start(r->rep, info);
    op->open_runs++;
    return r;
}

const char *kl_run_id(const kl_run *run) { return run->info.uuid; }

/* The engine's launch of the op or the reference: the caller's function on the check's
 * buffers. */
static int host_launch(void *arg, bool reference, const struct eng_exec *e,
                       const struct eng_inst *in, const eng_dptr *ptrs, char *err, size_t errlen)
{
    kl_run *r = arg;
    kl_call call = {.e = e, .in = in, .ptrs = ptrs};
    if (r->launch(r->user, reference, &call) == 0)
        return 0;
    snprintf(err, errlen, "the %s failed: %s", reference ? "reference" : "op",
             call.message[0] ? call.message : "(it said nothing)");
    return -1;
}

static double now_s(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

int kl_run_check(kl_run *run, size_t i, kl_launch_fn launch, void *user)
{
    if (run->ended || i >= run->op->nplan || !launch)
        return api_fail("check %zu: %s", i, run->ended ? "the run has ended"
                        : !launch ? "no launch function" : "no such check");
    api_ok();
    struct eng_done *d = &run->done[i];
    d->p = &run->op->plan[i];
    d->seq = i;
    d->limit_s = d->p->spec.timeout_s;
    run->launch = launch;
    run->user = user;
    /* the plan's next check is the one a run most likely asks for next (pytest runs them in
     * order): its inputs are made while this one runs, and used only if it comes */
    struct eng_host_op host = {.launch = host_launch, .arg = run,
                               .next = i + 1 < run->op->nplan ? &run->op->plan[i + 1].spec : NULL};
    double t0 = now_s();
    eng_phase_start();
    eng_exec_check_host(&d->p->spec, run->op->m, &host, &d->r);
    d->elapsed_s = now_s() - t0;
    d->met = eng_check_met(d);
    run->ran[i] = true;
    run->rep->check_done(run->rep, &run->info, i, d);
    eng_phase_mark("record");
    eng_phase_print(d->p->spec.name);
    return (int)d->r.verdict;
}

/* Check i's result, or NULL when it has not run. */
static const struct eng_check_result *result(const kl_run *run, size_t i)
{
    return i < run->op->nplan && run->ran[i] ? &run->done[i].r : NULL;
}

const char *kl_check_verdict(const kl_run *run, size_t i)
{
    const struct eng_check_result *r = result(run, i);
    return r ? cdb_verdict_name(r->verdict) : NULL;
}

const char *kl_check_oracle(const kl_run *run, size_t i)
{
    const struct eng_check_result *r = result(run, i);
    return r ? r->oracle : NULL;
}

const char *kl_check_shape(const kl_run *run, size_t i)
{
    const struct eng_check_result *r = result(run, i);
    return r ? r->shape : NULL;
}

const char *kl_check_detail(const kl_run *run, size_t i)
{
    const struct eng_check_result *r = result(run, i);
    return r ? r->detail : NULL;
}

long long kl_check_first_bad(const kl_run *run, size_t i)
{
    const struct eng_check_result *r = result(run, i);
    return r ? (long long)r->first_bad : -1;
}

int kl_run_end(kl_run *run, const char **verdict)
{
    if (run->ended)
        return api_fail("the run has ended");
    run->ended = true;
    /* the checks that ran (a caller may run some of the plan: pytest -k) */
    struct eng_done *ran = xcalloc(run->op->nplan + 1, sizeof *ran);
    size_t n = 0;
    for (size_t i = 0; i < run->op->nplan; i++)
        if (run->ran[i])
            ran[n++] = run->done[i];
    /* a check both variants fail the same way on values alone is in doubt for both
     * (docs/engine.md): seen by the summary, the report and kl_check_verdict from here on */
    eng_run_doubt_same_failures(ran, n);
    for (size_t i = 0, k = 0; i < run->op->nplan; i++)
        if (run->ran[i])
            run->done[i] = ran[k++];
    struct eng_summary s;
    eng_run_summarise(ran, n, false, &s);
    if (n == 0) { /* a run that ran nothing tested nothing: never a pass */
        s.met = false;
        s.verdict = CDB_FAIL;
        snprintf(s.none_executed, sizeof s.none_executed, "%s", run->op->m->name);
    }
    cdb_now_iso(run->info.finished);
    int rc = run->rep->end(run->rep, &run->info, &s, ran, n);
    free(ran);
    if (verdict)
        *verdict = eng_summary_verdict_name(&s);
    api_ok();
    return rc != 0 ? api_fail("recording the run's end failed") : eng_summary_exit(&s);
}

void kl_run_free(kl_run *run)
{
    if (!run)
        return;
    if (!run->ended)
        (void)kl_run_end(run, NULL);
    run->rep->free(run->rep);
    /* the buffers kept from check to check (engine/session/session.h) go back with the run */
    eng_session_buf_trim(NULL);
    eng_prefetch_trim();
    run->op->open_runs--;
    free(run->done);
    free(run->ran);
    free(run->argv);
    free(run);
}
