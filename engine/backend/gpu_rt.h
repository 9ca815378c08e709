/* The GPU runtime core: modules, memory, streams, events, graphs, launches and peer access for
 * the hip and cuda backends, written once over a table of a runtime's entry points.
 *
 * A backend fills one struct gpu_rt_api (at load time, mostly by binding exported symbols
 * straight into it with gpu_dl_bind) and points the runtime entries of its struct eng_backend
 * at the gpu_rt_* functions below, which have the vtable's signatures. What stays in a backend:
 * loading its libraries, its ABI traps, device facts, compilation, and one-line shims where a
 * runtime's signature differs from the neutral one here.
 *
 * Entry points (struct gpu_rt_api):
 *  - return the runtime's own status code; `success` is the one that means success, and
 *    error_string() turns any code into the runtime's name and text for messages;
 *  - take the runtime's own handles as void * (module, function, stream, event, graph, graph
 *    exec; a NULL stream is the null stream) and device addresses as uint64_t;
 *  - are called only on a thread where ctx_set_current() has made the context current;
 *  - entries marked optional may be NULL; every other one must be set.
 * call.* are the exported names the entries stand for ("cuMemAlloc_v2"); every error message
 * names one of them and carries the runtime's error text:
 *   "cuMemAlloc_v2(1024 bytes) failed: out of memory (CUDA_ERROR_OUT_OF_MEMORY, 2)".
 *
 * Contexts: the core owns struct eng_ctx. Each thread remembers which context it made current
 * last and calls ctx_set_current() only when another one is used, so a context may move between
 * threads (rung 6 drives one per rank) but is used by one thread at a time. */
#ifndef KL_ENGINE_GPU_RT_H
#define KL_ENGINE_GPU_RT_H

#include "engine/backend/backend.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct gpu_rt_api {
    const char *runtime;     /* "HIP", "CUDA": in messages about what the runtime refuses */
    const char *status_type; /* "hipError", "CUresult": when the runtime has no name for a code */
    const char *library;     /* "the HIP runtime": in "X is not exported by the HIP runtime" */
    int success;
    int not_ready;            /* event_elapsed: the end event has not completed yet */
    int peer_already_enabled; /* peer_enable: access was enabled before (not an error) */
    unsigned stream_flags;    /* stream_create: the runtime's value of "non-blocking" */
    int capture_mode;         /* capture_begin: the runtime's value of "thread-local" */
    bool grid_below_2_32;     /* launch refuses grid * block >= 2^32 in one dimension */
    int dyn_shared_default;   /* dynamic shared bytes a function gets without dyn_shared_opt_in */
    const char *module_hint;  /* appended to a module_load failure ("NVRTC 13.0 is newer..."),
                               * or NULL; read at the failure, so it may change after load */

    /* Name and text of a status; either may be set to NULL when the runtime has none. */
    void (*error_string)(int status, const char **name, const char **text);

    /* Contexts. ctx_acquire (optional) turns a device index into the runtime's device handle
     * and context (*native); without it the device handle is the index and native is NULL.
     * ctx_release (optional) undoes ctx_acquire. ctx_set_current makes (device, native) the
     * calling thread's current one. */
    int (*ctx_acquire)(int index, int *device, void **native);
    int (*ctx_release)(int device, void *native);
    int (*ctx_set_current)(int device, void *native);
    /* Lets kernels of the current context reach the peer's memory (optional). */
    int (*peer_enable)(int peer_device, void *peer_native);

    int (*module_load)(void **mod, const void *code);
    int (*module_unload)(void *mod);
    int (*module_function)(void **fn, void *mod, const char *name);
    int (*module_global)(uint64_t *addr, size_t *bytes, void *mod, const char *name); /* optional */

    int (*mem_alloc)(uint64_t *out, size_t bytes);
    int (*mem_free)(uint64_t p);
    int (*memcpy_htod)(uint64_t dst, const void *src, size_t bytes, void *stream);
    int (*memcpy_dtoh)(void *dst, uint64_t src, size_t bytes, void *stream);
    int (*memset_d8)(uint64_t dst, unsigned char value, size_t bytes, void *stream);

    int (*stream_create)(void **stream, unsigned flags);
    int (*stream_destroy)(void *stream);
    int (*stream_sync)(void *stream);
    int (*stream_wait_event)(void *stream, void *event, unsigned flags);

    int (*event_create)(void **event);
    int (*event_destroy)(void *event);
    int (*event_record)(void *event, void *stream);
    int (*event_elapsed)(float *ms, void *start, void *end);
    int (*event_sync)(void *event);

    /* extra is always NULL: its end marker differs between runtimes. */
    int (*launch)(void *fn, unsigned gx, unsigned gy, unsigned gz, unsigned bx, unsigned by,
                  unsigned bz, unsigned shared_bytes, void *stream, void **args, void **extra);
    /* The offset and size of fn's parameter index (optional: NULL = the runtime cannot say);
     * param_end is the status past the last parameter. */
    int (*param_info)(void *fn, size_t index, size_t *offset, size_t *size);
    int param_end;
    /* Raises fn's dynamic shared memory limit to bytes (optional: NULL = no opt-in needed). */
    int (*dyn_shared_opt_in)(void *fn, int bytes);
    /* One of fn's attributes (optional: NULL = the runtime cannot say), as cuFuncGetAttribute:
     * the runtime's ids of registers per thread, static shared bytes, local (spill and private
     * array) bytes per thread and the most threads a block of fn can have. */
    int (*func_attr)(int *value, int attr, void *fn);
    int attr_registers, attr_shared_bytes, attr_local_bytes, attr_max_threads;

    int (*capture_begin)(void *stream, int mode);
    int (*capture_end)(void *stream, void **graph);
    /* graph_instantiate_flags (optional) is preferred; graph_instantiate is the older form. */
    int (*graph_instantiate_flags)(void **exec, void *graph, unsigned long long flags);
    int (*graph_instantiate)(void **exec, void *graph, void **error_node, char *log,
                             size_t loglen);
    int (*graph_launch)(void *exec, void *stream);
    int (*graph_exec_destroy)(void *exec);
    int (*graph_destroy)(void *graph);

    struct {
        const char *ctx_acquire, *ctx_set_current, *peer_enable;
        const char *module_load, *module_function, *module_global;
        const char *mem_alloc, *memcpy_htod, *memcpy_dtoh, *memset_d8;
        const char *stream_create, *stream_sync, *stream_wait_event;
        const char *event_create, *event_record, *event_elapsed, *event_sync;
        const char *launch, *dyn_shared_opt_in, *func_attr;
        const char *capture_begin, *capture_end, *graph_instantiate_flags, *graph_instantiate,
            *graph_launch;
    } call;
};

