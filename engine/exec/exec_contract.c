/* The contract judge (engine/exec/exec_internal.h, docs/engine.md "Contracts, bounds and doubt"): an
 * output the device compare found different from the reference, or whose inputs hold values
 * its contract speaks about, is read back and judged element by element on the host:
 *
 * - a row whose inputs hold NaN/Inf, or values beyond the contract's domain, is judged by the
 *   "nonfinite" rule alone (poison, finite, masked, any), never by bit equality with a reference
 *   that chose one of several right answers;
 * - every other element must be within the bound of engine/values/contract.h; one that is not is
 *   judged against the wide arbiter: it passes when it is within the bound of the arbiter's
 *   value plus twice the reference's own largest error there (FlashAttention's yardstick), is
 *   in doubt when the reference breaks its own bound there and the kernel is within ten times
 *   the reference's error, and fails otherwise;
 * - a normalized output's bound grows with the cancellation in x - mean of the input row it
 *   normalizes, where that input can be told (normalized_input);
 * - an element of a row that is special only because some input reaches every row, and that
 *   the special values do not reach (the reference is the same without them), must equal the
 *   kernel's own run without them (the clean run, engine/exec/exec_clean.c);
 * - an index output with a "nan_pick" rule is judged by properties in rows that hold NaN.
 *
 * Read back only when needed: a check whose outputs agree with the reference costs nothing. */
#include "engine/exec/exec_internal.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/xalloc.h"
#include "engine/values/value_class.h"

enum { ROW_PLAIN, ROW_BEYOND_DOMAIN, ROW_NONFINITE };

struct tally {
    uint64_t n, first;
    double kernel_err, bound, ref_err; /* at the worst element */
    double kernel, truth;              /* there: the kernel's value and the one it is held to */
};

/* How far past its bound a miss is; an infinite error against an infinite bound (NaN where a
 * row of equal values allows any finite value) is as far as a miss goes, not inf - inf. */
static double excess(double kerr, double bound)
{
    return isinf(kerr) && isinf(bound) ? (double)INFINITY : kerr - bound;
}

/* The worst element is the one furthest past its bound. */
static void tally_add(struct tally *t, uint64_t i, double kerr, double bound, double rerr,
                      double kernel, double truth)
{
    if (!t->n || i < t->first)
        t->first = i;
    if (!t->n || !(excess(kerr, bound) <= excess(t->kernel_err, t->bound))) {
        t->kernel_err = kerr;
        t->bound = bound;
        t->ref_err = rerr;
        t->kernel = kernel;
        t->truth = truth;
    }
    t->n++;
}

/* Is the worst element's miss one no bound speaks about: the value the kernel is held to is
 * NaN/Inf, or the bound is infinite (a row of equal values)? An infinite error is not "beyond"
 * an infinite bound; the values say what happened. */
static bool tally_unbounded(const struct tally *t)
{
    return !isfinite(t->truth) || isinf(t->bound);
}

/* "kernel error 0.002 against the reference, bound 1e-05", or, where no bound speaks,
 * "kernel nan where the reference is 0.25". */
static void tally_error_words(const struct tally *t, const char *against, char *out, size_t n)
{
    if (tally_unbounded(t))
        snprintf(out, n, "kernel %g where %s is %g", t->kernel, against, t->truth);
    else
        snprintf(out, n, "kernel error %.3g against %s, bound %.3g", t->kernel_err, against,
                 t->bound);
}

/* The longest reduction the default contract assumes: its error bound stays finite (2 gamma_n
 * is 0.8% of the row's scale there, where a 1-D elementwise op over millions of elements would
 * otherwise be held to nothing); a longer reduction is declared with "reduce". */
enum { DEFAULT_REDUCE_MAX = 65536 };

/* The longest dimension of any float input, at most DEFAULT_REDUCE_MAX: an output whose
 * contract is not declared may hide a reduction over any one of them (a sum over N, a column
 * statistic over R, attention over the keys), and the default contract must not fail a
 * correct one (docs/engine.md). */
static double longest_input_dim(const struct eng_exec *e, const struct eng_inst *in)
{
    int64_t best = 1;
    for (size_t i = 0; i < e->m->nbuffers; i++) {
        const struct eng_buffer_spec *bi = &e->m->buffers[i];
        if (bi->role == ENG_ROLE_OUTPUT || !eng_vclass_applies(bi->dtype))
            continue;
        for (size_t d = 0; d < bi->ndims; d++) {
            int64_t v = 0;
            char err[64];
            if (eng_values_eval(&in->v, bi->dims[d], &v, err, sizeof err) == 0 && v > best)
                best = v;
        }
    }
    return (double)(best < DEFAULT_REDUCE_MAX ? best : DEFAULT_REDUCE_MAX);
}

static double reduce_len(const struct eng_exec *e, const struct eng_inst *in,
                         const struct eng_out_contract *c)
{
    int64_t n = 1;
    char err[128];
    if (!c->declared)
        return longest_input_dim(e, in);
    if (c->reduce && eng_values_eval(&in->v, c->reduce, &n, err, sizeof err) != 0)
        n = 1;
    return n < 1 ? 1.0 : (double)n;
}

