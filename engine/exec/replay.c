/* Captured inputs bound to buffers (engine/exec/replay.h). */
#define _GNU_SOURCE
#include "engine/exec/replay.h"

#include <dirent.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "common/embed.h"
#include "common/text.h"
#include "common/xalloc.h"
#include "engine/values/value_class.h"
#include "importers/tensor.h"

void eng_replay_binds_free(struct eng_replay_bind *b, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        free(b[i].buffer);
        free(b[i].file);
        free(b[i].tensor);
    }
    free(b);
}

char *eng_replay_resolve(const struct eng_manifest *m, const char *file)
{
    if (file[0] == '/')
        return xstrdup(file);
    if (m->dir) {
        char *joined = xasprintf("%s/%s", m->dir, file);
        char *abs = realpath(joined, NULL);
        if (abs) {
            free(joined);
            return abs;
        }
        return joined; /* the load names it when it is missing */
    }
    return xasprintf("embed:kernels/%s", file);
}

/* Loads a resolved file reference (a path, or "embed:..."). */
static int load(const char *file, struct imp_tensor_file *tf, char *err, size_t errlen)
{
    if (strncmp(file, "embed:", 6) != 0)
        return imp_tensor_file_load(file, tf, err, errlen);
    const struct embed_file *f = embed_find(file + 6);
    if (!f) {
        snprintf(err, errlen, "%s: file: not among the built-in files", file + 6);
        memset(tf, 0, sizeof *tf);
        return -1;
    }
    if (f->size >= 6 && !memcmp(f->data, "\x93NUMPY", 6))
        return imp_npy_parse(f->data, f->size, file + 6, tf, err, errlen);
    return imp_safetensors_parse(f->data, f->size, file + 6, tf, err, errlen);
}

static int find_input(const struct eng_manifest *m, const char *name)
{
    for (size_t i = 0; i < m->nbuffers; i++)
        if (!strcmp(m->buffers[i].name, name) && m->buffers[i].role == ENG_ROLE_INPUT)
            return (int)i;
    return -1;
}

/* ---- exact conversions ----------------------------------------------------------------- */

static bool is_float(enum imp_tdtype d, bool raw_bf16)
{
    return d == IMP_TD_F64 || d == IMP_TD_F32 || d == IMP_TD_F16 || d == IMP_TD_BF16 ||
           d == IMP_TD_F8_E4M3 || d == IMP_TD_F8_E5M2 || d == IMP_TD_F8_E8M0 ||
           (d == IMP_TD_U16 && raw_bf16);
}

static double half_to_double(uint16_t h) { return (double)eng_f16_to_f32(h); }

static double get_float(const struct imp_tensor *t, uint64_t i, bool raw_bf16)
{
    const unsigned char *p = t->data + i * imp_tdtype_size(t->dtype);
    switch (t->dtype) {
    case IMP_TD_F64: { double d; memcpy(&d, p, 8); return d; }
    case IMP_TD_F32: { float f; memcpy(&f, p, 4); return (double)f; }
    case IMP_TD_F16: { uint16_t h; memcpy(&h, p, 2); return half_to_double(h); }
    case IMP_TD_F8_E4M3: return (double)eng_fp8e4m3_to_f32(*p);
    case IMP_TD_F8_E5M2: return half_to_double((uint16_t)(*p << 8));
    case IMP_TD_F8_E8M0: return *p == 0xff ? (double)NAN : ldexp(1.0, *p - 127);
    default: /* BF16, or U16 declared bf16 */
        (void)raw_bf16;
        { uint16_t b; memcpy(&b, p, 2); return (double)eng_bf16_to_f32(b); }
    }
}

static int64_t get_int(const struct imp_tensor *t, uint64_t i)
{
    const unsigned char *p = t->data + i * imp_tdtype_size(t->dtype);
    switch (t->dtype) {
    case IMP_TD_I64: { int64_t v; memcpy(&v, p, 8); return v; }
    case IMP_TD_I32: { int32_t v; memcpy(&v, p, 4); return v; }
    case IMP_TD_I16: { int16_t v; memcpy(&v, p, 2); return v; }
    case IMP_TD_I8: return (int8_t)*p;
    case IMP_TD_U16: { uint16_t v; memcpy(&v, p, 2); return v; }
    default: return *p; /* U8, BOOL */
    }
}

