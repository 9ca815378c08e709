/* Timing a check's kernels with the backend's events: each interval's time per launch in it,
 * and at the end their min, median and max into the check's result. A backend without events
 * (or one that fails to make them) times nothing. */
#include "engine/exec/exec_internal.h"

#include <stdlib.h>
#include <string.h>

#include "common/xalloc.h"

void eng_exec_timer_init(struct eng_exec *e, struct eng_timer *t)
{
    memset(t, 0, sizeof *t);
    if (!e->B->event_elapsed_ms)
        return;
    if (e->B->event_create(e->ctx, &t->a, e->err, sizeof e->err) != 0 ||
        e->B->event_create(e->ctx, &t->b, e->err, sizeof e->err) != 0)
        t->a = t->b = NULL;
}

void eng_exec_timer_start(struct eng_exec *e, struct eng_timer *t, struct eng_stream *s)
{
    if (t->a && e->B->event_record(e->ctx, t->a, s, e->err, sizeof e->err) != 0)
        t->a = NULL;
}

/* Records the end and stores the elapsed time divided by per (launches in the interval). */
void eng_exec_timer_stop(struct eng_exec *e, struct eng_timer *t, struct eng_stream *s, int per)
{
    if (!t->a || !t->b)
        return;
    float ms;
    char err[256];
    if (e->B->event_record(e->ctx, t->b, s, err, sizeof err) != 0 ||
        e->B->event_elapsed_ms(e->ctx, t->a, t->b, &ms, err, sizeof err) != 0)
        return;
    if (t->n == t->cap)
        t->samples = xrealloc(t->samples, (t->cap = t->cap * 2 + 8) * sizeof *t->samples);
    t->samples[t->n++] = (double)ms * 1000.0 / (per > 0 ? per : 1);
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

void eng_exec_timer_finish(struct eng_exec *e, struct eng_timer *t)
{
    if (t->n) {
        qsort(t->samples, t->n, sizeof *t->samples, cmp_double);
        e->out->t_min_us = t->samples[0];
        e->out->t_max_us = t->samples[t->n - 1];
        e->out->t_med_us = t->n % 2 ? t->samples[t->n / 2]
                                    : (t->samples[t->n / 2 - 1] + t->samples[t->n / 2]) / 2;
    }
    if (t->a)
        e->B->event_destroy(e->ctx, t->a);
    if (t->b)
        e->B->event_destroy(e->ctx, t->b);
    free(t->samples);
}
