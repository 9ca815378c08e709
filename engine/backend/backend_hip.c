/* The hip backend: AMD GPUs through libamdhip64 and hipRTC, both opened with dlopen, so the binary
 * builds without ROCm headers and runs wherever some ROCm (5, 6 or 7) is installed. Modules,
 * memory, streams, events, graphs and launches are the GPU runtime core's (gpu_rt.c); this file
 * loads the libraries, binds the core's entry points, and keeps device facts and compilation.
 *
 * ABI notes (each one is a silent wrong answer when missed):
 *  - hipGetDeviceProperties is a header macro for hipGetDevicePropertiesR0600 since ROCm 6; the
 *    plain exported name still fills the legacy R0000 layout. We bind R0600 explicitly, fall back
 *    to the plain name only when R0600 is absent (ROCm 5, where plain *is* the only layout), and
 *    read the one field we need (gcnArchName) at the offset of the layout we bound. Everything
 *    numeric comes from hipDeviceGetAttribute, whose enum values are the same in ROCm 5, 6 and 7.
 *  - hipRTC lives inside libamdhip64 up to ROCm 5 and in its own libhiprtc from ROCm 6.
 *  - Launch arguments go through kernelParams; the `extra` array (whose END marker is 3 on HIP
 *    and 0 on CUDA) is never used.
 *  - hipModuleLaunchKernel refuses gridDim*blockDim >= 2^32 in any one dimension; the core says
 *    so before calling rather than letting the runtime fail or wrap.
 *  - HIP's device pointers are void *, the core's are uint64_t: the memory calls go through
 *    shims; every other entry point has the core's signature and is bound straight into it.
 *  - hipRTC (through comgr) aborts the process on a processor comgr does not know (ROCm 5.2's
 *    comgr on gfx942 and gfx1250), so compile() asks comgr about the target first. */
#include "engine/backend/backend.h"
#include "engine/toolchain/amd_clang.h"
#include "engine/toolchain/cache_env.h"
#include "engine/backend/gpu_dl.h"
#include "engine/backend/gpu_rt.h"
#include "engine/backend/gpu_rtc.h"
#include "common/xalloc.h"

#include <ctype.h>
#include <stdbool.h>
#include <dirent.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

typedef int hip_err;
typedef void *hip_handle; /* hipModule_t, hipStream_t */

enum {
    HIP_SUCCESS = 0,
    HIP_ERROR_NOT_READY = 600,
    HIP_ERROR_PEER_ACCESS_ALREADY_ENABLED = 704,
    /* hipDeviceAttribute_t values (identical in ROCm 5.2, 6.x and 7.x headers). */
    HIP_ATTR_MAX_THREADS_PER_BLOCK = 56,
    HIP_ATTR_MULTIPROCESSOR_COUNT = 63,
    HIP_ATTR_MAX_SHARED_MEMORY_PER_BLOCK = 74,
    HIP_ATTR_WARP_SIZE = 87,
    HIP_STREAM_NON_BLOCKING = 1,
    HIP_CAPTURE_MODE_THREAD_LOCAL = 1,
};

/* Byte offset of gcnArchName[256] in hipDeviceProp_tR0600 (ROCm 6+) and in the legacy R0000
 * hipDeviceProp_t (ROCm 5, and the unversioned export of later releases). The R0600 struct is
 * 1472 bytes; we hand the runtime a much larger zeroed buffer so a future growth cannot write
 * past it. */
#define HIP_PROPS_R0600_ARCH 1160
#define HIP_PROPS_R0000_ARCH 396
#define HIP_PROPS_BUFFER 8192

static struct {
    int state; /* 0 not tried, 1 loaded, -1 failed */
    char why[1024];
    void *lib, *rtc_lib;
    char lib_path[PATH_MAX], rtc_path[PATH_MAX];
    int props_arch_offset;
    const char *props_symbol;
    char compiler_id[192];
    char compiler_version[64];
    int device_state; /* 0 not tried, 1 ok, -1 failed (reason in device_why) */
    char device_why[512];
    int ndev;

    hip_err (*Init)(unsigned);
    hip_err (*GetDeviceCount)(int *);
    hip_err (*SetDevice)(int);
    hip_err (*DeviceGetName)(char *, int, int);
    hip_err (*DeviceTotalMem)(size_t *, int);
    hip_err (*DeviceGetAttribute)(int *, int, int);
    hip_err (*DeviceGetPCIBusId)(char *, int, int);
    hip_err (*GetDeviceProperties)(void *, int);
    hip_err (*DriverGetVersion)(int *);
    hip_err (*RuntimeGetVersion)(int *);
    const char *(*GetErrorName)(hip_err);
    const char *(*GetErrorString)(hip_err);
    hip_err (*DeviceEnablePeerAccess)(int, unsigned);
    hip_err (*Malloc)(void **, size_t);
    hip_err (*Free)(void *);
    hip_err (*MemcpyHtoDAsync)(void *, const void *, size_t, hip_handle);
    hip_err (*MemcpyDtoHAsync)(void *, void *, size_t, hip_handle);
    hip_err (*MemsetD8Async)(void *, unsigned char, size_t, hip_handle);
    hip_err (*ModuleGetGlobal)(void **, size_t *, hip_handle, const char *);
    int (*rtcVersion)(int *, int *);
} H;

