/* The evaluation command of rung 8's --e2e (engine/rungs/rung8_e2e_cmd.h). */
#include "engine/rungs/rung8_e2e_cmd.h"

#include <errno.h>
#include <fcntl.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "common/text.h"
#include "common/xalloc.h"
#include "engine/toolchain/tool_run.h"

extern char **environ;

/* An evaluator's log can be long (lm-eval prints every request's progress); the score is near
 * the end and a results JSON near the start or the end, so both ends are kept. */
#define KEEP_HEAD (1u << 20)
#define KEEP_TAIL (4u << 20)

void eng_e2e_argv_free(char **argv)
{
    for (size_t i = 0; argv && argv[i]; i++)
        free(argv[i]);
    free(argv);
}

char **eng_e2e_split(const char *text, char *err, size_t errlen)
{
    size_t cap = 8, n = 0, len = strlen(text);
    char **argv = xcalloc(cap, sizeof *argv);
    char *word = xmalloc(len + 1);
    const char *p = text;
    for (;;) {
        while (*p == ' ' || *p == '\t' || *p == '\n')
            p++;
        if (!*p)
            break;
        size_t w = 0;
        while (*p && *p != ' ' && *p != '\t' && *p != '\n') {
            if (*p == '\'') {
                const char *close = strchr(p + 1, '\'');
                if (!close) {
                    snprintf(err, errlen, "--e2e: the ' opened at byte %zu is never closed",
                             (size_t)(p - text) + 1);
                    goto fail;
                }
                memcpy(word + w, p + 1, (size_t)(close - p - 1));
                w += (size_t)(close - p - 1);
                p = close + 1;
            } else if (*p == '"') {
                const char *open = p++;
                while (*p && *p != '"') {
                    if (*p == '\\' && p[1] && strchr("\"\\$`", p[1]))
                        p++;
                    word[w++] = *p++;
                }
                if (!*p) {
                    snprintf(err, errlen, "--e2e: the \" opened at byte %zu is never closed",
                             (size_t)(open - text) + 1);
                    goto fail;
                }
                p++;
            } else if (*p == '\\' && p[1]) {
                word[w++] = p[1];
                p += 2;
            } else {
                word[w++] = *p++;
            }
        }
        if (n + 2 > cap)
            argv = xrealloc(argv, (cap *= 2) * sizeof *argv);
        word[w] = '\0';
        argv[n++] = xstrdup(word);
        argv[n] = NULL;
    }
    free(word);
    if (n == 0) {
        snprintf(err, errlen, "--e2e: the command is empty");
        eng_e2e_argv_free(argv);
        return NULL;
    }
    return argv;
fail:
    free(word);
    eng_e2e_argv_free(argv);
    return NULL;
}

/* Appends a chunk, keeping the first KEEP_HEAD bytes and a ring of the last KEEP_TAIL. */
struct capture {
    char *head;
    size_t hlen;
    char *ring;
    size_t rpos, rlen; /* next write position, bytes held */
    size_t total;
};

static void capture_add(struct capture *c, const char *b, size_t n)
{
    c->total += n;
    size_t h = n < KEEP_HEAD - c->hlen ? n : KEEP_HEAD - c->hlen;
    memcpy(c->head + c->hlen, b, h);
    c->hlen += h;
    for (size_t i = h; i < n; i++) {
        c->ring[c->rpos] = b[i];
        c->rpos = (c->rpos + 1) % KEEP_TAIL;
        if (c->rlen < KEEP_TAIL)
            c->rlen++;
    }
}

static void capture_finish(struct capture *c, struct eng_e2e_output *o)
{
    o->dropped = c->total - c->hlen - c->rlen;
    o->len = c->hlen + c->rlen;
    o->text = xmalloc(o->len + 1);
    memcpy(o->text, c->head, c->hlen);
    size_t start = (c->rpos + KEEP_TAIL - c->rlen) % KEEP_TAIL;
    for (size_t i = 0; i < c->rlen; i++)
        o->text[c->hlen + i] = c->ring[(start + i) % KEEP_TAIL];
    o->text[o->len] = '\0';
    /* a NUL in the output would cut the text short for the readers: show it as a '?' */
    for (size_t i = 0; i < o->len; i++)
        if (!o->text[i])
            o->text[i] = '?';
}

struct eng_e2e_log {
    FILE *f;
    char *line;     /* the line being gathered, up to the next '\n' */
    size_t len, cap;
};

/* Long lines (a progress bar redrawn with '\r') are written in pieces rather than held. */
#define LOG_LINE_MAX 65536

static void log_flush_line(struct eng_e2e_log *l, bool newline)
{
    l->line[l->len] = '\0';
    /* text_escape stops at a NUL: the capture turns NULs into '?' for the same reason */
    for (size_t i = 0; i < l->len; i++)
        if (!l->line[i])
            l->line[i] = '?';
    char *e = text_escape(l->line, (size_t)-1);
    fputs(e, l->f);
    if (newline)
        fputc('\n', l->f);
    free(e);
    l->len = 0;
}

static void log_add(struct eng_e2e_log *l, const char *b, size_t n)
{
    if (!l)
        return;
    for (size_t i = 0; i < n; i++) {
        if (b[i] == '\n') {
            log_flush_line(l, true);
            continue;
        }
        l->line[l->len++] = b[i];
        if (l->len == LOG_LINE_MAX)
            log_flush_line(l, false);
    }
    fflush(l->f);
}

