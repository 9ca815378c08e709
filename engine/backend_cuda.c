/* The cuda backend: NVIDIA GPUs through the driver API (libcuda.so.1) and NVRTC, both opened with
 * dlopen, so the binary builds without the CUDA toolkit.
 *
 * ABI notes (each one is a silent wrong answer or a crash when missed):
 *  - cuda.h renames many calls with macros; the exported names we bind are the ones those macros
 *    expand to without per-thread default streams: cuMemAlloc_v2, cuMemFree_v2,
 *    cuMemcpyHtoDAsync_v2, cuMemcpyDtoHAsync_v2, cuDeviceTotalMem_v2, cuStreamDestroy_v2,
 *    cuEventDestroy_v2, cuStreamBeginCapture_v2, cuDevicePrimaryCtxRelease_v2. cuMemsetD8Async,
 *    cuLaunchKernel, cuStreamEndCapture and cuGraphLaunch have no version suffix.
 *  - cuGraphInstantiate means cuGraphInstantiateWithFlags (3 arguments) from CUDA 12 but the
 *    5-argument cuGraphInstantiate_v2 on CUDA 11; we bind WithFlags (exported since 11.4) and
 *    fall back to _v2 with its own signature, never the ambiguous plain name.
 *  - cuEventElapsedTime_v2 (CUDA 12.8+) before the plain export; same signature.
 *  - CU_LAUNCH_PARAM_END is 0 while HIP's is 3: we pass kernelParams only, never `extra`.
 *  - cuCtxCreate is at _v4 in CUDA 13; we use the primary context instead, as the runtime does.
 *
 * Loading: NVRTC is what load() needs (compilation works without a GPU, as CI does); the driver
 * is opened too, and when it is missing device_count/open say why. When several NVRTC copies
 * exist, the first whose major version the driver supports is taken: a CUBIN from a newer
 * toolkit than the driver is refused at module load. KLADDER_NVRTC and KLADDER_CUDA_LIBRARY name
 * the libraries explicitly.
 *
 * Streams are non-blocking (no implicit ordering with the null stream that would hide a missing
 * event). memcpy_htod/dtoh return when the host buffer may be reused or read, except while the
 * stream is being captured into a graph. */
#include "engine/backend.h"
#include "engine/gpu_dl.h"

#include <dlfcn.h> /* peer_enable binds its one call lazily */

#include <glob.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

typedef int cu_result;
typedef int cu_device;
typedef unsigned long long cu_dptr;
typedef void *cu_handle; /* CUcontext, CUmodule, CUfunction, CUstream, CUevent, CUgraph(Exec) */

enum {
    CUDA_SUCCESS = 0,
    CUDA_ERROR_NOT_READY = 600,
    CU_ATTR_MAX_THREADS_PER_BLOCK = 1,
    CU_ATTR_MAX_SHARED_MEMORY_PER_BLOCK = 8,
    CU_ATTR_WARP_SIZE = 10,
    CU_ATTR_MULTIPROCESSOR_COUNT = 16,
    CU_ATTR_CC_MAJOR = 75,
    CU_ATTR_CC_MINOR = 76,
    CU_ATTR_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN = 97,
    CU_FUNC_ATTR_MAX_DYNAMIC_SHARED_SIZE_BYTES = 8,
    CU_STREAM_NON_BLOCKING = 1,
    CU_EVENT_DEFAULT = 0,
    CU_CAPTURE_MODE_THREAD_LOCAL = 1,
    NVRTC_SUCCESS = 0,
    /* Dynamic shared memory above this needs an explicit opt-in per function. */
    CU_DEFAULT_DYNAMIC_SHARED = 48 * 1024,
};

static struct {
    int state; /* 0 not tried, 1 loaded, -1 failed */
    char why[1536];
    void *lib, *rtc_lib;
    char lib_path[PATH_MAX], rtc_path[PATH_MAX];
    int driver_api; /* cuDriverGetVersion: 13000 for CUDA 13.0, 0 when unknown */
    char driver_why[768];
    char rtc_note[256];
    int rtc_major, rtc_minor;
    char compiler_id[192];
    char compiler_version[64];
    int device_state; /* 0 not tried, 1 ok, -1 failed (reason in device_why) */
    char device_why[768];
    int ndev;

    cu_result (*Init)(unsigned);
    cu_result (*DriverGetVersion)(int *);
    cu_result (*GetErrorName)(cu_result, const char **);
    cu_result (*GetErrorString)(cu_result, const char **);
    cu_result (*DeviceGetCount)(int *);
    cu_result (*DeviceGet)(cu_device *, int);
    cu_result (*DeviceGetName)(char *, int, cu_device);
    cu_result (*DeviceTotalMem)(size_t *, cu_device);
    cu_result (*DeviceGetAttribute)(int *, int, cu_device);
    cu_result (*DeviceGetPCIBusId)(char *, int, cu_device);
    cu_result (*DevicePrimaryCtxRetain)(cu_handle *, cu_device);
    cu_result (*DevicePrimaryCtxRelease)(cu_device);
    cu_result (*CtxSetCurrent)(cu_handle);
    cu_result (*ModuleLoadData)(cu_handle *, const void *);
    cu_result (*ModuleUnload)(cu_handle);
    cu_result (*ModuleGetFunction)(cu_handle *, cu_handle, const char *);
    cu_result (*FuncSetAttribute)(cu_handle, int, int);
    cu_result (*LaunchKernel)(cu_handle, unsigned, unsigned, unsigned, unsigned, unsigned,
                              unsigned, unsigned, cu_handle, void **, void **);
    cu_result (*MemAlloc)(cu_dptr *, size_t);
    cu_result (*MemFree)(cu_dptr);
    cu_result (*MemcpyHtoDAsync)(cu_dptr, const void *, size_t, cu_handle);
    cu_result (*MemcpyDtoHAsync)(void *, cu_dptr, size_t, cu_handle);
    cu_result (*MemsetD8Async)(cu_dptr, unsigned char, size_t, cu_handle);
    cu_result (*StreamCreate)(cu_handle *, unsigned);
    cu_result (*StreamDestroy)(cu_handle);
    cu_result (*StreamSynchronize)(cu_handle);
    cu_result (*StreamWaitEvent)(cu_handle, cu_handle, unsigned);
    cu_result (*EventCreate)(cu_handle *, unsigned);
    cu_result (*EventDestroy)(cu_handle);
    cu_result (*EventRecord)(cu_handle, cu_handle);
    cu_result (*EventElapsedTime)(float *, cu_handle, cu_handle);
    cu_result (*EventSynchronize)(cu_handle);
    cu_result (*StreamBeginCapture)(cu_handle, int);
    cu_result (*StreamEndCapture)(cu_handle, cu_handle *);
    cu_result (*GraphInstantiateWithFlags)(cu_handle *, cu_handle, unsigned long long);
    cu_result (*GraphInstantiate_v2)(cu_handle *, cu_handle, cu_handle *, char *, size_t);
    cu_result (*GraphLaunch)(cu_handle, cu_handle);
    cu_result (*GraphExecDestroy)(cu_handle);
    cu_result (*GraphDestroy)(cu_handle);

