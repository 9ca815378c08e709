/* The cpu backend's emulation: barriers, wave shuffles at both wave widths, ballot, dynamic
 * shared memory, inter-block spin waits, deadlock reports, stream queues (a missing event shows
 * every time), graph capture (nothing runs before the replay) and the on-device oracles. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "common/embed.h"
#include "common/xalloc.h"
#include "engine/backend/backend.h"
#include "engine/tables/tables.h"

static const struct eng_backend *B;

static const char test_src[] =
    "KL_KERNEL sum_good(float *out, const float *in)\n"
    "{\n"
    "    __shared__ float s[256];\n"
    "    int t = threadIdx.x;\n"
    "    s[t] = in[blockIdx.x * blockDim.x + t];\n"
    "    __syncthreads();\n"
    "    for (int k = blockDim.x / 2; k > 0; k /= 2) {\n"
    "        if (t < k) s[t] += s[t + k];\n"
    "        __syncthreads();\n"
    "    }\n"
    "    if (t == 0) out[blockIdx.x] = s[0];\n"
    "}\n"
    /* The missing barrier: each thread reads its neighbour's slot right after writing its own. */
    "KL_KERNEL neighbour_bad(float *out, const float *in)\n"
    "{\n"
    "    __shared__ float s[256];\n"
    "    int t = threadIdx.x;\n"
    "    s[t] = in[t];\n"
    "    out[t] = s[(t + 1) % blockDim.x] + s[(t + blockDim.x - 1) % blockDim.x];\n"
    "}\n"
    /* Reads shared memory nothing wrote: the adversarial schedule's poison shows as NaN. */
    "KL_KERNEL shared_unwritten(unsigned *out, int write)\n"
    "{\n"
    "    __shared__ unsigned s[64];\n"
    "    if (write) s[threadIdx.x] = 7u; /* never taken: keeps the read from being folded */\n"
    "    __syncthreads();\n"
    "    out[threadIdx.x] = s[threadIdx.x];\n"
    "}\n"
    "KL_KERNEL neighbour_good(float *out, const float *in)\n"
    "{\n"
    "    __shared__ float s[256];\n"
    "    int t = threadIdx.x;\n"
    "    s[t] = in[t];\n"
    "    __syncthreads();\n"
    "    out[t] = s[(t + 1) % blockDim.x] + s[(t + blockDim.x - 1) % blockDim.x];\n"
    "}\n"
    "KL_KERNEL wave_ops(int *out, unsigned long long *ballots)\n"
    "{\n"
    "    int t = threadIdx.x;\n"
    "    int v = t;\n"
    "    for (int m = KL_WAVE / 2; m > 0; m /= 2) v += kl_shfl_xor(v, m);\n"
    "    int d = kl_shfl_down(t, 1);\n"
    "    int b = kl_shfl(t, 3);\n"
    "    kl_u64 bal = kl_ballot(t % 3 == 0);\n"
    "    out[t * 4 + 0] = v; out[t * 4 + 1] = d; out[t * 4 + 2] = b; out[t * 4 + 3] = KL_WAVE;\n"
    "    if (kl_lane() == 0) ballots[t / KL_WAVE] = bal;\n"
    "}\n"
    "KL_KERNEL dyn(float *out)\n"
    "{\n"
    "    KL_DYNAMIC_SHARED(float, d);\n"
    "    d[threadIdx.x] = (float)threadIdx.x;\n"
    "    __syncthreads();\n"
    "    out[blockIdx.x * blockDim.x + threadIdx.x] = d[blockDim.x - 1 - threadIdx.x];\n"
    "}\n"
    /* Block 0 waits until every other block has arrived: needs more than one OS thread when
     * blocks run one after another. */
    "KL_KERNEL spin(unsigned *counter, int *out)\n"
    "{\n"
    "    if (blockIdx.x == 0) {\n"
    "        if (threadIdx.x == 0)\n"
    "            while (kl_atomic_load_acquire(counter, KL_SCOPE_DEVICE) < gridDim.x - 1) kl_sleep_ns(100);\n"
    "        __syncthreads();\n"
    "        if (threadIdx.x == 0)\n" /* one writer: 64 would be a (benign) race the check reports */
    "            out[0] = (int)kl_atomic_load_relaxed(counter, KL_SCOPE_DEVICE);\n"
    "    } else if (threadIdx.x == 0) {\n"
    "        atomicAdd(counter, 1u);\n"
    "    }\n"
    "}\n"
    "KL_KERNEL diverge(int *out)\n"
    "{\n"
    "    if (threadIdx.x < 16) __syncthreads();\n"
    "    else out[0] = kl_shfl(1, 0);\n"
    "}\n"
    "KL_KERNEL add_one(float *p, int n)\n"
    "{\n"
    "    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) p[i] += 1.0f;\n"
    "}\n"
    "KL_EXPORT(sum_good)\nKL_EXPORT(neighbour_bad)\nKL_EXPORT(neighbour_good)\nKL_EXPORT(wave_ops)\n"
    "KL_EXPORT(dyn)\nKL_EXPORT(spin)\nKL_EXPORT(diverge)\nKL_EXPORT(add_one)\n"
    /* 20 async copies per thread, more than the 16 the cpu backend keeps in flight; what a
     * thread sees of them before any wait, after "at most 5 in flight" and after draining. */
    "KL_KERNEL async_deep(float *out, const float *in)\n"
    "{\n"
    "    __shared__ float s[32 * 20];\n"
    "    int t = threadIdx.x;\n"
    "    for (int i = 0; i < 20; i++)\n"
    "        kl_async_copy(&s[t * 20 + i], &in[t * 20 + i]);\n"
    "    for (int i = 0; i < 20; i++)\n"
    "        out[t * 60 + i] = s[t * 20 + i];\n"
    "    kl_async_wait(5);\n"
    "    for (int i = 0; i < 20; i++)\n"
    "        out[t * 60 + 20 + i] = s[t * 20 + i];\n"
    "    kl_async_wait(0);\n"
    "    for (int i = 0; i < 20; i++)\n"
    "        out[t * 60 + 40 + i] = s[t * 20 + i];\n"
    "}\n"
    "KL_EXPORT(shared_unwritten)\nKL_EXPORT(async_deep)\n";

