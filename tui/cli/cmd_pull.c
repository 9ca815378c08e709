/* kladder pull [NAME|URL|PATH ...] [--connect-timeout S] [--timeout S] [--stall S] [--max-bytes N]
 *              [--cacert FILE] [--known-hosts FILE] [--full] */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "casedb/cdb.h"
#include "common/xalloc.h"
#include "importers/pull.h"
#include "importers/remote.h"
#include "tui/cli/cli.h"
#include "tui/cli/opts.h"
#include "tui/cli/pull_report.h"

/* the defaults of importers/remote.h, written into the help's lines at compile time */
#define STR_(x) #x
#define STR(x) STR_(x)

static void print_help(const struct cli_parser *p)
{
    static const char *const forms[] = {"[NAME|URL|PATH ...] %o", NULL};
    cli_print_usage(stdout, p, forms);
    printf("\n"
           "Fetches the results documents of hosts (default: every host of `kladder hosts list`)\n"
           "concurrently, validates each whole and merges each host in one transaction. Runs are\n"
           "identified by UUID: a run already stored is skipped, and one stored with different\n"
           "content is an error for that host (nothing of it is written). Only runs finished at\n"
           "or after the host's last pull are kept (--full: all of them). A URL not in the hosts\n"
           "table, or the path of a document (one with a '/': ./export.json), is added under the\n"
           "name of the host that exported it.\n\n"
           "options:\n");
    cli_print_help(stdout, p);
    printf("\n"
           "One line per host: \"NAME: N new runs, M checks (K already present)\" on standard\n"
           "output, or \"NAME: error: ...\" on standard error. Exit status 0 when every host\n"
           "succeeded, 1 when any failed, 2 for a usage error (a URL of another scheme, a name\n"
           "that is no host, too).\n");
}

static bool parse_bytes(const char *s, long long *out)
{
    char *end;
    errno = 0;
    long long v = strtoll(s, &end, 10);
    if (errno || end == s || v <= 0)
        return false;
    long long mul = 1;
    if (*end == 'K' || *end == 'k')
        mul = 1LL << 10, end++;
    else if (*end == 'M' || *end == 'm')
        mul = 1LL << 20, end++;
    else if (*end == 'G' || *end == 'g')
        mul = 1LL << 30, end++;
    if (*end || v > (1LL << 40) / mul)
        return false;
    *out = v * mul;
    return true;
}

/* Checks the URLs among specs[0..n), pulls every one and prints a line per host. Returns the
 * exit status: 0 every host succeeded, 1 one failed, 2 a usage or setup error (a name that is
 * no host of the table and no URL among them). */
static int pull(const struct cli_global *g, const char *const *specs, size_t n,
                const struct imp_pull_opts *o, bool timing)
{
    /* A path (a '/' in it, which no host name has) is its document's file:// URL, as
     * `hosts add` takes it. A URL kladder cannot fetch, or a path that names no file, is a
     * usage error, found before anything is opened. */
    const char **given = xcalloc(n + 1, sizeof *given);
    char **made = xcalloc(n + 1, sizeof *made);
    int rc = 0;
    for (size_t k = 0; k < n && rc == 0; k++) {
        char uerr[512];
        given[k] = specs[k];
        if (!strstr(specs[k], "://") && strchr(specs[k], '/')) {
            made[k] = imp_url_from_user(specs[k], uerr, sizeof uerr);
            if (!made[k])
                rc = cli_usage_error("pull", "%s", uerr);
            given[k] = made[k];
        }
        if (rc == 0 && strstr(given[k], "://") && imp_url_check(given[k], uerr, sizeof uerr) != 0)
            rc = cli_usage_error("pull", "%s", uerr);
    }
    struct cdb *db = rc == 0 ? cli_open_db_write(g, "pull") : NULL;
    if (!db) {
        for (size_t k = 0; k < n; k++)
            free(made[k]);
        free(made);
        free(given);
        return rc ? rc : 2;
    }
    struct imp_pull_result *res;
    size_t nres;
    char err[1024];
    int failed = imp_pull(db, given, n, o, &res, &nres, err, sizeof err);
    cdb_close(db);
    for (size_t k = 0; k < n; k++)
        free(made[k]);
    free(made);
    free(given);
    if (failed < 0) {
        fprintf(stderr, "kladder pull: %s\n", err);
        return 2;
    }
    for (size_t i = 0; i < nres; i++) {
        const struct imp_pull_result *r = &res[i];
        pull_report_line(r);
        if (timing)
            fprintf(stderr, "%s: fetch %.3f s, parse %.3f s, merge %.3f s\n", r->label, r->fetch_s,
                    r->parse_s, r->merge_s);
    }
    fflush(stdout);
    /* a name that is no host is a mistake in the command, as with every verb: 2, not a
     * failed transfer */
    bool unknown = false;
    for (size_t i = 0; i < nres; i++)
        unknown |= res[i].unknown;
    free(res);
    return unknown ? 2 : failed ? 1 : 0;
}

