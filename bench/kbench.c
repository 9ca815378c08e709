/* kbench: the GPU benchmarks of kladder's rung machinery (not timed tests).
 *
 *   kbench [--backend cuda|hip] [--device I] [--json FILE] [--quick] [--bench-kl FILE]
 *          [selftest] [tiny] [wide] [fill]                        (default: all four)
 *
 *   tiny  rung 5 cost per repeat on a tiny kernel: N repeats replayed from one graph, each
 *         repeat's output compared bitwise on the device. Two kernels: one block writing 256
 *         floats (the floor of a repeat) and RMSNorm 256x64 bf16 (the reproducer's fixed
 *         kernel, the peer loop's shape). Reported three ways: the kernel alone, one comparison
 *         per repeat, and one comparison per batch of repeats (each repeat writes its own
 *         slot; one launch compares slot k with slot k+1 across the batch).
 *                                                                     target: <= 1 us/repeat
 *   wide  rung 5 on RMSNorm 4096x32768 bf16: the overhead a repeat adds to the kernel, against
 *         the time to read the output once at the measured copy bandwidth. Both comparisons:
 *         byte-for-byte against the first output (reads two outputs) and a one-pass 64-bit
 *         content hash per repeat (reads one).                        target: <= 1.2x
 *   fill  rung 1 sentinel fill + verify over 5 GiB (kl_util_fill_pattern, kl_util_check_pattern)
 *         against the copy bandwidth over the same bytes.            target: >= 80%
 *
 *   selftest  backend calls the benchmarks do not use: copies both ways, two streams ordered by
 *         an event, captured work that waits for its launch, a missing entry point.
 *
 * It drives the engine's backend interface (engine/backend/backend.h) and the engine's own kernels
 * (kernels/util.kl, kernels/aiter_6344.kl, embedded in the binary) plus bench/bench.kl. Every
 * timing is device time from events, the median over several replays. Output: one line per
 * measurement on stdout, and with --json a file of {bench, metric, value, unit, target, ...}. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/embed.h"
#include "common/fileio.h"
#include "engine/backend/backend.h"
#include "engine/cache/cache.h"
#include "engine/tables/tables.h"

#define GIB ((size_t)1 << 30)

struct bench {
    const struct eng_backend *b;
    struct eng_ctx *ctx;
    struct eng_device_info info;
    struct eng_stream *s;
    struct eng_event *e0, *e1;
    struct eng_module *util, *r6344, *local;
    bool quick;
    FILE *json;
    int njson;
    int failures;
};

static char err[4096];

static void fatal(const char *what)
{
    fprintf(stderr, "kbench: %s: %s\n", what, err);
    exit(2);
}

#define CHECK(call, what)                                                                      \
    do {                                                                                       \
        if ((call) != 0)                                                                       \
            fatal(what);                                                                       \
    } while (0)

/* One result line, and one JSON record. target_kind: "max" (value <= target is met), "min". */
static void report(struct bench *B, const char *bench, const char *metric, double value,
                   const char *unit, double target, const char *target_kind, const char *note)
{
    bool has_target = target_kind != NULL;
    bool met = !has_target || (strcmp(target_kind, "max") == 0 ? value <= target : value >= target);
    printf("%-6s %-44s %12.3f %-6s", bench, metric, value, unit);
    if (has_target)
        printf("  target %s %.3g: %s", strcmp(target_kind, "max") == 0 ? "<=" : ">=", target,
               met ? "met" : "NOT MET");
    if (note && note[0])
        printf("  (%s)", note);
    printf("\n");
    if (B->json) {
        fprintf(B->json, "%s\n  {\"bench\": \"%s\", \"metric\": \"%s\", \"value\": %.6g, "
                "\"unit\": \"%s\"", B->njson ? "," : "", bench, metric, value, unit);
        if (has_target)
            fprintf(B->json, ", \"target\": %.6g, \"target_kind\": \"%s\", \"met\": %s", target,
                    target_kind, met ? "true" : "false");
        if (note && note[0])
            fprintf(B->json, ", \"note\": \"%s\"", note);
        fprintf(B->json, "}");
        B->njson++;
    }
}

