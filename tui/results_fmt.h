/* How results look on screen: a verdict as a glyph, a name and a colour, a time, a ratio. The
 * Runs list, a run's checks, the live run, Compare and the Dashboard all show results, and a
 * verdict or a time must read the same in each of them, so they format through here alone. */
#ifndef KL_TUI_RESULTS_FMT_H
#define KL_TUI_RESULTS_FMT_H

#include <stdbool.h>
#include <stddef.h>

#include "tui/theme.h"

/* A verdict (enum cdb_verdict) as one cell: ✓ ✗ ⧗ ! - ⊘ …, or + x H ! - c . when the locale is
 * not UTF-8 (tui_draw_ascii); "?" for a number that is no verdict. Static text. */
const char *tui_verdict_glyph(int verdict);
/* The theme role that colours it: ok for pass, fail for fail/hang/error, warn for
 * cancelled/running, dim for the rest. */
enum tui_role tui_verdict_role(int verdict);
/* The glyph and the name, as verdict columns show them: "✓ pass", or with zh the Chinese word
 * ("✓ 通过"). */
void tui_fmt_verdict_lang(int verdict, bool zh, char *buf, size_t len);
/* A run's verdict as verdict columns show it: tui_fmt_verdict_lang's, or for a `kladder exec`
 * run (exec_verdict not NULL: results_query.h) the run's glyph with exec's own word, "✗
 * finding", "✗ crash", which says more than "fail". */
void tui_fmt_run_verdict(int verdict, const char *exec_verdict, bool zh, char *buf, size_t len);
/* The verdict's word alone, in English or Chinese ("pass", "通过"); "?" for no verdict. */
const char *tui_verdict_word(int verdict, bool zh);
/* Checks per verdict (counts indexed by enum cdb_verdict, CDB_VERDICT_COUNT entries) in words,
 * most telling first: "1 failed, 5 passed", "1 项失败，5 项通过"; "-" when all are zero. A count
 * with a word reads at a glance where "✗ fail 6✓" had to be decoded. */
void tui_fmt_counts(const int *counts, bool zh, char *buf, size_t len);
/* The same for a run that ran buggy variants: of the failed and the hung checks, caught_fail and
 * caught_hang are a buggy variant caught as intended and read "17 bugs caught" ("捕获 17 个缺
 * 陷"), after what really failed: "17 bugs caught, 37 passed" for a run that met every
 * expectation, where "17 failed, 37 passed" read as a failing run. */
void tui_fmt_counts_caught(const int *counts, int caught_fail, int caught_hang, bool zh,
                           char *buf, size_t len);
/* A run's checks as tui_fmt_counts_caught says them; a run that failed although every check
 * passed or skipped and no bug was caught says why: "6 passed; the bug was not caught" (its
 * buggy variant got through), where "✗ fail · 6 passed" read as a contradiction. In a run that
 * passed, every check that failed or hung met its expectation (a buggy variant, or a user
 * suite's unit test catching the bug): all are "caught", never "✓ pass · 4 failed". */
void tui_fmt_run_counts(const int *counts, int caught_fail, int caught_hang, int run_verdict,
                        bool zh, char *buf, size_t len);
/* The rungs of a run (bits of cdb_run_info.rungs) as "5" or "1,2,3,5"; "-" when none. */
void tui_fmt_rungs(unsigned rungs, char *buf, size_t len);

/* Microseconds as a short text: "12.3 us", "4.56 ms", "1.20 s"; "n/a" for NAN (not measured). */
void tui_fmt_us(double us, char *buf, size_t len);

#endif
