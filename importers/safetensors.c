/* The safetensors reader (importers/tensor.h).
 *
 * Layout (huggingface/safetensors, "Format"): an unsigned 64-bit little-endian header length N,
 * N bytes of a UTF-8 JSON object (leading whitespace and trailing spaces allowed), then the packed
 * data. Each entry is "name": {"dtype", "shape", "data_offsets": [begin, end]} with offsets
 * relative to the first data byte; "__metadata__" is a string-to-string map. The checks are the
 * reference reader's: the header is capped, each tensor's bytes equal its shape's product times
 * its element size (overflow checked), and the entries, sorted by offset, cover the data from 0
 * to the end of the file with no overlap and no gap. */
#include <cJSON.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/text.h"
#include "common/xalloc.h"
#include "importers/json_arena.h"
#include "importers/tensor.h"

/* The reference reader's cap on the header (MAX_HEADER_SIZE). */
#define HEADER_MAX 100000000ull

/* Whole numbers in the header must be exact in a double. */
#define WHOLE_MAX 9007199254740992.0 /* 2^53 */

/* Dtype names the format has that kladder refuses, and why (never reinterpreted as another). */
static const struct {
    const char *name, *why;
} refused[] = {
    {"F8_E4M3FNUZ", "the FNUZ fp8 of gfx942 (bias 8, NaN 0x80) is not kladder's OCP F8_E4M3; "
                    "convert the capture to F8_E4M3 or F32 before saving it"},
    {"F8_E5M2FNUZ", "the FNUZ fp8 of gfx942 is not kladder's OCP F8_E5M2; convert the capture to "
                    "F8_E5M2 or F32 before saving it"},
    {"F4", "sub-byte types (4 bits) are not read; save the capture as F32, F16 or BF16"},
    {"F6_E2M3", "sub-byte types (6 bits) are not read; save the capture as F32, F16 or BF16"},
    {"F6_E3M2", "sub-byte types (6 bits) are not read; save the capture as F32, F16 or BF16"},
    {"C64", "complex tensors are not read"},
    {"U32", "unsigned 32-bit tensors are not read; save as I32 or I64"},
    {"U64", "unsigned 64-bit tensors are not read; save as I64"},
};

static const char dtype_list[] =
    "F64 F32 F16 BF16 I64 I32 I16 I8 U16 U8 BOOL F8_E4M3 F8_E5M2 F8_E8M0";

struct entry {
    const char *name;  /* in the arena */
    uint64_t begin, end;
    size_t index;      /* in the output */
};

static bool whole(const cJSON *v, uint64_t *out)
{
    if (!cJSON_IsNumber(v) || !isfinite(v->valuedouble) || v->valuedouble < 0 ||
        v->valuedouble > WHOLE_MAX)
        return false;
    *out = (uint64_t)v->valuedouble;
    return !((double)*out < v->valuedouble); /* a fraction was cut off */
}

/* "1.5", "-1", "\"3\"": what a bad number was, for the message. */
static void describe(const cJSON *v, char *out, size_t n)
{
    if (cJSON_IsNumber(v))
        snprintf(out, n, "%.17g", v->valuedouble);
    else
        snprintf(out, n, "%s", cJSON_IsString(v) ? "a string" : cJSON_IsArray(v) ? "an array"
                               : cJSON_IsObject(v) ? "an object" : cJSON_IsNull(v) ? "null"
                               : cJSON_IsBool(v) ? "a boolean" : "nothing");
}

static int cmp_entry(const void *a, const void *b)
{
    const struct entry *x = a, *y = b;
    if (x->begin != y->begin)
        return x->begin < y->begin ? -1 : 1;
    return x->end < y->end ? -1 : x->end > y->end;
}

static int cmp_name(const void *a, const void *b)
{
    return strcmp(*(const char *const *)a, *(const char *const *)b);
}

