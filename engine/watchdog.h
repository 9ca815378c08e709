/* The watchdog: runs one job in a worker process that can be stopped from outside.
 *
 * The worker is this same binary (`kladder run --worker`), started with posix_spawn in its own
 * process group so that killing the group also stops anything it started. It reads one JSON job
 * line on stdin and writes JSON lines on stdout: {"ready": true} once its kernels are compiled
 * and its buffers allocated, then its answer. Until ready the setup limit applies (compiling can
 * be slow); from ready on, the job's limit. When a limit passes, the whole group gets SIGKILL
 * and the job is reported as killed, with the phase it was in. The parent process never loads a
 * GPU runtime itself. */
#ifndef KL_ENGINE_WATCHDOG_H
#define KL_ENGINE_WATCHDOG_H

#include <stdbool.h>
#include <stddef.h>

struct eng_worker_result {
    bool killed;        /* a limit passed and the worker was stopped */
    bool ready;         /* the worker said ready (killed after ready = a hang) */
    bool cancelled;     /* the run was interrupted (SIGINT/SIGTERM) */
    int status;         /* exit status, or 128+signal */
    double elapsed_s;   /* since ready (or since start when never ready) */
    char *answer;       /* the last JSON line that was not {"ready": true}; malloc'd or NULL */
    char stderr_tail[2048];
};

/* Path of this binary for spawning workers (/proc/self/exe when it can be read, else argv0). */
const char *eng_self_exe(const char *argv0);

int eng_worker_run(const char *exe, const char *job, double setup_limit_s, double limit_s,
                   struct eng_worker_result *r, char *err, size_t errlen);
void eng_worker_result_free(struct eng_worker_result *r);

/* Waits for workers that were killed but had not died yet (call before exiting). */
void eng_watchdog_reap(void);

/* Installs SIGINT/SIGTERM handlers that stop the running worker's group and mark the run
 * cancelled; eng_cancelled() reports it. */
void eng_watchdog_install(void);
bool eng_cancelled(void);

#endif
