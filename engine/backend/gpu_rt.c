/* The GPU runtime core shared by the hip and cuda backends; see gpu_rt.h.
 *
 * Streams are created non-blocking so a consumer on another stream never gets an implicit
 * ordering from the null stream that would hide a missing event. memcpy_htod/dtoh return when
 * the host buffer may be reused or read (they synchronise the stream), except while that stream
 * is being captured into a graph, where they are recorded like any other work. */
#include "engine/backend/gpu_rt.h"
#include "engine/backend/gpu_dl.h"
#include "engine/codeobj/codeobj_target.h"
#include "engine/codeobj/ptx_entry.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct eng_kernel {
    const struct gpu_rt_api *rt;
    void *fn;
    int dyn_shared_limit; /* the dynamic shared memory already granted, bytes */
    struct eng_kernel *next;
    char name[128];
};
struct eng_module {
    void *mod;
    struct eng_kernel *kernels; /* freed with the module */
};
struct eng_stream {
    void *s;
    bool capturing;
};
struct eng_event {
    void *e;
};
struct eng_graph {
    void *graph, *exec;
};

/* The statuses by which a kernel's fault on the device is reported, at the launch or at the
 * next call that waits for it; CUDA's and HIP's numbers agree on these (HIP has 700, 710 and
 * 719 of them): an illegal address, a device-side assert, a hardware stack error, an illegal
 * instruction, a misaligned address, an invalid address space, an invalid program counter, a
 * launch that failed. */
static bool kernel_fault(int status)
{
    return status == 700 || status == 710 || (status >= 714 && status <= 719);
}

int gpu_rt_fail(const struct gpu_rt_api *rt, char *err, size_t errlen, const char *call,
                int status)
{
    const char *name = NULL, *text = NULL;
    rt->error_string(status, &name, &text);
    const char *fault = kernel_fault(status) ? ENG_FAULT_PREFIX ": " : "";
    if (text && name && strcmp(text, name) == 0)
        gpu_dl_fmt(err, errlen, "%s%s failed: %s (%d)", fault, call, name, status);
    else
        gpu_dl_fmt(err, errlen, "%s%s failed: %s (%s, %d)", fault, call,
                   text ? text : "unknown error", name ? name : rt->status_type, status);
    return -1;
}

static int oom(char *err, size_t errlen)
{
    gpu_dl_fmt(err, errlen, "out of host memory");
    return -1;
}

/* ---- the context current on this thread ----------------------------------------------- */

/* The last context this thread made current; rt == NULL when unknown. Both backends share it,
 * so using a hip and a cuda context in turn on one thread sets each again. */
static _Thread_local struct {
    const struct gpu_rt_api *rt;
    int device;
    void *native;
} tl_current;

static bool is_current(const struct eng_ctx *ctx)
{
    return tl_current.rt == ctx->rt && tl_current.device == ctx->device &&
           tl_current.native == ctx->native;
}

static int use_ctx(const struct eng_ctx *ctx, char *err, size_t errlen)
{
    if (is_current(ctx))
        return 0;
    int rc = ctx->rt->ctx_set_current(ctx->device, ctx->native);
    if (rc != ctx->rt->success)
        return gpu_rt_fail(ctx->rt, err, errlen, ctx->rt->call.ctx_set_current, rc);
    tl_current.rt = ctx->rt;
    tl_current.device = ctx->device;
    tl_current.native = ctx->native;
    return 0;
}

int gpu_rt_device_index(const char *backend, int index, int count, char *err, size_t errlen)
{
    if (index >= 0 && index < count)
        return 0;
    gpu_dl_fmt(err, errlen, "%s device %d does not exist (%d device%s)", backend, index, count,
               count == 1 ? "" : "s");
    return -1;
}

void eng_backend_gpu_target(const struct eng_device_info *info, int wave, char *out, size_t n)
{
    (void)wave; /* a GPU's wave width is its own */
    snprintf(out, n, "%s", info->target);
}

