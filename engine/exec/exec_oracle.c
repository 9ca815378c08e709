/* The oracles of a device check, on the device with the utility kernels of kernels/util.kl
 * (only their result words come back): every output against the reference (or, for a tied
 * pick, against the tied set), the guards of every buffer, the sentinel (elements never
 * written), "nan": "never", and a captured graph that has not run yet. What they find goes to
 * e->detail and e->failed, and the counts to the check's result. */
#include "engine/exec/exec_internal.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "engine/values/value_class.h"

/* "nan": "never": no NaN in output b (from finite inputs), whatever the reference holds: the
 * count into res[0], the first at res[1] - 1. */
static int nan_launch(struct eng_exec *e, struct eng_inst *in, size_t b, eng_dptr res,
                      struct eng_stream *s)
{
    struct eng_bufi *v = &in->var[b];
    uint64_t len, stride;
    eng_exec_rows(e, in, b, &len, &stride);
    uint64_t rows = len ? v->elems / len : 0;
    int dtype = (int)e->m->buffers[b].dtype;
    void *a[] = {&v->data, &rows, &len, &stride, &dtype, &res};
    return eng_exec_ulaunch(e, e->knan, rows * len, s, a);
}

static void nan_note(struct eng_exec *e, struct eng_inst *in, size_t b, const char *pre,
                     const uint64_t *w)
{
    if (!w[0])
        return;
    char at[96], inputs[320];
    eng_exec_coords(e, in, b, w[1] - 1, at, sizeof at);
    eng_exec_inputs_at(e, in, b, w[1] - 1, inputs, sizeof inputs);
    eng_exec_note(e, "%s%s: %llu NaN from finite inputs (first at %s; its rule is \"nan\": "
                  "\"never\")%s", pre, e->m->buffers[b].name, (unsigned long long)w[0], at,
                  inputs);
    e->failed = true;
    eng_exec_record_bad(e, (int64_t)w[1] - 1, (int64_t)w[0], NAN);
}

static int nan_never(struct eng_exec *e, struct eng_inst *in, size_t b, const char *pre,
                     struct eng_stream *s)
{
    ENG_TRY(eng_exec_res_clear(e, s));
    ENG_TRY(nan_launch(e, in, b, e->res, s));
    uint64_t w[ENG_RES_WORDS];
    ENG_TRY(eng_exec_res_read(e, w, s));
    nan_note(e, in, b, pre, w);
    return 0;
}

/* The first differing element as the check's seam: the kernel's value beside the reference's
 * (two roundings of one number, say), read back alone: two elements, not the outputs. */
static void values_seam(struct eng_exec *e, const struct eng_inst *in, size_t b, uint64_t flat,
                        const char *at, struct eng_stream *s)
{
    enum eng_dtype dt = e->m->buffers[b].dtype;
    size_t sz = eng_dtype_size(dt);
    unsigned char got[8], want[8];
    char err[256];
    if (sz > sizeof got ||
        e->B->memcpy_dtoh(e->ctx, got, in->var[b].data + flat * sz, sz, s, err, sizeof err) ||
        e->B->memcpy_dtoh(e->ctx, want, in->ref[b].data + flat * sz, sz, s, err, sizeof err))
        return;
    const char *entry = strcmp(e->s->variant, "buggy") == 0 ? e->m->entry_buggy : e->m->entry_fixed;
    char a[192], r[192];
    snprintf(a, sizeof a, "kernel %s: %s%s = %.9g", entry, e->m->buffers[b].name, at,
             eng_dtype_value(dt, got, 0));
    snprintf(r, sizeof r, "reference %s: %s%s = %.9g", e->m->entry_reference,
             e->m->buffers[b].name, at, eng_dtype_value(dt, want, 0));
    eng_check_seam(e->out, "values", a, r);
}