static int take_max_bytes(const struct cli_opt *opt, const char *v, void *ctx)
{
    (void)ctx;
    if (!parse_bytes(v, opt->dest))
        return cli_usage_error("pull", "--max-bytes expects a size like 1000000, 64M or 1G");
    return CLI_PARSED;
}

int cmd_pull(int argc, char **argv, const struct cli_global *g)
{
    struct imp_pull_opts o;
    imp_pull_opts_init(&o);
    struct cli_list specs;
    bool timing = false;
    const struct cli_opt opts[] = {
        CLI_OPT_HELP("--help", print_help),
        CLI_OPT_HELP("-h", print_help),
        CLI_OPT_LONG_DOC("--connect-timeout", &o.fetch.connect_timeout_s, 1, 86400, "S",
                         "connection limit (default " STR(IMP_FETCH_DEFAULT_CONNECT_S) " s)"),
        CLI_OPT_LONG_DOC("--timeout", &o.fetch.timeout_s, 1, 86400, "S",
                         "limit for a whole transfer (default " STR(IMP_FETCH_DEFAULT_TIMEOUT_S)
                         " s)"),
        CLI_OPT_LONG_DOC("--stall", &o.fetch.stall_s, 1, 86400, "S",
                         "give up when less than 1 byte/s arrives for S s (default "
                         STR(IMP_FETCH_DEFAULT_STALL_S) ")"),
        CLI_OPT_CALL_DOC("--max-bytes", &o.fetch.max_bytes, take_max_bytes, "N",
                         "largest document (default 256M; K, M, G suffixes)"),
        CLI_OPT_STRING_DOC("--cacert", &o.fetch.cacert, "FILE",
                           "also trust this CA certificate (PEM), for private servers"),
        CLI_OPT_STRING_DOC("--known-hosts", &o.fetch.known_hosts, "FILE",
                           "SSH host keys (default ~/.ssh/known_hosts)"),
        CLI_OPT_STRING_DOC("--identity", &o.fetch.identity, "FILE",
                           "SSH private key for sftp:// and scp:// (default: the first of "
                           "~/.ssh/id_ed25519, id_ecdsa, id_rsa; an agent is tried too)"),
        CLI_OPT_FLAG_DOC("--full", &o.full,
                         "ignore the hosts' cursors and look at every run again"),
        CLI_OPT_FLAG_DOC("--timing", &timing,
                         "print the fetch, parse and merge time of each host on stderr"),
    };
    const struct cli_parser p = {.verb = "pull", .opts = opts, .nopts = CLI_COUNT(opts),
                                 .args = CLI_OPT_LIST(NULL, &specs)};
    int rc = cli_parse(&p, argc, argv, NULL);
    if (rc == CLI_PARSED)
        rc = pull(g, specs.v, specs.n, &o, timing);
    free(specs.v);
    return rc;
}
