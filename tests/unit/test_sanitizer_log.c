/* Reading compute-sanitizer's text report (engine/toolchain/sanitizer_log.h) from fixtures written after
 * its documented formats (tests/fixtures/sanitizer): racecheck's two-line race records in the
 * current and the earlier location forms, memcheck's invalid accesses with thread, block and
 * address (its host backtrace skipped), synccheck's barrier errors, a clean report, and lines
 * that must never reach a report as they are. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/toolchain/sanitizer_log.h"

#define FIX "tests/fixtures/sanitizer/"

static char *slurp(const char *path)
{
    FILE *f = fopen(path, "rb");
    assert_non_null(f);
    static char buf[16384];
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    fclose(f);
    buf[n] = '\0';
    return buf;
}

static void racecheck_current_form(void **state)
{
    (void)state;
    struct eng_san_hazard h[4];
    assert_int_equal(eng_san_parse("racecheck", slurp(FIX "racecheck.txt"), h, 4), 2);
    assert_string_equal(h[0].tool, "racecheck");
    assert_string_equal(h[0].kind, "race (error) between a Write and a Read access");
    assert_int_equal(h[0].nsites, 2);
    assert_string_equal(h[0].site[0].access, "Write");
    assert_string_equal(h[0].site[0].kernel, "block_reduce");
    assert_string_equal(h[0].site[0].offset, "0x1c0");
    assert_string_equal(h[0].site[0].source, "reduce.cu:13");
    assert_string_equal(h[0].site[1].access, "Read");
    assert_string_equal(h[0].site[1].offset, "0x2f0");
    assert_string_equal(h[0].site[1].source, "reduce.cu:18");
    assert_int_equal(h[0].count, 248);
    assert_string_equal(h[1].kind, "race (warning) between a Read and a Write access");
    assert_string_equal(h[1].site[0].kernel, "leaders_buggy");
    assert_int_equal(h[1].count, 7);
    char d[512];
    eng_san_describe(&h[0], d, sizeof d);
    assert_string_equal(d, "racecheck: race (error) between a Write and a Read access in block_reduce: "
                           "Write at block_reduce+0x1c0 (reduce.cu:13), Read at block_reduce+0x2f0 "
                           "(reduce.cu:18), 248 hazards");
}

/* A report compute-sanitizer wrote on an H200 (racecheck over our leaders fixture): one head
 * with two conflicting accesses listed under it, each its own hazard with its own count. */
static void racecheck_h200_report(void **state)
{
    (void)state;
    struct eng_san_hazard h[4];
    assert_int_equal(eng_san_parse("racecheck", slurp(FIX "h200-racecheck-leaders.txt"), h, 4), 2);
    assert_string_equal(h[0].kind, "race (error) between a Write and a Read access");
    assert_string_equal(h[0].site[0].offset, "0x270");
    assert_string_equal(h[0].site[1].offset, "0x220");
    assert_int_equal(h[0].count, 96);
    assert_string_equal(h[1].kind, "race (error) between a Write and a Write access");
    assert_string_equal(h[1].site[0].kernel, "leaders_buggy");
    assert_string_equal(h[1].site[0].offset, "0x270");
    assert_string_equal(h[1].site[1].offset, "0x270");
    assert_int_equal(h[1].count, 64);
}

/* memcheck on an H200 also reports the driver calls that returned an error (the engine's
 * parameter probe asks cuFuncGetParamInfo one past the last parameter): not a kernel hazard. */
static void memcheck_h200_api_error_is_no_hazard(void **state)
{
    (void)state;
    struct eng_san_hazard h[4];
    assert_int_equal(eng_san_parse("memcheck", slurp(FIX "h200-memcheck-api-error.txt"), h, 4), 0);
}

