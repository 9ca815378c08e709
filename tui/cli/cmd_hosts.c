/* kladder hosts add NAME URL | hosts list [--json] | hosts rm NAME [--purge]
 * | hosts rename OLD NEW */
#include <cJSON.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "casedb/cdb.h"
#include "casedb/hosts.h"
#include "common/text.h"
#include "importers/remote.h"
#include "tui/cli/cli.h"
#include "tui/cli/opts.h"
#include "tui/columns.h"

static void print_help(const struct cli_parser *p)
{
    static const char *const forms[] = {"add NAME URL", "list [--json]", "rm NAME [--purge]", "rename OLD NEW", NULL};
    cli_print_usage(stdout, p, forms);
    printf("\n"
           "The hosts `kladder pull` reads results from. NAME: 1-64 characters of a-z 0-9 . _ -\n"
           "(not 'local'). URL: https://, http://, sftp://, scp:// (SSH keys; the host key must\n"
           "be in ~/.ssh/known_hosts) or file:// (or a plain path, stored as its file://\n"
           "URL), pointing at a document written by\n"
           "`kladder export --out`. A pulled run belongs to the host it was pulled under, so a\n"
           "URL is pulled under one name only: adding it again under another name is refused\n"
           "(rename the host instead; its runs follow). rm refuses a host whose pulled runs are\n"
           "stored, unless --purge, which removes them too.\n\n"
           "options:\n");
    cli_print_help(stdout, p);
}

static int list(struct cdb *db, bool json)
{
    struct cdb_host_list l;
    char err[1024];
    if (cdb_hosts_list(db, &l, err, sizeof err) != 0) {
        fprintf(stderr, "kladder hosts: %s\n", err);
        return 2;
    }
    if (json) {
        cJSON *arr = cJSON_CreateArray();
        for (size_t i = 0; i < l.n; i++) {
            const struct cdb_host *h = &l.items[i];
            cJSON *o = cJSON_CreateObject();
            cJSON_AddStringToObject(o, "name", h->name);
            cJSON_AddStringToObject(o, "url", h->url);
            cJSON_AddStringToObject(o, "added", h->added);
            if (h->last_pull)
                cJSON_AddStringToObject(o, "last_pull", h->last_pull);
            else
                cJSON_AddNullToObject(o, "last_pull");
            if (h->cursor)
                cJSON_AddStringToObject(o, "cursor", h->cursor);
            else
                cJSON_AddNullToObject(o, "cursor");
            cJSON_AddNumberToObject(o, "runs", h->runs);
            cJSON_AddItemToArray(arr, o);
        }
        char *out = cJSON_Print(arr);
        puts(out);
        cJSON_free(out);
        cJSON_Delete(arr);
    } else {
        tui_col_print("NAME", 16, false), tui_col_print("RUNS", 6, false),
            tui_col_print("LAST PULL", 20, false);
        puts("URL");
        for (size_t i = 0; i < l.n; i++) {
            const struct cdb_host *h = &l.items[i];
            char runs[16];
            snprintf(runs, sizeof runs, "%d", h->runs);
            tui_col_print(h->name, 16, false), tui_col_print(runs, 6, false),
                tui_col_print(h->last_pull ? h->last_pull : "never", 20, false);
            char *u = text_sanitize(h->url, false);
            puts(u);
            free(u);
        }
        printf("%zu host%s\n", l.n, l.n == 1 ? "" : "s");
    }
    cdb_host_list_free(&l);
    return 0;
}

/* Checks the names the subcommand sub was given (pos[0..npos)) and does what it says.
 * Returns the exit status. */
