#include "engine/backend/devices.h"

#include <stdio.h>
#include <string.h>

static void add_str(cJSON *o, const char *k, const char *v)
{
    if (v && *v)
        cJSON_AddStringToObject(o, k, v);
    else
        cJSON_AddNullToObject(o, k);
}

static void add_num(cJSON *o, const char *k, double v)
{
    if (v > 0)
        cJSON_AddNumberToObject(o, k, v);
    else
        cJSON_AddNullToObject(o, k); /* unknown is n/a, never 0 */
}

static cJSON *device_json(const struct eng_device_info *d)
{
    cJSON *o = cJSON_CreateObject();
    cJSON_AddNumberToObject(o, "index", d->index);
    add_str(o, "name", d->name);
    add_str(o, "target", d->target);
    add_str(o, "target_full", d->target_full);
    add_num(o, "wave_size", d->wave_size);
    add_num(o, "compute_units", d->compute_units);
    add_num(o, "mem_bytes", (double)d->mem_bytes);
    add_num(o, "max_threads_per_block", d->max_threads_per_block);
    add_num(o, "shared_mem_per_block", d->shared_mem_per_block);
    add_str(o, "pci_bus_id", d->pci_bus_id);
    add_str(o, "driver_version", d->driver_version);
    add_str(o, "runtime_version", d->runtime_version);
    add_str(o, "compiler_version", d->compiler_version);
    add_str(o, "compute_partition", d->compute_partition);
    add_str(o, "memory_partition", d->memory_partition);
    return o;
}

cJSON *eng_devices_json(const char *only)
{
    cJSON *arr = cJSON_CreateArray();
    for (size_t i = 0; eng_backends[i]; i++) {
        const struct eng_backend *b = eng_backends[i];
        if (only && strcmp(only, b->name) != 0)
            continue;
        cJSON *o = cJSON_CreateObject();
        cJSON_AddStringToObject(o, "backend", b->name);
        char why[512] = "";
        int count = 0;
        bool ok = b->load(why, sizeof why) == 0;
        if (ok && b->device_count(&count, why, sizeof why) != 0)
            ok = false;
        if (ok && count == 0) {
            ok = false;
            snprintf(why, sizeof why, "the %s runtime loaded but reports no devices", b->name);
        }
        cJSON_AddBoolToObject(o, "available", ok);
        if (ok)
            cJSON_AddNullToObject(o, "reason");
        else
            cJSON_AddStringToObject(o, "reason", why[0] ? why : "unavailable");
        cJSON *devs = cJSON_AddArrayToObject(o, "devices");
        for (int d = 0; ok && d < count; d++) {
            struct eng_device_info info;
            memset(&info, 0, sizeof info);
            char err[512];
            if (b->device_info(d, &info, err, sizeof err) != 0) {
                cJSON *e = cJSON_CreateObject();
                cJSON_AddNumberToObject(e, "index", d);
                cJSON_AddStringToObject(e, "error", err);
                cJSON_AddItemToArray(devs, e);
                continue;
            }
            info.index = d;
            cJSON_AddItemToArray(devs, device_json(&info));
        }
        cJSON_AddItemToArray(arr, o);
    }
    return arr;
}

static void get_s(const cJSON *j, const char *k, char *out, size_t n)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(j, k);
    snprintf(out, n, "%s", cJSON_IsString(v) ? v->valuestring : "");
}

static double get_n(const cJSON *j, const char *k)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(j, k);
    return cJSON_IsNumber(v) ? v->valuedouble : 0;
}

void eng_device_info_from_json(const cJSON *j, struct eng_device_info *d)
{
    memset(d, 0, sizeof *d);
    d->index = (int)get_n(j, "index");
    get_s(j, "name", d->name, sizeof d->name);
    get_s(j, "target", d->target, sizeof d->target);
    get_s(j, "target_full", d->target_full, sizeof d->target_full);
    d->wave_size = (int)get_n(j, "wave_size");
    d->compute_units = (int)get_n(j, "compute_units");
    d->mem_bytes = (int64_t)get_n(j, "mem_bytes");
    d->max_threads_per_block = (int)get_n(j, "max_threads_per_block");
    d->shared_mem_per_block = (int)get_n(j, "shared_mem_per_block");
    get_s(j, "pci_bus_id", d->pci_bus_id, sizeof d->pci_bus_id);
    get_s(j, "driver_version", d->driver_version, sizeof d->driver_version);
    get_s(j, "runtime_version", d->runtime_version, sizeof d->runtime_version);
    get_s(j, "compiler_version", d->compiler_version, sizeof d->compiler_version);
    get_s(j, "compute_partition", d->compute_partition, sizeof d->compute_partition);
    get_s(j, "memory_partition", d->memory_partition, sizeof d->memory_partition);
}
