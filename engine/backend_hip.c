/* The hip backend: AMD GPUs through libamdhip64 and hipRTC, both opened with dlopen, so the binary
 * builds without ROCm headers and runs wherever some ROCm (5, 6 or 7) is installed.
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
 *  - hipModuleLaunchKernel refuses gridDim*blockDim >= 2^32 in any one dimension; we say so
 *    before calling rather than letting the runtime fail or wrap.
 *
 * Streams are created non-blocking so a consumer on another stream never gets an implicit
 * ordering from the null stream that would hide a missing event. memcpy_htod/dtoh return when the
 * host buffer may be reused or read (they synchronise the stream), except while that stream is
 * being captured into a graph, where they are recorded like any other work. */
#include "engine/backend.h"
#include "engine/gpu_dl.h"

#include <dlfcn.h> /* peer_enable binds its one call lazily */

#include <ctype.h>
#include <dirent.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

typedef int hip_err;
typedef void *hip_handle; /* hipModule_t, hipFunction_t, hipStream_t, hipEvent_t, hipGraph*_t */

enum {
    HIP_SUCCESS = 0,
    HIP_ERROR_NOT_READY = 600,
    /* hipDeviceAttribute_t values (identical in ROCm 5.2, 6.x and 7.x headers). */
    HIP_ATTR_MAX_THREADS_PER_BLOCK = 56,
    HIP_ATTR_MULTIPROCESSOR_COUNT = 63,
    HIP_ATTR_MAX_SHARED_MEMORY_PER_BLOCK = 74,
    HIP_ATTR_WARP_SIZE = 87,
    HIP_STREAM_NON_BLOCKING = 1,
    HIP_CAPTURE_MODE_THREAD_LOCAL = 1,
    HIPRTC_SUCCESS = 0,
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
    hip_err (*Malloc)(void **, size_t);
    hip_err (*Free)(void *);
    hip_err (*MemcpyHtoDAsync)(void *, const void *, size_t, hip_handle);
    hip_err (*MemcpyDtoHAsync)(void *, void *, size_t, hip_handle);
    hip_err (*MemsetD8Async)(void *, unsigned char, size_t, hip_handle);
    hip_err (*StreamCreateWithFlags)(hip_handle *, unsigned);
    hip_err (*StreamDestroy)(hip_handle);
    hip_err (*StreamSynchronize)(hip_handle);
    hip_err (*StreamWaitEvent)(hip_handle, hip_handle, unsigned);
    hip_err (*EventCreate)(hip_handle *);
    hip_err (*EventDestroy)(hip_handle);
    hip_err (*EventRecord)(hip_handle, hip_handle);
    hip_err (*EventElapsedTime)(float *, hip_handle, hip_handle);
    hip_err (*EventSynchronize)(hip_handle);
    hip_err (*ModuleLoadData)(hip_handle *, const void *);
    hip_err (*ModuleUnload)(hip_handle);
    hip_err (*ModuleGetFunction)(hip_handle *, hip_handle, const char *);
    hip_err (*ModuleLaunchKernel)(hip_handle, unsigned, unsigned, unsigned, unsigned, unsigned,
                                  unsigned, unsigned, hip_handle, void **, void **);
    hip_err (*StreamBeginCapture)(hip_handle, int);
    hip_err (*StreamEndCapture)(hip_handle, hip_handle *);
    hip_err (*GraphInstantiateWithFlags)(hip_handle *, hip_handle, unsigned long long);
    hip_err (*GraphInstantiate)(hip_handle *, hip_handle, hip_handle *, char *, size_t);
    hip_err (*GraphLaunch)(hip_handle, hip_handle);
    hip_err (*GraphExecDestroy)(hip_handle);
    hip_err (*GraphDestroy)(hip_handle);

    int (*rtcCreateProgram)(hip_handle *, const char *, const char *, int, const char *const *,
                            const char *const *);
    int (*rtcCompileProgram)(hip_handle, int, const char *const *);
    int (*rtcGetProgramLogSize)(hip_handle, size_t *);
    int (*rtcGetProgramLog)(hip_handle, char *);
    int (*rtcGetCodeSize)(hip_handle, size_t *);
    int (*rtcGetCode)(hip_handle, char *);
    int (*rtcDestroyProgram)(hip_handle *);
    int (*rtcVersion)(int *, int *);
    const char *(*rtcGetErrorString)(int);
} H;

