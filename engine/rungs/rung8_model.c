/* Rung 8's built-in model (engine/rungs/rung8_model.h). */
#include "engine/rungs/rung8_model.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/embed.h"
#include "common/xalloc.h"

#define ROW 576 /* atom-2533's cache row, bf16 */

const char *const eng_model_role_name[ENG_M8_ROLES] = {"RMSNorm", "GEMM", "attention",
                                                       "KV-cache gather", "logits head",
                                                       "MoE routing"};
static const char *const role_stem[ENG_M8_ROLES] = {"rmsnorm", "ktail_gemm", "fp8_attn",
                                                    "kv_gather", "gemm_store", "route"};
static const char *const sources[] = {"kernels/aiter_6344.kl", "kernels/flydsl_1199.kl",
                                      "kernels/flydsl_1020.kl", "kernels/atom_2533.kl",
                                      "kernels/aiter_6402.kl", "kernels/flydsl_1213.kl",
                                      "kernels/model.kl", NULL};

void eng_model_cfg_small(struct eng_model_cfg *c, uint64_t seed)
{
    /* The request's cache rows start near the end of a filled 4 GiB pool, two rows before
     * atom-2533's int32 wrap (row 3,728,270 straddles it): a reserved pool costs a backend
     * only the rows it touches. */
    *c = (struct eng_model_cfg){.vocab = 64, .dim = 100, .ffn = 200, .steps = 8, .tile_k = 64,
                                .prompt = 1, .first_slot = 3728268, .seed = seed,
                                .experts = 8, .top_k = 2, .router_bias = 9.0f,
                                .router_spread = 0.002f};
}

void eng_model_cfg_large(struct eng_model_cfg *c, uint64_t seed)
{
    eng_model_cfg_small(c, seed);
    /* 8,192 x 151,936 bf16 logits: 2,489,319,424 bytes; aiter-6402's 32-bit offsets reach
     * rows below 7,068 only, and the sequence's row is 8,191 */
    c->vocab = 151936;
    c->head_rows = 8192;
}

void eng_model_size(const struct eng_model_cfg *c, struct eng_model_size *s)
{
    const uint64_t D = (uint64_t)c->dim, F = (uint64_t)c->ffn, V = (uint64_t)c->vocab,
                   T = (uint64_t)c->steps, B = c->head_rows > 0 ? (uint64_t)c->head_rows : 0,
                   E = (uint64_t)c->experts, K = (uint64_t)c->top_k;
    s->pool = (uint64_t)(c->first_slot + c->steps) * ROW * 2;
    s->logits = B ? B * V * 2 : V * 4;
    s->rest = 2 * (V * D + 3 * D * D + D * D + 2 * F * D + 3 * D + V * D + T * D) /* weights */
              + B * D * 2                                                   /* the batch */
              + T * 4 + 2 * D * 2 + ROW * 2 + T * ROW * 2 + 3 * D * 4 + T * 4 + ROW * 4 +
              D * 2 + D * 4 + F * 4 + F * 2 + V * 4 /* activations */
              + 2 * (D + E * D + 2 * E * F * D) + E * 4 + K * 4; /* the experts, the router */
}

void eng_model_set(struct eng_model_kernels *k, const char *suffix)
{
    static char names[2][ENG_M8_ROLES][32];
    int w = strcmp(suffix, "ref") == 0 ? 0 : 1;
    for (int r = 0; r < ENG_M8_ROLES; r++) {
        snprintf(names[w][r], sizeof names[w][r], "%s_%s", role_stem[r], suffix);
        k->entry[r] = names[w][r];
    }
}

char *eng_model_source(char *err, size_t errlen)
{
    size_t len = 0;
    for (int i = 0; sources[i]; i++) {
        const struct embed_file *f = embed_find(sources[i]);
        if (!f) {
            snprintf(err, errlen, "%s is not built in", sources[i]);
            return NULL;
        }
        len += f->size + 1;
    }
    char *src = xmalloc(len + 1), *p = src;
    for (int i = 0; sources[i]; i++) {
        const struct embed_file *f = embed_find(sources[i]);
        memcpy(p, f->data, f->size);
        p += f->size;
        *p++ = '\n';
    }
    *p = '\0';
    return src;
}

