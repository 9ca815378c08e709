/* A check's buffers filled: inputs from the manifest's generators on the device, or made on
 * the host (a value class, a captured tensor) and uploaded; outputs prepared alike for the
 * variant and the reference (the dtype's sentinel, zeros or garbage); scratch buffers to their
 * init; and the guards around every buffer to the sentinel. */
#include "engine/exec.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/hash.h"
#include "common/xalloc.h"
#include "engine/exec/exec_internal.h"
#include "engine/session/input_prefetch.h"
#include "engine/values/par_rows.h"
#include "engine/exec/phase_time.h"
#include "engine/exec/replay.h"
#include "engine/session/session.h"
#include "engine/values/value_class.h"

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

uint64_t eng_exec_buffer_seed(const struct eng_exec *e, size_t i)
{
    struct hash_state h;
    hash_init(&h);
    hash_str(&h, e->m->buffers[i].name);
    hash_bytes(&h, &e->s->seed, sizeof e->s->seed);
    return h.a;
}

#define INIT_REPLAY ENG_EXEC_INIT_REPLAY

int eng_exec_input_init(struct eng_exec *e, size_t i, const char **ref)
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

void eng_exec_host_in_drop(struct eng_exec *e, size_t i)
{
    if (!e->host_in || !e->host_in[i])
        return;
    if (e->host)
        eng_session_host_put(e->host_in[i], e->host_in_len[i]);
    else
        free(e->host_in[i]);
    e->host_in[i] = NULL;
}

/* Host generation is for the shapes rung 2 uses (rows of real inputs), not the 2^31 cliffs. */
#define HOST_INPUT_MAX ((uint64_t)256 << 20)

/* Fills buffer i of the instance on the host, with value class c or (c < 0) the captured
 * tensor ref, and uploads it to dst (NULL: the variant's copy, the one an input has). */
static int fill_on_host(struct eng_exec *e, struct eng_inst *in, size_t i, int c, const char *ref,
                      struct eng_stream *s, struct eng_bufi *dst)
{
    struct eng_bufi *b = dst ? dst : &in->var[i];
    enum eng_dtype dt = e->m->buffers[i].dtype;
    if (b->padded_bytes > HOST_INPUT_MAX) {
        snprintf(e->err, sizeof e->err, "input %s is %llu bytes: %s %s is made on the host, up "
                 "to %llu bytes", e->m->buffers[i].name, (unsigned long long)b->padded_bytes,
                 c < 0 ? "a replayed" : "value class", c < 0 ? "tensor" : eng_vclass_name((enum eng_vclass)c),
                 (unsigned long long)HOST_INPUT_MAX);
        return -1;
    }
    if (!e->host_in) {
        e->host_in = xcalloc(e->m->nbuffers, sizeof *e->host_in);
        e->host_in_len = xcalloc(e->m->nbuffers, sizeof *e->host_in_len);
    }
    eng_exec_host_in_drop(e, i);
    size_t bytes = b->padded_bytes ? (size_t)b->padded_bytes : 1;
    uint64_t len, stride;
    eng_exec_rows(e, in, i, &len, &stride);
    /* made ahead, while the check before this one ran (engine/session/input_prefetch.h) */
    struct eng_fill_key key = {.cls = c, .dtype = dt, .n = b->padded_elems, .row_len = len,
                               .row_stride = stride, .seed = eng_exec_buffer_seed(e, i),
                               .bytes = bytes};
    eng_phase_mark("fill");
    void *ahead = e->host && c >= 0 ? eng_prefetch_take(&key) : NULL;
    eng_phase_mark("fill-wait");
    e->host_in[i] = ahead ? ahead : e->host ? eng_session_host_get(bytes) : xmalloc(bytes);
    e->host_in_len[i] = bytes;
    if (c < 0) /* a capture's conversion writes its elements; the padding starts as zeros */
        memset(e->host_in[i], 0, bytes);
    eng_phase_mark("fill");
    if (c < 0)
        ENG_TRY(eng_replay_fill(e->m, i, &in->v, ref, e->host_in[i], b->padded_elems, e->err,
                                sizeof e->err));
    else if (!ahead) /* (a buffer made ahead holds this fill's bits already) */
        /* an emulated backend's check runs on host threads of its own (and a run's workers
         * side by side): its fill keeps to one */
        eng_vclass_fill_on((enum eng_vclass)c, dt, e->host_in[i], b->padded_elems, len, stride,
                           key.seed, e->B->caps.emulated ? 1 : ENG_PAR_MAX);
    eng_phase_mark("fill-host");
    if (!b->padded_bytes)
        return 0;
    int rc = e->B->memcpy_htod(e->ctx, b->data, e->host_in[i], (size_t)b->padded_bytes, s, e->err,
                               sizeof e->err);
    eng_phase_mark("fill-copy");
    return rc;
}