static int hosts_do(const struct cli_global *g, const char *sub, const char *const *pos,
                    size_t npos, bool json, bool purge)
{
    char err[1024];
    if (strcmp(sub, "add") == 0) {
        if (npos != 2)
            return cli_usage_error("hosts", "add expects NAME URL");
        if (!cdb_host_name_valid(pos[0]))
            return cli_usage_error("hosts",
                                   "a host name is 1-64 characters of a-z 0-9 . _ - (not "
                                   "starting with . or -, and not 'local')");
        /* a URL, or the path of an export document (stored as its file:// URL) */
        char *u = imp_url_from_user(pos[1], err, sizeof err);
        bool bad = !u || imp_url_check(u, err, sizeof err) != 0;
        free(u);
        if (bad)
            return cli_usage_error("hosts", "%s", err);
    } else if (strcmp(sub, "rm") == 0) {
        if (npos != 1)
            return cli_usage_error("hosts", "rm expects NAME");
    } else if (strcmp(sub, "list") == 0) {
        if (npos != 0)
            return cli_unknown("hosts", pos[0]);
    } else if (strcmp(sub, "rename") == 0) {
        if (npos != 2)
            return cli_usage_error("hosts", "rename expects OLD NEW");
        if (!cdb_host_name_valid(pos[1]))
            return cli_usage_error("hosts",
                                   "a host name is 1-64 characters of a-z 0-9 . _ - (not "
                                   "starting with . or -, and not 'local')");
    } else {
        char *t = text_fit(sub, 40, true, NULL);
        int r = cli_usage_error("hosts", "expects add, list, rename or rm, not '%s'", t);
        free(t);
        return r;
    }
    struct cdb *db = strcmp(sub, "list") == 0 ? cli_open_db(g) : cli_open_db_write(g, "hosts");
    if (!db)
        return 2;
    int rc = 0;
    if (strcmp(sub, "list") == 0) {
        rc = list(db, json);
    } else if (strcmp(sub, "add") == 0) {
        /* a plain path of an export document is stored as its file:// URL */
        char *url = imp_url_from_user(pos[1], err, sizeof err);
        if (!url || cdb_host_add(db, pos[0], url, err, sizeof err) != 0) {
            fprintf(stderr, "kladder hosts: %s\n", err);
            rc = 2;
        } else if (strcmp(url, pos[1]) != 0) {
            char *shown = text_sanitize(url, false);
            printf("added host %s (%s)\n", pos[0], shown);
            free(shown);
        } else {
            printf("added host %s\n", pos[0]);
        }
        free(url);
    } else if (strcmp(sub, "rename") == 0) {
        int r = cdb_host_rename(db, pos[0], pos[1], err, sizeof err);
        if (r <= 0) {
            char *n = text_fit(pos[0], 64, true, NULL);
            if (r == 0)
                fprintf(stderr, "kladder hosts: no host named '%s'\n", n);
            else
                fprintf(stderr, "kladder hosts: %s\n", err);
            free(n);
            rc = 2;
        } else {
            printf("renamed host %s to %s\n", pos[0], pos[1]);
        }
    } else {
        int purged = 0;
        int r = cdb_host_remove(db, pos[0], purge, &purged, err, sizeof err);
        if (r < 0) {
            fprintf(stderr, "kladder hosts: %s\n", err);
            rc = 2;
        } else if (r == 0) {
            char *n = text_fit(pos[0], 64, true, NULL);
            fprintf(stderr, "kladder hosts: no host named '%s'\n", n);
            free(n);
            rc = 2;
        } else {
            printf("removed host %s", pos[0]);
            if (purged)
                printf(" and its %d pulled run%s", purged, purged == 1 ? "" : "s");
            putchar('\n');
        }
    }
    cdb_close(db);
    return rc;
}

int cmd_hosts(int argc, char **argv, const struct cli_global *g)
{
    if (argc < 2)
        return cli_usage_error("hosts", "expects add, list, rename or rm");
    const char *sub = argv[1];
    bool json = false, purge = false;
    struct cli_list pos;
    /* one table for every subcommand, so that help and --options say all of it */
    const struct cli_opt opts[] = {
        CLI_OPT_HELP("--help", print_help),
        CLI_OPT_HELP("-h", print_help),
        CLI_OPT_FLAG_DOC("--json", &json, "list: print the hosts as JSON"),
        CLI_OPT_FLAG_DOC("--purge", &purge, "rm: also remove the host's pulled runs"),
    };
    const struct cli_parser p = {.verb = "hosts", .opts = opts, .nopts = CLI_COUNT(opts),
                                 .args = {.kind = CLI_LIST, .dest = &pos, .hi = 2}};
    int rc = cli_asks_table(argc, argv) ? cli_parse(&p, argc, argv, NULL)          /* the table answers them */
                   : cli_parse(&p, argc - 1, argv + 1, NULL); /* after the subcommand */
    /* --json belongs to list and --purge to rm: elsewhere they are unknown options */
    if (rc == CLI_PARSED && json && strcmp(sub, "list") != 0)
        rc = cli_unknown("hosts", "--json");
    else if (rc == CLI_PARSED && purge && strcmp(sub, "rm") != 0)
        rc = cli_unknown("hosts", "--purge");
    else if (rc == CLI_PARSED)
        rc = hosts_do(g, sub, pos.v, pos.n, json, purge);
    free(pos.v);
    return rc;
}
