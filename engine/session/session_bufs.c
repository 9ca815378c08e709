/* Device buffers kept from one check of an op on the host's side to the next, and the device's
 * facts asked once (engine/session/session.h). On a GPU, cuMemAlloc and cuMemFree cost tens of
 * microseconds each and cuMemFree waits for the device: a small op's check allocated and freed
 * four of them, more than the op's own launch. A buffer comes back at the exact size it was
 * asked for, so the check writes every byte of it (guards, data, padding) as it writes a fresh
 * one; what a fresh allocation held was never defined either. */
#include "engine/session/session.h"

#include <stdlib.h>
#include <string.h>

#include "common/xalloc.h"

/* A buffer this large goes back to the device at once (rung 1's cliffs are gigabytes), and the
 * session keeps at most KEEP_TOTAL bytes, giving back the oldest first. */
#define KEEP_ONE ((uint64_t)64 << 20)
#define KEEP_TOTAL ((uint64_t)256 << 20)

struct kept_buf {
    const struct eng_backend *B;
    struct eng_ctx *ctx;
    eng_dptr p;
    uint64_t bytes;
};

static struct kept_buf *bufs;
static size_t nbuf;
static uint64_t kept_bytes;

static void release(size_t i)
{
    bufs[i].B->mem_free(bufs[i].ctx, bufs[i].p);
    kept_bytes -= bufs[i].bytes;
    memmove(&bufs[i], &bufs[i + 1], (nbuf - i - 1) * sizeof *bufs);
    nbuf--;
}

int eng_session_buf_get(const struct eng_backend *B, struct eng_ctx *ctx, uint64_t bytes,
                        eng_dptr *p, char *err, size_t errlen)
{
    for (size_t i = nbuf; i-- > 0;) /* the newest first: the last check's */
        if (bufs[i].ctx == ctx && bufs[i].B == B && bufs[i].bytes == bytes) {
            *p = bufs[i].p;
            kept_bytes -= bytes;
            memmove(&bufs[i], &bufs[i + 1], (nbuf - i - 1) * sizeof *bufs);
            nbuf--;
            return 0;
        }
    return B->mem_alloc(ctx, bytes, p, err, errlen);
}

void eng_session_buf_put(const struct eng_backend *B, struct eng_ctx *ctx, eng_dptr p,
                         uint64_t bytes)
{
    if (!p)
        return;
    if (B->caps.emulated || bytes > KEEP_ONE) {
        B->mem_free(ctx, p);
        return;
    }
    bufs = xrealloc(bufs, (nbuf + 1) * sizeof *bufs);
    bufs[nbuf++] = (struct kept_buf){.B = B, .ctx = ctx, .p = p, .bytes = bytes};
    kept_bytes += bytes;
    while (kept_bytes > KEEP_TOTAL && nbuf)
        release(0);
}

void eng_session_buf_trim(const struct eng_ctx *ctx)
{
    for (size_t i = nbuf; i-- > 0;)
        if (!ctx || bufs[i].ctx == ctx)
            release(i);
    if (!nbuf) {
        free(bufs);
        bufs = NULL;
    }
}

/* ---- host buffers --------------------------------------------------------------------- */

/* The host copies of inputs made on the host (a value class, a capture): a quarter of a
 * megabyte for a 64 x 1024 float input, which malloc maps and free unmaps again, so that every
 * check faulted its pages in anew. Kept by exact size, as the device's. */
struct kept_host {
    void *p;
    size_t bytes;
};

static struct kept_host *hosts;
static size_t nhost;
static uint64_t host_bytes;

void *eng_session_host_get(size_t bytes)
{
    for (size_t i = nhost; i-- > 0;)
        if (hosts[i].bytes == bytes) {
            void *p = hosts[i].p;
            host_bytes -= bytes;
            hosts[i] = hosts[--nhost];
            return p;
        }
    return xmalloc(bytes ? bytes : 1);
}

void eng_session_host_put(void *p, size_t bytes)
{
    if (!p)
        return;
    if (bytes > KEEP_ONE || host_bytes + bytes > KEEP_TOTAL) {
        free(p);
        return;
    }
    hosts = xrealloc(hosts, (nhost + 1) * sizeof *hosts);
    hosts[nhost++] = (struct kept_host){.p = p, .bytes = bytes};
    host_bytes += bytes;
}

void eng_session_host_trim(void)
{
    for (size_t i = 0; i < nhost; i++)
        free(hosts[i].p);
    free(hosts);
    hosts = NULL;
    nhost = 0;
    host_bytes = 0;
}

/* ---- the device's facts --------------------------------------------------------------- */

struct known_dev {
    const struct eng_backend *B;
    int device;
    struct eng_device_info info;
};

static struct known_dev *devs;
static size_t ndev;

int eng_session_device_info(const struct eng_backend *B, int device, struct eng_device_info *info,
                            char *err, size_t errlen)
{
    /* an emulated device's facts follow the process's settings; a GPU's do not change */
    if (B->caps.emulated)
        return B->device_info(device, info, err, errlen);
    for (size_t i = 0; i < ndev; i++)
        if (devs[i].B == B && devs[i].device == device) {
            *info = devs[i].info;
            return 0;
        }
    if (B->device_info(device, info, err, errlen) != 0)
        return -1;
    devs = xrealloc(devs, (ndev + 1) * sizeof *devs);
    devs[ndev++] = (struct known_dev){.B = B, .device = device, .info = *info};
    return 0;
}

void eng_session_devices_forget(void)
{
    free(devs);
    devs = NULL;
    ndev = 0;
}
