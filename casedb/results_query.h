/* Reading results back: runs with their verdict counts and machine, one run with its checks,
 * machines, and the rows of a two-sided comparison. (The hosts table is hosts.h.)
 *
 * Nothing here prints; the CLI verbs and the TUI views format the same structures.
 * Ownership: every list owns its strings (one arena per list, freed by the list's _free); the
 * const char * fields point into that arena and stay valid until the _free call. */
#ifndef KL_CASEDB_RESULTS_QUERY_H
#define KL_CASEDB_RESULTS_QUERY_H

#include <stdbool.h>
#include <stddef.h>

#include "casedb/results.h"

struct cdb;
struct cdb_pool; /* string arena owned by a list */

/* ---- runs ------------------------------------------------------------------------------- */

/* A run as listed: the run, where it came from, its machine and how many checks had each
 * verdict. */
struct cdb_run_info {
    struct cdb_run run;
    const char *origin;            /* hosts.name it was pulled from; NULL: run here */
    struct cdb_machine machine;    /* id copied into machine.id */
    int counts[CDB_VERDICT_COUNT]; /* checks per verdict (CDB_RUNNING stays 0) */
    int n_checks;
    /* Of counts[CDB_FAIL] and counts[CDB_HANG], the checks of the buggy variant (not its
     * baseline): bugs caught, as a rung means them, not failures of the code under test. (A
     * control suite's "buggy" variant is correct code: its run's verdict fails on them.) */
    int caught_fail, caught_hang;
    /* The rungs its checks ran, bit r for rung r: one bit for a run of one rung; for a run of
     * several (run.rung 0, `run --suite` of every rung it lists) each rung it ran. */
    unsigned rungs;
    /* A `kladder exec` run (run.variant "exec"): the program's verdict as exec says it
     * ("pass", "finding", "failed", "crash", "hang", "error"); NULL for a run of the ladder. */
    const char *exec_verdict;
};

/* NULL and false fields do not filter; rung and verdict take -1 for "any" (0 is rung 0 and
 * CDB_PASS), so start from cdb_run_filter_init, which sets every field to "any". */
struct cdb_run_filter {
    const char *host;       /* the host a run was pulled under (runs.origin); "local": runs
                             * made here. A machine's own host name never matches: two
                             * machines called "vm" stay apart */
    int rung;               /* -1 any; 1..CDB_RUNG_MAX: the runs of that rung, and the runs of
                             * several rungs that ran some check of it */
    int verdict;            /* -1 any, else enum cdb_verdict */
    bool local_only;        /* only runs made here (origin NULL) */
    bool finished_only;     /* leave out runs still running */
    const char *since_time; /* finished >= this ISO time */
    const char *after_uuid; /* recorded after this run (insertion order) */
};
void cdb_run_filter_init(struct cdb_run_filter *f);

struct cdb_run_list {
    struct cdb_run_info *items;
    size_t n;
    struct cdb_pool *pool;
};

/* Runs matching f (NULL: all), newest first (started, then insertion order). */
int cdb_runs_query(struct cdb *db, const struct cdb_run_filter *f, struct cdb_run_list *out,
                   char *err, size_t errlen);
/* Same runs, oldest first (the order of an export). */
int cdb_runs_query_oldest_first(struct cdb *db, const struct cdb_run_filter *f,
                                struct cdb_run_list *out, char *err, size_t errlen);
void cdb_run_list_free(struct cdb_run_list *l);

/* Whether a run with exactly this UUID exists: 1 yes, 0 no, -1 error. */
int cdb_run_exists(struct cdb *db, const char *uuid, char *err, size_t errlen);

/* One run with its checks (ordered by seq). */
struct cdb_run_detail {
    struct cdb_run_info info;
    struct cdb_check *checks;
    size_t n_checks;
    struct cdb_pool *pool;
};
/* id is a full UUID or a unique prefix of at least 4 characters. Returns 1 found, 0 not found,
 * -1 on error (an id that is not a UUID's prefix, or a prefix of several runs, is an error). */
int cdb_run_load(struct cdb *db, const char *id, struct cdb_run_detail *out, char *err,
                 size_t errlen);
void cdb_run_detail_free(struct cdb_run_detail *d);

/* Calls fn for every check of the runs matching f, in the runs' insertion order and then by
 * seq. The check and its strings are valid only during the call. fn returning non-zero stops
 * the walk and is returned; 0 when every check was seen, -1 with err when SQLite fails. */
int cdb_checks_each(struct cdb *db, const struct cdb_run_filter *f,
                    int (*fn)(void *ctx, const struct cdb_check *c), void *ctx, char *err,
                    size_t errlen);

/* ---- machines --------------------------------------------------------------------------- */

