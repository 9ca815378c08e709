/* The watchdog's load-aware clock (fair_clock.h). */
#include "engine/fair_clock.h"

#include <stdio.h>
#include <time.h>
#include <unistd.h>

static double wall_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

double eng_fair_share(long running, long cores)
{
    long others = running - 1; /* the reader itself is running while it reads */
    if (cores < 1 || others <= cores)
        return 1.0;
    double share = (double)cores / (double)others;
    return share < 1.0 / ENG_FAIR_MAX_STRETCH ? 1.0 / ENG_FAIR_MAX_STRETCH : share;
}

/* /proc/loadavg: "0.52 0.58 0.59 3/467 12345", the fourth field runnable/all tasks. */
static double sample_share(void)
{
    FILE *f = fopen("/proc/loadavg", "r");
    if (!f)
        return 1.0;
    long running = 0, all = 0;
    int got = fscanf(f, "%*s %*s %*s %ld/%ld", &running, &all);
    fclose(f);
    if (got != 2)
        return 1.0;
    return eng_fair_share(running, sysconf(_SC_NPROCESSORS_ONLN));
}

void eng_fair_clock_start(struct eng_fair_clock *c)
{
    c->wall = wall_s();
    c->fair = 0;
    c->share = sample_share();
}

double eng_fair_clock_now(struct eng_fair_clock *c)
{
    double now = wall_s();
    c->fair += (now - c->wall) * c->share;
    c->wall = now;
    c->share = sample_share();
    return c->fair;
}
