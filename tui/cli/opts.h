/* The options of a CLI verb as one declarative table: each entry names an option, says what
 * kind of value it takes and where that value goes; cli_parse walks argv once against it.
 * Every message is one of cli.h's (cli_usage_error, cli_parse_int, cli_unknown), so a verb
 * that moves onto the table prints what it printed before, byte for byte.
 *
 * A verb's oddities stay its own as callbacks: a value checked against a list of words, an
 * option that stops the verb (--list, --worker), options gathered by a helper of their own
 * (CLI_TAKE). */
#ifndef KL_TUI_CLI_OPTS_H
#define KL_TUI_CLI_OPTS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

/* What cli_parse and a callback return when parsing goes on; anything else is the exit status
 * the verb returns at once (0 after --help, 2 after a usage message). */
#define CLI_PARSED (-1)

enum cli_kind {
    CLI_NONE,   /* as cli_parser.args: the verb takes no arguments besides its options */
    CLI_FLAG,   /* bool *dest = true */
    CLI_STRING, /* const char **dest = the value; as args: one argument, a second is stray */
    CLI_INT,    /* int *dest = the value, a whole number in [lo, hi] (cli_parse_int) */
    CLI_LONG,   /* long *dest, the same */
    CLI_LIST,   /* struct cli_list *dest: the value appended (repeatable); as args: at most hi
                 * arguments (0: any number), one more is stray */
    CLI_CALL,   /* call(opt, value, ctx) */
    CLI_DO,     /* call(opt, NULL, ctx): an option without a value */
    CLI_HELP,   /* help(parser) prints the verb's help; the verb returns 0 */
    CLI_TAKE,   /* no name: take(argc, argv, &i, ctx) is asked about every argument, in table
                 * order: 0 not its own, 1 taken (with its values, advancing i), anything else
                 * the status to stop with (after a usage message) */
};

/* The values of a CLI_LIST: v is NULL-terminated and has room for every argument; cli_parse
 * allocates it (also when nothing is given), the verb frees v. */
struct cli_list {
    const char **v;
    size_t n;
};

struct cli_parser;

/* The words an option's value may be, one source for the parser, its help, --options, the man
 * page and the shell completions: a fixed list (words, NULL-terminated), or a list read from a
 * table when asked (word(i): the i-th word, NULL past the last; the backends, the schedules,
 * the languages). A value that is none of them is refused by cli_parse before the option's
 * call or store sees it ("--x expects a, b or c, not 'v'"). Empty (both NULL): any value. */
struct cli_choices {
    const char *const *words;
    const char *(*word)(size_t i);
};

struct cli_opt {
    const char *name;    /* "--rung", as typed; NULL for CLI_TAKE and the args entry */
    enum cli_kind kind;
    void *dest;          /* where the value goes (its type follows kind); callbacks may use it */
    int lo, hi;          /* CLI_INT, CLI_LONG: the range; CLI_LIST as args: the most taken;
                          * CLI_CALL, when hi > 0: the range of the numbers its value is made
                          * of (a list of them, say), which --options gives as an int's */
    const char *missing; /* the usage message when the value is missing; NULL: "%s expects a
                          * value" with the option's name */
    int (*call)(const struct cli_opt *opt, const char *value, void *ctx); /* CLI_CALL, CLI_DO */
    /* CLI_HELP: given the parser it was found in, so that the verb's help can list the options
     * of that very table (cli_print_help) */
    void (*help)(const struct cli_parser *p);
    int (*take)(int argc, char **argv, int *i, void *ctx);                /* CLI_TAKE */
    const struct cli_opt *takes; /* CLI_TAKE: the options take knows, ended by an entry whose
                                  * name is NULL, so that --options lists them and help says
                                  * them too (only their name, arg and about are read); NULL:
                                  * none to list */
    const char *arg;   /* help: the value's name ("PATH"); NULL for an option without one */
    const char *about; /* help: one line saying what it does; NULL: cli_print_help leaves the
                        * option out (a second spelling, an internal one) */
    struct cli_choices choices; /* what the value may be; help shows them as its arg ("a|b|c")
                                 * where arg is NULL */
};

