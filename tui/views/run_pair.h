/* The run view's paired layout (tui/views/view_run.c, key p): a run's checks regrouped so that each
 * check is one row with its fixed variant beside its buggy one, and the baseline test's pair
 * (baseline-fixed beside baseline-buggy) likewise, with what the pair shows: the buggy variant
 * caught, not caught, or the fixed one failing (a false alarm). Pure (no curses), so
 * tests/unit/test_run_pair.c can check the grouping. */
#ifndef KL_TUI_RUN_PAIR_H
#define KL_TUI_RUN_PAIR_H

#include <stddef.h>

#include "casedb/results.h"

/* What a row's pair shows. */
enum tui_pair_lesson {
    TUI_PAIR_CAUGHT,      /* fixed passed, buggy failed or hung: the check catches the bug */
    TUI_PAIR_NOT_CAUGHT,  /* both passed: the check does not tell them apart */
    TUI_PAIR_FALSE_ALARM, /* the fixed variant failed or hung: the check or the fix is wrong */
    TUI_PAIR_INCOMPLETE,  /* a side is missing, or skipped, errored, cancelled or still running */
};

struct tui_pair_row {
    /* The variant's prefix: "" for fixed/buggy, "baseline" for baseline-fixed/baseline-buggy;
     * a variant of neither form ("user") is its own group, with the check in `other`. */
    const char *group;
    size_t group_len;
    const struct cdb_check *fixed, *buggy, *other; /* NULL where the run has no such check */
};

/* Groups checks[0..n) into rows, in the order each row's first check comes; rows must have room
 * for n rows. Two checks share a row when their rung, suite, check name, shape and group are the
 * same and they fill different sides. Returns the number of rows. */
size_t tui_pair_rows(const struct cdb_check *checks, size_t n, struct tui_pair_row *rows);

enum tui_pair_lesson tui_pair_lesson(const struct tui_pair_row *row);

/* The row holding checks[i], or 0 when there is none. */
size_t tui_pair_row_of(const struct tui_pair_row *rows, size_t nrows, const struct cdb_check *c);

/* The check a row stands for in the detail below the list: the buggy one (it is what a check
 * is written to catch), else the fixed one, else the other. Never NULL for a row made above. */
const struct cdb_check *tui_pair_main(const struct tui_pair_row *row);

#endif
