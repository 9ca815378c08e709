#define _GNU_SOURCE
#include "engine/watchdog.h"

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

static void take_line(struct eng_worker_result *r, const char *line, double *deadline,
                      double limit_s, double *ready_at)
{
    if (strstr(line, "\"ready\"") && strlen(line) < 40) {
        if (!r->ready) {
            r->ready = true;
            *ready_at = now_s();
            *deadline = *ready_at + limit_s;
        }
        return;
    }
    free(r->answer);
    r->answer = xstrdup(line);
}

int eng_worker_run(const char *exe, const char *job, double setup_limit_s, double limit_s,
                   struct eng_worker_result *r, char *err, size_t errlen)
{
    memset(r, 0, sizeof *r);
    reap_dying(false);
    int in[2], out[2], er[2];
    if (pipe2(in, O_CLOEXEC) || pipe2(out, O_CLOEXEC) || pipe2(er, O_CLOEXEC)) {
        snprintf(err, errlen, "cannot create pipes for a worker: %s", strerror(errno));
        return -1;
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
    char *argv[] = {(char *)(uintptr_t)exe, a_run, a_worker, NULL};
    pid_t pid;
    int rc = posix_spawn(&pid, exe, &fa, &at, argv, environ);
    posix_spawn_file_actions_destroy(&fa);
    posix_spawnattr_destroy(&at);
    close(in[0]);
    close(out[1]);
    close(er[1]);
    if (rc != 0) {
        close(in[1]);
        close(out[0]);
        close(er[0]);
        snprintf(err, errlen, "cannot start a worker (%s): %s", exe, strerror(rc));
        return -1;
    }
    current_child = pid;
    if (cancel_flag)
        kill(-pid, SIGKILL);
    /* The job is one short line: the pipe buffer holds it, so this cannot block for long. */
    size_t jl = strlen(job);
    if (write(in[1], job, jl) != (ssize_t)jl || write(in[1], "\n", 1) != 1) {
        /* the worker died at once; its status says why */
    }
    close(in[1]);

    double start = now_s(), ready_at = start, deadline = start + setup_limit_s, killed_at = 0;
    char *buf = xmalloc(1 << 16);
    size_t used = 0;
    size_t tail_len = 0;
    bool out_open = true, err_open = true;
    while (out_open || err_open) {
        double left = deadline - now_s();
        if (left <= 0) {
            kill(-pid, SIGKILL);
            r->killed = true;
            killed_at = now_s();
            break;
        }
        struct pollfd p[2] = {{out_open ? out[0] : -1, POLLIN, 0}, {err_open ? er[0] : -1, POLLIN, 0}};
        int n = poll(p, 2, left > 0.2 ? 200 : (int)(left * 1000) + 1);
        if (n < 0 && errno != EINTR)
            break;
        if (cancel_flag) {
            kill(-pid, SIGKILL);
            r->cancelled = true;
            break;
        }
        if (n <= 0)
            continue;
        if (out_open && (p[0].revents & (POLLIN | POLLHUP | POLLERR))) {
            if (used + 4096 > (1 << 16))
                used = 0; /* an absurdly long line: drop it */
            ssize_t k = read(out[0], buf + used, (1 << 16) - used - 1);
            if (k <= 0) {
                out_open = false;
            } else {
                used += (size_t)k;
                buf[used] = '\0';
                char *nl;
                while ((nl = memchr(buf, '\n', used))) {
                    *nl = '\0';
                    take_line(r, buf, &deadline, limit_s, &ready_at);
                    size_t rest = used - (size_t)(nl + 1 - buf);
                    memmove(buf, nl + 1, rest);
                    used = rest;
                    buf[used] = '\0';
                }
            }
        }
        if (err_open && (p[1].revents & (POLLIN | POLLHUP | POLLERR))) {
            char tmp[1024];
            ssize_t k = read(er[0], tmp, sizeof tmp);
            if (k <= 0) {
                err_open = false;
            } else {
                /* Keep the last part: sanitizer reports end with the useful lines. */
                size_t cap = sizeof r->stderr_tail - 1;
                for (ssize_t i = 0; i < k; i++) {
                    if (tail_len == cap) {
                        memmove(r->stderr_tail, r->stderr_tail + cap / 2, cap - cap / 2);
                        tail_len = cap - cap / 2;
                    }
                    r->stderr_tail[tail_len++] = tmp[i];
                }
                r->stderr_tail[tail_len] = '\0';
            }
        }
    }
    if (used && !r->killed && !r->cancelled) {
        buf[used] = '\0';
        take_line(r, buf, &deadline, limit_s, &ready_at);
    }
    free(buf);
    close(out[0]);
    close(er[0]);
    int status = 0;
    if (r->killed || r->cancelled) {
        /* A large process can take seconds to die (a sanitizer's shadow memory, hundreds of
         * threads): the verdict does not wait for that; the process is reaped later. */
        pid_t got = 0;
        for (int i = 0; i < 100 && (got = waitpid(pid, &status, WNOHANG)) == 0; i++) {
            struct timespec ts = {0, 10000000};
            nanosleep(&ts, NULL);
        }
        if (got == 0) {
            if (ndying < (int)(sizeof dying / sizeof *dying))
                dying[ndying++] = pid;
            else
                waitpid(pid, &status, 0);
            status = SIGKILL; /* as if signalled */
        }
    } else {
        while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
            ;
    }
    current_child = 0;
    r->status = WIFEXITED(status) ? WEXITSTATUS(status)
                                  : 128 + (WIFSIGNALED(status) ? WTERMSIG(status) : 0);
    r->elapsed_s = (r->killed ? killed_at : now_s()) - (r->ready ? ready_at : start);
    return 0;
}
