/* Suite manifests: a valid one parses with its defaults; expressions evaluate with checked
 * arithmetic; padded buffer sizes; and each kind of mistake is refused with a message naming
 * the file, the field and what was expected. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "engine/values/expr.h"
#include "engine/rung.h"
#include "engine/rungs/rung1.h"
#include "engine/rungs/rung4.h"
#include "engine/rungs/rung5.h"
#include "engine/manifest.h"
#include "engine/plan.h"
#include "engine/tables/tables.h"

/* a declared rung's settings, as the rung parsed them */
#define R1(m) ((const struct eng_rung1_spec *)(m)->settings[1])
#define R4(m) ((const struct eng_rung4_spec *)(m)->settings[4])
#define R5(m) ((const struct eng_rung5_spec *)(m)->settings[5])

static const char good[] =
    "{\"format\": \"kladder-suite\", \"version\": 1, \"name\": \"t\", \"case\": \"c-1\","
    " \"source\": \"t.kl\", \"variants\": {\"fixed\": \"kf\", \"buggy\": \"kb\"}, \"reference\": \"kr\","
    " \"params\": {\"M\": 100, \"N\": 64, \"K\": 640, \"tile_k\": 256, \"eps\": 0.5},"
    " \"tiles\": {\"tile_k\": [64, 256]},"
    " \"tuned\": [{\"M\": 128, \"N\": 64, \"K\": 512, \"tile_k\": 256}],"
    " \"buffers\": [{\"name\": \"A\", \"dtype\": \"bf16\", \"shape\": [\"M\", \"K\"], \"role\": \"input\"},"
    "   {\"name\": \"C\", \"dtype\": \"f32\", \"shape\": [\"M\", \"N\"], \"role\": \"output\", \"pad_to\": {\"M\": 64}}],"
    " \"args\": [\"C\", \"A\", \"M\", \"K / tile_k\", \"eps\"], \"arg_types\": {\"eps\": \"f32\", \"M\": \"i64\"},"
    " \"launch\": {\"block\": [256], \"grid\": [\"ceil(N, 16)\", \"ceil(M, 16)\"]},"
    " \"tolerance\": {\"abs\": 0.01, \"rel\": 0.02},"
    " \"baseline\": [{\"M\": 64, \"K\": 512}],"
    " \"variant_options\": {\"buggy\": {\"event\": false, \"scratch_reset\": \"once\"}},"
    " \"rungs\": {\"1\": {\"cliffs\": [{\"buffer\": \"C\", \"param\": \"M\", \"with\": {\"N\": 151936}}]}, \"5\": {\"failure_rate\": 0.05}}}";

