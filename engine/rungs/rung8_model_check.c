/* Rung 8's built-in model checks (engine/rungs/rung8_model_check.h). */
#include "engine/rungs/rung8_model_check.h"

#include <cJSON.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/xalloc.h"
#include "engine/session/session.h"

/* Every reproducer kernel the model is made of, by case. The small configuration (width 100,
 * 8 tokens, cache rows across the int32 wrap of a 4 GiB pool) reaches the RMSNorm tail, the
 * GEMM K tail and the gather's row wrap on every backend; the others need sizes only a large
 * configuration has, and say which (measured: the fp8 normaliser moves the small model's
 * logits by about 0.01 and changes no token). */
static const struct eng_model_swap swaps[] = {
    {"aiter-6344", ENG_M8_NORM, "rmsnorm_tail_buggy", NULL, NULL},
    {"aiter-6344", ENG_M8_NORM, "rmsnorm_race_buggy",
     "a row of 100 elements is reduced by one wave, which never touches the shared partials; "
     "the race needs rows over 64 x wave-size elements (2048 at wave 32)",
     "the large configuration's rows are 100 wide as well: one wave reduces them, and the race "
     "needs rows over 64 x wave-size elements"},
    {"flydsl-1199", ENG_M8_GEMM, "ktail_gemm_buggy", NULL, NULL},
    {"flydsl-1020", ENG_M8_ATTN, "fp8_attn_buggy",
     "8 cached positions can lose at most 8 x 2^-9 of a row's attention mass (the logits move by "
     "about 0.01, no greedy token changes); the loss needs a long context of keys just under "
     "2^-9 of the peak",
     "the large configuration has the same 8 cached positions; the loss needs a long context "
     "of keys just under 2^-9 of the peak"},
    {"atom-2533", ENG_M8_GATHER, "kv_gather_buggy", NULL, NULL},
    {"aiter-6402", ENG_M8_HEAD, "gemm_store_buggy",
     "the small model's logits are one row of 64 (256 bytes), computed by the GEMM role; the "
     "32-bit offsets drop stores only past 2^31 bytes, which the large configuration's logits "
     "head passes (--rung 8 --suite model-large, on a GPU)",
     NULL},
    {"aiter-6402", ENG_M8_HEAD, "gemm_store_pad_buggy",
     "the small model's logits are one row of 64, computed by the GEMM role; the padding rows "
     "wrap only when a 256-row tile passes 2^32 bytes",
     "the large configuration's 8,192 x 151,936 logits end in a whole 256-row tile under 2^32 "
     "bytes: the padding rows wrap only for M in 14,081..14,134 at this vocabulary"},
    {"flydsl-1213", ENG_M8_ROUTE, "route_buggy", NULL, NULL},
    {"aiter-6127", ENG_M8_ROUTE, "moe_route_buggy",
     "the model routes one token a step, which overflows no expert's capacity: nothing is "
     "dropped, and the missing barrier guards only the dropped tokens' overflow queue; the race "
     "needs a batch of tokens that overflows an expert (identical warm-up tokens)",
     "the large configuration routes one token a step as well: no expert overflows, nothing is "
     "dropped"},
    {NULL, 0, NULL, NULL, NULL},
};

const struct eng_model_swap *eng_model_swaps(const char *case_id, size_t *n)
{
    *n = 0;
    const struct eng_model_swap *first = NULL;
    for (const struct eng_model_swap *s = swaps; s->case_id; s++)
        if (!strcmp(s->case_id, case_id)) {
            if (!first)
                first = s;
            (*n)++;
        }
    return first;
}

void eng_model_cases(char *out, size_t n)
{
    size_t len = 0;
    out[0] = '\0';
    for (const struct eng_model_swap *s = swaps; s->case_id && len < n; s++)
        if (s == swaps || strcmp(s[-1].case_id, s->case_id))
            len += (size_t)snprintf(out + len, n - len, "%s%s", len ? ", " : "", s->case_id);
}

