/* Setting up a device check: the backend and its context (the session's), the suite's
 * manifest, the kernels compiled for this target (or a prebuilt code object, its processor and
 * parameters checked), a lag build's async queues, the utility kernels and the result words;
 * and giving all of it back at the end. */
#include "engine/exec/exec_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/fileio.h"
#include "common/xalloc.h"
#include "engine/codeobj/gpu_binary.h"
#include "engine/compile/compile_error.h"
#include "engine/compile/compile_spec.h"
#include "engine/prebuilt.h"
#include "engine/codeobj/plain_entry.h"
#include "engine/codeobj/plain_name.h"
#include "engine/compile/plain_source.h"
#include "engine/session/session.h"
#define KL_ABI_ONLY /* the lag builds' async queue sizes */
#include "kernels/kl.h"

static int get_kernel(struct eng_exec *e, struct eng_module *mod, const char *name,
                      struct eng_kernel **k)
{
    return e->B->kernel_get(e->ctx, mod, name, k, e->err, sizeof e->err);
}

/* A variant or the reference: in a plain source, under the symbol its entry is exported as
 * (a template instance's name is no symbol). */
static int get_entry(struct eng_exec *e, const char *entry, struct eng_kernel **k)
{
    if (!eng_plain_is(e->m->source) || e->s->code_object)
        return get_kernel(e, e->mod, entry, k);
    char sym[512];
    eng_plain_symbol(entry, sym, sizeof sym);
    if (get_kernel(e, e->mod, sym, k) == 0)
        return 0;
    /* a GPU code object names a C++ kernel by its mangled symbol */
    char why[512] = "";
    if (!e->B->caps.emulated && e->mod_code &&
        eng_plain_mangled(e->mod_code, e->mod_code_len, entry, sym, sizeof sym, why, sizeof why) == 0 &&
        get_kernel(e, e->mod, sym, k) == 0)
        return 0;
    snprintf(e->err, sizeof e->err, "%s: kernel %s is not in the built %s (is it a __global__ "
             "function of that name?)%s%.400s", e->m->path, entry, e->m->source, why[0] ? ": " : "",
             why);
    return -1;
}

static int compile_load(struct eng_exec *e, const char *file, const char *src, struct eng_module **mod)
{
    const void *code;
    size_t len;
    char *log = xmalloc(16384);
    log[0] = '\0';
    /* A lag build (kernels/kl.h, KL_LAG, KL_LAG_MODE): the flags reach the compiler and the
     * cache key. */
    char lag[32];
    snprintf(lag, sizeof lag, "-DKL_LAG=%u", (unsigned)eng_lag_seed(e->s->lag));
    const char *const lag_flags[] = {lag, eng_lag_is_ahead(e->s->lag) ? "-DKL_LAG_MODE=1" : NULL,
                                     NULL};
    const char *const *flags = e->s->lag ? lag_flags : NULL;
    char **names = eng_plain_name_flags(e->m, e->B->caps.emulated, flags);
    if (names)
        flags = (const char *const *)names;
    int rc = eng_session_code(e->B, e->target, file, src, flags, &code, &len, log, 16384);
    for (size_t i = 0; names && names[i]; i++)
        free(names[i]);
    free(names);
    if (rc != 0) {
        /* A shape's failure is that shape's verdict (its first error line); the source's own
         * is told at the line of the kernel file it came from, once, not as the whole log. */
        if (e->spec_shape[0]) {
            eng_compile_first_error(log, e->compile_error, sizeof e->compile_error);
        } else {
            /* the excerpt comes from the file as written (a plain source's prepared text has
             * kladder's header in front) */
            char unread[8];
            char *as_written = eng_plain_is(file) ? eng_manifest_source(e->m, unread, sizeof unread)
                                                  : NULL;
            eng_compile_error_at(log, file, as_written ? as_written : src, e->compile_error,
                                 sizeof e->compile_error);
            free(as_written);
        }
        snprintf(e->err, sizeof e->err, "compiling %s%s for %s failed: %.*s", file,
                 !e->s->lag ? "" : eng_lag_is_ahead(e->s->lag) ? " (ahead build)" : " (lag build)",
                 e->target, (int)strcspn(e->compile_error, "\n"), e->compile_error);
        free(log);
        return -1;
    }
    free(log);
    e->mod_code = code;
    e->mod_code_len = len;
    return e->B->module_load(e->ctx, code, len, mod, e->err, sizeof e->err);
}

/* A lag build on a GPU lands async copies late from per-thread queues (kernels/kl.h, "Async
 * copies land late"): their buffer, zeroed, is handed to the module through
 * kl_lag_async_slots. A module without that variable (a code object built elsewhere without
 * -DKL_LAG) copies as usual. */
