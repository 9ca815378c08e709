/* Background reads (bgread.h): one thread per read, a pipe to say it is done. The worker opens
 * its connection itself so that opening (which may wait for a writer) is off the main thread
 * too; the main thread reaches the connection only through cdb_interrupt, under the lock. */
#include "tui/bgread.h"

#include <fcntl.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "casedb/cdb.h"
#include "common/xalloc.h"

struct tui_bgread {
    pthread_t thread;
    int pipe[2];
    char *path;
    void *(*fn)(struct cdb *db, void *arg, char *err, size_t errlen);
    void (*free_result)(void *result);
    void *arg;
    void *result;
    char err[512];
    pthread_mutex_t lock; /* guards db and cancelled */
    struct cdb *db;       /* the worker's connection while it is open */
    bool cancelled;
};

static void *worker(void *p)
{
    struct tui_bgread *r = p;
    struct cdb *db = NULL;
    if (cdb_open_reader(r->path, &db, r->err, sizeof r->err) == 0) {
        pthread_mutex_lock(&r->lock);
        bool go = !r->cancelled;
        if (go)
            r->db = db;
        pthread_mutex_unlock(&r->lock);
        if (go)
            r->result = r->fn(db, r->arg, r->err, sizeof r->err);
        pthread_mutex_lock(&r->lock);
        r->db = NULL;
        pthread_mutex_unlock(&r->lock);
        cdb_close(db);
    }
    char done = 1;
    ssize_t n;
    do
        n = write(r->pipe[1], &done, 1);
    while (n < 0);
    return NULL;
}

static void destroy(struct tui_bgread *r)
{
    close(r->pipe[0]);
    close(r->pipe[1]);
    pthread_mutex_destroy(&r->lock);
    free(r->path);
    free(r->arg);
    free(r);
}

struct tui_bgread *tui_bgread_start(const char *db_path,
                                    void *(*fn)(struct cdb *db, void *arg, char *err,
                                                size_t errlen),
                                    const void *arg, size_t arg_size,
                                    void (*free_result)(void *result), char *err, size_t errlen)
{
    if (!db_path || strcmp(db_path, ":memory:") == 0) {
        snprintf(err, errlen, "an in-memory database is read on the main thread");
        return NULL;
    }
    struct tui_bgread *r = xcalloc(1, sizeof *r);
    /* close-on-exec: a `kladder run` child spawned meanwhile must not hold the write end */
    if (pipe(r->pipe) != 0 || fcntl(r->pipe[0], F_SETFD, FD_CLOEXEC) != 0 ||
        fcntl(r->pipe[1], F_SETFD, FD_CLOEXEC) != 0) {
        snprintf(err, errlen, "cannot make a pipe for a background read");
        free(r);
        return NULL;
    }
    pthread_mutex_init(&r->lock, NULL);
    r->path = xstrdup(db_path);
    r->fn = fn;
    r->free_result = free_result;
    r->arg = xmalloc(arg_size ? arg_size : 1);
    memcpy(r->arg, arg, arg_size);
    if (pthread_create(&r->thread, NULL, worker, r) != 0) {
        snprintf(err, errlen, "cannot start a thread for a background read");
        destroy(r);
        return NULL;
    }
    return r;
}

int tui_bgread_fd(const struct tui_bgread *r)
{
    return r->pipe[0];
}

void *tui_bgread_take(struct tui_bgread *r, char *err, size_t errlen)
{
    pthread_join(r->thread, NULL);
    void *result = r->result;
    if (!result)
        snprintf(err, errlen, "%s", r->err[0] ? r->err : "the background read failed");
    destroy(r);
    return result;
}

void tui_bgread_cancel(struct tui_bgread *r)
{
    if (!r)
        return;
    pthread_mutex_lock(&r->lock);
    r->cancelled = true;
    if (r->db)
        cdb_interrupt(r->db);
    pthread_mutex_unlock(&r->lock);
    pthread_join(r->thread, NULL);
    if (r->result && r->free_result)
        r->free_result(r->result);
    destroy(r);
}