struct fix {
    struct eng_ctx *ctx;
    struct eng_module *mod;
};

static void *code;
static size_t code_len;
static void *util_code;
static size_t util_len;

static char *with_header(const char *body)
{
    const struct embed_file *h = embed_find("kernels/kl.h");
    assert_non_null(h);
    return xasprintf("%s\n#line 1 \"test.kl\"\n%s", (const char *)h->data, body);
}

static int setup_all(void **state)
{
    (void)state;
    B = eng_backend_find("cpu");
    char why[512];
    if (!B || B->load(why, sizeof why) != 0) {
        fprintf(stderr, "cpu backend unavailable: %s\n", why);
        return -1;
    }
    char log[8192];
    char *src = with_header(test_src);
    /* with the access hooks (+access), which the pct schedule needs and the others ignore */
    int rc = B->compile("cpu-wave32+access", src, "test.kl", NULL, &code, &code_len, log,
                        sizeof log);
    free(src);
    if (rc != 0) {
        fprintf(stderr, "compile failed: %s\n", log);
        return -1;
    }
    const struct embed_file *u = embed_find("kernels/util.kl");
    src = with_header((const char *)u->data);
    rc = B->compile("cpu-wave32", src, "util.kl", NULL, &util_code, &util_len, log, sizeof log);
    free(src);
    if (rc != 0) {
        fprintf(stderr, "util compile failed: %s\n", log);
        return -1;
    }
    return 0;
}

static int teardown_all(void **state)
{
    (void)state;
    free(code);
    free(util_code);
    return 0;
}

static struct fix open_fix(int wave, enum eng_schedule sched)
{
    struct fix f;
    char err[512];
    struct eng_open_opts o = {.wave_size = wave, .schedule = sched, .seed = 7};
    assert_int_equal(B->open(0, &o, &f.ctx, err, sizeof err), 0);
    assert_int_equal(B->module_load(f.ctx, code, code_len, &f.mod, err, sizeof err), 0);
    return f;
}

static void close_fix(struct fix *f)
{
    B->module_unload(f->ctx, f->mod);
    B->close(f->ctx);
}

static struct eng_kernel *kernel(struct fix *f, const char *name)
{
    struct eng_kernel *k;
    char err[512];
    assert_int_equal(B->kernel_get(f->ctx, f->mod, name, &k, err, sizeof err), 0);
    return k;
}

static eng_dptr alloc(struct fix *f, size_t bytes)
{
    eng_dptr p;
    char err[512];
    assert_int_equal(B->mem_alloc(f->ctx, bytes, &p, err, sizeof err), 0);
    return p;
}

static void launch(struct fix *f, struct eng_kernel *k, unsigned gx, unsigned bx, unsigned shared,
                   struct eng_stream *s, void **args)
{
    unsigned g[3] = {gx, 1, 1}, b[3] = {bx, 1, 1};
    char err[512];
    assert_int_equal(B->launch(f->ctx, k, g, b, shared, s, args, err, sizeof err), 0);
}

