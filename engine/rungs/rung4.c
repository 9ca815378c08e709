/* Rung 4, production execution: the kernel run the way a serving stack runs it — captured in a
 * graph and replayed, fed by a producer on another stream, several shapes warm in one process,
 * buffers reused full of garbage, and full-pool shapes with large offsets (docs/engine.md). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/xalloc.h"
#include "engine/rung.h"
#include "engine/rungs/rung4.h"

/* "pool_sample": {"buffer": "pool", "first_row": "first_slot", "rows": "T"}: an input buffer
 * and two expressions that evaluate at the suite's defaults. */
static bool parse_pool_sample(struct eng_mparse *p, const struct eng_manifest *m, const cJSON *j,
                              struct eng_rung4_spec *r)
{
    static const char *const keys[] = {"buffer", "first_row", "rows", NULL};
    if (!j)
        return true;
    if (!cJSON_IsObject(j))
        return eng_mp_bad(p, "rungs.4.pool_sample", "expected an object {\"buffer\", \"first_row\", \"rows\"}");
    if (!eng_mp_only_keys(p, j, "rungs.4.pool_sample", keys))
        return false;
    const char *f[3] = {"buffer", "first_row", "rows"};
    const cJSON *v[3];
    for (int i = 0; i < 3; i++) {
        v[i] = cJSON_GetObjectItemCaseSensitive(j, f[i]);
        if (!cJSON_IsString(v[i])) {
            char field[64];
            snprintf(field, sizeof field, "rungs.4.pool_sample.%s", f[i]);
            return eng_mp_bad(p, field, i ? "expected an expression over the parameters (a string)"
                                          : "expected the name of an input buffer");
        }
    }
    for (size_t b = 0; b < m->nbuffers; b++)
        if (!strcmp(m->buffers[b].name, v[0]->valuestring) && m->buffers[b].role == ENG_ROLE_INPUT)
            r->sample_buffer = (int)b;
    if (r->sample_buffer < 0)
        return eng_mp_bad(p, "rungs.4.pool_sample.buffer", "expected the name of an input buffer, got \"%s\"",
                          v[0]->valuestring);
    struct eng_values dv;
    char msg[256];
    if (eng_values_make(m, NULL, NULL, NULL, &dv, msg, sizeof msg) != 0)
        return eng_mp_bad(p, "rungs.4.pool_sample", "%s", msg);
    for (int i = 1; i < 3; i++) {
        int64_t x;
        if (eng_values_eval(&dv, v[i]->valuestring, &x, msg, sizeof msg) != 0) {
            char field[64];
            snprintf(field, sizeof field, "rungs.4.pool_sample.%s", f[i]);
            eng_values_free(&dv);
            return eng_mp_bad(p, field, "expected an expression over the parameters: %s", msg);
        }
    }
    eng_values_free(&dv);
    r->sample_first = xstrdup(v[1]->valuestring);
    r->sample_rows = xstrdup(v[2]->valuestring);
    return true;
}

static bool parse(struct eng_mparse *p, const struct eng_manifest *m, const cJSON *j, void **out)
{
    static const char *const keys[] = {"checks", "replays", "warm", "pool", "pool_sample", NULL};
    struct eng_rung4_spec *r = xcalloc(1, sizeof *r);
    *out = r;
    r->sample_buffer = -1;
    r->checks = ENG_R4_GRAPH | ENG_R4_STREAMS | ENG_R4_WARM | ENG_R4_GARBAGE;
    r->replays = 3;
    if (!eng_mp_only_keys(p, j, "rungs.4", keys))
        return false;
    const cJSON *c = cJSON_GetObjectItemCaseSensitive(j, "checks");
    if (c) {
        static const char *const names[] = {"graph", "streams", "warm", "garbage", "pool"};
        if (!cJSON_IsArray(c))
            return eng_mp_bad(p, "rungs.4.checks", "expected an array of graph streams warm garbage pool");
        r->checks = 0;
        int i = 0;
        for (const cJSON *it = c->child; it; it = it->next, i++) {
            int k = cJSON_IsString(it) ? eng_mp_pick(it->valuestring, names, 5) : -1;
            if (k < 0) {
                char sub[64], got[64];
                snprintf(sub, sizeof sub, "rungs.4.checks[%d]", i);
                eng_mp_describe(it, got, sizeof got);
                return eng_mp_bad(p, sub, "expected one of graph streams warm garbage pool, got %s", got);
            }
            r->checks |= 1u << k;
        }
    }
    double rep = r->replays;
    if (!eng_mp_number(p, j, "replays", "rungs.4.replays", 2, 1000, &rep))
        return false;
    r->replays = (int)rep;
    if (!eng_mp_shapes(p, m, j, "warm", "rungs.4.warm", false, &r->nwarm, &r->warm) ||
        !eng_mp_shapes(p, m, j, "pool", "rungs.4.pool", true, &r->npool, &r->pool))
        return false;
    if (r->npool && !c)
        r->checks |= ENG_R4_POOL;
    return parse_pool_sample(p, m, cJSON_GetObjectItemCaseSensitive(j, "pool_sample"), r);
}

