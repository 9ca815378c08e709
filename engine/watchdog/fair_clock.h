/* The watchdog's clock: the seconds a job could have had the machine for.
 *
 * A limit read off the wall clock turns a slow machine into a hang: on two cores shared by
 * twenty busy processes a job that takes 5 s alone takes 50. This clock advances like the wall
 * clock while the machine has a core for every runnable task of others, and slower when it has
 * not: by cores / runnable tasks of others, sampled from /proc at each reading, never slower
 * than 1/ENG_FAIR_MAX_STRETCH. "Others" leaves out the reader and the job's own process group:
 * a job that keeps more threads runnable than there are cores (a spinning kernel on the cpu
 * backend) crowds only itself and gets no more time for it. A job that hangs still reaches its
 * limit, later by at most that factor on a crowded machine; a job that only waited for a core
 * does not. Where /proc cannot be read it is the wall clock. */
#ifndef KL_ENGINE_FAIR_CLOCK_H
#define KL_ENGINE_FAIR_CLOCK_H

#include <sys/types.h>

#define ENG_FAIR_MAX_STRETCH 8.0

struct eng_fair_clock {
    pid_t group;  /* the job's process group, 0: none */
    double wall;  /* wall-clock seconds at the last reading */
    double fair;  /* fair seconds since the start */
    double share; /* the share of a core the last sample gave a runnable task, (0, 1] */
};

/* Starts the clock at 0 fair seconds for the job whose process group is group (0: none). */
void eng_fair_clock_start(struct eng_fair_clock *c, pid_t group);

/* Fair seconds since the start: the wall time since the last reading at the last sample's
 * share, then a new sample for the next reading. */
double eng_fair_clock_now(struct eng_fair_clock *c);

/* The share of a core the job gets with `others` runnable tasks not its own on `cores` cores;
 * exposed for the tests. */
double eng_fair_share(long others, long cores);

/* Runnable threads of the processes in process group `group`, read from /proc; exposed for the
 * tests. */
long eng_fair_group_running(pid_t group);

#endif