/* An opened device: the core's; backends read index and device, never write them. */
struct eng_ctx {
    const struct gpu_rt_api *rt;
    int index;    /* the backend's device index */
    int device;   /* the runtime's device handle (CUdevice; HIP: the index) */
    void *native; /* the runtime's context (CUcontext), or NULL */
    char target[64]; /* the device's compile target ("gfx1250", "sm_90"); the backend sets it
                      * after gpu_rt_open. "" accepts any code object. */
};

/* Writes "CALL failed: TEXT (NAME, STATUS)" into err and returns -1. */
int gpu_rt_fail(const struct gpu_rt_api *rt, char *err, size_t errlen, const char *call,
                int status);

/* 0 when index names one of count devices, else -1 with "hip device 3 does not exist (2
 * devices)". */
int gpu_rt_device_index(const char *backend, int index, int count, char *err, size_t errlen);

/* compile_target of the GPU backends: the device's own target id, whatever the wave. */
void eng_backend_gpu_target(const struct eng_device_info *info, int wave, char *out, size_t n);

/* Opens device index (already checked by the backend) and makes it current on this thread. */
int gpu_rt_open(const struct gpu_rt_api *rt, int index, struct eng_ctx **out, char *err,
                size_t errlen);

/* The eng_backend entries, with the vtable's contract (engine/backend/backend.h). A backend's vtable
 * lists GPU_RT_ENTRIES after its own entries (name, load, devices, open, compile). */