    int (*rtcVersion)(int *, int *);
    int (*rtcCreateProgram)(cu_handle *, const char *, const char *, int, const char *const *,
                            const char *const *);
    int (*rtcCompileProgram)(cu_handle, int, const char *const *);
    int (*rtcGetProgramLogSize)(cu_handle, size_t *);
    int (*rtcGetProgramLog)(cu_handle, char *);
    int (*rtcGetCUBINSize)(cu_handle, size_t *);
    int (*rtcGetCUBIN)(cu_handle, char *);
    int (*rtcDestroyProgram)(cu_handle *);
    const char *(*rtcGetErrorString)(int);
} C;

struct eng_ctx {
    int index;
    cu_device dev;
    cu_handle ctx;
};
struct eng_kernel {
    cu_handle fn;
    int dyn_shared_limit; /* the opt-in already granted, bytes */
    struct eng_kernel *next;
    char name[128];
};
struct eng_module {
    cu_handle mod;
    struct eng_kernel *kernels;
};
struct eng_stream {
    cu_handle s;
    bool capturing;
};
struct eng_event {
    cu_handle e;
};
struct eng_graph {
    cu_handle graph, exec;
};

#define NAMES(...) ((const char *const[]){__VA_ARGS__, NULL})
#define SYM(field, ...) {NAMES(__VA_ARGS__), &C.field, false}
#define OPT(field, ...) {NAMES(__VA_ARGS__), &C.field, true}

static const char *base_name(const char *path)
{
    const char *s = strrchr(path, '/');
    return s ? s + 1 : path;
}

/* "cuMemAlloc_v2(1024 bytes) failed: out of memory (CUDA_ERROR_OUT_OF_MEMORY, 2)". */
static int fail(char *err, size_t errlen, const char *call, cu_result rc)
{
    const char *name = NULL, *text = NULL;
    if (C.GetErrorName)
        C.GetErrorName(rc, &name);
    if (C.GetErrorString)
        C.GetErrorString(rc, &text);
    gpu_dl_fmt(err, errlen, "%s failed: %s (%s, %d)", call, text ? text : "unknown error",
               name ? name : "CUresult", rc);
    return -1;
}

static int rtc_fail(char *err, size_t errlen, const char *call, int rc)
{
    const char *text = C.rtcGetErrorString ? C.rtcGetErrorString(rc) : NULL;
    gpu_dl_fmt(err, errlen, "%s failed: %s (nvrtcResult %d)", call,
               text ? text : "unknown error", rc);
    return -1;
}

static int load_driver(void)
{
    const char *override = getenv("KLADDER_CUDA_LIBRARY");
    const char *const *cands = override && override[0] ? NAMES(override)
                                                        : NAMES("libcuda.so.1", "libcuda.so");
    char why[600];
    C.lib = gpu_dl_open_first(cands, NULL, why, sizeof why);
    if (!C.lib) {
        gpu_dl_fmt(C.driver_why, sizeof C.driver_why,
                   "NVIDIA driver library not found (%s); no NVIDIA driver is installed here",
                   why);
        return -1;
    }
    gpu_dl_path_of(C.lib, "cuInit", C.lib_path, sizeof C.lib_path);
    const struct gpu_dl_sym syms[] = {
        SYM(Init, "cuInit"),
        SYM(DriverGetVersion, "cuDriverGetVersion"),
        SYM(GetErrorName, "cuGetErrorName"),
        SYM(GetErrorString, "cuGetErrorString"),
        SYM(DeviceGetCount, "cuDeviceGetCount"),
        SYM(DeviceGet, "cuDeviceGet"),
        SYM(DeviceGetName, "cuDeviceGetName"),
        SYM(DeviceTotalMem, "cuDeviceTotalMem_v2"),
        SYM(DeviceGetAttribute, "cuDeviceGetAttribute"),
        SYM(DeviceGetPCIBusId, "cuDeviceGetPCIBusId"),
        SYM(DevicePrimaryCtxRetain, "cuDevicePrimaryCtxRetain"),
        SYM(DevicePrimaryCtxRelease, "cuDevicePrimaryCtxRelease_v2"),
        SYM(CtxSetCurrent, "cuCtxSetCurrent"),
        SYM(ModuleLoadData, "cuModuleLoadData"),
        SYM(ModuleUnload, "cuModuleUnload"),
        SYM(ModuleGetFunction, "cuModuleGetFunction"),
        SYM(FuncSetAttribute, "cuFuncSetAttribute"),
        SYM(LaunchKernel, "cuLaunchKernel"),
        SYM(MemAlloc, "cuMemAlloc_v2"),
        SYM(MemFree, "cuMemFree_v2"),
        SYM(MemcpyHtoDAsync, "cuMemcpyHtoDAsync_v2"),
        SYM(MemcpyDtoHAsync, "cuMemcpyDtoHAsync_v2"),
        SYM(MemsetD8Async, "cuMemsetD8Async"),
        SYM(StreamCreate, "cuStreamCreate"),
        SYM(StreamDestroy, "cuStreamDestroy_v2"),
        SYM(StreamSynchronize, "cuStreamSynchronize"),
        SYM(StreamWaitEvent, "cuStreamWaitEvent"),
        SYM(EventCreate, "cuEventCreate"),
        SYM(EventDestroy, "cuEventDestroy_v2"),
        SYM(EventRecord, "cuEventRecord"),
        SYM(EventElapsedTime, "cuEventElapsedTime_v2", "cuEventElapsedTime"),
        SYM(EventSynchronize, "cuEventSynchronize"),
        SYM(StreamBeginCapture, "cuStreamBeginCapture_v2"),
        SYM(StreamEndCapture, "cuStreamEndCapture"),
        OPT(GraphInstantiateWithFlags, "cuGraphInstantiateWithFlags"),
        OPT(GraphInstantiate_v2, "cuGraphInstantiate_v2"),
        SYM(GraphLaunch, "cuGraphLaunch"),
        SYM(GraphExecDestroy, "cuGraphExecDestroy"),
        SYM(GraphDestroy, "cuGraphDestroy"),
    };
    if (gpu_dl_bind(C.lib, C.lib_path, syms, sizeof syms / sizeof syms[0], C.driver_why,
                    sizeof C.driver_why))
        return -1;
    if (!C.GraphInstantiateWithFlags && !C.GraphInstantiate_v2) {
        gpu_dl_fmt(C.driver_why, sizeof C.driver_why, "%s has neither "
                   "cuGraphInstantiateWithFlags nor cuGraphInstantiate_v2 (driver older than "
                   "CUDA 11)", C.lib_path);
        return -1;
    }
    /* Answers without cuInit and without a device: the CUDA level the driver implements. */
    if (C.DriverGetVersion(&C.driver_api) != CUDA_SUCCESS)
        C.driver_api = 0;
    return 0;
}

