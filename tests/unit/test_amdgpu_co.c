/* The AMD code-object reader (engine/codeobj/amdgpu_co.h) and its msgpack reader: real code objects
 * built by clang-22 (tests/fixtures/codeobj, from kernels/flydsl_1199.kl) read back with the
 * values llvm-readelf-22 --notes shows; hand-made hostile files (truncated, bad offsets, huge
 * counts, bad msgpack) are errors that say what is wrong; and a mutation loop over a real code
 * object (bytes flipped, every prefix) never crashes or reads outside the buffer (the ASan
 * build runs the same loop). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "tests/unit/helpers/test_rand.h"

#include "common/fileio.h"
#include "engine/codeobj/amdgpu_co.h"
#include "engine/codeobj/msgpack_read.h"

#define FIX "tests/fixtures/codeobj/"

static char *load(const char *path, size_t *len)
{
    char err[256];
    char *d = file_read_all(path, len, err, sizeof err);
    if (!d)
        fail_msg("%s", err);
    return d;
}

static void test_real_gfx1250(void **state)
{
    (void)state;
    size_t len;
    char *d = load(FIX "flydsl_1199.gfx1250.co", &len);
    struct amdgpu_co co;
    char err[256] = "";
    assert_int_equal(amdgpu_co_read(d, len, &co, err, sizeof err), 0);
    assert_string_equal(co.processor, "gfx1250");
    assert_int_equal(co.mach, 0x49);
    assert_string_equal(co.metadata_target, "amdgcn-amd-amdhsa--gfx1250");
    assert_int_equal(co.nkernels, 3);
    const struct amdgpu_kernel *k = &co.kernels[0];
    assert_string_equal(k->name, "ktail_gemm_fixed");
    assert_int_equal(k->wavefront_size, 32);
    assert_int_equal(k->sgpr_count, 45);
    assert_int_equal(k->vgpr_count, 18);
    assert_int_equal(k->agpr_count, -1); /* gfx12 has no AGPRs: the note leaves it out */
    assert_int_equal(k->group_segment_fixed_size, 32768);
    assert_int_equal(k->private_segment_fixed_size, 0);
    assert_int_equal(k->kernarg_segment_size, 296);
    assert_int_equal(k->max_flat_workgroup_size, 1024);
    assert_true(k->has_descriptor);
    assert_true(k->descriptor_wave32);
    assert_int_equal(k->float_denorm_32, 3);
    /* .args without the hidden_* ones: C, A, B (global_buffer), M, N, K, tile_k (by_value) */
    assert_true(k->has_args);
    assert_int_equal(k->nargs, 7);
    assert_int_equal(k->args[2].offset, 16);
    assert_int_equal(k->args[2].size, 8);
    assert_string_equal(k->args[2].value_kind, "global_buffer");
    assert_int_equal(k->args[6].offset, 36);
    assert_int_equal(k->args[6].size, 4);
    assert_string_equal(k->args[6].value_kind, "by_value");
    assert_string_equal(co.kernels[2].name, "ktail_gemm_ref");
    assert_int_equal(co.kernels[2].group_segment_fixed_size, 0);
    amdgpu_co_free(&co);
    free(d);
}

static void test_real_gfx942(void **state)
{
    (void)state;
    size_t len;
    char *d = load(FIX "flydsl_1199.gfx942.co", &len);
    struct amdgpu_co co;
    char err[256] = "";
    assert_int_equal(amdgpu_co_read(d, len, &co, err, sizeof err), 0);
    assert_string_equal(co.processor, "gfx942");
    assert_int_equal(co.nkernels, 3);
    for (size_t i = 0; i < co.nkernels; i++) {
        assert_int_equal(co.kernels[i].wavefront_size, 64);
        assert_true(co.kernels[i].agpr_count >= 0);
        assert_true(co.kernels[i].has_descriptor);
        assert_false(co.kernels[i].descriptor_wave32);
    }
    amdgpu_co_free(&co);
    free(d);
}

static void test_default_wave(void **state)
{
    (void)state;
    assert_int_equal(amdgpu_default_wave("gfx942"), 64);
    assert_int_equal(amdgpu_default_wave("gfx950"), 64);
    assert_int_equal(amdgpu_default_wave("gfx90a"), 64);
    assert_int_equal(amdgpu_default_wave("gfx1250"), 32);
    assert_int_equal(amdgpu_default_wave("gfx1030"), 32);
    assert_int_equal(amdgpu_default_wave("sm_90"), 0);
    assert_int_equal(amdgpu_default_wave("gfx"), 0);
}