struct eng_ctx {
    int dev;
};
struct eng_kernel {
    hip_handle fn;
    struct eng_kernel *next;
    char name[128];
};
struct eng_module {
    hip_handle mod;
    struct eng_kernel *kernels;
};
struct eng_stream {
    hip_handle s;
    bool capturing;
};
struct eng_event {
    hip_handle e;
};
struct eng_graph {
    hip_handle graph, exec;
};

#define NAMES(...) ((const char *const[]){__VA_ARGS__, NULL})
#define SYM(field, ...) {NAMES(__VA_ARGS__), &H.field, false}
#define OPT(field, ...) {NAMES(__VA_ARGS__), &H.field, true}

/* "hipMalloc: out of memory (hipErrorOutOfMemory, 2)". */
static int fail(char *err, size_t errlen, const char *call, hip_err rc)
{
    const char *name = H.GetErrorName ? H.GetErrorName(rc) : NULL;
    const char *text = H.GetErrorString ? H.GetErrorString(rc) : NULL;
    if (text && name && strcmp(text, name) == 0)
        gpu_dl_fmt(err, errlen, "%s failed: %s (%d)", call, name, rc);
    else
        gpu_dl_fmt(err, errlen, "%s failed: %s (%s, %d)", call, text ? text : "unknown error",
                   name ? name : "hipError", rc);
    return -1;
}

static int rtc_fail(char *err, size_t errlen, const char *call, int rc)
{
    const char *text = H.rtcGetErrorString ? H.rtcGetErrorString(rc) : NULL;
    gpu_dl_fmt(err, errlen, "%s failed: %s (hiprtcResult %d)", call,
               text ? text : "unknown error", rc);
    return -1;
}

/* Candidate paths under $ROCM_PATH (or /opt/rocm) for a library, after the bare sonames. */
static void rocm_candidates(const char *const *sonames, const char **out, size_t max,
                            char paths[][PATH_MAX])
{
    size_t n = 0, p = 0;
    for (size_t i = 0; sonames[i] && n + 1 < max; i++)
        out[n++] = sonames[i];
    const char *roots[] = {getenv("ROCM_PATH"), "/opt/rocm"};
    for (size_t r = 0; r < 2; r++) {
        if (!roots[r] || !roots[r][0] || n + 1 >= max || p >= 2)
            continue;
        snprintf(paths[p], PATH_MAX, "%s/lib/%s", roots[r], sonames[0]);
        out[n++] = paths[p++];
    }
    out[n] = NULL;
}

static const char *base_name(const char *path)
{
    const char *s = strrchr(path, '/');
    return s ? s + 1 : path;
}

