/* Worker-lifetime caches (engine/session/session.h). Lists, not hash tables: a worker sees a handful of
 * contexts and a few dozen kernel files. */
#include "engine/session/session.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/embed.h"
#include "common/hash.h"
#include "common/xalloc.h"
#include "engine/cache/cache.h"
#include "engine/session/input_prefetch.h"

struct held_ctx {
    const struct eng_backend *B;
    int device;
    struct eng_ctx *ctx;
    struct eng_module *util;
    char *util_target; /* what util was built for */
    bool kept;        /* reused by later checks; false: closed when given back */
    bool in_use;
    /* util's kernels asked for by name (eng_session_util_kernel): a backend makes a new handle
     * per ask, which the module keeps until it is unloaded */
    struct util_kernel { const char *name; struct eng_kernel *k; } uk[24];
    size_t nuk;
};

struct held_code {
    const struct eng_backend *B;
    char *target, *file;
    char src_hash[33]; /* of the source and the flags */
    void *code;
    size_t len;
};

static struct held_ctx *ctxs;
static size_t nctx;
static struct held_code *codes;
static size_t ncode;

/* An emulated backend opens a context per check (its schedule and random state are the
 * check's), but its modules are host code that no context owns: the utility module a context
 * gives back waits here for the next context instead of being unloaded, so that a check does
 * not write, load and unload util.kl's object again. Each context still holds a module of its
 * own while it is open (contexts open at once, rung 6's ranks, never share one). */
struct spare_util {
    const struct eng_backend *B;
    char *target;
    struct eng_module *mod;
};

static struct spare_util *spares;
static size_t nspare;

static struct held_ctx *find_ctx(const struct eng_ctx *ctx)
{
    for (size_t i = 0; i < nctx; i++)
        if (ctxs[i].ctx == ctx)
            return &ctxs[i];
    return NULL;
}

static void drop_ctx(struct held_ctx *h)
{
    if (h->util && h->B->caps.emulated) {
        spares = xrealloc(spares, (nspare + 1) * sizeof *spares);
        spares[nspare++] = (struct spare_util){.B = h->B, .target = h->util_target, .mod = h->util};
        h->util_target = NULL;
    } else if (h->util) {
        h->B->module_unload(h->ctx, h->util);
    }
    free(h->util_target);
    eng_session_buf_trim(h->ctx);
    h->B->close(h->ctx);
    *h = ctxs[--nctx];
}

int eng_session_get(const struct eng_backend *B, int device, const struct eng_open_opts *o,
                    struct eng_ctx **ctx, char *err, size_t errlen)
{
    /* An emulated context holds the schedule and its random state: each check starts its own
     * from its seed. A GPU context holds nothing a check can see. */
    bool keep = !B->caps.emulated;
    for (size_t i = 0; keep && i < nctx; i++)
        if (ctxs[i].kept && !ctxs[i].in_use && ctxs[i].B == B && ctxs[i].device == device) {
            ctxs[i].in_use = true;
            *ctx = ctxs[i].ctx;
            return 0;
        }
    if (B->open(device, o, ctx, err, errlen) != 0)
        return -1;
    ctxs = xrealloc(ctxs, (nctx + 1) * sizeof *ctxs);
    ctxs[nctx++] = (struct held_ctx){.B = B, .device = device, .ctx = *ctx, .kept = keep,
                                     .in_use = true};
    return 0;
}

void eng_session_put(const struct eng_backend *B, struct eng_ctx *ctx)
{
    struct held_ctx *h = find_ctx(ctx);
    if (!h) {
        B->close(ctx);
        return;
    }
    h->in_use = false;
    if (!h->kept)
        drop_ctx(h);
}