static const struct gpu_dl_sym rtc_syms[] = {
    SYM(rtcVersion, "nvrtcVersion"),
    SYM(rtcCreateProgram, "nvrtcCreateProgram"),
    SYM(rtcCompileProgram, "nvrtcCompileProgram"),
    SYM(rtcGetProgramLogSize, "nvrtcGetProgramLogSize"),
    SYM(rtcGetProgramLog, "nvrtcGetProgramLog"),
    SYM(rtcGetCUBINSize, "nvrtcGetCUBINSize"),
    SYM(rtcGetCUBIN, "nvrtcGetCUBIN"),
    SYM(rtcDestroyProgram, "nvrtcDestroyProgram"),
    SYM(rtcGetErrorString, "nvrtcGetErrorString"),
};

/* Keeps real NVRTC libraries: not the builtins, the alternative-ABI build or link stubs. */
static bool nvrtc_file(const char *path)
{
    const char *b = base_name(path);
    return strncmp(b, "libnvrtc.so", 11) == 0 && !strstr(path, "/stubs/");
}

/* Opens NVRTC candidates in order, binding each; returns 0 when one is kept. */
static int load_nvrtc(void)
{
    /* Candidate list: the override alone, or sonames (the loader's search path), then toolkit
     * folders, newest first. */
    const char *list[64];
    size_t n = 0;
    char paths[3][PATH_MAX];
    glob_t g;
    memset(&g, 0, sizeof g);
    const char *override = getenv("KLADDER_NVRTC");
    if (override && override[0]) {
        list[n++] = override;
    } else {
        const char *sonames[] = {"libnvrtc.so", "libnvrtc.so.13", "libnvrtc.so.12",
                                 "libnvrtc.so.11.2", NULL};
        for (size_t i = 0; sonames[i]; i++)
            list[n++] = sonames[i];
        const char *roots[] = {getenv("CUDA_HOME"), getenv("CUDA_PATH"), "/usr/local/cuda"};
        for (size_t i = 0; i < 3; i++) {
            if (roots[i] && roots[i][0]) {
                snprintf(paths[i], PATH_MAX, "%s/lib64/libnvrtc.so", roots[i]);
                list[n++] = paths[i];
            }
        }
        int flags = 0;
        const char *pats[] = {"/usr/local/cuda*/lib64/libnvrtc.so*",
                              "/usr/local/cuda*/lib/libnvrtc.so*",
                              "/usr/local/cuda*/targets/*/lib/libnvrtc.so*"};
        for (size_t i = 0; i < 3; i++) {
            glob(pats[i], flags, NULL, &g);
            flags = GLOB_APPEND;
        }
        /* glob sorts ascending; walk backwards so cuda-13.0 comes before cuda-12.4. */
        for (size_t i = g.gl_pathc; i-- > 0 && n + 1 < sizeof list / sizeof list[0];)
            if (nvrtc_file(g.gl_pathv[i]))
                list[n++] = g.gl_pathv[i];
    }

    char tried[900] = "";
    int rc = -1;
    void *fallback = NULL;
    int driver_major = C.driver_api / 1000;
    for (size_t i = 0; i < n && rc != 0; i++) {
        void *h = gpu_dl_open_first(NAMES(list[i]), NULL, NULL, 0);
        if (!h) {
            size_t used = strlen(tried);
            if (used + 1 < sizeof tried)
                gpu_dl_fmt(tried + used, sizeof tried - used, "%s%s", used ? ", " : "",
                           list[i]);
            continue;
        }
        char path[PATH_MAX];
        gpu_dl_path_of(h, "nvrtcVersion", path, sizeof path);
        if (gpu_dl_bind(h, path, rtc_syms, sizeof rtc_syms / sizeof rtc_syms[0], NULL, 0))
            continue; /* not an NVRTC (or a stub): keep looking */
        int major = 0, minor = 0;
        C.rtcVersion(&major, &minor);
        if (driver_major && major > driver_major) {
            if (!fallback)
                fallback = h;
            continue;
        }
        C.rtc_lib = h;
        gpu_dl_copy(C.rtc_path, sizeof C.rtc_path, path);
        C.rtc_major = major;
        C.rtc_minor = minor;
        rc = 0;
    }
    if (rc != 0 && fallback) {
        /* Only NVRTCs newer than the driver: keep the first, and say what will happen. */
        C.rtc_lib = fallback;
        gpu_dl_path_of(fallback, "nvrtcVersion", C.rtc_path, sizeof C.rtc_path);
        gpu_dl_bind(fallback, C.rtc_path, rtc_syms, sizeof rtc_syms / sizeof rtc_syms[0], NULL,
                    0);
        C.rtcVersion(&C.rtc_major, &C.rtc_minor);
        gpu_dl_fmt(C.rtc_note, sizeof C.rtc_note, "NVRTC %d.%d is newer than the driver's CUDA "
                   "%d.%d, which may refuse its CUBINs; set KLADDER_NVRTC to an older NVRTC",
                   C.rtc_major, C.rtc_minor, driver_major, (C.driver_api % 1000) / 10);
        rc = 0;
    }
    if (rc != 0)
        gpu_dl_fmt(C.why, sizeof C.why, "NVRTC not found (tried %s); install the CUDA toolkit's "
                   "NVRTC or set KLADDER_NVRTC to a libnvrtc.so", tried[0] ? tried : "nothing");
    globfree(&g);
    return rc;
}

