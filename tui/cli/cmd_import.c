/* kladder import cases PATH */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "casedb/cdb.h"
#include "importers/case_index.h"
#include "tui/cli/cli.h"
#include "tui/cli/opts.h"

static void print_help(const struct cli_parser *p)
{
    static const char *const forms[] = {"cases PATH", NULL};
    cli_print_usage(stdout, p, forms);
    printf("\n"
           "Replaces the case index with PATH (a cases.json; gaps.json and rungs.json are read\n"
           "from the same folder when present, else the built-in ones). The file is checked\n"
           "completely first: on any error nothing changes.\n");
}

int cmd_import(int argc, char **argv, const struct cli_global *g)
{
    struct cli_list words;
    const struct cli_opt opts[] = {
        CLI_OPT_HELP("--help", print_help),
        CLI_OPT_HELP("-h", print_help),
    };
    const struct cli_parser p = {.verb = "import", .opts = opts, .nopts = CLI_COUNT(opts),
                                 .args = {.kind = CLI_LIST, .dest = &words}};
    int rc = cli_parse(&p, argc, argv, NULL);
    bool what = rc == CLI_PARSED && words.n == 2 && strcmp(words.v[0], "cases") == 0;
    const char *path = what ? words.v[1] : NULL;
    free(words.v);
    if (rc != CLI_PARSED)
        return rc;
    if (!path)
        return cli_usage_error("import", "expected: import cases PATH");
    struct cdb *db = cli_open_db_write(g, "import");
    if (!db)
        return 2;
    char err[1024];
    rc = imp_index_import(db, path, err, sizeof err);
    int count = 0;
    if (rc == 0)
        cdb_case_count(db, &count, err, sizeof err);
    cdb_close(db);
    if (rc != 0) {
        fprintf(stderr, "kladder import: %s\nThe database was not changed.\n", err);
        return 2;
    }
    printf("imported %d cases from %s\n", count, path);
    return 0;
}