static void test_good_manifest(void **state)
{
    (void)state;
    char err[512];
    struct eng_manifest *m = eng_manifest_parse(good, strlen(good), "t.json", ".", err, sizeof err);
    if (!m)
        fail_msg("%s", err);
    assert_string_equal(m->entry_fixed, "kf");
    assert_string_equal(m->entry_buggy, "kb");
    assert_int_equal(m->nparams, 5);
    assert_int_equal(m->nbuffers, 2);
    assert_int_equal(m->args[0].buffer, 1);
    assert_int_equal(m->args[2].type, ENG_ARG_I64);
    assert_int_equal(m->args[4].type, ENG_ARG_F32);
    assert_true(m->opt_fixed.event && !m->opt_fixed.scratch_once);
    assert_true(!m->opt_buggy.event && m->opt_buggy.scratch_once);
    assert_true(m->has_rung[1] && !m->has_rung[4] && m->has_rung[5]);
    /* tile_k divides K by default */
    assert_int_equal(R1(m)->ntail, 1);
    assert_string_equal(R1(m)->tail_dim[0], "K");

    struct eng_values v;
    assert_int_equal(eng_values_make(m, NULL, NULL, NULL, &v, err, sizeof err), 0);
    struct eng_buffer_size sz;
    assert_int_equal(eng_buffer_size(m, 1, &v, &sz, err, sizeof err), 0);
    assert_int_equal(sz.elems, 100 * 64);
    assert_int_equal(sz.padded_elems, 128 * 64); /* M padded to a multiple of 64 */
    assert_int_equal(sz.padded_bytes, 128 * 64 * 4);
    unsigned g[3], b[3], sh;
    assert_int_equal(eng_launch_eval(m, false, &v, g, b, &sh, err, sizeof err), 0);
    assert_int_equal(g[0], 4);
    assert_int_equal(g[1], 7);
    assert_int_equal(g[2], 1);
    assert_int_equal(b[0], 256);
    char *d = eng_values_describe(m, &v);
    assert_string_equal(d, "M=100,N=64,K=640,tile_k=256");
    free(d);
    eng_values_free(&v);

    /* Rung 1 plans tails, tiles, cliffs (2^31/2^32 bytes of C at N=151936) and untuned shapes. */
    struct eng_planned *plan = NULL;
    size_t n = 0;
    struct eng_plan_opts po = {.backend = "cpu", .wave = 32, .fixed = true, .buggy = true,
                               .baseline = true, .timeout_s = 5};
    assert_int_equal(eng_plan_rung(m, "t.json", 1, &po, &plan, &n, err, sizeof err), 0);
    bool below31 = false, above32 = false, tail = false, base = false;
    for (size_t i = 0; i < n; i++) {
        const char *nm = plan[i].spec.name;
        if (!strcmp(nm, "cliff-C-below2^31-M3520"))
            below31 = true;
        if (!strcmp(nm, "cliff-C-above2^32-M7104"))
            above32 = true;
        if (!strcmp(nm, "tail-K257-tile_k256"))
            tail = true;
        if (plan[i].spec.baseline)
            base = true;
        assert_true(plan[i].expect_fail == (!plan[i].spec.baseline && !strcmp(plan[i].spec.variant, "buggy")));
    }
    /* 3520 rows pad to 3520 (a multiple of 64): 3520*151936*4 < 2^31; 7104 is the first multiple
     * of 64 rows whose padded size passes 2^32 (7041 rows pad to 7104). */
    assert_true(below31);
    assert_true(tail);
    assert_true(base);
    (void)above32;
    eng_planned_free(plan, n);
    assert_int_equal(eng_plan_repeats(0.05, 0.99), 90);
    assert_int_equal(eng_plan_repeats(0.01, 0.99), 459);
    /* aiter-4841: 7 failures in 292,889,600 calls, ruled out at 95%: past the old 10^6 cap,
     * and exact only with log1p (log(1 - p) rounds p = 2.4e-8 to a few digits) */
    assert_int_equal(eng_plan_repeats(7.0 / 292889600.0, 0.95), 125345546);
    /* and back: N equal repeats rule out the rate they were chosen for, no more */
    double back = eng_plan_rate_ruled_out(125345546, 0.95);
    assert_true(back <= 7.0 / 292889600.0 && back > 0.9999 * 7.0 / 292889600.0);
    assert_true(fabs(eng_plan_rate_ruled_out(299, 0.95) - 0.00997) < 1e-4);
    eng_manifest_free(m);
}

static void expect_error(const char *from, const char *to, const char *want)
{
    char *text = malloc(strlen(good) + strlen(to) + 1);
    const char *at = strstr(good, from);
    assert_non_null(at);
    size_t pre = (size_t)(at - good);
    memcpy(text, good, pre);
    strcpy(text + pre, to);
    strcat(text, at + strlen(from));
    char err[512] = "";
    struct eng_manifest *m = eng_manifest_parse(text, strlen(text), "x.json", ".", err, sizeof err);
    if (m)
        fail_msg("accepted a manifest with %s", to);
    if (!strstr(err, want) || strncmp(err, "x.json: ", 8) != 0)
        fail_msg("message '%s' lacks '%s'", err, want);
    free(text);
}