int gpu_rt_open(const struct gpu_rt_api *rt, int index, struct eng_ctx **out, char *err,
                size_t errlen)
{
    *out = NULL;
    struct eng_ctx *ctx = calloc(1, sizeof *ctx);
    if (!ctx)
        return oom(err, errlen);
    ctx->rt = rt;
    ctx->index = index;
    ctx->device = index;
    if (rt->ctx_acquire) {
        int rc = rt->ctx_acquire(index, &ctx->device, &ctx->native);
        if (rc != rt->success) {
            free(ctx);
            return gpu_rt_fail(rt, err, errlen, rt->call.ctx_acquire, rc);
        }
    }
    /* Another library may have changed the current device or context since this thread last
     * set it: set it once unconditionally. */
    tl_current.rt = NULL;
    if (use_ctx(ctx, err, errlen)) {
        if (rt->ctx_release)
            (void)rt->ctx_release(ctx->device, ctx->native);
        free(ctx);
        return -1;
    }
    *out = ctx;
    return 0;
}

void gpu_rt_close(struct eng_ctx *ctx)
{
    if (!ctx)
        return;
    const struct gpu_rt_api *rt = ctx->rt;
    if (use_ctx(ctx, NULL, 0) == 0)
        (void)rt->stream_sync(NULL);
    if (rt->ctx_release)
        (void)rt->ctx_release(ctx->device, ctx->native);
    if (is_current(ctx))
        tl_current.rt = NULL;
    free(ctx);
}

/* ---- modules -------------------------------------------------------------------------- */

int gpu_rt_module_load(struct eng_ctx *ctx, const void *code, size_t len,
                       struct eng_module **out, char *err, size_t errlen)
{
    const struct gpu_rt_api *rt = ctx->rt;
    *out = NULL;
    /* A code object for another processor is refused, never launched: on AMD it traps at its
     * first instruction, and a stale cache entry or a build-arch setting can bring one here. */
    char built[32];
    if (ctx->target[0] && eng_codeobj_target(code, len, built, sizeof built) == 0 &&
        !eng_codeobj_runs_on(built, ctx->target)) {
        gpu_dl_fmt(err, errlen,
                   "the code object was built for %s and this device is %s: refused rather "
                   "than launched (compile for %s)", built, ctx->target, ctx->target);
        return -1;
    }
    if (use_ctx(ctx, err, errlen))
        return -1;
    /* The loader reads PTX as a C string: an image read from a file ends without a NUL, so it
     * is loaded from a terminated copy. */
    char *terminated = NULL;
    if (len && ((const char *)code)[len - 1] != '\0' && ptx_is(code, len)) {
        if (!(terminated = malloc(len + 1)))
            return oom(err, errlen);
        memcpy(terminated, code, len);
        terminated[len] = '\0';
        code = terminated;
    }
    void *m = NULL;
    int rc = rt->module_load(&m, code);
    free(terminated);
    if (rc != rt->success) {
        gpu_rt_fail(rt, err, errlen, rt->call.module_load, rc);
        if (rt->module_hint && rt->module_hint[0] && err) {
            size_t used = strlen(err);
            gpu_dl_fmt(err + used, errlen - used, " (%s)", rt->module_hint);
        }
        return -1;
    }
    struct eng_module *mod = calloc(1, sizeof *mod);
    if (!mod) {
        (void)rt->module_unload(m);
        return oom(err, errlen);
    }
    mod->mod = m;
    *out = mod;
    return 0;
}

void gpu_rt_module_unload(struct eng_ctx *ctx, struct eng_module *mod)
{
    if (!mod)
        return;
    if (use_ctx(ctx, NULL, 0) == 0)
        (void)ctx->rt->module_unload(mod->mod);
    while (mod->kernels) {
        struct eng_kernel *k = mod->kernels;
        mod->kernels = k->next;
        free(k);
    }
    free(mod);
}

int gpu_rt_kernel_get(struct eng_ctx *ctx, struct eng_module *mod, const char *entry,
                      struct eng_kernel **out, char *err, size_t errlen)
{
    const struct gpu_rt_api *rt = ctx->rt;
    *out = NULL;
    if (use_ctx(ctx, err, errlen))
        return -1;
    void *fn = NULL;
    int rc = rt->module_function(&fn, mod->mod, entry);
    if (rc != rt->success) {
        char call[192];
        gpu_dl_fmt(call, sizeof call, "%s(\"%s\")", rt->call.module_function, entry);
        return gpu_rt_fail(rt, err, errlen, call, rc);
    }
    struct eng_kernel *k = calloc(1, sizeof *k);
    if (!k)
        return oom(err, errlen);
    k->rt = rt;
    k->fn = fn;
    k->dyn_shared_limit = rt->dyn_shared_default;
    gpu_dl_copy(k->name, sizeof k->name, entry);
    k->next = mod->kernels;
    mod->kernels = k;
    *out = k;
    return 0;
}