static void test_barrier_reduction(void **state)
{
    (void)state;
    enum eng_schedule scheds[] = {ENG_SCHED_DEFAULT, ENG_SCHED_ADVERSARIAL, ENG_SCHED_RANDOM};
    for (int si = 0; si < 3; si++) {
        struct fix f = open_fix(32, scheds[si]);
        float in[4 * 256], out[4];
        for (int i = 0; i < 4 * 256; i++)
            in[i] = (float)(i % 7);
        eng_dptr din = alloc(&f, sizeof in), dout = alloc(&f, sizeof out);
        char err[512];
        assert_int_equal(B->memcpy_htod(f.ctx, din, in, sizeof in, NULL, err, sizeof err), 0);
        void *args[] = {&dout, &din};
        launch(&f, kernel(&f, "sum_good"), 4, 256, 0, NULL, args);
        assert_int_equal(B->memcpy_dtoh(f.ctx, out, dout, sizeof out, NULL, err, sizeof err), 0);
        for (int b = 0; b < 4; b++) {
            float want = 0;
            for (int i = 0; i < 256; i++)
                want += in[b * 256 + i];
            assert_true(out[b] > want - 0.5f && out[b] < want + 0.5f);
        }
        close_fix(&f);
    }
}

/* The adversarial schedule exposes the missing barrier on every launch; the barrier fixes it. */
static void test_missing_barrier_adversarial(void **state)
{
    (void)state;
    struct fix f = open_fix(32, ENG_SCHED_ADVERSARIAL);
    float in[256], out[256];
    for (int i = 0; i < 256; i++)
        in[i] = (float)(i + 1);
    eng_dptr din = alloc(&f, sizeof in), dout = alloc(&f, sizeof out);
    char err[512];
    assert_int_equal(B->memcpy_htod(f.ctx, din, in, sizeof in, NULL, err, sizeof err), 0);
    void *args[] = {&dout, &din};
    for (int rep = 0; rep < 10; rep++) {
        const char *names[2] = {"neighbour_bad", "neighbour_good"};
        for (int v = 0; v < 2; v++) {
            assert_int_equal(B->memset_d8(f.ctx, dout, 0, sizeof out, NULL, err, sizeof err), 0);
            launch(&f, kernel(&f, names[v]), 1, 256, 0, NULL, args);
            assert_int_equal(B->memcpy_dtoh(f.ctx, out, dout, sizeof out, NULL, err, sizeof err), 0);
            int wrong = 0;
            for (int t = 0; t < 256; t++) {
                float want = in[(t + 1) % 256] + in[(t + 255) % 256];
                wrong += !(out[t] > want - 0.5f && out[t] < want + 0.5f); /* NaN is wrong too */
            }
            if (v == 0)
                assert_true(wrong > 0);
            else
                assert_int_equal(wrong, 0);
        }
    }
    close_fix(&f);
}

/* The pct schedule reports the missing barrier as a shared-memory race on every launch; the
 * barrier fixes it. */
static void test_missing_barrier_pct(void **state)
{
    (void)state;
    float in[256], out[256];
    for (int i = 0; i < 256; i++)
        in[i] = (float)(i + 1);
    char err[512];
    for (int rep = 0; rep < 10; rep++) {
        const char *names[2] = {"neighbour_bad", "neighbour_good"};
        for (int v = 0; v < 2; v++) {
            /* A context whose launch failed keeps the error: each variant gets its own. */
            struct fix f = open_fix(32, ENG_SCHED_PCT);
            eng_dptr din = alloc(&f, sizeof in), dout = alloc(&f, sizeof out);
            void *args[] = {&dout, &din};
            assert_int_equal(B->memcpy_htod(f.ctx, din, in, sizeof in, NULL, err, sizeof err), 0);
            assert_int_equal(B->memset_d8(f.ctx, dout, 0, sizeof out, NULL, err, sizeof err), 0);
            launch(&f, kernel(&f, names[v]), 1, 256, 0, NULL, args);
            int rc = B->memcpy_dtoh(f.ctx, out, dout, sizeof out, NULL, err, sizeof err);
            if (v == 0) {
                /* The race check names the unordered pair in shared memory. */
                assert_int_equal(rc, -1);
                assert_non_null(strstr(err, "data race on __shared__ memory of block 0"));
                assert_non_null(strstr(err, "neighbour_bad+0x"));
            } else {
                assert_int_equal(rc, 0);
                for (int t = 0; t < 256; t++) {
                    float want = in[(t + 1) % 256] + in[(t + 255) % 256];
                    assert_true(out[t] > want - 0.5f && out[t] < want + 0.5f);
                }
            }
            close_fix(&f);
        }
    }
}

