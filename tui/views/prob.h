/* The probability helper of the detail view, kept free of curses so it can be tested alone.
 *
 * A timing bug that shows f times in t trials has a per-call probability p = f / t. N
 * independent calls catch it at least once with probability P(N) = 1 - (1 - p)^N. For the
 * tiny p of real races (7 in 292,889,600) the naive formula loses every digit to rounding, so
 * everything here goes through log1p/expm1. */
#ifndef KL_TUI_PROB_H
#define KL_TUI_PROB_H

#include <stddef.h>

/* p = failures / trials, clamped to [0, 1]; 0 when trials <= 0. */
double tui_prob_rate(double failures, double trials);

/* P(N) = 1 - (1 - p)^N, for p in [0, 1] and N >= 0. */
double tui_prob_catch(double p, double n);

/* The smallest whole N with P(N) >= target (0 < target < 1). Returns 1 for p >= 1 and
 * HUGE_VAL (infinity) for p <= 0 (no number of calls ever catches it). */
double tui_prob_calls_for(double p, double target);

/* Writes P as a percentage a person can read: "6.7%", "0.0024%", "99.995%" (never rounds a
 * value below 1 up to "100%"), "100%" only for exactly 1, "0%" only for exactly 0. */
void tui_prob_format_pct(double prob, char *buf, size_t len);

/* Writes a count with thousands separators ("292,889,600"); from 10^15 on with three significant
 * digits ("1,230,000,000,000,000,000"), past 10^24 as "about 10^27"; never in e-notation;
 * infinity as "never". */
void tui_prob_format_count(double n, char *buf, size_t len);

/* The next larger / smaller N of the 1-2-5 series (1, 2, 5, 10, 20, ...), within
 * [1, TUI_PROB_N_MAX]. */
#define TUI_PROB_N_MAX 1e15
double tui_prob_step(double n, int dir);

#endif
