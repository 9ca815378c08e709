/* Running one check on a device (the worker side of the watchdog).
 *
 * Every buffer is allocated at its padded size between two guard regions. Outputs (and their
 * guards) start as the dtype's sentinel, the reference writes into its own copies prepared the
 * same way, and the oracles in kernels/util.kl compare on the device; only a few result words
 * come back to the host. */
#define _GNU_SOURCE
#include "engine/check.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/embed.h"
#include "common/hash.h"
#include "common/xalloc.h"
#include "engine/cache.h"
#include "engine/rung6.h"

#define GUARD_BYTES ((uint64_t)4096)
#define RES_WORDS 64


struct bufi {
    eng_dptr base, data;
    uint64_t alloc, padded_bytes, elems, padded_elems;
    bool shared_with_var; /* a reference copy that is the variant's buffer (inputs) */
};

struct inst {
    struct eng_values v;
    struct bufi *var, *ref;
    unsigned grid[3], block[3], shared, rgrid[3], rblock[3], rshared;
    uint64_t (*vals_var)[2], (*vals_ref)[2]; /* scalar argument storage (16 bytes each) */
    void **args_var, **args_ref;
    char *desc;
    bool allocated;
};

struct ex {
    const struct eng_check_spec *s;
    const struct eng_backend *B;
    struct eng_ctx *ctx;
    struct eng_device_info info;
    struct eng_manifest *m;
    struct eng_module *mod, *umod;
    struct eng_kernel *kvar, *kref, *kfill, *kpat, *kchk, *kcmp, *kbit, *khash, *khcheck, *kcopy,
        *kdelay;
    eng_dptr res;
    unsigned ugrid, ublock;
    char err[1024];
    struct eng_check_result *out;
    /* detail accumulation */
    char detail[1536];
    bool failed;
};

