/* Running one check on a device (the worker side of the watchdog): its flow from setup through
 * planning every shape to the plain mode (or the rung's own modes) and the verdict.
 *
 * Every buffer is allocated at its padded size between two guard regions. Outputs (and their
 * guards) start as the dtype's sentinel, the reference writes into its own copies prepared the
 * same way, and the oracles in kernels/util.kl compare on the device; only a few result words
 * come back to the host. The parts live beside this file: setup (engine/exec/exec_setup.c),
 * instances (exec_inst.c), buffers and fills (exec_buffers.c), launches (exec_launch.c),
 * oracles (exec_oracle.c, exec_where.c), findings (exec_findings.c) and timing
 * (exec_timing.c). */
#include "engine/exec/exec_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/xalloc.h"
#include "engine/exec/phase_time.h"
#include "engine/exec/worker.h"
#include "engine/exec/suite_cache.h"
#include "engine/rung.h"

/* One shape, one launch on the default stream. */
int eng_exec_mode_plain(struct eng_exec *e, struct eng_inst *in, struct eng_timer *t, enum eng_out_style style,
                      bool full, const char *prefix)
{
    ENG_TRY(eng_exec_fill_inputs(e, in, NULL, false));
    eng_phase_mark("fill");
    ENG_TRY(eng_exec_prepare_outputs(e, in, style, NULL));
    ENG_TRY(eng_exec_guards_scratch(e, in, NULL));
    ENG_TRY(eng_exec_reset_scratch(e, in, 3, NULL));
    eng_phase_mark("outputs");
    ENG_TRY(eng_exec_launch_ref(e, in, NULL));
    eng_phase_mark("ref");
    eng_exec_timer_start(e, t, NULL);
    ENG_TRY(eng_exec_launch_var(e, in, NULL));
    eng_exec_timer_stop(e, t, NULL, 1);
    eng_phase_mark("op");
    ENG_TRY(eng_exec_sync_all(e, NULL));
    eng_phase_mark("sync");
    int rc = eng_exec_oracle(e, in, full, prefix, NULL);
    eng_phase_mark("oracle");
    return rc;
}

static void finish_error(struct eng_exec *e, const char *what)
{
    bool race = strncmp(e->err, ENG_RACE_PREFIX, sizeof ENG_RACE_PREFIX - 1) == 0;
    e->out->verdict = race ? CDB_FAIL : CDB_ERROR;
    if (race)
        eng_check_defect(e->out, "race");
    snprintf(e->out->detail, sizeof e->out->detail, "%.600s%s%.900s", what ? what : "",
             what && *what ? ": " : "", e->err[0] ? e->err : "unknown error");
}

/* A data race the backend found in this check's launches fails the check: the race first
 * (both accesses), then what the oracles saw of the outputs it left (wrong values, or none). */
static void race_found(struct eng_exec *e, int rc)
{
    char race[1024];
    if (!e->B->race_take || rc != 0 || e->B->race_take(e->ctx, race, sizeof race) != 1)
        return;
    char was[sizeof e->detail];
    snprintf(was, sizeof was, "%s", e->detail);
    snprintf(e->detail, sizeof e->detail, "%.1000s%s%.500s", race, was[0] ? "; " : "", was);
    e->failed = true;
    eng_check_defect(e->out, "race");
}

/* A race check that stopped before a launch's end is said in the check's detail, after what
 * it found: a pass then reads as a partial one. */
static void race_note(struct eng_exec *e)
{
    char note[200];
    if (!e->B->race_note_take || e->B->race_note_take(e->ctx, note, sizeof note) != 1)
        return;
    size_t l = strlen(e->detail);
    snprintf(e->detail + l, sizeof e->detail - l, "%s%s", l ? "; " : "", note);
}

void eng_exec_ready(struct eng_exec *e)
{
    if (e->ready)
        e->ready(e->ready_arg);
    e->ready = NULL;
}

/* The wave width the check runs at: the spec's on an emulating backend, the device's on a GPU. */
static int eng_exec_run_wave(const struct eng_exec *e)
{
    return e->B->caps.emulated ? (e->s->wave == 64 ? 64 : 32) : e->info.wave_size;
}

/* A kernel that declares KL_ASSUME_WAVE(kernel, n) is not launched at another wave: the check
 * fails naming both numbers (a wrong answer from it would only say that something differs). */
