/* `kladder exec`'s parent side (prog.h): compile the file whole with its host code made to run,
 * then run it in a child process under a time limit and judge what came back. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "common/embed.h"
#include "common/xalloc.h"
#include "engine/cache/cache.h"
#include "engine/compile/compile_spec.h"
#include "engine/compile/plain_source.h"
#include "engine/manifest.h"
#include "engine/prog/prog.h"

const char *eng_prog_verdict_name(enum eng_prog_verdict v)
{
    switch (v) {
    case ENG_PROG_PASS: return "pass";
    case ENG_PROG_FINDING: return "finding";
    case ENG_PROG_FAILED: return "failed";
    case ENG_PROG_CRASH: return "crash";
    case ENG_PROG_HANG: return "hang";
    case ENG_PROG_ERROR: return "error";
    }
    return "error";
}

void eng_prog_result_free(struct eng_prog_result *r)
{
    for (size_t i = 0; i < r->nfindings; i++) {
        free(r->findings[i].kind);
        free(r->findings[i].text);
    }
    free(r->findings);
    free(r->error);
    free(r->output);
    memset(r, 0, sizeof *r);
}

static void set_error(struct eng_prog_result *r, const char *msg)
{
    r->verdict = ENG_PROG_ERROR;
    free(r->error);
    r->error = xstrdup(msg);
}

/* The compiled object of o->path, or NULL after set_error. */
static void *compile(const struct eng_prog_opts *o, size_t *len, struct eng_prog_result *r)
{
    const struct eng_backend *b = eng_backend_emulator();
    const struct embed_file *header = embed_find("kernels/kl.h");
    char err[4096];
    if (!b || !header) {
        set_error(r, "the cpu backend or kernels/kl.h is not built in");
        return NULL;
    }
    if (b->load(err, sizeof err) != 0) {
        set_error(r, err);
        return NULL;
    }
    char abs[PATH_MAX];
    if (!realpath(o->path, abs)) {
        snprintf(err, sizeof err, "%s: %s", o->path, strerror(errno));
        set_error(r, err);
        return NULL;
    }
    char *slash = strrchr(abs, '/');
    *slash = '\0';
    struct eng_manifest *m = eng_manifest_plain(o->path, abs[0] ? abs : "/", slash + 1, o->flags);
    m->exec_host = true;
    char *source = eng_suite_source(m, true, err, sizeof err);
    void *code = NULL;
    if (!source) {
        set_error(r, err);
    } else {
        /* with the access hooks under every schedule: the guards judge each access of a
         * kernel there (reads of never-written bytes, accesses past an allocation with the
         * kernel's line); the pct schedule interleaves at them as well */
        char target[64];
        snprintf(target, sizeof target, "cpu-wave%d+access", o->wave);
        size_t loglen = 1 << 16;
        char *log = xmalloc(loglen);
        log[0] = '\0';
        if (eng_compile_cached(b, target, m->source, (const char *)header->data, source, o->flags,
                               &code, len, &r->cached, log, loglen) != 0) {
            char first[1024];
            eng_compile_first_error(log, first, sizeof first);
            snprintf(err, sizeof err, "%s does not compile for the cpu backend: %s", o->path,
                     first);
            set_error(r, err);
            code = NULL;
        }
        free(log);
        free(source);
    }
    eng_manifest_free(m);
    return code;
}

/* The whole of a file from its start, at most max bytes (its last ones when longer). */
static char *read_tail(int fd, size_t max, size_t *len, bool *cut)
{
    struct stat st;
    *len = 0;
    *cut = false;
    if (fstat(fd, &st) != 0)
        return xstrdup("");
    size_t size = (size_t)st.st_size, from = 0;
    if (size > max) {
        from = size - max;
        *cut = true;
    }
    char *buf = xmalloc(size - from + 1);
    size_t got = 0;
    while (got < size - from) {
        ssize_t k = pread(fd, buf + got, size - from - got, (off_t)(from + got));
        if (k <= 0)
            break;
        got += (size_t)k;
    }
    buf[got] = '\0';
    *len = got;
    return buf;
}

static void parse_findings(const char *buf, size_t len, struct eng_prog_result *r, bool *setup)
{
    for (const char *s = buf, *end = buf + len; s < end;) {
        const char *rs = memchr(s, '\x1e', (size_t)(end - s));
        if (!rs)
            rs = end;
        const char *tab = memchr(s, '\t', (size_t)(rs - s));
        if (tab) {
            char *kind = xasprintf("%.*s", (int)(tab - s), s);
            char *text = xasprintf("%.*s", (int)(rs - tab - 1), tab + 1);
            if (!strcmp(kind, "error")) {
                *setup = true;
                set_error(r, text);
                free(kind);
                free(text);
            } else {
                r->findings = xrealloc(r->findings, (r->nfindings + 1) * sizeof *r->findings);
                r->findings[r->nfindings++] = (struct eng_prog_finding){kind, text};
            }
        }
        s = rs + 1;
    }
}