/* The guards of buffer b's variant copy: a word changed before or after it fails the check.
 * Inputs and scratch buffers have guards as outputs do, and a kernel that writes past a scratch
 * buffer is as wrong as one that writes past its output. */
static int guards_launch(struct eng_exec *e, struct eng_inst *in, size_t b, eng_dptr g1,
                         eng_dptr g2, struct eng_stream *s)
{
    struct eng_bufi *v = &in->var[b];
    uint64_t pat = eng_dtype_sentinel(e->m->buffers[b].dtype), gsz = ENG_GUARD_BYTES;
    uint64_t tail = v->alloc - ENG_GUARD_BYTES - v->padded_bytes;
    eng_dptr after = v->data + v->padded_bytes;
    void *k1[] = {&v->base, &gsz, &pat, &g1};
    void *k2[] = {&after, &tail, &pat, &g2};
    ENG_TRY(eng_exec_ulaunch(e, e->kchk, gsz / 8 + 1, s, k1));
    return eng_exec_ulaunch(e, e->kchk, tail / 8 + 1, s, k2);
}

/* What the guards' checks left: before[0] words changed before the buffer (the first at
 * before[1] - 1), after[0] past its end (from after[1] - 1). */
static void guards_note(struct eng_exec *e, size_t b, const char *pre, const uint64_t *before,
                        const uint64_t *after)
{
    const struct eng_manifest *m = e->m;
    const char *bn = m->buffers[b].name;
    const char *role = m->buffers[b].role == ENG_ROLE_SCRATCH ? "scratch "
                       : m->buffers[b].role == ENG_ROLE_INPUT ? "input "
                                                              : "";
    if (before[0])
        eng_exec_note(e, "%s%s%s: %llu words of the guard before it were written (first at byte %lld)",
                      pre, role, bn, (unsigned long long)before[0],
                      (long long)before[1] - 1 - (long long)ENG_GUARD_BYTES);
    if (after[0])
        eng_exec_note(e, "%s%s%s: %llu words past its end (padding included) were written (first at byte +%llu)",
                      pre, role, bn, (unsigned long long)after[0], (unsigned long long)(after[1] - 1));
    if (before[0] || after[0]) {
        e->failed = true;
        eng_check_defect(e->out, "bounds");
        eng_exec_record_bad(e, -1, (int64_t)(before[0] + after[0]), NAN);
    }
}

static int guards_check(struct eng_exec *e, struct eng_inst *in, size_t b, const char *pre,
                        struct eng_stream *s)
{
    ENG_TRY(eng_exec_res_clear(e, s));
    ENG_TRY(guards_launch(e, in, b, e->res, e->res + 8 * 8, s));
    uint64_t w[ENG_RES_WORDS];
    ENG_TRY(eng_exec_res_read(e, w, s));
    guards_note(e, b, pre, &w[0], &w[8]);
    return 0;
}

/* The reference's copy of output b holds the sentinel's NaN made quiet (w[4] elements, the
 * first at or after w[3] - 1): values computed from elements that still held the sentinel, so
 * the reference read the output before writing it (a reference reads nothing else unwritten:
 * it stays inside its inputs). The op then reads its output, and comparing NaN with NaN would
 * pass a variant whatever it computes (an in-place update with a wrong step agrees with its
 * reference), so the check fails and says what the manifest lacks. A variant that reads
 * unwritten memory differs from the reference and is reported by the compare. Backends whose
 * NaNs keep their payload (the cpu backend) show it; a GPU's canonical NaN does not. */
static void note_sentinel_read(struct eng_exec *e, const struct eng_inst *in, size_t b,
                               const char *pre, const uint64_t *w)
{
    char at[96];
    eng_exec_coords(e, in, b, w[3] - 1, at, sizeof at);
    const char *bn = e->m->buffers[b].name;
    eng_exec_note(e, "%s%s: the reference computed %llu elements from %s's own unwritten contents "
                  "(the sentinel's NaN, first near %s): the op reads %s, so declare it \"role\": "
                  "\"inout\" (or give it an \"init\")", pre, bn, (unsigned long long)w[4], bn, at, bn);
    e->failed = true;
    eng_exec_record_bad(e, (int64_t)w[3] - 1, (int64_t)w[4], NAN);
}

