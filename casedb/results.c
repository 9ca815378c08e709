/* Recording results: machines, runs, checks; transactions; UUIDs and timestamps. */
#include "casedb/results.h"

#include <fcntl.h>
#include <math.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "casedb/cdb_internal.h"
#include "casedb/check_keys.h"
#include "common/hash.h"
#include "common/xalloc.h"

static const char *const verdict_names[CDB_VERDICT_COUNT] = {
    [CDB_PASS] = "pass",   [CDB_FAIL] = "fail",           [CDB_HANG] = "hang",
    [CDB_ERROR] = "error", [CDB_SKIP] = "skip",           [CDB_CANCELLED] = "cancelled",
    [CDB_RUNNING] = "running",
};

const char *cdb_verdict_name(enum cdb_verdict v)
{
    return (unsigned)v < CDB_VERDICT_COUNT ? verdict_names[v] : "error";
}

int cdb_verdict_parse(const char *name)
{
    for (int i = 0; i < CDB_VERDICT_COUNT; i++)
        if (name && strcmp(name, verdict_names[i]) == 0)
            return i;
    return -1;
}

void cdb_machine_make_id(struct cdb_machine *m)
{
    struct hash_state h;
    hash_init(&h);
    const char *fields[] = {m->host, m->backend, m->device, m->target, m->driver_version,
                            m->runtime_version, m->compiler_version, m->compute_partition,
                            m->memory_partition, m->kladder_version, m->kladder_commit};
    for (size_t i = 0; i < sizeof fields / sizeof fields[0]; i++)
        hash_str(&h, fields[i]);
    long long nums[] = {m->wave_size, m->compute_units, (long long)m->mem_bytes};
    hash_bytes(&h, nums, sizeof nums);
    hash_hex(&h, m->id);
}

int cdb_tx_begin(struct cdb *db, char *err, size_t errlen)
{
    if (db->tx_depth++ > 0)
        return 0;
    if (cdb_exec(db, "BEGIN IMMEDIATE;", err, errlen) != 0) {
        db->tx_depth = 0;
        return -1;
    }
    return 0;
}

int cdb_tx_commit(struct cdb *db, char *err, size_t errlen)
{
    if (db->tx_depth == 0 || --db->tx_depth > 0)
        return 0;
    return cdb_exec(db, "COMMIT;", err, errlen);
}

void cdb_tx_rollback(struct cdb *db)
{
    if (db->tx_depth == 0)
        return;
    db->tx_depth = 0;
    sqlite3_exec(db->h, "ROLLBACK;", NULL, NULL, NULL);
}

static int step_done(struct cdb *db, sqlite3_stmt *st, const char *what, char *err, size_t errlen)
{
    int rc = sqlite3_step(st);
    sqlite3_finalize(st);
    if (rc != SQLITE_DONE) {
        snprintf(err, errlen, "%s: %s", what, sqlite3_errmsg(db->h));
        return -1;
    }
    return 0;
}

static void bind_double_or_null(sqlite3_stmt *st, int i, double v)
{
    if (isnan(v))
        sqlite3_bind_null(st, i);
    else
        sqlite3_bind_double(st, i, v);
}

int cdb_machine_put(struct cdb *db, const struct cdb_machine *m, char *err, size_t errlen)
{
    sqlite3_stmt *st;
    if (sqlite3_prepare_v2(db->h,
                           "INSERT OR IGNORE INTO machines (id, host, backend, device, target, "
                           "wave_size, compute_units, mem_bytes, driver_version, runtime_version, "
                           "compiler_version, compute_partition, memory_partition, kladder_version, "
                           "kladder_commit) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, "
                           "?12, ?13, ?14, ?15)",
                           -1, &st, NULL) != SQLITE_OK)
        return cdb_fail(db, "storing a machine", err, errlen);
    cdb_bind_text(st, 1, m->id);
    cdb_bind_text(st, 2, m->host ? m->host : "");
    cdb_bind_text(st, 3, m->backend ? m->backend : "");
    cdb_bind_text(st, 4, m->device ? m->device : "");
    cdb_bind_text(st, 5, m->target ? m->target : "");
    sqlite3_bind_int(st, 6, m->wave_size);
    sqlite3_bind_int(st, 7, m->compute_units);
    sqlite3_bind_int64(st, 8, m->mem_bytes);
    cdb_bind_text(st, 9, m->driver_version);
    cdb_bind_text(st, 10, m->runtime_version);
    cdb_bind_text(st, 11, m->compiler_version);
    cdb_bind_text(st, 12, m->compute_partition);
    cdb_bind_text(st, 13, m->memory_partition);
    cdb_bind_text(st, 14, m->kladder_version ? m->kladder_version : "");
    cdb_bind_text(st, 15, m->kladder_commit);
    return step_done(db, st, "storing a machine", err, errlen);
}

int cdb_run_put(struct cdb *db, const struct cdb_run *r, char *err, size_t errlen)
{
    sqlite3_stmt *st;
    if (sqlite3_prepare_v2(db->h,
                           "INSERT INTO runs (uuid, machine_id, host, rung, suite, case_id, variant, "
                           "argv, started, finished, verdict) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, "
                           "?8, ?9, ?10, ?11)",
                           -1, &st, NULL) != SQLITE_OK)
        return cdb_fail(db, "storing a run", err, errlen);
    cdb_bind_text(st, 1, r->uuid);
    cdb_bind_text(st, 2, r->machine_id);
    cdb_bind_text(st, 3, r->host ? r->host : "");
    sqlite3_bind_int(st, 4, r->rung);
    cdb_bind_text(st, 5, r->suite);
    cdb_bind_text(st, 6, r->case_id);
    cdb_bind_text(st, 7, r->variant);
    cdb_bind_text(st, 8, r->argv);
    cdb_bind_text(st, 9, r->started);
    cdb_bind_text(st, 10, r->finished);
    cdb_bind_text(st, 11, cdb_verdict_name(r->verdict));
    return step_done(db, st, "storing a run", err, errlen);
}

