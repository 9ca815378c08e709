/* Reading an end-to-end score out of what an evaluator printed or wrote (rung 8, --e2e).
 *
 * Formats (the --score argument):
 *   lm-eval[:TASK]   an lm-evaluation-harness results JSON: results.TASK["exact_match,strict-match"]
 *                    and n-samples.TASK {original, effective}. Without TASK the results must
 *                    hold exactly one task.
 *   sglang           the few-shot GSM8K script's "Accuracy: x.xxx" line (the last one), and its
 *                    "Invalid: x.xxx" line when there is one.
 *   regex:PATTERN    a POSIX extended regular expression; its first group (or the whole match
 *                    when it has none) of the last match is the score.
 * Nothing here runs anything or judges the score (engine/rungs/rung8_e2e_gate.h does). */
#ifndef KL_ENGINE_RUNG8_E2E_SCORE_H
#define KL_ENGINE_RUNG8_E2E_SCORE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum eng_score_kind { ENG_SCORE_LM_EVAL, ENG_SCORE_SGLANG, ENG_SCORE_REGEX };

struct eng_score_format {
    enum eng_score_kind kind;
    char arg[256];          /* lm-eval: the task ("" = the only one); regex: the pattern */
};

struct eng_score {
    double score;
    double invalid;         /* fraction of answers the evaluator could not parse; NAN unknown */
    int64_t samples;        /* questions scored (lm-eval: effective); -1 unknown */
    int64_t samples_full;   /* questions the task has (lm-eval: original); -1 unknown */
    char metric[128];       /* "gsm8k exact_match,strict-match", "Accuracy", "regex" */
};

/* Parses a --score argument. 0, or -1 with a message saying what is accepted. */
int eng_score_format_parse(const char *text, struct eng_score_format *f, char *err,
                           size_t errlen);

/* Reads the score from text (an evaluator's output, or a results file's contents). 0, or -1
 * with a message saying what was looked for and not found (the caller adds the output's last
 * lines). A score that is not a finite number is an error; lm-eval and sglang scores must lie
 * in [0, 1]. */
int eng_score_read(const struct eng_score_format *f, const char *text, struct eng_score *out,
                   char *err, size_t errlen);

#endif
