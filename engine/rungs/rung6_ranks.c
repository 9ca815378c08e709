/* Rung 6's worker side: one collective check over N ranks, one thread and one device context per rank
 * (engine/rungs/rung6.h; docs/multi-gpu.md describes the protocol and the cpu emulation). */
#define _GNU_SOURCE
#include "engine/rungs/rung6.h"

#include <math.h>
#include <stdarg.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "common/embed.h"
#include "common/xalloc.h"
#include "engine/backend/backend.h"
#include "engine/cache/cache.h"
#include "engine/cpu/cpu_ranks.h"
#include "engine/backend/nccl_dl.h"
#include "engine/compile/plain_source.h"

#define KL_ABI_ONLY
#include "kernels/kl.h"
#undef KL_ABI_ONLY

#define R6_MAX_RANKS 8
#define R6_MAX_BLOCKS 64
#define R6_SIG_WORDS (2 * R6_MAX_BLOCKS * R6_MAX_RANKS + R6_MAX_BLOCKS)
#define R6_DIAG_WORDS 8

/* Where a rank's host thread is, for the report when it does not come back. */
enum r6_step { ST_SETUP, ST_QUEUE, ST_SYNC, ST_READ, ST_DONE };
static const char *const step_name[] = {"setup", "queuing calls", "waiting in the stream "
                                        "synchronisation", "reading results", "done"};
static const char *const wait_name[] = {"?", "the start flag", "the end flag", "LL data"};

/* The cpu backend's picture of peer memory (kernels/kl.h, struct kl_cpu_sysmem): peers read
 * V, the rank writes L; V catches up with L only where a GPU guarantees it. */
struct r6_sysview {
    unsigned char *L, *V;
    size_t bytes;
    pthread_mutex_t mu;
    unsigned long long threads_done;
};

struct r6;

struct r6_rank {
    struct r6 *g;
    int rank;
    struct eng_ctx *ctx;
    struct eng_module *mod;
    struct eng_kernel *kar, *kgen, *kchk;
    struct eng_stream *s;
    eng_dptr inp[3], out[3], ref[3], reg, view, sig, ll, diag, ptrs, counters;
    struct r6_sysview sv;
    void *comm;
    int step, call; /* progress, read by the monitor (atomics) */
    int done;
    int rc;
    char err[768];
    uint32_t cnt[12], diagh[R6_DIAG_WORDS];
};

/* What the collective does: the TP all-reduce, or the EP dispatch (an all-to-all whose counts
 * follow a routing that changes every call; kernels/aiter_4812.kl describes it). */
enum r6_pattern { R6_ALLREDUCE, R6_DISPATCH };

struct r6 {
    const struct eng_check_spec *s;
    const struct eng_backend *B;
    bool emulated, weak; /* the backend emulates the ranks; peer memory weakly ordered */
    bool one_device; /* every rank on one GPU (KLADDER_RUNG6_ONE_DEVICE=1) */
    enum r6_pattern pattern;
    int skew; /* the dispatch's routing: 0 even, 1 a hot rank */
    int ranks, calls, changing, lag_rank, nsizes, sync_each;
    int64_t bytes[3], n[3], ll_max, cap;
    unsigned blocks, threads, spin;
    int64_t scale;
    const char *entry;
    void *code;
    size_t code_len;
    const struct eng_nccl *nccl;
    struct eng_nccl_id nid;
    char ref_desc[640];
    pthread_barrier_t bar;
    bool bar_init;
    /* Emulated ranks are coroutines of one seeded scheduler (cpu_ranks.h) on one OS thread,
     * so their interleaving depends on the seed, not on the machine's load. */
    bool coro;
    /* Lockstep between collectives on an emulated backend when no rank lags on purpose: a rank
     * left behind by a whole call would be a lag the check did not ask for. */
    bool lockstep;
    pthread_mutex_t step_mu;
    pthread_cond_t step_cv;
    int step_waiting;
    unsigned step_gen;
    bool step_broken; /* a rank left early: nobody waits for it */
    struct r6_rank rk[R6_MAX_RANKS];
    struct eng_device_info info;
};

static void sv_flush(struct r6_sysview *sv)
{
    pthread_mutex_lock(&sv->mu);
    memcpy(sv->V, sv->L, sv->bytes);
    pthread_mutex_unlock(&sv->mu);
}

static void sv_release(void *arg, const void *addr)
{
    (void)addr;
    sv_flush(arg);
}

static void sv_thread_done(void *arg, unsigned long long launch_threads)
{
    struct r6_sysview *sv = arg;
    unsigned long long n = __atomic_add_fetch(&sv->threads_done, 1, __ATOMIC_ACQ_REL);
    if (launch_threads && n % launch_threads == 0)
        sv_flush(sv);
}

#define TRY(x)                                                                                  \
    do {                                                                                        \
        if ((x) != 0)                                                                           \
            return -1;                                                                          \
    } while (0)

static void set_step(struct r6_rank *r, int step, int call)
{
    __atomic_store_n(&r->call, call, __ATOMIC_RELEASE);
    __atomic_store_n(&r->step, step, __ATOMIC_RELEASE);
}

