/* tui/cli/opts: a verb's option table. Values land where the table says, an option's value is
 * the next argument whatever it looks like, arguments that are no option go to the args entry
 * up to its limit, and every refusal is the usage message the verbs printed by hand (checked
 * on stderr, byte for byte). Help is handed its parser, and cli_print_help lays out the options
 * that say what they do in the column and wrap its contract states. An option's choices (a
 * list, or a table read through a callback) are the only values the parser lets through, and
 * help, --options, the man page source and the usage lines show them. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tui/cli/cli.h"
#include "tui/cli/opts.h"

/* Parses the NULL-terminated words (the verb's name first) with stderr caught in err. */
static int parse(const struct cli_parser *p, void *ctx, char *err, size_t errlen,
                 const char *const *words)
{
    char *argv[32];
    int argc = 0;
    for (; words[argc]; argc++)
        argv[argc] = (char *)(uintptr_t)words[argc];
    argv[argc] = NULL;
    fflush(stderr);
    FILE *f = tmpfile();
    assert_non_null(f);
    int saved = dup(2);
    dup2(fileno(f), 2);
    int rc = cli_parse(p, argc, argv, ctx);
    fflush(stderr);
    dup2(saved, 2);
    close(saved);
    rewind(f);
    size_t n = fread(err, 1, errlen - 1, f);
    err[n] = '\0';
    fclose(f);
    return rc;
}

#define WORDS(...) ((const char *const[]){__VA_ARGS__, NULL})

static int helped;
static const struct cli_parser *helped_by;
static void help(const struct cli_parser *p)
{
    helped_by = p;
    helped++;
}

static int upper_only(const struct cli_opt *opt, const char *v, void *ctx)
{
    (void)ctx;
    if (v[0] < 'A' || v[0] > 'Z')
        return cli_usage_error("t", "%s wants capitals, not '%s'", opt->name, v);
    *(const char **)opt->dest = v;
    return CLI_PARSED;
}

static int stop_with_7(const struct cli_opt *opt, const char *v, void *ctx)
{
    (void)opt, (void)v, (void)ctx;
    return 7;
}

/* Takes "--pair A B" (two values) and counts what it took in ctx. */
static int take_pair(int argc, char **argv, int *i, void *ctx)
{
    if (strcmp(argv[*i], "--pair") != 0)
        return 0;
    if (*i + 2 >= argc)
        return cli_usage_error("t", "--pair expects two values");
    *i += 2;
    ++*(int *)ctx;
    return 1;
}

struct vals {
    bool flag;
    const char *str, *up, *arg;
    int num;
    long big;
    struct cli_list list, args;
    int pairs;
};

static int parse_table(struct vals *v, char *err, size_t errlen, const char *const *words)
{
    memset(v, 0, sizeof *v);
    const struct cli_opt opts[] = {
        CLI_OPT_TAKE(take_pair),
        CLI_OPT_HELP("--help", help),
        CLI_OPT_FLAG("--flag", &v->flag),
        CLI_OPT_STRING("--str", &v->str),
        CLI_OPT_INT("--num", &v->num, 1, 8),
        CLI_OPT_LONG("--big", &v->big, 0, 1000),
        CLI_OPT_LIST("--item", &v->list),
        CLI_OPT_CALL("--up", &v->up, upper_only),
        CLI_OPT_DO("--stop", NULL, stop_with_7),
        {.name = "--quiet", .kind = CLI_STRING, .dest = &v->str, .missing = "--quiet needs one"},
    };
    const struct cli_parser p = {.verb = "t", .opts = opts, .nopts = CLI_COUNT(opts),
                                 .args = {.kind = CLI_LIST, .dest = &v->args, .hi = 2}};
    return parse(&p, &v->pairs, err, errlen, words);
}

static void test_values_land(void **state)
{
    (void)state;
    struct vals v;
    char err[512];
    int rc = parse_table(&v, err, sizeof err,
                         WORDS("t", "a", "--flag", "--str", "--flag", "--num", "8", "--big", "999",
                               "--item", "x", "--item", "-y", "--up", "Yes", "--pair", "1", "2",
                               "b"));
    assert_int_equal(rc, CLI_PARSED);
    assert_string_equal(err, "");
    assert_true(v.flag);
    assert_string_equal(v.str, "--flag"); /* the value is the next argument, whatever it is */
    assert_int_equal(v.num, 8);
    assert_int_equal(v.big, 999);
    assert_int_equal(v.list.n, 2);
    assert_string_equal(v.list.v[0], "x");
    assert_string_equal(v.list.v[1], "-y");
    assert_null(v.list.v[2]);
    assert_string_equal(v.up, "Yes");
    assert_int_equal(v.pairs, 1);
    assert_int_equal(v.args.n, 2);
    assert_string_equal(v.args.v[0], "a");
    assert_string_equal(v.args.v[1], "b");
    free(v.list.v);
    free(v.args.v);
}

