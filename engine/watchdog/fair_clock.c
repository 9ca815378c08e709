/* The watchdog's load-aware clock (fair_clock.h). */
#include "engine/watchdog/fair_clock.h"

#include <dirent.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static double wall_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

double eng_fair_share(long others, long cores)
{
    if (cores < 1 || others <= cores)
        return 1.0;
    double share = (double)cores / (double)others;
    return share < 1.0 / ENG_FAIR_MAX_STRETCH ? 1.0 / ENG_FAIR_MAX_STRETCH : share;
}

/* A /proc stat file's state letter and process group: "pid (comm) S ppid pgrp ...", where comm
 * may hold spaces and parentheses (hence the last ')'). */
static bool read_stat(const char *path, char *state, long *pgrp)
{
    FILE *f = fopen(path, "r");
    if (!f)
        return false;
    char buf[512];
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    fclose(f);
    buf[n] = '\0';
    const char *p = strrchr(buf, ')');
    long ppid;
    return p && sscanf(p + 1, " %c %ld %ld", state, &ppid, pgrp) == 3;
}

static long threads_running(const char *pid)
{
    char path[300];
    snprintf(path, sizeof path, "/proc/%s/task", pid);
    DIR *d = opendir(path);
    if (!d)
        return 0;
    long n = 0;
    struct dirent *t;
    while ((t = readdir(d))) {
        if (t->d_name[0] < '0' || t->d_name[0] > '9')
            continue;
        char st[320], state;
        long pgrp;
        snprintf(st, sizeof st, "/proc/%s/task/%.20s/stat", pid, t->d_name);
        n += read_stat(st, &state, &pgrp) && state == 'R';
    }
    closedir(d);
    return n;
}

/* Runnable threads of the processes in group `group` (in), or of every process outside it and
 * other than the reader (out). */
static long running_threads(pid_t group, bool in)
{
    DIR *d = opendir("/proc");
    if (!d)
        return 0;
    long n = 0;
    pid_t self = getpid();
    struct dirent *e;
    while ((e = readdir(d))) {
        if (e->d_name[0] < '0' || e->d_name[0] > '9')
            continue;
        char path[300], state;
        long pgrp;
        snprintf(path, sizeof path, "/proc/%.20s/stat", e->d_name);
        if (!read_stat(path, &state, &pgrp) || (pgrp == (long)group) != in ||
            atol(e->d_name) == (long)self)
            continue;
        n += threads_running(e->d_name);
    }
    closedir(d);
    return n;
}

long eng_fair_group_running(pid_t group) { return running_threads(group, true); }

/* The share of a core a task of the job gets. /proc/loadavg's runnable count ("0.52 0.58 0.59
 * 3/467 12345") says cheaply whether the machine is crowded at all; when it is, the runnable
 * threads outside the job's group are counted one by one (the job's own spinning threads come
 * and go too fast to be subtracted from a count taken at another instant). */
static double sample_share(pid_t group)
{
    FILE *f = fopen("/proc/loadavg", "r");
    if (!f)
        return 1.0;
    long running = 0, all = 0;
    int got = fscanf(f, "%*s %*s %*s %ld/%ld", &running, &all);
    fclose(f);
    long cores = sysconf(_SC_NPROCESSORS_ONLN);
    if (got != 2 || running - 1 <= cores)
        return 1.0; /* a core for everyone: no need to look closer */
    return eng_fair_share(group > 0 ? running_threads(group, false) : running - 1, cores);
}

void eng_fair_clock_start(struct eng_fair_clock *c, pid_t group)
{
    c->group = group;
    c->wall = wall_s();
    c->fair = 0;
    c->share = sample_share(group);
}

double eng_fair_clock_now(struct eng_fair_clock *c)
{
    double now = wall_s();
    c->fair += (now - c->wall) * c->share;
    c->wall = now;
    c->share = sample_share(c->group);
    return c->fair;
}
