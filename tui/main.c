/* kladder's entry point: global options, then one verb (tui/cli/verbs.def) or the TUI. */
#include <locale.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/rung.h"
#include "engine/tables/tables.h"
#include "tui/cli/cli.h"
#include "tui/cli/opts.h"

struct verb {
    const char *name;
    int (*fn)(int argc, char **argv, const struct cli_global *g);
    const char *help;
};

static const struct verb verbs[] = {
#define VERB(name, fn, help) {name, fn, help},
#include "tui/cli/verbs.def"
#undef VERB
};

static void print_help(FILE *f);
static void print_help_stdout(const struct cli_parser *p)
{
    (void)p; /* the global parser, which print_help names itself */
    print_help(stdout);
}

static int print_version(const struct cli_opt *o, const char *v, void *ctx)
{
    (void)o, (void)v, (void)ctx;
    printf("kladder %s (%s)\n", KL_VERSION, KL_COMMIT);
    return 0;
}

/* --color's words, in the order help says them, and what each means */
static const char *const color_words[] = {"never", "auto", "always", NULL};
static const enum cli_color color_values[] = {CLI_COLOR_NEVER, CLI_COLOR_AUTO, CLI_COLOR_ALWAYS};

static int take_color(const struct cli_opt *o, const char *v, void *ctx)
{
    (void)ctx;
    /* --color=WHEN comes here from take_joined, not through the parser's own check */
    const struct cli_opt color = {.name = "--color", .choices = {.words = color_words}};
    int rc = cli_check_choice(NULL, &color, v);
    if (rc != CLI_PARSED)
        return rc;
    for (size_t k = 0; color_words[k]; k++)
        if (strcmp(v, color_words[k]) == 0)
            *(enum cli_color *)o->dest = color_values[k];
    return CLI_PARSED;
}

/* --db=PATH, --data-dir=DIR, --color=WHEN: the same options in one argument */
static int take_joined(int argc, char **argv, int *i, void *ctx)
{
    (void)argc;
    struct cli_global *g = ctx;
    const char *a = argv[*i];
    if (strncmp(a, "--db=", 5) == 0)
        g->db_path = a + 5;
    else if (strncmp(a, "--data-dir=", 11) == 0)
        g->data_dir = a + 11;
    else if (strncmp(a, "--color=", 8) == 0) {
        const struct cli_opt color = {.name = "--color", .dest = &g->color};
        int rc = take_color(&color, a + 8, ctx);
        return rc == CLI_PARSED ? 1 : rc;
    } else
        return 0;
    return 1;
}

/* The global options: parsed up to the verb (first_arg), listed by --options for the shell
 * completions, and the "global options" of --help (cli_print_help). */
static struct cli_global global = {.color = CLI_COLOR_AUTO};
static int first_arg;
static const struct cli_opt global_opts[] = {
    CLI_OPT_TAKE(take_joined),
    {.name = "--db", .kind = CLI_STRING, .dest = &global.db_path, .missing = "--db expects a path",
     .arg = "PATH", .about = "the database (default $XDG_DATA_HOME/kladder/kladder.db)"},
    {.name = "--data-dir", .kind = CLI_STRING, .dest = &global.data_dir,
     .missing = "--data-dir expects a path", .arg = "DIR",
     .about = "read cases.json, gaps.json, rungs.json from DIR, not the built-in copy"},
    {.name = "--color", .kind = CLI_CALL, .dest = &global.color, .call = take_color,
     .missing = "--color expects never, auto or always", .choices = {.words = color_words},
     .about = "auto (default) honours NO_COLOR; also written --color=WHEN"},
    {.name = "--version", .kind = CLI_DO, .call = print_version,
     .about = "print the version and exit"},
    {.name = "--help", .kind = CLI_HELP, .help = print_help_stdout,
     .about = "print this help and exit (kladder help VERB: a verb's own)"},
    CLI_OPT_HELP("-h", print_help_stdout),
};
static const struct cli_parser global_parser = {.opts = global_opts,
                                                .nopts = CLI_COUNT(global_opts),
                                                .first_arg = &first_arg};

static void print_help(FILE *f)
{
    fprintf(f,
            "usage: kladder [--db PATH] [--data-dir DIR] [--color=never|auto|always] [VERB ARGS...]\n"
            "\n"
            "kladder helps GPU kernel engineers close the gap between \"the unit test passed\" and\n"
            "\"the model broke\": an index of 32 real cases from the gfx1250 bring-up, and an engine\n"
            "that runs the %d-rung verification ladder on the local GPU.\n"
            "\n"
            "With no verb, kladder opens the interactive interface (it needs a terminal on stdin\n"
            "and stdout; redirected, kladder says so and exits 2).\n\nverbs:\n", eng_rung_top());
    for (size_t i = 0; i < sizeof verbs / sizeof verbs[0]; i++)
        fprintf(f, "  %-8s %s\n", verbs[i].name, verbs[i].help);
    fprintf(f, "\nglobal options:\n");
    cli_print_help(f, &global_parser);
    fprintf(f, "\nexit status: 0 success, 1 a check failed or hung, 2 usage or setup error\n");
}

int main(int argc, char **argv)
{
    setlocale(LC_ALL, "");
    eng_tables_install();
    global.argv0 = argv[0];
    if (argc == 2 && strcmp(argv[1], "--options") == 0) {
        /* the global options and the verbs, for the shell completions */
        cli_print_options(&global_parser);
        for (size_t v = 0; v < sizeof verbs / sizeof verbs[0]; v++)
            printf("VERB\t%s\n", verbs[v].name);
        printf("VERB\thelp\n");
        return 0;
    }
    if (argc == 2 && strcmp(argv[1], "--man-options") == 0) {
        /* the global options as man page source, for scripts/man-options.sh */
        cli_print_man(&global_parser);
        return 0;
    }
    int rc = cli_parse(&global_parser, argc, argv, &global);
    if (rc != CLI_PARSED)
        return rc;
    const struct cli_global *g = &global;
    int i = first_arg;
    if (i == argc)
        return tui_main(g);
    /* `kladder help [VERB]`: what --help says, for the word people type first */
    if (strcmp(argv[i], "help") == 0) {
        if (i + 1 == argc) {
            print_help(stdout);
            return 0;
        }
        for (size_t v = 0; v < sizeof verbs / sizeof verbs[0]; v++)
            if (strcmp(argv[i + 1], verbs[v].name) == 0) {
                char help_flag[] = "--help";
                char *help_argv[] = {argv[i + 1], help_flag, NULL};
                return verbs[v].fn(2, help_argv, g);
            }
        return cli_usage_error(NULL, "help: unknown verb '%s' (kladder help lists them)",
                               argv[i + 1]);
    }
    for (size_t v = 0; v < sizeof verbs / sizeof verbs[0]; v++)
        if (strcmp(argv[i], verbs[v].name) == 0)
            return verbs[v].fn(argc - i, argv + i, g);
    return cli_usage_error(NULL, "unknown verb '%s'", argv[i]);
}