static int lag_async_setup(struct eng_exec *e)
{
    void *sym = NULL;
    char err[256];
    if (!e->s->lag || e->B->caps.emulated || !e->B->module_symbol ||
        e->B->module_symbol(e->ctx, e->mod, "kl_lag_async_slots", &sym, err, sizeof err) != 0)
        return 0;
    const size_t bytes = (size_t)KL_LAG_ASYNC_THREADS * KL_LAG_ASYNC_SLOT_BYTES;
    ENG_TRY(e->B->mem_alloc(e->ctx, bytes, &e->lag_async, e->err, sizeof e->err));
    ENG_TRY(e->B->memset_d8(e->ctx, e->lag_async, 0, bytes, NULL, e->err, sizeof e->err));
    const uint64_t at = (uint64_t)e->lag_async;
    ENG_TRY(e->B->memcpy_htod(e->ctx, (eng_dptr)(uintptr_t)sym, &at, sizeof at, NULL, e->err,
                              sizeof e->err));
    return e->B->stream_sync(e->ctx, NULL, e->err, sizeof e->err); /* before any kernel */
}

/* A code object built elsewhere (kladder compile --out on a machine with a compiler, or a
 * user's own .hsaco, offload bundle, cubin or PTX: the manifest's "code_object"), loaded as it
 * is, its entry points found by name and checked against the manifest (engine/prebuilt.h). The
 * emulator runs host code only: a GPU binary there is named as such, never handed to dlopen. */
static int prebuilt_load(struct eng_exec *e, const char *path, struct eng_module **mod)
{
    size_t len;
    char err[512];
    char *code = eng_code_object_read(e->m, path, &len, err, sizeof err);
    if (!code) {
        snprintf(e->err, sizeof e->err, "code object: %s", err);
        return -1;
    }
    const void *image = code;
    size_t image_len = len;
    if (gpu_binary_is(code, len)) { /* read once: the bytes are the binary's from here on */
        if (eng_prebuilt_refused_bytes(code, len, path, e->B, e->target, e->err,
                                       sizeof e->err) != 0) {
            free(code);
            return -1;
        }
        e->pre = xcalloc(1, sizeof *e->pre);
        int rc = eng_prebuilt_from(code, len, path, e->target, e->pre, e->err, sizeof e->err);
        code = NULL; /* taken */
        if (rc != 0)
            return -1;
        const struct gpu_binary *bin = &e->pre->bin;
        bool amd = bin->format == GPU_BIN_AMDGPU || bin->format == GPU_BIN_BUNDLE;
        if (amd && strcmp(bin->target, e->target) != 0) {
            snprintf(e->err, sizeof e->err, "code object %s is a %s code object; this run "
                     "compiles for %s", path, bin->target, e->target);
            return -1;
        }
        image = bin->image;
        image_len = bin->image_len;
    } /* else a host object of the cpu backend (kladder compile --backend cpu --out) */
    int rc = e->B->module_load(e->ctx, image, image_len, mod, e->err, sizeof e->err);
    free(code);
    if (rc != 0) {
        char why[sizeof e->err];
        snprintf(why, sizeof why, "%s", e->err);
        snprintf(e->err, sizeof e->err, "code object %s: %.900s", path, why);
    }
    return rc;
}

/* The entry point's symbol in a prebuilt GPU binary, checked against the manifest; the name
 * itself when the module is not one (a host object, a compiled source). */
static const char *entry_symbol(struct eng_exec *e, const char *field, const char *entry)
{
    if (!e->pre)
        return entry;
    const struct gpu_kernel_info *k = eng_prebuilt_entry(e->pre, e->m, field, entry,
                                                         e->info.wave_size, e->err, sizeof e->err);
    return k ? k->name : NULL;
}

/* A variant's or the reference's kernel: through the prebuilt binary's metadata where there is
 * one, else by its name in the built source (a plain source's C++ names included). */
static int find_entry(struct eng_exec *e, const char *field, const char *entry,
                      struct eng_kernel **k)
{
    if (!e->pre)
        return get_entry(e, entry, k);
    const char *sym = entry_symbol(e, field, entry);
    return sym ? get_kernel(e, e->mod, sym, k) : -1;
}

