/* Rung 1 by itself (engine/rungs/rung1.h: eng_rung1_plan_dims): a suite that gives rung 1
 * nothing to plan from (no tiles, tail_dims, cliffs, tuned shapes or extra shapes, as an op
 * described from Python or a suite's "1": {}) still gets its boundary checks: the default shape,
 * and each dimension alone one below and one above its default and at 1. A tile the suite does
 * not name still divides the default or it does not: one of default - 1 and default + 1 leaves a
 * partial last tile of every size that divides the default (a tail of one element, or of one
 * short of a whole tile), and 1 is shorter than any tile. */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "engine/values/expr.h"
#include "engine/plan.h"
#include "engine/rungs/rung1.h"

struct mention {
    const char *name;
    bool seen;
};

static bool note_name(const void *ctx, const char *name, size_t len, int64_t *value)
{
    struct mention *m = (struct mention *)(uintptr_t)ctx;
    if (strlen(m->name) == len && !strncmp(m->name, name, len))
        m->seen = true;
    *value = 1;
    return true;
}

/* Is parameter p a dimension: does some buffer's shape mention it? */
static bool is_dimension(const struct eng_manifest *m, const char *p)
{
    struct mention mn = {p, false};
    char err[128];
    for (size_t b = 0; b < m->nbuffers && !mn.seen; b++)
        for (size_t d = 0; d < m->buffers[b].ndims && !mn.seen; d++)
            eng_expr_check(m->buffers[b].dims[d], note_name, &mn, err, sizeof err);
    return mn.seen;
}

/* Does every buffer hold at least one element with p = v (the rest at their defaults)? A shape
 * that empties a buffer ("N - 1" at N = 1) is no boundary of the op, only of its manifest. */
static bool every_buffer_holds(const struct eng_manifest *m, const char *p, int64_t v)
{
    struct eng_shape s = {0};
    eng_shape_set(&s, p, v);
    struct eng_values vals;
    char err[256];
    bool made = eng_values_make(m, &s, NULL, NULL, &vals, err, sizeof err) == 0, ok = made;
    for (size_t b = 0; ok && b < m->nbuffers; b++) {
        struct eng_buffer_size sz;
        ok = eng_buffer_size(m, b, &vals, &sz, err, sizeof err) == 0 && sz.elems > 0;
    }
    if (made)
        eng_values_free(&vals);
    eng_shape_free(&s);
    return ok;
}

void eng_rung1_plan_dims(struct eng_plan_builder *b)
{
    const struct eng_manifest *m = b->m;
    struct eng_shape none = {0};
    eng_plan_add(b, "default", ENG_MODE_PLAIN, false, &none, 1, 0, 0);
    for (size_t i = 0; i < m->nparams; i++) {
        const struct eng_param *p = &m->params[i];
        if (!p->integral || p->value < 1 || p->value > (double)(INT64_MAX / 2) ||
            !is_dimension(m, p->name))
            continue;
        int64_t v = (int64_t)p->value;
        int64_t tails[3] = {v - 1, v + 1, 1};
        const char *kind[3] = {"tail", "tail", "small"};
        for (int k = 0; k < 3; k++) {
            int64_t t = tails[k];
            /* each length once: 1 is also default - 1 when the default is 2 */
            if (t < 1 || t == v || (k == 2 && (t == tails[0] || t == tails[1])) ||
                !every_buffer_holds(m, p->name, t))
                continue;
            struct eng_shape s = {0};
            eng_shape_set(&s, p->name, t);
            char name[160];
            snprintf(name, sizeof name, "%s-%s%lld", kind[k], p->name, (long long)t);
            eng_plan_add(b, name, ENG_MODE_PLAIN, false, &s, 1, 0, 0);
            eng_shape_free(&s);
        }
    }
}
