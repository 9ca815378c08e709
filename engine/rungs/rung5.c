/* Rung 5, repeat for determinism: the widest shapes run N times, every repeat equal to the
 * first run bit for bit, N from the failure rate to catch at a confidence (docs/engine.md). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/xalloc.h"
#include "engine/rung.h"
#include "engine/rungs/rung5.h"

/* Repeats of each lag copy (engine/plan.h, eng_plan_add_lag). */
#define ENG_R5_LAG_REPEATS 8
/* Seeds of the pct schedule on an emulating backend: as many as the repeats, at most this
 * many. A race or a missing fence shows under pct in almost every seed (tests/engine/races.sh:
 * at least 19 of 20), where one seed's launch costs up to a second on the cpu backend
 * (instrumented accesses, one OS thread), so a few seeds buy nearly all of it. */
#define ENG_R5_PCT_SEEDS 4

static bool parse(struct eng_mparse *p, const struct eng_manifest *m, const cJSON *j, void **out)
{
    static const char *const keys[] = {"failure_rate", "confidence", "repeats", "schedule", "wide",
                                       NULL};
    /* in the order of enum eng_schedule */
    static const char *const schedules[] = {"default", "adversarial", "random", "pct"};
    struct eng_rung5_spec *r = xcalloc(1, sizeof *r);
    *out = r;
    r->failure_rate = 0.01;
    r->confidence = 0.99;
    r->schedule = -1;
    if (!eng_mp_only_keys(p, j, "rungs.5", keys))
        return false;
    double rep = 0;
    if (!eng_mp_number(p, j, "failure_rate", "rungs.5.failure_rate", 1e-9, 0.999, &r->failure_rate) ||
        !eng_mp_number(p, j, "confidence", "rungs.5.confidence", 0.5, 0.999999, &r->confidence) ||
        !eng_mp_number(p, j, "repeats", "rungs.5.repeats", 0, 1e6, &rep))
        return false;
    if (cJSON_GetObjectItemCaseSensitive(j, "schedule") &&
        !eng_mp_enum(p, j, "schedule", "rungs.5.schedule", schedules, 4, -1, &r->schedule))
        return false;
    r->repeats = (int)rep;
    return eng_mp_shapes(p, m, j, "wide", "rungs.5.wide", false, &r->nwide, &r->wide);
}

static void free_settings(void *settings)
{
    struct eng_rung5_spec *r = settings;
    eng_shapes_free(r->wide, r->nwide);
    free(r);
}

static int plan(struct eng_plan_builder *b, char *err, size_t errlen)
{
    (void)err;
    (void)errlen;
    const struct eng_manifest *m = b->m;
    const struct eng_rung5_spec *r = m->settings[5];
    /* --repeat auto (or --rate / --confidence) derives N from the rate even when the suite
     * names an N of its own; the rate and confidence given win over the suite's */
    double rate = b->o->rate > 0 ? b->o->rate : r->failure_rate;
    double conf = b->o->confidence > 0 ? b->o->confidence : r->confidence;
    int n = b->o->repeats > 0                    ? b->o->repeats
            : r->repeats > 0 && !b->o->repeat_auto ? r->repeats
                                                  : eng_plan_repeats(rate, conf);
    struct eng_shape dflt = {0};
    size_t ns = r->nwide ? r->nwide : 1, start = *b->n;
    for (size_t i = 0; i < ns; i++) {
        const struct eng_shape *s = r->nwide ? &r->wide[i] : &dflt;
        char tag[160], name[200];
        eng_shape_tag(s, tag, sizeof tag);
        snprintf(name, sizeof name, "repeat-%s", s->n ? tag : "default");
        size_t first = *b->n;
        eng_plan_add(b, name, ENG_MODE_REPEAT, false, s, 1, n, 0);
        for (size_t k = first; k < *b->n; k++) {
            (*b->list)[k].confidence = conf;
            /* A rare race declares the schedule whose interleavings reach it at its rate (a
             * fixed order never does); --schedule still wins, to show that. */
            if (r->schedule >= 0 && !b->o->schedule_given)
                (*b->list)[k].spec.schedule = (enum eng_schedule)r->schedule;
        }
    }
    /* The same checks built to hold one wave back: a race between waves that a GPU runs in
     * step shows in the checked launch of some seed. Their repeats only add launches to compare,
     * which the checks above already make N of. */
    eng_plan_add_lag(b, start, ENG_R5_LAG_REPEATS);
    /* The interleavings that find races and missing fences, without being asked for: the
     * repeats above keep the run's schedule and their cost. */
    eng_plan_add_pct(b, start, n < ENG_R5_PCT_SEEDS ? n : ENG_R5_PCT_SEEDS);
    return 0;
}

