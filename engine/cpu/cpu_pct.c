/* Seeded interleaving scheduler of the cpu backend (see cpu_pct.h for the model). */
#define _GNU_SOURCE
#include "engine/cpu/cpu_pct.h"

#include <stddef.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define KL_ABI_ONLY
#include "kernels/kl.h"

#include "common/xalloc.h"
#include "engine/cpu/cpu_guard.h"
#include "engine/cpu/cpu_coro.h"
#include "engine/cpu/cpu_race.h"
#include "engine/cpu/cpu_ranks.h"
#include "engine/cpu/cpu_weak.h"

#define MAX_RESIDENT 16

enum { TS_NEW, TS_READY, TS_BARRIER, TS_WAVE, TS_SLEEP, TS_DONE };

struct pblock;
struct pthr {
    struct kl_cpu_thread t;
    struct cctx ctx;
    char *stack;
    int state;
    int64_t prio;
    struct pblock *blk;
    unsigned bar, wep;
    int fenced;
    struct cpu_weak_layer held; /* stores only this thread sees yet (cpu_weak.h) */
    void *fake;
};

struct pblock {
    bool used;
    uint64_t id;   /* linear block id */
    uint64_t ord;  /* its place among the blocks this launch runs (a sample's index) */
    unsigned live, at_barrier;
    unsigned *wave_live, *wave_arrived;
    struct pthr *th;
    char *tls_save;
    void *dyn;
    struct cpu_statics statics; /* its static __shared__ arrays (cpu_guard.h) */
    struct cpu_weak_layer held; /* stores this block sees and other blocks do not yet */
};

struct pct {
    const struct cpu_launch *l;
    unsigned n, W, nwaves, wave_shift;
    uint64_t nblocks, next_block;
    struct pblock slots[MAX_RESIDENT];
    unsigned resident, cap;
    struct pthr *all; /* MAX_RESIDENT * n threads, slot-major */
    struct pthr **heap;
    size_t nheap;
    struct pblock *tls_owner;
    struct cctx sched;
#if !FAST_SWITCH
    ucontext_t tmpl;
#endif
    struct pthr *current;
    uint64_t rng, steps, change[CPU_PCT_DEPTH];
    unsigned changes_done;
    int64_t sleep_floor;
    unsigned long spins;
    long backoff_ns;
    struct cpu_race *race;
    /* A rank of rung 6 (cpu_ranks.h) under a schedule other than the default: after a relaxed
     * system-scope store, the thread that made it steps back and the other ranks run (see
     * pct_access). */
    bool ranks_weak, ranks_now;
    /* Weakly ordered memory (cpu_weak.h): the pct schedule's. retired holds the stores of
     * blocks that have ended, visible at the kernel's end. */
    bool weak;
    struct cpu_weak_layer retired;
    void *fake;
    const void *sched_bottom;
    size_t sched_size;
};

static _Thread_local struct pct *tl_pct;

/* ---- the ready heap: highest priority on top ---------------------------------------------- */

static void heap_push(struct pct *p, struct pthr *t)
{
    size_t i = p->nheap++;
    while (i) {
        size_t up = (i - 1) / 2;
        if (p->heap[up]->prio >= t->prio)
            break;
        p->heap[i] = p->heap[up];
        i = up;
    }
    p->heap[i] = t;
}

static struct pthr *heap_pop(struct pct *p)
{
    struct pthr *top = p->heap[0], *last = p->heap[--p->nheap];
    size_t i = 0, n = p->nheap;
    for (;;) {
        size_t c = 2 * i + 1;
        if (c >= n)
            break;
        if (c + 1 < n && p->heap[c + 1]->prio > p->heap[c]->prio)
            c++;
        if (p->heap[c]->prio <= last->prio)
            break;
        p->heap[i] = p->heap[c];
        i = c;
    }
    if (n)
        p->heap[i] = last;
    return top;
}

