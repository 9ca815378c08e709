/* Standard and vendor host headers of a plain source (host_headers.h). */
#include "engine/compile/host_headers.h"

#include <string.h>

/* C++17's library, C's (both spellings), and the system headers host code commonly includes. */
static const char *const std_headers[] = {
    /* C++ */
    "algorithm", "any", "array", "atomic", "bitset", "cassert", "cctype", "cerrno", "cfenv",
    "cfloat", "charconv", "chrono", "cinttypes", "climits", "clocale", "cmath", "complex",
    "condition_variable", "csetjmp", "csignal", "cstdarg", "cstddef", "cstdint", "cstdio",
    "cstdlib", "cstring", "ctime", "cwchar", "cwctype", "deque", "exception", "execution",
    "filesystem", "forward_list", "fstream", "functional", "future", "initializer_list",
    "iomanip", "ios", "iosfwd", "iostream", "istream", "iterator", "limits", "list", "locale",
    "map", "memory", "memory_resource", "mutex", "new", "numeric", "optional", "ostream",
    "queue", "random", "ratio", "regex", "scoped_allocator", "set", "shared_mutex", "sstream",
    "stack", "stdexcept", "streambuf", "string", "string_view", "system_error", "thread",
    "tuple", "type_traits", "typeindex", "typeinfo", "unordered_map", "unordered_set",
    "utility", "valarray", "variant", "vector",
    /* C */
    "assert.h", "ctype.h", "errno.h", "fenv.h", "float.h", "inttypes.h", "limits.h",
    "locale.h", "math.h", "setjmp.h", "signal.h", "stdarg.h", "stdbool.h", "stddef.h",
    "stdint.h", "stdio.h", "stdlib.h", "string.h", "time.h", "wchar.h", "wctype.h",
    /* the system's */
    "unistd.h", "getopt.h", "dirent.h", "fcntl.h", "pthread.h", "sys/time.h", "sys/types.h",
    "sys/stat.h", "sys/mman.h", "sys/resource.h", "omp.h", NULL};

/* Host libraries kernels/kl_host.h declares (the runtime headers themselves are served by
 * kl_vendor.h and kl_host.h together, engine/compile/plain_source.c). */
static const char *const shim_headers[] = {
    "cuda_profiler_api.h", "hipblas.h", "hipblas/hipblas.h", "hip/hip_runtime_api.h", NULL};

/* The CUDA math libraries' headers, each library's in a file of its own, and the toolkit's math
 * constants (scripts/cuda_lib_inventory.py writes them from the toolkit's headers). */
static const char *const lib_files[] = {"kernels/kl_cublas.h", "kernels/kl_cufft.h",
                                        "kernels/kl_cusparse.h", "kernels/kl_cusolver.h",
                                        "kernels/kl_curand.h", "kernels/kl_math_constants.h",
                                        NULL};
enum {
    LIB_CUBLAS = 1u, LIB_CUFFT = 2u, LIB_CUSPARSE = 4u, LIB_CUSOLVER = 8u, LIB_CURAND = 16u,
    LIB_MATH_CONSTANTS = 32u
};
static const struct {
    const char *name;
    unsigned files;
} lib_headers[] = {
    {"cublas_v2.h", LIB_CUBLAS},
    {"cublas.h", LIB_CUBLAS},
    {"cublas_api.h", LIB_CUBLAS},
    {"cublasLt.h", LIB_CUBLAS},
    {"cufft.h", LIB_CUFFT},
    {"cufftXt.h", LIB_CUFFT},
    {"cusparse.h", LIB_CUSPARSE},
    {"cusparse_v2.h", LIB_CUSPARSE},
    {"cusolverDn.h", LIB_CUBLAS | LIB_CUSPARSE | LIB_CUSOLVER},
    {"cusolverSp.h", LIB_CUBLAS | LIB_CUSPARSE | LIB_CUSOLVER},
    {"cusolver_common.h", LIB_CUBLAS | LIB_CUSPARSE | LIB_CUSOLVER},
    {"curand.h", LIB_CURAND},
    {"curand_kernel.h", LIB_CURAND},
    {"math_constants.h", LIB_MATH_CONSTANTS},
};

static bool listed(const char *const *list, const char *name, size_t n)
{
    for (size_t i = 0; list[i]; i++)
        if (strlen(list[i]) == n && strncmp(list[i], name, n) == 0)
            return true;
    return false;
}

bool eng_host_std_header(const char *name, size_t n) { return listed(std_headers, name, n); }

bool eng_host_shim_header(const char *name, size_t n)
{
    return listed(shim_headers, name, n) || eng_host_lib_headers(name, n) != 0;
}

unsigned eng_host_lib_headers(const char *name, size_t n)
{
    for (size_t i = 0; i < sizeof lib_headers / sizeof lib_headers[0]; i++)
        if (strlen(lib_headers[i].name) == n && !strncmp(lib_headers[i].name, name, n))
            return lib_headers[i].files;
    return 0;
}

const char *eng_host_lib_file(unsigned i)
{
    return i < sizeof lib_files / sizeof lib_files[0] ? lib_files[i] : NULL;
}

/* HIP's device headers a CUDA compiler has under CUDA's names ("" for those kl_vendor.h's HIP
 * part includes itself, cooperative groups with their reduce), or NULL for any other header.
 * clang without HIP headers (KL_HIP_WHOLE) has them all from kl_vendor.h. */
const char *eng_host_hip_on_cuda(const char *name, size_t n)
{
    static const char *const map[][2] = {
        {"hip/hip_fp16.h", "cuda_fp16.h"}, {"hip/hip_bf16.h", "cuda_bf16.h"},
        {"hip/hip_bfloat16.h", "cuda_bf16.h"}, {"hip/hip_complex.h", "cuComplex.h"},
        {"hip/hip_cooperative_groups.h", ""},
        {"hip/amd_detail/amd_warp_functions.h", ""}};
    for (size_t i = 0; i < sizeof map / sizeof map[0]; i++)
        if (strlen(map[i][0]) == n && !strncmp(map[i][0], name, n))
            return map[i][1];
    return NULL;
}
