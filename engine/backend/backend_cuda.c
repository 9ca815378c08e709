/* The cuda backend: NVIDIA GPUs through the driver API (libcuda.so.1) and NVRTC, both opened with
 * dlopen, so the binary builds without the CUDA toolkit. Modules, memory, streams, events,
 * graphs and launches are the GPU runtime core's (gpu_rt.c); this file loads the libraries,
 * binds the core's entry points, and keeps device facts, contexts and compilation.
 *
 * ABI notes (each one is a silent wrong answer or a crash when missed):
 *  - cuda.h renames many calls with macros; the exported names we bind are the ones those macros
 *    expand to without per-thread default streams: cuMemAlloc_v2, cuMemFree_v2,
 *    cuMemcpyHtoDAsync_v2, cuMemcpyDtoHAsync_v2, cuDeviceTotalMem_v2, cuStreamDestroy_v2,
 *    cuEventDestroy_v2, cuStreamBeginCapture_v2, cuDevicePrimaryCtxRelease_v2,
 *    cuModuleGetGlobal_v2. cuMemsetD8Async, cuLaunchKernel, cuStreamEndCapture and
 *    cuGraphLaunch have no version suffix.
 *  - cuGraphInstantiate means cuGraphInstantiateWithFlags (3 arguments) from CUDA 12 but the
 *    5-argument cuGraphInstantiate_v2 on CUDA 11; we bind WithFlags (exported since 11.4) and
 *    fall back to _v2 with its own signature, never the ambiguous plain name.
 *  - cuEventElapsedTime_v2 (CUDA 12.8+) before the plain export; same signature.
 *  - CU_LAUNCH_PARAM_END is 0 while HIP's is 3: we pass kernelParams only, never `extra`.
 *  - cuCtxCreate is at _v4 in CUDA 13; we use the primary context instead, as the runtime does.
 *  - CUdeviceptr is a 64-bit integer, as the core's device addresses are, so every entry point
 *    but the context calls, cuEventCreate and cuFuncSetAttribute (shims below) is bound
 *    straight into the core's table.
 *
 * Loading: NVRTC is what load() needs (compilation works without a GPU, as CI does); the driver
 * is opened too, and when it is missing device_count/open say why. When several NVRTC copies
 * exist, the first whose major version the driver supports is taken: a CUBIN from a newer
 * toolkit than the driver is refused at module load. KLADDER_NVRTC and KLADDER_CUDA_LIBRARY name
 * the libraries explicitly. */
#include "engine/backend/backend.h"
#include "engine/toolchain/cache_env.h"
#include "engine/backend/gpu_dl.h"
#include "engine/backend/gpu_rt.h"
#include "engine/backend/cuda_nvcc.h"
#include "engine/backend/gpu_rtc.h"

#include <glob.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

typedef int cu_result;
typedef int cu_device;
typedef void *cu_handle; /* CUcontext, CUfunction */

enum {
    CUDA_SUCCESS = 0,
    CUDA_ERROR_INVALID_VALUE = 1, /* also: past a kernel's last parameter */
    CUDA_ERROR_NOT_READY = 600,
    CUDA_ERROR_PEER_ACCESS_ALREADY_ENABLED = 704,
    CU_ATTR_MAX_THREADS_PER_BLOCK = 1,
    CU_ATTR_MAX_SHARED_MEMORY_PER_BLOCK = 8,
    CU_ATTR_WARP_SIZE = 10,
    CU_ATTR_MULTIPROCESSOR_COUNT = 16,
    CU_ATTR_CC_MAJOR = 75,
    CU_ATTR_CC_MINOR = 76,
    CU_ATTR_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN = 97,
    CU_FUNC_ATTR_MAX_DYNAMIC_SHARED_SIZE_BYTES = 8,
    /* CUfunction_attribute, for cuFuncGetAttribute */
    CU_FUNC_ATTR_MAX_THREADS_PER_BLOCK = 0,
    CU_FUNC_ATTR_SHARED_SIZE_BYTES = 1,
    CU_FUNC_ATTR_LOCAL_SIZE_BYTES = 3,
    CU_FUNC_ATTR_NUM_REGS = 4,
    CU_STREAM_NON_BLOCKING = 1,
    CU_EVENT_DEFAULT = 0,
    CU_CAPTURE_MODE_THREAD_LOCAL = 1,
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
    cu_result (*CtxEnablePeerAccess)(cu_handle, unsigned);
    cu_result (*EventCreate)(cu_handle *, unsigned);
    cu_result (*FuncSetAttribute)(cu_handle, int, int);

    int (*rtcVersion)(int *, int *);
} C;

/* ---- the core's entry points: shims where the driver API's signature differs ------------ */

