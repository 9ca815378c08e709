/* Rung 7's audit of a CI job over a test folder (aiter-5133): op tests run as `python3 FILE`
 * define test functions that nothing calls, exit 0, and the job counts them as passed. The check
 * runs the job the variant declares (file by file as scripts, or by pytest) under
 * kernels/tools/ci_trace.py, which records from inside Python which test functions executed and
 * writes a JUnit report; that report is read by ci-audit's reader (importers/ci_report.h) and
 * judged by its rules, and per file the functions defined are set against those executed: a file
 * that defines tests and executed none fails, naming the file and both counts. The unit test's
 * view, the job's exit status alone, passes both. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/text.h"
#include "common/xalloc.h"
#include "engine/rungs/rung7_py.h"
#include "engine/rungs/suite_py.h"
#include "importers/ci_audit.h"
#include "importers/ci_report.h"

void eng_r7_ci_free(struct eng_rung7_ci *c)
{
    if (!c)
        return;
    free(c->tests[0]);
    free(c->tests[1]);
    free(c);
}

static bool read_runner(struct eng_mparse *p, const cJSON *j, const char *field, bool *pytest)
{
    const char *v = cJSON_GetStringValue(j);
    if (!v || (strcmp(v, "pytest") && strcmp(v, "script"))) {
        char got[64];
        eng_mp_describe(j, got, sizeof got);
        return eng_mp_bad(p, field, "expected \"pytest\" (the test runner) or \"script\" (each "
                          "file run as python3 FILE), got %s", got);
    }
    *pytest = !strcmp(v, "pytest");
    return true;
}

bool eng_r7_ci_parse(struct eng_mparse *p, const cJSON *j, struct eng_rung7_ci **out)
{
    static const char *const keys[] = {"tests", "runner", NULL};
    static const char *const vk[] = {"fixed", "buggy", NULL};
    struct eng_rung7_ci *c = *out = xcalloc(1, sizeof *c);
    if (!cJSON_IsObject(j))
        return eng_mp_bad(p, "rungs.7.ci", "expected {\"tests\": DIR, \"runner\": {\"fixed\": "
                          "\"pytest\", \"buggy\": \"script\"}}");
    if (!eng_mp_only_keys(p, j, "rungs.7.ci", keys) ||
        !eng_suite_paths(p, cJSON_GetObjectItemCaseSensitive(j, "tests"), "rungs.7.ci.tests",
                      c->tests))
        return false;
    const cJSON *r = cJSON_GetObjectItemCaseSensitive(j, "runner");
    if (!cJSON_IsObject(r))
        return read_runner(p, r, "rungs.7.ci.runner", &c->pytest[0]) &&
               (c->pytest[1] = c->pytest[0], true);
    if (!eng_mp_only_keys(p, r, "rungs.7.ci.runner", vk))
        return false;
    return read_runner(p, cJSON_GetObjectItemCaseSensitive(r, "fixed"), "rungs.7.ci.runner.fixed",
                       &c->pytest[0]) &&
           read_runner(p, cJSON_GetObjectItemCaseSensitive(r, "buggy"), "rungs.7.ci.runner.buggy",
                       &c->pytest[1]);
}

void eng_r7_ci_plan(struct eng_plan_builder *b, const struct eng_rung7_ci *c)
{
    struct eng_shape none = {0};
    char name[200];
    /* one name for both variants: the folder may differ, the check is the same */
    snprintf(name, sizeof name, "ci-audit:%s", eng_suite_path_base(c->tests[0]));
    eng_plan_add(b, name, ENG_MODE_PLAIN, false, &none, 1, 0, 0);
    if (b->o->baseline) {
        snprintf(name, sizeof name, "ci-exit-status:%s", eng_suite_path_base(c->tests[0]));
        eng_plan_add(b, name, ENG_MODE_PLAIN, true, &none, 1, 0, 0);
    }
}

/* One test file as the tracer saw it. */
struct ci_file {
    char name[128];
    long defined, executed;
    int status;
};

/* The tracer's JSON lines into files (at most max); how many were read, -1 on a bad line. */
static long read_files(const char *lines, struct ci_file *files, long max)
{
    long n = 0;
    char *copy = xstrdup(lines);
    for (char *save = NULL, *l = strtok_r(copy, "\n", &save); l && n < max;
         l = strtok_r(NULL, "\n", &save)) {
        cJSON *j = cJSON_Parse(l);
        const char *f = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(j, "file"));
        const cJSON *d = cJSON_GetObjectItemCaseSensitive(j, "defined");
        const cJSON *s = cJSON_GetObjectItemCaseSensitive(j, "status");
        if (!f || !cJSON_IsNumber(d) || !cJSON_IsNumber(s)) {
            cJSON_Delete(j);
            n = -1;
            break;
        }
        char *clean = text_sanitize(f, false);
        snprintf(files[n].name, sizeof files[n].name, "%s", clean);
        free(clean);
        files[n].defined = (long)d->valuedouble;
        files[n].status = (int)s->valuedouble;
        files[n++].executed = 0;
        cJSON_Delete(j);
    }
    free(copy);
    return n;
}

