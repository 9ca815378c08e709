/* A machine as JSON (machine_json.h). */
#include "importers/machine_json.h"

#include <cJSON.h>
#include <math.h>

#include "importers/json_util.h"

static const char *nz(const char *s)
{
    return s ? s : "";
}

/* struct cdb_machine keeps "unknown" as 0; a document says it with null. */
static double known(int64_t v)
{
    return v > 0 ? (double)v : (double)NAN;
}

cJSON *imp_machine_json(const struct cdb_machine *m)
{
    cJSON *o = cJSON_CreateObject();
    imp_json_add_str(o, "id", m->id, false);
    imp_json_add_str(o, "host", nz(m->host), false);
    imp_json_add_str(o, "backend", nz(m->backend), false);
    imp_json_add_str(o, "device", nz(m->device), false);
    imp_json_add_str(o, "target", nz(m->target), false);
    imp_json_add_num(o, "wave_size", known(m->wave_size));
    imp_json_add_num(o, "compute_units", known(m->compute_units));
    imp_json_add_num(o, "mem_bytes", known(m->mem_bytes));
    imp_json_add_str(o, "driver_version", m->driver_version, false);
    imp_json_add_str(o, "runtime_version", m->runtime_version, false);
    imp_json_add_str(o, "compiler_version", m->compiler_version, false);
    imp_json_add_str(o, "compute_partition", m->compute_partition, false);
    imp_json_add_str(o, "memory_partition", m->memory_partition, false);
    imp_json_add_str(o, "kladder_version", nz(m->kladder_version), false);
    imp_json_add_str(o, "kladder_commit", m->kladder_commit, false);
    return o;
}