int eng_session_code(const struct eng_backend *B, const char *target, const char *file,
                     const char *source, const char *const *flags, const void **code,
                     size_t *len, char *log, size_t loglen)
{
    struct hash_state hs;
    hash_init(&hs);
    hash_str(&hs, source);
    for (size_t i = 0; flags && flags[i]; i++)
        hash_str(&hs, flags[i]);
    char h[33];
    hash_hex(&hs, h);
    for (size_t i = 0; i < ncode; i++) {
        struct held_code *c = &codes[i];
        if (c->B == B && !strcmp(c->src_hash, h) &&
            !strcmp(c->target, target) && !strcmp(c->file, file)) {
            *code = c->code;
            *len = c->len;
            return 0;
        }
    }
    const struct embed_file *hdr = embed_find("kernels/kl.h");
    if (!hdr) {
        snprintf(log, loglen, "kernels/kl.h is not built in");
        return -1;
    }
    void *obj;
    size_t olen;
    if (eng_compile_cached(B, target, file, (const char *)hdr->data, source, flags, &obj, &olen,
                           NULL, log, loglen) != 0)
        return -1;
    codes = xrealloc(codes, (ncode + 1) * sizeof *codes);
    codes[ncode++] = (struct held_code){.B = B, .target = xstrdup(target), .file = xstrdup(file),
                                        .code = obj, .len = olen};
    memcpy(codes[ncode - 1].src_hash, h, sizeof h);
    *code = obj;
    *len = olen;
    return 0;
}

int eng_session_util(const struct eng_backend *B, struct eng_ctx *ctx, const char *target,
                     struct eng_module **mod, char *err, size_t errlen)
{
    struct held_ctx *h = find_ctx(ctx);
    if (h && h->util) {
        *mod = h->util;
        return 0;
    }
    for (size_t i = 0; h && i < nspare; i++)
        if (spares[i].B == B && !strcmp(spares[i].target, target)) {
            h->util = spares[i].mod;
            h->util_target = spares[i].target;
            spares[i] = spares[--nspare];
            *mod = h->util;
            return 0;
        }
    const struct embed_file *u = embed_find("kernels/util.kl");
    if (!u || !h) {
        snprintf(err, errlen, "%s", u ? "the context is not the session's" : "kernels/util.kl is not built in");
        return -1;
    }
    const void *code;
    size_t len;
    char *log = xmalloc(16384);
    log[0] = '\0';
    if (eng_session_code(B, target, "util.kl", (const char *)u->data, NULL, &code, &len, log, 16384)) {
        snprintf(err, errlen, "compiling util.kl for %s failed: %.900s", target, log);
        free(log);
        return -1;
    }
    free(log);
    if (B->module_load(ctx, code, len, &h->util, err, errlen) != 0)
        return -1;
    h->util_target = xstrdup(target);
    *mod = h->util;
    return 0;
}

int eng_session_util_kernel(const struct eng_backend *B, struct eng_ctx *ctx, const char *name,
                            struct eng_kernel **k, char *err, size_t errlen)
{
    struct held_ctx *h = find_ctx(ctx);
    for (size_t i = 0; h && i < h->nuk; i++)
        if (!strcmp(h->uk[i].name, name)) {
            *k = h->uk[i].k;
            return 0;
        }
    if (!h || !h->util) {
        snprintf(err, errlen, "the utility module is not loaded in this context");
        return -1;
    }
    if (B->kernel_get(ctx, h->util, name, k, err, errlen) != 0)
        return -1;
    if (h->nuk < sizeof h->uk / sizeof h->uk[0])
        h->uk[h->nuk++] = (struct util_kernel){.name = name, .k = *k};
    return 0;
}

void eng_session_end(void)
{
    eng_session_buf_trim(NULL);
    eng_prefetch_trim();
    eng_session_devices_forget();
    while (nctx)
        drop_ctx(&ctxs[nctx - 1]);
    free(ctxs);
    ctxs = NULL;
    for (size_t i = 0; i < nspare; i++) { /* a module of no context */
        spares[i].B->module_unload(NULL, spares[i].mod);
        free(spares[i].target);
    }
    free(spares);
    spares = NULL;
    nspare = 0;
    for (size_t i = 0; i < ncode; i++) {
        free(codes[i].target);
        free(codes[i].file);
        free(codes[i].code);
    }
    free(codes);
    codes = NULL;
    ncode = 0;
}