static void test_errors(void **state)
{
    (void)state;
    expect_error("\"f32\", \"shape\"", "\"f64\", \"shape\"", "buffers[1].dtype: expected one of f32");
    expect_error("\"role\": \"output\"", "\"role\": \"out\"", "buffers[1].role: expected one of input output scratch");
    expect_error("ceil(N, 16)", "ceil(Q, 16)", "launch.grid[0]: expected an expression over the parameters: unknown name 'Q'");
    expect_error("ceil(N, 16)", "ceil(N 16)", "expected ',' between two arguments");
    expect_error("\"fixed\": \"kf\"", "\"fixd\": \"kf\"", "variants: expected only \"fixed\" and \"buggy\"");
    expect_error("\"kf\"", "\"k f\"", "variants.fixed: expected a kernel entry point name");
    expect_error("\"tolerance\"", "\"tolerence\"", "tolerence: unknown field");
    expect_error("\"M\": 100,", "\"M\": \"100\",", "params.M: expected a number");
    expect_error("\"tile_k\": [64, 256]", "\"tile_q\": [64, 256]", "tiles.tile_q: expected a parameter");
    expect_error("\"tile_k\": [64, 256]", "\"tile_k\": [64, 2.5]", "tiles.tile_k[1]: expected a whole number");
    expect_error("{\"M\": 64, \"K\": 512}", "{\"Z\": 64}", "baseline[0].Z: expected a parameter named in \"params\"");
    expect_error("\"baseline\": [{\"M\": 64, \"K\": 512}]", "\"baseline\": []", "baseline: expected at least one");
    expect_error("\"eps\": \"f32\"", "\"eps\": \"f16\"", "arg_types.eps: expected one of i32 u32 i64 u64 f32");
    expect_error("\"K / tile_k\"", "\"eps\", \"eps2\"", "args[4]: expected a buffer name or an expression over the parameters");
    expect_error("\"scratch_reset\": \"once\"", "\"scratch_reset\": \"twice\"", "variant_options.buggy.scratch_reset: expected one of per_launch once");
    expect_error("\"5\": {\"failure_rate\": 0.05}", "\"5\": {\"failure_rate\": 2}", "rungs.5.failure_rate: expected a number from");
    expect_error("\"buffer\": \"C\"", "\"buffer\": \"D\"", "rungs.1.cliffs[0].buffer: expected a buffer named in \"buffers\"");
    expect_error("\"version\": 1", "\"version\": 3", "version: expected a whole number from 1 to 1, got 3");
    expect_error("\"pad_to\": {\"M\": 64}", "\"pad_to\": {\"Q\": 64}", "buffers[1].pad_to.Q: expected a key equal to one of the buffer's \"shape\" entries");
    expect_error("\"source\": \"t.kl\"", "\"source\": \"../t.kl\"", "source: expected a file name beside the manifest");
    char err[256];
    assert_null(eng_manifest_parse("{\"format\": ", 11, "y.json", ".", err, sizeof err));
    assert_non_null(strstr(err, "y.json: line 1: expected valid JSON"));
}

static bool lookup(const void *ctx, const char *name, size_t len, int64_t *v)
{
    (void)ctx;
    if (len == 1 && name[0] == 'N') {
        *v = 100;
        return true;
    }
    return false;
}

static void test_expressions(void **state)
{
    (void)state;
    int64_t v;
    char err[256];
    assert_int_equal(eng_expr_eval("ceil(N, 64) * 64 + min(3, 4) - max(1, 2) % 2", lookup, NULL, &v, err, sizeof err), 0);
    assert_int_equal(v, 128 + 3 - 0);
    assert_int_equal(eng_expr_eval("-(N / 3)", lookup, NULL, &v, err, sizeof err), 0);
    assert_int_equal(v, -33);
    assert_int_equal(eng_expr_eval("9223372036854775807 + 1", lookup, NULL, &v, err, sizeof err), -1);
    assert_non_null(strstr(err, "overflow"));
    assert_int_equal(eng_expr_eval("N / 0", lookup, NULL, &v, err, sizeof err), -1);
    assert_non_null(strstr(err, "division by zero"));
    assert_int_equal(eng_expr_eval("N N", lookup, NULL, &v, err, sizeof err), -1);
    assert_int_equal(eng_expr_eval("floor(N, 2)", lookup, NULL, &v, err, sizeof err), -1);
    assert_non_null(strstr(err, "unknown function"));
}

int main(void)
{
    eng_tables_install(); /* the built-in rungs and the backends, as kladder's main hands them in */
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_good_manifest),
        cmocka_unit_test(test_errors),
        cmocka_unit_test(test_expressions),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
