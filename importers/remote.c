/* Concurrent fetches with limits (remote.h). */
#define _XOPEN_SOURCE 700 /* realpath */
#include "importers/remote.h"

#include <curl/curl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/fileio.h"
#include "common/text.h"
#include "common/xalloc.h"

static const char *const allowed_schemes[] = {"https://", "http://", "sftp://", "scp://",
                                              "file://", NULL};

void imp_fetch_opts_init(struct imp_fetch_opts *o)
{
    memset(o, 0, sizeof *o);
    o->connect_timeout_s = IMP_FETCH_DEFAULT_CONNECT_S;
    o->timeout_s = IMP_FETCH_DEFAULT_TIMEOUT_S;
    o->stall_s = IMP_FETCH_DEFAULT_STALL_S;
    o->max_bytes = IMP_FETCH_DEFAULT_MAX_BYTES;
}

/* Whether libcurl's own URL parser takes url as it will when the URL is fetched, so that a
 * host added today is not refused as "bad/illegal format" at its first pull. */
static int url_parses(const char *url, const char *shown, char *err, size_t errlen)
{
    CURLU *u = curl_url();
    if (!u) {
        snprintf(err, errlen, "'%s': libcurl could not start its URL parser", shown);
        return -1;
    }
    CURLUcode c = curl_url_set(u, CURLUPART_URL, url, 0);
    char *host = NULL;
    if (c == CURLUE_OK && strncasecmp(url, "file://", 7) != 0)
        c = curl_url_get(u, CURLUPART_HOST, &host, 0);
    curl_free(host);
    curl_url_cleanup(u);
    if (c == CURLUE_OK)
        return 0;
    snprintf(err, errlen, "'%s': not a URL that can be fetched: %s (expected "
                          "SCHEME://HOST[:PORT]/PATH, or file:///PATH)",
             shown, curl_url_strerror(c));
    return -1;
}

int imp_url_check(const char *url, char *err, size_t errlen)
{
    size_t len = strlen(url);
    if (len == 0 || len > IMP_URL_MAX) {
        snprintf(err, errlen, "a URL must have 1 to %d characters", IMP_URL_MAX);
        return -1;
    }
    for (const unsigned char *p = (const unsigned char *)url; *p; p++)
        if (*p <= 0x20 || *p == 0x7f) {
            snprintf(err, errlen, "a URL must not contain spaces or control characters "
                                  "(percent-encode them)");
            return -1;
        }
    const char *scheme = NULL;
    for (const char *const *s = allowed_schemes; *s && !scheme; s++)
        if (strncasecmp(url, *s, strlen(*s)) == 0)
            scheme = *s;
    char *shown = text_fit(url, 60, true, NULL);
    int rc = -1;
    if (!scheme)
        snprintf(err, errlen, "'%s': the URL must start with https://, http://, sftp://, scp:// "
                              "or file://", shown);
    else if (url[strlen(scheme)] == '\0')
        snprintf(err, errlen, "'%s': nothing follows %s (a host and path, or a file's path)",
                 shown, scheme);
    else
        rc = url_parses(url, shown, err, errlen);
    free(shown);
    return rc;
}

