/* The one JSON form of a machine (struct cdb_machine), for every document kladder writes that
 * holds one; the export document and `kladder results --json` (results_json.c) write machines
 * with it. Field names are those of docs/remote.md.
 *
 * A value that is not known is null, never 0: wave_size, compute_units and mem_bytes when they
 * are 0 or less (struct cdb_machine's "unknown"), the three versions, the two partitions and the
 * commit when NULL. host, backend, device, target and kladder_version are always strings (NULL
 * is written as ""). Strings are sanitised, so the object passes the strict parser of
 * results_json.h, which reads null, and the 0 of documents written before, as unknown. */
#ifndef KL_IMPORTERS_MACHINE_JSON_H
#define KL_IMPORTERS_MACHINE_JSON_H

#include "casedb/results.h"

struct cJSON;

/* A new object; the caller owns it (cJSON_Delete, or adds it to another object). m is only read
 * during the call. */
struct cJSON *imp_machine_json(const struct cdb_machine *m);

#endif