int gpu_rt_kernel_params(struct eng_kernel *k, size_t *sizes, int max)
{
    const struct gpu_rt_api *rt = k->rt;
    if (!rt->param_info)
        return -1;
    for (int i = 0; i < 4096; i++) {
        size_t off, size;
        int rc = rt->param_info(k->fn, (size_t)i, &off, &size);
        if (rc == rt->param_end)
            return i;
        if (rc != rt->success)
            return -1; /* the runtime could not say: nothing is claimed */
        if (i < max)
            sizes[i] = size;
    }
    return -1;
}

int gpu_rt_kernel_resources(struct eng_kernel *k, struct eng_kernel_resources *out)
{
    const struct gpu_rt_api *rt = k->rt;
    out->registers = out->shared_bytes = out->local_bytes = out->max_threads = -1;
    if (!rt->func_attr)
        return -1;
    const int attrs[4] = {rt->attr_registers, rt->attr_shared_bytes, rt->attr_local_bytes,
                          rt->attr_max_threads};
    int64_t *fields[4] = {&out->registers, &out->shared_bytes, &out->local_bytes,
                          &out->max_threads};
    bool any = false;
    for (int i = 0; i < 4; i++) {
        int v = 0;
        /* one attribute the runtime refuses leaves that one unknown, never 0 */
        if (rt->func_attr(&v, attrs[i], k->fn) == rt->success && v >= 0) {
            *fields[i] = v;
            any = true;
        }
    }
    return any ? 0 : -1;
}

int gpu_rt_module_symbol(struct eng_ctx *ctx, struct eng_module *mod, const char *name,
                         void **addr, char *err, size_t errlen)
{
    const struct gpu_rt_api *rt = ctx->rt;
    *addr = NULL;
    if (!rt->module_global) {
        gpu_dl_fmt(err, errlen, "%s is not exported by %s", rt->call.module_global, rt->library);
        return -1;
    }
    if (use_ctx(ctx, err, errlen))
        return -1;
    uint64_t p = 0;
    size_t bytes = 0;
    int rc = rt->module_global(&p, &bytes, mod->mod, name);
    if (rc != rt->success) {
        char call[192];
        gpu_dl_fmt(call, sizeof call, "%s(\"%s\")", rt->call.module_global, name);
        return gpu_rt_fail(rt, err, errlen, call, rc);
    }
    *addr = (void *)(uintptr_t)p;
    return 0;
}

/* ---- memory --------------------------------------------------------------------------- */

int gpu_rt_mem_alloc(struct eng_ctx *ctx, size_t bytes, eng_dptr *out, char *err,
                     size_t errlen)
{
    const struct gpu_rt_api *rt = ctx->rt;
    *out = 0;
    if (use_ctx(ctx, err, errlen))
        return -1;
    uint64_t p = 0;
    /* Zero bytes still gets a distinct address, as the other backends give. */
    int rc = rt->mem_alloc(&p, bytes ? bytes : 1);
    if (rc != rt->success) {
        char call[96];
        gpu_dl_fmt(call, sizeof call, "%s(%zu bytes)", rt->call.mem_alloc, bytes);
        return gpu_rt_fail(rt, err, errlen, call, rc);
    }
    *out = (eng_dptr)p;
    return 0;
}

void gpu_rt_mem_free(struct eng_ctx *ctx, eng_dptr p)
{
    if (p && use_ctx(ctx, NULL, 0) == 0)
        (void)ctx->rt->mem_free((uint64_t)p);
}

static void *stream_of(const struct eng_stream *s)
{
    return s ? s->s : NULL;
}

/* After a copy was issued with status rc: wait for it unless the stream is recording a graph
 * (see the top of the file). */
static int copy_done(const struct gpu_rt_api *rt, int rc, const char *call,
                     const struct eng_stream *s, char *err, size_t errlen)
{
    if (rc != rt->success)
        return gpu_rt_fail(rt, err, errlen, call, rc);
    if (s && s->capturing)
        return 0;
    rc = rt->stream_sync(stream_of(s));
    if (rc != rt->success) {
        char what[128];
        gpu_dl_fmt(what, sizeof what, "%s after %s", rt->call.stream_sync, call);
        return gpu_rt_fail(rt, err, errlen, what, rc);
    }
    return 0;
}

