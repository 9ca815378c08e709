/* The tensor file readers (importers/tensor.h): good safetensors and .npy files read back
 * exactly; every hostile file (truncated, offsets past the end, overlapping, gaps, huge header
 * lengths, wrong shape products, NaN and fractions in header numbers, FNUZ fp8) gets one error
 * naming the file, the tensor and the field, and no partial result; and a deterministic mutation
 * loop over good files never crashes, leaks or accepts a file whose tensors do not fit it. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/xalloc.h"
#include "importers/tensor.h"

/* ---- building files ------------------------------------------------------------------------ */

struct bytes {
    unsigned char *p;
    size_t n;
};

/* u64 header length, the header text, then `data`. */
static struct bytes st_file(const char *header, const void *data, size_t dlen)
{
    size_t hl = strlen(header);
    struct bytes b = {xmalloc(8 + hl + dlen + 1), 8 + hl + dlen};
    for (int i = 0; i < 8; i++)
        b.p[i] = (unsigned char)((uint64_t)hl >> (8 * i));
    memcpy(b.p + 8, header, hl);
    if (dlen)
        memcpy(b.p + 8 + hl, data, dlen);
    return b;
}

/* "\x93NUMPY", version, header length, the dict padded to 64 bytes with a newline, data. */
static struct bytes npy_file(int major, const char *dict, const void *data, size_t dlen)
{
    size_t pre = major == 1 ? 10 : 12, dl = strlen(dict);
    size_t hl = (pre + dl + 1 + 63) / 64 * 64 - pre;
    struct bytes b = {xcalloc(1, pre + hl + dlen + 1), pre + hl + dlen};
    memcpy(b.p, "\x93NUMPY", 6);
    b.p[6] = (unsigned char)major;
    b.p[7] = 0;
    for (size_t i = 0; i < (major == 1 ? 2u : 4u); i++)
        b.p[8 + i] = (unsigned char)(hl >> (8 * i));
    memset(b.p + pre, ' ', hl);
    memcpy(b.p + pre, dict, dl);
    b.p[pre + hl - 1] = '\n';
    if (dlen)
        memcpy(b.p + pre + hl, data, dlen);
    return b;
}

static const float f6[6] = {1.0f, -2.0f, 3.5f, 0.0f, -0.0f, 1e-30f};
static const uint16_t bf4[4] = {0x3f80, 0x7f80, 0xff80, 0x0001};

/* Two tensors and metadata, offsets in the other order than the header lists them. */
static const char good_header[] =
    "{\"__metadata__\": {\"format\": \"pt\"},"
    " \"layer3.scores\": {\"dtype\": \"F32\", \"shape\": [2, 3], \"data_offsets\": [8, 32]},"
    " \"bias\": {\"dtype\": \"BF16\", \"shape\": [4], \"data_offsets\": [0, 8]}}";

static struct bytes good_st(void)
{
    unsigned char data[32];
    memcpy(data, bf4, 8);
    memcpy(data + 8, f6, 24);
    return st_file(good_header, data, sizeof data);
}

/* Parses b as safetensors, expects failure, and checks the message names every word in
 * `words` (NULL-terminated) and that nothing was left in the output. */
static void expect_st_error(struct bytes b, const char *const *words)
{
    struct imp_tensor_file f;
    char err[1024] = "";
    int rc = imp_safetensors_parse(b.p, b.n, "cap.safetensors", &f, err, sizeof err);
    free(b.p);
    if (rc == 0)
        fail_msg("a hostile file was accepted (expected an error naming %s)", words[0]);
    assert_int_equal(f.n, 0);
    assert_null(f.t);
    assert_null(f.path);
    assert_non_null(strstr(err, "cap.safetensors: "));
    for (size_t i = 0; words[i]; i++)
        if (!strstr(err, words[i]))
            fail_msg("message \"%s\" does not contain \"%s\"", err, words[i]);
}

#define EXPECT_ST(header, data, dlen, ...)                                                   \
    do {                                                                                     \
        static const char *const w_[] = {__VA_ARGS__, NULL};                                 \
        expect_st_error(st_file(header, data, dlen), w_);                                    \
    } while (0)