/* The unwritten check's shape for output b: nd dims, l[] logical and p[] padded. 1 (launch
 * it), 0 (not for this output) or -1 (e->err). */
static int unwritten_plan(struct eng_exec *e, struct eng_inst *in, size_t b, uint64_t *l,
                          uint64_t *p, uint64_t *nd)
{
    const struct eng_buffer_spec *bs = &e->m->buffers[b];
    struct eng_bufi *v = &in->var[b];
    if (bs->dtype == ENG_U8 || !v->padded_elems)
        return 0;
    /* fp8's sentinel is its NaN: from a NaN or Inf input it is what a right kernel writes */
    if (bs->dtype == ENG_FP8E4M3 && !eng_exec_inputs_finite(e, in))
        return 0;
    for (size_t d = 0; d < 4; d++)
        l[d] = p[d] = 1;
    l[0] = p[0] = v->padded_elems;
    *nd = 1;
    if (v->padded_elems != v->elems) {
        if (bs->ndims > 4)
            return 0; /* padding over more than four dims: judged by the compare alone */
        *nd = bs->ndims;
        for (size_t d = 0; d < bs->ndims; d++) {
            int64_t dim, pad = 1;
            if (eng_values_eval(&in->v, bs->dims[d], &dim, e->err, sizeof e->err) != 0 ||
                (bs->pad_to[d] && eng_values_eval(&in->v, bs->pad_to[d], &pad, e->err, sizeof e->err) != 0))
                return -1;
            l[d] = (uint64_t)dim;
            p[d] = ((uint64_t)dim + (uint64_t)pad - 1) / (uint64_t)pad * (uint64_t)pad;
        }
    }
    return 1;
}

static int unwritten_launch(struct eng_exec *e, struct eng_inst *in, size_t b, uint64_t *l,
                            uint64_t *p, uint64_t *nd, eng_dptr res, struct eng_stream *s)
{
    struct eng_bufi *v = &in->var[b], *r = &in->ref[b];
    int dtype = (int)e->m->buffers[b].dtype;
    void *a[] = {&v->data, &r->data, &v->padded_elems, &dtype, nd, &l[0], &l[1], &l[2], &l[3],
                 &p[0], &p[1], &p[2], &p[3], &res};
    return eng_exec_ulaunch(e, e->kunw, v->padded_elems, s, a);
}

static void unwritten_note(struct eng_exec *e, struct eng_inst *in, size_t b, const char *pre,
                           const uint64_t *w)
{
    if (w[0]) {
        char at[96];
        eng_exec_coords(e, in, b, w[1] - 1, at, sizeof at);
        eng_exec_note(e, "%s%s: %llu elements inside its shape were written by neither the variant "
                      "nor the reference (still the sentinel in both, first at %s): the reference "
                      "cannot vouch for them (an index both hold in 32 bits wraps past 2^31 elements)",
                      pre, e->m->buffers[b].name, (unsigned long long)w[0], at);
        e->failed = true;
        eng_exec_record_bad(e, (int64_t)w[1] - 1, (int64_t)w[0], NAN);
    }
    if (w[4])
        note_sentinel_read(e, in, b, pre, w);
}

/* Elements of output b inside its logical shape that neither the variant nor the reference
 * wrote. The compare counts sentinel against sentinel as agreement, so a wrap the reference
 * shares (both index with a 32-bit int: every store past 2^31 elements lands 4 GiB before the
 * buffer, out of every guard) would pass. u8 outputs are left out: 0xa5 is an ordinary value. */