static int alloc0(struct r6_rank *r, size_t bytes, eng_dptr *p)
{
    const struct eng_backend *B = r->g->B;
    TRY(B->mem_alloc(r->ctx, bytes, p, r->err, sizeof r->err));
    return B->memset_d8(r->ctx, *p, 0, bytes, r->s, r->err, sizeof r->err);
}

/* The address of a global variable of the rank's module (kernels/kl.h's hooks). */
static int rank_symbol(struct r6_rank *r, const char *name, void **sym)
{
    const struct eng_backend *B = r->g->B;
    if (!B->module_symbol) {
        snprintf(r->err, sizeof r->err, "the %s backend cannot reach a module's globals", B->name);
        return -1;
    }
    return B->module_symbol(r->ctx, r->mod, name, sym, r->err, sizeof r->err);
}

static int rank_setup(struct r6_rank *r)
{
    struct r6 *g = r->g;
    const struct eng_backend *B = g->B;
    struct eng_open_opts o = {.wave_size = g->s->wave, .schedule = g->s->schedule,
                              .seed = g->s->seed + (uint64_t)r->rank};
    TRY(B->open(g->emulated || g->one_device ? g->s->device : r->rank, &o, &r->ctx, r->err,
                sizeof r->err));
    TRY(B->module_load(r->ctx, g->code, g->code_len, &r->mod, r->err, sizeof r->err));
    TRY(B->kernel_get(r->ctx, r->mod, g->entry, &r->kar, r->err, sizeof r->err));
    TRY(B->kernel_get(r->ctx, r->mod, "allreduce_gen", &r->kgen, r->err, sizeof r->err));
    TRY(B->kernel_get(r->ctx, r->mod,
                      g->pattern == R6_DISPATCH ? "dispatch_check" : "allreduce_check", &r->kchk,
                      r->err, sizeof r->err));
    TRY(B->stream_create(r->ctx, &r->s, r->err, sizeof r->err));
    int64_t nmax = 0;
    for (int k = 0; k < 3; k++) {
        TRY(alloc0(r, (size_t)g->n[k] * 4, &r->inp[k]));
        /* a dispatch can bring a rank every other rank's whole input */
        TRY(alloc0(r, (size_t)g->n[k] * 4 * (g->pattern == R6_DISPATCH ? (size_t)g->ranks : 1),
                   &r->out[k]));
        if (g->nccl)
            TRY(alloc0(r, (size_t)g->n[k] * 4, &r->ref[k]));
        nmax = g->n[k] > nmax ? g->n[k] : nmax;
    }
    TRY(alloc0(r, (size_t)nmax * 4, &r->reg));
    r->view = r->reg;
    if (g->weak)
        TRY(alloc0(r, (size_t)nmax * 4, &r->view));
    TRY(alloc0(r, R6_SIG_WORDS * 4, &r->sig));
    TRY(alloc0(r, (size_t)(2 * g->ranks * g->cap) * 8, &r->ll));
    TRY(alloc0(r, R6_DIAG_WORDS * 4, &r->diag));
    TRY(alloc0(r, sizeof r->cnt, &r->counters));
    TRY(alloc0(r, (size_t)(3 * g->ranks) * 8, &r->ptrs));
    if (g->one_device) {
        /* Every rank shares this device's caches, so a peer load below system scope could
         * never be stale: kernels/kl.h keeps a table of the words each rank read before and
         * kl_load_policy returns those, as a GPU's cache can after a peer GPU wrote. */
        void *sym;
        const int on = 1;
        TRY(rank_symbol(r, "kl_nc_ranks_share_device", &sym));
        TRY(B->memcpy_htod(r->ctx, (eng_dptr)(uintptr_t)sym, &on, sizeof on, r->s, r->err,
                           sizeof r->err));
    }
    if (g->weak) {
        void *sym;
        TRY(rank_symbol(r, "kl_cpu_sysmem", &sym));
        r->sv.L = (unsigned char *)(uintptr_t)r->reg;
        r->sv.V = (unsigned char *)(uintptr_t)r->view;
        r->sv.bytes = (size_t)nmax * 4;
        pthread_mutex_init(&r->sv.mu, NULL);
        struct kl_cpu_sysmem *hooks = sym;
        hooks->release = sv_release;
        hooks->thread_done = sv_thread_done;
        hooks->arg = &r->sv;
    }
    return B->stream_sync(r->ctx, r->s, r->err, sizeof r->err);
}

/* Peer access, the pointer table every protocol kernel gets, the reference communicator. */
static int rank_connect(struct r6_rank *r)
{
    struct r6 *g = r->g;
    const struct eng_backend *B = g->B;
    uint64_t table[3 * R6_MAX_RANKS];
    for (int j = 0; j < g->ranks; j++) {
        if (j != r->rank && !g->emulated && !g->one_device) {
            if (!B->peer_enable) {
                snprintf(r->err, sizeof r->err, "the %s backend cannot enable peer access", B->name);
                return -1;
            }
            TRY(B->peer_enable(r->ctx, g->rk[j].ctx, r->err, sizeof r->err));
        }
        table[j] = g->rk[j].view;
        table[g->ranks + j] = g->rk[j].sig;
        table[2 * g->ranks + j] = g->rk[j].ll;
    }
    TRY(B->memcpy_htod(r->ctx, r->ptrs, table, (size_t)(3 * g->ranks) * 8, r->s, r->err,
                       sizeof r->err));
    if (g->nccl) {
        void *stream = B->stream_native ? B->stream_native(r->ctx, r->s) : NULL;
        (void)stream; /* makes this rank's device current for the library */
        int rc = g->nccl->CommInitRank(&r->comm, g->ranks, g->nid, r->rank);
        if (rc != 0) {
            snprintf(r->err, sizeof r->err, "ncclCommInitRank(rank %d of %d) failed: %s (%d)",
                     r->rank, g->ranks, g->nccl->GetErrorString(rc), rc);
            r->comm = NULL;
            return -1;
        }
    }
    return B->stream_sync(r->ctx, r->s, r->err, sizeof r->err);
}

