/* Replayed inputs (engine/exec/replay.h): the shape tensors imply, the exact conversions into each
 * buffer dtype (and the inexact ones refused with the element and its value), the padded
 * layout, and bindings found in a file or a folder by buffer name. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/xalloc.h"
#include "engine/manifest.h"
#include "engine/exec/replay.h"
#include "engine/values/value_class.h"
#include "engine/tables/tables.h"

static char dir[] = "/tmp/kl-replay-XXXXXX";

/* x: f32 [R, N] padded to 8 columns; ids: i32 [R]; w: bf16 [N]. */
static const char suite_text[] =
    "{\"format\": \"kladder-suite\", \"version\": 1, \"name\": \"rp\", \"source\": \"rp.kl\","
    " \"variants\": {\"fixed\": \"kf\"}, \"reference\": \"kr\", \"params\": {\"R\": 2, \"N\": 4},"
    " \"buffers\": [{\"name\": \"x\", \"dtype\": \"f32\", \"shape\": [\"R\", \"N\"], \"role\": \"input\","
    "   \"pad_to\": {\"N\": 8}},"
    "  {\"name\": \"ids\", \"dtype\": \"i32\", \"shape\": [\"R\"], \"role\": \"input\"},"
    "  {\"name\": \"w\", \"dtype\": \"bf16\", \"shape\": [\"N\"], \"role\": \"input\"},"
    "  {\"name\": \"y\", \"dtype\": \"f32\", \"shape\": [\"R\"], \"role\": \"output\"}],"
    " \"args\": [\"y\", \"x\", \"ids\", \"w\", \"R\", \"N\"], \"launch\": {\"block\": [32], \"grid\": [1]},"
    " \"baseline\": [{\"R\": 2}], \"rungs\": {\"2\": {}}}";

static struct eng_manifest *suite(void)
{
    char err[512];
    struct eng_manifest *m = eng_manifest_parse(suite_text, strlen(suite_text), "rp.json", dir,
                                                err, sizeof err);
    if (!m)
        fail_msg("%s", err);
    return m;
}

/* Writes a safetensors file of one tensor; returns its path (static buffer per call site). */
static char *write_st(const char *name, const char *tensor, const char *dtype, const char *shape,
                      const void *data, size_t n)
{
    char header[256], *path = xasprintf("%s/%s", dir, name);
    int hl = snprintf(header, sizeof header,
                      "{\"%s\": {\"dtype\": \"%s\", \"shape\": %s, \"data_offsets\": [0, %zu]}}",
                      tensor, dtype, shape, n);
    FILE *f = fopen(path, "wb");
    uint64_t len = (uint64_t)hl;
    unsigned char le[8];
    for (int i = 0; i < 8; i++)
        le[i] = (unsigned char)(len >> (8 * i));
    fwrite(le, 1, 8, f);
    fwrite(header, 1, (size_t)hl, f);
    fwrite(data, 1, n, f);
    fclose(f);
    return path;
}

static int check1(const struct eng_manifest *m, const char *buffer, char *file,
                  const char *tensor, bool raw, struct eng_shape *s, char *err, size_t n)
{
    char bname[32], tname[32];
    snprintf(bname, sizeof bname, "%s", buffer);
    snprintf(tname, sizeof tname, "%s", tensor);
    struct eng_replay_bind b = {bname, file, tname, raw};
    return eng_replay_check(m, &b, 1, s, err, n);
}

static void test_shape_and_padded_layout(void **state)
{
    (void)state;
    struct eng_manifest *m = suite();
    /* F16 values are exact in f32: 3 rows of 5, laid out 8 apart. */
    uint16_t h[15];
    for (int i = 0; i < 15; i++)
        h[i] = (uint16_t)(0x3c00 + i); /* 1 + i/1024 */
    char *p = write_st("x.safetensors", "x", "F16", "[3, 5]", h, sizeof h);
    struct eng_shape s;
    char err[512];
    if (check1(m, "x", p, "x", false, &s, err, sizeof err) != 0)
        fail_msg("%s", err);
    assert_int_equal(s.n, 2);
    assert_string_equal(s.keys[0], "R");
    assert_int_equal(s.values[0], 3);
    assert_int_equal(s.values[1], 5);
    struct eng_values v;
    assert_int_equal(eng_values_make(m, &s, NULL, NULL, &v, err, sizeof err), 0);
    float out[24];
    memset(out, 0x55, sizeof out);
    char ref[300];
    snprintf(ref, sizeof ref, "@%s#x", p);
    if (eng_replay_fill(m, 0, &v, ref, out, 24, err, sizeof err) != 0)
        fail_msg("%s", err);
    for (int r = 0; r < 3; r++)
        for (int c = 0; c < 8; c++) {
            float want = c < 5 ? 1.0f + (float)(r * 5 + c) / 1024.0f : 0.0f;
            if (memcmp(&out[r * 8 + c], &want, 4) != 0)
                fail_msg("element [%d, %d] is %g, expected %g", r, c, (double)out[r * 8 + c],
                         (double)want);
        }
    eng_values_free(&v);
    eng_shape_free(&s);
    free(p);
    eng_manifest_free(m);
}

