/* The kept threads of eng_par_rows (engine/values/par_rows.h). They start at the first split that
 * needs them and wait on a condition variable between splits; a split is one generation: each
 * worker takes its part, runs it and counts itself done. One split at a time (a mutex), so two
 * threads of the caller's never share the workers' parts; a background split (started, not yet
 * waited for) keeps the workers until its parts are done, and the next split waits for them.
 * A forked child has none of its parent's threads: it starts its own. */
#include "engine/values/par_rows.h"

#include <pthread.h>
#include <stdbool.h>
#include <unistd.h>

static pthread_mutex_t split = PTHREAD_MUTEX_INITIALIZER;
static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t go = PTHREAD_COND_INITIALIZER, done = PTHREAD_COND_INITIALIZER;
static pid_t owner;        /* the process whose workers these are */
static unsigned started;   /* workers running, each with its slot 1 .. started */
static unsigned long gen;  /* the current split */
/* The current split: parts, the workers' parts not yet done (left), and the first worker
 * slot's part (1 when the caller runs part 0, 0 in the background). */
static unsigned parts, left, first_part;
static void (*job)(void *, uint64_t, uint64_t);
static void *job_arg;
static uint64_t job_rows;
static pid_t bg_owner;     /* the process that started the background split, or 0 */

static void run_part(unsigned part)
{
    job(job_arg, job_rows * part / parts, job_rows * (part + 1) / parts);
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
        unsigned part = slot - 1 + first_part;
        if (part >= parts)
            continue;
        pthread_mutex_unlock(&mu);
        run_part(part);
        pthread_mutex_lock(&mu);
        if (--left == 0)
            pthread_cond_broadcast(&done);
    }
    return NULL;
}

/* With split held: this process's workers, up to want of them; how many run. */
static unsigned workers_for(unsigned want)
{
    if (owner != getpid()) { /* none yet, or the parent's (gone with the fork) */
        owner = getpid();
        started = 0;
        gen = 0;
        left = 0;
        pthread_mutex_init(&mu, NULL);
        pthread_cond_init(&go, NULL);
        pthread_cond_init(&done, NULL);
    }
    if (started < want) { /* once per process, as a rule: the workers stay */
        pthread_attr_t at;
        pthread_attr_init(&at);
        pthread_attr_setdetachstate(&at, PTHREAD_CREATE_DETACHED);
        while (started < want) {
            pthread_t t;
            if (pthread_create(&t, &at, worker, (void *)(uintptr_t)(started + 1)) != 0)
                break;
            started++;
        }
        pthread_attr_destroy(&at);
    }
    return started < want ? started : want;
}

/* With split and mu held: the split before this one (a background one) done. */
static void wait_left(void)
{
    while (left)
        pthread_cond_wait(&done, &mu);
}

/* With split and mu held: the workers told to take their parts of fn over rows. */
static void announce(void (*fn)(void *, uint64_t, uint64_t), void *arg, uint64_t rows,
                     unsigned nparts, unsigned first, unsigned workers_parts)
{
    job = fn;
    job_arg = arg;
    job_rows = rows;
    parts = nparts;
    first_part = first;
    left = workers_parts;
    gen++;
    pthread_cond_broadcast(&go);
}

void eng_par_rows(void (*fn)(void *arg, uint64_t r0, uint64_t r1), void *arg, uint64_t rows,
                  unsigned nt)
{
    if (nt > ENG_PAR_MAX)
        nt = ENG_PAR_MAX;
    if (nt > rows)
        nt = (unsigned)rows;
    pthread_mutex_lock(&split);
    if (nt <= 1) {
        /* a background split may still write what fn reads (the caller's buffers): after it */
        if (owner == getpid()) {
            pthread_mutex_lock(&mu);
            wait_left();
            pthread_mutex_unlock(&mu);
        }
        pthread_mutex_unlock(&split);
        fn(arg, 0, rows);
        return;
    }
    nt = workers_for(nt - 1) + 1; /* the threads that could start take the parts */
    pthread_mutex_lock(&mu);
    wait_left();
    announce(fn, arg, rows, nt, 1, nt - 1);
    pthread_mutex_unlock(&mu);
    run_part(0);
    pthread_mutex_lock(&mu);
    wait_left();
    pthread_mutex_unlock(&mu);
    pthread_mutex_unlock(&split);
}

int eng_par_rows_start(void (*fn)(void *arg, uint64_t r0, uint64_t r1), void *arg,
                       uint64_t rows, unsigned nt)
{
    if (nt > ENG_PAR_MAX)
        nt = ENG_PAR_MAX;
    if (nt > rows)
        nt = (unsigned)rows;
    if (nt < 1)
        nt = 1;
    pthread_mutex_lock(&split);
    nt = workers_for(nt);
    if (!nt) {
        pthread_mutex_unlock(&split);
        return -1;
    }
    pthread_mutex_lock(&mu);
    wait_left();
    announce(fn, arg, rows, nt, 0, nt);
    bg_owner = getpid();
    pthread_mutex_unlock(&mu);
    pthread_mutex_unlock(&split);
    return 0;
}

int eng_par_rows_wait(void)
{
    pthread_mutex_lock(&split);
    int rc = 0;
    if (bg_owner && bg_owner != getpid()) {
        rc = -1; /* started by the parent: its workers are not here */
    } else if (bg_owner) {
        pthread_mutex_lock(&mu);
        wait_left();
        pthread_mutex_unlock(&mu);
    }
    bg_owner = 0;
    pthread_mutex_unlock(&split);
    return rc;
}