static char *read_text(const char *path)
{
    char *t = file_read_all(path, NULL, err, sizeof err);
    if (!t)
        fatal("reading a kernel source");
    return t;
}

static struct eng_module *load_source(struct bench *B, const char *name, const char *body)
{
    const struct embed_file *h = embed_find("kernels/kl.h");
    if (!h) {
        snprintf(err, sizeof err, "kernels/kl.h is not embedded");
        fatal("compile");
    }
    char *src = eng_source_join((const char *)h->data, name, body);
    void *code = NULL;
    size_t len = 0;
    if (B->b->compile(B->info.target, src, name, NULL, &code, &len, err, sizeof err) != 0)
        fatal(name);
    free(src);
    struct eng_module *m = NULL;
    CHECK(B->b->module_load(B->ctx, code, len, &m, err, sizeof err), name);
    free(code);
    return m;
}

static struct eng_module *load_embedded(struct bench *B, const char *path)
{
    const struct embed_file *f = embed_find(path);
    if (!f) {
        snprintf(err, sizeof err, "%s is not embedded in this build", path);
        fatal("kernel source");
    }
    return load_source(B, path, (const char *)f->data);
}

static struct eng_kernel *kernel(struct bench *B, struct eng_module *m, const char *name)
{
    struct eng_kernel *k = NULL;
    CHECK(B->b->kernel_get(B->ctx, m, name, &k, err, sizeof err), name);
    return k;
}

static void launch(struct bench *B, struct eng_kernel *k, unsigned grid, unsigned block,
                   void **args)
{
    const unsigned g[3] = {grid, 1, 1}, bl[3] = {block, 1, 1};
    CHECK(B->b->launch(B->ctx, k, g, bl, 0, B->s, args, err, sizeof err), "launch");
}

static eng_dptr alloc(struct bench *B, size_t bytes)
{
    eng_dptr p = 0;
    CHECK(B->b->mem_alloc(B->ctx, bytes, &p, err, sizeof err), "allocation");
    return p;
}

static void zero(struct bench *B, eng_dptr p, size_t bytes)
{
    CHECK(B->b->memset_d8(B->ctx, p, 0, bytes, B->s, err, sizeof err), "memset");
}

static void sync_stream(struct bench *B)
{
    CHECK(B->b->stream_sync(B->ctx, B->s, err, sizeof err), "stream sync");
}

static void fetch(struct bench *B, void *dst, eng_dptr src, size_t bytes)
{
    CHECK(B->b->memcpy_dtoh(B->ctx, dst, src, bytes, B->s, err, sizeof err), "copy to host");
}