static void expect_npy_error(struct bytes b, const char *const *words)
{
    struct imp_tensor_file f;
    char err[1024] = "";
    int rc = imp_npy_parse(b.p, b.n, "dir/x.npy", &f, err, sizeof err);
    free(b.p);
    if (rc == 0)
        fail_msg("a hostile .npy was accepted (expected an error naming %s)", words[0]);
    assert_int_equal(f.n, 0);
    assert_null(f.t);
    assert_non_null(strstr(err, "dir/x.npy: "));
    for (size_t i = 0; words[i]; i++)
        if (!strstr(err, words[i]))
            fail_msg("message \"%s\" does not contain \"%s\"", err, words[i]);
}

#define EXPECT_NPY(major, dict, data, dlen, ...)                                             \
    do {                                                                                     \
        static const char *const w_[] = {__VA_ARGS__, NULL};                                 \
        expect_npy_error(npy_file(major, dict, data, dlen), w_);                             \
    } while (0)

/* ---- good files ---------------------------------------------------------------------------- */

static void test_safetensors_good(void **state)
{
    (void)state;
    struct bytes b = good_st();
    struct imp_tensor_file f;
    char err[512];
    assert_int_equal(imp_safetensors_parse(b.p, b.n, "cap.safetensors", &f, err, sizeof err), 0);
    free(b.p);
    assert_int_equal(f.n, 2);
    const struct imp_tensor *s = imp_tensor_find(&f, "layer3.scores");
    assert_non_null(s);
    assert_int_equal(s->dtype, IMP_TD_F32);
    assert_int_equal(s->ndims, 2);
    assert_int_equal(s->dims[0], 2);
    assert_int_equal(s->dims[1], 3);
    assert_int_equal(s->elems, 6);
    assert_memory_equal(s->data, f6, sizeof f6);
    const struct imp_tensor *bias = imp_tensor_find(&f, "bias");
    assert_non_null(bias);
    assert_int_equal(bias->dtype, IMP_TD_BF16);
    assert_memory_equal(bias->data, bf4, sizeof bf4);
    assert_null(imp_tensor_find(&f, "__metadata__"));
    assert_int_equal(f.nmeta, 1);
    assert_string_equal(f.meta_keys[0], "format");
    assert_string_equal(f.meta_values[0], "pt");
    imp_tensor_file_free(&f);
}

/* Leading whitespace (page-aligned writers) and trailing spaces; empty and scalar tensors; every
 * 8-bit fp dtype the format has in the OCP flavour. */
static void test_safetensors_padding_scalars_fp8(void **state)
{
    (void)state;
    unsigned char data[7] = {0, 0, 0x80, 0x3f, 0x7e, 0x7b, 0x7f};
    struct bytes b = st_file(
        "  \n{\"one\": {\"dtype\": \"F32\", \"shape\": [], \"data_offsets\": [0, 4]},"
        " \"empty\": {\"dtype\": \"I64\", \"shape\": [0, 5], \"data_offsets\": [4, 4]},"
        " \"a\": {\"dtype\": \"F8_E4M3\", \"shape\": [1], \"data_offsets\": [4, 5]},"
        " \"b\": {\"dtype\": \"F8_E5M2\", \"shape\": [1], \"data_offsets\": [5, 6]},"
        " \"c\": {\"dtype\": \"F8_E8M0\", \"shape\": [1], \"data_offsets\": [6, 7]}}      ",
        data, sizeof data);
    struct imp_tensor_file f;
    char err[512];
    if (imp_safetensors_parse(b.p, b.n, "p.safetensors", &f, err, sizeof err) != 0)
        fail_msg("%s", err);
    free(b.p);
    assert_int_equal(f.n, 5);
    assert_int_equal(imp_tensor_find(&f, "one")->ndims, 0);
    assert_int_equal(imp_tensor_find(&f, "one")->elems, 1);
    assert_int_equal(imp_tensor_find(&f, "empty")->elems, 0);
    assert_null(imp_tensor_find(&f, "empty")->data);
    assert_int_equal(imp_tensor_find(&f, "a")->dtype, IMP_TD_F8_E4M3);
    assert_int_equal(imp_tensor_find(&f, "c")->data[0], 0x7f);
    imp_tensor_file_free(&f);
}