/* The contract an output is judged by: its own when declared; otherwise the default, the
 * loosest reading of a float output that the manifest allows: a normalized op (a sum's error,
 * the output's rounding twice, the cancellation in x - mean along any axis of an input shaped
 * like it) over the longest input dimension, poisoned past sqrt(FLT_MAX / n). An fp8 output
 * stays quantized and an index output a selection. */
static struct eng_out_contract effective_contract(const struct eng_buffer_spec *bs)
{
    struct eng_out_contract c = bs->contract;
    if (!c.declared && c.kind != ENG_KIND_QUANTIZED && c.kind != ENG_KIND_SELECTION)
        c.kind = ENG_KIND_NORMALIZED;
    return c;
}

/* Per row of output b (rows of its last dimension, padded): ROW_NONFINITE when an input the
 * row depends on holds NaN/Inf, ROW_BEYOND_DOMAIN when one holds a magnitude past domain. An
 * input with as many rows as the output is taken row for row (*direct marks those rows), unless
 * the contract's reduction runs across its rows ("reduce" names one of its other dimensions) or
 * no contract is declared (a column normalization looks like a row-wise op);
 * any other input (a reduction over rows, a shared operand) reaches every row. NULL when no row
 * is special. */
static unsigned char *special_rows(const struct eng_exec *e, const struct eng_inst *in,
                                   const struct eng_out_contract *c, uint64_t rows, double domain,
                                   unsigned char **direct)
{
    *direct = NULL;
    unsigned char *mark = NULL, whole = ROW_PLAIN;
    for (size_t i = 0; i < e->m->nbuffers; i++) {
        const struct eng_buffer_spec *bi = &e->m->buffers[i];
        if (bi->role != ENG_ROLE_INPUT || !eng_vclass_applies(bi->dtype) || !e->host_in ||
            !e->host_in[i])
            continue;
        uint64_t len, stride;
        eng_exec_rows(e, in, i, &len, &stride);
        uint64_t irows = stride ? in->var[i].padded_elems / stride : 0;
        /* a reduction over a dimension before the input's last runs across its rows (a column
         * statistic): every row of it reaches every row of the output */
        bool across = !c->declared; /* the default contract does not say which axis */
        for (size_t d = 0; c->reduce && d + 1 < bi->ndims; d++)
            across |= !strcmp(bi->dims[d], c->reduce);
        for (uint64_t r = 0; r < irows; r++) {
            unsigned char f = ROW_PLAIN;
            for (uint64_t k = 0; k < len && f != ROW_NONFINITE; k++) {
                double x = eng_dtype_value(bi->dtype, e->host_in[i], r * stride + k);
                f = !isfinite(x) ? ROW_NONFINITE : fabs(x) > domain ? ROW_BEYOND_DOMAIN : f;
            }
            if (f == ROW_PLAIN)
                continue;
            if (irows == rows && !across) {
                if (!mark)
                    mark = xcalloc(rows ? rows : 1, 1);
                if (!*direct)
                    *direct = xcalloc(rows ? rows : 1, 1);
                mark[r] = f > mark[r] ? f : mark[r];
                (*direct)[r] = 1;
            } else {
                whole = f > whole ? f : whole;
            }
        }
    }
    if (whole != ROW_PLAIN) {
        if (!mark)
            mark = xcalloc(rows ? rows : 1, 1);
        for (uint64_t r = 0; r < rows; r++)
            mark[r] = whole > mark[r] ? whole : mark[r];
    }
    return mark;
}

/* The reductions special input values enter (struct float_judgement's reach_row, reach_col),
 * from the inputs shaped like the output (as many rows of len values): by the default contract
 * both the value's row and its column (it does not say which axis it reduces), by a declared
 * one the axis its reduce names. */
static void reach_marks(const struct eng_exec *e, const struct eng_inst *in,
                        const struct eng_out_contract *c, uint64_t rows, uint64_t len,
                        double domain, unsigned char **reach_row, unsigned char **reach_col)
{
    *reach_row = *reach_col = NULL;
    for (size_t i = 0; i < e->m->nbuffers; i++) {
        const struct eng_buffer_spec *bi = &e->m->buffers[i];
        if (bi->role != ENG_ROLE_INPUT || !eng_vclass_applies(bi->dtype) || !e->host_in ||
            !e->host_in[i])
            continue;
        uint64_t ilen, stride;
        eng_exec_rows(e, in, i, &ilen, &stride);
        uint64_t irows = stride ? in->var[i].padded_elems / stride : 0;
        if (irows != rows || ilen != len)
            continue;
        bool across = false, along = !c->declared || !c->reduce;
        for (size_t d = 0; c->declared && c->reduce && d < bi->ndims; d++) {
            across |= d + 1 < bi->ndims && !strcmp(bi->dims[d], c->reduce);
            along |= d + 1 == bi->ndims && !strcmp(bi->dims[d], c->reduce);
        }
        across |= !c->declared;
        for (uint64_t r = 0; r < irows; r++)
            for (uint64_t k = 0; k < ilen; k++) {
                double x = eng_dtype_value(bi->dtype, e->host_in[i], r * stride + k);
                if (isfinite(x) && fabs(x) <= domain)
                    continue;
                if (along) {
                    if (!*reach_row)
                        *reach_row = xcalloc(rows ? rows : 1, 1);
                    (*reach_row)[r] = 1;
                }
                if (across) {
                    if (!*reach_col)
                        *reach_col = xcalloc(len ? len : 1, 1);
                    (*reach_col)[k] = 1;
                }
            }
    }
}

