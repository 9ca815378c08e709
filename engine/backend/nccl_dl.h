/* NCCL (NVIDIA) or RCCL (AMD) loaded at run time with dlopen, as rung 6's reference
 * collective. Only the calls rung 6 needs are bound; the binary never links either library.
 *
 * Search order: $KLADDER_NCCL_LIBRARY (one file), then for cuda libnccl.so.2 and libnccl.so,
 * for hip librccl.so.1, librccl.so and $ROCM_PATH/lib, /opt/rocm/lib. The handle lives for the
 * process (NCCL keeps threads of its own; unloading it under them is not safe). */
#ifndef KL_ENGINE_NCCL_DL_H
#define KL_ENGINE_NCCL_DL_H

#include <stddef.h>

/* ncclUniqueId: an opaque 128-byte value, passed by value. */
struct eng_nccl_id {
    char internal[128];
};

/* ncclDataType_t and ncclRedOp_t values used here (the same in RCCL). */
#define ENG_NCCL_FLOAT32 7
#define ENG_NCCL_SUM 0

struct eng_nccl {
    char path[640];
    int version;      /* ncclGetVersion: e.g. 22105 for 2.21.5 */
    int (*GetUniqueId)(struct eng_nccl_id *id);
    int (*CommInitRank)(void **comm, int nranks, struct eng_nccl_id id, int rank);
    int (*AllReduce)(const void *send, void *recv, size_t count, int dtype, int op, void *comm,
                     void *stream);
    int (*CommDestroy)(void *comm);
    const char *(*GetErrorString)(int rc);
    int (*GetVersion)(int *version);
};

/* Loads a collective library: family is a backend's caps.collectives, "NCCL" or "RCCL" (NULL:
 * the backend has none). Returns a process-wide table, or NULL with what was tried in why.
 * Thread-safe. */
const struct eng_nccl *eng_nccl_load(const char *family, char *why, size_t whylen);

/* "NCCL 2.21.5 (libnccl.so.2)" or "RCCL ..." for reports. */
void eng_nccl_describe(const struct eng_nccl *n, const char *family, char *out, size_t len);

#endif