/* Initial priorities lie above every change-point priority (1..d-1) and every sleeper's (<= 0). */
static int64_t initial_prio(struct pct *p)
{
    return (int64_t)(cpu_coro_rng(&p->rng) >> 2) + CPU_PCT_DEPTH;
}

/* ---- hooks the kernel calls --------------------------------------------------------------- */

static void yield_to_sched(struct pct *p, struct pthr *th)
{
    cpu_coro_san_start(&th->fake, p->sched_bottom, p->sched_size);
    cpu_coro_switch(&th->ctx, &p->sched);
    cpu_coro_san_finish(th->fake, &p->sched_bottom, &p->sched_size);
}

static void pct_wait(struct kl_cpu_thread *t, int why)
{
    struct pthr *th = t->host;
    struct pct *p = tl_pct;
    th->state = why == KL_CPU_WAIT_BARRIER ? TS_BARRIER : why == KL_CPU_WAIT_WAVE ? TS_WAVE : TS_SLEEP;
    /* A barrier, and a wave operation among its lanes (which the race check orders too), show
     * a thread's stores to its block. */
    if (p->weak && th->state != TS_SLEEP)
        cpu_weak_to_block(&th->held, &th->blk->held);
    yield_to_sched(p, th);
}

static uint64_t shared_owner(const struct pct *p, const struct pthr *th, uintptr_t a)
{
    if (p->l->tls_size && a - (uintptr_t)p->l->tls < p->l->tls_size)
        return th->blk->id;
    if (th->blk->dyn && a - (uintptr_t)th->blk->dyn < p->l->shared_bytes)
        return th->blk->id;
    if (cpu_statics_owns(&th->blk->statics, (const void *)a))
        return th->blk->id;
    return UINT64_MAX;
}

/* A fence or release of this scope (KL_SCOPE_*: 0 block, 1 device, 2 system) by the running
 * thread: what it stored, and what it saw of its block, becomes visible that far. */
static void weak_release(struct pthr *th, int scope)
{
    if (scope == 0)
        cpu_weak_to_block(&th->held, &th->blk->held);
    else
        cpu_weak_publish(&th->held, &th->blk->held);
}

static void pct_access(struct kl_cpu_thread *t, const void *addr, unsigned size, unsigned how,
                       const void *pc)
{
    struct pct *p = tl_pct;
    struct pthr *th = t->host;
    int scope = (int)(how >> KL_CPU_ACC_SCOPE_SHIFT) & 3;
    if (how & KL_CPU_ACC_FENCE) {
        if (scope > th->fenced)
            th->fenced = scope;
        if (p->weak)
            weak_release(th, scope);
    } else {
        uintptr_t a = (uintptr_t)addr;
        if (th->blk->dyn) /* before anything reads there: the finding names the kernel's line */
            cpu_guard_check(th->blk->dyn, p->l->shared_bytes, addr, size,
                            (how & KL_CPU_ACC_WRITE) != 0, pc);
        if (th->blk->statics.n)
            cpu_statics_check(&th->blk->statics, addr, size, (how & KL_CPU_ACC_WRITE) != 0, pc);
        /* a guarded allocation's owner (kladder exec) judges the access before the weak
         * memory model holds it, so the finding has the kernel's line */
        cpu_guard_access(addr, size, (how & KL_CPU_ACC_WRITE) != 0, pc);
        /* The thread's own stack and the scheduler's thread records are nobody else's. */
        if (a - (uintptr_t)th->stack < STACK_BYTES ||
            a - (uintptr_t)p->all < (uintptr_t)MAX_RESIDENT * p->n * sizeof *p->all)
            return;
        if (p->race) {
            struct cpu_race_who who = {.block = th->blk->ord, .thread = t->linear,
                                       .wave = t->linear >> p->wave_shift, .bar = th->bar, .wep = th->wep,
                                       .fenced = th->fenced};
            cpu_race_access(p->race, &who, addr, size, how, pc, shared_owner(p, th, a));
        }
        if (p->weak && (how & KL_CPU_ACC_ATOMIC)) {
            if (how & KL_CPU_ACC_RELEASE)
                weak_release(th, scope);
            cpu_weak_atomic(&th->held, &th->blk->held, addr, size);
        } else if (p->weak && (how & KL_CPU_ACC_WRITE)) {
            (void)cpu_weak_store(&th->held, &th->blk->held, addr, size,
                                 shared_owner(p, th, a) != UINT64_MAX);
        }
    }
    /* A relaxed store at system scope publishes without ordering what came before it: a peer
     * that sees it may still read this rank's older data, until this rank's next release. The
     * adversarial choice is to let the peers run right there. */
    if (p->ranks_weak && (how & (KL_CPU_ACC_WRITE | KL_CPU_ACC_ATOMIC | KL_CPU_ACC_RELEASE)) ==
                             (KL_CPU_ACC_WRITE | KL_CPU_ACC_ATOMIC) &&
        ((how >> KL_CPU_ACC_SCOPE_SHIFT) & 3) == 2 /* KL_SCOPE_SYSTEM */) {
        p->ranks_now = true;
        th->state = TS_READY;
        yield_to_sched(p, th);
        return;
    }
    if (++p->steps == p->change[p->changes_done] && p->changes_done < CPU_PCT_DEPTH - 1) {
        th->prio = CPU_PCT_DEPTH - 1 - (int64_t)p->changes_done++;
        th->state = TS_READY;
        yield_to_sched(p, th);
    }
}

