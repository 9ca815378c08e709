#include "tui/child.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "common/xalloc.h"

extern char **environ;

#define TAIL_MAX 2048

struct pipe_in {
    int fd;     /* -1 once closed */
    char *buf;  /* the line being gathered */
    size_t len;
    bool cut;   /* the current line passed TUI_CHILD_LINE_MAX: drop until its newline */
};

struct tui_child {
    pid_t pid;
    struct pipe_in p[2]; /* [TUI_CHILD_OUT], [TUI_CHILD_EVENTS] */
    bool reaped;
    int status;
    bool cancelled;
    struct timespec t0, cancel_at;
    bool killed;
    char tail[TAIL_MAX + 1];
    size_t tail_len;
};

static long ms_since(const struct timespec *t)
{
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return (long)(now.tv_sec - t->tv_sec) * 1000 + (now.tv_nsec - t->tv_nsec) / 1000000;
}

/* A pipe whose both ends sit above descriptor 3 and close on exec: the spawn's dup2 onto 1, 2
 * and 3 then never meets an end already in place (dup2 onto itself would keep CLOEXEC). */
static int high_pipe(int fds[2], char *err, size_t errlen)
{
    int raw[2];
    if (pipe(raw) != 0) {
        snprintf(err, errlen, "cannot create a pipe: %s", strerror(errno));
        return -1;
    }
    for (int i = 0; i < 2; i++) {
        fds[i] = fcntl(raw[i], F_DUPFD_CLOEXEC, 10);
        close(raw[i]);
        if (fds[i] < 0) {
            snprintf(err, errlen, "cannot duplicate a pipe: %s", strerror(errno));
            if (i == 1)
                close(fds[0]);
            else
                close(raw[1]);
            return -1;
        }
    }
    fcntl(fds[0], F_SETFL, fcntl(fds[0], F_GETFL) | O_NONBLOCK);
    return 0;
}

struct tui_child *tui_child_spawn(const char *const *argv, bool events, char *err, size_t errlen)
{
    int out[2], ev[2] = {-1, -1};
    if (high_pipe(out, err, errlen) != 0)
        return NULL;
    if (events && high_pipe(ev, err, errlen) != 0) {
        close(out[0]);
        close(out[1]);
        return NULL;
    }
    posix_spawn_file_actions_t fa;
    posix_spawnattr_t at;
    posix_spawn_file_actions_init(&fa);
    posix_spawnattr_init(&at);
    posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
    posix_spawn_file_actions_adddup2(&fa, out[1], 1);
    posix_spawn_file_actions_adddup2(&fa, out[1], 2);
    if (events)
        posix_spawn_file_actions_adddup2(&fa, ev[1], TUI_CHILD_EVENTS_FD);
    /* Its own process group; default signal handling and an empty mask, whatever ours are. */
    sigset_t none, deflt;
    sigemptyset(&none);
    sigemptyset(&deflt);
    sigaddset(&deflt, SIGINT);
    sigaddset(&deflt, SIGTERM);
    sigaddset(&deflt, SIGPIPE);
    sigaddset(&deflt, SIGCHLD);
    posix_spawnattr_setsigmask(&at, &none);
    posix_spawnattr_setsigdefault(&at, &deflt);
    posix_spawnattr_setpgroup(&at, 0);
    posix_spawnattr_setflags(&at, POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGMASK |
                                      POSIX_SPAWN_SETSIGDEF);
    pid_t pid;
    /* posix_spawn takes char *const[]; it does not write through them. */
    char *const *av;
    memcpy(&av, &argv, sizeof av);
    int rc = posix_spawn(&pid, argv[0], &fa, &at, av, environ);
    posix_spawn_file_actions_destroy(&fa);
    posix_spawnattr_destroy(&at);
    close(out[1]);
    if (events)
        close(ev[1]);
    if (rc != 0) {
        snprintf(err, errlen, "cannot start %s: %s", argv[0], strerror(rc));
        close(out[0]);
        if (events)
            close(ev[0]);
        return NULL;
    }
    struct tui_child *c = xcalloc(1, sizeof *c);
    c->pid = pid;
    c->p[TUI_CHILD_OUT].fd = out[0];
    c->p[TUI_CHILD_EVENTS].fd = events ? ev[0] : -1;
    clock_gettime(CLOCK_MONOTONIC, &c->t0);
    return c;
}

static void tail_add(struct tui_child *c, const char *line)
{
    size_t n = strlen(line);
    if (n > TAIL_MAX / 2)
        line += n - TAIL_MAX / 2, n = TAIL_MAX / 2;
    if (c->tail_len + n + 1 > TAIL_MAX) {
        /* Keep the newest lines: drop whole lines from the front. */
        size_t drop = c->tail_len + n + 1 - TAIL_MAX;
        char *nl = memchr(c->tail + drop, '\n', c->tail_len - drop);
        drop = nl ? (size_t)(nl - c->tail) + 1 : c->tail_len;
        memmove(c->tail, c->tail + drop, c->tail_len - drop);
        c->tail_len -= drop;
    }
    if (c->tail_len)
        c->tail[c->tail_len++] = '\n';
    memcpy(c->tail + c->tail_len, line, n);
    c->tail_len += n;
    c->tail[c->tail_len] = '\0';
}

typedef void (*line_fn)(void *ctx, enum tui_child_stream s, const char *line);

static void deliver(struct tui_child *c, enum tui_child_stream s, const char *line, line_fn fn,
                    void *ctx)
{
    if (s == TUI_CHILD_OUT)
        tail_add(c, line);
    if (fn)
        fn(ctx, s, line);
}

