/* Clang offload bundles (engine/codeobj/offload_bundle.h). */
#include "engine/codeobj/offload_bundle.h"

#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "engine/codeobj/codeobj_err.h"

static const char MAGIC[] = "__CLANG_OFFLOAD_BUNDLE__"; /* 24 bytes, no terminator in the file */
enum { MAGIC_LEN = 24, MAX_ENTRIES = 4096 };

bool offload_bundle_is(const void *data, size_t len)
{
    return (len >= MAGIC_LEN && memcmp(data, MAGIC, MAGIC_LEN) == 0) ||
           (len >= 4 && memcmp(data, "CCOB", 4) == 0);
}

static uint64_t le64(const unsigned char *p)
{
    uint64_t v = 0;
    for (int i = 7; i >= 0; i--)
        v = v << 8 | p[i];
    return v;
}

struct entry {
    uint64_t off, size;
    const char *id;
    size_t idlen;
};

/* The processor of an AMD device id ("hipv4-amdgcn-amd-amdhsa--gfx1250:xnack-" -> "gfx1250"),
 * or false for a host or foreign entry. */
static bool entry_processor(const struct entry *e, char *out, size_t n)
{
    static const char amd[] = "amdgcn-amd-amdhsa--";
    const char *at = NULL;
    for (size_t i = 0; i + sizeof amd - 1 <= e->idlen && !at; i++)
        if (memcmp(e->id + i, amd, sizeof amd - 1) == 0)
            at = e->id + i + sizeof amd - 1;
    if (!at)
        return false;
    size_t rest = e->idlen - (size_t)(at - e->id), plen = 0;
    while (plen < rest && at[plen] != ':')
        plen++;
    if (plen == 0 || plen >= n)
        return false;
    memcpy(out, at, plen);
    out[plen] = '\0';
    return true;
}

/* Walks the header; calls back for each entry (stops at a nonzero return). */
static int walk(const unsigned char *d, size_t len, int (*each)(const struct entry *, void *),
                void *arg, char *err, size_t errlen)
{
    if (len >= 4 && memcmp(d, "CCOB", 4) == 0)
        return codeobj_fail(err, errlen, "a compressed offload bundle (CCOB): unpack it with "
                   "clang-offload-bundler --unbundle, or build without --offload-compress");
    if (len < MAGIC_LEN + 8)
        return codeobj_fail(err, errlen, "an offload bundle cut off in its header (%zu bytes)", len);
    uint64_t count = le64(d + MAGIC_LEN);
    if (count == 0 || count > MAX_ENTRIES)
        return codeobj_fail(err, errlen, "an offload bundle with %llu entries (expected 1 to %d)",
                   (unsigned long long)count, MAX_ENTRIES);
    size_t pos = MAGIC_LEN + 8;
    for (uint64_t i = 0; i < count; i++) {
        if (len - pos < 24)
            return codeobj_fail(err, errlen, "offload bundle entry %llu: its header is cut off at byte %zu",
                       (unsigned long long)i, pos);
        struct entry e = {.off = le64(d + pos), .size = le64(d + pos + 8)};
        uint64_t idlen = le64(d + pos + 16);
        pos += 24;
        if (idlen == 0 || idlen > len - pos)
            return codeobj_fail(err, errlen, "offload bundle entry %llu: an id of %llu bytes runs past the "
                       "end of the %zu-byte file", (unsigned long long)i,
                       (unsigned long long)idlen, len);
        e.id = (const char *)d + pos;
        e.idlen = (size_t)idlen;
        pos += (size_t)idlen;
        if (e.off > len || e.size > len - e.off)
            return codeobj_fail(err, errlen, "offload bundle entry %llu (%.*s): offset %llu + size %llu is "
                       "past the end of the %zu-byte file", (unsigned long long)i,
                       (int)(e.idlen > 80 ? 80 : e.idlen), e.id, (unsigned long long)e.off,
                       (unsigned long long)e.size, len);
        int rc = each(&e, arg);
        if (rc)
            return rc > 0 ? 0 : -1;
    }
    return 0;
}

struct listing {
    char *out;
    size_t n, used, amd;
};

static int list_one(const struct entry *e, void *arg)
{
    struct listing *l = arg;
    char p[64];
    if (!entry_processor(e, p, sizeof p) || e->size == 0)
        return 0;
    l->amd++;
    if (l->used < l->n)
        l->used += (size_t)snprintf(l->out + l->used, l->n - l->used, "%s%s", l->used ? "," : "", p);
    if (l->used >= l->n)
        l->used = l->n - 1;
    return 0;
}

/* The AMD device processors the bundle holds, comma-separated, into out; 0 or -1 (unreadable). */
static int offload_bundle_list(const void *data, size_t len, char *out, size_t n)
{
    struct listing l = {.out = out, .n = n};
    if (n)
        out[0] = '\0';
    char err[8];
    return n ? walk(data, len, list_one, &l, err, sizeof err) : -1;
}

struct picking {
    const char *want;
    const struct entry *found;
    struct entry hit;
    char processor[64];
    size_t amd;
};

static int pick_one(const struct entry *e, void *arg)
{
    struct picking *p = arg;
    char proc[64];
    if (!entry_processor(e, proc, sizeof proc) || e->size == 0)
        return 0;
    p->amd++;
    if ((p->want && p->want[0] && strcmp(proc, p->want) != 0) || p->found)
        return 0;
    p->hit = *e;
    p->found = &p->hit;
    snprintf(p->processor, sizeof p->processor, "%s", proc);
    return 0;
}

int offload_bundle_pick(const void *data, size_t len, const char *processor, const void **code,
                        size_t *code_len, char *picked, size_t n, char *err, size_t errlen)
{
    struct picking p = {.want = processor};
    if (walk(data, len, pick_one, &p, err, errlen) != 0)
        return -1;
    char have[256];
    if (offload_bundle_list(data, len, have, sizeof have) != 0)
        have[0] = '\0';
    if (!p.found)
        return codeobj_fail(err, errlen, "the offload bundle holds no AMD code object%s%s (it holds: %s)",
                   processor && processor[0] ? " for " : "", processor ? processor : "",
                   have[0] ? have : "no device entry");
    if ((!processor || !processor[0]) && p.amd > 1)
        return codeobj_fail(err, errlen, "the offload bundle holds code objects for %s: name the device's "
                   "processor", have);
    *code = (const unsigned char *)data + p.found->off;
    *code_len = (size_t)p.found->size;
    snprintf(picked, n, "%s", p.processor);
    return 0;
}
