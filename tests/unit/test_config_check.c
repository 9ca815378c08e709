/* The CSV reader and the config checks (importers/csv_read.h, importers/config_check.h): quoting
 * as RFC 4180 says, exact cells, the typed-key lookup that misses "64.0" where an int is keyed,
 * and a mutation loop over a real table that must never crash or leak (the ASan build runs it). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "importers/config_check.h"
#include "importers/csv_read.h"

static void test_quotes_and_line_ends(void **state)
{
    (void)state;
    const char *t = "a,b,c\r\n\"x,1\",\"say \"\"hi\"\"\",\r\n\n\"two\nlines\",2,3\n";
    struct csv_table tab;
    char err[256];
    assert_int_equal(csv_read(t, strlen(t), "t.csv", &tab, err, sizeof err), 0);
    assert_int_equal(tab.ncols, 3);
    assert_int_equal(tab.nrows, 2);
    assert_string_equal(tab.rows[0][0], "x,1");
    assert_string_equal(tab.rows[0][1], "say \"hi\"");
    assert_string_equal(tab.rows[0][2], "");
    assert_string_equal(tab.rows[1][0], "two\nlines");
    assert_int_equal(tab.line[0], 2);
    assert_int_equal(tab.line[1], 4);
    csv_free(&tab);
    char *q = csv_quote("say \"hi\", twice");
    assert_string_equal(q, "\"say \"\"hi\"\", twice\"");
    free(q);
}

static void test_errors(void **state)
{
    (void)state;
    struct {
        const char *text, *want;
    } bad[] = {
        {"", "empty: expected a header row"},
        {"a,a\n1,2\n", "column \"a\" appears twice"},
        {"a,b\n\"1\"x,2\n", "t.csv:2: text after a closing quote"},
        {"a,b\n1\"2,3\n", "t.csv:2: a quote inside an unquoted field"},
        {"a,b\n1,2,3\n", "t.csv:2: 3 fields, the header has 2"},
        {"a,b\r1,2\n", "t.csv:1: a carriage return not followed by a line feed"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        struct csv_table tab;
        char err[256] = "";
        assert_int_equal(csv_read(bad[i].text, strlen(bad[i].text), "t.csv", &tab, err, sizeof err), -1);
        if (!strstr(err, bad[i].want))
            fail_msg("case %zu: '%s' lacks '%s'", i, err, bad[i].want);
    }
}

static size_t said;
static void count(void *arg, const char *line)
{
    (void)arg, (void)line;
    said++;
}

static const char schema[] =
    "{\"format\": \"kladder-config-schema\", \"version\": 1, \"columns\": {\"M\": \"int\", "
    "\"ep\": \"int\", \"k\": \"string\", \"us\": \"float\"}, \"key\": [\"M\", \"ep\"], "
    "\"defaults\": {\"ep\": \"0\"}}";

static void test_typed_lookup(void **state)
{
    (void)state;
    struct cfg_schema s;
    char err[256];
    assert_int_equal(cfg_schema_parse(schema, strlen(schema), "s.json", &s, err, sizeof err), 0);
    const char *src = "M,k,us\n64,a,1.5\n128,b,2\n";
    const char *good = "M,ep,k,us\n+64,0,a,1.50\n128,0,b,2.0\n";
    const char *bad = "M,ep,k,us\n64.0,0,a,1.5\n128,0.0,b,2\n";
    struct csv_table ts, tg, tb;
    assert_int_equal(csv_read(src, strlen(src), "src", &ts, err, sizeof err), 0);
    assert_int_equal(csv_read(good, strlen(good), "good", &tg, err, sizeof err), 0);
    assert_int_equal(csv_read(bad, strlen(bad), "bad", &tb, err, sizeof err), 0);
    struct cfg_report r = {count, NULL, 0, 0};
    cfg_check_lookup(&s, &ts, "src", &tg, "good", &r);
    assert_int_equal(r.problems, 0); /* +64 is 64, 1.50 is 1.5: compared by type */
    cfg_check_lookup(&s, &ts, "src", &tb, "bad", &r);
    assert_int_equal(r.problems, 2); /* neither row found */
    assert_int_equal(r.missing, 2);
    r.problems = 0;
    cfg_check_table(&s, &tb, "bad", &r);
    assert_int_equal(r.problems, 2);
    csv_free(&ts), csv_free(&tg), csv_free(&tb);
    cfg_schema_free(&s);
}

static uint64_t rng = 0x2545f4914f6cdd1dull;
static uint64_t next_rand(void)
{
    rng ^= rng << 13, rng ^= rng >> 7, rng ^= rng << 17;
    return rng;
}

static void test_mutations(void **state)
{
    (void)state;
    struct cfg_schema s;
    char err[256];
    assert_int_equal(cfg_schema_parse(schema, strlen(schema), "s.json", &s, err, sizeof err), 0);
    const char *base = "M,ep,k,us\n64,8,\"a,b\",1.5\n128,0,\"q\"\"x\",2\r\n256,,c,3e-3\n";
    size_t n = strlen(base);
    const char alphabet[] = ",\"\r\n0a.-";
    char *m = malloc(n + 1);
    size_t ok = 0, refused = 0;
    for (int iter = 0; iter < 20000; iter++) {
        memcpy(m, base, n + 1);
        for (int f = 1 + (int)(next_rand() % 3); f > 0; f--)
            m[next_rand() % n] = alphabet[next_rand() % (sizeof alphabet - 1)];
        size_t len = next_rand() % 8 == 0 ? next_rand() % n : n;
        struct csv_table t;
        if (csv_read(m, len, "m.csv", &t, err, sizeof err) == 0) {
            struct cfg_report r = {NULL, NULL, 0, 0};
            cfg_check_table(&s, &t, "m.csv", &r);
            const struct csv_table *tp[2] = {&t, &t};
            const char *paths[2] = {"m.csv", "m.csv"};
            free(cfg_merge_write(&s, tp, paths, 2, &r));
            csv_free(&t);
            ok++;
        } else {
            assert_true(err[0] != '\0');
            refused++;
        }
    }
    print_message("mutations: %zu read, %zu refused\n", ok, refused);
    assert_true(ok > 100 && refused > 100);
    free(m);
    cfg_schema_free(&s);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_quotes_and_line_ends),
        cmocka_unit_test(test_errors),
        cmocka_unit_test(test_typed_lookup),
        cmocka_unit_test(test_mutations),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