static void check_wave(int W)
{
    struct fix f = open_fix(W, ENG_SCHED_DEFAULT);
    int out[128 * 4];
    unsigned long long bal[4];
    eng_dptr dout = alloc(&f, sizeof out), dbal = alloc(&f, sizeof bal);
    void *args[] = {&dout, &dbal};
    launch(&f, kernel(&f, "wave_ops"), 1, 128, 0, NULL, args);
    char err[512];
    assert_int_equal(B->memcpy_dtoh(f.ctx, out, dout, sizeof out, NULL, err, sizeof err), 0);
    assert_int_equal(B->memcpy_dtoh(f.ctx, bal, dbal, sizeof bal, NULL, err, sizeof err), 0);
    for (int t = 0; t < 128; t++) {
        int base = t / W * W, sum = 0;
        for (int l = 0; l < W; l++)
            sum += base + l;
        assert_int_equal(out[t * 4 + 0], sum);
        assert_int_equal(out[t * 4 + 1], (t % W) + 1 < W ? t + 1 : t);
        assert_int_equal(out[t * 4 + 2], base + 3);
        assert_int_equal(out[t * 4 + 3], W);
    }
    for (int w = 0; w < 128 / W; w++) {
        unsigned long long want = 0;
        for (int l = 0; l < W; l++)
            if ((w * W + l) % 3 == 0)
                want |= 1ull << l;
        assert_true(bal[w] == want);
    }
    close_fix(&f);
}

/* Modules loaded one after another on one context, each freed before the next: with glibc's
 * allocator the next module usually lands at the freed one's address (under ASan's quarantine it
 * does not). The poison of __shared__ storage must reach each new module's own storage. It was
 * once cached by the module's address; this test passes with that code too, because the new
 * module's TLS block then also took the old block's place, so the fix (a serial per module)
 * rests on the reasoning in engine/cpu/backend_cpu.c, and this guards the poison across reloads. */
static void test_module_reload_poison(void **state)
{
    (void)state;
    struct fix f = open_fix(32, ENG_SCHED_ADVERSARIAL);
    unsigned out[64];
    eng_dptr dout = alloc(&f, sizeof out);
    char err[512];
    for (int cycle = 0; cycle < 12; cycle++) {
        if (cycle > 0) /* the fixture's module first, then one loaded where the last one was */
            assert_int_equal(B->module_load(f.ctx, code, code_len, &f.mod, err, sizeof err), 0);
        int write = 0;
        void *args[] = {&dout, &write};
        launch(&f, kernel(&f, "shared_unwritten"), 1, 64, 0, NULL, args);
        assert_int_equal(B->memcpy_dtoh(f.ctx, out, dout, sizeof out, NULL, err, sizeof err), 0);
        for (int t = 0; t < 64; t++)
            if (out[t] != 0xffffffffu)
                fail_msg("cycle %d thread %d read %#x from unwritten shared memory, not the "
                         "poison 0xffffffff", cycle, t, out[t]);
        B->module_unload(f.ctx, f.mod);
    }
    B->close(f.ctx);
}

/* Async copies: under the default schedule they have landed when issued; under the adversarial
 * one each lands at the wait that must see it, oldest first, its destination NaN until then,
 * except that the oldest land early once 16 are in flight. */
static void test_async_copies(void **state)
{
    (void)state;
    enum eng_schedule scheds[] = {ENG_SCHED_DEFAULT, ENG_SCHED_ADVERSARIAL};
    for (int si = 0; si < 2; si++) {
        struct fix f = open_fix(32, scheds[si]);
        static float in[32 * 20], out[32 * 60];
        for (int i = 0; i < 32 * 20; i++)
            in[i] = (float)(i + 1);
        eng_dptr din = alloc(&f, sizeof in), dout = alloc(&f, sizeof out);
        char err[512];
        assert_int_equal(B->memcpy_htod(f.ctx, din, in, sizeof in, NULL, err, sizeof err), 0);
        void *args[] = {&dout, &din};
        launch(&f, kernel(&f, "async_deep"), 1, 32, 0, NULL, args);
        assert_int_equal(B->memcpy_dtoh(f.ctx, out, dout, sizeof out, NULL, err, sizeof err), 0);
        /* copies landed before each read: before any wait, after wait(5), after wait(0) */
        int landed[3] = {20, 20, 20};
        if (scheds[si] == ENG_SCHED_ADVERSARIAL) {
            landed[0] = 20 - 16; /* the cap landed the oldest 4 early */
            landed[1] = 20 - 5;
        }
        for (int t = 0; t < 32; t++)
            for (int phase = 0; phase < 3; phase++)
                for (int i = 0; i < 20; i++) {
                    float v = out[t * 60 + phase * 20 + i];
                    if (i < landed[phase])
                        assert_memory_equal(&v, &in[t * 20 + i], sizeof v);
                    else
                        assert_true(isnan(v)); /* still in flight: the 0xff bytes */
                }
        close_fix(&f);
    }
}

static void test_wave32(void **state)
{
    (void)state;
    check_wave(32);
}

static void test_wave64(void **state)
{
    (void)state;
    check_wave(64);
}

static void test_dynamic_shared(void **state)
{
    (void)state;
    struct fix f = open_fix(32, ENG_SCHED_ADVERSARIAL);
    float out[3 * 64];
    eng_dptr dout = alloc(&f, sizeof out);
    void *args[] = {&dout};
    launch(&f, kernel(&f, "dyn"), 3, 64, 64 * sizeof(float), NULL, args);
    char err[512];
    assert_int_equal(B->memcpy_dtoh(f.ctx, out, dout, sizeof out, NULL, err, sizeof err), 0);
    for (int i = 0; i < 3 * 64; i++)
        assert_true((int)out[i] == 63 - i % 64);
    close_fix(&f);
}

