/* The rungs of the verification ladder that the engine runs: one file each (engine/rungN.c),
 * one line each in eng_rungs[] (engine/rung.c), like the backends. docs/engine.md, "Adding a
 * rung", says what a new one takes.
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

struct eng_rung {
    int number;
    const char *name;     /* as data/rungs.json calls it, for messages */

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

    /* Worker side. run: the whole check (a rung with machinery of its own, rung 6). NULL run:
     * a device check (engine/exec.h) whose non-plain modes execute runs: it allocates what its
     * mode needs, calls eng_exec_ready before its first kernel, and returns as a mode does. */
    void (*run)(const struct eng_check_spec *s, void (*ready)(void *), void *arg,
                struct eng_check_result *out);
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
};

/* Every rung the engine runs, in ladder order, NULL-terminated. */
extern const struct eng_rung *const eng_rungs[];

/* The rung numbered n, or NULL when the engine has none. */
const struct eng_rung *eng_rung_find(int n);

/* Whether rung R plans checks for suite m: m declares it, or R runs on every suite
 * (every_suite) and m's kernels are plain device kernels (no rung it declares runs them through
 * machinery of its own, as rung 6's ranks do). */
bool eng_rung_applies(const struct eng_rung *R, const struct eng_manifest *m);

/* "1, 4, 5 and 6": the numbers of eng_rungs, for messages. */
void eng_rung_list(char *out, size_t n);

extern const struct eng_rung eng_rung1, eng_rung3, eng_rung4, eng_rung5, eng_rung6, eng_rung7;
extern const struct eng_rung eng_rung2; /* engine/rungs/rung2.h holds its settings */
extern const struct eng_rung eng_rung8; /* engine/rungs/rung8.h: the user's evaluation */

/* ---- settings of the rungs that have some (m->settings[N]), for tools and tests ----------- */

/* rung 1: shape and data. */
struct eng_cliff {
    char *buffer;        /* the output whose padded size crosses 2^31 and 2^32 bytes */
    char *param;         /* the parameter that grows it */
    struct eng_shape with; /* other parameters for these checks */
    bool elements;       /* "unit": "elements": the cliffs are at 2^31 and 2^32 elements (an
                          * element index held in 32 bits), not bytes (a byte offset) */
};
struct eng_rung1_spec {
    size_t ntail;
    char **tail_tile, **tail_dim; /* tile parameter -> the dimension it divides; default
                                   * "tile_x" -> "X" or "x" when such a parameter exists */
    size_t ncliffs;
    struct eng_cliff *cliffs;
    bool untuned;                 /* shapes next to tuned ones without a tuned entry (true) */
    size_t nextra;
    struct eng_shape *extra;      /* named shapes: [{"name": "k640", "K": 640}] */
};
/* rung 4: environment and timing. */
#define ENG_R4_GRAPH 1u
#define ENG_R4_STREAMS 2u
#define ENG_R4_WARM 4u
#define ENG_R4_GARBAGE 8u
#define ENG_R4_POOL 16u
struct eng_rung4_spec {
    unsigned checks;              /* ENG_R4_* (default all but POOL, which needs shapes) */
    int replays;                  /* graph replays (default 3) */
    size_t nwarm;
    struct eng_shape *warm;       /* default: baseline shapes plus the default shape */
    size_t npool;
    struct eng_shape *pool;       /* full-pool shapes (large offsets) */
    /* pool_sample: where the backend cannot hold the whole pool, the pool checks fill only the
     * rows of input buffer sample_buffer they read, [first, first + rows) (expressions over the
     * parameters); -1 none. Rows no correct gather reads stay unbacked and read as zero. */
    int sample_buffer;
    char *sample_first, *sample_rows;
};
/* rung 5: scale and repeats. */
struct eng_rung5_spec {
    double failure_rate;          /* p to catch (default 0.01) */
    double confidence;            /* default 0.99: N = ceil(ln(1-c) / ln(1-p)) */
    int repeats;                  /* explicit N; 0 = from p and c */
    int schedule;                 /* the cpu schedule its repeats need when --schedule is not
                                     given (enum eng_schedule); -1: the run's own */
    size_t nwide;
    struct eng_shape *wide;       /* widest rows; default the default shape */
};
/* rung 7: software and hardware versions (engine/rungs/rung7.c). */
struct eng_contract {
    char *library;                /* as written: absolute, or relative to the manifest's folder */
    char **symbols;               /* NULL-terminated: what the downstream caller needs */
};
struct eng_rung7_spec {
    size_t ncontracts[2];         /* fixed, buggy */
    struct eng_contract *contracts[2];
    char **flags[2];              /* fixed, buggy: declared flags, NULL-terminated */
    size_t nconfigs;
    char ***configs;              /* specialisations for warm-cold: flag lists */
    bool buggy_key_without_flags; /* the buggy variant's warm-cold key forgets the flags */
    size_t ntiming;
    struct eng_shape *timing;     /* named shapes of the timing micro-checks ("timing:NAME") */
    int timing_repeats;           /* timed launches of each (default 15) */
    char *hosts[2][2];            /* fixed, buggy: two hosts' exported results (paths as
                                   * written) for the cross-host check; NULL none */
};



#endif