static unsigned grid_for(const struct r6 *g, int64_t n)
{
    int64_t b = (n + g->threads - 1) / g->threads;
    return (unsigned)(b < 1 ? 1 : b > (int64_t)g->blocks * 4 ? (int64_t)g->blocks * 4 : b);
}

/* One collective: inputs for this call, the protocol, the reference, the check. */
static int rank_call(struct r6_rank *r, int k, uint32_t seq, uint32_t tag, int call, bool check)
{
    struct r6 *g = r->g;
    const struct eng_backend *B = g->B;
    int64_t n = g->n[k];
    int rank = r->rank, ranks = g->ranks, lag = g->lag_rank;
    uint32_t last = (uint32_t)(g->calls + g->nsizes), spin = g->spin;
    int64_t ll_max = g->ll_max, cap = g->cap;
    unsigned blk[3] = {g->threads, 1, 1}, grid[3] = {grid_for(g, n), 1, 1};
    void *ga[] = {&r->inp[k], &n, &rank, &tag};
    TRY(B->launch(r->ctx, r->kgen, grid, blk, 0, r->s, ga, r->err, sizeof r->err));
    eng_dptr diag0 = g->rk[0].diag;
    int skew = g->skew;
    void *aa[] = {&r->out[k], &r->inp[k], &r->reg, &r->ptrs, &diag0, &n, &rank, &ranks, &seq,
                  &ll_max, &cap, &spin, &lag, &last};
    void *da[] = {&r->out[k], &r->inp[k], &r->reg, &r->ptrs, &diag0, &n, &rank, &ranks, &seq,
                  &skew, &spin};
    unsigned agrid[3] = {g->blocks, 1, 1};
    TRY(B->launch(r->ctx, r->kar, agrid, blk, 0, r->s, g->pattern == R6_DISPATCH ? da : aa,
                  r->err, sizeof r->err));
    if (g->nccl) {
        void *stream = B->stream_native(r->ctx, r->s);
        int rc = g->nccl->AllReduce((const void *)(uintptr_t)r->inp[k], (void *)(uintptr_t)r->ref[k],
                                    (size_t)n, ENG_NCCL_FLOAT32, ENG_NCCL_SUM, r->comm, stream);
        if (rc != 0) {
            snprintf(r->err, sizeof r->err, "ncclAllReduce failed: %s (%d)",
                     g->nccl->GetErrorString(rc), rc);
            return -1;
        }
    }
    if (!check)
        return 0;
    eng_dptr cnt = r->counters + (eng_dptr)(16 * k), ref = g->nccl ? r->ref[k] : 0;
    uint32_t ucall = (uint32_t)call;
    void *ca[] = {&r->out[k], &ref, &cnt, &n, &ranks, &tag, &ucall};
    void *dc[] = {&r->out[k], &cnt, &n, &rank, &ranks, &tag, &ucall, &seq, &skew};
    if (g->pattern == R6_DISPATCH)
        grid[0] = grid_for(g, n * ranks);
    return B->launch(r->ctx, r->kchk, grid, blk, 0, r->s, g->pattern == R6_DISPATCH ? dc : ca,
                     r->err, sizeof r->err);
}

/* Every rank waits here after each collective until all have finished it; a rank that left
 * (an error) breaks the step so that the others go on. */
static void step_wait(struct r6 *g)
{
    if (g->coro) { /* a rank that returned is no longer waited for there */
        cpu_ranks_barrier(NULL, NULL);
        return;
    }
    pthread_mutex_lock(&g->step_mu);
    unsigned gen = g->step_gen;
    if (++g->step_waiting == g->ranks) {
        g->step_waiting = 0;
        g->step_gen++;
        pthread_cond_broadcast(&g->step_cv);
    } else {
        while (gen == g->step_gen && !g->step_broken)
            pthread_cond_wait(&g->step_cv, &g->step_mu);
    }
    pthread_mutex_unlock(&g->step_mu);
}

static void step_break(struct r6 *g)
{
    pthread_mutex_lock(&g->step_mu);
    g->step_broken = true;
    pthread_cond_broadcast(&g->step_cv);
    pthread_mutex_unlock(&g->step_mu);
}

