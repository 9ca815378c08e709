#include "common/hash.h"

#include <stdio.h>
#include <string.h>

void hash_init(struct hash_state *h)
{
    h->a = 0xcbf29ce484222325ull;
    h->b = 0x84222325cbf29ce4ull;
}

void hash_bytes(struct hash_state *h, const void *data, size_t len)
{
    const unsigned char *p = data;
    for (size_t i = 0; i < len; i++) {
        h->a = (h->a ^ p[i]) * 0x100000001b3ull;
        h->b = (h->b ^ (unsigned char)(p[i] + 0x5b)) * 0x100000001b3ull;
        h->b ^= h->b >> 29;
    }
}

void hash_str(struct hash_state *h, const char *s)
{
    if (!s) {
        hash_bytes(h, "\xff\xfe", 2);
        return;
    }
    hash_bytes(h, s, strlen(s) + 1);
}

void hash_hex(const struct hash_state *h, char out[33])
{
    snprintf(out, 33, "%016llx%016llx", (unsigned long long)h->a, (unsigned long long)h->b);
}