/* ---- execution ------------------------------------------------------------------------ */

/* What the byte-for-byte re-run found, per repeat: a count summed over repeats would read as
 * more words than the output has. */
struct repeat_diff {
    int differing;           /* repeats with any differing word */
    uint64_t words;          /* 8-byte words of all outputs, compared in each repeat */
    uint64_t min_w, max_w;   /* fewest and most differing words in one differing repeat */
    uint64_t first_byte;     /* first differing byte + 1 over all repeats; 0 none */
};

/* Byte comparison of every output with its first-run copy (gold), repeats times on stream s,
 * each repeat read back on its own (res[24] counts differing 8-byte words, res[25] the first
 * differing byte + 1; both accumulate, so a repeat's count is the growth of res[24]). This is
 * the diagnostic pass after a hash differed, so a synchronisation per repeat costs little. */
static int repeat_bytes(struct eng_exec *e, struct eng_inst *in, eng_dptr *gold, int repeats,
                        struct eng_stream *s, struct repeat_diff *d)
{
    const struct eng_manifest *m = e->m;
    eng_dptr bits = e->res + 24 * 8;
    uint64_t w[ENG_RES_WORDS], before = 0;
    memset(d, 0, sizeof *d);
    ENG_TRY(eng_exec_res_clear(e, s));
    for (size_t i = 0; i < m->nbuffers; i++)
        if (m->buffers[i].role == ENG_ROLE_OUTPUT)
            d->words += (in->var[i].padded_bytes + 7) / 8;
    for (int r = 0; r < repeats; r++) {
        ENG_TRY(eng_exec_prepare_outputs_of(e, in, ENG_OUT_SENTINEL, 1, s) ||
                (!e->s->scratch_once && eng_exec_reset_scratch(e, in, 1, s)) || eng_exec_launch_var(e, in, s));
        for (size_t i = 0; i < m->nbuffers; i++) {
            if (m->buffers[i].role != ENG_ROLE_OUTPUT)
                continue;
            struct eng_bufi *v = &in->var[i];
            void *a[] = {&v->data, &gold[i], &v->padded_bytes, &bits};
            ENG_TRY(eng_exec_ulaunch(e, e->kbit, v->padded_bytes / 8 + 1, s, a));
        }
        ENG_TRY(eng_exec_sync_all(e, s) || eng_exec_res_read(e, w, NULL));
        uint64_t now = w[24] - before;
        before = w[24];
        if (now) {
            d->min_w = d->differing == 0 || now < d->min_w ? now : d->min_w;
            d->max_w = now > d->max_w ? now : d->max_w;
            d->differing++;
        }
        d->first_byte = w[25];
    }
    return 0;
}

/* Small outputs, many repeats: the per-repeat cost is then launches, not bytes. Each output
 * gets ROT_COPIES copies (the first is the instance's own buffer), consecutive repeats write
 * into consecutive copies, and after ROT_COPIES repeats one kl_util_hash_refill per output
 * hashes every copy into its repeat's slot and puts the sentinel back: a repeat costs its own
 * launch and an eighth of a hash launch, where a fill, the launch and a hash each cost one.
 * Large outputs keep one buffer (bytes dominate there, and copies would cost memory). */
#define ROT_COPIES 8
#define ROT_MAX_BYTES ((uint64_t)1 << 20)   /* per output */
#define BIG_BATCH 1024                      /* repeats per graph for small outputs... */
#define BIG_BATCH_FROM 8192                 /* ...when N is at least this */

