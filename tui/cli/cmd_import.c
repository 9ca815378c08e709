/* kladder import cases PATH */
#include <stdio.h>
#include <string.h>

#include "casedb/cdb.h"
#include "importers/case_index.h"
#include "tui/cli/cli.h"

int cmd_import(int argc, char **argv, const struct cli_global *g)
{
    if (argc == 2 && (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0)) {
        printf("usage: kladder import cases PATH\n\n"
               "Replaces the case index with PATH (a cases.json; gaps.json and rungs.json are read\n"
               "from the same folder when present, else the built-in ones). The file is checked\n"
               "completely first: on any error nothing changes.\n");
        return 0;
    }
    if (argc != 3 || strcmp(argv[1], "cases") != 0)
        return cli_usage_error("import", "expected: import cases PATH");
    struct cdb *db = cli_open_db_write(g, "import");
    if (!db)
        return 2;
    char err[1024];
    int rc = imp_index_import(db, argv[2], err, sizeof err);
    int count = 0;
    if (rc == 0)
        cdb_case_count(db, &count, err, sizeof err);
    cdb_close(db);
    if (rc != 0) {
        fprintf(stderr, "kladder import: %s\nThe database was not changed.\n", err);
        return 2;
    }
    printf("imported %d cases from %s\n", count, argv[2]);
    return 0;
}
