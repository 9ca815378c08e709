/* The results document that `kladder export` writes and `kladder pull` reads (docs/remote.md):
 *
 *   {"format": "kladder-results", "version": 1,
 *    "exported_by": {"host", "kladder_version", "commit"}, "exported_at": ISO time,
 *    "machines": [...], "runs": [...], "checks": [...]}       (checks carry their run_id)
 *
 * The parser is strict because the document comes from another machine: every object must
 * have exactly its fields (none missing, none unknown, none twice), every value its type and
 * range, strings their length limit and no control character (an escape sequence is refused,
 * never stored), numbers must be finite, ids and times their exact format, every reference must
 * resolve, run UUIDs and (run, seq) pairs must be unique, and a run's times may not lie more than
 * a day past this machine's clock. Verdicts are words of any kind, judged again once the document
 * is read (verdict_derive.h): a run's stored verdict and counts are its checks', the document's
 * word kept in run.exported_verdict. The first problem found is the error, naming the source, the array
 * element and the field. Nothing is partially accepted. A machine's wave_size, compute_units
 * and mem_bytes may be null, "not known", which is read as struct cdb_machine's 0; the 0 that
 * documents of earlier versions wrote there is read the same way. */
#ifndef KL_IMPORTERS_RESULTS_JSON_H
#define KL_IMPORTERS_RESULTS_JSON_H

#include <stdbool.h>
#include <stddef.h>

#include "casedb/merge.h"
#include "casedb/results.h"
#include "casedb/results_query.h"

struct cdb;
struct cJSON;
struct imp_json;

#define IMP_RESULTS_FORMAT "kladder-results"
#define IMP_RESULTS_VERSION 1
/* Longest strings accepted, in bytes; longer is an error, not a silent cut. */
#define IMP_RESULTS_MAX_NAME 256
#define IMP_RESULTS_MAX_TEXT 4096

/* A parsed, validated document. The strings point into `arena`; everything is owned by the
 * document and freed by imp_results_doc_free. runs[i].checks are sorted by seq. */
struct imp_results_doc {
    const char *exported_host;
    const char *exported_version;
    const char *exported_commit; /* may be NULL */
    const char *exported_at;
    struct cdb_machine *machines;
    size_t n_machines;
    struct cdb_merge_run *runs; /* in document order */
    size_t n_runs;
    struct cdb_check *checks;   /* grouped by run, in runs' order */
    size_t n_checks;
    const char *newest_finished; /* max finished over all runs; NULL when no runs */
    /* Verdicts judged again (verdict_derive.h): runs whose stored verdict is not the word their
     * document said (run.exported_verdict keeps that word), and checks whose verdict changed
     * (their detail then begins "exported as ..."). */
    size_t rejudged_runs, rejudged_checks;
    char **owned; /* strings made here (a re-judged check's detail) */
    size_t n_owned;
    struct imp_json *arena; /* importers/json_arena.h */
};

/* Parses and validates len bytes of text. name is the source used in messages (a URL or path;
 * it is sanitised; NULL: the caller names the source itself, and messages do not). A page of
 * HTML (a login or error page served instead of the document) is named as such, not as a JSON
 * syntax error. Returns 0, or -1 with the message in err and *out empty. */
int imp_results_parse(const char *text, size_t len, const char *name, struct imp_results_doc *out,
                      char *err, size_t errlen);
void imp_results_doc_free(struct imp_results_doc *d);

/* True for "YYYY-MM-DDTHH:MM:SSZ" with valid ranges. */
bool imp_iso_time_valid(const char *s);
/* True for a lower-case RFC 4122 text UUID (8-4-4-4-12 hex digits). */
bool imp_uuid_valid(const char *s);

/* What to export. */
struct imp_export_opts {
    const char *since;  /* NULL: everything; a run UUID: runs recorded after it; an ISO time or
                           a date (YYYY-MM-DD): runs finished at or after it */
    bool include_pulled; /* also runs pulled from other hosts (default: only runs made here) */
};

/* Writes the document for db into a malloc'd string (*out, *len). */
int imp_results_export(struct cdb *db, const struct imp_export_opts *o, char **out, size_t *len,
                       char *err, size_t errlen);

/* JSON objects of the document's shape (caller deletes them); the CLI's --json output uses
 * them too, so both speak the same field names. Strings are sanitised on the way out. A
 * machine's object is imp_machine_json (machine_json.h). */
/* with_machine: a "machine" object and "origin" (for `kladder results`); else "machine_id"
 * (for the export document). */
struct cJSON *imp_run_to_json(const struct cdb_run_info *ri, bool with_machine);
struct cJSON *imp_check_to_json(const struct cdb_check *c, bool with_run_id);

#endif
