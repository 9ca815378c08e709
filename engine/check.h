/* One check: what the parent plans (struct eng_check_spec), what the worker process that runs it
 * reports back (struct eng_check_result), and their JSON forms on the pipe between the two.
 *
 * A check runs one variant (or the reference-only baseline of a variant) of one suite at one
 * or more shapes in one execution mode, and evaluates oracles on the device. */
#ifndef KL_ENGINE_CHECK_H
#define KL_ENGINE_CHECK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "casedb/results.h"
#include "engine/backend/backend.h"
#include "engine/manifest.h"

enum eng_mode {
    ENG_MODE_PLAIN,   /* one launch on the default stream */
    ENG_MODE_GRAPH,   /* capture, prove nothing ran, replay several times */
    ENG_MODE_STREAMS, /* inputs produced on a side stream, kernel on another */
    ENG_MODE_WARM,    /* several shapes in one process, one module */
    ENG_MODE_GARBAGE, /* buffers reused across shapes, outputs filled with garbage */
    ENG_MODE_REPEAT,  /* one checked launch, then N bitwise repeats compared on the device */
    ENG_MODE_COUNT
};
const char *eng_mode_name(enum eng_mode m);

/* What machinery a check runs on, chosen by the rung that plans it and read by the worker, so
 * that no rung tells its checks apart by their names. Every kind but ENG_CHECK_E2E is of a
 * suite: the worker hands the rung the suite's manifest, parsed once per worker. */
enum eng_check_kind {
    ENG_CHECK_DEVICE, /* the suite's kernels launched and judged on the device (engine/exec.h) */
    ENG_CHECK_TABLE,  /* the suite's tuned tables read: no device, no compiler (rung 3) */
    ENG_CHECK_CODE,   /* the suite's code objects built for spec.target and read, never
                       * launched (rung 3) */
    ENG_CHECK_E2E,    /* an end-to-end evaluation outside any suite (rung 8: the user's command,
                       * the built-in model): no manifest */
    ENG_CHECK_KIND_COUNT
};
const char *eng_check_kind_name(enum eng_check_kind k);

/* A lag build's value (struct eng_check_spec's lag): the KL_LAG seed (1..999999) in the low
 * bits, ENG_LAG_AHEAD set for the mirror mode (kernels/kl.h, KL_LAG_MODE=1: the seeded wave runs
 * ahead of the others). */
#define ENG_LAG_AHEAD 0x80000000u
static inline uint32_t eng_lag_seed(uint32_t lag) { return lag & ~ENG_LAG_AHEAD; }
static inline bool eng_lag_is_ahead(uint32_t lag) { return (lag & ENG_LAG_AHEAD) != 0; }

struct eng_check_spec {
    char backend[16];
    int device;
    int wave;                   /* cpu: 32 or 64 */
    enum eng_schedule schedule; /* cpu */
    uint64_t seed;
    uint32_t lag;               /* 0: the kernel under test built plainly; S: built with
                                 * KL_LAG=S, one wave of a block held back (kernels/kl.h);
                                 * S | ENG_LAG_AHEAD: KL_LAG_MODE=1, every wave but the seeded
                                 * one held back */
    char *suite;                /* a suite name or a manifest path */
    char *code_object;          /* a prebuilt code object of the suite's kernels (path) or NULL:
                                 * loaded instead of compiling the suite's source */
    char *variant;              /* "fixed" or "buggy" */
    bool baseline;              /* the plain unit test: zeros outputs, reference oracle only */
    int rung;
    enum eng_check_kind kind;
    char target[32];            /* ENG_CHECK_CODE: the processor its code is built for
                                 * ("gfx1250"); "" otherwise */
    char *name;                 /* "tail-K257-tile_k256" */
    enum eng_mode mode;
    size_t nshapes;
    struct eng_shape *shapes;   /* each one overrides the manifest's defaults */
    int repeats;                /* ENG_MODE_REPEAT */
    int replays;                /* ENG_MODE_GRAPH */
    bool scratch_once;          /* from the variant's options */
    /* The rung allows a block sample (engine/exec.h) where the backend cannot run the whole
     * launch: the tiles at each output's 2^31 and 2^32-byte cliffs, the first and the last. */
    bool sample_cliffs;
    bool event;                 /* from the variant's options */
    double timeout_s;
    char *values;               /* the value class every float input gets instead of its init
                                 * ("peaked", engine/values/value_class.h), then per-buffer inits that
                                 * override it ("peaked;V=ones"); or NULL */
    char *e2e;                  /* rung 8's user evaluation (engine/rungs/rung8_e2e_check.h),
                                 * JSON; or NULL */
    char *model;                /* rung 8's built-in model (engine/rungs/rung8_model_check.h),
                                 * JSON; or NULL */
    char *rung_opts;            /* the values of the rung's own options this run was given
                                 * (engine/rung.h, eng_rung_block_get), JSON; or NULL */
};

struct eng_check_result {
    enum cdb_verdict verdict;
    char detail[1536];
    char shape[256];
    char oracle[48];
    int64_t first_bad, bad_count;
    double max_err;
    double t_med_us, t_min_us, t_max_us; /* NAN when the backend cannot time */
    int repeats;
    /* The two sides of a seam the check found, side by side in the run view: what the seam is
     * ("wave", "values") and a short phrase per side ("kernel softmax_buggy assumes: wave 64",
     * "this run: wave 32"). seam[0] == '\0': none recorded. */
    char seam[16];
    char seam_a[192], seam_b[192];
    /* rung 8's score (the user's evaluation, the built-in model); score.set false: none */
    struct cdb_score score;
    /* Why an element of this check failed against the reference alone, with no wide build of
     * it to weigh the kernel against (docs/engine.md, "Contracts, bounds and doubt"), in words
     * a user can act on; "" when every failure had one or none needed it. Said once per run by
     * the reports, never in every check's detail. */
    char no_arbiter[320];
    /* What the check showed to be wrong with the kernel itself, beside any value it got wrong:
     * "race", "bounds" (an access past a buffer's or shared memory's end), "uninit", "fault"
     * (on the device), "crash", "hang", "compile" (a shape-specialised build that does not
     * compile); "" when the check found only values. A defect is a fact about the variant
     * that ran, never an opinion of an oracle: such a failure is never put in doubt
     * (docs/engine.md, "Defects and doubts"). */
    char defect[16];
};

/* Names what the check showed wrong with the kernel itself (the first one found is kept). */
void eng_check_defect(struct eng_check_result *r, const char *what);

/* Records the seam of a failing check (the first one a check finds is kept). */
void eng_check_seam(struct eng_check_result *r, const char *what, const char *a, const char *b);

void eng_check_result_init(struct eng_check_result *r);
void eng_check_spec_free(struct eng_check_spec *s);

/* o[k] = v, or null when v is NaN (a metric the backend could not measure is n/a, never 0). */
struct cJSON;
void eng_json_add_number(struct cJSON *o, const char *k, double v);
/* o["score"] = {value, baseline, samples, diverge_step}, each null when not known. */
void eng_json_add_score(struct cJSON *o, const struct cdb_score *s);

/* JSON forms (malloc'd text, one line) and their parsers (0 or -1 with a message). */
char *eng_check_spec_json(const struct eng_check_spec *s);
int eng_check_spec_parse(const char *text, struct eng_check_spec *out, char *err, size_t errlen);
char *eng_check_result_json(const struct eng_check_result *r);
int eng_check_result_parse(const char *text, struct eng_check_result *out, char *err,
                           size_t errlen);

/* The worker runs a check with eng_check_run and eng_check_build (engine/exec/worker.h). */

#endif