static int parse_meta(const cJSON *meta, const char *path, struct imp_tensor_file *out, char *err,
                      size_t errlen)
{
    if (!cJSON_IsObject(meta))
        return imp_tensor_fail(err, errlen, path, NULL, "__metadata__",
                               "expected an object of strings");
    size_t n = 0;
    for (const cJSON *it = meta->child; it; it = it->next)
        n++;
    out->meta_keys = xcalloc(n + 1, sizeof *out->meta_keys);
    out->meta_values = xcalloc(n + 1, sizeof *out->meta_values);
    for (const cJSON *it = meta->child; it; it = it->next) {
        char field[64];
        snprintf(field, sizeof field, "__metadata__[%zu]", out->nmeta);
        if (!cJSON_IsString(it))
            return imp_tensor_fail(err, errlen, path, NULL, field, "expected a string value");
        if (!text_is_clean(it->string, NULL))
            return imp_tensor_fail(err, errlen, path, NULL, field,
                                   "expected a key in UTF-8 without control characters");
        out->meta_keys[out->nmeta] = xstrdup(it->string);
        /* Values are often JSON or prose; newlines are kept, other controls replaced. */
        out->meta_values[out->nmeta++] = text_sanitize(it->valuestring, true);
    }
    return 0;
}

/* Fills t from one header entry: dtype, shape and byte count; e gets its offsets. */
static int parse_entry(const cJSON *it, uint64_t data_len, const char *path,
                       struct imp_tensor *t, struct entry *e, char *err, size_t errlen)
{
    const char *name = it->string;
    if (!*name || !text_is_clean(name, NULL))
        return imp_tensor_fail(err, errlen, path, name, "name",
                               "expected a non-empty UTF-8 name without control characters");
    if (!cJSON_IsObject(it))
        return imp_tensor_fail(err, errlen, path, name, "entry",
                               "expected an object {\"dtype\", \"shape\", \"data_offsets\"}");
    const cJSON *dt = NULL, *sh = NULL, *off = NULL;
    for (const cJSON *k = it->child; k; k = k->next) {
        const cJSON **slot = !strcmp(k->string, "dtype")          ? &dt
                             : !strcmp(k->string, "shape")        ? &sh
                             : !strcmp(k->string, "data_offsets") ? &off
                                                                  : NULL;
        if (!slot)
            return imp_tensor_fail(err, errlen, path, name, k->string,
                                   "unknown key (expected dtype, shape, data_offsets)");
        if (*slot)
            return imp_tensor_fail(err, errlen, path, name, k->string, "duplicate key");
        *slot = k;
    }
    if (!cJSON_IsString(dt))
        return imp_tensor_fail(err, errlen, path, name, "dtype", "expected a string (one of %s)",
                               dtype_list);
    for (size_t r = 0; r < sizeof refused / sizeof refused[0]; r++)
        if (!strcmp(dt->valuestring, refused[r].name))
            return imp_tensor_fail(err, errlen, path, name, "dtype", "%s is refused: %s",
                                   refused[r].name, refused[r].why);
    int d = imp_tdtype_find(dt->valuestring);
    if (d < 0)
        return imp_tensor_fail(err, errlen, path, name, "dtype", "expected one of %s, got \"%.40s\"",
                               dtype_list, dt->valuestring);
    t->dtype = (enum imp_tdtype)d;
    if (!cJSON_IsArray(sh))
        return imp_tensor_fail(err, errlen, path, name, "shape",
                               "expected an array of whole numbers");
    t->elems = 1;
    for (const cJSON *v = sh->child; v; v = v->next) {
        char field[32], got[64];
        snprintf(field, sizeof field, "shape[%zu]", t->ndims);
        if (t->ndims == IMP_TENSOR_MAX_DIMS)
            return imp_tensor_fail(err, errlen, path, name, "shape",
                                   "expected at most %d dimensions", IMP_TENSOR_MAX_DIMS);
        uint64_t dim;
        if (!whole(v, &dim)) {
            describe(v, got, sizeof got);
            return imp_tensor_fail(err, errlen, path, name, field,
                                   "expected a whole number from 0 to 2^53, got %s", got);
        }
        t->dims[t->ndims++] = dim;
        if (!imp_mul_u64(t->elems, dim, &t->elems))
            return imp_tensor_fail(err, errlen, path, name, "shape",
                                   "the product of the dimensions overflows 64 bits");
    }
    uint64_t bytes;
    if (!imp_mul_u64(t->elems, imp_tdtype_size(t->dtype), &bytes))
        return imp_tensor_fail(err, errlen, path, name, "shape",
                               "the byte count overflows 64 bits");
    if (!cJSON_IsArray(off) || !off->child || !off->child->next || off->child->next->next)
        return imp_tensor_fail(err, errlen, path, name, "data_offsets",
                               "expected [begin, end]");
    for (int k = 0; k < 2; k++) {
        const cJSON *v = k ? off->child->next : off->child;
        char got[64];
        if (!whole(v, k ? &e->end : &e->begin)) {
            describe(v, got, sizeof got);
            return imp_tensor_fail(err, errlen, path, name, k ? "data_offsets[1]" : "data_offsets[0]",
                                   "expected a whole number from 0 to 2^53, got %s", got);
        }
    }
    if (e->end < e->begin)
        return imp_tensor_fail(err, errlen, path, name, "data_offsets",
                               "expected begin <= end, got [%llu, %llu]",
                               (unsigned long long)e->begin, (unsigned long long)e->end);
    if (e->end > data_len)
        return imp_tensor_fail(err, errlen, path, name, "data_offsets[1]",
                               "ends at byte %llu past the end of the data (%llu bytes after "
                               "the header): the file is truncated or the offsets are wrong",
                               (unsigned long long)e->end, (unsigned long long)data_len);
    if (e->end - e->begin != bytes)
        return imp_tensor_fail(err, errlen, path, name, "data_offsets",
                               "expected %llu bytes (%llu elements of %s), got %llu",
                               (unsigned long long)bytes, (unsigned long long)t->elems,
                               imp_tdtype_name(t->dtype), (unsigned long long)(e->end - e->begin));
    t->nbytes = (size_t)bytes;
    t->name = xstrdup(name);
    e->name = name;
    return 0;
}

