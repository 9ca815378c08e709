/* kladder's C API (build/libkladder.so): the ladder for an op that is not a kernel of kladder's
 * dialect (a torch op, a Triton kernel, a numpy function), run by the caller's own language.
 *
 * The library is the engine and the results database the kladder binary runs on: an op is
 * described like a suite manifest (docs/engine.md) and parsed by the same parser, its checks are
 * planned by the same rung planners, each check's buffers are allocated with the same guards and
 * sentinels and filled by the same generators, outputs are judged by the same oracles on the
 * device, and the run and its checks are recorded in the same database (the TUI's Runs view,
 * `kladder export`, `pull` and `compare` show them). Only the launch is the caller's: where a
 * check would launch the kernel under test or its reference, it calls the caller's function.
 *
 * Conventions. Handles are opaque. A function that can fail returns -1 (or NULL) and leaves a
 * message naming the field or the value at fault in kl_error(), per thread. Strings returned
 * are owned by the handle they came from and live as long as it (or until the next call that
 * changes it). Every call on one handle is from one thread. A hang of the caller's op is not
 * watched: it runs in the caller's process (docs/python.md).
 *
 * Versioning: KLADDER_API_VERSION grows when a function is added (never changed or removed
 * within a major number); kl_api_version() is the library's, for a binding to compare. */
#ifndef KLADDER_H
#define KLADDER_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

#define KLADDER_API_VERSION 1

typedef struct kl_db kl_db;     /* a results database */
typedef struct kl_op kl_op;     /* an op's description and, once planned, its checks */
typedef struct kl_run kl_run;   /* one recorded run of an op's checks */
typedef struct kl_call kl_call; /* one launch of the op or its reference, inside a check */

int kl_api_version(void);
/* The library's version and commit ("0.1.0 (abc123def456)"). */
const char *kl_version(void);
/* The last error of this thread ("" when none). */
const char *kl_error(void);

/* ---- the database -------------------------------------------------------------------------- */

/* Opens (creating where missing) the database at path; NULL: kladder's default database
 * ($XDG_DATA_HOME/kladder/kladder.db), the one the TUI opens. */
kl_db *kl_db_open(const char *path);
void kl_db_close(kl_db *db);

/* ---- describing an op ---------------------------------------------------------------------- */

/* A new op named name (letters, digits, '-' and '_'): its runs are recorded under "py:NAME". */
kl_op *kl_op_new(const char *name);
void kl_op_free(kl_op *op);
/* A named parameter and its default value (integral values are sizes, e.g. "M" = 128). */
int kl_op_param(kl_op *op, const char *name, double value);
/* A buffer: dtype "f32" "bf16" "fp8e4m3" "i32" "u32" "i64" "u8"; role "input" or "output";
 * dims are expressions over the parameters ("M", "ceil(N, 64)"), outermost first. */
int kl_op_buffer(kl_op *op, const char *name, const char *dtype, const char *role,
                 const char *const *dims, size_t ndims);
/* One more field of buffer `buffer`, as JSON text, named as in a suite manifest's buffers:
 * "init" ("normal", "uniform", "iota", a value class...), "pad_to", an output's value rules
 * "ties", "ties_in", "nan" and its contract "reduce", "kind", "acc", "domain", "nonfinite",
 * "nan_pick" (docs/engine.md, "Contracts, bounds and doubt"). */
int kl_op_buffer_set(kl_op *op, const char *buffer, const char *key, const char *json);
/* The elementwise tolerance of the reference oracle: |x - ref| <= abs + rel * |ref|. */
int kl_op_tolerance(kl_op *op, double abs, double rel);
/* One more top-level field of the op's manifest as JSON text: "tiles" ({"BLOCK": [64, 128]}),
 * "tuned", "baseline" (the shapes rung 2's classes run at; default: the parameters'
 * defaults). */
int kl_op_set(kl_op *op, const char *field, const char *json);
/* The folder the files the settings name are read from (rung 2's captures: "inputs"); by
 * default the working directory. */
int kl_op_files(kl_op *op, const char *dir);
/* Declares rung `rung` with its settings (JSON text of the manifest's "rungs"."N", NULL: {}). */
int kl_op_rung(kl_op *op, int rung, const char *settings_json);

