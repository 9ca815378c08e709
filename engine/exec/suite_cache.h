/* The suites a worker has parsed (engine/worker.c): each check hands its rung the manifest of its
 * suite, parsed once per worker however many checks of the suite it runs, instead of each rung
 * and each setup parsing the manifest again.
 *
 * A suite is cached by what its check spec calls it (a name or a path) and, for a path, by the
 * content of the file: a manifest edited between two checks of one worker is parsed again. */
#ifndef KL_ENGINE_EXEC_SUITE_CACHE_H
#define KL_ENGINE_EXEC_SUITE_CACHE_H

#include <stddef.h>

#include "engine/manifest.h"

/* The manifest of suite (a name or a path, as eng_manifest_load takes it), or NULL with
 * eng_manifest_load's message; failures are not cached. The manifest stays the cache's: valid
 * until eng_suite_cache_clear(). */
const struct eng_manifest *eng_suite_cached(const char *suite, char *err, size_t errlen);

/* How many times the cache has parsed a manifest since the process started (for tests). */
size_t eng_suite_cache_parses(void);

/* Frees every cached manifest (the worker's end). */
void eng_suite_cache_clear(void);

#endif