static int load_runtime(void)
{
    const char *override = getenv("KLADDER_HIP_LIBRARY");
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
        SYM(StreamCreateWithFlags, "hipStreamCreateWithFlags"),
        SYM(StreamDestroy, "hipStreamDestroy"),
        SYM(StreamSynchronize, "hipStreamSynchronize"),
        SYM(StreamWaitEvent, "hipStreamWaitEvent"),
        SYM(EventCreate, "hipEventCreate"),
        SYM(EventDestroy, "hipEventDestroy"),
        SYM(EventRecord, "hipEventRecord"),
        SYM(EventElapsedTime, "hipEventElapsedTime"),
        SYM(EventSynchronize, "hipEventSynchronize"),
        SYM(ModuleLoadData, "hipModuleLoadData"),
        SYM(ModuleUnload, "hipModuleUnload"),
        SYM(ModuleGetFunction, "hipModuleGetFunction"),
        SYM(ModuleLaunchKernel, "hipModuleLaunchKernel"),
        SYM(StreamBeginCapture, "hipStreamBeginCapture"),
        SYM(StreamEndCapture, "hipStreamEndCapture"),
        OPT(GraphInstantiateWithFlags, "hipGraphInstantiateWithFlags"),
        SYM(GraphInstantiate, "hipGraphInstantiate"),
        SYM(GraphLaunch, "hipGraphLaunch"),
        SYM(GraphExecDestroy, "hipGraphExecDestroy"),
        SYM(GraphDestroy, "hipGraphDestroy"),
    };
    gpu_dl_path_of(H.lib, "hipInit", H.lib_path, sizeof H.lib_path);
    if (gpu_dl_bind(H.lib, H.lib_path, syms, sizeof syms / sizeof syms[0], H.why,
                    sizeof H.why))
        return -1;
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
        SYM(rtcCreateProgram, "hiprtcCreateProgram"),
        SYM(rtcCompileProgram, "hiprtcCompileProgram"),
        SYM(rtcGetProgramLogSize, "hiprtcGetProgramLogSize"),
        SYM(rtcGetProgramLog, "hiprtcGetProgramLog"),
        SYM(rtcGetCodeSize, "hiprtcGetCodeSize"),
        SYM(rtcGetCode, "hiprtcGetCode"),
        SYM(rtcDestroyProgram, "hiprtcDestroyProgram"),
        SYM(rtcVersion, "hiprtcVersion"),
        SYM(rtcGetErrorString, "hiprtcGetErrorString"),
    };
    size_t n = sizeof syms / sizeof syms[0];
    char why[600];
    /* ROCm 5 carries hipRTC inside libamdhip64; ROCm 6 and later ship libhiprtc beside it. */
    if (gpu_dl_bind(H.lib, H.lib_path, syms, n, NULL, 0) == 0) {
        gpu_dl_copy(H.rtc_path, sizeof H.rtc_path, H.lib_path);
        return 0;
    }
    const char *override = getenv("KLADDER_HIPRTC_LIBRARY");
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
                   base_name(H.lib_path), why);
        return -1;
    }
    gpu_dl_path_of(H.rtc_lib, "hiprtcCreateProgram", H.rtc_path, sizeof H.rtc_path);
    return gpu_dl_bind(H.rtc_lib, H.rtc_path, syms, n, H.why, sizeof H.why);
}

/* The code-object manager's file, for the compiler identity: hipRTC generates code through
 * comgr, which can be upgraded on its own. */
static void comgr_name(char *out, size_t len)
{
    char path[PATH_MAX];
    gpu_dl_find_file(NAMES("libamd_comgr.so.3", "libamd_comgr.so.2", "libamd_comgr.so"),
                     "amd_comgr_get_version", path, sizeof path);
    gpu_dl_copy(out, len, base_name(path));
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
                       minor, base_name(H.rtc_path), comgr[0] ? ", " : "", comgr);
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

/* The device this thread talks to; hipSetDevice only when it changes. */
static _Thread_local int tl_current = -1;
static int use_device(int dev, char *err, size_t errlen)
{
    if (tl_current == dev)
        return 0;
    hip_err rc = H.SetDevice(dev);
    if (rc != HIP_SUCCESS)
        return fail(err, errlen, "hipSetDevice", rc);
    tl_current = dev;
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
        gpu_dl_copy(target, sizeof target, base_name(real));
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
    const char *root = getenv("ROCM_PATH");
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
    if (devices_ready(err, errlen))
        return -1;
    if (index < 0 || index >= H.ndev) {
        gpu_dl_fmt(err, errlen, "hip device %d does not exist (%d device%s)", index, H.ndev,
                   H.ndev == 1 ? "" : "s");
        return -1;
    }
    tl_current = -1;
    if (use_device(index, err, errlen))
        return -1;
    struct eng_ctx *ctx = calloc(1, sizeof *ctx);
    if (!ctx) {
        gpu_dl_fmt(err, errlen, "out of host memory");
        return -1;
    }
    ctx->dev = index;
    *out = ctx;
    return 0;
}

static void hip_close(struct eng_ctx *ctx)
{
    if (!ctx)
        return;
    if (use_device(ctx->dev, NULL, 0) == 0)
        (void)H.StreamSynchronize(NULL);
    free(ctx);
}

static const char *hip_compiler_id(void)
{
    return H.state > 0 ? H.compiler_id : "hiprtc unavailable";
}

