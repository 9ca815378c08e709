/* The cpu backend's race check: finds two accesses of one launch to the same address, from
 * different emulated threads, at least one a write and not both atomic, that nothing orders.
 *
 * Ordering (happens-before) comes from: program order in a thread; __syncthreads in a block (a
 * barrier count per thread); a wave operation among the lanes of one wave; and, across blocks,
 * release/acquire through atomics: an atomic write is a release when it has release order of
 * device scope or more, or when its thread passed a device- or system-scope fence before it; an
 * atomic read acquires what was released to that address (every atomic read, so a missing fence
 * on the reading side is not reported: the check is after the writer's side, where GPUs hide
 * the bug). Blocks carry a vector clock (one entry per block of the launch), so the threads of
 * one block share their ordering across blocks: a race between a thread that published and a
 * sibling that did not can be missed, never invented.
 *
 * Shadow memory keeps the last write and the last read of each 4-byte granule, with the bytes
 * each touched (neighbours in one word written by different threads are no conflict); it is
 * allocated by 4 KiB page of memory touched. A launch with more blocks than CPU_RACE_MAX_BLOCKS
 * is not checked; one that makes more than 1 Mi accesses or touches more than 2048 pages is
 * checked up to there (cpu_race_partial says so). Keeping one read per granule can miss a race, never invent one. */
#ifndef KL_ENGINE_CPU_RACE_H
#define KL_ENGINE_CPU_RACE_H

#include <stddef.h>
#include <stdint.h>

#define CPU_RACE_MAX_BLOCKS 1024u

struct cpu_race;

/* Who made an access, and where its thread stands in the block's synchronisation. */
struct cpu_race_who {
    uint64_t block;   /* the block's place among the launch's blocks (0 .. nblocks-1) */
    unsigned thread;  /* linear thread index in the block */
    unsigned wave;    /* thread / wave width */
    unsigned bar;     /* barriers this thread has passed */
    unsigned wep;     /* wave operations this thread has completed */
    int fenced;       /* widest KL_SCOPE_* fence since the thread started, or -1 */
};

/* NULL when the launch has too many blocks to check. ids, when non-NULL, are the nblocks
 * blocks' linear ids (a block sample, engine/exec.h), for the report; else a block's place is
 * its id. ids must outlive the check. */
struct cpu_race *cpu_race_new(uint64_t nblocks, const uint64_t *ids);
void cpu_race_free(struct cpu_race *r);

/* Records one access (KL_CPU_ACC_* bits in how). `shared_of` is the block whose __shared__
 * memory addr is in, or UINT64_MAX for global memory. Returns 1 when it races with an earlier
 * access (the first such pair is kept for cpu_race_report), else 0. */
int cpu_race_access(struct cpu_race *r, const struct cpu_race_who *who, const void *addr,
                    unsigned size, unsigned how, const void *pc, uint64_t shared_of);

/* Where a code address is in the kernel's source: 0 with "file:line" in out, or -1. Set by the
 * backend (cpu_launch.where), called only while a report is written, never during the launch. */
typedef int (*cpu_race_where_fn)(void *arg, const void *pc, char *out, size_t n);
void cpu_race_set_where(struct cpu_race *r, cpu_race_where_fn where, void *arg);

/* Races seen so far, and the first as a sentence (valid until cpu_race_free); "" when none.
 * Each access is named by its kernel function and code offset, and by its source line where
 * the where function finds one: `mp_buggy+0x264 (mp.kl:14)`. */
unsigned long cpu_race_count(const struct cpu_race *r);
const char *cpu_race_report(struct cpu_race *r);
int cpu_race_partial(const struct cpu_race *r);
/* With cpu_race_partial: how many accesses were checked whole before the check stopped. */
uint64_t cpu_race_stopped_after(const struct cpu_race *r);

#endif