/* ---- hand-made files: an ELF64 header, one note section holding one note, section headers --- */

static void put(unsigned char *p, uint64_t v, size_t n)
{
    for (size_t i = 0; i < n; i++)
        p[i] = (unsigned char)(v >> (8 * i));
}

/* An EM_AMDGPU ELF whose only note is owner/type with desc. *len is its size. */
static unsigned char *make_elf(const char *owner, uint32_t type, const void *desc, size_t dlen,
                               size_t *len)
{
    size_t olen = strlen(owner) + 1, opad = (olen + 3) & ~(size_t)3, dpad = (dlen + 3) & ~(size_t)3;
    size_t note_off = 64, note_len = 12 + opad + dpad, sh_off = note_off + note_len;
    *len = sh_off + 2 * 64;
    unsigned char *f = calloc(1, *len);
    memcpy(f, "\177ELF", 4);
    f[4] = 2, f[5] = 1, f[6] = 1;
    put(f + 18, 224, 2);
    put(f + 40, sh_off, 8);
    put(f + 48, 0x549, 4);
    put(f + 58, 64, 2);
    put(f + 60, 2, 2);
    unsigned char *n = f + note_off;
    put(n, olen, 4);
    put(n + 4, dlen, 4);
    put(n + 8, type, 4);
    memcpy(n + 12, owner, olen);
    memcpy(n + 12 + opad, desc, dlen);
    unsigned char *sh = f + sh_off + 64; /* section 0 is the null section */
    put(sh + 4, 7, 4);
    put(sh + 24, note_off, 8);
    put(sh + 32, note_len, 8);
    return f;
}

/* {"amdhsa.kernels": [{".name": "k", ".wavefront_size": WAVE}]} */
static const unsigned char good_md[] = {
    0x81, 0xae, 'a', 'm', 'd', 'h', 's', 'a', '.', 'k', 'e', 'r', 'n', 'e', 'l', 's',
    0x91, 0x82, 0xa5, '.', 'n', 'a', 'm', 'e', 0xa1, 'k',
    0xaf, '.', 'w', 'a', 'v', 'e', 'f', 'r', 'o', 'n', 't', '_', 's', 'i', 'z', 'e', 0x20,
};

static int read_buf(const unsigned char *f, size_t len, char *err, size_t errlen)
{
    struct amdgpu_co co;
    int rc = amdgpu_co_read(f, len, &co, err, errlen);
    if (rc == 0)
        amdgpu_co_free(&co);
    return rc;
}

static void expect_error(const unsigned char *f, size_t len, const char *needle)
{
    char err[512] = "";
    assert_int_equal(read_buf(f, len, err, sizeof err), -1);
    if (!strstr(err, needle))
        fail_msg("error '%s' does not mention '%s'", err, needle);
}

static void test_hand_made_good(void **state)
{
    (void)state;
    size_t len;
    unsigned char *f = make_elf("AMDGPU", 32, good_md, sizeof good_md, &len);
    struct amdgpu_co co;
    char err[256] = "";
    assert_int_equal(amdgpu_co_read(f, len, &co, err, sizeof err), 0);
    assert_int_equal(co.nkernels, 1);
    assert_string_equal(co.kernels[0].name, "k");
    assert_int_equal(co.kernels[0].wavefront_size, 32);
    assert_int_equal(co.kernels[0].vgpr_count, -1);
    assert_false(co.kernels[0].has_descriptor);
    amdgpu_co_free(&co);
    free(f);
}

