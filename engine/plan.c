#include "engine/plan.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/xalloc.h"
#include "engine/rung6.h"

int eng_plan_repeats(double p, double c)
{
    if (!(p > 0 && p < 1) || !(c > 0 && c < 1))
        return 1;
    double n = ceil(log(1 - c) / log(1 - p));
    return n < 1 ? 1 : n > 1e6 ? 1000000 : (int)n;
}

void eng_planned_free(struct eng_planned *list, size_t n)
{
    for (size_t i = 0; i < n; i++)
        eng_check_spec_free(&list[i].spec);
    free(list);
}

struct builder {
    const struct eng_manifest *m;
    const char *suite_ref;
    const struct eng_plan_opts *o;
    struct eng_planned **list;
    size_t *n;
    int rung;
};

static void shape_set(struct eng_shape *s, const char *key, int64_t v)
{
    for (size_t i = 0; i < s->n; i++)
        if (strcmp(s->keys[i], key) == 0) {
            s->values[i] = v;
            return;
        }
    s->keys = xrealloc(s->keys, (s->n + 1) * sizeof *s->keys);
    s->values = xrealloc(s->values, (s->n + 1) * sizeof *s->values);
    s->keys[s->n] = xstrdup(key);
    s->values[s->n++] = v;
}

static void shape_merge(struct eng_shape *dst, const struct eng_shape *src)
{
    for (size_t i = 0; src && i < src->n; i++)
        shape_set(dst, src->keys[i], src->values[i]);
}

/* "M16-N8192" from a shape's keys. */
static void shape_tag(const struct eng_shape *s, char *out, size_t n)
{
    size_t len = 0;
    out[0] = '\0';
    for (size_t i = 0; i < s->n && len < n; i++)
        len += (size_t)snprintf(out + len, n - len, "%s%s%lld", i ? "-" : "", s->keys[i],
                                (long long)s->values[i]);
}

/* Adds one check for each selected variant. shapes are copied. */
static void add(struct builder *b, const char *name, enum eng_mode mode, bool baseline,
                const struct eng_shape *shapes, size_t nshapes, int repeats, int replays)
{
    const char *variants[2] = {"fixed", "buggy"};
    for (int v = 0; v < 2; v++) {
        if ((v == 0 && !b->o->fixed) || (v == 1 && (!b->o->buggy || !b->m->entry_buggy)))
            continue;
        *b->list = xrealloc(*b->list, (*b->n + 1) * sizeof **b->list);
        struct eng_planned *p = &(*b->list)[(*b->n)++];
        memset(p, 0, sizeof *p);
        struct eng_check_spec *s = &p->spec;
        snprintf(s->backend, sizeof s->backend, "%s", b->o->backend);
        s->device = b->o->device;
        s->wave = b->o->wave;
        s->schedule = baseline ? ENG_SCHED_DEFAULT : b->o->schedule;
        s->seed = b->o->seed;
        s->suite = xstrdup(b->suite_ref);
        s->variant = xstrdup(variants[v]);
        s->baseline = baseline;
        s->rung = b->rung;
        s->name = xstrdup(name);
        s->mode = mode;
        s->nshapes = nshapes;
        s->shapes = xcalloc(nshapes + 1, sizeof *s->shapes);
        for (size_t i = 0; i < nshapes; i++)
            eng_shape_copy(&s->shapes[i], &shapes[i]);
        s->repeats = repeats;
        s->replays = replays;
        const struct eng_variant_opts *vo = v ? &b->m->opt_buggy : &b->m->opt_fixed;
        s->scratch_once = vo->scratch_once;
        s->event = vo->event;
        s->timeout_s = b->o->timeout_s;
        snprintf(p->label, sizeof p->label, "%s%s", baseline ? "baseline-" : "", variants[v]);
        p->expect_fail = !baseline && v == 1;
        p->claimed = b->rung >= 1 && b->rung <= 8 && b->m->has_rung[b->rung];
    }
}

