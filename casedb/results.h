/* Verification results: machines (fingerprints), runs and their checks, as the runner records
 * them one row at a time. A pull merges another host's results through merge.h; both go
 * through casedb's one writer (writer.c), so a row is stored the same way whoever wrote it.
 * The put calls only read their arguments during the call; the caller keeps ownership.
 * Doubles that a backend could not measure are NAN and are stored as NULL ("n/a", never 0). */
#ifndef KL_CASEDB_RESULTS_H
#define KL_CASEDB_RESULTS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "common/proc_owner.h"

struct cdb;

/* The exact machine a run used. id is a hash of every other field, so a new driver, compiler,
 * partition mode or kladder build on the same host is a new machine, and so is each of two
 * different GPUs in one host. A number not known is 0, here and in the database (the JSON
 * documents write it as null); a string not known is NULL. */
struct cdb_machine {
    char id[33];              /* 32 hex digits; cdb_machine_make_id fills it */
    const char *host;
    const char *backend;      /* "hip", "cuda", "cpu" */
    const char *device;       /* "NVIDIA H200", "AMD Instinct MI455X", "cpu (x86_64, 2 threads)" */
    const char *target;       /* "sm_90", "gfx1250", "cpu-wave32" */
    int wave_size;            /* 0 unknown */
    int compute_units;        /* CUs or SMs; 0 unknown */
    int64_t mem_bytes;        /* 0 unknown */
    const char *driver_version;    /* these three: NULL unknown */
    const char *runtime_version;
    const char *compiler_version;
    const char *compute_partition; /* AMD "SPX"/"DPX"/..., NULL elsewhere */
    const char *memory_partition;  /* AMD "NPS1"/"NPS2"/..., NULL elsewhere */
    const char *kladder_version;
    const char *kladder_commit;    /* NULL unknown */
};
void cdb_machine_make_id(struct cdb_machine *m);

/* The first six are verdicts of checks and of runs; CDB_RUNNING and CDB_INTERRUPTED are runs'
 * only: a run whose process ended before it finished (killed, crashed, the machine rebooted) is
 * interrupted, with the checks it recorded (runs_reap.h). */
/* CDB_DOUBT: an oracle is in doubt (the reference breaks its own bound, or only rows past the
 * contract's domain differ): neither a pass nor a catch (docs/engine.md, "Verdicts"). */
enum cdb_verdict { CDB_PASS, CDB_FAIL, CDB_HANG, CDB_ERROR, CDB_SKIP, CDB_CANCELLED,
                   CDB_RUNNING, CDB_INTERRUPTED, CDB_DOUBT, CDB_VERDICT_COUNT };
const char *cdb_verdict_name(enum cdb_verdict v);
/* Returns the verdict for a name, or -1. */
int cdb_verdict_parse(const char *name);

struct cdb_run {
    const char *uuid;         /* 36-char RFC 4122 text */
    const char *machine_id;
    const char *host;         /* host that produced the run */
    int rung;                 /* 0 when a run spans several rungs (e.g. --case) */
    const char *suite;        /* may be NULL */
    const char *case_id;      /* may be NULL */
    const char *variant;      /* "fixed", "buggy", "both", ... may be NULL */
    const char *argv;         /* the command line, for reproducing */
    const char *started;      /* ISO 8601 UTC "2026-11-29T08:51:17Z" */
    const char *finished;     /* NULL while running */
    enum cdb_verdict verdict; /* CDB_RUNNING until finished */
    const struct kl_owner *owner; /* the process recording a run made here; NULL none (pulled) */
    /* A pulled run: the verdict word its document said, which `verdict` (re-derived from its
     * checks, importers/verdict_derive.h) may differ from; NULL for a run made here and for runs
     * pulled before schema 8. */
    const char *exported_verdict;
    /* A pulled run: the host that exported the document it came in (exported_by.host). Where it
     * is not the run's own `host`, the run was relayed by another host (casedb/merge.h). NULL for
     * a run made here and for runs pulled before schema 8. */
    const char *exported_by;
};

/* Rung 8's end-to-end score of a check (the user's evaluation, the built-in model). set false:
 * the check has no score (every other rung; checks recorded before schema 5 or pulled from a
 * document without one), and the other fields mean nothing. */