static void test_exact_conversions_only(void **state)
{
    (void)state;
    struct eng_manifest *m = suite();
    struct eng_shape s;
    char err[512];
    /* f32 into bf16: exact values pass, 0.1 is refused naming the element. */
    float ok[4] = {1.0f, -2.5f, 0.0f, NAN}, bad[4] = {1.0f, 0.1f, 2.0f, 3.0f};
    char *p1 = write_st("w1.safetensors", "w", "F32", "[4]", ok, sizeof ok);
    char *p2 = write_st("w2.safetensors", "w", "F32", "[4]", bad, sizeof bad);
    if (check1(m, "w", p1, "w", false, &s, err, sizeof err) != 0)
        fail_msg("%s", err);
    eng_shape_free(&s);
    assert_int_equal(check1(m, "w", p2, "w", false, &s, err, sizeof err), -1);
    assert_non_null(strstr(err, "w2.safetensors: tensor 'w': element 1: 0.100000001 is not exact in buffer w's bf16"));
    /* A float64 capture for an f32 buffer: its 0.1 is not exact, and the message says how to
     * save one that fits. */
    double x64[8] = {1.0, 0.1, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0};
    char *p64 = write_st("x64.safetensors", "x", "F64", "[2, 4]", x64, sizeof x64);
    assert_int_equal(check1(m, "x", p64, "x", false, &s, err, sizeof err), -1);
    assert_non_null(strstr(err, "0.1 is not exact in buffer x's f32"));
    assert_non_null(strstr(err, "the F64 tensor is wider than the buffer: cast it to float32"));
    unlink(p64);
    free(p64);
    /* Integers: in range passes, 2^31 does not fit i32; floats never reach an integer buffer. */
    int64_t i_ok[2] = {-5, 7}, i_bad[2] = {1, (int64_t)1 << 31};
    char *p3 = write_st("i1.safetensors", "ids", "I64", "[2]", i_ok, sizeof i_ok);
    char *p4 = write_st("i2.safetensors", "ids", "I64", "[2]", i_bad, sizeof i_bad);
    char *p5 = write_st("i3.safetensors", "ids", "F32", "[2]", ok, 8);
    if (check1(m, "ids", p3, "ids", false, &s, err, sizeof err) != 0)
        fail_msg("%s", err);
    eng_shape_free(&s);
    assert_int_equal(check1(m, "ids", p4, "ids", false, &s, err, sizeof err), -1);
    assert_non_null(strstr(err, "tensor 'ids': element 1: 2147483648 is not exact in buffer ids's i32"));
    assert_int_equal(check1(m, "ids", p5, "ids", false, &s, err, sizeof err), -1);
    assert_non_null(strstr(err, "tensor 'ids': dtype: a F32 tensor does not convert to buffer ids's i32"));
    /* Raw 16-bit integers are bf16 only when declared. */
    uint16_t raw[4] = {0x3f80, 0x4000, 0xbf80, 0x0000};
    char *p6 = write_st("w3.safetensors", "w", "U16", "[4]", raw, sizeof raw);
    assert_int_equal(check1(m, "w", p6, "w", false, &s, err, sizeof err), -1);
    assert_non_null(strstr(err, "only when the suite's inputs binding declares \"dtype\": \"bf16\""));
    if (check1(m, "w", p6, "w", true, &s, err, sizeof err) != 0)
        fail_msg("%s", err);
    eng_shape_free(&s);
    /* fp8 E5M2 and E8M0 decode exactly into f32 (x is f32). */
    uint8_t e5[8] = {0x3c, 0xbc, 0x40, 0x00, 0x01, 0x7b, 0x3c, 0x3c}; /* 1 -1 2 0 2^-16 57344 */
    char *p7 = write_st("x5.safetensors", "x", "F8_E5M2", "[2, 4]", e5, sizeof e5);
    if (check1(m, "x", p7, "x", false, &s, err, sizeof err) != 0)
        fail_msg("%s", err);
    struct eng_values v;
    assert_int_equal(eng_values_make(m, &s, NULL, NULL, &v, err, sizeof err), 0);
    float out[16];
    char ref[300];
    snprintf(ref, sizeof ref, "@%s#x", p7);
    assert_int_equal(eng_replay_fill(m, 0, &v, ref, out, 16, err, sizeof err), 0);
    assert_true(out[0] > 0.99f && out[0] < 1.01f && out[1] < -0.99f && out[8] > 1.0e-5f &&
                out[8] < 1.6e-5f && out[9] > 57343.0f);
    eng_values_free(&v);
    eng_shape_free(&s);
    /* A rank or a size that disagrees with the buffer. */
    float eight[8] = {1, 2, 3, 4, 5, 6, 7, 8};
    char *p8 = write_st("x6.safetensors", "x", "F32", "[8]", eight, sizeof eight);
    assert_int_equal(check1(m, "x", p8, "x", false, &s, err, sizeof err), -1);
    assert_non_null(strstr(err, "tensor 'x': shape: expected 2 dimensions (buffer x), got 1"));
    char *p9 = write_st("w4.safetensors", "w", "F32", "[3]", ok, 12);
    char xn[] = "x", wn[] = "w";
    struct eng_replay_bind two[2] = {{xn, p7, xn, false}, {wn, p9, wn, false}};
    assert_int_equal(eng_replay_check(m, two, 2, &s, err, sizeof err), -1);
    assert_non_null(strstr(err, "tensor 'w': shape[0]: expected 4 (N, as another bound tensor has it), got 3"));
    char *ps[] = {p1, p2, p3, p4, p5, p6, p7, p8, p9};
    for (size_t i = 0; i < sizeof ps / sizeof ps[0]; i++)
        free(ps[i]);
    eng_manifest_free(m);
}