static void add_one_shape(struct builder *b, const char *name, enum eng_mode mode,
                          const struct eng_shape *shape)
{
    add(b, name, mode, false, shape, 1, 0, 0);
}

static int plan_baseline(struct builder *b)
{
    for (size_t i = 0; i < b->m->nbaseline; i++) {
        char tag[160], name[200];
        shape_tag(&b->m->baseline[i], tag, sizeof tag);
        snprintf(name, sizeof name, "unit-test-%s", tag);
        add(b, name, ENG_MODE_PLAIN, true, &b->m->baseline[i], 1, 0, 0);
    }
    return 0;
}

static bool in_tuned(const struct eng_manifest *m, const struct eng_shape *s)
{
    for (size_t t = 0; t < m->ntuned; t++) {
        bool same = true;
        for (size_t k = 0; k < m->tuned[t].n && same; k++)
            for (size_t j = 0; j < s->n; j++)
                if (!strcmp(s->keys[j], m->tuned[t].keys[k]) && s->values[j] != m->tuned[t].values[k])
                    same = false;
        if (same)
            return true;
    }
    return false;
}

static bool is_tile(const struct eng_manifest *m, const char *p)
{
    for (size_t t = 0; t < m->ntiles; t++)
        if (!strcmp(m->tiles[t].param, p))
            return true;
    return false;
}

/* Padded bytes of buffer `buf` when param = v (other values from base). -1 on error. */
static int64_t bytes_at(const struct eng_manifest *m, size_t buf, const struct eng_shape *base,
                        const char *param, int64_t v)
{
    struct eng_shape s = {0};
    shape_merge(&s, base);
    shape_set(&s, param, v);
    struct eng_values vals;
    char err[256];
    int64_t out = -1;
    if (eng_values_make(m, &s, NULL, NULL, &vals, err, sizeof err) == 0) {
        struct eng_buffer_size sz;
        if (eng_buffer_size(m, buf, &vals, &sz, err, sizeof err) == 0 &&
            sz.padded_bytes < ((uint64_t)1 << 62))
            out = (int64_t)sz.padded_bytes;
        eng_values_free(&vals);
    }
    eng_shape_free(&s);
    return out;
}

/* The largest v with bytes(v) < limit (below) and the smallest with bytes(v) > limit (above). */
static void find_cliff(const struct eng_manifest *m, size_t buf, const struct eng_shape *base,
                       const char *param, int64_t limit, int64_t *below, int64_t *above)
{
    int64_t lo = 1, hi = 1;
    *below = *above = -1;
    while (hi < ((int64_t)1 << 40)) {
        int64_t bb = bytes_at(m, buf, base, param, hi);
        if (bb < 0 || bb > limit)
            break;
        hi *= 2;
    }
    /* smallest v in [lo, hi] with bytes > limit */
    while (lo < hi) {
        int64_t mid = lo + (hi - lo) / 2, bb = bytes_at(m, buf, base, param, mid);
        if (bb >= 0 && bb > limit)
            hi = mid;
        else
            lo = mid + 1;
    }
    int64_t ba = bytes_at(m, buf, base, param, lo);
    if (ba > limit)
        *above = lo;
    for (int64_t v = lo - 1; v >= 1 && v >= lo - 4096; v--) {
        int64_t bb = bytes_at(m, buf, base, param, v);
        if (bb >= 0 && bb < limit) {
            *below = v;
            break;
        }
    }
}

