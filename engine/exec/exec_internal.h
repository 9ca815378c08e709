/* PRIVATE to the device check's own files (engine/exec/exec*.c); rungs and everything else use
 * engine/exec.h. These are the seams between those files: planning and freeing an instance,
 * the timer's life, where a finding lies, and the check's setup and teardown. The conventions
 * are engine/exec.h's: 0, or -1 with the message in e->err. */
#ifndef KL_ENGINE_EXEC_INTERNAL_H
#define KL_ENGINE_EXEC_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

#include "engine/exec.h"

/* ---- engine/exec/exec_inst.c ----------------------------------------------------------------- */

/* Sizes, geometry and the backend's reach for one shape. 0, 1 (skip: the reason in e->detail)
 * or -1. */
int eng_exec_inst_plan(struct eng_exec *e, struct eng_inst *in, const struct eng_shape *shape);
/* Its buffers (unless borrowed), arguments and values; zeroes it. */
void eng_exec_inst_free(struct eng_exec *e, struct eng_inst *in);

/* ---- engine/exec/exec_buffers.c, engine/exec/exec_prefetch.c ------------------------------------- */

/* A captured tensor for an input (engine/exec/replay.h). */
#define ENG_EXEC_INIT_REPLAY (-2)
/* The init buffer i gets: the check's override for it ("CLASS;V=ones", or a captured tensor
 * "replay;V=@FILE#TENSOR": ENG_EXEC_INIT_REPLAY, *ref its reference), else the check's class
 * for a float input (ENG_INIT_CLASS + the class; "replay" names none), else its manifest init.
 * -1 with e->err when the check names something unknown. */
int eng_exec_input_init(struct eng_exec *e, size_t i, const char **ref);
/* The seed of buffer i's values in this check. */
uint64_t eng_exec_buffer_seed(const struct eng_exec *e, size_t i);
/* eng_exec_fill_inputs less the next check's fill made ahead: the inputs of this check only
 * (engine/exec/exec_buffers.c). eng_exec_fill_inputs (engine/exec/exec_prefetch.c) calls it, then, for an
 * op on the host's side whose run names the next check (eng_host_op.next), on a GPU, plans that
 * check's inputs of a value class and starts them in the background (engine/session/input_prefetch.h):
 * once per check; nothing on the cpu backend or for the suite's kernels. */
int eng_exec_make_inputs(struct eng_exec *e, struct eng_inst *in, struct eng_stream *s, bool garbage);

/* ---- engine/exec/exec_timing.c --------------------------------------------------------------- */

/* Events where the backend has them (else the timer records nothing). */
void eng_exec_timer_init(struct eng_exec *e, struct eng_timer *t);
/* The samples' min, median and max into the result; frees the timer. */
void eng_exec_timer_finish(struct eng_exec *e, struct eng_timer *t);

/* ---- engine/exec/exec_where.c ---------------------------------------------------------------- */

/* "[3, 0]": element flat (padded) of buffer b as coordinates of its padded shape. */
void eng_exec_coords(const struct eng_exec *e, const struct eng_inst *in, size_t b, uint64_t flat,
                     char *out, size_t n);
/* "; input x there is 0": what the inputs made on the host held at element flat of output b;
 * empty when none was. */
void eng_exec_inputs_at(const struct eng_exec *e, const struct eng_inst *in, size_t b,
                        uint64_t flat, char *out, size_t n);

/* ---- engine/exec/exec_setup.c ---------------------------------------------------------------- */

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

/* ---- engine/exec/exec_contract.c, engine/exec/exec_arbiter.c ------------------------------------ */

/* What the contract judge of one check has read back: host copies of the outputs (raw bytes of
 * their padded extent, per buffer; NULL where not read) and the arbiter's outputs once run. */
struct eng_judge {
    void **var, **ref, **arb;
    bool arb_tried;          /* the arbiter was built and run, or found missing (arb_why) */
    char arb_why[320];
    /* the clean run's outputs (engine/exec/exec_clean.c): the variant's and the reference's on the
     * inputs with their special values replaced by 0; NULL where there is none (clean_why) */
    void **cvar, **cref;
    bool clean_tried;
    char clean_why[200];
};