/* The entries sorted by offset must cover [0, data_len) exactly. */
static int check_tiling(struct entry *es, size_t n, uint64_t data_len, const char *path,
                        char *err, size_t errlen)
{
    qsort(es, n, sizeof *es, cmp_entry);
    uint64_t at = 0;
    const char *prev = NULL;
    for (size_t i = 0; i < n; i++) {
        if (es[i].begin < at)
            return imp_tensor_fail(err, errlen, path, es[i].name, "data_offsets",
                                   "bytes [%llu, %llu) overlap tensor '%s', which ends at %llu",
                                   (unsigned long long)es[i].begin, (unsigned long long)es[i].end,
                                   prev, (unsigned long long)at);
        if (es[i].begin > at)
            return imp_tensor_fail(err, errlen, path, es[i].name, "data_offsets",
                                   "starts at %llu, leaving a gap of %llu bytes after %s%s%s "
                                   "(expected the tensors to cover the data without holes)",
                                   (unsigned long long)es[i].begin,
                                   (unsigned long long)(es[i].begin - at),
                                   prev ? "tensor '" : "the header", prev ? prev : "",
                                   prev ? "'" : "");
        at = es[i].end;
        prev = es[i].name;
    }
    if (at != data_len)
        return imp_tensor_fail(err, errlen, path, NULL, "data",
                               "%llu bytes after the last tensor%s%s%s (expected the tensors to "
                               "end exactly at the end of the file)",
                               (unsigned long long)(data_len - at), prev ? " '" : "",
                               prev ? prev : "", prev ? "'" : "");
    return 0;
}