bool eng_exec_judge_wanted(const struct eng_exec *e, const struct eng_inst *in, size_t b, uint64_t w0)
{
    const struct eng_buffer_spec *bs = &e->m->buffers[b];
    if (in->sampled)
        return false;
    /* an index output: its NaN rows by the declared rule always; without a contract, a row
     * with NaN that differs from the reference by either rule a correct op may follow */
    if (!eng_vclass_applies(bs->dtype))
        return !bs->ties_any && (bs->contract.nan_pick != ENG_PICK_UNSET ||
                                 (!bs->contract.declared && w0)) &&
               !eng_exec_inputs_finite(e, in);
    if (w0)
        return true;
    if (!bs->contract.declared || bs->contract.nonfinite == ENG_NF_POISON ||
        bs->contract.nonfinite == ENG_NF_ANY)
        return false; /* poison and any only relax: agreement with the reference already holds */
    return !eng_exec_inputs_finite(e, in) || bs->contract.domain > 0;
}

/* Does a row's element keep the "nonfinite" rule? */
static bool rule_kept(enum eng_nonfinite rule, double o)
{
    switch (rule) {
    case ENG_NF_FINITE: return isfinite(o);
    case ENG_NF_MASKED: return fabs(o) <= 0;
    default: return true;
    }
}

static bool same_nonfinite(double a, double b)
{
    return (isnan(a) && isnan(b)) || (isinf(a) && isinf(b) && signbit(a) == signbit(b));
}

/* One float output's judgement, filled by the passes below and told by note_float. */
struct float_judgement {
    const struct eng_buffer_spec *bs;
    struct eng_out_contract c; /* the one it is judged by (effective_contract) */
    enum eng_dtype dt;
    double n, domain;
    uint64_t len, stride, rows, elems;
    unsigned char *special;  /* per row, or NULL */
    unsigned char *direct;   /* per row: special through an input row of its own, or NULL */
    /* The reductions a special input value enters, which it may poison whole (docs/engine.md,
     * "Contracts, bounds and doubt", rule 6): per row, its own input row holds one (a row
     * reduction); per column, some input row holds one there (a column reduction). Each NULL
     * when the contract's reduce rules that axis out or no input is shaped like the output. */
    unsigned char *reach_row, *reach_col;
    double *row_scale;       /* per row: the largest finite |reference| */
    double *cancel;          /* per element: its input group's max|x| / max|x - mean|, or NULL */
    unsigned char *cand;     /* per element: beyond the bound of the reference */
    uint64_t ncand;
    struct tally rule, beyond, fail, doubt, leak;
    uint64_t fail_nonfinite;  /* of the failures: NaN/Inf where the reference is finite */
    double ref_err;          /* the reference's largest error against the arbiter (finite rows) */
};

/* The bound at element i (of row i / stride) around ref. */
static double bound_at(const struct eng_exec *e, const struct float_judgement *fj, double ref,
                       uint64_t i)
{
    uint64_t row = fj->stride ? i / fj->stride : 0;
    if (row >= fj->rows)
        return e->m->tol_abs;
    return eng_contract_bound(&fj->c, fj->dt, fj->n, ref, fj->row_scale[row],
                              fj->cancel ? fj->cancel[i] : 0, e->m->tol_abs, e->m->tol_rel);
}

/* Does dimension expression d say the reduction length of contract c: the same expression
 * ("N" and "N"), or the same whole number when the contract gives one (a manifest written
 * with concrete shapes)? */
static bool says_reduce(const struct eng_inst *in, const struct eng_out_contract *c, const char *d,
                        double n)
{
    if (!c->reduce || !d)
        return false;
    if (!strcmp(d, c->reduce))
        return true;
    if (c->reduce[strspn(c->reduce, "0123456789")] != '\0')
        return false;
    int64_t v = 0;
    char err[64];
    return eng_values_eval(&in->v, d, &v, err, sizeof err) == 0 && v == (int64_t)n;
}

enum { MAX_AXES = 8 };

/* The extents of buffer b's dimensions; false when there are too many or one does not
 * evaluate. */
static bool extents(const struct eng_inst *in, const struct eng_buffer_spec *bs, int64_t *ext)
{
    if (bs->ndims < 1 || bs->ndims > MAX_AXES)
        return false;
    for (size_t d = 0; d < bs->ndims; d++) {
        char err[64];
        if (eng_values_eval(&in->v, bs->dims[d], &ext[d], err, sizeof err) != 0 || ext[d] < 1)
            return false;
    }
    return true;
}

/* The input a normalized output normalizes: one made on the host and shaped like the output
 * (the same extents, row for row). -1: none (inputs made on the device, a shape of its own):
 * the bound then has no cancellation term. */
static int normalized_input(const struct eng_exec *e, const struct eng_inst *in,
                            const struct float_judgement *fj, const int64_t *oext)
{
    for (size_t i = 0; i < e->m->nbuffers; i++) {
        const struct eng_buffer_spec *bi = &e->m->buffers[i];
        int64_t ext[MAX_AXES];
        if (bi->role != ENG_ROLE_INPUT || !eng_vclass_applies(bi->dtype) || !e->host_in[i] ||
            bi->ndims != fj->bs->ndims || !extents(in, bi, ext) ||
            memcmp(ext, oext, bi->ndims * sizeof *ext))
            continue;
        uint64_t len, stride;
        eng_exec_rows(e, in, i, &len, &stride);
        if (len == fj->len && stride && in->var[i].padded_elems / stride == fj->rows)
            return (int)i;
    }
    return -1;
}

