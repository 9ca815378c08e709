#define _GNU_SOURCE
#include "engine/watchdog/watchdog.h"

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <limits.h>
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
#include "engine/watchdog/fair_clock.h"

extern char **environ;

static volatile sig_atomic_t cancel_flag;
static volatile pid_t current_child;

static void on_signal(int sig)
{
    (void)sig;
    cancel_flag = 1;
    pid_t c = current_child;
    if (c > 0)
        kill(-c, SIGKILL);
}

void eng_watchdog_install(void)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_signal;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);
    /* A worker that dies while we write its job must not kill us. */
    signal(SIGPIPE, SIG_IGN);
}

bool eng_cancelled(void) { return cancel_flag != 0; }

const char *eng_self_exe(const char *argv0)
{
    static char buf[PATH_MAX];
    ssize_t n = readlink("/proc/self/exe", buf, sizeof buf - 1);
    if (n > 0) {
        buf[n] = '\0';
        return buf;
    }
    return argv0;
}

/* Killed workers that had not finished dying when their verdict was given. */
static pid_t dying[64];
static int ndying;

static void reap_dying(bool block)
{
    for (int i = 0; i < ndying;) {
        int st;
        pid_t r = waitpid(dying[i], &st, block ? 0 : WNOHANG);
        if (r == 0) {
            i++;
            continue;
        }
        dying[i] = dying[--ndying];
    }
}

void eng_watchdog_reap(void) { reap_dying(true); }

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

void eng_worker_result_free(struct eng_worker_result *r)
{
    free(r->answer);
    r->answer = NULL;
}

struct eng_worker {
    pid_t pid;
    int in, out, err;    /* its stdin (ours to write), stdout and stderr (ours to read) */
    char *buf;           /* stdout bytes not yet split into lines */
    size_t used;
    bool ended;          /* killed, exited, or said it takes no more jobs */
    bool reaped;
    bool err_closed;
    int status;          /* once reaped */
    char tail[2048];     /* stderr since the current job (or the worker's end) began */
    size_t tail_len;
};

#define LINE_CAP ((size_t)1 << 16)

struct eng_worker *eng_worker_start_under(char *const *prefix, const char *exe, char *err,
                                          size_t errlen)
{
    reap_dying(false);
    int in[2], out[2], er[2];
    if (pipe2(in, O_CLOEXEC) || pipe2(out, O_CLOEXEC) || pipe2(er, O_CLOEXEC)) {
        snprintf(err, errlen, "cannot create pipes for a worker: %s", strerror(errno));
        return NULL;
    }
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_adddup2(&fa, in[0], 0);
    posix_spawn_file_actions_adddup2(&fa, out[1], 1);
    posix_spawn_file_actions_adddup2(&fa, er[1], 2);
    posix_spawnattr_t at;
    posix_spawnattr_init(&at);
    posix_spawnattr_setflags(&at, POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGDEF);
    posix_spawnattr_setpgroup(&at, 0);
    sigset_t def;
    sigemptyset(&def);
    sigaddset(&def, SIGINT);
    sigaddset(&def, SIGTERM);
    sigaddset(&def, SIGPIPE);
    posix_spawnattr_setsigdefault(&at, &def);
    static char a_run[] = "run", a_worker[] = "--worker";
    size_t np = 0;
    while (prefix && prefix[np])
        np++;
    char **argv = xcalloc(np + 4, sizeof *argv);
    for (size_t i = 0; i < np; i++)
        argv[i] = prefix[i];
    argv[np] = (char *)(uintptr_t)exe;
    argv[np + 1] = a_run;
    argv[np + 2] = a_worker;
    pid_t pid;
    /* under a prefix (a sanitizer), the prefix's program is what runs; it starts the worker */
    const char *prog = np ? prefix[0] : exe;
    int rc = posix_spawn(&pid, prog, &fa, &at, argv, environ);
    free(argv);
    posix_spawn_file_actions_destroy(&fa);
    posix_spawnattr_destroy(&at);
    close(in[0]);
    close(out[1]);
    close(er[1]);
    if (rc != 0) {
        close(in[1]);
        close(out[0]);
        close(er[0]);
        snprintf(err, errlen, "cannot start a worker (%s): %s", prog, strerror(rc));
        return NULL;
    }
    struct eng_worker *w = xcalloc(1, sizeof *w);
    w->pid = pid;
    w->in = in[1];
    w->out = out[0];
    w->err = er[0];
    w->buf = xmalloc(LINE_CAP);
    /* its children (a compiler) share the pipe: reading what is there must never wait on them */
    fcntl(w->err, F_SETFL, fcntl(w->err, F_GETFL) | O_NONBLOCK);
    current_child = pid;
    if (cancel_flag)
        kill(-pid, SIGKILL);
    return w;
}

