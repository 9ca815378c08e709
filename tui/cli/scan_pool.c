/* A child per file, a time limit per child (scan_pool.h). */
#include "tui/cli/scan_pool.h"

#include <cJSON.h>
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "common/xalloc.h"


static void put_str(cJSON *o, const char *key, const char *value)
{
    if (value)
        cJSON_AddStringToObject(o, key, value);
}

static char *result_json(const struct eng_scan_result *r)
{
    cJSON *o = cJSON_CreateObject();
    cJSON_AddStringToObject(o, "cause", eng_scan_cause_name(r->cause));
    put_str(o, "what", r->what);
    put_str(o, "where", r->where);
    put_str(o, "message", r->message);
    cJSON_AddBoolToObject(o, "cached", r->cached);
    cJSON *entries = cJSON_AddArrayToObject(o, "entries");
    for (size_t i = 0; i < r->nentries; i++) {
        cJSON *e = cJSON_CreateObject();
        put_str(e, "kernel", r->entries[i].kernel);
        put_str(e, "instance", r->entries[i].instance);
        cJSON_AddStringToObject(e, "state", eng_scan_state_name(r->entries[i].state));
        cJSON_AddItemToArray(entries, e);
    }
    char *text = cJSON_PrintUnformatted(o);
    cJSON_Delete(o);
    return text;
}

static char *get_str(const cJSON *o, const char *key)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);
    return cJSON_IsString(v) ? xstrdup(v->valuestring) : NULL;
}

/* The child's document back into r; false when it is not one. */
static bool result_parse(const char *text, struct eng_scan_result *r)
{
    cJSON *o = cJSON_Parse(text);
    char *cause = o ? get_str(o, "cause") : NULL;
    int c = eng_scan_cause_parse(cause);
    free(cause);
    if (c < 0) {
        cJSON_Delete(o);
        return false;
    }
    r->cause = (enum eng_scan_cause)c;
    r->what = get_str(o, "what");
    r->where = get_str(o, "where");
    r->message = get_str(o, "message");
    r->cached = cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(o, "cached"));
    const cJSON *e;
    cJSON_ArrayForEach(e, cJSON_GetObjectItemCaseSensitive(o, "entries"))
    {
        char *state = get_str(e, "state");
        enum eng_scan_state s = ENG_SCAN_NOT_IN_OBJECT;
        for (int i = 0; i < ENG_SCAN_NSTATES; i++)
            if (state && !strcmp(state, eng_scan_state_name((enum eng_scan_state)i)))
                s = (enum eng_scan_state)i;
        free(state);
        r->entries = xrealloc(r->entries, (r->nentries + 1) * sizeof *r->entries);
        r->entries[r->nentries++] = (struct eng_scan_entry){
            .kernel = get_str(e, "kernel"), .instance = get_str(e, "instance"), .state = s};
    }
    cJSON_Delete(o);
    return true;
}

static double now_s(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

static void write_all(int fd, const char *s, size_t n)
{
    while (n > 0) {
        ssize_t w = write(fd, s, n);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0)
            return;
        s += w;
        n -= (size_t)w;
    }
}

/* The child: one file judged, its result written to fd, and gone without running the parent's
 * exit handlers (they belong to the parent). */
static void child(const struct scan_job *job, const struct scan_file *f, int fd)
{
    setpgid(0, 0);
    struct eng_scan_result r;
    if (eng_scan_unit(job->b, job->target, f->root, f->rel, job->flags, &r) != 0)
        r.cause = ENG_SCAN_UNREADABLE;
    char *text = result_json(&r);
    if (text)
        write_all(fd, text, strlen(text));
    _exit(0);
}

struct running {
    pid_t pid;
    int fd;
    size_t index;
    double deadline;
    char *buf;
    size_t len, cap;
};