struct cli_parser {
    const char *verb;          /* "kladder VERB: ..." in every message */
    const struct cli_opt *opts;
    size_t nopts;
    struct cli_opt args;       /* what takes an argument that is no option (CLI_STRING,
                                * CLI_LIST or CLI_CALL; CLI_NONE: none is taken) */
    bool long_only;            /* only "--..." is an option; "-" and "-x" are arguments */
    int *first_arg;            /* non-NULL: parsing stops at the first argument that does not
                                * start with '-' (the global options before a verb), its index
                                * stored here (argc when there is none) */
};

/* Table entries, one line each. */
#define CLI_OPT_FLAG(n, d) {.name = (n), .kind = CLI_FLAG, .dest = (d)}
#define CLI_OPT_STRING(n, d) {.name = (n), .kind = CLI_STRING, .dest = (d)}
#define CLI_OPT_INT(n, d, l, h) {.name = (n), .kind = CLI_INT, .dest = (d), .lo = (l), .hi = (h)}
#define CLI_OPT_LONG(n, d, l, h) {.name = (n), .kind = CLI_LONG, .dest = (d), .lo = (l), .hi = (h)}
#define CLI_OPT_LIST(n, d) {.name = (n), .kind = CLI_LIST, .dest = (d)}
#define CLI_OPT_CALL(n, d, fn) {.name = (n), .kind = CLI_CALL, .dest = (d), .call = (fn)}
#define CLI_OPT_DO(n, d, fn) {.name = (n), .kind = CLI_DO, .dest = (d), .call = (fn)}
#define CLI_OPT_HELP(n, fn) {.name = (n), .kind = CLI_HELP, .help = (fn)}
#define CLI_OPT_TAKE(fn) {.kind = CLI_TAKE, .take = (fn)}
#define CLI_OPT_TAKE_NAMED(fn, names) {.kind = CLI_TAKE, .take = (fn), .takes = (names)}

/* The same entries with what help says of them: a names the value (.arg), t says what the
 * option does (.about, one line that cli_print_help wraps). A verb's user-facing options use
 * these; the plain ones above are for a second spelling or an internal option, which help
 * leaves out. */
#define CLI_OPT_FLAG_DOC(n, d, t) {.name = (n), .kind = CLI_FLAG, .dest = (d), .about = (t)}
#define CLI_OPT_STRING_DOC(n, d, a, t)                                                            \
    {.name = (n), .kind = CLI_STRING, .dest = (d), .arg = (a), .about = (t)}
#define CLI_OPT_INT_DOC(n, d, l, h, a, t)                                                         \
    {.name = (n), .kind = CLI_INT, .dest = (d), .lo = (l), .hi = (h), .arg = (a), .about = (t)}
#define CLI_OPT_LONG_DOC(n, d, l, h, a, t)                                                        \
    {.name = (n), .kind = CLI_LONG, .dest = (d), .lo = (l), .hi = (h), .arg = (a), .about = (t)}
#define CLI_OPT_LIST_DOC(n, d, a, t)                                                              \
    {.name = (n), .kind = CLI_LIST, .dest = (d), .arg = (a), .about = (t)}
#define CLI_OPT_CALL_DOC(n, d, fn, a, t)                                                          \
    {.name = (n), .kind = CLI_CALL, .dest = (d), .call = (fn), .arg = (a), .about = (t)}
#define CLI_OPT_CALL_RANGE_DOC(n, d, fn, l, h, a, t)                                               \
    {.name = (n), .kind = CLI_CALL, .dest = (d), .call = (fn), .lo = (l), .hi = (h), .arg = (a),   \
     .about = (t)}
#define CLI_OPT_DO_DOC(n, d, fn, t)                                                               \
    {.name = (n), .kind = CLI_DO, .dest = (d), .call = (fn), .about = (t)}
/* An option whose value is one of a list (a struct cli_choices: CLI_WORDS or CLI_WORD_FN):
 * help, the man page and the completions show the choices as its value; the parser refuses any
 * other value before it stores it (STRING) or calls fn (CALL). */
#define CLI_OPT_STRING_CHOICE_DOC(n, d, ch, t)                                                    \
    {.name = (n), .kind = CLI_STRING, .dest = (d), .choices = ch, .about = (t)}
#define CLI_OPT_CALL_CHOICE_DOC(n, d, fn, ch, t)                                                  \
    {.name = (n), .kind = CLI_CALL, .dest = (d), .call = (fn), .choices = ch, .about = (t)}
