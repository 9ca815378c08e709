/* Value classes (engine/values/value_class.h) hold what their names promise in every float dtype, are
 * deterministic, leave padding zero, and are named the same in manifests; rung 2 plans every
 * class at every baseline shape plus the length sweeps, and refuses settings it cannot use. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/manifest.h"
#include "engine/plan.h"
#include "engine/rungs/rung2.h"
#include "engine/values/value_class.h"
#include "engine/tables/tables.h"

/* The classes are about exact values (ties, one-hots, zeros): exact comparison is the point. */
#pragma GCC diagnostic ignored "-Wfloat-equal"

#define ROWS 9
#define LEN 40
#define STRIDE 48

static const enum eng_dtype floats[] = {ENG_F32, ENG_BF16, ENG_FP8E4M3, ENG_F16};

/* A ROWS x LEN class in a buffer with rows STRIDE apart, as doubles (v[r][k]). */
static void make(enum eng_vclass c, enum eng_dtype d, uint64_t seed, double v[ROWS][LEN],
                 unsigned char *raw)
{
    eng_vclass_fill(c, d, raw, ROWS * STRIDE, LEN, STRIDE, seed);
    for (int r = 0; r < ROWS; r++) {
        for (int k = 0; k < LEN; k++)
            v[r][k] = eng_dtype_value(d, raw, (uint64_t)(r * STRIDE + k));
        for (int k = LEN; k < STRIDE; k++)
            assert_true(eng_dtype_value(d, raw, (uint64_t)(r * STRIDE + k)) == 0.0);
    }
}

static int distinct_in_row(const double *row)
{
    int n = 0;
    for (int k = 0; k < LEN; k++) {
        bool seen = false;
        for (int j = 0; j < k && !seen; j++)
            seen = row[j] == row[k] || (isnan(row[j]) && isnan(row[k]));
        n += !seen;
    }
    return n;
}