/* ---- the core's entry points: shims where HIP's signature differs --------------------- */

static void hip_error_string(int status, const char **name, const char **text)
{
    *name = H.GetErrorName ? H.GetErrorName(status) : NULL;
    *text = H.GetErrorString ? H.GetErrorString(status) : NULL;
}

static int hip_set_device(int device, void *native)
{
    (void)native; /* HIP has no context object: the device is the thread's state */
    return H.SetDevice(device);
}

static int hip_enable_peer(int peer_device, void *peer_native)
{
    (void)peer_native;
    return H.DeviceEnablePeerAccess(peer_device, 0);
}

static int hip_module_global(uint64_t *addr, size_t *bytes, void *mod, const char *name)
{
    void *p = NULL;
    hip_err rc = H.ModuleGetGlobal(&p, bytes, mod, name);
    *addr = (uint64_t)(uintptr_t)p;
    return rc;
}

static int hip_malloc(uint64_t *out, size_t bytes)
{
    void *p = NULL;
    hip_err rc = H.Malloc(&p, bytes);
    *out = (uint64_t)(uintptr_t)p;
    return rc;
}

static int hip_free(uint64_t p)
{
    return H.Free((void *)(uintptr_t)p);
}

static int hip_memcpy_htod(uint64_t dst, const void *src, size_t bytes, void *stream)
{
    return H.MemcpyHtoDAsync((void *)(uintptr_t)dst, src, bytes, stream);
}

static int hip_memcpy_dtoh(void *dst, uint64_t src, size_t bytes, void *stream)
{
    return H.MemcpyDtoHAsync(dst, (void *)(uintptr_t)src, bytes, stream);
}

static int hip_memset_d8(uint64_t dst, unsigned char value, size_t bytes, void *stream)
{
    return H.MemsetD8Async((void *)(uintptr_t)dst, value, bytes, stream);
}

/* The rest is bound from the library by load_runtime(). */
static struct gpu_rt_api hip_rt = {
    .runtime = "HIP",
    .status_type = "hipError",
    .library = "the HIP runtime",
    .success = HIP_SUCCESS,
    .not_ready = HIP_ERROR_NOT_READY,
    .peer_already_enabled = HIP_ERROR_PEER_ACCESS_ALREADY_ENABLED,
    .stream_flags = HIP_STREAM_NON_BLOCKING,
    .capture_mode = HIP_CAPTURE_MODE_THREAD_LOCAL,
    .grid_below_2_32 = true,
    .error_string = hip_error_string,
    .ctx_set_current = hip_set_device,
    .mem_alloc = hip_malloc,
    .mem_free = hip_free,
    .memcpy_htod = hip_memcpy_htod,
    .memcpy_dtoh = hip_memcpy_dtoh,
    .memset_d8 = hip_memset_d8,
    .call = {
        .ctx_set_current = "hipSetDevice",
        .peer_enable = "hipDeviceEnablePeerAccess",
        .module_load = "hipModuleLoadData",
        .module_function = "hipModuleGetFunction",
        .module_global = "hipModuleGetGlobal",
        .mem_alloc = "hipMalloc",
        .memcpy_htod = "hipMemcpyHtoDAsync",
        .memcpy_dtoh = "hipMemcpyDtoHAsync",
        .memset_d8 = "hipMemsetD8Async",
        .stream_create = "hipStreamCreateWithFlags(hipStreamNonBlocking)",
        .stream_sync = "hipStreamSynchronize",
        .stream_wait_event = "hipStreamWaitEvent",
        .event_create = "hipEventCreate",
        .event_record = "hipEventRecord",
        .event_elapsed = "hipEventElapsedTime",
        .event_sync = "hipEventSynchronize",
        .launch = "hipModuleLaunchKernel",
        .capture_begin = "hipStreamBeginCapture",
        .capture_end = "hipStreamEndCapture",
        .graph_instantiate_flags = "hipGraphInstantiateWithFlags",
        .graph_instantiate = "hipGraphInstantiate",
        .graph_launch = "hipGraphLaunch",
    },
};

static struct gpu_rtc_api hip_rtc = {
    .result_type = "hiprtcResult",
    .code_kind = "code object",
    .call = {
        .create = "hiprtcCreateProgram",
        .compile = "hiprtcCompileProgram",
        .code_size = "hiprtcGetCodeSize",
        .code = "hiprtcGetCode",
    },
};

