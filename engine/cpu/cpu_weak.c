/* The cpu backend's weakly ordered memory (see cpu_weak.h). */
#include "engine/cpu/cpu_weak.h"

#include <stdlib.h>
#include <string.h>

#include "common/xalloc.h"

void cpu_weak_layer_free(struct cpu_weak_layer *l)
{
    free(l->e);
    *l = (struct cpu_weak_layer){0};
}

/* A held store is at most CPU_WEAK_WIDEST bytes and is copied on every switch of the pct
 * schedule: fixed-size copies compile to plain loads and stores, where a copy of a variable size
 * is a call into the C library (and, in a sanitizer build, its interceptor). */
static inline void copy_held(void *to, const void *from, unsigned size)
{
    switch (size) {
    case 1: memcpy(to, from, 1); break;
    case 2: memcpy(to, from, 2); break;
    case 4: memcpy(to, from, 4); break;
    case 8: memcpy(to, from, 8); break;
    case 16: memcpy(to, from, 16); break;
    default:
        for (unsigned i = 0; i < size; i++)
            ((unsigned char *)to)[i] = ((const unsigned char *)from)[i];
    }
}

static bool covers(const struct cpu_weak_layer *l, uintptr_t a, unsigned size)
{
    for (size_t i = 0; i < l->n; i++)
        if (a < l->e[i].addr + l->e[i].size && l->e[i].addr < a + size)
            return true;
    return false;
}

static struct cpu_weak_entry *push(struct cpu_weak_layer *l)
{
    if (l->n == l->cap) {
        l->cap = l->cap ? 2 * l->cap : 16;
        l->e = xrealloc(l->e, l->cap * sizeof *l->e);
    }
    return &l->e[l->n++];
}

void cpu_weak_publish(struct cpu_weak_layer *thr, struct cpu_weak_layer *blk)
{
    /* Both layers are on: memory already shows them, and now it is what everyone sees. */
    thr->n = 0;
    blk->n = 0;
}

int cpu_weak_store(struct cpu_weak_layer *thr, struct cpu_weak_layer *blk, const void *addr,
                   unsigned size, bool shared)
{
    uintptr_t a = (uintptr_t)addr;
    if (size == 0 || size > CPU_WEAK_WIDEST) {
        if (covers(thr, a, size) || covers(blk, a, size))
            cpu_weak_publish(thr, blk);
        return 0;
    }
    /* The thread's latest store to the same bytes already holds them: its value beneath is
     * still right, and the new value is taken when the layer comes off. */
    for (size_t i = thr->n; i-- > 0;) {
        const struct cpu_weak_entry *e = &thr->e[i];
        if (a < e->addr + e->size && e->addr < a + size) {
            if (e->addr == a && e->size == size)
                return 1;
            break;
        }
    }
    if (thr->n == CPU_WEAK_THREAD_MAX)
        cpu_weak_publish(thr, blk);
    struct cpu_weak_entry *e = push(thr);
    e->addr = a;
    e->size = size;
    e->shared = shared;
    copy_held(e->vis, addr, size);
    copy_held(e->mine, addr, size); /* taken again when the layer comes off */
    return 1;
}

void cpu_weak_atomic(struct cpu_weak_layer *thr, struct cpu_weak_layer *blk, const void *addr,
                     unsigned size)
{
    uintptr_t a = (uintptr_t)addr;
    if (covers(thr, a, size ? size : 1) || covers(blk, a, size ? size : 1))
        cpu_weak_publish(thr, blk);
}

void cpu_weak_to_block(struct cpu_weak_layer *thr, struct cpu_weak_layer *blk)
{
    size_t global = 0;
    for (size_t i = 0; i < thr->n; i++)
        global += !thr->e[i].shared;
    if (blk->n + global > CPU_WEAK_BLOCK_MAX) {
        cpu_weak_publish(thr, blk);
        return;
    }
    /* The thread's layer sits right over its block's: appending keeps what memory shows. A
     * __shared__ store only its block can see is simply memory now. */
    for (size_t i = 0; i < thr->n; i++)
        if (!thr->e[i].shared)
            *push(blk) = thr->e[i];
    thr->n = 0;
}

void cpu_weak_apply(struct cpu_weak_layer *l)
{
    for (size_t i = 0; i < l->n; i++) {
        struct cpu_weak_entry *e = &l->e[i];
        copy_held(e->vis, (const void *)e->addr, e->size);
        copy_held((void *)e->addr, e->mine, e->size);
    }
}

void cpu_weak_remove(struct cpu_weak_layer *l)
{
    for (size_t i = l->n; i-- > 0;) {
        struct cpu_weak_entry *e = &l->e[i];
        copy_held(e->mine, (const void *)e->addr, e->size);
        copy_held((void *)e->addr, e->vis, e->size);
    }
}

void cpu_weak_move(struct cpu_weak_layer *into, struct cpu_weak_layer *l)
{
    for (size_t i = 0; i < l->n; i++)
        if (!l->e[i].shared)
            *push(into) = l->e[i];
    l->n = 0;
}

void cpu_weak_drain(struct cpu_weak_layer *l)
{
    for (size_t i = 0; i < l->n; i++)
        copy_held((void *)l->e[i].addr, l->e[i].mine, l->e[i].size);
    l->n = 0;
}