/* ---- hostile safetensors ------------------------------------------------------------------ */

static void test_safetensors_truncated(void **state)
{
    (void)state;
    struct bytes b = good_st();
    /* Cut inside the length, inside the header, inside the data. */
    size_t cuts[] = {0, 5, 8 + 10, b.n - 1};
    for (size_t i = 0; i < sizeof cuts / sizeof cuts[0]; i++) {
        struct bytes c = {xmalloc(b.n), cuts[i]};
        memcpy(c.p, b.p, b.n);
        static const char *const w[] = {"truncated", NULL};
        expect_st_error(c, w);
    }
    free(b.p);
}

static void test_safetensors_offsets(void **state)
{
    (void)state;
    unsigned char d[32] = {0};
    /* Past the end of the data. */
    EXPECT_ST("{\"x\": {\"dtype\": \"F32\", \"shape\": [8], \"data_offsets\": [8, 40]}}", d, 32,
              "tensor 'x'", "data_offsets[1]", "past the end");
    /* Overlapping: y starts inside x. */
    EXPECT_ST("{\"x\": {\"dtype\": \"F32\", \"shape\": [4], \"data_offsets\": [0, 16]},"
              " \"y\": {\"dtype\": \"F32\", \"shape\": [4], \"data_offsets\": [12, 28]}}", d, 28,
              "tensor 'y'", "data_offsets", "overlap tensor 'x'");
    /* Two names on the same bytes. */
    EXPECT_ST("{\"x\": {\"dtype\": \"F32\", \"shape\": [4], \"data_offsets\": [0, 16]},"
              " \"y\": {\"dtype\": \"I32\", \"shape\": [4], \"data_offsets\": [0, 16]}}", d, 16,
              "data_offsets", "overlap");
    /* A gap between tensors, and one before the first. */
    EXPECT_ST("{\"x\": {\"dtype\": \"F32\", \"shape\": [4], \"data_offsets\": [0, 16]},"
              " \"y\": {\"dtype\": \"F32\", \"shape\": [2], \"data_offsets\": [20, 28]}}", d, 28,
              "tensor 'y'", "gap of 4 bytes", "after tensor 'x'");
    EXPECT_ST("{\"x\": {\"dtype\": \"F32\", \"shape\": [4], \"data_offsets\": [4, 20]}}", d, 20,
              "tensor 'x'", "gap of 4 bytes");
    /* Bytes after the last tensor. */
    EXPECT_ST("{\"x\": {\"dtype\": \"F32\", \"shape\": [4], \"data_offsets\": [0, 16]}}", d, 20,
              "data:", "4 bytes after the last tensor 'x'");
    /* begin > end. */
    EXPECT_ST("{\"x\": {\"dtype\": \"U8\", \"shape\": [0], \"data_offsets\": [9, 8]}}", d, 16,
              "tensor 'x'", "begin <= end");
    /* Shape product disagrees with the byte count (both ways, and through the dtype). */
    EXPECT_ST("{\"x\": {\"dtype\": \"F32\", \"shape\": [3, 3], \"data_offsets\": [0, 32]}}", d, 32,
              "tensor 'x'", "data_offsets", "expected 36 bytes (9 elements of F32), got 32");
    EXPECT_ST("{\"x\": {\"dtype\": \"BF16\", \"shape\": [4, 4], \"data_offsets\": [0, 16]}}", d, 16,
              "expected 32 bytes", "got 16");
    /* A product that overflows 64 bits must not wrap into a small one. */
    EXPECT_ST("{\"x\": {\"dtype\": \"U8\", \"shape\": [4294967296, 4294967296], "
              "\"data_offsets\": [0, 0]}}", d, 0, "tensor 'x'", "shape", "overflows");
    EXPECT_ST("{\"x\": {\"dtype\": \"F64\", \"shape\": [2147483648, 2147483648], "
              "\"data_offsets\": [0, 0]}}", d, 0, "tensor 'x'", "shape", "byte count overflows");
}