static void free_settings(void *settings)
{
    struct eng_rung4_spec *r = settings;
    eng_shapes_free(r->warm, r->nwarm);
    eng_shapes_free(r->pool, r->npool);
    free(r->sample_first);
    free(r->sample_rows);
    free(r);
}

static int plan(struct eng_plan_builder *b, char *err, size_t errlen)
{
    (void)err;
    (void)errlen;
    const struct eng_manifest *m = b->m;
    const struct eng_rung4_spec *r = m->settings[4];
    struct eng_shape dflt = {0};
    if (r->checks & ENG_R4_GRAPH)
        eng_plan_add(b, "graph-replay", ENG_MODE_GRAPH, false, &dflt, 1, 0, r->replays);
    if (r->checks & ENG_R4_STREAMS)
        eng_plan_add(b, "side-stream-producer", ENG_MODE_STREAMS, false, &dflt, 1, 0, 0);
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
            eng_plan_add(b, "warm-several-shapes", ENG_MODE_WARM, false, sh, n, 0, 0);
        if (r->checks & ENG_R4_GARBAGE)
            eng_plan_add(b, "reused-garbage-buffers", ENG_MODE_GARBAGE, false, sh, n, 0, 0);
        for (size_t i = 0; i < n; i++)
            eng_shape_free(&sh[i]);
        free(sh);
    }
    if (r->checks & ENG_R4_POOL)
        for (size_t i = 0; i < r->npool; i++) {
            char name[160];
            snprintf(name, sizeof name, "pool-%s", r->pool[i].name);
            size_t first = *b->n;
            eng_plan_add(b, name, ENG_MODE_PLAIN, false, &r->pool[i], 1, 0, 0);
            for (size_t k = first; r->sample_buffer >= 0 && k < *b->n; k++)
                (*b->list)[k].spec.sample_cliffs = true;
        }
    return 0;
}

/* ---- execution modes ------------------------------------------------------------------ */