char *imp_file_url(const char *abs_path)
{
    size_t len = strlen(abs_path);
    char *url = xmalloc(8 + 3 * len);
    size_t o = (size_t)sprintf(url, "file://");
    for (const unsigned char *p = (const unsigned char *)abs_path; *p; p++) {
        if ((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9') ||
            strchr("/-._~", *p))
            url[o++] = (char)*p;
        else
            o += (size_t)sprintf(url + o, "%%%02X", *p);
    }
    url[o] = '\0';
    return url;
}

char *imp_url_from_user(const char *typed, char *err, size_t errlen)
{
    if (strstr(typed, "://"))
        return xstrdup(typed);
    char *abs = realpath(typed, NULL);
    struct stat st;
    if (!abs || stat(abs, &st) != 0 || !S_ISREG(st.st_mode)) {
        char *shown = text_fit(typed, 60, true, NULL);
        snprintf(err, errlen, "'%s': %s (give an export document's path, or a URL: https://, "
                              "http://, sftp://, scp:// or file://)",
                 shown, abs ? "not a regular file" : "no such file");
        free(shown);
        free(abs);
        return NULL;
    }
    char *url = imp_file_url(abs);
    free(abs);
    return url;
}

struct xfer {
    struct imp_fetch_item *item;
    const struct imp_fetch_opts *o;
    size_t index;
    CURL *h;
    char *buf;
    size_t len, cap;
    bool too_big, bad_host_key, added;
    char errbuf[CURL_ERROR_SIZE];
};

static size_t on_data(char *data, size_t size, size_t nmemb, void *ud)
{
    struct xfer *x = ud;
    size_t n = size * nmemb;
    /* the limit holds for the bytes we keep, whatever the server announced or compressed */
    if ((long long)(x->len + n) > x->o->max_bytes) {
        x->too_big = true;
        return 0; /* a short write makes libcurl stop the transfer */
    }
    if (x->len + n + 1 > x->cap) {
        size_t cap = x->cap ? x->cap : 64 * 1024;
        while (cap < x->len + n + 1)
            cap *= 2;
        x->buf = xrealloc(x->buf, cap);
        x->cap = cap;
    }
    memcpy(x->buf + x->len, data, n);
    x->len += n;
    return n;
}

static int on_progress(void *ud, curl_off_t dltotal, curl_off_t dlnow, curl_off_t ultotal,
                       curl_off_t ulnow)
{
    (void)ultotal, (void)ulnow;
    struct xfer *x = ud;
    if (x->o->progress)
        x->o->progress(x->o->ctx, x->index, (long long)dlnow, (long long)dltotal);
    return 0;
}

/* Only a key that matches known_hosts is accepted: no trust on first use. */
static int on_host_key(CURL *h, const struct curl_khkey *known, const struct curl_khkey *found,
                       enum curl_khmatch match, void *ud)
{
    (void)h, (void)known, (void)found;
    struct xfer *x = ud;
    if (match == CURLKHMATCH_OK)
        return CURLKHSTAT_FINE;
    x->bad_host_key = true;
    return CURLKHSTAT_REJECT;
}

/* The identity to offer: the one asked for, else the first usual key file that exists (curl
 * alone would look only for id_rsa, and most keys made today are ed25519). */
static char *ssh_identity(const struct imp_fetch_opts *o)
{
    if (o->identity)
        return xstrdup(o->identity);
    const char *home = getenv("HOME") ? getenv("HOME") : ".";
    static const char *const names[] = {"id_ed25519", "id_ecdsa", "id_rsa"};
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        char *p = xasprintf("%s/.ssh/%s", home, names[i]);
        if (access(p, R_OK) == 0)
            return p;
        free(p);
    }
    return NULL;
}

static void setup(struct xfer *x, const char *known_hosts, const char *identity)
{
    const struct imp_fetch_opts *o = x->o;
    CURL *h = x->h;
    curl_easy_setopt(h, CURLOPT_URL, x->item->url);
    curl_easy_setopt(h, CURLOPT_PROTOCOLS_STR, "https,http,sftp,scp,file");
    curl_easy_setopt(h, CURLOPT_REDIR_PROTOCOLS_STR, "https,http");
    curl_easy_setopt(h, CURLOPT_FOLLOWLOCATION, 1L);
    curl_easy_setopt(h, CURLOPT_MAXREDIRS, 5L);
    curl_easy_setopt(h, CURLOPT_NOSIGNAL, 1L);
    curl_easy_setopt(h, CURLOPT_CONNECTTIMEOUT, o->connect_timeout_s);
    curl_easy_setopt(h, CURLOPT_TIMEOUT, o->timeout_s);
    curl_easy_setopt(h, CURLOPT_LOW_SPEED_LIMIT, 1L);
    curl_easy_setopt(h, CURLOPT_LOW_SPEED_TIME, o->stall_s);
    curl_easy_setopt(h, CURLOPT_MAXFILESIZE_LARGE, (curl_off_t)o->max_bytes);
    curl_easy_setopt(h, CURLOPT_SSL_VERIFYPEER, 1L);
    curl_easy_setopt(h, CURLOPT_SSL_VERIFYHOST, 2L);
    if (o->cacert)
        curl_easy_setopt(h, CURLOPT_CAINFO, o->cacert);
    curl_easy_setopt(h, CURLOPT_SSH_KNOWNHOSTS, known_hosts);
    curl_easy_setopt(h, CURLOPT_SSH_KEYFUNCTION, on_host_key);
    curl_easy_setopt(h, CURLOPT_SSH_KEYDATA, x);
    curl_easy_setopt(h, CURLOPT_SSH_AUTH_TYPES,
                     (long)(CURLSSH_AUTH_PUBLICKEY | CURLSSH_AUTH_AGENT));
    if (identity) {
        curl_easy_setopt(h, CURLOPT_SSH_PRIVATE_KEYFILE, identity);
        curl_easy_setopt(h, CURLOPT_SSH_PUBLIC_KEYFILE, ""); /* derived from the private key */
    }
    curl_easy_setopt(h, CURLOPT_ACCEPT_ENCODING, "");
    curl_easy_setopt(h, CURLOPT_USERAGENT, "kladder/" KL_VERSION);
    curl_easy_setopt(h, CURLOPT_WRITEFUNCTION, on_data);
    curl_easy_setopt(h, CURLOPT_WRITEDATA, x);
    curl_easy_setopt(h, CURLOPT_NOPROGRESS, 0L);
    curl_easy_setopt(h, CURLOPT_XFERINFOFUNCTION, on_progress);
    curl_easy_setopt(h, CURLOPT_XFERINFODATA, x);
    curl_easy_setopt(h, CURLOPT_ERRORBUFFER, x->errbuf);
    curl_easy_setopt(h, CURLOPT_PRIVATE, x);
}

