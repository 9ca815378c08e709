/* The contract judge's first pass where the outputs are (engine/exec/exec_internal.h:
 * eng_exec_judge_device). On a GPU the host judge reads both copies of an output back to learn
 * that every element is within its contract's bound; an 8192 x 65536 bf16 output is 2 GiB a
 * check, and rung 5 judges it once a repeat (aiter-6344's wide rows on an H200: 150 s where the
 * kernels took 2). Here the device finds each row's largest |reference| and counts the elements
 * outside the bound (kernels/util.kl: kl_util_row_absmax, kl_util_bound); when there are none
 * nothing is read back, and the host judge has nothing to add. When some are outside and the
 * check has no arbiter (the caller knows: eng_exec_arbiter_absent), the host judge could only
 * fail them: kl_util_bound_fail gives its fail tally (count, first, worst, NaN/Inf) and only the
 * worst element is read back. When there is an arbiter, or an element within rounding of its
 * bound, or the bound is not one the device can evaluate, the host judges as before. The cpu
 * backend's outputs are host memory already: it keeps the host path (KLADDER_JUDGE=device makes
 * it take this one, for the tests; =host keeps every backend on the host). KLADDER_JUDGE_TRACE=FILE
 * appends one line per judgement made here to FILE ("judged on the device: y, 0 of N outside
 * the bound", "..., K of N outside the bound (failed on the device: first at F, worst at W, X
 * NaN/Inf)" or "(the host judges them)"; a worker's stderr is the watchdog's), so a test or a
 * benchmark can tell which path ran. */
#include "engine/exec/exec_internal.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/xalloc.h"
#include "engine/values/contract.h"
#include "engine/values/value_class.h"

/* Whether this run judges on the device at all. */
static bool judge_here(const struct eng_exec *e)
{
    const char *w = getenv("KLADDER_JUDGE");
    if (w && !strcmp(w, "host"))
        return false;
    if (w && !strcmp(w, "device"))
        return true;
    return !e->B->caps.emulated;
}

static double bound_at(const struct eng_exec *e, const struct eng_out_contract *c,
                       enum eng_dtype dt, double n, double ref, double row_scale)
{
    return eng_contract_bound(c, dt, n, ref, row_scale, 0, e->m->tol_abs, e->m->tol_rel);
}

/* The contract's bound as ta + tr |ref| + ts row_scale, read off eng_contract_bound and then
 * checked at points far apart: false where it is not of that form (a quantized output's
 * spacing) or not finite, and the host judges. */
static bool affine_terms(const struct eng_exec *e, const struct eng_out_contract *c,
                         enum eng_dtype dt, double n, double *ta, double *tr, double *ts)
{
    double b00 = bound_at(e, c, dt, n, 0, 0);
    *ta = b00;
    *tr = bound_at(e, c, dt, n, 1, 0) - b00;
    *ts = bound_at(e, c, dt, n, 0, 1) - b00;
    static const double probe[][2] = {{1e3, 0}, {0, 1e3}, {7.5, 3.25}, {-2, 1e-3}, {3e-5, 6e4}};
    for (size_t i = 0; i < sizeof probe / sizeof probe[0]; i++) {
        double want = bound_at(e, c, dt, n, probe[i][0], probe[i][1]);
        double got = *ta + *tr * fabs(probe[i][0]) + *ts * probe[i][1];
        if (!isfinite(want) || !(fabs(want - got) <= 1e-12 * fmax(want, 1e-300)))
            return false;
    }
    return isfinite(*ta) && isfinite(*tr) && isfinite(*ts) && *ta >= 0 && *tr >= 0 && *ts >= 0;
}

