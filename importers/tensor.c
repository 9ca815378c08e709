/* The common tensor form the readers produce: its dtype table, the readers' error message and
 * overflow check, finding and freeing (importers/tensor.h). The file loader, which picks a
 * reader, is importers/tensor_load.c. */
#include "importers/tensor.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/text.h"

static const struct {
    const char *name;
    size_t size;
} dtypes[IMP_TD_COUNT] = {
    [IMP_TD_F64] = {"F64", 8},          [IMP_TD_F32] = {"F32", 4},
    [IMP_TD_F16] = {"F16", 2},          [IMP_TD_BF16] = {"BF16", 2},
    [IMP_TD_I64] = {"I64", 8},          [IMP_TD_I32] = {"I32", 4},
    [IMP_TD_I16] = {"I16", 2},          [IMP_TD_I8] = {"I8", 1},
    [IMP_TD_U16] = {"U16", 2},          [IMP_TD_U8] = {"U8", 1},
    [IMP_TD_BOOL] = {"BOOL", 1},        [IMP_TD_F8_E4M3] = {"F8_E4M3", 1},
    [IMP_TD_F8_E5M2] = {"F8_E5M2", 1},  [IMP_TD_F8_E8M0] = {"F8_E8M0", 1},
};

size_t imp_tdtype_size(enum imp_tdtype d)
{
    return (unsigned)d < IMP_TD_COUNT ? dtypes[d].size : 0;
}

const char *imp_tdtype_name(enum imp_tdtype d)
{
    return (unsigned)d < IMP_TD_COUNT ? dtypes[d].name : "?";
}

int imp_tdtype_find(const char *name)
{
    for (int d = 0; d < IMP_TD_COUNT; d++)
        if (!strcmp(dtypes[d].name, name))
            return d;
    return -1;
}

bool imp_mul_u64(uint64_t a, uint64_t b, uint64_t *out)
{
    if (a != 0 && b > UINT64_MAX / a)
        return false;
    *out = a * b;
    return true;
}

int imp_tensor_fail(char *err, size_t errlen, const char *path, const char *tensor,
                    const char *field, const char *fmt, ...)
{
    char what[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(what, sizeof what, fmt, ap);
    va_end(ap);
    /* A path or a name from a hostile file must never drive the terminal. */
    char *p = text_sanitize(path ? path : "?", false);
    char *w = text_sanitize(what, false);
    char *t = tensor ? text_sanitize(tensor, false) : NULL;
    if (t)
        snprintf(err, errlen, "%s: tensor '%s': %s: %s", p, t, field, w);
    else
        snprintf(err, errlen, "%s: %s: %s", p, field, w);
    free(p);
    free(w);
    free(t);
    return -1;
}

const struct imp_tensor *imp_tensor_find(const struct imp_tensor_file *f, const char *name)
{
    for (size_t i = 0; i < f->n; i++)
        if (!strcmp(f->t[i].name, name))
            return &f->t[i];
    return NULL;
}

void imp_tensor_file_free(struct imp_tensor_file *f)
{
    if (!f)
        return;
    for (size_t i = 0; i < f->n; i++) {
        free(f->t[i].name);
        free(f->t[i].data);
    }
    free(f->t);
    for (size_t i = 0; i < f->nmeta; i++) {
        free(f->meta_keys[i]);
        free(f->meta_values[i]);
    }
    free(f->meta_keys);
    free(f->meta_values);
    free(f->path);
    memset(f, 0, sizeof *f);
}