static void finish(struct running *w, struct eng_scan_result *r, bool timed_out, int timeout_s)
{
    int status = 0;
    if (timed_out) {
        kill(-w->pid, SIGKILL);
        kill(w->pid, SIGKILL);
    }
    while (waitpid(w->pid, &status, 0) < 0 && errno == EINTR)
        ;
    if (timed_out) {
        kill(-w->pid, SIGKILL); /* the compiler, should it outlive its parent */
        r->cause = ENG_SCAN_TIME_LIMIT;
        r->message = xasprintf("the compile ran past the time limit (%d s) and was stopped",
                               timeout_s);
    } else if (!w->buf || !result_parse(w->buf, r)) {
        r->cause = ENG_SCAN_COMPILE_ERROR;
        r->message = WIFSIGNALED(status)
                         ? xasprintf("the worker judging the file ended by signal %d",
                                     WTERMSIG(status))
                         : xstrdup("the worker judging the file ended without a result");
    }
    close(w->fd);
    free(w->buf);
    w->buf = NULL;
}

void scan_pool_run(const struct scan_job *job, const struct scan_files *files,
                   struct eng_scan_result *results,
                   void (*progress)(size_t index, const struct eng_scan_result *r, void *arg),
                   void *arg)
{
    int jobs = job->jobs > 0 ? job->jobs : 1;
    struct running *w = xcalloc((size_t)jobs, sizeof *w);
    struct pollfd *pfd = xcalloc((size_t)jobs, sizeof *pfd);
    size_t next = 0, nrun = 0;
    fflush(stdout);
    fflush(stderr);
    while (next < files->n || nrun > 0) {
        while (next < files->n && nrun < (size_t)jobs) {
            size_t i = next++;
            memset(&results[i], 0, sizeof results[i]);
            if (files->v[i].refusal) { /* nothing to compile */
                results[i].cause = ENG_SCAN_UNREADABLE;
                results[i].message = xstrdup(files->v[i].refusal);
                if (progress)
                    progress(i, &results[i], arg);
                continue;
            }
            int p[2];
            pid_t pid = -1;
            if (pipe(p) == 0 && (pid = fork()) == 0) {
                close(p[0]);
                for (size_t k = 0; k < nrun; k++)
                    close(w[k].fd);
                child(job, &files->v[i], p[1]);
            }
            if (pid < 0) {
                results[i].cause = ENG_SCAN_COMPILE_ERROR;
                results[i].message = xasprintf("cannot start a worker: %s", strerror(errno));
                if (progress)
                    progress(i, &results[i], arg);
                continue;
            }
            close(p[1]);
            setpgid(pid, pid);
            w[nrun++] = (struct running){.pid = pid, .fd = p[0], .index = i,
                                         .deadline = now_s() + job->timeout_s};
        }
        if (nrun == 0)
            continue;
        double soonest = w[0].deadline;
        for (size_t k = 0; k < nrun; k++) {
            pfd[k] = (struct pollfd){.fd = w[k].fd, .events = POLLIN};
            soonest = w[k].deadline < soonest ? w[k].deadline : soonest;
        }
        double wait = soonest - now_s();
        int ms = wait <= 0 ? 0 : (int)(wait * 1000) + 1;
        int got = poll(pfd, nrun, ms);
        if (got < 0 && errno != EINTR)
            break;
        for (size_t k = 0; k < nrun;) {
            bool done = false, late = false;
            if (got > 0 && (pfd[k].revents & (POLLIN | POLLHUP | POLLERR))) {
                if (w[k].len + 4097 > w[k].cap) {
                    w[k].cap = (w[k].len + 4097) * 2;
                    w[k].buf = xrealloc(w[k].buf, w[k].cap);
                }
                ssize_t r = read(w[k].fd, w[k].buf + w[k].len, w[k].cap - w[k].len - 1);
                if (r > 0) {
                    w[k].len += (size_t)r;
                    w[k].buf[w[k].len] = '\0';
                } else if (r == 0 || errno != EINTR) {
                    done = true;
                }
            }
            if (!done && now_s() >= w[k].deadline)
                done = late = true;
            if (!done) {
                k++;
                continue;
            }
            size_t i = w[k].index;
            finish(&w[k], &results[i], late, job->timeout_s);
            if (progress)
                progress(i, &results[i], arg);
            w[k] = w[--nrun];
            pfd[k] = pfd[nrun];
        }
    }
    free(w);
    free(pfd);
}
