#define _GNU_SOURCE
#include "engine/backend/nccl_dl.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
static struct eng_nccl lib[2];      /* [0] cuda, [1] hip */
static int state[2];                /* 0 not tried, 1 loaded, -1 failed */
static char why_saved[2][1024];

static void *try_open(const char *name, char *tried, size_t n)
{
    void *h = dlopen(name, RTLD_NOW | RTLD_LOCAL);
    size_t l = strlen(tried);
    if (!h)
        snprintf(tried + l, n - l, "%s%s", l ? "; " : "", dlerror());
    return h;
}

static int bind(void *h, struct eng_nccl *t, char *why, size_t n)
{
    struct {
        const char *name;
        void **slot;
    } syms[] = {
        {"ncclGetUniqueId", (void **)&t->GetUniqueId},
        {"ncclCommInitRank", (void **)&t->CommInitRank},
        {"ncclAllReduce", (void **)&t->AllReduce},
        {"ncclCommDestroy", (void **)&t->CommDestroy},
        {"ncclGetErrorString", (void **)&t->GetErrorString},
        {"ncclGetVersion", (void **)&t->GetVersion},
    };
    for (size_t i = 0; i < sizeof syms / sizeof *syms; i++) {
        *syms[i].slot = dlsym(h, syms[i].name);
        if (!*syms[i].slot) {
            snprintf(why, n, "%s: %s is missing", t->path, syms[i].name);
            return -1;
        }
    }
    return 0;
}

const struct eng_nccl *eng_nccl_load(const char *family, char *why, size_t whylen)
{
    int k = family && strcmp(family, "RCCL") == 0;
    if (!k && (!family || strcmp(family, "NCCL") != 0)) {
        snprintf(why, whylen, "no collective library for this backend");
        return NULL;
    }
    pthread_mutex_lock(&mu);
    if (state[k] == 0) {
        char tried[1024] = "";
        const char *env = getenv("KLADDER_NCCL_LIBRARY");
        const char *cuda_names[] = {"libnccl.so.2", "libnccl.so", NULL};
        const char *hip_names[] = {"librccl.so.1", "librccl.so", NULL};
        void *h = NULL;
        const char *found = NULL;
        if (env && *env) {
            h = try_open(env, tried, sizeof tried);
            found = env;
        } else {
            for (const char **nm = k ? hip_names : cuda_names; *nm && !h; nm++)
                if ((h = try_open(*nm, tried, sizeof tried)))
                    found = *nm;
            if (!h && k) {
                const char *roots[] = {getenv("ROCM_PATH"), "/opt/rocm"};
                for (int r = 0; r < 2 && !h; r++) {
                    if (!roots[r] || !*roots[r])
                        continue;
                    char p[560];
                    snprintf(p, sizeof p, "%s/lib/librccl.so.1", roots[r]);
                    if ((h = try_open(p, tried, sizeof tried)))
                        found = p;
                }
            }
        }
        state[k] = -1;
        if (!h) {
            snprintf(why_saved[k], sizeof why_saved[k], "%s not found (%.900s); set KLADDER_NCCL_LIBRARY",
                     k ? "RCCL" : "NCCL", tried);
        } else {
            struct eng_nccl *t = &lib[k];
            snprintf(t->path, sizeof t->path, "%s", found);
            if (bind(h, t, why_saved[k], sizeof why_saved[k]) == 0) {
                if (t->GetVersion(&t->version) != 0)
                    t->version = 0;
                state[k] = 1;
            } else {
                dlclose(h);
            }
        }
    }
    const struct eng_nccl *r = state[k] == 1 ? &lib[k] : NULL;
    if (!r)
        snprintf(why, whylen, "%s", why_saved[k]);
    pthread_mutex_unlock(&mu);
    return r;
}

void eng_nccl_describe(const struct eng_nccl *n, const char *family, char *out, size_t len)
{
    const char *name = family;
    int v = n->version;
    /* 2.9 and later encode major*10000 + minor*100 + patch; older ones major*1000. */
    if (v >= 10000)
        snprintf(out, len, "%s %d.%d.%d (%s)", name, v / 10000, v / 100 % 100, v % 100, n->path);
    else if (v > 0)
        snprintf(out, len, "%s %d.%d.%d (%s)", name, v / 1000, v / 100 % 10, v % 100, n->path);
    else
        snprintf(out, len, "%s (%s)", name, n->path);
}
