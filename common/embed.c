#include "common/embed.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/fileio.h"
#include "common/xalloc.h"

const struct embed_file *embed_find(const char *path)
{
    for (const struct embed_file *f = embed_files; f->path; f++)
        if (strcmp(f->path, path) == 0)
            return f;
    return NULL;
}

char *embed_load(const char *dir, const char *name, size_t *len, char *err, size_t errlen)
{
    if (dir) {
        const char *rest = strchr(name, '/');
        rest = rest ? rest + 1 : name;
        size_t n = strlen(dir) + strlen(rest) + 2;
        char *path = xmalloc(n);
        snprintf(path, n, "%s/%s", dir, rest);
        char *buf = file_read_all(path, len, err, errlen);
        free(path);
        return buf;
    }
    const struct embed_file *f = embed_find(name);
    if (!f) {
        snprintf(err, errlen, "%s: not built into this binary", name);
        return NULL;
    }
    char *buf = xmalloc(f->size + 1);
    memcpy(buf, f->data, f->size + 1);
    if (len)
        *len = f->size;
    return buf;
}