static void test_inter_block_spin(void **state)
{
    (void)state;
    enum eng_schedule scheds[] = {ENG_SCHED_DEFAULT, ENG_SCHED_ADVERSARIAL};
    for (int si = 0; si < 2; si++) {
        struct fix f = open_fix(32, scheds[si]);
        eng_dptr cnt = alloc(&f, 4), dout = alloc(&f, 4);
        void *args[] = {&cnt, &dout};
        launch(&f, kernel(&f, "spin"), 8, 64, 0, NULL, args);
        int out = 0;
        char err[512];
        assert_int_equal(B->memcpy_dtoh(f.ctx, &out, dout, 4, NULL, err, sizeof err), 0);
        assert_int_equal(out, 7);
        close_fix(&f);
    }
}

static void test_deadlock_reported(void **state)
{
    (void)state;
    struct fix f = open_fix(32, ENG_SCHED_DEFAULT);
    eng_dptr dout = alloc(&f, 4);
    void *args[] = {&dout};
    launch(&f, kernel(&f, "diverge"), 1, 32, 0, NULL, args);
    int out;
    char err[512] = "";
    assert_int_equal(B->memcpy_dtoh(f.ctx, &out, dout, 4, NULL, err, sizeof err), -1);
    assert_non_null(strstr(err, "deadlock"));
    /* The error is sticky, like a GPU context after a fault. */
    assert_int_equal(B->stream_sync(f.ctx, NULL, err, sizeof err), -1);
    close_fix(&f);
}

/* Producer on one stream, consumer on another: without the event the consumer runs first every
 * time; with it, after the producer. */
static void test_streams_missing_event(void **state)
{
    (void)state;
    enum eng_schedule scheds[] = {ENG_SCHED_DEFAULT, ENG_SCHED_ADVERSARIAL, ENG_SCHED_RANDOM};
    for (int si = 0; si < 3; si++)
        for (int with_event = 0; with_event < 2; with_event++) {
            struct fix f = open_fix(32, scheds[si]);
            struct eng_stream *p, *c;
            struct eng_event *e;
            char err[512];
            assert_int_equal(B->stream_create(f.ctx, &p, err, sizeof err), 0);
            assert_int_equal(B->stream_create(f.ctx, &c, err, sizeof err), 0);
            assert_int_equal(B->event_create(f.ctx, &e, err, sizeof err), 0);
            float host[64];
            eng_dptr buf = alloc(&f, sizeof host);
            assert_int_equal(B->memset_d8(f.ctx, buf, 0, sizeof host, NULL, err, sizeof err), 0);
            assert_int_equal(B->stream_sync(f.ctx, NULL, err, sizeof err), 0);
            int n = 64;
            void *args[] = {&buf, &n};
            struct eng_kernel *k = kernel(&f, "add_one");
            launch(&f, k, 1, 64, 0, p, args); /* producer: 0 -> 1 */
            if (with_event) {
                assert_int_equal(B->event_record(f.ctx, e, p, err, sizeof err), 0);
                assert_int_equal(B->stream_wait_event(f.ctx, c, e, err, sizeof err), 0);
            }
            launch(&f, k, 1, 64, 0, c, args); /* consumer: +1 */
            assert_int_equal(B->memcpy_dtoh(f.ctx, host, buf, sizeof host, c, err, sizeof err), 0);
            /* Without the event the consumer saw the unproduced buffer. */
            assert_true((int)host[0] == (with_event ? 2 : 1));
            assert_int_equal(B->stream_sync(f.ctx, p, err, sizeof err), 0);
            B->event_destroy(f.ctx, e);
            B->stream_destroy(f.ctx, p);
            B->stream_destroy(f.ctx, c);
            close_fix(&f);
        }
}

static void test_graph_replay(void **state)
{
    (void)state;
    struct fix f = open_fix(32, ENG_SCHED_DEFAULT);
    struct eng_stream *s;
    char err[512];
    assert_int_equal(B->stream_create(f.ctx, &s, err, sizeof err), 0);
    float host[32];
    eng_dptr buf = alloc(&f, sizeof host);
    assert_int_equal(B->memset_d8(f.ctx, buf, 0, sizeof host, s, err, sizeof err), 0);
    int n = 32;
    void *args[] = {&buf, &n};
    assert_int_equal(B->graph_begin(f.ctx, s, err, sizeof err), 0);
    launch(&f, kernel(&f, "add_one"), 1, 32, 0, s, args);
    n = 0; /* the graph keeps the value captured */
    struct eng_graph *g;
    assert_int_equal(B->graph_end(f.ctx, s, &g, err, sizeof err), 0);
    assert_int_equal(B->memcpy_dtoh(f.ctx, host, buf, sizeof host, s, err, sizeof err), 0);
    assert_true((int)host[5] == 0); /* capture ran nothing */
    for (int r = 0; r < 3; r++)
        assert_int_equal(B->graph_launch(f.ctx, g, s, err, sizeof err), 0);
    assert_int_equal(B->memcpy_dtoh(f.ctx, host, buf, sizeof host, s, err, sizeof err), 0);
    assert_true((int)host[5] == 3 && (int)host[31] == 3);
    B->graph_destroy(f.ctx, g);
    B->stream_destroy(f.ctx, s);
    close_fix(&f);
}

