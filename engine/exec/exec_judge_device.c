/* The contract judge's first pass where the outputs are (engine/exec/exec_internal.h:
 * eng_exec_judge_device). On a GPU the host judge reads both copies of an output back to learn
 * that every element is within its contract's bound; an 8192 x 65536 bf16 output is 2 GiB a
 * check, and rung 5 judges it once a repeat (aiter-6344's wide rows on an H200: 150 s where the
 * kernels took 2). Here the device finds each row's largest |reference| and counts the elements
 * outside the bound (kernels/util.kl: kl_util_row_absmax, kl_util_bound); when there are none
 * nothing is read back, and the host judge has nothing to add. When some element is outside,
 * or the bound is not one the device can evaluate, the host judges as before. The cpu backend's
 * outputs are host memory already: it keeps the host path (KLADDER_JUDGE=device makes it take
 * this one, for the tests; =host keeps every backend on the host). KLADDER_JUDGE_TRACE=FILE
 * appends one line per judgement made here to FILE ("judged on the device: y, 0 of N outside
 * the bound"; a worker's stderr is the watchdog's), so a test or a benchmark can tell which
 * path ran. */
#include "engine/exec/exec_internal.h"

#include <math.h>
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

int eng_exec_judge_device(struct eng_exec *e, struct eng_inst *in, size_t b,
                          const struct eng_out_contract *c, double n, uint64_t rows,
                          uint64_t stride, struct eng_stream *s)
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
    ta *= inside, tr *= inside, ts *= inside;
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
                  &ta, &tr, &ts, &e->res};
    rc = e->B->memcpy_htod(e->ctx, scale, zero, bytes, s, e->err, sizeof e->err);
    if (rc == 0)
        rc = eng_exec_ulaunch(e, e->kabsmax, rows * runs, s, a1);
    if (rc == 0)
        rc = eng_exec_res_clear(e, s);
    if (rc == 0)
        rc = eng_exec_ulaunch(e, e->kbound, elems, s, a2);
    if (rc == 0)
        rc = eng_exec_res_read(e, w, s);
    free(zero);
    e->B->mem_free(e->ctx, scale);
    if (rc != 0)
        return -1;
    const char *trace = getenv("KLADDER_JUDGE_TRACE");
    FILE *f = trace && trace[0] ? fopen(trace, "a") : NULL;
    if (f) {
        fprintf(f, "judged on the device: %s, %llu of %llu outside the bound%s\n", bs->name,
                (unsigned long long)w[0], (unsigned long long)elems,
                w[0] ? " (the host judges them)" : "");
        fclose(f);
    }
    return w[0] == 0;
}
