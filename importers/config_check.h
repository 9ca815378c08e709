/* Checking tuned-config CSV tables against a schema (kladder check-config): the failure class
 * of aiter-6360, where a merge of tuning files wrote integer columns as floats ("1.0") and the
 * dispatch lookup, keyed on integers, never found the rows again.
 *
 * A schema is JSON: {"format": "kladder-config-schema", "version": 1,
 *   "columns": {"cu_num": "int", "M": "int", "kernel": "string", "us": "float"},
 *   "key": ["cu_num", "M"], "defaults": {"ep": "0"}}
 * "defaults" names columns a file may leave out (the merge fills them in, as the library's own
 * merge does) and the value they then have.
 * Every problem found is passed to the report's say() as one line "PATH:LINE: what"; a
 * problem never stops the checks that can still run. */
#ifndef KL_IMPORTERS_CONFIG_CHECK_H
#define KL_IMPORTERS_CONFIG_CHECK_H

#include <stddef.h>

#include "importers/csv_read.h"

enum cfg_type { CFG_INT, CFG_FLOAT, CFG_STRING };

struct cfg_schema {
    size_t ncols;
    char **names;
    enum cfg_type *types;
    char **defaults;      /* per column: the value a file without that column has, or NULL
                           * (the column is then required) */
    size_t nkey;
    size_t *key;          /* indexes into names */
};

struct cfg_report {
    void (*say)(void *arg, const char *line);
    void *arg;
    size_t problems;
    size_t missing;   /* cfg_check_lookup: rows of src found nowhere in dst (every one, also
                       * past the 20 it names one by one), so a caller can say "M of N" */
};

/* 0, or -1 with "PATH: FIELD: expected ..." in err. Free with cfg_schema_free. */
int cfg_schema_parse(const char *text, size_t len, const char *path, struct cfg_schema *out,
                     char *err, size_t errlen);
void cfg_schema_free(struct cfg_schema *s);

/* The table's columns are the schema's (no missing, no unknown); every cell has its column's
 * type (an int column holds whole numbers written as such: "64", never "64.0"); no cell is
 * empty; no key appears twice. */
void cfg_check_table(const struct cfg_schema *s, const struct csv_table *t, const char *path,
                     struct cfg_report *r);

/* The dispatch lookup: every row of src is found in dst by its key, compared by type (an int
 * cell that does not parse as an int matches nothing, as in a lookup keyed on integers), and
 * the found row holds the same values. */
void cfg_check_lookup(const struct cfg_schema *s, const struct csv_table *src,
                      const char *src_path, const struct csv_table *dst, const char *dst_path,
                      struct cfg_report *r);

/* Merges the tables (rows in order; a key already seen is reported as a duplicate across
 * files, and the later row wins) and writes the result as CSV text in the schema's column
 * order. malloc'd. */
char *cfg_merge_write(const struct cfg_schema *s, const struct csv_table *const *tabs,
                      const char *const *paths, size_t n, struct cfg_report *r);

#endif