/* max|x| / max|x - mean(x)| over count values of input src from element ibase, step apart,
 * the mean in double, kept at the output's elements from obase (ostep apart) where larger: 0
 * for zeros (the mean is exact) or a group holding NaN/Inf (judged by its rule), +Inf for
 * equal values (the exact output is 0, and what a correct kernel gives there depends on an
 * eps the contract does not know). */
static void group_cancel(const struct eng_exec *e, int src, uint64_t ibase, uint64_t istep,
                         uint64_t count, double *out, uint64_t obase, uint64_t ostep)
{
    enum eng_dtype dt = e->m->buffers[src].dtype;
    double sum = 0, lo = (double)INFINITY, hi = -(double)INFINITY;
    for (uint64_t t = 0; t < count; t++) {
        double x = eng_dtype_value(dt, e->host_in[src], ibase + t * istep);
        sum += x;
        lo = x < lo ? x : lo;
        hi = x > hi ? x : hi;
    }
    double mx = fmax(fabs(lo), fabs(hi)), mean = sum / (double)count;
    if (!isfinite(sum) || !(mx > 0))
        return;
    double c = hi > lo ? mx / fmax(hi - mean, mean - lo) : (double)INFINITY;
    for (uint64_t t = 0; t < count; t++)
        if (c > out[obase + t * ostep])
            out[obase + t * ostep] = c;
}

/* Per output element: the cancellation of the group of the normalized input it belongs to,
 * along each axis the output normalizes: the one whose dimension says "reduce" (the last: a
 * row normalization; another: a column one, a statistic over rows); every axis under the
 * default contract, which does not say. NULL when no input can be told or no axis says it. */
static double *cancellation(const struct eng_exec *e, const struct eng_inst *in,
                            const struct float_judgement *fj)
{
    int64_t ext[MAX_AXES];
    size_t nd = fj->bs->ndims;
    if (fj->c.kind != ENG_KIND_NORMALIZED || !e->host_in || !extents(in, fj->bs, ext))
        return NULL;
    int src = normalized_input(e, in, fj, ext);
    if (src < 0)
        return NULL;
    uint64_t len, is;
    eng_exec_rows(e, in, (size_t)src, &len, &is);
    uint64_t rows = 1, os = fj->stride;
    for (size_t d = 0; d + 1 < nd; d++)
        rows *= (uint64_t)ext[d];
    /* rows of padding in a dimension before the last but one would shift the rows' places */
    if (rows > fj->rows || (nd > 2 && rows != fj->rows))
        return NULL;
    double *out = NULL;
    for (size_t a = 0; a < nd; a++) {
        if (ext[a] < 2 || (fj->c.declared && !says_reduce(in, &fj->c, fj->bs->dims[a], fj->n)))
            continue;
        if (!out)
            out = xcalloc(fj->elems + 1, sizeof *out);
        if (a + 1 == nd) {
            for (uint64_t r = 0; r < rows; r++)
                group_cancel(e, src, r * is, 1, len, out, r * os, 1);
            continue;
        }
        uint64_t inner = 1, E = (uint64_t)ext[a];
        for (size_t d = a + 1; d + 1 < nd; d++)
            inner *= (uint64_t)ext[d];
        for (uint64_t x = 0; x < rows / (E * inner); x++)
            for (uint64_t y = 0; y < inner; y++)
                for (uint64_t k = 0; k < len; k++) {
                    uint64_t r0 = x * E * inner + y;
                    group_cancel(e, src, r0 * is + k, inner * is, E, out, r0 * os + k,
                                 inner * os);
                }
    }
    return out;
}

/* Pass 1: special rows by their rule; plain elements against the reference's bound. */
static void judge_against_reference(const struct eng_exec *e, const struct eng_judge *j, size_t b,
                                    struct float_judgement *fj)
{
    const struct eng_out_contract *c = &fj->c;
    for (uint64_t r = 0; r < fj->rows; r++) {
        double sc = 0;
        for (uint64_t k = 0; k < fj->stride; k++) {
            double f = eng_dtype_value(fj->dt, j->ref[b], r * fj->stride + k);
            sc = isfinite(f) && fabs(f) > sc ? fabs(f) : sc;
        }
        fj->row_scale[r] = sc;
    }
    for (uint64_t i = 0; i < fj->elems; i++) {
        uint64_t r = fj->stride ? i / fj->stride : 0;
        double o = eng_dtype_value(fj->dt, j->var[b], i), f = eng_dtype_value(fj->dt, j->ref[b], i);
        unsigned char sp = fj->special && r < fj->rows ? fj->special[r] : ROW_PLAIN;
        double bound = bound_at(e, fj, f, i);
        bool agrees = same_nonfinite(o, f) || (isfinite(o) && isfinite(f) && fabs(o - f) <= bound);
        if (sp != ROW_PLAIN) {
            if (c->nonfinite == ENG_NF_ANY)
                continue;
            if (!rule_kept(c->nonfinite, o))
                tally_add(&fj->rule, i, fabs(o), 0, NAN, o, f);
            else if (sp == ROW_BEYOND_DOMAIN && isfinite(o) && isfinite(f) && !agrees) {
                fj->cand[i] = 2; /* the arbiter may still clear it; else in doubt */
                fj->ncand++;
            }
            continue;
        }
        if (!agrees) {
            fj->cand[i] = 1;
            fj->ncand++;
        }
    }
}

