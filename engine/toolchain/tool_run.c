#include "engine/toolchain/tool_run.h"

#include <dirent.h>
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

/* The processes whose parent is one of pids[0..n), appended to pids (growing it); how many
 * there are now. Read from /proc: a compiler driver's children (cc1plus, lld) are not ours. */
static size_t add_children(pid_t **pids, size_t n, size_t *cap)
{
    DIR *d = opendir("/proc");
    if (!d)
        return n;
    struct dirent *e;
    while ((e = readdir(d))) {
        if (e->d_name[0] < '1' || e->d_name[0] > '9')
            continue;
        char path[300], line[512];
        snprintf(path, sizeof path, "/proc/%s/stat", e->d_name);
        FILE *f = fopen(path, "r");
        if (!f)
            continue;
        size_t got = fread(line, 1, sizeof line - 1, f);
        fclose(f);
        line[got] = '\0';
        const char *rp = strrchr(line, ')'); /* the name may hold spaces and parentheses */
        int ppid;
        if (!rp || sscanf(rp + 1, " %*c %d", &ppid) != 1)
            continue;
        pid_t pid = (pid_t)atoi(e->d_name);
        bool parent = false, known = false;
        for (size_t i = 0; i < n; i++) {
            parent |= (*pids)[i] == (pid_t)ppid;
            known |= (*pids)[i] == pid;
        }
        if (!parent || known)
            continue;
        if (n == *cap) {
            *cap = *cap ? *cap * 2 : 16;
            *pids = xrealloc(*pids, *cap * sizeof **pids);
        }
        (*pids)[n++] = pid;
    }
    closedir(d);
    return n;
}

/* Stops a tool and every process it started. The tool runs in its caller's process group (so
 * that whoever stops the caller, a scan's time limit or a run's watchdog killing a worker's
 * group, stops the compiler with it: a compiler left behind by a killed caller had no limit
 * at all); here its descendants are found by their parents, each round after the last kill,
 * until none is left. */
static void kill_tree(pid_t root)
{
    size_t cap = 16, n = 1;
    pid_t *pids = xmalloc(cap * sizeof *pids);
    pids[0] = root;
    for (int round = 0; round < 8; round++) {
        size_t before = n;
        n = add_children(&pids, n, &cap);
        for (size_t i = 0; i < n; i++)
            kill(pids[i], SIGSTOP); /* nothing new is started while the tree is read */
        if (n == before && round > 0)
            break;
    }
    for (size_t i = 0; i < n; i++) {
        kill(pids[i], SIGKILL);
        kill(pids[i], SIGCONT);
    }
    free(pids);
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
    /* in the caller's process group (kill_tree says why); at the limit the tool and its
     * children (cc1plus) are stopped, and only then does the pipe they hold close */
    pid_t pid;
    int rc = posix_spawn(&pid, argv[0], &fa, NULL, argv, envp);
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
                kill_tree(pid);
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