/* Reads until the pipe is empty or closed; returns true when anything arrived or it closed. */
static bool drain(struct tui_child *c, enum tui_child_stream s, line_fn fn, void *ctx)
{
    struct pipe_in *p = &c->p[s];
    bool any = false;
    char chunk[8192];
    while (p->fd >= 0) {
        ssize_t n = read(p->fd, chunk, sizeof chunk);
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK))
            break;
        any = true;
        if (n <= 0) { /* end of file (or an error: treat it the same) */
            if (p->len && !p->cut) {
                p->buf[p->len] = '\0';
                deliver(c, s, p->buf, fn, ctx);
            }
            close(p->fd);
            p->fd = -1;
            free(p->buf);
            p->buf = NULL;
            p->len = 0;
            break;
        }
        for (ssize_t i = 0; i < n; i++) {
            char ch = chunk[i];
            if (ch == '\n') {
                if (!p->cut) {
                    if (!p->buf)
                        p->buf = xmalloc(TUI_CHILD_LINE_MAX + 1);
                    p->buf[p->len] = '\0';
                    deliver(c, s, p->buf, fn, ctx);
                }
                p->len = 0;
                p->cut = false;
                continue;
            }
            if (p->cut)
                continue;
            if (!p->buf)
                p->buf = xmalloc(TUI_CHILD_LINE_MAX + 1);
            if (p->len == TUI_CHILD_LINE_MAX) {
                /* Deliver what fits and drop the rest of the line. */
                p->buf[p->len] = '\0';
                deliver(c, s, p->buf, fn, ctx);
                p->len = 0;
                p->cut = true;
                continue;
            }
            p->buf[p->len++] = ch;
        }
    }
    return any;
}

static void close_pipes(struct tui_child *c)
{
    for (int i = 0; i < 2; i++) {
        if (c->p[i].fd >= 0)
            close(c->p[i].fd);
        c->p[i].fd = -1;
        free(c->p[i].buf);
        c->p[i].buf = NULL;
        c->p[i].len = 0;
    }
}

static void set_status(struct tui_child *c, int st)
{
    c->reaped = true;
    c->status = WIFEXITED(st) ? WEXITSTATUS(st) : WIFSIGNALED(st) ? 128 + WTERMSIG(st) : 255;
}

bool tui_child_pump(struct tui_child *c, line_fn on_line, void *ctx)
{
    if (!c || c->reaped)
        return false;
    bool any = drain(c, TUI_CHILD_OUT, on_line, ctx);
    any |= drain(c, TUI_CHILD_EVENTS, on_line, ctx);
    if (c->cancelled && !c->killed && ms_since(&c->cancel_at) >= TUI_CHILD_GRACE_MS) {
        kill(-c->pid, SIGKILL);
        kill(c->pid, SIGKILL);
        c->killed = true;
    }
    int st;
    pid_t r = waitpid(c->pid, &st, WNOHANG);
    if (r == c->pid) {
        /* What the child wrote before it exited is in the pipes: take it, then close them even
         * when a grandchild still holds the write ends (it would keep them open forever). */
        drain(c, TUI_CHILD_OUT, on_line, ctx);
        drain(c, TUI_CHILD_EVENTS, on_line, ctx);
        close_pipes(c);
        set_status(c, st);
        any = true;
    } else if (r < 0 && errno == ECHILD) {
        close_pipes(c);
        c->reaped = true;
        c->status = 255;
        any = true;
    }
    return any;
}

void tui_child_fds(const struct tui_child *c, int out[2])
{
    out[0] = c && !c->reaped ? c->p[0].fd : -1;
    out[1] = c && !c->reaped ? c->p[1].fd : -1;
}

void tui_child_cancel(struct tui_child *c)
{
    if (!c || c->reaped || c->cancelled)
        return;
    c->cancelled = true;
    clock_gettime(CLOCK_MONOTONIC, &c->cancel_at);
    kill(c->pid, SIGTERM);
}

bool tui_child_cancelled(const struct tui_child *c)
{
    return c && c->cancelled;
}

bool tui_child_done(const struct tui_child *c)
{
    return !c || c->reaped;
}

int tui_child_status(const struct tui_child *c)
{
    return c ? c->status : 0;
}

pid_t tui_child_pid(const struct tui_child *c)
{
    return c ? c->pid : -1;
}

const char *tui_child_tail(const struct tui_child *c)
{
    return c ? c->tail : "";
}

long tui_child_elapsed_ms(const struct tui_child *c)
{
    return c ? ms_since(&c->t0) : 0;
}

void tui_child_free(struct tui_child *c)
{
    if (!c)
        return;
    if (!c->reaped) {
        kill(-c->pid, SIGKILL);
        kill(c->pid, SIGKILL);
        int st;
        while (waitpid(c->pid, &st, 0) < 0 && errno == EINTR)
            ;
    }
    close_pipes(c);
    free(c);
}

int tui_child_wait(int fd, struct tui_child *const *children, size_t n, const int *extra,
                   size_t nextra, int timeout_ms)
{
    struct pollfd p[1 + 2 * 8 + 8];
    nfds_t np = 0;
    if (fd >= 0)
        p[np++] = (struct pollfd){.fd = fd, .events = POLLIN};
    for (size_t i = 0; i < n && np + 2 <= sizeof p / sizeof p[0]; i++) {
        int f[2];
        tui_child_fds(children[i], f);
        for (int k = 0; k < 2; k++)
            if (f[k] >= 0)
                p[np++] = (struct pollfd){.fd = f[k], .events = POLLIN};
    }
    for (size_t i = 0; i < nextra && np < sizeof p / sizeof p[0]; i++)
        p[np++] = (struct pollfd){.fd = extra[i], .events = POLLIN};
    int r = poll(p, np, timeout_ms);
    if (r <= 0 || fd < 0)
        return 0;
    return (p[0].revents & (POLLIN | POLLHUP | POLLERR)) ? 1 : 0;
}
