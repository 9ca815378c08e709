#include "engine/codeobj/msgpack_read.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

void mp_init(struct mp_reader *r, const void *data, size_t len)
{
    memset(r, 0, sizeof *r);
    r->p = data;
    r->len = len;
}

static bool fail(struct mp_reader *r, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static bool fail(struct mp_reader *r, const char *fmt, ...)
{
    if (!r->err[0]) {
        char what[128];
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(what, sizeof what, fmt, ap);
        va_end(ap);
        snprintf(r->err, sizeof r->err, "msgpack at byte %zu: %s", r->off, what);
    }
    return false;
}

/* Big-endian unsigned of n bytes (1, 2, 4 or 8) at the cursor. */
static bool be(struct mp_reader *r, size_t n, uint64_t *out)
{
    if (r->len - r->off < n)
        return fail(r, "truncated: %zu-byte field past the end", n);
    uint64_t v = 0;
    for (size_t i = 0; i < n; i++)
        v = v << 8 | r->p[r->off + i];
    r->off += n;
    *out = v;
    return true;
}

static bool payload(struct mp_reader *r, struct mp_value *v, enum mp_kind k, uint64_t n)
{
    if (n > r->len - r->off)
        return fail(r, "truncated: %s of %llu bytes past the end", k == MP_STR ? "string" : "bin",
                    (unsigned long long)n);
    v->kind = k;
    v->s = (const char *)r->p + r->off;
    v->n = (uint32_t)n;
    r->off += (size_t)n;
    return true;
}

static bool container(struct mp_reader *r, struct mp_value *v, enum mp_kind k, uint64_t n)
{
    /* Each element is at least one byte: a count beyond what is left is a lie. */
    uint64_t min = k == MP_MAP ? 2 * n : n;
    if (min > r->len - r->off)
        return fail(r, "%s of %llu %s cannot fit in the %zu bytes left",
                    k == MP_MAP ? "map" : "array", (unsigned long long)n,
                    k == MP_MAP ? "pairs" : "elements", r->len - r->off);
    v->kind = k;
    v->n = (uint32_t)n;
    return true;
}

bool mp_next(struct mp_reader *r, struct mp_value *v)
{
    memset(v, 0, sizeof *v);
    if (r->err[0])
        return false;
    if (r->off >= r->len)
        return fail(r, "truncated: a value expected, the data ended");
    unsigned c = r->p[r->off++];
    uint64_t n;
    if (c <= 0x7f) {
        v->kind = MP_UINT, v->u = c;
        return true;
    }
    if (c >= 0xe0) {
        v->kind = MP_INT, v->i = (int8_t)c;
        return true;
    }
    if ((c & 0xf0) == 0x80)
        return container(r, v, MP_MAP, c & 0x0f);
    if ((c & 0xf0) == 0x90)
        return container(r, v, MP_ARRAY, c & 0x0f);
    if ((c & 0xe0) == 0xa0)
        return payload(r, v, MP_STR, c & 0x1f);
    switch (c) {
    case 0xc0:
        v->kind = MP_NIL;
        return true;
    case 0xc2:
    case 0xc3:
        v->kind = MP_BOOL, v->b = c == 0xc3;
        return true;
    case 0xc4: case 0xc5: case 0xc6:
        return be(r, (size_t)1 << (c - 0xc4), &n) && payload(r, v, MP_BIN, n);
    case 0xca:
    case 0xcb: {
        if (!be(r, c == 0xca ? 4 : 8, &n))
            return false;
        v->kind = MP_FLOAT;
        if (c == 0xca) {
            uint32_t b32 = (uint32_t)n;
            float f;
            memcpy(&f, &b32, sizeof f);
            v->f = (double)f;
        } else {
            memcpy(&v->f, &n, sizeof v->f);
        }
        return true;
    }
    case 0xcc: case 0xcd: case 0xce: case 0xcf:
        if (!be(r, (size_t)1 << (c - 0xcc), &n))
            return false;
        v->kind = MP_UINT, v->u = n;
        return true;
    case 0xd0: case 0xd1: case 0xd2: case 0xd3: {
        size_t w = (size_t)1 << (c - 0xd0);
        if (!be(r, w, &n))
            return false;
        /* sign-extend from w bytes */
        int64_t x = w == 8 ? (int64_t)n : (int64_t)(n ^ (1ull << (8 * w - 1))) - (int64_t)(1ull << (8 * w - 1));
        if (x >= 0)
            v->kind = MP_UINT, v->u = (uint64_t)x;
        else
            v->kind = MP_INT, v->i = x;
        return true;
    }
    case 0xd9: case 0xda: case 0xdb:
        return be(r, (size_t)1 << (c - 0xd9), &n) && payload(r, v, MP_STR, n);
    case 0xdc: case 0xdd:
        return be(r, c == 0xdc ? 2 : 4, &n) && container(r, v, MP_ARRAY, n);
    case 0xde: case 0xdf:
        return be(r, c == 0xde ? 2 : 4, &n) && container(r, v, MP_MAP, n);
    default:
        r->off--;
        return fail(r, "type byte 0x%02x is not one the metadata uses (ext or reserved)", c);
    }
}

bool mp_skip(struct mp_reader *r, int depth)
{
    struct mp_value v;
    if (!mp_next(r, &v))
        return false;
    if (v.kind != MP_ARRAY && v.kind != MP_MAP)
        return true;
    if (depth <= 0)
        return fail(r, "nested deeper than the metadata ever is");
    uint64_t items = v.kind == MP_MAP ? 2ull * v.n : v.n;
    for (uint64_t i = 0; i < items; i++)
        if (!mp_skip(r, depth - 1))
            return false;
    return true;
}

bool mp_str_is(const struct mp_value *v, const char *lit)
{
    size_t n = strlen(lit);
    return v->kind == MP_STR && v->n == n && memcmp(v->s, lit, n) == 0;
}
