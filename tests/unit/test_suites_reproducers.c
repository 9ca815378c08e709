/* The built-in reproducer suites: every one loads, names entry points its kernel defines and
 * exports, and states the numbers of its case, so that an edit which quietly moves a shape off
 * the bug (a cliff one row too low, a pool that no longer reaches the wrapping row, a baseline
 * that is no longer aligned) fails here instead of in a GPU run. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "engine/rung.h"
#include "engine/rungs/rung1.h"
#include "engine/rungs/rung4.h"
#include "engine/rungs/rung5.h"
#include "engine/manifest.h"
#include "engine/plan.h"
#include "engine/tables/tables.h"

/* a declared rung's settings, as the rung parsed them */
#define R1(m) ((const struct eng_rung1_spec *)(m)->settings[1])
#define R4(m) ((const struct eng_rung4_spec *)(m)->settings[4])
#define R5(m) ((const struct eng_rung5_spec *)(m)->settings[5])

static const char *const cases[] = {"aiter-6402", "flydsl-1199", "flydsl-1264", "aiter-6344",
                                    "atom-2533", "aiter-4494", "flydsl-1220"};
#define NCASES (sizeof cases / sizeof cases[0])

static struct eng_manifest *load(const char *name)
{
    char err[512];
    struct eng_manifest *m = eng_manifest_load(name, NULL, err, sizeof err);
    if (!m)
        fail_msg("%s", err);
    return m;
}

static int64_t value_of(const struct eng_manifest *m, const struct eng_shape *sh, const char *p)
{
    char err[256];
    struct eng_values v;
    if (eng_values_make(m, sh, NULL, NULL, &v, err, sizeof err) != 0)
        fail_msg("%s", err);
    int64_t x = 0;
    if (eng_values_eval(&v, p, &x, err, sizeof err) != 0)
        fail_msg("%s", err);
    eng_values_free(&v);
    return x;
}

static void assert_defines(const char *src, const char *entry)
{
    char def[160], exp[160];
    snprintf(def, sizeof def, "KL_KERNEL %s(", entry);
    snprintf(exp, sizeof exp, "KL_EXPORT(%s)", entry);
    if (!strstr(src, def) || !strstr(src, exp))
        fail_msg("entry point %s is not defined and exported by its kernel", entry);
}

/* Every suite of the seven cases loads, has both variants, a reference, a baseline and a rung
 * of 1, 4 or 5, and its kernel defines and exports all three entry points. */
static void test_every_suite(void **state)
{
    (void)state;
    size_t n = 0;
    const char **names = eng_manifest_list(&n);
    bool seen[NCASES] = {false};
    for (size_t i = 0; i < n; i++) {
        /* a bare name, or the embedded path kernels/suites/NAME.json */
        char name[128];
        const char *base = strrchr(names[i], '/');
        snprintf(name, sizeof name, "%s", base ? base + 1 : names[i]);
        size_t len = strlen(name);
        if (len > 5 && !strcmp(name + len - 5, ".json"))
            name[len - 5] = '\0';
        struct eng_manifest *m = load(name);
        size_t which = NCASES;
        for (size_t c = 0; c < NCASES; c++)
            if (m->case_id && !strcmp(m->case_id, cases[c]))
                which = c;
        if (which == NCASES) { /* another case's suite (other rungs): not checked here */
            eng_manifest_free(m);
            continue;
        }
        seen[which] = true;
        char err[256];
        char *src = eng_manifest_source(m, err, sizeof err);
        if (!src)
            fail_msg("%s: %s", name, err);
        assert_non_null(m->entry_buggy);
        assert_true(m->nbaseline > 0);
        assert_true(m->has_rung[1] || m->has_rung[4] || m->has_rung[5]);
        assert_defines(src, m->entry_fixed);
        assert_defines(src, m->entry_buggy);
        assert_defines(src, m->entry_reference);
        free(src);
        eng_manifest_free(m);
    }
    free(names);
    for (size_t c = 0; c < NCASES; c++)
        if (!seen[c])
            fail_msg("no suite reproduces %s", cases[c]);
}

static bool planned(const struct eng_manifest *m, const char *ref, int rung, const char *check)
{
    char err[256];
    struct eng_planned *plan = NULL;
    size_t n = 0;
    struct eng_plan_opts po = {.backend = "cpu", .wave = 32, .fixed = true, .buggy = true,
                               .baseline = true, .timeout_s = 5};
    if (eng_plan_rung(m, ref, rung, &po, &plan, &n, err, sizeof err) != 0)
        fail_msg("%s", err);
    bool found = false;
    for (size_t i = 0; i < n; i++)
        found |= !strcmp(plan[i].spec.name, check);
    eng_planned_free(plan, n);
    return found;
}

