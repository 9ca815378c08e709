/* The list of backends the engine knows: empty until the program's top hands the table in
 * (engine/tables/backends.c), so this layer never links to the backends above it. */
#include "engine/backend/backend.h"

#include <string.h>

static const struct eng_backend *const none[] = {NULL};
const struct eng_backend *const *eng_backends = none;

void eng_backend_use_table(const struct eng_backend *const *table)
{
    eng_backends = table ? table : none;
}

const struct eng_backend *eng_backend_find(const char *name)
{
    for (size_t i = 0; name && eng_backends[i]; i++)
        if (strcmp(eng_backends[i]->name, name) == 0)
            return eng_backends[i];
    return NULL;
}

const struct eng_backend *eng_backend_emulator(void)
{
    for (size_t i = 0; eng_backends[i]; i++)
        if (eng_backends[i]->caps.emulated)
            return eng_backends[i];
    return NULL;
}