static bool wave_assumption_broken(struct eng_exec *e)
{
    if (e->host) /* no kernel of ours to ask */
        return false;
    const char *entry = strcmp(e->s->variant, "buggy") == 0 ? e->m->entry_buggy : e->m->entry_fixed;
    char sym[160], err[256];
    snprintf(sym, sizeof sym, "kl_assume_wave_%s", entry);
    void *addr = NULL;
    int assumed = 0;
    if (!e->B->module_symbol || e->B->module_symbol(e->ctx, e->mod, sym, &addr, err, sizeof err) ||
        e->B->memcpy_dtoh(e->ctx, &assumed, (eng_dptr)(uintptr_t)addr, sizeof assumed, NULL, err,
                          sizeof err))
        return false;
    int wave = eng_exec_run_wave(e);
    if (assumed == wave)
        return false;
    eng_exec_note(e, "kernel %s assumes wave %d (KL_ASSUME_WAVE), this run's wave is %d: not "
                  "launched", entry, assumed, wave);
    char a[192], b[64];
    snprintf(a, sizeof a, "kernel %s assumes: wave %d", entry, assumed);
    snprintf(b, sizeof b, "this run: wave %d", wave);
    eng_check_seam(e->out, "wave", a, b);
    return true;
}

/* What a check's "values" made, for the start of a finding: "value class peaked, V=ones: " or
 * "replayed S (flydsl-1020.safetensors, layers.11.attn.scores): ". */
static void describe_values(const char *v, char *out, size_t n)
{
    size_t first = strcspn(v, ";");
    bool replay = !strncmp(v, "replay", first) && first == 6;
    size_t len = replay ? (size_t)snprintf(out, n, "replayed")
                        : (size_t)snprintf(out, n, "value class %.*s", (int)first, v);
    for (const char *o = strchr(v, ';'); o && len + 8 < n; o = strchr(o + 1, ';')) {
        size_t seg = strcspn(o + 1, ";"), name = strcspn(o + 1, "=");
        const char *val = o + 2 + name;
        if (name >= seg)
            continue;
        if (*val == '@') {
            const char *hash = memchr(val, '#', seg - name - 1);
            const char *file = val + 1, *slash = file;
            for (const char *c = file; c < (hash ? hash : val + seg - name - 1); c++)
                if (*c == '/')
                    slash = c + 1;
            int flen = (int)((hash ? hash : o + 1 + seg) - slash);
            int tlen = hash ? (int)(o + 1 + seg - hash - 1) : 0;
            len += (size_t)snprintf(out + len, n - len, "%s %.*s (%.*s, %.*s)",
                                    o == strchr(v, ';') ? "" : ",", (int)name, o + 1, flen, slash,
                                    tlen, hash ? hash + 1 : "");
        } else {
            len += (size_t)snprintf(out + len, n - len, ", %.*s", (int)seg, o + 1);
        }
    }
    if (len + 3 < n)
        snprintf(out + len, n - len, ": ");
}

void eng_check_run(const struct eng_check_spec *s, void (*ready)(void *), void *arg,
                   struct eng_check_result *out)
{
    const struct eng_rung *R = eng_rung_find(s->rung);
    const struct eng_manifest *m = NULL;
    char err[1024];
    if (s->kind != ENG_CHECK_E2E && !(m = eng_suite_cached(s->suite, err, sizeof err))) {
        eng_check_result_init(out);
        snprintf(out->detail, sizeof out->detail, "setup: %.1500s", err);
        if (ready)
            ready(arg);
        return;
    }
    if (R && R->run)
        R->run(s, m, ready, arg, out);
    else
        eng_exec_check(s, m, ready, arg, out);
}

void eng_check_worker_end(void) { eng_suite_cache_clear(); }

/* A shape-specialised kernel that does not compile fails its check as a finding about that
 * shape (a fallback the compiler cannot lower, aiter-4987) and the run goes on; any other
 * setup failure is the check's error. */
static void setup_failed(struct eng_exec *e)
{
    struct eng_check_result *out = e->out;
    if (!e->spec_shape[0] || !e->compile_error[0]) {
        finish_error(e, "setup");
        return;
    }
    out->verdict = CDB_FAIL;
    eng_check_defect(out, "compile");
    snprintf(out->oracle, sizeof out->oracle, "compile");
    snprintf(out->shape, sizeof out->shape, "%s", e->spec_shape);
    snprintf(out->detail, sizeof out->detail,
             "the kernel specialised for %s does not compile for %s: %s", e->spec_shape,
             e->target, e->compile_error);
}

/* Every shape planned: -1 (e->err), 1 (one is skipped: the reasons in e->detail) or 0. The
 * result's shape is the first one's. */
