/* A small strict msgpack reader for the AMDGPU metadata note: a cursor over a bounded buffer that
 * reads one value at a time and never reads past the end. It knows nil, bool, the integers,
 * float32/64, str8/16/32 and fixstr, bin8/16/32, array16/32 and fixarray, map16/32 and fixmap;
 * anything else (ext, the reserved 0xc1) is an error. Every count is checked against the bytes
 * left (each element takes at least one byte), so a hostile count cannot make a caller loop or
 * allocate beyond the input. Errors carry the byte offset. */
#ifndef KL_ENGINE_MSGPACK_READ_H
#define KL_ENGINE_MSGPACK_READ_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct mp_reader {
    const unsigned char *p;
    size_t len, off;
    char err[160];   /* the first error; empty while none */
};

enum mp_kind { MP_NIL, MP_BOOL, MP_INT, MP_UINT, MP_FLOAT, MP_STR, MP_BIN, MP_ARRAY, MP_MAP };

struct mp_value {
    enum mp_kind kind;
    bool b;
    int64_t i;           /* MP_INT (negative) */
    uint64_t u;          /* MP_UINT */
    double f;
    const char *s;       /* MP_STR/MP_BIN: points into the buffer, NOT NUL-terminated */
    uint32_t n;          /* MP_STR/MP_BIN length in bytes; MP_ARRAY elements; MP_MAP pairs */
};

void mp_init(struct mp_reader *r, const void *data, size_t len);

/* Reads the next value's head (for arrays and maps, only the count: their elements follow).
 * false with r->err set at the first problem; later calls keep failing. */
bool mp_next(struct mp_reader *r, struct mp_value *v);

/* Skips one whole value, nested ones included, at most depth levels deep. */
bool mp_skip(struct mp_reader *r, int depth);

/* v is the string lit. */
bool mp_str_is(const struct mp_value *v, const char *lit);

#endif