static void test_lists_exist_when_empty(void **state)
{
    (void)state;
    struct vals v;
    char err[512];
    assert_int_equal(parse_table(&v, err, sizeof err, WORDS("t")), CLI_PARSED);
    assert_non_null(v.list.v);
    assert_null(v.list.v[0]);
    assert_int_equal(v.args.n, 0);
    free(v.list.v);
    free(v.args.v);
}

static void test_refusals(void **state)
{
    (void)state;
    static const struct {
        const char *words[4];
        int rc;
        const char *err;
    } cases[] = {
        {{"t", "--num"}, 2, "kladder t: --num expects a value\n(see kladder --help)\n"},
        {{"t", "--quiet"}, 2, "kladder t: --quiet needs one\n(see kladder --help)\n"},
        {{"t", "--num", "9"}, 2, "kladder t: --num expects a whole number from 1 to 8, not '9'\n"},
        {{"t", "--big", "x"}, 2, "kladder t: --big expects a whole number from 0 to 1000, not 'x'\n"},
        {{"t", "--up", "no"}, 2, "kladder t: --up wants capitals, not 'no'\n(see kladder --help)\n"},
        {{"t", "--frob"}, 2, "kladder t: unknown option --frob\n(see kladder --help)\n"},
        {{"t", "a", "b", "c"}, 2, "kladder t: unexpected argument 'c'\n(see kladder --help)\n"},
        {{"t", "--pair", "1"}, 2, "kladder t: --pair expects two values\n(see kladder --help)\n"},
        {{"t", "--stop", "--frob"}, 7, ""},
    };
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        struct vals v;
        char err[512];
        int rc = parse_table(&v, err, sizeof err, cases[k].words);
        assert_int_equal(rc, cases[k].rc);
        assert_string_equal(err, cases[k].err);
        free(v.list.v);
        free(v.args.v);
    }
}

static void test_help_stops(void **state)
{
    (void)state;
    struct vals v;
    char err[512];
    helped = 0;
    helped_by = NULL;
    assert_int_equal(parse_table(&v, err, sizeof err, WORDS("t", "--help", "--frob")), 0);
    assert_int_equal(helped, 1);
    assert_non_null(helped_by); /* the parser it was found in, so that it can list the table */
    assert_string_equal(helped_by->verb, "t");
    assert_string_equal(err, "");
    free(v.list.v);
    free(v.args.v);
}

/* A stray argument has one wording in every verb (cli_unknown, escaped), and long_only's
 * single-dash arguments. */
static void test_strays(void **state)
{
    (void)state;
    static const struct {
        const char *arg, *err;
    } cases[] = {
        {"-x\x1b", "kladder t: unknown option -x\\x1b\n(see kladder --help)\n"},
        {"x\x1b", "kladder t: unexpected argument 'x\\x1b'\n(see kladder --help)\n"},
    };
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        const struct cli_parser p = {.verb = "t"};
        char err[512];
        assert_int_equal(parse(&p, NULL, err, sizeof err, WORDS("t", cases[k].arg)), 2);
        assert_string_equal(err, cases[k].err);
    }
    const char *one = NULL;
    const struct cli_parser p = {.verb = "t", .args = CLI_OPT_STRING(NULL, &one),
                                 .long_only = true};
    char err[512];
    assert_int_equal(parse(&p, NULL, err, sizeof err, WORDS("t", "-")), CLI_PARSED);
    assert_string_equal(one, "-");
    one = NULL;
    assert_int_equal(parse(&p, NULL, err, sizeof err, WORDS("t", "-x")), CLI_PARSED);
    assert_string_equal(one, "-x");
    one = NULL;
    assert_int_equal(parse(&p, NULL, err, sizeof err, WORDS("t", "--x")), 2);
    assert_string_equal(err, "kladder t: unknown option --x\n(see kladder --help)\n");
}

static int take_nothing(int argc, char **argv, int *i, void *ctx)
{
    (void)argc, (void)argv, (void)i, (void)ctx;
    return 0;
}

/* cli_print_help's text as a string (malloc'd). */
static char *help_text(const struct cli_parser *p)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    cli_print_help(f, p);
    fclose(f);
    return buf;
}

/* Help's lines: only options with about, a CLI_TAKE's own in its place, the name column one
 * cell wider than the widest name (at least 16), a name too wide for 28 cells on its own line,
 * and text wrapped at 100 columns under its column. */