/* What the device found of a failing output (eng_exec_judge_device): the host judge's fail tally
 * without an arbiter. count elements outside the bound, the first at flat index first; the
 * worst (the furthest past its bound, the first of equals) at index worst, where the kernel
 * gave kernel and the reference truth, the row's largest finite |reference| row_scale; of the
 * count, nonfinite are NaN/Inf where the reference is finite. */
struct eng_device_fail {
    uint64_t count, first, worst, nonfinite;
    double kernel, truth, row_scale;
};

/* The contract judge's first pass on the device (engine/exec/exec_judge_device.c) for float output b
 * (rows of stride elements, reduction length n), whose rows are all plain (no input row holds
 * NaN/Inf or a value past the domain) and whose bound has no cancellation term: 1 when every
 * element agrees with the reference within the bound of contract c (the output's effective
 * one: declared, or the default), so that the host judge would find
 * nothing and is not needed; 2 when some do not, fail is non-NULL and the check has no arbiter
 * (eng_exec_arbiter_absent, asked of j only then): the host judge's verdict is then its fail
 * tally, which *fail holds, nothing read back but the worst element; 0 when the host must
 * judge (some element does not agree and there may be an arbiter, or one sits within rounding
 * of its bound; the bound is not one the device evaluates; the cpu backend); -1 on a device
 * error. */
int eng_exec_judge_device(struct eng_exec *e, struct eng_inst *in, struct eng_judge *j, size_t b,
                          const struct eng_out_contract *c, double n, uint64_t rows,
                          uint64_t stride, struct eng_stream *s, struct eng_device_fail *fail);

/* Output b's copies (variant and reference) into j, once. 0 or -1. */
int eng_exec_judge_read(struct eng_exec *e, struct eng_inst *in, struct eng_judge *j, size_t b,
                        struct eng_stream *s);
/* The arbiter's outputs into j->arb: the suite's reference built with kl_acc as double
 * (-DKL_ARBITER=1) and run on the check's inputs; the reference's own outputs are put back on
 * the device afterwards. Where there is none (the source does not use kl_acc, a prebuilt code
 * object, the wide build does not compile), j->arb stays NULL and j->arb_why says why. Once
 * per check; 0 or -1 on a device error. */
int eng_exec_arbiter(struct eng_exec *e, struct eng_inst *in, struct eng_judge *j,
                     struct eng_stream *s);
/* Is it known without building anything that the check has no arbiter (the reference is the
 * caller's function, a prebuilt code object, a source without kl_acc)? Then j->arb_why says
 * why, as eng_exec_arbiter would. false where one was built or might be (or on an error). */
bool eng_exec_arbiter_absent(struct eng_exec *e, struct eng_judge *j);
/* Should output b be judged by its contract on the host (the device compare found w0 bad
 * elements; or its inputs hold values the contract speaks about)? */
bool eng_exec_judge_wanted(const struct eng_exec *e, const struct eng_inst *in, size_t b,
                           uint64_t w0);
/* Output b judged by its contract (engine/values/contract.h): fails, doubts or clears it, with the
 * kernel's error, the bound and the reference's error against the arbiter in the finding. */
int eng_exec_judge(struct eng_exec *e, struct eng_inst *in, struct eng_judge *j, size_t b,
                   const char *pre, struct eng_stream *s);
/* The clean run into j->cvar and j->cref: the variant and the reference once more, on the
 * check's inputs with every NaN, Inf and magnitude past domain replaced by 0; the device is
 * then put back as it was. None (clean_why says why) where an output starts from values of its
 * own or the inputs were not made on the host. Once per check; 0 or -1 on a device error. */
int eng_exec_clean_run(struct eng_exec *e, struct eng_inst *in, struct eng_judge *j, double domain,
                       struct eng_stream *s);
void eng_exec_judge_free(const struct eng_exec *e, struct eng_judge *j);

#endif
