#include "engine/toolchain/tool_run.h"

#include <errno.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
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
    for (;;) {
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