static int parse(const unsigned char *buf, size_t len, const char *path,
                 struct imp_tensor_file *out, struct imp_json **arena, struct entry **es,
                 char *err, size_t errlen)
{
    if (len < 8)
        return imp_tensor_fail(err, errlen, path, NULL, "header length",
                               "expected 8 bytes, got %zu (truncated)", len);
    uint64_t hlen = 0;
    for (int i = 7; i >= 0; i--)
        hlen = hlen << 8 | buf[i];
    if (hlen > HEADER_MAX)
        return imp_tensor_fail(err, errlen, path, NULL, "header length",
                               "expected at most %llu bytes, got %llu", HEADER_MAX,
                               (unsigned long long)hlen);
    if (hlen > len - 8)
        return imp_tensor_fail(err, errlen, path, NULL, "header length",
                               "%llu bytes, but only %zu follow it (truncated)",
                               (unsigned long long)hlen, len - 8);
    const char *h = (const char *)buf + 8;
    size_t hl = (size_t)hlen;
    while (hl > 0 && h[hl - 1] == ' ')
        hl--;
    if (memchr(h, '\0', hl))
        return imp_tensor_fail(err, errlen, path, NULL, "header", "expected JSON text, got a NUL byte");
    char jerr[256];
    const cJSON *root = imp_json_parse(h, hl, 8, arena, jerr, sizeof jerr);
    if (!root)
        return imp_tensor_fail(err, errlen, path, NULL, "header", "%s", jerr);
    if (!cJSON_IsObject(root))
        return imp_tensor_fail(err, errlen, path, NULL, "header", "expected a JSON object");
    uint64_t data_len = len - 8 - hlen;
    size_t n = 0;
    for (const cJSON *it = root->child; it; it = it->next)
        n++;
    out->t = xcalloc(n + 1, sizeof *out->t);
    *es = xcalloc(n + 1, sizeof **es);
    /* Duplicate keys are refused (sorted, so a huge header costs n log n, not n^2). */
    const char **names = xcalloc(n + 1, sizeof *names);
    size_t k = 0;
    for (const cJSON *it = root->child; it; it = it->next)
        names[k++] = it->string;
    qsort(names, n, sizeof *names, cmp_name);
    for (k = 1; k < n; k++)
        if (!strcmp(names[k - 1], names[k])) {
            imp_tensor_fail(err, errlen, path, names[k], "name", "appears twice in the header");
            free(names);
            return -1;
        }
    free(names);
    for (const cJSON *it = root->child; it; it = it->next) {
        if (!strcmp(it->string, "__metadata__")) {
            if (parse_meta(it, path, out, err, errlen) != 0)
                return -1;
            continue;
        }
        struct entry *e = &(*es)[out->n];
        e->index = out->n;
        if (parse_entry(it, data_len, path, &out->t[out->n], e, err, errlen) != 0)
            return -1;
        out->n++;
    }
    if (check_tiling(*es, out->n, data_len, path, err, errlen) != 0)
        return -1;
    const unsigned char *data = buf + 8 + hlen;
    for (size_t i = 0; i < out->n; i++) {
        struct imp_tensor *t = &out->t[(*es)[i].index];
        if (!t->nbytes)
            continue;
        t->data = xmalloc(t->nbytes);
        memcpy(t->data, data + (*es)[i].begin, t->nbytes);
        if (t->dtype == IMP_TD_BOOL)
            for (size_t b = 0; b < t->nbytes; b++)
                if (t->data[b] > 1)
                    return imp_tensor_fail(err, errlen, path, t->name, "data",
                                           "BOOL element %zu is %u (expected 0 or 1)", b,
                                           t->data[b]);
    }
    return 0;
}

int imp_safetensors_parse(const unsigned char *buf, size_t len, const char *path,
                          struct imp_tensor_file *out, char *err, size_t errlen)
{
    memset(out, 0, sizeof *out);
    struct imp_json *arena = NULL;
    struct entry *es = NULL;
    int rc = parse(buf, len, path, out, &arena, &es, err, errlen);
    free(es);
    imp_json_free(arena);
    if (rc != 0) {
        imp_tensor_file_free(out);
        return -1;
    }
    out->path = xstrdup(path);
    return 0;
}