int gpu_rt_memcpy_htod(struct eng_ctx *ctx, eng_dptr dst, const void *src, size_t bytes,
                       struct eng_stream *s, char *err, size_t errlen)
{
    const struct gpu_rt_api *rt = ctx->rt;
    if (use_ctx(ctx, err, errlen))
        return -1;
    int rc = rt->memcpy_htod((uint64_t)dst, src, bytes, stream_of(s));
    return copy_done(rt, rc, rt->call.memcpy_htod, s, err, errlen);
}

int gpu_rt_memcpy_dtoh(struct eng_ctx *ctx, void *dst, eng_dptr src, size_t bytes,
                       struct eng_stream *s, char *err, size_t errlen)
{
    const struct gpu_rt_api *rt = ctx->rt;
    if (use_ctx(ctx, err, errlen))
        return -1;
    int rc = rt->memcpy_dtoh(dst, (uint64_t)src, bytes, stream_of(s));
    return copy_done(rt, rc, rt->call.memcpy_dtoh, s, err, errlen);
}

int gpu_rt_memset_d8(struct eng_ctx *ctx, eng_dptr dst, uint8_t value, size_t bytes,
                     struct eng_stream *s, char *err, size_t errlen)
{
    const struct gpu_rt_api *rt = ctx->rt;
    if (use_ctx(ctx, err, errlen))
        return -1;
    int rc = rt->memset_d8((uint64_t)dst, value, bytes, stream_of(s));
    return rc == rt->success ? 0 : gpu_rt_fail(rt, err, errlen, rt->call.memset_d8, rc);
}

/* ---- streams and events --------------------------------------------------------------- */

int gpu_rt_stream_create(struct eng_ctx *ctx, struct eng_stream **out, char *err,
                         size_t errlen)
{
    const struct gpu_rt_api *rt = ctx->rt;
    *out = NULL;
    if (use_ctx(ctx, err, errlen))
        return -1;
    struct eng_stream *s = calloc(1, sizeof *s);
    if (!s)
        return oom(err, errlen);
    int rc = rt->stream_create(&s->s, rt->stream_flags);
    if (rc != rt->success) {
        free(s);
        return gpu_rt_fail(rt, err, errlen, rt->call.stream_create, rc);
    }
    *out = s;
    return 0;
}

void gpu_rt_stream_destroy(struct eng_ctx *ctx, struct eng_stream *s)
{
    if (!s)
        return;
    if (use_ctx(ctx, NULL, 0) == 0)
        (void)ctx->rt->stream_destroy(s->s);
    free(s);
}

int gpu_rt_stream_sync(struct eng_ctx *ctx, struct eng_stream *s, char *err, size_t errlen)
{
    const struct gpu_rt_api *rt = ctx->rt;
    if (use_ctx(ctx, err, errlen))
        return -1;
    int rc = rt->stream_sync(stream_of(s));
    return rc == rt->success ? 0 : gpu_rt_fail(rt, err, errlen, rt->call.stream_sync, rc);
}

int gpu_rt_event_create(struct eng_ctx *ctx, struct eng_event **out, char *err, size_t errlen)
{
    const struct gpu_rt_api *rt = ctx->rt;
    *out = NULL;
    if (use_ctx(ctx, err, errlen))
        return -1;
    struct eng_event *e = calloc(1, sizeof *e);
    if (!e)
        return oom(err, errlen);
    int rc = rt->event_create(&e->e);
    if (rc != rt->success) {
        free(e);
        return gpu_rt_fail(rt, err, errlen, rt->call.event_create, rc);
    }
    *out = e;
    return 0;
}

void gpu_rt_event_destroy(struct eng_ctx *ctx, struct eng_event *e)
{
    if (!e)
        return;
    if (use_ctx(ctx, NULL, 0) == 0)
        (void)ctx->rt->event_destroy(e->e);
    free(e);
}

int gpu_rt_event_record(struct eng_ctx *ctx, struct eng_event *e, struct eng_stream *s,
                        char *err, size_t errlen)
{
    const struct gpu_rt_api *rt = ctx->rt;
    if (use_ctx(ctx, err, errlen))
        return -1;
    int rc = rt->event_record(e->e, stream_of(s));
    return rc == rt->success ? 0 : gpu_rt_fail(rt, err, errlen, rt->call.event_record, rc);
}

