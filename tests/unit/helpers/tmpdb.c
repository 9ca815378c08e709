#include "tests/unit/helpers/tmpdb.h"

#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

int tmpdb_make(const char *tag, char *path, size_t len)
{
    snprintf(path, len, "/tmp/kl-%.20s-XXXXXX", tag);
    int fd = mkstemp(path);
    if (fd < 0)
        return -1;
    close(fd);
    return 0;
}

void tmpdb_remove(const char *path)
{
    static const char *const suffix[] = {"", "-wal", "-shm", "-journal"};
    for (size_t i = 0; i < sizeof suffix / sizeof suffix[0]; i++) {
        char p[128];
        snprintf(p, sizeof p, "%s%s", path, suffix[i]);
        unlink(p);
    }
}
