/* One file compiled whole and its entry points looked up in the object (scan_unit.h). */
#include "engine/compile/scan_unit.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/embed.h"
#include "common/xalloc.h"
#include "engine/cache/cache.h"
#include "engine/codeobj/elf_symbols.h"
#include "engine/codeobj/plain_entry.h"
#include "engine/compile/plain_source.h"
#include "engine/manifest.h"

/* The last name of a comparable C++ name (eng_plain_name_key): "ns::k<float,ns::T>" -> "k",
 * the template arguments left out. */
static void base_name(const char *key, char *out, size_t n)
{
    const char *start = key;
    int depth = 0;
    const char *end = key + strlen(key);
    for (const char *s = key; *s; s++) {
        if (*s == '<') {
            if (depth++ == 0)
                end = s;
        } else if (*s == '>') {
            depth--;
        } else if (depth == 0 && s[0] == ':' && s[1] == ':') {
            start = s + 2;
            end = key + strlen(key);
        }
    }
    if (end < start)
        end = start + strlen(start);
    snprintf(out, n, "%.*s", (int)(end - start), start);
}

struct object_scan {
    const struct eng_plain_kernels *k;
    size_t *found;      /* per kernel: how many functions of the object have its name */
    char ***instances;  /* per template kernel: the instances found (comparable names) */
    bool *seen;         /* per kernel: its definition's ENG_PLAIN_SEEN_PREFIX function is there */
};

/* A function ENG_PLAIN_SEEN_PREFIX NAME _N: the kernel NAME's definition was compiled. */
static bool seen_marker(struct object_scan *o, const char *base)
{
    size_t pre = strlen(ENG_PLAIN_SEEN_PREFIX);
    if (strncmp(base, ENG_PLAIN_SEEN_PREFIX, pre) != 0)
        return false;
    const char *name = base + pre, *us = strrchr(name, '_');
    if (!us || us == name || !us[1] || strspn(us + 1, "0123456789") != strlen(us + 1))
        return false;
    for (size_t i = 0; i < o->k->n; i++)
        if (strlen(o->k->names[i]) == (size_t)(us - name) &&
            !strncmp(o->k->names[i], name, (size_t)(us - name)))
            o->seen[i] = true;
    return true;
}

static int visit(const char *symbol, void *arg)
{
    struct object_scan *o = arg;
    char *d = eng_plain_demangle(symbol);
    char *key = eng_plain_name_key(d ? d : symbol);
    char base[256];
    base_name(key, base, sizeof base);
    if (seen_marker(o, base)) {
        free(key);
        free(d);
        return 0;
    }
    for (size_t i = 0; i < o->k->n; i++) {
        if (strcmp(base, o->k->names[i]) != 0)
            continue;
        bool instance = strchr(key, '<') != NULL;
        if (o->k->templates[i] && instance) {
            size_t m = o->found[i];
            bool dup = false;
            for (size_t j = 0; j < m && !dup; j++)
                dup = !strcmp(o->instances[i][j], key);
            if (!dup) {
                o->instances[i] = xrealloc(o->instances[i], (m + 1) * sizeof **o->instances);
                o->instances[i][m] = xstrdup(key);
                o->found[i]++;
            }
        } else if (!o->k->templates[i] && !instance) {
            o->found[i]++;
        }
        break;
    }
    free(key);
    free(d);
    return 0;
}

static void add_entry(struct eng_scan_result *r, const char *kernel, char *instance,
                      enum eng_scan_state state)
{
    r->entries = xrealloc(r->entries, (r->nentries + 1) * sizeof *r->entries);
    r->entries[r->nentries++] = (struct eng_scan_entry){
        .kernel = xstrdup(kernel), .instance = instance, .state = state};
}

/* The entries of the compiled file: each kernel the source defines, against the object.
 * emulated: kladder's headers served the compile, so each compiled kernel definition left its
 * ENG_PLAIN_SEEN_PREFIX function, and a kernel missing with its function was under a
 * preprocessor branch not taken: no entry of this build. */