static int cuda_load(char *why, size_t whylen)
{
    if (C.state == 0) {
        if (load_driver() != 0) {
            /* Compilation does not need the driver; unbind it so nothing half-bound is used. */
            C.lib = NULL;
            C.Init = NULL;
        }
        if (load_nvrtc() == 0) {
            C.state = 1;
            gpu_dl_fmt(C.compiler_version, sizeof C.compiler_version, "NVRTC %d.%d",
                       C.rtc_major, C.rtc_minor);
            gpu_dl_fmt(C.compiler_id, sizeof C.compiler_id, "nvrtc %d.%d (%s)", C.rtc_major,
                       C.rtc_minor, base_name(C.rtc_path));
        } else {
            C.state = -1;
            if (C.driver_why[0]) {
                size_t used = strlen(C.why);
                gpu_dl_fmt(C.why + used, sizeof C.why - used, "; %s", C.driver_why);
            }
        }
    }
    if (C.state < 0)
        gpu_dl_fmt(why, whylen, "%s", C.why);
    return C.state > 0 ? 0 : -1;
}

static int devices_ready(char *err, size_t errlen)
{
    if (C.state <= 0) {
        gpu_dl_fmt(err, errlen, "cuda backend not loaded%s%s", C.why[0] ? ": " : "", C.why);
        return -1;
    }
    if (C.device_state == 0) {
        if (!C.Init) {
            gpu_dl_copy(C.device_why, sizeof C.device_why, C.driver_why);
            C.device_state = -1;
        } else {
            const char *call = "cuInit";
            cu_result rc = C.Init(0);
            if (rc == CUDA_SUCCESS) {
                call = "cuDeviceGetCount";
                rc = C.DeviceGetCount(&C.ndev);
            }
            if (rc != CUDA_SUCCESS) {
                fail(C.device_why, sizeof C.device_why, call, rc);
                C.ndev = 0;
            }
            C.device_state = rc == CUDA_SUCCESS ? 1 : -1;
        }
    }
    if (C.device_state < 0) {
        gpu_dl_fmt(err, errlen, "%s", C.device_why);
        return -1;
    }
    return 0;
}

static int cuda_device_count(int *count, char *err, size_t errlen)
{
    *count = 0;
    if (devices_ready(err, errlen))
        return -1;
    *count = C.ndev;
    return 0;
}

static int check_index(int index, char *err, size_t errlen)
{
    if (index < 0 || index >= C.ndev) {
        gpu_dl_fmt(err, errlen, "cuda device %d does not exist (%d device%s)", index, C.ndev,
                   C.ndev == 1 ? "" : "s");
        return -1;
    }
    return 0;
}

/* The kernel module's release ("580.159.04") from /proc/driver/nvidia/version, or "". */
static void nvidia_release(char *out, size_t len)
{
    char line[512];
    gpu_dl_copy(out, len, "");
    if (gpu_dl_read_line("/proc/driver/nvidia/version", line, sizeof line))
        return;
    for (char *tok = strtok(line, " \t"); tok; tok = strtok(NULL, " \t")) {
        int a, b;
        if (sscanf(tok, "%d.%d", &a, &b) == 2 && strchr(tok, '.') && tok[0] >= '0' &&
            tok[0] <= '9') {
            gpu_dl_copy(out, len, tok);
            return;
        }
    }
}

static int cuda_device_info(int index, struct eng_device_info *out, char *err, size_t errlen)
{
    memset(out, 0, sizeof *out);
    out->index = index;
    if (devices_ready(err, errlen) || check_index(index, err, errlen))
        return -1;
    cu_device dev = 0;
    cu_result rc = C.DeviceGet(&dev, index);
    if (rc != CUDA_SUCCESS)
        return fail(err, errlen, "cuDeviceGet", rc);
    rc = C.DeviceGetName(out->name, (int)sizeof out->name, dev);
    if (rc != CUDA_SUCCESS)
        return fail(err, errlen, "cuDeviceGetName", rc);
    int major = 0, minor = 0, optin = 0;
    struct { int attr; int *dst; const char *what; } attrs[] = {
        {CU_ATTR_CC_MAJOR, &major, "compute capability major"},
        {CU_ATTR_CC_MINOR, &minor, "compute capability minor"},
        {CU_ATTR_WARP_SIZE, &out->wave_size, "warp size"},
        {CU_ATTR_MULTIPROCESSOR_COUNT, &out->compute_units, "multiprocessor count"},
        {CU_ATTR_MAX_THREADS_PER_BLOCK, &out->max_threads_per_block, "max threads per block"},
        {CU_ATTR_MAX_SHARED_MEMORY_PER_BLOCK, &out->shared_mem_per_block, "shared memory"},
        {CU_ATTR_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN, &optin, "opt-in shared memory"},
    };
    for (size_t i = 0; i < sizeof attrs / sizeof attrs[0]; i++) {
        rc = C.DeviceGetAttribute(attrs[i].dst, attrs[i].attr, dev);
        if (rc != CUDA_SUCCESS) {
            char call[96];
            gpu_dl_fmt(call, sizeof call, "cuDeviceGetAttribute(%s)", attrs[i].what);
            return fail(err, errlen, call, rc);
        }
    }
    /* Kernels can use the opt-in amount; launch() raises each function's limit on demand. */
    if (optin > out->shared_mem_per_block)
        out->shared_mem_per_block = optin;
    gpu_dl_fmt(out->target, sizeof out->target, "sm_%d%d", major, minor);
    gpu_dl_copy(out->target_full, sizeof out->target_full, out->target);
    size_t mem = 0;
    rc = C.DeviceTotalMem(&mem, dev);
    if (rc != CUDA_SUCCESS)
        return fail(err, errlen, "cuDeviceTotalMem_v2", rc);
    out->mem_bytes = (int64_t)mem;
    if (C.DeviceGetPCIBusId(out->pci_bus_id, (int)sizeof out->pci_bus_id, dev) != CUDA_SUCCESS)
        out->pci_bus_id[0] = '\0';
    for (char *p = out->pci_bus_id; *p; p++)
        if (*p >= 'A' && *p <= 'F')
            *p = (char)(*p - 'A' + 'a');
    char release[32];
    nvidia_release(release, sizeof release);
    gpu_dl_fmt(out->driver_version, sizeof out->driver_version, "%s%sCUDA %d.%d",
               release[0] ? release : "", release[0] ? ", " : "", C.driver_api / 1000,
               (C.driver_api % 1000) / 10);
    gpu_dl_fmt(out->runtime_version, sizeof out->runtime_version, "CUDA driver API %d.%d",
               C.driver_api / 1000, (C.driver_api % 1000) / 10);
    gpu_dl_copy(out->compiler_version, sizeof out->compiler_version, C.compiler_version);
    return 0;
}