/* Pass 2: the elements beyond the reference's bound, against the arbiter. */
static void judge_against_arbiter(const struct eng_exec *e, const struct eng_judge *j, size_t b,
                                  struct float_judgement *fj)
{
    const void *arb = j->arb ? j->arb[b] : NULL;
    fj->ref_err = 0;
    for (uint64_t i = 0; arb && i < fj->elems; i++) {
        uint64_t r = fj->stride ? i / fj->stride : 0;
        if (fj->special && r < fj->rows && fj->special[r] == ROW_NONFINITE)
            continue;
        double f = eng_dtype_value(fj->dt, j->ref[b], i), a = eng_dtype_value(fj->dt, arb, i);
        if (isfinite(f) && isfinite(a) && fabs(f - a) > fj->ref_err)
            fj->ref_err = fabs(f - a);
    }
    for (uint64_t i = 0; i < fj->elems; i++) {
        if (!fj->cand[i])
            continue;
        uint64_t r = fj->stride ? i / fj->stride : 0;
        double o = eng_dtype_value(fj->dt, j->var[b], i), f = eng_dtype_value(fj->dt, j->ref[b], i);
        double kerr = isfinite(o) && isfinite(f) ? fabs(o - f) : (double)INFINITY;
        if (!arb) {
            tally_add(fj->cand[i] == 2 ? &fj->beyond : &fj->fail, i, kerr,
                      r < fj->rows ? bound_at(e, fj, f, i) : 0, NAN, o, f);
            fj->fail_nonfinite += fj->cand[i] == 1 && !isfinite(o) && isfinite(f);
            continue;
        }
        double a = eng_dtype_value(fj->dt, arb, i);
        double bound = bound_at(e, fj, a, i);
        double ak = same_nonfinite(o, a) ? 0 : isfinite(o) && isfinite(a) ? fabs(o - a) : (double)INFINITY;
        double ar = same_nonfinite(f, a) ? 0 : isfinite(f) && isfinite(a) ? fabs(f - a) : (double)INFINITY;
        if (ak <= bound + 2 * fj->ref_err)
            continue; /* as close to the truth as the reference is, or closer */
        if (fj->cand[i] == 2) { /* past the domain: the contract promises nothing to fail */
            tally_add(&fj->beyond, i, ak, bound, ar, o, a);
            continue;
        }
        /* the reference broke its own bound here: in doubt, unless the kernel is an order of
         * magnitude further off than even that reference */
        if (ar > bound && isfinite(o) && ak <= 10 * ar)
            tally_add(&fj->doubt, i, ak, bound, ar, o, a);
        else {
            tally_add(&fj->fail, i, ak, bound, ar, o, a);
            fj->fail_nonfinite += !isfinite(o) && isfinite(f);
        }
    }
}

/* Does a special row stand only because an input reaches every row (no input row of its own)? */
static bool reached_whole(const struct float_judgement *fj, uint64_t r)
{
    return fj->special && r < fj->rows && fj->special[r] != ROW_PLAIN &&
           !(fj->direct && fj->direct[r]);
}

/* Pass 3: "every other row equals a run without them". An element of a row made special only
 * because some input reaches every row, where the reference is bit for bit the same without
 * the special values (they do not reach it), must be what the kernel gives without them too:
 * bit for bit, the same NaN/Inf, or within the bound. */
static void judge_against_clean_run(const struct eng_exec *e, const struct eng_judge *j, size_t b,
                                    struct float_judgement *fj)
{
    size_t sz = eng_dtype_size(fj->dt);
    for (uint64_t i = 0; j->cvar && i < fj->elems; i++) {
        uint64_t r = fj->stride ? i / fj->stride : 0, k = fj->stride ? i % fj->stride : i;
        if (!reached_whole(fj, r) ||
            memcmp((const char *)j->ref[b] + i * sz, (const char *)j->cref[b] + i * sz, sz))
            continue;
        /* a reduction a special value enters may be poisoned whole, whatever one reference
         * writes there (a causal softmax's masked keys: 0 / NaN once the row's sum is NaN) */
        if ((fj->reach_row && r < fj->rows && fj->reach_row[r]) ||
            (fj->reach_col && k < fj->len && fj->reach_col[k]))
            continue;
        double o = eng_dtype_value(fj->dt, j->var[b], i), c = eng_dtype_value(fj->dt, j->cvar[b], i);
        double f = eng_dtype_value(fj->dt, j->cref[b], i), bound = bound_at(e, fj, f, i);
        if (same_nonfinite(o, c) || (isfinite(o) && isfinite(c) && fabs(o - c) <= bound))
            continue;
        tally_add(&fj->leak, i, isfinite(o) && isfinite(c) ? fabs(o - c) : (double)INFINITY,
                  bound, c, o, c);
    }
}