/* util.kl's oracles on the cpu backend: fill, compare with tolerance, sentinel patterns. */
static void test_util_oracles(void **state)
{
    (void)state;
    struct eng_ctx *ctx;
    struct eng_module *m;
    char err[512];
    struct eng_open_opts o = {.wave_size = 32};
    assert_int_equal(B->open(0, &o, &ctx, err, sizeof err), 0);
    assert_int_equal(B->module_load(ctx, util_code, util_len, &m, err, sizeof err), 0);
    struct eng_kernel *fill, *cmp, *pat, *chk;
    assert_int_equal(B->kernel_get(ctx, m, "kl_util_fill", &fill, err, sizeof err), 0);
    assert_int_equal(B->kernel_get(ctx, m, "kl_util_compare", &cmp, err, sizeof err), 0);
    assert_int_equal(B->kernel_get(ctx, m, "kl_util_fill_pattern", &pat, err, sizeof err), 0);
    assert_int_equal(B->kernel_get(ctx, m, "kl_util_check_pattern", &chk, err, sizeof err), 0);
    uint64_t n64 = 1000;
    const uint64_t n = n64;
    eng_dptr a, b, res;
    assert_int_equal(B->mem_alloc(ctx, n * 4, &a, err, sizeof err), 0);
    assert_int_equal(B->mem_alloc(ctx, n * 4, &b, err, sizeof err), 0);
    assert_int_equal(B->mem_alloc(ctx, 64, &res, err, sizeof err), 0);
    int dtype = 0, init = 0;
    uint64_t seed = 42, first = 0;
    void *fa[] = {&a, &n64, &dtype, &init, &seed, &first};
    void *fb[] = {&b, &n64, &dtype, &init, &seed, &first};
    unsigned g[3] = {4, 1, 1}, bl[3] = {64, 1, 1};
    assert_int_equal(B->launch(ctx, fill, g, bl, 0, NULL, fa, err, sizeof err), 0);
    assert_int_equal(B->launch(ctx, fill, g, bl, 0, NULL, fb, err, sizeof err), 0);
    float vals[1000];
    assert_int_equal(B->memcpy_dtoh(ctx, vals, a, sizeof vals, NULL, err, sizeof err), 0);
    double mean = 0, var = 0;
    for (int i = 0; i < 1000; i++)
        mean += (double)vals[i];
    mean /= 1000;
    for (int i = 0; i < 1000; i++)
        var += ((double)vals[i] - mean) * ((double)vals[i] - mean);
    var /= 1000;
    assert_true(mean > -0.2 && mean < 0.2 && var > 0.7 && var < 1.3);
    /* Break two elements of b: one beyond tolerance, one to the sentinel (never written). */
    float bad = vals[10] + 1.0f;
    uint32_t sent = 0x7fa5a5a5u;
    assert_int_equal(B->memcpy_htod(ctx, b + 10 * 4, &bad, 4, NULL, err, sizeof err), 0);
    assert_int_equal(B->memcpy_htod(ctx, b + 700 * 4, &sent, 4, NULL, err, sizeof err), 0);
    assert_int_equal(B->memset_d8(ctx, res, 0, 64, NULL, err, sizeof err), 0);
    float atol = 0.01f, rtol = 0.01f;
    void *ca[] = {&b, &a, &n64, &dtype, &atol, &rtol, &res};
    assert_int_equal(B->launch(ctx, cmp, g, bl, 0, NULL, ca, err, sizeof err), 0);
    uint64_t r[8];
    assert_int_equal(B->memcpy_dtoh(ctx, r, res, sizeof r, NULL, err, sizeof err), 0);
    assert_int_equal(r[0], 2);  /* two wrong */
    assert_int_equal(r[1], 11); /* first at 10 (+1) */
    assert_int_equal(r[3], 1);  /* one non-finite */
    assert_int_equal(r[4], 1);  /* one still the sentinel */
    assert_int_equal(r[5], 701);
    /* Pattern fill and check over an odd length. */
    uint64_t nb = 1003, pattern = 0x7fa5a5a57fa5a5a5ull;
    void *pa[] = {&a, &nb, &pattern};
    assert_int_equal(B->launch(ctx, pat, g, bl, 0, NULL, pa, err, sizeof err), 0);
    uint8_t poke = 1;
    assert_int_equal(B->memcpy_htod(ctx, a + 1001, &poke, 1, NULL, err, sizeof err), 0);
    assert_int_equal(B->memset_d8(ctx, res, 0, 64, NULL, err, sizeof err), 0);
    void *ka[] = {&a, &nb, &pattern, &res};
    assert_int_equal(B->launch(ctx, chk, g, bl, 0, NULL, ka, err, sizeof err), 0);
    assert_int_equal(B->memcpy_dtoh(ctx, r, res, sizeof r, NULL, err, sizeof err), 0);
    assert_int_equal(r[0], 1);
    assert_int_equal(r[1], 1002);
    B->module_unload(ctx, m);
    B->close(ctx);
}

