/* The ELF readers behind pin and rung 7's contracts (engine/codeobj/elf_build_id.h,
 * engine/codeobj/elf_exports.h) on hostile input: this test binary itself, cut at many lengths and with
 * its header offsets and counts corrupted, must never be read outside the bytes given (the
 * sanitizer build checks), and the whole file must give the same build id readelf reports. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "common/fileio.h"
#include "engine/codeobj/elf_build_id.h"
#include "engine/codeobj/elf_exports.h"

static unsigned char *self;
static size_t self_len;

static int load_self(void **state)
{
    (void)state;
    char err[256];
    self = (unsigned char *)file_read_all("/proc/self/exe", &self_len, err, sizeof err);
    return self ? 0 : -1;
}

static int free_self(void **state)
{
    (void)state;
    free(self);
    return 0;
}

static void test_whole_file(void **state)
{
    (void)state;
    char id[2 * ELF_BUILD_ID_MAX + 1], why[256];
    int rc = eng_elf_build_id_mem(self, self_len, id, why, sizeof why);
    if (rc == 1)
        skip(); /* linked without --build-id: nothing to compare */
    assert_int_equal(rc, 0);
    assert_true(strlen(id) >= 16);
    char err[256], id2[2 * ELF_BUILD_ID_MAX + 1];
    assert_int_equal(eng_elf_build_id("/proc/self/exe", id2, err, sizeof err), 0);
    assert_string_equal(id, id2);
}

/* The lengths to cut the file at: densely through the first page (the ELF and program
 * headers, the build-id note), at growing steps through the middle (a reader looks there only
 * through offsets it has checked), and densely again through the end, where the linker puts
 * the section header table and the string tables. A cut through every page of a sanitizer
 * build (15 MB) cost two minutes of copies and file writes and found nothing more. */
static size_t next_cut(size_t cut, size_t len, size_t end_step)
{
    size_t tail = len > 16384 ? len - 16384 : 0;
    if (cut < 4096)
        return cut + 7;
    if (cut < tail) {
        size_t step = cut / 8 > 4093 ? cut / 8 : 4093;
        return cut + step < tail ? cut + step : tail;
    }
    return cut + end_step;
}

/* Cuts of the file, each in a buffer of exactly that size: no read past its end. */
static void test_truncated(void **state)
{
    (void)state;
    char id[2 * ELF_BUILD_ID_MAX + 1], why[256];
    for (size_t cut = 0; cut < self_len; cut = next_cut(cut, self_len, 61)) {
        unsigned char *b = malloc(cut ? cut : 1);
        memcpy(b, self, cut);
        int rc = eng_elf_build_id_mem(b, cut, id, why, sizeof why);
        assert_true(rc >= -1 && rc <= 1);
        free(b);
    }
}

/* Header fields set to extremes: section and program header offsets, sizes and counts. */
static void test_corrupt_headers(void **state)
{
    (void)state;
    static const size_t fields[][2] = {{0x20, 8}, {0x28, 8}, {0x36, 2}, {0x38, 2},
                                       {0x3a, 2}, {0x3c, 2}, {0x3e, 2}};
    static const uint64_t values[] = {0, 1, 0x7fff, 0xffff, 0xffffffffu, UINT64_MAX,
                                      UINT64_MAX - 63};
    char id[2 * ELF_BUILD_ID_MAX + 1], why[256];
    size_t len = self_len < 65536 ? self_len : 65536;
    unsigned char *b = malloc(len);
    for (size_t f = 0; f < sizeof fields / sizeof *fields; f++)
        for (size_t v = 0; v < sizeof values / sizeof *values; v++) {
            memcpy(b, self, len);
            for (size_t k = 0; k < fields[f][1]; k++)
                b[fields[f][0] + k] = (unsigned char)(values[v] >> (8 * k));
            int rc = eng_elf_build_id_mem(b, len, id, why, sizeof why);
            assert_true(rc >= -1 && rc <= 1);
        }
    free(b);
}

/* The exports reader on cut copies of a real file on disk. */
static void test_exports_cut(void **state)
{
    (void)state;
    char dir[] = "/tmp/kladder-elf-test-XXXXXX";
    assert_non_null(mkdtemp(dir));
    char path[128], err[512];
    snprintf(path, sizeof path, "%s/cut.so", dir);
    struct eng_elf_exports *x = eng_elf_exports_open("/proc/self/exe", err, sizeof err);
    if (x) { /* a test binary is an executable; it may or may not have a dynsym table */
        assert_false(eng_elf_exports_has(x, "kladder_no_such_symbol"));
        eng_elf_exports_close(x);
    }
    for (size_t cut = 64; cut < self_len; cut = next_cut(cut, self_len, 1021)) {
        char e2[256];
        assert_int_equal(file_write_atomic(path, self, cut, e2, sizeof e2), 0);
        x = eng_elf_exports_open(path, err, sizeof err);
        if (x) {
            (void)eng_elf_exports_has(x, "main");
            eng_elf_exports_close(x);
        }
    }
    unlink(path);
    rmdir(dir);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_whole_file),
        cmocka_unit_test(test_truncated),
        cmocka_unit_test(test_corrupt_headers),
        cmocka_unit_test(test_exports_cut),
    };
    return cmocka_run_group_tests(tests, load_self, free_self);
}
