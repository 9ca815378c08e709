/* The inventory of environment variables the compile path reads (engine/toolchain/cache_env.h).
 * Adding a getenv to a compile path means adding its line here, as key or neutral, with why. */
#include "engine/toolchain/cache_env.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "common/xalloc.h"

const struct eng_env_entry eng_cache_env[] = {
    /* cpu backend: the host C++ compiler and what it reads */
    {"CXX", ENG_ENV_KEY, "chooses the host compiler; two builds can share a --version line"},
    {"PATH", ENG_ENV_NEUTRAL, "finds the compiler, whose identity (--version) is in the key; the child needs it to find its own tools"},
    {"TMPDIR", ENG_ENV_NEUTRAL, "where the cpu backend writes the source it compiles; the object does not record the path (two compiles give identical bytes)"},
    {"LD_LIBRARY_PATH", ENG_ENV_NEUTRAL, "lets a compiler installed outside the system folders start; its identity is in the key"},
    {"CPATH", ENG_ENV_KEY, "adds include folders: another header can change the code"},
    {"CPLUS_INCLUDE_PATH", ENG_ENV_KEY, "adds C++ include folders"},
    {"GCC_EXEC_PREFIX", ENG_ENV_KEY, "selects the compiler's sub-programs (cc1plus, as)"},
    {"COMPILER_PATH", ENG_ENV_KEY, "selects the compiler's sub-programs"},
    {"LIBRARY_PATH", ENG_ENV_KEY, "folders the linker searches for the shared object it writes"},
    {"SOURCE_DATE_EPOCH", ENG_ENV_KEY, "changes __DATE__ and __TIME__ in the object"},
    {"KLADDER_THRUST", ENG_ENV_KEY, "chooses the Thrust the cpu backend compiles against (off: none)"},
    /* hip: hipRTC and comgr, in this process */
    {"ROCM_PATH", ENG_ENV_KEY, "chooses which hipRTC (and device libraries) compile"},
    {"KLADDER_HIPRTC_LIBRARY", ENG_ENV_KEY, "chooses the hipRTC library that compiles"},
    {"KLADDER_HIP_LIBRARY", ENG_ENV_KEY, "chooses libamdhip64, which holds hipRTC before ROCm 6"},
    {"AMD_COMGR_CACHE", ENG_ENV_NEUTRAL, "turns comgr's own cache on or off; comgr keys it on source, flags and version"},
    {"AMD_COMGR_CACHE_DIR", ENG_ENV_NEUTRAL, "where comgr's cache lives"},
    {"AMD_COMGR_CACHE_POLICY", ENG_ENV_NEUTRAL, "how comgr prunes its cache"},
    /* cuda: NVRTC, in this process */
    {"KLADDER_NVRTC", ENG_ENV_KEY, "chooses the NVRTC library that compiles"},
    {"KLADDER_NVCC", ENG_ENV_KEY, "chooses the nvcc that compiles whole plain CUDA sources"},
    {"KLADDER_CLANG", ENG_ENV_KEY, "chooses the clang that builds AMD targets hipRTC lacks"},
    {"KLADDER_HIP_COMPILER", ENG_ENV_NEUTRAL, "forces hipRTC or clang; the compiler used is in the key"},
    {"KLADDER_HIP_CLANG", ENG_ENV_NEUTRAL, "off leaves a whole plain source to hipRTC; the compiler used is in the key"},
    {"CUDA_HOME", ENG_ENV_KEY, "chooses which NVRTC is found"},
    {"CUDA_PATH", ENG_ENV_KEY, "chooses which NVRTC is found"},
    /* the cache itself */
    {"KLADDER_COMPILE_TIMEOUT", ENG_ENV_NEUTRAL, "stops a compile that runs longer (seconds); never changes what is compiled"},
    {"KLADDER_NO_CACHE", ENG_ENV_NEUTRAL, "bypasses the cache; never changes what is compiled"},
    {"XDG_CACHE_HOME", ENG_ENV_NEUTRAL, "where the cache lives"},
    {"HOME", ENG_ENV_NEUTRAL, "where the cache lives when XDG_CACHE_HOME is unset"},
    {NULL, ENG_ENV_NEUTRAL, NULL},
};

const struct eng_env_entry *eng_cache_env_find(const char *name)
{
    for (size_t i = 0; eng_cache_env[i].name; i++)
        if (strcmp(eng_cache_env[i].name, name) == 0)
            return &eng_cache_env[i];
    return NULL;
}

#define MAX_UNLISTED 32
static const char *unlisted[MAX_UNLISTED];
static size_t nunlisted;
static pthread_mutex_t unlisted_lock = PTHREAD_MUTEX_INITIALIZER;

const char *eng_compile_getenv(const char *name)
{
    if (!eng_cache_env_find(name)) {
        pthread_mutex_lock(&unlisted_lock);
        bool seen = false;
        for (size_t i = 0; i < nunlisted && !seen; i++)
            seen = strcmp(unlisted[i], name) == 0;
        if (!seen && nunlisted < MAX_UNLISTED)
            unlisted[nunlisted++] = xstrdup(name);
        pthread_mutex_unlock(&unlisted_lock);
    }
    return getenv(name);
}

bool eng_compile_cache_enabled(void)
{
    const char *v = eng_compile_getenv("KLADDER_NO_CACHE");
    return !(v && *v && strcmp(v, "0") != 0);
}

double eng_compile_limit_s(void)
{
    const char *v = eng_compile_getenv("KLADDER_COMPILE_TIMEOUT");
    char *end;
    double s = v && *v ? strtod(v, &end) : 0;
    return v && *v && *end == '\0' && s > 0 && s <= 86400 ? s : 600;
}

size_t eng_cache_env_unlisted(const char **out, size_t max)
{
    pthread_mutex_lock(&unlisted_lock);
    size_t n = nunlisted;
    for (size_t i = 0; i < n && i < max; i++)
        out[i] = unlisted[i];
    pthread_mutex_unlock(&unlisted_lock);
    return n;
}

static const char *plain_getenv(const char *name, void *arg)
{
    (void)arg;
    return getenv(name);
}

char *eng_cache_env_text(eng_env_get_fn get, void *arg)
{
    if (!get)
        get = plain_getenv;
    char *text = xstrdup("");
    for (size_t i = 0; eng_cache_env[i].name; i++) {
        if (eng_cache_env[i].role != ENG_ENV_KEY)
            continue;
        const char *v = get(eng_cache_env[i].name, arg);
        char *next = v ? xasprintf("%s%s=%s\n", text, eng_cache_env[i].name, v)
                       : xasprintf("%s%s unset\n", text, eng_cache_env[i].name);
        free(text);
        text = next;
    }
    return text;
}

char **eng_compile_child_env(void)
{
    size_t n = 0;
    while (eng_cache_env[n].name)
        n++;
    char **env = xcalloc(n + 1, sizeof *env);
    size_t k = 0;
    for (size_t i = 0; i < n; i++) {
        const char *v = getenv(eng_cache_env[i].name);
        if (v)
            env[k++] = xasprintf("%s=%s", eng_cache_env[i].name, v);
    }
    return env;
}

void eng_compile_child_env_free(char **env)
{
    for (size_t i = 0; env && env[i]; i++)
        free(env[i]);
    free(env);
}
