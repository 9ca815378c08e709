/* One walk over a verb's argv against its option table (tui/cli/opts.h). */
#include "tui/cli/opts.h"

#include <stdio.h>
#include <string.h>

#include "common/xalloc.h"
#include "tui/cli/cli.h"

static bool takes_value(enum cli_kind k)
{
    return k == CLI_STRING || k == CLI_INT || k == CLI_LONG || k == CLI_LIST || k == CLI_CALL;
}

/* Every list the table fills gets room for all arguments up front, so a list is never NULL
 * (a verb hands it on as a NULL-terminated array) and never grows. */
static void make_lists(const struct cli_parser *p, int argc)
{
    for (size_t k = 0; k <= p->nopts; k++) {
        const struct cli_opt *o = k < p->nopts ? &p->opts[k] : &p->args;
        if (o->kind == CLI_LIST) {
            struct cli_list *l = o->dest;
            l->v = xcalloc((size_t)argc + 1, sizeof *l->v);
            l->n = 0;
        }
    }
}

static int refuse(const struct cli_parser *p, const char *arg)
{
    switch (p->stray) {
    case CLI_STRAY_OPTION:
        return cli_usage_error(p->verb, "unknown option '%s'", arg);
    case CLI_STRAY_ARGUMENT:
        return cli_usage_error(p->verb, "unexpected argument '%s'", arg);
    case CLI_STRAY_UNKNOWN:
        return cli_usage_error(p->verb, "unknown argument '%s'", arg);
    case CLI_STRAY_ESCAPED:
        break;
    }
    return cli_unknown(p->verb, arg);
}

/* An argument that names no option: the verb's own (args), or refused. */
static int take_arg(const struct cli_parser *p, const char *arg, void *ctx)
{
    bool option = p->long_only ? strncmp(arg, "--", 2) == 0 : arg[0] == '-';
    const struct cli_opt *a = &p->args;
    if (option)
        return refuse(p, arg);
    if (a->kind == CLI_STRING && !*(const char **)a->dest) {
        *(const char **)a->dest = arg;
        return CLI_PARSED;
    }
    if (a->kind == CLI_LIST) {
        struct cli_list *l = a->dest;
        if (a->hi > 0 && l->n >= (size_t)a->hi)
            return refuse(p, arg);
        l->v[l->n++] = arg;
        return CLI_PARSED;
    }
    if (a->kind == CLI_CALL)
        return a->call(a, arg, ctx);
    return refuse(p, arg);
}

/* Puts value (NULL for an option without one) where o says. */
static int apply(const struct cli_parser *p, const struct cli_opt *o, const char *value,
                 void *ctx)
{
    int n;
    switch (o->kind) {
    case CLI_FLAG:
        *(bool *)o->dest = true;
        break;
    case CLI_STRING:
        *(const char **)o->dest = value;
        break;
    case CLI_INT:
        if (!cli_parse_int(p->verb, o->name, value, o->lo, o->hi, o->dest))
            return 2;
        break;
    case CLI_LONG:
        if (!cli_parse_int(p->verb, o->name, value, o->lo, o->hi, &n))
            return 2;
        *(long *)o->dest = n;
        break;
    case CLI_LIST: {
        struct cli_list *l = o->dest;
        l->v[l->n++] = value;
        break;
    }
    case CLI_CALL:
    case CLI_DO:
        return o->call(o, value, ctx);
    case CLI_HELP:
        o->help();
        return 0;
    case CLI_NONE:
    case CLI_TAKE:
        break;
    }
    return CLI_PARSED;
}

/* The entry argv[*i] names; CLI_TAKE entries are asked on the way, and one that takes the
 * argument ends the search with *rc = CLI_PARSED (or its status). NULL: no entry names it. */
static const struct cli_opt *find(const struct cli_parser *p, int argc, char **argv, int *i,
                                  void *ctx, int *rc)
{
    *rc = 0;
    for (size_t k = 0; k < p->nopts; k++) {
        const struct cli_opt *o = &p->opts[k];
        if (o->kind == CLI_TAKE) {
            int r = o->take(argc, argv, i, ctx);
            if (r != 0) {
                *rc = r == 1 ? CLI_PARSED : r;
                return NULL;
            }
        } else if (strcmp(argv[*i], o->name) == 0) {
            return o;
        }
    }
    return NULL;
}

static const char *kind_name(enum cli_kind k)
{
    static const char *const names[] = {
        [CLI_NONE] = "none", [CLI_FLAG] = "flag", [CLI_STRING] = "string", [CLI_INT] = "int",
        [CLI_LONG] = "long", [CLI_LIST] = "list", [CLI_CALL] = "value", [CLI_DO] = "do",
        [CLI_HELP] = "help", [CLI_TAKE] = "take",
    };
    return names[k];
}

void cli_print_options(const struct cli_parser *p)
{
    for (size_t k = 0; k < p->nopts; k++) {
        const struct cli_opt *o = &p->opts[k];
        if (!o->name) { /* a CLI_TAKE: its helper's options, where it names them */
            for (const char *const *t = o->takes; t && *t; t++)
                printf("%s\t%s\n", *t, kind_name(o->kind));
            continue;
        }
        if (o->kind == CLI_INT || o->kind == CLI_LONG)
            printf("%s\t%s\t%d\t%d\n", o->name, kind_name(o->kind), o->lo, o->hi);
        else
            printf("%s\t%s\n", o->name, kind_name(o->kind));
    }
    printf("ARGS\t%s\n", kind_name(p->args.kind));
}

void cli_print_help(FILE *f, const struct cli_parser *p)
{
    for (size_t k = 0; k < p->nopts; k++) {
        const struct cli_opt *o = &p->opts[k];
        if (!o->name || !o->about)
            continue;
        char head[64];
        snprintf(head, sizeof head, "%s%s%s", o->name, o->arg ? " " : "", o->arg ? o->arg : "");
        fprintf(f, "  %-16s %s\n", head, o->about);
    }
}

static bool has_option(const struct cli_parser *p, const char *name)
{
    for (size_t k = 0; k < p->nopts; k++)
        if (p->opts[k].name && strcmp(p->opts[k].name, name) == 0)
            return true;
    return false;
}

int cli_parse(const struct cli_parser *p, int argc, char **argv, void *ctx)
{
    make_lists(p, argc);
    if (p->first_arg)
        *p->first_arg = argc;
    if (argc == 2 && strcmp(argv[1], "--options") == 0 && !has_option(p, "--options")) {
        cli_print_options(p);
        return 0;
    }
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        int rc;
        if (p->first_arg && a[0] != '-') {
            *p->first_arg = i;
            return CLI_PARSED;
        }
        const struct cli_opt *o = find(p, argc, argv, &i, ctx, &rc);
        if (!o && rc == 0)
            rc = take_arg(p, a, ctx);
        else if (o && takes_value(o->kind) && i + 1 >= argc)
            return o->missing ? cli_usage_error(p->verb, "%s", o->missing)
                              : cli_usage_error(p->verb, "%s expects a value", a);
        else if (o)
            rc = apply(p, o, takes_value(o->kind) ? argv[++i] : NULL, ctx);
        if (rc != CLI_PARSED)
            return rc;
    }
    return CLI_PARSED;
}
