/* The worker's parsed suites (engine/exec/suite_cache.h). A handful per worker: a linear list. */
#include "engine/exec/suite_cache.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/fileio.h"
#include "common/hash.h"
#include "common/xalloc.h"

struct cached_suite {
    char *suite;    /* as the specs name it */
    char id[33];    /* a path's content hash; "" for an embedded suite (fixed for the process) */
    struct eng_manifest *m;
};

static struct cached_suite *cache;
static size_t ncache;
/* Manifests whose file changed: kept until the end, since a caller may still hold one. */
static struct eng_manifest **stale;
static size_t nstale;
static size_t parses;

/* The content identity of suite's file into id ("" for a suite name); false with a message
 * when the file cannot be read. */
static bool suite_identity(const char *suite, char id[33], char *err, size_t errlen)
{
    id[0] = '\0';
    if (!eng_manifest_names_path(suite))
        return true;
    size_t len;
    char *text = file_read_all(suite, &len, err, errlen);
    if (!text)
        return false;
    struct hash_state h;
    hash_init(&h);
    hash_bytes(&h, text, len);
    hash_hex(&h, id);
    free(text);
    return true;
}

const struct eng_manifest *eng_suite_cached(const char *suite, char *err, size_t errlen)
{
    char id[33];
    if (!suite_identity(suite, id, err, errlen))
        return NULL;
    struct cached_suite *c = NULL;
    for (size_t i = 0; i < ncache && !c; i++)
        if (!strcmp(cache[i].suite, suite))
            c = &cache[i];
    if (c && !strcmp(c->id, id))
        return c->m;
    struct eng_manifest *m = eng_manifest_load(suite, NULL, err, errlen);
    parses++;
    if (!m)
        return NULL;
    if (c) {
        stale = xrealloc(stale, (nstale + 1) * sizeof *stale);
        stale[nstale++] = c->m;
    } else {
        cache = xrealloc(cache, (ncache + 1) * sizeof *cache);
        c = &cache[ncache++];
        c->suite = xstrdup(suite);
    }
    snprintf(c->id, sizeof c->id, "%s", id);
    c->m = m;
    return m;
}

size_t eng_suite_cache_parses(void) { return parses; }

void eng_suite_cache_clear(void)
{
    for (size_t i = 0; i < ncache; i++) {
        free(cache[i].suite);
        eng_manifest_free(cache[i].m);
    }
    for (size_t i = 0; i < nstale; i++)
        eng_manifest_free(stale[i]);
    free(cache);
    free(stale);
    cache = NULL;
    stale = NULL;
    ncache = nstale = 0;
}
