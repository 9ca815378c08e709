/* The rungs of the verification ladder that the engine runs: one file each (engine/rungs/rungN.c:
 * its settings, parser, planner, modes and this table entry), in the built-in table
 * (engine/tables/ladder.c) by being there. docs/engine.md, "Adding a rung", says what a new one
 * takes. Nothing outside a rung's file asks for a rung by its number: what the planner, the
 * runner and the faces need of a particular rung is a field of its entry below.
 *
 * A suite declares the rungs it supports under "rungs": {"N": {settings}}; each rung reads its
 * own settings (unknown keys are errors), plans its checks from the suite, and runs them in a
 * worker. Asking a suite for a rung it does not declare is a usage error. */
#ifndef KL_ENGINE_RUNG_H
#define KL_ENGINE_RUNG_H

#include <cJSON.h>
#include <stdbool.h>
#include <stddef.h>

#include "engine/check.h"
#include "engine/exec.h"
#include "engine/manifest.h"
#include "engine/manifest_parse.h"
#include "engine/plan.h"

struct cdb_check;
struct eng_e2e;

/* An option of a rung's own on `kladder run`. The faces read a rung's options from its entry
 * (opts below): run's parser and its help, the man page made from the tables, the completions
 * (run --options) and the launch panel all follow the rung file, and no face names the option.
 * The value a run was given reaches the rung as its own block (struct eng_rung_args): its
 * planner reads it with eng_plan_rung_arg (engine/plan.h), its worker side from each of its
 * checks (eng_check_spec.rung_opts, read with eng_rung_block_get). */
struct eng_rung_opt {
    const char *name;           /* "--tail", as typed; NULL ends a rung's list */
    const char *arg;            /* the value's name ("N", "FILE"); NULL: a flag, no value */
    const char *about;          /* one line saying what it does (help, man page, panel) */
    const char *const *choices; /* the words the value may be, NULL-terminated; NULL: any */
};

/* The values of the rungs' own options one run was given: for each rung number, a JSON object
 * keyed by option name (a string value, or true for a flag), or NULL when it was given none.
 * Zeroed is empty. */
struct eng_rung_args {
    cJSON *block[ENG_RUNG_SLOTS];
};

/* What a run asks for that names no suite: the part of the run's options (engine/runner.h's
 * struct eng_run_opts, which the rungs never see) a rung's claim below reads. */
struct eng_run_ask {
    const struct eng_e2e *e2e; /* --e2e COMMAND: a user's evaluation (engine/rungs/rung8_e2e_check.h),
                                * or NULL */
    bool model;                /* the built-in model (--suite model or model-large) */
    const char *model_case;    /* with model: the case whose buggy kernels swap in, or NULL */
    bool model_large;          /* with model: the large configuration */
};

/* What a run that is a rung's own, outside any suite (claim below), is recorded under. */
struct eng_run_claim {
    const char *suite;    /* the suite name recorded (static) */
    const char *variant;  /* "user", "fixed" or "both" (static) */
    const char *what;     /* what runs, for messages: "evaluation command", "model" */
};

struct eng_rung {
    int number;
    const char *name;     /* as data/rungs.json calls it, for messages */
    /* The settings that plan the rung's checks, named when a suite's settings plan none
     * ("\"checks\""); NULL: the message names none. */
    const char *plans_from;

    /* Reads the rung's settings object (never NULL; {} when the suite gives none) into a block
     * of the rung's own (*out, freed with free_settings). NULL parse: the rung takes no
     * settings and only {} is accepted. Messages go through p (file, field, expectation). */
    bool (*parse)(struct eng_mparse *p, const struct eng_manifest *m, const cJSON *j,
                  void **out);
    void (*free_settings)(void *settings);

    /* Appends the rung's checks for the suite b->m, baselines included where the rung plans
     * its own (plans_baseline); otherwise the planner adds the plain unit test beside them.
     * 0 or -1 with a message. */
    int (*plan)(struct eng_plan_builder *b, char *err, size_t errlen);
    bool plans_baseline;

