/* Rung 3, the seams (engine/rungs/rung3.c): its settings, and the offline code-object check
 * (engine/rungs/rung3_code.c) that its worker side runs for each listed AMD target. */
#ifndef KL_ENGINE_RUNG3_H
#define KL_ENGINE_RUNG3_H

#include <stdbool.h>
#include <stddef.h>

#include "engine/check.h"
#include "engine/manifest.h"
#include "engine/manifest_parse.h"
#include "engine/plan.h"

/* "tuned_table": a merged tuning table the dispatch reads (aiter-6360), paths in the suite. */
struct eng_rung3_table {
    char *schema;             /* the columns' types and the key (kladder check-config's form) */
    size_t ntables;
    char **tables;            /* the source tables the merge read: the unit test reads each */
    char *merged[2];          /* fixed, buggy: what the merge wrote */
    char *production;         /* the shapes the model runs: the key's columns */
};

struct eng_rung3_spec {
    int wave;                 /* the pinned wave ("wave": 32), 0 = none: both 32 and 64 */
    int baseline_wave;        /* the plain unit test's wave on an emulating backend (64) */
    size_t nshapes;
    struct eng_shape *shapes; /* the wave checks' shapes; default: the default shape and each
                               * baseline shape */
    size_t ntargets;
    char **targets;           /* AMD processors to build and inspect offline ("gfx1250") */
    bool no_spills;           /* the code objects must use no scratch */
    size_t nisa;
    struct eng_rung3_isa {
        char *target;
        size_t nrequire, nforbid;
        char **require, **forbid;   /* mnemonic prefixes: "v_wmma", "scratch_" */
    } *isa;                   /* per listed target: instruction classes its code must (not) use */
    size_t nlayouts;
    char **layouts;           /* tile parameters that choose a data layout between a producer
                               * and a consumer: every accepted value is run end to end */
    size_t ntile_builds;
    char **tile_builds;       /* tile parameters the kernel can fix when it is built
                               * (KL_TILE_<param>): the code checks build and read each accepted
                               * value on its own, as a DSL that compiles one kernel per tile */
    struct eng_rung3_table *table; /* NULL: none */
};

/* The "code-<target>" check of variant s->variant: builds the suite's kernel file for target
 * (hip backend: hipRTC or clang, through the cache; with -DKL_TILE_<param>=<value> for each
 * tile_builds parameter of the check's shape, "code-<target>-<param><value>"), reads the code
 * object and checks the
 * kernel's wave size against the pinned wave or the target's, its KL_ASSUME_WAVE against the
 * code object, and LDS, VGPRs, workgroup size and scratch against the target's limits and the
 * settings. Skipped with the reason when no compiler can build for target. */
void eng_rung3_code_check(const struct eng_check_spec *s, const struct eng_manifest *m,
                          const char *target, struct eng_check_result *out);

/* The tuned-table seam (engine/rungs/rung3_table.c): "tuned-table" reads the variant's merged
 * table as the dispatch does and looks up every production shape; its unit test,
 * "unit-test-tables", reads each source table alone. */
bool eng_rung3_table_parse(struct eng_mparse *p, const cJSON *j, struct eng_rung3_table **out);
void eng_rung3_table_free(struct eng_rung3_table *t);
void eng_rung3_table_plan(struct eng_plan_builder *b, const struct eng_rung3_table *t);
void eng_rung3_table_check(const struct eng_check_spec *s, const struct eng_manifest *m,
                           const struct eng_rung3_table *t, struct eng_check_result *out);

#endif