struct eng_e2e_log *eng_e2e_log_open(const char *path, const char *header, char *err,
                                     size_t errlen)
{
    FILE *f = fopen(path, "w");
    if (!f) {
        snprintf(err, errlen, "%s: %s", path, strerror(errno));
        return NULL;
    }
    struct eng_e2e_log *l = xcalloc(1, sizeof *l);
    l->f = f;
    l->line = xmalloc(LOG_LINE_MAX + 1);
    char *h = text_escape(header, 4096);
    fprintf(f, "# %s\n", h);
    free(h);
    fflush(f);
    return l;
}

void eng_e2e_log_close(struct eng_e2e_log *l, int status)
{
    if (!l)
        return;
    if (l->len)
        log_flush_line(l, true);
    fprintf(l->f, "# exit status %d\n", status);
    fclose(l->f);
    free(l->line);
    free(l);
}

char *eng_e2e_log_tail(const char *path, int lines, size_t max_bytes, const char *sep)
{
    FILE *f = fopen(path, "r");
    if (!f)
        return NULL;
    /* the file is already escaped: read its end and treat it as output */
    struct eng_e2e_output o = {0};
    size_t keep = max_bytes * 2 + 1;
    if (fseek(f, 0, SEEK_END) == 0) {
        long size = ftell(f);
        if (size > (long)keep)
            fseek(f, size - (long)keep, SEEK_SET);
        else
            rewind(f);
    }
    o.text = xmalloc(keep + 1);
    o.len = fread(o.text, 1, keep, f);
    o.text[o.len] = '\0';
    fclose(f);
    char *t = eng_e2e_tail(&o, lines, max_bytes, sep);
    free(o.text);
    return t;
}

int eng_e2e_exec(const char *text, bool shell, struct eng_e2e_log *log,
                 struct eng_e2e_output *out, char *err, size_t errlen)
{
    memset(out, 0, sizeof *out);
    char **argv;
    if (shell) {
        argv = xcalloc(4, sizeof *argv);
        argv[0] = xstrdup("/bin/sh");
        argv[1] = xstrdup("-c");
        argv[2] = xstrdup(text);
    } else if (!(argv = eng_e2e_split(text, err, errlen))) {
        return -1;
    }
    char path[4096];
    if (!eng_tool_find(argv[0], path, sizeof path)) {
        char *shown = text_escape(argv[0], 80);
        snprintf(err, errlen, "--e2e: %s is not an executable file%s", shown,
                 strchr(argv[0], '/') ? "" : " on $PATH");
        free(shown);
        eng_e2e_argv_free(argv);
        return -1;
    }
    int fds[2];
    if (pipe(fds) != 0) {
        snprintf(err, errlen, "--e2e: pipe: %s", strerror(errno));
        eng_e2e_argv_free(argv);
        return -1;
    }
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
    posix_spawn_file_actions_adddup2(&fa, fds[1], 1);
    posix_spawn_file_actions_adddup2(&fa, fds[1], 2);
    posix_spawn_file_actions_addclose(&fa, fds[0]);
    posix_spawn_file_actions_addclose(&fa, fds[1]);
    pid_t pid;
    int rc = posix_spawn(&pid, path, &fa, NULL, argv, environ);
    posix_spawn_file_actions_destroy(&fa);
    close(fds[1]);
    if (rc != 0) {
        close(fds[0]);
        char *shown = text_escape(argv[0], 80);
        snprintf(err, errlen, "--e2e: cannot run %s: %s", shown, strerror(rc));
        free(shown);
        eng_e2e_argv_free(argv);
        return -1;
    }
    eng_e2e_argv_free(argv);
    struct capture c = {.head = xmalloc(KEEP_HEAD), .ring = xmalloc(KEEP_TAIL)};
    char buf[65536];
    for (;;) {
        ssize_t n = read(fds[0], buf, sizeof buf);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            break;
        capture_add(&c, buf, (size_t)n);
        log_add(log, buf, (size_t)n);
    }
    close(fds[0]);
    capture_finish(&c, out);
    free(c.head);
    free(c.ring);
    int status;
    while (waitpid(pid, &status, 0) < 0)
        if (errno != EINTR)
            return 128;
    return WIFEXITED(status) ? WEXITSTATUS(status)
                             : 128 + (WIFSIGNALED(status) ? WTERMSIG(status) : 0);
}

void eng_e2e_output_free(struct eng_e2e_output *o)
{
    free(o->text);
    o->text = NULL;
}

char *eng_e2e_tail(const struct eng_e2e_output *o, int lines, size_t max_bytes, const char *sep)
{
    if (!o->text || !o->len)
        return xstrdup("(no output)");
    size_t end = o->len;
    while (end && (o->text[end - 1] == '\n' || o->text[end - 1] == '\r'))
        end--;
    size_t start = end;
    for (int k = 0; start > 0 && k < lines; start--)
        if (o->text[start - 1] == '\n' && ++k == lines)
            break;
    if (end - start > max_bytes)
        start = end - max_bytes;
    char *raw = xmalloc(end - start + 1);
    memcpy(raw, o->text + start, end - start);
    raw[end - start] = '\0';
    /* lines stay lines; every other control character is written as an escape */
    size_t cap = 6 * (end - start) + 8, w = 0;
    char *outp = xmalloc(cap);
    for (char *line = raw;;) {
        char *nl = strchr(line, '\n');
        if (nl)
            *nl = '\0';
        char *e = text_escape(line, (size_t)-1);
        size_t el = strlen(e);
        if (w + el + strlen(sep) + 1 > cap)
            outp = xrealloc(outp, cap = 2 * (w + el + strlen(sep) + 1));
        memcpy(outp + w, e, el);
        w += el;
        free(e);
        if (!nl)
            break;
        memcpy(outp + w, sep, strlen(sep));
        w += strlen(sep);
        line = nl + 1;
    }
    outp[w] = '\0';
    free(raw);
    return outp;
}
