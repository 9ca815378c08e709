/* Written-byte bitmaps of device allocations (engine/prog/prog_shadow.h). Bit i of byte i / 8
 * stands for byte i of the allocation. A kernel store tests its bits first and sets them with
 * an atomic OR only when one is clear, so the common case — a byte written again — costs a load. */
#define _GNU_SOURCE
#include "engine/prog/prog_shadow.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "common/xalloc.h"

/* A shadow is mapped, not allocated: pages never touched cost nothing, and a big allocation's
 * shadow (an eighth of it) is no heap block. */
unsigned char *prog_shadow_new(size_t bytes)
{
    size_t len = bytes / 8 + 1;
    void *p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE,
                   -1, 0);
    return p == MAP_FAILED ? NULL : p;
}

void prog_shadow_free(unsigned char *sh, size_t bytes)
{
    if (sh)
        munmap(sh, bytes / 8 + 1);
}

/* the bits of byte off / 8 for [off, off + n) that fall in it, n > 0; *took: how many (no
 * popcount: without -mpopcnt it is a library call, on the path of every kernel access) */
static unsigned char head_mask(size_t off, size_t n, size_t *took)
{
    unsigned lo = (unsigned)(off & 7), hi = lo + (n < 8 ? (unsigned)n : 8);
    hi = hi > 8 ? 8 : hi;
    *took = hi - lo;
    return (unsigned char)(((1u << hi) - 1) & ~((1u << lo) - 1));
}

static void set_bits(unsigned char *b, unsigned char m)
{
    if ((__atomic_load_n(b, __ATOMIC_RELAXED) & m) != m)
        __atomic_fetch_or(b, m, __ATOMIC_RELAXED);
}

void prog_shadow_mark(unsigned char *sh, size_t off, size_t n)
{
    while (n) {
        if ((off & 7) == 0 && n >= 8) {
            size_t whole = n / 8;
            for (size_t i = 0; i < whole; i++)
                set_bits(sh + off / 8 + i, 0xff);
            off += whole * 8;
            n -= whole * 8;
            continue;
        }
        size_t took;
        unsigned char m = head_mask(off, n, &took);
        set_bits(sh + off / 8, m);
        off += took;
        n -= took;
    }
}

size_t prog_shadow_first_unwritten(const unsigned char *sh, size_t off, size_t n)
{
    while (n) {
        size_t took;
        unsigned char m = head_mask(off, n, &took);
        unsigned char have = __atomic_load_n(sh + off / 8, __ATOMIC_RELAXED);
        if ((have & m) != m) {
            unsigned missing = (unsigned)(m & ~have);
            return off / 8 * 8 + (size_t)__builtin_ctz(missing);
        }
        off += took;
        n -= took;
    }
    return (size_t)-1;
}

static bool bit(const unsigned char *sh, size_t i) { return (sh[i / 8] >> (i & 7)) & 1; }

static void put(unsigned char *sh, size_t i, bool v)
{
    if (v)
        sh[i / 8] |= (unsigned char)(1u << (i & 7));
    else
        sh[i / 8] &= (unsigned char)~(1u << (i & 7));
}

void prog_shadow_copy(unsigned char *dst, size_t doff, const unsigned char *src, size_t soff,
                      size_t n)
{
    if (!n)
        return;
    if ((doff & 7) == (soff & 7)) { /* the same bit positions: whole bytes in the middle */
        size_t head = (8 - (doff & 7)) & 7;
        head = head > n ? n : head;
        size_t whole = (n - head) / 8, tail = n - head - whole * 8;
        /* the edges' bits first, from a copy: the whole bytes may overlap them */
        bool edge[16];
        for (size_t i = 0; i < head; i++)
            edge[i] = bit(src, soff + i);
        for (size_t i = 0; i < tail; i++)
            edge[8 + i] = bit(src, soff + head + whole * 8 + i);
        memmove(dst + (doff + head) / 8, src + (soff + head) / 8, whole);
        for (size_t i = 0; i < head; i++)
            put(dst, doff + i, edge[i]);
        for (size_t i = 0; i < tail; i++)
            put(dst, doff + head + whole * 8 + i, edge[8 + i]);
        return;
    }
    /* bit by bit, through a copy of the source's (the ranges may overlap) */
    unsigned char *tmp = xcalloc(n / 8 + 1, 1);
    for (size_t i = 0; i < n; i++)
        put(tmp, i, bit(src, soff + i));
    for (size_t i = 0; i < n; i++)
        put(dst, doff + i, bit(tmp, i));
    free(tmp);
}
