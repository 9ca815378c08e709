/* kladder cases [--gap N] [--repo NAME] [--mentions NAME] [--rung N] [--symptom TAG] [--search TEXT] [--lang L] [--json] */
#include <cJSON.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "casedb/cdb.h"
#include "common/text.h"
#include "importers/case_index.h"
#include "tui/cli/cli.h"
#include "tui/columns.h"

static void print_help(void)
{
    printf("usage: kladder cases [--gap N] [--repo NAME] [--mentions NAME] [--rung N]\n"
           "                     [--symptom TAG] [--search TEXT] [--lang en|zh] [--json]\n\n"
           "Lists the cases of the index. --gap matches the primary gap (1-7), --rung the rung that\n"
           "catches the case (1-8), --repo the case's own repository (aiter, flydsl, sglang,\n"
           "atom), --mentions a repository any of its references is in (a case of aiter whose fix\n"
           "went into FlyDSL mentions flydsl), --symptom one tag; --search finds every word given,\n"
           "in English or Chinese.\n"
           "--json prints an array of case objects with the fields of data/cases.json.\n");
}

int cmd_cases(int argc, char **argv, const struct cli_global *g)
{
    static const char *const value_opts[] = {"--gap",     "--rung",   "--repo", "--mentions",
                                             "--symptom", "--search", "--lang", NULL};
    struct cdb_case_filter f = {0};
    bool json = false, zh = false;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        const char *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
            print_help();
            return 0;
        } else if (strcmp(a, "--json") == 0) {
            json = true;
        } else if (!v && cli_is_one_of(a, value_opts)) {
            return cli_usage_error("cases", "%s expects a value", a);
        } else if (strcmp(a, "--gap") == 0) {
            if (!cli_parse_int("cases", a, v, 1, CDB_GAPS, &f.gap))
                return 2;
            i++;
        } else if (strcmp(a, "--rung") == 0) {
            if (!cli_parse_int("cases", a, v, 1, CDB_RUNGS, &f.rung))
                return 2;
            i++;
        } else if (strcmp(a, "--repo") == 0) {
            f.repo = v, i++;
        } else if (strcmp(a, "--mentions") == 0) {
            f.mentions = v, i++;
        } else if (strcmp(a, "--symptom") == 0) {
            if (!cdb_symptom_known(v)) {
                fprintf(stderr, "kladder cases: --symptom expects one of:");
                for (const char *const *t = cdb_symptom_tags; *t; t++)
                    fprintf(stderr, " %s", *t);
                fprintf(stderr, "\n");
                return 2;
            }
            f.symptom = v, i++;
        } else if (strcmp(a, "--search") == 0) {
            f.search = v, i++;
        } else if (strcmp(a, "--lang") == 0) {
            if (strcmp(v, "en") != 0 && strcmp(v, "zh") != 0)
                return cli_usage_error("cases", "--lang expects en or zh, not '%s'", v);
            zh = strcmp(v, "zh") == 0, i++;
        } else {
            return cli_unknown("cases", a);
        }
    }
    struct cdb *db = cli_open_db(g);
    if (!db)
        return 2;
    struct cdb_case_list l;
    char err[1024];
    if (cdb_cases_query(db, &f, &l, err, sizeof err) != 0) {
        fprintf(stderr, "kladder cases: %s\n", err);
        cdb_close(db);
        return 2;
    }
    if (json) {
        cJSON *arr = cJSON_CreateArray();
        for (size_t i = 0; i < l.n; i++)
            cJSON_AddItemToArray(arr, imp_case_to_json(&l.items[i]));
        char *out = cJSON_Print(arr);
        puts(out);
        cJSON_free(out);
        cJSON_Delete(arr);
    } else {
        /* columns of 14, 4, 5 and 30 cells, the last of each a space */
        tui_col_print("ID", 13, false), tui_col_print("GAP", 3, false),
            tui_col_print("RUNG", 4, false), tui_col_print(zh ? "症状" : "SYMPTOMS", 29, false);
        puts(zh ? "标题" : "TITLE");
        for (size_t i = 0; i < l.n; i++) {
            const struct cdb_case *c = &l.items[i];
            char gap[8], rung[8], sym[256] = "";
            snprintf(gap, sizeof gap, "%d", c->gap);
            snprintf(rung, sizeof rung, "%d", c->rung);
            for (size_t s = 0; s < c->n_symptoms; s++) {
                if (s)
                    strncat(sym, ",", sizeof sym - strlen(sym) - 1);
                strncat(sym, c->symptoms[s], sizeof sym - strlen(sym) - 1);
            }
            tui_col_print(c->id, 13, false), tui_col_print(gap, 3, false),
                tui_col_print(rung, 4, false), tui_col_print(sym, 29, false);
            char *t = text_sanitize(zh ? c->title_zh : c->title_en, false);
            puts(t);
            free(t);
        }
        printf("%zu case%s\n", l.n, l.n == 1 ? "" : "s");
    }
    cdb_case_list_free(&l);
    cdb_close(db);
    return 0;
}
