/* The rung 8 score gate (engine/rungs/rung8_e2e_gate.h). */
#include "engine/rungs/rung8_e2e_gate.h"

#include <math.h>
#include <stdio.h>

/* z of the one-sided 95% bound, as vLLM's gate uses */
#define WILSON_Z 1.6449

double eng_wilson_lower(double p, int64_t n, double z)
{
    if (n <= 0)
        return NAN;
    double nn = (double)n, z2 = z * z;
    double centre = p + z2 / (2 * nn);
    double spread = z * sqrt(p * (1 - p) / nn + z2 / (4 * nn * nn));
    return (centre - spread) / (1 + z2 / nn);
}

bool eng_gate_judge(const struct eng_gate *g, const struct eng_score *s, char *why, size_t n)
{
    double threshold = g->baseline * (1 - g->tolerance);
    int len = snprintf(why, n, "%s %.4f, baseline %.4f, threshold %.4f (tolerance %g)",
                       s->metric, s->score, g->baseline, threshold, g->tolerance);
    size_t l = len > 0 && (size_t)len < n ? (size_t)len : n ? n - 1 : 0;
    if (s->samples >= 0)
        l += (size_t)snprintf(why + l, n - l, ", %lld samples", (long long)s->samples);
    if (l >= n)
        return false;
    int64_t full = g->samples > 0 ? g->samples : s->samples_full;
    /* An evaluator that reports no count (the sglang script) scores every question it was
     * asked, wrong answers included: the count given is the count. */
    int64_t count = s->samples >= 0 ? s->samples : g->samples > 0 ? g->samples : -1;
    if (full > 0 && s->samples >= 0 && s->samples != full) {
        snprintf(why + l, n - l, ": %lld of %lld samples were scored (a partial run proves "
                 "nothing)", (long long)s->samples, (long long)full);
        return false;
    }
    if (!isnan(s->invalid) && s->invalid > g->invalid_max) {
        snprintf(why + l, n - l, ": invalid answers %.4f above the limit %g", s->invalid,
                 g->invalid_max);
        return false;
    }
    if (s->score < threshold) {
        snprintf(why + l, n - l, ": below the threshold (the exit status does not count)");
        return false;
    }
    if (g->wilson) {
        if (count <= 0 || s->score < 0 || s->score > 1) {
            snprintf(why + l, n - l, ": the Wilson bound needs a proportion in [0, 1] and a "
                     "sample count (--samples N)");
            return false;
        }
        double lo = eng_wilson_lower(s->score, count, WILSON_Z);
        if (lo < threshold) {
            snprintf(why + l, n - l, ": the 95%% Wilson lower bound %.4f is below the threshold",
                     lo);
            return false;
        }
        snprintf(why + l, n - l, ": the 95%% Wilson lower bound %.4f clears the threshold", lo);
        return true;
    }
    snprintf(why + l, n - l, ": at or above the threshold");
    return true;
}