    /* Worker side. run: the whole check (a rung with machinery of its own, rung 6), of suite m
     * (parsed once per worker, the worker's; NULL for a check of kind ENG_CHECK_E2E). NULL run:
     * a device check (engine/exec.h) whose non-plain modes execute runs: it allocates what its
     * mode needs, calls eng_exec_ready before its first kernel, and returns as a mode does. */
    void (*run)(const struct eng_check_spec *s, const struct eng_manifest *m,
                void (*ready)(void *), void *arg, struct eng_check_result *out);
    int (*execute)(struct eng_exec *e, struct eng_inst *ins, size_t n, struct eng_timer *t);

    /* A worker that dies after ready (its kernel was launched) fails the rung's own checks
     * instead of erroring them: the rung asks whether a kernel runs at all (rung 7's smoke,
     * flydsl-1088), so a kernel that takes the process down is its finding. Baselines still
     * error. */
    bool crash_fails;
    /* Worker side, optional: the rung's own oracles, run after the plain ones on each of its
     * plain checks that is not a baseline (rung 2's properties). 0, or -1 with e->err. */
    int (*oracle)(struct eng_exec *e, struct eng_inst *in);

    /* The rung also plans checks for suites that do not declare it: those its settings are not
     * needed for (rung 7's toolchain smoke, which every kernel of every suite should pass after a
     * toolchain change). Its other checks still come from a declaration. */
    bool every_suite;

    /* A suite that declares this rung has kernels only this rung's machinery can launch (rung
     * 6: ranks and collectives), so a rung that runs every suite (every_suite) leaves it out. */
    bool owns_kernels;

    /* Worker side, optional: the rows of input buffer b that the rung's sampled checks fill
     * where the backend cannot hold all of it (rung 4's pool_sample), at values v. 1 with
     * *first and *rows, 0 when the rung declares none for b, -1 with a message. */
    int (*input_rows)(const struct eng_manifest *m, const struct eng_values *v, size_t b,
                      uint64_t *first, uint64_t *rows, char *err, size_t errlen);

    /* Parent side, optional: a run that is this rung's alone, outside any suite (rung 8: the
     * user's evaluation command, the built-in model). claim says whether the run asks for one
     * (a) and fills *c; plan_claimed then appends its checks (uuid: the run's, naming what
     * the checks leave beside the database). 0, or -1 with a message. */
    bool (*claim)(const struct eng_run_ask *a, struct eng_run_claim *c);
    int (*plan_claimed)(const struct eng_run_ask *a, const char *uuid,
                        const struct eng_plan_opts *po, struct eng_planned **list, size_t *n,
                        char *err, size_t errlen);

    /* Parent side, optional: what of check s was stopped by the watchdog after its kernel
     * started, when it is not a kernel ("evaluation command"), or NULL; with a note of what it
     * left (rung 8: the evaluation's last output) in note. */
    const char *(*hang_note)(const struct eng_check_spec *s, char *note, size_t n);

    /* For the faces (the CLI and the launch panel): the rung's repeats default to what the
     * suite's failure rate asks for when --repeat is not given (rung 5). */
    bool repeats_from_rate;
    /* The rung runs end-to-end evaluations: the built-in model (--suite model, --case ID) and
     * the user's own (--e2e COMMAND); rung 8. */
    bool runs_end_to_end;

    /* For libkladder (kl_rung_unavailable): why the rung cannot run an op the caller launches
     * with its own runtime (a torch op, a Triton kernel), said to that caller; NULL when it can
     * (the rung's checks need only the device check's buffers, fills and oracles). */
    const char *op_unavailable;

    /* The rung's own options on `kladder run` (struct eng_rung_opt above), ended by an entry
     * whose name is NULL; NULL: none. A name is the rung's alone: no other rung, and none of
     * run's own options, may spell it (eng_rung_add refuses one that does, the unit tests check
     * the built-in table). */
    const struct eng_rung_opt *opts;