#define NAMES(...) ((const char *const[]){__VA_ARGS__, NULL})
#define SYM(field, ...) {NAMES(__VA_ARGS__), &H.field, false}
#define OPT(field, ...) {NAMES(__VA_ARGS__), &H.field, true}
#define RT(field, name) {NAMES(name), &hip_rt.field, false}
#define RTC(field, name) {NAMES(name), &hip_rtc.field, false}

static int fail(char *err, size_t errlen, const char *call, hip_err rc)
{
    return gpu_rt_fail(&hip_rt, err, errlen, call, rc);
}

/* Candidate paths under $ROCM_PATH (or /opt/rocm) for a library, after the bare sonames. */
static void rocm_candidates(const char *const *sonames, const char **out, size_t max,
                            char paths[][PATH_MAX])
{
    size_t n = 0, p = 0;
    for (size_t i = 0; sonames[i] && n + 1 < max; i++)
        out[n++] = sonames[i];
    const char *roots[] = {eng_compile_getenv("ROCM_PATH"), "/opt/rocm"};
    for (size_t r = 0; r < 2; r++) {
        if (!roots[r] || !roots[r][0] || n + 1 >= max || p >= 2)
            continue;
        snprintf(paths[p], PATH_MAX, "%s/lib/%s", roots[r], sonames[0]);
        out[n++] = paths[p++];
    }
    out[n] = NULL;
}

static int load_runtime(void)
{
    const char *override = eng_compile_getenv("KLADDER_HIP_LIBRARY");
    const char *sonames[] = {"libamdhip64.so", "libamdhip64.so.7", "libamdhip64.so.6",
                             "libamdhip64.so.5", NULL};
    const char *cands[12];
    char paths[2][PATH_MAX];
    if (override && override[0]) {
        cands[0] = override;
        cands[1] = NULL;
    } else {
        rocm_candidates(sonames, cands, 12, paths);
    }
    char why[800];
    H.lib = gpu_dl_open_first(cands, NULL, why, sizeof why);
    if (!H.lib) {
        gpu_dl_fmt(H.why, sizeof H.why, "HIP runtime not found (%s)%s", why,
                   override ? "" : "; install ROCm or set KLADDER_HIP_LIBRARY");
        return -1;
    }
    const struct gpu_dl_sym syms[] = {
        SYM(Init, "hipInit"),
        SYM(GetDeviceCount, "hipGetDeviceCount"),
        SYM(SetDevice, "hipSetDevice"),
        SYM(DeviceGetName, "hipDeviceGetName"),
        SYM(DeviceTotalMem, "hipDeviceTotalMem"),
        SYM(DeviceGetAttribute, "hipDeviceGetAttribute"),
        SYM(DeviceGetPCIBusId, "hipDeviceGetPCIBusId"),
        SYM(DriverGetVersion, "hipDriverGetVersion"),
        SYM(RuntimeGetVersion, "hipRuntimeGetVersion"),
        SYM(GetErrorName, "hipGetErrorName"),
        SYM(GetErrorString, "hipGetErrorString"),
        SYM(Malloc, "hipMalloc"),
        SYM(Free, "hipFree"),
        SYM(MemcpyHtoDAsync, "hipMemcpyHtoDAsync"),
        SYM(MemcpyDtoHAsync, "hipMemcpyDtoHAsync"),
        SYM(MemsetD8Async, "hipMemsetD8Async"),
        /* Optional: only rung 6 and module globals need them. */
        OPT(DeviceEnablePeerAccess, "hipDeviceEnablePeerAccess"),
        OPT(ModuleGetGlobal, "hipModuleGetGlobal"),
        RT(stream_create, "hipStreamCreateWithFlags"),
        RT(stream_destroy, "hipStreamDestroy"),
        RT(stream_sync, "hipStreamSynchronize"),
        RT(stream_wait_event, "hipStreamWaitEvent"),
        RT(event_create, "hipEventCreate"),
        RT(event_destroy, "hipEventDestroy"),
        RT(event_record, "hipEventRecord"),
        RT(event_elapsed, "hipEventElapsedTime"),
        RT(event_sync, "hipEventSynchronize"),
        RT(module_load, "hipModuleLoadData"),
        RT(module_unload, "hipModuleUnload"),
        RT(module_function, "hipModuleGetFunction"),
        RT(launch, "hipModuleLaunchKernel"),
        RT(capture_begin, "hipStreamBeginCapture"),
        RT(capture_end, "hipStreamEndCapture"),
        {NAMES("hipGraphInstantiateWithFlags"), &hip_rt.graph_instantiate_flags, true},
        RT(graph_instantiate, "hipGraphInstantiate"),
        RT(graph_launch, "hipGraphLaunch"),
        RT(graph_exec_destroy, "hipGraphExecDestroy"),
        RT(graph_destroy, "hipGraphDestroy"),
    };
    gpu_dl_path_of(H.lib, "hipInit", H.lib_path, sizeof H.lib_path);
    if (gpu_dl_bind(H.lib, H.lib_path, syms, sizeof syms / sizeof syms[0], H.why,
                    sizeof H.why))
        return -1;
    hip_rt.peer_enable = H.DeviceEnablePeerAccess ? hip_enable_peer : NULL;
    hip_rt.module_global = H.ModuleGetGlobal ? hip_module_global : NULL;
    /* The versioned props entry point when the runtime has it (see the top of this file). */
    const struct gpu_dl_sym props[] = {OPT(GetDeviceProperties, "hipGetDevicePropertiesR0600")};
    gpu_dl_bind(H.lib, H.lib_path, props, 1, NULL, 0);
    H.props_symbol = "hipGetDevicePropertiesR0600";
    H.props_arch_offset = HIP_PROPS_R0600_ARCH;
    if (!H.GetDeviceProperties) {
        const struct gpu_dl_sym legacy[] = {SYM(GetDeviceProperties, "hipGetDeviceProperties")};
        if (gpu_dl_bind(H.lib, H.lib_path, legacy, 1, H.why, sizeof H.why))
            return -1;
        H.props_symbol = "hipGetDeviceProperties";
        H.props_arch_offset = HIP_PROPS_R0000_ARCH;
    }
    return 0;
}