static void trace(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void trace(const char *fmt, ...)
{
    const char *path = getenv("KLADDER_JUDGE_TRACE");
    FILE *f = path && path[0] ? fopen(path, "a") : NULL;
    if (!f)
        return;
    va_list ap;
    va_start(ap, fmt);
    vfprintf(f, fmt, ap);
    va_end(ap);
    fclose(f);
}

/* One element of a device buffer, as a double. */
static int element_at(struct eng_exec *e, eng_dptr base, enum eng_dtype dt, uint64_t i, double *v,
                      struct eng_stream *s)
{
    size_t sz = eng_dtype_size(dt);
    unsigned char buf[16] = {0};
    ENG_TRY(e->B->memcpy_dtoh(e->ctx, buf, base + i * sz, sz, s, e->err, sizeof e->err));
    *v = eng_dtype_value(dt, buf, 0);
    return 0;
}

/* The failing output's tally (kl_util_bound_fail) into *fail: 1, or 0 when an element sits
 * within rounding of its bound (the inside count of kl_util_bound and the outside one here
 * differ) and the host must judge; -1. The bound terms are the host's own; the worst
 * element's numbers are read back one element each and told on the host. */
static int fail_tally(struct eng_exec *e, struct eng_inst *in, size_t b, uint64_t inside_count,
                      eng_dptr scale, double ta, double tr, double ts, uint64_t stride,
                      struct eng_stream *s, struct eng_device_fail *fail)
{
    const struct eng_buffer_spec *bs = &e->m->buffers[b];
    uint64_t elems = in->var[b].padded_elems, w[ENG_RES_WORDS], worst = 0;
    int dtype = (int)bs->dtype;
    double outside = 1 + 1e-9;
    for (int pass = 0; pass < 2; pass++) {
        void *a[] = {&in->var[b].data, &in->ref[b].data, &elems, &stride, &dtype, &scale,
                     &ta, &tr, &ts, &outside, &worst, &e->res};
        ENG_TRY(eng_exec_res_clear(e, s));
        ENG_TRY(eng_exec_ulaunch(e, e->kbfail, elems, s, a));
        ENG_TRY(eng_exec_res_read(e, w, s));
        if (w[0] != inside_count || !w[0] || !w[1])
            return 0;
        worst = w[3];
    }
    if (!w[4])
        return 0;
    fail->count = w[0];
    fail->first = w[1] - 1;
    fail->nonfinite = w[2];
    fail->worst = w[4] - 1;
    uint64_t row = fail->worst / stride;
    uint64_t bits = 0;
    ENG_TRY(e->B->memcpy_dtoh(e->ctx, &bits, scale + row * sizeof bits, sizeof bits, s, e->err,
                              sizeof e->err));
    uint32_t sc = (uint32_t)bits;
    float scf;
    memcpy(&scf, &sc, sizeof scf);
    fail->row_scale = scf;
    ENG_TRY(element_at(e, in->var[b].data, bs->dtype, fail->worst, &fail->kernel, s));
    ENG_TRY(element_at(e, in->ref[b].data, bs->dtype, fail->worst, &fail->truth, s));
    return 1;
}

int eng_exec_judge_device(struct eng_exec *e, struct eng_inst *in, struct eng_judge *j, size_t b,
                          const struct eng_out_contract *c, double n, uint64_t rows,
                          uint64_t stride, struct eng_stream *s, struct eng_device_fail *fail)
{
    const struct eng_buffer_spec *bs = &e->m->buffers[b];
    if (!judge_here(e) || !rows || !stride || !eng_vclass_applies(bs->dtype) || !e->kabsmax ||
        !e->kbound)
        return 0;
    double ta, tr, ts;
    if (!affine_terms(e, c, bs->dtype, n, &ta, &tr, &ts))
        return 0;
    /* a hair inside the host's bound: the device's rounding can then only send an element to
     * the host judge, never pass one the host would fail */
    const double inside = 1 - 1e-9;
    double ita = ta * inside, itr = tr * inside, its = ts * inside;
    uint64_t elems = in->var[b].padded_elems;
    if (elems != rows * stride)
        return 0;
    size_t bytes = (size_t)rows * sizeof(uint64_t);
    eng_dptr scale = 0;
    ENG_TRY(e->B->mem_alloc(e->ctx, bytes, &scale, e->err, sizeof e->err));
    uint64_t *zero = xcalloc(rows, sizeof *zero);
    int dtype = (int)bs->dtype, rc;
    uint64_t runs = (stride + 255) / 256, w[ENG_RES_WORDS];
    void *a1[] = {&in->ref[b].data, &rows, &stride, &dtype, &scale};
    void *a2[] = {&in->var[b].data, &in->ref[b].data, &elems, &stride, &dtype, &scale,
                  &ita, &itr, &its, &e->res};
    rc = e->B->memcpy_htod(e->ctx, scale, zero, bytes, s, e->err, sizeof e->err);
    if (rc == 0)
        rc = eng_exec_ulaunch(e, e->kabsmax, rows * runs, s, a1);
    if (rc == 0)
        rc = eng_exec_res_clear(e, s);
    if (rc == 0)
        rc = eng_exec_ulaunch(e, e->kbound, elems, s, a2);
    if (rc == 0)
        rc = eng_exec_res_read(e, w, s);
    int told = 0;
    if (rc == 0 && w[0] && fail && e->kbfail && eng_exec_arbiter_absent(e, j)) {
        told = fail_tally(e, in, b, w[0], scale, ta, tr, ts, stride, s, fail);
        rc = told < 0 ? -1 : 0;
    }
    free(zero);
    e->B->mem_free(e->ctx, scale);
    if (rc != 0)
        return -1;
    if (!w[0])
        trace("judged on the device: %s, 0 of %llu outside the bound\n", bs->name,
              (unsigned long long)elems);
    else if (told)
        trace("judged on the device: %s, %llu of %llu outside the bound (failed on the device: "
              "first at %llu, worst at %llu, %llu NaN/Inf)\n", bs->name,
              (unsigned long long)w[0], (unsigned long long)elems,
              (unsigned long long)fail->first, (unsigned long long)fail->worst,
              (unsigned long long)fail->nonfinite);
    else
        trace("judged on the device: %s, %llu of %llu outside the bound (the host judges them)\n",
              bs->name, (unsigned long long)w[0], (unsigned long long)elems);
    return !w[0] ? 1 : told ? 2 : 0;
}