static void test_classes_hold_their_promise(void **state)
{
    (void)state;
    static unsigned char raw[ROWS * STRIDE * 4];
    double v[ROWS][LEN];
    for (size_t di = 0; di < sizeof floats / sizeof floats[0]; di++) {
        enum eng_dtype d = floats[di];
        const double maxf = d == ENG_F32    ? 3.4028234663852886e38
                            : d == ENG_BF16 ? 3.3895313892515355e38
                            : d == ENG_F16  ? 65504.0
                                            : 448.0;

        make(ENG_VC_ZERO_ROWS, d, 1, v, raw);
        for (int r = 0; r < ROWS; r++) {
            int zeros = 0;
            for (int k = 0; k < LEN; k++)
                zeros += v[r][k] == 0.0;
            if (r % 3 == 0)
                assert_int_equal(zeros, LEN);
            else
                assert_true(zeros < LEN / 2);
        }

        make(ENG_VC_CONST_ROWS, d, 1, v, raw);
        for (int r = 0; r < ROWS; r++)
            assert_int_equal(distinct_in_row(v[r]), 1);
        assert_true(v[0][0] != v[1][0] || v[1][0] != v[2][0]);

        make(ENG_VC_TIES, d, 1, v, raw);
        for (int r = 0; r < ROWS; r++)
            assert_true(distinct_in_row(v[r]) <= 4 && distinct_in_row(v[r]) >= 2);

        /* near-ties: values one or two ulps apart, not all equal. */
        make(ENG_VC_NEAR_TIES, d, 1, v, raw);
        for (int r = 0; r < ROWS; r++) {
            double lo = v[r][0], hi = v[r][0];
            for (int k = 0; k < LEN; k++) {
                lo = fmin(lo, v[r][k]);
                hi = fmax(hi, v[r][k]);
            }
            double ulp = d == ENG_F32    ? 0x1p-23
                         : d == ENG_BF16 ? 0x1p-7
                         : d == ENG_F16  ? 0x1p-10
                                         : 0x1p-3; /* at [1, 2) */
            assert_true(hi > lo);
            assert_true(hi - lo <= 2 * ulp * 1.0000001);
        }

        make(ENG_VC_ONE_HOT, d, 1, v, raw);
        for (int r = 0; r < ROWS; r++) {
            int ones = 0, zeros = 0;
            for (int k = 0; k < LEN; k++) {
                ones += v[r][k] == 1.0;
                zeros += v[r][k] == 0.0;
            }
            assert_int_equal(ones, 1);
            assert_int_equal(zeros, LEN - 1);
            assert_true(v[r][eng_vclass_column(ENG_VC_ONE_HOT, (uint64_t)r, LEN, 1)] == 1.0);
        }

        make(ENG_VC_PEAKED, d, 1, v, raw);
        for (int r = 0; r < ROWS; r++) {
            int big = 0, second = 0;
            for (int k = 0; k < LEN; k++) {
                big += v[r][k] == 8.0;
                second += v[r][k] == 4.0;
                assert_true(v[r][k] == 8.0 || v[r][k] == 4.0 || fabs(v[r][k]) < 3.0);
            }
            assert_int_equal(big, 1);
            assert_int_equal(second, 1);
        }

        make(ENG_VC_IDENTICAL_ROWS, d, 1, v, raw);
        for (int r = 1; r < ROWS; r++)
            assert_memory_equal(v[r], v[0], sizeof v[0]);
        assert_true(distinct_in_row(v[0]) > 4);

        make(ENG_VC_DISTINCT, d, 1, v, raw);
        for (int r = 0; r < ROWS; r++)
            assert_int_equal(distinct_in_row(v[r]), LEN);
        assert_true(v[0][0] != v[1][0]);

        make(ENG_VC_NAN_INF, d, 1, v, raw);
        for (int r = 0; r < ROWS; r++) {
            int special = 0;
            for (int k = 0; k < LEN; k++)
                special += !isfinite(v[r][k]) || (d == ENG_FP8E4M3 && fabs(v[r][k]) == 448.0);
            assert_int_equal(special, r % 4 == 3 ? 0 : 1); /* every fourth row ordinary */
            if (r % 4 == 3)
                continue;
            double s = v[r][eng_vclass_column(ENG_VC_NAN_INF, (uint64_t)r, LEN, 1)];
            if (r % 3 == 0)
                assert_true(isnan(s));
            else if (d != ENG_FP8E4M3) /* fp8 e4m3 has no infinities: it saturates */
                assert_true(isinf(s) && (s > 0) == (r % 3 == 1));
        }

        make(ENG_VC_DENORMALS, d, 1, v, raw);
        double min_normal = d == ENG_FP8E4M3 ? 0x1p-6 : d == ENG_F16 ? 0x1p-14 : 0x1p-126;
        int neg = 0;
        for (int r = 0; r < ROWS; r++)
            for (int k = 0; k < LEN; k++) {
                assert_true(v[r][k] != 0.0 && fabs(v[r][k]) < min_normal);
                neg += v[r][k] < 0;
            }
        assert_true(neg > 0 && neg < ROWS * LEN);

        make(ENG_VC_UNDER_FP8_MIN, d, 1, v, raw);
        for (int r = 0; r < ROWS; r++)
            for (int k = 0; k < LEN; k++) {
                double a = fabs(v[r][k]);
                if (d == ENG_FP8E4M3) /* rounds to 0 or the smallest subnormal 2^-9 */
                    assert_true(a == 0.0 || a == 0x1p-9);
                else
                    assert_true(a >= 0x1p-10 && a < 0x1p-9);
            }

        make(ENG_VC_MAX_FINITE, d, 1, v, raw);
        int at_max = 0;
        for (int r = 0; r < ROWS; r++)
            for (int k = 0; k < LEN; k++) {
                assert_true(isfinite(v[r][k]));
                at_max += fabs(v[r][k]) == maxf;
            }
        assert_true(at_max > ROWS * LEN / 4 && at_max < ROWS * LEN * 3 / 4);
    }
}