struct rotation {
    int copies;            /* 1: not rotating */
    uint64_t nout;
    eng_dptr *base;        /* [o * copies + k], k >= 1: the extra copies' allocations */
    eng_dptr table;        /* device: [o * copies + k] each copy's data pointer */
    eng_dptr gres;         /* device: guard-check result words of the extra copies */
};

static bool rotation_fits(const struct eng_exec *e, const struct eng_inst *in, const size_t *outs,
                          uint64_t nout, int batch)
{
    const struct eng_manifest *m = e->m;
    if (!e->B->graph_begin || e->host || in->sampled || nout == 0 || batch % ROT_COPIES != 0)
        return false;
    for (size_t i = 0; i < m->nbuffers; i++)
        if (m->buffers[i].role == ENG_ROLE_SCRATCH && !e->s->scratch_once)
            return false; /* a reset per repeat: keep the plain sequence */
    for (uint64_t o = 0; o < nout; o++)
        if (in->var[outs[o]].padded_bytes > ROT_MAX_BYTES || in->var[outs[o]].padded_bytes < 8 ||
            m->buffers[outs[o]].prefilled)
            return false; /* a prefilled output is refilled from its init, not the sentinel */
    return true;
}

/* Allocates the extra copies, fills them (guards included) and the first copy's data with
 * the sentinel, and uploads the pointer table. */
static int rotation_setup(struct eng_exec *e, struct eng_inst *in, const size_t *outs,
                          uint64_t nout, struct rotation *rot)
{
    const int K = ROT_COPIES;
    rot->copies = K;
    rot->nout = nout;
    rot->base = xcalloc(nout * K, sizeof *rot->base);
    uint64_t *tab = xcalloc(nout * K, sizeof *tab);
    int rc = -1;
    for (uint64_t o = 0; o < nout; o++) {
        struct eng_bufi *v = &in->var[outs[o]];
        uint64_t pat = eng_dtype_sentinel(e->m->buffers[outs[o]].dtype), bytes = v->padded_bytes;
        void *a0[] = {&v->data, &bytes, &pat};
        if (eng_exec_ulaunch(e, e->kpat, bytes / 8 + 1, NULL, a0))
            goto out;
        tab[o * K] = v->data;
        for (int k = 1; k < K; k++) {
            eng_dptr *b = &rot->base[o * K + k];
            uint64_t all = v->alloc;
            if (e->B->mem_alloc(e->ctx, v->alloc, b, e->err, sizeof e->err))
                goto out;
            void *a[] = {b, &all, &pat};
            if (eng_exec_ulaunch(e, e->kpat, all / 8 + 1, NULL, a))
                goto out;
            tab[o * K + k] = *b + ENG_GUARD_BYTES;
        }
    }
    if (e->B->mem_alloc(e->ctx, nout * K * 8, &rot->table, e->err, sizeof e->err) ||
        e->B->memcpy_htod(e->ctx, rot->table, tab, nout * K * 8, NULL, e->err, sizeof e->err) ||
        e->B->mem_alloc(e->ctx, 8 * 8, &rot->gres, e->err, sizeof e->err) ||
        e->B->memset_d8(e->ctx, rot->gres, 0, 8 * 8, NULL, e->err, sizeof e->err))
        goto out;
    rc = 0;
out:
    free(tab);
    return rc;
}

/* Points every argument that names output outs[o] at copy k (copy 0: the buffer itself). */
static void rotation_point(struct eng_exec *e, struct eng_inst *in, const size_t *outs,
                           const struct rotation *rot, int k)
{
    const struct eng_manifest *m = e->m;
    for (size_t i = 0; i < m->nargs; i++)
        for (uint64_t o = 0; o < rot->nout; o++)
            if (m->args[i].buffer >= 0 && (size_t)m->args[i].buffer == outs[o]) {
                eng_dptr p = k ? rot->base[o * rot->copies + k] + ENG_GUARD_BYTES
                               : in->var[outs[o]].data;
                memcpy(in->vals_var[i], &p, sizeof p);
            }
}

/* One group of `copies` repeats inside the capture: each launch into its own copy, then per
 * output one hash-and-refill of every copy into the slots of repeats first .. first+copies-1. */
