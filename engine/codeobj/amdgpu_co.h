/* Reading an AMDGPU code object (an ELF64 file, e_machine EM_AMDGPU) without any ROCm library:
 * the processor from the ELF flags, the NT_AMDGPU_METADATA note (msgpack, code object v3+) with
 * each kernel's resources and explicit arguments (.args: offset, size, value kind), and each kernel's descriptor (<name>.kd: the wave32 bit and the
 * float denormal modes the hardware is set to), and the wave a kernel of the dialect declares
 * it assumes (KL_ASSUME_WAVE: the symbol kl_assume_wave_<name>). Used by `kladder inspect` and by rung 3.
 *
 * The input is untrusted: every offset, size and count is checked against the file before it
 * is used, and a problem is an error naming what was wrong and where, never a crash or a read
 * past the buffer. Facts the file does not state are -1. References: llvm
 * BinaryFormat/ELF.h (EF_AMDGPU_MACH_*), AMDGPUUsage "Code Object V3+ Metadata",
 * Support/AMDHSAKernelDescriptor.h. */
#ifndef KL_ENGINE_AMDGPU_CO_H
#define KL_ENGINE_AMDGPU_CO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* One explicit kernel argument from .args (the hidden_* ones the runtime fills are left out). */
struct amdgpu_arg {
    int64_t offset, size;                 /* in the kernarg segment, bytes */
    char value_kind[32];                  /* "global_buffer", "by_value", ... */
};

struct amdgpu_kernel {
    char name[128];                       /* .name */
    char symbol[136];                     /* .symbol ("<name>.kd") */
    int64_t wavefront_size;               /* required by the format */
    int64_t sgpr_count, vgpr_count, agpr_count;
    int64_t sgpr_spill_count, vgpr_spill_count;
    int64_t group_segment_fixed_size;     /* LDS bytes */
    int64_t private_segment_fixed_size;   /* scratch bytes per work-item: spills, stack */
    int64_t kernarg_segment_size;
    int64_t max_flat_workgroup_size;
    /* From the kernel descriptor, when its symbol and bytes are in the file. */
    bool has_descriptor;
    bool descriptor_wave32;               /* kernel_code_properties bit 10 */
    int float_denorm_32, float_denorm_16_64; /* COMPUTE_PGM_RSRC1 bits 16-17, 18-19:
                                               * 0 flush in and out ... 3 flush none */
    int assumed_wave;                     /* the kernel's KL_ASSUME_WAVE (kernels/kl.h), or -1 */
    bool has_args;                        /* .args was present */
    size_t nargs;
    struct amdgpu_arg *args;              /* malloc'd, in declaration order */
};

struct amdgpu_co {
    unsigned mach;                        /* e_flags & 0xff */
    char processor[32];                   /* "gfx1250", or "unknown-0x.." */
    char metadata_target[128];            /* amdhsa.target, "" when absent */
    size_t nkernels;
    struct amdgpu_kernel *kernels;        /* malloc'd */
};

/* Parses data[0..len). 0, or -1 with a message in err (without the file name: the caller
 * adds it). On success out owns memory freed by amdgpu_co_free. */
int amdgpu_co_read(const void *data, size_t len, struct amdgpu_co *out, char *err,
                   size_t errlen);
void amdgpu_co_free(struct amdgpu_co *co);

/* The wave size a processor runs by default: 64 for gfx9 (gfx90a, gfx942, gfx950), 32 for gfx10
 * and later; 0 when it cannot tell. */
int amdgpu_default_wave(const char *processor);

#endif