/* Copies the program log into log; returns its length. */
static size_t copy_log(hip_handle prog, char *log, size_t loglen)
{
    if (!log || loglen == 0)
        return 0;
    log[0] = '\0';
    size_t n = 0;
    if (H.rtcGetProgramLogSize(prog, &n) != HIPRTC_SUCCESS || n == 0)
        return 0;
    char *buf = malloc(n + 1);
    if (!buf)
        return 0;
    buf[0] = '\0';
    if (H.rtcGetProgramLog(prog, buf) == HIPRTC_SUCCESS) {
        buf[n] = '\0';
        gpu_dl_copy(log, loglen, buf);
    }
    free(buf);
    return strlen(log);
}

static int hip_compile(const char *target, const char *source, const char *name,
                       const char *const *flags, void **code, size_t *code_len, char *log,
                       size_t loglen)
{
    *code = NULL;
    *code_len = 0;
    if (H.state <= 0) {
        gpu_dl_fmt(log, loglen, "hip backend not loaded%s%s", H.why[0] ? ": " : "", H.why);
        return -1;
    }
    if (!target || strncmp(target, "gfx", 3) != 0) {
        gpu_dl_fmt(log, loglen, "hip compile: target \"%s\" is not a gfx target id",
                   target ? target : "");
        return -1;
    }
    size_t nflags = 0;
    while (flags && flags[nflags])
        nflags++;
    const char **opts = calloc(nflags + 4, sizeof *opts);
    char arch[128];
    if (!opts) {
        gpu_dl_fmt(log, loglen, "out of host memory");
        return -1;
    }
    /* Always name the target: without it hipRTC asks the runtime for the current device, which
     * is not reproducible and fails on a machine without a GPU. */
    gpu_dl_fmt(arch, sizeof arch, "--offload-arch=%s", target);
    size_t n = 0;
    opts[n++] = arch;
    opts[n++] = "-O3";
    for (size_t i = 0; i < nflags; i++)
        opts[n++] = flags[i];

    hip_handle prog = NULL;
    int rc = H.rtcCreateProgram(&prog, source, name ? name : "kernel.kl", 0, NULL, NULL);
    if (rc != HIPRTC_SUCCESS) {
        free(opts);
        return rtc_fail(log, loglen, "hiprtcCreateProgram", rc);
    }
    rc = H.rtcCompileProgram(prog, (int)n, opts);
    free(opts);
    if (rc != HIPRTC_SUCCESS) {
        size_t used = copy_log(prog, log, loglen);
        if (used + 1 < loglen) {
            const char *text = H.rtcGetErrorString ? H.rtcGetErrorString(rc) : NULL;
            gpu_dl_fmt(log + used, loglen - used, "%shiprtcCompileProgram(%s) failed: %s (%d)",
                       used ? "\n" : "", target, text ? text : "error", rc);
        }
        H.rtcDestroyProgram(&prog);
        return -1;
    }
    size_t size = 0;
    rc = H.rtcGetCodeSize(prog, &size);
    if (rc != HIPRTC_SUCCESS || size == 0) {
        H.rtcDestroyProgram(&prog);
        if (rc == HIPRTC_SUCCESS)
            gpu_dl_fmt(log, loglen, "hiprtcGetCodeSize: empty code object for %s", target);
        return rc == HIPRTC_SUCCESS ? -1 : rtc_fail(log, loglen, "hiprtcGetCodeSize", rc);
    }
    char *buf = malloc(size);
    if (!buf) {
        H.rtcDestroyProgram(&prog);
        gpu_dl_fmt(log, loglen, "out of host memory (%zu-byte code object)", size);
        return -1;
    }
    rc = H.rtcGetCode(prog, buf);
    H.rtcDestroyProgram(&prog);
    if (rc != HIPRTC_SUCCESS) {
        free(buf);
        return rtc_fail(log, loglen, "hiprtcGetCode", rc);
    }
    if (log && loglen)
        log[0] = '\0';
    *code = buf;
    *code_len = size;
    return 0;
}

