/* A suite's prebuilt code object (the manifest's "code_object", or `kladder run --code-object`):
 * read for the device's processor (engine/codeobj/gpu_binary.h), each entry point found by
 * name, and checked against the manifest before anything launches: the kernel's parameters
 * (count, size, and pointer or value where the format tells) against "args" and "arg_types",
 * its wave size against the device's, and its workgroup limit against "launch" at the default
 * parameters. A kernel that takes other arguments than it is given would read garbage or crash
 * the worker; here the mismatch is one error naming the manifest's field. */
#ifndef KL_ENGINE_PREBUILT_H
#define KL_ENGINE_PREBUILT_H

#include <stddef.h>

#include "engine/backend/backend.h"
#include "engine/codeobj/gpu_binary.h"
#include "engine/manifest.h"

struct eng_prebuilt {
    char *path;               /* the file, as given */
    void *data;               /* its bytes (malloc'd; PTX text NUL-terminated) */
    size_t len;
    struct gpu_binary bin;    /* bin.image/bin.image_len: what the loader takes */
};

/* The code object's bytes. The manifest's own ("code_object", beside it) is read inside the
 * suite's folder as its source is (common/file_within.h): the check made when the manifest
 * loaded holds for every later read, a link swapped in since is refused. One named on the
 * command line (--code-object) is the user's own path, read as it is. NULL with err. */
char *eng_code_object_read(const struct eng_manifest *m, const char *path, size_t *len,
                           char *err, size_t errlen);

/* Reads path (eng_code_object_read) for processor (NULL or "": a bundle's only entry). 0, or
 * -1 with "PATH: reason" in err. Close with eng_prebuilt_close. */
int eng_prebuilt_open(const struct eng_manifest *m, const char *path, const char *processor,
                      struct eng_prebuilt *out, char *err, size_t errlen);
/* eng_prebuilt_open of bytes already read (raw, malloc'd: taken, freed on failure too). */
int eng_prebuilt_from(char *raw, size_t len, const char *path, const char *processor,
                      struct eng_prebuilt *out, char *err, size_t errlen);
void eng_prebuilt_close(struct eng_prebuilt *p);

/* Whether the file at path can run on backend B, whose kernels compile for target: a GPU binary
 * cannot on an emulating backend (it runs host code only). 0, or -1 with a message naming the
 * file, what it is built for and the target. A file that cannot be read is left to the loader. */
/* eng_prebuilt_refused of the file's bytes already read. */
int eng_prebuilt_refused_bytes(const void *data, size_t len, const char *path,
                               const struct eng_backend *B, const char *target, char *err,
                               size_t errlen);
int eng_prebuilt_refused(const struct eng_manifest *m, const char *path,
                         const struct eng_backend *B, const char *target, char *err,
                         size_t errlen);

/* The entry point the manifest calls entry (its field: "variants.fixed", "reference"),
 * resolved to the binary's kernel and checked against the manifest's "args" and "launch".
 * device_wave: the device's wave size, 0 when there is no device (inspect). Returns the
 * kernel, or NULL with "MANIFEST: FIELD: ..." in err. */
const struct gpu_kernel_info *eng_prebuilt_entry(const struct eng_prebuilt *p,
                                                 const struct eng_manifest *m, const char *field,
                                                 const char *entry, int device_wave, char *err,
                                                 size_t errlen);

#endif
