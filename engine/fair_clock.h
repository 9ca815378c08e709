/* The watchdog's clock: the seconds a job could have had the machine for.
 *
 * A limit read off the wall clock turns a slow machine into a hang: on two cores shared by
 * twenty busy processes a job that takes 5 s alone takes 50. This clock advances like the wall
 * clock while the machine has a core for every runnable task, and slower when it has not: by
 * cores / runnable tasks (the caller not counted), sampled from /proc/loadavg at each reading,
 * never slower than 1/ENG_FAIR_MAX_STRETCH. A job that hangs still reaches its limit, later by
 * at most that factor on a crowded machine; a job that only waited for a core does not. Where
 * /proc/loadavg cannot be read it is the wall clock. */
#ifndef KL_ENGINE_FAIR_CLOCK_H
#define KL_ENGINE_FAIR_CLOCK_H

#define ENG_FAIR_MAX_STRETCH 8.0

struct eng_fair_clock {
    double wall;  /* wall-clock seconds at the last reading */
    double fair;  /* fair seconds since the start */
    double share; /* the share of a core the last sample gave a runnable task, (0, 1] */
};

/* Starts the clock at 0 fair seconds. */
void eng_fair_clock_start(struct eng_fair_clock *c);

/* Fair seconds since the start: the wall time since the last reading at the last sample's
 * share, then a new sample for the next reading. */
double eng_fair_clock_now(struct eng_fair_clock *c);

/* The share of a core one more runnable task gets with `running` tasks runnable (the reader
 * among them) on `cores` cores; exposed for the tests. */
double eng_fair_share(long running, long cores);

#endif