static int hip_module_load(struct eng_ctx *ctx, const void *code, size_t len,
                           struct eng_module **out, char *err, size_t errlen)
{
    (void)len;
    *out = NULL;
    if (use_device(ctx->dev, err, errlen))
        return -1;
    hip_handle m = NULL;
    hip_err rc = H.ModuleLoadData(&m, code);
    if (rc != HIP_SUCCESS)
        return fail(err, errlen, "hipModuleLoadData", rc);
    struct eng_module *mod = calloc(1, sizeof *mod);
    if (!mod) {
        (void)H.ModuleUnload(m);
        gpu_dl_fmt(err, errlen, "out of host memory");
        return -1;
    }
    mod->mod = m;
    *out = mod;
    return 0;
}

static void hip_module_unload(struct eng_ctx *ctx, struct eng_module *mod)
{
    if (!mod)
        return;
    if (use_device(ctx->dev, NULL, 0) == 0)
        (void)H.ModuleUnload(mod->mod);
    while (mod->kernels) {
        struct eng_kernel *k = mod->kernels;
        mod->kernels = k->next;
        free(k);
    }
    free(mod);
}

static int hip_kernel_get(struct eng_ctx *ctx, struct eng_module *mod, const char *entry,
                          struct eng_kernel **out, char *err, size_t errlen)
{
    *out = NULL;
    if (use_device(ctx->dev, err, errlen))
        return -1;
    hip_handle fn = NULL;
    hip_err rc = H.ModuleGetFunction(&fn, mod->mod, entry);
    if (rc != HIP_SUCCESS) {
        char call[192];
        gpu_dl_fmt(call, sizeof call, "hipModuleGetFunction(\"%s\")", entry);
        return fail(err, errlen, call, rc);
    }
    struct eng_kernel *k = calloc(1, sizeof *k);
    if (!k) {
        gpu_dl_fmt(err, errlen, "out of host memory");
        return -1;
    }
    k->fn = fn;
    gpu_dl_copy(k->name, sizeof k->name, entry);
    k->next = mod->kernels;
    mod->kernels = k;
    *out = k;
    return 0;
}

static int hip_mem_alloc(struct eng_ctx *ctx, size_t bytes, eng_dptr *out, char *err,
                         size_t errlen)
{
    *out = 0;
    if (use_device(ctx->dev, err, errlen))
        return -1;
    void *p = NULL;
    hip_err rc = H.Malloc(&p, bytes ? bytes : 1);
    if (rc != HIP_SUCCESS) {
        char call[64];
        gpu_dl_fmt(call, sizeof call, "hipMalloc(%zu bytes)", bytes);
        return fail(err, errlen, call, rc);
    }
    *out = (eng_dptr)(uintptr_t)p;
    return 0;
}

static void hip_mem_free(struct eng_ctx *ctx, eng_dptr p)
{
    if (p && use_device(ctx->dev, NULL, 0) == 0)
        (void)H.Free((void *)(uintptr_t)p);
}

static hip_handle stream_of(struct eng_stream *s)
{
    return s ? s->s : NULL;
}

/* After a copy: wait for it unless the stream is recording a graph (see the top of the file). */
static int copy_done(struct eng_stream *s, const char *call, char *err, size_t errlen)
{
    if (s && s->capturing)
        return 0;
    hip_err rc = H.StreamSynchronize(stream_of(s));
    if (rc != HIP_SUCCESS) {
        char what[96];
        gpu_dl_fmt(what, sizeof what, "hipStreamSynchronize after %s", call);
        return fail(err, errlen, what, rc);
    }
    return 0;
}

static int hip_memcpy_htod(struct eng_ctx *ctx, eng_dptr dst, const void *src, size_t bytes,
                           struct eng_stream *s, char *err, size_t errlen)
{
    if (use_device(ctx->dev, err, errlen))
        return -1;
    hip_err rc = H.MemcpyHtoDAsync((void *)(uintptr_t)dst, src, bytes, stream_of(s));
    if (rc != HIP_SUCCESS)
        return fail(err, errlen, "hipMemcpyHtoDAsync", rc);
    return copy_done(s, "hipMemcpyHtoDAsync", err, errlen);
}