/* The largest |v| of a row. */
static double row_max(const double *row, int len)
{
    double m = 0;
    for (int k = 0; k < len; k++)
        m = fabs(row[k]) > m ? fabs(row[k]) : m;
    return m;
}

/* magnitude-ladder: every row but r % 4 == 3 holds one magnitude M (reached at one column,
 * never passed), the magnitudes go from 10 to the dtype's top decade (10^16 in f32 and bf16,
 * 10^4 in f16, 10^2 in fp8), rising when there are fewer rows than decades, and, given rows
 * enough, every decade between is one row's. */
static void test_magnitude_ladder(void **state)
{
    (void)state;
    static unsigned char raw[ROWS * STRIDE * 4];
    static const int tops[] = {16, 16, 2, 4}; /* floats[]: f32, bf16, fp8, f16 */
    double v[ROWS][LEN];
    for (size_t di = 0; di < sizeof floats / sizeof floats[0]; di++) {
        enum eng_dtype d = floats[di];
        float top = (float)pow(10.0, tops[di]);
        make(ENG_VC_MAGNITUDE_LADDER, d, 3, v, raw);
        double prev = 0;
        for (int r = 0; r < ROWS; r++) {
            double m = row_max(v[r], LEN);
            if (r % 4 == 3) { /* ordinary */
                assert_true(m > 0 && m < 8);
                continue;
            }
            /* fewer ladder rows (7) than decades: spread, rising; else the decades in turn */
            if (tops[di] > 7)
                assert_true(m > prev);
            prev = m > prev ? m : prev;
            int at = 0, neg = 0;
            for (int k = 0; k < LEN; k++) {
                at += v[r][k] == m;
                neg += v[r][k] < 0;
            }
            assert_true(at >= 1 && neg > 0);
        }
        assert_true(row_max(v[0], LEN) == 10.0); /* 10 is exact in every float dtype */
        double want_top = d == ENG_F32 ? (double)top : d == ENG_BF16 ? (double)eng_bf16_to_f32(eng_f32_to_bf16(top))
                          : d == ENG_F16 ? (double)eng_f16_to_f32(eng_f32_to_f16(top))
                                         : (double)eng_fp8e4m3_to_f32(eng_f32_to_fp8e4m3(top));
        assert_true(prev == want_top);
        if (tops[di] > 7)
            assert_true(row_max(v[ROWS - 1], LEN) == want_top);
    }
    /* 64 rows of 8: 48 ladder rows, three turns of the 16 decades */
    enum { R = 64, L = 8 };
    static float big[R * L];
    eng_vclass_fill(ENG_VC_MAGNITUDE_LADDER, ENG_F32, big, R * L, L, L, 5);
    int seen[17] = {0};
    for (int r = 0; r < R; r++) {
        double m = 0;
        for (int k = 0; k < L; k++)
            m = fabs((double)big[r * L + k]) > m ? fabs((double)big[r * L + k]) : m;
        if (r % 4 == 3)
            continue;
        int e = (int)lround(log10(m));
        assert_true(e >= 1 && e <= 16 && m == (double)(float)pow(10.0, e));
        seen[e]++;
    }
    for (int e = 1; e <= 16; e++)
        assert_int_equal(seen[e], 3);
}

