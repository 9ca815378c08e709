/* Running one check on a device (the worker side of the watchdog).
 *
 * Every buffer is allocated at its padded size between two guard regions. Outputs (and their
 * guards) start as the dtype's sentinel, the reference writes into its own copies prepared the
 * same way, and the oracles in kernels/util.kl compare on the device; only a few result words
 * come back to the host. */
#define _GNU_SOURCE
#include "engine/exec.h"
#include "engine/compile_spec.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/embed.h"
#include "common/fileio.h"
#include "engine/codeobj/amdgpu_co.h"
#include "common/hash.h"
#include "common/xalloc.h"
#include "engine/cache/cache.h"
#include "engine/rung.h"
#include "engine/session.h"
#include "engine/replay.h"
#include "engine/value_class.h"
#define KL_ABI_ONLY /* the lag builds' async queue sizes */
#include "kernels/kl.h"

void eng_exec_note(struct eng_exec *e, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void eng_exec_note(struct eng_exec *e, const char *fmt, ...)
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


int eng_exec_ulaunch(struct eng_exec *e, struct eng_kernel *k, uint64_t work, struct eng_stream *s,
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

static int u_pattern(struct eng_exec *e, eng_dptr p, uint64_t nbytes, uint64_t pattern,
                     struct eng_stream *s)
{
    if (!nbytes)
        return 0;
    void *a[] = {&p, &nbytes, &pattern};
    return eng_exec_ulaunch(e, e->kpat, nbytes / 8 + 1, s, a);
}

/* Fills n elements at p with the values of global indices first .. first + n - 1. */
static int u_fill_from(struct eng_exec *e, eng_dptr p, uint64_t n, enum eng_dtype dt,
                       enum eng_init init, uint64_t seed, uint64_t first, struct eng_stream *s)
{
    if (!n)
        return 0;
    if (init == ENG_INIT_ZEROS)
        return e->B->memset_d8(e->ctx, p, 0, n * eng_dtype_size(dt), s, e->err, sizeof e->err);
    int dtype = (int)dt, in = (int)init;
    void *a[] = {&p, &n, &dtype, &in, &seed, &first};
    return eng_exec_ulaunch(e, e->kfill, n, s, a);
}

static int u_fill(struct eng_exec *e, eng_dptr p, uint64_t n, enum eng_dtype dt, enum eng_init init,
                  uint64_t seed, struct eng_stream *s)
{
    return u_fill_from(e, p, n, dt, init, seed, 0, s);
}

int eng_exec_res_clear(struct eng_exec *e, struct eng_stream *s)
{
    return e->B->memset_d8(e->ctx, e->res, 0, ENG_RES_WORDS * 8, s, e->err, sizeof e->err);
}

int eng_exec_res_read(struct eng_exec *e, uint64_t *r, struct eng_stream *s)
{
    return e->B->memcpy_dtoh(e->ctx, r, e->res, ENG_RES_WORDS * 8, s, e->err, sizeof e->err);
}

int eng_exec_sync_all(struct eng_exec *e, struct eng_stream *s)
{
    if (s)
        ENG_TRY(e->B->stream_sync(e->ctx, s, e->err, sizeof e->err));
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

static void inst_free(struct eng_exec *e, struct eng_inst *in)
{
    size_t nb = e->m->nbuffers;
    if (in->allocated && !in->borrowed)
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
    eng_sample_free(&in->sample);
    eng_values_free(&in->v);
    memset(in, 0, sizeof *in);
}

/* Bytes a sampled instance touches: every buffer whole but the output's ranges and guards
 * (twice: the variant's and the reference's copies) and the declared rows of row-sampled
 * inputs. */
static uint64_t sampled_bytes(const struct eng_exec *e, const struct eng_inst *in)
{
    uint64_t t = 0;
    for (size_t i = 0; i < e->m->nbuffers; i++) {
        uint64_t es = eng_dtype_size(e->m->buffers[i].dtype);
        const struct eng_bufi *v = &in->var[i];
        uint64_t b = in->sampled && i == in->sample.out ? in->sample.elems * es + 2 * ENG_GUARD_BYTES
                     : v->rows_only ? v->row_count * v->row_elems * es + 2 * ENG_GUARD_BYTES
                                    : v->alloc;
        t += b * (in->ref[i].shared_with_var ? 1 : 2);
    }
    return t;
}

/* The padded extent of buffer i's first dimension. */
static uint64_t row_count_of(struct eng_exec *e, const struct eng_inst *in, size_t i)
{
    const struct eng_buffer_spec *b = &e->m->buffers[i];
    int64_t dim, pad = 1;
    if (!b->ndims || eng_values_eval(&in->v, b->dims[0], &dim, e->err, sizeof e->err) != 0 ||
        (b->pad_to[0] && eng_values_eval(&in->v, b->pad_to[0], &pad, e->err, sizeof e->err) != 0) ||
        dim <= 0 || pad < 1)
        return 0;
    return ((uint64_t)dim + (uint64_t)pad - 1) / (uint64_t)pad * (uint64_t)pad;
}

/* A launch beyond the backend's reach (an output past 2^31 bytes, or too many bytes) that the
 * rung allows to sample: fills only the rows the rung declares of its inputs, and where that is
 * not enough and the backend can, plans the block sample and counts only the sampled blocks'
 * threads. 0 (sampled or not), 1 (skip: the reason in e->detail) or -1 (e->err). */
static int sample_if_beyond(struct eng_exec *e, struct eng_inst *in, uint64_t total, uint64_t maxb,
                            uint64_t *threads, uint64_t *rthreads)
{
    const struct eng_manifest *m = e->m;
    bool big_out = false;
    for (size_t i = 0; i < m->nbuffers; i++)
        big_out |= m->buffers[i].role == ENG_ROLE_OUTPUT && in->var[i].padded_bytes > (1ull << 31);
    /* KLADDER_CPU_SAMPLE=0 turns samples off: such checks are skipped again (tests do) */
    const char *env = getenv("KLADDER_CPU_SAMPLE");
    if ((total <= maxb && !big_out) || !e->s->sample_cliffs || (env && !strcmp(env, "0")))
        return 0;
    /* Inputs the rung fills only in the rows its checks read (rung 4's full pools). */
    const struct eng_rung *R = eng_rung_find(e->s->rung);
    for (size_t i = 0; R && R->input_rows && i < m->nbuffers; i++) {
        uint64_t first, rows;
        int rc = m->buffers[i].role == ENG_ROLE_INPUT
                     ? R->input_rows(m, &in->v, i, &first, &rows, e->err, sizeof e->err)
                     : 0;
        if (rc < 0)
            return -1;
        struct eng_bufi *b = &in->var[i];
        uint64_t dim0 = b->elems && b->padded_elems ? row_count_of(e, in, i) : 0;
        if (rc == 0 || !dim0)
            continue;
        if (first + rows > dim0)
            rows = first < dim0 ? dim0 - first : 0;
        b->rows_only = true;
        b->row_first = first;
        b->row_count = rows;
        b->row_elems = b->padded_elems / dim0;
        in->ref[i] = *b;
        in->ref[i].shared_with_var = true;
        uint64_t now = 2 * ENG_GUARD_BYTES + rows * b->row_elems * eng_dtype_size(m->buffers[i].dtype);
        total = total - b->alloc + now;
        in->rows_sampled = true;
    }
    if (in->rows_sampled && total <= maxb && !big_out)
        return 0;
    if (!e->B->block_sample)
        return 0;
    char why[256];
    if (eng_sample_plan(m, &in->v, in->grid, in->rgrid, &in->sample, why, sizeof why) != 0) {
        eng_exec_note(e, "%s: beyond the cpu backend, and cannot be sampled: %s (run it on a GPU)",
                      in->desc, why);
        return 1;
    }
    in->sampled = true;
    uint64_t per_block = (uint64_t)in->block[0] * in->block[1] * in->block[2];
    *threads = in->sample.nblocks * per_block;
    *rthreads = in->sample.nblocks * (uint64_t)in->rblock[0] * in->rblock[1] * in->rblock[2];
    return 0;
}

/* Sizes, geometry and the cpu backend's reach. Returns 0, 1 (skip, reason in e->detail) or -1. */
static int inst_plan(struct eng_exec *e, struct eng_inst *in, const struct eng_shape *shape)
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
        struct eng_bufi *b = &in->var[i];
        b->elems = sz.elems;
        b->padded_elems = sz.padded_elems;
        b->padded_bytes = sz.padded_bytes;
        b->alloc = ENG_GUARD_BYTES + ((sz.padded_bytes + 255) & ~(uint64_t)255) + ENG_GUARD_BYTES;
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
        int sr = sample_if_beyond(e, in, total, maxb, &threads, &rthreads);
        if (sr != 0)
            return sr;
        if (in->sampled || in->rows_sampled)
            total = sampled_bytes(e, in);
        for (size_t i = 0; !in->sampled && i < m->nbuffers; i++)
            if (m->buffers[i].role == ENG_ROLE_OUTPUT && in->var[i].padded_bytes > (1ull << 31)) {
                human_bytes(in->var[i].padded_bytes, hb, sizeof hb);
                eng_exec_note(e, "%s: output %s is %s, past 2^31 bytes: beyond the cpu backend (run it on a GPU)",
                     in->desc, m->buffers[i].name, hb);
                return 1;
            }
        if (total > maxb) {
            eng_exec_note(e, "%s: needs %s of buffers; the cpu backend runs checks up to %s (run it on a GPU)",
                 in->desc, hb, lim);
            return 1;
        }
        /* Every launch of the variant counts: repeats and replays multiply the work. */
        uint64_t launches = 1 + (uint64_t)(e->s->repeats > 0 ? e->s->repeats : 0) +
                            (uint64_t)(e->s->replays > 0 ? e->s->replays : 0);
        uint64_t work = threads * launches + rthreads;
        if (maxt && work > maxt) {
            eng_exec_note(e, "%s: %llu emulated threads (%llu launch%s of %llu, and the reference); the cpu "
                    "backend runs up to %llu per check in reasonable time (run it on a GPU)",
                 in->desc, (unsigned long long)work, (unsigned long long)launches,
                 launches == 1 ? "" : "es", (unsigned long long)threads, (unsigned long long)maxt);
            return 1;
        }
    } else if (e->info.mem_bytes > 0 && total > (uint64_t)e->info.mem_bytes / 10 * 9) {
        human_bytes((uint64_t)e->info.mem_bytes, lim, sizeof lim);
        eng_exec_note(e, "%s: needs %s of buffers; the device has %s", in->desc, hb, lim);
        return 1;
    }
    return 0;
}

int eng_exec_inst_alloc(struct eng_exec *e, struct eng_inst *in)
{
    const struct eng_manifest *m = e->m;
    in->allocated = true;
    for (size_t i = 0; i < m->nbuffers; i++) {
        struct eng_bufi *v = &in->var[i], *r = &in->ref[i];
        ENG_TRY(e->B->mem_alloc(e->ctx, v->alloc, &v->base, e->err, sizeof e->err));
        v->data = v->base + ENG_GUARD_BYTES;
        if (r->shared_with_var) {
            r->base = v->base;
            r->data = v->data;
        } else {
            ENG_TRY(e->B->mem_alloc(e->ctx, r->alloc, &r->base, e->err, sizeof e->err));
            r->data = r->base + ENG_GUARD_BYTES;
        }
    }
    return 0;
}

/* Builds both argument arrays (variant and reference) pointing at the instance's buffers. */
int eng_exec_inst_args(struct eng_exec *e, struct eng_inst *in)
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

static uint64_t buffer_seed(const struct eng_exec *e, size_t i)
{
    struct hash_state h;
    hash_init(&h);
    hash_str(&h, e->m->buffers[i].name);
    hash_bytes(&h, &e->s->seed, sizeof e->s->seed);
    return h.a;
}

void eng_exec_rows(const struct eng_exec *e, const struct eng_inst *in, size_t b, uint64_t *len,
                   uint64_t *stride)
{
    const struct eng_buffer_spec *bs = &e->m->buffers[b];
    int64_t dim = 1, pad = 1;
    char err[64];
    eng_values_eval(&in->v, bs->dims[bs->ndims - 1], &dim, err, sizeof err);
    if (bs->pad_to[bs->ndims - 1])
        eng_values_eval(&in->v, bs->pad_to[bs->ndims - 1], &pad, err, sizeof err);
    if (dim < 0)
        dim = 0;
    if (pad < 1)
        pad = 1;
    *len = (uint64_t)dim;
    *stride = ((uint64_t)dim + (uint64_t)pad - 1) / (uint64_t)pad * (uint64_t)pad;
}

/* A captured tensor for this input (engine/replay.h), *ref its reference. */
#define INIT_REPLAY (-2)

/* The init buffer i gets: the check's override for it ("CLASS;V=ones", or a captured tensor
 * "replay;V=@FILE#TENSOR"), else the check's class for a float input ("replay" names none),
 * else its manifest init. -1 with e->err when the check names something unknown. */
static int input_init(struct eng_exec *e, size_t i, const char **ref)
{
    const struct eng_buffer_spec *b = &e->m->buffers[i];
    const char *v = e->s->values;
    if (!v)
        return (int)b->init;
    size_t nl = strlen(b->name);
    for (const char *o = strchr(v, ';'); o; o = strchr(o + 1, ';'))
        if (!strncmp(o + 1, b->name, nl) && o[1 + nl] == '=') {
            if (o[2 + nl] == '@') {
                *ref = o + 2 + nl;
                return INIT_REPLAY;
            }
            char name[64];
            snprintf(name, sizeof name, "%.*s", (int)strcspn(o + 2 + nl, ";"), o + 2 + nl);
            int init = eng_init_find(name);
            if (init < 0 || (init >= ENG_INIT_CLASS && !eng_vclass_applies(b->dtype))) {
                snprintf(e->err, sizeof e->err, "input %s: no init '%s' for a %s buffer", b->name,
                         name, eng_vclass_applies(b->dtype) ? "float" : "integer");
                return -1;
            }
            return init;
        }
    if (!eng_vclass_applies(b->dtype) || (strcspn(v, ";") == 6 && !strncmp(v, "replay", 6)))
        return (int)b->init;
    char cls[64];
    snprintf(cls, sizeof cls, "%.*s", (int)strcspn(v, ";"), v);
    int c = eng_vclass_find(cls);
    if (c < 0) {
        snprintf(e->err, sizeof e->err, "unknown value class '%.60s' (expected one of %s)", cls,
                 eng_vclass_list());
        return -1;
    }
    return ENG_INIT_CLASS + c;
}

/* Host generation is for the shapes rung 2 uses (rows of real inputs), not the 2^31 cliffs. */
#define HOST_INPUT_MAX ((uint64_t)256 << 20)

/* Fills buffer i of the instance on the host, with value class c or (c < 0) the captured
 * tensor ref, and uploads it. */
static int fill_on_host(struct eng_exec *e, struct eng_inst *in, size_t i, int c, const char *ref,
                      struct eng_stream *s)
{
    struct eng_bufi *b = &in->var[i];
    enum eng_dtype dt = e->m->buffers[i].dtype;
    if (b->padded_bytes > HOST_INPUT_MAX) {
        snprintf(e->err, sizeof e->err, "input %s is %llu bytes: %s %s is made on the host, up "
                 "to %llu bytes", e->m->buffers[i].name, (unsigned long long)b->padded_bytes,
                 c < 0 ? "a replayed" : "value class", c < 0 ? "tensor" : eng_vclass_name((enum eng_vclass)c),
                 (unsigned long long)HOST_INPUT_MAX);
        return -1;
    }
    if (!e->host_in)
        e->host_in = xcalloc(e->m->nbuffers, sizeof *e->host_in);
    free(e->host_in[i]);
    e->host_in[i] = xmalloc(b->padded_bytes ? (size_t)b->padded_bytes : 1);
    uint64_t len, stride;
    eng_exec_rows(e, in, i, &len, &stride);
    if (c < 0)
        ENG_TRY(eng_replay_fill(e->m, i, &in->v, ref, e->host_in[i], b->padded_elems, e->err,
                                sizeof e->err));
    else
        eng_vclass_fill((enum eng_vclass)c, dt, e->host_in[i], b->padded_elems, len, stride,
                        buffer_seed(e, i));
    if (!b->padded_bytes)
        return 0;
    return e->B->memcpy_htod(e->ctx, b->data, e->host_in[i], (size_t)b->padded_bytes, s, e->err,
                             sizeof e->err);
}

int eng_exec_fill_inputs(struct eng_exec *e, struct eng_inst *in, struct eng_stream *s, bool garbage)
{
    const struct eng_manifest *m = e->m;
    for (size_t i = 0; i < m->nbuffers; i++) {
        if (m->buffers[i].role != ENG_ROLE_INPUT)
            continue;
        struct eng_bufi *b = &in->var[i];
        enum eng_dtype dt = m->buffers[i].dtype;
        ENG_TRY(u_pattern(e, b->base, ENG_GUARD_BYTES, eng_dtype_sentinel(dt), s));
        const char *ref = NULL;
        int init = garbage ? ENG_INIT_GARBAGE : input_init(e, i, &ref);
        if (b->rows_only && (init == INIT_REPLAY || init >= ENG_INIT_CLASS)) {
            snprintf(e->err, sizeof e->err, "input %s: a row sample is filled on the device, "
                     "from its manifest init; values made on the host cannot be sampled",
                     m->buffers[i].name);
            return -1;
        }
        if (init == INIT_REPLAY) {
            ENG_TRY(fill_on_host(e, in, i, -1, ref, s));
        } else if (init < 0) {
            return -1;
        } else if (init >= ENG_INIT_CLASS) {
            ENG_TRY(fill_on_host(e, in, i, init - ENG_INIT_CLASS, NULL, s));
        } else if (b->rows_only) {
            /* the declared rows only, with the values a whole fill gives them */
            uint64_t row = b->row_elems;
            ENG_TRY(u_fill_from(e, b->data + b->row_first * row * eng_dtype_size(dt), b->row_count * row,
                                dt, (enum eng_init)init, buffer_seed(e, i) ^ (garbage ? 0x6a09e667u : 0),
                                b->row_first * row, s));
        } else {
            if (e->host_in && e->host_in[i]) {
                free(e->host_in[i]); /* made on the device now: nothing on the host to quote */
                e->host_in[i] = NULL;
            }
            ENG_TRY(u_fill(e, b->data, b->padded_elems, dt, (enum eng_init)init,
                           buffer_seed(e, i) ^ (garbage ? 0x6a09e667u : 0), s));
        }
        ENG_TRY(u_pattern(e, b->data + b->padded_bytes, b->alloc - ENG_GUARD_BYTES - b->padded_bytes,
                      eng_dtype_sentinel(dt), s));
    }
    return 0;
}

/* Outputs of the variant (which & 1) and the reference (which & 2), prepared identically. */
int eng_exec_prepare_outputs_of(struct eng_exec *e, struct eng_inst *in, enum eng_out_style style, int which,
                              struct eng_stream *s)
{
    const struct eng_manifest *m = e->m;
    for (size_t i = 0; i < m->nbuffers; i++) {
        if (m->buffers[i].role != ENG_ROLE_OUTPUT)
            continue;
        enum eng_dtype dt = m->buffers[i].dtype;
        uint64_t pat = eng_dtype_sentinel(dt);
        struct eng_bufi *bs[2] = {&in->var[i], &in->ref[i]};
        for (int k = 0; k < 2; k++) {
            if (!(which & (1 << k)))
                continue;
            struct eng_bufi *b = bs[k];
            if (style == ENG_OUT_SENTINEL && in->sampled && i == in->sample.out) {
                /* the guards and the sampled tiles only: the rest stays unbacked */
                uint64_t es = eng_dtype_size(dt);
                ENG_TRY(u_pattern(e, b->base, ENG_GUARD_BYTES, pat, s));
                ENG_TRY(u_pattern(e, b->data + b->padded_bytes,
                                  b->alloc - ENG_GUARD_BYTES - b->padded_bytes, pat, s));
                for (size_t r = 0; r < in->sample.nranges; r++)
                    ENG_TRY(u_pattern(e, b->data + in->sample.ranges[r][0] * es,
                                      in->sample.ranges[r][1] * es, pat, s));
                continue;
            }
            if (style == ENG_OUT_SENTINEL) {
                ENG_TRY(u_pattern(e, b->base, b->alloc, pat, s));
                continue;
            }
            ENG_TRY(u_pattern(e, b->base, ENG_GUARD_BYTES, pat, s));
            ENG_TRY(u_fill(e, b->data, b->padded_elems, dt,
                       style == ENG_OUT_ZEROS ? ENG_INIT_ZEROS : ENG_INIT_GARBAGE, buffer_seed(e, i), s));
            ENG_TRY(u_pattern(e, b->data + b->padded_bytes, b->alloc - ENG_GUARD_BYTES - b->padded_bytes,
                          pat, s));
        }
    }
    return 0;
}

int eng_exec_prepare_outputs(struct eng_exec *e, struct eng_inst *in, enum eng_out_style style,
                           struct eng_stream *s)
{
    return eng_exec_prepare_outputs_of(e, in, style, 3, s);
}

/* Scratch buffers to their manifest init (which = 1 variant, 2 reference, 3 both). */
int eng_exec_reset_scratch(struct eng_exec *e, struct eng_inst *in, int which, struct eng_stream *s)
{
    const struct eng_manifest *m = e->m;
    for (size_t i = 0; i < m->nbuffers; i++) {
        if (m->buffers[i].role != ENG_ROLE_SCRATCH)
            continue;
        enum eng_dtype dt = m->buffers[i].dtype;
        for (int k = 0; k < 2; k++) {
            if (!(which & (1 << k)))
                continue;
            struct eng_bufi *b = k ? &in->ref[i] : &in->var[i];
            ENG_TRY(u_fill(e, b->data, b->padded_elems, dt, m->buffers[i].init, buffer_seed(e, i), s));
        }
    }
    return 0;
}

int eng_exec_guards_scratch(struct eng_exec *e, struct eng_inst *in, struct eng_stream *s)
{
    const struct eng_manifest *m = e->m;
    for (size_t i = 0; i < m->nbuffers; i++) {
        if (m->buffers[i].role != ENG_ROLE_SCRATCH)
            continue;
        uint64_t pat = eng_dtype_sentinel(m->buffers[i].dtype);
        for (int k = 0; k < 2; k++) {
            struct eng_bufi *b = k ? &in->ref[i] : &in->var[i];
            ENG_TRY(u_pattern(e, b->base, ENG_GUARD_BYTES, pat, s));
            ENG_TRY(u_pattern(e, b->data + b->padded_bytes, b->alloc - ENG_GUARD_BYTES - b->padded_bytes,
                          pat, s));
        }
    }
    return 0;
}

int eng_exec_launch_var(struct eng_exec *e, struct eng_inst *in, struct eng_stream *s)
{
    if (in->sampled)
        e->B->block_sample(e->ctx, in->sample.blocks, in->sample.nblocks);
    int rc = e->B->launch(e->ctx, e->kvar, in->grid, in->block, in->shared, s, in->args_var, e->err,
                          sizeof e->err);
    if (in->sampled)
        e->B->block_sample(e->ctx, NULL, 0);
    return rc;
}

int eng_exec_launch_ref(struct eng_exec *e, struct eng_inst *in, struct eng_stream *s)
{
    if (in->sampled)
        e->B->block_sample(e->ctx, in->sample.blocks, in->sample.nblocks);
    int rc = e->B->launch(e->ctx, e->kref, in->rgrid, in->rblock, in->rshared, s, in->args_ref,
                          e->err, sizeof e->err);
    if (in->sampled)
        e->B->block_sample(e->ctx, NULL, 0);
    return rc;
}

/* ---- oracles ---------------------------------------------------------------------------- */

static void coords(const struct eng_exec *e, const struct eng_inst *in, size_t b, uint64_t flat, char *out,
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

/* What the host-made inputs held where output b first went wrong (flat padded index): the
 * same element of an input of the output's size, else the output's row of an input with more
 * elements ("scores row 3: 0.75 0.75 -0.25 ..."). Empty when no input was made on the host. */
static void inputs_at(const struct eng_exec *e, const struct eng_inst *in, size_t b, uint64_t flat,
                      char *out, size_t n)
{
    out[0] = '\0';
    if (!e->host_in)
        return;
    const struct eng_manifest *m = e->m;
    uint64_t olen, ostride;
    eng_exec_rows(e, in, b, &olen, &ostride);
    uint64_t row = m->buffers[b].ndims > 1 && ostride ? flat / ostride : flat;
    size_t len = 0;
    for (size_t i = 0; i < m->nbuffers && len + 8 < n; i++) {
        if (!e->host_in[i])
            continue;
        enum eng_dtype dt = m->buffers[i].dtype;
        const struct eng_bufi *bi = &in->var[i];
        if (bi->padded_elems == in->var[b].padded_elems) {
            len += (size_t)snprintf(out + len, n - len, "; input %s there is %.6g",
                                    m->buffers[i].name, eng_dtype_value(dt, e->host_in[i], flat));
            continue;
        }
        uint64_t ilen, istride;
        eng_exec_rows(e, in, i, &ilen, &istride);
        if (!istride || (row + 1) * istride > bi->padded_elems)
            continue;
        len += (size_t)snprintf(out + len, n - len, "; input %s row %llu:", m->buffers[i].name,
                                (unsigned long long)row);
        for (uint64_t k = 0; k < ilen && k < 8 && len + 16 < n; k++)
            len += (size_t)snprintf(out + len, n - len, " %.4g",
                                    eng_dtype_value(dt, e->host_in[i], row * istride + k));
        if (ilen > 8 && len + 8 < n)
            len += (size_t)snprintf(out + len, n - len, " ...");
    }
}

bool eng_exec_inputs_finite(const struct eng_exec *e, const struct eng_inst *in)
{
    const struct eng_manifest *m = e->m;
    for (size_t i = 0; i < m->nbuffers; i++) {
        if (m->buffers[i].role != ENG_ROLE_INPUT || !eng_vclass_applies(m->buffers[i].dtype))
            continue;
        if (e->host_in && e->host_in[i]) {
            for (uint64_t k = 0; k < in->var[i].padded_elems; k++)
                if (!isfinite(eng_dtype_value(m->buffers[i].dtype, e->host_in[i], k)))
                    return false;
        } else if (m->buffers[i].init == ENG_INIT_GARBAGE) {
            return false;
        }
    }
    return true;
}

/* "nan": "never": no NaN in output b (from finite inputs), whatever the reference holds. */
static int nan_never(struct eng_exec *e, struct eng_inst *in, size_t b, const char *pre,
                     struct eng_stream *s)
{
    struct eng_bufi *v = &in->var[b];
    uint64_t len, stride;
    eng_exec_rows(e, in, b, &len, &stride);
    uint64_t rows = len ? v->elems / len : 0;
    int dtype = (int)e->m->buffers[b].dtype;
    eng_dptr res = e->res;
    ENG_TRY(eng_exec_res_clear(e, s));
    void *a[] = {&v->data, &rows, &len, &stride, &dtype, &res};
    ENG_TRY(eng_exec_ulaunch(e, e->knan, rows * len, s, a));
    uint64_t w[ENG_RES_WORDS];
    ENG_TRY(eng_exec_res_read(e, w, s));
    if (w[0]) {
        char at[96], inputs[320];
        coords(e, in, b, w[1] - 1, at, sizeof at);
        inputs_at(e, in, b, w[1] - 1, inputs, sizeof inputs);
        eng_exec_note(e, "%s%s: %llu NaN from finite inputs (first at %s; its rule is \"nan\": "
                      "\"never\")%s", pre, e->m->buffers[b].name, (unsigned long long)w[0], at,
                      inputs);
        e->failed = true;
        eng_exec_record_bad(e, (int64_t)w[1] - 1, (int64_t)w[0], NAN);
    }
    return 0;
}

void eng_exec_where(const struct eng_exec *e, const struct eng_inst *in, size_t b, uint64_t flat,
                    char *out, size_t n)
{
    char at[96], inputs[320];
    coords(e, in, b, flat, at, sizeof at);
    inputs_at(e, in, b, flat, inputs, sizeof inputs);
    snprintf(out, n, "%s%s", at, inputs);
}

void eng_exec_record_bad(struct eng_exec *e, int64_t first, int64_t count, double maxerr)
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

/* The first differing element as the check's seam: the kernel's value beside the reference's
 * (two roundings of one number, say), read back alone: two elements, not the outputs. */
static void values_seam(struct eng_exec *e, const struct eng_inst *in, size_t b, uint64_t flat,
                        const char *at, struct eng_stream *s)
{
    enum eng_dtype dt = e->m->buffers[b].dtype;
    size_t sz = eng_dtype_size(dt);
    unsigned char got[8], want[8];
    char err[256];
    if (sz > sizeof got ||
        e->B->memcpy_dtoh(e->ctx, got, in->var[b].data + flat * sz, sz, s, err, sizeof err) ||
        e->B->memcpy_dtoh(e->ctx, want, in->ref[b].data + flat * sz, sz, s, err, sizeof err))
        return;
    const char *entry = strcmp(e->s->variant, "buggy") == 0 ? e->m->entry_buggy : e->m->entry_fixed;
    char a[192], r[192];
    snprintf(a, sizeof a, "kernel %s: %s%s = %.9g", entry, e->m->buffers[b].name, at,
             eng_dtype_value(dt, got, 0));
    snprintf(r, sizeof r, "reference %s: %s%s = %.9g", e->m->entry_reference,
             e->m->buffers[b].name, at, eng_dtype_value(dt, want, 0));
    eng_check_seam(e->out, "values", a, r);
}

/* The guards of buffer b's variant copy: a word changed before or after it fails the check.
 * Inputs and scratch buffers have guards as outputs do, and a kernel that writes past a scratch
 * buffer is as wrong as one that writes past its output. */
static int guards_check(struct eng_exec *e, struct eng_inst *in, size_t b, const char *pre,
                        struct eng_stream *s)
{
    const struct eng_manifest *m = e->m;
    struct eng_bufi *v = &in->var[b];
    uint64_t pat = eng_dtype_sentinel(m->buffers[b].dtype), gsz = ENG_GUARD_BYTES;
    uint64_t tail = v->alloc - ENG_GUARD_BYTES - v->padded_bytes;
    eng_dptr after = v->data + v->padded_bytes, g1 = e->res, g2 = e->res + 8 * 8;
    void *k1[] = {&v->base, &gsz, &pat, &g1};
    void *k2[] = {&after, &tail, &pat, &g2};
    ENG_TRY(eng_exec_res_clear(e, s));
    ENG_TRY(eng_exec_ulaunch(e, e->kchk, gsz / 8 + 1, s, k1));
    ENG_TRY(eng_exec_ulaunch(e, e->kchk, tail / 8 + 1, s, k2));
    uint64_t w[ENG_RES_WORDS];
    ENG_TRY(eng_exec_res_read(e, w, s));
    const char *bn = m->buffers[b].name;
    const char *role = m->buffers[b].role == ENG_ROLE_SCRATCH ? "scratch "
                       : m->buffers[b].role == ENG_ROLE_INPUT ? "input "
                                                              : "";
    if (w[0])
        eng_exec_note(e, "%s%s%s: %llu words of the guard before it were written (first at byte %lld)",
                      pre, role, bn, (unsigned long long)w[0], (long long)w[1] - 1 - (long long)ENG_GUARD_BYTES);
    if (w[8])
        eng_exec_note(e, "%s%s%s: %llu words past its end (padding included) were written (first at byte +%llu)",
                      pre, role, bn, (unsigned long long)w[8], (unsigned long long)(w[9] - 1));
    if (w[0] || w[8]) {
        e->failed = true;
        eng_exec_record_bad(e, -1, (int64_t)(w[0] + w[8]), NAN);
    }
    return 0;
}

/* Elements of output b inside its logical shape that neither the variant nor the reference
 * wrote. The compare counts sentinel against sentinel as agreement, so a wrap the reference
 * shares (both index with a 32-bit int: every store past 2^31 elements lands 4 GiB before the
 * buffer, out of every guard) would pass. u8 outputs are left out: 0xa5 is an ordinary value. */
static int unwritten_check(struct eng_exec *e, struct eng_inst *in, size_t b, const char *pre,
                           struct eng_stream *s)
{
    const struct eng_buffer_spec *bs = &e->m->buffers[b];
    struct eng_bufi *v = &in->var[b], *r = &in->ref[b];
    if (bs->dtype == ENG_U8 || !v->padded_elems)
        return 0;
    uint64_t l[4] = {v->padded_elems, 1, 1, 1}, p[4] = {v->padded_elems, 1, 1, 1}, nd = 1;
    if (v->padded_elems != v->elems) {
        if (bs->ndims > 4)
            return 0; /* padding over more than four dims: judged by the compare alone */
        nd = bs->ndims;
        for (size_t d = 0; d < bs->ndims; d++) {
            int64_t dim, pad = 1;
            if (eng_values_eval(&in->v, bs->dims[d], &dim, e->err, sizeof e->err) != 0 ||
                (bs->pad_to[d] && eng_values_eval(&in->v, bs->pad_to[d], &pad, e->err, sizeof e->err) != 0))
                return -1;
            l[d] = (uint64_t)dim;
            p[d] = ((uint64_t)dim + (uint64_t)pad - 1) / (uint64_t)pad * (uint64_t)pad;
        }
    }
    int dtype = (int)bs->dtype;
    eng_dptr res = e->res;
    void *a[] = {&v->data, &r->data, &v->padded_elems, &dtype, &nd, &l[0], &l[1], &l[2], &l[3],
                 &p[0], &p[1], &p[2], &p[3], &res};
    ENG_TRY(eng_exec_res_clear(e, s));
    ENG_TRY(eng_exec_ulaunch(e, e->kunw, v->padded_elems, s, a));
    uint64_t w[ENG_RES_WORDS];
    ENG_TRY(eng_exec_res_read(e, w, s));
    if (w[0]) {
        char at[96];
        coords(e, in, b, w[1] - 1, at, sizeof at);
        eng_exec_note(e, "%s%s: %llu elements inside its shape were written by neither the variant "
                      "nor the reference (still the sentinel in both, first at %s): the reference "
                      "cannot vouch for them (an index both hold in 32 bits wraps past 2^31 elements)",
                      pre, bs->name, (unsigned long long)w[0], at);
        e->failed = true;
        eng_exec_record_bad(e, (int64_t)w[1] - 1, (int64_t)w[0], NAN);
    }
    return 0;
}

/* The oracles of a sampled output over its sampled ranges: reference, finite, sentinel (never
 * written, and written by neither) range by range, then its guards. The first bad element is
 * the smallest over all ranges. */
static int oracle_sampled(struct eng_exec *e, struct eng_inst *in, size_t i, const char *pre,
                          struct eng_stream *s)
{
    const struct eng_manifest *m = e->m;
    struct eng_bufi *v = &in->var[i], *r = &in->ref[i];
    enum eng_dtype dt = m->buffers[i].dtype;
    uint64_t es = eng_dtype_size(dt), one = 1;
    int dtype = (int)dt;
    float atol = (float)m->tol_abs, rtol = (float)m->tol_rel;
    uint64_t bad = 0, first = UINT64_MAX, sent = 0, first_sent = UINT64_MAX, nonfin = 0;
    uint64_t unw = 0, first_unw = UINT64_MAX;
    float mx = 0;
    bool check_unw = dt != ENG_U8;
    for (size_t k = 0; k < in->sample.nranges; k++) {
        uint64_t st = in->sample.ranges[k][0], len = in->sample.ranges[k][1];
        eng_dptr o = v->data + st * es, rf = r->data + st * es, res = e->res, res2 = e->res + 8 * 8;
        ENG_TRY(eng_exec_res_clear(e, s));
        void *ca[] = {&o, &rf, &len, &dtype, &atol, &rtol, &res};
        ENG_TRY(eng_exec_ulaunch(e, e->kcmp, len, s, ca));
        if (check_unw) {
            void *ua[] = {&o, &rf, &len, &dtype, &one, &len, &one, &one, &one,
                          &len, &one, &one, &one, &res2};
            ENG_TRY(eng_exec_ulaunch(e, e->kunw, len, s, ua));
        }
        uint64_t w[ENG_RES_WORDS];
        ENG_TRY(eng_exec_res_read(e, w, s));
        if (w[0]) {
            bad += w[0];
            first = st + w[1] - 1 < first ? st + w[1] - 1 : first;
        }
        float f;
        uint32_t bits = (uint32_t)w[2];
        memcpy(&f, &bits, 4);
        mx = f > mx ? f : mx;
        nonfin += w[3];
        if (w[4]) {
            sent += w[4];
            first_sent = st + w[5] - 1 < first_sent ? st + w[5] - 1 : first_sent;
        }
        if (w[8]) {
            unw += w[8];
            first_unw = st + w[9] - 1 < first_unw ? st + w[9] - 1 : first_unw;
        }
    }
    const char *bn = m->buffers[i].name;
    if (bad) {
        char at[96], never[192] = "", nf[64] = "";
        coords(e, in, i, first, at, sizeof at);
        if (sent) {
            char at2[96];
            coords(e, in, i, first_sent, at2, sizeof at2);
            snprintf(never, sizeof never, "; %llu never written (still the sentinel, first at %s)",
                     (unsigned long long)sent, at2);
        }
        if (nonfin)
            snprintf(nf, sizeof nf, "; %llu NaN/Inf where the reference is finite",
                     (unsigned long long)nonfin);
        eng_exec_note(e, "%s%s: %llu of the %llu sampled elements differ from the reference (first "
                      "at %s), max error %.4g over the finite ones%s%s",
                      pre, bn, (unsigned long long)bad, (unsigned long long)in->sample.elems, at,
                      (double)mx, nf, never);
        e->failed = true;
        eng_exec_record_bad(e, (int64_t)first, (int64_t)bad, (double)mx);
    } else {
        eng_exec_record_bad(e, -1, 0, (double)mx);
    }
    if (unw) {
        char at[96];
        coords(e, in, i, first_unw, at, sizeof at);
        eng_exec_note(e, "%s%s: %llu sampled elements were written by neither the variant nor the "
                      "reference (still the sentinel in both, first at %s)",
                      pre, bn, (unsigned long long)unw, at);
        e->failed = true;
        eng_exec_record_bad(e, (int64_t)first_unw, (int64_t)unw, NAN);
    }
    return guards_check(e, in, i, pre, s);
}

/* Compares every output with the reference and checks the guards of every buffer (not in the
 * baseline, the plain unit test); with full, also the sentinel rules (never written). Returns -1 on a device error, else 0 (failures go
 * to e->failed / e->detail). prefix names the step ("replay 2"). */
int eng_exec_oracle(struct eng_exec *e, struct eng_inst *in, bool full, const char *prefix,
                  struct eng_stream *s)
{
    const struct eng_manifest *m = e->m;
    bool guards = full || !e->s->baseline;
    for (size_t i = 0; i < m->nbuffers; i++) {
        if (m->buffers[i].role != ENG_ROLE_OUTPUT)
            continue;
        if (in->sampled && i == in->sample.out) {
            char pre[96] = "";
            if (prefix && *prefix)
                snprintf(pre, sizeof pre, "%s: ", prefix);
            ENG_TRY(oracle_sampled(e, in, i, pre, s));
            continue;
        }
        struct eng_bufi *v = &in->var[i], *r = &in->ref[i];
        enum eng_dtype dt = m->buffers[i].dtype;
        ENG_TRY(eng_exec_res_clear(e, s));
        int dtype = (int)dt;
        float atol = (float)m->tol_abs, rtol = (float)m->tol_rel;
        eng_dptr res = e->res;
        const struct eng_buffer_spec *bs = &m->buffers[i];
        uint64_t rows = 0, k = 0, kstride = 0, len = 0, stride = 0;
        if (bs->ties_any) {
            /* Any element of the tied set is right: the picks are checked against the input. */
            eng_exec_rows(e, in, i, &k, &kstride);
            rows = bs->ndims > 1 && k ? v->elems / k : v->elems;
            if (bs->ndims == 1)
                k = kstride = 1;
            eng_exec_rows(e, in, (size_t)bs->ties_in, &len, &stride);
            int idt = (int)m->buffers[bs->ties_in].dtype;
            void *ta[] = {&v->data, &r->data, &rows, &k, &kstride, &in->var[bs->ties_in].data,
                          &idt, &len, &stride, &res};
            ENG_TRY(eng_exec_ulaunch(e, e->kties, rows, s, ta));
        } else {
            void *ca[] = {&v->data, &r->data, &v->padded_elems, &dtype, &atol, &rtol, &res};
            ENG_TRY(eng_exec_ulaunch(e, e->kcmp, v->padded_elems, s, ca));
        }
        uint64_t w[ENG_RES_WORDS];
        ENG_TRY(eng_exec_res_read(e, w, s));
        const char *bn = m->buffers[i].name;
        char pre[96] = "";
        if (prefix && *prefix)
            snprintf(pre, sizeof pre, "%s: ", prefix);
        if (w[0] && bs->ties_any) {
            char at[96], inputs[320];
            coords(e, in, i, w[1] - 1, at, sizeof at);
            inputs_at(e, in, i, w[1] - 1, inputs, sizeof inputs);
            eng_exec_note(e, "%s%s: %llu of %llu picks are outside the reference's tied set of %s "
                          "(first at %s)%s", pre, bn, (unsigned long long)w[0],
                          (unsigned long long)v->elems, m->buffers[bs->ties_in].name, at, inputs);
            e->failed = true;
            eng_exec_record_bad(e, (int64_t)w[1] - 1, (int64_t)w[0], NAN);
        } else if (w[0]) {
            float mx;
            uint32_t bits = (uint32_t)w[2];
            memcpy(&mx, &bits, 4);
            char at[96];
            coords(e, in, i, w[1] - 1, at, sizeof at);
            char never[192] = "", nonfin[64] = "", maxe[128];
            if (w[4] && full) {
                char at2[96];
                coords(e, in, i, w[5] - 1, at2, sizeof at2);
                snprintf(never, sizeof never, "; %llu never written (still the sentinel, first at %s)",
                         (unsigned long long)w[4], at2);
            }
            if (w[3])
                snprintf(nonfin, sizeof nonfin, "; %llu NaN/Inf where the reference is finite",
                         (unsigned long long)w[3]);
            /* The max error is over the pairs where both are finite: say so, with how many,
             * whenever some elements were left out of it. */
            uint64_t left_out = w[3] + w[6];
            uint64_t finite = left_out < v->padded_elems ? v->padded_elems - left_out : 0;
            if (!left_out)
                snprintf(maxe, sizeof maxe, "max error %.4g", (double)mx);
            else if (finite)
                snprintf(maxe, sizeof maxe, "max error %.4g over the %llu finite elements",
                         (double)mx, (unsigned long long)finite);
            else
                snprintf(maxe, sizeof maxe, "max error n/a (no element is finite in both)");
            char inputs[320];
            inputs_at(e, in, i, w[1] - 1, inputs, sizeof inputs);
            values_seam(e, in, i, w[1] - 1, at, s);
            eng_exec_note(e, "%s%s: %llu of %llu elements differ from the reference (first at %s), %s%s%s%s",
                 pre, bn, (unsigned long long)w[0], (unsigned long long)v->padded_elems, at,
                 maxe, nonfin, never, inputs);
            e->failed = true;
            eng_exec_record_bad(e, (int64_t)w[1] - 1, (int64_t)w[0], (double)mx);
        } else {
            float mx;
            uint32_t bits = (uint32_t)w[2];
            memcpy(&mx, &bits, 4);
            eng_exec_record_bad(e, -1, 0, (double)mx);
        }
        /* the guards hold the sentinel whatever the outputs were filled with (garbage
         * included); only the plain unit test, the baseline, compares values alone */
        if (guards)
            ENG_TRY(guards_check(e, in, i, pre, s));
        if (bs->nan_never && eng_vclass_applies(bs->dtype) && eng_exec_inputs_finite(e, in))
            ENG_TRY(nan_never(e, in, i, pre, s));
        if (full && !bs->ties_any)
            ENG_TRY(unwritten_check(e, in, i, pre, s));
    }
    char pre[96] = "";
    if (prefix && *prefix)
        snprintf(pre, sizeof pre, "%s: ", prefix);
    for (size_t i = 0; guards && i < m->nbuffers; i++)
        if (m->buffers[i].role != ENG_ROLE_OUTPUT)
            ENG_TRY(guards_check(e, in, i, pre, s));
    return 0;
}

/* Proof that a captured graph has not run: every output still holds the sentinel. */
int eng_exec_still_sentinel(struct eng_exec *e, struct eng_inst *in, struct eng_stream *s, bool *ok)
{
    const struct eng_manifest *m = e->m;
    *ok = true;
    for (size_t i = 0; i < m->nbuffers; i++) {
        if (m->buffers[i].role != ENG_ROLE_OUTPUT)
            continue;
        struct eng_bufi *v = &in->var[i];
        ENG_TRY(eng_exec_res_clear(e, s));
        uint64_t pat = eng_dtype_sentinel(m->buffers[i].dtype);
        eng_dptr res = e->res;
        void *a[] = {&v->base, &v->alloc, &pat, &res};
        ENG_TRY(eng_exec_ulaunch(e, e->kchk, v->alloc / 8 + 1, s, a));
        uint64_t w[ENG_RES_WORDS];
        ENG_TRY(eng_exec_res_read(e, w, s));
        if (w[0]) {
            eng_exec_note(e, "%s changed between capture and the first replay (%llu words): the capture ran "
                    "the work eagerly",
                 m->buffers[i].name, (unsigned long long)w[0]);
            *ok = false;
        }
    }
    return 0;
}

/* ---- timing ----------------------------------------------------------------------------- */

static void timer_init(struct eng_exec *e, struct eng_timer *t)
{
    memset(t, 0, sizeof *t);
    if (!e->B->event_elapsed_ms)
        return;
    if (e->B->event_create(e->ctx, &t->a, e->err, sizeof e->err) != 0 ||
        e->B->event_create(e->ctx, &t->b, e->err, sizeof e->err) != 0)
        t->a = t->b = NULL;
}

void eng_exec_timer_start(struct eng_exec *e, struct eng_timer *t, struct eng_stream *s)
{
    if (t->a && e->B->event_record(e->ctx, t->a, s, e->err, sizeof e->err) != 0)
        t->a = NULL;
}

/* Records the end and stores the elapsed time divided by per (launches in the interval). */
void eng_exec_timer_stop(struct eng_exec *e, struct eng_timer *t, struct eng_stream *s, int per)
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

static void timer_finish(struct eng_exec *e, struct eng_timer *t)
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
int eng_exec_mode_plain(struct eng_exec *e, struct eng_inst *in, struct eng_timer *t, enum eng_out_style style,
                      bool full, const char *prefix)
{
    ENG_TRY(eng_exec_fill_inputs(e, in, NULL, false));
    ENG_TRY(eng_exec_prepare_outputs(e, in, style, NULL));
    ENG_TRY(eng_exec_guards_scratch(e, in, NULL));
    ENG_TRY(eng_exec_reset_scratch(e, in, 3, NULL));
    ENG_TRY(eng_exec_launch_ref(e, in, NULL));
    eng_exec_timer_start(e, t, NULL);
    ENG_TRY(eng_exec_launch_var(e, in, NULL));
    eng_exec_timer_stop(e, t, NULL, 1);
    ENG_TRY(eng_exec_sync_all(e, NULL));
    return eng_exec_oracle(e, in, full, prefix, NULL);
}

/* ---- setup ------------------------------------------------------------------------------ */

static int get_kernel(struct eng_exec *e, struct eng_module *mod, const char *name,
                      struct eng_kernel **k)
{
    return e->B->kernel_get(e->ctx, mod, name, k, e->err, sizeof e->err);
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
    if (eng_session_code(e->B, e->target, file, src, e->s->lag ? lag_flags : NULL, &code, &len,
                         log, 16384) != 0) {
        snprintf(e->err, sizeof e->err, "compiling %s%s for %s failed: %.900s", file,
                 !e->s->lag ? "" : eng_lag_is_ahead(e->s->lag) ? " (ahead build)" : " (lag build)", e->target, log);
        if (e->spec_shape[0]) /* the failure is this shape's: its verdict, not the tool's error */
            eng_compile_first_error(log, e->compile_error, sizeof e->compile_error);
        free(log);
        return -1;
    }
    free(log);
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

/* A code object built elsewhere (kladder compile --out, perhaps on a machine with a compiler),
 * loaded as it is: the runtime's loader refuses one for another processor. */
static int prebuilt_load(struct eng_exec *e, const char *path, struct eng_module **mod)
{
    size_t len;
    char err[512];
    char *code = file_read_all(path, &len, err, sizeof err);
    if (!code) {
        snprintf(e->err, sizeof e->err, "--code-object: %s", err);
        return -1;
    }
    /* An AMD code object says which processor it is for: a mismatch is named here, before a
     * loader answers with a bare "invalid image". */
    struct amdgpu_co co;
    char not_amd[256];
    if (amdgpu_co_read(code, len, &co, not_amd, sizeof not_amd) == 0) {
        bool same = !strcmp(co.processor, e->target);
        snprintf(e->err, sizeof e->err, "--code-object %s is a %s code object; this run compiles "
                 "for %s", path, co.processor, e->target);
        amdgpu_co_free(&co);
        if (!same) {
            free(code);
            return -1;
        }
        e->err[0] = '\0';
    }
    int rc = e->B->module_load(e->ctx, code, len, mod, e->err, sizeof e->err);
    if (rc != 0) {
        char why[sizeof e->err];
        snprintf(why, sizeof why, "%s", e->err);
        snprintf(e->err, sizeof e->err, "--code-object %s: %.900s", path, why);
    }
    free(code);
    return rc;
}

/* The manifest's "args" against the parameters the code object declares, where the backend can
 * tell: a kernel that takes more or other arguments than it is given would read garbage (or
 * crash the worker) instead of naming the mismatch. */
static int check_params(struct eng_exec *e, struct eng_kernel *k, const char *entry)
{
    size_t sizes[64];
    int n = e->B->kernel_params ? e->B->kernel_params(k, sizes, 64) : -1;
    if (n < 0)
        return 0;
    const struct eng_manifest *m = e->m;
    if ((size_t)n != m->nargs) {
        snprintf(e->err, sizeof e->err, "%s: kernel %s takes %d argument%s, the manifest's \"args\" "
                 "gives %zu", m->path, entry, n, n == 1 ? "" : "s", m->nargs);
        return -1;
    }
    for (size_t i = 0; i < m->nargs && i < 64; i++) {
        enum eng_argtype t = m->args[i].type;
        size_t want = t == ENG_ARG_I32 || t == ENG_ARG_U32 || t == ENG_ARG_F32 ? 4 : 8;
        if (sizes[i] != want) {
            snprintf(e->err, sizeof e->err, "%s: kernel %s's argument %zu is %zu bytes, the "
                     "manifest's args[%zu] (%s) is %zu", m->path, entry, i + 1, sizes[i], i,
                     m->args[i].expr, want);
            return -1;
        }
    }
    return 0;
}

static int setup(struct eng_exec *e)
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
    ENG_TRY(e->B->device_info(s->device, &e->info, e->err, sizeof e->err));
    struct eng_open_opts o = {.wave_size = s->wave, .schedule = s->schedule, .seed = s->seed};
    ENG_TRY(eng_session_get(e->B, s->device, &o, &e->ctx, e->err, sizeof e->err));
    e->B->compile_target(&e->info, s->wave, e->target, sizeof e->target);
    /* The pct schedule switches threads at every memory access: an emulating backend builds the
     * kernels with access hooks for it (a target of its own: the other schedules run without) */
    if (s->schedule == ENG_SCHED_PCT && e->B->caps.emulated)
        snprintf(e->target + strlen(e->target), sizeof e->target - strlen(e->target), "+access");
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
    if (e->m->nspecialize && !s->code_object) {
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
    int rc = s->code_object ? prebuilt_load(e, s->code_object, &e->mod)
                            : compile_load(e, e->m->source, src, &e->mod);
    free(src);
    ENG_TRY(rc);
    ENG_TRY(lag_async_setup(e));
    ENG_TRY(eng_session_util(e->B, e->ctx, e->target, &e->umod, e->err, sizeof e->err));
    ENG_TRY(get_kernel(e, e->mod, entry, &e->kvar));
    ENG_TRY(get_kernel(e, e->mod, e->m->entry_reference, &e->kref));
    ENG_TRY(check_params(e, e->kvar, entry));
    ENG_TRY(check_params(e, e->kref, e->m->entry_reference));
    ENG_TRY(get_kernel(e, e->umod, "kl_util_fill", &e->kfill));
    ENG_TRY(get_kernel(e, e->umod, "kl_util_fill_pattern", &e->kpat));
    ENG_TRY(get_kernel(e, e->umod, "kl_util_check_pattern", &e->kchk));
    ENG_TRY(get_kernel(e, e->umod, "kl_util_compare", &e->kcmp));
    ENG_TRY(get_kernel(e, e->umod, "kl_util_bitwise", &e->kbit));
    ENG_TRY(get_kernel(e, e->umod, "kl_util_hash", &e->khash));
    ENG_TRY(get_kernel(e, e->umod, "kl_util_hash_refill", &e->khrefill));
    ENG_TRY(get_kernel(e, e->umod, "kl_util_hash_check", &e->khcheck));
    ENG_TRY(get_kernel(e, e->umod, "kl_util_copy", &e->kcopy));
    ENG_TRY(get_kernel(e, e->umod, "kl_util_delay", &e->kdelay));
    ENG_TRY(get_kernel(e, e->umod, "kl_util_ties", &e->kties));
    ENG_TRY(get_kernel(e, e->umod, "kl_util_nan", &e->knan));
    ENG_TRY(get_kernel(e, e->umod, "kl_util_property", &e->kprop));
    ENG_TRY(get_kernel(e, e->umod, "kl_util_unwritten", &e->kunw));
    ENG_TRY(e->B->mem_alloc(e->ctx, ENG_RES_WORDS * 8, &e->res, e->err, sizeof e->err));
    e->ublock = e->B->caps.util_block;
    e->ugrid = e->B->caps.util_grid;
    if (!e->ugrid)
        e->ugrid = (unsigned)(e->info.compute_units > 0 ? e->info.compute_units : 128) * 8;
    return 0;
}

static void finish_error(struct eng_exec *e, const char *what)
{
    bool race = strncmp(e->err, ENG_RACE_PREFIX, sizeof ENG_RACE_PREFIX - 1) == 0;
    e->out->verdict = race ? CDB_FAIL : CDB_ERROR;
    snprintf(e->out->detail, sizeof e->out->detail, "%.600s%s%.900s", what ? what : "",
             what && *what ? ": " : "", e->err[0] ? e->err : "unknown error");
}

/* A data race the backend found in this check's launches fails the check: the race first
 * (both accesses), then what the oracles saw of the outputs it left (wrong values, or none). */
static void race_found(struct eng_exec *e, int rc)
{
    char race[1024];
    if (!e->B->race_take || rc != 0 || e->B->race_take(e->ctx, race, sizeof race) != 1)
        return;
    char was[sizeof e->detail];
    snprintf(was, sizeof was, "%s", e->detail);
    snprintf(e->detail, sizeof e->detail, "%.1000s%s%.500s", race, was[0] ? "; " : "", was);
    e->failed = true;
}

void eng_exec_ready(struct eng_exec *e)
{
    if (e->ready)
        e->ready(e->ready_arg);
    e->ready = NULL;
}

int eng_exec_run_wave(const struct eng_exec *e)
{
    return e->B->caps.emulated ? (e->s->wave == 64 ? 64 : 32) : e->info.wave_size;
}

/* A kernel that declares KL_ASSUME_WAVE(kernel, n) is not launched at another wave: the check
 * fails naming both numbers (a wrong answer from it would only say that something differs). */
static bool wave_assumption_broken(struct eng_exec *e)
{
    const char *entry = strcmp(e->s->variant, "buggy") == 0 ? e->m->entry_buggy : e->m->entry_fixed;
    char sym[160], err[256];
    snprintf(sym, sizeof sym, "kl_assume_wave_%s", entry);
    void *addr = NULL;
    int assumed = 0;
    if (!e->B->module_symbol || e->B->module_symbol(e->ctx, e->mod, sym, &addr, err, sizeof err) ||
        e->B->memcpy_dtoh(e->ctx, &assumed, (eng_dptr)(uintptr_t)addr, sizeof assumed, NULL, err,
                          sizeof err))
        return false;
    int wave = eng_exec_run_wave(e);
    if (assumed == wave)
        return false;
    eng_exec_note(e, "kernel %s assumes wave %d (KL_ASSUME_WAVE), this run's wave is %d: not "
                  "launched", entry, assumed, wave);
    char a[192], b[64];
    snprintf(a, sizeof a, "kernel %s assumes: wave %d", entry, assumed);
    snprintf(b, sizeof b, "this run: wave %d", wave);
    eng_check_seam(e->out, "wave", a, b);
    return true;
}

/* What a check's "values" made, for the start of a finding: "value class peaked, V=ones: " or
 * "replayed S (flydsl-1020.safetensors, layers.11.attn.scores): ". */
static void describe_values(const char *v, char *out, size_t n)
{
    size_t first = strcspn(v, ";");
    bool replay = !strncmp(v, "replay", first) && first == 6;
    size_t len = replay ? (size_t)snprintf(out, n, "replayed")
                        : (size_t)snprintf(out, n, "value class %.*s", (int)first, v);
    for (const char *o = strchr(v, ';'); o && len + 8 < n; o = strchr(o + 1, ';')) {
        size_t seg = strcspn(o + 1, ";"), name = strcspn(o + 1, "=");
        const char *val = o + 2 + name;
        if (name >= seg)
            continue;
        if (*val == '@') {
            const char *hash = memchr(val, '#', seg - name - 1);
            const char *file = val + 1, *slash = file;
            for (const char *c = file; c < (hash ? hash : val + seg - name - 1); c++)
                if (*c == '/')
                    slash = c + 1;
            int flen = (int)((hash ? hash : o + 1 + seg) - slash);
            int tlen = hash ? (int)(o + 1 + seg - hash - 1) : 0;
            len += (size_t)snprintf(out + len, n - len, "%s %.*s (%.*s, %.*s)",
                                    o == strchr(v, ';') ? "" : ",", (int)name, o + 1, flen, slash,
                                    tlen, hash ? hash + 1 : "");
        } else {
            len += (size_t)snprintf(out + len, n - len, ", %.*s", (int)seg, o + 1);
        }
    }
    if (len + 3 < n)
        snprintf(out + len, n - len, ": ");
}

void eng_check_run(const struct eng_check_spec *s, void (*ready)(void *), void *arg,
                   struct eng_check_result *out)
{
    const struct eng_rung *R = eng_rung_find(s->rung);
    if (R && R->run)
        R->run(s, ready, arg, out);
    else
        eng_exec_check(s, ready, arg, out);
}

void eng_exec_check(const struct eng_check_spec *s, void (*ready)(void *), void *arg,
                    struct eng_check_result *out)
{
    eng_check_result_init(out);
    struct eng_exec e = {.s = s, .out = out, .ready = ready, .ready_arg = arg};
    snprintf(out->oracle, sizeof out->oracle, "%s",
             s->baseline                  ? "reference"
             : s->mode == ENG_MODE_REPEAT ? "bitwise-repeat"
                                          : "reference+sentinel");
    const struct eng_rung *R = eng_rung_find(s->rung);
    bool own_mode = !s->baseline && s->mode != ENG_MODE_PLAIN;
    size_t nsh = s->nshapes ? s->nshapes : 1;
    struct eng_inst *ins = NULL;
    if (own_mode && (!R || !R->execute)) {
        snprintf(e.err, sizeof e.err, "rung %d has no %s mode", s->rung, eng_mode_name(s->mode));
        finish_error(&e, "setup");
        goto done;
    }
    if (setup(&e) != 0) {
        if (e.compile_error[0]) {
            /* one shape's kernel does not compile (a fallback the compiler cannot lower,
             * aiter-4987): a finding about that shape, and the run goes on */
            out->verdict = CDB_FAIL;
            snprintf(out->oracle, sizeof out->oracle, "compile");
            snprintf(out->shape, sizeof out->shape, "%s", e.spec_shape);
            snprintf(out->detail, sizeof out->detail,
                     "the kernel specialised for %s does not compile for %s: %s", e.spec_shape,
                     e.target, e.compile_error);
        } else {
            finish_error(&e, "setup");
        }
        goto done;
    }
    /* Races become findings of this check (race_found below), after its own outputs are judged;
     * one left from an earlier check on this context is not this check's. */
    char race[1024];
    if (e.B->race_take)
        (void)e.B->race_take(e.ctx, race, sizeof race);
    struct eng_shape none = {0};
    ins = xcalloc(nsh, sizeof *ins);
    bool skip = false, err = false;
    for (size_t i = 0; i < nsh && !err; i++) {
        int r = inst_plan(&e, &ins[i], s->nshapes ? &s->shapes[i] : &none);
        err = r < 0;
        skip |= r > 0;
    }
    snprintf(out->shape, sizeof out->shape, "%s%s", ins[0].desc ? ins[0].desc : "",
             nsh > 1 ? " (+ more)" : "");
    if (err) {
        finish_error(&e, "planning");
        goto done;
    }
    if (skip) {
        out->verdict = CDB_SKIP;
        snprintf(out->detail, sizeof out->detail, "%s", e.detail);
        goto done;
    }
    if (wave_assumption_broken(&e)) {
        out->verdict = CDB_FAIL;
        snprintf(out->oracle, sizeof out->oracle, "wave");
        snprintf(out->detail, sizeof out->detail, "%s", e.detail);
        goto done;
    }
    struct eng_timer t;
    int rc;
    if (own_mode) {
        timer_init(&e, &t);
        rc = R->execute(&e, ins, nsh, &t);
    } else {
        if (eng_exec_inst_alloc(&e, &ins[0]) != 0 || eng_exec_inst_args(&e, &ins[0]) != 0) {
            finish_error(&e, "allocating buffers");
            goto done;
        }
        eng_exec_ready(&e);
        timer_init(&e, &t);
        rc = eng_exec_mode_plain(&e, &ins[0], &t, s->baseline ? ENG_OUT_ZEROS : ENG_OUT_SENTINEL,
                                 !s->baseline, "");
        if (rc == 0 && !s->baseline && R && R->oracle)
            rc = R->oracle(&e, &ins[0]);
        if (rc == 0 && ins[0].sampled) {
            /* the report says what was run and judged: never a whole-output pass */
            const struct eng_sample *sm = &ins[0].sample;
            snprintf(out->oracle, sizeof out->oracle, "reference+sentinel (sampled)");
            eng_exec_note(&e, "sampled on the cpu backend: %zu of %llu blocks ran (the tiles of %s at "
                          "each 2^31 and 2^32-byte cliff it reaches%s, the first and the last), "
                          "oracles over those %llu of %llu elements",
                          sm->nblocks, (unsigned long long)sm->all_blocks,
                          e.m->buffers[sm->out].name,
                          sm->element_cliffs ? " and each 2^31 and 2^32-element one" : "",
                          (unsigned long long)sm->elems,
                          (unsigned long long)ins[0].var[sm->out].padded_elems);
        }
        for (size_t i = 0; rc == 0 && ins[0].rows_sampled && i < e.m->nbuffers; i++) {
            const struct eng_bufi *b = &ins[0].var[i];
            if (!b->rows_only)
                continue;
            snprintf(out->oracle, sizeof out->oracle, "reference+sentinel (sampled)");
            eng_exec_note(&e, "sampled on the cpu backend: input %s filled only in rows %llu to "
                          "%llu, the rows a correct kernel reads (the rest reads as zero)",
                          e.m->buffers[i].name, (unsigned long long)b->row_first,
                          (unsigned long long)(b->row_first + b->row_count - (b->row_count > 0)));
        }
    }
    timer_finish(&e, &t);
    race_found(&e, rc);
    if (rc < 0) {
        finish_error(&e, e.failed ? e.detail : "");
    } else if (rc > 0) {
        out->verdict = CDB_SKIP;
        snprintf(out->detail, sizeof out->detail, "%s", e.detail);
    } else {
        out->verdict = e.failed ? CDB_FAIL : CDB_PASS;
        /* A finding on made-up values names them: the class is half of what went wrong. */
        char cls[120] = "";
        if (s->values && e.failed)
            describe_values(s->values, cls, sizeof cls);
        snprintf(out->detail, sizeof out->detail, "%s%.1400s", cls, e.detail);
        if (!out->repeats)
            out->repeats = (int)t.n;
    }
done:
    eng_exec_ready(&e); /* a check that ends before its kernels still answers in time */
    for (size_t i = 0; ins && i < nsh; i++)
        inst_free(&e, &ins[i]);
    free(ins);
    if (e.ctx) {
        if (e.res)
            e.B->mem_free(e.ctx, e.res);
        if (e.lag_async)
            e.B->mem_free(e.ctx, e.lag_async);
        if (e.mod)
            e.B->module_unload(e.ctx, e.mod);
        eng_session_put(e.B, e.ctx); /* the utility module stays with the context */
    }
    for (size_t i = 0; e.host_in && i < e.m->nbuffers; i++)
        free(e.host_in[i]);
    free(e.host_in);
    eng_manifest_free(e.m);
}
