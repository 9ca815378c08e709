/* kladder cases [--gap N] [--repo NAME] [--mentions NAME] [--rung N] [--symptom TAG] [--search TEXT] [--lang L] [--json] */
#include <cJSON.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "casedb/cdb.h"
#include "common/text.h"
#include "importers/case_index.h"
#include "tui/cli/cli.h"
#include "tui/cli/opts.h"
#include "tui/columns.h"

static void print_help(const struct cli_parser *p)
{
    cli_print_usage(stdout, p, NULL);
    printf("\n"
           "Lists the cases of the index. --gap matches the primary gap (1-7), --rung the rung that\n"
           "catches the case (1-8 in the built-in index), --repo the case's own repository\n"
           "(aiter, flydsl, sglang, atom), --mentions a repository any of its references is in (a\n"
           "case of aiter whose fix went into FlyDSL mentions flydsl), --symptom one tag; --search\n"
           "finds every word given, in English or Chinese.\n\n"
           "options:\n");
    cli_print_help(stdout, p);
}

/* --symptom TAG: one of the known tags, else the list of them. */
static int take_symptom(const struct cli_opt *opt, const char *v, void *ctx)
{
    (void)ctx;
    if (!cdb_symptom_known(v)) {
        fprintf(stderr, "kladder cases: --symptom expects one of:");
        for (const char *const *t = cdb_symptom_tags; *t; t++)
            fprintf(stderr, " %s", *t);
        fprintf(stderr, "\n");
        return 2;
    }
    *(const char **)opt->dest = v;
    return CLI_PARSED;
}

static int take_lang(const struct cli_opt *opt, const char *v, void *ctx)
{
    (void)ctx; /* en or zh: the parser took only the choices */
    *(bool *)opt->dest = strcmp(v, "zh") == 0;
    return CLI_PARSED;
}

int cmd_cases(int argc, char **argv, const struct cli_global *g)
{
    struct cdb_case_filter f = {0};
    bool json = false, zh = false;
    const struct cli_opt opts[] = {
        CLI_OPT_HELP("--help", print_help),
        CLI_OPT_HELP("-h", print_help),
        CLI_OPT_FLAG_DOC("--json", &json,
                         "print an array of case objects with the fields of data/cases.json"),
        CLI_OPT_INT_DOC("--gap", &f.gap, 1, CDB_GAPS, "N", "the primary gap (1-7)"),
        CLI_OPT_INT_DOC("--rung", &f.rung, 1, CDB_RUNG_MAX, "N",
                        "the rung that catches the case (a rung of the index)"),
        CLI_OPT_STRING_DOC("--repo", &f.repo, "NAME",
                           "the case's own repository (aiter, flydsl, sglang, atom)"),
        CLI_OPT_STRING_DOC("--mentions", &f.mentions, "NAME",
                           "a repository any of its references is in"),
        CLI_OPT_CALL_DOC("--symptom", &f.symptom, take_symptom, "TAG", "one symptom tag"),
        CLI_OPT_STRING_DOC("--search", &f.search, "TEXT",
                           "every word given, in English or Chinese"),
        CLI_OPT_CALL_CHOICE_DOC("--lang", &zh, take_lang, CLI_WORD_FN(cli_word_lang),
                         "the language of the table (default en)"),
    };
    const struct cli_parser p = {.verb = "cases", .opts = opts, .nopts = CLI_COUNT(opts)};
    int rc = cli_parse(&p, argc, argv, NULL);
    if (rc != CLI_PARSED)
        return rc;
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
        /* columns of 14, 5, 5 and 30 cells, the last of each a space */
        /* every heading in the language asked for; the TUI's words for gap and rung */
        tui_col_print(zh ? "编号" : "ID", 13, false), tui_col_print(zh ? "缺口" : "GAP", 4, false),
            tui_col_print(zh ? "阶梯" : "RUNG", 4, false),
            tui_col_print(zh ? "症状" : "SYMPTOMS", 29, false);
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
            tui_col_print(c->id, 13, false), tui_col_print(gap, 4, false),
                tui_col_print(rung, 4, false), tui_col_print(sym, 29, false);
            char *t = text_sanitize(zh ? c->title_zh : c->title_en, false);
            puts(t);
            free(t);
        }
        if (zh)
            printf("共 %zu 个案例\n", l.n);
        else
            printf("%zu case%s\n", l.n, l.n == 1 ? "" : "s");
    }
    cdb_case_list_free(&l);
    cdb_close(db);
    return 0;
}
