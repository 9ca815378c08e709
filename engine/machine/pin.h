/* Pin files (`kladder pin write|check`): what a machine's software was when results were good,
 * and every way it has drifted since (flydsl-1088: an LLVM bump after which every gfx1250
 * kernel aborted at entry; sglang-33142: a library that moved a module under its callers).
 *
 * A pin holds what the fingerprint knows — backend, device, target, driver, runtime, compiler
 * identity (compiler_id, the string the compile cache keys on), partition modes, kladder's
 * version — and the libraries the user names by path, each with its ELF build id
 * (engine/codeobj/elf_build_id.h), which changes with every rebuild whatever the file is called.
 *
 * The file is JSON: {"format": "kladder-pin", "version": 1, "backend": ..., "device_index": N,
 * "device": ..., "target": ..., "driver": ..., "runtime": ..., "compiler": ...,
 * "compute_partition": ..., "memory_partition": ..., "kladder": ...,
 * "libraries": [{"path": ..., "build_id": ...}]}; null is "unknown". Reading it is strict: an
 * unknown key, a wrong type or a missing field is an error naming the file and the field. */
#ifndef KL_ENGINE_PIN_H
#define KL_ENGINE_PIN_H

#include <stddef.h>
#include <stdio.h>

/* The pinned fields in file order; each is a string or NULL (unknown). */
#define ENG_PIN_FIELDS(X) \
    X(backend) X(device) X(target) X(driver) X(runtime) X(compiler) \
    X(compute_partition) X(memory_partition) X(kladder)

struct eng_pin_lib {
    char *path;
    char *build_id;        /* lower-case hex; NULL when it could not be read */
    char *why;             /* why not (collect only) */
};

struct eng_pin {
#define X(f) char *f;
    ENG_PIN_FIELDS(X)
#undef X
    int device_index;
    size_t nlibs;
    struct eng_pin_lib *libs;
};

/* What this machine is now: the backend called backend (NULL: the first of hip, cuda, cpu that
 * has a device), device index, and the build id of each library path. A library that cannot
 * be read is kept with its reason (a drift for check, an error for write). 0, or -1 with a
 * message when the backend cannot be loaded or has no such device. */
int eng_pin_collect(const char *backend, int device, const char *const *libs, size_t nlibs,
                    struct eng_pin *out, char *err, size_t errlen);

/* The pin as a JSON document (malloc'd text, a newline at its end). */
char *eng_pin_print(const struct eng_pin *p);

/* Reads a pin file strictly; 0, or -1 with "PATH: field: expected ..., got ..." in err. */
int eng_pin_read(const char *path, struct eng_pin *out, char *err, size_t errlen);

/* Writes one line per difference between the pin and this machine ("drift compiler: pinned
 * \"...\", here \"...\""), sanitised, to out. Returns the number of drifts. */
size_t eng_pin_diff(const struct eng_pin *pinned, const struct eng_pin *here, FILE *out);

void eng_pin_free(struct eng_pin *p);

#endif