/* The context this thread has current; cuCtxSetCurrent only when it changes. */
static _Thread_local cu_handle tl_current;
static int use_ctx(struct eng_ctx *ctx, char *err, size_t errlen)
{
    if (tl_current == ctx->ctx)
        return 0;
    cu_result rc = C.CtxSetCurrent(ctx->ctx);
    if (rc != CUDA_SUCCESS)
        return fail(err, errlen, "cuCtxSetCurrent", rc);
    tl_current = ctx->ctx;
    return 0;
}

static int cuda_open(int index, const struct eng_open_opts *opts, struct eng_ctx **out,
                     char *err, size_t errlen)
{
    (void)opts;
    *out = NULL;
    if (devices_ready(err, errlen) || check_index(index, err, errlen))
        return -1;
    struct eng_ctx *ctx = calloc(1, sizeof *ctx);
    if (!ctx) {
        gpu_dl_fmt(err, errlen, "out of host memory");
        return -1;
    }
    ctx->index = index;
    cu_result rc = C.DeviceGet(&ctx->dev, index);
    if (rc == CUDA_SUCCESS)
        rc = C.DevicePrimaryCtxRetain(&ctx->ctx, ctx->dev);
    if (rc != CUDA_SUCCESS) {
        free(ctx);
        return fail(err, errlen, "cuDevicePrimaryCtxRetain", rc);
    }
    tl_current = NULL;
    if (use_ctx(ctx, err, errlen)) {
        (void)C.DevicePrimaryCtxRelease(ctx->dev);
        free(ctx);
        return -1;
    }
    *out = ctx;
    return 0;
}

static void cuda_close(struct eng_ctx *ctx)
{
    if (!ctx)
        return;
    if (use_ctx(ctx, NULL, 0) == 0)
        (void)C.StreamSynchronize(NULL);
    (void)C.DevicePrimaryCtxRelease(ctx->dev);
    if (tl_current == ctx->ctx)
        tl_current = NULL;
    free(ctx);
}

static const char *cuda_compiler_id(void)
{
    return C.state > 0 ? C.compiler_id : "nvrtc unavailable";
}

static size_t copy_log(cu_handle prog, char *log, size_t loglen)
{
    if (!log || loglen == 0)
        return 0;
    log[0] = '\0';
    size_t n = 0;
    if (C.rtcGetProgramLogSize(prog, &n) != NVRTC_SUCCESS || n <= 1)
        return 0;
    char *buf = malloc(n + 1);
    if (!buf)
        return 0;
    buf[0] = '\0';
    if (C.rtcGetProgramLog(prog, buf) == NVRTC_SUCCESS) {
        buf[n] = '\0';
        gpu_dl_copy(log, loglen, buf);
    }
    free(buf);
    return strlen(log);
}

static int cuda_compile(const char *target, const char *source, const char *name,
                        const char *const *flags, void **code, size_t *code_len, char *log,
                        size_t loglen)
{
    *code = NULL;
    *code_len = 0;
    if (C.state <= 0) {
        gpu_dl_fmt(log, loglen, "cuda backend not loaded%s%s", C.why[0] ? ": " : "", C.why);
        return -1;
    }
    /* A real sm_XY (CUBIN needs SASS; compute_XY would give PTX only). */
    if (!target || strncmp(target, "sm_", 3) != 0 || target[3] < '1' || target[3] > '9') {
        gpu_dl_fmt(log, loglen, "cuda compile: target \"%s\" is not an sm_XY architecture",
                   target ? target : "");
        return -1;
    }
    size_t nflags = 0;
    while (flags && flags[nflags])
        nflags++;
    const char **opts = calloc(nflags + 2, sizeof *opts);
    if (!opts) {
        gpu_dl_fmt(log, loglen, "out of host memory");
        return -1;
    }
    char arch[96];
    gpu_dl_fmt(arch, sizeof arch, "--gpu-architecture=%s", target);
    size_t n = 0;
    opts[n++] = arch;
    for (size_t i = 0; i < nflags; i++)
        opts[n++] = flags[i];

    cu_handle prog = NULL;
    int rc = C.rtcCreateProgram(&prog, source, name ? name : "kernel.kl", 0, NULL, NULL);
    if (rc != NVRTC_SUCCESS) {
        free(opts);
        return rtc_fail(log, loglen, "nvrtcCreateProgram", rc);
    }
    rc = C.rtcCompileProgram(prog, (int)n, opts);
    free(opts);
    if (rc != NVRTC_SUCCESS) {
        size_t used = copy_log(prog, log, loglen);
        if (log && used + 1 < loglen) {
            const char *text = C.rtcGetErrorString ? C.rtcGetErrorString(rc) : NULL;
            gpu_dl_fmt(log + used, loglen - used, "%snvrtcCompileProgram(%s) failed: %s (%d)",
                       used ? "\n" : "", target, text ? text : "error", rc);
        }
        C.rtcDestroyProgram(&prog);
        return -1;
    }
    size_t size = 0;
    rc = C.rtcGetCUBINSize(prog, &size);
    if (rc != NVRTC_SUCCESS || size == 0) {
        C.rtcDestroyProgram(&prog);
        if (rc == NVRTC_SUCCESS)
            gpu_dl_fmt(log, loglen, "nvrtcGetCUBINSize: no CUBIN for %s", target);
        return rc == NVRTC_SUCCESS ? -1 : rtc_fail(log, loglen, "nvrtcGetCUBINSize", rc);
    }
    char *buf = malloc(size);
    if (!buf) {
        C.rtcDestroyProgram(&prog);
        gpu_dl_fmt(log, loglen, "out of host memory (%zu-byte CUBIN)", size);
        return -1;
    }
    rc = C.rtcGetCUBIN(prog, buf);
    C.rtcDestroyProgram(&prog);
    if (rc != NVRTC_SUCCESS) {
        free(buf);
        return rtc_fail(log, loglen, "nvrtcGetCUBIN", rc);
    }
    if (log && loglen)
        log[0] = '\0';
    *code = buf;
    *code_len = size;
    return 0;
}

