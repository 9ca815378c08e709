/* kladder scan PATH... [-I DIR]... [-D X[=V]]... [--backend B] [--target T]
 *                      [--jobs N] [--timeout S] [--json]
 *
 * A folder of one's own sources, taken as they ship: every translation unit under the paths
 * (scan_files.h) compiled whole as a plain source for the backend, each under a time limit, and
 * every __global__ entry point it defines checked to be launchable (engine/compile/scan_unit.h).
 * A line per file, then the summary; --json writes the same as one document. Exit 0 when every
 * file went in, 1 when any was refused, 2 for a usage or setup error. */
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/text.h"
#include "common/xalloc.h"
#include "engine/api/faces.h"
#include "tui/cli/cli.h"
#include "tui/cli/opts.h"
#include "tui/cli/scan_files.h"
#include "tui/cli/scan_pool.h"
#include "tui/cli/scan_report.h"

static void print_help(const struct cli_parser *p)
{
    static const char *const forms[] = {"PATH... %o", NULL};
    cli_print_usage(stdout, p, forms);
    printf("\n"
           "Takes every translation unit under each PATH as it ships (a .cu or .hip file, or a\n"
           ".cpp, .cc or .cxx file with a __global__ function; headers are read where a unit\n"
           "includes them) and compiles it whole as a plain source, as `kladder run` compiles a\n"
           "suite's .cu or .hip file, for the backend (cpu by default; hip compiles offline with\n"
           "clang-22 where ROCm is missing, for gfx1250 by default; cuda with nvcc or NVRTC, for\n"
           "sm_90 by default), each under the time limit. Then every __global__ function it\n"
           "defines must be launchable: its symbol in the compiled object, and for a template,\n"
           "each instance the file instantiates (a template with none is listed as such).\n"
           "A line per file: ok, or refused with the cause (missing API NAME at FILE:LINE,\n"
           "missing header NAME, the first line of another compile error, time limit, no\n"
           "kernel, an entry not launchable); then the summary: files, compiled whole, every\n"
           "entry launchable, refusals by cause and the %d most frequent missing API names.\n"
           "Local includes are read inside the PATH given (for a FILE, its folder). Compiles\n"
           "go through the compile cache. Exit 0 when every file went in, 1 when any was\n"
           "refused, 2 for a usage or setup error.\n\n"
           "options:\n", SCAN_TOP_APIS);
    cli_print_help(stdout, p);
}

/* The compiler flags of -I and -D (a NULL-terminated malloc'd array), or NULL after a usage
 * message (*status set). -I folders become absolute: the compiler runs elsewhere. */
static char **build_flags(const struct cli_list *inc, const struct cli_list *def, int *status)
{
    char **flags = xcalloc(inc->n + def->n + 1, sizeof *flags);
    size_t k = 0;
    for (size_t i = 0; i < inc->n; i++) {
        struct stat st;
        char abs[PATH_MAX];
        if (stat(inc->v[i], &st) != 0 || !S_ISDIR(st.st_mode) || !realpath(inc->v[i], abs)) {
            char *shown = text_escape(inc->v[i], 200);
            *status = cli_usage_error("scan", "-I %s: no such folder", shown);
            free(shown);
            goto bad;
        }
        flags[k++] = xasprintf("-I%s", abs);
    }
    for (size_t i = 0; i < def->n; i++) {
        if (!cli_define_ok(def->v[i])) {
            char *shown = text_escape(def->v[i], 200);
            *status = cli_usage_error("scan", "-D %s: expected NAME or NAME=VALUE (NAME a C "
                                      "identifier)", shown);
            free(shown);
            goto bad;
        }
        flags[k++] = xasprintf("-D%s", def->v[i]);
    }
    return flags;
bad:
    for (size_t i = 0; i < k; i++)
        free(flags[i]);
    free(flags);
    return NULL;
}

/* The lines of the files judged so far, in file order (a file waits for those before it). */
struct in_order {
    const struct scan_files *files;
    const struct eng_scan_result *results;
    bool *done;
    size_t printed;
    bool quiet;
};

static void progress(size_t index, const struct eng_scan_result *r, void *arg)
{
    (void)r;
    struct in_order *o = arg;
    o->done[index] = true;
    while (o->printed < o->files->n && o->done[o->printed]) {
        if (!o->quiet)
            scan_report_line(stdout, &o->files->v[o->printed], &o->results[o->printed]);
        o->printed++;
    }
    if (!o->quiet)
        fflush(stdout);
}

static const char *default_target(const struct eng_backend *b)
{
    return b->caps.scan_target ? b->caps.scan_target : "";
}