static void test_safetensors_header_length(void **state)
{
    (void)state;
    struct bytes b = good_st();
    /* 2^63 and just above the cap: refused before anything is allocated. */
    uint64_t lens[] = {(uint64_t)1 << 63, 100000001ull, UINT64_MAX};
    for (size_t i = 0; i < 3; i++) {
        struct bytes c = {xmalloc(b.n), b.n};
        memcpy(c.p, b.p, b.n);
        for (int k = 0; k < 8; k++)
            c.p[k] = (unsigned char)(lens[i] >> (8 * k));
        static const char *const w[] = {"header length", "expected at most 100000000", NULL};
        expect_st_error(c, w);
    }
    /* Within the cap but longer than the file. */
    struct bytes c = {xmalloc(b.n), b.n};
    memcpy(c.p, b.p, b.n);
    c.p[0] = 0xff;
    c.p[1] = 0xff;
    static const char *const w[] = {"header length", "truncated", NULL};
    expect_st_error(c, w);
    free(b.p);
}

static void test_safetensors_header_numbers(void **state)
{
    (void)state;
    unsigned char d[16] = {0};
    /* NaN and Infinity are not JSON: refused by the parser, naming the header. */
    EXPECT_ST("{\"x\": {\"dtype\": \"F32\", \"shape\": [NaN], \"data_offsets\": [0, 16]}}", d, 16,
              "header:", "not valid JSON");
    EXPECT_ST("{\"x\": {\"dtype\": \"F32\", \"shape\": [4], \"data_offsets\": [0, Infinity]}}", d,
              16, "header:", "not valid JSON");
    /* Numbers that parse but are not whole, not small, not positive. */
    EXPECT_ST("{\"x\": {\"dtype\": \"F32\", \"shape\": [1e400], \"data_offsets\": [0, 16]}}", d, 16,
              "tensor 'x'", "shape[0]", "whole number");
    EXPECT_ST("{\"x\": {\"dtype\": \"F32\", \"shape\": [2, 1.5], \"data_offsets\": [0, 16]}}", d, 16,
              "tensor 'x'", "shape[1]", "got 1.5");
    EXPECT_ST("{\"x\": {\"dtype\": \"F32\", \"shape\": [-4], \"data_offsets\": [0, 16]}}", d, 16,
              "shape[0]", "got -4");
    EXPECT_ST("{\"x\": {\"dtype\": \"F32\", \"shape\": [\"4\"], \"data_offsets\": [0, 16]}}", d, 16,
              "shape[0]", "got a string");
    EXPECT_ST("{\"x\": {\"dtype\": \"F32\", \"shape\": [4], \"data_offsets\": [0.5, 16]}}", d, 16,
              "data_offsets[0]", "got 0.5");
    EXPECT_ST("{\"x\": {\"dtype\": \"F32\", \"shape\": [4], \"data_offsets\": [0, 16, 32]}}", d, 16,
              "data_offsets", "expected [begin, end]");
    EXPECT_ST("{\"x\": {\"dtype\": \"F32\", \"shape\": [1,1,1,1,1,1,1,1,4], "
              "\"data_offsets\": [0, 16]}}", d, 16, "shape", "at most 8 dimensions");
}

