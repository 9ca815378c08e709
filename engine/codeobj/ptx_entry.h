/* The kernels of a PTX module read from its text: each `.entry NAME(...)`'s parameter list
 * (.param TYPE [.ptr ...] [.align N] NAME[[N]]), laid out as the PTX ISA lays out kernel
 * parameters (each at the next multiple of its alignment: its size for a scalar, .align for a
 * byte array), its launch bound (.maxntid or .reqntid, their product) and the static shared
 * memory its body declares (.shared ... name[N]). Module-level .shared variables belong to no
 * one kernel: with any, the shared size is unknown (-1). The target comes from `.target`.
 *
 * The text is untrusted: a parameter list that does not parse is an error naming the line. */
#ifndef KL_ENGINE_PTX_ENTRY_H
#define KL_ENGINE_PTX_ENTRY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct ptx_param {
    int64_t offset, size;
    bool pointer;                 /* declared .ptr */
};

struct ptx_kernel {
    char name[256];
    int nparams;
    struct ptx_param *params;     /* malloc'd */
    int64_t max_threads;          /* -1: no launch bound */
    int64_t shared_bytes;         /* -1: unknown */
};

struct ptx_module {
    char target[16];              /* "sm_90", "" when .target is absent */
    size_t nkernels;
    struct ptx_kernel *kernels;   /* malloc'd */
};

/* Whether data looks like PTX text: its first directive, after comments and blank lines, is
 * .version. */
bool ptx_is(const void *data, size_t len);

/* 0, or -1 with a reason naming the line in err. Free with ptx_module_free. */
int ptx_read(const void *data, size_t len, struct ptx_module *out, char *err, size_t errlen);
void ptx_module_free(struct ptx_module *pm);

#endif