static int unwritten_check(struct eng_exec *e, struct eng_inst *in, size_t b, const char *pre,
                           struct eng_stream *s)
{
    uint64_t l[4], p[4], nd;
    int planned = unwritten_plan(e, in, b, l, p, &nd);
    if (planned <= 0)
        return planned;
    ENG_TRY(eng_exec_res_clear(e, s));
    ENG_TRY(unwritten_launch(e, in, b, l, p, &nd, e->res, s));
    uint64_t w[ENG_RES_WORDS];
    ENG_TRY(eng_exec_res_read(e, w, s));
    unwritten_note(e, in, b, pre, w);
    return 0;
}

/* The oracles of a sampled output over its sampled ranges: reference, finite, sentinel (never
 * written, and written by neither) range by range, then its guards. The first bad element is
 * the smallest over all ranges. */
static int oracle_sampled(struct eng_exec *e, struct eng_inst *in, size_t i, const char *pre,
                          struct eng_stream *s)
{
    const struct eng_manifest *m = e->m;
    struct eng_bufi *v = &in->var[i], *r = &in->ref[i];
    enum eng_dtype dt = m->buffers[i].dtype;
    uint64_t es = eng_dtype_size(dt), one = 1;
    int dtype = (int)dt;
    float atol = (float)m->tol_abs, rtol = (float)m->tol_rel;
    uint64_t bad = 0, first = UINT64_MAX, sent = 0, first_sent = UINT64_MAX, nonfin = 0;
    uint64_t unw = 0, first_unw = UINT64_MAX;
    float mx = 0;
    bool check_unw = dt != ENG_U8;
    for (size_t k = 0; k < in->sample.nranges; k++) {
        uint64_t st = in->sample.ranges[k][0], len = in->sample.ranges[k][1];
        eng_dptr o = v->data + st * es, rf = r->data + st * es, res = e->res, res2 = e->res + 8 * 8;
        ENG_TRY(eng_exec_res_clear(e, s));
        void *ca[] = {&o, &rf, &len, &dtype, &atol, &rtol, &res};
        ENG_TRY(eng_exec_ulaunch(e, e->kcmp, len, s, ca));
        if (check_unw) {
            void *ua[] = {&o, &rf, &len, &dtype, &one, &len, &one, &one, &one,
                          &len, &one, &one, &one, &res2};
            ENG_TRY(eng_exec_ulaunch(e, e->kunw, len, s, ua));
        }
        uint64_t w[ENG_RES_WORDS];
        ENG_TRY(eng_exec_res_read(e, w, s));
        if (w[0]) {
            bad += w[0];
            first = st + w[1] - 1 < first ? st + w[1] - 1 : first;
        }
        float f;
        uint32_t bits = (uint32_t)w[2];
        memcpy(&f, &bits, 4);
        mx = f > mx ? f : mx;
        nonfin += w[3];
        if (w[4]) {
            sent += w[4];
            first_sent = st + w[5] - 1 < first_sent ? st + w[5] - 1 : first_sent;
        }
        if (w[8]) {
            unw += w[8];
            first_unw = st + w[9] - 1 < first_unw ? st + w[9] - 1 : first_unw;
        }
    }
    const char *bn = m->buffers[i].name;
    if (bad) {
        char at[96], never[192] = "", nf[64] = "";
        eng_exec_coords(e, in, i, first, at, sizeof at);
        if (sent) {
            char at2[96];
            eng_exec_coords(e, in, i, first_sent, at2, sizeof at2);
            snprintf(never, sizeof never, "; %llu never written (still the sentinel, first at %s)",
                     (unsigned long long)sent, at2);
        }
        if (nonfin)
            snprintf(nf, sizeof nf, "; %llu NaN/Inf where the reference is finite",
                     (unsigned long long)nonfin);
        eng_exec_note(e, "%s%s: %llu of the %llu sampled elements differ from the reference (first "
                      "at %s), max error %.4g over the finite ones%s%s",
                      pre, bn, (unsigned long long)bad, (unsigned long long)in->sample.elems, at,
                      (double)mx, nf, never);
        e->failed = true;
        eng_exec_record_bad(e, (int64_t)first, (int64_t)bad, (double)mx);
    } else {
        eng_exec_record_bad(e, -1, 0, (double)mx);
    }
    if (unw) {
        char at[96];
        eng_exec_coords(e, in, i, first_unw, at, sizeof at);
        eng_exec_note(e, "%s%s: %llu sampled elements were written by neither the variant nor the "
                      "reference (still the sentinel in both, first at %s)",
                      pre, bn, (unsigned long long)unw, at);
        e->failed = true;
        eng_exec_record_bad(e, (int64_t)first_unw, (int64_t)unw, NAN);
    }
    return guards_check(e, in, i, pre, s);
}