char *eng_model_check_json(const struct eng_model_swap *swap, bool large)
{
    cJSON *o = cJSON_CreateObject();
    if (large)
        cJSON_AddBoolToObject(o, "large", true);
    if (swap) {
        const char *why = large ? swap->unreachable_large : swap->unreachable;
        cJSON_AddStringToObject(o, "case", swap->case_id);
        cJSON_AddNumberToObject(o, "role", swap->role);
        cJSON_AddStringToObject(o, "entry", swap->entry);
        if (why)
            cJSON_AddStringToObject(o, "unreachable", why);
        if (why && !large)
            cJSON_AddBoolToObject(o, "large_reaches", swap->unreachable_large == NULL);
    }
    char *t = cJSON_PrintUnformatted(o);
    cJSON_Delete(o);
    return t;
}

/* The large configuration's device memory and run in words, for the run's report: "logits
 * 8,192 x 151,936 bf16 = 2.49 GB (2^31 = 2.15 GB) ...". */
static void eng_model_large_sizes(char *out, size_t n)
{
    struct eng_model_cfg c;
    eng_model_cfg_large(&c, 0);
    struct eng_model_size z;
    eng_model_size(&c, &z);
    const double G = 1e9;
    snprintf(out, n, "the large configuration: logits %lld x %d bf16 = %.2f GB (2^31 bytes = "
             "2.15 GB; the sequence's row %lld starts at %.2f GB), KV pool %lld rows x 576 "
             "bf16 = %.2f GB (int32 row wrap at row 3,728,270), weights and activations %.2f GB; "
             "%.2f GB of device memory in all, about %.0f G multiply-adds a step in the logits head",
             (long long)c.head_rows, c.vocab, (double)z.logits / G, (long long)c.head_rows - 1,
             (double)(c.head_rows - 1) * c.vocab * 2 / G, (long long)(c.first_slot + c.steps),
             (double)z.pool / G, (double)z.rest / G, (double)(z.pool + z.logits + z.rest) / G,
             (double)c.head_rows * c.vocab * c.dim / G);
}

static void tokens_text(const int *tok, int n, char *out, size_t len)
{
    size_t l = 0;
    out[0] = '\0';
    for (int i = 0; i < n && l < len; i++)
        l += (size_t)snprintf(out + l, len - l, "%s%d", i ? " " : "", tok[i]);
}

/* What a model check holds while it runs: the context, the source and the model, and the
 * tokens and logits of both decodes (the reference's rt, rl; the tested model's tt, tl). */
struct model_run {
    struct eng_ctx *ctx;
    struct eng_model *m;
    char *src;
    int *rt, *tt;
    float *rl, *tl;
};

/* The swap a case names in the check's "model" document. */
struct model_swap_spec {
    const cJSON *entry, *role, *cid;
    bool large;
};

/* "V=..,D=..,F=..,T=.." (and ",B=.." for the large configuration's head rows). */
static void model_shape(const struct eng_model_cfg *cfg, bool large, struct eng_check_result *out)
{
    snprintf(out->shape, sizeof out->shape, "V=%d,D=%d,F=%d,T=%d", cfg->vocab, cfg->dim, cfg->ffn,
             cfg->steps);
    if (large)
        snprintf(out->shape + strlen(out->shape), sizeof out->shape - strlen(out->shape),
                 ",B=%lld", (long long)cfg->head_rows);
}

/* True (the check skipped, with why) for a swap the model does not reach (the document's
 * "unreachable") and for the large model on an emulating backend. */