static void *pct_static_shared(struct kl_cpu_thread *t, const char *key, unsigned long bytes,
                               unsigned long align)
{
    struct pthr *th = t->host;
    return cpu_statics_get(&th->blk->statics, key, bytes, align);
}

static const struct kl_cpu_rt pct_rt = {pct_wait, pct_access, pct_static_shared};

static void thread_entry(void)
{
    struct pct *p = tl_pct;
    struct pthr *th = p->current;
    cpu_coro_san_finish(NULL, &p->sched_bottom, &p->sched_size);
    p->l->entry(&th->t, p->l->args);
    p = tl_pct;
    th->state = TS_DONE;
    cpu_coro_san_start(NULL, p->sched_bottom, p->sched_size);
    struct cctx dead;
    cpu_coro_switch(&dead, &p->sched); /* never resumed */
    abort();
}

/* ---- blocks --------------------------------------------------------------------------------- */

static void admit(struct pct *p)
{
    struct pblock *b = NULL;
    for (unsigned i = 0; i < p->cap && !b; i++)
        if (!p->slots[i].used)
            b = &p->slots[i];
    if (!b || p->next_block >= p->nblocks)
        return;
    const struct cpu_launch *l = p->l;
    uint64_t ord = p->next_block++, id = l->blocks ? l->blocks[ord] : ord;
    b->used = true;
    b->id = id;
    b->ord = ord;
    b->live = p->n;
    b->at_barrier = 0;
    for (unsigned w = 0; w < p->nwaves; w++) {
        b->wave_arrived[w] = 0;
        b->wave_live[w] = (w + 1) * p->W <= p->n ? p->W : p->n - w * p->W;
    }
    /* Shared memory is uninitialised on a GPU: the adversarial schedule makes that visible. */
    if (b->tls_save)
        memset(b->tls_save, l->poison ? 0xff : 0, l->tls_size);
    if (b->dyn)
        memset(b->dyn, l->poison ? 0xff : 0, l->shared_bytes);
    cpu_statics_block(&b->statics, l->poison != NULL);
    p->resident++;
    for (unsigned i = 0; i < p->n; i++) {
        struct pthr *th = &b->th[i];
        struct kl_cpu_thread *t = &th->t;
        /* the async queue is read only below async_n (as in cpu_sched.c) */
        memset(t, 0, offsetof(struct kl_cpu_thread, async_q));
        t->tid.x = i % l->block[0];
        t->tid.y = (i / l->block[0]) % l->block[1];
        t->tid.z = i / (l->block[0] * l->block[1]);
        t->bid.x = (unsigned)(id % l->grid[0]);
        t->bid.y = (unsigned)((id / l->grid[0]) % l->grid[1]);
        t->bid.z = (unsigned)(id / ((uint64_t)l->grid[0] * l->grid[1]));
        t->bdim = (struct kl_cpu_dim3){l->block[0], l->block[1], l->block[2]};
        t->gdim = (struct kl_cpu_dim3){l->grid[0], l->grid[1], l->grid[2]};
        t->lane = i % p->W;
        t->wave = p->W;
        t->linear = i;
        t->rt = &pct_rt;
        t->dyn_shared = b->dyn;
        t->async_late = 1; /* async copies land at their wait (kernels/kl.h) */
        t->host = th;
        th->state = TS_NEW;
        th->blk = b;
        th->bar = th->wep = 0;
        th->fenced = -1;
        th->prio = initial_prio(p);
        heap_push(p, th);
    }
}