static int load_rtc(void)
{
    const struct gpu_dl_sym syms[] = {
        RTC(create, "hiprtcCreateProgram"),
        RTC(compile, "hiprtcCompileProgram"),
        RTC(log_size, "hiprtcGetProgramLogSize"),
        RTC(log, "hiprtcGetProgramLog"),
        RTC(code_size, "hiprtcGetCodeSize"),
        RTC(code, "hiprtcGetCode"),
        RTC(destroy, "hiprtcDestroyProgram"),
        RTC(error_string, "hiprtcGetErrorString"),
        {NAMES("hiprtcAddNameExpression"), &hip_rtc.add_name, true},
        SYM(rtcVersion, "hiprtcVersion"),
    };
    size_t n = sizeof syms / sizeof syms[0];
    char why[600];
    /* ROCm 5 carries hipRTC inside libamdhip64; ROCm 6 and later ship libhiprtc beside it. */
    if (gpu_dl_bind(H.lib, H.lib_path, syms, n, NULL, 0) == 0) {
        gpu_dl_copy(H.rtc_path, sizeof H.rtc_path, H.lib_path);
        return 0;
    }
    const char *override = eng_compile_getenv("KLADDER_HIPRTC_LIBRARY");
    const char *sonames[] = {"libhiprtc.so", "libhiprtc.so.7", "libhiprtc.so.6", NULL};
    const char *cands[12];
    char paths[2][PATH_MAX];
    if (override && override[0]) {
        cands[0] = override;
        cands[1] = NULL;
    } else {
        rocm_candidates(sonames, cands, 12, paths);
    }
    H.rtc_lib = gpu_dl_open_first(cands, NULL, why, sizeof why);
    if (!H.rtc_lib) {
        gpu_dl_fmt(H.why, sizeof H.why,
                   "hipRTC not found: %s has no hiprtc symbols and no libhiprtc opened (%s)",
                   gpu_dl_base_name(H.lib_path), why);
        return -1;
    }
    gpu_dl_path_of(H.rtc_lib, "hiprtcCreateProgram", H.rtc_path, sizeof H.rtc_path);
    return gpu_dl_bind(H.rtc_lib, H.rtc_path, syms, n, H.why, sizeof H.why);
}

/* comgr's ISA metadata handle (amd_comgr_metadata_node_t, passed by value). */
struct comgr_node {
    uint64_t handle;
};

static struct {
    int state; /* 0 not tried, 1 bound, -1 absent (targets are then not checked) */
    void *lib;
    char file[PATH_MAX];
    int (*isa_metadata)(const char *, struct comgr_node *);
    int (*destroy_metadata)(struct comgr_node);
    int (*status_string)(int, const char **);
} G;

/* The code-object manager hipRTC generates code through: the copy already in the process when
 * there is one (hipRTC may have loaded it), else the first that opens. */
