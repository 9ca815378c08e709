/* Suite manifests (kernels/suites/NAME.json): what a kernel computes and how the rungs drive it.
 * docs/engine.md documents the format for people writing one; this header is its contract.
 *
 *   {"format": "kladder-suite", "version": 1,
 *    "name": "flydsl-1199", "case": "flydsl-1199", "title_en": "...", "title_zh": "...",
 *    "source": "flydsl_1199.kl",                      kernel file (beside kernels/ or the manifest)
 *    "code_object": "saxpy.hsaco",                    optional: a prebuilt code object beside the
 *                                                     manifest (AMDGPU code object, offload bundle,
 *                                                     cubin or PTX) run instead of compiling the
 *                                                     source; "source" is then optional
 *    "variants": {"fixed": ENTRY, "buggy": ENTRY},    entry points; "fixed" is required
 *    "reference": ENTRY,                              slow obviously-correct kernel, same args
 *    "reference_launch": LAUNCH,                      optional; default "launch"
 *    "params": {"M": 128, "eps": 1e-6},               defaults; numbers (integers unless only an
 *                                                     f32 argument uses them)
 *    "tiles": {"tile_k": [64, 128, 256]},             accepted values per tile parameter
 *    "tuned": [{"M": 128, "K": 512, "tile_k": 256}],  shapes with a tuned entry
 *    "specialize": ["N", "K"],                        optional: parameters the source is compiled
 *                                                     for, one kernel per shape (see below)
 *    "buffers": [{"name": "C", "dtype": "f32", "shape": ["M", "N"], "role": "output",
 *                 "init": "normal", "pad_to": {"M": 256}}],
 *    "args": ["C", "A", "M", "eps"],                  buffer names -> device pointers; anything
 *                                                     else is an expression -> a scalar
 *    "arg_types": {"M": "i32", "eps": "f32"},         i32 (default) u32 i64 u64 f32, bool and
 *                                                     u8 (one byte: a bool, an enum over uint8_t)
 *    "launch": {"block": [256, 1, 1], "grid": ["ceil(N, 64)", "M", 1], "shared_bytes": 0},
 *    "tolerance": {"abs": 0.01, "rel": 0.01},
 *    "baseline": [{"M": 128, "N": 128, "K": 512}],    the plain unit test's shapes
 *    "variant_options": {"buggy": {"event": false, "scratch_reset": "once"}},
 *    "rungs": {"1": {...}, "4": {...}, "5": {...}},   the rungs it supports, each with its
 *                                                     settings (engine/rung.h)
 *    "control": true,                                 optional: every variant is correct, so
 *                                                     any failure is a false alarm of the
 *                                                     harness (a user checks their setup)
 *    "expect_caught": true}                           optional: each rung it lists must catch
 *                                                     the buggy variant, as a reproducer's
 *                                                     must (without it the run only says which
 *                                                     rungs did)
 *
 * Loading validates everything a run will need (names, dtypes, expressions, entry points are
 * identifiers; for a manifest loaded from a file, that its source file is there) and reports the
 * first problem as "FILE: FIELD: expected WHAT, got WHAT". */
#ifndef KL_ENGINE_MANIFEST_H
#define KL_ENGINE_MANIFEST_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "engine/values/contract.h"
#include "engine/values/dtype.h"

enum eng_role { ENG_ROLE_INPUT, ENG_ROLE_OUTPUT, ENG_ROLE_SCRATCH };
/* Codes shared with kernels/util.kl (kl_util_fill). From ENG_INIT_CLASS on, the value class
 * init - ENG_INIT_CLASS (engine/values/value_class.h), generated on the host. */
enum eng_init { ENG_INIT_NORMAL, ENG_INIT_UNIFORM, ENG_INIT_ZEROS, ENG_INIT_ONES, ENG_INIT_IOTA,
                ENG_INIT_GARBAGE, ENG_INIT_CLASS };
enum eng_argtype { ENG_ARG_I32, ENG_ARG_U32, ENG_ARG_I64, ENG_ARG_U64, ENG_ARG_F32, ENG_ARG_BOOL,
                   ENG_ARG_U8, ENG_ARG_PTR };

/* The init a manifest spells s ("ones", "peaked"), or -1. */
int eng_init_find(const char *s);

/* A partial assignment of parameters: a shape, a tuned entry, a "with" override. */
struct eng_shape {
    char *name;      /* "k640" for named extra shapes; NULL otherwise */
    size_t n;
    char **keys;
    int64_t *values;
};

/* Deep copy of a shape; freeing one (or an array of n, and the array). */
void eng_shape_copy(struct eng_shape *dst, const struct eng_shape *src);
void eng_shape_free(struct eng_shape *s);
void eng_shapes_free(struct eng_shape *s, size_t n);

struct eng_param {
    char *name;
    double value;
    bool integral;
};

struct eng_tile {
    char *param;
    size_t n;
    int64_t *values;
};