static void use_tls_of(struct pct *p, struct pblock *b)
{
    if (p->tls_owner == b || !p->l->tls_size)
        return;
    if (p->tls_owner)
        memcpy(p->tls_owner->tls_save, p->l->tls, p->l->tls_size);
    memcpy(p->l->tls, b->tls_save, p->l->tls_size);
    p->tls_owner = b;
}

static char *stack_new(void)
{
    char *st = cpu_coro_stack_map();
    if (!st)
        die("cpu backend: cannot map a %zu KiB thread stack", STACK_BYTES >> 10);
    return st;
}

static void resume(struct pct *p, struct pthr *th)
{
    if (th->state == TS_NEW) {
        if (!th->stack)
            th->stack = stack_new();
        else /* the previous block's thread never returned from thread_entry */
            cpu_coro_stack_reuse(th->stack);
        cpu_coro_prepare(&th->ctx, th->stack, thread_entry, CPU_CORO_TMPL(p));
    }
    th->state = TS_READY;
    p->current = th;
    if (p->weak) { /* what this thread sees: memory, its block's stores, its own */
        cpu_weak_apply(&th->blk->held);
        cpu_weak_apply(&th->held);
    }
    cpu_coro_san_start(&p->fake, th->stack, STACK_BYTES);
    cpu_coro_switch(&p->sched, &th->ctx);
    cpu_coro_san_finish(p->fake, NULL, NULL);
    if (p->weak) {
        cpu_weak_remove(&th->held);
        cpu_weak_remove(&th->blk->held);
    }
}

/* Every held store becomes visible: the kernel's end, or every live thread spinning (a GPU's
 * store buffers drain eventually). A block's __shared__ stores go to its own copy. */
static bool weak_pending(const struct pct *p)
{
    if (p->retired.n)
        return true;
    for (unsigned i = 0; i < p->cap; i++)
        if (p->slots[i].used) {
            if (p->slots[i].held.n)
                return true;
            for (unsigned k = 0; k < p->n; k++)
                if (p->slots[i].th[k].held.n)
                    return true;
        }
    return false;
}

static void use_tls_of(struct pct *p, struct pblock *b);

static void weak_drain_all(struct pct *p)
{
    cpu_weak_drain(&p->retired);
    for (unsigned i = 0; i < MAX_RESIDENT; i++) {
        struct pblock *b = &p->slots[i];
        if (!b->used)
            continue;
        use_tls_of(p, b);
        cpu_weak_drain(&b->held);
        for (unsigned k = 0; k < p->n; k++)
            cpu_weak_drain(&b->th[k].held);
    }
}