static void test_deterministic_and_seeded(void **state)
{
    (void)state;
    static unsigned char a[ROWS * STRIDE * 4], b[ROWS * STRIDE * 4];
    for (int c = 0; c < ENG_VC_COUNT; c++) {
        eng_vclass_fill((enum eng_vclass)c, ENG_F32, a, ROWS * STRIDE, LEN, STRIDE, 7);
        eng_vclass_fill((enum eng_vclass)c, ENG_F32, b, ROWS * STRIDE, LEN, STRIDE, 7);
        assert_memory_equal(a, b, sizeof a);
    }
    eng_vclass_fill(ENG_VC_PEAKED, ENG_F32, a, ROWS * STRIDE, LEN, STRIDE, 7);
    eng_vclass_fill(ENG_VC_PEAKED, ENG_F32, b, ROWS * STRIDE, LEN, STRIDE, 8);
    assert_true(memcmp(a, b, sizeof a) != 0);
    /* Integer buffers are left to their own init: a class writes zeros there. */
    memset(a, 0x55, sizeof a);
    eng_vclass_fill(ENG_VC_TIES, ENG_I32, a, ROWS * STRIDE, LEN, STRIDE, 7);
    for (size_t i = 0; i < ROWS * STRIDE * 4; i++)
        assert_int_equal(a[i], 0);
}

/* A fill large enough to be split over threads gives the bits of the same fill on one thread,
 * in every class and float dtype (rows of odd length, so that no part ends on a round row). */
static void test_threads_same_bits(void **state)
{
    (void)state;
    enum { R = 1001, L = 97, S = 100 };
    static unsigned char a[R * S * 4], b[R * S * 4];
    for (int c = 0; c < ENG_VC_COUNT; c++)
        for (size_t f = 0; f < sizeof floats / sizeof floats[0]; f++) {
            setenv("KLADDER_FILL_THREADS", "1", 1);
            eng_vclass_fill((enum eng_vclass)c, floats[f], a, R * S, L, S, 11);
            setenv("KLADDER_FILL_THREADS", "8", 1);
            eng_vclass_fill((enum eng_vclass)c, floats[f], b, R * S, L, S, 11);
            assert_memory_equal(a, b, R * S * eng_dtype_size(floats[f]));
        }
    unsetenv("KLADDER_FILL_THREADS");
}

/* The host conversions agree with kernels/kl.h on the values the classes rely on. */
static void test_conversions(void **state)
{
    (void)state;
    assert_int_equal(eng_f32_to_bf16(1.0f), 0x3f80);
    assert_int_equal(eng_f32_to_bf16(1.00390625f), 0x3f80); /* a tie rounds to even */
    assert_int_equal(eng_f32_to_bf16(1.01171875f), 0x3f82);
    assert_int_equal(eng_f32_to_fp8e4m3(448.0f), 0x7e);
    assert_int_equal(eng_f32_to_fp8e4m3(1e9f), 0x7e);
    assert_int_equal(eng_f32_to_fp8e4m3(-INFINITY), 0xfe);
    assert_int_equal(eng_f32_to_fp8e4m3(NAN) & 0x7f, 0x7f);
    assert_int_equal(eng_f32_to_fp8e4m3(0x1p-9f), 0x01);
    assert_int_equal(eng_f32_to_fp8e4m3(0x1p-10f), 0x00); /* a tie at 0.5 of 2^-9 goes to even */
    assert_int_equal(eng_f32_to_fp8e4m3(1.0f), 0x38);
    for (unsigned b = 0; b < 256; b++)
        if ((b & 0x7f) != 0x7f)
            assert_int_equal(eng_f32_to_fp8e4m3(eng_fp8e4m3_to_f32((uint8_t)b)), b);
}

/* f16 both ways against the compiler's own _Float16 (a second implementation, the one a
 * kernel's host code would use): every one of the 65536 halves to f32, and f32 values around
 * every half (each half, the midpoints to its neighbours and a hair either side) to f16. */
__extension__ typedef _Float16 compiler_half; /* GCC and clang have it on x86-64 and arm64 */

