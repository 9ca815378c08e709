/* Rung 7's settings (engine/rungs/rung7.c): library contracts, declared flags, warm-cold
 * configurations, timing micro-checks and two hosts' results. Here for tools and tests that look
 * into a parsed suite (m->settings[7]). */
#ifndef KL_ENGINE_RUNGS_RUNG7_H
#define KL_ENGINE_RUNGS_RUNG7_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "engine/manifest.h"

/* rung 7: software and hardware versions (engine/rungs/rung7.c). */
struct eng_contract {
    char *library;                /* as written: absolute, or relative to the manifest's folder */
    char **symbols;               /* NULL-terminated: what the downstream caller needs */
};
/* A downstream package's imports of a library, against each release (sglang-33142): checks
 * "api:RELEASE" (every imported name resolves, every call ran the library's code) and the unit
 * test pinned to the first release, "unit-test-api:RELEASE" (the calls return). */
struct eng_rung7_api {
    char *library;                /* the library's top-level Python package */
    size_t nreleases;
    char **releases;              /* folders holding one release each; [0] the unit test's */
    char *callers[2];             /* fixed, buggy: the folder holding the downstream package */
    char **calls;                 /* MODULE:FUNCTION, called with no arguments; NULL-terminated */
};
/* A CI job over a test folder (aiter-5133): "ci-audit:DIR" counts test functions defined and
 * executed per file; the exit status alone, "ci-exit-status:DIR", is the unit test's view. */
struct eng_rung7_ci {
    char *tests[2];               /* fixed, buggy: the test folder */
    bool pytest[2];               /* fixed, buggy: run by pytest (true) or file by file as
                                   * scripts, `python3 FILE` */
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
    struct eng_rung7_api *api;    /* NULL: none */
    struct eng_rung7_ci *ci;      /* NULL: none */
};

#endif
