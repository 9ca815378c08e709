/* The .npy reader (importers/tensor.h), versions 1.0, 2.0 and 3.0.
 *
 * Layout (numpy's format docstring): "\x93NUMPY", major and minor version bytes, the header
 * length (u16 little-endian in 1.0, u32 in 2.0 and 3.0), then a Python dict literal
 * {'descr': '<f4', 'fortran_order': False, 'shape': (3, 4), } padded with spaces and ended by
 * a newline, then the data. Only the C-order little-endian numeric types a capture needs are
 * read; a bf16 capture is saved as raw '<u2' (numpy has no bf16) and the manifest declares it.
 * The one tensor is named after the file (its base name without ".npy"). */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/text.h"
#include "common/xalloc.h"
#include "importers/tensor.h"

/* numpy's own reader refuses headers above 10,000 bytes unless told otherwise; v2 allows more,
 * so kladder takes up to 1 MiB and no further. */
#define HEADER_MAX (1u << 20)

static const struct {
    const char *descr;
    enum imp_tdtype dtype;
} descrs[] = {
    {"<f8", IMP_TD_F64}, {"<f4", IMP_TD_F32}, {"<f2", IMP_TD_F16}, {"<i8", IMP_TD_I64},
    {"<i4", IMP_TD_I32}, {"<i2", IMP_TD_I16}, {"|i1", IMP_TD_I8},  {"<u2", IMP_TD_U16},
    {"<V2", IMP_TD_U16}, {"|u1", IMP_TD_U8},  {"|b1", IMP_TD_BOOL},
};

static const char descr_list[] = "'<f8' '<f4' '<f2' '<i8' '<i4' '<i2' '|i1' '<u2' '<V2' '|u1' '|b1'";

struct hdr {
    const char *p, *end;
    char descr[16];
    int fortran;       /* -1: missing */
    bool has_descr, has_shape;
    size_t ndims;
    uint64_t dims[IMP_TENSOR_MAX_DIMS];
};

static void skip_ws(struct hdr *h)
{
    while (h->p < h->end && (*h->p == ' ' || *h->p == '\t' || *h->p == '\n' || *h->p == '\r'))
        h->p++;
}

static bool eat(struct hdr *h, char c)
{
    skip_ws(h);
    if (h->p < h->end && *h->p == c) {
        h->p++;
        return true;
    }
    return false;
}

/* A quoted Python string ('x' or "x", no escapes: no key or descr needs one) into out. */
static bool read_str(struct hdr *h, char *out, size_t n)
{
    skip_ws(h);
    if (h->p >= h->end || (*h->p != '\'' && *h->p != '"'))
        return false;
    char q = *h->p++;
    size_t k = 0;
    while (h->p < h->end && *h->p != q) {
        if (*h->p == '\\' || k + 1 >= n)
            return false;
        out[k++] = *h->p++;
    }
    if (h->p >= h->end)
        return false;
    h->p++;
    out[k] = '\0';
    return true;
}

static bool read_word(struct hdr *h, const char *w)
{
    skip_ws(h);
    size_t n = strlen(w);
    if ((size_t)(h->end - h->p) < n || memcmp(h->p, w, n) != 0)
        return false;
    h->p += n;
    return true;
}

/* (3, 4) or (3,) or (); whole numbers up to 2^53 (a Python 2 'L' suffix allowed). */
static int read_shape(struct hdr *h, const char *path, char *err, size_t errlen)
{
    if (!eat(h, '('))
        return imp_tensor_fail(err, errlen, path, NULL, "header.shape", "expected a tuple (...)");
    for (;;) {
        if (eat(h, ')'))
            return 0;
        skip_ws(h);
        if (h->p >= h->end || !isdigit((unsigned char)*h->p))
            return imp_tensor_fail(err, errlen, path, NULL, "header.shape",
                                   "expected whole numbers in the tuple");
        uint64_t v = 0;
        while (h->p < h->end && isdigit((unsigned char)*h->p)) {
            v = v * 10 + (uint64_t)(*h->p++ - '0');
            if (v > ((uint64_t)1 << 53))
                return imp_tensor_fail(err, errlen, path, NULL, "header.shape",
                                       "expected dimensions up to 2^53");
        }
        if (h->p < h->end && *h->p == 'L')
            h->p++;
        if (h->ndims == IMP_TENSOR_MAX_DIMS)
            return imp_tensor_fail(err, errlen, path, NULL, "header.shape",
                                   "expected at most %d dimensions", IMP_TENSOR_MAX_DIMS);
        h->dims[h->ndims++] = v;
        if (eat(h, ')'))
            return 0;
        if (!eat(h, ','))
            return imp_tensor_fail(err, errlen, path, NULL, "header.shape",
                                   "expected ',' or ')' in the tuple");
    }
}

