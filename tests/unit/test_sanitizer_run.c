/* The runner's side of the vendor sanitizer (engine/toolchain/sanitizer_run.h): a report read back is
 * refused, with the log's path and the reason, when it is missing, empty, binary, lacks the
 * tool's banner, lacks its summary after a worker that ended by itself, or has a hazard without
 * its location lines; a report cut short by the watchdog is read; the tool named by
 * KLADDER_COMPUTE_SANITIZER must be executable; the command line carries the options the tool
 * documents. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "engine/toolchain/sanitizer_run.h"

static char dir[] = "/tmp/kl-sanrun-XXXXXX";

static const char *write_log(const char *name, const char *text, size_t len)
{
    static char path[256];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "wb");
    assert_non_null(f);
    fwrite(text, 1, len, f);
    fclose(f);
    return path;
}

/* Reads text as a log; returns the message ("" when it was read) and the hazards in *n. */
static const char *read_as(const char *tool, const char *text, size_t len, bool finished,
                           size_t *n)
{
    static char err[1024];
    err[0] = '\0';
    struct eng_san_hazard *h = NULL;
    const char *log = write_log("check-3.log", text, len);
    int rc = eng_san_read_log(log, tool, finished, &h, n, err, sizeof err);
    assert_int_equal(rc, err[0] ? -1 : 0);
    free(h);
    return err;
}

#define BANNER "========= COMPUTE-SANITIZER\n"
#define RACE "========= Error: Race reported between Write access at k(float *)+0x10 in a.cu:3\n" \
             "=========     and Read access at k(float *)+0x20 in a.cu:4 [2 hazards]\n"
#define RSUM "========= RACECHECK SUMMARY: 1 hazard displayed (1 error, 0 warnings)\n"

static void a_whole_report_is_read(void **state)
{
    (void)state;
    size_t n = 9;
    const char *t = BANNER RACE RSUM;
    assert_string_equal(read_as("racecheck", t, strlen(t), true, &n), "");
    assert_int_equal(n, 1);
    t = BANNER "========= ERROR SUMMARY: 0 errors\n";
    assert_string_equal(read_as("memcheck", t, strlen(t), true, &n), "");
    assert_int_equal(n, 0);
}

static void garbled_reports_name_the_log(void **state)
{
    (void)state;
    size_t n;
    const char *e = read_as("racecheck", "", 0, true, &n);
    assert_non_null(strstr(e, "/check-3.log: garbled racecheck report: it is empty"));
    e = read_as("racecheck", BANNER "\0" RSUM, sizeof BANNER + sizeof RSUM - 1, true, &n);
    assert_non_null(strstr(e, "/check-3.log: garbled racecheck report: it holds NUL bytes"));
    e = read_as("racecheck", RACE RSUM, strlen(RACE RSUM), true, &n);
    assert_non_null(strstr(e, "banner line is missing"));
    e = read_as("racecheck", BANNER RACE, strlen(BANNER RACE), true, &n);
    assert_non_null(strstr(e, "summary line (ERROR SUMMARY or RACECHECK SUMMARY) is missing"));
    const char *half = BANNER "========= Warning: Race reported between Read access at k(float *)+0x10\n" RSUM;
    e = read_as("racecheck", half, strlen(half), true, &n);
    assert_non_null(strstr(e, "a race's head line is not followed by its \"and ... access at\" line"));
    const char *bare = BANNER "========= Invalid __global__ read of size 4 bytes\n"
                              "=========     by thread (0,0,0) in block (0,0,0)\n"
                              "========= ERROR SUMMARY: 1 error\n";
    e = read_as("memcheck", bare, strlen(bare), true, &n);
    assert_non_null(strstr(e, "a hazard's head line is not followed by its \"at LOCATION\" line"));
}

static void a_report_cut_by_the_watchdog_is_read(void **state)
{
    (void)state;
    size_t n = 0;
    assert_string_equal(read_as("racecheck", BANNER RACE, strlen(BANNER RACE), false, &n), "");
    assert_int_equal(n, 1);
}

static void a_missing_log_is_an_error(void **state)
{
    (void)state;
    char err[512], path[300];
    struct eng_san_hazard *h = (void *)1;
    size_t n = 7;
    snprintf(path, sizeof path, "%s/never-written.log", dir);
    assert_int_equal(eng_san_read_log(path, "synccheck", true, &h, &n, err, sizeof err), -1);
    assert_null(h);
    assert_int_equal(n, 0);
    assert_non_null(strstr(err, "synccheck's report could not be read"));
    assert_non_null(strstr(err, "never-written.log"));
}

static void the_named_tool_must_be_executable(void **state)
{
    (void)state;
    char out[256], err[512];
    const char *plain = write_log("not-a-program", "x", 1);
    setenv("KLADDER_COMPUTE_SANITIZER", plain, 1);
    assert_int_equal(eng_san_find(out, sizeof out, err, sizeof err), -1);
    assert_non_null(strstr(err, "compute-sanitizer"));
    assert_non_null(strstr(err, "not-a-program, which is not an executable program"));
    setenv("KLADDER_COMPUTE_SANITIZER", "/bin/sh", 1);
    assert_int_equal(eng_san_find(out, sizeof out, err, sizeof err), 0);
    assert_string_equal(out, "/bin/sh");
    unsetenv("KLADDER_COMPUTE_SANITIZER");
}

static void the_command_line(void **state)
{
    (void)state;
    char **a = eng_san_argv("/opt/cs", "synccheck", "/l/check-0.log");
    const char *want[] = {"/opt/cs", "--tool", "synccheck", "--log-file", "/l/check-0.log",
                          "--print-limit", "100", NULL};
    for (size_t i = 0; want[i]; i++)
        assert_string_equal(a[i], want[i]);
    assert_null(a[7]);
    eng_san_argv_free(a);
    assert_true(eng_san_tool_known("memcheck"));
    assert_false(eng_san_tool_known("initcheck"));
    assert_false(eng_san_tool_known(NULL));
}

int main(void)
{
    if (!mkdtemp(dir))
        return 1;
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(a_whole_report_is_read),
        cmocka_unit_test(garbled_reports_name_the_log),
        cmocka_unit_test(a_report_cut_by_the_watchdog_is_read),
        cmocka_unit_test(a_missing_log_is_an_error),
        cmocka_unit_test(the_named_tool_must_be_executable),
        cmocka_unit_test(the_command_line),
    };
    int rc = cmocka_run_group_tests(tests, NULL, NULL);
    char cmd[300];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    if (system(cmd) != 0)
        rc = rc ? rc : 1;
    return rc;
}