/* A float the utility kernels leave in the low half of a result word (the max error). */
static float res_float(uint64_t word)
{
    float f;
    uint32_t bits = (uint32_t)word;
    memcpy(&f, &bits, 4);
    return f;
}

/* Output i against the reference on the device, its result words at res (compare_output: read
 * into w): for a pick of a tied set ("ties": "any") any element of the set is right, so the
 * picks are checked against the input; else element by element within the manifest's
 * tolerance. */
static int compare_launch(struct eng_exec *e, struct eng_inst *in, size_t i, eng_dptr res,
                          struct eng_stream *s)
{
    const struct eng_manifest *m = e->m;
    struct eng_bufi *v = &in->var[i], *r = &in->ref[i];
    int dtype = (int)m->buffers[i].dtype;
    float atol = (float)m->tol_abs, rtol = (float)m->tol_rel;
    const struct eng_buffer_spec *bs = &m->buffers[i];
    uint64_t rows = 0, k = 0, kstride = 0, len = 0, stride = 0;
    if (bs->ties_any) {
        eng_exec_rows(e, in, i, &k, &kstride);
        rows = bs->ndims > 1 && k ? v->elems / k : v->elems;
        if (bs->ndims == 1)
            k = kstride = 1;
        eng_exec_rows(e, in, (size_t)bs->ties_in, &len, &stride);
        int idt = (int)m->buffers[bs->ties_in].dtype;
        void *ta[] = {&v->data, &r->data, &rows, &k, &kstride, &in->var[bs->ties_in].data,
                      &idt, &len, &stride, &res};
        return eng_exec_ulaunch(e, e->kties, rows, s, ta);
    }
    void *ca[] = {&v->data, &r->data, &v->padded_elems, &dtype, &atol, &rtol, &res};
    return eng_exec_ulaunch(e, e->kcmp, v->padded_elems, s, ca);
}

static int compare_output(struct eng_exec *e, struct eng_inst *in, size_t i, uint64_t *w,
                          struct eng_stream *s)
{
    ENG_TRY(eng_exec_res_clear(e, s));
    ENG_TRY(compare_launch(e, in, i, e->res, s));
    return eng_exec_res_read(e, w, s);
}

/* w[0] picks of output i outside the reference's tied set (the first at w[1] - 1). */
static void note_ties(struct eng_exec *e, const struct eng_inst *in, size_t i, const char *pre,
                      const uint64_t *w)
{
    const struct eng_buffer_spec *bs = &e->m->buffers[i];
    char at[96], inputs[320];
    eng_exec_coords(e, in, i, w[1] - 1, at, sizeof at);
    eng_exec_inputs_at(e, in, i, w[1] - 1, inputs, sizeof inputs);
    eng_exec_note(e, "%s%s: %llu of %llu picks are outside the reference's tied set of %s "
                  "(first at %s)%s", pre, bs->name, (unsigned long long)w[0],
                  (unsigned long long)in->var[i].elems, e->m->buffers[bs->ties_in].name, at, inputs);
    e->failed = true;
    eng_exec_record_bad(e, (int64_t)w[1] - 1, (int64_t)w[0], NAN);
}

