/* The hip backend (first cut: load() only; the rest of the vtable follows). */
#include "engine/backend.h"
#include "engine/gpu_dl.h"

static int st_state; /* 0 not tried, 1 loaded, -1 failed */
static char st_why[1024];

static int hip_load(char *why, size_t whylen)
{
    if (st_state == 0) {
        static const char *const libs[] = {"libamdhip64.so", "libamdhip64.so.7", "libamdhip64.so.6", "libamdhip64.so.5", NULL};
        void *h = gpu_dl_open_first(libs, NULL, st_why, sizeof st_why);
        st_state = h ? 1 : -1;
    }
    if (st_state < 0)
        gpu_dl_fmt(why, whylen, "%s", st_why);
    return st_state > 0 ? 0 : -1;
}

static int hip_device_count(int *count, char *err, size_t errlen)
{
    *count = 0;
    gpu_dl_fmt(err, errlen, "hip backend: device access is not implemented yet");
    return -1;
}

static const char *hip_compiler_id(void)
{
    return "hip (not implemented yet)";
}

const struct eng_backend eng_backend_hip = {
    .name = "hip",
    .load = hip_load,
    .device_count = hip_device_count,
    .compiler_id = hip_compiler_id,
};
