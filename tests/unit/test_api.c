/* The C API (engine/api/kladder.h) from C, as a second language would use it: a row maximum of
 * our own, written blockwise, up rungs 1 and 2 on the cpu backend. The correct op passes every
 * check and its run is recorded as a pass; one that skips the partial last block fails rung 1's
 * tail shapes, naming the first bad element; an op that reports a failure makes its check an
 * error naming the message. A bad description is one error naming its field, and the rungs an op
 * cannot have say why. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "engine/api/kladder.h"
#include "engine/rung.h"
#include "tests/unit/helpers/tmpdb.h"

enum impl { ROWMAX_OK, ROWMAX_TAIL_BUG, ROWMAX_FAILS };

/* Buffer name's index in a call, or -1. */
static int buffer(const kl_call *c, const char *name)
{
    for (size_t b = 0; b < kl_call_buffers(c); b++)
        if (!strcmp(kl_call_buffer_name(c, b), name))
            return (int)b;
    return -1;
}

/* out[r] = max of row r of x: the op blockwise (BLOCK at a time), the reference in double. */
static int rowmax(void *user, int reference, kl_call *c)
{
    enum impl how = *(enum impl *)user;
    int bx = buffer(c, "x"), bo = buffer(c, "out");
    double block;
    assert_true(bx >= 0 && bo >= 0 && kl_call_is_output(c, (size_t)bo) && !kl_call_is_output(c, (size_t)bx));
    assert_string_equal(kl_call_buffer_dtype(c, (size_t)bx), "f32");
    assert_int_equal(kl_call_param(c, "BLOCK", &block), 0);
    assert_int_equal(kl_call_param(c, "nope", &block) + 1, 0);
    if (how == ROWMAX_FAILS && !reference) {
        kl_call_fail(c, "device out of patience");
        return 1;
    }
    long long rows = kl_call_dim(c, (size_t)bx, 0), n = kl_call_dim(c, (size_t)bx, 1);
    assert_int_equal(kl_call_dim(c, (size_t)bo, 0), rows);
    const float *x = kl_call_data(c, (size_t)bx);
    float *out = kl_call_data(c, (size_t)bo);
    long long end = how == ROWMAX_TAIL_BUG && !reference ? n - n % (long long)block : n;
    for (long long r = 0; r < rows; r++) {
        double m = -1e300;
        for (long long j = 0; j < end; j++)
            if ((double)x[r * n + j] > m)
                m = (double)x[r * n + j];
        out[r] = (float)m;
    }
    return 0;
}

static kl_op *rowmax_op(void)
{
    kl_op *op = kl_op_new("rowmax");
    assert_non_null(op);
    const char *xd[] = {"M", "N"}, *od[] = {"M"};
    assert_int_equal(kl_op_param(op, "M", 4), 0);
    assert_int_equal(kl_op_param(op, "N", 64), 0);
    assert_int_equal(kl_op_param(op, "BLOCK", 16), 0);
    assert_int_equal(kl_op_buffer(op, "x", "f32", "input", xd, 2), 0);
    assert_int_equal(kl_op_buffer(op, "out", "f32", "output", od, 1), 0);
    assert_int_equal(kl_op_tolerance(op, 0, 0), 0);
    assert_int_equal(kl_op_set(op, "tiles", "{\"BLOCK\": [16]}"), 0);
    assert_int_equal(kl_op_rung(op, 1, "{\"tail_dims\": {\"BLOCK\": \"N\"}}"), 0);
    assert_int_equal(kl_op_rung(op, 2, "{\"classes\": [\"ties\", \"large-mean\"]}"), 0);
    return op;
}

/* Runs every planned check of op with impl how; the run's kl_run_end status. */
static int run_all(kl_db *db, kl_op *op, enum impl how, int *fails, int *errors, char *detail,
                   size_t dlen)
{
    kl_run *run = kl_run_begin(db, op, "test_api");
    assert_non_null(run);
    assert_int_equal(strlen(kl_run_id(run)), 36);
    *fails = *errors = 0;
    for (size_t i = 0; i < kl_op_checks(op); i++) {
        assert_true(kl_run_check(run, i, rowmax, &how) >= 0);
        const char *v = kl_check_verdict(run, i);
        *fails += !strcmp(v, "fail");
        *errors += !strcmp(v, "error");
        if (strcmp(v, "pass") && !detail[0])
            snprintf(detail, dlen, "%s: %s", kl_check_name(op, i), kl_check_detail(run, i));
    }
    const char *verdict = NULL;
    int rc = kl_run_end(run, &verdict);
    assert_string_equal(verdict, rc == 0 ? "pass" : how == ROWMAX_FAILS ? "error" : "fail");
    kl_run_free(run);
    return rc;
}