static void cu_error_string(int status, const char **name, const char **text)
{
    *name = NULL;
    *text = NULL;
    if (C.GetErrorName)
        C.GetErrorName(status, name);
    if (C.GetErrorString)
        C.GetErrorString(status, text);
}

/* The device's primary context, as the CUDA runtime uses it (see the top of the file). */
static int cu_ctx_acquire(int index, int *device, void **native)
{
    cu_result rc = C.DeviceGet(device, index);
    return rc == CUDA_SUCCESS ? C.DevicePrimaryCtxRetain(native, *device) : rc;
}

static int cu_ctx_release(int device, void *native)
{
    (void)native;
    return C.DevicePrimaryCtxRelease(device);
}

static int cu_ctx_set_current(int device, void *native)
{
    (void)device;
    return C.CtxSetCurrent(native);
}

static int cu_enable_peer(int peer_device, void *peer_native)
{
    (void)peer_device;
    return C.CtxEnablePeerAccess(peer_native, 0);
}

static int cu_event_create(void **event)
{
    return C.EventCreate(event, CU_EVENT_DEFAULT);
}

static int cu_dyn_shared_opt_in(void *fn, int bytes)
{
    return C.FuncSetAttribute(fn, CU_FUNC_ATTR_MAX_DYNAMIC_SHARED_SIZE_BYTES, bytes);
}

/* The rest is bound from the library by load_driver(). */
static struct gpu_rt_api cu_rt = {
    .runtime = "CUDA",
    .status_type = "CUresult",
    .library = "the driver library",
    .success = CUDA_SUCCESS,
    .not_ready = CUDA_ERROR_NOT_READY,
    .param_end = CUDA_ERROR_INVALID_VALUE,
    .peer_already_enabled = CUDA_ERROR_PEER_ACCESS_ALREADY_ENABLED,
    .stream_flags = CU_STREAM_NON_BLOCKING,
    .capture_mode = CU_CAPTURE_MODE_THREAD_LOCAL,
    .dyn_shared_default = CU_DEFAULT_DYNAMIC_SHARED,
    .module_hint = C.rtc_note,
    .error_string = cu_error_string,
    .ctx_acquire = cu_ctx_acquire,
    .ctx_release = cu_ctx_release,
    .ctx_set_current = cu_ctx_set_current,
    .event_create = cu_event_create,
    .dyn_shared_opt_in = cu_dyn_shared_opt_in,
    .attr_registers = CU_FUNC_ATTR_NUM_REGS,
    .attr_shared_bytes = CU_FUNC_ATTR_SHARED_SIZE_BYTES,
    .attr_local_bytes = CU_FUNC_ATTR_LOCAL_SIZE_BYTES,
    .attr_max_threads = CU_FUNC_ATTR_MAX_THREADS_PER_BLOCK,
    .call = {
        .ctx_acquire = "cuDevicePrimaryCtxRetain",
        .ctx_set_current = "cuCtxSetCurrent",
        .peer_enable = "cuCtxEnablePeerAccess",
        .module_load = "cuModuleLoadData",
        .module_function = "cuModuleGetFunction",
        .module_global = "cuModuleGetGlobal_v2",
        .mem_alloc = "cuMemAlloc_v2",
        .memcpy_htod = "cuMemcpyHtoDAsync_v2",
        .memcpy_dtoh = "cuMemcpyDtoHAsync_v2",
        .memset_d8 = "cuMemsetD8Async",
        .stream_create = "cuStreamCreate(CU_STREAM_NON_BLOCKING)",
        .stream_sync = "cuStreamSynchronize",
        .stream_wait_event = "cuStreamWaitEvent",
        .event_create = "cuEventCreate",
        .event_record = "cuEventRecord",
        .event_elapsed = "cuEventElapsedTime",
        .event_sync = "cuEventSynchronize",
        .launch = "cuLaunchKernel",
        .dyn_shared_opt_in = "cuFuncSetAttribute",
        .func_attr = "cuFuncGetAttribute",
        .capture_begin = "cuStreamBeginCapture_v2",
        .capture_end = "cuStreamEndCapture",
        .graph_instantiate_flags = "cuGraphInstantiateWithFlags",
        .graph_instantiate = "cuGraphInstantiate_v2",
        .graph_launch = "cuGraphLaunch",
    },
};

static struct gpu_rtc_api cu_rtc = {
    .result_type = "nvrtcResult",
    .code_kind = "CUBIN",
    .call = {
        .create = "nvrtcCreateProgram",
        .compile = "nvrtcCompileProgram",
        .code_size = "nvrtcGetCUBINSize",
        .code = "nvrtcGetCUBIN",
    },
};