static int mode_graph(struct eng_exec *e, struct eng_inst *in, struct eng_timer *t)
{
    if (!e->B->graph_begin) {
        eng_exec_note(e, "the %s backend has no graphs", e->B->name);
        return 1;
    }
    struct eng_stream *s;
    ENG_TRY(e->B->stream_create(e->ctx, &s, e->err, sizeof e->err));
    int rc = -1;
    struct eng_graph *g = NULL;
    if (eng_exec_fill_inputs(e, in, s, false) || eng_exec_prepare_outputs(e, in, ENG_OUT_SENTINEL, s) ||
        eng_exec_guards_scratch(e, in, s) || eng_exec_reset_scratch(e, in, 3, s) || eng_exec_launch_ref(e, in, s) ||
        eng_exec_sync_all(e, s))
        goto out;
    if (e->B->graph_begin(e->ctx, s, e->err, sizeof e->err) != 0)
        goto out;
    /* The library's own reset inside the captured work, unless it resets only once, outside. */
    if (!e->s->scratch_once && eng_exec_reset_scratch(e, in, 1, s) != 0)
        goto out;
    if (eng_exec_launch_var(e, in, s) != 0)
        goto out;
    if (e->B->graph_end(e->ctx, s, &g, e->err, sizeof e->err) != 0)
        goto out;
    if (eng_exec_sync_all(e, s) != 0)
        goto out;
    bool ok;
    if (eng_exec_still_sentinel(e, in, s, &ok) != 0)
        goto out;
    if (!ok)
        e->failed = true;
    int replays = e->s->replays > 0 ? e->s->replays : 3;
    for (int r = 1; r <= replays && !e->failed; r++) {
        if (eng_exec_prepare_outputs_of(e, in, ENG_OUT_SENTINEL, 1, s) != 0)
            goto out;
        eng_exec_timer_start(e, t, s);
        if (e->B->graph_launch(e->ctx, g, s, e->err, sizeof e->err) != 0)
            goto out;
        eng_exec_timer_stop(e, t, s, 1);
        if (eng_exec_sync_all(e, s) != 0)
            goto out;
        char pre[32];
        snprintf(pre, sizeof pre, "replay %d of %d", r, replays);
        if (eng_exec_oracle(e, in, true, pre, s) != 0)
            goto out;
    }
    e->out->repeats = replays;
    rc = 0;
out:
    if (g)
        e->B->graph_destroy(e->ctx, g);
    e->B->stream_destroy(e->ctx, s);
    return rc;
}

static int mode_streams(struct eng_exec *e, struct eng_inst *in, struct eng_timer *t)
{
    struct eng_stream *p = NULL, *c = NULL;
    struct eng_event *ev = NULL;
    int rc = -1;
    if (e->B->stream_create(e->ctx, &p, e->err, sizeof e->err) ||
        e->B->stream_create(e->ctx, &c, e->err, sizeof e->err) ||
        e->B->event_create(e->ctx, &ev, e->err, sizeof e->err))
        goto out;
    /* Inputs start as garbage; the producer writes the real ones on its own stream, after a
     * delay so that a consumer which does not wait for it reads too early. */
    if (eng_exec_fill_inputs(e, in, NULL, true) || eng_exec_prepare_outputs(e, in, ENG_OUT_SENTINEL, NULL) ||
        eng_exec_guards_scratch(e, in, NULL) || eng_exec_reset_scratch(e, in, 3, NULL) || eng_exec_sync_all(e, NULL))
        goto out;
    int64_t ticks = e->B->caps.delay_ticks;
    eng_dptr sink = e->res + 32 * 8;
    void *da[] = {&ticks, &sink};
    unsigned one[3] = {1, 1, 1};
    if (e->B->launch(e->ctx, e->kdelay, one, one, 0, p, da, e->err, sizeof e->err) ||
        eng_exec_fill_inputs(e, in, p, false))
        goto out;
    if (e->s->event && (e->B->event_record(e->ctx, ev, p, e->err, sizeof e->err) ||
                        e->B->stream_wait_event(e->ctx, c, ev, e->err, sizeof e->err)))
        goto out;
    eng_exec_timer_start(e, t, c);
    if (eng_exec_launch_var(e, in, c))
        goto out;
    eng_exec_timer_stop(e, t, c, 1);
    if (eng_exec_sync_all(e, c) || eng_exec_sync_all(e, p))
        goto out;
    if (eng_exec_launch_ref(e, in, NULL) || eng_exec_sync_all(e, NULL))
        goto out;
    if (!e->s->event)
        eng_exec_note(e, "no event between the producer stream and the kernel's stream");
    if (eng_exec_oracle(e, in, true, "", NULL))
        goto out;
    if (!e->failed && !e->s->event)
        e->detail[0] = '\0';
    rc = 0;
out:
    if (ev)
        e->B->event_destroy(e->ctx, ev);
    if (p)
        e->B->stream_destroy(e->ctx, p);
    if (c)
        e->B->stream_destroy(e->ctx, c);
    return rc;
}

/* Several shapes in one process, one module, earlier shapes' buffers kept alive: a cache keyed
 * on the wrong thing shows when several shapes live side by side. */