static void test_f16_against_the_compiler(void **state)
{
    (void)state;
    for (uint32_t b = 0; b < 65536; b++) {
        uint16_t h = (uint16_t)b;
        compiler_half x;
        memcpy(&x, &h, 2);
        float ours = eng_f16_to_f32(h), theirs = (float)x;
        if (isnan(theirs)) {
            assert_true(isnan(ours));
            continue;
        }
        assert_memory_equal(&ours, &theirs, 4);
        float probes[5] = {ours, nextafterf(ours, INFINITY), nextafterf(ours, -INFINITY)};
        uint16_t up = (uint16_t)(b + 1);
        compiler_half nx;
        memcpy(&nx, &up, 2);
        float mid = (ours + (float)nx) * 0.5f;
        probes[3] = mid;
        probes[4] = nextafterf(mid, INFINITY);
        for (int k = 0; k < 5; k++) {
            if (!isfinite(probes[k]))
                continue;
            compiler_half c = (compiler_half)probes[k];
            uint16_t want;
            memcpy(&want, &c, 2);
            if (eng_f32_to_f16(probes[k]) != want)
                fail_msg("f32 %a: ours 0x%04x, the compiler's 0x%04x", (double)probes[k],
                         eng_f32_to_f16(probes[k]), want);
        }
    }
    assert_int_equal(eng_f32_to_f16(65504.0f), 0x7bff);
    assert_int_equal(eng_f32_to_f16(65519.99f), 0x7bff);
    assert_int_equal(eng_f32_to_f16(65520.0f), 0x7c00); /* the tie past the largest goes up */
    assert_int_equal(eng_f32_to_f16(-INFINITY), 0xfc00);
    assert_int_equal(eng_f32_to_f16(NAN) & 0x7e00, 0x7e00);
    assert_int_equal(eng_f32_to_f16(0x1p-25f), 0x0000); /* half the least subnormal: to even */
    assert_int_equal(eng_f32_to_f16(0x1.8p-25f), 0x0001);
    assert_int_equal(eng_dtype_sentinel(ENG_F16) & 0xffff, 0x7ca5);
    assert_true(isnan(eng_f16_to_f32(0x7ca5))); /* the sentinel is a NaN */
}

/* ---- manifests and the rung 2 planner ----------------------------------------------------- */

static char *suite(const char *init, const char *rung2)
{
    static char buf[2048];
    snprintf(buf, sizeof buf,
             "{\"format\": \"kladder-suite\", \"version\": 1, \"name\": \"t\", \"source\": \"t.kl\","
             " \"variants\": {\"fixed\": \"kf\", \"buggy\": \"kb\"}, \"reference\": \"kr\","
             " \"params\": {\"B\": 2, \"S\": 100, \"chunk\": 64, \"E\": 16, \"K\": 4},"
             " \"buffers\": [{\"name\": \"x\", \"dtype\": \"bf16\", \"shape\": [\"B\", \"S\"],"
             "   \"role\": \"input\"%s%s%s},"
             "  {\"name\": \"ids\", \"dtype\": \"i32\", \"shape\": [\"B\"], \"role\": \"input\"},"
             "  {\"name\": \"y\", \"dtype\": \"f32\", \"shape\": [\"B\", \"S\"], \"role\": \"output\"}],"
             " \"args\": [\"y\", \"x\", \"ids\", \"S\"], \"launch\": {\"block\": [64], \"grid\": [\"B\"]},"
             " \"tolerance\": {\"abs\": 0, \"rel\": 0},"
             " \"baseline\": [{\"S\": 128}, {\"S\": 256}], \"rungs\": {\"2\": %s}}",
             init ? ", \"init\": \"" : "", init ? init : "", init ? "\"" : "", rung2);
    return buf;
}

static void test_manifest_names_every_class(void **state)
{
    (void)state;
    char err[512];
    for (int c = 0; c < ENG_VC_COUNT; c++) {
        const char *text = suite(eng_vclass_name((enum eng_vclass)c), "{}");
        struct eng_manifest *m = eng_manifest_parse(text, strlen(text), "t.json", ".", err, sizeof err);
        if (!m)
            fail_msg("%s: %s", eng_vclass_name((enum eng_vclass)c), err);
        assert_int_equal(m->buffers[0].init, ENG_INIT_CLASS + c);
        eng_manifest_free(m);
    }
    const char *text = suite("tie", "{}");
    assert_null(eng_manifest_parse(text, strlen(text), "t.json", ".", err, sizeof err));
    assert_non_null(strstr(err, "t.json: buffers[0].init: expected one of"));
    assert_non_null(strstr(err, "near-ties"));
}