static void judge_entries(const struct eng_manifest *m, bool emulated, const void *code,
                          size_t len, struct eng_scan_result *r)
{
    char err[1024];
    struct eng_plain_kernels k;
    if (eng_plain_kernels(m, false, &k, err, sizeof err) != 0) {
        eng_plain_kernels_free(&k);
        r->cause = ENG_SCAN_UNREADABLE;
        r->message = xstrdup(err);
        return;
    }
    struct object_scan o = {.k = &k, .found = xcalloc(k.n + 1, sizeof *o.found),
                            .instances = xcalloc(k.n + 1, sizeof *o.instances),
                            .seen = xcalloc(k.n + 1, sizeof *o.seen)};
    int rc = eng_elf_each_function(code, len, visit, &o);
    r->cause = ENG_SCAN_OK;
    size_t inactive = 0;
    for (size_t i = 0; i < k.n; i++) {
        if (k.templates[i]) {
            for (size_t j = 0; j < o.found[i]; j++)
                add_entry(r, k.names[i], o.instances[i][j], ENG_SCAN_LAUNCHABLE);
            if (!o.found[i])
                add_entry(r, k.names[i], NULL, ENG_SCAN_NO_INSTANCE);
        } else if (!o.found[i] && emulated && rc >= 0 && !o.seen[i]) {
            add_entry(r, k.names[i], NULL, ENG_SCAN_INACTIVE);
            inactive++;
        } else {
            add_entry(r, k.names[i], NULL,
                      o.found[i] ? ENG_SCAN_LAUNCHABLE : ENG_SCAN_NOT_IN_OBJECT);
            if (!o.found[i] && r->cause == ENG_SCAN_OK) {
                r->cause = ENG_SCAN_NOT_LAUNCHABLE;
                r->what = xstrdup(k.names[i]);
                r->message = xasprintf(rc < 0 ? "the compiled object has no symbol table"
                                              : "the compiled object has no function %s",
                                       k.names[i]);
            }
        }
        free(o.instances[i]);
    }
    if (k.n == 0 && !k.by_macro) {
        r->cause = ENG_SCAN_NO_KERNEL;
        r->message = xstrdup("no __global__ function in the file or its local includes");
    } else if (k.n > 0 && inactive == k.n && !k.by_macro && r->cause == ENG_SCAN_OK) {
        r->cause = ENG_SCAN_NO_KERNEL;
        r->message = xasprintf("no __global__ function this build compiles: %zu under "
                               "preprocessor branches not taken", inactive);
    }
    free(o.seen);
    free(o.found);
    free(o.instances);
    eng_plain_kernels_free(&k);
}

int eng_scan_unit(const struct eng_backend *b, const char *target, const char *root,
                  const char *rel, const char *const *flags, struct eng_scan_result *r)
{
    memset(r, 0, sizeof *r);
    const struct embed_file *header = embed_find("kernels/kl.h");
    if (!header) {
        r->message = xstrdup("kernels/kl.h is not built in");
        return -1;
    }
    /* a suite of its own with no entry named: the source prepared as a run prepares it; the
     * build line's -I folders are where the source walk looks up an include not beside the
     * file too (a quoted one after its own folder, as the compiler does), read inside them */
    struct eng_manifest *m = eng_manifest_plain(rel, root, rel, flags);
    char err[2048];
    char *source = eng_suite_source(m, b->caps.emulated, err, sizeof err);
    if (!source) {
        eng_scan_classify(err, r);
        if (r->cause == ENG_SCAN_COMPILE_ERROR && !strstr(err, "#include")) {
            /* not a compile: the file itself could not be read */
            r->cause = ENG_SCAN_UNREADABLE;
            free(r->message);
            r->message = xstrdup(err);
        }
    } else {
        size_t loglen = 1 << 16;
        char *log = xmalloc(loglen);
        void *code = NULL;
        size_t len = 0;
        log[0] = '\0';
        if (eng_compile_cached(b, target, rel, (const char *)header->data, source, flags, &code,
                               &len, &r->cached, log, loglen) != 0)
            eng_scan_classify(log, r);
        else
            judge_entries(m, b->caps.emulated, code, len, r);
        free(code);
        free(log);
        free(source);
    }
    eng_manifest_free(m);
    return 0;
}