/* 7067 x 151936 bf16 is 20,224 bytes under 2^31, 7068 rows are over; 14,134 rows fit in 2^32,
 * 14,135 do not; with 256-row padding 14,081 rows fit but their padded tile does not. */
static void test_aiter_6402_cliffs(void **state)
{
    (void)state;
    const uint64_t row = 151936ull * 2;
    assert_true(7067 * row < (1ull << 31) && 7068 * row > (1ull << 31));
    assert_int_equal((1ull << 31) - 7067 * row, 20224);
    assert_true(14134 * row < (1ull << 32) && 14135 * row > (1ull << 32));
    assert_true(14336 * row > (1ull << 32));

    struct eng_manifest *m = load("aiter-6402");
    assert_true(planned(m, "aiter-6402", 1, "cliff-C-below2^31-M7067"));
    assert_true(planned(m, "aiter-6402", 1, "cliff-C-above2^31-M7068"));
    assert_true(planned(m, "aiter-6402", 1, "cliff-C-below2^32-M14134"));
    assert_true(planned(m, "aiter-6402", 1, "cliff-C-above2^32-M14135"));
    eng_manifest_free(m);

    m = load("aiter-6402-pad");
    assert_string_equal(m->case_id, "aiter-6402");
    assert_true(planned(m, "aiter-6402-pad", 1, "cliff-C-below2^32-M14080"));
    assert_true(planned(m, "aiter-6402-pad", 1, "cliff-C-above2^32-M14081"));
    /* the named shape: output inside 2^32 bytes, its padded last tile beyond */
    assert_int_equal(R1(m)->nextra, 1);
    char err[256];
    struct eng_values v;
    assert_int_equal(eng_values_make(m, &R1(m)->extra[0], NULL, NULL, &v, err, sizeof err), 0);
    struct eng_buffer_size sz;
    assert_int_equal(eng_buffer_size(m, 2, &v, &sz, err, sizeof err), 0);
    assert_true(sz.bytes < (1ull << 32) && sz.padded_bytes > (1ull << 32));
    eng_values_free(&v);
    for (size_t i = 0; i < m->nbaseline; i++)
        assert_int_equal(value_of(m, &m->baseline[i], "M") % 256, 0);
    eng_manifest_free(m);
}

/* INT32_MAX = 2,147,483,647: row 3,728,270 starts at 2,147,483,520 (columns from 128 on pass
 * it), row 3,728,271 starts past it. The pool shapes sit below, across and past that row. */
static void test_atom_2533_pool(void **state)
{
    (void)state;
    const int64_t wrap = 3728270, imax = 2147483647;
    assert_true(wrap * 576 <= imax && wrap * 576 + 128 > imax && (wrap + 1) * 576 > imax);

    struct eng_manifest *m = load("atom-2533");
    assert_int_equal(R4(m)->npool, 3);
    for (size_t i = 0; i < R4(m)->npool; i++) {
        const struct eng_shape *sh = &R4(m)->pool[i];
        int64_t first = value_of(m, sh, "first_slot"), last = first + value_of(m, sh, "T") - 1;
        assert_true(last < value_of(m, sh, "rows"));
        assert_true(value_of(m, sh, "T") <= 1024); /* offsets are iota, which repeats at 1024 */
        if (!strcmp(sh->name, "pool_below_wrap"))
            assert_true(last < wrap);
        else if (!strcmp(sh->name, "pool_at_wrap"))
            assert_true(first < wrap && last > wrap);
        else if (!strcmp(sh->name, "pool_full"))
            assert_true(first > wrap);
        else
            fail_msg("unexpected pool shape %s", sh->name);
    }
    for (size_t i = 0; i < m->nbaseline; i++)
        assert_true(value_of(m, &m->baseline[i], "first_slot + T") * 576 < imax);
    eng_manifest_free(m);
}

/* The kernel's wave count for a row of N (aiter_6344.kl: 8-element vectors, up to 8 a thread,
 * a 256-thread block). */
static int rms_waves(int64_t n, int wave)
{
    int64_t nvec = (n + 7) / 8, wanted = (nvec + 7) / 8;
    int64_t w = (wanted + wave - 1) / wave;
    if (w > 256 / wave)
        w = 256 / wave;
    return w < 1 ? 1 : (int)w;
}