static int rotation_group(struct eng_exec *e, struct eng_inst *in, const size_t *outs,
                          const struct rotation *rot, eng_dptr slots, int first,
                          struct eng_stream *s)
{
    const int K = rot->copies;
    for (int k = 0; k < K; k++) {
        rotation_point(e, in, outs, rot, k);
        int rc = eng_exec_launch_var(e, in, s);
        rotation_point(e, in, outs, rot, 0);
        ENG_TRY(rc);
    }
    for (uint64_t o = 0; o < rot->nout; o++) {
        struct eng_bufi *v = &in->var[outs[o]];
        uint64_t ncopies = (uint64_t)K, bytes = v->padded_bytes, stride = rot->nout;
        uint64_t pat = eng_dtype_sentinel(e->m->buffers[outs[o]].dtype);
        eng_dptr tab = rot->table + o * K * 8, sl = slots + ((uint64_t)first * rot->nout + o) * 8;
        uint64_t per = (bytes / 8 + e->ublock - 1) / e->ublock;
        uint64_t cap = e->ugrid / (unsigned)K;
        per = per < 1 ? 1 : per > cap ? (cap < 1 ? 1 : cap) : per;
        unsigned g[3] = {(unsigned)(per * (uint64_t)K), 1, 1}, b[3] = {e->ublock, 1, 1};
        void *a[] = {&tab, &ncopies, &bytes, &sl, &stride, &pat};
        ENG_TRY(e->B->launch(e->ctx, e->khrefill, g, b, 0, s, a, e->err, sizeof e->err));
    }
    return 0;
}

/* The extra copies' guards after the run: a repeat that wrote outside its copy. Returns the
 * changed guard words (0: none), or -1 on a runtime error. */
static int64_t rotation_guards(struct eng_exec *e, struct eng_inst *in, const size_t *outs,
                               const struct rotation *rot)
{
    for (uint64_t o = 0; o < rot->nout; o++) {
        struct eng_bufi *v = &in->var[outs[o]];
        uint64_t pat = eng_dtype_sentinel(e->m->buffers[outs[o]].dtype);
        for (int k = 1; k < rot->copies; k++) {
            eng_dptr lo = rot->base[o * rot->copies + k], hi = lo + ENG_GUARD_BYTES + v->padded_bytes;
            uint64_t nlo = ENG_GUARD_BYTES, nhi = v->alloc - ENG_GUARD_BYTES - v->padded_bytes;
            eng_dptr gres = rot->gres;
            void *a1[] = {&lo, &nlo, &pat, &gres};
            void *a2[] = {&hi, &nhi, &pat, &gres};
            if (eng_exec_ulaunch(e, e->kchk, nlo / 8 + 1, NULL, a1) ||
                (nhi && eng_exec_ulaunch(e, e->kchk, nhi / 8 + 1, NULL, a2)))
                return -1;
        }
    }
    uint64_t w[8];
    if (eng_exec_sync_all(e, NULL) ||
        e->B->memcpy_dtoh(e->ctx, w, rot->gres, sizeof w, NULL, e->err, sizeof e->err))
        return -1;
    return (int64_t)w[0];
}

static void rotation_free(struct eng_exec *e, struct rotation *rot)
{
    for (uint64_t i = 0; rot->base && i < rot->nout * (uint64_t)rot->copies; i++)
        if (rot->base[i])
            e->B->mem_free(e->ctx, rot->base[i]);
    if (rot->table)
        e->B->mem_free(e->ctx, rot->table);
    if (rot->gres)
        e->B->mem_free(e->ctx, rot->gres);
    free(rot->base);
}

/* What one rung 5 run carries from step to step; repeat_free releases what it holds. */
struct repeat_run {
    struct eng_exec *e;
    struct eng_inst *in;
    struct eng_timer *t;
    int n;                 /* repeats, rounded up to whole replays */
    int batch;             /* repeats per graph (all of them without graphs) */
    int replays;           /* graph replays; 0 without graphs */
    bool use_graph;
    size_t *outs;          /* the output buffers' indices */
    uint64_t nout, nslots; /* outputs; hash slots (batch * nout) */
    eng_dptr *gold;        /* [buffer] the first run's copy of each output */
    eng_dptr gold_hash;    /* device: the first run's hash of each output */
    eng_dptr slots;        /* device: each repeat's hash of each output */
    struct eng_stream *s;
    struct eng_graph *g;
    struct rotation rot;
};

