/* The kept threads of eng_par_rows (engine/par_rows.h). They start at the first split that
 * needs them and wait on a condition variable between splits; a split is one generation: each
 * worker takes its part, runs it and counts itself done. One split at a time (a mutex), so two
 * threads of the caller's never share the workers' parts. A forked child has none of its
 * parent's threads: it starts its own. */
#include "engine/par_rows.h"

#include <pthread.h>
#include <stdbool.h>
#include <unistd.h>

static pthread_mutex_t split = PTHREAD_MUTEX_INITIALIZER;
static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t go = PTHREAD_COND_INITIALIZER, done = PTHREAD_COND_INITIALIZER;
static pid_t owner;        /* the process whose workers these are */
static unsigned started;   /* workers running, each with its slot 1 .. started */
static unsigned long gen;  /* the current split */
static unsigned parts, left;
static void (*job)(void *, uint64_t, uint64_t);
static void *job_arg;
static uint64_t job_rows;

static void run_part(unsigned slot)
{
    job(job_arg, job_rows * slot / parts, job_rows * (slot + 1) / parts);
}

static void *worker(void *p)
{
    unsigned slot = (unsigned)(uintptr_t)p;
    unsigned long seen = 0;
    pthread_mutex_lock(&mu);
    for (;;) {
        while (gen == seen)
            pthread_cond_wait(&go, &mu);
        seen = gen;
        if (slot >= parts)
            continue;
        pthread_mutex_unlock(&mu);
        run_part(slot);
        pthread_mutex_lock(&mu);
        if (--left == 0)
            pthread_cond_signal(&done);
    }
    return NULL;
}

void eng_par_rows(void (*fn)(void *arg, uint64_t r0, uint64_t r1), void *arg, uint64_t rows,
                  unsigned nt)
{
    if (nt > ENG_PAR_MAX)
        nt = ENG_PAR_MAX;
    if (nt > rows)
        nt = (unsigned)rows;
    if (nt <= 1) {
        fn(arg, 0, rows);
        return;
    }
    pthread_mutex_lock(&split);
    if (owner != getpid()) { /* none yet, or the parent's (gone with the fork) */
        owner = getpid();
        started = 0;
        gen = 0;
        pthread_mutex_init(&mu, NULL);
        pthread_cond_init(&go, NULL);
        pthread_cond_init(&done, NULL);
    }
    pthread_attr_t at;
    pthread_attr_init(&at);
    pthread_attr_setdetachstate(&at, PTHREAD_CREATE_DETACHED);
    while (started < nt - 1) {
        pthread_t t;
        if (pthread_create(&t, &at, worker, (void *)(uintptr_t)(started + 1)) != 0)
            break;
        started++;
    }
    pthread_attr_destroy(&at);
    if (started + 1 < nt) /* the threads that could start take the parts */
        nt = started + 1;
    pthread_mutex_lock(&mu);
    job = fn;
    job_arg = arg;
    job_rows = rows;
    parts = nt;
    left = nt - 1;
    gen++;
    pthread_cond_broadcast(&go);
    pthread_mutex_unlock(&mu);
    run_part(0);
    pthread_mutex_lock(&mu);
    while (left)
        pthread_cond_wait(&done, &mu);
    pthread_mutex_unlock(&mu);
    pthread_mutex_unlock(&split);
}