int gpu_rt_stream_wait_event(struct eng_ctx *ctx, struct eng_stream *s, struct eng_event *e,
                             char *err, size_t errlen)
{
    const struct gpu_rt_api *rt = ctx->rt;
    if (use_ctx(ctx, err, errlen))
        return -1;
    int rc = rt->stream_wait_event(stream_of(s), e->e, 0);
    return rc == rt->success ? 0 : gpu_rt_fail(rt, err, errlen, rt->call.stream_wait_event, rc);
}

int gpu_rt_event_elapsed_ms(struct eng_ctx *ctx, struct eng_event *start, struct eng_event *end,
                            float *ms, char *err, size_t errlen)
{
    const struct gpu_rt_api *rt = ctx->rt;
    *ms = 0.0f;
    if (use_ctx(ctx, err, errlen))
        return -1;
    /* The interval may still be running: wait for its end rather than answer "not ready". */
    int rc = rt->event_elapsed(ms, start->e, end->e);
    if (rc == rt->not_ready) {
        rc = rt->event_sync(end->e);
        if (rc != rt->success)
            return gpu_rt_fail(rt, err, errlen, rt->call.event_sync, rc);
        rc = rt->event_elapsed(ms, start->e, end->e);
    }
    return rc == rt->success ? 0 : gpu_rt_fail(rt, err, errlen, rt->call.event_elapsed, rc);
}

/* ---- launches ------------------------------------------------------------------------- */

static bool sync_launches(void)
{
    static int on = -1;
    if (on < 0) {
        const char *v = getenv("KLADDER_SYNC_LAUNCHES");
        on = v && v[0] && strcmp(v, "0") != 0;
    }
    return on;
}

int gpu_rt_launch(struct eng_ctx *ctx, struct eng_kernel *k, const unsigned grid[3],
                  const unsigned block[3], unsigned shared_bytes, struct eng_stream *s,
                  void **args, char *err, size_t errlen)
{
    const struct gpu_rt_api *rt = ctx->rt;
    for (int d = 0; d < 3 && rt->grid_below_2_32; d++) {
        if ((uint64_t)grid[d] * block[d] >= ((uint64_t)1 << 32)) {
            gpu_dl_fmt(err, errlen, "%s(%s): grid %u x block %u in dimension %c reaches 2^32 "
                       "work items, which %s does not support; use a grid-stride loop",
                       rt->call.launch, k->name, grid[d], block[d], "xyz"[d], rt->runtime);
            return -1;
        }
    }
    if (use_ctx(ctx, err, errlen))
        return -1;
    if (rt->dyn_shared_opt_in && (int)shared_bytes > k->dyn_shared_limit) {
        int rc = rt->dyn_shared_opt_in(k->fn, (int)shared_bytes);
        if (rc != rt->success) {
            char call[192];
            gpu_dl_fmt(call, sizeof call, "%s(%s, max dynamic shared = %u)",
                       rt->call.dyn_shared_opt_in, k->name, shared_bytes);
            return gpu_rt_fail(rt, err, errlen, call, rc);
        }
        k->dyn_shared_limit = (int)shared_bytes;
    }
    int rc = rt->launch(k->fn, grid[0], grid[1], grid[2], block[0], block[1], block[2],
                        shared_bytes, stream_of(s), args, NULL);
    const char *what = rt->call.launch;
    /* KLADDER_SYNC_LAUNCHES=1: wait for every launch, so a fault is blamed on its kernel
     * instead of surfacing at the next synchronisation. */
    if (rc == rt->success && sync_launches() && !(s && s->capturing)) {
        what = "the kernel, run synchronously";
        rc = rt->stream_sync(stream_of(s));
    }
    if (rc != rt->success) {
        char call[256];
        gpu_dl_fmt(call, sizeof call, "%s (%s, grid %ux%ux%u, block %ux%ux%u, %u B shared)", what,
                   k->name, grid[0], grid[1], grid[2], block[0], block[1], block[2],
                   shared_bytes);
        return gpu_rt_fail(rt, err, errlen, call, rc);
    }
    return 0;
}

/* ---- graphs --------------------------------------------------------------------------- */