    /* For the faces, optional: what the rung recorded of check k beside the columns every check
     * has (casedb's checks.facts as struct cdb_check reads them: rung 8's score), in words, for
     * `kladder results` and the run view: the line's label (static, in Chinese with zh) in
     * *label and its text in buf; false when k has none. The faces ask eng_rung_facts_line,
     * never the rung's number. */
    bool (*facts_line)(const struct cdb_check *k, bool zh, const char **label, char *buf,
                       size_t len);
    /* For the faces: a failing check of this rung is read beside the passing one of the same
     * suite and variant whose name is one number apart ("wave64-default" beside
     * "wave32-default"): the two sides of a seam (rung 3). */
    bool seam_neighbours;
};

/* The rungs the engine runs, in ladder order: eng_rung_count() of them, eng_rung_nth(0) the
 * cheapest. eng_rung_top() is the highest number (the ladder's length while the numbers have no
 * gap). */
size_t eng_rung_count(void);
const struct eng_rung *eng_rung_nth(size_t i);
int eng_rung_top(void);

/* The rung numbered n, or NULL when the engine has none. */
const struct eng_rung *eng_rung_find(int n);

/* The rung of the built-in table or added at run time whose field asks for this run or face
 * feature, or NULL: the one whose claim takes what the run asks, a (filling *c), the one whose
 * repeats default from the failure rate, the one running end-to-end evaluations. */
const struct eng_rung *eng_rung_claiming(const struct eng_run_ask *a, struct eng_run_claim *c);
const struct eng_rung *eng_rung_repeating_from_rate(void);
const struct eng_rung *eng_rung_end_to_end(void);

/* Adds a rung beside the built-in table, for a test or a tool that brings its own; R must stay
 * valid until it is removed. 0, or -1 with a message when its number is taken or outside 1 to
 * ENG_RUNG_SLOTS - 1. eng_rung_remove takes an added rung out again (a built-in one stays). */
int eng_rung_add(const struct eng_rung *R, char *err, size_t errlen);
void eng_rung_remove(int n);

/* The rung of the table whose own options (opts) include name, with that option in *o; NULL
 * when none has it. */
const struct eng_rung *eng_rung_opt_owner(const char *name, const struct eng_rung_opt **o);

/* Records value (NULL for a flag) of rung's option name in a (a second value of the same
 * option replaces the first); eng_rung_args_free empties a again. */
void eng_rung_args_set(struct eng_rung_args *a, int rung, const char *name, const char *value);
void eng_rung_args_free(struct eng_rung_args *a);
/* The block of rung as JSON text (malloc'd, one line), or NULL when a is NULL or holds none. */
char *eng_rung_args_block(const struct eng_rung_args *a, int rung);
/* The value of rung's option name in a: "" for a flag, NULL when it was not given (or a is
 * NULL). */
const char *eng_rung_arg(const struct eng_rung_args *a, int rung, const char *name);
/* The value of option name in a rung's block (JSON text, as a check spec carries it; NULL:
 * none): 1 with the string copied into buf ("" for a flag), 0 when the block does not hold it,
 * -1 when the text is no such block. */
int eng_rung_block_get(const char *block, const char *name, char *buf, size_t n);

/* The facts of recorded check k in words, by its rung's own formatter (facts_line above):
 * false when its rung is not in this build's table, has no formatter, or k has no facts. */
bool eng_rung_facts_line(const struct cdb_check *k, bool zh, const char **label, char *buf,
                         size_t len);

/* Whether rung R plans checks for suite m: m declares it, or R runs on every suite
 * (every_suite) and m's kernels are plain device kernels (no rung it declares runs them through
 * machinery of its own, as rung 6's ranks do). */
bool eng_rung_applies(const struct eng_rung *R, const struct eng_manifest *m);

/* "1, 4, 5 and 6": the numbers of eng_rungs, for messages. */
void eng_rung_list(char *out, size_t n);

/* The built-in rungs (NULL-terminated, valid for the process), handed in by the program's top:
 * engine/tables/ladder.c lists every engine/rungs/rungN.c (scripts/ladder-gen.sh writes the list
 * at build time). Until then the table
 * holds only the rungs added below. */
void eng_rung_use_builtin(const struct eng_rung *const *ladder);

#endif
