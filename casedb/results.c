/* The values of results.h that need no database: verdict names, machine ids, UUIDs, times.
 * Rows are written by writer.c. */
#include "casedb/results.h"

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "common/hash.h"

static const char *const verdict_names[CDB_VERDICT_COUNT] = {
    [CDB_PASS] = "pass",   [CDB_FAIL] = "fail",           [CDB_HANG] = "hang",
    [CDB_ERROR] = "error", [CDB_SKIP] = "skip",           [CDB_CANCELLED] = "cancelled",
    [CDB_RUNNING] = "running", [CDB_INTERRUPTED] = "interrupted", [CDB_DOUBT] = "doubt",
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
