/* The reporter interface: the runner (engine/runner.c) tells every reporter that the run
 * started, that a check started and ended, and that the run ended; each reporter turns that into
 * its own form (engine/report/: text or JSON on stdout, JUnit XML, the JSON-lines event stream
 * the interface reads, a progress bar, the database). The runner itself prints nothing, and
 * knows reporters only through this interface.
 *
 * Every pointer a reporter is given is borrowed for the call (the run's info and checks live
 * until the run's end). end() returns 0, or -1 when the report could not be written (the run
 * then exits 2). The reporters are told in the order of their list, and one whose end fails
 * makes the run unmet for those after it (verdict error where it was pass): the database's
 * comes first, so a run whose record is lost or incomplete never prints as met. */
#ifndef KL_ENGINE_REPORTER_H
#define KL_ENGINE_REPORTER_H

#include <stdbool.h>
#include <stddef.h>

#include "engine/check.h"
#include "engine/machine/fingerprint.h"
#include "engine/plan.h"

struct cdb;

/* One planned check and what became of it. */
struct eng_done {
    struct eng_planned *p;
    struct eng_check_result r;
    double limit_s;
    double elapsed_s;    /* the worker's wall time after setup (until killed, for a hang) */
    bool met;            /* this check's own expectation */
    /* The worker died by a signal after the kernels were launched: a crash the kernel caused
     * (verdict error, the signal and where in the detail), which catches a buggy variant as a
     * hang does. */
    bool crashed;
    /* Reported failing as it ended, in doubt once the run ended: the other variant failed the
     * same check the same way (eng_run_doubt_same_failures). The database's record is changed
     * at the end; the event stream said "fail" as it went. */
    bool doubted;
    size_t seq;          /* the number check_done was told (the database's key of the check) */
};

/* The run as a whole. */
struct eng_run_info {
    char uuid[37];
    char started[21], finished[21]; /* finished: "" until the end */
    struct eng_machine mach;
    bool emulated;                  /* the backend emulates (it says it is slow, and how) */
    int wave;
    enum eng_schedule schedule;
    size_t total;                   /* checks planned */
    int rung;                       /* the run's rung, 0 when it spans several */
    const char *suite;              /* the one suite, or NULL */
    const char *case_id, *variant, *argv;
    char worker_exit[768];          /* a worker that failed at its exit, or "" */
};

/* The run's verdict over its checks (docs/engine.md, "Verdicts and exit status"). */
struct eng_summary {
    int fixed_total, fixed_ok, base_total, base_ok, buggy_total, buggy_caught, skipped;
    bool met;
    enum cdb_verdict verdict;
    /* per suite: was the buggy variant caught where it ran */
    char escaped[512];
    /* buggy variants not caught while some of their checks were skipped (beyond this backend) */
    char inconclusive[512];
    /* the run's outcome is "inconclusive": some buggy variant was neither caught nor shown
     * uncaught, and nothing else failed. Never met (exit 1); verdict is then CDB_SKIP, the
     * form the database records, and eng_summary_verdict_name() says "inconclusive". */
    bool is_inconclusive;
    int control_checks;   /* checks of control suites ("control": true) that ran */
    int doubts;           /* checks in doubt: neither passed nor caught anything */
    int false_alarms;     /* of those, the ones that failed, hung or erred: the harness's fault */
    /* (suite, rung) targets that executed no check at all (every one skipped): counted from the
     * run's own verdicts, never from a report file, and never a pass */
    char none_executed[512];
    int executed;         /* checks that ran (not skipped, not cancelled) */
    /* The run's verdict is "doubt": nothing failed, but some check's oracle could not vouch
     * either way. Never met (exit 3), never "pass" (docs/engine.md, "Verdicts and exit
     * status"); verdict is then CDB_DOUBT. */
    bool in_doubt;
    /* The first defect (struct eng_check_result's defect) of a fixed or baseline check that
     * fails the run, in words: what the summary says first. "" when none. */
    char defect[768];
};

/* The exit status of `kladder run` for a summary: 0 met, 3 in doubt, 1 otherwise. */
int eng_summary_exit(const struct eng_summary *s);

struct eng_reporter {
    void (*start)(struct eng_reporter *r, const struct eng_run_info *run);
    void (*check_start)(struct eng_reporter *r, const struct eng_run_info *run, size_t seq,
                        const struct eng_done *d);
    void (*check_done)(struct eng_reporter *r, const struct eng_run_info *run, size_t seq,
                       const struct eng_done *d);
    int (*end)(struct eng_reporter *r, const struct eng_run_info *run,
               const struct eng_summary *s, const struct eng_done *checks, size_t n);
    void (*free)(struct eng_reporter *r);
};

#endif
