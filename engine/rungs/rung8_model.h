/* Rung 8's built-in model: a small decoder made of the reproducer kernels, run on a backend.
 *
 * One layer: embedding -> RMSNorm (aiter-6344) -> fused QKV GEMM (flydsl-1199) -> the token's
 * key and value written into a KV cache of 576-wide rows (atom-2533's layout) -> the cache rows
 * of the sequence gathered (atom-2533) -> scores q.k (GEMM) -> softmax and P.V with P in fp8
 * (flydsl-1020) -> output GEMM -> residual -> RMSNorm -> SiLU MLP (two GEMMs) -> residual ->
 * RMSNorm -> a mixture of experts: router GEMM, top-2 of 8 experts on sigmoid scores
 * (flydsl-1213), each picked expert a SiLU MLP weighted by its gate -> residual -> RMSNorm ->
 * logits (GEMM with an output head of its own) -> greedy argmax, for `steps` tokens.
 * Weights come from a seeded generator (no downloads). The scores are not scaled down, so the
 * attention is peaked, as a trained model's often is.
 *
 * Each of the four kernel roles takes an entry point by name: the *_ref kernels make the
 * reference model, the *_fixed ones the model under test, and a case's buggy entry swaps into
 * its role. The code is one source: the four reproducer files and kernels/model.kl. */
#ifndef KL_ENGINE_RUNG8_MODEL_H
#define KL_ENGINE_RUNG8_MODEL_H

#include <stddef.h>
#include <stdint.h>

#include "engine/backend/backend.h"

/* ENG_M8_HEAD is the large configuration's logits head (aiter-6402's bf16 GEMM over a whole
 * batch); the small one computes its logits with the GEMM role. */
enum eng_model_role { ENG_M8_NORM, ENG_M8_GEMM, ENG_M8_ATTN, ENG_M8_GATHER, ENG_M8_HEAD,
                      ENG_M8_ROUTE, ENG_M8_ROLES };
extern const char *const eng_model_role_name[ENG_M8_ROLES]; /* "RMSNorm", "GEMM", ... */

struct eng_model_cfg {
    int vocab, dim, ffn, steps;
    int tile_k;             /* flydsl-1199's K tile */
    int prompt;             /* the first input token */
    int64_t first_slot;     /* the cache row of the sequence's first token */
    uint64_t seed;          /* weights */
    /* The large configuration: the logits of a batch of head_rows requests in one bf16 GEMM
     * (the ENG_M8_HEAD role), the sequence's own row last; 0: the small one's f32 GEMM of its
     * one row. */
    int64_t head_rows;
    /* The mixture of experts: experts, picks per token, the router's bias (on sigmoid's flat
     * shoulder every score is within a few dozen ulps of the others, as a trained router's
     * often are) and its weights' spread. */
    int experts, top_k;
    float router_bias, router_spread;
};

/* The large configuration, a GPU's: the vocabulary 151,936 of a Qwen model, the logits of a
 * batch of 8,192 rows in bf16 (2.49 GB, past 2^31 bytes from row 7,068 on; the sequence's row
 * is the last), the cache rows across the wrap of the same 4 GiB pool. */
void eng_model_cfg_large(struct eng_model_cfg *c, uint64_t seed);

/* Device memory the configuration allocates, in bytes, by part (for the sizes a run prints):
 * the KV pool, the logits, the rest (weights, the batch's hidden states, activations). */
struct eng_model_size {
    uint64_t pool, logits, rest;
};
void eng_model_size(const struct eng_model_cfg *c, struct eng_model_size *s);

/* The small configuration the cpu backend runs in seconds: vocabulary 64, width 100 (not a
 * multiple of 8 or of the K tile 64), MLP 200, 8 tokens, its cache rows at the end of a pool
 * of over 2^31 elements (4 GiB: reserved, only 8 rows touched) across atom-2533's wrap. */
void eng_model_cfg_small(struct eng_model_cfg *c, uint64_t seed);

/* The entry point of each role; eng_model_set_ref / _fixed fill the two whole sets. */
struct eng_model_kernels {
    const char *entry[ENG_M8_ROLES];
};
void eng_model_set(struct eng_model_kernels *k, const char *suffix); /* "ref" or "fixed" */

/* The model's source (the reproducer files and kernels/model.kl, embedded), malloc'd. */
char *eng_model_source(char *err, size_t errlen);

struct eng_model;

/* Loads code (compiled from eng_model_source) into ctx, makes the weights and uploads them.
 * NULL with a message. */
struct eng_model *eng_model_open(const struct eng_backend *B, struct eng_ctx *ctx,
                                 const void *code, size_t len, const struct eng_model_cfg *c,
                                 char *err, size_t errlen);
void eng_model_close(struct eng_model *m);

/* Decodes cfg.steps tokens with kernels k from an empty cache. Step t's input is the prompt
 * (t = 0), then forced[t - 1] when forced is given (teacher forcing: both models see the same
 * sequence, so every step compares like with like), else the previous step's own token.
 * tokens[t] = argmax of logits[t * vocab ...] (the first maximum; NaNs never win; -1 when the
 * whole row is NaN). 0, or -1 with a message. */
int eng_model_decode(struct eng_model *m, const struct eng_model_kernels *k, const int *forced,
                     int *tokens, float *logits, char *err, size_t errlen);

/* How a decode compares with the reference's. */
struct eng_model_score {
    int agree;              /* steps whose token equals the reference's */
    int first_wrong;        /* the first step that differs, -1 none */
    double max_logit_err;   /* over finite pairs */
    int64_t nan_count;      /* non-finite logits */
};
void eng_model_compare(int steps, int vocab, const int *ref_tokens, const float *ref_logits,
                       const int *tokens, const float *logits, struct eng_model_score *s);

#endif
