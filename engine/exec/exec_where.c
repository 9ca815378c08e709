/* Where a finding lies: a buffer's rows, an element's coordinates in its padded shape, and
 * what the inputs made on the host held there ("[3, 0]; input x there is 0"), and whether they
 * were all finite. */
#include "engine/exec/exec_internal.h"

#include <math.h>
#include <stdio.h>

#include "engine/values/value_class.h"

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

void eng_exec_coords(const struct eng_exec *e, const struct eng_inst *in, size_t b, uint64_t flat,
                     char *out, size_t n)
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
void eng_exec_inputs_at(const struct eng_exec *e, const struct eng_inst *in, size_t b,
                        uint64_t flat, char *out, size_t n)
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

void eng_exec_where(const struct eng_exec *e, const struct eng_inst *in, size_t b, uint64_t flat,
                    char *out, size_t n)
{
    char at[96], inputs[320];
    eng_exec_coords(e, in, b, flat, at, sizeof at);
    eng_exec_inputs_at(e, in, b, flat, inputs, sizeof inputs);
    snprintf(out, n, "%s%s", at, inputs);
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
