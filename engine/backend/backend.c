/* The list of backends, in the order `kladder run` prefers them when none is named. */
#include "engine/backend/backend.h"

#include <string.h>

const struct eng_backend *const eng_backends[] = {&eng_backend_hip, &eng_backend_cuda,
                                                  &eng_backend_cpu, NULL};

const struct eng_backend *eng_backend_find(const char *name)
{
    for (size_t i = 0; name && eng_backends[i]; i++)
        if (strcmp(eng_backends[i]->name, name) == 0)
            return eng_backends[i];
    return NULL;
}
