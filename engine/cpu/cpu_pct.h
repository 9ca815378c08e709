/* The cpu backend's seeded interleaving scheduler (the adversarial and random schedules).
 *
 * All blocks of a launch that are resident at once run as coroutines of one scheduler on the
 * calling OS thread, so nothing depends on the OS: a seed gives one interleaving, on a busy
 * machine or an idle one. Every global and __shared__ load, store, atomic and fence the kernel
 * makes (kernels/kl.h, through the compiler's access instrumentation) is a possible switch point.
 *
 * Choice of thread (PCT, probabilistic concurrency testing): each thread gets a random priority
 * when its block becomes resident; the highest-priority ready thread runs until it waits (a
 * barrier, a wave operation, a sleep: a sleeper drops below every other thread) or reaches one
 * of d-1 change points, drawn at random access counts, where its priority drops below every
 * initial one. A race of depth d among n threads and k accesses shows with probability at least
 * 1/(n k^(d-1)) per run.
 *
 * At most CPU_PCT_RESIDENT blocks are resident (more while every resident thread only spins,
 * waiting for a block not yet started). Each block's __shared__ storage (the module's
 * per-OS-thread block) is swapped in when the scheduler moves to a thread of another block.
 * The race check (cpu_race.h) sees every access of a launch of at most CPU_RACE_MAX_BLOCKS.
 * A block sample (cpu_launch.blocks) runs only its blocks, in its order. Under the pct schedule
 * memory is weakly ordered (cpu_weak.h). */
#ifndef KL_ENGINE_CPU_PCT_H
#define KL_ENGINE_CPU_PCT_H

#include <stddef.h>

#include "engine/cpu/cpu_sched.h"

#define CPU_PCT_RESIDENT 4
#define CPU_PCT_DEPTH 3

/* Runs the launch to completion. Returns 0, or -1 with a message in err: a deadlock, or a data
 * race (the kernel still ran to its end, so its outputs are there for the oracles). */
int cpu_pct_run(const struct cpu_launch *l, char *err, size_t errlen);

#endif