#define GPU_RT_ENTRIES                                                                        \
    .close = gpu_rt_close, .module_load = gpu_rt_module_load,                                 \
    .module_unload = gpu_rt_module_unload, .kernel_get = gpu_rt_kernel_get,                   \
    .mem_alloc = gpu_rt_mem_alloc, .mem_free = gpu_rt_mem_free,                               \
    .memcpy_htod = gpu_rt_memcpy_htod, .memcpy_dtoh = gpu_rt_memcpy_dtoh,                     \
    .memset_d8 = gpu_rt_memset_d8, .stream_create = gpu_rt_stream_create,                     \
    .stream_destroy = gpu_rt_stream_destroy, .stream_sync = gpu_rt_stream_sync,               \
    .event_create = gpu_rt_event_create, .event_destroy = gpu_rt_event_destroy,               \
    .event_record = gpu_rt_event_record, .stream_wait_event = gpu_rt_stream_wait_event,       \
    .event_elapsed_ms = gpu_rt_event_elapsed_ms, .launch = gpu_rt_launch,                     \
    .graph_begin = gpu_rt_graph_begin, .graph_end = gpu_rt_graph_end,                         \
    .graph_launch = gpu_rt_graph_launch, .graph_destroy = gpu_rt_graph_destroy,               \
    .peer_enable = gpu_rt_peer_enable, .stream_native = gpu_rt_stream_native,                 \
    .module_symbol = gpu_rt_module_symbol, .kernel_params = gpu_rt_kernel_params,             \
    .kernel_resources = gpu_rt_kernel_resources

void gpu_rt_close(struct eng_ctx *ctx);
int gpu_rt_module_load(struct eng_ctx *ctx, const void *code, size_t len,
                       struct eng_module **out, char *err, size_t errlen);
void gpu_rt_module_unload(struct eng_ctx *ctx, struct eng_module *mod);
int gpu_rt_kernel_get(struct eng_ctx *ctx, struct eng_module *mod, const char *entry,
                      struct eng_kernel **out, char *err, size_t errlen);
int gpu_rt_kernel_params(struct eng_kernel *k, size_t *sizes, int max);
int gpu_rt_kernel_resources(struct eng_kernel *k, struct eng_kernel_resources *out);
int gpu_rt_module_symbol(struct eng_ctx *ctx, struct eng_module *mod, const char *name,
                         void **addr, char *err, size_t errlen);
int gpu_rt_mem_alloc(struct eng_ctx *ctx, size_t bytes, eng_dptr *out, char *err,
                     size_t errlen);
void gpu_rt_mem_free(struct eng_ctx *ctx, eng_dptr p);
int gpu_rt_memcpy_htod(struct eng_ctx *ctx, eng_dptr dst, const void *src, size_t bytes,
                       struct eng_stream *s, char *err, size_t errlen);
int gpu_rt_memcpy_dtoh(struct eng_ctx *ctx, void *dst, eng_dptr src, size_t bytes,
                       struct eng_stream *s, char *err, size_t errlen);
int gpu_rt_memset_d8(struct eng_ctx *ctx, eng_dptr dst, uint8_t value, size_t bytes,
                     struct eng_stream *s, char *err, size_t errlen);
int gpu_rt_stream_create(struct eng_ctx *ctx, struct eng_stream **out, char *err,
                         size_t errlen);
void gpu_rt_stream_destroy(struct eng_ctx *ctx, struct eng_stream *s);
int gpu_rt_stream_sync(struct eng_ctx *ctx, struct eng_stream *s, char *err, size_t errlen);
int gpu_rt_event_create(struct eng_ctx *ctx, struct eng_event **out, char *err, size_t errlen);
void gpu_rt_event_destroy(struct eng_ctx *ctx, struct eng_event *e);
int gpu_rt_event_record(struct eng_ctx *ctx, struct eng_event *e, struct eng_stream *s,
                        char *err, size_t errlen);
int gpu_rt_stream_wait_event(struct eng_ctx *ctx, struct eng_stream *s, struct eng_event *e,
                             char *err, size_t errlen);
int gpu_rt_event_elapsed_ms(struct eng_ctx *ctx, struct eng_event *start, struct eng_event *end,
                            float *ms, char *err, size_t errlen);
int gpu_rt_launch(struct eng_ctx *ctx, struct eng_kernel *k, const unsigned grid[3],
                  const unsigned block[3], unsigned shared_bytes, struct eng_stream *s,
                  void **args, char *err, size_t errlen);
int gpu_rt_graph_begin(struct eng_ctx *ctx, struct eng_stream *s, char *err, size_t errlen);
int gpu_rt_graph_end(struct eng_ctx *ctx, struct eng_stream *s, struct eng_graph **out,
                     char *err, size_t errlen);
int gpu_rt_graph_launch(struct eng_ctx *ctx, struct eng_graph *g, struct eng_stream *s,
                        char *err, size_t errlen);
void gpu_rt_graph_destroy(struct eng_ctx *ctx, struct eng_graph *g);
int gpu_rt_peer_enable(struct eng_ctx *ctx, struct eng_ctx *peer, char *err, size_t errlen);
void *gpu_rt_stream_native(struct eng_ctx *ctx, struct eng_stream *s);

#endif
