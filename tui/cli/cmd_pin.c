/* kladder pin write FILE [--backend B] [--device N] [--lib PATH]...
 * kladder pin check FILE
 *
 * Records what this machine's software is (engine/machine/pin.h) and later says, field by field, how
 * it has drifted. check re-reads the libraries the pin names, at the same paths. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/fileio.h"
#include "common/xalloc.h"
#include "engine/api/faces.h"
#include "tui/cli/cli.h"
#include "tui/cli/opts.h"

static void print_help(const struct cli_parser *p)
{
    static const char *const forms[] = {"write FILE %o", "check FILE", NULL};
    cli_print_usage(stdout, p, forms);
    printf("\n"
           "write records the backend, device, target, driver, runtime, compiler identity,\n"
           "partition modes and kladder version of this machine, and the ELF build id of each\n"
           "--lib (a shared library the results depend on). check compares this machine with\n"
           "the pin and prints one line per drift. Exit 0 when nothing drifted, 1 when\n"
           "something did, 2 on a usage error, an unreadable pin or a --lib without build id.\n\n"
           "options:\n");
    cli_print_help(stdout, p);
}

static int pin_write(const char *file, const char *backend, int device, const char **libs,
                     size_t nlibs)
{
    struct eng_pin p;
    char err[1024];
    if (eng_pin_collect(backend, device, libs, nlibs, &p, err, sizeof err) != 0) {
        fprintf(stderr, "kladder pin: %s\n", err);
        return 2;
    }
    int status = 2;
    for (size_t i = 0; i < p.nlibs; i++)
        if (!p.libs[i].build_id) {
            /* a pin without the id would never see the library change */
            fprintf(stderr, "kladder pin: --lib %s\n", p.libs[i].why);
            goto done;
        }
    char *text = eng_pin_print(&p);
    if (text && file_write_atomic(file, text, strlen(text), err, sizeof err) == 0) {
        printf("pinned %s (%s) with %zu librar%s in %s\n", p.backend,
               p.device ? p.device : "unknown device", p.nlibs, p.nlibs == 1 ? "y" : "ies", file);
        status = 0;
    } else {
        fprintf(stderr, "kladder pin: %s\n", text ? err : "out of memory");
    }
    free(text);
done:
    eng_pin_free(&p);
    return status;
}

static int pin_check(const char *file)
{
    struct eng_pin pinned, here;
    char err[1024];
    if (eng_pin_read(file, &pinned, err, sizeof err) != 0) {
        fprintf(stderr, "kladder pin: %s\n", err);
        return 2;
    }
    const char **libs = xcalloc(pinned.nlibs + 1, sizeof *libs);
    for (size_t i = 0; i < pinned.nlibs; i++)
        libs[i] = pinned.libs[i].path;
    int status;
    if (eng_pin_collect(pinned.backend, pinned.device_index, libs, pinned.nlibs, &here, err,
                        sizeof err) != 0) {
        /* the pinned backend or device is gone: that is the largest drift there is */
        printf("drift backend: %s\npin check: FAIL (1 drift)\n", err);
        status = 1;
    } else {
        size_t n = eng_pin_diff(&pinned, &here, stdout);
        if (n)
            printf("pin check: FAIL (%zu drift%s)\n", n, n == 1 ? "" : "s");
        else
            printf("pin check: ok (%s, %zu librar%s)\n", here.backend, here.nlibs,
                   here.nlibs == 1 ? "y" : "ies");
        status = n ? 1 : 0;
        eng_pin_free(&here);
    }
    free(libs);
    eng_pin_free(&pinned);
    return status;
}

int cmd_pin(int argc, char **argv, const struct cli_global *g)
{
    (void)g;
    const char *backend = NULL;
    int device = 0;
    struct cli_list libs = {0};
    const struct cli_opt opts[] = {
        CLI_OPT_HELP("--help", print_help),
        CLI_OPT_HELP("-h", print_help),
        CLI_OPT_STRING_CHOICE_DOC("--backend", &backend, CLI_WORD_FN(cli_word_backend),
                           "the backend to record (default: the first available)"),
        CLI_OPT_INT_DOC("--device", &device, 0, 1024, "N", "the device index (default 0)"),
        CLI_OPT_LIST_DOC("--lib", &libs, "PATH",
                         "a shared library the results depend on: its ELF build id is recorded "
                         "(repeatable)"),
    };
    const struct cli_parser p = {.verb = "pin", .opts = opts, .nopts = CLI_COUNT(opts)};
    /* --help, and --options for the completions, before a subcommand: the table answers them */
    if (cli_asks_table(argc, argv)) {
        int rc = cli_parse(&p, 2, argv, NULL);
        free(libs.v);
        return rc;
    }
    if (argc < 3 || (strcmp(argv[1], "write") != 0 && strcmp(argv[1], "check") != 0))
        return cli_usage_error("pin", "expected 'write FILE' or 'check FILE'");
    bool write = strcmp(argv[1], "write") == 0;
    const char *file = argv[2];
    if (!write && argc > 3)
        return cli_usage_error("pin", "check takes only FILE, not '%s'", argv[3]);
    int status = cli_parse(&p, argc - 2, argv + 2, NULL); /* after write FILE */
    if (status == CLI_PARSED)
        status = write ? pin_write(file, backend, device, libs.v, libs.n) : pin_check(file);
    free(libs.v);
    return status;
}