static size_t plan(const char *rung2, struct eng_planned **list, char *err, size_t errlen)
{
    const char *text = suite(NULL, rung2);
    struct eng_manifest *m = eng_manifest_parse(text, strlen(text), "t.json", ".", err, errlen);
    if (!m)
        return (size_t)-1;
    struct eng_plan_opts o = {.backend = "cpu", .wave = 32, .timeout_s = 10, .fixed = true,
                              .buggy = true, .baseline = true};
    size_t n = 0;
    *list = NULL;
    int rc = eng_plan_rung(m, "t.json", 2, &o, list, &n, err, errlen);
    eng_manifest_free(m);
    if (rc != 0) {
        eng_planned_free(*list, n);
        *list = NULL;
        return (size_t)-1;
    }
    return n;
}

static bool has(const struct eng_planned *l, size_t n, const char *name, const char *variant)
{
    for (size_t i = 0; i < n; i++)
        if (!strcmp(l[i].spec.name, name) && !strcmp(l[i].label, variant))
            return true;
    return false;
}

/* The planned check (name, variant); the test fails when there is none. */
static const struct eng_planned *find(const struct eng_planned *l, size_t n, const char *name,
                                      const char *variant)
{
    for (size_t i = 0; i < n; i++)
        if (!strcmp(l[i].spec.name, name) && !strcmp(l[i].label, variant))
            return &l[i];
    fail_msg("no check %s (%s) was planned", name, variant);
    return &l[0];
}

static void test_rung2_plans_classes_and_sweeps(void **state)
{
    (void)state;
    char err[512];
    struct eng_planned *l;
    /* No settings: every class at both baseline shapes, no sweeps. */
    size_t n = plan("{}", &l, err, sizeof err);
    if (n == (size_t)-1)
        fail_msg("%s", err);
    assert_int_equal(n, 2 * 2 + ENG_VC_COUNT * 2 * 2);
    const struct eng_planned *p = find(l, n, "peaked-S256", "buggy");
    assert_string_equal(p->spec.values, "peaked");
    assert_true(p->expect_fail);
    assert_int_equal(p->spec.shapes[0].values[0], 256);
    assert_null(find(l, n, "unit-test-S128", "baseline-fixed")->spec.values);
    eng_planned_free(l, n);

    /* Chunks by number and by parameter; top-k by parameter; classes narrowed. */
    n = plan("{\"classes\": [\"ties\"], \"chunks\": {\"S\": \"chunk\"}, \"topk\": {\"E\": \"K\"}}", &l,
             err, sizeof err);
    if (n == (size_t)-1)
        fail_msg("%s", err);
    const char *want[] = {"chunk-S1", "chunk-S63", "chunk-S64", "chunk-S65", "chunk-S127",
                          "chunk-S128", "chunk-S129", "topk-E1", "topk-E3", "topk-E4", "topk-E5",
                          "topk-E7", "topk-E8", "topk-E9", "ties-S128", "ties-S256"};
    assert_int_equal(n, 4 + 2 * (sizeof want / sizeof want[0]));
    for (size_t i = 0; i < sizeof want / sizeof want[0]; i++)
        if (!has(l, n, want[i], "fixed"))
            fail_msg("no check %s", want[i]);
    assert_null(find(l, n, "chunk-S63", "fixed")->spec.values);
    assert_false(has(l, n, "peaked-S128", "fixed"));
    eng_planned_free(l, n);

    int64_t lens[7];
    assert_int_equal(eng_r2_sweep_lengths(1, lens), 3); /* 1, 2, 3 */
    assert_int_equal(lens[2], 3);
    assert_int_equal(eng_r2_sweep_lengths(2, lens), 5); /* 1, 2, 3, 4, 5 */
}

