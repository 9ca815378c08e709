/* Block scheduler of the cpu backend (see cpu_sched.h for the model). */
#define _GNU_SOURCE
#include "engine/cpu/cpu_sched.h"

#include <errno.h>
#include <pthread.h>
#include <sched.h>
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
#include "engine/cpu/cpu_pct.h"
#include "engine/cpu/cpu_ranks.h"

/* OS threads one launch may use at most (helpers for spinning blocks included). */
#define MAX_WORKERS 64

enum { TS_NEW, TS_READY, TS_BARRIER, TS_WAVE, TS_SLEEP, TS_DONE };

struct cthread {
    struct kl_cpu_thread t;
    struct cctx ctx;
    char *stack;
    int state;
    void *fake; /* sanitizer fake-stack handle of this coroutine */
};

struct launch_state {
    const struct cpu_launch *l;
    pthread_mutex_t mu;
    pthread_cond_t cv;
    uint64_t nblocks, next_block;
    int running, started, want_helper;
    bool failed;
    char err[512];
};

struct worker {
    struct launch_state *ls;
    struct cctx sched;
#if !FAST_SWITCH
    ucontext_t tmpl;
#endif
    struct cthread *th;
    unsigned n, cap; /* threads per block now; that the arrays hold */
    unsigned *order;
    char **free_stacks;
    unsigned nfree;
    char **all_stacks;
    unsigned nall;
    void *dyn;              /* the block's dynamic shared memory (cpu_guard.h) */
    size_t dyn_bytes;
    struct cpu_statics statics; /* the block's static __shared__ arrays (cpu_guard.h) */
    struct cthread *current;
    uint64_t rng;
    void *fake;
    const void *sched_bottom;
    size_t sched_size;
};

static _Thread_local struct worker *tl_worker;

static void cpu_wait(struct kl_cpu_thread *t, int why)
{
    struct cthread *th = t->host;
    struct worker *w = tl_worker;
    th->state = why == KL_CPU_WAIT_BARRIER ? TS_BARRIER : why == KL_CPU_WAIT_WAVE ? TS_WAVE : TS_SLEEP;
    cpu_coro_san_start(&th->fake, w->sched_bottom, w->sched_size);
    cpu_coro_switch(&th->ctx, &w->sched);
    cpu_coro_san_finish(th->fake, &w->sched_bottom, &w->sched_size);
}

static void *cpu_static_shared(struct kl_cpu_thread *t, const char *key, unsigned long bytes,
                               unsigned long align)
{
    (void)t;
    return cpu_statics_get(&tl_worker->statics, key, bytes, align);
}

/* A module built with the access hooks ("+access", as kladder exec builds one for every
 * schedule) reports each access here: no interleaving, only the guards' owner's hook
 * (cpu_guard.h), which judges it. Modules built without them never call this. */
static void cpu_access(struct kl_cpu_thread *t, const void *addr, unsigned size, unsigned how,
                       const void *pc)
{
    (void)t;
    if (!(how & KL_CPU_ACC_FENCE))
        cpu_guard_access(addr, size, (how & KL_CPU_ACC_WRITE) != 0, pc);
}

static const struct kl_cpu_rt cpu_rt = {.wait = cpu_wait, .access = cpu_access,
                                        .shared = cpu_static_shared};

static void thread_entry(void)
{
    struct worker *w = tl_worker;
    struct cthread *th = w->current;
    cpu_coro_san_finish(NULL, &w->sched_bottom, &w->sched_size);
    w->ls->l->entry(&th->t, w->ls->l->args);
    w = tl_worker;
    th->state = TS_DONE;
    cpu_coro_san_start(NULL, w->sched_bottom, w->sched_size);
    struct cctx dead;
    cpu_coro_switch(&dead, &w->sched); /* never resumed */
    abort();
}

static char *stack_get(struct worker *w)
{
    if (w->nfree) {
        char *st = w->free_stacks[--w->nfree];
        cpu_coro_stack_reuse(st);
        return st;
    }
    char *st = cpu_coro_stack_map();
    if (st)
        w->all_stacks[w->nall++] = st;
    return st;
}

static void resume(struct worker *w, struct cthread *th)
{
    if (th->state == TS_NEW) {
        th->stack = stack_get(w);
        if (!th->stack)
            die("cpu backend: cannot map a %zu KiB thread stack", STACK_BYTES >> 10);
        cpu_coro_prepare(&th->ctx, th->stack, thread_entry, CPU_CORO_TMPL(w));
    }
    th->state = TS_READY;
    w->current = th;
    cpu_coro_san_start(&w->fake, th->stack, STACK_BYTES);
    cpu_coro_switch(&w->sched, &th->ctx);
    cpu_coro_san_finish(w->fake, NULL, NULL);
    if (th->state == TS_DONE && th->stack) {
        w->free_stacks[w->nfree++] = th->stack;
        th->stack = NULL;
    }
}