static int mode_warm(struct eng_exec *e, struct eng_inst *ins, size_t n, struct eng_timer *t)
{
    eng_exec_ready(e);
    int rc = 0;
    for (size_t i = 0; i < n && rc == 0 && !e->failed; i++) {
        rc = eng_exec_inst_alloc(e, &ins[i]);
        if (rc == 0)
            rc = eng_exec_inst_args(e, &ins[i]);
        if (rc == 0)
            rc = eng_exec_mode_plain(e, &ins[i], t, ENG_OUT_SENTINEL, true, ins[i].desc);
    }
    return rc;
}

/* Buffers reused across shapes (those of the largest), outputs filled with garbage: a kernel
 * that trusts a fresh allocation to be zero, or writes only part of its output, shows. */
static int mode_garbage(struct eng_exec *e, struct eng_inst *ins, size_t n, struct eng_timer *t)
{
    size_t biggest = 0;
    uint64_t big_bytes = 0;
    for (size_t i = 0; i < n; i++) {
        uint64_t tot = 0;
        for (size_t b = 0; b < e->m->nbuffers; b++)
            tot += ins[i].var[b].alloc;
        if (tot > big_bytes) {
            big_bytes = tot;
            biggest = i;
        }
    }
    ENG_TRY(eng_exec_inst_alloc(e, &ins[biggest]));
    for (size_t i = 0; i < n; i++)
        if (i != biggest)
            for (size_t b = 0; b < e->m->nbuffers; b++) {
                ins[i].var[b].base = ins[biggest].var[b].base;
                ins[i].var[b].data = ins[biggest].var[b].data;
                ins[i].var[b].alloc = ins[biggest].var[b].alloc;
                ins[i].ref[b].base = ins[biggest].ref[b].base;
                ins[i].ref[b].data = ins[biggest].ref[b].data;
                ins[i].ref[b].alloc = ins[biggest].ref[b].alloc;
                ins[i].borrowed = true; /* freed with the largest */
            }
    for (size_t i = 0; i < n; i++)
        ENG_TRY(eng_exec_inst_args(e, &ins[i]));
    eng_exec_ready(e);
    int rc = 0;
    for (size_t i = 0; i < n && rc == 0 && !e->failed; i++)
        rc = eng_exec_mode_plain(e, &ins[i], t, ENG_OUT_GARBAGE, false, ins[i].desc);
    return rc;
}

static int execute(struct eng_exec *e, struct eng_inst *ins, size_t n, struct eng_timer *t)
{
    switch (e->s->mode) {
    case ENG_MODE_WARM:
        return mode_warm(e, ins, n, t);
    case ENG_MODE_GARBAGE:
        return mode_garbage(e, ins, n, t);
    default:
        break;
    }
    ENG_TRY(eng_exec_inst_alloc(e, &ins[0]));
    ENG_TRY(eng_exec_inst_args(e, &ins[0]));
    eng_exec_ready(e);
    return e->s->mode == ENG_MODE_GRAPH ? mode_graph(e, &ins[0], t) : mode_streams(e, &ins[0], t);
}

static int input_rows(const struct eng_manifest *m, const struct eng_values *v, size_t b,
                      uint64_t *first, uint64_t *rows, char *err, size_t errlen)
{
    const struct eng_rung4_spec *r = m->settings[4];
    if (!r || r->sample_buffer != (int)b)
        return 0;
    int64_t f, n;
    if (eng_values_eval(v, r->sample_first, &f, err, errlen) != 0 ||
        eng_values_eval(v, r->sample_rows, &n, err, errlen) != 0)
        return -1;
    if (f < 0 || n < 0) {
        snprintf(err, errlen, "rungs.4.pool_sample: rows %lld + %lld are not a row range",
                 (long long)f, (long long)n);
        return -1;
    }
    *first = (uint64_t)f;
    *rows = (uint64_t)n;
    return 1;
}

const struct eng_rung eng_rung4 = {
    .number = 4,
    .name = "production execution",
    .plans_from = "some \"checks\" (graph, streams, warm, garbage, pool)",
    .parse = parse,
    .free_settings = free_settings,
    .plan = plan,
    .execute = execute,
    .input_rows = input_rows,
    .op_unavailable = "rung 4 runs the kernel inside graphs and across streams kladder captures and "
                      "creates: an op launched by its own runtime cannot be put there",
};
