/* The case index in JSON (data/cases.json, gaps.json, rungs.json; format in data/schema/):
 * parsing with full validation, importing through the casedb sink, and writing a case back
 * as the same JSON object (for `kladder cases --json` and `kladder show --json`).
 *
 * Validation is complete before anything is written: a bad file gets one error naming the file,
 * the case id (or index), the field and what was expected, and the database is left exactly as
 * it was. Every string must be valid UTF-8 without control characters (newlines are allowed in
 * summaries only), so nothing from a case file can drive a terminal. */
#ifndef KL_IMPORTERS_CASE_INDEX_H
#define KL_IMPORTERS_CASE_INDEX_H

#include <stddef.h>

#include "casedb/case.h"

struct cdb;
struct cJSON;

/* The parsed index; owns everything in it. */
struct imp_index {
    struct cdb_case *cases;
    size_t n_cases;
    struct cdb_gap *gaps;
    size_t n_gaps;
    struct cdb_rung *rungs;
    size_t n_rungs;
};

/* Longest string accepted in any field (bytes): longer is an error, never a silent cut. */
#define IMP_MAX_STRING 8192

/* Parses and validates the three documents. name_* are the names used in messages (file paths).
 * Returns 0, or -1 with the message in err (and *out empty). */
int imp_index_parse(const char *cases_json, const char *name_cases, const char *gaps_json,
                    const char *name_gaps, const char *rungs_json, const char *name_rungs,
                    struct imp_index *out, char *err, size_t errlen);
void imp_index_free(struct imp_index *ix);

/* Replaces the database's index with ix in one transaction. */
int imp_index_store(struct cdb *db, const struct imp_index *ix, char *err, size_t errlen);

/* Imports the index at cases_path (NULL: the built-in copy) into db, records where it came from
 * and a hash of what was imported in the database's meta table. */
int imp_index_import(struct cdb *db, const char *cases_path, char *err, size_t errlen);

/* Makes sure db holds an index: imports the built-in copy when the database has none, or when
 * its index came from the built-in copy of another kladder build (so an upgrade brings the new
 * index). An index imported from a file is left alone. */
int imp_index_ensure(struct cdb *db, char *err, size_t errlen);

/* A new cJSON object with the fields of data/cases.json for c (caller deletes it). */
struct cJSON *imp_case_to_json(const struct cdb_case *c);

#endif
