/* The machine fingerprint recorded with every run: host, backend, device, target id, wave size,
 * CUs/SMs, memory, driver/runtime/compiler versions, AMD partition modes (from the backend's
 * device_info, which reads sysfs), and kladder's own version and commit. */
#ifndef KL_ENGINE_FINGERPRINT_H
#define KL_ENGINE_FINGERPRINT_H

#include "casedb/results.h"
#include "engine/backend/backend.h"

/* Owns the strings the cdb_machine view points at. */
struct eng_machine {
    struct cdb_machine m;
    char host[256];
    char backend[16];
    struct eng_device_info info;
    char target[64];
};

/* Fills out from a device's info; wave overrides the reported wave size (the cpu backend's
 * wave is chosen per run, and its target becomes cpu-wave32 / cpu-wave64). */
void eng_fingerprint(struct eng_machine *out, const char *backend,
                     const struct eng_device_info *info, int wave);

#endif