static bool same(double a, double b)
{
    return (isnan(a) && isnan(b)) || (!(a < b) && !(a > b));
}

/* Writes x as element i of dst; false when dst cannot hold it exactly. */
static bool put_float(enum eng_dtype d, void *dst, uint64_t i, double x)
{
    float f = (float)x;
    if (!same((double)f, x))
        return false;
    if (d == ENG_F32) {
        memcpy((char *)dst + i * 4, &f, 4);
        return true;
    }
    if (d == ENG_BF16) {
        uint16_t b = eng_f32_to_bf16(f);
        memcpy((char *)dst + i * 2, &b, 2);
        return same((double)eng_bf16_to_f32(b), x);
    }
    if (d == ENG_F16) {
        uint16_t h = eng_f32_to_f16(f);
        memcpy((char *)dst + i * 2, &h, 2);
        return same((double)eng_f16_to_f32(h), x);
    }
    if (d == ENG_FP8E4M3) {
        uint8_t b = eng_f32_to_fp8e4m3(f);
        ((uint8_t *)dst)[i] = b;
        return same((double)eng_fp8e4m3_to_f32(b), x);
    }
    return false;
}

static bool put_int(enum eng_dtype d, void *dst, uint64_t i, int64_t x)
{
    switch (d) {
    case ENG_I32: {
        if (x < INT32_MIN || x > INT32_MAX)
            return false;
        int32_t v = (int32_t)x;
        memcpy((char *)dst + i * 4, &v, 4);
        return true;
    }
    case ENG_U32: {
        if (x < 0 || x > (int64_t)UINT32_MAX)
            return false;
        uint32_t v = (uint32_t)x;
        memcpy((char *)dst + i * 4, &v, 4);
        return true;
    }
    case ENG_I64:
        memcpy((char *)dst + i * 8, &x, 8);
        return true;
    case ENG_U8:
        if (x < 0 || x > 255)
            return false;
        ((uint8_t *)dst)[i] = (uint8_t)x;
        return true;
    default:
        return false;
    }
}

/* Logical and padded dims of buffer b at v. */
static int dims_at(const struct eng_manifest *m, size_t b, const struct eng_values *v,
                   int64_t dims[8], int64_t pdims[8], char *err, size_t errlen)
{
    const struct eng_buffer_spec *bs = &m->buffers[b];
    for (size_t d = 0; d < bs->ndims; d++) {
        int64_t pad = 1;
        if (eng_values_eval(v, bs->dims[d], &dims[d], err, errlen) != 0 ||
            (bs->pad_to[d] && eng_values_eval(v, bs->pad_to[d], &pad, err, errlen) != 0))
            return -1;
        if (pad < 1)
            pad = 1;
        pdims[d] = (dims[d] + pad - 1) / pad * pad;
    }
    return 0;
}

