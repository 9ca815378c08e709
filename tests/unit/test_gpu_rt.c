/* The GPU runtime core (engine/backend/gpu_rt.h) against a fake runtime that records every call in
 * order: the sequences a backend's runtime sees (module load, kernel get, launch; capture,
 * instantiate, graph launch; events and timing; contexts made current only when they change),
 * and the error paths, which must return -1 with a message naming the call and the runtime's
 * own text and must neither leak nor free twice. Fake handles are heap blocks freed by their
 * destroy call, so the ASan build catches a handle the core forgets or destroys twice. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/codeobj/codeobj_target.h"
#include "engine/backend/gpu_rt.h"

/* Status codes of the fake runtime. Success is not 0, so a core that assumed 0 would fail. */
enum { FAKE_OK = 3, FAKE_NOT_READY = 600, FAKE_ALREADY = 704, FAKE_BROKEN = 77 };

static struct {
    char calls[64][160];
    int n;
    const char *fail;  /* the entry point that fails next, or NULL */
    int fail_status;   /* ... with this status (0: FAKE_BROKEN) */
    int not_ready;     /* event_elapsed answers "not ready" this many times first */
    int handles;       /* live fake handles */
    int serial;
} F;

struct fake_handle {
    char name[16];
};

static void record(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void record(const char *fmt, ...)
{
    assert_true(F.n < 64);
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(F.calls[F.n++], sizeof F.calls[0], fmt, ap);
    va_end(ap);
}

/* FAKE_OK, or the chosen status when entry is the one chosen to fail (once). */
static int status_of(const char *entry)
{
    if (!F.fail || strcmp(F.fail, entry) != 0)
        return FAKE_OK;
    F.fail = NULL;
    return F.fail_status ? F.fail_status : FAKE_BROKEN;
}

static void *new_handle(char kind)
{
    struct fake_handle *h = malloc(sizeof *h);
    assert_non_null(h);
    snprintf(h->name, sizeof h->name, "%c%d", kind, ++F.serial);
    F.handles++;
    return h;
}

static void free_handle(void *h)
{
    assert_non_null(h);
    F.handles--;
    free(h);
}

static const char *nm(const void *h)
{
    return h ? ((const struct fake_handle *)h)->name : "null";
}

/* ---- the fake entry points -------------------------------------------------------------- */

static void fake_error_string(int status, const char **name, const char **text)
{
    *name = status == FAKE_BROKEN ? "FAKE_ERROR_BROKEN" : NULL;
    *text = status == FAKE_BROKEN ? "the fake runtime broke" : NULL;
}

static int fake_ctx_acquire(int index, int *device, void **native)
{
    int rc = status_of("ctx_acquire");
    record("ctx_acquire %d", index);
    if (rc != FAKE_OK)
        return rc;
    *device = 100 + index;
    *native = new_handle('C');
    return rc;
}

static int fake_ctx_release(int device, void *native)
{
    record("ctx_release %d %s", device, nm(native));
    free_handle(native);
    return FAKE_OK;
}

static int fake_ctx_set_current(int device, void *native)
{
    record("set_current %d %s", device, nm(native));
    return status_of("set_current");
}

static int fake_peer_enable(int peer_device, void *peer_native)
{
    record("peer_enable %d %s", peer_device, nm(peer_native));
    return status_of("peer_enable");
}

static int fake_module_load(void **mod, const void *code)
{
    int rc = status_of("module_load");
    record("module_load \"%s\"", (const char *)code);
    if (rc == FAKE_OK)
        *mod = new_handle('M');
    return rc;
}

static int fake_module_unload(void *mod)
{
    record("module_unload %s", nm(mod));
    free_handle(mod);
    return FAKE_OK;
}

/* Functions belong to their module in both runtimes: not separate handles. */
static char fake_fn[] = "F";
static int fake_module_function(void **fn, void *mod, const char *name)
{
    record("module_function %s \"%s\"", nm(mod), name);
    *fn = fake_fn;
    return status_of("module_function");
}

/* A kernel of three parameters (pointer, pointer, int); past the last one the runtime says
 * FAKE_PARAM_END, as cuFuncGetParamInfo says CUDA_ERROR_INVALID_VALUE. */
enum { FAKE_PARAM_END = 1 };
static int fake_param_info(void *fn, size_t index, size_t *offset, size_t *size)
{
    record("param_info %s %zu", fn == fake_fn ? "F" : "?", index);
    static const size_t sizes[] = {8, 8, 4};
    if (index >= 3)
        return FAKE_PARAM_END;
    *offset = index * 8;
    *size = sizes[index];
    return status_of("param_info");
}

static int fake_module_global(uint64_t *addr, size_t *bytes, void *mod, const char *name)
{
    record("module_global %s \"%s\"", nm(mod), name);
    *addr = 0x7000;
    *bytes = 8;
    return status_of("module_global");
}

static int fake_mem_alloc(uint64_t *out, size_t bytes)
{
    record("mem_alloc %zu", bytes);
    int rc = status_of("mem_alloc");
    *out = rc == FAKE_OK ? 0x1000 : 0;
    return rc;
}

static int fake_mem_free(uint64_t p)
{
    record("mem_free 0x%llx", (unsigned long long)p);
    return FAKE_OK;
}

static int fake_memcpy_htod(uint64_t dst, const void *src, size_t bytes, void *stream)
{
    record("memcpy_htod 0x%llx \"%s\" %zu %s", (unsigned long long)dst, (const char *)src, bytes,
           nm(stream));
    return status_of("memcpy_htod");
}

static int fake_memcpy_dtoh(void *dst, uint64_t src, size_t bytes, void *stream)
{
    record("memcpy_dtoh 0x%llx %zu %s", (unsigned long long)src, bytes, nm(stream));
    memset(dst, 0x5a, bytes);
    return status_of("memcpy_dtoh");
}

static int fake_memset_d8(uint64_t dst, unsigned char value, size_t bytes, void *stream)
{
    record("memset_d8 0x%llx %u %zu %s", (unsigned long long)dst, value, bytes, nm(stream));
    return status_of("memset_d8");
}

static int fake_stream_create(void **stream, unsigned flags)
{
    int rc = status_of("stream_create");
    record("stream_create flags=%u", flags);
    if (rc == FAKE_OK)
        *stream = new_handle('S');
    return rc;
}

static int fake_stream_destroy(void *stream)
{
    record("stream_destroy %s", nm(stream));
    free_handle(stream);
    return FAKE_OK;
}

static int fake_stream_sync(void *stream)
{
    record("stream_sync %s", nm(stream));
    return status_of("stream_sync");
}

static int fake_stream_wait_event(void *stream, void *event, unsigned flags)
{
    record("stream_wait_event %s %s flags=%u", nm(stream), nm(event), flags);
    return status_of("stream_wait_event");
}

static int fake_event_create(void **event)
{
    int rc = status_of("event_create");
    record("event_create");
    if (rc == FAKE_OK)
        *event = new_handle('E');
    return rc;
}

static int fake_event_destroy(void *event)
{
    record("event_destroy %s", nm(event));
    free_handle(event);
    return FAKE_OK;
}

static int fake_event_record(void *event, void *stream)
{
    record("event_record %s %s", nm(event), nm(stream));
    return status_of("event_record");
}

static int fake_event_elapsed(float *ms, void *start, void *end)
{
    record("event_elapsed %s %s", nm(start), nm(end));
    if (F.not_ready > 0) {
        F.not_ready--;
        return FAKE_NOT_READY;
    }
    *ms = 1.5f;
    return status_of("event_elapsed");
}

static int fake_event_sync(void *event)
{
    record("event_sync %s", nm(event));
    return status_of("event_sync");
}

static int fake_launch(void *fn, unsigned gx, unsigned gy, unsigned gz, unsigned bx,
                       unsigned by, unsigned bz, unsigned shared_bytes, void *stream,
                       void **args, void **extra)
{
    record("launch %s grid=%ux%ux%u block=%ux%ux%u shared=%u %s arg0=%d extra=%s",
           (const char *)fn, gx, gy, gz, bx, by, bz, shared_bytes, nm(stream),
           args ? *(const int *)args[0] : -1, extra ? "set" : "null");
    return status_of("launch");
}

static int fake_dyn_shared_opt_in(void *fn, int bytes)
{
    record("dyn_shared_opt_in %s %d", (const char *)fn, bytes);
    return status_of("dyn_shared_opt_in");
}

/* Attribute ids unlike CUDA's, so a core that assumed CUDA's numbers would ask for the wrong
 * ones: registers 40, 2048 static shared bytes, 16 local bytes, at most 768 threads. */
enum { FAKE_ATTR_REGS = 11, FAKE_ATTR_SHARED = 12, FAKE_ATTR_LOCAL = 13, FAKE_ATTR_THREADS = 14 };
static int fake_func_attr(int *value, int attr, void *fn)
{
    record("func_attr %s %d", (const char *)fn, attr);
    *value = attr == FAKE_ATTR_REGS ? 40 : attr == FAKE_ATTR_SHARED ? 2048
           : attr == FAKE_ATTR_LOCAL ? 16 : attr == FAKE_ATTR_THREADS ? 768 : -7;
    return status_of("func_attr");
}

static int fake_capture_begin(void *stream, int mode)
{
    record("capture_begin %s mode=%d", nm(stream), mode);
    return status_of("capture_begin");
}

static int fake_capture_end(void *stream, void **graph)
{
    int rc = status_of("capture_end");
    record("capture_end %s", nm(stream));
    if (rc == FAKE_OK)
        *graph = new_handle('G');
    return rc;
}

static int fake_graph_instantiate_flags(void **exec, void *graph, unsigned long long flags)
{
    int rc = status_of("graph_instantiate_flags");
    record("graph_instantiate_flags %s flags=%llu", nm(graph), flags);
    if (rc == FAKE_OK)
        *exec = new_handle('X');
    return rc;
}

static int fake_graph_instantiate(void **exec, void *graph, void **error_node, char *log,
                                  size_t loglen)
{
    int rc = status_of("graph_instantiate");
    record("graph_instantiate %s node=%s log=%s", nm(graph), error_node ? "set" : "null",
           log && loglen ? "set" : "null");
    if (rc == FAKE_OK)
        *exec = new_handle('X');
    return rc;
}

static int fake_graph_launch(void *exec, void *stream)
{
    record("graph_launch %s %s", nm(exec), nm(stream));
    return status_of("graph_launch");
}

static int fake_graph_exec_destroy(void *exec)
{
    record("graph_exec_destroy %s", nm(exec));
    free_handle(exec);
    return FAKE_OK;
}

static int fake_graph_destroy(void *graph)
{
    record("graph_destroy %s", nm(graph));
    free_handle(graph);
    return FAKE_OK;
}

/* Shaped like HIP: no context object, the 2^32 grid limit, no shared-memory opt-in. */
static const struct gpu_rt_api fake_hip = {
    .runtime = "FAKE",
    .status_type = "fakeStatus",
    .library = "the fake runtime",
    .success = FAKE_OK,
    .not_ready = FAKE_NOT_READY,
    .peer_already_enabled = FAKE_ALREADY,
    .stream_flags = 11,
    .capture_mode = 22,
    .grid_below_2_32 = true,
    .error_string = fake_error_string,
    .ctx_set_current = fake_ctx_set_current,
    .peer_enable = fake_peer_enable,
    .module_load = fake_module_load,
    .module_unload = fake_module_unload,
    .module_function = fake_module_function,
    .module_global = fake_module_global,
    .mem_alloc = fake_mem_alloc,
    .mem_free = fake_mem_free,
    .memcpy_htod = fake_memcpy_htod,
    .memcpy_dtoh = fake_memcpy_dtoh,
    .memset_d8 = fake_memset_d8,
    .stream_create = fake_stream_create,
    .stream_destroy = fake_stream_destroy,
    .stream_sync = fake_stream_sync,
    .stream_wait_event = fake_stream_wait_event,
    .event_create = fake_event_create,
    .event_destroy = fake_event_destroy,
    .event_record = fake_event_record,
    .event_elapsed = fake_event_elapsed,
    .event_sync = fake_event_sync,
    .launch = fake_launch,
    .capture_begin = fake_capture_begin,
    .capture_end = fake_capture_end,
    .graph_instantiate_flags = fake_graph_instantiate_flags,
    .graph_instantiate = fake_graph_instantiate,
    .graph_launch = fake_graph_launch,
    .graph_exec_destroy = fake_graph_exec_destroy,
    .graph_destroy = fake_graph_destroy,
    .call = {
        .ctx_acquire = "fakeCtxAcquire",
        .ctx_set_current = "fakeSetCurrent",
        .peer_enable = "fakeEnablePeer",
        .module_load = "fakeModuleLoad",
        .module_function = "fakeGetFunction",
        .module_global = "fakeGetGlobal",
        .mem_alloc = "fakeMalloc",
        .memcpy_htod = "fakeMemcpyHtoD",
        .memcpy_dtoh = "fakeMemcpyDtoH",
        .memset_d8 = "fakeMemset",
        .stream_create = "fakeStreamCreate",
        .stream_sync = "fakeStreamSync",
        .stream_wait_event = "fakeStreamWaitEvent",
        .event_create = "fakeEventCreate",
        .event_record = "fakeEventRecord",
        .event_elapsed = "fakeEventElapsed",
        .event_sync = "fakeEventSync",
        .launch = "fakeLaunch",
        .dyn_shared_opt_in = "fakeOptIn",
        .capture_begin = "fakeBeginCapture",
        .capture_end = "fakeEndCapture",
        .graph_instantiate_flags = "fakeInstantiateWithFlags",
        .graph_instantiate = "fakeInstantiate",
        .graph_launch = "fakeGraphLaunch",
    },
};

/* Shaped like CUDA: a context per device (acquired, released), a dynamic shared memory opt-in
 * above 48 KiB, and only the older graph instantiation. */
static struct gpu_rt_api fake_cuda;

static int setup(void **state)
{
    (void)state;
    memset(&F, 0, sizeof F);
    fake_cuda = fake_hip;
    fake_cuda.grid_below_2_32 = false;
    fake_cuda.ctx_acquire = fake_ctx_acquire;
    fake_cuda.ctx_release = fake_ctx_release;
    fake_cuda.dyn_shared_default = 48 * 1024;
    fake_cuda.dyn_shared_opt_in = fake_dyn_shared_opt_in;
    fake_cuda.func_attr = fake_func_attr;
    fake_cuda.attr_registers = FAKE_ATTR_REGS;
    fake_cuda.attr_shared_bytes = FAKE_ATTR_SHARED;
    fake_cuda.attr_local_bytes = FAKE_ATTR_LOCAL;
    fake_cuda.attr_max_threads = FAKE_ATTR_THREADS;
    fake_cuda.graph_instantiate_flags = NULL;
    return 0;
}

/* Every fake handle was destroyed exactly once (ASan reports a second free itself). */
static int teardown(void **state)
{
    (void)state;
    assert_int_equal(F.handles, 0);
    return 0;
}

/* The calls recorded since the last check are exactly want (NULL-terminated); then forgets. */
static void expect_calls(const char *const *want)
{
    int n = 0;
    while (want[n])
        n++;
    for (int i = 0; i < F.n || i < n; i++) {
        const char *got = i < F.n ? F.calls[i] : "(nothing)";
        const char *exp = i < n ? want[i] : "(nothing)";
        if (strcmp(got, exp) != 0) {
            for (int j = 0; j < F.n; j++)
                print_message("    recorded %d: %s\n", j, F.calls[j]);
            fail_msg("call %d: got '%s', want '%s'", i, got, exp);
        }
    }
    F.n = 0;
}
#define EXPECT(...) expect_calls((const char *const[]){__VA_ARGS__, NULL})
#define NOTHING() expect_calls((const char *const[]){NULL})

static struct eng_ctx *open_dev(const struct gpu_rt_api *rt, int index)
{
    struct eng_ctx *ctx = NULL;
    char err[256] = "";
    assert_int_equal(gpu_rt_open(rt, index, &ctx, err, sizeof err), 0);
    assert_non_null(ctx);
    return ctx;
}

/* Loads code and gets entry from it; the calls it makes are forgotten. */
static struct eng_kernel *load_kernel(struct eng_ctx *ctx, const char *code, const char *entry,
                                      struct eng_module **mod)
{
    char err[256] = "";
    struct eng_kernel *k = NULL;
    assert_int_equal(gpu_rt_module_load(ctx, code, strlen(code) + 1, mod, err, sizeof err), 0);
    assert_int_equal(gpu_rt_kernel_get(ctx, *mod, entry, &k, err, sizeof err), 0);
    F.n = 0;
    return k;
}

/* ---- sequences -------------------------------------------------------------------------- */

/* An ELF header as a GPU compiler writes it: machine 224 (AMD) or 190 (CUDA), ABI version, and
 * the processor in e_flags. */
static void gpu_elf(unsigned char *h, unsigned machine, unsigned abi, unsigned flags)
{
    memset(h, 0, 64);
    memcpy(h, "\x7f" "ELF", 4);
    h[4] = 2, h[5] = 1, h[6] = 1, h[7] = machine == 224 ? 64 : 0x41, h[8] = (unsigned char)abi;
    h[18] = (unsigned char)(machine & 0xff);
    for (int i = 0; i < 4; i++)
        h[48 + i] = (unsigned char)(flags >> (8 * i));
}

/* PTX read from a file ends without a NUL; the runtime reads it as a C string, so it gets a
 * terminated copy (the fake records the string it was given), and no byte past the image is
 * read (the ASan build). */
static void ptx_image_loaded_terminated(void **state)
{
    (void)state;
    static const char ptx[] = ".version 8.0\n.target sm_90\n.entry k()\n{\n}\n";
    size_t len = sizeof ptx - 1;
    char *image = malloc(len); /* exactly the file's bytes */
    assert_non_null(image);
    memcpy(image, ptx, len);
    char err[256] = "";
    struct eng_module *mod = NULL;
    struct eng_ctx *ctx = open_dev(&fake_cuda, 0);
    F.n = 0;
    assert_int_equal(gpu_rt_module_load(ctx, image, len, &mod, err, sizeof err), 0);
    char want[160];
    snprintf(want, sizeof want, "module_load \"%.*s\"", (int)(sizeof F.calls[0] - 16), ptx);
    assert_string_equal(F.calls[0], want);
    gpu_rt_module_unload(ctx, mod);
    gpu_rt_close(ctx);
    free(image);
    F.n = 0;
}

/* A code object built for another processor is refused, with both names, before the runtime
 * sees it; one for the device's own (or, on CUDA, a compatible earlier minor) loads. */
static void code_object_for_another_target_refused(void **state)
{
    (void)state;
    char err[256] = "";
    unsigned char h[64];
    struct eng_module *mod = NULL;
    struct eng_ctx *ctx = open_dev(&fake_hip, 0);
    EXPECT("set_current 0 null");
    snprintf(ctx->target, sizeof ctx->target, "gfx1250");
    gpu_elf(h, 224, 4, 0x54c); /* gfx942, xnack and sramecc bits above the processor byte */
    assert_int_equal(gpu_rt_module_load(ctx, h, sizeof h, &mod, err, sizeof err), -1);
    assert_string_equal(err, "the code object was built for gfx942 and this device is gfx1250: "
                             "refused rather than launched (compile for gfx1250)");
    assert_null(mod);
    NOTHING();
    gpu_elf(h, 224, 4, 0x49);
    assert_int_equal(gpu_rt_module_load(ctx, h, sizeof h, &mod, err, sizeof err), 0);
    gpu_rt_module_unload(ctx, mod);
    F.n = 0;
    /* what names no processor this reader knows is the runtime's to judge */
    assert_int_equal(gpu_rt_module_load(ctx, "CODE", 5, &mod, err, sizeof err), 0);
    gpu_rt_module_unload(ctx, mod);
    gpu_rt_close(ctx);
    F.n = 0;

    ctx = open_dev(&fake_cuda, 0);
    F.n = 0;
    snprintf(ctx->target, sizeof ctx->target, "sm_86");
    gpu_elf(h, 190, 8, 0x6005a04); /* NVRTC 13: sm_90 in bits 8-15 */
    assert_int_equal(gpu_rt_module_load(ctx, h, sizeof h, &mod, err, sizeof err), -1);
    assert_non_null(strstr(err, "built for sm_90 and this device is sm_86"));
    gpu_elf(h, 190, 7, 0x590059); /* an older cubin: sm_89 in bits 0-7 */
    assert_int_equal(gpu_rt_module_load(ctx, h, sizeof h, &mod, err, sizeof err), -1);
    assert_non_null(strstr(err, "built for sm_89 and this device is sm_86"));
    NOTHING();
    gpu_elf(h, 190, 8, 0x6005004); /* sm_80 runs on sm_86 */
    assert_int_equal(gpu_rt_module_load(ctx, h, sizeof h, &mod, err, sizeof err), 0);
    gpu_rt_module_unload(ctx, mod);
    gpu_rt_close(ctx);
    F.n = 0;

    assert_true(eng_codeobj_runs_on("sm_80", "sm_80"));
    assert_false(eng_codeobj_runs_on("sm_80", "sm_90"));
    assert_false(eng_codeobj_runs_on("gfx942", "gfx950"));
    char t[32];
    assert_int_equal(eng_codeobj_target(h, 63, t, sizeof t), 1); /* too short */
}

static void module_kernel_launch(void **state)
{
    (void)state;
    char err[256] = "";
    struct eng_ctx *ctx = open_dev(&fake_hip, 0);
    EXPECT("set_current 0 null");

    struct eng_module *mod = NULL;
    assert_int_equal(gpu_rt_module_load(ctx, "CODE", 5, &mod, err, sizeof err), 0);
    struct eng_kernel *k = NULL;
    assert_int_equal(gpu_rt_kernel_get(ctx, mod, "gemm", &k, err, sizeof err), 0);
    int n = 7;
    void *args[] = {&n};
    const unsigned grid[3] = {4, 2, 1}, block[3] = {64, 1, 1};
    assert_int_equal(gpu_rt_launch(ctx, k, grid, block, 256, NULL, args, err, sizeof err), 0);
    gpu_rt_module_unload(ctx, mod);
    gpu_rt_close(ctx);
    /* The device is set once, at open; close waits for the null stream. */
    EXPECT("module_load \"CODE\"", "module_function M1 \"gemm\"",
           "launch F grid=4x2x1 block=64x1x1 shared=256 null arg0=7 extra=null",
           "module_unload M1", "stream_sync null");
}

/* A kernel's resources come from the runtime's function attributes, by the runtime's own ids;
 * a runtime without them says nothing, and one attribute it refuses stays unknown, never 0. */
static void kernel_resources(void **state)
{
    (void)state;
    char err[256] = "";
    struct eng_kernel_resources r;
    struct eng_ctx *ctx = open_dev(&fake_cuda, 0);
    struct eng_module *mod = NULL;
    struct eng_kernel *k = NULL;
    assert_int_equal(gpu_rt_module_load(ctx, "CODE", 5, &mod, err, sizeof err), 0);
    assert_int_equal(gpu_rt_kernel_get(ctx, mod, "gemm", &k, err, sizeof err), 0);
    F.n = 0; /* the opening calls are another test's */
    assert_int_equal(gpu_rt_kernel_resources(k, &r), 0);
    assert_int_equal(r.registers, 40);
    assert_int_equal(r.shared_bytes, 2048);
    assert_int_equal(r.local_bytes, 16);
    assert_int_equal(r.max_threads, 768);
    EXPECT("func_attr F 11", "func_attr F 12", "func_attr F 13", "func_attr F 14");
    F.fail = "func_attr"; /* the first one, registers, is refused */
    assert_int_equal(gpu_rt_kernel_resources(k, &r), 0);
    assert_int_equal(r.registers, -1);
    assert_int_equal(r.shared_bytes, 2048);
    EXPECT("func_attr F 11", "func_attr F 12", "func_attr F 13", "func_attr F 14");
    gpu_rt_module_unload(ctx, mod);
    gpu_rt_close(ctx);
    F.n = 0;

    ctx = open_dev(&fake_hip, 0); /* no function attributes: nothing is claimed */
    assert_int_equal(gpu_rt_module_load(ctx, "CODE", 5, &mod, err, sizeof err), 0);
    assert_int_equal(gpu_rt_kernel_get(ctx, mod, "gemm", &k, err, sizeof err), 0);
    F.n = 0;
    assert_int_equal(gpu_rt_kernel_resources(k, &r), -1);
    assert_int_equal(r.registers, -1);
    assert_int_equal(r.max_threads, -1);
    NOTHING();
    gpu_rt_module_unload(ctx, mod);
    gpu_rt_close(ctx);
    F.n = 0;
}

static void memory_and_copies(void **state)
{
    (void)state;
    char err[256] = "";
    struct eng_ctx *ctx = open_dev(&fake_hip, 0);
    EXPECT("set_current 0 null");
    eng_dptr p = 0;
    assert_int_equal(gpu_rt_mem_alloc(ctx, 0, &p, err, sizeof err), 0);
    assert_int_equal(p, 0x1000);
    struct eng_stream *s = NULL;
    assert_int_equal(gpu_rt_stream_create(ctx, &s, err, sizeof err), 0);
    assert_int_equal(gpu_rt_memcpy_htod(ctx, p, "abc", 4, s, err, sizeof err), 0);
    char back[4];
    assert_int_equal(gpu_rt_memcpy_dtoh(ctx, back, p, 4, NULL, err, sizeof err), 0);
    assert_int_equal(back[0], 0x5a);
    assert_int_equal(gpu_rt_memset_d8(ctx, p, 0xff, 4, s, err, sizeof err), 0);
    /* The runtime's own handle, for handing to a vendor library. */
    assert_string_equal(nm(gpu_rt_stream_native(ctx, s)), "S1");
    assert_null(gpu_rt_stream_native(ctx, NULL));
    gpu_rt_mem_free(ctx, p);
    gpu_rt_mem_free(ctx, 0);
    gpu_rt_stream_destroy(ctx, s);
    gpu_rt_close(ctx);
    /* Zero bytes still allocates one; a copy returns when its stream is done; a memset does
     * not wait; freeing address 0 calls nothing. */
    EXPECT("mem_alloc 1", "stream_create flags=11", "memcpy_htod 0x1000 \"abc\" 4 S1",
           "stream_sync S1", "memcpy_dtoh 0x1000 4 null", "stream_sync null",
           "memset_d8 0x1000 255 4 S1", "mem_free 0x1000", "stream_destroy S1",
           "stream_sync null");
}

static void graph_capture(void **state)
{
    (void)state;
    char err[256] = "";
    struct eng_ctx *ctx = open_dev(&fake_hip, 0);
    struct eng_module *mod = NULL;
    struct eng_kernel *k = load_kernel(ctx, "CODE", "step", &mod);
    struct eng_stream *s = NULL;
    assert_int_equal(gpu_rt_stream_create(ctx, &s, err, sizeof err), 0);
    F.n = 0;

    int a = 1, b = 2;
    void *args_a[] = {&a}, *args_b[] = {&b};
    const unsigned grid[3] = {8, 1, 1}, block[3] = {32, 1, 1};
    assert_int_equal(gpu_rt_graph_begin(ctx, s, err, sizeof err), 0);
    assert_int_equal(gpu_rt_memcpy_htod(ctx, 0x1000, "in", 3, s, err, sizeof err), 0);
    assert_int_equal(gpu_rt_launch(ctx, k, grid, block, 0, s, args_a, err, sizeof err), 0);
    assert_int_equal(gpu_rt_launch(ctx, k, grid, block, 0, s, args_b, err, sizeof err), 0);
    struct eng_graph *g = NULL;
    assert_int_equal(gpu_rt_graph_end(ctx, s, &g, err, sizeof err), 0);
    assert_non_null(g);
    /* While capturing, the copy is recorded, not waited for. */
    EXPECT("capture_begin S2 mode=22", "memcpy_htod 0x1000 \"in\" 3 S2",
           "launch F grid=8x1x1 block=32x1x1 shared=0 S2 arg0=1 extra=null",
           "launch F grid=8x1x1 block=32x1x1 shared=0 S2 arg0=2 extra=null", "capture_end S2",
           "graph_instantiate_flags G3 flags=0");

    assert_int_equal(gpu_rt_graph_launch(ctx, g, s, err, sizeof err), 0);
    assert_int_equal(gpu_rt_graph_launch(ctx, g, s, err, sizeof err), 0);
    /* After capture a copy waits again. */
    assert_int_equal(gpu_rt_memcpy_htod(ctx, 0x1000, "in", 3, s, err, sizeof err), 0);
    gpu_rt_graph_destroy(ctx, g);
    gpu_rt_stream_destroy(ctx, s);
    gpu_rt_module_unload(ctx, mod);
    gpu_rt_close(ctx);
    EXPECT("graph_launch X4 S2", "graph_launch X4 S2", "memcpy_htod 0x1000 \"in\" 3 S2",
           "stream_sync S2", "graph_exec_destroy X4", "graph_destroy G3", "stream_destroy S2",
           "module_unload M1", "stream_sync null");
}

static void graph_older_instantiate(void **state)
{
    (void)state;
    char err[256] = "";
    struct eng_ctx *ctx = open_dev(&fake_cuda, 0);
    struct eng_stream *s = NULL;
    assert_int_equal(gpu_rt_stream_create(ctx, &s, err, sizeof err), 0);
    struct eng_graph *g = NULL;
    assert_int_equal(gpu_rt_graph_begin(ctx, s, err, sizeof err), 0);
    assert_int_equal(gpu_rt_graph_end(ctx, s, &g, err, sizeof err), 0);
    gpu_rt_graph_destroy(ctx, g);
    gpu_rt_stream_destroy(ctx, s);
    gpu_rt_close(ctx);
    EXPECT("ctx_acquire 0", "set_current 100 C1", "stream_create flags=11",
           "capture_begin S2 mode=22", "capture_end S2",
           "graph_instantiate G3 node=null log=set", "graph_exec_destroy X4",
           "graph_destroy G3", "stream_destroy S2", "stream_sync null",
           "ctx_release 100 C1");
}

static void events_and_timing(void **state)
{
    (void)state;
    char err[256] = "";
    struct eng_ctx *ctx = open_dev(&fake_hip, 0);
    struct eng_stream *s = NULL;
    struct eng_event *e0 = NULL, *e1 = NULL;
    assert_int_equal(gpu_rt_stream_create(ctx, &s, err, sizeof err), 0);
    assert_int_equal(gpu_rt_event_create(ctx, &e0, err, sizeof err), 0);
    assert_int_equal(gpu_rt_event_create(ctx, &e1, err, sizeof err), 0);
    F.n = 0;
    assert_int_equal(gpu_rt_event_record(ctx, e0, s, err, sizeof err), 0);
    assert_int_equal(gpu_rt_event_record(ctx, e1, s, err, sizeof err), 0);
    assert_int_equal(gpu_rt_stream_wait_event(ctx, NULL, e1, err, sizeof err), 0);
    float ms = -1.0f;
    F.not_ready = 1;
    assert_int_equal(gpu_rt_event_elapsed_ms(ctx, e0, e1, &ms, err, sizeof err), 0);
    assert_true(ms > 1.49f && ms < 1.51f);
    assert_int_equal(gpu_rt_event_elapsed_ms(ctx, e0, e1, &ms, err, sizeof err), 0);
    gpu_rt_event_destroy(ctx, e0);
    gpu_rt_event_destroy(ctx, e1);
    gpu_rt_stream_destroy(ctx, s);
    gpu_rt_close(ctx);
    /* "Not ready" waits for the end event and asks again; a finished interval asks once. */
    EXPECT("event_record E2 S1", "event_record E3 S1", "stream_wait_event null E3 flags=0",
           "event_elapsed E2 E3", "event_sync E3", "event_elapsed E2 E3",
           "event_elapsed E2 E3", "event_destroy E2", "event_destroy E3", "stream_destroy S1",
           "stream_sync null");
}

static void context_made_current_only_when_it_changes(void **state)
{
    (void)state;
    char err[256] = "";
    struct eng_ctx *a = open_dev(&fake_cuda, 0);
    struct eng_ctx *b = open_dev(&fake_cuda, 1);
    eng_dptr p;
    assert_int_equal(gpu_rt_mem_alloc(a, 8, &p, err, sizeof err), 0);
    assert_int_equal(gpu_rt_mem_alloc(a, 8, &p, err, sizeof err), 0);
    assert_int_equal(gpu_rt_mem_alloc(b, 8, &p, err, sizeof err), 0);
    assert_int_equal(gpu_rt_mem_alloc(a, 8, &p, err, sizeof err), 0);
    /* Enabling a device's own memory calls nothing; a peer is enabled from a's context. */
    assert_int_equal(gpu_rt_peer_enable(a, a, err, sizeof err), 0);
    assert_int_equal(gpu_rt_peer_enable(a, b, err, sizeof err), 0);
    gpu_rt_close(b);
    gpu_rt_close(a);
    EXPECT("ctx_acquire 0", "set_current 100 C1", "ctx_acquire 1", "set_current 101 C2",
           "set_current 100 C1", "mem_alloc 8", "mem_alloc 8", "set_current 101 C2",
           "mem_alloc 8", "set_current 100 C1", "mem_alloc 8", "peer_enable 101 C2",
           "set_current 101 C2", "stream_sync null", "ctx_release 101 C2", "set_current 100 C1",
           "stream_sync null", "ctx_release 100 C1");
    /* A peer already enabled is not an error; any other status is. */
    a = open_dev(&fake_hip, 0);
    b = open_dev(&fake_hip, 1);
    F.fail = "peer_enable";
    F.fail_status = FAKE_ALREADY;
    assert_int_equal(gpu_rt_peer_enable(a, b, err, sizeof err), 0);
    F.fail = "peer_enable";
    F.fail_status = FAKE_BROKEN;
    assert_int_equal(gpu_rt_peer_enable(a, b, err, sizeof err), -1);
    assert_string_equal(err, "fakeEnablePeer failed: the fake runtime broke "
                             "(FAKE_ERROR_BROKEN, 77)");
    gpu_rt_close(b);
    gpu_rt_close(a);
}

static void dynamic_shared_opt_in_once(void **state)
{
    (void)state;
    char err[256] = "";
    struct eng_ctx *ctx = open_dev(&fake_cuda, 0);
    struct eng_module *mod = NULL;
    struct eng_kernel *k = load_kernel(ctx, "CUBIN", "big", &mod);
    int v = 3;
    void *args[] = {&v};
    const unsigned grid[3] = {1, 1, 1}, block[3] = {128, 1, 1};
    assert_int_equal(gpu_rt_launch(ctx, k, grid, block, 48 * 1024, NULL, args, err, sizeof err),
                     0);
    assert_int_equal(gpu_rt_launch(ctx, k, grid, block, 96 * 1024, NULL, args, err, sizeof err),
                     0);
    assert_int_equal(gpu_rt_launch(ctx, k, grid, block, 64 * 1024, NULL, args, err, sizeof err),
                     0);
    gpu_rt_module_unload(ctx, mod);
    gpu_rt_close(ctx);
    EXPECT("launch F grid=1x1x1 block=128x1x1 shared=49152 null arg0=3 extra=null",
           "dyn_shared_opt_in F 98304",
           "launch F grid=1x1x1 block=128x1x1 shared=98304 null arg0=3 extra=null",
           "launch F grid=1x1x1 block=128x1x1 shared=65536 null arg0=3 extra=null",
           "module_unload M2", "stream_sync null", "ctx_release 100 C1");
}

static void module_symbol_address(void **state)
{
    (void)state;
    char err[256] = "";
    struct eng_ctx *ctx = open_dev(&fake_hip, 0);
    struct eng_module *mod = NULL;
    assert_int_equal(gpu_rt_module_load(ctx, "CODE", 5, &mod, err, sizeof err), 0);
    void *addr = NULL;
    assert_int_equal(gpu_rt_module_symbol(ctx, mod, "counter", &addr, err, sizeof err), 0);
    assert_ptr_equal(addr, (void *)(uintptr_t)0x7000);
    F.fail = "module_global";
    assert_int_equal(gpu_rt_module_symbol(ctx, mod, "nope", &addr, err, sizeof err), -1);
    assert_null(addr);
    assert_string_equal(err, "fakeGetGlobal(\"nope\") failed: the fake runtime broke "
                             "(FAKE_ERROR_BROKEN, 77)");
    gpu_rt_module_unload(ctx, mod);
    gpu_rt_close(ctx);
    EXPECT("set_current 0 null", "module_load \"CODE\"", "module_global M1 \"counter\"",
           "module_global M1 \"nope\"", "module_unload M1", "stream_sync null");
}

/* Where the runtime can say, a kernel's parameters are counted and sized; where it cannot
 * (no entry, or an error other than "past the last"), nothing is claimed (-1). */
static void kernel_params_counted(void **state)
{
    (void)state;
    char err[256] = "";
    struct gpu_rt_api rt = fake_cuda;
    rt.param_info = fake_param_info;
    rt.param_end = FAKE_PARAM_END;
    struct eng_ctx *ctx = open_dev(&rt, 0);
    struct eng_module *mod = NULL;
    struct eng_kernel *k = NULL;
    assert_int_equal(gpu_rt_module_load(ctx, "CODE", 5, &mod, err, sizeof err), 0);
    assert_int_equal(gpu_rt_kernel_get(ctx, mod, "kern", &k, err, sizeof err), 0);
    size_t sizes[8] = {0};
    assert_int_equal(gpu_rt_kernel_params(k, sizes, 8), 3);
    assert_int_equal(sizes[0], 8);
    assert_int_equal(sizes[1], 8);
    assert_int_equal(sizes[2], 4);
    F.fail = "param_info";
    assert_int_equal(gpu_rt_kernel_params(k, sizes, 8), -1);
    rt.param_info = NULL;
    assert_int_equal(gpu_rt_kernel_params(k, sizes, 8), -1);
    gpu_rt_module_unload(ctx, mod);
    gpu_rt_close(ctx);
    F.n = 0; /* the sequence is not what this test is about */
}

/* ---- error paths ------------------------------------------------------------------------ */

#define BROKE "failed: the fake runtime broke (FAKE_ERROR_BROKEN, 77)"

static void failing_calls_name_the_call(void **state)
{
    (void)state;
    char err[256] = "";
    struct eng_ctx *ctx = open_dev(&fake_hip, 0);

    eng_dptr p = 99;
    F.fail = "mem_alloc";
    assert_int_equal(gpu_rt_mem_alloc(ctx, 1024, &p, err, sizeof err), -1);
    assert_int_equal(p, 0);
    assert_string_equal(err, "fakeMalloc(1024 bytes) " BROKE);

    struct eng_module *mod = (struct eng_module *)&p;
    F.fail = "module_load";
    assert_int_equal(gpu_rt_module_load(ctx, "BAD", 4, &mod, err, sizeof err), -1);
    assert_null(mod);
    assert_string_equal(err, "fakeModuleLoad " BROKE);

    assert_int_equal(gpu_rt_module_load(ctx, "CODE", 5, &mod, err, sizeof err), 0);
    struct eng_kernel *k = (struct eng_kernel *)&p;
    F.fail = "module_function";
    assert_int_equal(gpu_rt_kernel_get(ctx, mod, "missing", &k, err, sizeof err), -1);
    assert_null(k);
    assert_string_equal(err, "fakeGetFunction(\"missing\") " BROKE);

    struct eng_stream *s = (struct eng_stream *)&p;
    F.fail = "stream_create";
    assert_int_equal(gpu_rt_stream_create(ctx, &s, err, sizeof err), -1);
    assert_null(s);
    assert_string_equal(err, "fakeStreamCreate " BROKE);

    struct eng_event *e = (struct eng_event *)&p;
    F.fail = "event_create";
    assert_int_equal(gpu_rt_event_create(ctx, &e, err, sizeof err), -1);
    assert_null(e);
    assert_string_equal(err, "fakeEventCreate " BROKE);

    assert_int_equal(gpu_rt_kernel_get(ctx, mod, "k", &k, err, sizeof err), 0);
    int v = 1;
    void *args[] = {&v};
    const unsigned grid[3] = {4, 2, 1}, block[3] = {64, 1, 1};
    F.fail = "launch";
    assert_int_equal(gpu_rt_launch(ctx, k, grid, block, 256, NULL, args, err, sizeof err), -1);
    assert_string_equal(err, "fakeLaunch (k, grid 4x2x1, block 64x1x1, 256 B shared) " BROKE);

    F.fail = "stream_sync";
    assert_int_equal(gpu_rt_memcpy_htod(ctx, 0x1000, "x", 2, NULL, err, sizeof err), -1);
    assert_string_equal(err, "fakeStreamSync after fakeMemcpyHtoD " BROKE);
    F.fail = "memcpy_dtoh";
    char buf[2];
    assert_int_equal(gpu_rt_memcpy_dtoh(ctx, buf, 0x1000, 2, NULL, err, sizeof err), -1);
    assert_string_equal(err, "fakeMemcpyDtoH " BROKE);
    F.fail = "memset_d8";
    assert_int_equal(gpu_rt_memset_d8(ctx, 0x1000, 0, 2, NULL, err, sizeof err), -1);
    assert_string_equal(err, "fakeMemset " BROKE);
    F.fail = "stream_sync";
    assert_int_equal(gpu_rt_stream_sync(ctx, NULL, err, sizeof err), -1);
    assert_string_equal(err, "fakeStreamSync " BROKE);

    gpu_rt_module_unload(ctx, mod);
    gpu_rt_close(ctx);
}

static void failing_timing_calls(void **state)
{
    (void)state;
    char err[256] = "";
    struct eng_ctx *ctx = open_dev(&fake_hip, 0);
    struct eng_event *e0 = NULL, *e1 = NULL;
    assert_int_equal(gpu_rt_event_create(ctx, &e0, err, sizeof err), 0);
    assert_int_equal(gpu_rt_event_create(ctx, &e1, err, sizeof err), 0);
    F.fail = "event_record";
    assert_int_equal(gpu_rt_event_record(ctx, e0, NULL, err, sizeof err), -1);
    assert_string_equal(err, "fakeEventRecord " BROKE);
    F.fail = "stream_wait_event";
    assert_int_equal(gpu_rt_stream_wait_event(ctx, NULL, e0, err, sizeof err), -1);
    assert_string_equal(err, "fakeStreamWaitEvent " BROKE);

    float ms = 5.0f;
    F.not_ready = 1;
    F.fail = "event_sync";
    assert_int_equal(gpu_rt_event_elapsed_ms(ctx, e0, e1, &ms, err, sizeof err), -1);
    assert_string_equal(err, "fakeEventSync " BROKE);
    assert_true(!(ms < 0.0f) && !(ms > 0.0f)); /* reset to 0 */
    F.fail = "event_elapsed";
    assert_int_equal(gpu_rt_event_elapsed_ms(ctx, e0, e1, &ms, err, sizeof err), -1);
    assert_string_equal(err, "fakeEventElapsed " BROKE);
    gpu_rt_event_destroy(ctx, e0);
    gpu_rt_event_destroy(ctx, e1);
    gpu_rt_close(ctx);
}

static void failing_graph_calls_free_what_they_made(void **state)
{
    (void)state;
    char err[256] = "";
    struct eng_ctx *ctx = open_dev(&fake_hip, 0);
    struct eng_stream *s = NULL;
    assert_int_equal(gpu_rt_stream_create(ctx, &s, err, sizeof err), 0);

    assert_int_equal(gpu_rt_graph_begin(ctx, NULL, err, sizeof err), -1);
    assert_string_equal(err, "fakeBeginCapture: the null stream cannot be captured; capture a "
                             "created stream");
    struct eng_graph *g = (struct eng_graph *)&s;
    assert_int_equal(gpu_rt_graph_end(ctx, NULL, &g, err, sizeof err), -1);
    assert_null(g);
    assert_string_equal(err, "fakeEndCapture: the null stream is never captured");

    F.fail = "capture_begin";
    assert_int_equal(gpu_rt_graph_begin(ctx, s, err, sizeof err), -1);
    assert_string_equal(err, "fakeBeginCapture " BROKE);
    /* Not capturing: a copy still waits. */
    F.n = 0;
    assert_int_equal(gpu_rt_memcpy_htod(ctx, 0x1000, "x", 2, s, err, sizeof err), 0);
    EXPECT("memcpy_htod 0x1000 \"x\" 2 S1", "stream_sync S1");

    assert_int_equal(gpu_rt_graph_begin(ctx, s, err, sizeof err), 0);
    F.fail = "capture_end";
    assert_int_equal(gpu_rt_graph_end(ctx, s, &g, err, sizeof err), -1);
    assert_string_equal(err, "fakeEndCapture " BROKE);
    assert_null(g);

    /* The captured graph is destroyed when it cannot be instantiated. */
    assert_int_equal(gpu_rt_graph_begin(ctx, s, err, sizeof err), 0);
    F.n = 0;
    F.fail = "graph_instantiate_flags";
    assert_int_equal(gpu_rt_graph_end(ctx, s, &g, err, sizeof err), -1);
    assert_string_equal(err, "fakeInstantiateWithFlags " BROKE);
    assert_null(g);
    EXPECT("capture_end S1", "graph_instantiate_flags G2 flags=0", "graph_destroy G2");

    assert_int_equal(gpu_rt_graph_begin(ctx, s, err, sizeof err), 0);
    assert_int_equal(gpu_rt_graph_end(ctx, s, &g, err, sizeof err), 0);
    F.fail = "graph_launch";
    assert_int_equal(gpu_rt_graph_launch(ctx, g, s, err, sizeof err), -1);
    assert_string_equal(err, "fakeGraphLaunch " BROKE);
    gpu_rt_graph_destroy(ctx, g);
    gpu_rt_graph_destroy(ctx, NULL);
    gpu_rt_stream_destroy(ctx, s);
    gpu_rt_close(ctx);
}

static void failing_context_calls(void **state)
{
    (void)state;
    char err[256] = "";
    struct eng_ctx *ctx = (struct eng_ctx *)err;

    F.fail = "ctx_acquire";
    assert_int_equal(gpu_rt_open(&fake_cuda, 0, &ctx, err, sizeof err), -1);
    assert_null(ctx);
    assert_string_equal(err, "fakeCtxAcquire " BROKE);

    /* A context that cannot be made current is released again. */
    F.n = 0;
    F.fail = "set_current";
    assert_int_equal(gpu_rt_open(&fake_cuda, 0, &ctx, err, sizeof err), -1);
    assert_null(ctx);
    assert_string_equal(err, "fakeSetCurrent " BROKE);
    EXPECT("ctx_acquire 0", "set_current 100 C1", "ctx_release 100 C1");

    /* A call on a context that cannot be made current fails before reaching the runtime;
     * cleanup calls then skip the runtime but still free the wrapper. */
    struct eng_ctx *a = open_dev(&fake_cuda, 0);
    struct eng_ctx *b = open_dev(&fake_cuda, 1);
    struct eng_stream *s = NULL;
    assert_int_equal(gpu_rt_stream_create(b, &s, err, sizeof err), 0);
    F.n = 0;
    F.fail = "set_current";
    eng_dptr p = 1;
    assert_int_equal(gpu_rt_mem_alloc(a, 8, &p, err, sizeof err), -1);
    assert_int_equal(p, 0);
    assert_string_equal(err, "fakeSetCurrent " BROKE);
    EXPECT("set_current 100 C2");
    gpu_rt_stream_destroy(b, s);
    gpu_rt_close(b);
    gpu_rt_close(a);

    /* A runtime without peer access says so. */
    struct gpu_rt_api no_peer = fake_hip;
    no_peer.peer_enable = NULL;
    no_peer.module_global = NULL;
    a = open_dev(&no_peer, 0);
    b = open_dev(&no_peer, 1);
    assert_int_equal(gpu_rt_peer_enable(a, b, err, sizeof err), -1);
    assert_string_equal(err, "fakeEnablePeer is not exported by the fake runtime");
    void *addr = &p;
    assert_int_equal(gpu_rt_module_symbol(a, NULL, "x", &addr, err, sizeof err), -1);
    assert_null(addr);
    assert_string_equal(err, "fakeGetGlobal is not exported by the fake runtime");
    gpu_rt_close(b);
    gpu_rt_close(a);
}

static void grid_limit_refused_before_the_runtime(void **state)
{
    (void)state;
    char err[256] = "";
    struct eng_ctx *ctx = open_dev(&fake_hip, 0);
    struct eng_module *mod = NULL;
    struct eng_kernel *k = load_kernel(ctx, "CODE", "wide", &mod);
    const unsigned grid[3] = {1, 1u << 24, 1}, block[3] = {1, 256, 1};
    assert_int_equal(gpu_rt_launch(ctx, k, grid, block, 0, NULL, NULL, err, sizeof err), -1);
    assert_string_equal(err, "fakeLaunch(wide): grid 16777216 x block 256 in dimension y reaches "
                             "2^32 work items, which FAKE does not support; use a grid-stride "
                             "loop");
    NOTHING();
    gpu_rt_module_unload(ctx, mod);
    gpu_rt_close(ctx);
}

static void status_without_name_or_text(void **state)
{
    (void)state;
    char err[128];
    assert_int_equal(gpu_rt_fail(&fake_hip, err, sizeof err, "fakeThing", 12), -1);
    assert_string_equal(err, "fakeThing failed: unknown error (fakeStatus, 12)");
    assert_int_equal(gpu_rt_fail(&fake_hip, err, 10, "fakeThing", 12), -1);
    assert_string_equal(err, "fakeThing");
    assert_int_equal(gpu_rt_device_index("fake", 2, 2, err, sizeof err), -1);
    assert_string_equal(err, "fake device 2 does not exist (2 devices)");
    assert_int_equal(gpu_rt_device_index("fake", 0, 1, err, sizeof err), 0);
}

/* A kernel's fault on the device (an illegal address, an assert, a launch that died) is told as
 * such, whichever call it surfaced at: the runner counts it as the kernel's crash. Other
 * failures of the runtime (out of resources, an invalid value) are not. */
static void kernel_faults_told_as_such(void **state)
{
    (void)state;
    char err[160];
    static const int faults[] = {700, 710, 714, 715, 716, 717, 718, 719};
    for (size_t i = 0; i < sizeof faults / sizeof *faults; i++) {
        assert_int_equal(gpu_rt_fail(&fake_hip, err, sizeof err, "fakeSync", faults[i]), -1);
        assert_int_equal(strncmp(err, ENG_FAULT_PREFIX ": fakeSync failed: ",
                                 sizeof ENG_FAULT_PREFIX + 1 + strlen("fakeSync failed: ")), 0);
    }
    static const int others[] = {1, 2, 600, 701, 702, 709, 711, 713, 720, 999};
    for (size_t i = 0; i < sizeof others / sizeof *others; i++) {
        assert_int_equal(gpu_rt_fail(&fake_hip, err, sizeof err, "fakeSync", others[i]), -1);
        assert_null(strstr(err, ENG_FAULT_PREFIX));
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(module_kernel_launch, setup, teardown),
        cmocka_unit_test_setup_teardown(code_object_for_another_target_refused, setup, teardown),
        cmocka_unit_test_setup_teardown(kernel_resources, setup, teardown),
        cmocka_unit_test_setup_teardown(memory_and_copies, setup, teardown),
        cmocka_unit_test_setup_teardown(graph_capture, setup, teardown),
        cmocka_unit_test_setup_teardown(graph_older_instantiate, setup, teardown),
        cmocka_unit_test_setup_teardown(events_and_timing, setup, teardown),
        cmocka_unit_test_setup_teardown(context_made_current_only_when_it_changes, setup,
                                        teardown),
        cmocka_unit_test_setup_teardown(dynamic_shared_opt_in_once, setup, teardown),
        cmocka_unit_test_setup_teardown(module_symbol_address, setup, teardown),
        cmocka_unit_test_setup_teardown(kernel_params_counted, setup, teardown),
        cmocka_unit_test_setup_teardown(failing_calls_name_the_call, setup, teardown),
        cmocka_unit_test_setup_teardown(failing_timing_calls, setup, teardown),
        cmocka_unit_test_setup_teardown(failing_graph_calls_free_what_they_made, setup,
                                        teardown),
        cmocka_unit_test_setup_teardown(failing_context_calls, setup, teardown),
        cmocka_unit_test_setup_teardown(grid_limit_refused_before_the_runtime, setup, teardown),
        cmocka_unit_test_setup_teardown(status_without_name_or_text, setup, teardown),
        cmocka_unit_test_setup_teardown(kernel_faults_told_as_such, setup, teardown),
        cmocka_unit_test_setup_teardown(ptx_image_loaded_terminated, setup, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
