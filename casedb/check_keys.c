/* Check-key ids with an in-memory cache (check_keys.h): open addressing over a 64-bit hash of
 * the five fields, confirmed by comparing the fields themselves. */
#include "casedb/check_keys.h"

#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "casedb/cdb_internal.h"
#include "common/hash.h"
#include "common/xalloc.h"

struct key_slot {
    uint64_t hash;    /* 0: empty */
    sqlite3_int64 id;
    int rung;
    char *text;       /* suite \0 check \0 shape \0 variant \0 */
    size_t text_len;
};

struct cdb_key_cache {
    struct cdb *db;
    sqlite3_stmt *get, *put;
    struct key_slot *slots;
    size_t cap, used; /* cap: a power of two, kept at least twice used */
    char *buf;        /* the key being looked up, as stored in key_slot.text */
    size_t buf_cap;
};

static const char *nz(const char *s)
{
    return s ? s : "";
}

struct cdb_key_cache *cdb_key_cache_new(struct cdb *db, char *err, size_t errlen)
{
    struct cdb_key_cache *kc = xcalloc(1, sizeof *kc);
    kc->db = db;
    if (sqlite3_prepare_v2(db->h,
                           "SELECT id FROM check_keys WHERE rung = ?1 AND suite = ?2"
                           " AND check_name = ?3 AND shape = ?4 AND variant = ?5",
                           -1, &kc->get, NULL) != SQLITE_OK ||
        sqlite3_prepare_v2(db->h,
                           "INSERT INTO check_keys (rung, suite, check_name, shape, variant)"
                           " VALUES (?1, ?2, ?3, ?4, ?5)",
                           -1, &kc->put, NULL) != SQLITE_OK) {
        cdb_fail(db, "preparing the check-key lookup", err, errlen);
        cdb_key_cache_free(kc);
        return NULL;
    }
    kc->cap = 64; /* grows with the keys; a local run's check put needs one */
    kc->slots = xcalloc(kc->cap, sizeof *kc->slots);
    return kc;
}

void cdb_key_cache_free(struct cdb_key_cache *kc)
{
    if (!kc)
        return;
    sqlite3_finalize(kc->get);
    sqlite3_finalize(kc->put);
    for (size_t i = 0; i < kc->cap; i++)
        free(kc->slots[i].text);
    free(kc->slots);
    free(kc->buf);
    free(kc);
}

/* The four strings joined with their terminators, into buf (grown as needed). */
static size_t key_text(const struct cdb_check *c, char **buf, size_t *cap)
{
    const char *part[4] = {nz(c->suite), nz(c->check), nz(c->shape), nz(c->variant)};
    size_t len[4], n = 0;
    for (int i = 0; i < 4; i++)
        n += (len[i] = strlen(part[i])) + 1;
    if (n > *cap) {
        *cap = n * 2;
        *buf = xrealloc(*buf, *cap);
    }
    char *p = *buf;
    for (int i = 0; i < 4; i++) {
        memcpy(p, part[i], len[i] + 1);
        p += len[i] + 1;
    }
    return n;
}

static struct key_slot *find_slot(struct key_slot *slots, size_t cap, uint64_t hash, int rung,
                                  const char *text, size_t len)
{
    for (size_t i = hash & (cap - 1);; i = (i + 1) & (cap - 1)) {
        struct key_slot *s = &slots[i];
        if (s->hash == 0 || (s->hash == hash && s->rung == rung && s->text_len == len &&
                             memcmp(s->text, text, len) == 0))
            return s;
    }
}

static void grow(struct cdb_key_cache *kc)
{
    size_t cap = kc->cap * 2;
    struct key_slot *slots = xcalloc(cap, sizeof *slots);
    for (size_t i = 0; i < kc->cap; i++) {
        struct key_slot *old = &kc->slots[i];
        if (old->hash)
            *find_slot(slots, cap, old->hash, old->rung, old->text, old->text_len) = *old;
    }
    free(kc->slots);
    kc->slots = slots;
    kc->cap = cap;
}

/* Reads the id from SQLite, inserting the key when it is not stored yet. */
static int lookup(struct cdb_key_cache *kc, const struct cdb_check *c, sqlite3_int64 *id,
                  char *err, size_t errlen)
{
    sqlite3_stmt *st = kc->get;
    for (int pass = 0; pass < 2; pass++, st = kc->put) {
        sqlite3_reset(st);
        sqlite3_bind_int(st, 1, c->rung);
        sqlite3_bind_text(st, 2, nz(c->suite), -1, SQLITE_STATIC);
        sqlite3_bind_text(st, 3, nz(c->check), -1, SQLITE_STATIC);
        sqlite3_bind_text(st, 4, nz(c->shape), -1, SQLITE_STATIC);
        sqlite3_bind_text(st, 5, nz(c->variant), -1, SQLITE_STATIC);
        int rc = sqlite3_step(st);
        if (pass == 0 && rc == SQLITE_ROW) {
            *id = sqlite3_column_int64(st, 0);
            sqlite3_reset(st);
            return 0;
        }
        if (rc != SQLITE_DONE) {
            sqlite3_reset(st);
            return cdb_fail(kc->db, "storing a check key", err, errlen);
        }
    }
    sqlite3_reset(kc->put);
    *id = sqlite3_last_insert_rowid(kc->db->h);
    return 0;
}

int cdb_key_id(struct cdb_key_cache *kc, const struct cdb_check *c, sqlite3_int64 *id, char *err,
               size_t errlen)
{
    size_t len = key_text(c, &kc->buf, &kc->buf_cap);
    const char *buf = kc->buf;
    struct hash_state h;
    hash_init(&h);
    hash_bytes(&h, &c->rung, sizeof c->rung);
    hash_bytes(&h, buf, len);
    uint64_t hash = h.a ? h.a : 1;
    struct key_slot *s = find_slot(kc->slots, kc->cap, hash, c->rung, buf, len);
    if (s->hash) {
        *id = s->id;
        return 0;
    }
    if (lookup(kc, c, id, err, errlen) != 0)
        return -1;
    if ((kc->used + 1) * 2 > kc->cap) {
        grow(kc);
        s = find_slot(kc->slots, kc->cap, hash, c->rung, buf, len);
    }
    s->hash = hash;
    s->id = *id;
    s->rung = c->rung;
    s->text = xmalloc(len);
    memcpy(s->text, buf, len);
    s->text_len = len;
    kc->used++;
    return 0;
}