struct eng_buffer_spec {
    char *name;
    enum eng_dtype dtype;
    size_t ndims;
    char **dims;     /* expressions */
    char **pad_to;   /* per dim: expression of the multiple to pad to, or NULL */
    enum eng_role role;
    enum eng_init init;
    /* An output whose kernel reads it: "role": "inout" (inout, filled like an input from init,
     * default normal) or an output with an "init" of its own (the host zeroes it before an
     * atomic accumulation). prefilled: on every rung, the variant's and the reference's copies
     * start from the same init values instead of the sentinel; both are judged as outputs. */
    bool inout;
    bool prefilled;
    /* Outputs' value rules (docs/engine.md, "Oracles that know values"). ties_any: an index
     * output may pick any element of the tied set of input ties_in (the buffer whose values
     * decide, row for row); otherwise it must equal the reference's (lowest index wins).
     * nan_never: NaN from finite inputs fails even where the reference has NaN too. */
    bool ties_any;
    int ties_in;
    bool nan_never;
    /* What the op promises about this output (engine/values/contract.h); outputs only. */
    struct eng_out_contract contract;
};

struct eng_arg {
    char *expr;      /* a buffer name or an expression */
    int buffer;      /* index into buffers, or -1 for a scalar */
    enum eng_argtype type;
};

struct eng_launch {
    char *grid[3];
    char *block[3];
    char *shared;    /* expression of dynamic shared bytes */
};

/* Host-side behaviour of a variant (what the library around the kernel does). */
struct eng_variant_opts {
    bool event;          /* record an event between producer and consumer streams (true) */
    bool scratch_once;   /* scratch buffers are reset once before a graph capture, outside it,
                          * instead of before every launch (false) */
};

/* Room in a suite's per-rung tables for rungs numbered 1 to ENG_RUNG_SLOTS - 1. It is a
 * capacity, not the ladder: which rungs exist, and how many, is the rung table's to say
 * (engine/rung.h, eng_rung_top). */
#define ENG_RUNG_SLOTS 16
/* The most arguments a kernel may be given ("args", "reference_args"): CUDA's parameter space
 * (4 KiB, larger since CUDA 12.1) holds as many one-byte parameters, and the cpu backend's
 * signature record as many (kernels/kl.h's KL_CPU_MAX_ARGS). */
#define ENG_MAX_KERNEL_ARGS 4096

struct eng_manifest {
    char *path;        /* where it came from, for messages ("kernels/suites/x.json") */
    char *dir;         /* folder for the source, or NULL for the embedded kernels/ */
    bool builtin;      /* loaded by name: a reproducer of kladder's own, which a user does not
                        * edit, so advice on how to write the source is not for them */
    char *name, *case_id, *title_en, *title_zh;
    char *source;      /* NULL only beside a code_object: there is nothing to rebuild */
    char *code_object; /* "code_object" resolved beside the manifest (engine/prebuilt.h), or NULL */
    /* "include_dirs": folders a plain source's includes are also looked up in, as a build
     * line's -I (each as written, for messages, and where it is read from: inside the suite's
     * folder for a manifest's); "defines": "NAME" or "NAME=VALUE", as -D */
    char **include_dirs, **include_roots;
    size_t ninclude_dirs;
    char **defines;
    size_t ndefines;
    char *entry_fixed, *entry_buggy, *entry_reference; /* buggy may be NULL */
    size_t nparams;
    struct eng_param *params;
    size_t ntiles;
    struct eng_tile *tiles;
    size_t ntuned;
    struct eng_shape *tuned;
    /* "specialize": ["N", "K"]: parameters the kernel source is compiled for, as a JIT library
     * compiles one kernel per shape: each check's source starts with #define KL_SPEC_N <value>
     * (its shape's, else the default) and #define KL_VARIANT_FIXED or KL_VARIANT_BUGGY, and a
     * source that does not compile for a shape fails that check, naming the shape. */
    size_t nspecialize;
    char **specialize;
    size_t nbuffers;
    struct eng_buffer_spec *buffers;
    size_t nargs; /* at most ENG_MAX_KERNEL_ARGS */
    struct eng_arg *args;
    /* "reference_args": the reference kernel's own arguments, where its signature is not the
     * variants' (a file's naive kernel often takes a dimension its tiled one does not). Without
     * it, the same array as args (freed once). eng_manifest_args picks the list of a side. */
    size_t nref_args;
    struct eng_arg *ref_args;
    struct eng_launch launch, ref_launch;
    double tol_abs, tol_rel;
    size_t nbaseline;
    struct eng_shape *baseline;
    struct eng_variant_opts opt_fixed, opt_buggy;
    bool has_rung[ENG_RUNG_SLOTS];  /* the rungs the suite declares (engine/rung.h) */
    bool control;      /* "control": both variants are correct; a failure is a false alarm */
    bool expect_caught; /* "expect_caught": each listed rung must catch the buggy variant */
    void *settings[ENG_RUNG_SLOTS]; /* each declared rung's settings, the rung's own type
                                     * (NULL: none) */
    /* Never from a file: set by `kladder exec` (engine/prog/prog.h). A plain source's host code
     * is to run: KL_EXEC is defined, kernels/kl_exec_rt.h follows kl_host.h, and a launch
     * `k<<<cfg>>>(args)` becomes a launch on the emulator instead of a plain call. */
    bool exec_host;
};