static void test_bindings_from_a_folder(void **state)
{
    (void)state;
    struct eng_manifest *m = suite();
    char sub[128], err[512];
    snprintf(sub, sizeof sub, "%s/caps", dir);
    mkdir(sub, 0700);
    char *a = write_st("caps/a.safetensors", "w", "BF16", "[4]", "\x80\x3f\x00\x40\x80\xbf\x00\x00", 8);
    char *b = write_st("caps/b.safetensors", "other", "F32", "[1]", "\0\0\0\0", 4);
    struct eng_replay_bind *bs;
    size_t n;
    if (eng_replay_from_path(m, sub, &bs, &n, err, sizeof err) != 0)
        fail_msg("%s", err);
    assert_int_equal(n, 1);
    assert_string_equal(bs[0].buffer, "w");
    assert_non_null(strstr(bs[0].file, "/caps/a.safetensors"));
    char *values = eng_replay_values(bs, n);
    assert_non_null(strstr(values, "replay;w=@"));
    assert_non_null(strstr(values, "a.safetensors#w"));
    free(values);
    eng_replay_binds_free(bs, n);
    assert_int_equal(eng_replay_from_path(m, b, &bs, &n, err, sizeof err), -1);
    assert_non_null(strstr(err, "no tensor is named like an input buffer of suite rp (x, ids, w)"));
    /* A manifest's relative file is beside its kernel. */
    char *r = eng_replay_resolve(m, "caps/a.safetensors");
    assert_string_equal(r, a);
    free(r);
    unlink(a);
    unlink(b);
    rmdir(sub);
    free(a);
    free(b);
    eng_manifest_free(m);
}

static int setup(void **state)
{
    (void)state;
    return mkdtemp(dir) ? 0 : -1;
}

static int teardown(void **state)
{
    (void)state;
    char *cmd = xasprintf("rm -rf '%s'", dir);
    int rc = system(cmd);
    free(cmd);
    return rc == 0 ? 0 : -1;
}

int main(void)
{
    eng_tables_install(); /* the built-in rungs and the backends, as kladder's main hands them in */
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_shape_and_padded_layout),
        cmocka_unit_test(test_exact_conversions_only),
        cmocka_unit_test(test_bindings_from_a_folder),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
