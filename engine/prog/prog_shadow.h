/* Which bytes of a device allocation have been written, for `kladder exec`'s check of reads of
 * never-written memory (engine/prog/prog_rt.c): one bit a byte, set by a kernel's store or
 * atomic, a copy into the allocation from the host, a memset; a device-to-device copy carries
 * its source's bits over, so bytes never written stay never written wherever they are copied.
 *
 * Marking and testing are safe from several OS threads at once (the default schedule runs
 * blocks on several); copying is the host's, between launches. */
#ifndef KL_ENGINE_PROG_SHADOW_H
#define KL_ENGINE_PROG_SHADOW_H

#include <stdbool.h>
#include <stddef.h>

/* bits for bytes bytes, all clear (never written); free with prog_shadow_free */
unsigned char *prog_shadow_new(size_t bytes);
void prog_shadow_free(unsigned char *sh, size_t bytes);

/* bytes [off, off + n) are written */
void prog_shadow_mark(unsigned char *sh, size_t off, size_t n);

/* the first never-written byte of [off, off + n), or (size_t)-1 when all were written */
size_t prog_shadow_first_unwritten(const unsigned char *sh, size_t off, size_t n);

/* bytes [doff, doff + n) of dst take the state of bytes [soff, soff + n) of src (dst and src
 * may be the same shadow, the ranges overlapping, as memmove) */
void prog_shadow_copy(unsigned char *dst, size_t doff, const unsigned char *src, size_t soff,
                      size_t n);

#endif