/* Turns the end of a transfer into ok, or a sentence a person can act on. */
static void finish(struct xfer *x, CURLcode res)
{
    struct imp_fetch_item *it = x->item;
    const struct imp_fetch_opts *o = x->o;
    char *detail = text_fit(x->errbuf[0] ? x->errbuf : curl_easy_strerror(res), 200, true, NULL);
    it->ok = false;
    if (x->too_big || res == CURLE_FILESIZE_EXCEEDED) {
        snprintf(it->err, sizeof it->err,
                 "the document is larger than the limit of %lld bytes; refused (raise it with "
                 "--max-bytes)",
                 o->max_bytes);
    } else if (x->bad_host_key) {
        snprintf(it->err, sizeof it->err,
                 "the server's SSH host key is not in known_hosts (or differs from it); refused. "
                 "Connect once with ssh to check and record the key");
    } else if (res == CURLE_OPERATION_TIMEDOUT) {
        snprintf(it->err, sizeof it->err,
                 "timed out: %s (limits: connect %lds, total %lds, stall %lds; see --timeout, "
                 "--connect-timeout, --stall)",
                 detail, o->connect_timeout_s, o->timeout_s, o->stall_s);
    } else if (res == CURLE_PEER_FAILED_VERIFICATION || res == CURLE_SSL_CACERT_BADFILE ||
               res == CURLE_SSL_CERTPROBLEM || res == CURLE_SSL_ISSUER_ERROR) {
        snprintf(it->err, sizeof it->err,
                 "TLS certificate not trusted: %s (for a private CA, pass --cacert FILE)", detail);
    } else if (res == CURLE_TOO_MANY_REDIRECTS) {
        snprintf(it->err, sizeof it->err, "too many redirects (more than 5): %s", detail);
    } else if (res == CURLE_UNSUPPORTED_PROTOCOL) {
        snprintf(it->err, sizeof it->err,
                 "scheme not allowed (redirects may only go to https or http): %s", detail);
    } else if (res != CURLE_OK) {
        snprintf(it->err, sizeof it->err, "%s", detail);
    } else {
        const char *eff = NULL;
        long code = 0;
        curl_easy_getinfo(x->h, CURLINFO_EFFECTIVE_URL, &eff);
        curl_easy_getinfo(x->h, CURLINFO_RESPONSE_CODE, &code);
        if (eff && strncasecmp(eff, "http", 4) == 0 && code != 200) {
            snprintf(it->err, sizeof it->err, "the server answered HTTP %ld, not 200", code);
        } else {
            it->ok = true;
            it->body = x->buf ? x->buf : xstrdup("");
            if (x->buf)
                x->buf[x->len] = '\0';
            it->len = x->len;
            x->buf = NULL;
        }
    }
    free(detail);
}

/* A file:// URL is read here, not by libcurl, whose open of a FIFO would wait for a writer
 * forever (no time limit reaches it): a regular file only, opened without blocking, at most
 * the size limit. The host must be empty or "localhost"; the path is percent-decoded. */
