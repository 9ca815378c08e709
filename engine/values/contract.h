/* An output's numerical contract (docs/engine.md, "Contracts, bounds and doubt"): what the op
 * promises, so that the oracles judge a kernel by the promise and never by the accidents of
 * one reference's rounding.
 *
 * A manifest states it on an output buffer ("reduce", "kind", "acc", "domain", "nonfinite",
 * "nan_pick"); every field has a safe default. This header holds the contract, the error
 * bound it implies (pure arithmetic, unit-tested) and the names the messages use. */
#ifndef KL_ENGINE_CONTRACT_H
#define KL_ENGINE_CONTRACT_H

#include <stdbool.h>
#include <stdint.h>

#include "engine/values/dtype.h"

enum eng_kind {
    ENG_KIND_ELEMENTWISE, /* each output from a few inputs: the output's rounding only */
    ENG_KIND_SUM,         /* a sum (dot, norm, GEMM) of "reduce" terms */
    ENG_KIND_NORMALIZED,  /* divided by a reduced quantity (softmax, layer norm, attention) */
    ENG_KIND_SELECTION,   /* picks inputs (max, top-k, gather): exact */
    ENG_KIND_QUANTIZED,   /* rounded to a narrow format: one code apart is the same answer */
    ENG_KIND_COUNT
};

/* What the op does with a row that holds a non-finite or out-of-domain input. */
enum eng_nonfinite {
    ENG_NF_POISON, /* the row may be NaN/Inf; a finite element must still agree (default) */
    ENG_NF_FINITE, /* every element of the row stays finite */
    ENG_NF_MASKED, /* the row is 0 */
    ENG_NF_ANY,    /* not judged */
    ENG_NF_COUNT
};

/* Which input an index output may pick in a row that holds NaN. */
enum eng_nan_pick { ENG_PICK_UNSET, ENG_PICK_NEVER, ENG_PICK_LARGEST };

struct eng_out_contract {
    bool declared;            /* the manifest said something: judge with it, on every check */
    char *reduce;             /* expression over the parameters: terms behind one output; NULL 1 */
    enum eng_kind kind;
    enum eng_dtype acc;       /* the accumulator the bound assumes (f32 unless said) */
    bool acc_f64;             /* "acc": "f64" */
    double domain;            /* largest input magnitude promised; 0: the default for the kind */
    enum eng_nonfinite nonfinite;
    enum eng_nan_pick nan_pick;
};

const char *eng_kind_name(enum eng_kind k);
const char *eng_nonfinite_name(enum eng_nonfinite n);

/* gamma_n = n u / (1 - n u), or +Inf when n u >= 1. */
double eng_gamma(double n, double u);

/* The bound on |kernel - reference| at one element: the suite's floor (abs + rel |ref|) plus,
 * by kind, the error two correct implementations of the contract may each make:
 *   elementwise  2 u_out |ref|
 *   sum          2 gamma_n(u_acc) scale + 2 u_out |ref|
 *   normalized   2 gamma_n(u_acc) scale + 4 u_out |ref| + 2 gamma_{n+1}(u_acc) scale cancel
 *   quantized    one code of the output at |ref| (code distance 1)
 *   selection    0
 * where n is the reduction length and scale the largest |ref| of the element's row (the
 * terms' size, as composable_kernel scales its threshold by the largest value), and cancel the
 * normalized input row's max|x| / max|x - mean(x)| (the cancellation in x - mean; 0: not known,
 * no term; +Inf: a row of equal values, any finite output is within the bound). An output
 * whose contract is not declared, in a suite whose abs and rel are both 0, gets 0: exact. */
double eng_contract_bound(const struct eng_out_contract *c, enum eng_dtype out, double n, double ref,
                          double row_scale, double cancel, double tol_abs, double tol_rel);

/* The largest input magnitude in the op's domain: "domain" when declared; else, for sum and
 * normalized outputs, sqrt(FLT_MAX / n) (every sum of n squares stays finite), and FLT_MAX for
 * the other kinds (every finite input is in the domain). */
double eng_contract_domain(const struct eng_out_contract *c, double n);

#endif