static int plan_shapes(struct eng_exec *e, struct eng_inst *ins, size_t nsh)
{
    const struct eng_check_spec *s = e->s;
    struct eng_shape none = {0};
    bool skip = false, err = false;
    for (size_t i = 0; i < nsh && !err; i++) {
        int r = eng_exec_inst_plan(e, &ins[i], s->nshapes ? &s->shapes[i] : &none);
        err = r < 0;
        skip |= r > 0;
    }
    snprintf(e->out->shape, sizeof e->out->shape, "%s%s", ins[0].desc ? ins[0].desc : "",
             nsh > 1 ? " (+ more)" : "");
    return err ? -1 : skip ? 1 : 0;
}

/* The report says what was run and judged of a sampled instance: never a whole-output pass. */
static void note_samples(struct eng_exec *e, const struct eng_inst *in)
{
    struct eng_check_result *out = e->out;
    if (in->sampled) {
        const struct eng_sample *sm = &in->sample;
        snprintf(out->oracle, sizeof out->oracle, "reference+sentinel (sampled)");
        eng_exec_note(e, "sampled on the cpu backend: %zu of %llu blocks ran (the tiles of %s at "
                      "each 2^31 and 2^32-byte cliff it reaches%s, the first and the last), "
                      "oracles over those %llu of %llu elements",
                      sm->nblocks, (unsigned long long)sm->all_blocks,
                      e->m->buffers[sm->out].name,
                      sm->element_cliffs ? " and each 2^31 and 2^32-element one" : "",
                      (unsigned long long)sm->elems,
                      (unsigned long long)in->var[sm->out].padded_elems);
    }
    for (size_t i = 0; in->rows_sampled && i < e->m->nbuffers; i++) {
        const struct eng_bufi *b = &in->var[i];
        if (!b->rows_only)
            continue;
        snprintf(out->oracle, sizeof out->oracle, "reference+sentinel (sampled)");
        eng_exec_note(e, "sampled on the cpu backend: input %s filled only in rows %llu to "
                      "%llu, the rows a correct kernel reads (the rest reads as zero)",
                      e->m->buffers[i].name, (unsigned long long)b->row_first,
                      (unsigned long long)(b->row_first + b->row_count - (b->row_count > 0)));
    }
}

/* The plain check of one instance, allocated: the plain mode, then the rung's own oracle (not
 * for the baseline). */
static int run_plain(struct eng_exec *e, const struct eng_rung *R, struct eng_inst *in,
                     struct eng_timer *t)
{
    const struct eng_check_spec *s = e->s;
    eng_exec_ready(e);
    eng_exec_timer_init(e, t);
    int rc = eng_exec_mode_plain(e, in, t, s->baseline ? ENG_OUT_ZEROS : ENG_OUT_SENTINEL,
                                 !s->baseline, "");
    if (rc == 0 && !s->baseline && R && R->oracle)
        rc = R->oracle(e, in);
    if (rc == 0)
        note_samples(e, in);
    return rc;
}

/* The verdict from what the modes returned (rc) and found. */
static void verdict(struct eng_exec *e, int rc, const struct eng_timer *t)
{
    const struct eng_check_spec *s = e->s;
    struct eng_check_result *out = e->out;
    if (rc < 0) {
        finish_error(e, e->failed ? e->detail : "");
    } else if (rc > 0) {
        out->verdict = CDB_SKIP;
        snprintf(out->detail, sizeof out->detail, "%s", e->detail);
    } else {
        out->verdict = e->failed ? CDB_FAIL : e->doubt ? CDB_DOUBT : CDB_PASS;
        /* A finding on made-up values names them: the class is half of what went wrong. */
        char cls[120] = "";
        if (s->values && (e->failed || e->doubt))
            describe_values(s->values, cls, sizeof cls);
        snprintf(out->detail, sizeof out->detail, "%s%.1400s", cls, e->detail);
        if (!out->repeats)
            out->repeats = (int)t->n;
    }
}

/* After setup: the shapes planned, the wave's assumption checked, the modes run (the plain one,
 * or the rung's), the verdict. */
