/* A clang offload bundle (clang-offload-bundler's binary format, what `clang -x hip
 * --offload-arch=...` writes by default and what a HIP fat binary holds): the magic
 * "__CLANG_OFFLOAD_BUNDLE__", a 64-bit entry count, then per entry its offset, size, the length
 * of its id and the id ("hipv4-amdgcn-amd-amdhsa--gfx1250", "host-x86_64-unknown-linux-gnu-").
 * Reading one gives the device code object for a processor without running the bundler.
 *
 * The input is untrusted: every offset, size and count is checked against the file. A
 * compressed bundle ("CCOB") is named as such, not read. Reference: clang's
 * OffloadBundler.cpp (the binary format of the bundle file). */
#ifndef KL_ENGINE_OFFLOAD_BUNDLE_H
#define KL_ENGINE_OFFLOAD_BUNDLE_H

#include <stdbool.h>
#include <stddef.h>

/* The data starts with the bundle magic (or the compressed bundle's). */
bool offload_bundle_is(const void *data, size_t len);

/* The entry for processor ("gfx1250": an AMD id ending in "--gfx1250" or "--gfx1250:..."),
 * or with processor NULL or "" the only AMD device entry: *code and *code_len point into data.
 * Its processor is copied to picked (n bytes). 0, or -1 with a reason in err naming the
 * entries there are (without the file name: the caller adds it). */
int offload_bundle_pick(const void *data, size_t len, const char *processor, const void **code,
                        size_t *code_len, char *picked, size_t n, char *err, size_t errlen);

#endif