/* An option a CLI_TAKE's helper knows, for its .takes list: all that --options and help read */
#define CLI_TAKES(n, a, t) {.name = (n), .arg = (a), .about = (t)}

/* .choices of a fixed list: CLI_WORDS("fixed", "buggy", "both"); of a table: CLI_WORD_FN(fn) */
#define CLI_WORDS(...) {.words = (const char *const[]){__VA_ARGS__, NULL}}
#define CLI_WORD_FN(fn) {.word = (fn)}

#define CLI_COUNT(table) (sizeof (table) / sizeof (table)[0])

/* Parses argv[1..argc) (argv[0] is the verb) against p. An option's value is always the
 * argument after it, whatever it looks like; an option given twice keeps the last value.
 * Returns CLI_PARSED when every argument was taken, else the status the verb returns now.
 *
 * `--options` as the only argument, on a table that has no such option of its own, prints the
 * table instead (cli_print_options) and returns 0: the shell completions read every verb's
 * options, their kinds and ranges from there, so they follow the tables. `--man-options` alone
 * prints the documented options as man page source (cli_print_man) and returns 0. */
int cli_parse(const struct cli_parser *p, int argc, char **argv, void *ctx);

/* Whether argv[1] asks a verb of subcommands about its table before any subcommand: --help or
 * -h, or --options or --man-options alone; such a verb hands these to cli_parse whole. */
bool cli_asks_table(int argc, char **argv);

/* The table of p, one option a line, tab-separated: its name, its kind (flag, string, int,
 * long, list, value, do, help; take for those a CLI_TAKE's helper knows), for int and long
 * the range ("--rung\tint\t1\t8"), then its choices, space-separated, and the name of its
 * value ("PATH"); fields after the kind are empty where they do not apply, and empty ones at
 * the end are left out ("--backend\tvalue\t\t\thip cuda cpu", "--db\tstring\t\t\t\tPATH");
 * then "ARGS\tKIND" for what the verb takes besides its options (none, string, list, value). */
void cli_print_options(const struct cli_parser *p);

/* The i-th word o's value may be (o->choices), NULL past the last or when any value goes. */
const char *cli_choice(const struct cli_opt *o, size_t i);

/* o's choices as one text into buf: "a|b|c" with sep "|", "a, b or c" with sep NULL */
void cli_choice_list(const struct cli_opt *o, const char *sep, char *buf, size_t len);

/* CLI_PARSED when o takes any value or v is one of its choices; else the usage message
 * "OPTION expects a, b or c, not 'v'" (v escaped) and 2. */
int cli_check_choice(const char *verb, const struct cli_opt *o, const char *v);

/* p's options as man page source (roff), one tagged paragraph each for those help says: the
 * name in bold, its value (or choices) in italics, the help line; `make man` writes them into
 * docs/kladder.1 between the marks of the verb (tests/importers/options_drift.sh checks). */
void cli_print_man(const struct cli_parser *p);

/* The usage lines of a verb: "usage: kladder VERB FORM", then "       kladder VERB FORM" for
 * each further form (forms NULL-terminated; NULL: one form, "%o"). A form is words: %o stands
 * for the documented options of p's table that the form does not name, each bracketed with its
 * value as help writes it ("[--lang en|zh]", "[--lib PATH]..."), or "[options]" when they are
 * more than CLI_USAGE_MAX; {NAME} for option NAME as help writes it ("--backend hip|cuda|cpu");
 * other words as they are. Lines are wrapped at 100 columns under the first word of the form.
 * A form without %o gets no options (a subcommand that takes none). */
#define CLI_USAGE_MAX 10
void cli_print_usage(FILE *f, const struct cli_parser *p, const char *const *forms);

/* The options of p that say what they do (about), those a CLI_TAKE's helper knows among them
 * in table order, for a help text: "  --db PATH        the database ...". The name and its
 * value ("NAME ARG") fill a column one cell wider than the widest of the table, at least 16
 * cells and at most 28; one too long for it has the line to itself and its text starts on the
 * next. The text is wrapped at 100 columns, each further line indented to the text's column. */
void cli_print_help(FILE *f, const struct cli_parser *p);

#endif
