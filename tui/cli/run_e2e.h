/* The options of `kladder run --rung 8 --e2e COMMAND` (rung 8's user evaluation): gathered
 * while cmd_run walks its arguments, then checked together and turned into the engine's
 * settings (engine/rungs/rung8_e2e_check.h). */
#ifndef KL_TUI_RUN_E2E_H
#define KL_TUI_RUN_E2E_H

#include <stdbool.h>

#include "engine/api/faces.h"
#include "tui/cli/opts.h"

struct run_e2e_args {
    const char *command, *score, *baseline, *results;
    const char *tolerance, *samples, *invalid_max;
    bool shell, wilson;
    const char *first;      /* the first of these options seen, for messages; NULL none */
};

/* When argv[*i] is one of the options, takes it (and its value, advancing *i) and returns 1;
 * 0 when it is not one; 2 after a usage message (a value missing). */
int run_e2e_take(struct run_e2e_args *a, int argc, char **argv, int *i);

/* Checks what was given (--e2e with --rung 8, --score, --baseline; numbers in range; the
 * baseline file read) and fills e, whose strings point into argv. 0, or 2 after a usage
 * message. */
int run_e2e_finish(const struct run_e2e_args *a, int rung, struct eng_e2e *e);

/* The options run_e2e_take knows, with what help says of them, ended by an entry whose name is
 * NULL: cmd_run's table names them (.takes), so `kladder run --options` lists them and
 * `kladder run --help` says them. */
extern const struct cli_opt run_e2e_options[];

#endif