static int rank_run(struct r6_rank *r)
{
    struct r6 *g = r->g;
    const struct eng_backend *B = g->B;
    /* One collective per size first, each synchronised: the library's first calls after
     * registering its buffers. The checked calls then start from buffers that held data. */
    for (int k = 0; k < g->nsizes; k++) {
        set_step(r, ST_QUEUE, -1);
        TRY(rank_call(r, k, (uint32_t)k + 1, g->changing ? 0x5eedu : 0u, -1, false));
        set_step(r, ST_SYNC, -1);
        TRY(B->stream_sync(r->ctx, r->s, r->err, sizeof r->err));
    }
    const uint32_t first_seq = (uint32_t)g->nsizes + 1;
    for (int c = 0; c < g->calls; c++) {
        set_step(r, ST_QUEUE, c);
        TRY(rank_call(r, c % g->nsizes, first_seq + (uint32_t)c,
                      g->changing ? (uint32_t)c + 1 : 0u, c, true));
        if (g->sync_each || g->lockstep) {
            set_step(r, ST_SYNC, c);
            TRY(B->stream_sync(r->ctx, r->s, r->err, sizeof r->err));
        }
        if (g->lockstep)
            step_wait(g);
    }
    set_step(r, ST_SYNC, g->calls - 1);
    TRY(B->stream_sync(r->ctx, r->s, r->err, sizeof r->err));
    set_step(r, ST_READ, g->calls - 1);
    TRY(B->memcpy_dtoh(r->ctx, r->cnt, r->counters, sizeof r->cnt, r->s, r->err, sizeof r->err));
    if (r->rank == 0)
        TRY(B->memcpy_dtoh(r->ctx, r->diagh, r->diag, sizeof r->diagh, r->s, r->err,
                           sizeof r->err));
    return 0;
}

static void main_barrier(void *arg)
{
    pthread_barrier_wait(&((struct r6 *)arg)->bar);
}

/* The ranks and the main thread meet: emulated ranks (coroutines of one OS thread) meet among
 * themselves first, and the last of them meets the main thread for all. */
static void meet_main(struct r6 *g)
{
    if (g->coro)
        cpu_ranks_barrier(main_barrier, g);
    else
        pthread_barrier_wait(&g->bar);
}

static void rank_main_co(void *arg)
{
    struct r6_rank *r = arg;
    struct r6 *g = r->g;
    r->rc = rank_setup(r);
    meet_main(g); /* everyone allocated: pointers can be exchanged */
    bool all_ok = true;
    for (int j = 0; j < g->ranks; j++)
        all_ok &= g->rk[j].rc == 0;
    if (all_ok)
        r->rc = rank_connect(r);
    meet_main(g); /* connected */
    for (int j = 0; j < g->ranks; j++)
        all_ok &= __atomic_load_n(&g->rk[j].rc, __ATOMIC_ACQUIRE) == 0;
    meet_main(g); /* the main thread says ready */
    if (all_ok)
        r->rc = rank_run(r);
    if (g->lockstep && !g->coro)
        step_break(g); /* done, or gone: nobody waits for this rank any more */
    set_step(r, ST_DONE, r->call);
    __atomic_store_n(&r->done, 1, __ATOMIC_RELEASE);
}

static void *rank_main(void *arg)
{
    rank_main_co(arg);
    return NULL;
}

/* The OS thread of every emulated rank: one seeded scheduler runs them as coroutines. */
static void *ranks_main(void *arg)
{
    struct r6 *g = arg;
    void *args[R6_MAX_RANKS];
    for (int r = 0; r < g->ranks; r++)
        args[r] = &g->rk[r];
    cpu_ranks_run((unsigned)g->ranks, rank_main_co, args, g->s->seed);
    return NULL;
}

static void rank_free(struct r6 *g, struct r6_rank *r)
{
    const struct eng_backend *B = g->B;
    if (r->comm)
        (void)g->nccl->CommDestroy(r->comm);
    if (!r->ctx)
        return;
    if (r->s)
        B->stream_destroy(r->ctx, r->s);
    eng_dptr bufs[] = {r->inp[0], r->inp[1], r->inp[2], r->out[0], r->out[1], r->out[2],
                       r->ref[0], r->ref[1], r->ref[2], r->reg, r->view != r->reg ? r->view : 0,
                       r->sig, r->ll, r->diag, r->ptrs, r->counters};
    for (size_t i = 0; i < sizeof bufs / sizeof *bufs; i++)
        if (bufs[i])
            B->mem_free(r->ctx, bufs[i]);
    if (r->mod)
        B->module_unload(r->ctx, r->mod);
    B->close(r->ctx);
    if (g->weak && r->sv.L)
        pthread_mutex_destroy(&r->sv.mu);
}

static void human(int64_t b, char *out, size_t n)
{
    if (b >= (1 << 20) && b % (1 << 20) == 0)
        snprintf(out, n, "%lld MiB", (long long)(b >> 20));
    else if (b >= 1024 && b % 1024 == 0)
        snprintf(out, n, "%lld KiB", (long long)(b >> 10));
    else
        snprintf(out, n, "%lld B", (long long)b);
}

static void append(char *buf, size_t n, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void append(char *buf, size_t n, const char *fmt, ...)
{
    size_t l = strlen(buf);
    if (l + 1 >= n)
        return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf + l, n - l, fmt, ap);
    va_end(ap);
}

/* Which path of the protocol a message size takes, for the report. */
static const char *path_name(const struct r6 *g, int k)
{
    if (g->pattern == R6_DISPATCH)
        return "dispatch";
    return g->n[k] <= g->ll_max ? "LL path" : "registered path";
}