/* NULL when an op of the caller's can have rung `rung`; else why not (a sentence, valid until
 * the next call). */
const char *kl_rung_unavailable(int rung);

/* ---- planning -------------------------------------------------------------------------------- */

/* Validates the description and plans the checks of the declared rungs in the order given, on
 * backend ("cpu", "cuda", "hip") device 0, values generated from seed. Replaces an earlier plan
 * (refused while a run of the op is open). Returns the number of checks, or -1. */
int kl_op_plan(kl_op *op, const int *rungs, size_t nrungs, const char *backend,
               unsigned long long seed);
size_t kl_op_checks(const kl_op *op);
/* Check i: its name ("tail-N65-BLOCK64", "ties", "repeat-default"), its rung, the value class
 * its float inputs get (NULL: each buffer's own init; "replay;x=@FILE#TENSOR...": captures). */
const char *kl_check_name(const kl_op *op, size_t i);
int kl_check_rung(const kl_op *op, size_t i);
const char *kl_check_values(const kl_op *op, size_t i);

/* ---- running and recording ------------------------------------------------------------------- */

/* Starts a run of op's planned checks in db (recorded as running); argv: the command that ran
 * it, recorded with the run (NULL: none). The op and db outlive the run. */
kl_run *kl_run_begin(kl_db *db, kl_op *op, const char *argv);
/* The run's id, as `kladder results` and the Runs view show it. */
const char *kl_run_id(const kl_run *run);

/* The caller's launch: the op under test (reference 0) or its reference (reference 1) on the
 * buffers of call, done on the device when it returns. 0, or nonzero after kl_call_fail. */
typedef int (*kl_launch_fn)(void *user, int reference, kl_call *call);

/* Runs check i: allocates its buffers between guards, fills its inputs, sets its outputs to the
 * sentinel, calls launch (once for the reference, once or more for the op: rung 5 repeats it),
 * judges the outputs and records the check. Returns its verdict (kl_check_verdict's), or -1. */
int kl_run_check(kl_run *run, size_t i, kl_launch_fn launch, void *user);
/* What check i came to, once run: verdict "pass" "fail" "doubt" "error" "skip"; the oracle
 * that decided; the shape ("M=4,N=65"); a sentence naming the first bad element; the first bad
 * flat index (-1 none). */
const char *kl_check_verdict(const kl_run *run, size_t i);
const char *kl_check_oracle(const kl_run *run, size_t i);
const char *kl_check_shape(const kl_run *run, size_t i);
const char *kl_check_detail(const kl_run *run, size_t i);
long long kl_check_first_bad(const kl_run *run, size_t i);
/* Ends the run: its verdict over the checks that ran, recorded with its end time. Returns 0
 * when every check met its expectation, 3 when nothing failed but some check is in doubt (the
 * verdict "doubt"), 1 otherwise, -1 on error; *verdict (may be NULL) gets the run's verdict. */
int kl_run_end(kl_run *run, const char **verdict);
void kl_run_free(kl_run *run);

/* ---- inside a launch ------------------------------------------------------------------------- */

size_t kl_call_buffers(const kl_call *call);
const char *kl_call_buffer_name(const kl_call *call, size_t b);
const char *kl_call_buffer_dtype(const kl_call *call, size_t b);
/* 1 for an output, 0 for an input. */
int kl_call_is_output(const kl_call *call, size_t b);
/* The buffer's device address (a host address on the cpu backend); its element n is at
 * data + n * element size over the padded dims (the logical dims are a view of them). */
void *kl_call_data(const kl_call *call, size_t b);
size_t kl_call_ndims(const kl_call *call, size_t b);
long long kl_call_dim(const kl_call *call, size_t b, size_t d);
long long kl_call_padded_dim(const kl_call *call, size_t b, size_t d);
/* A parameter's value at this check's shape; -1 when the op has no such parameter. */
int kl_call_param(const kl_call *call, const char *name, double *value);
/* The check this launch belongs to. */
const char *kl_call_check(const kl_call *call);
/* Says why the launch failed (the check then reports an error naming it). */
void kl_call_fail(kl_call *call, const char *message);

#ifdef __cplusplus
}
#endif

#endif
