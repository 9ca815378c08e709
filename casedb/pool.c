/* String arena (pool.h): blocks of 64 KiB, or one block for a longer string. */
#include "casedb/pool.h"

#include <stdlib.h>
#include <string.h>

#include "common/xalloc.h"

struct pool_block {
    struct pool_block *next;
    size_t used, cap;
    char data[];
};

struct cdb_pool {
    struct pool_block *head;
};

struct cdb_pool *cdb_pool_new(void)
{
    return xcalloc(1, sizeof(struct cdb_pool));
}

void cdb_pool_free(struct cdb_pool *p)
{
    if (!p)
        return;
    for (struct pool_block *b = p->head, *next; b; b = next) {
        next = b->next;
        free(b);
    }
    free(p);
}

static const char *pool_strn(struct cdb_pool *p, const char *s, size_t n)
{
    struct pool_block *b = p->head;
    if (!b || b->cap - b->used < n + 1) {
        size_t cap = n + 1 > 64 * 1024 ? n + 1 : 64 * 1024;
        b = xmalloc(sizeof *b + cap);
        b->used = 0, b->cap = cap, b->next = p->head;
        p->head = b;
    }
    char *d = b->data + b->used;
    memcpy(d, s, n);
    d[n] = '\0';
    b->used += n + 1;
    return d;
}

const char *cdb_pool_col(struct cdb_pool *p, sqlite3_stmt *st, int i)
{
    const unsigned char *s = sqlite3_column_text(st, i);
    return s ? pool_strn(p, (const char *)s, (size_t)sqlite3_column_bytes(st, i)) : NULL;
}
