/* The large configuration's logits head (engine/rungs/rung8_model.h), run on the cpu backend at
 * a size it can afford: the logits of a batch of requests in one bf16 GEMM (aiter-6402's
 * kernels), the sequence's own hidden state the batch's last row. Its tokens must be the small
 * configuration's (the same weights; only the head differs), which fails if the head reads or
 * writes any row but the sequence's; the kernels under test must agree with the reference
 * kernels; and the size estimate must add up to what a GPU is asked for. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/embed.h"
#include "common/xalloc.h"
#include "engine/backend/backend.h"
#include "engine/rungs/rung8_model.h"
#include "engine/tables/tables.h"

static const struct eng_backend *B;
static void *code;
static size_t code_len;

static int setup_all(void **state)
{
    (void)state;
    B = eng_backend_find("cpu");
    char why[512], err[512];
    if (!B || B->load(why, sizeof why) != 0) {
        fprintf(stderr, "cpu backend unavailable: %s\n", why);
        return -1;
    }
    char *body = eng_model_source(err, sizeof err);
    if (!body) {
        fprintf(stderr, "%s\n", err);
        return -1;
    }
    const struct embed_file *h = embed_find("kernels/kl.h");
    char *src = xasprintf("%s\n#line 1 \"model.kl\"\n%s", (const char *)h->data, body);
    free(body);
    char *log = xmalloc(16384);
    int rc = B->compile("cpu-wave32", src, "model.kl", NULL, &code, &code_len, log, 16384);
    if (rc != 0)
        fprintf(stderr, "compile failed: %.2000s\n", log);
    free(log);
    free(src);
    return rc;
}

static int teardown_all(void **state)
{
    (void)state;
    free(code);
    return 0;
}

/* Decodes with kernels suffix ("ref", "fixed") under cfg; tokens gets cfg.steps entries. */
static void decode(const struct eng_model_cfg *cfg, const char *suffix, const int *forced,
                   int *tokens, float *logits)
{
    char err[1024];
    struct eng_open_opts o = {.wave_size = 32, .schedule = ENG_SCHED_DEFAULT, .seed = 1};
    struct eng_ctx *ctx;
    assert_int_equal(B->open(0, &o, &ctx, err, sizeof err), 0);
    struct eng_model *m = eng_model_open(B, ctx, code, code_len, cfg, err, sizeof err);
    if (!m)
        fail_msg("open: %s", err);
    struct eng_model_kernels k;
    eng_model_set(&k, suffix);
    if (eng_model_decode(m, &k, forced, tokens, logits, err, sizeof err) != 0)
        fail_msg("decode: %s", err);
    eng_model_close(m);
    B->close(ctx);
}

static void head_row_is_the_sequence(void **state)
{
    (void)state;
    struct eng_model_cfg small, head;
    eng_model_cfg_small(&small, 1);
    head = small;
    head.head_rows = 300; /* two 256-row tiles: the sequence's row 299 is in the second */
    const int T = small.steps, V = small.vocab;
    int *ts = xcalloc((size_t)T, sizeof *ts), *th = xcalloc((size_t)T, sizeof *th),
        *tf = xcalloc((size_t)T, sizeof *tf);
    float *ls = xcalloc((size_t)T * V, 4), *lh = xcalloc((size_t)T * V, 4),
          *lf = xcalloc((size_t)T * V, 4);
    decode(&small, "ref", NULL, ts, ls);
    decode(&head, "ref", NULL, th, lh);
    for (int t = 0; t < T; t++)
        if (ts[t] != th[t])
            fail_msg("step %d: the batched head gives token %d, the small model %d", t, th[t],
                     ts[t]);
    /* the fixed kernels, teacher-forced by the reference: every step agrees */
    decode(&head, "fixed", th, tf, lf);
    struct eng_model_score sc;
    eng_model_compare(T, V, th, lh, tf, lf, &sc);
    assert_int_equal(sc.agree, T);
    assert_int_equal(sc.nan_count, 0);
    free(ts), free(th), free(tf), free(ls), free(lh), free(lf);
}

static void large_sizes(void **state)
{
    (void)state;
    struct eng_model_cfg c;
    eng_model_cfg_large(&c, 1);
    assert_int_equal(c.vocab, 151936);
    struct eng_model_size z;
    eng_model_size(&c, &z);
    /* past 2^31 bytes of logits, the sequence's row beyond it */
    assert_true(z.logits > (1ull << 31));
    assert_true((uint64_t)(c.head_rows - 1) * (uint64_t)c.vocab * 2 >= (1ull << 31));
    /* the cache rows straddle the int32 row wrap of 576-wide bf16 rows */
    const int64_t wrap = (int64_t)((1ull << 31) / 576) + 1; /* first row whose offset wraps */
    assert_true(c.first_slot < wrap && c.first_slot + c.steps > wrap);
    /* well inside an H200's 141 GB */
    assert_true(z.pool + z.logits + z.rest < 10ull * 1000 * 1000 * 1000);
}

int main(void)
{
    eng_tables_install(); /* the built-in rungs and the backends, as kladder's main hands them in */
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(head_row_is_the_sequence),
        cmocka_unit_test(large_sizes),
    };
    return cmocka_run_group_tests(tests, setup_all, teardown_all);
}