static int read_dict(struct hdr *h, const char *path, char *err, size_t errlen)
{
    h->fortran = -1;
    if (!eat(h, '{'))
        return imp_tensor_fail(err, errlen, path, NULL, "header", "expected a dict literal {...}");
    for (;;) {
        if (eat(h, '}'))
            break;
        char key[32];
        if (!read_str(h, key, sizeof key))
            return imp_tensor_fail(err, errlen, path, NULL, "header",
                                   "expected a quoted key or '}'");
        if (!eat(h, ':'))
            return imp_tensor_fail(err, errlen, path, NULL, "header", "expected ':' after a key");
        if (!strcmp(key, "descr")) {
            if (h->has_descr)
                return imp_tensor_fail(err, errlen, path, NULL, "header.descr", "duplicate key");
            if (!read_str(h, h->descr, sizeof h->descr))
                return imp_tensor_fail(err, errlen, path, NULL, "header.descr",
                                       "expected a quoted type string such as '<f4' (structured "
                                       "dtypes are not read)");
            h->has_descr = true;
        } else if (!strcmp(key, "fortran_order")) {
            if (h->fortran >= 0)
                return imp_tensor_fail(err, errlen, path, NULL, "header.fortran_order",
                                       "duplicate key");
            if (read_word(h, "False"))
                h->fortran = 0;
            else if (read_word(h, "True"))
                h->fortran = 1;
            else
                return imp_tensor_fail(err, errlen, path, NULL, "header.fortran_order",
                                       "expected True or False");
        } else if (!strcmp(key, "shape")) {
            if (h->has_shape)
                return imp_tensor_fail(err, errlen, path, NULL, "header.shape", "duplicate key");
            if (read_shape(h, path, err, errlen) != 0)
                return -1;
            h->has_shape = true;
        } else {
            return imp_tensor_fail(err, errlen, path, NULL, "header",
                                   "unknown key (expected descr, fortran_order, shape)");
        }
        if (eat(h, '}'))
            break;
        if (!eat(h, ','))
            return imp_tensor_fail(err, errlen, path, NULL, "header", "expected ',' or '}'");
    }
    skip_ws(h);
    if (h->p != h->end)
        return imp_tensor_fail(err, errlen, path, NULL, "header",
                               "expected only spaces and a newline after the dict");
    if (!h->has_descr || !h->has_shape || h->fortran < 0)
        return imp_tensor_fail(err, errlen, path, NULL, "header", "missing key '%s'",
                               !h->has_descr ? "descr" : !h->has_shape ? "shape" : "fortran_order");
    return 0;
}

/* The tensor's name: the file's base name without ".npy", made safe to print. */
static char *name_from_path(const char *path)
{
    const char *b = strrchr(path, '/');
    b = b ? b + 1 : path;
    size_t n = strlen(b);
    if (n > 4 && !strcmp(b + n - 4, ".npy"))
        n -= 4;
    char *raw = xmalloc(n + 1);
    memcpy(raw, b, n);
    raw[n] = '\0';
    char *clean = text_sanitize(*raw ? raw : "array", false);
    free(raw);
    return clean;
}