static void comgr_open(void)
{
    if (G.state)
        return;
    const char *const *cands = NAMES("libamd_comgr.so.3", "libamd_comgr.so.2", "libamd_comgr.so");
    G.lib = gpu_dl_open_loaded(cands);
    if (!G.lib)
        G.lib = gpu_dl_open_first(cands, NULL, NULL, 0);
    const struct gpu_dl_sym syms[] = {
        {NAMES("amd_comgr_get_isa_metadata"), &G.isa_metadata, false},
        {NAMES("amd_comgr_destroy_metadata"), &G.destroy_metadata, false},
        {NAMES("amd_comgr_status_string"), &G.status_string, false},
    };
    gpu_dl_path_of(G.lib, "amd_comgr_get_version", G.file, sizeof G.file);
    G.state = G.lib && gpu_dl_bind(G.lib, "comgr", syms, 3, NULL, 0) == 0 ? 1 : -1;
}

/* The comgr file's name, for the compiler identity: comgr can be upgraded on its own. */
static void comgr_name(char *out, size_t len)
{
    comgr_open();
    gpu_dl_copy(out, len, G.file[0] ? gpu_dl_base_name(G.file) : "");
}

static int hip_load(char *why, size_t whylen)
{
    if (H.state == 0) {
        H.state = (load_runtime() == 0 && load_rtc() == 0) ? 1 : -1;
        if (H.state > 0) {
            int major = 0, minor = 0;
            H.rtcVersion(&major, &minor);
            gpu_dl_fmt(H.compiler_version, sizeof H.compiler_version, "hipRTC %d.%d", major,
                       minor);
            char comgr[128];
            comgr_name(comgr, sizeof comgr);
            gpu_dl_fmt(H.compiler_id, sizeof H.compiler_id, "hiprtc %d.%d (%s%s%s)", major,
                       minor, gpu_dl_base_name(H.rtc_path), comgr[0] ? ", " : "", comgr);
        }
    }
    if (H.state < 0)
        gpu_dl_fmt(why, whylen, "%s", H.why);
    return H.state > 0 ? 0 : -1;
}

/* hipInit and the device count, once; later calls repeat the first answer. */
static int devices_ready(char *err, size_t errlen)
{
    if (H.state <= 0) {
        gpu_dl_fmt(err, errlen, "hip backend not loaded%s%s", H.why[0] ? ": " : "", H.why);
        return -1;
    }
    if (H.device_state == 0) {
        const char *call = "hipInit";
        hip_err rc = H.Init(0);
        if (rc == HIP_SUCCESS) {
            call = "hipGetDeviceCount";
            rc = H.GetDeviceCount(&H.ndev);
        }
        if (rc != HIP_SUCCESS) {
            fail(H.device_why, sizeof H.device_why, call, rc);
            H.ndev = 0;
            /* The usual cause on a machine without an AMD GPU, said plainly. */
            if (access("/dev/kfd", F_OK) != 0) {
                size_t used = strlen(H.device_why);
                gpu_dl_fmt(H.device_why + used, sizeof H.device_why - used,
                           "; /dev/kfd is absent, so no AMD GPU is visible to this process");
            }
        }
        H.device_state = rc == HIP_SUCCESS ? 1 : -1;
    }
    if (H.device_state < 0) {
        gpu_dl_fmt(err, errlen, "%s", H.device_why);
        return -1;
    }
    return 0;
}

static int hip_device_count(int *count, char *err, size_t errlen)
{
    *count = 0;
    if (devices_ready(err, errlen))
        return -1;
    *count = H.ndev;
    return 0;
}

/* Lower-cases a PCI bus id ("0000:C1:00.0" -> "0000:c1:00.0") as sysfs spells it. */
static void lower(char *s)
{
    for (; *s; s++)
        *s = (char)tolower((unsigned char)*s);
}

/* AMD partition modes from sysfs: the PCI device's own attribute, else the DRM card whose device
 * link points at the same bus id. Absent on RDNA, older drivers and non-partitionable parts. */
static void read_partitions(const char *busid, struct eng_device_info *out)
{
    char path[PATH_MAX];
    snprintf(path, sizeof path, "/sys/bus/pci/devices/%s/current_compute_partition", busid);
    gpu_dl_read_line(path, out->compute_partition, sizeof out->compute_partition);
    snprintf(path, sizeof path, "/sys/bus/pci/devices/%s/current_memory_partition", busid);
    gpu_dl_read_line(path, out->memory_partition, sizeof out->memory_partition);
    if (out->compute_partition[0] || out->memory_partition[0])
        return;
    DIR *d = opendir("/sys/class/drm");
    if (!d)
        return;
    struct dirent *ent;
    while ((ent = readdir(d))) {
        if (strncmp(ent->d_name, "card", 4) != 0 || strchr(ent->d_name, '-'))
            continue;
        char link[PATH_MAX], target[PATH_MAX];
        snprintf(link, sizeof link, "/sys/class/drm/%s/device", ent->d_name);
        char real[PATH_MAX];
        gpu_dl_realpath(link, real, sizeof real);
        gpu_dl_copy(target, sizeof target, gpu_dl_base_name(real));
        lower(target);
        if (strcmp(target, busid) != 0)
            continue;
        snprintf(path, sizeof path, "/sys/class/drm/%s/device/current_compute_partition",
                 ent->d_name);
        gpu_dl_read_line(path, out->compute_partition, sizeof out->compute_partition);
        snprintf(path, sizeof path, "/sys/class/drm/%s/device/current_memory_partition",
                 ent->d_name);
        gpu_dl_read_line(path, out->memory_partition, sizeof out->memory_partition);
        break;
    }
    closedir(d);
}

