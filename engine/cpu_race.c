/* Race check of the cpu backend (see cpu_race.h for the model). */
#define _GNU_SOURCE
#include "engine/cpu_race.h"

#include <dlfcn.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define KL_ABI_ONLY
#include "kernels/kl.h"

#include "common/xalloc.h"
#include "engine/backend.h"

#define SCOPE_DEVICE 1 /* kl.h's KL_SCOPE_DEVICE (outside KL_ABI_ONLY) */
/* Shadow cells at most (about 80 bytes each): beyond it new addresses go unchecked. */
#define MAX_CELLS ((size_t)1 << 22)
#define MAX_SYNC ((size_t)1 << 14)

struct acc {
    const void *pc;
    uint64_t block;
    uint32_t thread, wave, bar, wep, clock;
    uint8_t valid, atomic, write;
};

struct cell {
    uint64_t key; /* 0 = empty */
    struct acc w, r;
};

struct sync {
    uint64_t key;
    uint32_t *vc;
};

struct cpu_race {
    uint64_t nblocks;
    uint32_t *vc; /* nblocks x nblocks: vc[b * nblocks + c] = what block b knows of block c */
    struct cell *cells;
    size_t ncap, nused;
    struct sync *syncs;
    size_t scap, sused;
    unsigned long races;
    int partial;
    char report[768];
};

struct cpu_race *cpu_race_new(uint64_t nblocks)
{
    if (!nblocks || nblocks > CPU_RACE_MAX_BLOCKS)
        return NULL;
    struct cpu_race *r = xcalloc(1, sizeof *r);
    r->nblocks = nblocks;
    r->vc = xcalloc(nblocks * nblocks, sizeof *r->vc);
    for (uint64_t b = 0; b < nblocks; b++)
        r->vc[b * nblocks + b] = 1;
    r->ncap = 1024;
    r->cells = xcalloc(r->ncap, sizeof *r->cells);
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
    free(r->cells);
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

static struct cell *cell_find(struct cpu_race *r, uint64_t key, bool add)
{
    for (;;) {
        size_t mask = r->ncap - 1, i = mix(key) & mask;
        while (r->cells[i].key) {
            if (r->cells[i].key == key)
                return &r->cells[i];
            i = (i + 1) & mask;
        }
        if (!add)
            return NULL;
        if ((r->nused + 1) * 2 <= r->ncap) {
            r->nused++;
            r->cells[i].key = key;
            return &r->cells[i];
        }
        if (r->ncap >= MAX_CELLS) {
            r->partial = 1;
            return NULL;
        }
        struct cell *old = r->cells;
        size_t oldcap = r->ncap;
        r->ncap *= 2;
        r->cells = xcalloc(r->ncap, sizeof *r->cells);
        for (size_t k = 0; k < oldcap; k++)
            if (old[k].key) {
                size_t j = mix(old[k].key) & (r->ncap - 1);
                while (r->cells[j].key)
                    j = (j + 1) & (r->ncap - 1);
                r->cells[j] = old[k];
            }
        free(old);
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
            r->partial = 1;
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

static void describe_pc(const void *pc, char *out, size_t n)
{
    Dl_info di;
    if (pc && dladdr(pc, &di) && di.dli_sname)
        snprintf(out, n, "%s+0x%lx", di.dli_sname,
                 (unsigned long)((const char *)pc - (const char *)di.dli_saddr));
    else
        snprintf(out, n, "pc %p", pc);
}

static void describe_acc(const struct acc *a, char *out, size_t n)
{
    char where[128];
    describe_pc(a->pc, where, sizeof where);
    snprintf(out, n, "%s%s by block %llu thread %u at %s", a->atomic ? "atomic " : "",
             a->write ? "write" : "read", (unsigned long long)a->block, a->thread, where);
}

static void note_race(struct cpu_race *r, const struct acc *prev, const struct acc *cur,
                      const void *addr, uint64_t shared_of)
{
    if (r->races++)
        return;
    char a[192], b[192], mem[96];
    describe_acc(prev, a, sizeof a);
    describe_acc(cur, b, sizeof b);
    if (shared_of == UINT64_MAX)
        snprintf(mem, sizeof mem, "global memory at %p", addr);
    else
        snprintf(mem, sizeof mem, "__shared__ memory of block %llu at %p",
                 (unsigned long long)shared_of, addr);
    snprintf(r->report, sizeof r->report,
             ENG_RACE_PREFIX " on %s: %s, then %s, with no barrier, fence or atomic ordering them", mem,
             a, b);
}

int cpu_race_access(struct cpu_race *r, const struct cpu_race_who *who, const void *addr,
                    unsigned size, unsigned how, const void *pc, uint64_t shared_of)
{
    if (how & KL_CPU_ACC_FENCE)
        return 0;
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
    struct acc cur = {.pc = pc, .block = who->block, .thread = who->thread, .wave = who->wave,
                      .bar = who->bar, .wep = who->wep, .clock = mine[who->block], .valid = 1,
                      .atomic = atomic, .write = (how & KL_CPU_ACC_WRITE) != 0};
    int found = 0;
    /* One cell per 4-byte granule; a narrower access gets its own byte cell, so neighbours in
     * one word written by different threads are not taken for a conflict. */
    uintptr_t lo = (uintptr_t)addr, hi = lo + (size ? size : 1);
    uintptr_t step = size >= 4 ? 4 : 1;
    if (step == 4)
        lo &= ~(uintptr_t)3;
    for (uintptr_t a = lo; a < hi; a += step) {
        uint64_t key = ((uint64_t)a << 1 | (step == 4)) ^
                       (shared_of == UINT64_MAX ? 0 : mix(shared_of + 1));
        if (!key)
            key = 1;
        struct cell *c = cell_find(r, key, true);
        if (!c)
            break;
        if (c->w.valid && !(c->w.atomic && atomic) && !ordered(r, &c->w, who)) {
            if (!found)
                note_race(r, &c->w, &cur, (const void *)a, shared_of);
            found = 1;
        }
        if (cur.write && c->r.valid && !(c->r.atomic && atomic) && !ordered(r, &c->r, who)) {
            if (!found)
                note_race(r, &c->r, &cur, (const void *)a, shared_of);
            found = 1;
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
const char *cpu_race_report(const struct cpu_race *r) { return r ? r->report : ""; }
int cpu_race_partial(const struct cpu_race *r) { return r ? r->partial : 0; }