/* The contract as the findings quote it: "sum, reduce 64, acc f32". */
static void contract_words(const struct float_judgement *fj, char *out, size_t n)
{
    const struct eng_out_contract *c = &fj->c;
    snprintf(out, n, "%s, reduce %.0f, acc %s%s", eng_kind_name(c->kind), fj->n,
             c->acc_f64 ? "f64" : eng_dtype_name(c->acc),
             c->declared ? "" : "; the default contract");
}

static void note_float(struct eng_exec *e, const struct eng_inst *in, const struct eng_judge *j,
                       size_t b, const char *pre, const struct float_judgement *fj)
{
    const char *bn = fj->bs->name;
    char at[96], words[96];
    contract_words(fj, words, sizeof words);
    if (fj->rule.n) {
        eng_exec_coords(e, in, b, fj->rule.first, at, sizeof at);
        eng_exec_note(e, "%s%s: %llu elements break \"nonfinite\": \"%s\" in rows whose inputs hold "
                      "NaN/Inf or magnitudes past the domain %.3g (first at %s)", pre, bn,
                      (unsigned long long)fj->rule.n, eng_nonfinite_name(fj->c.nonfinite),
                      fj->domain, at);
        e->failed = true;
        eng_exec_record_bad(e, (int64_t)fj->rule.first, (int64_t)fj->rule.n, NAN);
    }
    if (fj->fail.n) {
        eng_exec_coords(e, in, b, fj->fail.first, at, sizeof at);
        char arb[480], err[128];
        if (j->arb) {
            if (!tally_unbounded(&fj->fail))
                snprintf(err, sizeof err, "kernel error %.3g, bound %.3g", fj->fail.kernel_err,
                         fj->fail.bound);
            else
                tally_error_words(&fj->fail, "the arbiter", err, sizeof err);
            snprintf(arb, sizeof arb, "against the arbiter: %s, reference error %.3g there (%.3g "
                     "at most)", err, fj->fail.ref_err, fj->ref_err);
        } else {
            tally_error_words(&fj->fail, "the reference", err, sizeof err);
            snprintf(arb, sizeof arb, "%s", err);
        }
        /* why there was no arbiter is the same for every check of the suite: the reports say
         * it once per run (eng_check_result.no_arbiter), not in each finding */
        if (!j->arb && !e->out->no_arbiter[0])
            snprintf(e->out->no_arbiter, sizeof e->out->no_arbiter, "%s", j->arb_why);
        char nonfin[64] = "", inputs[320];
        if (fj->fail_nonfinite)
            snprintf(nonfin, sizeof nonfin, "; %llu NaN/Inf where the reference is finite",
                     (unsigned long long)fj->fail_nonfinite);
        eng_exec_inputs_at(e, in, b, fj->fail.first, inputs, sizeof inputs);
        eng_exec_note(e, "%s%s: %llu of %llu elements differ from the reference beyond the bound "
                      "(first at %s; %s): %s%s%s", pre, bn, (unsigned long long)fj->fail.n,
                      (unsigned long long)fj->elems, at, words, arb, nonfin, inputs);
        e->failed = true;
        eng_exec_record_bad(e, (int64_t)fj->fail.first, (int64_t)fj->fail.n, fj->fail.kernel_err);
    }
    if (fj->leak.n) {
        char err[128];
        eng_exec_coords(e, in, b, fj->leak.first, at, sizeof at);
        tally_error_words(&fj->leak, "its run without them", err, sizeof err);
        eng_exec_note(e, "%s%s: %llu elements that the inputs' NaN/Inf or magnitudes past the "
                      "domain %.3g do not reach (the reference is the same without them) differ "
                      "from the kernel's own run without them (first at %s): %s", pre, bn,
                      (unsigned long long)fj->leak.n, fj->domain, at, err);
        e->failed = true;
        eng_exec_record_bad(e, (int64_t)fj->leak.first, (int64_t)fj->leak.n, NAN);
    }
    if (fj->doubt.n) {
        eng_exec_coords(e, in, b, fj->doubt.first, at, sizeof at);
        eng_exec_note(e, "%s%s: in doubt: %llu elements where the reference breaks its own bound "
                      "against the arbiter (first at %s; %s): kernel error %.3g, reference error "
                      "%.3g, bound %.3g; to settle it: a reference nearer the truth (a float64 "
                      "one, or wider kl_acc accumulators) or the bound the op really has "
                      "(the output's acc, reduce)", pre, bn, (unsigned long long)fj->doubt.n, at, words,
                      fj->doubt.kernel_err, fj->doubt.ref_err, fj->doubt.bound);
        e->doubt = true;
    }
    if (fj->beyond.n) {
        eng_exec_coords(e, in, b, fj->beyond.first, at, sizeof at);
        eng_exec_note(e, "%s%s: in doubt: %llu elements differ from the reference only in rows whose "
                      "inputs pass the domain %.3g (first at %s): kernel error %.3g, bound %.3g; to "
                      "settle it: declare the domain the op promises (a larger \"domain\" holds "
                      "those rows to the bound) or leave such magnitudes out of the classes run",
                      pre, bn, (unsigned long long)fj->beyond.n, fj->domain, at,
                      fj->beyond.kernel_err, fj->beyond.bound);
        e->doubt = true;
    }
}

/* The magnitude past which the clean run replaces an input: the least domain of the float
 * outputs, so that no output sees a value past its own. */
