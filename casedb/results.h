/* Verification results: machines (fingerprints), runs and their checks, and remote hosts.
 * The engine records through these; importers of remote results go through the same calls
 * inside one transaction (cdb_tx_*). Strings are copied; the caller keeps ownership.
 * Doubles that a backend could not measure are NAN and are stored as NULL ("n/a", never 0). */
#ifndef KL_CASEDB_RESULTS_H
#define KL_CASEDB_RESULTS_H

#include <stddef.h>
#include <stdint.h>

struct cdb;

/* The exact machine a run used. id is a hash of every other field but host-independent ones are
 * included too, so one host with two GPUs has two machines. */
struct cdb_machine {
    char id[33];              /* 32 hex digits; cdb_machine_make_id fills it */
    const char *host;
    const char *backend;      /* "hip", "cuda", "cpu" */
    const char *device;       /* "NVIDIA H200", "AMD Instinct MI455X", "cpu (x86_64, 2 threads)" */
    const char *target;       /* "sm_90", "gfx1250", "cpu-wave32" */
    int wave_size;
    int compute_units;        /* CUs or SMs; 0 unknown */
    int64_t mem_bytes;        /* 0 unknown */
    const char *driver_version;
    const char *runtime_version;
    const char *compiler_version;
    const char *compute_partition; /* AMD "SPX"/"DPX"/..., NULL elsewhere */
    const char *memory_partition;  /* AMD "NPS1"/"NPS2"/..., NULL elsewhere */
    const char *kladder_version;
    const char *kladder_commit;
};
void cdb_machine_make_id(struct cdb_machine *m);

enum cdb_verdict { CDB_PASS, CDB_FAIL, CDB_HANG, CDB_ERROR, CDB_SKIP, CDB_CANCELLED,
                   CDB_RUNNING, CDB_VERDICT_COUNT };
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
};

struct cdb_check {
    const char *run_uuid;
    int seq;                  /* order within the run, from 0 */
    int rung;
    const char *suite;
    const char *variant;      /* "fixed", "buggy", "baseline-fixed", "baseline-buggy", "user" */
    const char *check;        /* check name, e.g. "tail-k640", "sentinel-2^31" */
    const char *shape;        /* "M=8192,N=151936,K=64" */
    const char *oracle;       /* "reference", "sentinel", "finite", "bitwise-repeat", "no-hang" */
    enum cdb_verdict verdict;
    const char *detail;       /* a sentence: first bad index, counts, max error, or skip reason */
    int64_t first_bad;        /* -1 none */
    int64_t bad_count;        /* -1 unknown */
    double max_err;           /* NAN n/a */
    double time_median_us, time_min_us, time_max_us; /* NAN n/a */
    int repeats;
    double limit_s;           /* watchdog limit; NAN none */
};

/* Transactions: everything between begin and commit lands together or not at all. */
int cdb_tx_begin(struct cdb *db, char *err, size_t errlen);
int cdb_tx_commit(struct cdb *db, char *err, size_t errlen);
void cdb_tx_rollback(struct cdb *db);

/* Inserts the machine unless one with the same id exists. */
int cdb_machine_put(struct cdb *db, const struct cdb_machine *m, char *err, size_t errlen);
/* Inserts a run (the uuid must be new). */
int cdb_run_put(struct cdb *db, const struct cdb_run *r, char *err, size_t errlen);
/* Sets finished and verdict of a run. */
int cdb_run_finish(struct cdb *db, const char *uuid, const char *finished,
                   enum cdb_verdict verdict, char *err, size_t errlen);
int cdb_check_put(struct cdb *db, const struct cdb_check *c, char *err, size_t errlen);

/* Fills out with a fresh random UUID (version 4) from /dev/urandom. */
void cdb_uuid_new(char out[37]);
/* Current UTC time as ISO 8601 with seconds. */
void cdb_now_iso(char out[21]);

#endif