static int get(const struct eng_values *v, const char *name, int64_t *out, char *err, size_t n)
{
    return eng_values_eval(v, name, out, err, n);
}

/* Reads the suite and the check's keys into g. Returns 0, 1 (skip, reason in err) or -1. */
static int configure(struct r6 *g, const struct eng_manifest *m, char *err, size_t errlen)
{
    const struct eng_check_spec *s = g->s;
    struct eng_values v;
    if (eng_values_make(m, s->nshapes ? &s->shapes[0] : NULL, NULL, NULL, &v, err, errlen) != 0)
        return -1;
    int64_t x[16];
    const char *names[] = {"ranks", "calls", "changing", "lag", "nsizes", "sync_each", "size_a",
                           "size_b", "size_c", "ll_threshold"};
    int rc = 0;
    for (size_t i = 0; i < sizeof names / sizeof *names && rc == 0; i++)
        rc = get(&v, names[i], &x[i], err, errlen);
    int64_t blocks = 8, threads = 256, scale = 1, cpu_calls = 0, pattern = 0, skew = 1;
    if (rc == 0) {
        /* optional: a suite without them is an all-reduce; a check without skew routes unevenly */
        (void)(get(&v, "pattern", &pattern, err, errlen) == 0 || (pattern = 0));
        (void)(get(&v, "skew", &skew, err, errlen) == 0 || (skew = 1));
    }
    if (rc == 0 && g->emulated) {
        (void)(get(&v, "cpu_blocks", &blocks, err, errlen) == 0 || (blocks = 2));
        (void)(get(&v, "cpu_threads", &threads, err, errlen) == 0 || (threads = 64));
        (void)(get(&v, "cpu_scale", &scale, err, errlen) == 0 || (scale = 256));
        (void)(get(&v, "cpu_calls", &cpu_calls, err, errlen) == 0 || (cpu_calls = 0));
    } else if (rc == 0) {
        (void)(get(&v, "blocks", &blocks, err, errlen) == 0 || (blocks = 8));
        (void)(get(&v, "threads", &threads, err, errlen) == 0 || (threads = 256));
    }
    err[0] = '\0';
    eng_values_free(&v);
    if (rc != 0)
        return -1;
    g->pattern = pattern == 1 ? R6_DISPATCH : R6_ALLREDUCE;
    g->skew = skew != 0;
    g->ranks = (int)x[0];
    g->calls = (int)x[1];
    if (g->emulated && cpu_calls > 0 && !s->baseline)
        g->calls = (int)cpu_calls;
    g->changing = x[2] != 0;
    g->lag_rank = (int)x[3] - 1;
    g->nsizes = (int)(x[4] < 1 ? 1 : x[4] > 3 ? 3 : x[4]);
    g->sync_each = x[5] != 0;
    g->scale = scale < 1 ? 1 : scale;
    if (g->ranks < (s->baseline ? 1 : 2) || g->ranks > R6_MAX_RANKS || g->calls < 1 || g->calls > 100000 ||
        blocks < 1 || blocks > R6_MAX_BLOCKS || threads < 32 || threads > 1024) {
        snprintf(err, errlen, "rung 6: ranks %d (2..%d; 1 for a unit test), calls %d, blocks %lld (1..%d), threads %lld "
                 "(32..1024) out of range", g->ranks, R6_MAX_RANKS, g->calls, (long long)blocks,
                 R6_MAX_BLOCKS, (long long)threads);
        return -1;
    }
    g->blocks = (unsigned)blocks;
    g->threads = (unsigned)threads;
    int64_t nmax_ll = 0;
    for (int k = 0; k < 3; k++) {
        g->bytes[k] = x[6 + k] / g->scale;
        g->n[k] = g->bytes[k] / 4;
        if (g->n[k] < 1 || g->n[k] > ((int64_t)1 << 31)) {
            snprintf(err, errlen, "rung 6: size %d (%lld bytes) out of range", k, (long long)g->bytes[k]);
            return -1;
        }
    }
    g->ll_max = x[9] / g->scale / 4;
    for (int k = 0; k < 3; k++)
        if (g->n[k] <= g->ll_max && g->n[k] > nmax_ll)
            nmax_ll = g->n[k];
    g->cap = nmax_ll > 0 ? nmax_ll : 1;
    /* The give-up bound: a few seconds of polling on a GPU; on the cpu backend a poll of a
     * block that only waits costs a nap of tens of microseconds. */
    g->spin = g->B->caps.poll_spins;
    if (g->lag_rank >= g->ranks)
        g->lag_rank = g->ranks - 1;
    return 0;
}

static void result_print_exit(struct eng_check_result *out)
{
    char *rt = eng_check_result_json(out);
    printf("{\"result\":%s,\"last\":true}\n", rt); /* its rank threads are stuck: it exits */
    fflush(stdout);
    free(rt);
    _exit(0);
}

/* What one rung 6 run carries from step to step besides the ranks' shared state (g);
 * release_run frees what it holds. */