static int temp_fd(void)
{
    const char *dir = getenv("TMPDIR");
    char *p = xasprintf("%s/kladder-exec-XXXXXX", dir && dir[0] ? dir : P_tmpdir);
    int fd = mkostemp(p, O_CLOEXEC);
    if (fd >= 0)
        unlink(p);
    free(p);
    return fd;
}

/* The name in the dynamic loader's "symbol lookup error: ...: undefined symbol: NAME" among the
 * program's output, printable characters only; NULL when there is none. */
static char *undefined_symbol(const char *out, size_t len)
{
    static const char tag[] = "undefined symbol: ";
    if (!out || !memmem(out, len, "symbol lookup error", strlen("symbol lookup error")))
        return NULL;
    const char *p = memmem(out, len, tag, strlen(tag));
    if (!p)
        return NULL;
    p += strlen(tag);
    size_t n = 0;
    while (p + n < out + len && n < 200 && p[n] > ' ' && p[n] < 0x7f)
        n++;
    return n ? xasprintf("%.*s", (int)n, p) : NULL;
}

int eng_prog_run(const struct eng_prog_opts *o, struct eng_prog_result *r)
{
    memset(r, 0, sizeof *r);
    r->exit_status = -1;
    size_t len = 0;
    void *code = compile(o, &len, r);
    if (!code)
        return 0;
    int out_fd = temp_fd(), find_fd = temp_fd();
    if (out_fd < 0 || find_fd < 0) {
        set_error(r, "cannot make a temporary file for the program's output");
        free(code);
        if (out_fd >= 0)
            close(out_fd);
        if (find_fd >= 0)
            close(find_fd);
        return -1;
    }
    fflush(stdout);
    fflush(stderr);
    pid_t pid = fork();
    if (pid < 0) {
        set_error(r, "fork failed");
        free(code);
        close(out_fd);
        close(find_fd);
        return -1;
    }
    if (pid == 0) {
        setpgid(0, 0);
        int null = open("/dev/null", O_RDONLY);
        if (null >= 0)
            dup2(null, 0);
        dup2(out_fd, 1);
        dup2(out_fd, 2);
        eng_prog_child(code, len, o, find_fd);
    }
    setpgid(pid, pid);
    free(code);
    struct timespec start, now;
    clock_gettime(CLOCK_MONOTONIC, &start);
    int status = 0;
    bool hang = false;
    for (;;) {
        pid_t w = waitpid(pid, &status, WNOHANG);
        if (w == pid)
            break;
        if (w < 0 && errno != EINTR)
            break;
        clock_gettime(CLOCK_MONOTONIC, &now);
        double spent = (double)(now.tv_sec - start.tv_sec) + (now.tv_nsec - start.tv_nsec) / 1e9;
        if (spent >= o->timeout_s) {
            hang = true;
            kill(-pid, SIGKILL);
            kill(pid, SIGKILL);
            while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
            }
            break;
        }
        struct timespec nap = {0, 5 * 1000 * 1000};
        nanosleep(&nap, NULL);
    }
    size_t flen;
    bool fcut, setup = false;
    char *fbuf = read_tail(find_fd, (size_t)16 << 20, &flen, &fcut);
    parse_findings(fbuf, flen, r, &setup);
    free(fbuf);
    r->output = read_tail(out_fd, ENG_PROG_OUTPUT_MAX, &r->output_len, &r->output_cut);
    close(out_fd);
    close(find_fd);
    if (WIFEXITED(status))
        r->exit_status = WEXITSTATUS(status);
    else if (WIFSIGNALED(status))
        r->signal = WTERMSIG(status);
    r->stopped = !hang && r->nfindings && r->exit_status == ENG_WORKER_EXIT_FINDING;
    char *unresolved = NULL;
    if (setup && r->exit_status == ENG_PROG_EXIT_SETUP)
        r->verdict = ENG_PROG_ERROR;
    else if (!r->nfindings && !hang && r->exit_status == 127 &&
             (unresolved = undefined_symbol(r->output, r->output_len)) != NULL) {
        /* the dynamic loader ended the program at its first call of a function nobody
         * defines: kladder's, not the program's own failure */
        r->verdict = ENG_PROG_ERROR;
        free(r->error);
        r->error = xasprintf("the program calls %s, which neither the file nor kladder defines "
                             "(a function of another file of the program, or of a library "
                             "kladder does not stand in for)", unresolved);
        free(unresolved);
    } else if (r->nfindings)
        r->verdict = ENG_PROG_FINDING;
    else if (hang)
        r->verdict = ENG_PROG_HANG;
    else if (r->signal)
        r->verdict = ENG_PROG_CRASH;
    else if (r->exit_status != 0)
        r->verdict = ENG_PROG_FAILED;
    else
        r->verdict = ENG_PROG_PASS;
    if (hang) {
        r->exit_status = -1;
        r->signal = 0;
    }
    return 0;
}
