/* What a compiler is handed of a suite's source (engine/toolchain/source_includes.h): a local
 * include is put in place from inside the folder, once, between #line marks; every spelling
 * of an include the preprocessor accepts is recognised (digraph, comments, joined lines) and
 * one that reaches outside, or cannot be told, is refused naming the file and line. */
#define _GNU_SOURCE /* mkdtemp */
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

#include "engine/toolchain/source_includes.h"

static char root[512], outside[600];

static void put(const char *rel, const char *text)
{
    char path[700];
    snprintf(path, sizeof path, "%s/%s", root, rel);
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
}

static int setup(void **state)
{
    (void)state;
    const char *base = getenv("KL_TMP") ? getenv("KL_TMP") : getenv("TMPDIR");
    snprintf(root, sizeof root, "%s/kl-incl-XXXXXX", base ? base : P_tmpdir);
    if (!mkdtemp(root))
        return -1;
    char sub[600];
    snprintf(sub, sizeof sub, "%s/sub", root);
    snprintf(outside, sizeof outside, "%s-outside.h", root);
    FILE *f = fopen(outside, "w");
    if (!f || mkdir(sub, 0700) != 0)
        return -1;
    fputs("int secret;\n", f);
    fclose(f);
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    char cmd[1300];
    snprintf(cmd, sizeof cmd, "rm -rf '%s' '%s'", root, outside);
    return system(cmd) == 0 ? 0 : -1;
}

/* The source text with its includes put in place, or NULL with the error in err. */
static char *expand(const char *text, char *err, size_t errlen)
{
    return eng_source_includes(root, "k.kl", text, err, errlen);
}

static void local_include_in_place_once(void **state)
{
    (void)state;
    put("sub/a.h", "#define A 1\n");
    char err[1024] = "";
    char *out = expand("int x;\n#include \"sub/a.h\"\n#include \"sub/a.h\"\nint y;\n", err,
                       sizeof err);
    assert_non_null(out);
    assert_non_null(strstr(out, "#line 1 \"sub/a.h\"\n#define A 1\n"));
    /* the line after the include is the source's line 3, and the second include is dropped */
    assert_non_null(strstr(out, "#line 3 \"k.kl\"\n\nint y;"));
    const char *first = strstr(out, "#define A 1");
    assert_null(strstr(first + 1, "#define A 1"));
    free(out);
}

static void angle_headers_stay(void **state)
{
    (void)state;
    char err[1024] = "";
    char *out = expand("#include <cstdint>\n#include <cuda_fp16.h>\n#line 40\n", err, sizeof err);
    assert_non_null(out);
    assert_string_equal(out, "#include <cstdint>\n#include <cuda_fp16.h>\n#line 40\n");
    free(out);
}

/* A plain source's includes are checked where they lead and left for its own reader. */
static void checked_only(void **state)
{
    (void)state;
    put("sub/d.h", "#line 1 \"/etc/hosts\"\n");
    put("sub/e.h", "#define E 5\n");
    char err[1024] = "";
    assert_int_equal(eng_source_check(root, "k.cu", "#include \"sub/e.h\"\n#include \"gone.h\"\n",
                                      err, sizeof err), 0);
    assert_int_equal(eng_source_check(root, "k.cu", "#include \"sub/d.h\"\n", err, sizeof err), -1);
    assert_non_null(strstr(err, "sub/d.h:1: #line with a file name"));
}

/* refused SOURCE EXPECT: expand refuses it, naming k.kl and EXPECT, and reads nothing outside */
static void refused(const char *text, const char *expect)
{
    char err[1024] = "";
    char *out = expand(text, err, sizeof err);
    if (out || !strstr(err, expect) || strncmp(err, "k.kl:", 5) != 0)
        fail_msg("%s: got %s / \"%s\", expected \"%s\"", text, out ? "a text" : "NULL", err, expect);
    assert_null(strstr(err, "int secret"));
}

static void every_way_out_is_refused(void **state)
{
    (void)state;
    char t[1400];
    /* the file beside the folder, named from inside it */
    snprintf(t, sizeof t, "#include \"../%s\"\n", strrchr(outside, '/') + 1);
    refused(t, "resolves outside the suite's folder");
    snprintf(t, sizeof t, "#include \"sub/../../%s\"\n", strrchr(outside, '/') + 1);
    refused(t, "resolves outside the suite's folder");
    snprintf(t, sizeof t, "#include \"%s\"\n", outside);
    refused(t, "not an absolute path");
    snprintf(t, sizeof t, "#include <%s>\n", outside);
    refused(t, "not an absolute or climbing name");
    refused("#include <../../etc/passwd>\n", "not an absolute or climbing name");
    refused("#include <sys/../../etc/passwd>\n", "not an absolute or climbing name");
    refused("#define P \"x\"\n#include P\n", "a computed include");
    snprintf(t, sizeof t, "%%: include \"../%s\"\n", strrchr(outside, '/') + 1);
    refused(t, "resolves outside");
    snprintf(t, sizeof t, "# /* a */ include /* b */ \"../%s\"\n", strrchr(outside, '/') + 1);
    refused(t, "resolves outside");
    snprintf(t, sizeof t, "#inc\\\nlude \"../%s\"\n", strrchr(outside, '/') + 1);
    refused(t, "resolves outside");
    refused("  #  include_next \"a.h\"\n", "#include_next");
    refused("#embed <data.bin>\n", "#embed");
    refused("#if __has_include(\"../x.h\")\n#endif\n", "__has_include");
    refused("#define H __has_include(\"../x.h\")\n", "__has_include");
    refused("#if __has_include_next(</etc/passwd>)\n#endif\n", "__has_include");
    snprintf(t, sizeof t, "#line 1 \"%s\"\nsyntax error;\n", outside);
    refused(t, "#line with a file name");
    refused("#define F \"x\"\n#line 7 F\n", "#line with a file name");
    refused("# 1 \"/etc/hosts\"\n", "#line with a file name");
    refused("#include \"missing.h\"\n", "missing.h");
    refused("#include\n", "expected <name> or \"name\"");
    refused("#include \"unclosed\n", "expected <name> or \"name\"");
}

static void a_link_out_is_refused(void **state)
{
    (void)state;
    char link[700];
    snprintf(link, sizeof link, "%s/sub/out.h", root);
    assert_int_equal(symlink(outside, link), 0);
    refused("#include \"sub/out.h\"\n", "resolves outside the suite's folder");
}

static void nested_includes_resolve_beside_their_file(void **state)
{
    (void)state;
    put("sub/b.h", "#include \"c.h\"\n");
    put("sub/c.h", "#define C 3\n");
    char err[1024] = "";
    char *out = expand("#include \"sub/b.h\"\n", err, sizeof err);
    assert_non_null(out);
    assert_non_null(strstr(out, "#line 1 \"sub/c.h\"\n#define C 3\n"));
    free(out);
    put("sub/loop.h", "#include \"../sub/loop2.h\"\n");
    put("sub/loop2.h", "#include \"loop.h\"\n");
    out = expand("#include \"sub/loop.h\"\n", err, sizeof err);
    assert_non_null(out); /* each file once: a cycle ends */
    free(out);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(local_include_in_place_once),
        cmocka_unit_test(angle_headers_stay),
        cmocka_unit_test(checked_only),
        cmocka_unit_test(every_way_out_is_refused),
        cmocka_unit_test(a_link_out_is_refused),
        cmocka_unit_test(nested_includes_resolve_beside_their_file),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