struct kcache {
    char name[32];
    struct eng_kernel *k;
};

struct eng_model {
    const struct eng_backend *B;
    struct eng_ctx *ctx;
    struct eng_module *mod;
    struct eng_model_cfg c;
    int64_t pool_rows;
    eng_dptr E, P, Wqkv, Wo, W1, W2, g1, g2, gf, Wout; /* weights */
    eng_dptr pool, offsets, h, a, q576, G;        /* state and activations */
    eng_dptr qkv, S, O, ob, y, u, ub, logits;
    eng_dptr batch, head; /* large: the batch's hidden states [head_rows x D], its bf16 logits */
    eng_dptr g3, Wr, X1, X2;  /* MoE: its norm, router [E x D], experts' W1 [E][F x D], W2 */
    eng_dptr rl, ids;         /* MoE: router logits [E] (f32), picks [top_k] */
    uint16_t *head_row;   /* large: the sequence's logits row, copied back */
    struct kcache kc[32];
    int nkc;
};

/* bf16 bits of f, rounded to nearest even (as kl_f32_to_bf16) */
static uint16_t to_bf16(float f)
{
    uint32_t u;
    memcpy(&u, &f, 4);
    u += 0x7fffu + ((u >> 16) & 1u);
    return (uint16_t)(u >> 16);
}

