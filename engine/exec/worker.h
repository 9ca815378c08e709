/* The worker side of a run: the process `kladder run --worker` starts (engine/exec/worker.c)
 * and the check entry points it calls (engine/exec/exec.c). The parent side, engine/runner.h,
 * reaches them only through the watchdog's pipe (engine/watchdog/watchdog.h), never by a call:
 * the core plans and judges, this room runs. */
#ifndef KL_ENGINE_EXEC_WORKER_H
#define KL_ENGINE_EXEC_WORKER_H

#include <stddef.h>

#include "engine/check.h"

/* The worker mode: reads one job from stdin, runs it, answers on stdout. Returns the exit
 * status for the worker process. */
int eng_worker_main(void);

/* Runs a check in this process (the worker side). ready() is called once everything is
 * compiled and allocated, just before the first kernel of the check runs: the watchdog's limit
 * starts there. Never returns early on a hang: the parent kills the process. */
void eng_check_run(const struct eng_check_spec *s, void (*ready)(void *), void *arg,
                   struct eng_check_result *out);

/* Compiles the suite source of check s for its target and nothing more (the worker side of a
 * run's build, before its first check): 0 when it compiles (the code stays with the worker's
 * session), -1 when the source does not compile, with why: "FILE does not compile for TARGET:"
 * and the compiler's first error at its line (engine/compile/compile_error.h); 1 when there is
 * nothing to judge here (a prebuilt code object, a source compiled per shape, a setup failure
 * that each check meets and reports on its own). */
int eng_check_build(const struct eng_check_spec *s, char *why, size_t whylen);

/* The worker's end: frees what eng_check_run and eng_check_build kept between checks (each
 * suite's manifest, parsed once per worker: engine/exec/suite_cache.h). */
void eng_check_worker_end(void);

#endif
