/* The device check: the parts that rung files build their execution modes from (engine/rung.h).
 *
 * A check runs one suite variant (or its reference-only baseline) at one or more shapes. Every
 * buffer is allocated at its padded size between two guard regions; outputs (and their guards)
 * start as the dtype's sentinel, the reference writes into its own copies prepared the same way,
 * and the oracles in kernels/util.kl compare on the device; only a few result words come back.
 *
 * Functions return 0, or -1 with the runtime's message in e->err; oracles record what they find
 * in e->detail and set e->failed. A mode returns 0 (the verdict is e->failed), 1 (skipped, the
 * reason in e->detail) or -1 (an error). One thread uses an eng_exec. */
#ifndef KL_ENGINE_EXEC_H
#define KL_ENGINE_EXEC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "engine/backend/backend.h"
#include "engine/check.h"
#include "engine/exec_sample.h"
#include "engine/manifest.h"

#define ENG_GUARD_BYTES ((uint64_t)4096)
#define ENG_RES_WORDS 64 /* result words of the utility kernels; see kernels/util.kl */

struct eng_bufi {
    eng_dptr base, data;
    uint64_t alloc, padded_bytes, elems, padded_elems;
    bool shared_with_var; /* a reference copy that is the variant's buffer (inputs) */
    /* an input filled only in rows [row_first, row_first + row_count) of its first dimension
     * (a rung's declared row sample): the rest is reserved, unbacked, and reads as zero */
    bool rows_only;
    uint64_t row_first, row_count, row_elems;
};

struct eng_inst {
    struct eng_values v;
    struct eng_bufi *var, *ref;
    unsigned grid[3], block[3], shared, rgrid[3], rblock[3], rshared;
    uint64_t (*vals_var)[2], (*vals_ref)[2]; /* scalar argument storage (16 bytes each) */
    void **args_var, **args_ref;
    char *desc;
    bool allocated;
    bool borrowed;   /* its buffers are another instance's (freed with that one) */
    /* Beyond the backend's reach and allowed by the rung: only the sampled blocks run, and the
     * output's fills and oracles cover only their tiles (engine/exec_sample.h). */
    bool sampled;
    struct eng_sample sample;
    bool rows_sampled;   /* some input is filled only in declared rows (eng_bufi.rows_only) */
};

struct eng_prebuilt;

struct eng_exec {
    const struct eng_check_spec *s;
    const struct eng_backend *B;
    struct eng_ctx *ctx;
    struct eng_device_info info;
    const struct eng_manifest *m; /* the check's suite: the worker's (parsed once) or the host
                                   * op's caller's; never freed here */
    struct eng_module *mod, *umod;
    struct eng_prebuilt *pre;   /* the suite's prebuilt GPU binary (engine/prebuilt.h), or NULL */
    const void *mod_code; /* the suite module's code as compiled (the session's), or NULL */
    size_t mod_code_len;
    struct eng_kernel *kvar, *kref, *kfill, *kpat, *kchk, *kcmp, *kbit, *khash, *khrefill,
        *khcheck, *kcopy, *kdelay, *kties, *knan, *kprop, *kunw, *kabsmax, *kbound,
        *kbfail;
    eng_dptr res;
    eng_dptr lag_async; /* a GPU lag build's queues of async copies (kernels/kl.h), or 0 */
    unsigned ugrid, ublock;
    char target[80];            /* the compile target */
    char err[1024];
    struct eng_check_result *out;
    void (*ready)(void *);      /* said once, before the first kernel of the check */
    void *ready_arg;
    /* A shape-specialised source (the manifest's "specialize") that did not compile: the shape
     * ("N=513,K=256") and the compiler's first error line; the check fails with them. */
    char spec_shape[200];
    /* Also the first error of a source compiled whole, at its line in the kernel file
     * (engine/compile/compile_error.h), two lines. */
    char compile_error[640];
    /* compile_error holds no compiler's word but a setup error found before compiling or after
     * (a source that cannot be read or prepared, an entry point that is no kernel, arguments
     * the kernel does not take): told as it is, not as "does not compile" */
    bool setup_error;
    /* detail accumulation */
    char detail[1536];
    bool failed;
    bool doubt;     /* an oracle is in doubt (engine/exec/exec_contract.c): the verdict when nothing failed */
    /* Per buffer: the inputs made on the host (value classes), as last uploaded, so that a
     * finding can say what the input held where the output went wrong. NULL: made on the device. */
    void **host_in;
    size_t *host_in_len; /* their sizes */
    /* The op on the host's side, or NULL for the suite's kernels; m is then the caller's. */
    const struct eng_host_op *host;
    bool prefetched; /* the next check's inputs started (eng_exec_prefetch_next) */
};

/* An op that runs on the host's side instead of a compiled kernel (the library's callers,
 * engine/api/kladder.h): the check plans, allocates, fills and judges as for a kernel, and where
 * it would launch the variant or the reference it calls launch instead. ptrs holds every
 * buffer's data pointer in manifest order, as the launch's arguments hold them (a rung may point
 * an output at a copy of its own); the op must have finished its work on the device when launch
 * returns. 0, or -1 with a message in err. */
