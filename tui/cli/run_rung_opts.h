/* The rungs' own options on `kladder run` (engine/rung.h, struct eng_rung_opt): each one of the
 * rung table becomes an entry of run's option table, so that run's parser, --help, --options
 * (the completions) and --man-options (the man page) read it from the rung's entry, and no file
 * here names it. A value given is recorded in the rung's own block (struct eng_rung_args),
 * which the engine hands to the rung's planner and its checks. */
#ifndef KL_TUI_RUN_RUNG_OPTS_H
#define KL_TUI_RUN_RUNG_OPTS_H

#include <stddef.h>

#include "engine/api/faces.h"
#include "tui/cli/opts.h"

struct run_rung_opt; /* one entry's link back to its rung (run_rung_opts.c) */

struct run_rung_opts {
    struct cli_opt *opts;       /* n entries for run's table */
    size_t n;
    struct run_rung_opt *links; /* each entry's .dest */
    struct eng_rung_args args;  /* the values given, filled while argv is parsed */
    unsigned given;             /* bit N: an option of rung N was given */
    const char *first[ENG_RUNG_SLOTS]; /* per rung, the first of its options given (messages) */
};

/* Fills r with an entry for every option of every rung in the table, in ladder order; empty
 * ({0}) frees nothing. */
void run_rung_opts_init(struct run_rung_opts *r);
void run_rung_opts_free(struct run_rung_opts *r);

/* CLI_PARSED, or 2 after a usage message when an option of a rung was given but the rungs
 * --rung named (bit N for rung N) leave that rung out: a rung's option asks for its rung by
 * name, never of a suite's or a case's rungs taken whole. */
int run_rung_opts_check(const struct run_rung_opts *r, unsigned rungs);

#endif