/* Completes wave w of block b when every live lane has reached its operation. */
static int wave_complete(struct pct *p, struct pblock *b, unsigned w, char *err, size_t errlen)
{
    if (!b->wave_arrived[w] || b->wave_arrived[w] != b->wave_live[w])
        return 0;
    unsigned lo = w * p->W, hi = lo + p->W < p->n ? lo + p->W : p->n;
    int op = 0;
    unsigned long long ballot = 0;
    for (unsigned i = lo; i < hi; i++) {
        struct pthr *th = &b->th[i];
        if (th->state != TS_WAVE)
            continue;
        if (op && th->t.wv_op != op) {
            snprintf(err, errlen,
                     "lanes of one wave reached different wave operations (block %llu, threads "
                     "%u and %u)", (unsigned long long)b->id, lo, i);
            return -1;
        }
        op = th->t.wv_op;
        if (th->t.wv_in)
            ballot |= 1ull << (i - lo);
    }
    for (unsigned i = lo; i < hi; i++) {
        struct kl_cpu_thread *t = &b->th[i].t;
        if (b->th[i].state != TS_WAVE)
            continue;
        if (op == KL_CPU_WAVE_BALLOT) {
            t->wv_out = ballot;
        } else {
            int src = t->wv_src;
            bool ok = src >= 0 && (unsigned)src < hi - lo && b->th[lo + (unsigned)src].state == TS_WAVE;
            t->wv_out = ok ? b->th[lo + (unsigned)src].t.wv_in : t->wv_in;
        }
    }
    for (unsigned i = lo; i < hi; i++)
        if (b->th[i].state == TS_WAVE) {
            b->th[i].state = TS_READY;
            b->th[i].wep++;
            heap_push(p, &b->th[i]);
        }
    b->wave_arrived[w] = 0;
    return 1;
}

static void barrier_complete(struct pct *p, struct pblock *b)
{
    if (!b->at_barrier || b->at_barrier != b->live)
        return;
    for (unsigned i = 0; i < p->n; i++)
        if (b->th[i].state == TS_BARRIER) {
            b->th[i].state = TS_READY;
            b->th[i].bar++;
            heap_push(p, &b->th[i]);
        }
    b->at_barrier = 0;
}

/* Lets the other ranks run (cpu_ranks_yield). Their launches use the same module storage and
 * the same thread-local scheduler pointer on this OS thread: the resident block's __shared__
 * copy is saved first and both are taken back after. Returns 0 when the caller is no rank. */
static int yield_to_ranks(struct pct *p)
{
    if (!cpu_ranks_active())
        return 0;
    if (p->tls_owner) {
        memcpy(p->tls_owner->tls_save, p->l->tls, p->l->tls_size);
        p->tls_owner = NULL;
    }
    cpu_ranks_yield();
    tl_pct = p;
    return 1;
}

