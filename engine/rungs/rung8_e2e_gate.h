/* Judging an end-to-end score (rung 8): the evaluator's exit status is never enough, since
 * every common evaluator exits 0 when the model answers garbage.
 *
 * Pass iff all of:
 *   - score >= baseline * (1 - tolerance)            (vLLM's accuracy gate, tolerance 0.08);
 *   - with wilson: the one-sided 95% Wilson lower bound of the score at n samples clears the
 *     same threshold (n must be known);
 *   - the samples scored are the full count: --samples N when given, else the evaluator's own
 *     "original" count when it reports one (a run cut short scores fewer questions);
 *   - the invalid-answer rate, when the evaluator reports one, is at most invalid_max. */
#ifndef KL_ENGINE_RUNG8_E2E_GATE_H
#define KL_ENGINE_RUNG8_E2E_GATE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "engine/rungs/rung8_e2e_score.h"

struct eng_gate {
    double baseline;
    double tolerance;     /* default 0.08 */
    int64_t samples;      /* the full count required; 0 = the evaluator's own when known */
    double invalid_max;   /* default 0.05 */
    bool wilson;
};

/* One-sided Wilson lower bound of a proportion p over n samples at normal quantile z. */
double eng_wilson_lower(double p, int64_t n, double z);

/* true when s passes g; why gets one sentence either way (the score, the threshold and what
 * decided). */
bool eng_gate_judge(const struct eng_gate *g, const struct eng_score *s, char *why, size_t n);

#endif
