/* The <headers> a plain source may include besides the device API's (engine/compile/plain_source.h).
 * On the cpu backend, where the source is compiled whole by the host's C++ compiler:
 *   - the C and C++ standard library's and a few of the system's that host code uses (timers,
 *     getopt, OpenMP): the host compiler's own, hoisted in front of kladder's headers so that
 *     no device macro (__noinline__, __shared__, ...) reaches them;
 *   - the vendors' host libraries (hipBLAS, the profiler API): kladder's kernels/kl_host.h
 *     declares enough of them for host code to compile; the CUDA math libraries (cuBLAS,
 *     cuBLASLt, cuFFT, cuSPARSE, cuSOLVER, cuRAND's host API): a header of kladder's each
 *     (kernels/kl_cublas.h, ...), put in front only of a source that includes one of theirs.
 *     Host code does not run there, so nothing of them is implemented: every call answers
 *     "not supported". */
#ifndef KL_ENGINE_SOURCE_HOST_HEADERS_H
#define KL_ENGINE_SOURCE_HOST_HEADERS_H

#include <stdbool.h>
#include <stddef.h>

/* Whether the n bytes at name name a standard (or system) header the host compiler supplies. */
bool eng_host_std_header(const char *name, size_t n);

/* Whether they name a vendor host library header kladder stands in for (kernels/kl_host.h, or a
 * math library's header of eng_host_lib_headers). */
bool eng_host_shim_header(const char *name, size_t n);

/* The kladder headers that stand in for a CUDA math library's header (cufft.h: kl_cufft.h;
 * cusolverDn.h: kl_cublas.h, kl_cusparse.h and kl_cusolver.h, as the toolkit's includes the
 * others), as bits over eng_host_lib_file's indexes; 0 for any other header. */
unsigned eng_host_lib_headers(const char *name, size_t n);

/* The embedded file of bit i (kernels/kl_cublas.h, ...), in the order they go in front of a
 * source (a library's before those using its types); NULL past the last. */
const char *eng_host_lib_file(unsigned i);

/* A HIP device header a CUDA compiler has under CUDA's name (hip/hip_fp16.h: cuda_fp16.h), ""
 * for one kernels/kl_vendor.h's HIP part includes itself (cooperative groups with their
 * reduce), or NULL for any other header: a .hip source on the cuda backend. */
const char *eng_host_hip_on_cuda(const char *name, size_t n);

#endif
