/* Rung 6's emulated ranks on the cpu backend: coroutines of one seeded scheduler on one OS
 * thread, so the verdict of a collective depends on the seed only, never on how the OS shares
 * the machine's cores.
 *
 * A rank runs until it waits: for another rank (a launch whose emulated threads only spin on
 * a flag that another rank must set, cpu_ranks_yield) or at a barrier of the ranks
 * (cpu_ranks_barrier). The scheduler then resumes a ready rank chosen by the seed. A rank's
 * kernels run whole on this OS thread (cpu_sched.c sends every launch of a rank to the
 * interleaving scheduler of cpu_pct.c, whose blocks are coroutines too), so a switch happens
 * only at those two points. */
#ifndef KL_ENGINE_CPU_RANKS_H
#define KL_ENGINE_CPU_RANKS_H

#include <stdint.h>

/* Runs fn(args[i]) for every i < n (n <= CPU_RANKS_MAX), each as a coroutine, on the calling
 * OS thread; returns when every one has returned. */
#define CPU_RANKS_MAX 16
void cpu_ranks_run(unsigned n, void (*fn)(void *), void *const *args, uint64_t seed);

/* Whether the caller runs inside a rank of cpu_ranks_run (on this OS thread). */
int cpu_ranks_active(void);

/* Inside a rank: lets the other ranks run before this one goes on. Returns 1 after they ran,
 * 0 at once when the caller is no rank (it must wait some other way). */
int cpu_ranks_yield(void);

/* Inside a rank: waits until every rank that has not returned has arrived. The last to arrive
 * calls last(arg) (when non-NULL) before any goes on. */
void cpu_ranks_barrier(void (*last)(void *), void *arg);

#endif
