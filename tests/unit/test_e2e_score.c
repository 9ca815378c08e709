/* Rung 8's score reading, gate and command splitting (engine/rungs/rung8_e2e_score.h,
 * engine/rungs/rung8_e2e_gate.h, engine/rungs/rung8_e2e_cmd.h): each format finds its score
 * where the evaluator puts it and refuses output without one; the gate fails a low score, a partial run, too many invalid answers, and a
 * score whose Wilson bound does not clear the threshold. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/rungs/rung8_e2e_cmd.h"
#include "engine/rungs/rung8_e2e_gate.h"
#include "engine/rungs/rung8_e2e_score.h"

static const char lm_eval_doc[] =
    "2026-11-30:10:01:02 INFO [evaluator.py:189] Setting random seed to 0\n"
    "{\n"
    "  \"results\": {\"gsm8k\": {\"alias\": \"gsm8k\", \"exact_match,strict-match\": 0.7551,\n"
    "      \"exact_match_stderr,strict-match\": 0.0118, \"exact_match,flexible-extract\": 0.77}},\n"
    "  \"n-samples\": {\"gsm8k\": {\"original\": 1319, \"effective\": 1319}},\n"
    "  \"versions\": {\"gsm8k\": 3.0}\n"
    "}\n"
    "|Tasks|Version|Filter|n-shot|Metric|Value|\n";

static int read_with(const char *fmt, const char *text, struct eng_score *s, char *err)
{
    struct eng_score_format f;
    assert_int_equal(eng_score_format_parse(fmt, &f, err, 512), 0);
    return eng_score_read(&f, text, s, err, 512);
}

static void lm_eval_json_in_output(void **state)
{
    (void)state;
    struct eng_score s;
    char err[512];
    assert_int_equal(read_with("lm-eval", lm_eval_doc, &s, err), 0);
    assert_true(fabs(s.score - 0.7551) < 1e-12);
    assert_int_equal(s.samples, 1319);
    assert_int_equal(s.samples_full, 1319);
    assert_string_equal(s.metric, "gsm8k exact_match,strict-match");
    assert_int_equal(read_with("lm-eval:gsm8k", lm_eval_doc, &s, err), 0);
    assert_int_equal(read_with("lm-eval:mmlu", lm_eval_doc, &s, err), -1);
    assert_non_null(strstr(err, "no task \"mmlu\""));
    /* the flexible-extract figure is not the score: without strict-match there is none */
    assert_int_equal(read_with("lm-eval", "{\"results\": {\"gsm8k\": "
                               "{\"exact_match,flexible-extract\": 0.9}}}", &s, err), -1);
    assert_non_null(strstr(err, "exact_match,strict-match"));
    /* two tasks: which one must be said */
    assert_int_equal(read_with("lm-eval", "{\"results\": {\"a\": {}, \"b\": {}}}", &s, err), -1);
    assert_non_null(strstr(err, "lm-eval:TASK"));
    assert_int_equal(read_with("lm-eval", "Traceback (most recent call last):\n", &s, err), -1);
}

static void lm_eval_partial_run(void **state)
{
    (void)state;
    struct eng_score s;
    char err[512], why[640];
    assert_int_equal(read_with("lm-eval", "{\"results\": {\"gsm8k\": {\"exact_match,strict-match\":"
                               " 0.8}}, \"n-samples\": {\"gsm8k\": {\"original\": 1319, "
                               "\"effective\": 250}}}", &s, err), 0);
    struct eng_gate g = {.baseline = 0.8, .tolerance = 0.08, .invalid_max = 0.05};
    assert_false(eng_gate_judge(&g, &s, why, sizeof why));
    assert_non_null(strstr(why, "250 of 1319 samples"));
    /* a --limit run is whole when the user says so */
    g.samples = 250;
    assert_true(eng_gate_judge(&g, &s, why, sizeof why));
}

static void sglang_lines(void **state)
{
    (void)state;
    struct eng_score s;
    char err[512], why[640];
    const char *out = "100%|##########| 200/200\nAccuracy: 0.100\nInvalid: 0.000\n"
                      "Latency: 12.3 s\nAccuracy: 0.905\nInvalid: 0.250\nOutput throughput: 9\n";
    assert_int_equal(read_with("sglang", out, &s, err), 0);
    assert_true(fabs(s.score - 0.905) < 1e-12); /* the last one */
    assert_true(fabs(s.invalid - 0.25) < 1e-12);
    assert_int_equal(s.samples, -1);
    struct eng_gate g = {.baseline = 0.9, .tolerance = 0.08, .invalid_max = 0.05};
    assert_false(eng_gate_judge(&g, &s, why, sizeof why));
    assert_non_null(strstr(why, "invalid answers 0.2500 above the limit"));
    assert_int_equal(read_with("sglang", "Accuracy: nan\n", &s, err), -1);
    assert_int_equal(read_with("sglang", "Accuracy: 87.5\n", &s, err), -1);
    assert_non_null(strstr(err, "outside [0, 1]"));
    assert_int_equal(read_with("sglang", "accuracy 0.9\n", &s, err), -1);
}

