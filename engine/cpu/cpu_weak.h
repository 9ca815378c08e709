/* The cpu backend's weakly ordered memory (the pct schedule): a plain store is held per emulated
 * thread and becomes visible to other threads only where the GPU memory models guarantee it.
 *
 * Held stores are layers over memory. Memory itself holds what every thread sees; the running
 * thread's block's layer (stores its block can see) and the thread's own layer (stores only it
 * can see) are applied on top while it runs and taken off when it stops (cpu_pct.c brackets every
 * resume with cpu_weak_apply / cpu_weak_remove), so another thread loads the older value, and a
 * thread always loads its own latest store. Where a store becomes visible:
 *   - to its block: at __syncthreads or a wave operation, a block-scope fence, a block-scope
 *     release (the thread's layer joins its block's; a store to __shared__ memory, which only
 *     its block can see, becomes plain memory);
 *   - to every thread: at a device- or system-scope fence or release (the thread's and its
 *     block's layers, what the thread has seen of its block: cumulativity);
 *   - at the kernel's end, in order of the blocks' retirement (cpu_weak_drain);
 *   - and when every live thread only spins (nothing else could end the wait: a GPU's store
 *     buffers drain eventually), or when a layer is full (CPU_WEAK_THREAD_MAX,
 *     CPU_WEAK_BLOCK_MAX: a store buffer has finite room).
 * An atomic, or a store too wide to hold, on an address under the running thread's layers makes
 * those layers visible first, so the atomic acts on the value the thread sees and stays seen.
 * Everything else is as late as the model allows: that is the adversarial choice. */
#ifndef KL_ENGINE_CPU_WEAK_H
#define KL_ENGINE_CPU_WEAK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define CPU_WEAK_THREAD_MAX 128
#define CPU_WEAK_BLOCK_MAX 1024
#define CPU_WEAK_WIDEST 16 /* bytes of the widest store held */

struct cpu_weak_entry {
    uintptr_t addr;
    unsigned size;
    bool shared;                           /* in __shared__ memory */
    unsigned char vis[CPU_WEAK_WIDEST];    /* the value beneath this store */
    unsigned char mine[CPU_WEAK_WIDEST];   /* the store's value, kept while the layer is off */
};

/* One layer: a thread's or a block's held stores, oldest first. Zeroed = empty. */
struct cpu_weak_layer {
    struct cpu_weak_entry *e;
    size_t n, cap;
};

void cpu_weak_layer_free(struct cpu_weak_layer *l);

/* With the running thread's layers on (thr over blk): a plain store of size bytes at addr is
 * about to happen. Held in thr when it is narrow enough (returns 1); else thr and blk are made
 * visible where they cover it, and the store is not held (returns 0). A full thread layer makes
 * both visible first. */
int cpu_weak_store(struct cpu_weak_layer *thr, struct cpu_weak_layer *blk, const void *addr,
                   unsigned size, bool shared);

/* With the running thread's layers on: an atomic of size bytes at addr is about to happen. */
void cpu_weak_atomic(struct cpu_weak_layer *thr, struct cpu_weak_layer *blk, const void *addr,
                     unsigned size);

/* With the running thread's layers on: its stores become visible to its block (a barrier, a
 * wave operation, a block-scope fence or release). A full block layer makes both visible. */
void cpu_weak_to_block(struct cpu_weak_layer *thr, struct cpu_weak_layer *blk);

/* With the running thread's layers on: both become visible to every thread (a device- or
 * system-scope fence or release). */
void cpu_weak_publish(struct cpu_weak_layer *thr, struct cpu_weak_layer *blk);

/* Puts a layer on (over what memory shows now) or takes it off again. */
void cpu_weak_apply(struct cpu_weak_layer *l);
void cpu_weak_remove(struct cpu_weak_layer *l);

/* With no layer on: moves l's stores to global memory to the end of into (a retiring block's,
 * kept until the kernel's end), emptying l; its __shared__ stores are dropped (that memory ends
 * with its block). */
void cpu_weak_move(struct cpu_weak_layer *into, struct cpu_weak_layer *l);

/* With no layer on: writes l's stores to memory in order (they become visible), emptying l. */
void cpu_weak_drain(struct cpu_weak_layer *l);

#endif
