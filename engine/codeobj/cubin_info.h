/* The kernels of an NVIDIA cubin (ELF64, e_machine EM_CUDA) read without the CUDA toolkit: each
 * kernel's parameters from its .nv.info.<name> section (the EIATTR_KPARAM_INFO records: ordinal,
 * offset and size in the parameter constant bank), its launch bound (EIATTR_MAX_THREADS or
 * EIATTR_REQNTID, from __launch_bounds__ / .maxntid / .reqntid) and its static shared memory
 * (the size of .nv.shared.<name>). A record is 4 bytes of head (format, attribute, a 16-bit
 * value or the size of the data that follows, EIFMT_SVAL).
 *
 * The input is untrusted: every offset and size is checked against the file; a problem is an
 * error naming the section and byte, never a read past the buffer. */
#ifndef KL_ENGINE_CUBIN_INFO_H
#define KL_ENGINE_CUBIN_INFO_H

#include <stddef.h>
#include <stdint.h>

struct cubin_param {
    int64_t offset, size;
};

struct cubin_kernel {
    char name[256];
    int nparams;                  /* -1: the attributes do not list them */
    struct cubin_param *params;   /* malloc'd, by ordinal */
    int64_t param_bytes;          /* EIATTR_CBANK_PARAM_SIZE, -1 when absent */
    int64_t max_threads;          /* x*y*z of the launch bound, -1 when the kernel has none */
    int64_t shared_bytes;         /* static shared memory; 0 without a .nv.shared.<name> */
};

struct cubin_info {
    char target[16];              /* "sm_90" */
    size_t nkernels;
    struct cubin_kernel *kernels; /* malloc'd */
};

/* 0, or -1 with a reason in err (without the file name). Free with cubin_info_free. */
int cubin_info_read(const void *data, size_t len, struct cubin_info *out, char *err, size_t errlen);
void cubin_info_free(struct cubin_info *ci);

#endif
