/* Rung 6's ranks as coroutines of one seeded scheduler (see cpu_ranks.h). */
#define _GNU_SOURCE
#include "engine/cpu/cpu_ranks.h"

#include <stdlib.h>
#include <sys/mman.h>

#include "common/xalloc.h"
#include "engine/cpu/cpu_coro.h"

/* A rank's host code loads modules (the dynamic loader) and runs a launch's scheduler on its
 * stack: far more than an emulated GPU thread needs. Untouched pages cost nothing. */
#define RANK_STACK_BYTES ((size_t)8 << 20)

enum { RK_NEW, RK_READY, RK_BARRIER, RK_DONE };

struct rank_co {
    struct cctx ctx;
    char *stack;
    int state;
    void *arg;
    void *fake;
};

struct ranks {
    struct rank_co rk[CPU_RANKS_MAX];
    unsigned n, live, at_barrier;
    void (*fn)(void *);
    void (*last)(void *);
    void *last_arg;
    struct rank_co *current;
    struct cctx sched;
#if !FAST_SWITCH
    ucontext_t tmpl;
#endif
    uint64_t rng;
    void *fake;
    const void *sched_bottom;
    size_t sched_size;
};

static _Thread_local struct ranks *tl_ranks;

static void to_sched(struct ranks *s, struct rank_co *r)
{
    cpu_coro_san_start(&r->fake, s->sched_bottom, s->sched_size);
    cpu_coro_switch(&r->ctx, &s->sched);
    cpu_coro_san_finish(r->fake, &s->sched_bottom, &s->sched_size);
}

static void rank_entry(void)
{
    struct ranks *s = tl_ranks;
    struct rank_co *r = s->current;
    cpu_coro_san_finish(NULL, &s->sched_bottom, &s->sched_size);
    s->fn(r->arg);
    s = tl_ranks;
    r->state = RK_DONE;
    cpu_coro_san_start(NULL, s->sched_bottom, s->sched_size);
    struct cctx dead;
    cpu_coro_switch(&dead, &s->sched); /* never resumed */
    abort();
}

int cpu_ranks_active(void)
{
    return tl_ranks && tl_ranks->current;
}

int cpu_ranks_yield(void)
{
    struct ranks *s = tl_ranks;
    if (!s || !s->current)
        return 0;
    to_sched(s, s->current);
    return 1;
}

/* Every live rank at the barrier: release them all (after the last arriver's call). */
static void barrier_complete(struct ranks *s)
{
    if (!s->at_barrier || s->at_barrier != s->live)
        return;
    s->at_barrier = 0;
    if (s->last)
        s->last(s->last_arg);
    s->last = NULL;
    for (unsigned i = 0; i < s->n; i++)
        if (s->rk[i].state == RK_BARRIER)
            s->rk[i].state = RK_READY;
}

void cpu_ranks_barrier(void (*last)(void *), void *arg)
{
    struct ranks *s = tl_ranks;
    if (!s || !s->current) {
        if (last)
            last(arg);
        return;
    }
    s->current->state = RK_BARRIER;
    s->at_barrier++;
    s->last = last;
    s->last_arg = arg;
    barrier_complete(s);
    to_sched(s, s->current);
}

static char *rank_stack_map(void)
{
    char *m = mmap(NULL, RANK_STACK_BYTES + GUARD_BYTES, PROT_READ | PROT_WRITE,
                   MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE | MAP_STACK, -1, 0);
    if (m == MAP_FAILED)
        die("cpu backend: cannot map a rank's %zu MiB stack", RANK_STACK_BYTES >> 20);
    mprotect(m, GUARD_BYTES, PROT_NONE);
    return m + GUARD_BYTES;
}

void cpu_ranks_run(unsigned n, void (*fn)(void *), void *const *args, uint64_t seed)
{
    struct ranks *s = xcalloc(1, sizeof *s);
    s->n = n > CPU_RANKS_MAX ? CPU_RANKS_MAX : n;
    s->live = s->n;
    s->fn = fn;
    s->rng = seed ^ 0x5a17e0f1u;
    struct ranks *saved = tl_ranks;
    tl_ranks = s;
#if !FAST_SWITCH
    getcontext(&s->tmpl);
#endif
    for (unsigned i = 0; i < s->n; i++) {
        struct rank_co *r = &s->rk[i];
        r->arg = args[i];
        r->stack = rank_stack_map();
        cpu_coro_prepare_sized(&r->ctx, r->stack, RANK_STACK_BYTES, rank_entry, CPU_CORO_TMPL(s));
        r->state = RK_NEW;
    }
    while (s->live) {
        unsigned ready[CPU_RANKS_MAX], nready = 0;
        for (unsigned i = 0; i < s->n; i++)
            if (s->rk[i].state == RK_NEW || s->rk[i].state == RK_READY)
                ready[nready++] = i;
        if (!nready) /* cannot happen: a barrier completes when its last live rank arrives */
            abort();
        struct rank_co *r = &s->rk[ready[cpu_coro_rng(&s->rng) % nready]];
        r->state = RK_READY;
        s->current = r;
        cpu_coro_san_start(&s->fake, r->stack, RANK_STACK_BYTES);
        cpu_coro_switch(&s->sched, &r->ctx);
        cpu_coro_san_finish(s->fake, NULL, NULL);
        s->current = NULL;
        if (r->state == RK_DONE) {
            s->live--;
            barrier_complete(s); /* the ranks still waiting there no longer wait for this one */
        }
    }
    for (unsigned i = 0; i < s->n; i++) {
#if CPU_CORO_ASAN
        __asan_unpoison_memory_region(s->rk[i].stack, RANK_STACK_BYTES);
#endif
        munmap(s->rk[i].stack - GUARD_BYTES, RANK_STACK_BYTES + GUARD_BYTES);
    }
    tl_ranks = saved;
    free(s);
}