static void racecheck_earlier_form_and_no_lines(void **state)
{
    (void)state;
    struct eng_san_hazard h[4];
    assert_int_equal(eng_san_parse("racecheck", slurp(FIX "racecheck_old.txt"), h, 4), 2);
    assert_string_equal(h[0].site[0].kernel, "chain_scan");
    assert_string_equal(h[0].site[0].offset, "0x00000230");
    assert_string_equal(h[0].site[0].source, "scan.cu:21");
    assert_string_equal(h[0].site[1].source, "scan.cu:17");
    assert_int_equal(h[0].count, 31);
    /* built without line information: kernel+offset only */
    assert_string_equal(h[1].site[0].kernel, "wsum_kernel");
    assert_string_equal(h[1].site[0].offset, "0x40");
    assert_string_equal(h[1].site[0].source, "");
    assert_string_equal(h[1].kind, "race (error) between a Write and a Write access");
}

static void memcheck_invalid_accesses(void **state)
{
    (void)state;
    struct eng_san_hazard h[4];
    assert_int_equal(eng_san_parse("memcheck", slurp(FIX "memcheck.txt"), h, 4), 2);
    assert_string_equal(h[0].kind, "Invalid __global__ write of size 4 bytes");
    assert_int_equal(h[0].nsites, 1);
    assert_string_equal(h[0].site[0].kernel, "gemm_6402_buggy");
    assert_string_equal(h[0].site[0].offset, "0x3a0");
    assert_string_equal(h[0].site[0].source, "aiter_6402.kl:41");
    assert_string_equal(h[0].thread, "thread (17,0,0) in block (3,2,0)");
    assert_string_equal(h[0].address, "Address 0x7f1c00000044 is out of bounds");
    assert_string_equal(h[1].kind, "Invalid __shared__ read of size 16 bytes");
    assert_string_equal(h[1].site[0].kernel, "load_tile");
    assert_string_equal(h[1].site[0].source, "/src/tile.cu:11");
    char d[512];
    eng_san_describe(&h[0], d, sizeof d);
    assert_string_equal(d, "memcheck: Invalid __global__ write of size 4 bytes in gemm_6402_buggy: at "
                           "gemm_6402_buggy+0x3a0 (aiter_6402.kl:41), thread (17,0,0) in block "
                           "(3,2,0), Address 0x7f1c00000044 is out of bounds");
}

static void synccheck_barrier_error(void **state)
{
    (void)state;
    struct eng_san_hazard h[2];
    assert_int_equal(eng_san_parse("synccheck", slurp(FIX "synccheck.txt"), h, 2), 1);
    assert_string_equal(h[0].kind, "Barrier error detected. Divergent thread(s) in warp");
    assert_string_equal(h[0].site[0].kernel, "lastblock_buggy");
    assert_string_equal(h[0].site[0].source, "races.kl:12");
    assert_string_equal(h[0].thread, "thread (37,0,0) in block (0,0,0)");
}

static void clean_report_and_limits(void **state)
{
    (void)state;
    struct eng_san_hazard h[1];
    assert_int_equal(eng_san_parse("racecheck", slurp(FIX "clean.txt"), h, 1), 0);
    /* more hazards than room: all counted, only the first stored */
    assert_int_equal(eng_san_parse("memcheck", slurp(FIX "memcheck.txt"), h, 1), 2);
    assert_string_equal(h[0].site[0].kernel, "gemm_6402_buggy");
    /* a control character in a kernel's name never reaches a report */
    assert_int_equal(eng_san_parse("memcheck",
                                   "========= Invalid __global__ read of size 4 bytes\n"
                                   "=========     at bad\x1b[2Jname(int)+0x10 in x.cu:3\n", h, 1), 1);
    assert_null(strchr(h[0].site[0].kernel, '\x1b'));
    assert_string_equal(h[0].site[0].kernel, "bad?[2Jname");
    /* a truncated report: the head alone still counts */
    assert_int_equal(eng_san_parse("synccheck", "========= Barrier error detected. Invalid arguments", h, 1), 1);
    assert_string_equal(h[0].site[0].kernel, "");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(racecheck_current_form),
        cmocka_unit_test(racecheck_h200_report),
        cmocka_unit_test(memcheck_h200_api_error_is_no_hazard),
        cmocka_unit_test(racecheck_earlier_form_and_no_lines),
        cmocka_unit_test(memcheck_invalid_accesses),
        cmocka_unit_test(synccheck_barrier_error),
        cmocka_unit_test(clean_report_and_limits),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