bool eng_worker_ended(const struct eng_worker *w) { return w->ended; }

/* Keeps the last part of the worker's stderr: sanitizer reports end with the useful lines. */
static void tail_add(struct eng_worker *w, const char *p, size_t k)
{
    size_t cap = sizeof w->tail - 1;
    for (size_t i = 0; i < k; i++) {
        if (w->tail_len == cap) {
            memmove(w->tail, w->tail + cap / 2, cap - cap / 2);
            w->tail_len = cap - cap / 2;
        }
        w->tail[w->tail_len++] = p[i];
    }
    w->tail[w->tail_len] = '\0';
}

static void drain_stderr(struct eng_worker *w)
{
    char tmp[1024];
    ssize_t k;
    while ((k = read(w->err, tmp, sizeof tmp)) > 0)
        tail_add(w, tmp, (size_t)k);
}

/* Waits for the worker's exit for up to grace_s, then kills its group. A process that takes
 * long to die (a sanitizer's shadow memory, hundreds of threads) is reaped later: the verdict
 * does not wait for it. */
static void reap(struct eng_worker *w, double grace_s, bool kill_first)
{
    if (w->reaped)
        return;
    if (kill_first)
        kill(-w->pid, SIGKILL);
    int status = 0;
    pid_t got = 0;
    double until = now_s() + grace_s;
    while ((got = waitpid(w->pid, &status, WNOHANG)) == 0 && now_s() < until) {
        struct timespec ts = {0, 5000000};
        nanosleep(&ts, NULL);
        if (cancel_flag && !kill_first) {
            kill(-w->pid, SIGKILL);
            kill_first = true;
        }
    }
    if (got == 0 && !kill_first) {
        kill(-w->pid, SIGKILL);
        for (int i = 0; i < 100 && (got = waitpid(w->pid, &status, WNOHANG)) == 0; i++) {
            struct timespec ts = {0, 10000000};
            nanosleep(&ts, NULL);
        }
    }
    if (got == 0) {
        if (ndying < (int)(sizeof dying / sizeof *dying))
            dying[ndying++] = w->pid;
        else
            waitpid(w->pid, &status, 0);
        status = SIGKILL; /* as if signalled */
    }
    if (current_child == w->pid)
        current_child = 0;
    w->status = WIFEXITED(status) ? WEXITSTATUS(status)
                                  : 128 + (WIFSIGNALED(status) ? WTERMSIG(status) : 0);
    w->reaped = true;
    w->ended = true;
}

/* One line of the worker's stdout: {"ready": true}, or the job's answer. Returns true for the
 * answer. */
static bool take_line(struct eng_worker *w, struct eng_worker_result *r, const char *line,
                      double *deadline, double limit_s, double *ready_at, double fair)
{
    /* a line of a sanitizer the worker runs under (its banner, when it writes to stdout
     * despite --log-file) is never the answer */
    if (!strncmp(line, "=========", 9))
        return false;
    if (strstr(line, "\"ready\"") && strlen(line) < 40) {
        if (!r->ready) {
            r->ready = true;
            *ready_at = now_s();
            *deadline = fair + limit_s;
        }
        return false;
    }
    free(r->answer);
    r->answer = xstrdup(line);
    /* {"result": ..., "last": true}: the worker leaves after this answer */
    if (strstr(line, "\"last\":true"))
        w->ended = true;
    return true;
}