static void test_hostile_headers(void **state)
{
    (void)state;
    size_t len;
    unsigned char *f = make_elf("AMDGPU", 32, good_md, sizeof good_md, &len);
    unsigned char *g = malloc(len);
    expect_error(f, 10, "shorter than an ELF header");
    memcpy(g, f, len), g[0] = 'X';
    expect_error(g, len, "no \\177ELF magic");
    memcpy(g, f, len), g[4] = 1;
    expect_error(g, len, "not a 64-bit little-endian ELF");
    memcpy(g, f, len), put(g + 18, 190, 2);
    expect_error(g, len, "NVIDIA CUBIN");
    memcpy(g, f, len), put(g + 40, (uint64_t)1 << 62, 8);
    expect_error(g, len, "section headers (2 at offset 4611686018427387904) run past the end");
    memcpy(g, f, len), put(g + 60, 0xffff, 2);
    expect_error(g, len, "run past the end");
    memcpy(g, f, len), put(g + 60, 0, 2);
    expect_error(g, len, "no section headers");
    memcpy(g, f, len), put(g + 58, 40, 2);
    expect_error(g, len, "e_shentsize 40");
    /* the note section's size runs past the file */
    size_t sh = len - 64;
    memcpy(g, f, len), put(g + sh + 32, 0xffffffffffull, 8);
    expect_error(g, len, "section 1: offset 64 + size 1099511627775 is past the end");
    /* the note claims a description far larger than its section */
    memcpy(g, f, len), put(g + 64 + 4, 0xfffffff0u, 4);
    expect_error(g, len, "past the section's end");
    /* the file cut in the middle of the section headers */
    expect_error(f, len - 1, "run past the end");
    /* another owner or another type: no metadata */
    unsigned char *o = make_elf("AMDGPX", 32, good_md, sizeof good_md, &len);
    expect_error(o, len, "no NT_AMDGPU_METADATA note");
    free(o);
    o = make_elf("AMDGPU", 31, good_md, sizeof good_md, &len);
    expect_error(o, len, "no NT_AMDGPU_METADATA note");
    free(o);
    free(g);
    free(f);
}

static void expect_md_error(const unsigned char *md, size_t n, const char *needle)
{
    size_t len;
    unsigned char *f = make_elf("AMDGPU", 32, md, n, &len);
    expect_error(f, len, needle);
    free(f);
}

static void test_hostile_metadata(void **state)
{
    (void)state;
    unsigned char md[sizeof good_md + 64];
    /* truncated in the middle */
    expect_md_error(good_md, 30, "truncated: string of 15 bytes");
    /* a map claiming 2^32-1 pairs */
    const unsigned char huge_map[] = {0xdf, 0xff, 0xff, 0xff, 0xff, 0xc0};
    expect_md_error(huge_map, sizeof huge_map, "cannot fit");
    /* amdhsa.kernels an array of 2^32-1 kernels */
    memcpy(md, good_md, sizeof good_md);
    size_t n = 16;
    const unsigned char arr32[] = {0xdd, 0xff, 0xff, 0xff, 0xff};
    memcpy(md + 16, arr32, sizeof arr32);
    memcpy(md + 16 + sizeof arr32, good_md + 17, sizeof good_md - 17);
    n = 16 + sizeof arr32 + sizeof good_md - 17;
    expect_md_error(md, n, "cannot fit");
    /* a string longer than what is left */
    const unsigned char long_str[] = {0x81, 0xdb, 0x7f, 0xff, 0xff, 0xff, 'a'};
    expect_md_error(long_str, sizeof long_str, "past the end");
    /* ext types are not metadata */
    const unsigned char ext[] = {0x81, 0xa1, 'x', 0xc7, 0x01, 0x05, 0x00};
    expect_md_error(ext, sizeof ext, "ext or reserved");
    /* the reserved byte 0xc1 */
    const unsigned char reserved[] = {0xc1};
    expect_md_error(reserved, sizeof reserved, "0xc1");
    /* nesting deeper than any metadata: arrays of arrays */
    unsigned char deep[64] = {0x81, 0xa1, 'x'};
    for (size_t i = 3; i < sizeof deep; i++)
        deep[i] = 0x91;
    expect_md_error(deep, sizeof deep, "nested deeper");
    /* .wavefront_size 48 */
    memcpy(md, good_md, sizeof good_md);
    md[sizeof good_md - 1] = 48;
    expect_md_error(md, sizeof good_md, ".wavefront_size is 48");
    /* .wavefront_size a string */
    memcpy(md, good_md, sizeof good_md);
    md[sizeof good_md - 1] = 0xa0;
    expect_md_error(md, sizeof good_md, "expected a whole number");
    /* no .wavefront_size at all: {"amdhsa.kernels": [{".name": "k"}]} */
    memcpy(md, good_md, 26);
    md[17] = 0x81;
    expect_md_error(md, 26, ".wavefront_size is -1");
    /* the top is not a map */
    const unsigned char top_arr[] = {0x90};
    expect_md_error(top_arr, sizeof top_arr, "expected a msgpack map at the top");
    /* no amdhsa.kernels */
    const unsigned char empty_map[] = {0x80};
    expect_md_error(empty_map, sizeof empty_map, "no amdhsa.kernels");
    /* a name longer than the reader keeps is an error, not a truncation */
    unsigned char longname[300];
    memcpy(longname, good_md, 18);
    longname[1 + 15 + 1] = 0x82;
    size_t p = 18;
    memcpy(longname + p, "\xa5.name", 6), p += 6;
    longname[p++] = 0xd9, longname[p++] = 200;
    memset(longname + p, 'n', 200), p += 200;
    memcpy(longname + p, good_md + 26, sizeof good_md - 26), p += sizeof good_md - 26;
    expect_md_error(longname, p, ".name: 200 bytes, longer than 127");
}