static void test_rung2_settings_errors(void **state)
{
    (void)state;
    char err[512];
    struct eng_planned *l;
    assert_int_equal(plan("{\"class\": []}", &l, err, sizeof err), (size_t)-1);
    assert_non_null(strstr(err, "t.json: rungs.2: expected only the keys"));
    assert_int_equal(plan("{\"classes\": [\"tie\"]}", &l, err, sizeof err), (size_t)-1);
    assert_non_null(strstr(err, "t.json: rungs.2.classes[0]: expected one of zero-rows"));
    assert_int_equal(plan("{\"chunks\": {\"Q\": 64}}", &l, err, sizeof err), (size_t)-1);
    assert_non_null(strstr(err, "t.json: rungs.2.chunks.Q: expected a length parameter"));
    assert_int_equal(plan("{\"chunks\": {\"S\": 0}}", &l, err, sizeof err), (size_t)-1);
    assert_non_null(strstr(err, "rungs.2.chunks.S"));
    assert_int_equal(plan("{\"topk\": {\"E\": \"k\"}}", &l, err, sizeof err), (size_t)-1);
    assert_non_null(strstr(err, "rungs.2.topk.E: expected a whole number or a parameter"));
}

/* The suite text with the output's declaration replaced, parsed; NULL and err on failure. */
static struct eng_manifest *with_output(const char *decl, const char *rung2, char *err, size_t n)
{
    char text[2600];
    const char *base = suite(NULL, rung2);
    const char *at = strstr(base, "{\"name\": \"y\"");
    const char *end = strstr(at, "}],") + 1;
    snprintf(text, sizeof text, "%.*s%s%s", (int)(at - base), base, decl, end);
    return eng_manifest_parse(text, strlen(text), "t.json", ".", err, n);
}