/* The arguments the variants (reference false) or the reference are launched with. */
static inline const struct eng_arg *eng_manifest_args(const struct eng_manifest *m, bool reference,
                                                      size_t *n)
{
    *n = reference ? m->nref_args : m->nargs;
    return reference ? m->ref_args : m->args;
}

/* Parses and validates manifest text. path names it in messages, dir is where its source
 * lives (NULL: embedded kernels/). Returns a manifest (free with eng_manifest_free) or NULL
 * with "PATH: FIELD: expected ..., got ..." in err. */
struct eng_manifest *eng_manifest_parse(const char *text, size_t len, const char *path,
                                        const char *dir, char *err, size_t errlen);

/* Loads a suite by name ("flydsl-1199": the embedded kernels/suites/flydsl-1199.json, or
 * kernels/suites/ under dir when dir is given) or by path (anything with a '/' or ending in
 * ".json": the file, with its source beside it). */
struct eng_manifest *eng_manifest_load(const char *name_or_path, const char *dir, char *err,
                                       size_t errlen);
/* Whether eng_manifest_load reads name_or_path as a path (true) or as a suite name. */
bool eng_manifest_names_path(const char *name_or_path);

/* Names of the embedded suites, sorted; malloc'd array of static strings, *n set. */
const char **eng_manifest_list(size_t *n);

/* True when a source from eng_manifest_source declares its accumulators kl_acc: its reference
 * can be built wide (the arbiter). */
bool eng_manifest_uses_acc(const char *source);
/* The source text of the manifest's kernel file (malloc'd) or NULL with a message. */
char *eng_manifest_source(const struct eng_manifest *m, char *err, size_t errlen);

/* A plain source with no manifest of its own (`kladder scan`, `kladder exec`): the file source
 * in folder dir, named path in messages, its build line's -I folders (from flags, a
 * NULL-terminated compiler option list, may be NULL) as include_dirs, the folders where the
 * source walk also looks an include up. Free with eng_manifest_free. */
struct eng_manifest *eng_manifest_plain(const char *path, const char *dir, const char *source,
                                        const char *const *flags);

void eng_manifest_free(struct eng_manifest *m);

/* ---- evaluating a manifest at one shape --------------------------------------------------- */

/* The names an expression may use for the variant's launch: grid.x grid.y grid.z block.x
 * block.y block.z shared_bytes (a parameter of the same name wins). eng_launch_name_index
 * gives a name's index, or -1. */
#define ENG_LAUNCH_NAMES 7
int eng_launch_name_index(const char *name, size_t len);

/* Every parameter's value at a shape: defaults overridden by the shape's keys (in order). */
struct eng_values {
    size_t n;
    char **names;      /* borrowed from the manifest / shapes */
    int64_t *ints;
    double *reals;
    /* The variant's launch at these values, for expressions other than "launch" itself (a
     * reference's arguments, a scratch buffer per block): grid.x/y/z, block.x/y/z and
     * shared_bytes (eng_launch_name_index). has_launch is false where "launch" does not evaluate
     * (its error is reported by eng_launch_eval). */
    bool has_launch;
    int64_t launch[ENG_LAUNCH_NAMES];
};
/* Builds values from the defaults and up to three overriding shapes (NULLs allowed). Returns -1
 * when a shape names an unknown parameter. */
int eng_values_make(const struct eng_manifest *m, const struct eng_shape *a,
                    const struct eng_shape *b, const struct eng_shape *c, struct eng_values *out,
                    char *err, size_t errlen);
void eng_values_free(struct eng_values *v);
int eng_values_eval(const struct eng_values *v, const char *expr, int64_t *out, char *err,
                    size_t errlen);
/* "M=128,N=128,K=640" for the shape's integral parameters. malloc'd. */
char *eng_values_describe(const struct eng_manifest *m, const struct eng_values *v);

/* A buffer's size at values: logical elements and padded (allocated) bytes. */
struct eng_buffer_size {
    uint64_t elems;        /* product of the logical dims */
    uint64_t padded_elems; /* product of the padded dims */
    uint64_t bytes, padded_bytes;
};
int eng_buffer_size(const struct eng_manifest *m, size_t buffer, const struct eng_values *v,
                    struct eng_buffer_size *out, char *err, size_t errlen);

/* Launch geometry at values (ref selects reference_launch). */
int eng_launch_eval(const struct eng_manifest *m, bool ref, const struct eng_values *v,
                    unsigned grid[3], unsigned block[3], unsigned *shared, char *err,
                    size_t errlen);

#endif