static void fetch_local(struct imp_fetch_item *it, const struct imp_fetch_opts *o)
{
    CURLU *u = curl_url();
    char *host = NULL, *path = NULL;
    if (!u || curl_url_set(u, CURLUPART_URL, it->url, 0) != CURLUE_OK ||
        curl_url_get(u, CURLUPART_PATH, &path, CURLU_URLDECODE) != CURLUE_OK) {
        snprintf(it->err, sizeof it->err, "not a file:// URL libcurl can read");
    } else if (curl_url_get(u, CURLUPART_HOST, &host, 0) == CURLUE_OK && host && host[0] &&
               strcasecmp(host, "localhost") != 0) {
        snprintf(it->err, sizeof it->err, "a file:// URL names a file of this machine: its host "
                 "must be empty or localhost");
    } else {
        size_t len = 0;
        char why[sizeof it->err];
        size_t max = o->max_bytes > 0 ? (size_t)o->max_bytes : (size_t)IMP_FETCH_DEFAULT_MAX_BYTES;
        char *body = file_read_max(path, max, &len, why, sizeof why);
        if (body) {
            it->ok = true;
            it->body = body;
            it->len = len;
        } else {
            char *shown = text_escape(why, 300);
            snprintf(it->err, sizeof it->err, "%s", shown);
            free(shown);
        }
    }
    curl_free(host);
    curl_free(path);
    curl_url_cleanup(u);
}

static bool curl_ready;

int imp_fetch_all(struct imp_fetch_item *items, size_t n, const struct imp_fetch_opts *o)
{
    if (!curl_ready) {
        if (curl_global_init(CURL_GLOBAL_DEFAULT) != CURLE_OK)
            return -1;
        curl_ready = true;
    }
    char *known_hosts = o->known_hosts ? xstrdup(o->known_hosts)
                                       : xasprintf("%s/.ssh/known_hosts",
                                                   getenv("HOME") ? getenv("HOME") : ".");
    char *identity = ssh_identity(o);
    CURLM *multi = curl_multi_init();
    if (!multi) {
        free(known_hosts);
        free(identity);
        return -1;
    }
    struct xfer *xs = xcalloc(n + 1, sizeof *xs);
    int failed = 0;
    for (size_t i = 0; i < n; i++) {
        struct xfer *x = &xs[i];
        x->item = &items[i], x->o = o, x->index = i;
        items[i].ok = false, items[i].body = NULL, items[i].len = 0, items[i].err[0] = '\0';
        if (imp_url_check(items[i].url, items[i].err, sizeof items[i].err) != 0) {
            failed++;
            continue;
        }
        if (strncasecmp(items[i].url, "file://", 7) == 0) {
            fetch_local(&items[i], o);
            failed += !items[i].ok;
            continue;
        }
        x->h = curl_easy_init();
        if (!x->h) {
            snprintf(items[i].err, sizeof items[i].err, "libcurl could not start a transfer");
            failed++;
            continue;
        }
        setup(x, known_hosts, identity);
        if (curl_multi_add_handle(multi, x->h) != CURLM_OK) {
            snprintf(items[i].err, sizeof items[i].err, "libcurl could not start a transfer");
            failed++;
            continue;
        }
        x->added = true;
    }
    int running = 1;
    while (running) {
        if (curl_multi_perform(multi, &running) != CURLM_OK)
            break;
        CURLMsg *msg;
        int left;
        while ((msg = curl_multi_info_read(multi, &left))) {
            if (msg->msg != CURLMSG_DONE)
                continue;
            struct xfer *x = NULL;
            curl_easy_getinfo(msg->easy_handle, CURLINFO_PRIVATE, (char **)&x);
            finish(x, msg->data.result);
            if (!x->item->ok)
                failed++;
            curl_multi_remove_handle(multi, x->h);
            x->added = false;
        }
        if (running && curl_multi_poll(multi, NULL, 0, 500, NULL) != CURLM_OK)
            break;
    }
    for (size_t i = 0; i < n; i++) {
        struct xfer *x = &xs[i];
        if (x->added) { /* the loop broke off: report, do not keep a partial body */
            snprintf(items[i].err, sizeof items[i].err, "libcurl stopped the transfer");
            failed++;
            curl_multi_remove_handle(multi, x->h);
        }
        if (x->h)
            curl_easy_cleanup(x->h);
        free(x->buf);
    }
    curl_multi_cleanup(multi);
    free(xs);
    free(known_hosts);
    free(identity);
    return failed;
}

void imp_fetch_item_clear(struct imp_fetch_item *it)
{
    free(it->body);
    it->body = NULL;
    it->len = 0;
}
