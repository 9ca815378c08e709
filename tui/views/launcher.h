/* Starting this same binary as a child of the interface: `kladder run` from the launch panel,
 * `kladder pull` for P, `kladder devices --json` for the panel's backends. The interface never
 * runs GPU work, transfers or device probes in its own process; it builds an argv (no shell),
 * spawns it on the same database and lets the event loop watch it (tui_app_watch). */
#ifndef KL_TUI_LAUNCHER_H
#define KL_TUI_LAUNCHER_H

#include <stdbool.h>
#include <stddef.h>

#include "tui/child.h"

struct tui_app;

/* The start of a command line that runs this same binary on the same database: the executable
 * and --db PATH when one was given. Writes at most max entries (3 suffice); returns how many. */
int tui_launcher_argv(const struct tui_app *app, const char **argv, int max);

/* What `kladder run` is asked to do: the launch panel's settings. */
struct tui_run_opts {
    char *const *target;  /* --case ID, or --rung N --suite NAME|PATH */
    int n_target;         /* at most 4 */
    const char *backend;  /* NULL: auto, kladder run takes the first backend that loads */
    int device;           /* of backend */
    const char *variant;  /* both, fixed or buggy */
    int repeats;          /* 0: from the suite's failure rate (rung 5) */
    int timeout_s;        /* per check, after setup */
    const char *lag;      /* --lag's value (rungs 2 and 5's lag builds); NULL: kladder run's auto */
    const char *const *extra; /* further arguments, as given (the rung's own options) */
    int n_extra;          /* at most TUI_ARGV_EXTRA */
};

/* A command line: v is NULL-terminated; num holds the numbers it points to. */
#define TUI_ARGV_EXTRA 16
#define TUI_ARGV_MAX (28 + TUI_ARGV_EXTRA)
struct tui_argv {
    const char *v[TUI_ARGV_MAX];
    const char *extra[TUI_ARGV_EXTRA]; /* room for a caller's tui_run_opts.extra */
    char num[3][16];
};

/* `kladder run` with o, its events streamed on TUI_CHILD_EVENTS_FD and no progress bar. The entries
 * point into o, into cmd and to static text: valid while o and cmd are. */
void tui_launcher_run_argv(const struct tui_app *app, const struct tui_run_opts *o,
                           struct tui_argv *cmd);

/* argv as a person reads it: "kladder" for the executable, without --events and its number
 * (an inner detail of the interface). Cut to fit len. */
void tui_launcher_cmdline(const char *const *argv, char *buf, size_t len);

/* Spawns argv (events: with the events pipe, tui/child.h) and has the event loop watch it: each
 * line goes to on_line(ctx, …) as it comes, on_exit(app, ctx) is called once when the child has
 * ended. Returns the child, which the caller owns and frees after on_exit; or NULL with err (for
 * a person) when it could not start. */
struct tui_child *tui_launcher_start(struct tui_app *app, const char *const *argv, bool events,
                                     void (*on_line)(void *ctx, enum tui_child_stream s,
                                                     const char *line),
                                     void (*on_exit)(struct tui_app *app, void *ctx), void *ctx,
                                     char *err, size_t errlen);

#endif