static void test_safetensors_dtypes_and_keys(void **state)
{
    (void)state;
    unsigned char d[16] = {0, 1, 2, 0};
    /* FNUZ fp8 is refused by name: never read as OCP fp8. */
    EXPECT_ST("{\"x\": {\"dtype\": \"F8_E4M3FNUZ\", \"shape\": [4], \"data_offsets\": [0, 4]}}",
              d, 4, "tensor 'x'", "dtype", "F8_E4M3FNUZ is refused", "gfx942");
    EXPECT_ST("{\"x\": {\"dtype\": \"F8_E5M2FNUZ\", \"shape\": [4], \"data_offsets\": [0, 4]}}",
              d, 4, "F8_E5M2FNUZ is refused");
    EXPECT_ST("{\"x\": {\"dtype\": \"F4\", \"shape\": [8], \"data_offsets\": [0, 4]}}", d, 4,
              "F4 is refused", "sub-byte");
    EXPECT_ST("{\"x\": {\"dtype\": \"f32\", \"shape\": [1], \"data_offsets\": [0, 4]}}", d, 4,
              "dtype", "expected one of", "got \"f32\"");
    /* Unknown and duplicate keys, a duplicate tensor name. */
    EXPECT_ST("{\"x\": {\"dtype\": \"U8\", \"shape\": [4], \"data_offsets\": [0, 4], "
              "\"strides\": [1]}}", d, 4, "tensor 'x'", "strides", "unknown key");
    EXPECT_ST("{\"x\": {\"dtype\": \"U8\", \"shape\": [4], \"dtype\": \"I8\", "
              "\"data_offsets\": [0, 4]}}", d, 4, "tensor 'x'", "dtype", "duplicate key");
    EXPECT_ST("{\"x\": {\"dtype\": \"U8\", \"shape\": [2], \"data_offsets\": [0, 2]},"
              " \"x\": {\"dtype\": \"U8\", \"shape\": [2], \"data_offsets\": [2, 4]}}", d, 4,
              "tensor 'x'", "appears twice");
    /* A missing field, a non-object entry, a header that is not an object. */
    EXPECT_ST("{\"x\": {\"dtype\": \"U8\", \"data_offsets\": [0, 4]}}", d, 4, "tensor 'x'",
              "shape", "expected an array");
    EXPECT_ST("{\"x\": [1, 2]}", d, 4, "tensor 'x'", "entry", "expected an object");
    EXPECT_ST("[1, 2]", d, 4, "header:", "expected a JSON object");
    /* An escape sequence in a name is refused, and never reaches the message raw. */
    struct bytes b = st_file("{\"\\u001b[2Jx\": {\"dtype\": \"U8\", \"shape\": [4], "
                             "\"data_offsets\": [0, 4]}}", d, 4);
    struct imp_tensor_file f;
    char err[512];
    assert_int_equal(imp_safetensors_parse(b.p, b.n, "cap.safetensors", &f, err, sizeof err), -1);
    free(b.p);
    assert_non_null(strstr(err, "name"));
    assert_null(strchr(err, 0x1b));
    /* BOOL holds 0 or 1 only. */
    EXPECT_ST("{\"x\": {\"dtype\": \"BOOL\", \"shape\": [4], \"data_offsets\": [0, 4]}}", d, 4,
              "tensor 'x'", "data", "element 2 is 2");
    /* Metadata is strings only. */
    EXPECT_ST("{\"__metadata__\": {\"n\": 3}}", d, 0, "__metadata__[0]", "string");
}

/* ---- .npy ---------------------------------------------------------------------------------- */

static void test_npy_good(void **state)
{
    (void)state;
    for (int major = 1; major <= 3; major++) {
        struct bytes b = npy_file(major, "{'descr': '<f4', 'fortran_order': False, 'shape': (2, 3), }",
                                  f6, sizeof f6);
        struct imp_tensor_file f;
        char err[512];
        if (imp_npy_parse(b.p, b.n, "caps/scores.npy", &f, err, sizeof err) != 0)
            fail_msg("v%d: %s", major, err);
        free(b.p);
        assert_int_equal(f.n, 1);
        assert_string_equal(f.t[0].name, "scores");
        assert_int_equal(f.t[0].dtype, IMP_TD_F32);
        assert_int_equal(f.t[0].ndims, 2);
        assert_int_equal(f.t[0].dims[1], 3);
        assert_memory_equal(f.t[0].data, f6, sizeof f6);
        imp_tensor_file_free(&f);
    }
    /* Keys in another order, double quotes, a 1-tuple; raw bf16 as <u2; a scalar. */
    struct bytes b = npy_file(1, "{\"shape\": (4,), \"fortran_order\": False, \"descr\": \"<u2\"}",
                              bf4, sizeof bf4);
    struct imp_tensor_file f;
    char err[512];
    assert_int_equal(imp_npy_parse(b.p, b.n, "bias.npy", &f, err, sizeof err), 0);
    free(b.p);
    assert_int_equal(f.t[0].dtype, IMP_TD_U16);
    assert_int_equal(f.t[0].elems, 4);
    imp_tensor_file_free(&f);
    int64_t one = 7;
    b = npy_file(1, "{'descr': '<i8', 'fortran_order': False, 'shape': ()}", &one, 8);
    assert_int_equal(imp_npy_parse(b.p, b.n, "k.npy", &f, err, sizeof err), 0);
    free(b.p);
    assert_int_equal(f.t[0].ndims, 0);
    assert_int_equal(f.t[0].elems, 1);
    imp_tensor_file_free(&f);
}

