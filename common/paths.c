#include "common/paths.h"

#include <stdlib.h>

#include "common/xalloc.h"

static char *xdg_dir(const char *var, const char *fallback)
{
    const char *v = getenv(var);
    if (v && v[0] == '/') /* the spec says relative values are invalid and must be ignored */
        return xasprintf("%s/kladder", v);
    const char *home = getenv("HOME");
    return xasprintf("%s/%s/kladder", home && *home ? home : ".", fallback);
}

char *paths_data_dir(void)
{
    return xdg_dir("XDG_DATA_HOME", ".local/share");
}

char *paths_cache_dir(void)
{
    return xdg_dir("XDG_CACHE_HOME", ".cache");
}

char *paths_config_dir(void)
{
    return xdg_dir("XDG_CONFIG_HOME", ".config");
}

char *paths_state_dir(void)
{
    return xdg_dir("XDG_STATE_HOME", ".local/state");
}

char *paths_default_db(void)
{
    char *dir = paths_data_dir();
    char *db = xasprintf("%s/kladder.db", dir);
    free(dir);
    return db;
}