static void test_msgpack_ints(void **state)
{
    (void)state;
    const unsigned char b[] = {0xd0, 0xff, 0xd1, 0x80, 0x00, 0xd2, 0x00, 0x00, 0x00, 0x05,
                               0xcd, 0x01, 0x00, 0xe0, 0x7f, 0xc3, 0xcb, 0x3f, 0xf0, 0, 0, 0, 0, 0, 0};
    struct mp_reader r;
    struct mp_value v;
    mp_init(&r, b, sizeof b);
    assert_true(mp_next(&r, &v));
    assert_int_equal(v.kind, MP_INT);
    assert_int_equal(v.i, -1);
    assert_true(mp_next(&r, &v));
    assert_int_equal(v.i, -32768);
    assert_true(mp_next(&r, &v));
    assert_int_equal(v.kind, MP_UINT);
    assert_int_equal(v.u, 5);
    assert_true(mp_next(&r, &v));
    assert_int_equal(v.u, 256);
    assert_true(mp_next(&r, &v));
    assert_int_equal(v.i, -32);
    assert_true(mp_next(&r, &v));
    assert_int_equal(v.u, 127);
    assert_true(mp_next(&r, &v));
    assert_true(v.kind == MP_BOOL && v.b);
    assert_true(mp_next(&r, &v));
    assert_true(v.kind == MP_FLOAT && v.f > 0.99 && v.f < 1.01);
    assert_false(mp_next(&r, &v));
    assert_non_null(strstr(r.err, "truncated"));
}

static void test_mutations_never_crash(void **state)
{
    (void)state;
    test_rand_seed(0x9e3779b97f4a7c15ull);
    size_t len;
    char *orig = load(FIX "flydsl_1199.gfx1250.co", &len);
    unsigned char *m = malloc(len);
    size_t ok = 0, refused = 0;
    /* Every prefix: each is a truncated file. */
    for (size_t cut = 0; cut < len; cut += 7) {
        unsigned char *t = malloc(cut ? cut : 1);
        memcpy(t, orig, cut);
        char err[512];
        if (read_buf(t, cut, err, sizeof err) == 0)
            ok++;
        else
            refused++, assert_true(err[0] != '\0');
        free(t);
    }
    /* Flipped bytes, half of them inside the headers and the note where the reader looks. */
    for (int iter = 0; iter < 20000; iter++) {
        memcpy(m, orig, len);
        int flips = 1 + (int)(test_rand_next() % 4);
        for (int f = 0; f < flips; f++) {
            size_t at = test_rand_next() % 2 ? test_rand_next() % len : test_rand_next() % (0x238 + 0xfc0);
            if (at >= len)
                at = len - 1;
            switch (test_rand_next() % 4) {
            case 0: m[at] = (unsigned char)test_rand_next(); break;
            case 1: m[at] ^= (unsigned char)(1u << (test_rand_next() % 8)); break;
            case 2: m[at] = 0xff; break;
            default: m[at] = 0; break;
            }
        }
        struct amdgpu_co co;
        char err[512] = "";
        if (amdgpu_co_read(m, len, &co, err, sizeof err) == 0) {
            ok++;
            for (size_t k = 0; k < co.nkernels; k++) {
                assert_true(co.kernels[k].wavefront_size == 32 || co.kernels[k].wavefront_size == 64);
                assert_true(strlen(co.kernels[k].name) < sizeof co.kernels[k].name);
            }
            amdgpu_co_free(&co);
        } else {
            refused++;
            assert_true(err[0] != '\0');
        }
    }
    print_message("mutations: %zu read, %zu refused with a message\n", ok, refused);
    assert_true(refused > 100 && ok > 100);
    free(m);
    free(orig);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_real_gfx1250),
        cmocka_unit_test(test_real_gfx942),
        cmocka_unit_test(test_default_wave),
        cmocka_unit_test(test_hand_made_good),
        cmocka_unit_test(test_hostile_headers),
        cmocka_unit_test(test_hostile_metadata),
        cmocka_unit_test(test_msgpack_ints),
        cmocka_unit_test(test_mutations_never_crash),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
