/* A suite's code object is read inside the suite's folder every time (engine/prebuilt.h
 * eng_code_object_read), not only checked when the manifest loads: a link swapped in between
 * the manifest's load and a worker's read is refused, naming the folder; the file itself is
 * read whole; a path given on the command line (--code-object) is the user's own. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/xalloc.h"
#include "engine/manifest.h"
#include "engine/prebuilt.h"

static char root[] = "/tmp/kl-coread-XXXXXX";

static void write_file(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
}

static void test_swap_after_load_is_refused(void **state)
{
    (void)state;
    assert_non_null(mkdtemp(root));
    char *suite = xasprintf("%s/suite", root), *outside = xasprintf("%s/secret.ptx", root);
    char *manifest = xasprintf("%s/k.json", suite), *co = xasprintf("%s/k.ptx", suite);
    assert_int_equal(mkdir(suite, 0700), 0);
    write_file(outside, "the secret");
    write_file(co, "// a PTX file\n");
    write_file(manifest,
               "{\"format\": \"kladder-suite\", \"version\": 1, \"name\": \"k\","
               " \"code_object\": \"k.ptx\", \"variants\": {\"fixed\": \"k\"}, \"reference\": \"k\","
               " \"params\": {\"n\": 16}, \"buffers\": [{\"name\": \"o\", \"dtype\": \"f32\","
               " \"shape\": [\"n\"], \"role\": \"output\"}], \"args\": [\"o\", \"n\"],"
               " \"launch\": {\"block\": [64, 1, 1], \"grid\": [1, 1, 1]},"
               " \"baseline\": [{\"n\": 16}]}");
    char err[1024];
    struct eng_manifest *m = eng_manifest_load(manifest, NULL, err, sizeof err);
    if (!m)
        fail_msg("%s", err);
    size_t len = 0;
    char *bytes = eng_code_object_read(m, m->code_object, &len, err, sizeof err);
    assert_non_null(bytes);
    assert_int_equal(len, strlen("// a PTX file\n"));
    free(bytes);
    /* the file becomes a link out of the folder after the manifest was loaded and checked */
    assert_int_equal(unlink(co), 0);
    assert_int_equal(symlink(outside, co), 0);
    bytes = eng_code_object_read(m, m->code_object, &len, err, sizeof err);
    assert_null(bytes);
    assert_non_null(strstr(err, "resolves outside the suite's folder"));
    struct eng_prebuilt p;
    assert_int_equal(eng_prebuilt_open(m, m->code_object, "sm_90", &p, err, sizeof err), -1);
    assert_non_null(strstr(err, "outside"));
    /* a path of the user's own (kladder run --code-object) is read as given */
    bytes = eng_code_object_read(m, outside, &len, err, sizeof err);
    assert_non_null(bytes);
    free(bytes);
    eng_manifest_free(m);
    unlink(co);
    unlink(manifest);
    unlink(outside);
    rmdir(suite);
    rmdir(root);
    free(suite), free(outside), free(manifest), free(co);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_swap_after_load_is_refused),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
