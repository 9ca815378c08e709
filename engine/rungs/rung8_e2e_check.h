/* Rung 8's user evaluation (kladder run --rung 8 --e2e COMMAND): the settings the parent plans
 * with, their JSON form in the check spec (eng_check_spec.e2e), and the worker side that runs
 * the command, reads its score (engine/rungs/rung8_e2e_score.h) and judges it
 * (engine/rungs/rung8_e2e_gate.h). */
#ifndef KL_ENGINE_RUNG8_E2E_CHECK_H
#define KL_ENGINE_RUNG8_E2E_CHECK_H

#include <stdbool.h>
#include <stddef.h>

#include "engine/check.h"
#include "engine/rungs/rung8_e2e_gate.h"
#include "engine/rungs/rung8_e2e_score.h"

struct eng_e2e {
    const char *command;          /* as the user typed it */
    bool shell;                   /* run by /bin/sh -c instead of split into argv */
    const char *score;            /* the --score format text */
    const char *results;          /* a file the command writes its results to, read after it
                                     ends instead of its output; or NULL */
    struct eng_gate gate;
    const char *log;              /* where the captured output is kept, or NULL */
};

/* The baseline: a number, or a file holding a number or an earlier result of format f (an
 * lm-eval results JSON, an sglang log). 0, or -1 with a message naming the file. */
int eng_e2e_baseline(const char *text, const struct eng_score_format *f, double *out, char *err,
                     size_t errlen);

/* JSON text for eng_check_spec.e2e (malloc'd). */
char *eng_e2e_json(const struct eng_e2e *e);

/* The check's check name: "score:lm-eval:gsm8k", "score:sglang", "score:regex". */
void eng_e2e_check_name(const struct eng_e2e *e, char *out, size_t n);

/* Worker side: runs the check spec s (s->e2e set). ready() is called just before the command
 * starts, so the run's time limit covers the command; a command that outlives it is stopped
 * by the watchdog with the worker, and the check is a hang. */
void eng_e2e_run(const struct eng_check_spec *s, void (*ready)(void *), void *arg,
                 struct eng_check_result *out);

/* Parent side, for a check the watchdog stopped: "; its last lines: ...; output kept in LOG"
 * from the log the worker was writing, or "" when there is none. */
void eng_e2e_hang_note(const struct eng_check_spec *s, char *out, size_t n);

#endif