int imp_npy_parse(const unsigned char *buf, size_t len, const char *path,
                  struct imp_tensor_file *out, char *err, size_t errlen)
{
    memset(out, 0, sizeof *out);
    if (len < 10 || memcmp(buf, "\x93NUMPY", 6) != 0)
        return imp_tensor_fail(err, errlen, path, NULL, "magic",
                               "expected \"\\x93NUMPY\" and a version (not a .npy file, or truncated)");
    unsigned major = buf[6], minor = buf[7];
    if (major < 1 || major > 3 || minor != 0)
        return imp_tensor_fail(err, errlen, path, NULL, "version",
                               "expected 1.0, 2.0 or 3.0, got %u.%u", major, minor);
    size_t at = major == 1 ? 10 : 12;
    if (len < at)
        return imp_tensor_fail(err, errlen, path, NULL, "header length", "truncated");
    uint64_t hlen = major == 1 ? (uint64_t)buf[8] | (uint64_t)buf[9] << 8
                               : (uint64_t)buf[8] | (uint64_t)buf[9] << 8 |
                                     (uint64_t)buf[10] << 16 | (uint64_t)buf[11] << 24;
    if (hlen > HEADER_MAX)
        return imp_tensor_fail(err, errlen, path, NULL, "header length",
                               "expected at most %u bytes, got %llu", HEADER_MAX,
                               (unsigned long long)hlen);
    if (hlen > len - at)
        return imp_tensor_fail(err, errlen, path, NULL, "header length",
                               "%llu bytes, but only %zu follow it (truncated)",
                               (unsigned long long)hlen, len - at);
    const char *htext = (const char *)buf + at;
    /* v1 and v2 headers are latin-1, v3 UTF-8; every header numpy writes is ASCII, and one
     * that is not is refused rather than guessed at. */
    for (size_t i = 0; i < hlen; i++)
        if ((unsigned char)htext[i] >= 0x7f ||
            ((unsigned char)htext[i] < 0x20 && htext[i] != '\n' && htext[i] != '\t' &&
             htext[i] != '\r'))
            return imp_tensor_fail(err, errlen, path, NULL, "header",
                                   "expected printable ASCII, got byte 0x%02x at %zu",
                                   (unsigned char)htext[i], i);
    struct hdr h = {.p = htext, .end = htext + hlen};
    if (read_dict(&h, path, err, errlen) != 0)
        return -1;
    if (h.fortran)
        return imp_tensor_fail(err, errlen, path, NULL, "header.fortran_order",
                               "expected False (C order); save with np.ascontiguousarray");
    int dt = -1;
    for (size_t i = 0; i < sizeof descrs / sizeof descrs[0]; i++)
        if (!strcmp(h.descr, descrs[i].descr))
            dt = (int)descrs[i].dtype;
    if (dt < 0) {
        const char *why = h.descr[0] == '>' ? "big-endian data is not read; save it little-endian"
                          : strchr(h.descr, 'O') ? "object arrays are pickles and are refused"
                          : !strcmp(h.descr, "<f1") || !strcmp(h.descr, "|f1")
                              ? "an ml_dtypes fp8 array; save it as float32"
                              : "expected one of those listed";
        return imp_tensor_fail(err, errlen, path, NULL, "header.descr", "'%s': %s (%s)", h.descr,
                               why, descr_list);
    }
    struct imp_tensor t = {.dtype = (enum imp_tdtype)dt, .ndims = h.ndims, .elems = 1};
    memcpy(t.dims, h.dims, sizeof t.dims);
    for (size_t i = 0; i < t.ndims; i++)
        if (!imp_mul_u64(t.elems, t.dims[i], &t.elems))
            return imp_tensor_fail(err, errlen, path, NULL, "header.shape",
                                   "the product of the dimensions overflows 64 bits");
    uint64_t bytes;
    if (!imp_mul_u64(t.elems, imp_tdtype_size(t.dtype), &bytes))
        return imp_tensor_fail(err, errlen, path, NULL, "header.shape",
                               "the byte count overflows 64 bits");
    uint64_t have = len - at - hlen;
    if (have != bytes)
        return imp_tensor_fail(err, errlen, path, NULL, "data",
                               "expected %llu bytes (%llu elements of %s), got %llu%s",
                               (unsigned long long)bytes, (unsigned long long)t.elems, h.descr,
                               (unsigned long long)have, have < bytes ? " (truncated)" : "");
    const unsigned char *data = buf + at + hlen;
    if (t.dtype == IMP_TD_BOOL)
        for (size_t k = 0; k < bytes; k++)
            if (data[k] > 1)
                return imp_tensor_fail(err, errlen, path, NULL, "data",
                                       "bool element %zu is %u (expected 0 or 1)", k, data[k]);
    t.nbytes = (size_t)bytes;
    if (bytes) {
        t.data = xmalloc(t.nbytes);
        memcpy(t.data, data, t.nbytes);
    }
    t.name = name_from_path(path);
    out->path = xstrdup(path);
    out->t = xmalloc(sizeof *out->t);
    out->t[0] = t;
    out->n = 1;
    return 0;
}