/* "60241133" -> "6.2.41133": HIP packs versions as MAJOR*10000000 + MINOR*100000 + PATCH. */
static void hip_version_text(int v, char *out, size_t len)
{
    if (v >= 10000000)
        gpu_dl_fmt(out, len, "%d.%d.%d", v / 10000000, (v / 100000) % 100, v % 100000);
    else
        gpu_dl_fmt(out, len, "%d", v);
}

static int hip_device_info(int index, struct eng_device_info *out, char *err, size_t errlen)
{
    memset(out, 0, sizeof *out);
    out->index = index;
    if (devices_ready(err, errlen))
        return -1;
    if (index < 0 || index >= H.ndev) {
        gpu_dl_fmt(err, errlen, "hip device %d does not exist (%d device%s)", index, H.ndev,
                   H.ndev == 1 ? "" : "s");
        return -1;
    }
    hip_err rc = H.DeviceGetName(out->name, (int)sizeof out->name, index);
    if (rc != HIP_SUCCESS)
        return fail(err, errlen, "hipDeviceGetName", rc);

    unsigned char *props = calloc(1, HIP_PROPS_BUFFER);
    if (!props) {
        gpu_dl_fmt(err, errlen, "out of host memory");
        return -1;
    }
    rc = H.GetDeviceProperties(props, index);
    if (rc != HIP_SUCCESS) {
        free(props);
        return fail(err, errlen, H.props_symbol, rc);
    }
    char arch[256];
    memcpy(arch, props + H.props_arch_offset, sizeof arch);
    arch[sizeof arch - 1] = '\0';
    free(props);
    if (strncmp(arch, "gfx", 3) != 0) {
        gpu_dl_fmt(err, errlen, "%s returned gcnArchName \"%.40s\", not a gfx target: the HIP "
                   "runtime's device-properties layout is not the one this build knows",
                   H.props_symbol, arch);
        return -1;
    }
    gpu_dl_copy(out->target_full, sizeof out->target_full, arch);
    arch[strcspn(arch, ":")] = '\0';
    gpu_dl_copy(out->target, sizeof out->target, arch);

    struct { int attr; int *dst; const char *what; } attrs[] = {
        {HIP_ATTR_WARP_SIZE, &out->wave_size, "warp size"},
        {HIP_ATTR_MULTIPROCESSOR_COUNT, &out->compute_units, "multiprocessor count"},
        {HIP_ATTR_MAX_THREADS_PER_BLOCK, &out->max_threads_per_block, "max threads per block"},
        {HIP_ATTR_MAX_SHARED_MEMORY_PER_BLOCK, &out->shared_mem_per_block, "shared memory"},
    };
    for (size_t i = 0; i < sizeof attrs / sizeof attrs[0]; i++) {
        rc = H.DeviceGetAttribute(attrs[i].dst, attrs[i].attr, index);
        if (rc != HIP_SUCCESS) {
            char call[96];
            gpu_dl_fmt(call, sizeof call, "hipDeviceGetAttribute(%s)", attrs[i].what);
            return fail(err, errlen, call, rc);
        }
    }
    size_t mem = 0;
    rc = H.DeviceTotalMem(&mem, index);
    if (rc != HIP_SUCCESS)
        return fail(err, errlen, "hipDeviceTotalMem", rc);
    out->mem_bytes = (int64_t)mem;
    if (H.DeviceGetPCIBusId(out->pci_bus_id, (int)sizeof out->pci_bus_id, index) == HIP_SUCCESS)
        lower(out->pci_bus_id);
    else
        out->pci_bus_id[0] = '\0';

    int drv = 0, rt = 0;
    char drv_text[32] = "", rt_text[32] = "", kmod[32] = "", rocm[32] = "";
    if (H.DriverGetVersion(&drv) == HIP_SUCCESS)
        hip_version_text(drv, drv_text, sizeof drv_text);
    if (H.RuntimeGetVersion(&rt) == HIP_SUCCESS)
        hip_version_text(rt, rt_text, sizeof rt_text);
    /* The amdgpu module version exists only for the out-of-tree (DKMS) driver; the HIP patch
     * number is not unique per ROCm release, so ROCm's own version file is recorded too. */
    gpu_dl_read_line("/sys/module/amdgpu/version", kmod, sizeof kmod);
    char path[PATH_MAX];
    const char *root = eng_compile_getenv("ROCM_PATH");
    snprintf(path, sizeof path, "%s/.info/version", root && root[0] ? root : "/opt/rocm");
    gpu_dl_read_line(path, rocm, sizeof rocm);
    gpu_dl_fmt(out->driver_version, sizeof out->driver_version, "HIP driver %s%s%s",
               drv_text[0] ? drv_text : "n/a", kmod[0] ? ", amdgpu " : "", kmod);
    gpu_dl_fmt(out->runtime_version, sizeof out->runtime_version, "HIP %s%s%s",
               rt_text[0] ? rt_text : "n/a", rocm[0] ? ", ROCm " : "", rocm);
    gpu_dl_copy(out->compiler_version, sizeof out->compiler_version, H.compiler_version);
    read_partitions(out->pci_bus_id, out);
    return 0;
}