static void test_value_rules_and_properties(void **state)
{
    (void)state;
    char err[512];
    struct eng_manifest *m = with_output(
        "{\"name\": \"y\", \"dtype\": \"i32\", \"shape\": [\"B\"], \"role\": \"output\","
        " \"ties\": \"any\", \"ties_in\": \"x\", \"nan\": \"never\"}", "{}", err, sizeof err);
    if (!m)
        fail_msg("%s", err);
    assert_true(m->buffers[2].ties_any);
    assert_int_equal(m->buffers[2].ties_in, 0);
    assert_true(m->buffers[2].nan_never);
    assert_false(m->buffers[0].ties_any);
    eng_manifest_free(m);
    static const struct {
        const char *decl, *msg;
    } bad[] = {
        {"{\"name\": \"y\", \"dtype\": \"i32\", \"shape\": [\"B\"], \"role\": \"output\", \"ties\": \"any\"}",
         "buffers[2].ties_in: expected the input whose values decide ties"},
        {"{\"name\": \"y\", \"dtype\": \"i32\", \"shape\": [\"B\"], \"role\": \"output\", \"ties\": \"any\", \"ties_in\": \"y\"}",
         "buffers[2].ties_in: expected the name of an input buffer, got \"y\""},
        {"{\"name\": \"y\", \"dtype\": \"f32\", \"shape\": [\"B\"], \"role\": \"output\", \"ties\": \"any\", \"ties_in\": \"x\"}",
         "buffers[2].ties_in: expected \"ties\": \"any\" on an index output"},
        {"{\"name\": \"y\", \"dtype\": \"i32\", \"shape\": [\"B\"], \"role\": \"output\", \"ties\": \"first\"}",
         "buffers[2].ties: expected one of lowest any"},
        {"{\"name\": \"y\", \"dtype\": \"f32\", \"shape\": [\"B\"], \"role\": \"output\", \"nan\": \"no\"}",
         "buffers[2].nan: expected one of propagate never"},
        {"{\"name\": \"y\", \"dtype\": \"f32\", \"shape\": [\"B\"], \"role\": \"output\", \"ties_in\": \"x\"}",
         "buffers[2].ties_in: expected only with \"ties\": \"any\""},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        m = with_output(bad[i].decl, "{}", err, sizeof err);
        assert_null(m);
        if (!strstr(err, bad[i].msg))
            fail_msg("\"%s\" lacks \"%s\"", err, bad[i].msg);
    }
    /* Properties: a good pair, then mistakes. */
    const char *ok_decl = "{\"name\": \"y\", \"dtype\": \"f32\", \"shape\": [\"B\", \"S\"], \"role\": \"output\"}";
    m = with_output(ok_decl, "{\"properties\": [{\"output\": \"y\", \"rows_sum_to\": 1},"
                    " {\"output\": \"y\", \"equals\": 1.0, \"when\": {\"x\": \"ones\"}, \"tolerance\": 0.001}]}",
                    err, sizeof err);
    if (!m)
        fail_msg("%s", err);
    const struct eng_rung2_spec *r = m->settings[2];
    assert_int_equal(r->nprops, 2);
    assert_true(r->props[0].rows_sum && r->props[0].when_buffer == NULL);
    assert_string_equal(r->props[1].when_init, "ones");
    assert_true(r->props[1].tol < 0.0011);
    eng_manifest_free(m);
    static const struct {
        const char *set, *msg;
    } badp[] = {
        {"{\"properties\": [{\"output\": \"x\", \"rows_sum_to\": 1}]}",
         "rungs.2.properties[0].output: expected a float output buffer, got \"x\""},
        {"{\"properties\": [{\"output\": \"y\"}]}",
         "rungs.2.properties[0]: expected exactly one of \"rows_sum_to\" and \"equals\""},
        {"{\"properties\": [{\"output\": \"y\", \"equals\": 1, \"when\": {\"ids\": \"ties\"}}]}",
         "rungs.2.properties[0].when.ids: expected an init of that buffer"},
        {"{\"properties\": [{\"output\": \"y\", \"equals\": 1, \"when\": {\"q\": \"ones\"}}]}",
         "rungs.2.properties[0].when.q: expected an input buffer"},
        {"{\"properties\": [{\"output\": \"y\", \"equal\": 1}]}",
         "rungs.2.properties[0]: expected only the keys"},
    };
    for (size_t i = 0; i < sizeof badp / sizeof badp[0]; i++) {
        m = with_output(ok_decl, badp[i].set, err, sizeof err);
        assert_null(m);
        if (!strstr(err, badp[i].msg))
            fail_msg("\"%s\" lacks \"%s\"", err, badp[i].msg);
    }
    /* A conditional property plans one check per class with its input made as it says. */
    struct eng_planned *l;
    size_t n = plan("{\"classes\": [\"peaked\"], \"properties\": [{\"output\": \"y\", \"equals\": 1,"
                    " \"when\": {\"x\": \"ones\"}}]}", &l, err, sizeof err);
    if (n == (size_t)-1)
        fail_msg("%s", err);
    assert_string_equal(find(l, n, "peaked-S128+x=ones", "buggy")->spec.values, "peaked;x=ones");
    eng_planned_free(l, n);
}

int main(void)
{
    eng_tables_install(); /* the built-in rungs and the backends, as kladder's main hands them in */
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_classes_hold_their_promise),
        cmocka_unit_test(test_magnitude_ladder),
        cmocka_unit_test(test_deterministic_and_seeded),
        cmocka_unit_test(test_threads_same_bits),
        cmocka_unit_test(test_conversions),
        cmocka_unit_test(test_f16_against_the_compiler),
        cmocka_unit_test(test_manifest_names_every_class),
        cmocka_unit_test(test_rung2_plans_classes_and_sweeps),
        cmocka_unit_test(test_rung2_settings_errors),
        cmocka_unit_test(test_value_rules_and_properties),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