#define NAMES(...) ((const char *const[]){__VA_ARGS__, NULL})
#define SYM(field, ...) {NAMES(__VA_ARGS__), &C.field, false}
#define RT(field, ...) {NAMES(__VA_ARGS__), &cu_rt.field, false}
#define RT_OPT(field, ...) {NAMES(__VA_ARGS__), &cu_rt.field, true}
#define RTC(field, name) {NAMES(name), &cu_rtc.field, false}

static int fail(char *err, size_t errlen, const char *call, cu_result rc)
{
    return gpu_rt_fail(&cu_rt, err, errlen, call, rc);
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
        SYM(EventCreate, "cuEventCreate"),
        SYM(FuncSetAttribute, "cuFuncSetAttribute"),
        /* Optional: only rung 6 needs it. */
        {NAMES("cuCtxEnablePeerAccess"), &C.CtxEnablePeerAccess, true},
        RT(module_load, "cuModuleLoadData"),
        RT(module_unload, "cuModuleUnload"),
        RT(module_function, "cuModuleGetFunction"),
        RT_OPT(module_global, "cuModuleGetGlobal_v2"),
        /* Optional: CUDA 12.4 and later say how many parameters a kernel takes. */
        RT_OPT(param_info, "cuFuncGetParamInfo"),
        RT_OPT(func_attr, "cuFuncGetAttribute"),
        RT(launch, "cuLaunchKernel"),
        RT(mem_alloc, "cuMemAlloc_v2"),
        RT(mem_free, "cuMemFree_v2"),
        RT(memcpy_htod, "cuMemcpyHtoDAsync_v2"),
        RT(memcpy_dtoh, "cuMemcpyDtoHAsync_v2"),
        RT(memset_d8, "cuMemsetD8Async"),
        RT(stream_create, "cuStreamCreate"),
        RT(stream_destroy, "cuStreamDestroy_v2"),
        RT(stream_sync, "cuStreamSynchronize"),
        RT(stream_wait_event, "cuStreamWaitEvent"),
        RT(event_destroy, "cuEventDestroy_v2"),
        RT(event_record, "cuEventRecord"),
        RT(event_elapsed, "cuEventElapsedTime_v2", "cuEventElapsedTime"),
        RT(event_sync, "cuEventSynchronize"),
        RT(capture_begin, "cuStreamBeginCapture_v2"),
        RT(capture_end, "cuStreamEndCapture"),
        RT_OPT(graph_instantiate_flags, "cuGraphInstantiateWithFlags"),
        RT_OPT(graph_instantiate, "cuGraphInstantiate_v2"),
        RT(graph_launch, "cuGraphLaunch"),
        RT(graph_exec_destroy, "cuGraphExecDestroy"),
        RT(graph_destroy, "cuGraphDestroy"),
    };
    if (gpu_dl_bind(C.lib, C.lib_path, syms, sizeof syms / sizeof syms[0], C.driver_why,
                    sizeof C.driver_why))
        return -1;
    if (!cu_rt.graph_instantiate_flags && !cu_rt.graph_instantiate) {
        gpu_dl_fmt(C.driver_why, sizeof C.driver_why, "%s has neither "
                   "cuGraphInstantiateWithFlags nor cuGraphInstantiate_v2 (driver older than "
                   "CUDA 11)", C.lib_path);
        return -1;
    }
    cu_rt.peer_enable = C.CtxEnablePeerAccess ? cu_enable_peer : NULL;
    /* Answers without cuInit and without a device: the CUDA level the driver implements. */
    if (C.DriverGetVersion(&C.driver_api) != CUDA_SUCCESS)
        C.driver_api = 0;
    return 0;
}

static const struct gpu_dl_sym rtc_syms[] = {
    SYM(rtcVersion, "nvrtcVersion"),
    RTC(create, "nvrtcCreateProgram"),
    RTC(compile, "nvrtcCompileProgram"),
    RTC(log_size, "nvrtcGetProgramLogSize"),
    RTC(log, "nvrtcGetProgramLog"),
    RTC(code_size, "nvrtcGetCUBINSize"),
    RTC(code, "nvrtcGetCUBIN"),
    RTC(destroy, "nvrtcDestroyProgram"),
    RTC(error_string, "nvrtcGetErrorString"),
    {NAMES("nvrtcAddNameExpression"), &cu_rtc.add_name, true},
};