/* The output buffers, and room for the first run's copy of each. */
static void repeat_find_outputs(struct repeat_run *rr)
{
    const struct eng_manifest *m = rr->e->m;
    rr->gold = xcalloc(m->nbuffers + 1, sizeof *rr->gold);
    rr->outs = xcalloc(m->nbuffers + 1, sizeof *rr->outs);
    for (size_t i = 0; i < m->nbuffers; i++)
        if (m->buffers[i].role == ENG_ROLE_OUTPUT)
            rr->outs[rr->nout++] = i;
}

/* Up to 32 repeats per graph, so the per-replay launch cost is spread over them, and 1024 for
 * small outputs when N is large; the repeat count is rounded up to whole replays. */
static void repeat_size_batches(struct repeat_run *rr)
{
    struct eng_exec *e = rr->e;
    int n = e->s->repeats > 0 ? e->s->repeats : 1;
    rr->n = n;
    /* an op on the host's side launches through its own runtime: nothing to capture */
    rr->use_graph = e->B->graph_begin != NULL && !e->host;
    int most = n >= BIG_BATCH_FROM && rotation_fits(e, rr->in, rr->outs, rr->nout, BIG_BATCH)
                   ? BIG_BATCH
                   : 32;
    rr->batch = rr->use_graph ? (n < most ? n : most) : n;
    rr->replays = rr->use_graph ? (n + rr->batch - 1) / rr->batch : 0;
    if (rr->use_graph)
        rr->n = rr->batch * rr->replays;
    rr->nslots = (uint64_t)rr->batch * rr->nout;
}

/* The device words for the first run's hashes and for every repeat's, zeroed. */
static int repeat_alloc_hashes(struct repeat_run *rr)
{
    struct eng_exec *e = rr->e;
    uint64_t nout = rr->nout ? rr->nout : 1, nslots = rr->nslots ? rr->nslots : 1;
    if (e->B->mem_alloc(e->ctx, nout * 8, &rr->gold_hash, e->err, sizeof e->err) ||
        e->B->mem_alloc(e->ctx, nslots * 8, &rr->slots, e->err, sizeof e->err) ||
        e->B->memset_d8(e->ctx, rr->gold_hash, 0, nout * 8, NULL, e->err, sizeof e->err) ||
        e->B->memset_d8(e->ctx, rr->slots, 0, nslots * 8, NULL, e->err, sizeof e->err))
        return -1;
    return 0;
}

/* The first run: a copy of every output (for locating a difference) and its hash. */
static int repeat_keep_first_run(struct repeat_run *rr)
{
    struct eng_exec *e = rr->e;
    for (uint64_t o = 0; o < rr->nout; o++) {
        size_t i = rr->outs[o];
        struct eng_bufi *v = &rr->in->var[i];
        if (e->B->mem_alloc(e->ctx, v->padded_bytes ? v->padded_bytes : 8, &rr->gold[i], e->err,
                            sizeof e->err))
            return -1;
        void *a[] = {&rr->gold[i], &v->data, &v->padded_bytes};
        if (eng_exec_ulaunch(e, e->kcopy, v->padded_bytes / 8 + 1, NULL, a))
            return -1;
        eng_dptr h = rr->gold_hash + o * 8;
        void *ha[] = {&v->data, &v->padded_bytes, &h};
        if (eng_exec_ulaunch(e, e->khash, v->padded_bytes / 8 + 1, NULL, ha))
            return -1;
    }
    return eng_exec_res_clear(e, NULL) || eng_exec_sync_all(e, NULL) ? -1 : 0;
}

/* The stream the repeats run on, and the output copies when the outputs rotate. */
static int repeat_prepare_stream(struct repeat_run *rr)
{
    struct eng_exec *e = rr->e;
    if (e->B->stream_create(e->ctx, &rr->s, e->err, sizeof e->err))
        return -1;
    if (rotation_fits(e, rr->in, rr->outs, rr->nout, rr->batch) &&
        (rotation_setup(e, rr->in, rr->outs, rr->nout, &rr->rot) || eng_exec_sync_all(e, NULL)))
        return -1;
    return 0;
}