struct cdb_machine_list {
    struct cdb_machine *items;
    size_t n;
    struct cdb_pool *pool;
};
/* Machines used by runs matching f (NULL: every machine), ordered by host and id. */
int cdb_machines_query(struct cdb *db, const struct cdb_run_filter *f,
                       struct cdb_machine_list *out, char *err, size_t errlen);
void cdb_machine_list_free(struct cdb_machine_list *l);

/* ---- comparison ------------------------------------------------------------------------- */

/* One side of a comparison, resolved from what a person typed. */
enum cdb_side_kind { CDB_SIDE_LOCAL, CDB_SIDE_ORIGIN, CDB_SIDE_HOST, CDB_SIDE_MACHINE };
struct cdb_side {
    enum cdb_side_kind kind;
    char value[80]; /* origin name, host name or full machine id; empty for local */
};
/* "local" → runs made here; a name in the hosts table → runs pulled from it; a host name that
 * produced pulled runs → those runs (never local ones); else a machine id or a unique prefix of one (4+ characters).
 * Returns 0, or -1 with a message saying what was looked for. */
int cdb_side_resolve(struct cdb *db, const char *spec, struct cdb_side *out, char *err,
                     size_t errlen);

struct cdb_compare_cell {
    bool present;
    enum cdb_verdict verdict;
    double median_us, min_us, max_us; /* NAN: n/a */
    int repeats;                      /* timed repeats behind the median */
    int seq;                          /* the check's place in its run */
    const char *run_uuid;
    struct cdb_score score;           /* rung 8's score; score.set false: none */
};

/* What a row's timing says. A difference is judged only with enough repeats on both sides to
 * know each side's spread: a row timed once is never flagged, however far apart (one launch on
 * a loaded machine can be 85x off), and never feeds the headline's mean. Among judged rows a
 * difference so large that no run-to-run noise explains it is flagged whatever the spreads. */
#define CDB_CMP_MIN_REPEATS 3   /* repeats each side needs before a ratio is judged */
#define CDB_CMP_NOISE 0.05      /* ratios within 1 ± 5% are noise even when spreads part */
#define CDB_CMP_LARGE 4.0       /* a judged ratio this far from 1 (either way) is flagged */
enum cdb_timing {
    CDB_TIMING_NONE,     /* no ratio: a side is missing or has no time */
    CDB_TIMING_FEW,      /* not judged: fewer than CDB_CMP_MIN_REPEATS repeats, or no spread */
    CDB_TIMING_NOISE,    /* within noise: spreads overlap, or the difference is within 5% */
    CDB_TIMING_FLAGGED,  /* a real difference */
};
struct cdb_compare_row {
    int rung;
    const char *suite, *check, *shape, *variant;
    struct cdb_compare_cell a, b;
    double ratio;         /* b.median / a.median; NAN unless both are known and a's is > 0 */
    enum cdb_timing timing;
    bool flagged;         /* timing == CDB_TIMING_FLAGGED */
    bool verdict_differs; /* both ran and neither skipped, and their verdicts differ */
    bool skipped_one;     /* both present, one side skipped the check and the other did not */
    /* rung 8: both sides scored. score_diff = b - a; score_ratio = b / a (NAN when a is 0);
     * score_differs when |b - a| > CDB_CMP_SCORE_TOL x the larger score. */
    bool scored;
    double score_diff, score_ratio;
    bool score_differs;
};
/* Two machines' scores of one check differ when they part by more than this share of the
 * larger: rung 8's default tolerance (an accuracy gate's 8%), so two machines that would both
 * pass one baseline are not flagged for noise inside it. */
#define CDB_CMP_SCORE_TOL 0.08
struct cdb_compare_summary {
    double geomean_ratio; /* over the judged rows (noise or flagged); NAN when none */
    int judged;           /* rows whose timing was judged: what the headline's mean is over */
    int with_ratio, flagged, noise, few_repeats, differing_verdicts, skipped_one, only_a, only_b,
        both, scored, differing_scores;
};
struct cdb_compare {
    struct cdb_compare_row *rows; /* ordered by rung, suite, check, shape, variant */
    size_t n;
    struct cdb_compare_summary summary;
    struct cdb_pool *pool;
};
/* Matches checks on (rung, suite, check, shape, variant), taking each side's latest finished
 * run that has the key. rung < 0: all rungs. */
int cdb_compare_load(struct cdb *db, const struct cdb_side *a, const struct cdb_side *b, int rung,
                     struct cdb_compare *out, char *err, size_t errlen);
/* Fills ratio/timing/flagged/verdict_differs/skipped_one of each row and the summary; cdb_compare_load calls it,
 * and tests call it on hand-made rows. */
void cdb_compare_finish(struct cdb_compare *c);
void cdb_compare_free(struct cdb_compare *c);

#endif
