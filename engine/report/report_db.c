/* The database reporter: the machine and the run when it starts (verdict "running"), every
 * check as it ends, the run's verdict and end time at the end. A failure to record is said on
 * stderr and the run goes on: its results still reach the other reports. */
#include <stdio.h>
#include <stdlib.h>

#include "casedb/results.h"
#include "common/xalloc.h"
#include "engine/report/report.h"

struct dbrep {
    struct eng_reporter base;
    struct cdb *db;
    struct cdb_check_recorder *rec; /* the run's checks, through statements prepared once */
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
    if (cdb_machine_put(db, &run->mach.m, err, sizeof err) != 0 ||
        cdb_run_put(db, &c, err, sizeof err) != 0)
        fprintf(stderr, "kladder run: recording the run failed: %s\n", err);
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
    if (!self->rec)
        self->rec = cdb_check_recorder_new(self->db);
    if (cdb_check_record(self->rec, &c, err, sizeof err) != 0)
        fprintf(stderr, "kladder run: recording check %s failed: %s\n", d->p->spec.name, err);
}

static int db_end(struct eng_reporter *r, const struct eng_run_info *run,
                  const struct eng_summary *s, const struct eng_done *checks, size_t n)
{
    char err[512];
    for (size_t i = 0; i < n; i++)
        if (checks[i].doubted &&
            cdb_check_doubt(((struct dbrep *)r)->db, run->uuid, (int)checks[i].seq,
                            checks[i].r.detail, err, sizeof err) != 0)
            fprintf(stderr, "kladder run: recording check %s in doubt failed: %s\n",
                    checks[i].p->spec.name, err);
    if (cdb_run_finish(((struct dbrep *)r)->db, run->uuid, run->finished, s->verdict, err,
                       sizeof err) != 0)
        fprintf(stderr, "kladder run: recording the run's end failed: %s\n", err);
    return 0;
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