/* One batch of plain repeats, each hashing its outputs into its own slots. */
static int repeat_queue_plain(struct repeat_run *rr)
{
    struct eng_exec *e = rr->e;
    struct eng_inst *in = rr->in;
    for (int r = 0; r < rr->batch; r++) {
        /* Outputs back to the sentinel before every repeat (inside the graph): a repeat that
         * writes nothing must not match the first run by leaving its output in place. */
        if (eng_exec_prepare_outputs_of(e, in, ENG_OUT_SENTINEL, 1, rr->s) ||
            (!e->s->scratch_once && eng_exec_reset_scratch(e, in, 1, rr->s)) ||
            eng_exec_launch_var(e, in, rr->s))
            return -1;
        for (uint64_t o = 0; o < rr->nout; o++) {
            struct eng_bufi *v = &in->var[rr->outs[o]];
            eng_dptr h = rr->slots + ((uint64_t)r * rr->nout + o) * 8;
            void *ha[] = {&v->data, &v->padded_bytes, &h};
            if (eng_exec_ulaunch(e, e->khash, v->padded_bytes / 8 + 1, rr->s, ha))
                return -1;
        }
    }
    return 0;
}

/* One batch of repeats and the check of their hashes against the first run's, captured into
 * a graph when the backend has graphs. */
static int repeat_queue_batch(struct repeat_run *rr)
{
    struct eng_exec *e = rr->e;
    if (rr->use_graph && e->B->graph_begin(e->ctx, rr->s, e->err, sizeof e->err))
        return -1;
    for (int r = 0; rr->rot.copies > 1 && r < rr->batch; r += rr->rot.copies)
        if (rotation_group(e, rr->in, rr->outs, &rr->rot, rr->slots, r, rr->s))
            return -1;
    if (rr->rot.copies == 1 && repeat_queue_plain(rr))
        return -1;
    eng_dptr diff = e->res + 26 * 8;
    void *ca[] = {&rr->slots, &rr->nslots, &rr->gold_hash, &rr->nout, &diff};
    return eng_exec_ulaunch(e, e->khcheck, rr->nslots, rr->s, ca) ? -1 : 0;
}

/* Ends the capture and replays the graph, timed in up to 16 groups of replays: min/median/max
 * of the per-repeat cost. Without graphs the batch is already queued. */
static int repeat_replay_timed(struct repeat_run *rr)
{
    struct eng_exec *e = rr->e;
    if (!rr->use_graph)
        return 0;
    if (e->B->graph_end(e->ctx, rr->s, &rr->g, e->err, sizeof e->err))
        return -1;
    int groups = rr->replays < 16 ? rr->replays : 16, done = 0;
    for (int gi = 0; gi < groups; gi++) {
        int cnt = (rr->replays - done) / (groups - gi);
        eng_exec_timer_start(e, rr->t, rr->s);
        for (int r = 0; r < cnt; r++)
            if (e->B->graph_launch(e->ctx, rr->g, rr->s, e->err, sizeof e->err))
                return -1;
        eng_exec_timer_stop(e, rr->t, rr->s, cnt * rr->batch);
        done += cnt;
    }
    return 0;
}

/* With rotating outputs: a repeat that wrote outside its copy fails the check. */
static int repeat_check_guards(struct repeat_run *rr)
{
    struct eng_exec *e = rr->e;
    if (rr->rot.copies <= 1)
        return 0;
    int64_t bad = rotation_guards(e, rr->in, rr->outs, &rr->rot);
    if (bad < 0)
        return -1;
    if (bad) {
        e->failed = true;
        eng_exec_note(e, "%d repeats: %lld guard words around the output copies changed (a "
                      "repeat wrote outside its output)", rr->n, (long long)bad);
        eng_exec_record_bad(e, -1, bad, NAN);
    }
    return 0;
}

/* Some repeat's hash differed (hashes of them, in all): the check fails, and the first
 * differing byte is named by running the same repeats again, compared byte for byte. */