/* The contract judge's device pass (util.kl: kl_util_row_absmax, kl_util_bound): each row's
 * largest finite |reference|, then agreement within ta + tr |ref| + ts scale[row]; the same NaN
 * and the same infinity agree, a NaN against a number or +Inf against -Inf never does. */
static void test_util_bound(void **state)
{
    (void)state;
    struct eng_ctx *ctx;
    struct eng_module *m;
    char err[512];
    struct eng_open_opts o = {.wave_size = 32};
    assert_int_equal(B->open(0, &o, &ctx, err, sizeof err), 0);
    assert_int_equal(B->module_load(ctx, util_code, util_len, &m, err, sizeof err), 0);
    struct eng_kernel *absmax, *bound;
    assert_int_equal(B->kernel_get(ctx, m, "kl_util_row_absmax", &absmax, err, sizeof err), 0);
    assert_int_equal(B->kernel_get(ctx, m, "kl_util_bound", &bound, err, sizeof err), 0);
    float inf = 1.0f / 0.0f, nan = inf - inf;
    const float ref[8] = {1, -3, 2, nan, inf, 0.5f, nan, -inf};
    const float good[8] = {1.05f, -3, 2, nan, inf, 0.51f, nan, -inf};
    const float bad[8] = {1.2f, -3, 2, nan, -inf, 0.5f, 1, -inf};
    eng_dptr r, out, scale, res;
    assert_int_equal(B->mem_alloc(ctx, sizeof ref, &r, err, sizeof err), 0);
    assert_int_equal(B->mem_alloc(ctx, sizeof good, &out, err, sizeof err), 0);
    assert_int_equal(B->mem_alloc(ctx, 16, &scale, err, sizeof err), 0);
    assert_int_equal(B->mem_alloc(ctx, 64, &res, err, sizeof err), 0);
    assert_int_equal(B->memcpy_htod(ctx, r, ref, sizeof ref, NULL, err, sizeof err), 0);
    assert_int_equal(B->memset_d8(ctx, scale, 0, 16, NULL, err, sizeof err), 0);
    uint64_t rows = 2, stride = 4, n = 8;
    int dtype = 0;
    unsigned g[3] = {2, 1, 1}, bl[3] = {32, 1, 1};
    void *aa[] = {&r, &rows, &stride, &dtype, &scale};
    assert_int_equal(B->launch(ctx, absmax, g, bl, 0, NULL, aa, err, sizeof err), 0);
    uint64_t sc[2];
    assert_int_equal(B->memcpy_dtoh(ctx, sc, scale, sizeof sc, NULL, err, sizeof err), 0);
    /* the f32 bits of 3 and 0.5: NaN and Inf are not a row's scale */
    assert_int_equal(sc[0], 0x40400000u);
    assert_int_equal(sc[1], 0x3f000000u);
    double ta = 0, tr = 0.01, ts = 0.02; /* row 0: 0.07 around 1; row 1: 0.015 around 0.5 */
    for (int side = 0; side < 2; side++) {
        assert_int_equal(B->memcpy_htod(ctx, out, side ? bad : good, sizeof good, NULL, err,
                                        sizeof err), 0);
        assert_int_equal(B->memset_d8(ctx, res, 0, 64, NULL, err, sizeof err), 0);
        void *ba[] = {&out, &r, &n, &stride, &dtype, &scale, &ta, &tr, &ts, &res};
        assert_int_equal(B->launch(ctx, bound, g, bl, 0, NULL, ba, err, sizeof err), 0);
        uint64_t w[8];
        assert_int_equal(B->memcpy_dtoh(ctx, w, res, sizeof w, NULL, err, sizeof err), 0);
        if (!side) {
            assert_int_equal(w[0], 0); /* within the bound, same NaN, same infinities */
        } else {
            assert_int_equal(w[0], 3); /* 0.2 past 0.07, +Inf against -Inf, 1 against NaN */
            assert_int_equal(w[1], 1); /* the first at 0 */
        }
    }
    /* kl_util_bound_fail: the failing output's tally as the host judge makes it (count, first,
     * NaN/Inf where the reference is finite, the worst: furthest past its bound, the first of
     * equals), against the same computed here */
    struct eng_kernel *fail;
    assert_int_equal(B->kernel_get(ctx, m, "kl_util_bound_fail", &fail, err, sizeof err), 0);
    const float bad2[8] = {1.2f, -3.5f, 2, nan, inf, nan, nan, -inf};
    const float bad3[8] = {1.2f, -3.5f, 2, nan, inf, 0.5f, nan, -inf};
    const float bad4[8] = {1.2f, -3, 2, nan, inf, 0.5f, nan, -inf}; /* one finite miss */
    const float *outs[] = {good, bad, bad2, bad3, bad4};
    const uint64_t want_count[] = {0, 3, 3, 2, 1}, want_worst[] = {0, 4, 5, 1, 0};
    const uint64_t want_nonfinite[] = {0, 0, 1, 0, 0};
    for (size_t c = 0; c < sizeof outs / sizeof outs[0]; c++) {
        assert_int_equal(B->memcpy_htod(ctx, out, outs[c], sizeof good, NULL, err, sizeof err), 0);
        uint64_t hcount = 0, hfirst = 0, hnf = 0, hworst = 0;
        double hmost = -1, outside = 1 + 1e-9;
        for (uint64_t i = 0; i < n; i++) {
            double ov = outs[c][i], f = ref[i];
            double bd = ta + tr * fabs(f) + ts * (i < 4 ? 3.0 : 0.5);
            bool agree = (isnan(ov) && isnan(f)) ||
                         (isinf(ov) && isinf(f) && signbit(ov) == signbit(f)) ||
                         (isfinite(ov) && isfinite(f) && fabs(ov - f) <= bd * outside);
            if (agree)
                continue;
            double ex = isfinite(ov) && isfinite(f) ? fabs(ov - f) - bd : (double)INFINITY;
            hfirst = hcount++ ? hfirst : i;
            hnf += !isfinite(ov) && isfinite(f);
            if (ex > hmost)
                hmost = ex, hworst = i;
        }
        assert_int_equal(hcount, want_count[c]);
        uint64_t worst = 0, w[8];
        for (int pass = 0; pass < 2; pass++) {
            assert_int_equal(B->memset_d8(ctx, res, 0, 64, NULL, err, sizeof err), 0);
            void *fa[] = {&out, &r, &n, &stride, &dtype, &scale, &ta, &tr, &ts, &outside,
                          &worst, &res};
            assert_int_equal(B->launch(ctx, fail, g, bl, 0, NULL, fa, err, sizeof err), 0);
            assert_int_equal(B->memcpy_dtoh(ctx, w, res, sizeof w, NULL, err, sizeof err), 0);
            worst = w[3];
        }
        assert_int_equal(w[0], hcount);
        if (!hcount) {
            assert_int_equal(w[1], 0);
            assert_int_equal(w[3], 0);
            assert_int_equal(w[4], 0);
            continue;
        }
        assert_int_equal(w[1], hfirst + 1);
        assert_int_equal(w[2], hnf);
        assert_int_equal(hnf, want_nonfinite[c]);
        uint64_t hbits;
        memcpy(&hbits, &hmost, sizeof hbits);
        assert_int_equal(w[3], hbits); /* the largest excess, bit for bit */
        assert_int_equal(w[4], hworst + 1);
        assert_int_equal(hworst, want_worst[c]);
    }
    B->module_unload(ctx, m);
    B->close(ctx);
}