static int hip_memcpy_dtoh(struct eng_ctx *ctx, void *dst, eng_dptr src, size_t bytes,
                           struct eng_stream *s, char *err, size_t errlen)
{
    if (use_device(ctx->dev, err, errlen))
        return -1;
    hip_err rc = H.MemcpyDtoHAsync(dst, (void *)(uintptr_t)src, bytes, stream_of(s));
    if (rc != HIP_SUCCESS)
        return fail(err, errlen, "hipMemcpyDtoHAsync", rc);
    return copy_done(s, "hipMemcpyDtoHAsync", err, errlen);
}

static int hip_memset_d8(struct eng_ctx *ctx, eng_dptr dst, uint8_t value, size_t bytes,
                         struct eng_stream *s, char *err, size_t errlen)
{
    if (use_device(ctx->dev, err, errlen))
        return -1;
    hip_err rc = H.MemsetD8Async((void *)(uintptr_t)dst, value, bytes, stream_of(s));
    return rc == HIP_SUCCESS ? 0 : fail(err, errlen, "hipMemsetD8Async", rc);
}

static int hip_stream_create(struct eng_ctx *ctx, struct eng_stream **out, char *err,
                             size_t errlen)
{
    *out = NULL;
    if (use_device(ctx->dev, err, errlen))
        return -1;
    struct eng_stream *s = calloc(1, sizeof *s);
    if (!s) {
        gpu_dl_fmt(err, errlen, "out of host memory");
        return -1;
    }
    hip_err rc = H.StreamCreateWithFlags(&s->s, HIP_STREAM_NON_BLOCKING);
    if (rc != HIP_SUCCESS) {
        free(s);
        return fail(err, errlen, "hipStreamCreateWithFlags(hipStreamNonBlocking)", rc);
    }
    *out = s;
    return 0;
}

static void hip_stream_destroy(struct eng_ctx *ctx, struct eng_stream *s)
{
    if (!s)
        return;
    if (use_device(ctx->dev, NULL, 0) == 0)
        (void)H.StreamDestroy(s->s);
    free(s);
}

static int hip_stream_sync(struct eng_ctx *ctx, struct eng_stream *s, char *err, size_t errlen)
{
    if (use_device(ctx->dev, err, errlen))
        return -1;
    hip_err rc = H.StreamSynchronize(stream_of(s));
    return rc == HIP_SUCCESS ? 0 : fail(err, errlen, "hipStreamSynchronize", rc);
}

static int hip_event_create(struct eng_ctx *ctx, struct eng_event **out, char *err,
                            size_t errlen)
{
    *out = NULL;
    if (use_device(ctx->dev, err, errlen))
        return -1;
    struct eng_event *e = calloc(1, sizeof *e);
    if (!e) {
        gpu_dl_fmt(err, errlen, "out of host memory");
        return -1;
    }
    hip_err rc = H.EventCreate(&e->e);
    if (rc != HIP_SUCCESS) {
        free(e);
        return fail(err, errlen, "hipEventCreate", rc);
    }
    *out = e;
    return 0;
}

static void hip_event_destroy(struct eng_ctx *ctx, struct eng_event *e)
{
    if (!e)
        return;
    if (use_device(ctx->dev, NULL, 0) == 0)
        (void)H.EventDestroy(e->e);
    free(e);
}

static int hip_event_record(struct eng_ctx *ctx, struct eng_event *e, struct eng_stream *s,
                            char *err, size_t errlen)
{
    if (use_device(ctx->dev, err, errlen))
        return -1;
    hip_err rc = H.EventRecord(e->e, stream_of(s));
    return rc == HIP_SUCCESS ? 0 : fail(err, errlen, "hipEventRecord", rc);
}

static int hip_stream_wait_event(struct eng_ctx *ctx, struct eng_stream *s, struct eng_event *e,
                                 char *err, size_t errlen)
{
    if (use_device(ctx->dev, err, errlen))
        return -1;
    hip_err rc = H.StreamWaitEvent(stream_of(s), e->e, 0);
    return rc == HIP_SUCCESS ? 0 : fail(err, errlen, "hipStreamWaitEvent", rc);
}