int eng_worker_job(struct eng_worker *w, const char *job, double setup_limit_s, double limit_s,
                   struct eng_worker_result *r, char *err, size_t errlen)
{
    memset(r, 0, sizeof *r);
    if (w->ended) {
        snprintf(err, errlen, "the worker has ended; start another");
        return -1;
    }
    w->tail_len = 0;
    w->tail[0] = '\0';
    current_child = w->pid;
    if (cancel_flag)
        kill(-w->pid, SIGKILL);
    /* The worker reads the whole line before it writes anything, so this write cannot
     * deadlock against its output; a worker that died makes it fail (SIGPIPE is ignored). */
    size_t jl = strlen(job);
    bool sent = true;
    for (size_t off = 0; off < jl && sent;) {
        ssize_t k = write(w->in, job + off, jl - off);
        if (k < 0 && errno == EINTR)
            continue;
        sent = k > 0;
        off += k > 0 ? (size_t)k : 0;
    }
    sent = sent && write(w->in, "\n", 1) == 1;

    /* the limits are kept on the fair clock (a crowded machine is not a hang), the elapsed
     * time on the wall clock */
    struct eng_fair_clock clock;
    eng_fair_clock_start(&clock, w->pid);
    double start = now_s(), ready_at = start, deadline = setup_limit_s, killed_at = 0, fair = 0;
    bool answered = false, out_open = sent;
    while (out_open && !answered) {
        fair = eng_fair_clock_now(&clock);
        double left = deadline - fair;
        if (left <= 0) {
            r->killed = true;
            killed_at = now_s();
            break;
        }
        struct pollfd p[2] = {{w->out, POLLIN, 0}, {w->err_closed ? -1 : w->err, POLLIN, 0}};
        int n = poll(p, 2, left > 0.2 ? 200 : (int)(left * 1000) + 1);
        if (n < 0 && errno != EINTR)
            break;
        if (cancel_flag) {
            r->cancelled = true;
            break;
        }
        if (n <= 0)
            continue;
        if (p[1].revents & (POLLIN | POLLHUP | POLLERR)) {
            char tmp[1024];
            ssize_t k = read(w->err, tmp, sizeof tmp);
            if (k > 0)
                tail_add(w, tmp, (size_t)k);
            else if (k == 0)
                w->err_closed = true; /* only at its end: the stdout side tells the rest */
        }
        if (p[0].revents & (POLLIN | POLLHUP | POLLERR)) {
            if (w->used + 4096 > LINE_CAP)
                w->used = 0; /* an absurdly long line: drop it */
            ssize_t k = read(w->out, w->buf + w->used, LINE_CAP - w->used - 1);
            if (k < 0 && errno == EINTR)
                continue;
            if (k <= 0) {
                out_open = false;
                break;
            }
            w->used += (size_t)k;
            char *nl;
            while (!answered && (nl = memchr(w->buf, '\n', w->used))) {
                *nl = '\0';
                answered = take_line(w, r, w->buf, &deadline, limit_s, &ready_at, fair);
                size_t rest = w->used - (size_t)(nl + 1 - w->buf);
                memmove(w->buf, nl + 1, rest);
                w->used = rest;
            }
        }
    }
    double end = r->killed ? killed_at : now_s();
    if (r->killed || r->cancelled) {
        reap(w, 0, true);
    } else if (!answered || w->ended) {
        /* it died (no answer), or said this was its last job: its status says how it ended */
        reap(w, 30, false);
        drain_stderr(w);
    }
    r->status = w->reaped ? w->status : 0;
    r->elapsed_s = end - (r->ready ? ready_at : start);
    snprintf(r->stderr_tail, sizeof r->stderr_tail, "%s", w->tail);
    if (current_child == w->pid && w->reaped)
        current_child = 0;
    return 0;
}

int eng_worker_stop(struct eng_worker *w, double grace_s, char *tail, size_t taillen)
{
    if (!w)
        return 0;
    if (w->in >= 0) {
        close(w->in); /* end of jobs: the worker finishes and exits */
        w->in = -1;
    }
    if (!w->reaped) {
        w->tail_len = 0;
        w->tail[0] = '\0';
        reap(w, grace_s, false);
        drain_stderr(w);
    }
    int status = w->status;
    if (tail)
        snprintf(tail, taillen, "%s", w->tail);
    close(w->out);
    close(w->err);
    free(w->buf);
    free(w);
    return status;
}