/* Judges the files against the report: the per-file rule, then ci-audit's own rules. */
static void judge(struct ci_file *f, long n, struct ci_report *rep, bool baseline, bool pytest,
                  const char *dir, struct eng_check_result *out)
{
    long defined = 0, executed = 0, empty = 0, bad_status = 0;
    char found[1200] = "", partial[400] = "", failed[400] = "";
    for (long i = 0; i < n; i++) {
        for (size_t k = 0; k < rep->nsuites; k++)
            if (!strcmp(rep->suites[k].name, f[i].name))
                f[i].executed = rep->suites[k].tests - rep->suites[k].skipped;
        defined += f[i].defined, executed += f[i].executed;
        if (f[i].status != 0) {
            bad_status++;
            eng_r7_add(failed, sizeof failed, "%s%s exited %d", failed[0] ? ", " : "", f[i].name,
                f[i].status);
        }
        if (f[i].defined > 0 && f[i].executed == 0) {
            empty++;
            eng_r7_add(found, sizeof found, "%s%s defines %ld, executed 0", found[0] ? "; " : "",
                f[i].name, f[i].defined);
        } else if (f[i].executed < f[i].defined) {
            eng_r7_add(partial, sizeof partial, "%s%s executed %ld of %ld", partial[0] ? ", " : "",
                f[i].name, f[i].executed, f[i].defined);
        }
    }
    const char *how = pytest ? "run by pytest" : "each file run as python3 FILE";
    if (baseline) {
        out->verdict = bad_status ? CDB_FAIL : CDB_PASS;
        out->bad_count = bad_status;
        snprintf(out->detail, sizeof out->detail, "%s (%s): %ld of %ld test files exited 0, the "
                 "job's only signal%s%s", dir, how, n - bad_status, n, failed[0] ? ": " : "",
                 failed);
        return;
    }
    char audit[600] = "";
    FILE *mem = fmemopen(audit, sizeof audit - 1, "w");
    struct ci_audit_opts o = {.min_tests = 1};
    size_t findings = mem ? ci_audit(&rep, 1, &o, mem) : 0;
    if (mem)
        fclose(mem);
    out->bad_count = empty + (long)findings;
    out->verdict = out->bad_count ? CDB_FAIL : CDB_PASS;
    /* A long list is cut at the detail's size on purpose: the counts come first. */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wformat-truncation"
    snprintf(out->detail, sizeof out->detail, "%s (%s): %ld test functions defined in %ld files, "
             "%ld executed%s%s%s%s%s%s", dir, how, defined, n, executed,
             empty ? "; files that executed none: " : "", found,
             partial[0] ? "; partly run: " : "", partial,
             findings ? "; ci-audit: " : "", findings ? audit : "");
#pragma GCC diagnostic pop
    for (char *c = out->detail; *c; c++)
        if (*c == '\n')
            *c = ' ';
}

void eng_r7_ci_check(const struct eng_check_spec *s, const struct eng_manifest *m,
                     const struct eng_rung7_ci *c, struct eng_check_result *out)
{
    bool buggy = strcmp(s->variant, "buggy") == 0;
    snprintf(out->oracle, sizeof out->oracle, s->baseline ? "exit-status" : "tests-executed");
    snprintf(out->shape, sizeof out->shape, "%s", c->tests[buggy]);
    struct eng_suite_py py;
    char why[1024];
    /* pytest either way: test files written for it import it, run as scripts too */
    int rc = eng_suite_py_open(&py, m, "ci_trace.py", "pytest", why, sizeof why);
    if (rc != 0) {
        out->verdict = rc > 0 ? CDB_SKIP : CDB_ERROR;
        snprintf(out->detail, sizeof out->detail, "%s%s", rc > 0 ? "" : "setup: ", why);
        eng_suite_py_close(&py);
        return;
    }
    char *dir = eng_suite_py_path(&py, c->tests[buggy]);
    char *junit = xasprintf("%s/ci-report.xml", py.tmp);
    const char *args[] = {c->pytest[buggy] ? "pytest" : "script", dir, junit, NULL};
    char *lines = xmalloc(65536);
    struct ci_file files[256];
    int st = eng_suite_py_run(&py, args, lines, 65536);
    long n = st == 0 ? read_files(lines, files, 256) : -1;
    struct ci_report *rep = n >= 0 ? ci_report_read(junit, why, sizeof why) : NULL;
    if (st != 0 || n < 0 || !rep) {
        out->verdict = CDB_ERROR;
        snprintf(out->detail, sizeof out->detail, "setup: ci_trace.py %s: %.1300s",
                 st != 0 ? "failed" : n < 0 ? "printed a line it should not" : "wrote no report",
                 rep || n < 0 || st != 0 ? lines : why);
    } else {
        judge(files, n, rep, s->baseline, c->pytest[buggy], c->tests[buggy], out);
    }
    ci_report_free(rep);
    free(lines);
    free(junit);
    free(dir);
    eng_suite_py_close(&py);
}