static int plan_rung1(struct builder *b)
{
    const struct eng_manifest *m = b->m;
    const struct eng_rung1_spec *r = &m->r1;
    char name[200];
    /* Tails around every accepted tile. */
    for (size_t t = 0; t < r->ntail; t++) {
        const struct eng_tile *tile = NULL;
        for (size_t i = 0; i < m->ntiles; i++)
            if (!strcmp(m->tiles[i].param, r->tail_tile[t]))
                tile = &m->tiles[i];
        if (!tile)
            continue;
        for (size_t k = 0; k < tile->n; k++) {
            int64_t tv = tile->values[k];
            int64_t dims[4] = {tv + 1, tv + tv / 2, 2 * tv - 1, 2 * tv + tv / 2};
            for (int d = 0; d < 4; d++) {
                if (dims[d] < 1 || (d > 0 && dims[d] == dims[d - 1]))
                    continue;
                struct eng_shape s = {0};
                shape_set(&s, r->tail_dim[t], dims[d]);
                shape_set(&s, tile->param, tv);
                snprintf(name, sizeof name, "tail-%s%lld-%s%lld", r->tail_dim[t],
                         (long long)dims[d], tile->param, (long long)tv);
                add_one_shape(b, name, ENG_MODE_PLAIN, &s);
                eng_shape_free(&s);
            }
        }
    }
    /* Every accepted tile at the default shape. */
    for (size_t i = 0; i < m->ntiles; i++)
        for (size_t k = 0; k < m->tiles[i].n; k++) {
            struct eng_shape s = {0};
            shape_set(&s, m->tiles[i].param, m->tiles[i].values[k]);
            snprintf(name, sizeof name, "tile-%s%lld", m->tiles[i].param,
                     (long long)m->tiles[i].values[k]);
            add_one_shape(b, name, ENG_MODE_PLAIN, &s);
            eng_shape_free(&s);
        }
    /* Outputs just below and above 2^31 and 2^32 bytes, padding included. */
    for (size_t c = 0; c < r->ncliffs; c++) {
        const struct eng_cliff *cl = &r->cliffs[c];
        size_t buf = 0;
        while (buf < m->nbuffers && strcmp(m->buffers[buf].name, cl->buffer))
            buf++;
        for (int p = 31; p <= 32; p++) {
            int64_t below, above;
            find_cliff(m, buf, &cl->with, cl->param, (int64_t)1 << p, &below, &above);
            int64_t vals[2] = {below, above};
            const char *side[2] = {"below", "above"};
            for (int k = 0; k < 2; k++) {
                if (vals[k] < 1)
                    continue;
                struct eng_shape s = {0};
                shape_merge(&s, &cl->with);
                shape_set(&s, cl->param, vals[k]);
                snprintf(name, sizeof name, "cliff-%s-%s2^%d-%s%lld", cl->buffer, side[k], p,
                         cl->param, (long long)vals[k]);
                add_one_shape(b, name, ENG_MODE_PLAIN, &s);
                eng_shape_free(&s);
            }
        }
    }
    /* Shapes next to tuned ones that have no tuned entry (the default tile is used). */
    int untuned = 0;
    for (size_t t = 0; r->untuned && t < m->ntuned && untuned < 6; t++) {
        const struct eng_shape *tu = &m->tuned[t];
        for (size_t k = 0; k < tu->n && untuned < 6; k++) {
            if (is_tile(m, tu->keys[k]))
                continue;
            int64_t cands[2] = {tu->values[k] + 1, tu->values[k] * 2};
            for (int c = 0; c < 2 && untuned < 6; c++) {
                struct eng_shape s = {0};
                for (size_t j = 0; j < tu->n; j++)
                    if (!is_tile(m, tu->keys[j]))
                        shape_set(&s, tu->keys[j], tu->values[j]);
                shape_set(&s, tu->keys[k], cands[c]);
                if (!in_tuned(m, &s)) {
                    snprintf(name, sizeof name, "untuned-%s%lld", tu->keys[k], (long long)cands[c]);
                    add_one_shape(b, name, ENG_MODE_PLAIN, &s);
                    untuned++;
                }
                eng_shape_free(&s);
            }
        }
    }
    for (size_t i = 0; i < r->nextra; i++) {
        snprintf(name, sizeof name, "%s", r->extra[i].name);
        add_one_shape(b, name, ENG_MODE_PLAIN, &r->extra[i]);
    }
    return 0;
}