/* Copies tensor t into buffer b's padded layout, converting each element exactly. */
static int convert(const struct eng_manifest *m, size_t b, const struct eng_values *v,
                   const struct imp_tensor *t, bool raw_bf16, const char *file, void *out,
                   uint64_t padded_elems, char *err, size_t errlen)
{
    const struct eng_buffer_spec *bs = &m->buffers[b];
    enum eng_dtype d = bs->dtype;
    bool src_float = is_float(t->dtype, raw_bf16), dst_float = eng_vclass_applies(d);
    const char *tname = raw_bf16 ? "U16 declared bf16" : imp_tdtype_name(t->dtype);
    if (t->dtype == IMP_TD_U16 && d == ENG_BF16 && !raw_bf16)
        return imp_tensor_fail(err, errlen, file, t->name, "dtype",
                               "16-bit integers reach a bf16 buffer (%s) only when the suite's "
                               "inputs binding declares \"dtype\": \"bf16\"", bs->name);
    if (src_float != dst_float)
        return imp_tensor_fail(err, errlen, file, t->name, "dtype",
                               "a %s tensor does not convert to buffer %s's %s (expected %s)",
                               tname, bs->name, eng_dtype_name(d),
                               dst_float ? "a floating-point tensor" : "an integer tensor");
    int64_t dims[8], pdims[8];
    if (dims_at(m, b, v, dims, pdims, err, errlen) != 0)
        return -1;
    memset(out, 0, (size_t)(padded_elems * eng_dtype_size(d)));
    size_t nd = bs->ndims;
    int64_t c[8] = {0};
    for (uint64_t i = 0; i < t->elems; i++) {
        uint64_t at = 0;
        for (size_t k = 0; k < nd; k++)
            at = at * (uint64_t)pdims[k] + (uint64_t)c[k];
        bool ok;
        char val[48];
        if (src_float) {
            double x = get_float(t, i, raw_bf16);
            ok = at < padded_elems && put_float(d, out, at, x);
            snprintf(val, sizeof val, "%.9g", x);
        } else {
            int64_t x = get_int(t, i);
            ok = at < padded_elems && put_int(d, out, at, x);
            snprintf(val, sizeof val, "%lld", (long long)x);
        }
        if (!ok) {
            char field[48];
            snprintf(field, sizeof field, "element %llu", (unsigned long long)i);
            /* a wider float than the buffer's is most often a capture saved at the wrong
             * precision: say how to make one that fits */
            bool wider = src_float && dst_float && imp_tdtype_size(t->dtype) > eng_dtype_size(d);
            char hint[160] = "";
            if (wider)
                snprintf(hint, sizeof hint, "; the %s tensor is wider than the buffer: cast it to "
                         "%s when saving it", tname,
                         d == ENG_F32 ? "float32 (numpy: .astype(np.float32))" : eng_dtype_name(d));
            return imp_tensor_fail(err, errlen, file, t->name, field,
                                   "%s is not exact in buffer %s's %s (expected values the "
                                   "buffer's dtype holds; only exact conversions are made)%s",
                                   val, bs->name, eng_dtype_name(d), hint);
        }
        for (size_t k = nd; k-- > 0;) {
            if (++c[k] < dims[k])
                break;
            c[k] = 0;
        }
    }
    return 0;
}

/* ---- references ("@FILE#TENSOR[#bf16]") -------------------------------------------------- */

static void split_ref(const char *ref, char **file, char **tensor, bool *raw)
{
    const char *s = ref[0] == '@' ? ref + 1 : ref;
    const char *hash = strchr(s, '#');
    size_t fl = hash ? (size_t)(hash - s) : strlen(s);
    *file = xasprintf("%.*s", (int)fl, s);
    const char *t = hash ? hash + 1 : "";
    size_t tl = strcspn(t, ";");
    *raw = tl >= 5 && !strncmp(t + tl - 5, "#bf16", 5);
    if (*raw)
        tl -= 5;
    *tensor = xasprintf("%.*s", (int)tl, t);
}

char *eng_replay_values(const struct eng_replay_bind *b, size_t n)
{
    size_t len = 8;
    for (size_t i = 0; i < n; i++)
        len += strlen(b[i].buffer) + strlen(b[i].file) + strlen(b[i].tensor) + 16;
    char *s = xmalloc(len);
    size_t at = (size_t)snprintf(s, len, "replay");
    for (size_t i = 0; i < n; i++)
        at += (size_t)snprintf(s + at, len - at, ";%s=@%s#%s%s", b[i].buffer, b[i].file,
                               b[i].tensor, b[i].raw_bf16 ? "#bf16" : "");
    return s;
}

int eng_replay_fill(const struct eng_manifest *m, size_t b, const struct eng_values *v,
                    const char *ref, void *out, uint64_t padded_elems, char *err, size_t errlen)
{
    char *file, *tensor;
    bool raw;
    split_ref(ref, &file, &tensor, &raw);
    struct imp_tensor_file tf;
    int rc = load(file, &tf, err, errlen);
    if (rc == 0) {
        const struct imp_tensor *t = imp_tensor_find(&tf, tensor);
        rc = t ? convert(m, b, v, t, raw, file, out, padded_elems, err, errlen)
               : imp_tensor_fail(err, errlen, file, tensor, "name", "no such tensor in the file");
        imp_tensor_file_free(&tf);
    }
    free(file);
    free(tensor);
    return rc;
}