static void run_check(struct eng_exec *e, const struct eng_rung *R, struct eng_inst *ins,
                      size_t nsh)
{
    const struct eng_check_spec *s = e->s;
    struct eng_check_result *out = e->out;
    /* Races become findings of this check (race_found below), after its own outputs are judged;
     * one left from an earlier check on this context is not this check's. */
    char race[1024];
    if (e->B->race_take)
        (void)e->B->race_take(e->ctx, race, sizeof race);
    if (e->B->race_note_take)
        (void)e->B->race_note_take(e->ctx, race, sizeof race);
    int planned = plan_shapes(e, ins, nsh);
    eng_phase_mark("plan");
    if (planned < 0) {
        finish_error(e, "planning");
        return;
    }
    if (planned > 0) {
        out->verdict = CDB_SKIP;
        snprintf(out->detail, sizeof out->detail, "%s", e->detail);
        return;
    }
    if (wave_assumption_broken(e)) {
        out->verdict = CDB_FAIL;
        snprintf(out->oracle, sizeof out->oracle, "wave");
        snprintf(out->detail, sizeof out->detail, "%s", e->detail);
        return;
    }
    struct eng_timer t;
    int rc;
    if (!s->baseline && s->mode != ENG_MODE_PLAIN) {
        eng_exec_timer_init(e, &t);
        rc = R->execute(e, ins, nsh, &t);
        eng_phase_mark("modes");
    } else {
        if (eng_exec_inst_alloc(e, &ins[0]) != 0 || eng_exec_inst_args(e, &ins[0]) != 0) {
            finish_error(e, "allocating buffers");
            return;
        }
        eng_phase_mark("alloc");
        rc = run_plain(e, R, &ins[0], &t);
    }
    eng_exec_timer_finish(e, &t);
    race_found(e, rc);
    race_note(e);
    verdict(e, rc, &t);
}

int eng_check_build(const struct eng_check_spec *s, char *why, size_t whylen)
{
    struct eng_exec e = {.s = s};
    if (!(e.m = eng_suite_cached(s->suite, why, whylen)))
        return 1; /* each check meets it and says so */
    int rc = eng_exec_build(&e);
    if (rc < 0 && e.setup_error)
        snprintf(why, whylen, "%s", e.compile_error);
    else if (rc < 0 && e.compile_error[0] && !e.spec_shape[0])
        /* the dialect's most likely slip, named where the compiler names a type clash */
        snprintf(why, whylen, "%s does not compile for %s:\n%s%s", e.m->source, e.target,
                 e.compile_error, strstr(e.compile_error, "KL_KERNEL void")
                 ? "\nKL_KERNEL already holds void: write KL_KERNEL name(args)" : "");
    else if (rc < 0) /* not the source's fault: each check meets it and says so */
        rc = 1;
    eng_exec_teardown(&e);
    return rc;
}

/* The check's flow for the suite's kernels (host NULL, m loaded by setup) or for an op on the
 * host's side (host and m the caller's). */
static void check_flow(const struct eng_check_spec *s, void (*ready)(void *), void *arg,
                       const struct eng_manifest *m, const struct eng_host_op *host,
                       struct eng_check_result *out)
{
    eng_check_result_init(out);
    struct eng_exec e = {.s = s, .out = out, .ready = ready, .ready_arg = arg, .m = m,
                         .host = host};
    snprintf(out->oracle, sizeof out->oracle, "%s",
             s->baseline                  ? "reference"
             : s->mode == ENG_MODE_REPEAT ? "bitwise-repeat"
                                          : "reference+sentinel");
    const struct eng_rung *R = eng_rung_find(s->rung);
    bool own_mode = !s->baseline && s->mode != ENG_MODE_PLAIN;
    size_t nsh = s->nshapes ? s->nshapes : 1;
    struct eng_inst *ins = NULL;
    if (own_mode && (!R || !R->execute)) {
        snprintf(e.err, sizeof e.err, "rung %d has no %s mode", s->rung, eng_mode_name(s->mode));
        finish_error(&e, "setup");
    } else if (s->lag && s->code_object) {
        out->verdict = CDB_SKIP;
        snprintf(out->detail, sizeof out->detail, "lag builds rebuild the source with "
                 "-DKL_LAG=%u: the prebuilt code object %.900s cannot be rebuilt, so no lag "
                 "build runs", (unsigned)eng_lag_seed(s->lag), s->code_object);
    } else if (eng_exec_setup(&e) != 0) {
        setup_failed(&e);
    } else {
        eng_phase_mark("setup");
        ins = xcalloc(nsh, sizeof *ins);
        run_check(&e, R, ins, nsh);
    }
    eng_exec_ready(&e); /* a check that ends before its kernels still answers in time */
    for (size_t i = 0; ins && i < nsh; i++)
        eng_exec_inst_free(&e, &ins[i]);
    free(ins);
    eng_exec_teardown(&e);
    eng_phase_mark("teardown");
}

void eng_exec_check(const struct eng_check_spec *s, const struct eng_manifest *m,
                    void (*ready)(void *), void *arg, struct eng_check_result *out)
{
    check_flow(s, ready, arg, m, NULL, out);
}

void eng_exec_check_host(const struct eng_check_spec *s, struct eng_manifest *m,
                         const struct eng_host_op *op, struct eng_check_result *out)
{
    check_flow(s, NULL, NULL, m, op, out);
}
