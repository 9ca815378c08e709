/* An output's contract in a manifest (engine/values/contract.h): "reduce", "kind", "acc", "domain",
 * "nonfinite" and "nan_pick" on a buffer whose role is "output", each checked with a message
 * that names the field. */
#include <stdio.h>
#include <string.h>

#include "common/xalloc.h"
#include "engine/values/contract.h"
#include "engine/values/expr.h"
#include "engine/manifest_parse.h"
#include "engine/values/value_class.h"

/* "reduce": a whole number or an expression over the parameters ("K", "R * N"). */
static bool parse_reduce(struct eng_mparse *p, const struct eng_manifest *m, const cJSON *j,
                         const char *field, char **out)
{
    if (cJSON_IsNumber(j)) {
        int64_t v;
        if (!eng_mp_int(p, j, field, 1, (int64_t)1 << 50, &v))
            return false;
        *out = xasprintf("%lld", (long long)v);
        return true;
    }
    char got[64], msg[256];
    if (!cJSON_IsString(j)) {
        eng_mp_describe(j, got, sizeof got);
        return eng_mp_bad(p, field, "expected the reduction length, a whole number or an "
                          "expression over the parameters (\"K\"), got %s", got);
    }
    if (eng_expr_check(j->valuestring, eng_mp_name_known, m, msg, sizeof msg) != 0)
        return eng_mp_bad(p, field, "expected an expression over the parameters: %s", msg);
    *out = xstrdup(j->valuestring);
    return true;
}

/* The kind an output has when the manifest does not say: an index output selects, an fp8
 * output is quantized, an output with a reduction length sums, anything else is elementwise. */
static enum eng_kind default_kind(const struct eng_buffer_spec *b)
{
    if (!eng_vclass_applies(b->dtype))
        return ENG_KIND_SELECTION;
    if (b->dtype == ENG_FP8E4M3)
        return ENG_KIND_QUANTIZED;
    return b->contract.reduce ? ENG_KIND_SUM : ENG_KIND_ELEMENTWISE;
}

bool eng_mp_contract(struct eng_mparse *p, struct eng_manifest *m, const cJSON *it, size_t bi)
{
    static const char *const keys[] = {"reduce", "kind", "acc", "domain", "nonfinite", "nan_pick"};
    static const char *const kinds[] = {"elementwise", "sum", "normalized", "selection", "quantized"};
    static const char *const accs[] = {"f32", "bf16", "f64", "f16"};
    static const char *const nfs[] = {"poison", "finite", "masked", "any"};
    static const char *const picks[] = {"never", "largest"};
    struct eng_buffer_spec *b = &m->buffers[bi];
    struct eng_out_contract *c = &b->contract;
    char f[96];
    for (size_t k = 0; k < sizeof keys / sizeof keys[0]; k++) {
        if (!cJSON_GetObjectItemCaseSensitive(it, keys[k]))
            continue;
        snprintf(f, sizeof f, "buffers[%zu].%s", bi, keys[k]);
        if (b->role != ENG_ROLE_OUTPUT)
            return eng_mp_bad(p, f, "expected only on a buffer whose role is \"output\" (a "
                              "contract is what the op promises about an output)");
        c->declared = true;
    }
    const cJSON *red = cJSON_GetObjectItemCaseSensitive(it, "reduce");
    snprintf(f, sizeof f, "buffers[%zu].reduce", bi);
    if (red && !parse_reduce(p, m, red, f, &c->reduce))
        return false;
    int v;
    snprintf(f, sizeof f, "buffers[%zu].kind", bi);
    if (!eng_mp_enum(p, it, "kind", f, kinds, ENG_KIND_COUNT, (int)default_kind(b), &v))
        return false;
    c->kind = (enum eng_kind)v;
    if (c->kind != ENG_KIND_SELECTION && !eng_vclass_applies(b->dtype))
        return eng_mp_bad(p, f, "expected \"selection\" on an integer output, got \"%s\"",
                          kinds[c->kind]);
    snprintf(f, sizeof f, "buffers[%zu].acc", bi);
    if (!eng_mp_enum(p, it, "acc", f, accs, 4, 0, &v))
        return false;
    c->acc = v == 1 ? ENG_BF16 : v == 3 ? ENG_F16 : ENG_F32;
    c->acc_f64 = v == 2;
    snprintf(f, sizeof f, "buffers[%zu].domain", bi);
    if (!eng_mp_number(p, it, "domain", f, 1e-30, 3.4028234663852886e38, &c->domain))
        return false;
    snprintf(f, sizeof f, "buffers[%zu].nonfinite", bi);
    if (!eng_mp_enum(p, it, "nonfinite", f, nfs, ENG_NF_COUNT, 0, &v))
        return false;
    c->nonfinite = (enum eng_nonfinite)v;
    snprintf(f, sizeof f, "buffers[%zu].nan_pick", bi);
    if (cJSON_GetObjectItemCaseSensitive(it, "nan_pick")) {
        if (!eng_mp_enum(p, it, "nan_pick", f, picks, 2, -1, &v))
            return false;
        if (b->dtype != ENG_I32 && b->dtype != ENG_U32)
            return eng_mp_bad(p, f, "expected only on an index output (i32 or u32)");
        c->nan_pick = v == 0 ? ENG_PICK_NEVER : ENG_PICK_LARGEST;
    }
    return true;
}