/* The manifest's "args" against the n parameter sizes the code object declares. */
static int check_param_sizes(struct eng_exec *e, const char *entry, bool reference,
                             const size_t *sizes, int n)
{
    const struct eng_manifest *m = e->m;
    size_t nargs;
    const struct eng_arg *args = eng_manifest_args(m, reference, &nargs);
    const char *field = reference && m->ref_args != m->args ? "reference_args" : "args";
    if ((size_t)n != nargs) {
        snprintf(e->err, sizeof e->err, "%s: kernel %s takes %d argument%s, the manifest's \"%s\" "
                 "gives %zu", m->path, entry, n, n == 1 ? "" : "s", field, nargs);
        return -1;
    }
    for (size_t i = 0; i < nargs; i++) {
        enum eng_argtype t = args[i].type;
        size_t want = t == ENG_ARG_BOOL || t == ENG_ARG_U8                     ? 1
                      : t == ENG_ARG_I32 || t == ENG_ARG_U32 || t == ENG_ARG_F32 ? 4
                                                                                 : 8;
        if (sizes[i] != want) {
            snprintf(e->err, sizeof e->err, "%s: kernel %s's argument %zu is %zu bytes, the "
                     "manifest's %s[%zu] (%s) is %zu", m->path, entry, i + 1, sizes[i], field, i,
                     args[i].expr, want);
            return -1;
        }
    }
    return 0;
}

/* The manifest's "args" against the parameters the code object declares, where the backend can
 * tell: a kernel that takes more or other arguments than it is given would read garbage (or
 * crash the worker) instead of naming the mismatch. A kernel may take thousands (CUDA's
 * parameter space), so the sizes are asked for twice: their count, then all of them. */
static int check_params(struct eng_exec *e, struct eng_kernel *k, const char *entry,
                        bool reference)
{
    if (!e->B->kernel_params)
        return 0;
    int n = e->B->kernel_params(k, NULL, 0);
    if (n < 0)
        return 0;
    size_t *sizes = xcalloc((size_t)n + 1, sizeof *sizes);
    n = e->B->kernel_params(k, sizes, n);
    int rc = check_param_sizes(e, entry, reference, sizes, n);
    free(sizes);
    return rc;
}

/* The kernels of kernels/util.kl the oracles and fills launch (found once per context). */
static int get_util_kernels(struct eng_exec *e)
{
    struct { const char *name; struct eng_kernel **k; } want[] = {
        {"kl_util_fill", &e->kfill},           {"kl_util_fill_pattern", &e->kpat},
        {"kl_util_check_pattern", &e->kchk},   {"kl_util_compare", &e->kcmp},
        {"kl_util_bitwise", &e->kbit},         {"kl_util_hash", &e->khash},
        {"kl_util_hash_refill", &e->khrefill}, {"kl_util_hash_check", &e->khcheck},
        {"kl_util_copy", &e->kcopy},           {"kl_util_delay", &e->kdelay},
        {"kl_util_ties", &e->kties},           {"kl_util_nan", &e->knan},
        {"kl_util_property", &e->kprop},       {"kl_util_unwritten", &e->kunw},
        {"kl_util_row_absmax", &e->kabsmax},   {"kl_util_bound", &e->kbound},
        {"kl_util_bound_fail", &e->kbfail},
    };
    for (size_t i = 0; i < sizeof want / sizeof want[0]; i++)
        ENG_TRY(eng_session_util_kernel(e->B, e->ctx, want[i].name, want[i].k, e->err,
                                        sizeof e->err));
    return 0;
}

/* The backend loaded, the device's facts, the session's context for it, and the target the
 * kernels compile for. */
static int open_backend(struct eng_exec *e)
{
    const struct eng_check_spec *s = e->s;
    e->B = eng_backend_find(s->backend);
    if (!e->B) {
        snprintf(e->err, sizeof e->err, "unknown backend '%s'", s->backend);
        return -1;
    }
    char why[512];
    if (e->B->load(why, sizeof why) != 0) {
        snprintf(e->err, sizeof e->err, "the %s backend is not available: %s", e->B->name, why);
        return -1;
    }
    ENG_TRY(eng_session_device_info(e->B, s->device, &e->info, e->err, sizeof e->err));
    struct eng_open_opts o = {.wave_size = s->wave, .schedule = s->schedule, .seed = s->seed};
    ENG_TRY(eng_session_get(e->B, s->device, &o, &e->ctx, e->err, sizeof e->err));
    e->B->compile_target(&e->info, s->wave, e->target, sizeof e->target);
    /* The pct schedule switches threads at every memory access: an emulating backend builds the
     * kernels with access hooks for it (a target of its own: the other schedules run without) */
    if (s->schedule == ENG_SCHED_PCT && e->B->caps.emulated)
        snprintf(e->target + strlen(e->target), sizeof e->target - strlen(e->target), "+access");
    return 0;
}

/* The suite's module: the prebuilt code object, or its source (after the shape's prelude
 * where the manifest specialises) compiled for the target. */
