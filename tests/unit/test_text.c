/* common/text: decoding, sanitising, widths (Chinese two cells), truncation, wrapping. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <locale.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/text.h"

static void test_decode(void **state)
{
    (void)state;
    uint32_t cp;
    assert_int_equal(text_decode("A", 1, &cp), 1);
    assert_int_equal(cp, 'A');
    assert_int_equal(text_decode("\xE6\x8C\x82", 3, &cp), 3); /* 挂 */
    assert_int_equal(cp, 0x6302);
    assert_int_equal(text_decode("\xC0\x80", 2, &cp), 1); /* overlong NUL */
    assert_int_equal(cp, TEXT_REPLACEMENT);
    assert_int_equal(text_decode("\xED\xA0\x80", 3, &cp), 1); /* surrogate */
    assert_int_equal(cp, TEXT_REPLACEMENT);
    assert_int_equal(text_decode("\xE6\x8C", 2, &cp), 1); /* truncated */
    assert_int_equal(cp, TEXT_REPLACEMENT);
}

/* Every length class round-trips through text_decode; a space is a space (a search for two
 * words), and what UTF-8 cannot hold gives nothing. */
static void test_encode(void **state)
{
    (void)state;
    static const uint32_t cps[] = {' ', 'a', 0xE9, 0x6302, 0x1F600};
    static const size_t lens[] = {1, 1, 2, 3, 4};
    for (size_t i = 0; i < sizeof cps / sizeof cps[0]; i++) {
        char out[5];
        uint32_t back;
        assert_int_equal(text_encode(cps[i], out), lens[i]);
        assert_int_equal(strlen(out), lens[i]);
        assert_int_equal(text_decode(out, lens[i], &back), lens[i]);
        assert_int_equal(back, cps[i]);
    }
    char out[5] = "x";
    assert_string_equal((text_encode(' ', out), out), " ");
    assert_int_equal(text_encode(0xD800, out), 0);
    assert_string_equal(out, "");
    assert_int_equal(text_encode(0x110000, out), 0);
}

static void test_sanitize_removes_every_control(void **state)
{
    (void)state;
    char *s = text_sanitize("a\x1b[31mb\x07\x7f\xC2\x9B" "c\tx\ny", false);
    /* ESC, BEL, DEL and the C1 CSI each become U+FFFD; tab a space; newline too in one-line mode */
    for (const char *p = s; *p; p++)
        assert_true((unsigned char)*p >= 0x20 && *p != 0x7f);
    assert_null(strstr(s, "\xC2\x9B"));
    assert_non_null(strstr(s, "[31mb"));
    free(s);
    s = text_sanitize("x\ny", true);
    assert_string_equal(s, "x\ny");
    free(s);
    assert_true(text_is_clean("挂住 ok", NULL));
    assert_false(text_is_clean("a\x1b", NULL));
    assert_false(text_is_clean("a\nb", NULL));
    assert_true(text_is_clean("a\nb", "\n"));
    assert_false(text_is_clean("\xff", NULL));
}

/* Bidirectional controls and zero-width characters are treated like control characters: a
 * right-to-left override in a host name cannot reorder what follows it on screen. */
static void test_sanitize_removes_format_characters(void **state)
{
    (void)state;
    const char *const bad[] = {"\u061C", "\u200B", "\u200D", "\u200F", "\u202A", "\u202E",
                               "\u2066", "\u2069"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        char in[32];
        snprintf(in, sizeof in, "vm%sxob", bad[i]);
        char *s = text_sanitize(in, false);
        assert_string_equal(s, "vm\uFFFDxob");
        free(s);
        assert_false(text_is_clean(in, NULL));
        assert_int_equal(text_width(in), 6); /* the replacement takes its cell */
    }
    /* neighbours of the ranges are ordinary text */
    char *s = text_sanitize("a\u200A\u2010\u2065\u206A\u00A0b", false);
    assert_string_equal(s, "a\u200A\u2010\u2065\u206A\u00A0b");
    free(s);
    assert_true(text_is_clean("网络 \u2010", NULL));
}