int eng_exec_make_inputs(struct eng_exec *e, struct eng_inst *in, struct eng_stream *s, bool garbage)
{
    const struct eng_manifest *m = e->m;
    for (size_t i = 0; i < m->nbuffers; i++) {
        if (m->buffers[i].role != ENG_ROLE_INPUT)
            continue;
        struct eng_bufi *b = &in->var[i];
        enum eng_dtype dt = m->buffers[i].dtype;
        ENG_TRY(u_pattern(e, b->base, ENG_GUARD_BYTES, eng_dtype_sentinel(dt), s));
        const char *ref = NULL;
        int init = garbage ? ENG_INIT_GARBAGE : eng_exec_input_init(e, i, &ref);
        if (b->rows_only && (init == INIT_REPLAY || init >= ENG_INIT_CLASS)) {
            snprintf(e->err, sizeof e->err, "input %s: a row sample is filled on the device, "
                     "from its manifest init; values made on the host cannot be sampled",
                     m->buffers[i].name);
            return -1;
        }
        if (init == INIT_REPLAY) {
            ENG_TRY(fill_on_host(e, in, i, -1, ref, s, NULL));
        } else if (init < 0) {
            return -1;
        } else if (init >= ENG_INIT_CLASS) {
            ENG_TRY(fill_on_host(e, in, i, init - ENG_INIT_CLASS, NULL, s, NULL));
        } else if (b->rows_only) {
            /* the declared rows only, with the values a whole fill gives them */
            uint64_t row = b->row_elems;
            ENG_TRY(u_fill_from(e, b->data + b->row_first * row * eng_dtype_size(dt), b->row_count * row,
                                dt, (enum eng_init)init, eng_exec_buffer_seed(e, i) ^ (garbage ? 0x6a09e667u : 0),
                                b->row_first * row, s));
        } else {
            if (e->host_in) /* made on the device now: nothing on the host to quote */
                eng_exec_host_in_drop(e, i);
            ENG_TRY(u_fill(e, b->data, b->padded_elems, dt, (enum eng_init)init,
                           eng_exec_buffer_seed(e, i) ^ (garbage ? 0x6a09e667u : 0), s));
        }
        ENG_TRY(u_pattern(e, b->data + b->padded_bytes, b->alloc - ENG_GUARD_BYTES - b->padded_bytes,
                      eng_dtype_sentinel(dt), s));
    }
    return 0;
}

/* A prefilled output (inout, or an output with an init of its own): its data from its
 * manifest init, the same values in the variant's and the reference's copy whatever the
 * style (the kernel reads them, so neither a sentinel nor garbage may stand in for them), its
 * guards the sentinel. A sampled output gets its sampled tiles only, with the values a whole
 * fill gives them. An inout float buffer takes the check's value class as an input does
 * (rung 2: an in-place scan or optimizer step has no separate input to vary). */
static int prefill_output(struct eng_exec *e, struct eng_inst *in, size_t i, struct eng_bufi *b,
                          struct eng_stream *s)
{
    enum eng_dtype dt = e->m->buffers[i].dtype;
    enum eng_init init = e->m->buffers[i].init;
    uint64_t pat = eng_dtype_sentinel(dt), es = eng_dtype_size(dt);
    ENG_TRY(u_pattern(e, b->base, ENG_GUARD_BYTES, pat, s));
    if (e->m->buffers[i].inout && e->s->values && !(in->sampled && i == in->sample.out)) {
        const char *ref = NULL;
        int vinit = eng_exec_input_init(e, i, &ref);
        if (vinit < 0)
            return -1;
        if (vinit >= ENG_INIT_CLASS) {
            ENG_TRY(fill_on_host(e, in, i, vinit - ENG_INIT_CLASS, NULL, s, b));
            return u_pattern(e, b->data + b->padded_bytes,
                             b->alloc - ENG_GUARD_BYTES - b->padded_bytes, pat, s);
        }
        init = (enum eng_init)vinit;
    }
    if (in->sampled && i == in->sample.out) {
        for (size_t r = 0; r < in->sample.nranges; r++)
            ENG_TRY(u_fill_from(e, b->data + in->sample.ranges[r][0] * es, in->sample.ranges[r][1],
                                dt, init, eng_exec_buffer_seed(e, i), in->sample.ranges[r][0], s));
    } else {
        ENG_TRY(u_fill(e, b->data, b->padded_elems, dt, init, eng_exec_buffer_seed(e, i), s));
    }
    return u_pattern(e, b->data + b->padded_bytes, b->alloc - ENG_GUARD_BYTES - b->padded_bytes,
                     pat, s);
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
            if (m->buffers[i].prefilled) {
                ENG_TRY(prefill_output(e, in, i, b, s));
                continue;
            }
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
                       style == ENG_OUT_ZEROS ? ENG_INIT_ZEROS : ENG_INIT_GARBAGE, eng_exec_buffer_seed(e, i), s));
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
            ENG_TRY(u_fill(e, b->data, b->padded_elems, dt, m->buffers[i].init, eng_exec_buffer_seed(e, i), s));
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