static bool model_skipped(const struct eng_check_spec *s, const struct model_swap_spec *w,
                          const cJSON *unr, const cJSON *large_reaches,
                          const struct eng_model_cfg *cfg,
                          const struct eng_backend *B, const char *sizes,
                          struct eng_check_result *out)
{
    if (cJSON_IsString(unr)) {
        out->verdict = CDB_SKIP;
        /* where the other configuration stands, so nobody has to guess the next step */
        const char *next = "";
        if (!w->large)
            next = cJSON_IsTrue(large_reaches)
                       ? " The large model reaches it: --rung 8 --suite model-large, on a GPU."
                       : " The large model (--suite model-large) does not reach it either.";
        snprintf(out->detail, sizeof out->detail,
                 "%s (%s) is not reached by the %s model: %s.%s", w->entry->valuestring,
                 w->cid->valuestring, w->large ? "large" : "small", unr->valuestring, next);
        return true;
    }
    if (w->large && B && B->caps.emulated) {
        /* Cliff block sampling (engine/exec/exec_sample.c) runs only the blocks of one launch whose
         * output a check compares; the model cannot sample: each step's token is the argmax of
         * a whole row, and the next step's every kernel depends on it. */
        out->verdict = CDB_SKIP;
        snprintf(out->detail, sizeof out->detail, "the large model is not reached on the %s "
                 "backend: it emulates threads, and cliff block sampling cannot serve a model "
                 "whose every step needs the whole argmax of its logits row, so each of its %d "
                 "steps would run the whole head GEMM (%lld x %d x %d = %.0f G multiply-adds) on "
                 "emulated threads. Run it on a GPU; %s", s->backend, cfg->steps,
                 (long long)cfg->head_rows, cfg->vocab, cfg->dim,
                 (double)cfg->head_rows * cfg->vocab * cfg->dim / 1e9, sizes);
        return true;
    }
    return false;
}

/* The backend loaded, its context (the session's), and the model compiled for its target and
 * opened at configuration cfg. */
static int open_model(const struct eng_check_spec *s, const struct eng_backend *B,
                      const struct eng_model_cfg *cfg, struct model_run *r, char *err,
                      size_t errlen)
{
    char why[512];
    if (!B || B->load(why, sizeof why) != 0) {
        snprintf(err, errlen, "the %s backend is not available", s->backend);
        return -1;
    }
    struct eng_device_info info;
    char target[96];
    struct eng_open_opts o = {.wave_size = s->wave, .schedule = ENG_SCHED_DEFAULT, .seed = s->seed};
    if (B->device_info(s->device, &info, err, errlen) != 0 ||
        eng_session_get(B, s->device, &o, &r->ctx, err, errlen) != 0)
        return -1;
    B->compile_target(&info, s->wave, target, sizeof target);
    if (!(r->src = eng_model_source(err, errlen)))
        return -1;
    const void *code;
    size_t len;
    char *log = xmalloc(16384);
    if (eng_session_code(B, target, "model.kl", r->src, NULL, &code, &len, log, 16384) != 0) {
        snprintf(err, errlen, "compiling the model for %s failed: %.800s", target, log);
        free(log);
        return -1;
    }
    free(log);
    r->m = eng_model_open(B, r->ctx, code, len, cfg, err, errlen);
    return r->m ? 0 : -1;
}

/* Teacher-forced decoding: the reference model alone, then the model with the case's kernel
 * in its role, forced along the reference's tokens. */
static int decode_both(struct model_run *r, const struct eng_model_cfg *cfg,
                       const struct model_swap_spec *w, char *err, size_t errlen)
{
    size_t nl = (size_t)cfg->steps * (size_t)cfg->vocab;
    r->rt = xcalloc((size_t)cfg->steps, sizeof *r->rt);
    r->tt = xcalloc((size_t)cfg->steps, sizeof *r->tt);
    r->rl = xcalloc(nl, sizeof *r->rl);
    r->tl = xcalloc(nl, sizeof *r->tl);
    struct eng_model_kernels ref, test;
    eng_model_set(&ref, "ref");
    eng_model_set(&test, "fixed");
    if (cJSON_IsString(w->entry) && cJSON_IsNumber(w->role) && w->role->valueint >= 0 &&
        w->role->valueint < ENG_M8_ROLES)
        test.entry[w->role->valueint] = w->entry->valuestring;
    if (eng_model_decode(r->m, &ref, NULL, r->rt, r->rl, err, errlen) != 0 ||
        eng_model_decode(r->m, &test, r->rt, r->tt, r->tl, err, errlen) != 0)
        return -1;
    return 0;
}

/* The score of the decodes, the verdict, and the detail that says what was swapped in, where
 * the tokens first differ and by how much the logits do. */