static void test_width(void **state)
{
    (void)state;
    assert_int_equal(text_width("abc"), 3);
    assert_int_equal(text_width("挂住"), 4);
    assert_int_equal(text_width("e\xCC\x81"), 1); /* e + combining acute */
    assert_int_equal(text_width("\x1b"), 1);      /* shown as one replacement cell */
}

static void test_fit_cuts_on_character_boundaries(void **state)
{
    (void)state;
    int used;
    char *s = text_fit("挂住挂住", 5, false, &used);
    /* 2 + 2 cells fit in 4, then the marker: never half a wide character */
    assert_string_equal(s, "挂住…");
    assert_int_equal(used, 5);
    free(s);
    s = text_fit("挂住挂住", 4, false, &used);
    assert_string_equal(s, "挂…");
    assert_int_equal(used, 3);
    free(s);
    s = text_fit("abcdef", 4, true, &used);
    assert_string_equal(s, "abc~");
    free(s);
    s = text_fit("abc", 10, false, &used);
    assert_string_equal(s, "abc");
    assert_int_equal(used, 3);
    free(s);
    s = text_fit_pad("挂", 4, false);
    assert_string_equal(s, "挂  ");
    free(s);
    s = text_fit("abc", 0, false, &used);
    assert_string_equal(s, "");
    free(s);
}

/* A value quoted as typed: printable text (Chinese too) kept, every control and malformed byte
 * spelled as an escape, a long value cut with "...". */
static void test_escape_shows_what_was_typed(void **state)
{
    (void)state;
    static const struct {
        const char *in, *want;
    } cases[] = {
        {"zz", "zz"},
        {"ab\x1b[31m", "ab\\x1b[31m"},
        {"a\nb\tc", "a\\nb\\tc"},
        {"\x7f", "\\x7f"},
        {"\xc2\x85", "\\u0085"},   /* C1 NEL */
        {"\xff", "\\xff"},           /* not UTF-8 */
        {"挂\xe2\x80", "挂\\xe2\\x80"}, /* a cut sequence: each byte shown */
        {"\xef\xbf\xbd", "\xef\xbf\xbd"}, /* a real U+FFFD stays */
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char *got = text_escape(cases[i].in, 40);
        assert_string_equal(got, cases[i].want);
        assert_true(text_is_clean(got, NULL));
        free(got);
    }
    char *cut = text_escape("0123456789", 4);
    assert_string_equal(cut, "0123...");
    free(cut);
}

static void test_wrap(void **state)
{
    (void)state;
    size_t n;
    char **l = text_wrap("the quick brown fox jumps", 10, &n);
    assert_int_equal(n, 3);
    assert_string_equal(l[0], "the quick");
    assert_string_equal(l[1], "brown fox");
    assert_string_equal(l[2], "jumps");
    text_lines_free(l, n);
    l = text_wrap("单测过了跑模型出问题", 8, &n); /* no spaces: break between characters */
    assert_int_equal(n, 3);
    assert_string_equal(l[0], "单测过了");
    for (size_t i = 0; i < n; i++)
        assert_true(text_width(l[i]) <= 8);
    text_lines_free(l, n);
    /* a space early in a Chinese sentence is not the only place to break */
    l = text_wrap("abc 中文中文中文", 8, &n);
    assert_string_equal(l[0], "abc 中文");
    assert_string_equal(l[1], "中文中文");
    text_lines_free(l, n);
    l = text_wrap("中文中、文", 6, &n); /* 、 never starts a line */
    assert_string_equal(l[0], "中文");
    assert_string_equal(l[1], "中、文");
    text_lines_free(l, n);
    l = text_wrap("a\nb", 10, &n);
    assert_int_equal(n, 2);
    text_lines_free(l, n);
    l = text_wrap("", 10, &n);
    assert_int_equal(n, 1);
    text_lines_free(l, n);
}

int main(void)
{
    setlocale(LC_ALL, "C.UTF-8");
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_decode),
        cmocka_unit_test(test_encode),
        cmocka_unit_test(test_sanitize_removes_every_control),
        cmocka_unit_test(test_sanitize_removes_format_characters),
        cmocka_unit_test(test_width),
        cmocka_unit_test(test_fit_cuts_on_character_boundaries),
        cmocka_unit_test(test_wrap),
        cmocka_unit_test(test_escape_shows_what_was_typed),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