struct eng_host_op {
    int (*launch)(void *arg, bool reference, const struct eng_exec *e, const struct eng_inst *in,
                  const eng_dptr *ptrs, char *err, size_t errlen);
    void *arg;
    /* The check the run means to run after this one (same op, same manifest), or NULL: its
     * inputs may be made on the host while this one runs (engine/session/input_prefetch.h). */
    const struct eng_check_spec *next;
};

struct eng_timer {
    struct eng_event *a, *b;
    double *samples;
    size_t n, cap;
};

/* How outputs start: the sentinel (the oracles check it), zeros (the plain unit test), garbage
 * (a reused buffer). */
enum eng_out_style { ENG_OUT_SENTINEL, ENG_OUT_ZEROS, ENG_OUT_GARBAGE };

void eng_exec_note(struct eng_exec *e, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* A utility kernel over `work` items on stream s (NULL: the default stream). */
int eng_exec_ulaunch(struct eng_exec *e, struct eng_kernel *k, uint64_t work, struct eng_stream *s,
                     void **args);
int eng_exec_res_clear(struct eng_exec *e, struct eng_stream *s);
int eng_exec_res_read(struct eng_exec *e, uint64_t *r, struct eng_stream *s);
int eng_exec_sync_all(struct eng_exec *e, struct eng_stream *s);

/* Buffers and arguments of an instance (one shape) planned by the check. */
int eng_exec_inst_alloc(struct eng_exec *e, struct eng_inst *in);
int eng_exec_inst_args(struct eng_exec *e, struct eng_inst *in);

/* Inputs from the manifest's generators (garbage: garbage instead). */
int eng_exec_fill_inputs(struct eng_exec *e, struct eng_inst *in, struct eng_stream *s, bool garbage);
/* which: 1 the variant's outputs, 2 the reference's, 3 both. */
int eng_exec_prepare_outputs_of(struct eng_exec *e, struct eng_inst *in, enum eng_out_style style,
                                int which, struct eng_stream *s);
int eng_exec_prepare_outputs(struct eng_exec *e, struct eng_inst *in, enum eng_out_style style,
                             struct eng_stream *s);
int eng_exec_reset_scratch(struct eng_exec *e, struct eng_inst *in, int which, struct eng_stream *s);
int eng_exec_guards_scratch(struct eng_exec *e, struct eng_inst *in, struct eng_stream *s);
int eng_exec_launch_var(struct eng_exec *e, struct eng_inst *in, struct eng_stream *s);
int eng_exec_launch_ref(struct eng_exec *e, struct eng_inst *in, struct eng_stream *s);

/* Buffer b's rows at this instance: the logical and the padded length of its last dimension. */
void eng_exec_rows(const struct eng_exec *e, const struct eng_inst *in, size_t b, uint64_t *len,
                   uint64_t *stride);
/* True when every float input is finite: made on the host and looked at, or made on the device
 * by a generator of finite values only. */
bool eng_exec_inputs_finite(const struct eng_exec *e, const struct eng_inst *in);
/* "[3, 0]; input x there is 0": element flat (padded) of buffer b, and what the inputs made on
 * the host held there (engine/values/value_class.h). */
void eng_exec_where(const struct eng_exec *e, const struct eng_inst *in, size_t b, uint64_t flat,
                    char *out, size_t n);

void eng_exec_record_bad(struct eng_exec *e, int64_t first, int64_t count, double maxerr);
/* The reference, sentinel and finite oracles over every output (full: the guards too); prefix
 * starts each finding ("replay 2 of 3"). */
int eng_exec_oracle(struct eng_exec *e, struct eng_inst *in, bool full, const char *prefix,
                    struct eng_stream *s);
/* *ok is false when an output changed between a capture and its first replay. */
int eng_exec_still_sentinel(struct eng_exec *e, struct eng_inst *in, struct eng_stream *s, bool *ok);

/* Kernel time from events, per launch of the interval (per launches in it). */
void eng_exec_timer_start(struct eng_exec *e, struct eng_timer *t, struct eng_stream *s);
void eng_exec_timer_stop(struct eng_exec *e, struct eng_timer *t, struct eng_stream *s, int per);

/* Everything is compiled and allocated: the watchdog's limit for the check starts now. Once. */
void eng_exec_ready(struct eng_exec *e);

/* The plain mode: one shape, one launch on the default stream, checked. */
int eng_exec_mode_plain(struct eng_exec *e, struct eng_inst *in, struct eng_timer *t,
                        enum eng_out_style style, bool full, const char *prefix);

/* Runs a check of a rung whose checks are device checks (rung->execute runs its modes), of
 * suite m (the caller's, kept). The worker side of eng_check_run. */
void eng_exec_check(const struct eng_check_spec *s, const struct eng_manifest *m,
                    void (*ready)(void *), void *arg, struct eng_check_result *out);

/* Frees input i's host copy (e->host_in), or keeps it for the next check of an op on the
 * host's side (engine/session/session.h). */
void eng_exec_host_in_drop(struct eng_exec *e, size_t i);

/* eng_exec_check for an op on the host's side: m is the caller's (kept), no source is compiled,
 * the utility kernels judge as usual. */
void eng_exec_check_host(const struct eng_check_spec *s, struct eng_manifest *m,
                         const struct eng_host_op *op, struct eng_check_result *out);

#define ENG_TRY(call)                                                                           \
    do {                                                                                        \
        if ((call) != 0)                                                                        \
            return -1;                                                                          \
    } while (0)

#endif