struct r6_run {
    struct r6 *g;
    struct eng_check_result *out;
    void (*ready)(void *);
    void *arg;
    bool said_ready;
    const struct eng_manifest *m; /* the worker's */
    char *src;
    char err[768];
    char sz[3][32]; /* the message sizes, for people */
    pthread_t tids[R6_MAX_RANKS];
    int started; /* threads started and not yet joined: the ranks are theirs to free */
    struct timespec t0; /* when the ranks were let go */
};

/* The backend, loaded. */
static int setup_backend(struct r6_run *run)
{
    struct r6 *g = run->g;
    struct eng_check_result *out = run->out;
    g->B = eng_backend_find(g->s->backend);
    if (!g->B) {
        snprintf(out->detail, sizeof out->detail, "setup: unknown backend '%s'", g->s->backend);
        return -1;
    }
    g->emulated = g->B->caps.emulated;
    g->weak = g->B->caps.weak_memory &&
              (g->s->schedule == ENG_SCHED_ADVERSARIAL || g->s->schedule == ENG_SCHED_PCT);
    char why[512];
    if (g->B->load(why, sizeof why) != 0) {
        snprintf(out->detail, sizeof out->detail, "setup: the %s backend is not available: %s",
                 g->B->name, why);
        return -1;
    }
    return 0;
}

/* The suite's entry for the variant and the check's keys. */
static int load_suite(struct r6_run *run)
{
    struct r6 *g = run->g;
    struct eng_check_result *out = run->out;
    g->entry = strcmp(g->s->variant, "buggy") == 0 ? run->m->entry_buggy : run->m->entry_fixed;
    if (!g->entry || configure(g, run->m, run->err, sizeof run->err) != 0) {
        snprintf(out->detail, sizeof out->detail, "setup: %s",
                 g->entry ? run->err : "the suite has no such variant");
        return -1;
    }
    return 0;
}

/* The result's shape: the pattern, ranks, sizes, calls and how they vary. */
static void describe_shape(struct r6_run *run)
{
    struct r6 *g = run->g;
    struct eng_check_result *out = run->out;
    for (int k = 0; k < 3; k++)
        human(g->bytes[k], run->sz[k], sizeof run->sz[k]);
    snprintf(out->shape, sizeof out->shape, "%s%d %s x%d calls%s%s%s",
             g->pattern == R6_DISPATCH ? "ep" : "tp", g->ranks,
             g->nsizes == 1 ? run->sz[0] : "3 sizes", g->calls,
             g->changing ? " changing" : " constant", g->lag_rank >= 0 ? " lag" : "",
             g->pattern != R6_DISPATCH ? "" : g->skew ? " skewed" : " even");
    out->repeats = g->calls;
}

/* Enough devices with peer access for the ranks, or a skip (the verdict set). */
static int check_devices(struct r6_run *run)
{
    struct r6 *g = run->g;
    struct eng_check_result *out = run->out;
    int ndev = 0;
    if (g->B->device_count(&ndev, run->err, sizeof run->err) != 0 ||
        g->B->device_info(g->emulated ? g->s->device : 0, &g->info, run->err,
                          sizeof run->err) != 0) {
        snprintf(out->detail, sizeof out->detail, "setup: %s", run->err);
        return -1;
    }
    /* One GPU can still host every rank (one context, a stream per rank, all blocks resident
     * at once): the protocol's logic, its bounded waits and a lagging rank run on real hardware,
     * but no memory is crossed between devices, so an ordering bug between GPUs cannot show. */
    const char *one = getenv("KLADDER_RUNG6_ONE_DEVICE");
    g->one_device = !g->emulated && one && strcmp(one, "1") == 0;
    if (!g->emulated && !g->one_device && ndev < g->ranks) {
        out->verdict = CDB_SKIP;
        snprintf(out->detail, sizeof out->detail,
                 "needs %d %s devices, %d visible (the cpu backend emulates the ranks; "
                 "KLADDER_RUNG6_ONE_DEVICE=1 puts every rank on one GPU)", g->ranks,
                 g->B->name, ndev);
        return -1;
    }
    if (!g->emulated && (!g->B->peer_enable || !g->B->stream_native)) {
        out->verdict = CDB_SKIP;
        snprintf(out->detail, sizeof out->detail, "the %s backend has no peer access", g->B->name);
        return -1;
    }
    return 0;
}

/* Compile once; every rank loads the same code object. */
static int compile_once(struct r6_run *run)
{
    struct r6 *g = run->g;
    struct eng_check_result *out = run->out;
    const struct embed_file *h = embed_find("kernels/kl.h");
    if (!(run->src = eng_suite_source(run->m, g->B->caps.emulated, run->err, sizeof run->err)) || !h) {
        snprintf(out->detail, sizeof out->detail, "setup: %s",
                 h ? run->err : "kernels/kl.h is not built in");
        return -1;
    }
    char target[96];
    g->B->compile_target(&g->info, g->s->wave, target, sizeof target);
    char *log = xmalloc(16384);
    log[0] = '\0';
    int rc = eng_compile_cached(g->B, target, run->m->source, (const char *)h->data, run->src,
                                NULL, &g->code, &g->code_len, NULL, log, 16384);
    if (rc != 0)
        snprintf(out->detail, sizeof out->detail, "setup: compiling %s for %s failed: %.900s",
                 run->m->source, target, log);
    free(log);
    return rc != 0 ? -1 : 0;
}

