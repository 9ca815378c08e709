/* The watchdog: runs jobs in a worker process that can be stopped from outside.
 *
 * The worker is this same binary (`kladder run --worker`), started with posix_spawn in its own
 * process group so that killing the group also stops anything it started. It reads JSON job
 * lines on stdin, one after another, and answers each on stdout: {"ready": true} once the job's
 * kernels are compiled and its buffers allocated, then the answer line. Until ready the setup
 * limit applies (compiling can be slow); from ready on, the job's limit. When a limit passes,
 * the whole group gets SIGKILL and the job is reported as killed, with the phase it was in; the
 * worker is then gone and the caller starts another for the next job. A worker that can take
 * no more jobs says so in its answer ("last": true) and exits. The parent process never loads
 * a GPU runtime itself. */
#ifndef KL_ENGINE_WATCHDOG_H
#define KL_ENGINE_WATCHDOG_H

#include <stdbool.h>
#include <stddef.h>

struct eng_worker_result {
    bool killed;        /* a limit passed and the worker was stopped */
    bool ready;         /* the worker said ready (killed after ready = a hang) */
    bool cancelled;     /* the run was interrupted (SIGINT/SIGTERM) */
    int status;         /* exit status, or 128+signal, when the worker ended; else 0 */
    double elapsed_s;   /* since ready (or since start when never ready) */
    char *answer;       /* the last JSON line that was not {"ready": true}; malloc'd or NULL */
    char stderr_tail[2048];
};

/* Path of this binary for spawning workers (/proc/self/exe when it can be read, else argv0). */
const char *eng_self_exe(const char *argv0);

struct eng_worker; /* a running worker process */

/* Starts a worker under another program: prefix (NULL-terminated, prefix[0] a path) is run
 * with the worker's argv after its own words, and must run that command with the same standard
 * input, output and error (compute-sanitizer does). The group that a limit kills is the
 * prefix's, the worker inside it. NULL or an empty prefix: the worker alone. */
struct eng_worker *eng_worker_start_under(char *const *prefix, const char *exe, char *err,
                                          size_t errlen);

/* Sends one job and waits for its answer under the limits; r is filled (free it with
 * eng_worker_result_free). A worker that was killed, died, was cancelled or said "last" has
 * ended (eng_worker_ended): its status and stderr are in r, and it takes no more jobs. Returns
 * -1 only when the job could not be given to the worker at all. */
int eng_worker_job(struct eng_worker *w, const char *job, double setup_limit_s, double limit_s,
                   struct eng_worker_result *r, char *err, size_t errlen);
bool eng_worker_ended(const struct eng_worker *w);

/* Ends a worker (NULL is fine): closes its input so that it finishes and exits, waits up to
 * grace_s, then kills its group; frees w. Returns its exit status (128+signal; that of its end
 * when it had ended already) and copies what it wrote on stderr while ending into tail. */
int eng_worker_stop(struct eng_worker *w, double grace_s, char *tail, size_t taillen);

void eng_worker_result_free(struct eng_worker_result *r);

/* Waits for workers that were killed but had not died yet (call before exiting). */
void eng_watchdog_reap(void);

/* Installs SIGINT/SIGTERM handlers that stop the running worker's group and mark the run
 * cancelled; eng_cancelled() reports it. */
void eng_watchdog_install(void);
bool eng_cancelled(void);

#endif