static int hip_event_elapsed_ms(struct eng_ctx *ctx, struct eng_event *start,
                                struct eng_event *end, float *ms, char *err, size_t errlen)
{
    *ms = 0.0f;
    if (use_device(ctx->dev, err, errlen))
        return -1;
    /* The interval may still be running: wait for its end rather than answer "not ready". */
    hip_err rc = H.EventElapsedTime(ms, start->e, end->e);
    if (rc == HIP_ERROR_NOT_READY) {
        rc = H.EventSynchronize(end->e);
        if (rc != HIP_SUCCESS)
            return fail(err, errlen, "hipEventSynchronize", rc);
        rc = H.EventElapsedTime(ms, start->e, end->e);
    }
    return rc == HIP_SUCCESS ? 0 : fail(err, errlen, "hipEventElapsedTime", rc);
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

static int hip_launch(struct eng_ctx *ctx, struct eng_kernel *k, const unsigned grid[3],
                      const unsigned block[3], unsigned shared_bytes, struct eng_stream *s,
                      void **args, char *err, size_t errlen)
{
    for (int d = 0; d < 3; d++) {
        if ((uint64_t)grid[d] * block[d] >= ((uint64_t)1 << 32)) {
            gpu_dl_fmt(err, errlen, "hipModuleLaunchKernel(%s): grid %u x block %u in dimension "
                       "%c reaches 2^32 work items, which HIP does not support; use a "
                       "grid-stride loop", k->name, grid[d], block[d], "xyz"[d]);
            return -1;
        }
    }
    if (use_device(ctx->dev, err, errlen))
        return -1;
    hip_err rc = H.ModuleLaunchKernel(k->fn, grid[0], grid[1], grid[2], block[0], block[1],
                                      block[2], shared_bytes, stream_of(s), args, NULL);
    const char *what = "hipModuleLaunchKernel";
    /* KLADDER_SYNC_LAUNCHES=1: wait for every launch, so a fault is blamed on its kernel
     * instead of surfacing at the next synchronisation. */
    if (rc == HIP_SUCCESS && sync_launches() && !(s && s->capturing)) {
        what = "the kernel, run synchronously";
        rc = H.StreamSynchronize(stream_of(s));
    }
    if (rc != HIP_SUCCESS) {
        char call[256];
        gpu_dl_fmt(call, sizeof call, "%s (%s, grid %ux%ux%u, block %ux%ux%u, %u B shared)", what,
                   k->name, grid[0], grid[1], grid[2], block[0], block[1], block[2],
                   shared_bytes);
        return fail(err, errlen, call, rc);
    }
    return 0;
}

static int hip_graph_begin(struct eng_ctx *ctx, struct eng_stream *s, char *err, size_t errlen)
{
    if (!s) {
        gpu_dl_fmt(err, errlen, "hipStreamBeginCapture: the null stream cannot be captured; "
                   "capture a created stream");
        return -1;
    }
    if (use_device(ctx->dev, err, errlen))
        return -1;
    /* Thread-local mode: calls that are unsafe during capture fail on this thread, while other
     * threads (none today) stay unaffected. */
    hip_err rc = H.StreamBeginCapture(s->s, HIP_CAPTURE_MODE_THREAD_LOCAL);
    if (rc != HIP_SUCCESS)
        return fail(err, errlen, "hipStreamBeginCapture", rc);
    s->capturing = true;
    return 0;
}

static int hip_graph_end(struct eng_ctx *ctx, struct eng_stream *s, struct eng_graph **out,
                         char *err, size_t errlen)
{
    *out = NULL;
    if (!s) {
        gpu_dl_fmt(err, errlen, "hipStreamEndCapture: the null stream is never captured");
        return -1;
    }
    if (use_device(ctx->dev, err, errlen))
        return -1;
    hip_handle graph = NULL, exec = NULL;
    hip_err rc = H.StreamEndCapture(s->s, &graph);
    s->capturing = false;
    if (rc != HIP_SUCCESS)
        return fail(err, errlen, "hipStreamEndCapture", rc);
    if (H.GraphInstantiateWithFlags) {
        rc = H.GraphInstantiateWithFlags(&exec, graph, 0);
        if (rc != HIP_SUCCESS) {
            (void)H.GraphDestroy(graph);
            return fail(err, errlen, "hipGraphInstantiateWithFlags", rc);
        }
    } else {
        char log[256] = "";
        rc = H.GraphInstantiate(&exec, graph, NULL, log, sizeof log);
        if (rc != HIP_SUCCESS) {
            (void)H.GraphDestroy(graph);
            return fail(err, errlen, "hipGraphInstantiate", rc);
        }
    }
    struct eng_graph *g = calloc(1, sizeof *g);
    if (!g) {
        (void)H.GraphExecDestroy(exec);
        (void)H.GraphDestroy(graph);
        gpu_dl_fmt(err, errlen, "out of host memory");
        return -1;
    }
    g->graph = graph;
    g->exec = exec;
    *out = g;
    return 0;
}

static int hip_graph_launch(struct eng_ctx *ctx, struct eng_graph *g, struct eng_stream *s,
                            char *err, size_t errlen)
{
    if (use_device(ctx->dev, err, errlen))
        return -1;
    hip_err rc = H.GraphLaunch(g->exec, stream_of(s));
    return rc == HIP_SUCCESS ? 0 : fail(err, errlen, "hipGraphLaunch", rc);
}

static void hip_graph_destroy(struct eng_ctx *ctx, struct eng_graph *g)
{
    if (!g)
        return;
    if (use_device(ctx->dev, NULL, 0) == 0) {
        (void)H.GraphExecDestroy(g->exec);
        (void)H.GraphDestroy(g->graph);
    }
    free(g);
}

/* ---- several devices in one process (rung 6) -------------------------------------------- */

/* hipDeviceEnablePeerAccess is bound here, on first use, so the backend's symbol table stays
 * as it is for single-device work. */
static int hip_peer_enable(struct eng_ctx *ctx, struct eng_ctx *peer, char *err, size_t errlen)
{
    static hip_err (*enable)(int, unsigned);
    if (!enable)
        *(void **)&enable = H.lib ? dlsym(H.lib, "hipDeviceEnablePeerAccess") : NULL;
    if (!enable) {
        gpu_dl_fmt(err, errlen, "hipDeviceEnablePeerAccess is not exported by the HIP runtime");
        return -1;
    }
    if (ctx->dev == peer->dev)
        return 0;
    if (use_device(ctx->dev, err, errlen))
        return -1;
    hip_err rc = enable(peer->dev, 0);
    /* 704: hipErrorPeerAccessAlreadyEnabled */
    return rc == 0 || rc == 704 ? 0 : fail(err, errlen, "hipDeviceEnablePeerAccess", rc);
}

static void *hip_stream_native(struct eng_ctx *ctx, struct eng_stream *s)
{
    if (use_device(ctx->dev, NULL, 0))
        return NULL;
    return stream_of(s);
}

const struct eng_backend eng_backend_hip = {
    .name = "hip",
    .caps = {.real_concurrency = true, .util_block = 256, .delay_ticks = 20000000,
             .poll_spins = 1u << 24, .collectives = "RCCL"},
    .load = hip_load,
    .device_count = hip_device_count,
    .device_info = hip_device_info,
    .open = hip_open,
    .close = hip_close,
    .compiler_id = hip_compiler_id,
    .compile_target = eng_backend_gpu_target,
    .compile = hip_compile,
    .module_load = hip_module_load,
    .module_unload = hip_module_unload,
    .kernel_get = hip_kernel_get,
    .mem_alloc = hip_mem_alloc,
    .mem_free = hip_mem_free,
    .memcpy_htod = hip_memcpy_htod,
    .memcpy_dtoh = hip_memcpy_dtoh,
    .memset_d8 = hip_memset_d8,
    .stream_create = hip_stream_create,
    .stream_destroy = hip_stream_destroy,
    .stream_sync = hip_stream_sync,
    .event_create = hip_event_create,
    .event_destroy = hip_event_destroy,
    .event_record = hip_event_record,
    .stream_wait_event = hip_stream_wait_event,
    .event_elapsed_ms = hip_event_elapsed_ms,
    .launch = hip_launch,
    .graph_begin = hip_graph_begin,
    .graph_end = hip_graph_end,
    .graph_launch = hip_graph_launch,
    .graph_destroy = hip_graph_destroy,
    .peer_enable = hip_peer_enable,
    .stream_native = hip_stream_native,
};
