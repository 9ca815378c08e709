/* `kladder run --e2e` options (tui/cli/run_e2e.h). */
#include "tui/cli/run_e2e.h"

#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/text.h"
#include "engine/rungs/rung8_e2e_cmd.h"
#include "engine/rung.h"
#include "tui/cli/cli.h"
#include "tui/cli/opts.h"

/* in the order --options lists them; what help says of each (the e2e ones first say which rung
 * they are for, as they sit among run's other options) */
const struct cli_opt run_e2e_options[] = {
    CLI_TAKES("--e2e", "COMMAND",
              "rung 8, the end-to-end score of your own evaluation: run COMMAND (split into words, "
              "no shell) under the watchdog with the --timeout limit; its output is kept"),
    CLI_TAKES("--score", "FORMAT",
              "rung 8: lm-eval[:TASK] (results JSON), sglang (Accuracy: line), or regex:PATTERN "
              "(first group of the last match)"),
    CLI_TAKES("--baseline", "VALUE|FILE",
              "rung 8: the expected score, or a file with it or an earlier result"),
    CLI_TAKES("--results", "FILE", "rung 8: read the score from FILE after the command ends"),
    CLI_TAKES("--tolerance", "R", "rung 8: pass when score >= baseline * (1 - R) (default 0.08)"),
    CLI_TAKES("--samples", "N", "rung 8: the full sample count the score must be over"),
    CLI_TAKES("--invalid-max", "R", "rung 8: largest invalid-answer rate accepted (default 0.05)"),
    CLI_TAKES("--shell", NULL, "rung 8: run COMMAND with /bin/sh -c instead"),
    CLI_TAKES("--wilson", NULL, "rung 8: the 95% Wilson lower bound must clear the threshold too"),
    {.name = NULL},
};

int run_e2e_take(struct run_e2e_args *a, int argc, char **argv, int *i)
{
    static const struct {
        const char *name;
        size_t off;
    } valued[] = {
        {"--e2e", offsetof(struct run_e2e_args, command)},
        {"--score", offsetof(struct run_e2e_args, score)},
        {"--baseline", offsetof(struct run_e2e_args, baseline)},
        {"--results", offsetof(struct run_e2e_args, results)},
        {"--tolerance", offsetof(struct run_e2e_args, tolerance)},
        {"--samples", offsetof(struct run_e2e_args, samples)},
        {"--invalid-max", offsetof(struct run_e2e_args, invalid_max)},
    };
    const char *opt = argv[*i];
    if (!strcmp(opt, "--shell") || !strcmp(opt, "--wilson")) {
        *(opt[2] == 's' ? &a->shell : &a->wilson) = true;
        if (!a->first)
            a->first = opt;
        return 1;
    }
    for (size_t k = 0; k < sizeof valued / sizeof valued[0]; k++) {
        if (strcmp(opt, valued[k].name) != 0)
            continue;
        if (*i + 1 >= argc)
            return cli_usage_error("run", "%s expects a value", opt);
        *(const char **)(void *)((char *)a + valued[k].off) = argv[++*i];
        if (!a->first)
            a->first = opt;
        return 1;
    }
    return 0;
}

/* A number in [lo, hi]; false after a usage message. */
static bool fraction(const char *opt, const char *text, double lo, double hi, double *out)
{
    char *end;
    double v = strtod(text, &end);
    if (end == text || *end || !isfinite(v) || v < lo || v > hi) {
        char *shown = text_escape(text, 40);
        cli_usage_error("run", "%s expects a number from %g to %g, not '%s'", opt, lo, hi, shown);
        free(shown);
        return false;
    }
    *out = v;
    return true;
}

int run_e2e_finish(const struct run_e2e_args *a, int rung, struct eng_e2e *e)
{
    const struct eng_rung *R = eng_rung_end_to_end();
    memset(e, 0, sizeof *e);
    if (!a->command)
        return cli_usage_error("run", "%s belongs to rung %d's --e2e COMMAND", a->first, R ? R->number : 0);
    if (!R || rung != R->number)
        return cli_usage_error("run", "--e2e runs rung %d's end-to-end score; give --rung %d",
                               R ? R->number : 0, R ? R->number : 0);
    if (!a->score || !a->baseline)
        return cli_usage_error("run", "--e2e needs --score FORMAT and --baseline VALUE|FILE");
    char err[768];
    struct eng_score_format f;
    if (eng_score_format_parse(a->score, &f, err, sizeof err) != 0)
        return cli_usage_error("run", "%s", err);
    if (!a->shell) { /* a quoting mistake is the user's, found before anything runs */
        char **argv = eng_e2e_split(a->command, err, sizeof err);
        if (!argv)
            return cli_usage_error("run", "%s", err);
        eng_e2e_argv_free(argv);
    }
    e->command = a->command;
    e->shell = a->shell;
    e->score = a->score;
    e->results = a->results;
    e->gate.tolerance = 0.08;
    e->gate.invalid_max = 0.05;
    e->gate.wilson = a->wilson;
    if (a->tolerance && !fraction("--tolerance", a->tolerance, 0, 0.99, &e->gate.tolerance))
        return 2;
    if (a->invalid_max && !fraction("--invalid-max", a->invalid_max, 0, 1, &e->gate.invalid_max))
        return 2;
    if (a->samples) {
        int n;
        if (!cli_parse_int("run", "--samples", a->samples, 1, 1 << 30, &n))
            return 2;
        e->gate.samples = n;
    }
    if (eng_e2e_baseline(a->baseline, &f, &e->gate.baseline, err, sizeof err) != 0)
        return cli_usage_error("run", "%s", err);
    return 0;
}