static int repeat_name_difference(struct repeat_run *rr, uint64_t hashes)
{
    struct eng_exec *e = rr->e;
    int n = rr->n, batch = rr->batch;
    e->failed = true;
    struct repeat_diff d;
    if (repeat_bytes(e, rr->in, rr->gold, batch, rr->s, &d))
        return -1;
    if (d.differing) {
        char words[96];
        if (d.min_w == d.max_w)
            snprintf(words, sizeof words, "%llu", (unsigned long long)d.max_w);
        else
            snprintf(words, sizeof words, "%llu to %llu", (unsigned long long)d.min_w,
                     (unsigned long long)d.max_w);
        eng_exec_note(e, "%d repeats: %llu differed from the first run's content hash; run again byte "
                "for byte, in %d of %d repeats, %s of %llu 8-byte words differed from the "
                "first run (first at byte %llu)",
             n, (unsigned long long)hashes, d.differing, batch, words,
             (unsigned long long)d.words, (unsigned long long)(d.first_byte - 1));
        eng_exec_record_bad(e, (int64_t)d.first_byte - 1, (int64_t)d.max_w, NAN);
    } else {
        eng_exec_note(e, "%d repeats: %llu differed from the first run's content hash (the byte-for-byte "
                "re-run of %d repeats matched)",
             n, (unsigned long long)hashes, batch);
        eng_exec_record_bad(e, -1, (int64_t)hashes, NAN);
    }
    return 0;
}

static void repeat_free(struct repeat_run *rr)
{
    struct eng_exec *e = rr->e;
    rotation_free(e, &rr->rot);
    if (rr->g)
        e->B->graph_destroy(e->ctx, rr->g);
    if (rr->s)
        e->B->stream_destroy(e->ctx, rr->s);
    for (size_t i = 0; i < e->m->nbuffers; i++)
        if (rr->gold[i])
            e->B->mem_free(e->ctx, rr->gold[i]);
    if (rr->gold_hash)
        e->B->mem_free(e->ctx, rr->gold_hash);
    if (rr->slots)
        e->B->mem_free(e->ctx, rr->slots);
    free(rr->gold);
    free(rr->outs);
}

/* Rung 5: N repeats must equal the first run bit for bit. Each repeat adds a one-pass content
 * hash of every output into its own slot, and one check per batch compares the slots with the
 * first run's hashes on the device: a repeat reads its output once (a byte comparison with the
 * kept copy reads two outputs; bench/RESULTS.md has the numbers). Only when a hash differs are
 * repeats run again with the byte comparison, to name the first differing byte. */
static int mode_repeat(struct eng_exec *e, struct eng_inst *in, struct eng_timer *t)
{
    ENG_TRY(eng_exec_mode_plain(e, in, t, ENG_OUT_SENTINEL, true, "first run"));
    if (e->failed)
        return 0;
    struct repeat_run rr = {.e = e, .in = in, .t = t, .rot = {.copies = 1}};
    repeat_find_outputs(&rr);
    repeat_size_batches(&rr);
    uint64_t w[ENG_RES_WORDS];
    int rc = -1;
    if (repeat_alloc_hashes(&rr) || repeat_keep_first_run(&rr) || repeat_prepare_stream(&rr) ||
        repeat_queue_batch(&rr) || repeat_replay_timed(&rr) || eng_exec_sync_all(e, rr.s) ||
        eng_exec_res_read(e, w, NULL))
        goto out;
    e->out->repeats = rr.n;
    if (repeat_check_guards(&rr) || (w[26] && repeat_name_difference(&rr, w[26])))
        goto out;
    rc = 0;
out:
    repeat_free(&rr);
    return rc;
}

static int execute(struct eng_exec *e, struct eng_inst *ins, size_t n, struct eng_timer *t)
{
    (void)n;
    ENG_TRY(eng_exec_inst_alloc(e, &ins[0]));
    ENG_TRY(eng_exec_inst_args(e, &ins[0]));
    eng_exec_ready(e);
    return mode_repeat(e, &ins[0], t);
}

const struct eng_rung eng_rung5 = {
    .number = 5,
    .name = "repeat for determinism",
    .parse = parse,
    .free_settings = free_settings,
    .plan = plan,
    .execute = execute,
    .repeats_from_rate = true,
};