static void model_score(const struct model_run *r, const struct eng_model_cfg *cfg,
                        const struct model_swap_spec *w, const char *sizes,
                        struct eng_check_result *out)
{
    struct eng_model_score sc;
    eng_model_compare(cfg->steps, cfg->vocab, r->rt, r->rl, r->tt, r->tl, &sc);
    out->max_err = sc.max_logit_err;
    out->bad_count = cfg->steps - sc.agree;
    out->first_bad = sc.first_wrong;
    out->repeats = 1;
    /* the score is the share of teacher-forced steps whose greedy token is the reference's:
     * the reference model agrees with itself, so the baseline is 1 */
    out->score = (struct cdb_score){.set = true, .value = (double)sc.agree / cfg->steps,
                                    .baseline = 1.0, .samples = cfg->steps,
                                    .diverge_step = sc.first_wrong};
    char want[160], got[160];
    tokens_text(r->rt, cfg->steps, want, sizeof want);
    tokens_text(r->tt, cfg->steps, got, sizeof got);
    bool pass = sc.agree == cfg->steps && sc.nan_count == 0;
    out->verdict = pass ? CDB_PASS : CDB_FAIL;
    int len0 = snprintf(out->detail, sizeof out->detail, "score %d/%d tokens agree with the "
                        "reference %smodel", sc.agree, cfg->steps, w->large ? "large " : "");
    size_t l = len0 > 0 ? (size_t)len0 : 0;
    if (cJSON_IsString(w->entry))
        l += (size_t)snprintf(out->detail + l, sizeof out->detail - l, " with %s's %s (%s) "
                              "swapped in", w->cid->valuestring, w->entry->valuestring,
                              eng_model_role_name[w->role->valueint]);
    if (sc.first_wrong >= 0 && l < sizeof out->detail)
        l += (size_t)snprintf(out->detail + l, sizeof out->detail - l, "; first wrong token at "
                              "step %d: %d, the reference %d", sc.first_wrong,
                              r->tt[sc.first_wrong], r->rt[sc.first_wrong]);
    if (l < sizeof out->detail)
        l += (size_t)snprintf(out->detail + l, sizeof out->detail - l, "; max logit error "
                              "%.3g; %lld non-finite logits; tokens %s, the reference's %s",
                              sc.max_logit_err, (long long)sc.nan_count, got, want);
    if (w->large && l < sizeof out->detail)
        snprintf(out->detail + l, sizeof out->detail - l, "; %s", sizes);
}

void eng_model_run(const struct eng_check_spec *s, void (*ready)(void *), void *arg,
                   struct eng_check_result *out)
{
    eng_check_result_init(out);
    out->verdict = CDB_ERROR;
    snprintf(out->oracle, sizeof out->oracle, "score");
    char err[1024] = "";
    cJSON *j = cJSON_Parse(s->model);
    struct model_swap_spec w = {
        .entry = cJSON_GetObjectItemCaseSensitive(j, "entry"),
        .role = cJSON_GetObjectItemCaseSensitive(j, "role"),
        .cid = cJSON_GetObjectItemCaseSensitive(j, "case"),
        .large = cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(j, "large")),
    };
    struct eng_model_cfg cfg;
    if (w.large)
        eng_model_cfg_large(&cfg, s->seed);
    else
        eng_model_cfg_small(&cfg, s->seed);
    model_shape(&cfg, w.large, out);
    const struct eng_backend *B = eng_backend_find(s->backend);
    char sizes[600] = "";
    if (w.large)
        eng_model_large_sizes(sizes, sizeof sizes);
    if (model_skipped(s, &w, cJSON_GetObjectItemCaseSensitive(j, "unreachable"),
                      cJSON_GetObjectItemCaseSensitive(j, "large_reaches"), &cfg, B, sizes, out)) {
        cJSON_Delete(j);
        return;
    }
    struct model_run r = {0};
    if (open_model(s, B, &cfg, &r, err, sizeof err) == 0) {
        if (ready)
            ready(arg);
        if (decode_both(&r, &cfg, &w, err, sizeof err) == 0) {
            model_score(&r, &cfg, &w, sizes, out);
            err[0] = '\0';
        }
    }
    if (err[0])
        snprintf(out->detail, sizeof out->detail, "%s", err);
    free(r.rt);
    free(r.tt);
    free(r.rl);
    free(r.tl);
    eng_model_close(r.m);
    if (r.ctx)
        eng_session_put(B, r.ctx);
    free(r.src);
    cJSON_Delete(j);
}