/* w[0] elements of output i that differ from the reference (the compare's words: the first at
 * w[1] - 1, the max error in w[2], NaN/Inf where the reference is finite in w[3], never written
 * in w[4] from w[5] - 1, pairs not both finite in w[6]); full: the sentinel counts too. */
static void note_differs(struct eng_exec *e, struct eng_inst *in, size_t i, bool full,
                         const char *pre, const uint64_t *w, struct eng_stream *s)
{
    const struct eng_bufi *v = &in->var[i];
    float mx = res_float(w[2]);
    char at[96];
    eng_exec_coords(e, in, i, w[1] - 1, at, sizeof at);
    char never[192] = "", nonfin[64] = "", maxe[128];
    if (w[4] && full) {
        char at2[96];
        eng_exec_coords(e, in, i, w[5] - 1, at2, sizeof at2);
        snprintf(never, sizeof never, "; %llu never written (still the sentinel, first at %s)",
                 (unsigned long long)w[4], at2);
    }
    if (w[3])
        snprintf(nonfin, sizeof nonfin, "; %llu NaN/Inf where the reference is finite",
                 (unsigned long long)w[3]);
    /* The max error is over the pairs where both are finite: say so, with how many,
     * whenever some elements were left out of it. */
    uint64_t left_out = w[3] + w[6];
    uint64_t finite = left_out < v->padded_elems ? v->padded_elems - left_out : 0;
    if (!left_out)
        snprintf(maxe, sizeof maxe, "max error %.4g", (double)mx);
    else if (finite)
        snprintf(maxe, sizeof maxe, "max error %.4g over the %llu finite elements",
                 (double)mx, (unsigned long long)finite);
    else
        snprintf(maxe, sizeof maxe, "max error n/a (no element is finite in both)");
    char inputs[320];
    eng_exec_inputs_at(e, in, i, w[1] - 1, inputs, sizeof inputs);
    values_seam(e, in, i, w[1] - 1, at, s);
    eng_exec_note(e, "%s%s: %llu of %llu elements differ from the reference (first at %s), %s%s%s%s",
         pre, e->m->buffers[i].name, (unsigned long long)w[0], (unsigned long long)v->padded_elems,
         at, maxe, nonfin, never, inputs);
    e->failed = true;
    eng_exec_record_bad(e, (int64_t)w[1] - 1, (int64_t)w[0], (double)mx);
}

/* The oracles of output i run whole: the reference, then its guards, "nan": "never" and (full)
 * the elements written by neither. */
static int oracle_whole(struct eng_exec *e, struct eng_inst *in, struct eng_judge *j, size_t i,
                        bool full, bool guards, const char *pre, struct eng_stream *s)
{
    const struct eng_buffer_spec *bs = &e->m->buffers[i];
    uint64_t w[ENG_RES_WORDS];
    ENG_TRY(compare_output(e, in, i, w, s));
    /* elements never written fail as they are; any other difference, and inputs the contract
     * speaks about, go to the contract judge (engine/exec/exec_contract.c) */
    if (!(w[4] && full) && eng_exec_judge_wanted(e, in, i, w[0]))
        ENG_TRY(eng_exec_judge(e, in, j, i, pre, s));
    else if (w[0] && bs->ties_any)
        note_ties(e, in, i, pre, w);
    else if (w[0])
        note_differs(e, in, i, full, pre, w, s);
    else
        eng_exec_record_bad(e, -1, 0, (double)res_float(w[2]));
    /* the guards hold the sentinel whatever the outputs were filled with (garbage
     * included); only the plain unit test, the baseline, compares values alone */
    if (guards)
        ENG_TRY(guards_check(e, in, i, pre, s));
    if (bs->nan_never && eng_vclass_applies(bs->dtype) && eng_exec_inputs_finite(e, in))
        ENG_TRY(nan_never(e, in, i, pre, s));
    if (full && !bs->ties_any)
        ENG_TRY(unwritten_check(e, in, i, pre, s));
    return 0;
}

