#include "engine/machine/fingerprint.h"

#include <stdio.h>
#include <string.h>
#include <unistd.h>

void eng_fingerprint(struct eng_machine *out, const char *backend,
                     const struct eng_device_info *info, int wave)
{
    memset(out, 0, sizeof *out);
    if (gethostname(out->host, sizeof out->host - 1) != 0)
        snprintf(out->host, sizeof out->host, "unknown");
    snprintf(out->backend, sizeof out->backend, "%s", backend);
    out->info = *info;
    const struct eng_backend *B = eng_backend_find(backend);
    bool per_run = B && B->caps.emulated && wave; /* the run chose the wave width */
    if (B)
        B->compile_target(info, per_run ? wave : 0, out->target, sizeof out->target);
    else
        snprintf(out->target, sizeof out->target, "%s", info->target);
    struct cdb_machine *m = &out->m;
    m->host = out->host;
    m->backend = out->backend;
    m->device = out->info.name;
    m->target = out->target;
    m->wave_size = per_run ? wave : info->wave_size;
    m->compute_units = info->compute_units;
    m->mem_bytes = info->mem_bytes;
    m->driver_version = out->info.driver_version;
    m->runtime_version = out->info.runtime_version;
    m->compiler_version = out->info.compiler_version;
    m->compute_partition = out->info.compute_partition[0] ? out->info.compute_partition : NULL;
    m->memory_partition = out->info.memory_partition[0] ? out->info.memory_partition : NULL;
    m->kladder_version = KL_VERSION;
    m->kladder_commit = KL_COMMIT;
    cdb_machine_make_id(m);
}
