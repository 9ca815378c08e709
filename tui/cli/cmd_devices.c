/* kladder devices [--json]: every backend, whether it loads (and why not), and its devices. */
#include <cJSON.h>
#include <stdio.h>

#include "engine/api/faces.h"
#include "tui/cli/cli.h"
#include "tui/cli/opts.h"

static const char *s_or(const cJSON *o, const char *k, const char *dflt)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, k);
    return cJSON_IsString(v) && v->valuestring[0] ? v->valuestring : dflt;
}

static void num_or_na(const cJSON *o, const char *k, const char *unit, double div, char *out,
                      size_t n)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, k);
    if (cJSON_IsNumber(v))
        snprintf(out, n, div > 1 ? "%.1f%s" : "%.0f%s", v->valuedouble / div, unit);
    else
        snprintf(out, n, "n/a");
}

static void print_help(const struct cli_parser *p)
{
    cli_print_usage(stdout, p, NULL);
    printf("\nLists every backend the engine has, its devices, and why a backend is "
           "unavailable.\n\noptions:\n");
    cli_print_help(stdout, p);
}

int cmd_devices(int argc, char **argv, const struct cli_global *g)
{
    (void)g;
    bool json = false;
    const struct cli_opt opts[] = {
        CLI_OPT_FLAG_DOC("--json", &json, "print the backends and their devices as JSON"),
        CLI_OPT_HELP("--help", print_help),
        CLI_OPT_HELP("-h", print_help),
    };
    const struct cli_parser p = {.verb = "devices", .opts = opts, .nopts = CLI_COUNT(opts)};
    int rc = cli_parse(&p, argc, argv, NULL);
    if (rc != CLI_PARSED)
        return rc;
    cJSON *arr = eng_devices_json(NULL);
    if (json) {
        char *t = cJSON_Print(arr);
        printf("%s\n", t);
        cJSON_free(t);
        cJSON_Delete(arr);
        return 0;
    }
    for (const cJSON *b = arr->child; b; b = b->next) {
        const char *name = s_or(b, "backend", "?");
        if (!cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(b, "available"))) {
            printf("%-5s unavailable: %s\n", name, s_or(b, "reason", "unknown reason"));
            continue;
        }
        printf("%-5s available\n", name);
        const cJSON *devs = cJSON_GetObjectItemCaseSensitive(b, "devices");
        for (const cJSON *d = devs ? devs->child : NULL; d; d = d->next) {
            if (cJSON_GetObjectItemCaseSensitive(d, "error")) {
                printf("  [%d] error: %s\n", (int)cJSON_GetObjectItemCaseSensitive(d, "index")->valuedouble,
                       s_or(d, "error", "?"));
                continue;
            }
            char cu[32], mem[32], wave[16];
            num_or_na(d, "compute_units", "", 1, cu, sizeof cu);
            num_or_na(d, "mem_bytes", " GiB", 1024.0 * 1024 * 1024, mem, sizeof mem);
            num_or_na(d, "wave_size", "", 1, wave, sizeof wave);
            printf("  [%d] %s\n      target %s  wave %s  compute units %s  memory %s\n",
                   (int)cJSON_GetObjectItemCaseSensitive(d, "index")->valuedouble,
                   s_or(d, "name", "?"), s_or(d, "target_full", s_or(d, "target", "n/a")), wave, cu,
                   mem);
            printf("      driver %s  runtime %s  compiler %s\n", s_or(d, "driver_version", "n/a"),
                   s_or(d, "runtime_version", "n/a"), s_or(d, "compiler_version", "n/a"));
            const char *cp = s_or(d, "compute_partition", NULL), *mp = s_or(d, "memory_partition", NULL);
            if (cp || mp)
                printf("      partition %s / %s\n", cp ? cp : "n/a", mp ? mp : "n/a");
        }
    }
    cJSON_Delete(arr);
    return 0;
}
