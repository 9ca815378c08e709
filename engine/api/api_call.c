/* Inside a launch (kladder.h, kl_call_*): what the caller's op sees of a check's buffers, their
 * addresses as the launch's arguments hold them, their dims at the check's shape, and its
 * parameters. */
#include <stdio.h>
#include <string.h>

#include "engine/api/api_internal.h"

static const struct eng_buffer_spec *spec(const kl_call *c, size_t b)
{
    return b < c->e->m->nbuffers ? &c->e->m->buffers[b] : NULL;
}

size_t kl_call_buffers(const kl_call *call) { return call->e->m->nbuffers; }

const char *kl_call_buffer_name(const kl_call *call, size_t b)
{
    return spec(call, b) ? spec(call, b)->name : NULL;
}

const char *kl_call_buffer_dtype(const kl_call *call, size_t b)
{
    return spec(call, b) ? eng_dtype_name(spec(call, b)->dtype) : NULL;
}

int kl_call_is_output(const kl_call *call, size_t b)
{
    return spec(call, b) && spec(call, b)->role == ENG_ROLE_OUTPUT;
}

void *kl_call_data(const kl_call *call, size_t b)
{
    return spec(call, b) ? (void *)(uintptr_t)call->ptrs[b] : NULL;
}

size_t kl_call_ndims(const kl_call *call, size_t b)
{
    return spec(call, b) ? spec(call, b)->ndims : 0;
}

/* Dim d of buffer b at the check's values, padded or not; -1 when it cannot be evaluated. */
static long long dim_at(const kl_call *call, size_t b, size_t d, bool padded)
{
    const struct eng_buffer_spec *s = spec(call, b);
    char err[256];
    int64_t v, pad = 1;
    if (!s || d >= s->ndims || eng_values_eval(&call->in->v, s->dims[d], &v, err, sizeof err))
        return -1;
    if (padded && s->pad_to && s->pad_to[d] &&
        (eng_values_eval(&call->in->v, s->pad_to[d], &pad, err, sizeof err) || pad < 1))
        return -1;
    return (long long)((v + pad - 1) / pad * pad);
}

long long kl_call_dim(const kl_call *call, size_t b, size_t d) { return dim_at(call, b, d, false); }

long long kl_call_padded_dim(const kl_call *call, size_t b, size_t d)
{
    return dim_at(call, b, d, true);
}

int kl_call_param(const kl_call *call, const char *name, double *value)
{
    const struct eng_values *v = &call->in->v;
    for (size_t i = 0; name && i < v->n; i++)
        if (!strcmp(v->names[i], name)) {
            *value = v->reals[i];
            return 0;
        }
    return -1;
}

const char *kl_call_check(const kl_call *call) { return call->e->s->name; }

void kl_call_fail(kl_call *call, const char *message)
{
    snprintf(call->message, sizeof call->message, "%s", message ? message : "");
}
