/* What every CLI verb gets from main: the global options, already parsed, and the messages and
 * number parsing that the verbs' option tables (tui/cli/opts.h) share. A verb returns the
 * process exit status:
 * 0 success, 1 a check failed or hung (run), 2 usage or setup error (message on stderr). */
#ifndef KL_TUI_CLI_H
#define KL_TUI_CLI_H

#include <stdbool.h>
#include <stddef.h>

struct cdb;

#include "tui/global.h"

/* Opens the database of g (creating it, and filling it from data/ when it holds no cases), for a
 * verb that only reads: a database file this user cannot write is opened read-only (it must be
 * at this build's schema version and hold the case index). On failure prints the reason to
 * stderr and returns NULL. */
struct cdb *cli_open_db(const struct cli_global *g);
/* The same for a verb that writes (run, pull, import, hosts add/rm): a read-only database file
 * is an error that says so, naming the file and the verb. */
struct cdb *cli_open_db_write(const struct cli_global *g, const char *verb);

/* Parses a decimal integer in [lo, hi]; on failure prints "kladder VERB: OPTION expects ..."
 * and returns false. */
bool cli_parse_int(const char *verb, const char *opt, const char *text, int lo, int hi, int *out);

/* Prints "kladder VERB: message" plus a hint to use --help, returns 2 (usage error). */
int cli_usage_error(const char *verb, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* The usage error for an argument a verb does not know: "unknown option --frob" for one that
 * starts with '-', "unexpected argument 'x'" otherwise, the argument escaped as typed
 * (text_escape). Returns 2. */
int cli_unknown(const char *verb, const char *arg);

#define VERB(name, fn, help) int fn(int argc, char **argv, const struct cli_global *g);
#include "tui/cli/verbs.def"
#undef VERB

/* Opens the interactive interface (tui/app.c). Returns the exit status. */
int tui_main(const struct cli_global *g);

/* Whether a -D value is NAME or NAME=VALUE, NAME an identifier, with no control character
 * (the build line of scan, exec). */
bool cli_define_ok(const char *d);

/* The words an option's value may be, read from the tables that own them, for the .choices
 * of an option table (tui/cli/opts.h, CLI_WORD_FN): the i-th word, NULL past the last.
 * backend: every backend of the engine's table, in preference order; schedule: the cpu
 * backend's schedules; verdict: every verdict the database stores; lang: the languages of the
 * case index's text. */
const char *cli_word_backend(size_t i);
const char *cli_word_schedule(size_t i);
const char *cli_word_verdict(size_t i);
const char *cli_word_lang(size_t i);
/* run's variants: fixed, buggy, both (run and fleet submit, which hands it on) */
const char *cli_word_variant(size_t i);

#endif