/* ---- one readback ----------------------------------------------------------------------
 *
 * A check whose outputs all agree with the reference runs every oracle's kernel into a slot of
 * its own of the result words (8 words each, ENG_RES_WORDS / 8 of them) and reads them back
 * once: on a GPU each readback waits for the device, and a small op's check spent four of
 * them. The oracles' kernels only read the buffers, so the words are those of the oracles run
 * one by one, and the findings are noted in the same order from them. Where an output differs
 * (or its contract is to be judged on the host, which may run more on the device), or the
 * slots do not suffice, nothing is noted and the oracles run one by one. */

#define SLOT_WORDS 8
#define SLOTS (ENG_RES_WORDS / SLOT_WORDS)

/* Where each oracle of one output left its words (-1: not run). */
struct out_slots {
    int cmp, g1, g2, nan, unw;
    uint64_t l[4], p[4], nd;
};

/* 1 when the batch cannot be used (nothing noted, nothing changed), 0 when it judged the check,
 * -1 on a device error. */
static int oracle_batched(struct eng_exec *e, struct eng_inst *in, bool full, bool guards,
                          const char *pre, struct eng_stream *s)
{
    const struct eng_manifest *m = e->m;
    if (in->sampled || m->nbuffers > SLOTS)
        return 1;
    struct out_slots os[SLOTS];
    int ng[SLOTS][2];
    int used = 0;
    for (size_t i = 0; i < m->nbuffers; i++) {
        const struct eng_buffer_spec *bs = &m->buffers[i];
        struct out_slots *o = &os[i];
        o->cmp = o->g1 = o->g2 = o->nan = o->unw = -1;
        ng[i][0] = ng[i][1] = -1;
        if (bs->role != ENG_ROLE_OUTPUT) {
            if (guards) {
                ng[i][0] = used++;
                ng[i][1] = used++;
            }
            continue;
        }
        /* a contract judged on the host whatever the compare finds: one by one */
        if (eng_exec_judge_wanted(e, in, i, 0))
            return 1;
        o->cmp = used++;
        if (guards) {
            o->g1 = used++;
            o->g2 = used++;
        }
        if (bs->nan_never && eng_vclass_applies(bs->dtype) && eng_exec_inputs_finite(e, in))
            o->nan = used++;
        if (full && !bs->ties_any) {
            int planned = unwritten_plan(e, in, i, o->l, o->p, &o->nd);
            if (planned < 0) /* said at its turn, one by one */
                return 1;
            if (planned > 0)
                o->unw = used++;
        }
    }
    if (used > SLOTS)
        return 1;
    ENG_TRY(eng_exec_res_clear(e, s));
#define SLOT(k) (e->res + (eng_dptr)(k) * SLOT_WORDS * 8)
    for (size_t i = 0; i < m->nbuffers; i++) {
        struct out_slots *o = &os[i];
        if (ng[i][0] >= 0)
            ENG_TRY(guards_launch(e, in, i, SLOT(ng[i][0]), SLOT(ng[i][1]), s));
        if (o->cmp < 0)
            continue;
        ENG_TRY(compare_launch(e, in, i, SLOT(o->cmp), s));
        if (o->g1 >= 0)
            ENG_TRY(guards_launch(e, in, i, SLOT(o->g1), SLOT(o->g2), s));
        if (o->nan >= 0)
            ENG_TRY(nan_launch(e, in, i, SLOT(o->nan), s));
        if (o->unw >= 0)
            ENG_TRY(unwritten_launch(e, in, i, o->l, o->p, &o->nd, SLOT(o->unw), s));
    }
#undef SLOT
    uint64_t w[ENG_RES_WORDS];
    ENG_TRY(eng_exec_res_read(e, w, s));
#define W(k) (&w[(size_t)(k) * SLOT_WORDS])
    for (size_t i = 0; i < m->nbuffers; i++)
        if (os[i].cmp >= 0 && W(os[i].cmp)[0])
            return 1; /* differs: judged (and perhaps run again) one by one */
    for (size_t i = 0; i < m->nbuffers; i++) {
        const struct out_slots *o = &os[i];
        if (o->cmp < 0)
            continue;
        eng_exec_record_bad(e, -1, 0, (double)res_float(W(o->cmp)[2]));
        if (o->g1 >= 0)
            guards_note(e, i, pre, W(o->g1), W(o->g2));
        if (o->nan >= 0)
            nan_note(e, in, i, pre, W(o->nan));
        if (o->unw >= 0)
            unwritten_note(e, in, i, pre, W(o->unw));
    }
    for (size_t i = 0; i < m->nbuffers; i++)
        if (ng[i][0] >= 0)
            guards_note(e, i, pre, W(ng[i][0]), W(ng[i][1]));
#undef W
    return 0;
}