static int run_all(struct pct *p, char *err, size_t errlen)
{
    unsigned live_threads = 0;
    for (unsigned i = 0; i < p->cap; i++)
        if (p->slots[i].used)
            live_threads += p->slots[i].live;
    for (;;) {
        if (!p->nheap) {
            if (!p->resident && p->next_block >= p->nblocks)
                return 0;
            for (unsigned i = 0; i < p->cap; i++)
                if (p->slots[i].used) {
                    struct pblock *b = &p->slots[i];
                    snprintf(err, errlen,
                             "deadlock in block %llu: %u live threads, %u at __syncthreads (a "
                             "barrier or wave operation not reached by every live thread)",
                             (unsigned long long)b->id, b->live, b->at_barrier);
                    return -1;
                }
            admit(p);
            live_threads += p->n;
            continue;
        }
        struct pthr *th = heap_pop(p);
        struct pblock *b = th->blk;
        use_tls_of(p, b);
        resume(p, th);
        unsigned w = th->t.linear / p->W;
        if (th->state != TS_SLEEP) {
            p->spins = 0;
            p->backoff_ns = 50000;
        }
        switch (th->state) {
        case TS_READY: /* a change point lowered its priority, or a relaxed publication */
            heap_push(p, th);
            if (p->ranks_now) {
                p->ranks_now = false;
                (void)yield_to_ranks(p);
            }
            break;
        case TS_SLEEP:
            th->state = TS_READY;
            th->prio = --p->sleep_floor;
            heap_push(p, th);
            /* Every live thread spun twice without progress: it waits for a store still held,
             * or for a block not yet resident, as a GPU would have started one. */
            if (++p->spins > 2ull * live_threads && p->weak && weak_pending(p)) {
                weak_drain_all(p);
                p->spins = 0;
            } else if (p->spins > 2ull * live_threads && p->next_block < p->nblocks) {
                if (p->cap < MAX_RESIDENT && p->resident == p->cap)
                    p->cap++;
                admit(p);
                live_threads += p->n;
                p->spins = 0;
            } else if (p->spins > 2ull * live_threads) {
                /* Nothing in this launch can end the wait: another rank of rung 6 must. A rank
                 * coroutine (cpu_ranks.h) lets the other ranks run; elsewhere the rank is an
                 * OS thread, given time once per round of spins. */
                if (!yield_to_ranks(p)) {
                    struct timespec ts = {0, p->backoff_ns};
                    nanosleep(&ts, NULL);
                    /* up to 1 ms: a wait that never ends (a hang, stopped by the watchdog)
                     * leaves the core to others; another rank's kernel runs instrumented too,
                     * so its progress is slow beside that */
                    p->backoff_ns = p->backoff_ns < 500000 ? p->backoff_ns * 2 : 1000000;
                }
                p->spins = live_threads;
            }
            break;
        case TS_BARRIER:
            b->at_barrier++;
            barrier_complete(p, b);
            break;
        case TS_WAVE:
            b->wave_arrived[w]++;
            if (wave_complete(p, b, w, err, errlen) < 0)
                return -1;
            break;
        case TS_DONE:
            b->live--;
            b->wave_live[w]--;
            live_threads--;
            if (wave_complete(p, b, w, err, errlen) < 0)
                return -1;
            barrier_complete(p, b);
            if (!b->live) {
                if (p->weak) { /* its stores stay held until the kernel's end */
                    cpu_weak_move(&p->retired, &b->held);
                    for (unsigned k = 0; k < p->n; k++)
                        cpu_weak_move(&p->retired, &b->th[k].held);
                }
                b->used = false;
                p->resident--;
                if (p->tls_owner == b)
                    p->tls_owner = NULL;
                unsigned before = p->resident;
                admit(p);
                if (p->resident > before)
                    live_threads += p->n;
            }
            break;
        }
    }
}