static void test_help_lines(void **state)
{
    (void)state;
    bool b;
    const char *s;
    int n;
    static const struct cli_opt takes[] = {CLI_TAKES("--pair", "A B", "two values"),
                                           CLI_TAKES("--quiet", NULL, NULL), {.name = NULL}};
    const struct cli_opt opts[] = {
        CLI_OPT_HELP("--help", help),
        CLI_OPT_FLAG_DOC("--all", &b, "every one"),
        CLI_OPT_FLAG("--hidden", &b),
        CLI_OPT_STRING_DOC("--output-file", &s, "PATH", "where it goes"),
        CLI_OPT_TAKE_NAMED(take_nothing, takes),
        CLI_OPT_INT_DOC("--count", &n, 1, 9, "N",
                        "one two three four five six seven eight nine ten eleven twelve thirteen "
                        "fourteen fifteen sixteen"),
        CLI_OPT_STRING_DOC("--mode", &s, "aaaa|bbbb|cccc|dddd|eeee", "which one"),
    };
    const struct cli_parser p = {.verb = "t", .opts = opts, .nopts = CLI_COUNT(opts)};
    char *got = help_text(&p);
    assert_string_equal(got,
                        "  --all               every one\n"
                        "  --output-file PATH  where it goes\n"
                        "  --pair A B          two values\n"
                        "  --count N           one two three four five six seven eight nine ten "
                        "eleven twelve thirteen\n"
                        "                      fourteen fifteen sixteen\n"
                        "  --mode aaaa|bbbb|cccc|dddd|eeee\n"
                        "                      which one\n");
    free(got);
    /* short names keep the column of 16 that kladder --help's global options have */
    const struct cli_opt one[] = {CLI_OPT_STRING_DOC("--db", &s, "PATH", "the database")};
    const struct cli_parser q = {.verb = "t", .opts = one, .nopts = 1};
    got = help_text(&q);
    assert_string_equal(got, "  --db PATH        the database\n");
    free(got);
}

/* What fn(p) prints on stdout */
static char *stdout_of(void (*fn)(const struct cli_parser *p), const struct cli_parser *p)
{
    fflush(stdout);
    FILE *f = tmpfile();
    assert_non_null(f);
    int saved = dup(1);
    dup2(fileno(f), 1);
    fn(p);
    fflush(stdout);
    dup2(saved, 1);
    close(saved);
    rewind(f);
    static char buf[4096];
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    buf[n] = '\0';
    fclose(f);
    return buf;
}

/* a table's words, read when asked: the test's own "backends" */
static const char *engine_word(size_t i)
{
    static const char *const words[] = {"gpu", "emu"};
    return i < 2 ? words[i] : NULL;
}

static int calls;
static int count_call(const struct cli_opt *opt, const char *v, void *ctx)
{
    (void)ctx;
    calls++;
    *(const char **)opt->dest = v;
    return CLI_PARSED;
}

/* The parser lets only an option's choices through, from a list or a table's callback, and
 * refuses anything else once, naming every choice and the value as typed (escaped); help,
 * --options and the man page source show the choices as the option's value. */
static void test_choices(void **state)
{
    (void)state;
    const char *mode = NULL, *engine = NULL, *out = NULL;
    const struct cli_opt opts[] = {
        CLI_OPT_STRING_CHOICE_DOC("--mode", &mode, CLI_WORDS("fast", "slow", "off"), "how"),
        CLI_OPT_CALL_CHOICE_DOC("--engine", &engine, count_call, CLI_WORD_FN(engine_word),
                                "which engine"),
        CLI_OPT_STRING_DOC("--out", &out, "FILE", "where"),
    };
    const struct cli_parser p = {.verb = "t", .opts = opts, .nopts = CLI_COUNT(opts)};
    char err[512];
    calls = 0;
    assert_int_equal(parse(&p, NULL, err, sizeof err,
                           WORDS("t", "--mode", "slow", "--engine", "emu", "--out", "any")),
                     CLI_PARSED);
    assert_string_equal(mode, "slow");
    assert_string_equal(engine, "emu");
    assert_int_equal(calls, 1);
    assert_int_equal(parse(&p, NULL, err, sizeof err, WORDS("t", "--mode", "quick")), 2);
    assert_string_equal(err, "kladder t: --mode expects fast, slow or off, not 'quick'\n"
                             "(see kladder --help)\n");
    assert_int_equal(parse(&p, NULL, err, sizeof err, WORDS("t", "--engine", "gpu\x1b[2J")), 2);
    assert_string_equal(err, "kladder t: --engine expects gpu or emu, not 'gpu\\x1b[2J'\n"
                             "(see kladder --help)\n");
    assert_int_equal(calls, 1); /* a refused value never reaches the option's call */
    assert_string_equal(cli_choice(&opts[1], 1), "emu");
    assert_null(cli_choice(&opts[1], 2));
    assert_null(cli_choice(&opts[2], 0));

    char *got = help_text(&p);
    assert_string_equal(got, "  --mode fast|slow|off  how\n"
                             "  --engine gpu|emu      which engine\n"
                             "  --out FILE            where\n");
    free(got);
    assert_string_equal(stdout_of(cli_print_options, &p), "--mode\tstring\t\t\tfast slow off\n"
                                                          "--engine\tvalue\t\t\tgpu emu\n"
                                                          "--out\tstring\t\t\t\tFILE\n"
                                                          "ARGS\tnone\n");
    assert_string_equal(stdout_of(cli_print_man, &p), ".TP\n\\fB\\-\\-mode\\fR \\fIfast|slow|off\\fR\n"
                                                      "how\n"
                                                      ".TP\n\\fB\\-\\-engine\\fR \\fIgpu|emu\\fR\n"
                                                      "which engine\n"
                                                      ".TP\n\\fB\\-\\-out\\fR \\fIFILE\\fR\n"
                                                      "where\n");
}

