/* Every environment variable the compile path reads, each classified as part of the compile
 * cache key or as neutral (it cannot change a code object), with the reason.
 *
 * A cache key that forgets an input hands a kernel built for one situation to another
 * (flydsl-1277: 22 failures warm, 2 cold). So the compile path never calls getenv() itself: it
 * reads through eng_compile_getenv(), which records any name missing from the inventory, and
 * the cache-key audit (engine/cache/cache_audit.h, rung 7) fails naming it. Key variables enter the
 * key as NAME=VALUE text (unset and empty differ). The cpu backend's compiler child process is
 * given only the listed variables that are set (eng_compile_child_env), so nothing the host
 * compiler reads (CPATH, GCC_EXEC_PREFIX...) reaches it without being in this list. docs/engine.md
 * prints the inventory. */
#ifndef KL_ENGINE_CACHE_ENV_H
#define KL_ENGINE_CACHE_ENV_H

#include <stdbool.h>
#include <stddef.h>

enum eng_env_role { ENG_ENV_KEY, ENG_ENV_NEUTRAL };

struct eng_env_entry {
    const char *name;
    enum eng_env_role role;
    const char *why;
};

/* The inventory, terminated by a NULL name. */
extern const struct eng_env_entry eng_cache_env[];

/* The inventory entry for name, or NULL. */
const struct eng_env_entry *eng_cache_env_find(const char *name);

/* getenv() for the compile path: the value (or NULL), and a name missing from the inventory is
 * remembered for eng_cache_env_unlisted. */
const char *eng_compile_getenv(const char *name);

/* False when KLADDER_NO_CACHE is set to anything but "" or "0": nothing is read from or kept in
 * the compile cache (the code objects' cache, the cpu backend's precompiled headers). */
bool eng_compile_cache_enabled(void);

/* How long one compiler run may take before it is stopped: $KLADDER_COMPILE_TIMEOUT seconds
 * (0 < S <= 86400), else 600. An include that reaches a FIFO or a device never ends; this
 * ends it. */
double eng_compile_limit_s(void);

/* The names read through eng_compile_getenv that the inventory lacks, in first-read order, up
 * to max; returns how many there are. Valid for the life of the process. */
size_t eng_cache_env_unlisted(const char **out, size_t max);

/* A variable's value as the key sees it, from get (NULL: getenv) with its argument. */
typedef const char *(*eng_env_get_fn)(const char *name, void *arg);

/* "NAME=VALUE\n" for every key variable that is set, "NAME unset\n" for one that is not, in
 * inventory order: the env input of the cache key. malloc'd. */
char *eng_cache_env_text(eng_env_get_fn get, void *arg);

/* A NULL-terminated environment for a compiler child: the listed variables that are set, and
 * no other. Free with eng_compile_child_env_free. */
char **eng_compile_child_env(void);
void eng_compile_child_env_free(char **env);

#endif