static int cuda_module_load(struct eng_ctx *ctx, const void *code, size_t len,
                            struct eng_module **out, char *err, size_t errlen)
{
    (void)len;
    *out = NULL;
    if (use_ctx(ctx, err, errlen))
        return -1;
    cu_handle m = NULL;
    cu_result rc = C.ModuleLoadData(&m, code);
    if (rc != CUDA_SUCCESS) {
        fail(err, errlen, "cuModuleLoadData", rc);
        if (C.rtc_note[0]) {
            size_t used = strlen(err);
            gpu_dl_fmt(err + used, errlen - used, " (%s)", C.rtc_note);
        }
        return -1;
    }
    struct eng_module *mod = calloc(1, sizeof *mod);
    if (!mod) {
        (void)C.ModuleUnload(m);
        gpu_dl_fmt(err, errlen, "out of host memory");
        return -1;
    }
    mod->mod = m;
    *out = mod;
    return 0;
}

static void cuda_module_unload(struct eng_ctx *ctx, struct eng_module *mod)
{
    if (!mod)
        return;
    if (use_ctx(ctx, NULL, 0) == 0)
        (void)C.ModuleUnload(mod->mod);
    while (mod->kernels) {
        struct eng_kernel *k = mod->kernels;
        mod->kernels = k->next;
        free(k);
    }
    free(mod);
}

static int cuda_kernel_get(struct eng_ctx *ctx, struct eng_module *mod, const char *entry,
                           struct eng_kernel **out, char *err, size_t errlen)
{
    *out = NULL;
    if (use_ctx(ctx, err, errlen))
        return -1;
    cu_handle fn = NULL;
    cu_result rc = C.ModuleGetFunction(&fn, mod->mod, entry);
    if (rc != CUDA_SUCCESS) {
        char call[192];
        gpu_dl_fmt(call, sizeof call, "cuModuleGetFunction(\"%s\")", entry);
        return fail(err, errlen, call, rc);
    }
    struct eng_kernel *k = calloc(1, sizeof *k);
    if (!k) {
        gpu_dl_fmt(err, errlen, "out of host memory");
        return -1;
    }
    k->fn = fn;
    k->dyn_shared_limit = CU_DEFAULT_DYNAMIC_SHARED;
    gpu_dl_copy(k->name, sizeof k->name, entry);
    k->next = mod->kernels;
    mod->kernels = k;
    *out = k;
    return 0;
}

static int cuda_mem_alloc(struct eng_ctx *ctx, size_t bytes, eng_dptr *out, char *err,
                          size_t errlen)
{
    *out = 0;
    if (use_ctx(ctx, err, errlen))
        return -1;
    cu_dptr p = 0;
    cu_result rc = C.MemAlloc(&p, bytes ? bytes : 1);
    if (rc != CUDA_SUCCESS) {
        char call[64];
        gpu_dl_fmt(call, sizeof call, "cuMemAlloc_v2(%zu bytes)", bytes);
        return fail(err, errlen, call, rc);
    }
    *out = (eng_dptr)p;
    return 0;
}

static void cuda_mem_free(struct eng_ctx *ctx, eng_dptr p)
{
    if (p && use_ctx(ctx, NULL, 0) == 0)
        (void)C.MemFree((cu_dptr)p);
}

static cu_handle stream_of(struct eng_stream *s)
{
    return s ? s->s : NULL;
}

static int copy_done(struct eng_stream *s, const char *call, char *err, size_t errlen)
{
    if (s && s->capturing)
        return 0;
    cu_result rc = C.StreamSynchronize(stream_of(s));
    if (rc != CUDA_SUCCESS) {
        char what[96];
        gpu_dl_fmt(what, sizeof what, "cuStreamSynchronize after %s", call);
        return fail(err, errlen, what, rc);
    }
    return 0;
}

static int cuda_memcpy_htod(struct eng_ctx *ctx, eng_dptr dst, const void *src, size_t bytes,
                            struct eng_stream *s, char *err, size_t errlen)
{
    if (use_ctx(ctx, err, errlen))
        return -1;
    cu_result rc = C.MemcpyHtoDAsync((cu_dptr)dst, src, bytes, stream_of(s));
    if (rc != CUDA_SUCCESS)
        return fail(err, errlen, "cuMemcpyHtoDAsync_v2", rc);
    return copy_done(s, "cuMemcpyHtoDAsync_v2", err, errlen);
}

static int cuda_memcpy_dtoh(struct eng_ctx *ctx, void *dst, eng_dptr src, size_t bytes,
                            struct eng_stream *s, char *err, size_t errlen)
{
    if (use_ctx(ctx, err, errlen))
        return -1;
    cu_result rc = C.MemcpyDtoHAsync(dst, (cu_dptr)src, bytes, stream_of(s));
    if (rc != CUDA_SUCCESS)
        return fail(err, errlen, "cuMemcpyDtoHAsync_v2", rc);
    return copy_done(s, "cuMemcpyDtoHAsync_v2", err, errlen);
}

