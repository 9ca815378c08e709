#include "tui/views/launcher.h"

#include <stdio.h>
#include <string.h>

#include "engine/watchdog/watchdog.h"
#include "tui/views/view.h"

#define STR_(x) #x
#define STR(x) STR_(x)

int tui_launcher_argv(const struct tui_app *app, const char **argv, int max)
{
    int n = 0;
    if (n < max)
        argv[n++] = eng_self_exe(app->g->argv0);
    if (app->g->db_path && n + 2 <= max) {
        argv[n++] = "--db";
        argv[n++] = app->g->db_path;
    }
    return n;
}

void tui_launcher_run_argv(const struct tui_app *app, const struct tui_run_opts *o,
                           struct tui_argv *cmd)
{
    const char **argv = cmd->v;
    int k = tui_launcher_argv(app, argv, 3);
    argv[k++] = "run";
    for (int i = 0; i < o->n_target && i < 4; i++)
        argv[k++] = o->target[i];
    if (o->backend) {
        argv[k++] = "--backend";
        argv[k++] = o->backend;
        snprintf(cmd->num[0], sizeof cmd->num[0], "%d", o->device);
        argv[k++] = "--device";
        argv[k++] = cmd->num[0];
    }
    argv[k++] = "--variant";
    argv[k++] = o->variant;
    if (o->repeats > 0) {
        snprintf(cmd->num[1], sizeof cmd->num[1], "%d", o->repeats);
        argv[k++] = "--repeat";
        argv[k++] = cmd->num[1];
    }
    if (o->lag) {
        argv[k++] = "--lag";
        argv[k++] = o->lag;
    }
    for (int i = 0; i < o->n_extra && i < TUI_ARGV_EXTRA; i++)
        argv[k++] = o->extra[i];
    snprintf(cmd->num[2], sizeof cmd->num[2], "%d", o->timeout_s);
    argv[k++] = "--timeout";
    argv[k++] = cmd->num[2];
    argv[k++] = "--no-progress";
    argv[k++] = "--events";
    argv[k++] = STR(TUI_CHILD_EVENTS_FD);
    argv[k] = NULL;
}

void tui_launcher_cmdline(const char *const *argv, char *buf, size_t len)
{
    size_t o = 0;
    buf[0] = '\0';
    for (int i = 0; argv[i] && o < len; i++) {
        if (!strcmp(argv[i], "--events") || (i > 0 && !strcmp(argv[i - 1], "--events")))
            continue;
        o += (size_t)snprintf(buf + o, len - o, "%s%s", i ? " " : "", i == 0 ? "kladder" : argv[i]);
    }
}

struct tui_child *tui_launcher_start(struct tui_app *app, const char *const *argv, bool events,
                                     void (*on_line)(void *ctx, enum tui_child_stream s,
                                                     const char *line),
                                     void (*on_exit)(struct tui_app *app, void *ctx), void *ctx,
                                     char *err, size_t errlen)
{
    struct tui_child *c = tui_child_spawn(argv, events, err, errlen);
    if (!c)
        return NULL;
    struct tui_job job = {.child = c, .on_line = on_line, .on_exit = on_exit, .ctx = ctx};
    if (!tui_app_watch(app, &job)) {
        tui_child_free(c);
        snprintf(err, errlen, "%s", tui_tr(app, "Too many tasks at once", "同时进行的任务太多"));
        return NULL;
    }
    return c;
}
