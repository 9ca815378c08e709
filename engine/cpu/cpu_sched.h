/* The cpu backend's block scheduler: runs one kernel launch on the host.
 *
 * Every emulated thread is a coroutine (ucontext) on its own small stack. A thread runs until it
 * waits (kernels/kl.h: __syncthreads, a wave operation, kl_sleep_ns or a long poll), then the
 * block's scheduler resumes the next ready thread. After each pass over the ready threads:
 * a wave operation completes when every live lane of the wave has reached it, a barrier when
 * every live thread of the block has; sleepers become ready again.
 *
 * Blocks run whole on one OS thread (so kl.h's per-OS-thread __shared__ storage is per block).
 * Workers take blocks in order; a block whose threads only spin (waiting for another block)
 * asks for one more worker, so inter-block waits such as split-K semaphores make progress.
 * A kernel that never finishes never returns: the engine's watchdog owns that case. */
#ifndef KL_ENGINE_CPU_SCHED_H
#define KL_ENGINE_CPU_SCHED_H

#include <stddef.h>
#include <stdint.h>

#include "engine/backend/backend.h"

struct kl_cpu_thread;

struct cpu_launch {
    void (*entry)(struct kl_cpu_thread *self, void **args);
    void **args;
    unsigned grid[3], block[3];
    unsigned shared_bytes;      /* dynamic shared memory per block */
    int wave;                   /* 32 or 64 */
    enum eng_schedule schedule;
    uint64_t seed;              /* ENG_SCHED_RANDOM */
    uint64_t launch_no;         /* counts launches in the context: varies the adversarial order */
    int workers;                /* OS threads to start with (>= 1) */
    /* When non-NULL (adversarial schedule), called on the worker's OS thread before each block
     * starts: fills the module's per-thread storage (its __shared__ arrays) with garbage. */
    void (*poison)(void *arg);
    void *poison_arg;
    /* The module's per-OS-thread storage on the calling thread (its __shared__ arrays), which
     * the interleaving scheduler (cpu_pct.h) keeps one copy of per resident block; NULL/0 when
     * the module has none. */
    void *tls;
    size_t tls_size;
    /* When non-NULL, only these blocks run (linear block ids, x fastest), in this order: a
     * sample of a launch too large to emulate whole (engine/exec.h, block samples). */
    const uint64_t *blocks;
    uint64_t nblocks;
    /* When non-NULL, names a kernel code address's source line for the race report
     * (cpu_race.h, cpu_race_where_fn). */
    int (*where)(void *arg, const void *pc, char *out, size_t n);
    void *where_arg;
    /* When non-NULL (the pct schedule's race check): note_len bytes where a race check that
     * stopped before the launch's end says so ("race check stopped after N accesses ..."),
     * left as it was when the check ran to the end. */
    char *note;
    size_t note_len;
};

/* Runs the launch to completion. Returns 0, or -1 with a message (a deadlock: threads waiting
 * at different synchronisation points) in err. */
int cpu_sched_run(const struct cpu_launch *l, char *err, size_t errlen);

#endif
