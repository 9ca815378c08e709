/* A check's instances: one shape each, its buffers' sizes (padded, between two guards), its
 * launch geometry, the backend's reach (a skip with the reason beyond it, or a sample where the
 * rung allows one), then its device buffers and both argument arrays. */
#include "engine/exec/exec_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/xalloc.h"
#include "engine/rung.h"
#include "engine/session/session.h"

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

/* An op on the host's side runs check after check of one run in this process: its buffers go
 * back to the session and come again to the next check (engine/session/session.h). A suite's kernels
 * allocate and free their own. */
static int buf_alloc(struct eng_exec *e, uint64_t bytes, eng_dptr *p)
{
    if (e->host)
        return eng_session_buf_get(e->B, e->ctx, bytes, p, e->err, sizeof e->err);
    return e->B->mem_alloc(e->ctx, bytes, p, e->err, sizeof e->err);
}

static void buf_free(struct eng_exec *e, eng_dptr p, uint64_t bytes)
{
    if (e->host)
        eng_session_buf_put(e->B, e->ctx, p, bytes);
    else
        e->B->mem_free(e->ctx, p);
}

void eng_exec_inst_free(struct eng_exec *e, struct eng_inst *in)
{
    size_t nb = e->m->nbuffers;
    if (in->allocated && !in->borrowed)
        for (size_t i = 0; i < nb; i++) {
            if (in->var[i].base)
                buf_free(e, in->var[i].base, in->var[i].alloc);
            if (in->ref[i].base && !in->ref[i].shared_with_var)
                buf_free(e, in->ref[i].base, in->ref[i].alloc);
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

/* A backend with a reach of its own (the cpu emulation) skips what lies beyond it, with the
 * reason; KLADDER_CPU_MAX_BYTES / KLADDER_CPU_MAX_THREADS lower it (tests do). total: the bytes
 * of every buffer; threads, rthreads: the variant's and the reference's per launch. */
/* Threads of a launch, UINT64_MAX when the count does not fit: three grid dimensions of up to
 * 2^31 - 1 blocks each times 1024 threads can pass 2^64. */
static uint64_t launch_threads(const unsigned grid[3], const unsigned block[3])
{
    uint64_t n = 1;
    for (int d = 0; d < 3; d++)
        if (__builtin_mul_overflow(n, (uint64_t)grid[d], &n) ||
            __builtin_mul_overflow(n, (uint64_t)block[d], &n))
            return UINT64_MAX;
    return n;
}

static int check_backend_reach(struct eng_exec *e, struct eng_inst *in, uint64_t total,
                              uint64_t threads, uint64_t rthreads)
{
    const struct eng_manifest *m = e->m;
    char hb[64], lim[64];
    human_bytes(total, hb, sizeof hb);
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
    /* the bytes as planned (hb), before a sample made them fewer */
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
    return 0;
}

/* The sizes of every buffer (the variant's copy; the reference's is the same, and inputs are
 * shared) into the instance; *total: the bytes of all of them. */
static int plan_buffers(struct eng_exec *e, struct eng_inst *in, uint64_t *total)
{
    const struct eng_manifest *m = e->m;
    *total = 0;
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
        *total += b->alloc * (in->ref[i].shared_with_var ? 1 : 2);
    }
    return 0;
}

int eng_exec_inst_plan(struct eng_exec *e, struct eng_inst *in, const struct eng_shape *shape)
{
    const struct eng_manifest *m = e->m;
    memset(in, 0, sizeof *in);
    if (eng_values_make(m, shape, NULL, NULL, &in->v, e->err, sizeof e->err) != 0)
        return -1;
    in->desc = eng_values_describe(m, &in->v);
    in->var = xcalloc(m->nbuffers + 1, sizeof *in->var);
    in->ref = xcalloc(m->nbuffers + 1, sizeof *in->ref);
    uint64_t total;
    if (plan_buffers(e, in, &total) != 0)
        return -1;
    if (eng_launch_eval(m, false, &in->v, in->grid, in->block, &in->shared, e->err,
                        sizeof e->err) != 0 ||
        eng_launch_eval(m, true, &in->v, in->rgrid, in->rblock, &in->rshared, e->err,
                        sizeof e->err) != 0)
        return -1;
    uint64_t threads = launch_threads(in->grid, in->block);
    uint64_t rthreads = launch_threads(in->rgrid, in->rblock);
    if (e->B->caps.max_check_bytes)
        return check_backend_reach(e, in, total, threads, rthreads);
    if (e->info.mem_bytes > 0 && total > (uint64_t)e->info.mem_bytes / 10 * 9) {
        char hb[64], lim[64];
        human_bytes(total, hb, sizeof hb);
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
        ENG_TRY(buf_alloc(e, v->alloc, &v->base));
        v->data = v->base + ENG_GUARD_BYTES;
        if (r->shared_with_var) {
            r->base = v->base;
            r->data = v->data;
        } else {
            ENG_TRY(buf_alloc(e, r->alloc, &r->base));
            r->data = r->base + ENG_GUARD_BYTES;
        }
    }
    return 0;
}

/* One argument's value into its 16-byte slot: the buffer's device pointer on this side (the
 * variant's or the reference's copy), or the scalar's value at the instance's parameters. */
static int fill_arg(struct eng_exec *e, const struct eng_inst *in, const struct eng_arg *a,
                    bool reference, void *slot)
{
    if (a->buffer >= 0) {
        const struct eng_bufi *r = reference ? &in->ref[a->buffer] : &in->var[a->buffer];
        memcpy(slot, &r->data, sizeof(eng_dptr));
        return 0;
    }
    if (a->type == ENG_ARG_F32) {
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
        memcpy(slot, &f, 4);
        return 0;
    }
    int64_t x;
    if (eng_values_eval(&in->v, a->expr, &x, e->err, sizeof e->err) != 0)
        return -1;
    bool fits = a->type == ENG_ARG_I32    ? x >= INT32_MIN && x <= INT32_MAX
                : a->type == ENG_ARG_U32  ? x >= 0 && x <= (int64_t)UINT32_MAX
                : a->type == ENG_ARG_U64  ? x >= 0
                : a->type == ENG_ARG_BOOL ? x == 0 || x == 1
                : a->type == ENG_ARG_U8   ? x >= 0 && x <= 255
                                          : true;
    if (!fits) {
        snprintf(e->err, sizeof e->err, "argument %s = %lld does not fit its type", a->expr,
                 (long long)x);
        return -1;
    }
    if (a->type == ENG_ARG_BOOL || a->type == ENG_ARG_U8) {
        uint8_t b = (uint8_t)x;
        memcpy(slot, &b, 1);
    } else if (a->type == ENG_ARG_I32 || a->type == ENG_ARG_U32) {
        uint32_t u = (uint32_t)x;
        memcpy(slot, &u, 4);
    } else {
        memcpy(slot, &x, 8);
    }
    return 0;
}

/* One side's argument array: the variants' from "args", the reference's from its own list
 * ("reference_args", else the same). */
static int fill_side(struct eng_exec *e, struct eng_inst *in, bool reference)
{
    size_t n;
    const struct eng_arg *list = eng_manifest_args(e->m, reference, &n);
    uint64_t(**vals)[2] = reference ? &in->vals_ref : &in->vals_var;
    void ***args = reference ? &in->args_ref : &in->args_var;
    free(*vals);
    free(*args);
    *vals = xcalloc(n + 1, sizeof **vals);
    *args = xcalloc(n + 1, sizeof **args);
    for (size_t i = 0; i < n; i++) {
        if (fill_arg(e, in, &list[i], reference, (*vals)[i]) != 0)
            return -1;
        (*args)[i] = (*vals)[i];
    }
    return 0;
}

/* Builds both argument arrays (variant and reference) pointing at the instance's buffers. */
int eng_exec_inst_args(struct eng_exec *e, struct eng_inst *in)
{
    ENG_TRY(fill_side(e, in, false));
    return fill_side(e, in, true);
}
