#include "engine/toolchain/tool_run.h"

#include <errno.h>
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
#include "engine/toolchain/cache_env.h"

extern char **environ;

int eng_tool_run(char *const argv[], char *out, size_t outlen)
{
    return eng_tool_run_env(argv, environ, out, outlen);
}

int eng_tool_run_env(char *const argv[], char *const envp[], char *out, size_t outlen)
{
    return eng_tool_run_limit(argv, envp, 0, out, outlen);
}

static double now_s(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

int eng_tool_run_limit(char *const argv[], char *const envp[], double limit_s, char *out,
                       size_t outlen)
{
    int fds[2];
    if (pipe(fds) != 0) {
        if (out && outlen)
            snprintf(out, outlen, "cannot run %s: pipe: %s", argv[0], strerror(errno));
        return -1;
    }
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_adddup2(&fa, fds[1], 1);
    posix_spawn_file_actions_adddup2(&fa, fds[1], 2);
    posix_spawn_file_actions_addclose(&fa, fds[0]);
    /* a process group of its own: a compiler driver's children (cc1plus) are stopped with it,
     * and only then does the pipe they hold close */
    posix_spawnattr_t at;
    posix_spawnattr_init(&at);
    posix_spawnattr_setflags(&at, POSIX_SPAWN_SETPGROUP);
    posix_spawnattr_setpgroup(&at, 0);
    pid_t pid;
    int rc = posix_spawn(&pid, argv[0], &fa, &at, argv, envp);
    posix_spawnattr_destroy(&at);
    posix_spawn_file_actions_destroy(&fa);
    close(fds[1]);
    if (rc != 0) {
        close(fds[0]);
        if (out && outlen)
            snprintf(out, outlen, "cannot run %s: %s", argv[0], strerror(rc));
        return -1;
    }
    size_t used = 0;
    char buf[4096];
    const double deadline = limit_s > 0 ? now_s() + limit_s : 0;
    bool timed_out = false;
    for (;;) {
        if (limit_s > 0) {
            double left = deadline - now_s();
            struct pollfd pfd = {.fd = fds[0], .events = POLLIN};
            int pr = left > 0 ? poll(&pfd, 1, (int)(left * 1000) + 1) : 0;
            if (pr < 0 && errno == EINTR)
                continue;
            if (pr == 0) {
                timed_out = true;
                kill(-pid, SIGKILL);
                break;
            }
        }
        ssize_t n = read(fds[0], buf, sizeof buf);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            break;
        if (out && used + 1 < outlen) {
            size_t k = (size_t)n < outlen - 1 - used ? (size_t)n : outlen - 1 - used;
            memcpy(out + used, buf, k);
            used += k;
        }
    }
    if (out && outlen)
        out[used] = '\0';
    close(fds[0]);
    int status;
    while (waitpid(pid, &status, 0) < 0)
        if (errno != EINTR)
            return -1;
    if (timed_out) {
        if (out && outlen)
            snprintf(out, outlen, "%s did not finish within %g s and was stopped (an input "
                     "that never ends: a FIFO, a device?)", argv[0], limit_s);
        return ENG_TOOL_TIMED_OUT;
    }
    return WIFEXITED(status) ? WEXITSTATUS(status)
                             : 128 + (WIFSIGNALED(status) ? WTERMSIG(status) : 0);
}

bool eng_tool_find(const char *name, char *out, size_t outlen)
{
    if (strchr(name, '/')) {
        snprintf(out, outlen, "%s", name);
        return access(out, X_OK) == 0;
    }
    const char *path = eng_compile_getenv("PATH");
    if (!path || !*path)
        path = "/usr/local/bin:/usr/bin:/bin";
    while (*path) {
        const char *colon = strchr(path, ':');
        size_t len = colon ? (size_t)(colon - path) : strlen(path);
        snprintf(out, outlen, "%.*s/%s", (int)len, len ? path : ".", name);
        if (access(out, X_OK) == 0)
            return true;
        path += len + (colon ? 1 : 0);
    }
    return false;
}

char *eng_tool_tmpdir(const char *prefix, char *err, size_t errlen)
{
    const char *t = eng_compile_getenv("TMPDIR");
    char *dir = xasprintf("%s/%s-XXXXXX", t && *t ? t : "/tmp", prefix);
    if (!mkdtemp(dir)) {
        snprintf(err, errlen, "cannot create a temporary folder %s: %s", dir, strerror(errno));
        free(dir);
        return NULL;
    }
    return dir;
}