int cpu_pct_run(const struct cpu_launch *l, char *err, size_t errlen)
{
    struct pct *p = xcalloc(1, sizeof *p);
    p->l = l;
    p->n = l->block[0] * l->block[1] * l->block[2];
    p->W = (unsigned)l->wave;
    p->wave_shift = p->W == 64 ? 6 : 5;
    p->nwaves = (p->n + p->W - 1) / p->W;
    /* A block sample (engine/exec.h) runs only its blocks, in its order. */
    p->nblocks = l->blocks ? l->nblocks : (uint64_t)l->grid[0] * l->grid[1] * l->grid[2];
    p->cap = p->nblocks < CPU_PCT_RESIDENT ? (unsigned)p->nblocks : CPU_PCT_RESIDENT;
    p->all = xcalloc((size_t)MAX_RESIDENT * p->n, sizeof *p->all);
    p->heap = xcalloc((size_t)MAX_RESIDENT * p->n, sizeof *p->heap);
    for (unsigned i = 0; i < MAX_RESIDENT; i++) {
        struct pblock *b = &p->slots[i];
        b->th = &p->all[(size_t)i * p->n];
        b->wave_live = xcalloc(p->nwaves, sizeof *b->wave_live);
        b->wave_arrived = xcalloc(p->nwaves, sizeof *b->wave_arrived);
        b->tls_save = l->tls_size ? xmalloc(l->tls_size) : NULL;
        b->dyn = cpu_shared_alloc(l->shared_bytes);
    }
    p->backoff_ns = 50000;
    p->rng = l->seed ^ (l->launch_no * 0x2545f4914f6cdd1dull) ^ 0x7c1ea4e5u;
    /* Change points at random access counts up to an estimate of the launch's accesses. */
    uint64_t k_est = p->nblocks * p->n * 64;
    for (unsigned i = 0; i + 1 < CPU_PCT_DEPTH; i++)
        p->change[i] = 1 + cpu_coro_rng(&p->rng) % (k_est ? k_est : 1);
    for (unsigned i = 0; i + 1 < CPU_PCT_DEPTH; i++) /* ascending: they are met in order */
        for (unsigned j = i + 1; j + 1 < CPU_PCT_DEPTH; j++)
            if (p->change[j] < p->change[i]) {
                uint64_t x = p->change[i];
                p->change[i] = p->change[j];
                p->change[j] = x;
            }
    p->change[CPU_PCT_DEPTH - 1] = 0;
    /* The race check belongs to the pct schedule; a rank's launch of another schedule comes
     * here only to run on this OS thread (cpu_sched.c). */
    p->race = l->schedule == ENG_SCHED_PCT ? cpu_race_new(p->nblocks, l->blocks) : NULL;
    cpu_race_set_where(p->race, l->where, l->where_arg);
    p->ranks_weak = l->schedule != ENG_SCHED_DEFAULT && cpu_ranks_active();
    p->weak = l->schedule == ENG_SCHED_PCT;
    struct pct *saved = tl_pct;
    tl_pct = p;
#if !FAST_SWITCH
    getcontext(&p->tmpl);
#endif
    void *tls_orig = NULL;
    if (l->tls_size) { /* the calling thread's own copy comes back afterwards */
        tls_orig = xmalloc(l->tls_size);
        memcpy(tls_orig, l->tls, l->tls_size);
    }
    for (unsigned i = 0; i < p->cap; i++)
        admit(p);
    int rc = run_all(p, err, errlen);
    if (p->weak)
        weak_drain_all(p);
    if (l->tls_size) {
        memcpy(l->tls, tls_orig, l->tls_size);
        free(tls_orig);
    }
    tl_pct = saved;
    if (cpu_race_partial(p->race) && l->note && l->note_len)
        snprintf(l->note, l->note_len,
                 ENG_RACE_PARTIAL " %llu accesses: the rest of the launch was not checked for "
                 "races", (unsigned long long)cpu_race_stopped_after(p->race));
    if (rc == 0 && cpu_race_count(p->race)) {
        unsigned long nr = cpu_race_count(p->race);
        snprintf(err, errlen, "%s (%lu conflicting access%s in this launch)",
                 cpu_race_report(p->race), nr, nr == 1 ? "" : "es");
        rc = -1;
    }
    cpu_race_free(p->race);
    cpu_weak_layer_free(&p->retired);
    for (size_t i = 0; i < (size_t)MAX_RESIDENT * p->n; i++)
        cpu_weak_layer_free(&p->all[i].held);
    for (size_t i = 0; i < (size_t)MAX_RESIDENT * p->n; i++)
        if (p->all[i].stack)
            cpu_coro_stack_unmap(p->all[i].stack,
                                 p->all[i].state == TS_DONE || p->all[i].state == TS_NEW);
    for (unsigned i = 0; i < MAX_RESIDENT; i++) {
        free(p->slots[i].wave_live);
        free(p->slots[i].wave_arrived);
        free(p->slots[i].tls_save);
        cpu_shared_free(p->slots[i].dyn, p->l->shared_bytes);
        cpu_statics_free(&p->slots[i].statics);
        cpu_weak_layer_free(&p->slots[i].held);
    }
    free(p->heap);
    free(p->all);
    free(p);
    return rc;
}