/* Keeps real NVRTC libraries: not the builtins, the alternative-ABI build or link stubs. */
static bool nvrtc_file(const char *path)
{
    const char *b = gpu_dl_base_name(path);
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
    const char *override = eng_compile_getenv("KLADDER_NVRTC");
    if (override && override[0]) {
        list[n++] = override;
    } else {
        const char *sonames[] = {"libnvrtc.so", "libnvrtc.so.13", "libnvrtc.so.12",
                                 "libnvrtc.so.11.2", NULL};
        for (size_t i = 0; sonames[i]; i++)
            list[n++] = sonames[i];
        const char *roots[] = {eng_compile_getenv("CUDA_HOME"), eng_compile_getenv("CUDA_PATH"), "/usr/local/cuda"};
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
                       C.rtc_minor, gpu_dl_base_name(C.rtc_path));
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
    if (devices_ready(err, errlen) || gpu_rt_device_index("cuda", index, C.ndev, err, errlen))
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

static int cuda_open(int index, const struct eng_open_opts *opts, struct eng_ctx **out,
                     char *err, size_t errlen)
{
    (void)opts;
    *out = NULL;
    if (devices_ready(err, errlen) || gpu_rt_device_index("cuda", index, C.ndev, err, errlen))
        return -1;
    if (gpu_rt_open(&cu_rt, index, out, err, errlen) != 0)
        return -1;
    struct eng_device_info info;
    char why[256];
    if (cuda_device_info(index, &info, why, sizeof why) == 0)
        gpu_dl_copy((*out)->target, sizeof (*out)->target, info.target);
    return 0;
}

static const char *cuda_compiler_id(void)
{
    if (C.state <= 0)
        return "nvrtc unavailable";
    /* the key of every source holds both: a plain one is nvcc's when there is one, a dialect
     * one NVRTC's */
    const char *nvcc = cuda_nvcc_id(C.rtc_path);
    if (!nvcc)
        return C.compiler_id;
    static char both[sizeof C.compiler_id + PATH_MAX + 300];
    gpu_dl_fmt(both, sizeof both, "%s; whole units: %s", C.compiler_id, nvcc);
    return both;
}

/* "--include-path=DIR" for the include folder of the toolkit NVRTC came from (lib64/.. or
 * targets/ARCH/lib/..), where a plain source's vendor headers (cooperative_groups.h, ...) are,
 * and for its CCCL folder (cuda/std/..., which they include since CUDA 13) when there is one;
 * false when the toolkit has none. The dialect's kernels include nothing, so neither changes
 * their code. */
static bool toolkit_include(char *out, size_t n, char *cccl, size_t ncccl)
{
    char dir[PATH_MAX];
    gpu_dl_copy(dir, sizeof dir, C.rtc_path);
    char *slash = strrchr(dir, '/');
    if (!slash)
        return false;
    *slash = '\0';
    char probe[PATH_MAX + 64];
    gpu_dl_fmt(probe, sizeof probe, "%s/../include/cooperative_groups.h", dir);
    if (access(probe, R_OK) != 0)
        return false;
    gpu_dl_fmt(out, n, "--include-path=%s/../include", dir);
    gpu_dl_fmt(probe, sizeof probe, "%s/../include/cccl", dir);
    cccl[0] = '\0';
    if (access(probe, R_OK) == 0)
        gpu_dl_fmt(cccl, ncccl, "--include-path=%s", probe);
    return true;
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
    /* a plain source is a whole unit: the toolkit's nvcc builds it as its author does */
    char nvcc[PATH_MAX];
    if (strstr(source, GPU_RTC_WHOLE_UNIT) &&
        cuda_nvcc_find(C.rtc_path, nvcc, sizeof nvcc))
        return cuda_nvcc_compile(nvcc, target, source, flags, code, code_len, log, loglen);
    char arch[96], inc[PATH_MAX + 32], cccl[PATH_MAX + 96];
    gpu_dl_fmt(arch, sizeof arch, "--gpu-architecture=%s", target);
    bool have = toolkit_include(inc, sizeof inc, cccl, sizeof cccl);
    const char *pre[] = {arch, have ? inc : NULL, have && cccl[0] ? cccl : NULL, NULL};
    return gpu_rtc_compile(&cu_rtc, target, source, name, pre, flags, code, code_len, log,
                           loglen);
}

const struct eng_backend eng_backend_cuda = {
    .name = "cuda",
    .caps = {.real_concurrency = true, .util_block = 256, .delay_ticks = 20000000,
             .poll_spins = 1u << 24, .collectives = "NCCL",
             .sanitizer = "compute-sanitizer", .scan_target = "sm_90"},
    .load = cuda_load,
    .device_count = cuda_device_count,
    .device_info = cuda_device_info,
    .open = cuda_open,
    .compiler_id = cuda_compiler_id,
    .compile_target = eng_backend_gpu_target,
    .compile = cuda_compile,
    GPU_RT_ENTRIES,
};