/* The race suite's baseline rows fit one wave on both wave sizes (no shared-memory exchange, so
 * the unit test cannot see the race), and every wide row set spans several. The tail suite's
 * baseline is aligned to the vector width and its tail checks are not. */
static void test_aiter_6344_shapes(void **state)
{
    (void)state;
    struct eng_manifest *m = load("aiter-6344");
    for (size_t i = 0; i < m->nbaseline; i++) {
        int64_t n = value_of(m, &m->baseline[i], "N");
        assert_int_equal(rms_waves(n, 32), 1);
        assert_int_equal(rms_waves(n, 64), 1);
    }
    assert_true(R5(m)->nwide > 0);
    for (size_t i = 0; i < R5(m)->nwide; i++) {
        int64_t n = value_of(m, &R5(m)->wide[i], "N");
        assert_true(rms_waves(n, 32) >= 2 && rms_waves(n, 64) >= 2);
    }
    assert_true(eng_plan_repeats(R5(m)->failure_rate, R5(m)->confidence) >= 30);
    eng_manifest_free(m);

    m = load("aiter-6344-tail");
    for (size_t i = 0; i < m->nbaseline; i++)
        assert_int_equal(value_of(m, &m->baseline[i], "N") % 8, 0);
    assert_true(planned(m, "aiter-6344-tail", 1, "tail-N9-vec8"));
    assert_true(planned(m, "aiter-6344-tail", 1, "tail-N15-vec8"));
    assert_int_not_equal(value_of(m, NULL, "N") % 8, 0);
    eng_manifest_free(m);
}

/* K tiles: baselines are multiples of every accepted tile; the K-tail suite carries K = 640 at
 * tile 256 and gpt-oss's K = 2880 at each tile; the MMA-depth suite's baseline uses the
 * instruction's own depth and its tiles include the shallower 64. */
static void test_ktile_shapes(void **state)
{
    (void)state;
    const char *names[] = {"flydsl-1199", "flydsl-1264"};
    for (size_t s = 0; s < 2; s++) {
        struct eng_manifest *m = load(names[s]);
        assert_int_equal(m->ntiles, 1);
        for (size_t i = 0; i < m->nbaseline; i++)
            for (size_t t = 0; t < m->tiles[0].n; t++)
                assert_int_equal(value_of(m, &m->baseline[i], "K") % m->tiles[0].values[t], 0);
        eng_manifest_free(m);
    }
    struct eng_manifest *m = load("flydsl-1199");
    bool k640 = false;
    int k2880 = 0;
    for (size_t i = 0; i < R1(m)->nextra; i++) {
        int64_t k = value_of(m, &R1(m)->extra[i], "K"), t = value_of(m, &R1(m)->extra[i], "tile_k");
        k640 |= k == 640 && t == 256 && k % t == 128;
        k2880 += k == 2880;
    }
    assert_true(k640);
    assert_int_equal(k2880, 3);
    eng_manifest_free(m);

    m = load("flydsl-1264");
    for (size_t i = 0; i < m->nbaseline; i++)
        assert_int_equal(value_of(m, &m->baseline[i], "tile_k"), 128);
    assert_int_equal(m->tiles[0].values[0], 64);
    assert_int_equal(value_of(m, NULL, "tile_k"), 64);
    eng_manifest_free(m);
}

/* The two host-protocol cases: one kernel for both variants, the difference in the options. */
static void test_host_protocol(void **state)
{
    (void)state;
    struct eng_manifest *m = load("aiter-4494");
    assert_string_equal(m->entry_fixed, m->entry_buggy);
    assert_true(!m->opt_fixed.scratch_once && m->opt_buggy.scratch_once);
    assert_true(m->has_rung[4] && (R4(m)->checks & ENG_R4_GRAPH) && R4(m)->replays >= 2);
    assert_int_equal(value_of(m, NULL, "splits"), 2);
    eng_manifest_free(m);

    m = load("flydsl-1220");
    assert_string_equal(m->entry_fixed, m->entry_buggy);
    assert_true(m->opt_fixed.event && !m->opt_buggy.event);
    assert_true(m->has_rung[4] && (R4(m)->checks & ENG_R4_STREAMS));
    eng_manifest_free(m);
}

int main(void)
{
    eng_tables_install(); /* the built-in rungs and the backends, as kladder's main hands them in */
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_every_suite),
        cmocka_unit_test(test_aiter_6402_cliffs),
        cmocka_unit_test(test_atom_2533_pool),
        cmocka_unit_test(test_aiter_6344_shapes),
        cmocka_unit_test(test_ktile_shapes),
        cmocka_unit_test(test_host_protocol),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