static void test_npy_hostile(void **state)
{
    (void)state;
    const char ok[] = "{'descr': '<f4', 'fortran_order': False, 'shape': (2, 3), }";
    /* Data shorter or longer than the shape says. */
    EXPECT_NPY(1, ok, f6, 20, "data", "expected 24 bytes", "got 20", "truncated");
    EXPECT_NPY(1, "{'descr': '<f4', 'fortran_order': False, 'shape': (2, 2), }", f6, 24,
               "data", "expected 16 bytes (4 elements");
    /* Types that are refused by name. */
    EXPECT_NPY(1, "{'descr': '>f4', 'fortran_order': False, 'shape': (6,), }", f6, 24,
               "header.descr", "big-endian");
    EXPECT_NPY(1, "{'descr': '|O', 'fortran_order': False, 'shape': (6,), }", f6, 24,
               "header.descr", "pickles");
    EXPECT_NPY(1, "{'descr': '<f1', 'fortran_order': False, 'shape': (6,), }", f6, 6,
               "header.descr", "fp8");
    EXPECT_NPY(1, "{'descr': [('a', '<f4')], 'fortran_order': False, 'shape': (6,), }", f6, 24,
               "header.descr", "structured");
    EXPECT_NPY(1, "{'descr': '<f4', 'fortran_order': True, 'shape': (2, 3), }", f6, 24,
               "fortran_order", "C order");
    /* Header syntax: missing and unknown keys, a broken tuple, overflowing dimensions. */
    EXPECT_NPY(1, "{'descr': '<f4', 'shape': (6,), }", f6, 24, "header", "missing key 'fortran_order'");
    EXPECT_NPY(1, "{'descr': '<f4', 'fortran_order': False, 'shape': (6,), 'x': 1}", f6, 24,
               "header", "unknown key");
    EXPECT_NPY(1, "{'descr': '<f4', 'fortran_order': False, 'shape': (6; 1)}", f6, 24,
               "header.shape", "expected ','");
    EXPECT_NPY(1, "{'descr': '<f4', 'fortran_order': False, 'shape': (nan,)}", f6, 24,
               "header.shape", "whole numbers");
    EXPECT_NPY(1, "{'descr': '<f4', 'fortran_order': False, 'shape': (-6,)}", f6, 24,
               "header.shape", "whole numbers");
    EXPECT_NPY(1, "{'descr': '<f4', 'fortran_order': False, 'shape': (99999999999999999999,)}",
               f6, 24, "header.shape", "2^53");
    EXPECT_NPY(1, "{'descr': '<f4', 'fortran_order': False, 'shape': (4294967296, 4294967296)}",
               f6, 24, "header.shape", "overflows");
    EXPECT_NPY(1, "{'descr': '<f4', 'descr': '<f4', 'fortran_order': False, 'shape': (6,)}", f6,
               24, "header.descr", "duplicate");
    EXPECT_NPY(1, "{'descr': '<f4', 'fortran_order': False, 'shape': (6,)} junk", f6, 24,
               "header", "after the dict");
    EXPECT_NPY(1, "{'descr': '<f4', 'fortran_order': False, 'shape': (6,), '\x1b': 1}", f6, 24,
               "header", "printable ASCII");
    /* Bad magic, version and header length. */
    struct bytes b = npy_file(1, ok, f6, sizeof f6);
    b.p[7] = 1;
    static const char *const wv[] = {"version", "got 1.1", NULL};
    expect_npy_error(b, wv);
    b = npy_file(4, ok, f6, sizeof f6);
    static const char *const wv4[] = {"version", "got 4.0", NULL};
    expect_npy_error(b, wv4);
    b = npy_file(2, ok, f6, sizeof f6);
    b.p[11] = 0x80;
    static const char *const wh[] = {"header length", "at most", NULL};
    expect_npy_error(b, wh);
    b = npy_file(1, ok, f6, sizeof f6);
    b.n = 9;
    static const char *const wt[] = {"magic", "truncated", NULL};
    expect_npy_error(b, wt);
    b = npy_file(1, ok, f6, sizeof f6);
    b.n = 40;
    static const char *const wt2[] = {"header length", "truncated", NULL};
    expect_npy_error(b, wt2);
}

