/* The clean run of a check (engine/exec/exec_internal.h): the variant and the reference run once
 * more on the check's inputs with every NaN, Inf and magnitude past the domain replaced by 0,
 * so that the contract judge can hold "every other row equals a run without them" (docs/
 * engine.md, "Contracts, bounds and doubt"). The device is left as it was: the inputs put back,
 * the outputs of the first run written back over the clean run's. Once per check, and only
 * when an output's rows hold special values. */
#include "engine/exec/exec_internal.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/xalloc.h"
#include "engine/values/value_class.h"

/* Writes the first run's outputs (read into j) back, and the inputs as made. */
static int put_back(struct eng_exec *e, struct eng_inst *in, struct eng_judge *j,
                    struct eng_stream *s)
{
    const struct eng_manifest *m = e->m;
    for (size_t b = 0; b < m->nbuffers; b++) {
        size_t bytes = (size_t)in->var[b].padded_bytes;
        if (m->buffers[b].role == ENG_ROLE_INPUT && e->host_in[b] && bytes)
            ENG_TRY(e->B->memcpy_htod(e->ctx, in->var[b].data, e->host_in[b], bytes, s, e->err,
                                      sizeof e->err));
        if (m->buffers[b].role == ENG_ROLE_OUTPUT && j->var[b] && bytes) {
            ENG_TRY(e->B->memcpy_htod(e->ctx, in->var[b].data, j->var[b], bytes, s, e->err,
                                      sizeof e->err));
            ENG_TRY(e->B->memcpy_htod(e->ctx, in->ref[b].data, j->ref[b], bytes, s, e->err,
                                      sizeof e->err));
        }
    }
    return eng_exec_sync_all(e, s);
}

int eng_exec_clean_run(struct eng_exec *e, struct eng_inst *in, struct eng_judge *j, double domain,
                       struct eng_stream *s)
{
    if (j->clean_tried)
        return 0;
    j->clean_tried = true;
    const struct eng_manifest *m = e->m;
    for (size_t b = 0; b < m->nbuffers; b++)
        if (m->buffers[b].inout || m->buffers[b].prefilled) {
            snprintf(j->clean_why, sizeof j->clean_why, "no clean run: output %s starts from "
                     "values of its own", m->buffers[b].name);
            return 0;
        }
    if (!e->host_in || in->sampled) {
        snprintf(j->clean_why, sizeof j->clean_why, "no clean run: the inputs were not made "
                 "on the host");
        return 0;
    }
    for (size_t b = 0; b < m->nbuffers; b++)
        if (m->buffers[b].role == ENG_ROLE_OUTPUT)
            ENG_TRY(eng_exec_judge_read(e, in, j, b, s));
    /* the inputs with their special values replaced by 0 */
    for (size_t b = 0; b < m->nbuffers; b++) {
        const struct eng_buffer_spec *bs = &m->buffers[b];
        size_t bytes = (size_t)in->var[b].padded_bytes, sz = eng_dtype_size(bs->dtype);
        if (bs->role != ENG_ROLE_INPUT || !e->host_in[b] || !eng_vclass_applies(bs->dtype) || !bytes)
            continue;
        unsigned char *c = xmalloc(bytes);
        memcpy(c, e->host_in[b], bytes);
        bool any = false;
        for (uint64_t k = 0; k < in->var[b].padded_elems; k++) {
            double x = eng_dtype_value(bs->dtype, c, k);
            if (!isfinite(x) || fabs(x) > domain) {
                memset(c + k * sz, 0, sz);
                any = true;
            }
        }
        int rc = any ? e->B->memcpy_htod(e->ctx, in->var[b].data, c, bytes, s, e->err,
                                         sizeof e->err) : 0;
        free(c);
        ENG_TRY(rc);
    }
    int rc = eng_exec_prepare_outputs_of(e, in, ENG_OUT_SENTINEL, 3, s) ||
             eng_exec_reset_scratch(e, in, 3, s) || eng_exec_launch_var(e, in, s) ||
             eng_exec_launch_ref(e, in, s) || eng_exec_sync_all(e, s);
    if (rc == 0) {
        j->cvar = xcalloc(m->nbuffers, sizeof *j->cvar);
        j->cref = xcalloc(m->nbuffers, sizeof *j->cref);
        for (size_t b = 0; b < m->nbuffers && rc == 0; b++) {
            size_t bytes = (size_t)in->var[b].padded_bytes;
            if (m->buffers[b].role != ENG_ROLE_OUTPUT)
                continue;
            j->cvar[b] = xmalloc(bytes ? bytes : 1);
            j->cref[b] = xmalloc(bytes ? bytes : 1);
            rc = e->B->memcpy_dtoh(e->ctx, j->cvar[b], in->var[b].data, bytes, s, e->err,
                                   sizeof e->err) ||
                 e->B->memcpy_dtoh(e->ctx, j->cref[b], in->ref[b].data, bytes, s, e->err,
                                   sizeof e->err);
        }
    }
    if (rc != 0)
        return -1;
    return put_back(e, in, j, s);
}
