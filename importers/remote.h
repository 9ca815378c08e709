/* Fetching documents from other hosts with libcurl: several URLs at once in one multi handle,
 * each with its own limits, and nothing kept from a transfer that broke a limit.
 *
 * Security choices (docs/remote.md): only https, http, sftp, scp and file URLs; redirects only
 * to https or http and at most 5; TLS peer and host name verified (a private CA with cacert);
 * SSH host keys must match known_hosts; a connect timeout, a total timeout, a stall limit
 * (less than 1 byte/s over stall_s seconds) and a size limit (Content-Length checked up front,
 * the body counted as it streams). */
#ifndef KL_IMPORTERS_REMOTE_H
#define KL_IMPORTERS_REMOTE_H

#include <stdbool.h>
#include <stddef.h>

#define IMP_FETCH_DEFAULT_CONNECT_S 10
#define IMP_FETCH_DEFAULT_TIMEOUT_S 60
#define IMP_FETCH_DEFAULT_STALL_S 20
#define IMP_FETCH_DEFAULT_MAX_BYTES ((long long)256 << 20)
#define IMP_URL_MAX 2048

struct imp_fetch_opts {
    long connect_timeout_s;
    long timeout_s;
    long stall_s;
    long long max_bytes;
    const char *cacert;      /* extra CA bundle (PEM) to trust; NULL: the system's */
    const char *known_hosts; /* NULL: ~/.ssh/known_hosts */
    /* SSH private key for sftp/scp (its public half is derived from it); NULL: the first of
     * ~/.ssh/id_ed25519, id_ecdsa, id_rsa that exists. An SSH agent is tried as well. */
    const char *identity;
    /* Called from imp_fetch_all between transfers' progress (may be NULL): item i has got
     * bytes so far of total (0 unknown). */
    void (*progress)(void *ctx, size_t i, long long got, long long total);
    void *ctx;
};
void imp_fetch_opts_init(struct imp_fetch_opts *o);

struct imp_fetch_item {
    const char *url; /* in */
    char *body;      /* out: malloc'd, NUL-terminated; NULL on failure */
    size_t len;
    bool ok;
    char err[512];   /* on failure: what went wrong, for a person */
};

/* Checks a URL before it is stored or fetched: the scheme is one of the five, the length is at
 * most IMP_URL_MAX, and it holds no control characters or spaces. Returns 0 or -1 with err. */
int imp_url_check(const char *url, char *err, size_t errlen);

/* The file:// URL of an absolute path, every byte outside the unreserved set and '/'
 * percent-encoded, so a folder with a space or a '#' is still one URL. malloc'd. */
char *imp_file_url(const char *abs_path);

/* What a user typed where a URL is expected, as a URL: a URL as it is; a path (it has no
 * "://") of an existing file as the file:// URL of its absolute path, so `hosts add lab
 * ~/results/export.json` works as `file://...` does. NULL with err (naming the path) when a
 * path names no file. malloc'd. */
char *imp_url_from_user(const char *typed, char *err, size_t errlen);

/* Fetches every item concurrently and returns when all are done. Returns the number of items
 * that failed (each with its err), or -1 when libcurl itself could not start. */
int imp_fetch_all(struct imp_fetch_item *items, size_t n, const struct imp_fetch_opts *o);
void imp_fetch_item_clear(struct imp_fetch_item *it);

#endif