static int cuda_memset_d8(struct eng_ctx *ctx, eng_dptr dst, uint8_t value, size_t bytes,
                          struct eng_stream *s, char *err, size_t errlen)
{
    if (use_ctx(ctx, err, errlen))
        return -1;
    cu_result rc = C.MemsetD8Async((cu_dptr)dst, value, bytes, stream_of(s));
    return rc == CUDA_SUCCESS ? 0 : fail(err, errlen, "cuMemsetD8Async", rc);
}

static int cuda_stream_create(struct eng_ctx *ctx, struct eng_stream **out, char *err,
                              size_t errlen)
{
    *out = NULL;
    if (use_ctx(ctx, err, errlen))
        return -1;
    struct eng_stream *s = calloc(1, sizeof *s);
    if (!s) {
        gpu_dl_fmt(err, errlen, "out of host memory");
        return -1;
    }
    cu_result rc = C.StreamCreate(&s->s, CU_STREAM_NON_BLOCKING);
    if (rc != CUDA_SUCCESS) {
        free(s);
        return fail(err, errlen, "cuStreamCreate(CU_STREAM_NON_BLOCKING)", rc);
    }
    *out = s;
    return 0;
}

static void cuda_stream_destroy(struct eng_ctx *ctx, struct eng_stream *s)
{
    if (!s)
        return;
    if (use_ctx(ctx, NULL, 0) == 0)
        (void)C.StreamDestroy(s->s);
    free(s);
}

static int cuda_stream_sync(struct eng_ctx *ctx, struct eng_stream *s, char *err, size_t errlen)
{
    if (use_ctx(ctx, err, errlen))
        return -1;
    cu_result rc = C.StreamSynchronize(stream_of(s));
    return rc == CUDA_SUCCESS ? 0 : fail(err, errlen, "cuStreamSynchronize", rc);
}

static int cuda_event_create(struct eng_ctx *ctx, struct eng_event **out, char *err,
                             size_t errlen)
{
    *out = NULL;
    if (use_ctx(ctx, err, errlen))
        return -1;
    struct eng_event *e = calloc(1, sizeof *e);
    if (!e) {
        gpu_dl_fmt(err, errlen, "out of host memory");
        return -1;
    }
    cu_result rc = C.EventCreate(&e->e, CU_EVENT_DEFAULT);
    if (rc != CUDA_SUCCESS) {
        free(e);
        return fail(err, errlen, "cuEventCreate", rc);
    }
    *out = e;
    return 0;
}

static void cuda_event_destroy(struct eng_ctx *ctx, struct eng_event *e)
{
    if (!e)
        return;
    if (use_ctx(ctx, NULL, 0) == 0)
        (void)C.EventDestroy(e->e);
    free(e);
}

static int cuda_event_record(struct eng_ctx *ctx, struct eng_event *e, struct eng_stream *s,
                             char *err, size_t errlen)
{
    if (use_ctx(ctx, err, errlen))
        return -1;
    cu_result rc = C.EventRecord(e->e, stream_of(s));
    return rc == CUDA_SUCCESS ? 0 : fail(err, errlen, "cuEventRecord", rc);
}

static int cuda_stream_wait_event(struct eng_ctx *ctx, struct eng_stream *s,
                                  struct eng_event *e, char *err, size_t errlen)
{
    if (use_ctx(ctx, err, errlen))
        return -1;
    cu_result rc = C.StreamWaitEvent(stream_of(s), e->e, 0);
    return rc == CUDA_SUCCESS ? 0 : fail(err, errlen, "cuStreamWaitEvent", rc);
}

static int cuda_event_elapsed_ms(struct eng_ctx *ctx, struct eng_event *start,
                                 struct eng_event *end, float *ms, char *err, size_t errlen)
{
    *ms = 0.0f;
    if (use_ctx(ctx, err, errlen))
        return -1;
    /* The interval may still be running: wait for its end rather than answer "not ready". */
    cu_result rc = C.EventElapsedTime(ms, start->e, end->e);
    if (rc == CUDA_ERROR_NOT_READY) {
        rc = C.EventSynchronize(end->e);
        if (rc != CUDA_SUCCESS)
            return fail(err, errlen, "cuEventSynchronize", rc);
        rc = C.EventElapsedTime(ms, start->e, end->e);
    }
    return rc == CUDA_SUCCESS ? 0 : fail(err, errlen, "cuEventElapsedTime", rc);
}

static bool sync_launches(void)
{
    static int on = -1;
    if (on < 0) {
        const char *v = getenv("KLADDER_SYNC_LAUNCHES");
        on = v && v[0] && strcmp(v, "0") != 0;
    }
    return on;
}

static int cuda_launch(struct eng_ctx *ctx, struct eng_kernel *k, const unsigned grid[3],
                       const unsigned block[3], unsigned shared_bytes, struct eng_stream *s,
                       void **args, char *err, size_t errlen)
{
    if (use_ctx(ctx, err, errlen))
        return -1;
    if ((int)shared_bytes > k->dyn_shared_limit) {
        cu_result rc = C.FuncSetAttribute(k->fn, CU_FUNC_ATTR_MAX_DYNAMIC_SHARED_SIZE_BYTES,
                                          (int)shared_bytes);
        if (rc != CUDA_SUCCESS) {
            char call[192];
            gpu_dl_fmt(call, sizeof call, "cuFuncSetAttribute(%s, max dynamic shared = %u)",
                       k->name, shared_bytes);
            return fail(err, errlen, call, rc);
        }
        k->dyn_shared_limit = (int)shared_bytes;
    }
    cu_result rc = C.LaunchKernel(k->fn, grid[0], grid[1], grid[2], block[0], block[1],
                                  block[2], shared_bytes, stream_of(s), args, NULL);
    const char *what = "cuLaunchKernel";
    /* KLADDER_SYNC_LAUNCHES=1: wait for every launch, so a fault is blamed on its kernel
     * instead of surfacing at the next synchronisation. */
    if (rc == CUDA_SUCCESS && sync_launches() && !(s && s->capturing)) {
        what = "the kernel, run synchronously";
        rc = C.StreamSynchronize(stream_of(s));
    }
    if (rc != CUDA_SUCCESS) {
        char call[256];
        gpu_dl_fmt(call, sizeof call, "%s (%s, grid %ux%ux%u, block %ux%ux%u, %u B shared)", what,
                   k->name, grid[0], grid[1], grid[2], block[0], block[1], block[2],
                   shared_bytes);
        return fail(err, errlen, call, rc);
    }
    return 0;
}

