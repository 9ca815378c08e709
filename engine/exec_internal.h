/* PRIVATE to the device check's own files (engine/exec*.c); rungs and everything else use
 * engine/exec.h. These are the seams between those files: planning and freeing an instance,
 * the timer's life, where a finding lies, and the check's setup and teardown. The conventions
 * are engine/exec.h's: 0, or -1 with the message in e->err. */
#ifndef KL_ENGINE_EXEC_INTERNAL_H
#define KL_ENGINE_EXEC_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

#include "engine/exec.h"

/* ---- engine/exec_inst.c ----------------------------------------------------------------- */

/* Sizes, geometry and the backend's reach for one shape. 0, 1 (skip: the reason in e->detail)
 * or -1. */
int eng_exec_inst_plan(struct eng_exec *e, struct eng_inst *in, const struct eng_shape *shape);
/* Its buffers (unless borrowed), arguments and values; zeroes it. */
void eng_exec_inst_free(struct eng_exec *e, struct eng_inst *in);

/* ---- engine/exec_timing.c --------------------------------------------------------------- */

/* Events where the backend has them (else the timer records nothing). */
void eng_exec_timer_init(struct eng_exec *e, struct eng_timer *t);
/* The samples' min, median and max into the result; frees the timer. */
void eng_exec_timer_finish(struct eng_exec *e, struct eng_timer *t);

/* ---- engine/exec_where.c ---------------------------------------------------------------- */

/* "[3, 0]": element flat (padded) of buffer b as coordinates of its padded shape. */
void eng_exec_coords(const struct eng_exec *e, const struct eng_inst *in, size_t b, uint64_t flat,
                     char *out, size_t n);
/* "; input x there is 0": what the inputs made on the host held at element flat of output b;
 * empty when none was. */
void eng_exec_inputs_at(const struct eng_exec *e, const struct eng_inst *in, size_t b,
                        uint64_t flat, char *out, size_t n);

/* ---- engine/exec_setup.c ---------------------------------------------------------------- */

/* Backend, context, manifest, the compiled (or prebuilt) kernels, the utility kernels and the
 * result words. On a shape-specialised source that does not compile, e->compile_error says why. */
int eng_exec_setup(struct eng_exec *e);
/* Only the suite's module of e->s: backend, context, manifest and the compiled source, for a
 * run to learn before its first check that the source does not compile (e->compile_error then
 * says where). 0, 1 when there is no one source to build (a prebuilt code object, a source
 * compiled per shape), or -1 (e->err). */
int eng_exec_build(struct eng_exec *e);
/* Gives back what eng_exec_setup (or eng_exec_build) took (what it got to), and the inputs kept on the host. */
void eng_exec_teardown(struct eng_exec *e);

#endif
