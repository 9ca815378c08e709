/* kladder show ID [--json] [--lang en|zh] */
#include <cJSON.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "casedb/cdb.h"
#include "common/text.h"
#include "importers/case_index.h"
#include "tui/cli/cli.h"
#include "tui/cli/opts.h"

#define WIDTH 78

/* Prints text wrapped to WIDTH with an indent; every string from the database is sanitised. */
static void para(const char *text, int indent)
{
    size_t n;
    char **lines = text_wrap(text, WIDTH - indent, &n);
    for (size_t i = 0; i < n; i++)
        printf("%*s%s\n", indent, "", lines[i]);
    text_lines_free(lines, n);
}

static void label(const char *en, const char *zh, bool use_zh)
{
    printf("\n%s\n", use_zh ? zh : en);
}

static void print_case(struct cdb *db, const struct cdb_case *c, bool zh)
{
    char line[1024];
    snprintf(line, sizeof line, "%s  %s", c->id, zh ? c->title_zh : c->title_en);
    para(line, 0);
    struct cdb_gap *gaps = NULL;
    struct cdb_rung *rungs = NULL;
    size_t ng = 0, nr = 0;
    char err[256];
    cdb_gaps_load(db, &gaps, &ng, err, sizeof err);
    cdb_rungs_load(db, &rungs, &nr, err, sizeof err);
    const char *gap_name = "?", *rung_name = "?", *rung_runs = "";
    for (size_t i = 0; i < ng; i++)
        if (gaps[i].n == c->gap)
            gap_name = zh ? gaps[i].name_zh : gaps[i].name_en;
    for (size_t i = 0; i < nr; i++)
        if (rungs[i].n == c->rung) {
            rung_name = zh ? rungs[i].name_zh : rungs[i].name_en;
            rung_runs = zh ? rungs[i].runs_zh : rungs[i].runs_en;
        }
    char sec[64] = "";
    for (size_t i = 0; i < c->n_gaps; i++)
        snprintf(sec + strlen(sec), sizeof sec - strlen(sec), "%s%d", i ? ", " : "", c->gaps[i]);
    snprintf(line, sizeof line, zh ? "缺口 %d（%s）%s%s%s · 阶梯 %d（%s）· %s%s"
                                   : "gap %d (%s)%s%s%s · rung %d (%s) · %s%s",
             c->gap, gap_name, c->n_gaps ? (zh ? "，次要 " : ", also ") : "", sec, "", c->rung,
             rung_name, c->arch, c->verified ? "" : (zh ? " · 未核实" : " · unverified"));
    para(line, 0);
    if (c->n_symptoms || c->n_models) {
        line[0] = '\0';
        for (size_t i = 0; i < c->n_symptoms; i++)
            snprintf(line + strlen(line), sizeof line - strlen(line), "%s%s", i ? ", " : "",
                     c->symptoms[i]);
        for (size_t i = 0; i < c->n_models; i++)
            snprintf(line + strlen(line), sizeof line - strlen(line), "%s%s",
                     i ? ", " : (zh ? " · 模型 " : " · models "), c->models[i]);
        para(line, 0);
    }
    label("Summary", "概要", zh);
    para(zh ? c->summary_zh : c->summary_en, 2);
    if (c->n_figures) {
        label("Figures", "数字", zh);
        for (size_t i = 0; i < c->n_figures; i++) {
            snprintf(line, sizeof line, "%s  %s", c->figures[i].value,
                     zh ? c->figures[i].label_zh : c->figures[i].label_en);
            para(line, 2);
        }
    }
    for (size_t i = 0; i < c->n_rates; i++) {
        if (i == 0)
            label("Failure rates", "失败率", zh);
        double p = c->rates[i].failures / c->rates[i].trials;
        snprintf(line, sizeof line, "%.0f / %.0f  %s  (p = %.3g)", c->rates[i].failures,
                 c->rates[i].trials, zh ? c->rates[i].label_zh : c->rates[i].label_en, p);
        para(line, 2);
    }
    label("The test that catches it", "能抓住它的测试", zh);
    para(zh ? c->catch_zh : c->catch_en, 2);
    label("Rung", "阶梯", zh); /* the interface's word for it */
    snprintf(line, sizeof line, "%d %s: %s", c->rung, rung_name, rung_runs);
    para(line, 2);
    label("References", "引用", zh);
    for (size_t i = 0; i < c->n_refs; i++) {
        const struct cdb_ref *r = &c->refs[i];
        if (r->verified)
            snprintf(line, sizeof line, "%s  %s, %s, %s  %s", r->ref, r->kind ? r->kind : "?",
                     r->state ? r->state : "?", r->date ? r->date : "?", r->url);
        else
            snprintf(line, sizeof line, "%s  %s  %s", r->ref, zh ? "未核实" : "unverified", r->url);
        para(line, 2);
        if (r->title)
            para(r->title, 4);
    }
    if (c->n_related) {
        label("Related", "相关案例", zh);
        line[0] = '\0';
        for (size_t i = 0; i < c->n_related; i++)
            snprintf(line + strlen(line), sizeof line - strlen(line), "%s%s", i ? ", " : "",
                     c->related[i]);
        para(line, 2);
    }
    if (c->reproducer) {
        label("Reproducer", "复现", zh);
        snprintf(line, sizeof line, "kladder run --case %s", c->id);
        para(line, 2);
    }
    if (c->notes) {
        label("Notes", "备注", zh);
        para(c->notes, 2);
    }
    for (size_t i = 0; i < ng; i++)
        cdb_gap_free(&gaps[i]);
    for (size_t i = 0; i < nr; i++)
        cdb_rung_free(&rungs[i]);
    free(gaps);
    free(rungs);
}