static void test_missing_entry_message(void **state)
{
    (void)state;
    struct fix f = open_fix(32, ENG_SCHED_DEFAULT);
    struct eng_kernel *k;
    char err[512];
    assert_int_equal(B->kernel_get(f.ctx, f.mod, "nope", &k, err, sizeof err), -1);
    assert_non_null(strstr(err, "KL_EXPORT(nope)"));
    close_fix(&f);
}

int main(void)
{
    eng_tables_install(); /* the built-in rungs and the backends, as kladder's main hands them in */
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_barrier_reduction),
        cmocka_unit_test(test_util_bound),
        cmocka_unit_test(test_missing_barrier_adversarial),
        cmocka_unit_test(test_missing_barrier_pct),
        cmocka_unit_test(test_module_reload_poison),
        cmocka_unit_test(test_async_copies),
        cmocka_unit_test(test_wave32),
        cmocka_unit_test(test_wave64),
        cmocka_unit_test(test_dynamic_shared),
        cmocka_unit_test(test_inter_block_spin),
        cmocka_unit_test(test_deadlock_reported),
        cmocka_unit_test(test_streams_missing_event),
        cmocka_unit_test(test_graph_replay),
        cmocka_unit_test(test_util_oracles),
        cmocka_unit_test(test_missing_entry_message),
    };
    return cmocka_run_group_tests(tests, setup_all, teardown_all);
}