static int scan(const struct eng_backend *b, const char *target, char **flags,
                const struct cli_list *paths, int jobs, int timeout_s, bool json)
{
    char why[2048];
    if (b->load(why, sizeof why) != 0) {
        if (!(b->compiler_for && b->compiler_for(target))) {
            char *clean = text_sanitize(why, false);
            fprintf(stderr, "kladder scan: the %s backend cannot compile here: %s\n", b->name,
                    clean);
            free(clean);
            return 2;
        }
        if (!json)
            printf("# the %s runtime did not load; compiling for %s offline\n", b->name, target);
    }
    struct scan_files files;
    char err[4096];
    if (scan_files_find(paths->v, paths->n, &files, err, sizeof err) != 0) {
        char *clean = text_sanitize(err, false);
        fprintf(stderr, "kladder scan: %s\n", clean);
        free(clean);
        return 2;
    }
    struct eng_scan_result *results = xcalloc(files.n, sizeof *results);
    struct in_order o = {.files = &files, .results = results,
                         .done = xcalloc(files.n, sizeof *o.done), .quiet = json};
    const struct scan_job job = {.b = b, .target = target, .flags = (const char *const *)flags,
                                 .jobs = jobs, .timeout_s = timeout_s};
    scan_pool_run(&job, &files, results, progress, &o);
    int status = 0;
    for (size_t i = 0; i < files.n; i++)
        status = results[i].cause != ENG_SCAN_OK ? 1 : status;
    if (json) {
        scan_report_json(stdout, b->name, target, (const char *const *)flags, &files, results);
    } else {
        printf("\n%s backend, target %s", b->name, target);
        for (size_t i = 0; flags[i]; i++) {
            char *clean = text_sanitize(flags[i], false);
            printf(" %s", clean);
            free(clean);
        }
        scan_report_summary(stdout, results, files.n);
    }
    for (size_t i = 0; i < files.n; i++)
        eng_scan_result_free(&results[i]);
    free(results);
    free(o.done);
    scan_files_free(&files);
    return status;
}

int cmd_scan(int argc, char **argv, const struct cli_global *g)
{
    (void)g;
    const char *backend = "cpu", *target = NULL;
    bool json = false;
    long online = sysconf(_SC_NPROCESSORS_ONLN);
    int jobs = online > 0 ? (online < 64 ? (int)online : 64) : 1, timeout_s = 120;
    struct cli_list paths, inc, def;
    const struct cli_opt opts[] = {
        CLI_OPT_HELP("--help", print_help),
        CLI_OPT_HELP("-h", print_help),
        CLI_OPT_LIST_DOC("-I", &inc, "DIR", "a folder the compiler searches for includes "
                                            "(repeatable)"),
        CLI_OPT_LIST_DOC("-D", &def, "NAME[=VALUE]", "a macro defined for every file "
                                                     "(repeatable)"),
        CLI_OPT_STRING_CHOICE_DOC("--backend", &backend, CLI_WORD_FN(cli_word_backend),
                                  "the compiler's backend (cpu)"),
        CLI_OPT_STRING_DOC("--target", &target, "TARGET", "cpu-wave32 (cpu), gfx1250 (hip), "
                                                          "sm_90 (cuda), or another"),
        CLI_OPT_INT_DOC("--jobs", &jobs, 1, 64, "N", "files compiled at once (the cores here)"),
        CLI_OPT_INT_DOC("--timeout", &timeout_s, 1, 86400, "S", "seconds each file may take "
                                                                "(120)"),
        CLI_OPT_FLAG_DOC("--json", &json, "write the scan as one JSON document"),
    };
    const struct cli_parser p = {.verb = "scan", .opts = opts, .nopts = CLI_COUNT(opts),
                                 .args = CLI_OPT_LIST(NULL, &paths)};
    int status = cli_parse(&p, argc, argv, NULL);
    if (status == CLI_PARSED) {
        const struct eng_backend *b = eng_backend_find(backend);
        char **flags = NULL;
        if (!b) /* the choices are the backend table's names */
            status = 2;
        else if (paths.n == 0)
            status = cli_usage_error("scan", "needs at least one PATH (a folder or a file)");
        else if ((flags = build_flags(&inc, &def, &status)) != NULL)
            status = scan(b, target ? target : default_target(b), flags, &paths, jobs,
                          timeout_s, json);
        for (size_t i = 0; flags && flags[i]; i++)
            free(flags[i]);
        free(flags);
    }
    free(paths.v);
    free(inc.v);
    free(def.v);
    return status;
}
