/* The in-memory form of one case of the index, of a gap and of a rung, shared by the importer
 * (which fills them from the JSON files in data/ or from a cases file given on the command line),
 * casedb (which stores and loads them) and the views. All strings are UTF-8 with no control
 * characters (the importer refuses any; '\n' is allowed only in the longer texts: summaries,
 * catch_*, notes and a rung's runs_*). A struct owns every pointer in it; cdb_case_free()
 * releases them. */
#ifndef KL_CASEDB_CASE_H
#define KL_CASEDB_CASE_H

#include <stdbool.h>
#include <stddef.h>

#define CDB_GAPS 7
/* The highest rung number the database keeps, in the case index (data/rungs.json) and in the
 * results. The ladder itself is as long as the engine's rung table (engine/rung.h) and the
 * index make it: eight today, a built-in rung more by one file. The bound only keeps a
 * number from outside (an edited index, a pulled document) sane, and the TUI's per-rung rows
 * small; it matches the room a suite has for rungs (engine/manifest.h, ENG_RUNG_SLOTS - 1). */
#define CDB_RUNG_MAX 15

/* One issue or pull request the case rests on, e.g. "aiter#6402". */
struct cdb_ref {
    char *ref;       /* "aiter#6402": lower-case repo, '#', number */
    char *repo;      /* "aiter" */
    int number;      /* 6402 */
    char *url;       /* https URL of the thread */
    char *kind;      /* "issue", "pr", or NULL when not confirmed */
    char *state;     /* "open", "closed", "merged", "merged-reverted"... or NULL */
    char *date;      /* "YYYY-MM-DD" opened, or NULL */
    char *title;     /* the title as published, or NULL when not confirmed */
    bool verified;   /* checked against the public tracker */
};

/* A number the source gives, e.g. value "332,463", label "non-finite values at 8192×151936". */
struct cdb_figure {
    char *value;
    char *label_en;
    char *label_zh;
};

/* An observed failure rate, for the probability helper: failures in trials. */
struct cdb_rate {
    double failures;
    double trials;
    char *label_en;
    char *label_zh;
};

struct cdb_case {
    char *id;         /* "aiter-6402": repo of the first ref, '-', its number */
    char *repo;       /* repo of the first ref */
    char *arch;       /* "gfx1250", "gfx950", "any"... */
    int gap;          /* primary gap 1..7 */
    int *gaps;        /* secondary gaps, each 1..7, never the primary */
    size_t n_gaps;
    int rung;         /* lowest rung that catches it, 1..CDB_RUNG_MAX */
    char **symptoms;  /* tags from the fixed list (cdb_symptom_tags) */
    size_t n_symptoms;
    char **models;    /* model names, may be empty */
    size_t n_models;
    struct cdb_ref *refs; /* at least one */
    size_t n_refs;
    struct cdb_figure *figures;
    size_t n_figures;
    struct cdb_rate *rates; /* may be empty; timing cases have some */
    size_t n_rates;
    char **related;   /* ids of related cases */
    size_t n_related;
    char *title_en, *title_zh;
    char *summary_en, *summary_zh;
    char *catch_en, *catch_zh; /* the test that would have caught it */
    char *notes;      /* why the grouping differs, sources..., or NULL */
    char *reproducer; /* suite name of the built-in reproducer, or NULL */
    bool verified;    /* every ref verified */
};

struct cdb_gap {
    int n;            /* 1..7 */
    char *key;        /* "shape", "data", "contract", "environment", "timing", "scale", "software" */
    char *name_en, *name_zh;
    char *summary_en, *summary_zh;
};

struct cdb_rung {
    int n;            /* 1..CDB_RUNG_MAX */
    char *key;        /* "boundary", ... */
    char *name_en, *name_zh;
    char *runs_en, *runs_zh;   /* what the rung runs */
    int *closes;      /* gaps (1..7) this rung closes */
    size_t n_closes;
};

/* The fixed symptom vocabulary, NULL-terminated. */
extern const char *const cdb_symptom_tags[];
bool cdb_symptom_known(const char *tag);

void cdb_case_free(struct cdb_case *c);   /* frees members, not c itself */
void cdb_gap_free(struct cdb_gap *g);
void cdb_rung_free(struct cdb_rung *r);

#endif
