/* kladder check-config FILE.csv... --schema SCHEMA.json [--merged MERGED.csv] [--out FILE]
 *
 * Checks tuned-config tables the way a kernel library's dispatch uses them (aiter-6360): every
 * file's columns and cell types against the schema, no empty cells, no duplicate keys. With
 * --merged, a merged file produced elsewhere is checked the same way and every row of every
 * FILE must be found in it by the typed-key lookup. With several FILEs and no --merged, kladder
 * merges them itself, writes the result, reads it back and checks that the types survived the
 * round trip and that the lookup finds every source row (--out keeps the merged file). */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/fileio.h"
#include "common/text.h"
#include "common/xalloc.h"
#include "importers/config_check.h"
#include "tui/cli/cli.h"
#include "tui/cli/opts.h"

static void print_help(const struct cli_parser *p)
{
    static const char *const forms[] = {"FILE.csv... {--schema} %o", NULL};
    cli_print_usage(stdout, p, forms);
    printf("\n"
           "Checks tuned-config CSV files against a schema ({\"format\": \"kladder-config-schema\",\n"
           "\"version\": 1, \"columns\": {\"M\": \"int\", ...}, \"key\": [\"M\", ...]}): column types\n"
           "(an int column holds \"64\", never \"64.0\"), empty cells, duplicate keys. --merged\n"
           "checks a merged file and that every row of each FILE is found in it by its typed\n"
           "key; without it, several FILEs are merged here, written, read back and checked the\n"
           "same way (--out keeps the merged file). Exit 0 when clean, 1 when a problem is\n"
           "found, 2 on a usage or schema error.\n\n"
           "options:\n");
    cli_print_help(stdout, p);
}

static void print_line(void *arg, const char *line)
{
    (void)arg;
    printf("%s\n", line);
}

static int load_table(const char *path, struct csv_table *t, struct cfg_report *r)
{
    char err[512];
    size_t len;
    char *text = file_read_all(path, &len, err, sizeof err);
    int rc = text ? csv_read(text, len, path, t, err, sizeof err) : -1;
    free(text);
    if (rc != 0) {
        char *clean = text_sanitize(err, false);
        printf("%s\n", clean);
        free(clean);
        r->problems++;
    }
    return rc;
}

/* Checks files against the schema at schema_path, and against the merged file (given, or
 * made here of several files). Returns the exit status: 0 clean, 1 a problem, 2 a bad schema. */
static int check(const char *schema_path, const char *const *files, size_t nfiles,
                 const char *merged_path, const char *out_path)
{
    char err[512];
    size_t slen;
    char *stext = file_read_all(schema_path, &slen, err, sizeof err);
    struct cfg_schema s;
    if (!stext || cfg_schema_parse(stext, slen, schema_path, &s, err, sizeof err) != 0) {
        char *clean = text_sanitize(err, false);
        fprintf(stderr, "kladder check-config: %s\n", clean);
        free(clean);
        free(stext);
        return 2;
    }
    free(stext);
    struct cfg_report r = {print_line, NULL, 0, 0};
    struct csv_table *tabs = xcalloc(nfiles + 1, sizeof *tabs);
    bool all_read = true;
    for (size_t f = 0; f < nfiles; f++) {
        if (load_table(files[f], &tabs[f], &r) != 0) {
            all_read = false;
            continue;
        }
        cfg_check_table(&s, &tabs[f], files[f], &r);
    }
    if (merged_path) {
        struct csv_table m;
        if (load_table(merged_path, &m, &r) == 0) {
            cfg_check_table(&s, &m, merged_path, &r);
            for (size_t f = 0; f < nfiles; f++)
                if (tabs[f].header)
                    cfg_check_lookup(&s, &tabs[f], files[f], &m, merged_path, &r);
            csv_free(&m);
        }
    } else if (nfiles > 1 && all_read) {
        const struct csv_table **tp = xcalloc(nfiles, sizeof *tp);
        for (size_t f = 0; f < nfiles; f++)
            tp[f] = &tabs[f];
        char *text = cfg_merge_write(&s, tp, files, nfiles, &r);
        free(tp);
        const char *name = out_path ? out_path : "the merged table";
        struct csv_table m;
        if (csv_read(text, strlen(text), name, &m, err, sizeof err) != 0) {
            printf("%s (kladder's own merge: a bug)\n", err);
            r.problems++;
        } else {
            cfg_check_table(&s, &m, name, &r);
            for (size_t f = 0; f < nfiles; f++)
                cfg_check_lookup(&s, &tabs[f], files[f], &m, name, &r);
            csv_free(&m);
        }
        if (out_path && file_write_atomic(out_path, text, strlen(text), err, sizeof err) != 0) {
            fprintf(stderr, "kladder check-config: %s\n", err);
            r.problems++;
        }
        free(text);
    }
    size_t rows = 0;
    for (size_t f = 0; f < nfiles; f++)
        rows += tabs[f].nrows;
    if (r.problems)
        printf("%zu problem%s in %zu file%s\n", r.problems, r.problems == 1 ? "" : "s",
               nfiles + (merged_path ? 1 : 0), nfiles + (merged_path ? 1 : 0) == 1 ? "" : "s");
    else
        printf("ok: %zu file%s, %zu rows%s\n", nfiles, nfiles == 1 ? "" : "s", rows,
               merged_path ? ", every row found in the merged file"
               : nfiles > 1 ? ", merged and read back, every row found" : "");
    int status = r.problems ? 1 : 0;
    for (size_t f = 0; f < nfiles; f++)
        csv_free(&tabs[f]);
    free(tabs);
    cfg_schema_free(&s);
    return status;
}

int cmd_check_config(int argc, char **argv, const struct cli_global *g)
{
    (void)g;
    const char *schema_path = NULL, *merged_path = NULL, *out_path = NULL;
    struct cli_list files;
    const struct cli_opt opts[] = {
        CLI_OPT_HELP("--help", print_help),
        CLI_OPT_HELP("-h", print_help),
        CLI_OPT_STRING_DOC("--schema", &schema_path, "SCHEMA.json",
                           "the columns' types and the key (required)"),
        CLI_OPT_STRING_DOC("--merged", &merged_path, "MERGED.csv",
                           "check a merged file, and that every row of each FILE is in it"),
        CLI_OPT_STRING_DOC("--out", &out_path, "FILE",
                           "keep the merge of several FILEs (without --merged)"),
    };
    const struct cli_parser p = {.verb = "check-config", .opts = opts, .nopts = CLI_COUNT(opts),
                                 .args = CLI_OPT_LIST(NULL, &files)};
    int status = cli_parse(&p, argc, argv, NULL);
    if (status == CLI_PARSED) {
        if (!schema_path || files.n == 0)
            status = cli_usage_error("check-config",
                                     "needs --schema SCHEMA.json and at least one FILE");
        else if (out_path && (merged_path || files.n < 2))
            status = cli_usage_error("check-config", "--out keeps the merge of several FILEs "
                                                     "(not with --merged)");
        else
            status = check(schema_path, files.v, files.n, merged_path, out_path);
    }
    free(files.v);
    return status;
}