/* ---- planning ---------------------------------------------------------------------------- */

int eng_replay_check(const struct eng_manifest *m, const struct eng_replay_bind *b, size_t n,
                     struct eng_shape *shape, char *err, size_t errlen)
{
    memset(shape, 0, sizeof *shape);
    int rc = -1;
    struct imp_tensor_file *tfs = xcalloc(n + 1, sizeof *tfs);
    const struct imp_tensor **ts = xcalloc(n + 1, sizeof *ts);
    for (size_t i = 0; i < n; i++) {
        int bi = find_input(m, b[i].buffer);
        if (bi < 0) {
            snprintf(err, errlen, "%s: rungs.2.inputs: buffer '%s': expected an input buffer of "
                     "the suite", m->path, b[i].buffer);
            goto out;
        }
        for (size_t j = 0; j < i; j++)
            if (!strcmp(b[j].buffer, b[i].buffer)) {
                snprintf(err, errlen, "%s: buffer '%s' is bound twice (to %s and %s)", m->path,
                         b[i].buffer, b[j].file, b[i].file);
                goto out;
            }
        if (load(b[i].file, &tfs[i], err, errlen) != 0)
            goto out;
        const char *shown = strncmp(b[i].file, "embed:", 6) ? b[i].file : b[i].file + 6;
        if (!(ts[i] = imp_tensor_find(&tfs[i], b[i].tensor))) {
            imp_tensor_fail(err, errlen, shown, b[i].tensor, "name", "no such tensor in the file");
            goto out;
        }
        const struct eng_buffer_spec *bs = &m->buffers[bi];
        if (ts[i]->ndims != bs->ndims) {
            imp_tensor_fail(err, errlen, shown, b[i].tensor, "shape",
                            "expected %zu dimensions (buffer %s), got %zu", bs->ndims, bs->name,
                            ts[i]->ndims);
            goto out;
        }
        /* A dimension that is a bare parameter takes the tensor's size. */
        for (size_t d = 0; d < bs->ndims; d++) {
            bool param = false;
            for (size_t p = 0; p < m->nparams; p++)
                param |= !strcmp(m->params[p].name, bs->dims[d]);
            if (!param)
                continue;
            bool set = false;
            for (size_t k = 0; k < shape->n; k++)
                if (!strcmp(shape->keys[k], bs->dims[d])) {
                    set = true;
                    if ((uint64_t)shape->values[k] != ts[i]->dims[d]) {
                        char field[32];
                        snprintf(field, sizeof field, "shape[%zu]", d);
                        imp_tensor_fail(err, errlen, shown, b[i].tensor, field,
                                        "expected %lld (%s, as another bound tensor has it), got %llu",
                                        (long long)shape->values[k], bs->dims[d],
                                        (unsigned long long)ts[i]->dims[d]);
                        goto out;
                    }
                }
            if (!set) {
                shape->keys = xrealloc(shape->keys, (shape->n + 1) * sizeof *shape->keys);
                shape->values = xrealloc(shape->values, (shape->n + 1) * sizeof *shape->values);
                shape->keys[shape->n] = xstrdup(bs->dims[d]);
                shape->values[shape->n++] = (int64_t)ts[i]->dims[d];
            }
        }
    }
    struct eng_values v;
    if (eng_values_make(m, shape, NULL, NULL, &v, err, errlen) != 0)
        goto out;
    for (size_t i = 0; i < n; i++) {
        size_t bi = (size_t)find_input(m, b[i].buffer);
        const char *shown = strncmp(b[i].file, "embed:", 6) ? b[i].file : b[i].file + 6;
        int64_t dims[8], pdims[8];
        if (dims_at(m, bi, &v, dims, pdims, err, errlen) != 0)
            goto out_v;
        for (size_t d = 0; d < m->buffers[bi].ndims; d++)
            if ((uint64_t)dims[d] != ts[i]->dims[d]) {
                char field[32];
                snprintf(field, sizeof field, "shape[%zu]", d);
                imp_tensor_fail(err, errlen, shown, b[i].tensor, field,
                                "expected %lld (buffer %s's \"%s\" at this shape), got %llu",
                                (long long)dims[d], m->buffers[bi].name, m->buffers[bi].dims[d],
                                (unsigned long long)ts[i]->dims[d]);
                goto out_v;
            }
        struct eng_buffer_size sz;
        if (eng_buffer_size(m, bi, &v, &sz, err, errlen) != 0)
            goto out_v;
        void *scratch = xmalloc(sz.padded_bytes ? (size_t)sz.padded_bytes : 1);
        int c = convert(m, bi, &v, ts[i], b[i].raw_bf16, shown, scratch, sz.padded_elems, err,
                        errlen);
        free(scratch);
        if (c != 0)
            goto out_v;
    }
    rc = 0;
out_v:
    eng_values_free(&v);
out:
    for (size_t i = 0; i < n; i++)
        imp_tensor_file_free(&tfs[i]);
    free(tfs);
    free(ts);
    if (rc != 0)
        eng_shape_free(shape);
    return rc;
}

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* Adds the bindings one file offers (abs: its absolute path). */
static int bind_file(const struct eng_manifest *m, const char *abs, struct eng_replay_bind **out,
                     size_t *n, char *err, size_t errlen)
{
    struct imp_tensor_file tf;
    if (imp_tensor_file_load(abs, &tf, err, errlen) != 0)
        return -1;
    for (size_t i = 0; i < tf.n; i++) {
        if (find_input(m, tf.t[i].name) < 0)
            continue;
        /* The path travels in the check's values and is quoted in findings. */
        if (strchr(abs, ';') || strchr(abs, '#') || !text_is_clean(abs, NULL)) {
            imp_tensor_file_free(&tf);
            return imp_tensor_fail(err, errlen, abs, NULL, "file",
                                   "expected a path without ';', '#' or control characters");
        }
        *out = xrealloc(*out, (*n + 1) * sizeof **out);
        (*out)[*n] = (struct eng_replay_bind){xstrdup(tf.t[i].name), xstrdup(abs),
                                              xstrdup(tf.t[i].name), false};
        (*n)++;
    }
    imp_tensor_file_free(&tf);
    return 0;
}