/* The reference collective. The dispatch's reference is exact without one: every rank can say
 * which element of which source it must hold. */
static void choose_reference(struct r6 *g)
{
    snprintf(g->ref_desc, sizeof g->ref_desc, "%s",
             g->pattern == R6_DISPATCH ? "the elements each source rank sent, by the call's routing, "
                                         "checked on the device"
                                       : "the exact sum, on the device");
    if (g->one_device && g->pattern == R6_ALLREDUCE)
        snprintf(g->ref_desc, sizeof g->ref_desc,
                 "the exact sum, on the device (NCCL wants one GPU per rank)");
    if (!g->emulated && !g->one_device && g->pattern == R6_ALLREDUCE) {
        char nwhy[512];
        g->nccl = eng_nccl_load(g->B->caps.collectives, nwhy, sizeof nwhy);
        if (g->nccl && g->nccl->GetUniqueId(&g->nid) != 0)
            g->nccl = NULL;
        if (g->nccl) {
            char d[560];
            eng_nccl_describe(g->nccl, g->B->caps.collectives, d, sizeof d);
            snprintf(g->ref_desc, sizeof g->ref_desc, "%s", d);
        } else {
            snprintf(g->ref_desc, sizeof g->ref_desc, "the exact sum, on the device (%.500s)", nwhy);
        }
    }
}

/* The rank threads (one for all emulated ranks), past their setup and connection; the caller
 * is told ready and the ranks are let go. */
static void start_ranks(struct r6_run *run)
{
    struct r6 *g = run->g;
    g->coro = g->emulated;
    pthread_barrier_init(&g->bar, NULL, g->coro ? 2u : (unsigned)g->ranks + 1);
    g->lockstep = g->emulated && g->lag_rank < 0;
    pthread_mutex_init(&g->step_mu, NULL);
    pthread_cond_init(&g->step_cv, NULL);
    g->bar_init = true;
    for (int r = 0; r < g->ranks; r++) {
        g->rk[r].g = g;
        g->rk[r].rank = r;
    }
    for (int r = 0; r < (g->coro ? 1 : g->ranks); r++) {
        if (pthread_create(&run->tids[r], NULL, g->coro ? ranks_main : rank_main,
                           g->coro ? (void *)g : &g->rk[r]) != 0)
            die("rung 6: cannot start a rank thread");
        run->started++;
    }
    pthread_barrier_wait(&g->bar); /* allocated */
    pthread_barrier_wait(&g->bar); /* connected */
    if (run->ready)
        run->ready(run->arg);
    run->said_ready = true;
    clock_gettime(CLOCK_MONOTONIC, &run->t0);
    pthread_barrier_wait(&g->bar); /* go */
}

/* The ranks still out and where each is; the process then exits, as its rank threads are stuck. */
static void report_stuck_ranks(struct r6_run *run, double el)
{
    struct r6 *g = run->g;
    struct eng_check_result *out = run->out;
    out->verdict = CDB_HANG;
    snprintf(out->detail, sizeof out->detail, "the collective did not finish within %.0f s:", el);
    for (int r = 0; r < g->ranks; r++) {
        int st = __atomic_load_n(&g->rk[r].step, __ATOMIC_ACQUIRE);
        int c = __atomic_load_n(&g->rk[r].call, __ATOMIC_ACQUIRE);
        append(out->detail, sizeof out->detail, " rank %d %s (call %d of %d);", r,
               __atomic_load_n(&g->rk[r].done, __ATOMIC_ACQUIRE) ? "finished" : step_name[st],
               c, g->calls);
    }
    result_print_exit(out);
}

/* The monitor: a rank whose thread does not come back is reported with where it was, before
 * the engine's watchdog would stop the whole worker without that detail. Returns when every
 * rank is done, and joins their threads. */
static void await_ranks(struct r6_run *run)
{
    struct r6 *g = run->g;
    double limit = g->s->timeout_s > 0 ? g->s->timeout_s * 0.8 : 48;
    for (;;) {
        int done = 0;
        for (int r = 0; r < g->ranks; r++)
            done += __atomic_load_n(&g->rk[r].done, __ATOMIC_ACQUIRE);
        if (done == g->ranks)
            break;
        struct timespec now;
        clock_gettime(CLOCK_MONOTONIC, &now);
        double el = (double)(now.tv_sec - run->t0.tv_sec) +
                    (double)(now.tv_nsec - run->t0.tv_nsec) / 1e9;
        if (el > limit)
            report_stuck_ranks(run, el);
        struct timespec ts = {0, 10 * 1000 * 1000};
        nanosleep(&ts, NULL);
    }
    for (int r = 0; r < (g->coro ? 1 : g->ranks); r++)
        pthread_join(run->tids[r], NULL);
    run->started = 0;
}

/* The first rank that failed, as the detail; false when none did. */
static bool rank_failed(struct r6_run *run)
{
    struct r6 *g = run->g;
    for (int r = 0; r < g->ranks; r++)
        if (g->rk[r].rc != 0) {
            snprintf(run->out->detail, sizeof run->out->detail, "rank %d: %s", r,
                     g->rk[r].err[0] ? g->rk[r].err : "failed");
            return true;
        }
    return false;
}

