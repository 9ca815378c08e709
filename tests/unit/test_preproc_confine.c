/* What a compiler reads, judged from its preprocessor's output (engine/toolchain/preproc_confine.h):
 * a file entered (line marker flag 1) inside a root or a search folder of the -v log passes;
 * one outside is refused naming the file and the line that included it, a #line mark counted
 * as the including file's name; a link out of a root, an escaped name, and a climbing name
 * are judged by where they really lead. */
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

#include "engine/toolchain/preproc_confine.h"

static char root[512], sys[600], outside[600];

static void put(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
}

static int setup(void **state)
{
    (void)state;
    const char *base = getenv("KL_TMP") ? getenv("KL_TMP") : getenv("TMPDIR");
    snprintf(root, sizeof root, "%s/kl-pre-XXXXXX", base ? base : P_tmpdir);
    if (!mkdtemp(root))
        return -1;
    char p[700];
    snprintf(sys, sizeof sys, "%s/sys", root);
    snprintf(outside, sizeof outside, "%s/outside", root);
    mkdir(sys, 0700);
    mkdir(outside, 0700);
    snprintf(p, sizeof p, "%s/inside", root);
    mkdir(p, 0700);
    snprintf(p, sizeof p, "%s/inside/k.cpp", root);
    put(p, "int x;\n");
    snprintf(p, sizeof p, "%s/stdio.h", sys);
    put(p, "int y;\n");
    snprintf(p, sizeof p, "%s/secret", outside);
    put(p, "root:x:0:0\n");
    char link[700];
    snprintf(link, sizeof link, "%s/inside/link.h", root);
    return symlink(p, link);
}

static int teardown(void **state)
{
    (void)state;
    char cmd[700];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", root);
    return system(cmd) == 0 ? 0 : -1;
}

static char vlog[2048];
static const char *roots[2];

static void prepare(void)
{
    static char inside[600];
    snprintf(inside, sizeof inside, "%s/inside", root);
    roots[0] = inside;
    roots[1] = NULL;
    snprintf(vlog, sizeof vlog,
             "ignoring nonexistent directory \"/nowhere\"\n#include \"...\" search starts here:\n"
             "#include <...> search starts here:\n %s\n /usr/include (framework directory)\n"
             "End of search list.\n root:x:0:0 is no folder after the list\n", sys);
}

static int judge(const char *pre, char *err, size_t n)
{
    err[0] = '\0';
    return eng_preproc_judge(pre, vlog, roots, err, n);
}

static void inside_and_system_pass(void **state)
{
    (void)state;
    prepare();
    char pre[4096], err[512];
    snprintf(pre, sizeof pre,
             "# 1 \"%s/inside/k.cpp\"\n# 1 \"<built-in>\"\n# 1 \"<command-line>\"\n"
             "# 1 \"%s/inside/k.cpp\"\n#line 1 \"k.cu\"\nint a;\n# 1 \"%s/stdio.h\" 1 3 4\n"
             "int y;\n# 3 \"k.cu\" 2\nint b;\n",
             root, root, sys);
    assert_int_equal(judge(pre, err, sizeof err), 0);
}

static void outside_refused_at_its_line(void **state)
{
    (void)state;
    prepare();
    char pre[4096], err[512];
    /* k.cu's line 4 includes it: lines 1..3 of k.cu came out before the marker */
    snprintf(pre, sizeof pre,
             "# 1 \"%s/inside/k.cpp\"\n# 1 \"k.cu\"\nint a;\n\nint b;\n# 1 \"%s/secret\" 1\n"
             "root:x:0:0\n# 5 \"k.cu\" 2\n",
             root, outside);
    assert_int_equal(judge(pre, err, sizeof err), -1);
    assert_non_null(strstr(err, "k.cu:4: #include reaches "));
    assert_non_null(strstr(err, "/outside/secret, which is outside"));
    assert_null(strstr(err, "root:x"));
}

static void link_out_refused(void **state)
{
    (void)state;
    prepare();
    char pre[4096], err[512];
    snprintf(pre, sizeof pre, "# 1 \"k.cu\"\n# 1 \"%s/inside/link.h\" 1\nroot:x:0:0\n", root);
    assert_int_equal(judge(pre, err, sizeof err), -1);
    assert_non_null(strstr(err, "k.cu:1: #include reaches"));
}

static void climbing_and_escaped_names_judged_by_where_they_lead(void **state)
{
    (void)state;
    prepare();
    char pre[4096], err[512];
    /* sys/../outside/secret climbs out of a search folder */
    snprintf(pre, sizeof pre, "# 1 \"k.cu\"\n# 1 \"%s/../outside/secret\" 1\n", sys);
    assert_int_equal(judge(pre, err, sizeof err), -1);
    /* an octal escape in the marker's name is the file's byte: \163 is 's' */
    snprintf(pre, sizeof pre, "# 1 \"k.cu\"\n# 1 \"%s/\\163tdio.h\" 1\n", sys);
    assert_int_equal(judge(pre, err, sizeof err), 0);
    /* a file that does not exist where the marker says cannot be vouched for */
    snprintf(pre, sizeof pre, "# 1 \"k.cu\"\n# 1 \"%s/inside/gone.h\" 1\n", root);
    assert_int_equal(judge(pre, err, sizeof err), -1);
}

static void no_markers_nothing_entered(void **state)
{
    (void)state;
    prepare();
    char err[512];
    assert_int_equal(judge("int a;\n# pragma once\n#define X 1\n", err, sizeof err), 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(inside_and_system_pass),
        cmocka_unit_test(outside_refused_at_its_line),
        cmocka_unit_test(link_out_refused),
        cmocka_unit_test(climbing_and_escaped_names_judged_by_where_they_lead),
        cmocka_unit_test(no_markers_nothing_entered),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