static int hip_open(int index, const struct eng_open_opts *opts, struct eng_ctx **out, char *err,
                    size_t errlen)
{
    (void)opts;
    *out = NULL;
    if (devices_ready(err, errlen) || gpu_rt_device_index("hip", index, H.ndev, err, errlen))
        return -1;
    if (gpu_rt_open(&hip_rt, index, out, err, errlen) != 0)
        return -1;
    struct eng_device_info info;
    char why[256];
    if (hip_device_info(index, &info, why, sizeof why) == 0)
        gpu_dl_copy((*out)->target, sizeof (*out)->target, info.target);
    return 0;
}

static const char *hip_compiler_id(void)
{
    return H.state > 0 ? H.compiler_id : "hiprtc unavailable";
}

/* ---- compilation ---------------------------------------------------------------------- */

/* 0 when comgr knows target (or cannot be asked), else -1 with comgr's answer in log. Asked
 * before hipRTC is, because hipRTC aborts the whole process on a target comgr does not know. */
static int comgr_knows(const char *target, char *log, size_t loglen)
{
    comgr_open();
    if (G.state < 0)
        return 0;
    char isa[160];
    gpu_dl_fmt(isa, sizeof isa, "amdgcn-amd-amdhsa--%s", target);
    struct comgr_node node = {0};
    int rc = G.isa_metadata(isa, &node);
    if (rc == 0) {
        (void)G.destroy_metadata(node);
        return 0;
    }
    const char *text = NULL;
    if (G.status_string(rc, &text) != 0)
        text = NULL;
    gpu_dl_fmt(log, loglen, "hipRTC cannot compile for %s: %s, which generates its code, does "
               "not know that processor (amd_comgr_get_isa_metadata(\"%s\") failed: %s, "
               "amd_comgr_status_t %d), and hipRTC would abort the process on it; use a ROCm "
               "release that supports %s", target, gpu_dl_base_name(G.file), isa,
               text ? text : "unknown error", rc, target);
    return -1;
}

/* Which compiler builds for target: hipRTC when it is loaded and its comgr knows the target,
 * clang (engine/toolchain/amd_clang.h) otherwise; KLADDER_HIP_COMPILER=clang or =hiprtc forces one.
 * ROUTE_NONE leaves the reason in why. */
enum hip_route { ROUTE_NONE, ROUTE_HIPRTC, ROUTE_CLANG };

static enum hip_route hip_route(const char *target, char *why, size_t whylen)
{
    const char *force = eng_compile_getenv("KLADDER_HIP_COMPILER");
    if (force && *force && strcmp(force, "clang") && strcmp(force, "hiprtc") &&
        strcmp(force, "auto")) {
        gpu_dl_fmt(why, whylen, "KLADDER_HIP_COMPILER=%.40s: expected clang, hiprtc or auto",
                   force);
        return ROUTE_NONE;
    }
    bool want_clang = force && !strcmp(force, "clang");
    bool want_rtc = force && !strcmp(force, "hiprtc");
    if (!target || strncmp(target, "gfx", 3) != 0) {
        gpu_dl_fmt(why, whylen, "hip compile: target \"%s\" is not a gfx target id",
                   target ? target : "");
        return ROUTE_NONE;
    }
    char rtc_why[1536] = "";
    if (!want_clang) {
        if (H.state <= 0)
            gpu_dl_fmt(rtc_why, sizeof rtc_why, "hip backend not loaded%s%s", H.why[0] ? ": " : "",
                       H.why);
        else if (comgr_knows(target, rtc_why, sizeof rtc_why) == 0)
            return ROUTE_HIPRTC;
        if (want_rtc) {
            gpu_dl_fmt(why, whylen, "%s", rtc_why);
            return ROUTE_NONE;
        }
    }
    char clang_why[512];
    if (amd_clang_id(clang_why, sizeof clang_why))
        return ROUTE_CLANG;
    if (want_clang)
        gpu_dl_fmt(why, whylen, "%s", clang_why);
    else
        gpu_dl_fmt(why, whylen, "%s; and no offline compiler: %s", rtc_why, clang_why);
    return ROUTE_NONE;
}

