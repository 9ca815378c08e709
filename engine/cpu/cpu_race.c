/* Race check of the cpu backend (see cpu_race.h for the model). */
#define _GNU_SOURCE
#include "engine/cpu/cpu_race.h"
#include "engine/cpu/cpu_guard.h"

#include <dlfcn.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define KL_ABI_ONLY
#include "kernels/kl.h"

#include "common/xalloc.h"
#include "engine/backend/backend.h"

#define SCOPE_DEVICE 1 /* kl.h's KL_SCOPE_DEVICE (outside KL_ABI_ONLY) */
/* Shadow pages at most (64 KiB of shadow per 4 KiB of memory): beyond it new pages go
 * unchecked and the check says it was partial. */
#define MAX_PAGES ((size_t)2048)
/* Accesses checked per launch at most: the check's cost is a few cache misses per access, so a
 * large GEMM would cost a hundred times its run; the races it is for show in small launches. */
#define MAX_CHECKED ((uint64_t)1 << 20)
#define PAGE_SHIFT 12
#define GRANULES (1u << (PAGE_SHIFT - 2))
#define MAX_SYNC ((size_t)1 << 14)

/* One access: 32 bytes. mask: the bytes of the 4-byte granule it touched. */
struct acc {
    const void *pc;
    uint32_t block, bar, wep, clock;
    uint16_t thread, wave;
    uint8_t mask, atomic, write, valid;
};

struct cell {
    struct acc w, r;
};

/* The shadow of one 4 KiB page of memory (of one block's __shared__ storage, or global). */
struct page {
    uint64_t key; /* 0 = empty */
    struct cell *cells;
};

struct sync {
    uint64_t key;
    uint32_t *vc;
};

struct cpu_race {
    uint64_t nblocks;
    const uint64_t *ids; /* a sample's block ids by place, or NULL */
    uint32_t *vc; /* nblocks x nblocks: vc[b * nblocks + c] = what block b knows of block c */
    struct page *pages;
    size_t pcap, pused;
    /* Pages of recent accesses, by the low bits of their key: a GEMM's loop alternates two or
     * three pages, and a lookup in the table costs a hash and a probe. */
    struct page *recent[16];
    struct sync *syncs;
    size_t scap, sused;
    unsigned long races;
    uint64_t checked;
    int partial;
    uint64_t stopped_after; /* the accesses checked whole when partial was set */
    /* The first race, kept as found and written as a sentence when asked for. */
    struct acc first[2];
    const void *first_addr;
    uint64_t first_shared;
    cpu_race_where_fn where;
    void *where_arg;
    char report[1024];
};

struct cpu_race *cpu_race_new(uint64_t nblocks, const uint64_t *ids)
{
    if (!nblocks || nblocks > CPU_RACE_MAX_BLOCKS)
        return NULL;
    struct cpu_race *r = xcalloc(1, sizeof *r);
    r->nblocks = nblocks;
    r->ids = ids;
    r->vc = xcalloc(nblocks * nblocks, sizeof *r->vc);
    for (uint64_t b = 0; b < nblocks; b++)
        r->vc[b * nblocks + b] = 1;
    r->pcap = 64;
    r->pages = xcalloc(r->pcap, sizeof *r->pages);
    r->scap = 64;
    r->syncs = xcalloc(r->scap, sizeof *r->syncs);
    return r;
}

void cpu_race_free(struct cpu_race *r)
{
    if (!r)
        return;
    for (size_t i = 0; i < r->scap; i++)
        free(r->syncs[i].vc);
    free(r->syncs);
    for (size_t i = 0; i < r->pcap; i++)
        free(r->pages[i].cells);
    free(r->pages);
    free(r->vc);
    free(r);
}

static uint64_t mix(uint64_t x)
{
    x ^= x >> 33;
    x *= 0xff51afd7ed558ccdull;
    x ^= x >> 33;
    return x;
}

/* The check stops here: what the launch does from the access being checked on is unchecked
 * (the shadow memory or the access count reached its bound). */
static void stop(struct cpu_race *r)
{
    if (!r->partial)
        r->stopped_after = r->checked ? r->checked - 1 : 0;
    r->partial = 1;
}

