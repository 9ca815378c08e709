/* One walk over a verb's argv against its option table (tui/cli/opts.h). */
#include "tui/cli/opts.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/text.h"
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

/* An argument that names no option: the verb's own (args), or refused. */
static int take_arg(const struct cli_parser *p, const char *arg, void *ctx)
{
    bool option = p->long_only ? strncmp(arg, "--", 2) == 0 : arg[0] == '-';
    const struct cli_opt *a = &p->args;
    if (option)
        return cli_unknown(p->verb, arg);
    if (a->kind == CLI_STRING && !*(const char **)a->dest) {
        *(const char **)a->dest = arg;
        return CLI_PARSED;
    }
    if (a->kind == CLI_LIST) {
        struct cli_list *l = a->dest;
        if (a->hi > 0 && l->n >= (size_t)a->hi)
            return cli_unknown(p->verb, arg);
        l->v[l->n++] = arg;
        return CLI_PARSED;
    }
    if (a->kind == CLI_CALL)
        return a->call(a, arg, ctx);
    return cli_unknown(p->verb, arg);
}

const char *cli_choice(const struct cli_opt *o, size_t i)
{
    if (o->choices.words)
        return o->choices.words[i];
    return o->choices.word ? o->choices.word(i) : NULL;
}

/* "a|b|c" (sep "|") or "a, b or c" (sep NULL) of o's choices into buf */
static void join_choices(const struct cli_opt *o, const char *sep, char *buf, size_t len)
{
    if (len == 0)
        return;
    size_t n = 0, used = 0;
    while (cli_choice(o, n))
        n++;
    buf[0] = '\0';
    for (size_t i = 0; i < n && used < len; i++) {
        const char *between = i == 0 ? "" : sep ? sep : i + 1 == n ? " or " : ", ";
        used += (size_t)snprintf(buf + used, len - used, "%s%s", between, cli_choice(o, i));
    }
}

void cli_choice_list(const struct cli_opt *o, const char *sep, char *buf, size_t len)
{
    join_choices(o, sep, buf, len);
}

int cli_check_choice(const char *verb, const struct cli_opt *o, const char *v)
{
    if (!cli_choice(o, 0))
        return CLI_PARSED;
    for (size_t i = 0; cli_choice(o, i); i++)
        if (strcmp(v, cli_choice(o, i)) == 0)
            return CLI_PARSED;
    char words[256];
    join_choices(o, NULL, words, sizeof words);
    char *shown = text_escape(v, 60);
    int rc = cli_usage_error(verb, "%s expects %s, not '%s'", o->name, words, shown);
    free(shown);
    return rc;
}