static double clean_domain(const struct eng_exec *e, const struct eng_inst *in)
{
    double d = (double)INFINITY;
    for (size_t b = 0; b < e->m->nbuffers; b++) {
        const struct eng_buffer_spec *bs = &e->m->buffers[b];
        if (bs->role == ENG_ROLE_OUTPUT && eng_vclass_applies(bs->dtype)) {
            struct eng_out_contract c = effective_contract(bs);
            double o = eng_contract_domain(&c, reduce_len(e, in, &c));
            d = o < d ? o : d;
        }
    }
    return d;
}

/* The device's fail tally (eng_exec_judge_device's 2) as the host would have made it: the
 * worst element's error and bound from its two values, read back alone. */
static void note_device_fail(struct eng_exec *e, const struct eng_inst *in,
                             const struct eng_judge *j, size_t b, const char *pre,
                             struct float_judgement *fj, const struct eng_device_fail *df)
{
    double f = df->truth, o = df->kernel;
    double kerr = isfinite(o) && isfinite(f) ? fabs(o - f) : (double)INFINITY;
    fj->row_scale = xcalloc(fj->rows + 1, sizeof *fj->row_scale);
    fj->row_scale[df->worst / fj->stride] = df->row_scale;
    fj->fail = (struct tally){.n = df->count, .first = df->first, .kernel_err = kerr,
                              .bound = bound_at(e, fj, f, df->worst), .ref_err = NAN,
                              .kernel = o, .truth = f};
    fj->fail_nonfinite = df->nonfinite;
    note_float(e, in, j, b, pre, fj);
}

/* Both copies read back and judged here: against the reference, the arbiter where some element
 * is a candidate, the clean run where special inputs reach whole rows. 0 or -1. */
static int judge_on_host(struct eng_exec *e, struct eng_inst *in, struct eng_judge *j, size_t b,
                         const char *pre, struct eng_stream *s, struct float_judgement *fj)
{
    ENG_TRY(eng_exec_judge_read(e, in, j, b, s));
    fj->row_scale = xcalloc(fj->rows + 1, sizeof *fj->row_scale);
    fj->cand = xcalloc(fj->elems + 1, 1);
    judge_against_reference(e, j, b, fj);
    int rc = fj->ncand ? eng_exec_arbiter(e, in, j, s) : 0;
    bool whole = false;
    for (uint64_t r = 0; r < fj->rows && fj->c.nonfinite != ENG_NF_ANY; r++)
        whole |= reached_whole(fj, r);
    if (rc == 0 && whole)
        rc = eng_exec_clean_run(e, in, j, clean_domain(e, in), s);
    if (rc == 0) {
        judge_against_arbiter(e, j, b, fj);
        if (whole)
            judge_against_clean_run(e, j, b, fj);
        note_float(e, in, j, b, pre, fj);
        if (!fj->rule.n && !fj->fail.n && !fj->leak.n)
            eng_exec_record_bad(e, -1, 0, fj->doubt.n ? fj->doubt.kernel_err : 0);
    }
    return rc;
}

static int judge_float(struct eng_exec *e, struct eng_inst *in, struct eng_judge *j, size_t b,
                       const char *pre, struct eng_stream *s)
{
    struct float_judgement fj = {.bs = &e->m->buffers[b], .dt = e->m->buffers[b].dtype};
    fj.c = effective_contract(fj.bs);
    fj.n = reduce_len(e, in, &fj.c);
    fj.domain = eng_contract_domain(&fj.c, fj.n);
    eng_exec_rows(e, in, b, &fj.len, &fj.stride);
    fj.elems = in->var[b].padded_elems;
    fj.rows = fj.stride ? fj.elems / fj.stride : 0;
    fj.special = special_rows(e, in, &fj.c, fj.rows, fj.domain, &fj.direct);
    if (fj.special && fj.c.nonfinite == ENG_NF_POISON)
        reach_marks(e, in, &fj.c, fj.rows, fj.len, fj.domain, &fj.reach_row, &fj.reach_col);
    fj.cancel = cancellation(e, in, &fj);
    /* plain rows only, every element within its bound: the device says so without a readback.
     * With no arbiter either, an element outside its bound can only fail (no doubt, no rule, no
     * clean run): the device then gives the fail tally the host would make, and only the worst
     * element is read back */
    struct eng_device_fail df = {0};
    int dev = 0, rc = 0;
    if (!fj.special && !fj.cancel)
        dev = eng_exec_judge_device(e, in, j, b, &fj.c, fj.n, fj.rows, fj.stride, s, &df);
    if (dev == 2)
        note_device_fail(e, in, j, b, pre, &fj, &df);
    else if (dev == 1)
        eng_exec_record_bad(e, -1, 0, 0);
    else if (dev < 0)
        rc = -1;
    else
        rc = judge_on_host(e, in, j, b, pre, s, &fj);
    free(fj.special);
    free(fj.direct);
    free(fj.reach_row);
    free(fj.reach_col);
    free(fj.row_scale);
    free(fj.cancel);
    free(fj.cand);
    return rc;
}

/* The input whose values an index output picks from: "ties_in", else the first float input
 * made on the host with as many rows as the output. -1: none. */
