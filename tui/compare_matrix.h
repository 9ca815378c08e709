/* More than two machines in one comparison: checks x hosts, each host judged against one
 * baseline host with the two-sided rules (casedb/results_query.h: repeats, spreads, the 5%
 * noise band, 4x), so a mark means what it means in a two-host comparison. Built from one
 * two-sided comparison per other host (baseline against it); rows are the union of their
 * keys. Pure (no curses, no printing): `kladder compare A B C ...` and the Compare view read
 * the same matrix. */
#ifndef KL_TUI_COMPARE_MATRIX_H
#define KL_TUI_COMPARE_MATRIX_H

#include <stdbool.h>
#include <stddef.h>

#include "casedb/results_query.h"

struct cmp_matrix_row {
    int rung;
    const char *suite, *check, *shape, *variant;
    const struct cdb_compare_cell *base; /* the baseline's cell; NULL: not run there */
    /* vs[i]: the baseline-against-host i+1 row of this key, NULL when neither ran it */
    const struct cdb_compare_row **vs;
    int standing_out; /* how many hosts stand out against the baseline (cmp_stands_out) */
};

struct cmp_matrix {
    size_t n_hosts;             /* the baseline is host 0 */
    struct cdb_compare *pair;   /* n_hosts - 1: baseline (a) against host i+1 (b) */
    struct cmp_matrix_row *rows; /* in key order */
    size_t n;
};

/* Takes ownership of the n_hosts - 1 comparisons in pair (malloc'd; each a baseline against
 * one host) and builds the rows. */
void cmp_matrix_build(struct cmp_matrix *m, struct cdb_compare *pair, size_t n_hosts);
void cmp_matrix_free(struct cmp_matrix *m);

/* Host h's row against the baseline (h >= 1), or NULL. */
const struct cdb_compare_row *cmp_matrix_vs(const struct cmp_matrix_row *r, size_t h);
/* Host h's cell (h 0 is the baseline), or NULL when it did not run the check. */
const struct cdb_compare_cell *cmp_matrix_cell(const struct cmp_matrix_row *r, size_t h);

/* Which rows, in which order. */
enum cmp_matrix_sort {
    CMP_MATRIX_NAME,    /* key order */
    CMP_MATRIX_DIFFERS, /* rows where the most hosts stand out first */
    CMP_MATRIX_RATIO,   /* rows where sort_host is slowest against the baseline first */
};
struct cmp_matrix_select {
    bool only_flagged;  /* rows where some host stands out (differs_host, when >= 1) */
    int differs_host;   /* -1: any host */
    int sort_host;      /* the host (>= 1) CMP_MATRIX_RATIO sorts by */
    const char *text;   /* NULL or "": any; else a case-insensitive substring of a name */
    enum cmp_matrix_sort sort;
};
/* Writes the kept rows' indexes into idx (room for m->n), returns how many. Ties keep key
 * order; rows without the sort key go last. */
size_t cmp_matrix_select_rows(const struct cmp_matrix *m, const struct cmp_matrix_select *sel,
                              size_t *idx);

#endif