static int load_suite_module(struct eng_exec *e)
{
    const struct eng_check_spec *s = e->s;
    if (s->code_object) /* a prebuilt binary: no source to read */
        return prebuilt_load(e, s->code_object, &e->mod);
    char *src = eng_suite_source(e->m, e->B->caps.emulated, e->err, sizeof e->err);
    if (!src) { /* the source's own fault, told once before any check (eng_check_build) */
        snprintf(e->compile_error, sizeof e->compile_error, "%.600s", e->err);
        e->setup_error = true;
        return -1;
    }
    if (e->m->nspecialize) {
        char *pre = eng_spec_prelude(e->m, s, e->spec_shape, sizeof e->spec_shape, e->err,
                                     sizeof e->err);
        if (!pre) {
            free(src);
            return -1;
        }
        char *full = xasprintf("%s%s", pre, src);
        free(pre);
        free(src);
        src = full;
    }
    int rc = compile_load(e, e->m->source, src, &e->mod);
    free(src);
    return rc;
}

/* Each entry point of a plain source (a user's kernel file) found and its parameters checked
 * against "args", before any check runs (eng_check_build tells a failure once, as a setup
 * error). The dialect's suites are left to each check: a collective's kernels take arguments
 * the rung adds to "args". */
static int check_entries(struct eng_exec *e)
{
    const struct eng_manifest *m = e->m;
    if (!eng_plain_is(m->source))
        return 0;
    const char *fields[3] = {"variants.fixed", "variants.buggy", "reference"};
    const char *entries[3] = {m->entry_fixed, m->entry_buggy, m->entry_reference};
    for (int i = 0; i < 3; i++) {
        struct eng_kernel *k = NULL;
        if (!entries[i])
            continue;
        if (find_entry(e, fields[i], entries[i], &k) != 0 || check_params(e, k, entries[i], i == 2) != 0) {
            snprintf(e->compile_error, sizeof e->compile_error, "%.600s", e->err);
            e->setup_error = true;
            return -1;
        }
    }
    return 0;
}

int eng_exec_build(struct eng_exec *e)
{
    const struct eng_check_spec *s = e->s;
    ENG_TRY(open_backend(e));
    if (e->m->nspecialize || s->code_object)
        return 1;
    ENG_TRY(load_suite_module(e));
    return check_entries(e);
}

/* The utility kernels the fills and oracles launch, and the result words they leave. */
static int util_setup(struct eng_exec *e)
{
    ENG_TRY(eng_session_util(e->B, e->ctx, e->target, &e->umod, e->err, sizeof e->err));
    ENG_TRY(get_util_kernels(e));
    ENG_TRY(e->host ? eng_session_buf_get(e->B, e->ctx, ENG_RES_WORDS * 8, &e->res, e->err,
                                          sizeof e->err)
                    : e->B->mem_alloc(e->ctx, ENG_RES_WORDS * 8, &e->res, e->err, sizeof e->err));
    e->ublock = e->B->caps.util_block;
    e->ugrid = e->B->caps.util_grid;
    if (!e->ugrid)
        e->ugrid = (unsigned)(e->info.compute_units > 0 ? e->info.compute_units : 128) * 8;
    return 0;
}

int eng_exec_setup(struct eng_exec *e)
{
    const struct eng_check_spec *s = e->s;
    ENG_TRY(open_backend(e));
    if (e->host) /* the caller's op and manifest: nothing of the suite to compile */
        return util_setup(e);
    const char *entry = strcmp(s->variant, "buggy") == 0 ? e->m->entry_buggy : e->m->entry_fixed;
    if (!entry) {
        snprintf(e->err, sizeof e->err, "suite %s has no %s variant", e->m->name, s->variant);
        return -1;
    }
    ENG_TRY(load_suite_module(e));
    ENG_TRY(lag_async_setup(e));
    ENG_TRY(find_entry(e, strcmp(s->variant, "buggy") == 0 ? "variants.buggy" : "variants.fixed",
                       entry, &e->kvar));
    ENG_TRY(find_entry(e, "reference", e->m->entry_reference, &e->kref));
    ENG_TRY(check_params(e, e->kvar, entry, false));
    ENG_TRY(check_params(e, e->kref, e->m->entry_reference, true));
    return util_setup(e);
}

void eng_exec_teardown(struct eng_exec *e)
{
    if (e->ctx) {
        if (e->res && e->host)
            eng_session_buf_put(e->B, e->ctx, e->res, ENG_RES_WORDS * 8);
        else if (e->res)
            e->B->mem_free(e->ctx, e->res);
        if (e->lag_async)
            e->B->mem_free(e->ctx, e->lag_async);
        if (e->mod)
            e->B->module_unload(e->ctx, e->mod);
        eng_session_put(e->B, e->ctx); /* the utility module stays with the context */
    }
    if (e->pre)
        eng_prebuilt_close(e->pre);
    free(e->pre);
    for (size_t i = 0; e->host_in && i < e->m->nbuffers; i++)
        eng_exec_host_in_drop(e, i);
    free(e->host_in);
    free(e->host_in_len);
}