static void note(struct ex *e, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void note(struct ex *e, const char *fmt, ...)
{
    size_t len = strlen(e->detail);
    if (len + 4 >= sizeof e->detail)
        return;
    if (len)
        len += (size_t)snprintf(e->detail + len, sizeof e->detail - len, "; ");
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(e->detail + len, sizeof e->detail - len, fmt, ap);
    va_end(ap);
}

/* ---- small wrappers --------------------------------------------------------------------- */

#define TRY(call)                                                                               \
    do {                                                                                        \
        if ((call) != 0)                                                                        \
            return -1;                                                                          \
    } while (0)

static int ulaunch(struct ex *e, struct eng_kernel *k, uint64_t work, struct eng_stream *s,
                   void **args)
{
    uint64_t blocks = (work + e->ublock - 1) / e->ublock;
    if (blocks < 1)
        blocks = 1;
    if (blocks > e->ugrid)
        blocks = e->ugrid;
    unsigned g[3] = {(unsigned)blocks, 1, 1}, b[3] = {e->ublock, 1, 1};
    return e->B->launch(e->ctx, k, g, b, 0, s, args, e->err, sizeof e->err);
}

static int u_pattern(struct ex *e, eng_dptr p, uint64_t nbytes, uint64_t pattern,
                     struct eng_stream *s)
{
    if (!nbytes)
        return 0;
    void *a[] = {&p, &nbytes, &pattern};
    return ulaunch(e, e->kpat, nbytes / 8 + 1, s, a);
}

static int u_fill(struct ex *e, eng_dptr p, uint64_t n, enum eng_dtype dt, enum eng_init init,
                  uint64_t seed, struct eng_stream *s)
{
    if (!n)
        return 0;
    if (init == ENG_INIT_ZEROS)
        return e->B->memset_d8(e->ctx, p, 0, n * eng_dtype_size(dt), s, e->err, sizeof e->err);
    int dtype = (int)dt, in = (int)init;
    uint64_t first = 0;
    void *a[] = {&p, &n, &dtype, &in, &seed, &first};
    return ulaunch(e, e->kfill, n, s, a);
}

static int res_clear(struct ex *e, struct eng_stream *s)
{
    return e->B->memset_d8(e->ctx, e->res, 0, RES_WORDS * 8, s, e->err, sizeof e->err);
}

static int res_read(struct ex *e, uint64_t *r, struct eng_stream *s)
{
    return e->B->memcpy_dtoh(e->ctx, r, e->res, RES_WORDS * 8, s, e->err, sizeof e->err);
}

static int sync_all(struct ex *e, struct eng_stream *s)
{
    if (s)
        TRY(e->B->stream_sync(e->ctx, s, e->err, sizeof e->err));
    return e->B->stream_sync(e->ctx, NULL, e->err, sizeof e->err);
}

/* ---- instances: one shape's buffers and arguments --------------------------------------- */

static uint64_t env_limit(const char *name, uint64_t dflt)
{
    const char *v = getenv(name);
    if (!v || !*v)
        return dflt;
    unsigned long long x = strtoull(v, NULL, 10);
    return x ? x : dflt;
}

static void human_bytes(uint64_t b, char *out, size_t n)
{
    if (b >= (1ull << 30))
        snprintf(out, n, "%.2f GiB", (double)b / (double)(1ull << 30));
    else if (b >= (1ull << 20))
        snprintf(out, n, "%.1f MiB", (double)b / (double)(1ull << 20));
    else
        snprintf(out, n, "%llu bytes", (unsigned long long)b);
}

static void inst_free(struct ex *e, struct inst *in)
{
    size_t nb = e->m->nbuffers;
    if (in->allocated)
        for (size_t i = 0; i < nb; i++) {
            if (in->var[i].base)
                e->B->mem_free(e->ctx, in->var[i].base);
            if (in->ref[i].base && !in->ref[i].shared_with_var)
                e->B->mem_free(e->ctx, in->ref[i].base);
        }
    free(in->var);
    free(in->ref);
    free(in->vals_var);
    free(in->vals_ref);
    free(in->args_var);
    free(in->args_ref);
    free(in->desc);
    eng_values_free(&in->v);
    memset(in, 0, sizeof *in);
}

/* Sizes, geometry and the cpu backend's reach. Returns 0, 1 (skip, reason in e->detail) or -1. */
static int inst_plan(struct ex *e, struct inst *in, const struct eng_shape *shape)
{
    const struct eng_manifest *m = e->m;
    memset(in, 0, sizeof *in);
    if (eng_values_make(m, shape, NULL, NULL, &in->v, e->err, sizeof e->err) != 0)
        return -1;
    in->desc = eng_values_describe(m, &in->v);
    in->var = xcalloc(m->nbuffers + 1, sizeof *in->var);
    in->ref = xcalloc(m->nbuffers + 1, sizeof *in->ref);
    uint64_t total = 0;
    for (size_t i = 0; i < m->nbuffers; i++) {
        struct eng_buffer_size sz;
        if (eng_buffer_size(m, i, &in->v, &sz, e->err, sizeof e->err) != 0)
            return -1;
        struct bufi *b = &in->var[i];
        b->elems = sz.elems;
        b->padded_elems = sz.padded_elems;
        b->padded_bytes = sz.padded_bytes;
        b->alloc = GUARD_BYTES + ((sz.padded_bytes + 255) & ~(uint64_t)255) + GUARD_BYTES;
        in->ref[i] = *b;
        in->ref[i].shared_with_var = m->buffers[i].role == ENG_ROLE_INPUT;
        total += b->alloc * (in->ref[i].shared_with_var ? 1 : 2);
    }
    if (eng_launch_eval(m, false, &in->v, in->grid, in->block, &in->shared, e->err,
                        sizeof e->err) != 0 ||
        eng_launch_eval(m, true, &in->v, in->rgrid, in->rblock, &in->rshared, e->err,
                        sizeof e->err) != 0)
        return -1;
    uint64_t threads = (uint64_t)in->grid[0] * in->grid[1] * in->grid[2] * in->block[0] *
                       in->block[1] * in->block[2];
    uint64_t rthreads = (uint64_t)in->rgrid[0] * in->rgrid[1] * in->rgrid[2] * in->rblock[0] *
                        in->rblock[1] * in->rblock[2];
    char hb[64], lim[64];
    human_bytes(total, hb, sizeof hb);
    /* A backend with a reach of its own (the cpu emulation) skips what lies beyond it, with the
     * reason; KLADDER_CPU_MAX_BYTES / KLADDER_CPU_MAX_THREADS lower it (tests do). */
    if (e->B->caps.max_check_bytes) {
        uint64_t maxb = env_limit("KLADDER_CPU_MAX_BYTES", e->B->caps.max_check_bytes);
        uint64_t maxt = env_limit("KLADDER_CPU_MAX_THREADS", e->B->caps.max_check_threads);
        human_bytes(maxb, lim, sizeof lim);
        for (size_t i = 0; i < m->nbuffers; i++)
            if (m->buffers[i].role == ENG_ROLE_OUTPUT && in->var[i].padded_bytes > (1ull << 31)) {
                human_bytes(in->var[i].padded_bytes, hb, sizeof hb);
                note(e, "%s: output %s is %s, past 2^31 bytes: beyond the cpu backend (run it on a GPU)",
                     in->desc, m->buffers[i].name, hb);
                return 1;
            }
        if (total > maxb) {
            note(e, "%s: needs %s of buffers; the cpu backend runs checks up to %s (run it on a GPU)",
                 in->desc, hb, lim);
            return 1;
        }
        /* Every launch of the variant counts: repeats and replays multiply the work. */
        uint64_t launches = e->s->mode == ENG_MODE_REPEAT   ? (uint64_t)e->s->repeats + 1
                            : e->s->mode == ENG_MODE_GRAPH ? (uint64_t)e->s->replays + 1
                                                           : 1;
        uint64_t work = threads * launches + rthreads;
        if (maxt && work > maxt) {
            note(e, "%s: %llu emulated threads (%llu launch%s of %llu, and the reference); the cpu "
                    "backend runs up to %llu per check in reasonable time (run it on a GPU)",
                 in->desc, (unsigned long long)work, (unsigned long long)launches,
                 launches == 1 ? "" : "es", (unsigned long long)threads, (unsigned long long)maxt);
            return 1;
        }
    } else if (e->info.mem_bytes > 0 && total > (uint64_t)e->info.mem_bytes / 10 * 9) {
        human_bytes((uint64_t)e->info.mem_bytes, lim, sizeof lim);
        note(e, "%s: needs %s of buffers; the device has %s", in->desc, hb, lim);
        return 1;
    }
    return 0;
}

static int inst_alloc(struct ex *e, struct inst *in)
{
    const struct eng_manifest *m = e->m;
    in->allocated = true;
    for (size_t i = 0; i < m->nbuffers; i++) {
        struct bufi *v = &in->var[i], *r = &in->ref[i];
        TRY(e->B->mem_alloc(e->ctx, v->alloc, &v->base, e->err, sizeof e->err));
        v->data = v->base + GUARD_BYTES;
        if (r->shared_with_var) {
            r->base = v->base;
            r->data = v->data;
        } else {
            TRY(e->B->mem_alloc(e->ctx, r->alloc, &r->base, e->err, sizeof e->err));
            r->data = r->base + GUARD_BYTES;
        }
    }
    return 0;
}

/* Builds both argument arrays (variant and reference) pointing at the instance's buffers. */
static int inst_args(struct ex *e, struct inst *in)
{
    const struct eng_manifest *m = e->m;
    free(in->vals_var);
    free(in->vals_ref);
    free(in->args_var);
    free(in->args_ref);
    in->vals_var = xcalloc(m->nargs + 1, sizeof *in->vals_var);
    in->vals_ref = xcalloc(m->nargs + 1, sizeof *in->vals_ref);
    in->args_var = xcalloc(m->nargs + 1, sizeof *in->args_var);
    in->args_ref = xcalloc(m->nargs + 1, sizeof *in->args_ref);
    for (size_t i = 0; i < m->nargs; i++) {
        const struct eng_arg *a = &m->args[i];
        void *pv = in->vals_var[i], *pr = in->vals_ref[i];
        if (a->buffer >= 0) {
            memcpy(pv, &in->var[a->buffer].data, sizeof(eng_dptr));
            memcpy(pr, &in->ref[a->buffer].data, sizeof(eng_dptr));
        } else if (a->type == ENG_ARG_F32) {
            float f = 0;
            size_t k = 0;
            while (k < in->v.n && strcmp(in->v.names[k], a->expr) != 0)
                k++;
            if (k < in->v.n) {
                f = (float)in->v.reals[k];
            } else {
                int64_t x;
                if (eng_values_eval(&in->v, a->expr, &x, e->err, sizeof e->err) != 0)
                    return -1;
                f = (float)x;
            }
            memcpy(pv, &f, 4);
            memcpy(pr, &f, 4);
        } else {
            int64_t x;
            if (eng_values_eval(&in->v, a->expr, &x, e->err, sizeof e->err) != 0)
                return -1;
            bool fits = a->type == ENG_ARG_I32   ? x >= INT32_MIN && x <= INT32_MAX
                        : a->type == ENG_ARG_U32 ? x >= 0 && x <= (int64_t)UINT32_MAX
                        : a->type == ENG_ARG_U64 ? x >= 0
                                                 : true;
            if (!fits) {
                snprintf(e->err, sizeof e->err, "argument %s = %lld does not fit its type", a->expr,
                         (long long)x);
                return -1;
            }
            if (a->type == ENG_ARG_I32 || a->type == ENG_ARG_U32) {
                uint32_t u = (uint32_t)x;
                memcpy(pv, &u, 4);
                memcpy(pr, &u, 4);
            } else {
                memcpy(pv, &x, 8);
                memcpy(pr, &x, 8);
            }
        }
        in->args_var[i] = pv;
        in->args_ref[i] = pr;
    }
    return 0;
}

static uint64_t buffer_seed(const struct ex *e, size_t i)
{
    struct hash_state h;
    hash_init(&h);
    hash_str(&h, e->m->buffers[i].name);
    hash_bytes(&h, &e->s->seed, sizeof e->s->seed);
    return h.a;
}

static int fill_inputs(struct ex *e, struct inst *in, struct eng_stream *s, bool garbage)
{
    const struct eng_manifest *m = e->m;
    for (size_t i = 0; i < m->nbuffers; i++) {
        if (m->buffers[i].role != ENG_ROLE_INPUT)
            continue;
        struct bufi *b = &in->var[i];
        enum eng_dtype dt = m->buffers[i].dtype;
        TRY(u_pattern(e, b->base, GUARD_BYTES, eng_dtype_sentinel(dt), s));
        TRY(u_fill(e, b->data, b->padded_elems, dt, garbage ? ENG_INIT_GARBAGE : m->buffers[i].init,
                   buffer_seed(e, i) ^ (garbage ? 0x6a09e667u : 0), s));
        TRY(u_pattern(e, b->data + b->padded_bytes, b->alloc - GUARD_BYTES - b->padded_bytes,
                      eng_dtype_sentinel(dt), s));
    }
    return 0;
}

enum out_style { OUT_SENTINEL, OUT_ZEROS, OUT_GARBAGE };

/* Outputs of the variant (which & 1) and the reference (which & 2), prepared identically. */
static int prepare_outputs_of(struct ex *e, struct inst *in, enum out_style style, int which,
                              struct eng_stream *s)
{
    const struct eng_manifest *m = e->m;
    for (size_t i = 0; i < m->nbuffers; i++) {
        if (m->buffers[i].role != ENG_ROLE_OUTPUT)
            continue;
        enum eng_dtype dt = m->buffers[i].dtype;
        uint64_t pat = eng_dtype_sentinel(dt);
        struct bufi *bs[2] = {&in->var[i], &in->ref[i]};
        for (int k = 0; k < 2; k++) {
            if (!(which & (1 << k)))
                continue;
            struct bufi *b = bs[k];
            if (style == OUT_SENTINEL) {
                TRY(u_pattern(e, b->base, b->alloc, pat, s));
                continue;
            }
            TRY(u_pattern(e, b->base, GUARD_BYTES, pat, s));
            TRY(u_fill(e, b->data, b->padded_elems, dt,
                       style == OUT_ZEROS ? ENG_INIT_ZEROS : ENG_INIT_GARBAGE, buffer_seed(e, i), s));
            TRY(u_pattern(e, b->data + b->padded_bytes, b->alloc - GUARD_BYTES - b->padded_bytes,
                          pat, s));
        }
    }
    return 0;
}

static int prepare_outputs(struct ex *e, struct inst *in, enum out_style style,
                           struct eng_stream *s)
{
    return prepare_outputs_of(e, in, style, 3, s);
}

/* Scratch buffers to their manifest init (which = 1 variant, 2 reference, 3 both). */
static int reset_scratch(struct ex *e, struct inst *in, int which, struct eng_stream *s)
{
    const struct eng_manifest *m = e->m;
    for (size_t i = 0; i < m->nbuffers; i++) {
        if (m->buffers[i].role != ENG_ROLE_SCRATCH)
            continue;
        enum eng_dtype dt = m->buffers[i].dtype;
        for (int k = 0; k < 2; k++) {
            if (!(which & (1 << k)))
                continue;
            struct bufi *b = k ? &in->ref[i] : &in->var[i];
            TRY(u_fill(e, b->data, b->padded_elems, dt, m->buffers[i].init, buffer_seed(e, i), s));
        }
    }
    return 0;
}

static int guards_scratch(struct ex *e, struct inst *in, struct eng_stream *s)
{
    const struct eng_manifest *m = e->m;
    for (size_t i = 0; i < m->nbuffers; i++) {
        if (m->buffers[i].role != ENG_ROLE_SCRATCH)
            continue;
        uint64_t pat = eng_dtype_sentinel(m->buffers[i].dtype);
        for (int k = 0; k < 2; k++) {
            struct bufi *b = k ? &in->ref[i] : &in->var[i];
            TRY(u_pattern(e, b->base, GUARD_BYTES, pat, s));
            TRY(u_pattern(e, b->data + b->padded_bytes, b->alloc - GUARD_BYTES - b->padded_bytes,
                          pat, s));
        }
    }
    return 0;
}

static int launch_var(struct ex *e, struct inst *in, struct eng_stream *s)
{
    return e->B->launch(e->ctx, e->kvar, in->grid, in->block, in->shared, s, in->args_var, e->err,
                        sizeof e->err);
}

static int launch_ref(struct ex *e, struct inst *in, struct eng_stream *s)
{
    return e->B->launch(e->ctx, e->kref, in->rgrid, in->rblock, in->rshared, s, in->args_ref,
                        e->err, sizeof e->err);
}

/* ---- oracles ---------------------------------------------------------------------------- */

static void coords(const struct ex *e, const struct inst *in, size_t b, uint64_t flat, char *out,
                   size_t n)
{
    const struct eng_buffer_spec *bs = &e->m->buffers[b];
    uint64_t dims[8];
    for (size_t d = 0; d < bs->ndims; d++) {
        int64_t dim = 1, pad = 1;
        char err[64];
        eng_values_eval(&in->v, bs->dims[d], &dim, err, sizeof err);
        if (bs->pad_to[d])
            eng_values_eval(&in->v, bs->pad_to[d], &pad, err, sizeof err);
        if (pad < 1)
            pad = 1;
        dims[d] = ((uint64_t)dim + (uint64_t)pad - 1) / (uint64_t)pad * (uint64_t)pad;
    }
    uint64_t c[8];
    for (size_t d = bs->ndims; d-- > 0;) {
        c[d] = dims[d] ? flat % dims[d] : 0;
        flat = dims[d] ? flat / dims[d] : 0;
    }
    size_t len = (size_t)snprintf(out, n, "[");
    for (size_t d = 0; d < bs->ndims && len < n; d++)
        len += (size_t)snprintf(out + len, n - len, "%s%llu", d ? ", " : "", (unsigned long long)c[d]);
    if (len < n)
        snprintf(out + len, n - len, "]");
}

static void record_bad(struct ex *e, int64_t first, int64_t count, double maxerr)
{
    struct eng_check_result *r = e->out;
    if (r->bad_count < 0)
        r->bad_count = 0;
    r->bad_count += count;
    if (first >= 0 && (r->first_bad < 0))
        r->first_bad = first;
    if (!isnan(maxerr) && (isnan(r->max_err) || maxerr > r->max_err))
        r->max_err = maxerr;
}

/* Compares every output with the reference; with full, also the guards. Returns -1 on a device
 * error, else 0 (failures go to e->failed / e->detail). prefix names the step ("replay 2"). */
static int oracle(struct ex *e, struct inst *in, bool full, const char *prefix,
                  struct eng_stream *s)
{
    const struct eng_manifest *m = e->m;
    for (size_t i = 0; i < m->nbuffers; i++) {
        if (m->buffers[i].role != ENG_ROLE_OUTPUT)
            continue;
        struct bufi *v = &in->var[i], *r = &in->ref[i];
        enum eng_dtype dt = m->buffers[i].dtype;
        TRY(res_clear(e, s));
        int dtype = (int)dt;
        float atol = (float)m->tol_abs, rtol = (float)m->tol_rel;
        eng_dptr res = e->res, g1 = e->res + 8 * 8, g2 = e->res + 16 * 8;
        void *ca[] = {&v->data, &r->data, &v->padded_elems, &dtype, &atol, &rtol, &res};
        TRY(ulaunch(e, e->kcmp, v->padded_elems, s, ca));
        uint64_t pat = eng_dtype_sentinel(dt), gsz = GUARD_BYTES;
        uint64_t tail = v->alloc - GUARD_BYTES - v->padded_bytes;
        eng_dptr after = v->data + v->padded_bytes;
        void *k1[] = {&v->base, &gsz, &pat, &g1};
        void *k2[] = {&after, &tail, &pat, &g2};
        if (full) {
            TRY(ulaunch(e, e->kchk, gsz / 8 + 1, s, k1));
            TRY(ulaunch(e, e->kchk, tail / 8 + 1, s, k2));
        }
        uint64_t w[RES_WORDS];
        TRY(res_read(e, w, s));
        const char *bn = m->buffers[i].name;
        char pre[96] = "";
        if (prefix && *prefix)
            snprintf(pre, sizeof pre, "%s: ", prefix);
        if (w[0]) {
            float mx;
            uint32_t bits = (uint32_t)w[2];
            memcpy(&mx, &bits, 4);
            char at[96];
            coords(e, in, i, w[1] - 1, at, sizeof at);
            char never[192] = "", nonfin[64] = "";
            if (w[4] && full) {
                char at2[96];
                coords(e, in, i, w[5] - 1, at2, sizeof at2);
                snprintf(never, sizeof never, "; %llu never written (still the sentinel, first at %s)",
                         (unsigned long long)w[4], at2);
            }
            if (w[3])
                snprintf(nonfin, sizeof nonfin, "; %llu NaN/Inf where the reference is finite",
                         (unsigned long long)w[3]);
            note(e, "%s%s: %llu of %llu elements differ from the reference (first at %s), max error %.4g%s%s",
                 pre, bn, (unsigned long long)w[0], (unsigned long long)v->padded_elems, at,
                 (double)mx, never, nonfin);
            e->failed = true;
            record_bad(e, (int64_t)w[1] - 1, (int64_t)w[0], (double)mx);
        } else {
            float mx;
            uint32_t bits = (uint32_t)w[2];
            memcpy(&mx, &bits, 4);
            record_bad(e, -1, 0, (double)mx);
        }
        if (full && (w[8] || w[16])) {
            if (w[8])
                note(e, "%s%s: %llu words of the guard before it were written (first at byte %lld)",
                     pre, bn, (unsigned long long)w[8], (long long)w[9] - 1 - (long long)GUARD_BYTES);
            if (w[16])
                note(e, "%s%s: %llu words past its end (padding included) were written (first at byte +%llu)",
                     pre, bn, (unsigned long long)w[16], (unsigned long long)(w[17] - 1));
            e->failed = true;
            record_bad(e, -1, (int64_t)(w[8] + w[16]), NAN);
        }
    }
    return 0;
}

/* Proof that a captured graph has not run: every output still holds the sentinel. */
static int still_sentinel(struct ex *e, struct inst *in, struct eng_stream *s, bool *ok)
{
    const struct eng_manifest *m = e->m;
    *ok = true;
    for (size_t i = 0; i < m->nbuffers; i++) {
        if (m->buffers[i].role != ENG_ROLE_OUTPUT)
            continue;
        struct bufi *v = &in->var[i];
        TRY(res_clear(e, s));
        uint64_t pat = eng_dtype_sentinel(m->buffers[i].dtype);
        eng_dptr res = e->res;
        void *a[] = {&v->base, &v->alloc, &pat, &res};
        TRY(ulaunch(e, e->kchk, v->alloc / 8 + 1, s, a));
        uint64_t w[RES_WORDS];
        TRY(res_read(e, w, s));
        if (w[0]) {
            note(e, "%s changed between capture and the first replay (%llu words): the capture ran "
                    "the work eagerly",
                 m->buffers[i].name, (unsigned long long)w[0]);
            *ok = false;
        }
    }
    return 0;
}

/* ---- timing ----------------------------------------------------------------------------- */

struct timer {
    struct eng_event *a, *b;
    double *samples;
    size_t n, cap;
};

static void timer_init(struct ex *e, struct timer *t)
{
    memset(t, 0, sizeof *t);
    if (!e->B->event_elapsed_ms)
        return;
    if (e->B->event_create(e->ctx, &t->a, e->err, sizeof e->err) != 0 ||
        e->B->event_create(e->ctx, &t->b, e->err, sizeof e->err) != 0)
        t->a = t->b = NULL;
}

static void timer_start(struct ex *e, struct timer *t, struct eng_stream *s)
{
    if (t->a && e->B->event_record(e->ctx, t->a, s, e->err, sizeof e->err) != 0)
        t->a = NULL;
}

/* Records the end and stores the elapsed time divided by per (launches in the interval). */
static void timer_stop(struct ex *e, struct timer *t, struct eng_stream *s, int per)
{
    if (!t->a || !t->b)
        return;
    float ms;
    char err[256];
    if (e->B->event_record(e->ctx, t->b, s, err, sizeof err) != 0 ||
        e->B->event_elapsed_ms(e->ctx, t->a, t->b, &ms, err, sizeof err) != 0)
        return;
    if (t->n == t->cap)
        t->samples = xrealloc(t->samples, (t->cap = t->cap * 2 + 8) * sizeof *t->samples);
    t->samples[t->n++] = (double)ms * 1000.0 / (per > 0 ? per : 1);
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

static void timer_finish(struct ex *e, struct timer *t)
{
    if (t->n) {
        qsort(t->samples, t->n, sizeof *t->samples, cmp_double);
        e->out->t_min_us = t->samples[0];
        e->out->t_max_us = t->samples[t->n - 1];
        e->out->t_med_us = t->n % 2 ? t->samples[t->n / 2]
                                    : (t->samples[t->n / 2 - 1] + t->samples[t->n / 2]) / 2;
    }
    if (t->a)
        e->B->event_destroy(e->ctx, t->a);
    if (t->b)
        e->B->event_destroy(e->ctx, t->b);
    free(t->samples);
}

/* ---- modes ------------------------------------------------------------------------------ */

/* One shape, one launch on the default stream. */
static int mode_plain(struct ex *e, struct inst *in, struct timer *t, enum out_style style,
                      bool full, const char *prefix)
{
    TRY(fill_inputs(e, in, NULL, false));
    TRY(prepare_outputs(e, in, style, NULL));
    TRY(guards_scratch(e, in, NULL));
    TRY(reset_scratch(e, in, 3, NULL));
    TRY(launch_ref(e, in, NULL));
    timer_start(e, t, NULL);
    TRY(launch_var(e, in, NULL));
    timer_stop(e, t, NULL, 1);
    TRY(sync_all(e, NULL));
    return oracle(e, in, full, prefix, NULL);
}

static int mode_graph(struct ex *e, struct inst *in, struct timer *t)
{
    if (!e->B->graph_begin) {
        note(e, "the %s backend has no graphs", e->B->name);
        return 1;
    }
    struct eng_stream *s;
    TRY(e->B->stream_create(e->ctx, &s, e->err, sizeof e->err));
    int rc = -1;
    struct eng_graph *g = NULL;
    if (fill_inputs(e, in, s, false) || prepare_outputs(e, in, OUT_SENTINEL, s) ||
        guards_scratch(e, in, s) || reset_scratch(e, in, 3, s) || launch_ref(e, in, s) ||
        sync_all(e, s))
        goto out;
    if (e->B->graph_begin(e->ctx, s, e->err, sizeof e->err) != 0)
        goto out;
    /* The library's own reset inside the captured work, unless it resets only once, outside. */
    if (!e->s->scratch_once && reset_scratch(e, in, 1, s) != 0)
        goto out;
    if (launch_var(e, in, s) != 0)
        goto out;
    if (e->B->graph_end(e->ctx, s, &g, e->err, sizeof e->err) != 0)
        goto out;
    if (sync_all(e, s) != 0)
        goto out;
    bool ok;
    if (still_sentinel(e, in, s, &ok) != 0)
        goto out;
    if (!ok)
        e->failed = true;
    int replays = e->s->replays > 0 ? e->s->replays : 3;
    for (int r = 1; r <= replays && !e->failed; r++) {
        if (prepare_outputs_of(e, in, OUT_SENTINEL, 1, s) != 0)
            goto out;
        timer_start(e, t, s);
        if (e->B->graph_launch(e->ctx, g, s, e->err, sizeof e->err) != 0)
            goto out;
        timer_stop(e, t, s, 1);
        if (sync_all(e, s) != 0)
            goto out;
        char pre[32];
        snprintf(pre, sizeof pre, "replay %d of %d", r, replays);
        if (oracle(e, in, true, pre, s) != 0)
            goto out;
    }
    e->out->repeats = replays;
    rc = 0;
out:
    if (g)
        e->B->graph_destroy(e->ctx, g);
    e->B->stream_destroy(e->ctx, s);
    return rc;
}

static int mode_streams(struct ex *e, struct inst *in, struct timer *t)
{
    struct eng_stream *p = NULL, *c = NULL;
    struct eng_event *ev = NULL;
    int rc = -1;
    if (e->B->stream_create(e->ctx, &p, e->err, sizeof e->err) ||
        e->B->stream_create(e->ctx, &c, e->err, sizeof e->err) ||
        e->B->event_create(e->ctx, &ev, e->err, sizeof e->err))
        goto out;
    /* Inputs start as garbage; the producer writes the real ones on its own stream, after a
     * delay so that a consumer which does not wait for it reads too early. */
    if (fill_inputs(e, in, NULL, true) || prepare_outputs(e, in, OUT_SENTINEL, NULL) ||
        guards_scratch(e, in, NULL) || reset_scratch(e, in, 3, NULL) || sync_all(e, NULL))
        goto out;
    int64_t ticks = e->B->caps.delay_ticks;
    eng_dptr sink = e->res + 32 * 8;
    void *da[] = {&ticks, &sink};
    unsigned one[3] = {1, 1, 1};
    if (e->B->launch(e->ctx, e->kdelay, one, one, 0, p, da, e->err, sizeof e->err) ||
        fill_inputs(e, in, p, false))
        goto out;
    if (e->s->event && (e->B->event_record(e->ctx, ev, p, e->err, sizeof e->err) ||
                        e->B->stream_wait_event(e->ctx, c, ev, e->err, sizeof e->err)))
        goto out;
    timer_start(e, t, c);
    if (launch_var(e, in, c))
        goto out;
    timer_stop(e, t, c, 1);
    if (sync_all(e, c) || sync_all(e, p))
        goto out;
    if (launch_ref(e, in, NULL) || sync_all(e, NULL))
        goto out;
    if (!e->s->event)
        note(e, "no event between the producer stream and the kernel's stream");
    if (oracle(e, in, true, "", NULL))
        goto out;
    if (!e->failed && !e->s->event)
        e->detail[0] = '\0';
    rc = 0;
out:
    if (ev)
        e->B->event_destroy(e->ctx, ev);
    if (p)
        e->B->stream_destroy(e->ctx, p);
    if (c)
        e->B->stream_destroy(e->ctx, c);
    return rc;
}

/* The first launch checked against the reference, its output kept; then N launches each
 * compared bitwise with it on the device (captured once and replayed where graphs exist). */
/* Byte comparison of every output with its first-run copy (gold), repeats times on stream s:
 * res[24] counts differing 8-byte words, res[25] the first differing byte + 1. */
static int repeat_bytes(struct ex *e, struct inst *in, eng_dptr *gold, int repeats,
                        struct eng_stream *s)
{
    const struct eng_manifest *m = e->m;
    eng_dptr bits = e->res + 24 * 8;
    for (int r = 0; r < repeats; r++) {
        TRY((!e->s->scratch_once && reset_scratch(e, in, 1, s)) || launch_var(e, in, s));
        for (size_t i = 0; i < m->nbuffers; i++) {
            if (m->buffers[i].role != ENG_ROLE_OUTPUT)
                continue;
            struct bufi *v = &in->var[i];
            void *a[] = {&v->data, &gold[i], &v->padded_bytes, &bits};
            TRY(ulaunch(e, e->kbit, v->padded_bytes / 8 + 1, s, a));
        }
    }
    return 0;
}

/* Rung 5: N repeats must equal the first run bit for bit. Each repeat adds a one-pass content
 * hash of every output into its own slot, and one check per batch compares the slots with the
 * first run's hashes on the device: a repeat reads its output once (a byte comparison with the
 * kept copy reads two outputs; bench/RESULTS.md has the numbers). Only when a hash differs are
 * repeats run again with the byte comparison, to name the first differing byte. */
static int mode_repeat(struct ex *e, struct inst *in, struct timer *t)
{
    TRY(mode_plain(e, in, t, OUT_SENTINEL, true, "first run"));
    if (e->failed)
        return 0;
    const struct eng_manifest *m = e->m;
    int n = e->s->repeats > 0 ? e->s->repeats : 1;
    eng_dptr *gold = xcalloc(m->nbuffers + 1, sizeof *gold);
    size_t *outs = xcalloc(m->nbuffers + 1, sizeof *outs);
    uint64_t nout = 0;
    int rc = -1;
    struct eng_stream *s = NULL;
    struct eng_graph *g = NULL;
    eng_dptr gold_hash = 0, slots = 0;
    bool use_graph = e->B->graph_begin != NULL;
    /* Up to 32 repeats per graph, so the per-replay launch cost is spread over them; the
     * repeat count is rounded up to whole replays. */
    int batch = use_graph ? (n < 32 ? n : 32) : n;
    int replays = use_graph ? (n + batch - 1) / batch : 0;
    if (use_graph)
        n = batch * replays;
    for (size_t i = 0; i < m->nbuffers; i++)
        if (m->buffers[i].role == ENG_ROLE_OUTPUT)
            outs[nout++] = i;
    uint64_t nslots = (uint64_t)batch * nout;
    if (e->B->mem_alloc(e->ctx, (nout ? nout : 1) * 8, &gold_hash, e->err, sizeof e->err) ||
        e->B->mem_alloc(e->ctx, (nslots ? nslots : 1) * 8, &slots, e->err, sizeof e->err) ||
        e->B->memset_d8(e->ctx, gold_hash, 0, (nout ? nout : 1) * 8, NULL, e->err,
                        sizeof e->err) ||
        e->B->memset_d8(e->ctx, slots, 0, (nslots ? nslots : 1) * 8, NULL, e->err,
                        sizeof e->err))
        goto out;
    /* The first run: a copy of every output (for locating a difference) and its hash. */
    for (uint64_t o = 0; o < nout; o++) {
        struct bufi *v = &in->var[outs[o]];
        if (e->B->mem_alloc(e->ctx, v->padded_bytes ? v->padded_bytes : 8, &gold[outs[o]], e->err,
                            sizeof e->err))
            goto out;
        void *a[] = {&gold[outs[o]], &v->data, &v->padded_bytes};
        if (ulaunch(e, e->kcopy, v->padded_bytes / 8 + 1, NULL, a))
            goto out;
        eng_dptr h = gold_hash + o * 8;
        void *ha[] = {&v->data, &v->padded_bytes, &h};
        if (ulaunch(e, e->khash, v->padded_bytes / 8 + 1, NULL, ha))
            goto out;
    }
    if (res_clear(e, NULL) || sync_all(e, NULL))
        goto out;
    if (e->B->stream_create(e->ctx, &s, e->err, sizeof e->err))
        goto out;
    if (use_graph && e->B->graph_begin(e->ctx, s, e->err, sizeof e->err))
        goto out;
    for (int r = 0; r < batch; r++) {
        if ((!e->s->scratch_once && reset_scratch(e, in, 1, s)) || launch_var(e, in, s))
            goto out;
        for (uint64_t o = 0; o < nout; o++) {
            struct bufi *v = &in->var[outs[o]];
            eng_dptr h = slots + ((uint64_t)r * nout + o) * 8;
            void *ha[] = {&v->data, &v->padded_bytes, &h};
            if (ulaunch(e, e->khash, v->padded_bytes / 8 + 1, s, ha))
                goto out;
        }
    }
    eng_dptr diff = e->res + 26 * 8;
    void *ca[] = {&slots, &nslots, &gold_hash, &nout, &diff};
    if (ulaunch(e, e->khcheck, nslots, s, ca))
        goto out;
    if (use_graph) {
        if (e->B->graph_end(e->ctx, s, &g, e->err, sizeof e->err))
            goto out;
        /* Timed in up to 16 groups of replays: min/median/max of the per-repeat cost. */
        int groups = replays < 16 ? replays : 16, done = 0;
        for (int gi = 0; gi < groups; gi++) {
            int cnt = (replays - done) / (groups - gi);
            timer_start(e, t, s);
            for (int r = 0; r < cnt; r++)
                if (e->B->graph_launch(e->ctx, g, s, e->err, sizeof e->err))
                    goto out;
            timer_stop(e, t, s, cnt * batch);
            done += cnt;
        }
    }
    if (sync_all(e, s))
        goto out;
    uint64_t w[RES_WORDS];
    if (res_read(e, w, NULL))
        goto out;
    e->out->repeats = n;
    if (w[26]) {
        e->failed = true;
        /* Name the first differing byte: the same repeats again, compared byte for byte. */
        if (repeat_bytes(e, in, gold, batch, s) || sync_all(e, s) || res_read(e, w, NULL))
            goto out;
        if (w[24]) {
            note(e, "%d repeats: %llu differed from the first run's content hash; run again byte "
                    "for byte, %llu 8-byte words differed from the first run (first at byte %llu)",
                 n, (unsigned long long)w[26], (unsigned long long)w[24],
                 (unsigned long long)(w[25] - 1));
            record_bad(e, (int64_t)w[25] - 1, (int64_t)w[24], NAN);
        } else {
            note(e, "%d repeats: %llu differed from the first run's content hash (the byte-for-byte "
                    "re-run of %d repeats matched)",
                 n, (unsigned long long)w[26], batch);
            record_bad(e, -1, (int64_t)w[26], NAN);
        }
    }
    rc = 0;
out:
    if (g)
        e->B->graph_destroy(e->ctx, g);
    if (s)
        e->B->stream_destroy(e->ctx, s);
    for (size_t i = 0; i < m->nbuffers; i++)
        if (gold[i])
            e->B->mem_free(e->ctx, gold[i]);
    if (gold_hash)
        e->B->mem_free(e->ctx, gold_hash);
    if (slots)
        e->B->mem_free(e->ctx, slots);
    free(gold);
    free(outs);
    return rc;
}

/* ---- setup ------------------------------------------------------------------------------ */

static int get_kernel(struct ex *e, struct eng_module *mod, const char *name,
                      struct eng_kernel **k)
{
    return e->B->kernel_get(e->ctx, mod, name, k, e->err, sizeof e->err);
}

static int compile_load(struct ex *e, const char *file, const char *src, struct eng_module **mod)
{
    const struct embed_file *h = embed_find("kernels/kl.h");
    if (!h) {
        snprintf(e->err, sizeof e->err, "kernels/kl.h is not built in");
        return -1;
    }
    char target[80];
    e->B->compile_target(&e->info, e->s->wave, target, sizeof target);
    void *code;
    size_t len;
    char *log = xmalloc(16384);
    log[0] = '\0';
    if (eng_compile_cached(e->B, target, file, (const char *)h->data, src, NULL, &code, &len,
                           NULL, log, 16384) != 0) {
        snprintf(e->err, sizeof e->err, "compiling %s for %s failed: %.900s", file, target, log);
        free(log);
        return -1;
    }
    free(log);
    int rc = e->B->module_load(e->ctx, code, len, mod, e->err, sizeof e->err);
    free(code);
    return rc;
}

static int setup(struct ex *e)
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
    TRY(e->B->device_info(s->device, &e->info, e->err, sizeof e->err));
    struct eng_open_opts o = {.wave_size = s->wave, .schedule = s->schedule, .seed = s->seed};
    TRY(e->B->open(s->device, &o, &e->ctx, e->err, sizeof e->err));
    e->m = eng_manifest_load(s->suite, NULL, e->err, sizeof e->err);
    if (!e->m)
        return -1;
    const char *entry = strcmp(s->variant, "buggy") == 0 ? e->m->entry_buggy : e->m->entry_fixed;
    if (!entry) {
        snprintf(e->err, sizeof e->err, "suite %s has no %s variant", e->m->name, s->variant);
        return -1;
    }
    char *src = eng_manifest_source(e->m, e->err, sizeof e->err);
    if (!src)
        return -1;
    int rc = compile_load(e, e->m->source, src, &e->mod);
    free(src);
    TRY(rc);
    const struct embed_file *u = embed_find("kernels/util.kl");
    if (!u) {
        snprintf(e->err, sizeof e->err, "kernels/util.kl is not built in");
        return -1;
    }
    TRY(compile_load(e, "util.kl", (const char *)u->data, &e->umod));
    TRY(get_kernel(e, e->mod, entry, &e->kvar));
    TRY(get_kernel(e, e->mod, e->m->entry_reference, &e->kref));
    TRY(get_kernel(e, e->umod, "kl_util_fill", &e->kfill));
    TRY(get_kernel(e, e->umod, "kl_util_fill_pattern", &e->kpat));
    TRY(get_kernel(e, e->umod, "kl_util_check_pattern", &e->kchk));
    TRY(get_kernel(e, e->umod, "kl_util_compare", &e->kcmp));
    TRY(get_kernel(e, e->umod, "kl_util_bitwise", &e->kbit));
    TRY(get_kernel(e, e->umod, "kl_util_hash", &e->khash));
    TRY(get_kernel(e, e->umod, "kl_util_hash_check", &e->khcheck));
    TRY(get_kernel(e, e->umod, "kl_util_copy", &e->kcopy));
    TRY(get_kernel(e, e->umod, "kl_util_delay", &e->kdelay));
    TRY(e->B->mem_alloc(e->ctx, RES_WORDS * 8, &e->res, e->err, sizeof e->err));
    e->ublock = e->B->caps.util_block;
    e->ugrid = e->B->caps.util_grid;
    if (!e->ugrid)
        e->ugrid = (unsigned)(e->info.compute_units > 0 ? e->info.compute_units : 128) * 8;
    return 0;
}

static void finish_error(struct ex *e, const char *what)
{
    e->out->verdict = CDB_ERROR;
    snprintf(e->out->detail, sizeof e->out->detail, "%s%s%s", what ? what : "",
             what && *what ? ": " : "", e->err[0] ? e->err : "unknown error");
}

void eng_check_run(const struct eng_check_spec *s, void (*ready)(void *), void *arg,
                   struct eng_check_result *out)
{
    if (s->rung == 6) { /* multi-rank collectives: engine/rung6.c */
        eng_rung6_run(s, ready, arg, out);
        return;
    }
    eng_check_result_init(out);
    struct ex e = {.s = s, .out = out};
    snprintf(out->oracle, sizeof out->oracle, "%s",
             s->baseline                  ? "reference"
             : s->mode == ENG_MODE_REPEAT ? "bitwise-repeat"
                                          : "reference+sentinel");
    if (setup(&e) != 0) {
        finish_error(&e, "setup");
        if (ready)
            ready(arg);
        goto done;
    }
    size_t nsh = s->nshapes ? s->nshapes : 1;
    struct eng_shape none = {0};
    struct inst *ins = xcalloc(nsh, sizeof *ins);
    bool skip = false, err = false;
    /* GARBAGE mode reuses the buffers of the largest shape for every shape. */
    size_t biggest = 0;
    uint64_t big_bytes = 0;
    for (size_t i = 0; i < nsh && !err; i++) {
        int r = inst_plan(&e, &ins[i], s->nshapes ? &s->shapes[i] : &none);
        if (r < 0)
            err = true;
        if (r > 0)
            skip = true;
        uint64_t tot = 0;
        for (size_t b = 0; !err && b < e.m->nbuffers; b++)
            tot += ins[i].var[b].alloc;
        if (tot > big_bytes) {
            big_bytes = tot;
            biggest = i;
        }
    }
    snprintf(out->shape, sizeof out->shape, "%s%s", ins[0].desc ? ins[0].desc : "",
             nsh > 1 ? " (+ more)" : "");
    if (err) {
        finish_error(&e, "planning");
        if (ready)
            ready(arg);
        goto free_ins;
    }
    if (skip) {
        out->verdict = CDB_SKIP;
        snprintf(out->detail, sizeof out->detail, "%s", e.detail);
        if (ready)
            ready(arg);
        goto free_ins;
    }
    if (s->mode == ENG_MODE_GARBAGE) {
        if (inst_alloc(&e, &ins[biggest]) != 0)
            err = true;
        for (size_t i = 0; i < nsh && !err; i++)
            if (i != biggest)
                for (size_t b = 0; b < e.m->nbuffers; b++) {
                    ins[i].var[b].base = ins[biggest].var[b].base;
                    ins[i].var[b].data = ins[biggest].var[b].data;
                    ins[i].var[b].alloc = ins[biggest].var[b].alloc;
                    ins[i].ref[b].base = ins[biggest].ref[b].base;
                    ins[i].ref[b].data = ins[biggest].ref[b].data;
                    ins[i].ref[b].alloc = ins[biggest].ref[b].alloc;
                }
    } else if (s->mode != ENG_MODE_WARM) {
        err = inst_alloc(&e, &ins[0]) != 0;
    }
    for (size_t i = 0; i < nsh && !err; i++)
        if ((s->mode != ENG_MODE_WARM) && inst_args(&e, &ins[i]) != 0)
            err = true;
    if (err) {
        finish_error(&e, "allocating buffers");
        if (ready)
            ready(arg);
        goto free_ins;
    }
    if (ready)
        ready(arg);
    struct timer t;
    timer_init(&e, &t);
    int rc = 0;
    switch (s->mode) {
    case ENG_MODE_PLAIN:
        rc = mode_plain(&e, &ins[0], &t, s->baseline ? OUT_ZEROS : OUT_SENTINEL, !s->baseline, "");
        break;
    case ENG_MODE_GRAPH:
        rc = mode_graph(&e, &ins[0], &t);
        break;
    case ENG_MODE_STREAMS:
        rc = mode_streams(&e, &ins[0], &t);
        break;
    case ENG_MODE_REPEAT:
        rc = mode_repeat(&e, &ins[0], &t);
        break;
    case ENG_MODE_WARM:
        for (size_t i = 0; i < nsh && rc == 0 && !e.failed; i++) {
            rc = inst_alloc(&e, &ins[i]);
            if (rc == 0)
                rc = inst_args(&e, &ins[i]);
            if (rc == 0)
                rc = mode_plain(&e, &ins[i], &t, OUT_SENTINEL, true, ins[i].desc);
            /* Keep earlier shapes' buffers alive: a cache keyed on the wrong thing shows when
             * several shapes live in one process. */
        }
        break;
    case ENG_MODE_GARBAGE:
        for (size_t i = 0; i < nsh && rc == 0 && !e.failed; i++)
            rc = mode_plain(&e, &ins[i], &t, OUT_GARBAGE, false, ins[i].desc);
        break;
    case ENG_MODE_COUNT:
        break;
    }
    timer_finish(&e, &t);
    if (rc < 0) {
        finish_error(&e, e.failed ? e.detail : "");
    } else if (rc > 0) {
        out->verdict = CDB_SKIP;
        snprintf(out->detail, sizeof out->detail, "%s", e.detail);
    } else {
        out->verdict = e.failed ? CDB_FAIL : CDB_PASS;
        snprintf(out->detail, sizeof out->detail, "%s", e.detail);
        if (!out->repeats)
            out->repeats = (int)t.n;
    }
free_ins:
    for (size_t i = 0; i < nsh; i++) {
        if (s->mode == ENG_MODE_GARBAGE && i != biggest)
            ins[i].allocated = false;
        inst_free(&e, &ins[i]);
    }
    free(ins);
done:
    if (e.ctx) {
        if (e.res)
            e.B->mem_free(e.ctx, e.res);
        if (e.mod)
            e.B->module_unload(e.ctx, e.mod);
        if (e.umod)
            e.B->module_unload(e.ctx, e.umod);
        e.B->close(e.ctx);
    }
    eng_manifest_free(e.m);
}