/* The wrong elements each rank's check counted, per size, into out's counts and per. */
static void tally_wrong(struct r6_run *run, char *per, size_t perlen)
{
    struct r6 *g = run->g;
    int64_t bad = 0, first = -1;
    for (int k = 0; k < g->nsizes; k++) {
        int64_t kb = 0, kref = 0;
        for (int r = 0; r < g->ranks; r++) {
            const uint32_t *c = &g->rk[r].cnt[4 * k];
            kb += c[0];
            kref += c[3];
            if (c[0]) {
                int64_t f = (int64_t)(0xffffffffu - c[2]);
                first = first < 0 || f < first ? f : first;
                append(per, perlen, " rank %d size %s (%s): %u wrong, calls %lld..%u;", r,
                       run->sz[k], path_name(g, k), c[0], (long long)f, c[1] - 1);
            }
        }
        if (!kb)
            append(per, perlen, " size %s (%s): every rank right;", run->sz[k], path_name(g, k));
        if (kref)
            append(per, perlen, " the reference collective itself differs from the exact sum "
                   "in %lld elements at size %s;", (long long)kref, run->sz[k]);
        bad += kb;
    }
    run->out->bad_count = bad;
    run->out->first_bad = first;
}

/* A wait that gave up (hang), wrong values (fail), or pass. */
static void set_verdict(struct r6_run *run)
{
    struct r6 *g = run->g;
    struct eng_check_result *out = run->out;
    const uint32_t *d = g->rk[0].diagh;
    if (d[0]) {
        out->verdict = CDB_HANG;
        int step = d[3] < 4 ? (int)d[3] : 0;
        int call = (int)d[2] - g->nsizes - 1, k = call >= 0 ? call % g->nsizes : (int)d[2] - 1;
        snprintf(out->detail, sizeof out->detail,
                 "rank %u gave up waiting for %s from rank %u in %scall %d (size %s, block %u) "
                 "after %u polls: the collective would hang;",
                 d[1], wait_name[step], d[4], call < 0 ? "warm-up " : "",
                 call < 0 ? (int)d[2] : call, run->sz[k], d[5], g->spin);
    } else {
        out->verdict = out->bad_count ? CDB_FAIL : CDB_PASS;
    }
}

/* What the verdict rests on: the reference, and how the ranks ran. */
static void append_conditions(struct r6_run *run, const char *per)
{
    struct r6 *g = run->g;
    struct eng_check_result *out = run->out;
    append(out->detail, sizeof out->detail, "%s reference: %s", per, g->ref_desc);
    if (g->emulated)
        append(out->detail, sizeof out->detail, "; cpu backend: %d emulated ranks, sizes divided by "
               "%lld%s%s", g->ranks, (long long)g->scale,
               g->pattern == R6_DISPATCH ? "" : " (LL threshold scaled too)",
               g->weak ? ", peer memory emulated as weakly ordered (docs/multi-gpu.md)" : "");
    if (g->one_device)
        append(out->detail, sizeof out->detail, "; all %d ranks on %s device %d "
               "(KLADDER_RUNG6_ONE_DEVICE): ordering between GPUs is not exercised; a peer load "
               "below system scope may return a word the rank read before (kl_load_policy)", g->ranks,
               g->B->name, g->s->device);
    if (g->info.compute_partition[0] || g->info.memory_partition[0])
        append(out->detail, sizeof out->detail, "; partition %s/%s", g->info.compute_partition,
               g->info.memory_partition);
}

/* Everything up to starting the ranks; -1 with the detail (and a skip's verdict) set. */
static int prepare_run(struct r6_run *run)
{
    if (setup_backend(run) != 0 || load_suite(run) != 0)
        return -1;
    describe_shape(run);
    if (check_devices(run) != 0 || compile_once(run) != 0)
        return -1;
    choose_reference(run->g);
    return 0;
}

/* The caller is told ready on every path; ranks are freed here unless threads still own them. */
static void release_run(struct r6_run *run)
{
    struct r6 *g = run->g;
    if (!run->said_ready && run->ready)
        run->ready(run->arg);
    if (!run->started)
        for (int r = 0; r < g->ranks && r < R6_MAX_RANKS; r++)
            rank_free(g, &g->rk[r]);
    if (g->bar_init) {
        pthread_barrier_destroy(&g->bar);
        pthread_mutex_destroy(&g->step_mu);
        pthread_cond_destroy(&g->step_cv);
    }
    free(g->code);
    free(run->src);
    free(g);
}

void eng_rung6_run(const struct eng_check_spec *s, const struct eng_manifest *m,
                   void (*ready)(void *), void *arg, struct eng_check_result *out)
{
    eng_check_result_init(out);
    snprintf(out->oracle, sizeof out->oracle, "%s", s->baseline ? "reference" : "reference+no-hang");
    struct r6_run run = {.g = xcalloc(1, sizeof *run.g), .m = m, .out = out, .ready = ready,
                         .arg = arg};
    run.g->s = s;
    if (prepare_run(&run) == 0) {
        start_ranks(&run);
        await_ranks(&run);
        if (!rank_failed(&run)) {
            char per[900] = "";
            tally_wrong(&run, per, sizeof per);
            set_verdict(&run);
            append_conditions(&run, per);
        }
    }
    release_run(&run);
}