/* The man page source escapes what roff would read as its own: a minus, a backslash, a line
 * that starts with a dot */
static void test_man_escapes(void **state)
{
    (void)state;
    bool b;
    const struct cli_opt opts[] = {
        CLI_OPT_FLAG_DOC("--dry-run", &b, ".json files only, C:\\x"),
    };
    const struct cli_parser p = {.verb = "t", .opts = opts, .nopts = CLI_COUNT(opts)};
    assert_string_equal(stdout_of(cli_print_man, &p),
                        ".TP\n\\fB\\-\\-dry\\-run\\fR\n\\&.json files only, C:\\ex\n");
}

/* Usage lines from the table: %o the options a form does not name, {NAME} one as help writes
 * it, [options] past CLI_USAGE_MAX, a form without %o as it is, lines wrapped at 100 columns
 * under the form's first word */
static void test_usage_lines(void **state)
{
    (void)state;
    const char *s = NULL;
    bool b;
    struct cli_list l = {0};
    const struct cli_opt opts[] = {
        CLI_OPT_HELP("--help", help),
        CLI_OPT_STRING_CHOICE_DOC("--mode", &s, CLI_WORDS("fast", "slow"), "how"),
        CLI_OPT_LIST_DOC("--lib", &l, "PATH", "a library"),
        CLI_OPT_FLAG_DOC("--json", &b, "as JSON"),
        CLI_OPT_FLAG("--hidden", &b),
    };
    const struct cli_parser p = {.verb = "t", .opts = opts, .nopts = CLI_COUNT(opts)};
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    cli_print_usage(f, &p, WORDS("write {--mode} FILE %o", "check FILE"));
    cli_print_usage(f, &p, NULL);
    fclose(f);
    assert_string_equal(buf, "usage: kladder t write --mode fast|slow FILE [--lib PATH]... [--json]\n"
                             "       kladder t check FILE\n"
                             "usage: kladder t [--mode fast|slow] [--lib PATH]... [--json]\n");
    free(buf);

    struct cli_opt many[CLI_USAGE_MAX + 1];
    for (size_t k = 0; k < CLI_COUNT(many); k++)
        many[k] = (struct cli_opt)CLI_OPT_FLAG_DOC("--some-long-option-name", &b, "x");
    const struct cli_parser q = {.verb = "t", .opts = many, .nopts = CLI_USAGE_MAX};
    buf = NULL;
    f = open_memstream(&buf, &len);
    cli_print_usage(f, &q, NULL);
    fclose(f);
    /* ten options of 26 cells: three a line, each further line under the first */
    const char *second = strchr(buf, '\n') + 1;
    assert_true(strncmp(second, "                 [--some", 24) == 0);
    for (const char *line = buf; *line; line = strchr(line, '\n') + 1)
        assert_true(strchr(line, '\n') - line <= 100);
    free(buf);
    const struct cli_parser r = {.verb = "t", .opts = many, .nopts = CLI_COUNT(many)};
    buf = NULL;
    f = open_memstream(&buf, &len);
    cli_print_usage(f, &r, WORDS("FILE %o"));
    fclose(f);
    assert_string_equal(buf, "usage: kladder t FILE [options]\n");
    free(buf);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_values_land),
        cmocka_unit_test(test_lists_exist_when_empty),
        cmocka_unit_test(test_refusals),
        cmocka_unit_test(test_help_stops),
        cmocka_unit_test(test_strays),
        cmocka_unit_test(test_help_lines),
        cmocka_unit_test(test_choices),
        cmocka_unit_test(test_man_escapes),
        cmocka_unit_test(test_usage_lines),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