static void test_ladder_from_c(void **state)
{
    (void)state;
    const char *cache = getenv("KL_CACHE");
    if (cache)
        setenv("XDG_CACHE_HOME", cache, 1);
    char path[64];
    assert_int_equal(tmpdb_make("api", path, sizeof path), 0);
    kl_db *db = kl_db_open(path);
    assert_non_null(db);
    kl_op *op = rowmax_op();
    int rungs[] = {1, 2};
    int n = kl_op_plan(op, rungs, 2, "cpu", 1);
    assert_true(n >= 6); /* 4 tails and a tile, then 2 classes */
    assert_int_equal(kl_check_rung(op, 0), 1);
    assert_string_equal(kl_check_name(op, 0), "tail-N17-BLOCK16");
    assert_string_equal(kl_check_values(op, (size_t)n - 1), "large-mean");

    kl_run *open = kl_run_begin(db, op, NULL);
    assert_int_equal(kl_op_plan(op, rungs, 2, "cpu", 1), -1);
    assert_non_null(strstr(kl_error(), "a run of op rowmax is still open"));
    assert_int_equal(kl_run_end(open, NULL), 1); /* nothing ran: nothing was shown */
    kl_run_free(open);

    int fails, errors;
    char detail[2048] = "";
    assert_int_equal(run_all(db, op, ROWMAX_OK, &fails, &errors, detail, sizeof detail), 0);
    assert_int_equal(fails + errors, 0);

    assert_int_equal(run_all(db, op, ROWMAX_TAIL_BUG, &fails, &errors, detail, sizeof detail), 1);
    assert_true(fails >= 1);
    assert_int_equal(errors, 0);
    assert_non_null(strstr(detail, "tail-N"));
    assert_non_null(strstr(detail, "first at ["));

    detail[0] = '\0';
    assert_int_equal(run_all(db, op, ROWMAX_FAILS, &fails, &errors, detail, sizeof detail), 1);
    assert_int_equal(errors, n);
    assert_non_null(strstr(detail, "the op failed: device out of patience"));
    kl_op_free(op);
    kl_db_close(db);
    tmpdb_remove(path);
}

static void test_bad_descriptions(void **state)
{
    (void)state;
    assert_null(kl_op_new("no spaces"));
    assert_non_null(strstr(kl_error(), "op name"));
    kl_op *op = kl_op_new("bad");
    const char *d[] = {"M"};
    assert_int_equal(kl_op_buffer(op, "x", "f32", "inout", d, 1), -1);
    assert_string_equal(kl_error(), "buffers.x.role: expected \"input\" or \"output\", got \"inout\"");
    assert_int_equal(kl_op_buffer(op, "x", "f64", "input", d, 1), 0);
    assert_int_equal(kl_op_buffer_set(op, "x", "colour", "1"), -1);
    assert_non_null(strstr(kl_error(), "buffers.x.colour"));
    assert_int_equal(kl_op_buffer_set(op, "x", "init", "{"), -1);
    assert_non_null(strstr(kl_error(), "buffers.x.init: expected JSON"));
    assert_int_equal(kl_op_rung(op, 4, NULL), -1);
    assert_non_null(strstr(kl_error(), "rung 4: rung 4 runs the kernel inside graphs"));
    assert_null(kl_rung_unavailable(5));
    assert_non_null(kl_rung_unavailable(eng_rung_top() + 1)); /* past the ladder, however long */
    assert_int_equal(kl_op_param(op, "M", 8), 0);
    assert_int_equal(kl_op_rung(op, 2, NULL), 0);
    int r2[] = {2};
    assert_int_equal(kl_op_plan(op, r2, 1, "tpu", 1), -1);
    assert_non_null(strstr(kl_error(), "backend"));
    /* the manifest parser's own message, naming the field */
    assert_int_equal(kl_op_plan(op, r2, 1, "cpu", 1), -1);
    assert_non_null(strstr(kl_error(), "op bad: buffers[0].dtype: expected one of f32"));
    assert_int_equal(kl_op_checks(op), 0);
    kl_op_free(op);
    assert_int_equal(kl_api_version(), KLADDER_API_VERSION);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_bad_descriptions),
        cmocka_unit_test(test_ladder_from_c),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