static void fail(struct launch_state *ls, const char *msg)
{
    pthread_mutex_lock(&ls->mu);
    if (!ls->failed)
        snprintf(ls->err, sizeof ls->err, "%s", msg);
    ls->failed = true;
    pthread_mutex_unlock(&ls->mu);
}

static void ask_helper(struct launch_state *ls)
{
    pthread_mutex_lock(&ls->mu);
    if (!ls->want_helper && ls->started < MAX_WORKERS && ls->next_block < ls->nblocks) {
        ls->want_helper = 1;
        pthread_cond_signal(&ls->cv);
    }
    pthread_mutex_unlock(&ls->mu);
}

/* Completes the wave operation of lanes [lo, hi) when every live lane has reached it. */
static int wave_release(struct worker *w, unsigned lo, unsigned hi, char *err, size_t errlen)
{
    unsigned live = 0, waiting = 0, barrier = 0;
    int op = 0;
    for (unsigned i = lo; i < hi; i++) {
        int s = w->th[i].state;
        live += s != TS_DONE;
        barrier += s == TS_BARRIER;
        if (s == TS_WAVE) {
            if (waiting && w->th[i].t.wv_op != op) {
                snprintf(err, errlen,
                         "lanes of one wave reached different wave operations (threads %u and %u)",
                         lo, i);
                return -1;
            }
            op = w->th[i].t.wv_op;
            waiting++;
        }
    }
    if (!waiting || waiting != live)
        return 0;
    unsigned wave = hi - lo;
    unsigned long long ballot = 0;
    for (unsigned i = lo; i < hi; i++)
        if (w->th[i].state == TS_WAVE && w->th[i].t.wv_in)
            ballot |= 1ull << (i - lo);
    for (unsigned i = lo; i < hi; i++) {
        struct kl_cpu_thread *t = &w->th[i].t;
        if (w->th[i].state != TS_WAVE)
            continue;
        if (op == KL_CPU_WAVE_BALLOT) {
            t->wv_out = ballot;
        } else {
            int src = t->wv_src;
            bool ok = src >= 0 && (unsigned)src < wave && w->th[lo + (unsigned)src].state == TS_WAVE;
            t->wv_out = ok ? w->th[lo + (unsigned)src].t.wv_in : t->wv_in;
        }
    }
    for (unsigned i = lo; i < hi; i++)
        if (w->th[i].state == TS_WAVE)
            w->th[i].state = TS_READY;
    (void)barrier;
    return 1;
}