static struct page *page_find(struct cpu_race *r, uint64_t key)
{
    struct page **hint = &r->recent[key & 15];
    if (*hint && (*hint)->key == key)
        return *hint;
    for (;;) {
        size_t mask = r->pcap - 1, i = mix(key) & mask;
        while (r->pages[i].key) {
            if (r->pages[i].key == key)
                return *hint = &r->pages[i];
            i = (i + 1) & mask;
        }
        if ((r->pused + 1) * 2 <= r->pcap) {
            if (r->pused >= MAX_PAGES) {
                stop(r);
                return NULL;
            }
            r->pused++;
            r->pages[i].key = key;
            r->pages[i].cells = xcalloc(GRANULES, sizeof(struct cell));
            return *hint = &r->pages[i];
        }
        struct page *old = r->pages;
        size_t oldcap = r->pcap;
        r->pcap *= 2;
        r->pages = xcalloc(r->pcap, sizeof *r->pages);
        for (size_t k = 0; k < oldcap; k++)
            if (old[k].key) {
                size_t j = mix(old[k].key) & (r->pcap - 1);
                while (r->pages[j].key)
                    j = (j + 1) & (r->pcap - 1);
                r->pages[j] = old[k];
            }
        free(old);
        memset(r->recent, 0, sizeof r->recent);
        hint = &r->recent[key & 15];
    }
}

static uint32_t *sync_vc(struct cpu_race *r, uint64_t key, bool add)
{
    for (;;) {
        size_t mask = r->scap - 1, i = mix(key) & mask;
        while (r->syncs[i].key) {
            if (r->syncs[i].key == key)
                return r->syncs[i].vc;
            i = (i + 1) & mask;
        }
        if (!add)
            return NULL;
        if ((r->sused + 1) * 2 <= r->scap) {
            r->sused++;
            r->syncs[i].key = key;
            r->syncs[i].vc = xcalloc(r->nblocks, sizeof(uint32_t));
            return r->syncs[i].vc;
        }
        if (r->scap >= MAX_SYNC) {
            stop(r);
            return NULL;
        }
        struct sync *old = r->syncs;
        size_t oldcap = r->scap;
        r->scap *= 2;
        r->syncs = xcalloc(r->scap, sizeof *r->syncs);
        for (size_t k = 0; k < oldcap; k++)
            if (old[k].key) {
                size_t j = mix(old[k].key) & (r->scap - 1);
                while (r->syncs[j].key)
                    j = (j + 1) & (r->scap - 1);
                r->syncs[j] = old[k];
            }
        free(old);
    }
}

/* Whether earlier access a happens before the current access of `who`. */
static bool ordered(const struct cpu_race *r, const struct acc *a, const struct cpu_race_who *who)
{
    if (a->block == who->block) {
        if (a->thread == who->thread || a->bar < who->bar)
            return true;
        return a->wave == who->wave && a->wep < who->wep;
    }
    return r->vc[who->block * r->nblocks + a->block] >= a->clock;
}

static void describe_pc(const struct cpu_race *r, const void *pc, char *out, size_t n)
{
    Dl_info di;
    char name[200];
    if (pc && dladdr(pc, &di) && di.dli_sname) { /* the source's own name, demangled */
        cpu_guard_kernel_name(di.dli_sname, name, sizeof name);
        snprintf(out, n, "%s+0x%lx", name,
                 (unsigned long)((const char *)pc - (const char *)di.dli_saddr));
    } else if (pc && r->where) { /* a helper of no visible symbol: its line says where */
        snprintf(out, n, "a device function");
    } else {
        snprintf(out, n, "pc %p", pc);
    }
    char line[160];
    if (pc && r->where && r->where(r->where_arg, pc, line, sizeof line) == 0) {
        size_t l = strlen(out);
        snprintf(out + l, n - l, " (%s)", line);
    }
}

static void describe_acc(const struct cpu_race *r, const struct acc *a, char *out, size_t n)
{
    char where[256];
    describe_pc(r, a->pc, where, sizeof where);
    snprintf(out, n, "%s%s by block %llu thread %u at %s", a->atomic ? "atomic " : "",
             a->write ? "write" : "read",
             (unsigned long long)(r->ids ? r->ids[a->block] : a->block), a->thread, where);
}

static void note_race(struct cpu_race *r, const struct acc *prev, const struct acc *cur,
                      const void *addr, uint64_t shared_of)
{
    if (r->races++)
        return;
    /* Kept; the sentence is written when asked for (cpu_race_report), off the emulated
     * thread's small stack: naming source lines may run a tool. */
    r->first[0] = *prev;
    r->first[1] = *cur;
    r->first_addr = addr;
    r->first_shared = shared_of;
}

