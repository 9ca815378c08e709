/* What `kladder devices` reports: every backend, whether it loads, why not, and its devices. */
#ifndef KL_ENGINE_DEVICES_H
#define KL_ENGINE_DEVICES_H

#include <cJSON.h>

#include "engine/backend/backend.h"

/* An array [{backend, available, reason, devices: [{index, name, target, ...}]}] in backend
 * preference order: every backend, or only the one called `only` (NULL: all). Loads them in
 * this process. Caller frees with cJSON_Delete. */
cJSON *eng_devices_json(const char *only);

/* Reads one device object of that array back. */
void eng_device_info_from_json(const cJSON *j, struct eng_device_info *out);

#endif