/* ---- from disk ----------------------------------------------------------------------------- */

static void test_load_from_disk(void **state)
{
    (void)state;
    char dir[] = "/tmp/kl-tensors-XXXXXX";
    assert_non_null(mkdtemp(dir));
    char st[128], np[128], bad[128];
    snprintf(st, sizeof st, "%s/cap.safetensors", dir);
    snprintf(np, sizeof np, "%s/scores.npy", dir);
    snprintf(bad, sizeof bad, "%s/missing.safetensors", dir);
    struct bytes a = good_st(), b = npy_file(1, "{'descr': '<f4', 'fortran_order': False, 'shape': (6,)}",
                                             f6, sizeof f6);
    FILE *fp = fopen(st, "wb");
    assert_int_equal(fwrite(a.p, 1, a.n, fp), a.n);
    fclose(fp);
    fp = fopen(np, "wb");
    assert_int_equal(fwrite(b.p, 1, b.n, fp), b.n);
    fclose(fp);
    free(a.p);
    free(b.p);
    struct imp_tensor_file f;
    char err[512];
    assert_int_equal(imp_tensor_file_load(st, &f, err, sizeof err), 0);
    assert_int_equal(f.n, 2);
    imp_tensor_file_free(&f);
    assert_int_equal(imp_tensor_file_load(np, &f, err, sizeof err), 0);
    assert_string_equal(f.t[0].name, "scores");
    imp_tensor_file_free(&f);
    assert_int_equal(imp_tensor_file_load(bad, &f, err, sizeof err), -1);
    assert_non_null(strstr(err, "missing.safetensors: file: cannot open"));
    assert_int_equal(imp_tensor_file_load(dir, &f, err, sizeof err), -1);
    assert_non_null(strstr(err, "regular file"));
    unlink(st);
    unlink(np);
    rmdir(dir);
}

/* ---- mutation loop ------------------------------------------------------------------------- */