static int cuda_graph_begin(struct eng_ctx *ctx, struct eng_stream *s, char *err, size_t errlen)
{
    if (!s) {
        gpu_dl_fmt(err, errlen, "cuStreamBeginCapture_v2: the null stream cannot be captured; "
                   "capture a created stream");
        return -1;
    }
    if (use_ctx(ctx, err, errlen))
        return -1;
    /* Thread-local mode: unsafe calls during capture fail on this thread only. */
    cu_result rc = C.StreamBeginCapture(s->s, CU_CAPTURE_MODE_THREAD_LOCAL);
    if (rc != CUDA_SUCCESS)
        return fail(err, errlen, "cuStreamBeginCapture_v2", rc);
    s->capturing = true;
    return 0;
}

static int cuda_graph_end(struct eng_ctx *ctx, struct eng_stream *s, struct eng_graph **out,
                          char *err, size_t errlen)
{
    *out = NULL;
    if (!s) {
        gpu_dl_fmt(err, errlen, "cuStreamEndCapture: the null stream is never captured");
        return -1;
    }
    if (use_ctx(ctx, err, errlen))
        return -1;
    cu_handle graph = NULL, exec = NULL;
    cu_result rc = C.StreamEndCapture(s->s, &graph);
    s->capturing = false;
    if (rc != CUDA_SUCCESS)
        return fail(err, errlen, "cuStreamEndCapture", rc);
    if (C.GraphInstantiateWithFlags) {
        rc = C.GraphInstantiateWithFlags(&exec, graph, 0);
        if (rc != CUDA_SUCCESS) {
            (void)C.GraphDestroy(graph);
            return fail(err, errlen, "cuGraphInstantiateWithFlags", rc);
        }
    } else {
        char log[256] = "";
        rc = C.GraphInstantiate_v2(&exec, graph, NULL, log, sizeof log);
        if (rc != CUDA_SUCCESS) {
            (void)C.GraphDestroy(graph);
            return fail(err, errlen, "cuGraphInstantiate_v2", rc);
        }
    }
    struct eng_graph *g = calloc(1, sizeof *g);
    if (!g) {
        (void)C.GraphExecDestroy(exec);
        (void)C.GraphDestroy(graph);
        gpu_dl_fmt(err, errlen, "out of host memory");
        return -1;
    }
    g->graph = graph;
    g->exec = exec;
    *out = g;
    return 0;
}

static int cuda_graph_launch(struct eng_ctx *ctx, struct eng_graph *g, struct eng_stream *s,
                             char *err, size_t errlen)
{
    if (use_ctx(ctx, err, errlen))
        return -1;
    cu_result rc = C.GraphLaunch(g->exec, stream_of(s));
    return rc == CUDA_SUCCESS ? 0 : fail(err, errlen, "cuGraphLaunch", rc);
}

static void cuda_graph_destroy(struct eng_ctx *ctx, struct eng_graph *g)
{
    if (!g)
        return;
    if (use_ctx(ctx, NULL, 0) == 0) {
        (void)C.GraphExecDestroy(g->exec);
        (void)C.GraphDestroy(g->graph);
    }
    free(g);
}

/* ---- several devices in one process (rung 6) -------------------------------------------- */

/* cuCtxEnablePeerAccess is bound here, on first use, so the backend's symbol table stays as
 * it is for single-device work. */
static int cuda_peer_enable(struct eng_ctx *ctx, struct eng_ctx *peer, char *err, size_t errlen)
{
    static cu_result (*enable)(cu_handle, unsigned);
    if (!enable)
        *(void **)&enable = C.lib ? dlsym(C.lib, "cuCtxEnablePeerAccess") : NULL;
    if (!enable) {
        gpu_dl_fmt(err, errlen, "cuCtxEnablePeerAccess is not exported by the driver library");
        return -1;
    }
    if (ctx == peer)
        return 0;
    if (use_ctx(ctx, err, errlen))
        return -1;
    cu_result rc = enable(peer->ctx, 0);
    /* 704: CUDA_ERROR_PEER_ACCESS_ALREADY_ENABLED */
    return rc == CUDA_SUCCESS || rc == 704 ? 0 : fail(err, errlen, "cuCtxEnablePeerAccess", rc);
}

static void *cuda_stream_native(struct eng_ctx *ctx, struct eng_stream *s)
{
    if (use_ctx(ctx, NULL, 0))
        return NULL;
    return stream_of(s);
}

const struct eng_backend eng_backend_cuda = {
    .name = "cuda",
    .caps = {.real_concurrency = true, .util_block = 256, .delay_ticks = 20000000,
             .poll_spins = 1u << 24, .collectives = "NCCL"},
    .load = cuda_load,
    .device_count = cuda_device_count,
    .device_info = cuda_device_info,
    .open = cuda_open,
    .close = cuda_close,
    .compiler_id = cuda_compiler_id,
    .compile_target = eng_backend_gpu_target,
    .compile = cuda_compile,
    .module_load = cuda_module_load,
    .module_unload = cuda_module_unload,
    .kernel_get = cuda_kernel_get,
    .mem_alloc = cuda_mem_alloc,
    .mem_free = cuda_mem_free,
    .memcpy_htod = cuda_memcpy_htod,
    .memcpy_dtoh = cuda_memcpy_dtoh,
    .memset_d8 = cuda_memset_d8,
    .stream_create = cuda_stream_create,
    .stream_destroy = cuda_stream_destroy,
    .stream_sync = cuda_stream_sync,
    .event_create = cuda_event_create,
    .event_destroy = cuda_event_destroy,
    .event_record = cuda_event_record,
    .stream_wait_event = cuda_stream_wait_event,
    .event_elapsed_ms = cuda_event_elapsed_ms,
    .launch = cuda_launch,
    .graph_begin = cuda_graph_begin,
    .graph_end = cuda_graph_end,
    .graph_launch = cuda_graph_launch,
    .graph_destroy = cuda_graph_destroy,
    .peer_enable = cuda_peer_enable,
    .stream_native = cuda_stream_native,
};