static int run_block(struct worker *w, uint64_t b, char *err, size_t errlen)
{
    const struct cpu_launch *l = w->ls->l;
    unsigned n = w->n, W = (unsigned)l->wave;
    if (l->poison)
        l->poison(l->poison_arg);
    cpu_statics_block(&w->statics, l->poison != NULL);
    for (unsigned i = 0; i < n; i++) {
        struct cthread *th = &w->th[i];
        struct kl_cpu_thread *t = &th->t;
        /* the queue of async copies is read only below async_n: clearing it for every thread
         * of every block was most of this loop's time */
        memset(t, 0, offsetof(struct kl_cpu_thread, async_q));
        t->tid.x = i % l->block[0];
        t->tid.y = (i / l->block[0]) % l->block[1];
        t->tid.z = i / (l->block[0] * l->block[1]);
        t->bid.x = (unsigned)(b % l->grid[0]);
        t->bid.y = (unsigned)((b / l->grid[0]) % l->grid[1]);
        t->bid.z = (unsigned)(b / ((uint64_t)l->grid[0] * l->grid[1]));
        t->bdim = (struct kl_cpu_dim3){l->block[0], l->block[1], l->block[2]};
        t->gdim = (struct kl_cpu_dim3){l->grid[0], l->grid[1], l->grid[2]};
        t->lane = i % W;
        t->wave = W;
        t->linear = i;
        t->rt = &cpu_rt;
        t->dyn_shared = w->dyn;
        /* async copies land when issued only under the default schedule (kernels/kl.h) */
        t->async_late = l->schedule != ENG_SCHED_DEFAULT;
        t->host = th;
        th->state = TS_NEW;
        th->stack = NULL;
    }
    bool reverse = l->schedule == ENG_SCHED_ADVERSARIAL && ((b + l->launch_no) & 1);
    unsigned live = n, stuck = 0;
    while (live) {
        for (unsigned i = 0; i < n; i++)
            w->order[i] = reverse ? n - 1 - i : i;
        if (l->schedule == ENG_SCHED_RANDOM)
            for (unsigned i = n - 1; i > 0; i--) {
                unsigned j = (unsigned)(cpu_coro_rng(&w->rng) % (i + 1)), x = w->order[i];
                w->order[i] = w->order[j];
                w->order[j] = x;
            }
        unsigned finished = 0, blocked = 0;
        for (unsigned k = 0; k < n; k++) {
            struct cthread *th = &w->th[w->order[k]];
            if (th->state != TS_NEW && th->state != TS_READY)
                continue;
            resume(w, th);
            if (th->state == TS_DONE) {
                live--;
                finished++;
            } else if (th->state != TS_SLEEP) {
                blocked++;
            }
        }
        if (!live)
            break;
        unsigned released = 0;
        for (unsigned lo = 0; lo < n; lo += W) {
            int r = wave_release(w, lo, lo + W < n ? lo + W : n, err, errlen);
            if (r < 0)
                return -1;
            released += (unsigned)r;
        }
        unsigned at_barrier = 0, sleepers = 0, at_wave = 0;
        for (unsigned i = 0; i < n; i++) {
            at_barrier += w->th[i].state == TS_BARRIER;
            at_wave += w->th[i].state == TS_WAVE;
        }
        if (at_barrier && at_barrier == live) {
            for (unsigned i = 0; i < n; i++)
                if (w->th[i].state == TS_BARRIER)
                    w->th[i].state = TS_READY;
            released++;
        }
        for (unsigned i = 0; i < n; i++)
            if (w->th[i].state == TS_SLEEP) {
                w->th[i].state = TS_READY;
                sleepers++;
            }
        if (finished || blocked || released) {
            stuck = 0;
        } else if (sleepers) {
            /* Every live thread only spins: it waits for another block. */
            if (++stuck == 2)
                ask_helper(w->ls);
            if (stuck > 4) {
                /* The wait outlasts a few rounds: sleep longer each round (50 us doubling up
                 * to 1 ms), so that a kernel that never stops spinning (a hang, stopped by the
                 * watchdog) does not take a core from the machine while it waits. Progress
                 * starts the count again. */
                unsigned long ns = 50000ul << (stuck - 5 < 5 ? stuck - 5 : 5);
                struct timespec ts = {0, (long)(ns < 1000000ul ? ns : 1000000ul)};
                nanosleep(&ts, NULL);
            }
            if (__atomic_load_n(&w->ls->failed, __ATOMIC_RELAXED))
                return -1;
        } else {
            snprintf(err, errlen,
                     "deadlock in block %llu: %u live threads, %u at __syncthreads, %u at a wave "
                     "operation (a barrier or wave operation not reached by every live thread)",
                     (unsigned long long)b, live, at_barrier, at_wave);
            return -1;
        }
    }
    return 0;
}

static void *worker_main(void *arg)
{
    struct worker *w = arg;
    struct launch_state *ls = w->ls;
    tl_worker = w;
#if !FAST_SWITCH
    getcontext(&w->tmpl);
#endif
    char err[512];
    for (;;) {
        pthread_mutex_lock(&ls->mu);
        uint64_t b = ls->next_block;
        bool stop = ls->failed || b >= ls->nblocks;
        if (!stop)
            ls->next_block++;
        pthread_mutex_unlock(&ls->mu);
        if (stop)
            break;
        if (ls->l->blocks)
            b = ls->l->blocks[b];
        if (run_block(w, b, err, sizeof err) != 0) {
            fail(ls, err[0] ? err : "kernel stopped");
            break;
        }
    }
    pthread_mutex_lock(&ls->mu);
    ls->running--;
    pthread_cond_signal(&ls->cv);
    pthread_mutex_unlock(&ls->mu);
    return NULL;
}

/* Workers (their per-thread arrays: 512 threads hold a quarter MiB) are kept for the next
 * launch: allocating and clearing them for each of thousands of small launches was most of a
 * sanitizer run's time (the sanitizer's allocator maps and unmaps every large block). */
static pthread_mutex_t spare_mu = PTHREAD_MUTEX_INITIALIZER;
static struct worker *spare[2 * MAX_WORKERS];
static size_t nspare;

