/* Contract names and the error bound (engine/values/contract.h). */
#include "engine/values/contract.h"

#include <float.h>
#include <math.h>

static const char *const kind_names[ENG_KIND_COUNT] = {"elementwise", "sum", "normalized",
                                                       "selection", "quantized"};
static const char *const nf_names[ENG_NF_COUNT] = {"poison", "finite", "masked", "any"};

const char *eng_kind_name(enum eng_kind k)
{
    return (unsigned)k < ENG_KIND_COUNT ? kind_names[k] : "?";
}

const char *eng_nonfinite_name(enum eng_nonfinite n)
{
    return (unsigned)n < ENG_NF_COUNT ? nf_names[n] : "?";
}

/* The unit roundoff of a dtype (2^-24 for f32, 2^-8 bf16, 2^-4 fp8 e4m3; 2^-53 for f64 when
 * f64 is true); 0 for integers. */
static double eng_unit_roundoff(enum eng_dtype d, bool f64)
{
    if (f64)
        return ldexp(1.0, -53);
    switch (d) {
    case ENG_F32: return ldexp(1.0, -24);
    case ENG_BF16: return ldexp(1.0, -8);
    case ENG_F16: return ldexp(1.0, -11);
    case ENG_FP8E4M3: return ldexp(1.0, -4);
    default: return 0;
    }
}

double eng_gamma(double n, double u)
{
    double nu = n * u;
    return nu < 1 ? nu / (1 - nu) : (double)INFINITY;
}

/* The spacing of dtype d's values at magnitude |x| (one code of an fp8 output). */
static double eng_dtype_spacing(enum eng_dtype d, double x)
{
    int mant = d == ENG_F32 ? 23 : d == ENG_BF16 ? 7 : d == ENG_F16 ? 10 : d == ENG_FP8E4M3 ? 3 : 0;
    int emin = d == ENG_F32 || d == ENG_BF16 ? -126 : d == ENG_F16 ? -14 : -6;
    if (!mant)
        return 0;
    x = fabs(x);
    int e = x > 0 ? ilogb(x) : emin;
    if (e < emin)
        e = emin; /* subnormals: the smallest spacing */
    return ldexp(1.0, e - mant);
}

double eng_contract_bound(const struct eng_out_contract *c, enum eng_dtype out, double n, double ref,
                          double row_scale, double cancel, double tol_abs, double tol_rel)
{
    double a = fabs(ref), floor = tol_abs + tol_rel * a;
    /* a suite that says nothing and asks for exact outputs (abs and rel 0) gets them */
    if (!c->declared && !(tol_abs > 0) && !(tol_rel > 0))
        return 0;
    double uo = eng_unit_roundoff(out, false);
    double ua = eng_unit_roundoff(c->acc, c->acc_f64);
    double g = eng_gamma(n < 1 ? 1 : n, ua);
    switch (c->kind) {
    case ENG_KIND_SUM: return floor + 2 * g * row_scale + 2 * uo * a;
    case ENG_KIND_NORMALIZED: {
        /* the mean's error shifts every x - mean and is amplified by the normalization's
         * 1 / sigma: row_scale / max|x - mean|. The error taken is the one rounding gives in
         * practice, sqrt(n + 1) u_acc max|x| (independent roundings add like a random walk),
         * not its worst case gamma_{n+1}: at n = 1024 the worst case is 32x wider and lets a
         * one-pass E[x^2] - E[x]^2 variance through on rows of mean 128 (docs/engine.md). */
        double shift = 0;
        if (cancel > 0) {
            double m = (n < 1 ? 1 : n) + 1;
            shift = isinf(cancel) ? (double)INFINITY : 2 * sqrt(m) * ua * row_scale * cancel;
        }
        return floor + 2 * g * row_scale + 4 * uo * a + shift;
    }
    case ENG_KIND_QUANTIZED: return floor + eng_dtype_spacing(out, ref);
    case ENG_KIND_SELECTION: return floor;
    default: return floor + 2 * uo * a;
    }
}

double eng_contract_domain(const struct eng_out_contract *c, double n)
{
    if (c->domain > 0)
        return c->domain;
    if (c->kind == ENG_KIND_SUM || c->kind == ENG_KIND_NORMALIZED)
        return sqrt((double)FLT_MAX / (n < 1 ? 1 : n));
    return (double)FLT_MAX;
}