int gpu_rt_graph_begin(struct eng_ctx *ctx, struct eng_stream *s, char *err, size_t errlen)
{
    const struct gpu_rt_api *rt = ctx->rt;
    if (!s) {
        gpu_dl_fmt(err, errlen, "%s: the null stream cannot be captured; capture a created "
                   "stream", rt->call.capture_begin);
        return -1;
    }
    if (use_ctx(ctx, err, errlen))
        return -1;
    /* Thread-local mode: calls that are unsafe during capture fail on this thread, while other
     * threads stay unaffected. */
    int rc = rt->capture_begin(s->s, rt->capture_mode);
    if (rc != rt->success)
        return gpu_rt_fail(rt, err, errlen, rt->call.capture_begin, rc);
    s->capturing = true;
    return 0;
}

/* The executable form of graph; on failure graph is destroyed. */
static int instantiate(const struct gpu_rt_api *rt, void *graph, void **exec, char *err,
                       size_t errlen)
{
    int rc;
    const char *call;
    if (rt->graph_instantiate_flags) {
        call = rt->call.graph_instantiate_flags;
        rc = rt->graph_instantiate_flags(exec, graph, 0);
    } else {
        char log[256] = "";
        call = rt->call.graph_instantiate;
        rc = rt->graph_instantiate(exec, graph, NULL, log, sizeof log);
    }
    if (rc != rt->success) {
        (void)rt->graph_destroy(graph);
        return gpu_rt_fail(rt, err, errlen, call, rc);
    }
    return 0;
}

int gpu_rt_graph_end(struct eng_ctx *ctx, struct eng_stream *s, struct eng_graph **out,
                     char *err, size_t errlen)
{
    const struct gpu_rt_api *rt = ctx->rt;
    *out = NULL;
    if (!s) {
        gpu_dl_fmt(err, errlen, "%s: the null stream is never captured", rt->call.capture_end);
        return -1;
    }
    if (use_ctx(ctx, err, errlen))
        return -1;
    void *graph = NULL, *exec = NULL;
    int rc = rt->capture_end(s->s, &graph);
    s->capturing = false;
    if (rc != rt->success)
        return gpu_rt_fail(rt, err, errlen, rt->call.capture_end, rc);
    if (instantiate(rt, graph, &exec, err, errlen))
        return -1;
    struct eng_graph *g = calloc(1, sizeof *g);
    if (!g) {
        (void)rt->graph_exec_destroy(exec);
        (void)rt->graph_destroy(graph);
        return oom(err, errlen);
    }
    g->graph = graph;
    g->exec = exec;
    *out = g;
    return 0;
}

int gpu_rt_graph_launch(struct eng_ctx *ctx, struct eng_graph *g, struct eng_stream *s,
                        char *err, size_t errlen)
{
    const struct gpu_rt_api *rt = ctx->rt;
    if (use_ctx(ctx, err, errlen))
        return -1;
    int rc = rt->graph_launch(g->exec, stream_of(s));
    return rc == rt->success ? 0 : gpu_rt_fail(rt, err, errlen, rt->call.graph_launch, rc);
}

void gpu_rt_graph_destroy(struct eng_ctx *ctx, struct eng_graph *g)
{
    if (!g)
        return;
    if (use_ctx(ctx, NULL, 0) == 0) {
        (void)ctx->rt->graph_exec_destroy(g->exec);
        (void)ctx->rt->graph_destroy(g->graph);
    }
    free(g);
}

/* ---- several devices in one process (rung 6) ------------------------------------------ */

int gpu_rt_peer_enable(struct eng_ctx *ctx, struct eng_ctx *peer, char *err, size_t errlen)
{
    const struct gpu_rt_api *rt = ctx->rt;
    if (!rt->peer_enable) {
        gpu_dl_fmt(err, errlen, "%s is not exported by %s", rt->call.peer_enable, rt->library);
        return -1;
    }
    /* A device reaches its own memory already; the runtimes refuse to enable it. */
    if (ctx == peer || (ctx->device == peer->device && ctx->native == peer->native))
        return 0;
    if (use_ctx(ctx, err, errlen))
        return -1;
    int rc = rt->peer_enable(peer->device, peer->native);
    return rc == rt->success || rc == rt->peer_already_enabled
               ? 0
               : gpu_rt_fail(rt, err, errlen, rt->call.peer_enable, rc);
}

void *gpu_rt_stream_native(struct eng_ctx *ctx, struct eng_stream *s)
{
    if (use_ctx(ctx, NULL, 0))
        return NULL;
    return stream_of(s);
}
