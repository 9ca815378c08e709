/* The cache-key audit (engine/cache/cache_audit.h). */
#include "engine/cache/cache_audit.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/xalloc.h"

struct audit {
    eng_cache_key_fn fn;
    char base[33];
    char *report;
    size_t n, used, findings;
};

static void finding(struct audit *a, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void finding(struct audit *a, const char *fmt, ...)
{
    a->findings++;
    if (a->used + 1 >= a->n)
        return;
    va_list ap;
    va_start(ap, fmt);
    int w = vsnprintf(a->report + a->used, a->n - a->used, fmt, ap);
    va_end(ap);
    if (w > 0)
        a->used += (size_t)w < a->n - a->used ? (size_t)w : a->n - a->used - 1;
    if (a->used + 1 < a->n) {
        a->report[a->used++] = '\n';
        a->report[a->used] = '\0';
    }
}

/* True when k's key differs from the base key. */
static bool moves(struct audit *a, const struct eng_cache_key *k)
{
    char key[33];
    a->fn(k, key);
    return strcmp(key, a->base) != 0;
}

/* The environment with one variable overridden (value NULL: unset). */
struct env_override {
    eng_env_get_fn get;
    void *arg;
    const char *name, *value;
};

static const char *override_get(const char *name, void *arg)
{
    const struct env_override *o = arg;
    if (strcmp(name, o->name) == 0)
        return o->value;
    return o->get ? o->get(name, o->arg) : getenv(name);
}

size_t eng_cache_audit(eng_cache_key_fn key_fn, const struct eng_cache_key *base,
                       eng_env_get_fn get, void *arg, char *report, size_t n)
{
    struct audit a = {.fn = key_fn, .report = report, .n = n};
    if (n)
        report[0] = '\0';
    char *env = eng_cache_env_text(get, arg);
    struct eng_cache_key b = *base;
    b.env = env;
    key_fn(&b, a.base);

    struct eng_cache_key k = b;
    k.backend = "kladder-audit-backend";
    if (!moves(&a, &k))
        finding(&a, "the key ignores the backend");
    k = b, k.target = "kladder-audit-target";
    if (!moves(&a, &k))
        finding(&a, "the key ignores the target");
    k = b, k.compiler = "kladder-audit-compiler 0.0";
    if (!moves(&a, &k))
        finding(&a, "the key ignores the compiler identity");
    k = b, k.header = "/* another dialect header */";
    if (!moves(&a, &k))
        finding(&a, "the key ignores the dialect header");
    k = b, k.source = "/* another kernel source */";
    if (!moves(&a, &k))
        finding(&a, "the key ignores the kernel source");

    size_t nf = 0;
    while (base->flags && base->flags[nf])
        nf++;
    const char **fl = xcalloc(nf + 2, sizeof *fl);
    for (size_t i = 0; i < nf; i++) {
        /* the flags without flag i */
        size_t m = 0;
        for (size_t j = 0; j < nf; j++)
            if (j != i)
                fl[m++] = base->flags[j];
        fl[m] = NULL;
        k = b, k.flags = fl;
        if (!moves(&a, &k))
            finding(&a, "the key ignores flag %s", base->flags[i]);
    }
    for (size_t j = 0; j < nf; j++)
        fl[j] = base->flags[j];
    fl[nf] = "-DKL_CACHE_AUDIT_EXTRA_FLAG";
    fl[nf + 1] = NULL;
    k = b, k.flags = fl;
    if (!moves(&a, &k))
        finding(&a, "the key ignores an added flag");
    if (nf >= 2 && strcmp(base->flags[0], base->flags[1]) != 0) {
        for (size_t j = 0; j < nf; j++)
            fl[j] = base->flags[j];
        fl[0] = base->flags[1], fl[1] = base->flags[0];
        fl[nf] = NULL;
        k = b, k.flags = fl;
        if (!moves(&a, &k))
            finding(&a, "the key ignores the order of flags %s and %s", base->flags[0],
                    base->flags[1]);
    }
    free(fl);

    for (size_t i = 0; eng_cache_env[i].name; i++) {
        if (eng_cache_env[i].role != ENG_ENV_KEY)
            continue;
        const char *name = eng_cache_env[i].name;
        const char *now = get ? get(name, arg) : getenv(name);
        /* a new value, and (when it is set) unset; (when it is unset) the empty value too */
        const char *tries[2] = {"kladder-audit-value", now ? NULL : ""};
        for (int t = 0; t < 2; t++) {
            struct env_override o = {get, arg, name, tries[t]};
            char *e = eng_cache_env_text(override_get, &o);
            k = b, k.env = e;
            bool moved = moves(&a, &k);
            free(e);
            if (!moved) {
                finding(&a, "the key ignores the environment variable %s", name);
                break;
            }
        }
    }
    free(env);

    const char *unl[32];
    size_t nu = eng_cache_env_unlisted(unl, 32);
    for (size_t i = 0; i < nu && i < 32; i++)
        finding(&a, "the compile path reads %s, which the inventory lists neither as key nor as "
                    "neutral (engine/toolchain/cache_env.c)", unl[i]);
    return a.findings;
}