static void print_help(const struct cli_parser *p)
{
    static const char *const forms[] = {"ID %o", NULL};
    cli_print_usage(stdout, p, forms);
    printf("\n"
           "Shows one case of the index (kladder cases lists them): its gap and rung, summary,\n"
           "the test that catches it, references and reproducer.\n\n"
           "options:\n");
    cli_print_help(stdout, p);
}

static int take_lang(const struct cli_opt *opt, const char *v, void *ctx)
{
    (void)ctx; /* en or zh: the parser took only the choices */
    *(bool *)opt->dest = strcmp(v, "zh") == 0;
    return CLI_PARSED;
}

int cmd_show(int argc, char **argv, const struct cli_global *g)
{
    const char *id = NULL;
    bool json = false, zh = false;
    const struct cli_opt opts[] = {
        CLI_OPT_HELP("--help", print_help),
        CLI_OPT_HELP("-h", print_help),
        CLI_OPT_FLAG_DOC("--json", &json,
                         "print the case object with the fields of data/cases.json"),
        {.name = "--lang", .kind = CLI_CALL, .dest = &zh, .call = take_lang,
         .missing = "--lang expects en or zh", .choices = CLI_WORD_FN(cli_word_lang),
         .about = "the language of the text (default en)"},
    };
    const struct cli_parser p = {.verb = "show", .opts = opts, .nopts = CLI_COUNT(opts),
                                 .args = CLI_OPT_STRING(NULL, &id)};
    int rc = cli_parse(&p, argc, argv, NULL);
    if (rc != CLI_PARSED)
        return rc;
    if (!id)
        return cli_usage_error("show", "expected a case id, e.g. kladder show aiter-6402");
    struct cdb *db = cli_open_db(g);
    if (!db)
        return 2;
    struct cdb_case c;
    char err[1024];
    int found = cdb_case_get(db, id, &c, err, sizeof err);
    if (found <= 0) {
        char *safe = text_sanitize(id, false);
        if (found == 0)
            fprintf(stderr, "kladder show: no case '%s' (kladder cases lists them)\n", safe);
        else
            fprintf(stderr, "kladder show: %s\n", err);
        free(safe);
        cdb_close(db);
        return 2;
    }
    if (json) {
        cJSON *o = imp_case_to_json(&c);
        char *out = cJSON_Print(o);
        puts(out);
        cJSON_free(out);
        cJSON_Delete(o);
    } else {
        print_case(db, &c, zh);
    }
    cdb_case_free(&c);
    cdb_close(db);
    return 0;
}