/* Puts value (NULL for an option without one) where o says. */
static int apply(const struct cli_parser *p, const struct cli_opt *o, const char *value,
                 void *ctx)
{
    int n;
    if (value && cli_check_choice(p->verb, o, value) != CLI_PARSED)
        return 2;
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
        o->help(p);
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

/* One line of --options: name, kind, then range, choices and the value's name, the empty
 * fields at the end left out. */
static void print_option_line(const struct cli_opt *o, enum cli_kind kind, bool range)
{
    char words[512], lo[16] = "", hi[16] = "";
    join_choices(o, " ", words, sizeof words);
    if (range) {
        snprintf(lo, sizeof lo, "%d", o->lo);
        snprintf(hi, sizeof hi, "%d", o->hi);
    }
    const char *field[] = {lo, hi, words, o->arg ? o->arg : ""};
    size_t last = 4;
    while (last > 0 && !*field[last - 1])
        last--;
    printf("%s\t%s", o->name, kind_name(kind));
    for (size_t f = 0; f < last; f++)
        printf("\t%s", field[f]);
    printf("\n");
}

void cli_print_options(const struct cli_parser *p)
{
    for (size_t k = 0; k < p->nopts; k++) {
        const struct cli_opt *o = &p->opts[k];
        if (!o->name) { /* a CLI_TAKE: its helper's options, where it names them */
            for (const struct cli_opt *t = o->takes; t && t->name; t++)
                print_option_line(t, o->kind, false);
            continue;
        }
        if (o->kind == CLI_INT || o->kind == CLI_LONG)
            print_option_line(o, o->kind, true);
        else if (o->kind == CLI_CALL && o->hi > 0) /* numbers to complete, as an int's */
            print_option_line(o, CLI_INT, true);
        else
            print_option_line(o, o->kind, false);
    }
    printf("ARGS\t%s\n", kind_name(p->args.kind));
}

/* The help text's layout: lines of HELP_COLS columns; the column of names between
 * HELP_NAME_MIN and HELP_NAME_MAX cells, so that one long name (--schedule
 * default|adversarial|random|pct) does not push every text of its table to the right. A name
 * that fills the column to its last cell is too long for it: the column keeps a space after
 * the widest name, so that a name and its text are always two spaces apart or more. */
#define HELP_COLS 100
#define HELP_NAME_MIN 16
#define HELP_NAME_MAX 28

/* Calls fn(o, arg) for each option of p that help says, a CLI_TAKE's own in its place. */
static void each_documented(const struct cli_parser *p,
                            void (*fn)(const struct cli_opt *o, void *arg), void *arg)
{
    for (size_t k = 0; k < p->nopts; k++) {
        const struct cli_opt *o = &p->opts[k];
        if (o->kind == CLI_TAKE) {
            for (const struct cli_opt *t = o->takes; t && t->name; t++)
                if (t->about)
                    fn(t, arg);
        } else if (o->name && o->about) {
            fn(o, arg);
        }
    }
}

/* What help calls o's value: its choices ("a|b|c"), else its arg; "" for none */
static void value_of(const struct cli_opt *o, char *buf, size_t len)
{
    if (cli_choice(o, 0))
        join_choices(o, "|", buf, len);
    else
        snprintf(buf, len, "%s", o->arg ? o->arg : "");
}

/* "NAME ARG", or "NAME" for an option without a value */
static void head_of(const struct cli_opt *o, char *head, size_t len)
{
    char value[160];
    value_of(o, value, sizeof value);
    snprintf(head, len, "%s%s%s", o->name, *value ? " " : "", value);
}

static void widen(const struct cli_opt *o, void *arg)
{
    char head[256];
    head_of(o, head, sizeof head);
    int *w = arg, need = (int)strlen(head) + 1;
    if (need > *w && need <= HELP_NAME_MAX)
        *w = need;
}

struct help_out {
    FILE *f;
    int width; /* of the name column */
};

static void print_one(const struct cli_opt *o, void *arg)
{
    const struct help_out *h = arg;
    char head[256];
    head_of(o, head, sizeof head);
    int indent = 2 + h->width + 1;
    size_t n;
    char **lines = text_wrap(o->about, HELP_COLS - indent, &n);
    bool own_line = (int)strlen(head) >= h->width;
    if (own_line)
        fprintf(h->f, "  %s\n", head);
    for (size_t i = 0; i < n; i++) {
        if (i == 0 && !own_line)
            fprintf(h->f, "  %-*s %s\n", h->width, head, lines[i]);
        else
            fprintf(h->f, "%*s%s\n", indent, "", lines[i]);
    }
    text_lines_free(lines, n);
}

void cli_print_help(FILE *f, const struct cli_parser *p)
{
    struct help_out h = {f, HELP_NAME_MIN};
    each_documented(p, widen, &h.width);
    each_documented(p, print_one, &h);
}

static bool has_option(const struct cli_parser *p, const char *name)
{
    for (size_t k = 0; k < p->nopts; k++)
        if (p->opts[k].name && strcmp(p->opts[k].name, name) == 0)
            return true;
    return false;
}

bool cli_asks_table(int argc, char **argv)
{
    if (argc < 2)
        return false;
    const char *a = argv[1];
    return strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0 ||
           (argc == 2 && (strcmp(a, "--options") == 0 || strcmp(a, "--man-options") == 0));
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
    if (argc == 2 && strcmp(argv[1], "--man-options") == 0) {
        cli_print_man(p);
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

/* ---- the man page's option lists and the usage lines, from the same table ---- */

/* s as roff text: '-' as \-, a backslash as \e, a line's leading '.' or '\'' behind \& */
static void put_roff(const char *s)
{
    if (*s == '.' || *s == '\'')
        fputs("\\&", stdout);
    for (; *s; s++) {
        if (*s == '-')
            fputs("\\-", stdout);
        else if (*s == '\\')
            fputs("\\e", stdout);
        else
            putchar(*s);
    }
}

static void print_man_one(const struct cli_opt *o, void *arg)
{
    (void)arg;
    char value[256];
    value_of(o, value, sizeof value);
    fputs(".TP\n\\fB", stdout);
    put_roff(o->name);
    fputs("\\fR", stdout);
    if (*value) {
        fputs(" \\fI", stdout);
        put_roff(value);
        fputs("\\fR", stdout);
    }
    if (o->kind == CLI_LIST)
        fputs("...", stdout);
    putchar('\n');
    put_roff(o->about);
    putchar('\n');
}

void cli_print_man(const struct cli_parser *p)
{
    each_documented(p, print_man_one, NULL);
}

/* Whether form names option name, as a word of its own or as {NAME} */
static bool form_names(const char *form, const char *name)
{
    size_t len = strlen(name);
    for (const char *at = form; (at = strstr(at, name)); at += len) {
        bool starts = at == form || strchr(" [({", at[-1]);
        char end = at[len];
        if (starts && (end == '\0' || strchr(" ])}", end)))
            return true;
    }
    return false;
}

struct usage_out {
    FILE *f;
    const char *form;
    int col, indent;
    size_t count; /* options not named by the form */
};

static void put_word(struct usage_out *u, const char *word)
{
    int len = (int)strlen(word);
    if (u->col + 1 + len > HELP_COLS && u->col > u->indent) {
        fprintf(u->f, "\n%*s", u->indent, "");
        u->col = u->indent;
    } else {
        fputc(' ', u->f);
        u->col++;
    }
    fputs(word, u->f);
    u->col += len;
}

static void count_unnamed(const struct cli_opt *o, void *arg)
{
    struct usage_out *u = arg;
    if (!form_names(u->form, o->name))
        u->count++;
}

static void put_option(const struct cli_opt *o, void *arg)
{
    struct usage_out *u = arg;
    if (form_names(u->form, o->name))
        return;
    char head[256], word[300];
    head_of(o, head, sizeof head);
    snprintf(word, sizeof word, "[%s]%s", head, o->kind == CLI_LIST ? "..." : "");
    put_word(u, word);
}

struct named {
    const char *name;
    const struct cli_opt *found;
};

static void find_named(const struct cli_opt *o, void *arg)
{
    struct named *n = arg;
    if (strcmp(o->name, n->name) == 0)
        n->found = o;
}

/* One word of a form: %o the options it does not name, {NAME} that option as help writes it
 * (with what stands around it: "({--nodes}"), anything else as it is. */
static void put_form_word(struct usage_out *u, const struct cli_parser *p, const char *word)
{
    const char *lb = strchr(word, '{'), *rb = lb ? strchr(lb, '}') : NULL;
    if (strcmp(word, "%o") == 0) {
        u->count = 0;
        each_documented(p, count_unnamed, u);
        if (u->count > CLI_USAGE_MAX)
            put_word(u, "[options]");
        else
            each_documented(p, put_option, u);
    } else if (rb && rb > lb + 1) {
        char name[64], head[256], whole[400];
        snprintf(name, sizeof name, "%.*s", (int)(rb - lb - 1), lb + 1);
        struct named n = {name, NULL};
        each_documented(p, find_named, &n);
        if (n.found)
            head_of(n.found, head, sizeof head);
        snprintf(whole, sizeof whole, "%.*s%s%s", (int)(lb - word), word,
                 n.found ? head : name, rb + 1);
        put_word(u, whole);
    } else {
        put_word(u, word);
    }
}

void cli_print_usage(FILE *f, const struct cli_parser *p, const char *const *forms)
{
    static const char *const bare[] = {"%o", NULL};
    if (!forms)
        forms = bare;
    for (size_t k = 0; forms[k]; k++) {
        struct usage_out u = {f, forms[k], 0, 0, 0};
        u.col = fprintf(f, "%s kladder %s", k == 0 ? "usage:" : "      ", p->verb);
        u.indent = u.col + 1;
        char *words = xstrdup(forms[k]), *save = NULL;
        for (char *w = strtok_r(words, " ", &save); w; w = strtok_r(NULL, " ", &save))
            put_form_word(&u, p, w);
        free(words);
        fputc('\n', f);
    }
}