static uint64_t rng_next(uint64_t *s)
{
    /* splitmix64: a fixed seed makes every run try the same files. */
    uint64_t z = (*s += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

/* One random edit: a flipped bit, an interesting byte, a cut, a duplicated or deleted slice, a
 * rewritten length field. */
static struct bytes mutate(const struct bytes *src, uint64_t *rng)
{
    static const unsigned char interesting[] = {0, 0xff, 0x7f, 0x80, '0', '9', ',', '"', '[',
                                                ']', '{', '}', '-', '.', 'e', ' ', '\\', ':'};
    size_t cap = src->n * 2 + 16;
    struct bytes b = {xmalloc(cap), src->n};
    memcpy(b.p, src->p, src->n);
    int edits = 1 + (int)(rng_next(rng) % 3);
    for (int e = 0; e < edits && b.n > 0; e++) {
        size_t at = (size_t)(rng_next(rng) % b.n);
        switch (rng_next(rng) % 6) {
        case 0:
            b.p[at] ^= (unsigned char)(1u << (rng_next(rng) % 8));
            break;
        case 1:
            b.p[at] = interesting[rng_next(rng) % sizeof interesting];
            break;
        case 2:
            b.n = at;
            break;
        case 3: { /* duplicate a slice in place (the file grows) */
            size_t len = 1 + (size_t)(rng_next(rng) % 16);
            if (at + len > b.n)
                len = b.n - at;
            if (b.n + len > cap)
                break;
            memmove(b.p + at + len, b.p + at, b.n - at);
            b.n += len;
            break;
        }
        case 4: { /* delete a slice */
            size_t len = 1 + (size_t)(rng_next(rng) % 16);
            if (at + len > b.n)
                len = b.n - at;
            memmove(b.p + at, b.p + at + len, b.n - at - len);
            b.n -= len;
            break;
        }
        default: /* a length field: the first 12 bytes hold both formats' */
            b.p[rng_next(rng) % (b.n < 12 ? b.n : 12)] = (unsigned char)rng_next(rng);
            break;
        }
    }
    return b;
}

static void check_accepted(const struct imp_tensor_file *f, size_t len)
{
    uint64_t total = 0;
    for (size_t i = 0; i < f->n; i++) {
        const struct imp_tensor *t = &f->t[i];
        uint64_t elems = 1;
        for (size_t d = 0; d < t->ndims; d++)
            elems *= t->dims[d];
        assert_int_equal(elems, t->elems);
        assert_int_equal(t->nbytes, t->elems * imp_tdtype_size(t->dtype));
        assert_true(t->nbytes == 0 || t->data != NULL);
        total += t->nbytes;
    }
    assert_true(total <= len);
}

static void test_mutation_loop(void **state)
{
    (void)state;
    struct bytes goods[4];
    goods[0] = good_st();
    unsigned char d3[12] = {1, 0, 1, 0, 0, 0, 0x80, 0x3f, 0, 0, 0, 0};
    goods[1] = st_file("{\"m\": {\"dtype\": \"BOOL\", \"shape\": [4], \"data_offsets\": [0, 4]},"
                       " \"s\": {\"dtype\": \"F32\", \"shape\": [2, 1], \"data_offsets\": [4, 12]},"
                       " \"__metadata__\": {\"k\": \"v\"}}", d3, sizeof d3);
    goods[2] = npy_file(1, "{'descr': '<f4', 'fortran_order': False, 'shape': (2, 3), }", f6,
                        sizeof f6);
    goods[3] = npy_file(2, "{'descr': '|b1', 'fortran_order': False, 'shape': (2, 2), }", d3, 4);
    uint64_t rng = 20261201;
    size_t accepted = 0, rejected = 0;
    enum { ROUNDS = 4000 };
    for (size_t g = 0; g < 4; g++)
        for (int r = 0; r < ROUNDS; r++) {
            struct bytes m = mutate(&goods[g], &rng);
            struct imp_tensor_file f;
            char err[512];
            int rc = g < 2 ? imp_safetensors_parse(m.p, m.n, "m.safetensors", &f, err, sizeof err)
                           : imp_npy_parse(m.p, m.n, "m.npy", &f, err, sizeof err);
            if (rc == 0) {
                check_accepted(&f, m.n);
                imp_tensor_file_free(&f);
                accepted++;
            } else {
                assert_int_equal(f.n, 0);
                assert_null(f.t);
                assert_true(err[0] != '\0');
                rejected++;
            }
            free(m.p);
        }
    for (size_t g = 0; g < 4; g++)
        free(goods[g].p);
    /* Both outcomes must occur, or the loop is not exercising the reader. */
    assert_true(rejected > ROUNDS);
    assert_true(accepted > 10);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_safetensors_good),
        cmocka_unit_test(test_safetensors_padding_scalars_fp8),
        cmocka_unit_test(test_safetensors_truncated),
        cmocka_unit_test(test_safetensors_offsets),
        cmocka_unit_test(test_safetensors_header_length),
        cmocka_unit_test(test_safetensors_header_numbers),
        cmocka_unit_test(test_safetensors_dtypes_and_keys),
        cmocka_unit_test(test_npy_good),
        cmocka_unit_test(test_npy_hostile),
        cmocka_unit_test(test_load_from_disk),
        cmocka_unit_test(test_mutation_loop),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