static uint64_t splitmix(uint64_t *s)
{
    uint64_t z = (*s += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

/* n bf16 values uniform in [centre - spread, centre + spread) */
static int upload(struct eng_model *m, eng_dptr *d, size_t n, float centre, float spread,
                  uint64_t *st, char *err, size_t errlen)
{
    uint16_t *h = xmalloc(n * 2);
    for (size_t i = 0; i < n; i++) {
        double x = (double)(splitmix(st) >> 11) / 9007199254740992.0;
        h[i] = to_bf16(centre + spread * (float)(2 * x - 1));
    }
    int rc = m->B->mem_alloc(m->ctx, n * 2, d, err, errlen);
    if (rc == 0)
        rc = m->B->memcpy_htod(m->ctx, *d, h, n * 2, NULL, err, errlen);
    free(h);
    return rc;
}

static int alloc(struct eng_model *m, eng_dptr *d, size_t bytes, char *err, size_t errlen)
{
    if (m->B->mem_alloc(m->ctx, bytes, d, err, errlen) != 0)
        return -1;
    return m->B->memset_d8(m->ctx, *d, 0, bytes, NULL, err, errlen);
}

struct eng_model *eng_model_open(const struct eng_backend *B, struct eng_ctx *ctx,
                                 const void *code, size_t len, const struct eng_model_cfg *c,
                                 char *err, size_t errlen)
{
    struct eng_model *m = xcalloc(1, sizeof *m);
    m->B = B;
    m->ctx = ctx;
    m->c = *c;
    m->pool_rows = c->first_slot + c->steps;
    if (B->module_load(ctx, code, len, &m->mod, err, errlen) != 0) {
        free(m);
        return NULL;
    }
    const size_t D = (size_t)c->dim, F = (size_t)c->ffn, V = (size_t)c->vocab;
    uint64_t st = c->seed;
    /* Spreads of about 1 / sqrt(fan-in) keep activations near 1. The output head is its own
     * matrix: tied to the embedding, each token's own logit wins and greedy decoding repeats
     * the prompt forever. */
    const float wd = 1.7f / sqrtf((float)D), wf = 1.7f / sqrtf((float)F);
    if (upload(m, &m->E, V * D, 0, 1.0f, &st, err, errlen) || upload(m, &m->Wqkv, 3 * D * D, 0, wd, &st, err, errlen) ||
        upload(m, &m->Wo, D * D, 0, wd, &st, err, errlen) || upload(m, &m->W1, F * D, 0, wd, &st, err, errlen) ||
        upload(m, &m->W2, D * F, 0, wf, &st, err, errlen) || upload(m, &m->g1, D, 1, 0.25f, &st, err, errlen) ||
        upload(m, &m->g2, D, 1, 0.25f, &st, err, errlen) || upload(m, &m->gf, D, 1, 0.25f, &st, err, errlen) ||
        upload(m, &m->Wout, V * D, 0, wd, &st, err, errlen) ||
        upload(m, &m->P, (size_t)c->steps * D, 0, 1.0f, &st, err, errlen) ||
        B->mem_alloc(ctx, (size_t)m->pool_rows * ROW * 2, &m->pool, err, errlen) ||
        alloc(m, &m->offsets, (size_t)c->steps * 4, err, errlen) ||
        alloc(m, &m->h, D * 2, err, errlen) || alloc(m, &m->a, D * 2, err, errlen) ||
        alloc(m, &m->q576, ROW * 2, err, errlen) ||
        alloc(m, &m->G, (size_t)c->steps * ROW * 2, err, errlen) ||
        alloc(m, &m->qkv, 3 * D * 4, err, errlen) || alloc(m, &m->S, (size_t)c->steps * 4, err, errlen) ||
        alloc(m, &m->O, ROW * 4, err, errlen) || alloc(m, &m->ob, D * 2, err, errlen) ||
        alloc(m, &m->y, D * 4, err, errlen) || alloc(m, &m->u, F * 4, err, errlen) ||
        alloc(m, &m->ub, F * 2, err, errlen) || alloc(m, &m->logits, V * 4, err, errlen)) {
        eng_model_close(m);
        return NULL;
    }
    const size_t E = (size_t)c->experts;
    if (upload(m, &m->g3, D, 1, 0.25f, &st, err, errlen) ||
        upload(m, &m->Wr, E * D, 0, c->router_spread, &st, err, errlen) ||
        upload(m, &m->X1, E * F * D, 0, wd, &st, err, errlen) ||
        upload(m, &m->X2, E * D * F, 0, wf, &st, err, errlen) ||
        alloc(m, &m->rl, E * 4, err, errlen) ||
        alloc(m, &m->ids, (size_t)c->top_k * 4, err, errlen)) {
        eng_model_close(m);
        return NULL;
    }
    if (c->head_rows > 0) {
        /* the other requests of the batch: hidden states of the same spread as the sequence's
         * own (the last row, written by the final RMSNorm each step); their logits are computed
         * and never read, as a server's are for us */
        const size_t rows = (size_t)c->head_rows;
        if (upload(m, &m->batch, rows * D, 0, 1.0f, &st, err, errlen) ||
            B->mem_alloc(ctx, rows * V * 2, &m->head, err, errlen)) {
            eng_model_close(m);
            return NULL;
        }
        m->head_row = xmalloc(V * 2);
    }
    int *off = xmalloc((size_t)c->steps * sizeof *off);
    for (int i = 0; i < c->steps; i++)
        off[i] = i;
    int rc = B->memcpy_htod(ctx, m->offsets, off, (size_t)c->steps * 4, NULL, err, errlen);
    free(off);
    if (rc != 0) {
        eng_model_close(m);
        return NULL;
    }
    return m;
}

void eng_model_close(struct eng_model *m)
{
    if (!m)
        return;
    eng_dptr *all[] = {&m->E, &m->Wqkv, &m->Wo, &m->W1, &m->W2, &m->g1, &m->g2, &m->gf,
                       &m->Wout, &m->P, &m->pool, &m->offsets, &m->h, &m->a, &m->q576, &m->G, &m->qkv, &m->S,
                       &m->O, &m->ob, &m->y, &m->u, &m->ub, &m->logits, &m->batch, &m->head, &m->g3, &m->Wr, &m->X1, &m->X2,
                       &m->rl, &m->ids};
    for (size_t i = 0; i < sizeof all / sizeof all[0]; i++)
        if (*all[i])
            m->B->mem_free(m->ctx, *all[i]);
    if (m->mod)
        m->B->module_unload(m->ctx, m->mod);
    free(m->head_row);
    free(m);
}

static struct eng_kernel *kernel(struct eng_model *m, const char *name, char *err, size_t errlen)
{
    for (int i = 0; i < m->nkc; i++)
        if (!strcmp(m->kc[i].name, name))
            return m->kc[i].k;
    struct eng_kernel *k;
    if (m->nkc == (int)(sizeof m->kc / sizeof m->kc[0]) ||
        m->B->kernel_get(m->ctx, m->mod, name, &k, err, errlen) != 0)
        return NULL;
    snprintf(m->kc[m->nkc].name, sizeof m->kc[m->nkc].name, "%s", name);
    m->kc[m->nkc++].k = k;
    return k;
}

static int launch(struct eng_model *m, const char *name, unsigned gx, unsigned gy, unsigned bx,
                  void **args, char *err, size_t errlen)
{
    struct eng_kernel *k = kernel(m, name, err, errlen);
    if (!k)
        return -1;
    const unsigned grid[3] = {gx, gy, 1}, block[3] = {bx, 1, 1};
    return m->B->launch(m->ctx, k, grid, block, 0, NULL, args, err, errlen);
}

#define TRY(x)                                                                                  \
    do {                                                                                        \
        if ((x) != 0)                                                                           \
            return -1;                                                                          \
    } while (0)

static int norm(struct eng_model *m, const char *entry, eng_dptr y, eng_dptr x, eng_dptr w,
                char *err, size_t errlen)
{
    int M = 1, N = m->c.dim;
    void *args[] = {&y, &x, &w, &M, &N};
    return launch(m, entry, 1, 1, strstr(entry, "_ref") ? 64 : 256, args, err, errlen);
}

/* C[M x N] (f32) = A[M x K] . B[N x K]^T */
static int gemm(struct eng_model *m, const char *entry, eng_dptr C, eng_dptr A, eng_dptr Bw,
                int M, int N, int K, char *err, size_t errlen)
{
    int tk = m->c.tile_k;
    void *args[] = {&C, &A, &Bw, &M, &N, &K, &tk};
    return launch(m, entry, (unsigned)(N + 15) / 16, (unsigned)(M + 15) / 16, 256, args, err,
                  errlen);
}

static int glue(struct eng_model *m, const char *entry, void **args, char *err, size_t errlen)
{
    return launch(m, entry, 1, 1, 128, args, err, errlen);
}

/* h += sum over the top_k experts the router picks of gate_e * expert_e(RMSNorm(h)), the gates
 * the picked experts' sigmoid scores, normalised. The picks come back to the host, which
 * chooses the experts' weights, as a grouped GEMM's host side does. */
static int moe(struct eng_model *m, const struct eng_model_kernels *k, char *err, size_t errlen)
{
    const struct eng_model_cfg *c = &m->c;
    int D = c->dim, F = c->ffn, E = c->experts, K = c->top_k, one = 1, zero = 0;
    float bias = c->router_bias;
    TRY(norm(m, k->entry[ENG_M8_NORM], m->a, m->h, m->g3, err, errlen));
    TRY(gemm(m, k->entry[ENG_M8_GEMM], m->rl, m->a, m->Wr, 1, E, D, err, errlen));
    void *ab[] = {&m->rl, &bias, &E};
    TRY(glue(m, "model_add_const", ab, err, errlen));
    void *rt[] = {&m->ids, &m->rl, &one, &E, &K};
    TRY(launch(m, k->entry[ENG_M8_ROUTE], 1, 1, 32, rt, err, errlen));
    int ids[8];
    float rl[64];
    if (K > 8 || E > 64) {
        snprintf(err, errlen, "the model routes to at most 8 of 64 experts");
        return -1;
    }
    TRY(m->B->memcpy_dtoh(m->ctx, ids, m->ids, (size_t)K * 4, NULL, err, errlen));
    TRY(m->B->memcpy_dtoh(m->ctx, rl, m->rl, (size_t)E * 4, NULL, err, errlen));
    TRY(m->B->stream_sync(m->ctx, NULL, err, errlen));
    double sum = 0, g[8];
    for (int j = 0; j < K; j++) {
        g[j] = ids[j] >= 0 && ids[j] < E ? 1 / (1 + exp(-(double)rl[ids[j]])) : 0;
        sum += g[j];
    }
    for (int j = 0; j < K; j++) {
        if (!(g[j] > 0))
            continue; /* no pick: a NaN router, which the logits then show */
        eng_dptr w1 = m->X1 + (eng_dptr)ids[j] * (eng_dptr)F * (eng_dptr)D * 2,
                 w2 = m->X2 + (eng_dptr)ids[j] * (eng_dptr)D * (eng_dptr)F * 2;
        TRY(gemm(m, k->entry[ENG_M8_GEMM], m->u, m->a, w1, 1, F, D, err, errlen));
        void *act[] = {&m->ub, &m->u, &zero, &F, &one};
        TRY(glue(m, "model_to_bf16", act, err, errlen));
        TRY(gemm(m, k->entry[ENG_M8_GEMM], m->y, m->ub, w2, 1, D, F, err, errlen));
        float gate = (float)(g[j] / sum);
        void *res[] = {&m->h, &m->y, &gate, &D};
        TRY(glue(m, "model_residual_gated", res, err, errlen));
    }
    return 0;
}

static int one_step(struct eng_model *m, const struct eng_model_kernels *k, int t, int tok,
                    char *err, size_t errlen)
{
    const struct eng_model_cfg *c = &m->c;
    int D = c->dim, F = c->ffn, V = c->vocab, L = t + 1, zero = 0, one = 1, R = 1, W = ROW;
    const char *nk = k->entry[ENG_M8_NORM], *gk = k->entry[ENG_M8_GEMM];
    void *emb[] = {&m->h, &m->E, &m->P, &tok, &t, &D};
    TRY(glue(m, "model_embed", emb, err, errlen));
    TRY(norm(m, nk, m->a, m->h, m->g1, err, errlen));
    TRY(gemm(m, gk, m->qkv, m->a, m->Wqkv, 1, 3 * D, D, err, errlen));
    int64_t row = c->first_slot + t;
    void *kvw[] = {&m->pool, &m->q576, &m->qkv, &row, &D};
    TRY(glue(m, "model_kv_write", kvw, err, errlen));
    int64_t rows = m->pool_rows, first = c->first_slot;
    void *gat[] = {&m->G, &m->pool, &m->offsets, &L, &rows, &first};
    unsigned gg = (unsigned)((L * ROW + 255) / 256);
    TRY(launch(m, k->entry[ENG_M8_GATHER], gg, 1, 256, gat, err, errlen));
    TRY(gemm(m, gk, m->S, m->q576, m->G, 1, L, ROW, err, errlen));
    void *att[] = {&m->O, &m->S, &m->G, &R, &L, &W};
    TRY(launch(m, k->entry[ENG_M8_ATTN], 1, 1, ROW, att, err, errlen));
    void *ob[] = {&m->ob, &m->O, &D, &D, &zero};
    TRY(glue(m, "model_to_bf16", ob, err, errlen));
    TRY(gemm(m, gk, m->y, m->ob, m->Wo, 1, D, D, err, errlen));
    void *r1[] = {&m->h, &m->y, &zero, &D};
    TRY(glue(m, "model_residual", r1, err, errlen));
    TRY(norm(m, nk, m->a, m->h, m->g2, err, errlen));
    TRY(gemm(m, gk, m->u, m->a, m->W1, 1, F, D, err, errlen));
    void *act[] = {&m->ub, &m->u, &zero, &F, &one};
    TRY(glue(m, "model_to_bf16", act, err, errlen));
    TRY(gemm(m, gk, m->y, m->ub, m->W2, 1, D, F, err, errlen));
    void *r2[] = {&m->h, &m->y, &zero, &D};
    TRY(glue(m, "model_residual", r2, err, errlen));
    TRY(moe(m, k, err, errlen));
    if (c->head_rows <= 0) {
        TRY(norm(m, nk, m->a, m->h, m->gf, err, errlen));
        return gemm(m, gk, m->logits, m->a, m->Wout, 1, V, D, err, errlen);
    }
    /* large: the sequence's final hidden state is the batch's last row, and one bf16 GEMM
     * makes the logits of the whole batch */
    eng_dptr last = m->batch + (eng_dptr)(c->head_rows - 1) * (eng_dptr)D * 2;
    TRY(norm(m, nk, last, m->h, m->gf, err, errlen));
    int M = (int)c->head_rows;
    void *hd[] = {&m->head, &m->batch, &m->Wout, &M, &V, &D};
    /* aiter-6402's tiles: 64 columns x 256 rows a block, grid-stride beyond the grid */
    unsigned gx = (unsigned)(V + 63) / 64, gy = (unsigned)(M + 255) / 256;
    return launch(m, k->entry[ENG_M8_HEAD], gx, gy, 256, hd, err, errlen);
}

static int argmax(const float *x, int n)
{
    int best = -1;
    for (int i = 0; i < n; i++)
        if (!isnan(x[i]) && (best < 0 || x[i] > x[best]))
            best = i;
    return best;
}

int eng_model_decode(struct eng_model *m, const struct eng_model_kernels *k, const int *forced,
                     int *tokens, float *logits, char *err, size_t errlen)
{
    const struct eng_model_cfg *c = &m->c;
    /* an empty cache (only the request's rows: the rest of the pool is never touched, so a
     * backend that reserves memory backs only these), and no activation left from another
     * decode */
    TRY(m->B->memset_d8(m->ctx, m->pool + (eng_dptr)c->first_slot * ROW * 2, 0,
                        (size_t)c->steps * ROW * 2, NULL, err, errlen));
    TRY(m->B->memset_d8(m->ctx, m->a, 0, (size_t)c->dim * 2, NULL, err, errlen));
    /* no logits left from another decode: a kernel that drops its stores leaves zeros */
    if (c->head_rows > 0)
        TRY(m->B->memset_d8(m->ctx, m->head, 0, (size_t)c->head_rows * (size_t)c->vocab * 2,
                            NULL, err, errlen));
    int tok = c->prompt;
    for (int t = 0; t < c->steps; t++) {
        TRY(one_step(m, k, t, tok, err, errlen));
        float *lt = logits + (size_t)t * (size_t)c->vocab;
        if (c->head_rows > 0) { /* the sequence's bf16 row, the batch's last */
            eng_dptr row = m->head + (eng_dptr)(c->head_rows - 1) * (eng_dptr)c->vocab * 2;
            TRY(m->B->memcpy_dtoh(m->ctx, m->head_row, row, (size_t)c->vocab * 2, NULL, err,
                                  errlen));
            TRY(m->B->stream_sync(m->ctx, NULL, err, errlen));
            for (int v = 0; v < c->vocab; v++) {
                uint32_t u = (uint32_t)m->head_row[v] << 16;
                memcpy(&lt[v], &u, 4);
            }
        } else {
            TRY(m->B->memcpy_dtoh(m->ctx, lt, m->logits, (size_t)c->vocab * 4, NULL, err,
                                  errlen));
            TRY(m->B->stream_sync(m->ctx, NULL, err, errlen));
        }
        tokens[t] = argmax(lt, c->vocab);
        tok = forced ? forced[t] : tokens[t];
        if (tok < 0)
            tok = 0; /* a row of NaNs: the scores say so; the sequence goes on */
    }
    return 0;
}

void eng_model_compare(int steps, int vocab, const int *ref_tokens, const float *ref_logits,
                       const int *tokens, const float *logits, struct eng_model_score *s)
{
    memset(s, 0, sizeof *s);
    s->first_wrong = -1;
    for (int t = 0; t < steps; t++) {
        if (tokens[t] == ref_tokens[t])
            s->agree++;
        else if (s->first_wrong < 0)
            s->first_wrong = t;
        for (int v = 0; v < vocab; v++) {
            double a = logits[(size_t)t * vocab + v], b = ref_logits[(size_t)t * vocab + v];
            if (!isfinite(a)) {
                s->nan_count++;
                continue;
            }
            if (isfinite(b) && fabs(a - b) > s->max_logit_err)
                s->max_logit_err = fabs(a - b);
        }
    }
}