static int plan_rung4(struct builder *b)
{
    const struct eng_manifest *m = b->m;
    const struct eng_rung4_spec *r = &m->r4;
    struct eng_shape dflt = {0};
    if (r->checks & ENG_R4_GRAPH)
        add(b, "graph-replay", ENG_MODE_GRAPH, false, &dflt, 1, 0, r->replays);
    if (r->checks & ENG_R4_STREAMS)
        add(b, "side-stream-producer", ENG_MODE_STREAMS, false, &dflt, 1, 0, 0);
    if (r->checks & (ENG_R4_WARM | ENG_R4_GARBAGE)) {
        /* Default: each baseline shape, then the same shapes with their first dimension one
         * larger (unaligned), all in one process. */
        size_t n = r->nwarm ? r->nwarm : 2 * m->nbaseline;
        struct eng_shape *sh = xcalloc(n + 1, sizeof *sh);
        if (r->nwarm) {
            for (size_t i = 0; i < n; i++)
                eng_shape_copy(&sh[i], &r->warm[i]);
        } else {
            for (size_t i = 0; i < m->nbaseline; i++) {
                eng_shape_copy(&sh[i], &m->baseline[i]);
                eng_shape_copy(&sh[m->nbaseline + i], &m->baseline[i]);
                if (sh[m->nbaseline + i].n)
                    sh[m->nbaseline + i].values[0] += 1;
            }
        }
        if (r->checks & ENG_R4_WARM)
            add(b, "warm-several-shapes", ENG_MODE_WARM, false, sh, n, 0, 0);
        if (r->checks & ENG_R4_GARBAGE)
            add(b, "reused-garbage-buffers", ENG_MODE_GARBAGE, false, sh, n, 0, 0);
        for (size_t i = 0; i < n; i++)
            eng_shape_free(&sh[i]);
        free(sh);
    }
    if (r->checks & ENG_R4_POOL)
        for (size_t i = 0; i < r->npool; i++) {
            char name[160];
            snprintf(name, sizeof name, "pool-%s", r->pool[i].name);
            add_one_shape(b, name, ENG_MODE_PLAIN, &r->pool[i]);
        }
    return 0;
}

static int plan_rung5(struct builder *b)
{
    const struct eng_manifest *m = b->m;
    const struct eng_rung5_spec *r = &m->r5;
    int n = b->o->repeats > 0   ? b->o->repeats
            : r->repeats > 0    ? r->repeats
                                : eng_plan_repeats(r->failure_rate, r->confidence);
    struct eng_shape dflt = {0};
    size_t ns = r->nwide ? r->nwide : 1;
    for (size_t i = 0; i < ns; i++) {
        const struct eng_shape *s = r->nwide ? &r->wide[i] : &dflt;
        char tag[160], name[200];
        shape_tag(s, tag, sizeof tag);
        snprintf(name, sizeof name, "repeat-%s", s->n ? tag : "default");
        add(b, name, ENG_MODE_REPEAT, false, s, 1, n, 0);
    }
    return 0;
}

int eng_plan_rung(const struct eng_manifest *m, const char *suite_ref, int rung,
                  const struct eng_plan_opts *o, struct eng_planned **list, size_t *n, char *err,
                  size_t errlen)
{
    struct builder b = {m, suite_ref, o, list, n, rung};
    if (rung == 6)
        return eng_rung6_plan(m, suite_ref, o, list, n, err, errlen);
    if (rung != 1 && rung != 4 && rung != 5) {
        snprintf(err, errlen, "rung %d has no engine checks (rungs 1, 4, 5 and 6 do)", rung);
        return -1;
    }
    if (o->baseline)
        plan_baseline(&b);
    return rung == 1 ? plan_rung1(&b) : rung == 4 ? plan_rung4(&b) : plan_rung5(&b);
}
