/* Per-phase check times for KLADDER_PHASE_TIMES (engine/exec/phase_time.h). One thread runs the host
 * checks of a run, so the state is the thread's own. */
#include "engine/exec/phase_time.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define MAX_PHASES 24

static _Thread_local struct {
    double last;
    const char *names[MAX_PHASES];
    double us[MAX_PHASES];
    int n;
} pt;

static double now_us(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec * 1e6 + (double)t.tv_nsec * 1e-3;
}

static bool eng_phase_on(void)
{
    static int on = -1;
    if (on < 0) {
        const char *v = getenv("KLADDER_PHASE_TIMES");
        on = v && v[0] && strcmp(v, "0") != 0;
    }
    return on;
}

void eng_phase_start(void)
{
    if (!eng_phase_on())
        return;
    pt.n = 0;
    pt.last = now_us();
}

void eng_phase_mark(const char *name)
{
    if (!eng_phase_on())
        return;
    double t = now_us();
    int i = 0;
    while (i < pt.n && strcmp(pt.names[i], name) != 0) /* a phase met again adds up */
        i++;
    if (i == pt.n && pt.n < MAX_PHASES) {
        pt.names[pt.n] = name;
        pt.us[pt.n++] = 0;
    }
    if (i < pt.n)
        pt.us[i] += t - pt.last;
    pt.last = t;
}

void eng_phase_print(const char *check)
{
    if (!eng_phase_on())
        return;
    char line[1024];
    size_t len = (size_t)snprintf(line, sizeof line, "phases %s:", check ? check : "?");
    double total = 0;
    for (int i = 0; i < pt.n && len < sizeof line; i++) {
        total += pt.us[i];
        len += (size_t)snprintf(line + len, sizeof line - len, " %s=%.0f", pt.names[i], pt.us[i]);
    }
    if (len < sizeof line)
        snprintf(line + len, sizeof line - len, " total=%.0f", total);
    fprintf(stderr, "%s\n", line);
}