/* Blocks for a bandwidth-bound grid-stride kernel: enough to fill every CU several times. */
static unsigned stream_blocks(struct bench *B)
{
    int cu = B->info.compute_units > 0 ? B->info.compute_units : 80;
    return (unsigned)cu * 8;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* Work to time: either a graph (replayed) or a callback issuing launches on B->s. */
typedef void (*issue_fn)(struct bench *B, void *arg);

/* Median device time in ms of `reps` runs of fn (after one warm-up run). */
static double time_median(struct bench *B, issue_fn fn, void *arg, int reps)
{
    double *t = calloc((size_t)reps, sizeof *t);
    fn(B, arg);
    sync_stream(B);
    for (int r = 0; r < reps; r++) {
        CHECK(B->b->event_record(B->ctx, B->e0, B->s, err, sizeof err), "event record");
        fn(B, arg);
        CHECK(B->b->event_record(B->ctx, B->e1, B->s, err, sizeof err), "event record");
        sync_stream(B);
        float ms = 0;
        CHECK(B->b->event_elapsed_ms(B->ctx, B->e0, B->e1, &ms, err, sizeof err), "event time");
        t[r] = ms;
    }
    qsort(t, (size_t)reps, sizeof *t, cmp_double);
    double m = t[reps / 2];
    free(t);
    return m;
}

static void run_graph(struct bench *B, void *arg)
{
    CHECK(B->b->graph_launch(B->ctx, (struct eng_graph *)arg, B->s, err, sizeof err),
          "graph launch");
}

/* Captures what fn issues on B->s into a graph (nothing runs until it is launched). */
static struct eng_graph *capture(struct bench *B, issue_fn fn, void *arg)
{
    struct eng_graph *g = NULL;
    CHECK(B->b->graph_begin(B->ctx, B->s, err, sizeof err), "graph capture");
    fn(B, arg);
    CHECK(B->b->graph_end(B->ctx, B->s, &g, err, sizeof err), "graph capture");
    return g;
}

/* ---- shared measurement: copy bandwidth ------------------------------------------------- */

struct copy_job {
    struct eng_kernel *k;
    eng_dptr dst, src;
    uint64_t nv;
    unsigned blocks;
};

static void issue_copy(struct bench *B, void *arg)
{
    struct copy_job *j = arg;
    void *args[] = {&j->dst, &j->src, &j->nv};
    launch(B, j->k, j->blocks, 256, args);
}

/* Bytes moved per second (read + write) by a 16-byte grid-stride copy of `bytes`. */
static double copy_bandwidth(struct bench *B, size_t bytes, eng_dptr dst, eng_dptr src)
{
    struct copy_job j = {kernel(B, B->local, "bench_copy16"), dst, src, bytes / 16,
                         stream_blocks(B)};
    double ms = time_median(B, issue_copy, &j, B->quick ? 3 : 9);
    return 2.0 * (double)bytes / (ms * 1e-3);
}

/* ---- tiny: RMSNorm 256x64 ------------------------------------------------------------- */

struct rms_job {
    struct bench *B;
    struct eng_kernel *rms, *bitwise, *hash;
    eng_dptr x, w, y, res, slots;
    int M, N;
    size_t ybytes;
    unsigned grid, block;
    int repeats;
    int mode; /* 0 kernel only, 1 compare each repeat, 2 batched compare, 3 hash each repeat */
    eng_dptr yref;
    bool touch; /* the kernel is bench_touch(y) */
};

static void rms_launch(struct rms_job *j, eng_dptr y)
{
    if (j->touch) {
        void *args[] = {&y};
        launch(j->B, j->rms, j->grid, j->block, args);
        return;
    }
    void *args[] = {&y, &j->x, &j->w, &j->M, &j->N};
    launch(j->B, j->rms, j->grid, j->block, args);
}

static void bitwise_launch(struct rms_job *j, eng_dptr a, eng_dptr b, uint64_t nbytes)
{
    void *args[] = {&a, &b, &nbytes, &j->res};
    unsigned blocks = nbytes < ((uint64_t)1 << 20) ? (unsigned)((nbytes / 8 + 255) / 256)
                                                   : stream_blocks(j->B);
    launch(j->B, j->bitwise, blocks ? blocks : 1, 256, args);
}

static void issue_rms(struct bench *B, void *arg)
{
    (void)B;
    struct rms_job *j = arg;
    for (int r = 0; r < j->repeats; r++) {
        switch (j->mode) {
        case 0:
            rms_launch(j, j->y);
            break;
        case 1:
            rms_launch(j, j->y);
            bitwise_launch(j, j->yref, j->y, j->ybytes);
            break;
        case 2: /* repeat r writes slot r+1; slot 0 (yref) holds the first output */
            rms_launch(j, j->yref + (eng_dptr)(r + 1) * j->ybytes);
            break;
        case 3: {
            rms_launch(j, j->y);
            uint64_t words = j->ybytes / 8;
            eng_dptr slot = j->slots + (eng_dptr)r * 8;
            void *args[] = {&j->y, &words, &slot};
            launch(j->B, j->hash, stream_blocks(j->B), 256, args);
            break;
        }
        }
    }
    if (j->mode == 2) /* slot k against slot k+1 for every k: all equal iff every pair is */
        bitwise_launch(j, j->yref, j->yref + j->ybytes, (uint64_t)j->repeats * j->ybytes);
}

static void fill_input(struct bench *B, eng_dptr p, uint64_t n, int dtype, int init, uint64_t seed)
{
    struct eng_kernel *fill = kernel(B, B->util, "kl_util_fill");
    uint64_t first = 0;
    void *args[] = {&p, &n, &dtype, &init, &seed, &first};
    launch(B, fill, stream_blocks(B), 256, args);
}

static uint64_t read_word(struct bench *B, eng_dptr p)
{
    uint64_t v = 0;
    fetch(B, &v, p, sizeof v);
    return v;
}

/* Rung 5 on a small kernel: touch=false is RMSNorm 256x64 bf16 (the peer loop's shape),
 * touch=true the smallest kernel there is (one block writes 256 floats), which shows the floor
 * of a repeat. */
static void bench_tiny(struct bench *B, bool touch)
{
    struct rms_job j = {0};
    j.B = B;
    j.bitwise = kernel(B, B->util, "kl_util_bitwise");
    if (touch) {
        j.rms = kernel(B, B->local, "bench_touch");
        j.touch = true;
        j.grid = 1;
        j.block = 256;
        j.ybytes = 256 * 4;
    } else {
        j.rms = kernel(B, B->r6344, "rmsnorm_fixed");
        j.M = 256;
        j.N = 64;
        j.grid = 256;
        j.block = 64;
        j.ybytes = (size_t)j.M * j.N * 2;
    }
    int batch = B->quick ? 200 : 1000;
    j.x = alloc(B, (size_t)256 * 64 * 2);
    j.w = alloc(B, (size_t)64 * 2);
    j.yref = alloc(B, (size_t)(batch + 1) * j.ybytes); /* slot 0 and one slot per repeat */
    j.y = j.yref + j.ybytes;
    j.res = alloc(B, 64);
    fill_input(B, j.x, (uint64_t)256 * 64, 1, 0, 1);
    fill_input(B, j.w, (uint64_t)64, 1, 0, 2);
    zero(B, j.res, 64);
    rms_launch(&j, j.yref); /* the first output, slot 0 */
    sync_stream(B);

    int reps = B->quick ? 5 : 15;
    j.repeats = batch;
    double per[3];
    for (int mode = 0; mode < 3; mode++) {
        j.mode = mode;
        struct eng_graph *g = capture(B, issue_rms, &j);
        per[mode] = time_median(B, run_graph, g, reps) * 1e3 / batch;
        B->b->graph_destroy(B->ctx, g);
    }
    sync_stream(B);
    uint64_t diff = read_word(B, j.res);
    const char *what = touch ? "touch" : "tiny";
    char note[200];
    report(B, what, "kernel alone in a graph, per launch", per[0], "us", 0, NULL,
           touch ? "1 block writes 256 floats" : "RMSNorm 256x64 bf16, the reproducer's fixed kernel");
    snprintf(note, sizeof note, "overhead %.3f us", per[1] - per[0]);
    report(B, what, "repeat + compare each, per repeat", per[1], "us", 0, NULL, note);
    snprintf(note, sizeof note, "%d repeats per graph, one compare; overhead %.3f us; %llu "
             "differing words", batch, per[2] - per[0], (unsigned long long)diff);
    report(B, what, "repeat, batched compare, per repeat", per[2], "us", 1.0, "max", note);
    report(B, what, "rung-5 overhead per repeat (batched)", per[2] - per[0], "us", 1.0, "max", "");
    if (diff) {
        printf("%s   the kernel was not bitwise reproducible: %llu words differ\n", what,
               (unsigned long long)diff);
        B->failures++;
    }
    B->b->mem_free(B->ctx, j.x);
    B->b->mem_free(B->ctx, j.w);
    B->b->mem_free(B->ctx, j.yref);
    B->b->mem_free(B->ctx, j.res);
}

/* ---- wide: RMSNorm 4096x32768 ------------------------------------------------------------ */

static void bench_wide(struct bench *B)
{
    struct rms_job j = {0};
    j.B = B;
    j.rms = kernel(B, B->r6344, "rmsnorm_fixed");
    j.bitwise = kernel(B, B->util, "kl_util_bitwise");
    j.hash = kernel(B, B->local, "bench_hash");
    struct eng_kernel *check = kernel(B, B->local, "bench_hash_check");
    j.M = 4096;
    j.N = 32768;
    j.grid = 4096;
    j.block = 512;
    j.ybytes = (size_t)j.M * j.N * 2;
    j.repeats = B->quick ? 5 : 20;
    j.x = alloc(B, j.ybytes);
    j.w = alloc(B, (size_t)j.N * 2);
    j.y = alloc(B, j.ybytes);
    j.yref = alloc(B, j.ybytes);
    j.res = alloc(B, 64);
    j.slots = alloc(B, (size_t)j.repeats * 8 + 8);
    fill_input(B, j.x, (uint64_t)j.M * j.N, 1, 0, 3);
    fill_input(B, j.w, (uint64_t)j.N, 1, 0, 4);
    zero(B, j.res, 64);
    rms_launch(&j, j.yref);
    /* the reference hash goes into the last slot */
    eng_dptr refslot = j.slots + (eng_dptr)j.repeats * 8;
    zero(B, refslot, 8);
    uint64_t words = j.ybytes / 8;
    void *hargs[] = {&j.yref, &words, &refslot};
    launch(B, j.hash, stream_blocks(B), 256, hargs);

    /* bw counts every byte moved (read + write): a pass that only reads streams at that rate. */
    double bw = copy_bandwidth(B, j.ybytes, j.y, j.x);
    double read_once_us = (double)j.ybytes / bw * 1e6;

    int reps = B->quick ? 3 : 7;
    double per[4];
    for (int mode = 0; mode < 4; mode++) {
        if (mode == 2)
            continue; /* batching needs one slot per repeat: 256 MiB each */
        j.mode = mode;
        zero(B, j.slots, (size_t)j.repeats * 8);
        struct eng_graph *g = capture(B, issue_rms, &j);
        zero(B, j.slots, (size_t)j.repeats * 8);
        per[mode] = time_median(B, run_graph, g, reps) * 1e3 / j.repeats;
        B->b->graph_destroy(B->ctx, g);
    }
    /* The hash slots of the last replay against the reference hash, on the device. */
    zero(B, j.slots, (size_t)j.repeats * 8);
    j.mode = 3;
    issue_rms(B, &j);
    eng_dptr hres = j.res + 16;
    zero(B, hres, 16);
    uint64_t nslots = (uint64_t)j.repeats;
    void *cargs[] = {&j.slots, &nslots, &refslot, &hres};
    launch(B, check, 1, 1, cargs);
    sync_stream(B);
    uint64_t bitwise_diff = read_word(B, j.res), hash_diff = read_word(B, hres);

    char note[200];
    report(B, "wide", "copy bandwidth (read+write), GB/s", bw / 1e9, "GB/s", 0, NULL, "");
    report(B, "wide", "time to read the output once", read_once_us, "us", 0, NULL,
           "256 MiB at the copy bandwidth");
    report(B, "wide", "kernel alone, per launch", per[0], "us", 0, NULL, "");
    snprintf(note, sizeof note, "%.1f us per repeat; %llu differing words",
             per[1] - per[0], (unsigned long long)bitwise_diff);
    report(B, "wide", "bytewise compare: overhead / read-once", (per[1] - per[0]) / read_once_us,
           "x", 1.2, "max", note);
    snprintf(note, sizeof note, "%.1f us per repeat; %llu differing hashes",
             per[3] - per[0], (unsigned long long)hash_diff);
    report(B, "wide", "hash compare: overhead / read-once", (per[3] - per[0]) / read_once_us,
           "x", 1.2, "max", note);
    if (bitwise_diff || hash_diff) {
        printf("wide   the fixed RMSNorm was not bitwise reproducible\n");
        B->failures++;
    }
    B->b->mem_free(B->ctx, j.x);
    B->b->mem_free(B->ctx, j.w);
    B->b->mem_free(B->ctx, j.y);
    B->b->mem_free(B->ctx, j.yref);
    B->b->mem_free(B->ctx, j.res);
    B->b->mem_free(B->ctx, j.slots);
}

/* ---- fill: rung-1 sentinel fill + verify ------------------------------------------------- */

struct fill_job {
    struct eng_kernel *fill, *check;
    eng_dptr p, res;
    uint64_t bytes, pattern;
    unsigned blocks;
    int which; /* 0 fill, 1 check, 2 both */
};

static void issue_fill(struct bench *B, void *arg)
{
    struct fill_job *j = arg;
    if (j->which != 1) {
        void *args[] = {&j->p, &j->bytes, &j->pattern};
        launch(B, j->fill, j->blocks, 256, args);
    }
    if (j->which != 0) {
        void *args[] = {&j->p, &j->bytes, &j->pattern, &j->res};
        launch(B, j->check, j->blocks, 256, args);
    }
}

static void bench_fill(struct bench *B)
{
    size_t bytes = B->quick ? GIB : 5 * GIB;
    struct fill_job j = {kernel(B, B->util, "kl_util_fill_pattern"),
                         kernel(B, B->util, "kl_util_check_pattern"), alloc(B, bytes),
                         alloc(B, 64), bytes, 0x7fa5a5a57fa5a5a5ULL, stream_blocks(B), 2};
    eng_dptr other = alloc(B, bytes);
    zero(B, j.res, 64);
    double bw = copy_bandwidth(B, bytes, other, j.p);
    int reps = B->quick ? 3 : 5;
    j.which = 0;
    double t_fill = time_median(B, issue_fill, &j, reps);
    j.which = 1;
    double t_check = time_median(B, issue_fill, &j, reps);
    j.which = 2;
    double t_both = time_median(B, issue_fill, &j, reps);
    sync_stream(B);
    uint64_t bad = read_word(B, j.res);
    double eff = 2.0 * (double)bytes / (t_both * 1e-3);
    char note[200];
    snprintf(note, sizeof note, "%.2f GiB: fill %.2f ms, verify %.2f ms, both %.2f ms; "
             "%llu bad words", (double)bytes / (double)GIB, t_fill, t_check, t_both,
             (unsigned long long)bad);
    report(B, "fill", "copy bandwidth (read+write), GB/s", bw / 1e9, "GB/s", 0, NULL, "");
    report(B, "fill", "fill+verify bandwidth, GB/s", eff / 1e9, "GB/s", 0, NULL, note);
    report(B, "fill", "fill+verify / copy bandwidth", eff / bw, "x", 0.8, "min", "");
    if (bad) {
        printf("fill   the verify kernel found %llu words that the fill did not write\n",
               (unsigned long long)bad);
        B->failures++;
    }
    B->b->mem_free(B->ctx, j.p);
    B->b->mem_free(B->ctx, other);
    B->b->mem_free(B->ctx, j.res);
}

/* ---- selftest: the backend calls the benchmarks do not use ------------------------------ */

/* Copies in both directions, two streams ordered by an event, a captured graph that must not run
 * before it is launched, and a launch refused for a missing kernel. Prints one line per check. */
static void selftest(struct bench *B)
{
    const size_t n = 1 << 20;
    uint32_t *host = malloc(n * 4), *back = malloc(n * 4);
    for (size_t i = 0; i < n; i++)
        host[i] = (uint32_t)(i * 2654435761u);
    eng_dptr a = alloc(B, n * 4), c = alloc(B, n * 4);
    int bad = 0;

    CHECK(B->b->memcpy_htod(B->ctx, a, host, n * 4, B->s, err, sizeof err), "htod");
    CHECK(B->b->memcpy_dtoh(B->ctx, back, a, n * 4, B->s, err, sizeof err), "dtoh");
    bool same = memcmp(host, back, n * 4) == 0;
    printf("selftest host->device->host round trip of 4 MiB: %s\n", same ? "ok" : "FAILED");
    bad += !same;

    /* Producer on stream 2 (a fill), consumer on B->s (a copy), ordered by an event. The
     * producer is queued behind a long kernel so that without the event the copy would win. */
    struct eng_stream *s2 = NULL;
    struct eng_event *ev = NULL;
    CHECK(B->b->stream_create(B->ctx, &s2, err, sizeof err), "stream 2");
    CHECK(B->b->event_create(B->ctx, &ev, err, sizeof err), "event");
    eng_dptr big = alloc(B, GIB);
    struct eng_kernel *pat = kernel(B, B->util, "kl_util_fill_pattern");
    struct eng_kernel *copy = kernel(B, B->local, "bench_copy16");
    uint64_t gb = GIB, pattern = 0x0123456789abcdefULL, nv = n * 4 / 16;
    const unsigned g1[3] = {stream_blocks(B), 1, 1}, b1[3] = {256, 1, 1};
    void *bigargs[] = {&big, &gb, &pattern};
    for (int i = 0; i < 8; i++)
        CHECK(B->b->launch(B->ctx, pat, g1, b1, 0, s2, bigargs, err, sizeof err), "launch");
    uint64_t bytes = n * 4;
    void *pargs[] = {&a, &bytes, &pattern};
    CHECK(B->b->launch(B->ctx, pat, g1, b1, 0, s2, pargs, err, sizeof err), "launch");
    CHECK(B->b->event_record(B->ctx, ev, s2, err, sizeof err), "event record");
    CHECK(B->b->stream_wait_event(B->ctx, B->s, ev, err, sizeof err), "stream wait");
    void *cargs[] = {&c, &a, &nv};
    CHECK(B->b->launch(B->ctx, copy, g1, b1, 0, B->s, cargs, err, sizeof err), "launch");
    CHECK(B->b->memcpy_dtoh(B->ctx, back, c, n * 4, B->s, err, sizeof err), "dtoh");
    CHECK(B->b->stream_sync(B->ctx, s2, err, sizeof err), "sync");
    bool ordered = true;
    for (size_t i = 0; i < n; i += 2)
        if (((uint64_t)back[i + 1] << 32 | back[i]) != pattern)
            ordered = false;
    printf("selftest consumer waits for a side stream's event: %s\n", ordered ? "ok" : "FAILED");
    bad += !ordered;

    /* Capture: the sentinel must survive until the graph is launched. */
    CHECK(B->b->memset_d8(B->ctx, c, 0xa5, n * 4, B->s, err, sizeof err), "memset");
    sync_stream(B);
    CHECK(B->b->graph_begin(B->ctx, B->s, err, sizeof err), "capture");
    CHECK(B->b->memset_d8(B->ctx, c, 0x00, n * 4, B->s, err, sizeof err), "memset in capture");
    CHECK(B->b->launch(B->ctx, copy, g1, b1, 0, B->s, cargs, err, sizeof err), "launch");
    struct eng_graph *g = NULL;
    CHECK(B->b->graph_end(B->ctx, B->s, &g, err, sizeof err), "capture");
    CHECK(B->b->memcpy_dtoh(B->ctx, back, c, 16, B->s, err, sizeof err), "dtoh");
    bool untouched = back[0] == 0xa5a5a5a5u && back[3] == 0xa5a5a5a5u;
    CHECK(B->b->graph_launch(B->ctx, g, B->s, err, sizeof err), "graph launch");
    CHECK(B->b->memcpy_dtoh(B->ctx, back, c, n * 4, B->s, err, sizeof err), "dtoh");
    bool ran = ((uint64_t)back[n - 1] << 32 | back[n - 2]) == pattern;
    printf("selftest captured work waits for the launch: %s; the replay ran: %s\n",
           untouched ? "ok" : "FAILED", ran ? "ok" : "FAILED");
    bad += !untouched + !ran;
    B->b->graph_destroy(B->ctx, g);

    struct eng_kernel *none = NULL;
    int rc = B->b->kernel_get(B->ctx, B->local, "no_such_kernel", &none, err, sizeof err);
    printf("selftest a missing entry point is refused: %s (%s)\n", rc ? "ok" : "FAILED", err);
    bad += rc == 0;

    B->b->event_destroy(B->ctx, ev);
    B->b->stream_destroy(B->ctx, s2);
    B->b->mem_free(B->ctx, big);
    B->b->mem_free(B->ctx, a);
    B->b->mem_free(B->ctx, c);
    free(host);
    free(back);
    report(B, "self", "failed backend checks", bad, "", 0, "max", "");
    B->failures += bad;
}

static void usage(void)
{
    fprintf(stderr, "usage: kbench [--backend cuda|hip] [--device I] [--json FILE] [--quick]\n"
                    "              [--bench-kl FILE] [selftest] [tiny] [wide] [fill]\n");
    exit(2);
}

int main(int argc, char **argv)
{
    eng_tables_install();
    struct bench B = {0};
    const char *backend = "cuda", *json = NULL, *local_path = "bench/bench.kl";
    int device = 0;
    bool want[4] = {false, false, false, false}, any = false;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (strcmp(a, "--backend") == 0 && i + 1 < argc)
            backend = argv[++i];
        else if (strcmp(a, "--device") == 0 && i + 1 < argc)
            device = atoi(argv[++i]);
        else if (strcmp(a, "--json") == 0 && i + 1 < argc)
            json = argv[++i];
        else if (strcmp(a, "--bench-kl") == 0 && i + 1 < argc)
            local_path = argv[++i];
        else if (strcmp(a, "--quick") == 0)
            B.quick = true;
        else if (strcmp(a, "tiny") == 0)
            want[0] = any = true;
        else if (strcmp(a, "wide") == 0)
            want[1] = any = true;
        else if (strcmp(a, "fill") == 0)
            want[2] = any = true;
        else if (strcmp(a, "selftest") == 0)
            want[3] = any = true;
        else
            usage();
    }
    if (!any)
        want[0] = want[1] = want[2] = want[3] = true;
    if (strcmp(backend, "cuda") == 0)
        B.b = &eng_backend_cuda;
    else if (strcmp(backend, "hip") == 0)
        B.b = &eng_backend_hip;
    else
        usage();

    CHECK(B.b->load(err, sizeof err), "loading the backend");
    CHECK(B.b->device_info(device, &B.info, err, sizeof err), "device info");
    CHECK(B.b->open(device, NULL, &B.ctx, err, sizeof err), "opening the device");
    CHECK(B.b->stream_create(B.ctx, &B.s, err, sizeof err), "stream");
    CHECK(B.b->event_create(B.ctx, &B.e0, err, sizeof err), "event");
    CHECK(B.b->event_create(B.ctx, &B.e1, err, sizeof err), "event");
    printf("kbench on %s %s (%s, %d CUs, %.1f GiB), %s, %s\n", B.b->name, B.info.name,
           B.info.target, B.info.compute_units, (double)B.info.mem_bytes / (double)GIB,
           B.info.driver_version, B.b->compiler_id());
    if (json) {
        B.json = fopen(json, "w");
        if (!B.json) {
            snprintf(err, sizeof err, "%s: cannot write", json);
            fatal("--json");
        }
        fprintf(B.json, "{\"tool\": \"kbench\", \"backend\": \"%s\", \"device\": \"%s\", "
                "\"target\": \"%s\", \"driver\": \"%s\", \"compiler\": \"%s\", \"quick\": %s, "
                "\"results\": [", B.b->name, B.info.name, B.info.target, B.info.driver_version,
                B.b->compiler_id(), B.quick ? "true" : "false");
    }
    B.util = load_embedded(&B, "kernels/util.kl");
    B.r6344 = load_embedded(&B, "kernels/aiter_6344.kl");
    char *local = read_text(local_path);
    B.local = load_source(&B, local_path, local);
    free(local);

    if (want[3])
        selftest(&B);
    if (want[0]) {
        bench_tiny(&B, true);
        bench_tiny(&B, false);
    }
    if (want[1])
        bench_wide(&B);
    if (want[2])
        bench_fill(&B);

    if (B.json) {
        fprintf(B.json, "\n], \"failures\": %d}\n", B.failures);
        fclose(B.json);
    }
    B.b->module_unload(B.ctx, B.util);
    B.b->module_unload(B.ctx, B.r6344);
    B.b->module_unload(B.ctx, B.local);
    B.b->event_destroy(B.ctx, B.e0);
    B.b->event_destroy(B.ctx, B.e1);
    B.b->stream_destroy(B.ctx, B.s);
    B.b->close(B.ctx);
    return B.failures ? 1 : 0;
}