static void regex_format(void **state)
{
    (void)state;
    struct eng_score s;
    char err[512];
    struct eng_score_format f;
    assert_int_equal(read_with("regex:score=([0-9.]+)", "score=0.5\nx\nscore=0.75 (final)\n", &s,
                               err), 0);
    assert_true(fabs(s.score - 0.75) < 1e-12);
    /* a line holding two scores: the later one is the final one */
    assert_int_equal(read_with("regex:score=([0-9.]+)", "score=0.5 (step 1) score=0.7\n", &s, err), 0);
    assert_true(fabs(s.score - 0.7) < 1e-12);
    /* '^' anchors at line starts only, also after an earlier match on the same line */
    assert_int_equal(read_with("regex:^acc ([0-9.]+)", "acc 0.5acc 0.9\nacc 0.25 x\n", &s, err), 0);
    assert_true(fabs(s.score - 0.25) < 1e-12);
    assert_int_equal(read_with("regex:^acc ([0-9.]+)", "acc 0.5acc 0.9\n", &s, err), 0);
    assert_true(fabs(s.score - 0.5) < 1e-12);
    assert_int_equal(read_with("regex:[0-9]+/[0-9]+", "376/1319\n", &s, err), -1);
    assert_non_null(strstr(err, "not a number"));
    assert_int_equal(read_with("regex:score=([0-9.]+)", "no score here\n", &s, err), -1);
    assert_int_equal(eng_score_format_parse("regex:(", &f, err, sizeof err), -1);
    assert_non_null(strstr(err, "regular expression"));
    assert_int_equal(eng_score_format_parse("accuracy", &f, err, sizeof err), -1);
    assert_non_null(strstr(err, "lm-eval[:TASK], sglang or regex:PATTERN"));
}

static void gate_threshold_and_wilson(void **state)
{
    (void)state;
    char why[640];
    struct eng_score s = {.score = 0.74, .invalid = NAN, .samples = -1, .samples_full = -1};
    snprintf(s.metric, sizeof s.metric, "Accuracy");
    struct eng_gate g = {.baseline = 0.80, .tolerance = 0.08, .invalid_max = 0.05};
    assert_true(eng_gate_judge(&g, &s, why, sizeof why)); /* 0.74 >= 0.736 */
    s.score = 0.735;
    assert_false(eng_gate_judge(&g, &s, why, sizeof why));
    assert_non_null(strstr(why, "below the threshold"));
    /* the bound: at 200 samples 0.80 is not clearly above 0.736, at 5000 it is */
    s.score = 0.78;
    g.wilson = true;
    assert_false(eng_gate_judge(&g, &s, why, sizeof why)); /* no count */
    g.samples = 200;
    assert_false(eng_gate_judge(&g, &s, why, sizeof why));
    assert_non_null(strstr(why, "Wilson lower bound"));
    g.samples = 5000;
    assert_true(eng_gate_judge(&g, &s, why, sizeof why));
    /* the bound itself, against a value worked by hand: p=0.5, n=100, z=1.6449 -> 0.41885, the smaller root
     * of (p - x)^2 = z^2 x (1 - x) / n */
    assert_true(fabs(eng_wilson_lower(0.5, 100, 1.6449) - 0.41885) < 1e-4);
}

static void split_argv(void **state)
{
    (void)state;
    char err[256];
    char **v = eng_e2e_split("  python3 -m 'sglang.test.x y' --n \"a \\\"b\\\" $HOME\" c\\ d ",
                             err, sizeof err);
    assert_non_null(v);
    assert_string_equal(v[0], "python3");
    assert_string_equal(v[2], "sglang.test.x y");
    assert_string_equal(v[4], "a \"b\" $HOME"); /* nothing is expanded */
    assert_string_equal(v[5], "c d");
    assert_null(v[6]);
    eng_e2e_argv_free(v);
    assert_null(eng_e2e_split("echo 'open", err, sizeof err));
    assert_non_null(strstr(err, "never closed"));
    assert_null(eng_e2e_split("   ", err, sizeof err));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(lm_eval_json_in_output), cmocka_unit_test(lm_eval_partial_run),
        cmocka_unit_test(sglang_lines),           cmocka_unit_test(regex_format),
        cmocka_unit_test(gate_threshold_and_wilson), cmocka_unit_test(split_argv),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