/* Compares every output with the reference and checks the guards of every buffer (not in the
 * baseline, the plain unit test); with full, also the sentinel rules (never written). Returns
 * -1 on a device error, else 0 (failures go to e->failed / e->detail). prefix names the step
 * ("replay 2"). */
int eng_exec_oracle(struct eng_exec *e, struct eng_inst *in, bool full, const char *prefix,
                    struct eng_stream *s)
{
    const struct eng_manifest *m = e->m;
    bool guards = full || !e->s->baseline;
    char pre[96] = "";
    if (prefix && *prefix)
        snprintf(pre, sizeof pre, "%s: ", prefix);
    int batched = oracle_batched(e, in, full, guards, pre, s);
    if (batched <= 0)
        return batched;
    struct eng_judge j = {0};
    int rc = 0;
    for (size_t i = 0; i < m->nbuffers && rc == 0; i++) {
        if (m->buffers[i].role != ENG_ROLE_OUTPUT)
            continue;
        if (in->sampled && i == in->sample.out)
            rc = oracle_sampled(e, in, i, pre, s);
        else
            rc = oracle_whole(e, in, &j, i, full, guards, pre, s);
    }
    eng_exec_judge_free(e, &j);
    ENG_TRY(rc);
    for (size_t i = 0; guards && i < m->nbuffers; i++)
        if (m->buffers[i].role != ENG_ROLE_OUTPUT)
            ENG_TRY(guards_check(e, in, i, pre, s));
    return 0;
}

/* Proof that a captured graph has not run: every output still holds the sentinel (a
 * prefilled output holds its init values, so it proves nothing either way and is left out). */
int eng_exec_still_sentinel(struct eng_exec *e, struct eng_inst *in, struct eng_stream *s, bool *ok)
{
    const struct eng_manifest *m = e->m;
    *ok = true;
    for (size_t i = 0; i < m->nbuffers; i++) {
        if (m->buffers[i].role != ENG_ROLE_OUTPUT || m->buffers[i].prefilled)
            continue;
        struct eng_bufi *v = &in->var[i];
        ENG_TRY(eng_exec_res_clear(e, s));
        uint64_t pat = eng_dtype_sentinel(m->buffers[i].dtype);
        eng_dptr res = e->res;
        void *a[] = {&v->base, &v->alloc, &pat, &res};
        ENG_TRY(eng_exec_ulaunch(e, e->kchk, v->alloc / 8 + 1, s, a));
        uint64_t w[ENG_RES_WORDS];
        ENG_TRY(eng_exec_res_read(e, w, s));
        if (w[0]) {
            eng_exec_note(e, "%s changed between capture and the first replay (%llu words): the capture ran "
                    "the work eagerly",
                 m->buffers[i].name, (unsigned long long)w[0]);
            *ok = false;
        }
    }
    return 0;
}
