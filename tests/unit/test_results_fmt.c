/* tui/results_fmt: verdict words in both languages, and checks per verdict in words with counts,
 * failures first ("1 failed, 1 hung, 4 passed"), never glyphs after a number. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <string.h>

#include "casedb/results.h"
#include "tui/results_fmt.h"

static void test_verdict_words(void **state)
{
    (void)state;
    assert_string_equal(tui_verdict_word(CDB_PASS, false), "pass");
    assert_string_equal(tui_verdict_word(CDB_PASS, true), "通过");
    assert_string_equal(tui_verdict_word(CDB_HANG, true), "挂起");
    assert_string_equal(tui_verdict_word(CDB_VERDICT_COUNT, true), "?");
    char buf[32];
    tui_fmt_verdict_lang(CDB_FAIL, true, buf, sizeof buf);
    assert_non_null(strstr(buf, "失败"));
    assert_null(strstr(buf, "fail"));
    /* every verdict has its Chinese word, the runs' own ones too */
    assert_string_equal(tui_verdict_word(CDB_INTERRUPTED, true), "已中断");
    assert_string_equal(tui_verdict_word(CDB_RUNNING, true), "运行中");
}

static void test_counts_in_words(void **state)
{
    (void)state;
    char buf[128];
    int c[CDB_VERDICT_COUNT] = {0};
    tui_fmt_counts(c, false, buf, sizeof buf);
    assert_string_equal(buf, "-");
    c[CDB_PASS] = 4;
    c[CDB_FAIL] = 1;
    c[CDB_HANG] = 1;
    tui_fmt_counts(c, false, buf, sizeof buf);
    assert_string_equal(buf, "1 failed, 1 hung, 4 passed");
    tui_fmt_counts(c, true, buf, sizeof buf);
    assert_string_equal(buf, "1 项失败，1 项挂起，4 项通过");
    /* "error" takes a plural, the participles do not */
    int e[CDB_VERDICT_COUNT] = {0};
    e[CDB_ERROR] = 2;
    e[CDB_SKIP] = 3;
    e[CDB_CANCELLED] = 1;
    tui_fmt_counts(e, false, buf, sizeof buf);
    assert_string_equal(buf, "2 errors, 1 cancelled, 3 skipped");
    e[CDB_ERROR] = 1;
    tui_fmt_counts(e, false, buf, sizeof buf);
    assert_string_equal(buf, "1 error, 1 cancelled, 3 skipped");
}

/* A passing run whose failures are all buggy variants caught reads as caught bugs, not as
 * failures; what really failed still comes first and keeps its word. */
static void test_caught_bugs_in_words(void **state)
{
    (void)state;
    char buf[160];
    int c[CDB_VERDICT_COUNT] = {0};
    c[CDB_FAIL] = 17;
    c[CDB_PASS] = 37;
    tui_fmt_counts_caught(c, 17, 0, false, buf, sizeof buf);
    assert_string_equal(buf, "17 bugs caught, 37 passed");
    tui_fmt_counts_caught(c, 17, 0, true, buf, sizeof buf);
    assert_string_equal(buf, "捕获 17 个缺陷，37 项通过");
    /* a second shape: a fixed variant failed and a hung buggy one was caught (a timing bug) */
    int d[CDB_VERDICT_COUNT] = {0};
    d[CDB_FAIL] = 3;
    d[CDB_HANG] = 1;
    d[CDB_SKIP] = 2;
    d[CDB_PASS] = 5;
    tui_fmt_counts_caught(d, 2, 1, false, buf, sizeof buf);
    assert_string_equal(buf, "1 failed, 3 bugs caught, 2 skipped, 5 passed");
    tui_fmt_counts_caught(d, 0, 1, false, buf, sizeof buf);
    assert_string_equal(buf, "3 failed, 1 bug caught, 2 skipped, 5 passed");
}

/* A failed run with nothing failed: its buggy variant got through, and it says so. A run that
 * failed for a real failure, or one that caught its bug, gets no such words. */
static void test_bug_not_caught(void **state)
{
    (void)state;
    char buf[160];
    int c[CDB_VERDICT_COUNT] = {0};
    c[CDB_PASS] = 6;
    tui_fmt_run_counts(c, 0, 0, CDB_FAIL, false, buf, sizeof buf);
    assert_string_equal(buf, "6 passed; the bug was not caught");
    tui_fmt_run_counts(c, 0, 0, CDB_FAIL, true, buf, sizeof buf);
    assert_string_equal(buf, "6 项通过；缺陷未被捕获");
    tui_fmt_run_counts(c, 0, 0, CDB_PASS, false, buf, sizeof buf);
    assert_string_equal(buf, "6 passed");
    int none[CDB_VERDICT_COUNT] = {0};
    tui_fmt_run_counts(none, 0, 0, CDB_FAIL, false, buf, sizeof buf);
    assert_string_equal(buf, "-");
    /* a second shape: skipped checks and passes, no failure: still got through */
    c[CDB_SKIP] = 2;
    tui_fmt_run_counts(c, 0, 0, CDB_FAIL, false, buf, sizeof buf);
    assert_string_equal(buf, "2 skipped, 6 passed; the bug was not caught");
    c[CDB_FAIL] = 1; /* a fixed variant failed: that is the reason */
    tui_fmt_run_counts(c, 0, 0, CDB_FAIL, false, buf, sizeof buf);
    assert_string_equal(buf, "1 failed, 2 skipped, 6 passed");
    tui_fmt_run_counts(c, 1, 0, CDB_FAIL, false, buf, sizeof buf); /* it was the bug, caught */
    assert_string_equal(buf, "1 bug caught, 2 skipped, 6 passed");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_verdict_words),
        cmocka_unit_test(test_counts_in_words),
        cmocka_unit_test(test_caught_bugs_in_words),
        cmocka_unit_test(test_bug_not_caught),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