static int picked_input(const struct eng_exec *e, const struct eng_inst *in, size_t b, uint64_t rows)
{
    const struct eng_buffer_spec *bs = &e->m->buffers[b];
    if (bs->ties_in >= 0)
        return bs->ties_in;
    for (size_t i = 0; i < e->m->nbuffers; i++) {
        uint64_t len, stride;
        if (e->m->buffers[i].role != ENG_ROLE_INPUT || !eng_vclass_applies(e->m->buffers[i].dtype) ||
            !e->host_in || !e->host_in[i])
            continue;
        eng_exec_rows(e, in, i, &len, &stride);
        if (stride && in->var[i].padded_elems / stride == rows)
            return (int)i;
    }
    return -1;
}

/* Row r of picks p[0..k) over values x[0..len): does it keep the NaN rule? By properties, as
 * nvFuser checks top-k: NaN picks first ("largest") or never, then distinct non-NaN picks in
 * order, none beaten by a value left out. */
static bool picks_keep_rule(enum eng_nan_pick rule, const int64_t *p, uint64_t k, const double *x,
                            uint64_t len)
{
    uint64_t nan = 0, q = 0;
    for (uint64_t c = 0; c < len; c++)
        nan += isnan(x[c]);
    uint64_t want_nan = rule == ENG_PICK_LARGEST ? (nan < k ? nan : k) : 0;
    for (; q < want_nan; q++)
        if (p[q] < 0 || (uint64_t)p[q] >= len || !isnan(x[p[q]]))
            return false;
    uint64_t avail = len - nan, upto = q + avail < k ? q + avail : k;
    double least = (double)INFINITY;
    for (; q < upto; q++) {
        if (p[q] < 0 || (uint64_t)p[q] >= len || isnan(x[p[q]]) || x[p[q]] > least)
            return false;
        for (uint64_t o = 0; o < q; o++)
            if (p[o] == p[q])
                return false;
        least = x[p[q]];
    }
    for (uint64_t c = 0; c < len && upto > want_nan; c++) {
        bool taken = false;
        for (uint64_t o = 0; o < upto && !taken; o++)
            taken = p[o] == (int64_t)c;
        if (!taken && !isnan(x[c]) && x[c] > least)
            return false;
    }
    return true;
}

static int judge_index(struct eng_exec *e, struct eng_inst *in, struct eng_judge *j, size_t b,
                       const char *pre, struct eng_stream *s)
{
    const struct eng_buffer_spec *bs = &e->m->buffers[b];
    uint64_t k, kstride;
    eng_exec_rows(e, in, b, &k, &kstride);
    if (bs->ndims == 1)
        k = kstride = 1;
    uint64_t rows = kstride ? in->var[b].padded_elems / kstride : 0;
    int src = picked_input(e, in, b, rows);
    ENG_TRY(eng_exec_judge_read(e, in, j, b, s));
    uint64_t len = 0, stride = 0, rule_bad = 0, differ = 0, first = UINT64_MAX;
    if (src >= 0)
        eng_exec_rows(e, in, (size_t)src, &len, &stride);
    int64_t *p = xcalloc(k + 1, sizeof *p);
    double *x = xcalloc(len + 1, sizeof *x);
    for (uint64_t r = 0; r < rows; r++) {
        bool nan = false;
        for (uint64_t c = 0; src >= 0 && c < len; c++)
            nan |= isnan(x[c] = eng_dtype_value(e->m->buffers[src].dtype, e->host_in[src], r * stride + c));
        for (uint64_t q = 0; q < k; q++) {
            p[q] = (int64_t)eng_dtype_value(bs->dtype, j->var[b], r * kstride + q);
            if (!nan && p[q] != (int64_t)eng_dtype_value(bs->dtype, j->ref[b], r * kstride + q)) {
                differ++;
                first = r * kstride + q < first ? r * kstride + q : first;
            }
        }
        /* no rule declared: NaN never picked and NaN picked first are both correct */
        bool kept = bs->contract.nan_pick != ENG_PICK_UNSET
                        ? picks_keep_rule(bs->contract.nan_pick, p, k, x, len)
                        : picks_keep_rule(ENG_PICK_NEVER, p, k, x, len) ||
                              picks_keep_rule(ENG_PICK_LARGEST, p, k, x, len);
        if (nan && !kept) {
            rule_bad++;
            first = r * kstride < first ? r * kstride : first;
        }
    }
    free(p);
    free(x);
    if (rule_bad || differ) {
        char at[96];
        eng_exec_coords(e, in, b, first, at, sizeof at);
        eng_exec_note(e, "%s%s: %llu picks differ from the reference in rows without NaN and %llu "
                      "rows with NaN break \"nan_pick\": \"%s\" (first at %s)", pre, bs->name,
                      (unsigned long long)differ, (unsigned long long)rule_bad,
                      bs->contract.nan_pick == ENG_PICK_LARGEST ? "largest"
                      : bs->contract.nan_pick == ENG_PICK_NEVER ? "never"
                                                                : "never\" or \"largest", at);
        e->failed = true;
        eng_exec_record_bad(e, (int64_t)first, (int64_t)(differ + rule_bad), NAN);
    }
    return 0;
}

int eng_exec_judge(struct eng_exec *e, struct eng_inst *in, struct eng_judge *j, size_t b,
                   const char *pre, struct eng_stream *s)
{
    return eng_vclass_applies(e->m->buffers[b].dtype) ? judge_float(e, in, j, b, pre, s)
                                                      : judge_index(e, in, j, b, pre, s);
}
