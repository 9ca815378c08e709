/* Non-cryptographic content hashing for cache keys and machine ids: two independent 64-bit
 * FNV-1a lanes give a 128-bit digest, printed as 32 hex digits. Feed every input that can change
 * the result (DESIGN: a cache key that forgets one is itself one of the 32 cases). */
#ifndef KL_COMMON_HASH_H
#define KL_COMMON_HASH_H

#include <stddef.h>
#include <stdint.h>

struct hash_state {
    uint64_t a, b;
};

void hash_init(struct hash_state *h);
void hash_bytes(struct hash_state *h, const void *data, size_t len);
/* Hashes the string and its terminator, so ("ab","c") and ("a","bc") differ. NULL counts too. */
void hash_str(struct hash_state *h, const char *s);
/* Writes 32 hex digits and a NUL into out (33 bytes). */
void hash_hex(const struct hash_state *h, char out[33]);

#endif
