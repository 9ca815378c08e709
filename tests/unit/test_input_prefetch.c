/* Inputs made ahead (engine/session/input_prefetch.h) are the inputs made on demand, byte for byte: a
 * fill split into parts writes what the whole fill writes (zeros of the padding and the tail
 * included, whatever the buffer held), a fill made in the background and taken by an equal key
 * holds the same bytes, a key that differs in anything takes nothing, and the background split
 * and the splits on demand take turns on the kept threads without losing a part. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdlib.h>
#include <string.h>

#include "engine/session/input_prefetch.h"
#include "engine/values/par_rows.h"
#include "engine/session/session.h"
#include "engine/values/value_class.h"

static const enum eng_dtype floats[] = {ENG_F32, ENG_BF16, ENG_FP8E4M3};

/* Rows of odd length in strides with padding, and a tail that is not a whole row. */
enum { R = 301, L = 97, S = 100, TAIL = 37, N = R * S + TAIL };

static void on_demand(const struct eng_fill_key *k, void *out)
{
    eng_vclass_fill_on((enum eng_vclass)k->cls, k->dtype, out, k->n, k->row_len, k->row_stride,
                       k->seed, ENG_PAR_MAX);
}

/* Every class and float dtype, in 1 to 9 parts written in reverse order into a buffer full of
 * old bytes; and a fill without rows (a stride shorter than its row): zeros only. */
static void test_parts_are_the_fill(void **state)
{
    (void)state;
    static unsigned char a[N * 4], b[N * 4];
    for (int c = 0; c < ENG_VC_COUNT; c++)
        for (size_t f = 0; f < sizeof floats / sizeof floats[0]; f++)
            for (unsigned np = 1; np <= 9; np++) {
                size_t bytes = (size_t)N * eng_dtype_size(floats[f]);
                memset(a, 0x5a, sizeof a);
                memset(b, 0xa5, sizeof b);
                eng_vclass_fill((enum eng_vclass)c, floats[f], a, N, L, S, 7 + np);
                for (unsigned p = np; p-- > 0;)
                    eng_vclass_fill_part((enum eng_vclass)c, floats[f], b, N, L, S, 7 + np, p,
                                         np);
                assert_memory_equal(a, b, bytes);
            }
    memset(a, 0, sizeof a);
    memset(b, 0xa5, sizeof b);
    for (unsigned p = 0; p < 3; p++)
        eng_vclass_fill_part(ENG_VC_PEAKED, ENG_F32, b, N, L, L - 1, 3, p, 3);
    assert_memory_equal(a, b, (size_t)N * 4);
}

/* A check's input made ahead and taken is the input made on demand; a second take of the same
 * key finds nothing (it was handed out once). */
static void test_taken_equals_on_demand(void **state)
{
    (void)state;
    for (int c = 0; c < ENG_VC_COUNT; c++)
        for (size_t f = 0; f < sizeof floats / sizeof floats[0]; f++) {
            size_t bytes = (size_t)N * eng_dtype_size(floats[f]);
            struct eng_fill_key k[2] = {
                {.cls = c, .dtype = floats[f], .n = N, .row_len = L, .row_stride = S,
                 .seed = 0x1234u + (uint64_t)c, .bytes = bytes},
                {.cls = (c + 1) % ENG_VC_COUNT, .dtype = floats[f], .n = N / 2, .row_len = L,
                 .row_stride = L, .seed = 99, .bytes = (size_t)(N / 2) * eng_dtype_size(floats[f])}};
            eng_prefetch_start(k, 2);
            unsigned char *want = malloc(bytes), *want2 = malloc(k[1].bytes);
            on_demand(&k[0], want); /* on demand, while the background split may still run */
            on_demand(&k[1], want2);
            unsigned char *got2 = eng_prefetch_take(&k[1]);
            unsigned char *got = eng_prefetch_take(&k[0]);
            assert_non_null(got);
            assert_non_null(got2);
            assert_memory_equal(got, want, bytes);
            assert_memory_equal(got2, want2, k[1].bytes);
            assert_null(eng_prefetch_take(&k[0]));
            eng_session_host_put(got, bytes);
            eng_session_host_put(got2, k[1].bytes);
            free(want);
            free(want2);
        }
    eng_prefetch_trim();
}

/* A key that differs in any one parameter takes nothing; the buffers go back with a drop, and
 * a start gives back what the last one left. */
static void test_other_keys_take_nothing(void **state)
{
    (void)state;
    struct eng_fill_key k = {.cls = ENG_VC_DISTINCT, .dtype = ENG_BF16, .n = N, .row_len = L,
                             .row_stride = S, .seed = 5, .bytes = (size_t)N * 2};
    eng_prefetch_start(&k, 1);
    struct eng_fill_key o[7];
    for (int i = 0; i < 7; i++)
        o[i] = k;
    o[0].cls = ENG_VC_TIES;
    o[1].dtype = ENG_F32;
    o[2].n = N - 1;
    o[3].row_len = L - 1;
    o[4].row_stride = S + 1;
    o[5].seed = 6;
    o[6].bytes = (size_t)N * 2 + 2;
    for (int i = 0; i < 7; i++)
        assert_null(eng_prefetch_take(&o[i]));
    eng_prefetch_start(&k, 1); /* the first one's buffer back, a new one under way */
    void *p = eng_prefetch_take(&k);
    assert_non_null(p);
    eng_session_host_put(p, k.bytes);
    eng_prefetch_start(&k, 1);
    eng_prefetch_trim(); /* waits for it before freeing */
    assert_null(eng_prefetch_take(&k));
}

/* The background split and splits on demand, one after the other many times: every row of
 * each written once. */
static uint64_t marks[4096];
static void mark(void *arg, uint64_t r0, uint64_t r1)
{
    for (uint64_t r = r0; r < r1; r++)
        marks[r] += (uint64_t)(uintptr_t)arg;
}

static void test_background_and_demand_take_turns(void **state)
{
    (void)state;
    for (int it = 0; it < 200; it++) {
        memset(marks, 0, sizeof marks);
        assert_int_equal(eng_par_rows_start(mark, (void *)(uintptr_t)1, 4096, 1 + it % 8), 0);
        eng_par_rows(mark, (void *)(uintptr_t)2, 4096, 1 + (it / 8) % 8);
        assert_int_equal(eng_par_rows_wait(), 0);
        for (int r = 0; r < 4096; r++)
            assert_int_equal(marks[r], 3);
    }
    assert_int_equal(eng_par_rows_wait(), 0); /* none started: nothing to wait for */
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_parts_are_the_fill),
        cmocka_unit_test(test_taken_equals_on_demand),
        cmocka_unit_test(test_other_keys_take_nothing),
        cmocka_unit_test(test_background_and_demand_take_turns),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
