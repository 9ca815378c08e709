/* `kladder run`: plans the checks of one or more (suite, rung) targets, runs each in a worker
 * under the watchdog, records run, checks and machine in casedb, and reports them (text, JSON,
 * JUnit XML, an event stream for the TUI).
 *
 * Expectations (docs/engine.md): baseline and fixed checks must pass (or be skipped with a
 * reason); a buggy variant must be caught by its rung — at least one of its checks fails or
 * hangs — wherever it ran a check that was not skipped. The run's exit status is 0 when every
 * expectation is met, 1 when one is not, 2 on a setup error. */
#ifndef KL_ENGINE_RUNNER_H
#define KL_ENGINE_RUNNER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "engine/backend/backend.h"
#include "engine/plan.h"

struct cdb;
struct eng_e2e;
struct eng_rung_args;

struct eng_run_target {
    const char *suite;  /* name or manifest path */
    int rung;
};

struct eng_reporter;

struct eng_run_opts {
    const char *exe;           /* this binary, for workers */
    const char *backend;       /* NULL: the first available of hip, cuda, cpu */
    int device;
    int wave;                  /* cpu: 32 or 64 (0: 32) */
    const char *code_object;   /* a prebuilt code object to run instead of compiling, or NULL */
    enum eng_schedule schedule;
    bool schedule_given;       /* --schedule was given: it wins over a suite's own schedule */
    uint64_t seed;
    int repeats;               /* 0: from the manifest */
    bool repeat_auto;          /* --repeat auto: rung 5's N from the failure rate */
    double rate, confidence;   /* --rate, --confidence (0: the suite's) */
    double timeout_s;          /* per check, from ready; default 60 */
    bool fixed, buggy;
    bool json;                 /* the JSON report on stdout instead of text */
    const char *junit;         /* write JUnit XML here, or NULL */
    int events_fd;             /* -1: none */
    bool progress;             /* a progress bar on stderr */
    struct cdb *db;            /* may be NULL (nothing recorded) */
    const char *argv_text;     /* the command line, recorded with the run */
    const char *case_id;       /* for --case, recorded with the run */
    uint32_t lag[ENG_LAG_MAX_SEEDS]; /* --lag: seeds of rungs 2 and 5's lag builds */
    size_t nlag;
    bool lag_auto;             /* --lag auto (the default): engine/plan.h says which */
    const struct eng_rung_args *rung_args; /* the values of the rungs' own options
                                            * (engine/rung.h), each rung's its block; or NULL */
    const struct eng_e2e *e2e; /* rung 8's user evaluation (engine/rungs/rung8_e2e_check.h), or
                                * NULL: then it is the run's one check and the targets are
                                * ignored */
    bool model;                /* rung 8's built-in model (--rung 8 --suite model), targets
                                * ignored */
    const char *model_case;    /* with model: the case whose buggy kernels swap in, or NULL */
    bool model_large;          /* with model: the large configuration (--suite model-large) */
    const char *sanitizer;     /* --sanitizer racecheck|synccheck|memcheck: every check's worker
                                * runs under NVIDIA's compute-sanitizer (engine/toolchain/sanitizer_run.h),
                                * its hazards recorded as checks of their own; or NULL */
    /* The reporters of the run (engine/reporter.h), opened once its checks are planned:
     * engine/report/report.h's eng_reporters_open, or a caller's own. NULL-terminated; NULL with
     * a message on error. The runner frees each with its free(). */
    struct eng_reporter **(*open_reports)(const struct eng_run_opts *o, char *err, size_t errlen);
};

/* Runs everything and returns the exit status (0, 1 or 2). Messages for setup errors go to
 * stderr. */
int eng_run(const struct eng_run_opts *o, const struct eng_run_target *targets, size_t ntargets);

/* Whether one check met its own expectation (a buggy check may fail, a fixed one must not). */
struct eng_done;
bool eng_check_met(const struct eng_done *d);
/* The run's verdict over its checks (docs/engine.md, "Verdicts and exit status"); each check's
 * met already set. worker_failed: a worker failed at its exit. */
struct eng_summary;
/* A check that fails for the fixed variant as it fails for the buggy one (the same check, the
 * same oracle, the same first failing element or the same finding) is in doubt for both: the
 * oracle, not the kernel, is suspect (docs/engine.md, "Contracts, bounds and doubt"). Sets
 * their verdict, detail, met and doubted. */
void eng_run_doubt_same_failures(struct eng_done *checks, size_t n);
void eng_run_summarise(const struct eng_done *checks, size_t n, bool worker_failed,
                       struct eng_summary *s);

#endif