static struct worker *worker_new(struct launch_state *ls, unsigned index)
{
    const struct cpu_launch *l = ls->l;
    unsigned n = l->block[0] * l->block[1] * l->block[2];
    struct worker *w = NULL;
    pthread_mutex_lock(&spare_mu);
    for (size_t i = nspare; i-- > 0;)
        if (spare[i]->cap >= n) {
            w = spare[i];
            spare[i] = spare[--nspare];
            break;
        }
    pthread_mutex_unlock(&spare_mu);
    if (w) {
        struct worker keep = *w;
        memset(w, 0, sizeof *w);
        w->cap = keep.cap, w->th = keep.th, w->order = keep.order;
        w->free_stacks = keep.free_stacks, w->all_stacks = keep.all_stacks;
    } else {
        w = xcalloc(1, sizeof *w);
        w->cap = n;
        w->th = xcalloc(n, sizeof *w->th);
        w->order = xcalloc(n, sizeof *w->order);
        w->free_stacks = xcalloc(n + 1, sizeof *w->free_stacks);
        w->all_stacks = xcalloc(n + 1, sizeof *w->all_stacks);
    }
    w->ls = ls;
    w->n = n;
    w->dyn = cpu_shared_alloc(l->shared_bytes);
    w->dyn_bytes = l->shared_bytes;
    w->rng = l->seed ^ (l->launch_no * 0x2545f4914f6cdd1dull) ^ ((uint64_t)index << 32);
    return w;
}

static void worker_free(struct worker *w)
{
    /* A stack still held by a thread belongs to one that never finished (a failed launch):
     * then any stack may carry live frames' redzones. */
    bool finished = true;
    for (unsigned i = 0; i < w->n && finished; i++)
        finished = !w->th[i].stack;
    for (unsigned i = 0; i < w->nall; i++)
        cpu_coro_stack_unmap(w->all_stacks[i], finished);
    cpu_shared_free(w->dyn, w->dyn_bytes);
    w->dyn = NULL;
    cpu_statics_free(&w->statics);
    pthread_mutex_lock(&spare_mu);
    bool kept = nspare < sizeof spare / sizeof *spare;
    if (kept)
        spare[nspare++] = w;
    pthread_mutex_unlock(&spare_mu);
    if (kept)
        return;
    free(w->all_stacks);
    free(w->free_stacks);
    free(w->th);
    free(w->order);
    free(w);
}

/* The OS threads that run blocks outlive launches: the engine's own kernels (fills, oracles over
 * sampled ranges) are thousands of tiny launches per check, and starting two threads for each
 * cost more than the launches (much more under the sanitizers). A parked thread waits on its
 * slot for the next worker; the slots are never given back (the process is a worker that ends). */
struct pool_slot {
    pthread_t tid;
    pthread_cond_t cv;
    struct worker *job;
    bool started, busy;
};

static pthread_mutex_t pool_mu = PTHREAD_MUTEX_INITIALIZER;
static struct pool_slot pool[2 * MAX_WORKERS];
static bool pool_quit;

static void *pool_main(void *arg)
{
    struct pool_slot *slot = arg;
    pthread_mutex_lock(&pool_mu);
    for (;;) {
        while (!slot->job && !pool_quit)
            pthread_cond_wait(&slot->cv, &pool_mu);
        if (!slot->job)
            break;
        struct worker *w = slot->job;
        pthread_mutex_unlock(&pool_mu);
        worker_main(w);
        pthread_mutex_lock(&pool_mu);
        slot->job = NULL;
        slot->busy = false;
    }
    pthread_mutex_unlock(&pool_mu);
    return NULL;
}

/* At exit every pool thread ends and is joined: the leak checker, which stops and reads every
 * live thread, was seen crashing on ours. A thread may still be busy for a moment (it has ended
 * its launch but not yet parked), so each gets a short while; one that never ends (a kernel that
 * never finishes, whose process the watchdog kills anyway) is left alone. */
static void pool_stop(void)
{
    pthread_mutex_lock(&pool_mu);
    pool_quit = true;
    for (size_t i = 0; i < sizeof pool / sizeof *pool; i++)
        if (pool[i].started)
            pthread_cond_signal(&pool[i].cv);
    pthread_mutex_unlock(&pool_mu);
    struct timespec until;
    clock_gettime(CLOCK_REALTIME, &until);
    until.tv_sec += 2;
    for (size_t i = 0; i < sizeof pool / sizeof *pool; i++)
        if (pool[i].started)
            pthread_timedjoin_np(pool[i].tid, NULL, &until);
}