int cdb_run_finish(struct cdb *db, const char *uuid, const char *finished,
                   enum cdb_verdict verdict, char *err, size_t errlen)
{
    sqlite3_stmt *st;
    if (sqlite3_prepare_v2(db->h, "UPDATE runs SET finished = ?2, verdict = ?3 WHERE uuid = ?1", -1,
                           &st, NULL) != SQLITE_OK)
        return cdb_fail(db, "finishing a run", err, errlen);
    cdb_bind_text(st, 1, uuid);
    cdb_bind_text(st, 2, finished);
    cdb_bind_text(st, 3, cdb_verdict_name(verdict));
    return step_done(db, st, "finishing a run", err, errlen);
}

int cdb_check_put(struct cdb *db, const struct cdb_check *c, char *err, size_t errlen)
{
    /* the check, its key and its run's count change together or not at all */
    if (cdb_exec(db, "SAVEPOINT check_put;", err, errlen) != 0)
        return -1;
    sqlite3_int64 key_id;
    struct cdb_key_cache *kc = cdb_key_cache_new(db, err, errlen);
    int rc = kc ? cdb_key_id(kc, c, &key_id, err, errlen) : -1;
    cdb_key_cache_free(kc);
    sqlite3_stmt *st = NULL;
    if (rc == 0 &&
        sqlite3_prepare_v2(db->h,
                           "INSERT INTO checks (run_id, seq, key_id, oracle, verdict, detail,"
                           " first_bad, bad_count, max_err, time_median_us, time_min_us,"
                           " time_max_us, repeats, limit_s) VALUES ((SELECT id FROM runs WHERE"
                           " uuid = ?1), ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14)",
                           -1, &st, NULL) != SQLITE_OK)
        rc = cdb_fail(db, "storing a check", err, errlen);
    if (rc == 0) {
        cdb_bind_text(st, 1, c->run_uuid);
        sqlite3_bind_int(st, 2, c->seq);
        sqlite3_bind_int64(st, 3, key_id);
        cdb_bind_text(st, 4, c->oracle ? c->oracle : "");
        cdb_bind_text(st, 5, cdb_verdict_name(c->verdict));
        cdb_bind_text(st, 6, c->detail ? c->detail : "");
        if (c->first_bad < 0)
            sqlite3_bind_null(st, 7);
        else
            sqlite3_bind_int64(st, 7, c->first_bad);
        if (c->bad_count < 0)
            sqlite3_bind_null(st, 8);
        else
            sqlite3_bind_int64(st, 8, c->bad_count);
        bind_double_or_null(st, 9, c->max_err);
        bind_double_or_null(st, 10, c->time_median_us);
        bind_double_or_null(st, 11, c->time_min_us);
        bind_double_or_null(st, 12, c->time_max_us);
        sqlite3_bind_int(st, 13, c->repeats);
        bind_double_or_null(st, 14, c->limit_s);
        rc = step_done(db, st, "storing a check", err, errlen);
    }
    if (rc == 0 && c->verdict >= CDB_PASS && c->verdict <= CDB_CANCELLED) {
        /* the column name comes from the verdict's own name, never from input text */
        char *sql = xasprintf("UPDATE runs SET n_%s = n_%s + 1 WHERE uuid = ?1",
                              cdb_verdict_name(c->verdict), cdb_verdict_name(c->verdict));
        if (sqlite3_prepare_v2(db->h, sql, -1, &st, NULL) != SQLITE_OK) {
            rc = cdb_fail(db, "counting a check", err, errlen);
        } else {
            cdb_bind_text(st, 1, c->run_uuid);
            rc = step_done(db, st, "counting a check", err, errlen);
        }
        free(sql);
    }
    if (rc != 0) {
        sqlite3_exec(db->h, "ROLLBACK TO check_put; RELEASE check_put;", NULL, NULL, NULL);
        return -1;
    }
    return cdb_exec(db, "RELEASE check_put;", err, errlen);
}

void cdb_uuid_new(char out[37])
{
    unsigned char b[16] = {0};
    int fd = open("/dev/urandom", O_RDONLY | O_CLOEXEC);
    ssize_t got = fd >= 0 ? read(fd, b, sizeof b) : -1;
    if (fd >= 0)
        close(fd);
    if (got != (ssize_t)sizeof b) {
        /* no /dev/urandom: time and pid still make collisions unlikely on one host */
        struct timespec ts;
        clock_gettime(CLOCK_REALTIME, &ts);
        struct hash_state h;
        hash_init(&h);
        long long seed[3] = {(long long)ts.tv_sec, ts.tv_nsec, (long long)getpid()};
        hash_bytes(&h, seed, sizeof seed);
        memcpy(b, &h.a, 8);
        memcpy(b + 8, &h.b, 8);
    }
    b[6] = (unsigned char)((b[6] & 0x0F) | 0x40);
    b[8] = (unsigned char)((b[8] & 0x3F) | 0x80);
    snprintf(out, 37, "%02x%02x%02x%02x-%02x%02x-%02x%02x-%02x%02x-%02x%02x%02x%02x%02x%02x", b[0],
             b[1], b[2], b[3], b[4], b[5], b[6], b[7], b[8], b[9], b[10], b[11], b[12], b[13], b[14],
             b[15]);
}

void cdb_now_iso(char out[21])
{
    time_t t = time(NULL);
    struct tm tm;
    gmtime_r(&t, &tm);
    strftime(out, 21, "%Y-%m-%dT%H:%M:%SZ", &tm);
}
