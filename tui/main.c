/* kladder's entry point: global options, then one verb (tui/cli/verbs.def) or the TUI. */
#include <locale.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/tables/tables.h"
#include "tui/cli/cli.h"

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

static void print_help(FILE *f)
{
    fprintf(f,
            "usage: kladder [--db PATH] [--data-dir DIR] [--color=never|auto|always] [VERB ARGS...]\n"
            "\n"
            "kladder helps GPU kernel engineers close the gap between \"the unit test passed\" and\n"
            "\"the model broke\": an index of 32 real cases from the gfx1250 bring-up, and an engine\n"
            "that runs the 8-rung verification ladder on the local GPU.\n"
            "\n"
            "With no verb, kladder opens the interactive interface (it needs a terminal on stdin\n"
            "and stdout; redirected, kladder says so and exits 2).\n\nverbs:\n");
    for (size_t i = 0; i < sizeof verbs / sizeof verbs[0]; i++)
        fprintf(f, "  %-8s %s\n", verbs[i].name, verbs[i].help);
    fprintf(f,
            "\nglobal options:\n"
            "  --db PATH        the database (default $XDG_DATA_HOME/kladder/kladder.db)\n"
            "  --data-dir DIR   read cases.json, gaps.json, rungs.json from DIR, not the built-in copy\n"
            "  --color=WHEN     never, auto (default; honours NO_COLOR) or always\n"
            "  --version        print the version and exit\n"
            "  --help           print this help and exit (kladder help VERB: a verb's own)\n"
            "\nexit status: 0 success, 1 a check failed or hung, 2 usage or setup error\n");
}

int main(int argc, char **argv)
{
    setlocale(LC_ALL, "");
    eng_tables_install();
    struct cli_global g = {.argv0 = argv[0], .color = CLI_COLOR_AUTO};
    int i = 1;
    for (; i < argc && argv[i][0] == '-'; i++) {
        const char *a = argv[i];
        if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
            print_help(stdout);
            return 0;
        } else if (strcmp(a, "--version") == 0) {
            printf("kladder %s (%s)\n", KL_VERSION, KL_COMMIT);
            return 0;
        } else if (strcmp(a, "--db") == 0 || strcmp(a, "--data-dir") == 0) {
            if (i + 1 >= argc)
                return cli_usage_error(NULL, "%s expects a path", a);
            if (a[2] == 'd' && a[3] == 'b')
                g.db_path = argv[++i];
            else
                g.data_dir = argv[++i];
        } else if (strncmp(a, "--db=", 5) == 0) {
            g.db_path = a + 5;
        } else if (strncmp(a, "--data-dir=", 11) == 0) {
            g.data_dir = a + 11;
        } else if (strncmp(a, "--color", 7) == 0) {
            const char *v = a[7] == '=' ? a + 8 : (a[7] == '\0' && i + 1 < argc ? argv[++i] : "");
            if (strcmp(v, "never") == 0)
                g.color = CLI_COLOR_NEVER;
            else if (strcmp(v, "auto") == 0)
                g.color = CLI_COLOR_AUTO;
            else if (strcmp(v, "always") == 0)
                g.color = CLI_COLOR_ALWAYS;
            else
                return cli_usage_error(NULL, "--color expects never, auto or always, not '%s'", v);
        } else {
            return cli_unknown(NULL, a);
        }
    }
    if (i == argc)
        return tui_main(&g);
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
                return verbs[v].fn(2, help_argv, &g);
            }
        return cli_usage_error(NULL, "help: unknown verb '%s' (kladder help lists them)",
                               argv[i + 1]);
    }
    for (size_t v = 0; v < sizeof verbs / sizeof verbs[0]; v++)
        if (strcmp(argv[i], verbs[v].name) == 0)
            return verbs[v].fn(argc - i, argv + i, &g);
    return cli_usage_error(NULL, "unknown verb '%s'", argv[i]);
}