/* Hands w to a parked thread, or starts one. Returns 0 or an errno value. */
static int pool_start(struct worker *w)
{
    static bool registered;
    pthread_mutex_lock(&pool_mu);
    if (!registered)
        registered = atexit(pool_stop) == 0;
    struct pool_slot *fresh = NULL;
    for (size_t i = 0; i < sizeof pool / sizeof *pool; i++) {
        struct pool_slot *p = &pool[i];
        if (p->started && !p->busy) {
            p->busy = true;
            p->job = w;
            pthread_cond_signal(&p->cv);
            pthread_mutex_unlock(&pool_mu);
            return 0;
        }
        if (!p->started && !fresh)
            fresh = p;
    }
    int rc = EAGAIN;
    if (fresh) {
        pthread_cond_init(&fresh->cv, NULL);
        fresh->busy = true;
        fresh->job = w;
        rc = pthread_create(&fresh->tid, NULL, pool_main, fresh);
        if (rc == 0)
            fresh->started = true;
        else
            fresh->busy = false, fresh->job = NULL;
    }
    pthread_mutex_unlock(&pool_mu);
    return rc;
}

/* A launch of one block runs on the calling thread: no block can wait for another, so no helper
 * is ever asked for, and the engine's oracle kernels over short sampled ranges (thousands of
 * one-block launches in a cliff check) start no OS thread each. */
static int run_inline(struct launch_state *ls, char *err, size_t errlen)
{
    struct worker *w = worker_new(ls, 0);
    struct worker *outer = tl_worker;
    ls->started = ls->running = 1;
    worker_main(w);
    tl_worker = outer;
    worker_free(w);
    pthread_mutex_destroy(&ls->mu);
    pthread_cond_destroy(&ls->cv);
    if (ls->failed) {
        snprintf(err, errlen, "%s", ls->err);
        return -1;
    }
    return 0;
}

int cpu_sched_run(const struct cpu_launch *l, char *err, size_t errlen)
{
    uint64_t nblocks = l->blocks ? l->nblocks : (uint64_t)l->grid[0] * l->grid[1] * l->grid[2];
    unsigned nthreads = l->block[0] * l->block[1] * l->block[2];
    if (!nblocks || !nthreads)
        return 0;
    if (nthreads > 1024 || (l->wave != 32 && l->wave != 64)) {
        snprintf(err, errlen, "cpu backend: %u threads per block (at most 1024), wave %d (32 or 64)",
                 nthreads, l->wave);
        return -1;
    }
    /* The pct schedule interleaves at every memory access, on this OS thread. A rank of rung 6
     * (cpu_ranks.h) runs its launches there too, whatever the schedule: blocks on other OS
     * threads would wait for its peers while the rank's own thread, the one the peers run on,
     * waited for them. */
    if (l->schedule == ENG_SCHED_PCT || cpu_ranks_active())
        return cpu_pct_run(l, err, errlen);
    struct launch_state ls = {.l = l, .nblocks = nblocks};
    pthread_mutex_init(&ls.mu, NULL);
    pthread_cond_init(&ls.cv, NULL);
    if (nblocks == 1)
        return run_inline(&ls, err, errlen);
    struct worker *ws[MAX_WORKERS];
    int want = l->workers < 1 ? 1 : l->workers;
    if ((uint64_t)want > nblocks)
        want = (int)nblocks;
    pthread_mutex_lock(&ls.mu);
    for (;;) {
        while (ls.started < want || ls.want_helper) {
            if (ls.started >= MAX_WORKERS)
                break;
            struct worker *w = worker_new(&ls, (unsigned)ls.started);
            int rc = pool_start(w);
            if (rc != 0) {
                worker_free(w);
                if (ls.started == 0) {
                    pthread_mutex_unlock(&ls.mu);
                    snprintf(err, errlen, "cpu backend: cannot start a thread: %s", strerror(rc));
                    return -1;
                }
                break;
            }
            ws[ls.started++] = w;
            ls.running++;
            ls.want_helper = 0;
        }
        ls.want_helper = 0;
        if (ls.running == 0)
            break;
        pthread_cond_wait(&ls.cv, &ls.mu);
    }
    pthread_mutex_unlock(&ls.mu);
    /* running == 0: every worker has let go of ls and its worker for good. */
    for (int i = 0; i < ls.started; i++)
        worker_free(ws[i]);
    pthread_mutex_destroy(&ls.mu);
    pthread_cond_destroy(&ls.cv);
    if (ls.failed) {
        snprintf(err, errlen, "%s", ls.err);
        return -1;
    }
    return 0;
}