struct cdb_score {
    bool set;
    double value;             /* the score: accuracy, or the share of tokens that agree */
    double baseline;          /* what it is judged against; NAN none */
    int64_t samples;          /* questions or tokens scored; -1 unknown */
    int64_t diverge_step;     /* the built-in model's first step whose token differs; -1 none */
};

struct cdb_check {
    const char *run_uuid;
    int seq;                  /* order within the run, from 0 */
    int rung;
    const char *suite;
    const char *variant;      /* "fixed", "buggy", "baseline-fixed", "baseline-buggy", "user" */
    const char *check;        /* check name, e.g. "tail-k640", "sentinel-2^31" */
    const char *shape;        /* "M=8192,N=151936,K=64" */
    const char *oracle;       /* "reference", "sentinel", "finite", "bitwise-repeat", "no-hang",
                                 or several joined by '+': "reference+no-hang" */
    enum cdb_verdict verdict;
    const char *detail;       /* a sentence: first bad index, counts, max error, or skip reason */
    int64_t first_bad;        /* -1 none */
    int64_t bad_count;        /* -1 unknown */
    double max_err;           /* NAN n/a */
    double time_median_us, time_min_us, time_max_us; /* NAN n/a */
    int repeats;
    double limit_s;           /* watchdog limit; NAN none */
    /* The two sides of a seam the check found (engine/check.h): what ("wave", "values") and a
     * phrase per side; all NULL when none was recorded (and for checks pulled from elsewhere). */
    const char *seam, *seam_a, *seam_b;
    /* The values the check filled its inputs with (engine/check.h's values: "peaked",
     * "peaked;V=ones", "replay..."); NULL: the manifest's own inits. */
    const char *value_class;
    struct cdb_score score;
    /* A check of a `kladder exec` run: its exec facts as one compact JSON object
     * (casedb/check_facts.h); NULL for every check of the ladder. */
    const char *exec;
};

/* Each call lands on its own; to make several land together, wrap them in cdb_tx_begin and
 * cdb_tx_commit (cdb.h). Return 0, or -1 with err. */

/* Inserts the machine unless one with the same id exists (that one is kept as it is). */
int cdb_machine_put(struct cdb *db, const struct cdb_machine *m, char *err, size_t errlen);
/* Inserts a run made here (the uuid must be new), with no checks counted yet. */
int cdb_run_put(struct cdb *db, const struct cdb_run *r, char *err, size_t errlen);
/* Sets finished and verdict of a run; a uuid not stored changes nothing and is no error. */
int cdb_run_finish(struct cdb *db, const char *uuid, const char *finished,
                   enum cdb_verdict verdict, char *err, size_t errlen);
/* Stores a check of the stored run c->run_uuid and adds it to that run's verdict counts: both
 * or neither. A run that is not stored is an error. */
int cdb_check_put(struct cdb *db, const struct cdb_check *c, char *err, size_t errlen);
/* Turns check seq of run uuid from "fail" to "doubt" with a new detail, and moves it from the
 * run's failures to its doubts (a check the other variant failed the same way); a check not
 * stored as failing changes nothing. */
int cdb_check_doubt(struct cdb *db, const char *uuid, int seq, const char *detail, char *err,
                    size_t errlen);

/* The checks of a run stored one after another: each as cdb_check_put stores it (the check and
 * its count, both or neither), through statements prepared once for all of them instead of once
 * per check. NULL db for cdb_check_recorder_new is no error: every put then fails. */
struct cdb_check_recorder;
struct cdb_check_recorder *cdb_check_recorder_new(struct cdb *db);
int cdb_check_record(struct cdb_check_recorder *r, const struct cdb_check *c, char *err,
                     size_t errlen);
/* NULL is a no-op. */
void cdb_check_recorder_free(struct cdb_check_recorder *r);

/* Fills out with a fresh random UUID (version 4) from /dev/urandom, or from the time and the
 * process id where /dev/urandom cannot be read. */
void cdb_uuid_new(char out[37]);
/* Current UTC time as ISO 8601 with seconds. */
void cdb_now_iso(char out[21]);

#endif