void cpu_race_set_where(struct cpu_race *r, cpu_race_where_fn where, void *arg)
{
    if (!r)
        return;
    r->where = where;
    r->where_arg = arg;
}

int cpu_race_access(struct cpu_race *r, const struct cpu_race_who *who, const void *addr,
                    unsigned size, unsigned how, const void *pc, uint64_t shared_of)
{
    if (how & KL_CPU_ACC_FENCE)
        return 0;
    if (++r->checked > MAX_CHECKED) {
        stop(r);
        return 0;
    }
    uint32_t *mine = &r->vc[who->block * r->nblocks];
    uint64_t key_sync = (uint64_t)(uintptr_t)addr ^ (shared_of == UINT64_MAX ? 0 : mix(shared_of + 1));
    bool atomic = (how & KL_CPU_ACC_ATOMIC) != 0;
    int scope = (int)(how >> KL_CPU_ACC_SCOPE_SHIFT) & 3;
    if (atomic && (how & KL_CPU_ACC_ACQUIRE)) {
        const uint32_t *vc = sync_vc(r, key_sync, false);
        if (vc)
            for (uint64_t c = 0; c < r->nblocks; c++)
                if (vc[c] > mine[c])
                    mine[c] = vc[c];
    }
    struct acc cur = {.pc = pc, .block = (uint32_t)who->block, .thread = (uint16_t)who->thread, .wave = (uint16_t)who->wave,
                      .bar = who->bar, .wep = who->wep, .clock = mine[who->block], .valid = 1,
                      .atomic = atomic, .write = (how & KL_CPU_ACC_WRITE) != 0};
    int found = 0;
    uint64_t tag = shared_of == UINT64_MAX ? 0 : mix(shared_of + 1) << PAGE_SHIFT;
    uintptr_t lo = (uintptr_t)addr, hi = lo + (size ? size : 1);
    for (uintptr_t g = lo & ~(uintptr_t)3; g < hi; g += 4) {
        uintptr_t b0 = g < lo ? lo : g, b1 = g + 4 < hi ? g + 4 : hi;
        cur.mask = (uint8_t)(((1u << (b1 - b0)) - 1) << (b0 - g));
        uint64_t key = (((uint64_t)g >> PAGE_SHIFT) + 1) ^ tag;
        struct page *pg = page_find(r, key ? key : 1);
        if (!pg)
            break;
        struct cell *c = &pg->cells[(g >> 2) & (GRANULES - 1)];
        const struct acc *prev[2] = {&c->w, cur.write ? &c->r : NULL};
        for (int k = 0; k < 2; k++) {
            const struct acc *pa = prev[k];
            if (pa && pa->valid && (pa->mask & cur.mask) && !(pa->atomic && atomic) &&
                !ordered(r, pa, who)) {
                if (!found)
                    note_race(r, pa, &cur, (const void *)b0, shared_of);
                found = 1;
            }
        }
        if (cur.write)
            c->w = cur;
        else
            c->r = cur;
    }
    if (atomic && cur.write &&
        (((how & KL_CPU_ACC_RELEASE) && scope >= SCOPE_DEVICE) || who->fenced >= SCOPE_DEVICE)) {
        uint32_t *vc = sync_vc(r, key_sync, true);
        if (vc) {
            for (uint64_t c = 0; c < r->nblocks; c++)
                if (mine[c] > vc[c])
                    vc[c] = mine[c];
            mine[who->block]++;
        }
    }
    return found;
}

unsigned long cpu_race_count(const struct cpu_race *r) { return r ? r->races : 0; }
const char *cpu_race_report(struct cpu_race *r)
{
    if (!r || !r->races)
        return "";
    if (r->report[0])
        return r->report;
    char a[320], b[320], mem[96];
    describe_acc(r, &r->first[0], a, sizeof a);
    describe_acc(r, &r->first[1], b, sizeof b);
    if (r->first_shared == UINT64_MAX)
        snprintf(mem, sizeof mem, "global memory at %p", r->first_addr);
    else
        snprintf(mem, sizeof mem, "__shared__ memory of block %llu at %p",
                 (unsigned long long)r->first_shared, r->first_addr);
    snprintf(r->report, sizeof r->report,
             ENG_RACE_PREFIX " on %s: %s, then %s, with no barrier, fence or atomic ordering them", mem,
             a, b);
    return r->report;
}
int cpu_race_partial(const struct cpu_race *r) { return r ? r->partial : 0; }

uint64_t cpu_race_stopped_after(const struct cpu_race *r) { return r ? r->stopped_after : 0; }