int eng_replay_from_path(const struct eng_manifest *m, const char *path,
                         struct eng_replay_bind **out, size_t *n, char *err, size_t errlen)
{
    *out = NULL;
    *n = 0;
    char *abs = realpath(path, NULL);
    struct stat st;
    if (!abs || stat(abs, &st) != 0) {
        snprintf(err, errlen, "%s: cannot open: no such file or folder", path);
        free(abs);
        return -1;
    }
    int rc = 0;
    if (S_ISDIR(st.st_mode)) {
        DIR *d = opendir(abs);
        char **names = NULL;
        size_t nn = 0;
        for (struct dirent *de; d && (de = readdir(d));) {
            size_t l = strlen(de->d_name);
            if ((l > 4 && !strcmp(de->d_name + l - 4, ".npy")) ||
                (l > 12 && !strcmp(de->d_name + l - 12, ".safetensors"))) {
                names = xrealloc(names, (nn + 1) * sizeof *names);
                names[nn++] = xasprintf("%s/%s", abs, de->d_name);
            }
        }
        if (d)
            closedir(d);
        qsort(names, nn, sizeof *names, cmp_str);
        for (size_t i = 0; i < nn && rc == 0; i++)
            rc = bind_file(m, names[i], out, n, err, errlen);
        for (size_t i = 0; i < nn; i++)
            free(names[i]);
        free(names);
    } else {
        rc = bind_file(m, abs, out, n, err, errlen);
    }
    if (rc == 0 && *n == 0) {
        char list[256] = "";
        for (size_t i = 0; i < m->nbuffers; i++)
            if (m->buffers[i].role == ENG_ROLE_INPUT)
                snprintf(list + strlen(list), sizeof list - strlen(list), "%s%s",
                         list[0] ? ", " : "", m->buffers[i].name);
        snprintf(err, errlen, "%s: no tensor is named like an input buffer of suite %s (%s)",
                 path, m->name, list);
        rc = -1;
    }
    free(abs);
    if (rc != 0) {
        eng_replay_binds_free(*out, *n);
        *out = NULL;
        *n = 0;
    }
    return rc;
}
