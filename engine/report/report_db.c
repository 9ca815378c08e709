/* The database reporter: the machine and the run when it starts (verdict "running"), every
 * check as it ends, the run's verdict and end time at the end. A failure to record is said on
 * stderr, naming the database and what was lost, and the run goes on (its results still reach
 * the other reports); but its end fails (the run exits 2, and the reports after it are told the
 * run is not met: engine/reporter.h), and a run whose checks are not all recorded is recorded
 * with the verdict error, never as the pass its missing checks might have spoiled. */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>

#include "casedb/cdb.h"
#include "casedb/results.h"
#include "common/xalloc.h"
#include "engine/report/report.h"

struct dbrep {
    struct eng_reporter base;
    struct cdb *db;
    struct cdb_check_recorder *rec; /* the run's checks, through statements prepared once */
    bool run_lost;                  /* the run's own row could not be stored */
    size_t checks_lost, checks_seen;
    char first_lost[640];           /* the first check that was not recorded, and why */
};

static void db_start(struct eng_reporter *r, const struct eng_run_info *run)
{
    struct cdb *db = ((struct dbrep *)r)->db;
    char err[512];
    struct kl_owner self;
    kl_owner_self(&self);
    struct cdb_run c = {.uuid = run->uuid, .machine_id = run->mach.m.id, .host = run->mach.m.host,
                        .rung = run->rung, .suite = run->suite, .case_id = run->case_id,
                        .variant = run->variant, .argv = run->argv, .started = run->started,
                        .finished = NULL, .verdict = CDB_RUNNING, .owner = &self};
    /* the machine and the run land together: a run row never names a machine not stored */
    if (cdb_tx_begin(db, err, sizeof err) != 0 ||
        cdb_machine_put(db, &run->mach.m, err, sizeof err) != 0 ||
        cdb_run_put(db, &c, err, sizeof err) != 0 || cdb_tx_commit(db, err, sizeof err) != 0) {
        cdb_tx_rollback(db);
        ((struct dbrep *)r)->run_lost = true;
        fprintf(stderr, "kladder run: recording run %s failed: %s\n", run->uuid, err);
    }
}

static void db_check_done(struct eng_reporter *r, const struct eng_run_info *run, size_t seq,
                          const struct eng_done *d)
{
    struct dbrep *self = (struct dbrep *)r;
    char err[512];
    struct cdb_check c = {
        .run_uuid = run->uuid, .seq = (int)seq, .rung = d->p->spec.rung,
        .suite = eng_planned_suite(d->p), .variant = d->p->label, .check = d->p->spec.name,
        .shape = d->r.shape, .oracle = d->r.oracle, .verdict = d->r.verdict,
        .detail = d->r.detail, .first_bad = d->r.first_bad, .bad_count = d->r.bad_count,
        .max_err = d->r.max_err, .time_median_us = d->r.t_med_us,
        .time_min_us = d->r.t_min_us, .time_max_us = d->r.t_max_us,
        .repeats = d->r.repeats, .limit_s = d->limit_s,
        .seam = d->r.seam[0] ? d->r.seam : NULL, .seam_a = d->r.seam_a, .seam_b = d->r.seam_b,
        .value_class = d->p->spec.values, .score = d->r.score};
    self->checks_seen++;
    if (self->run_lost) { /* said once at the start, and counted at the end */
        self->checks_lost++;
        return;
    }
    if (!self->rec)
        self->rec = cdb_check_recorder_new(self->db);
    if (cdb_check_record(self->rec, &c, err, sizeof err) != 0) {
        fprintf(stderr, "kladder run: recording check %zu (%s %s) of run %s failed: %s\n", seq,
                d->p->label, d->p->spec.name, run->uuid, err);
        if (!self->checks_lost++)
            snprintf(self->first_lost, sizeof self->first_lost, "check %zu (%s %s): %s", seq,
                     d->p->label, d->p->spec.name, err);
    }
}

static int db_end(struct eng_reporter *r, const struct eng_run_info *run,
                  const struct eng_summary *s, const struct eng_done *checks, size_t n)
{
    struct dbrep *self = (struct dbrep *)r;
    struct cdb *db = self->db;
    char err[512];
    if (self->run_lost) {
        fprintf(stderr, "kladder run: run %s and its %zu checks are not in %s: the run was not "
                "recorded (exit 2)\n", run->uuid, self->checks_seen, cdb_path(db));
        return -1;
    }
    /* a record missing checks is incomplete: its verdict says so instead of the run's */
    enum cdb_verdict v = self->checks_lost ? CDB_ERROR : s->verdict;
    bool ok = cdb_tx_begin(db, err, sizeof err) == 0;
    for (size_t i = 0; ok && i < n; i++)
        if (checks[i].doubted &&
            cdb_check_doubt(db, run->uuid, (int)checks[i].seq, checks[i].r.detail, err,
                            sizeof err) != 0) {
            fprintf(stderr, "kladder run: recording check %s of run %s in doubt failed: %s\n",
                    checks[i].p->spec.name, run->uuid, err);
            ok = false;
        }
    if (ok && (cdb_run_finish(db, run->uuid, run->finished, v, err, sizeof err) != 0 ||
               cdb_tx_commit(db, err, sizeof err) != 0)) {
        fprintf(stderr, "kladder run: recording the end of run %s failed: %s\n", run->uuid,
                err);
        ok = false;
    }
    if (!ok) {
        cdb_tx_rollback(db);
        fprintf(stderr, "kladder run: run %s is left unfinished in %s (it will read as "
                "interrupted; exit 2)\n", run->uuid, cdb_path(db));
    }
    if (self->checks_lost)
        fprintf(stderr, "kladder run: %zu of the %zu checks of run %s are not in %s (the first: "
                "%s); the run is recorded as an error (exit 2)\n", self->checks_lost,
                self->checks_seen, run->uuid, cdb_path(db), self->first_lost);
    return ok && !self->checks_lost ? 0 : -1;
}

static void db_free(struct eng_reporter *r)
{
    cdb_check_recorder_free(((struct dbrep *)r)->rec);
    free(r);
}

struct eng_reporter *eng_report_db(struct cdb *db)
{
    struct dbrep *d = xcalloc(1, sizeof *d);
    d->db = db;
    d->base.start = db_start;
    d->base.check_done = db_check_done;
    d->base.end = db_end;
    d->base.free = db_free;
    return &d->base;
}