/* Whether a plain source (a whole unit) goes to clang whole: KLADDER_HIP_CLANG=off leaves it
 * to the route above (hipRTC), anything else takes clang when one is found. */
static bool hip_whole_clang(const char *target)
{
    const char *knob = eng_compile_getenv("KLADDER_HIP_CLANG");
    if (knob && (!strcmp(knob, "off") || !strcmp(knob, "0")))
        return false;
    return target && !strncmp(target, "gfx", 3) && amd_clang_whole_id() != NULL;
}

static const char *hip_compiler_for(const char *target)
{
    char why[2048];
    const char *base;
    switch (hip_route(target, why, sizeof why)) {
    case ROUTE_HIPRTC:
        base = H.compiler_id;
        break;
    case ROUTE_CLANG:
        base = amd_clang_id(NULL, 0);
        break;
    default:
        base = NULL;
        break;
    }
    /* no route for the dialect (hipRTC asked for and missing): the backend cannot compile,
     * whatever clang could do for a whole unit */
    if (!base || !hip_whole_clang(target))
        return base;
    /* the key of every source holds both: a plain one is clang's, a dialect one the route's */
    static char both[4096];
    gpu_dl_fmt(both, sizeof both, "%s; whole units: %s", base ? base : "none",
               amd_clang_whole_id());
    return both;
}

/* A whole unit through clang: each name expression instantiated at the end of the unit (its
 * address taken in host code, which makes clang emit the kernel), every other flag passed on. */
static int hip_compile_whole(const char *target, const char *source, const char *name,
                             const char *const *flags, void **code, size_t *code_len, char *log,
                             size_t loglen)
{
    size_t nflags = 0, ninst = 0, k = 0;
    while (flags && flags[nflags])
        nflags++;
    const size_t pre = strlen(GPU_RTC_NAME_FLAG);
    size_t len = strlen(source) + 2;
    for (size_t i = 0; i < nflags; i++)
        if (!strncmp(flags[i], GPU_RTC_NAME_FLAG, pre))
            len += strlen(flags[i]) + 64;
    char *text = xmalloc(len);
    size_t used = (size_t)snprintf(text, len, "%s\n", source);
    const char **rest = xcalloc(nflags + 1, sizeof *rest);
    for (size_t i = 0; i < nflags; i++) {
        if (strncmp(flags[i], GPU_RTC_NAME_FLAG, pre) != 0) {
            rest[k++] = flags[i];
            continue;
        }
        used += (size_t)snprintf(text + used, len - used,
                                 "static void *kl_clang_instance_%zu = (void *)&%s;\n", ninst++,
                                 flags[i] + pre);
    }
    int rc = amd_clang_compile_whole(target, text, name, rest, code, code_len, log, loglen);
    free(rest);
    free(text);
    return rc;
}

static int hip_compile(const char *target, const char *source, const char *name,
                       const char *const *flags, void **code, size_t *code_len, char *log,
                       size_t loglen)
{
    *code = NULL;
    *code_len = 0;
    /* a plain source is a whole unit: clang builds it as its author does, hipRTC without clang */
    if (strstr(source, GPU_RTC_WHOLE_UNIT) && hip_whole_clang(target))
        return hip_compile_whole(target, source, name, flags, code, code_len, log, loglen);
    switch (hip_route(target, log, loglen)) {
    case ROUTE_CLANG:
        return amd_clang_compile(target, source, name, flags, code, code_len, log, loglen);
    case ROUTE_HIPRTC:
        break;
    default:
        return -1;
    }
    /* Always name the target: without it hipRTC asks the runtime for the current device, which
     * is not reproducible and fails on a machine without a GPU. */
    char arch[128];
    gpu_dl_fmt(arch, sizeof arch, "--offload-arch=%s", target);
    const char *pre[] = {arch, "-O3", NULL};
    return gpu_rtc_compile(&hip_rtc, target, source, name, pre, flags, code, code_len, log, loglen);
}

const struct eng_backend eng_backend_hip = {
    .name = "hip",
    .caps = {.real_concurrency = true, .util_block = 256, .delay_ticks = 20000000,
             .poll_spins = 1u << 24, .collectives = "RCCL", .scan_target = "gfx1250"},
    .load = hip_load,
    .device_count = hip_device_count,
    .device_info = hip_device_info,
    .open = hip_open,
    .compiler_id = hip_compiler_id,
    .compiler_for = hip_compiler_for,
    .compile_target = eng_backend_gpu_target,
    .compile = hip_compile,
    GPU_RT_ENTRIES,
};
