/* tui/clipboard: which terminals get OSC 52 (only those known to take it, never inside tmux or
 * screen), the sequence itself (base64 with its padding), and a recorded command line made
 * ready for a shell again. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdlib.h>
#include <string.h>

#include "tui/clipboard.h"
#include "tui/cmdline.h"

static void test_known_terminals(void **state)
{
    (void)state;
    assert_true(tui_osc52_known("xterm-kitty", NULL, false));
    assert_true(tui_osc52_known("alacritty", NULL, false));
    assert_true(tui_osc52_known("foot-extra", NULL, false));
    assert_true(tui_osc52_known("xterm-256color", "iTerm.app", false));
    assert_true(tui_osc52_known("xterm-256color", "WezTerm", false));
    /* unknown, or behind a multiplexer that swallows it */
    assert_false(tui_osc52_known("xterm-256color", NULL, false));
    assert_false(tui_osc52_known("linux", NULL, false));
    assert_false(tui_osc52_known(NULL, NULL, false));
    assert_false(tui_osc52_known("xterm-kitty", NULL, true));
    assert_false(tui_osc52_known("screen-256color", "iTerm.app", false));
    assert_false(tui_osc52_known("tmux-256color", NULL, false));
    assert_false(tui_osc52_known("xterm-256color", "Apple_Terminal", false));
}

static void test_sequence(void **state)
{
    (void)state;
    char out[128];
    /* the three paddings of base64 */
    size_t n = tui_osc52_encode("abc", out, sizeof out);
    assert_int_equal(n, strlen(out));
    assert_string_equal(out, "\033]52;c;YWJj\a");
    tui_osc52_encode("ab", out, sizeof out);
    assert_string_equal(out, "\033]52;c;YWI=\a");
    tui_osc52_encode("a", out, sizeof out);
    assert_string_equal(out, "\033]52;c;YQ==\a");
    tui_osc52_encode("3d3ceb49-14ee", out, sizeof out);
    assert_string_equal(out, "\033]52;c;M2QzY2ViNDktMTRlZQ==\a");
    /* too small: nothing half-written is used */
    assert_int_equal(tui_osc52_encode("abcdef", out, 12), 0);
}

static void test_cmdline_for_shell(void **state)
{
    (void)state;
    char buf[256];
    tui_cmdline_for_shell("kladder run --rung 1 --suite flydsl-1199 --no-progress --events 3", buf,
                          sizeof buf);
    assert_string_equal(buf, "kladder run --rung 1 --suite flydsl-1199 --no-progress");
    tui_cmdline_for_shell("kladder run --events 12 --rung 4 --suite s", buf, sizeof buf);
    assert_string_equal(buf, "kladder run --rung 4 --suite s");
    /* a command line from the shell has none; one whose --events is no number stays whole */
    tui_cmdline_for_shell("kladder run --case aiter-4494", buf, sizeof buf);
    assert_string_equal(buf, "kladder run --case aiter-4494");
    tui_cmdline_for_shell("kladder run --suite --events-x", buf, sizeof buf);
    assert_string_equal(buf, "kladder run --suite --events-x");
    tui_cmdline_for_shell(NULL, buf, sizeof buf);
    assert_string_equal(buf, "");
}

/* What Y copies and the report shows (tui/cmdline.h): words quoted, a pulled command only as a
 * comment naming its host, no newline left to end the comment. */
static void test_cmdline_copy(void **state)
{
    (void)state;
    static const struct {
        const char *argv, *origin, *want;
    } cases[] = {
        {"kladder run --rung 1 --suite /a/b.json --events 7", NULL,
         "kladder run --rung 1 --suite /a/b.json"},
        {"kladder run --case it's ; $(id) `x` >y", NULL,
         "kladder run --case 'it'\\''s' ';' '$(id)' '`x`' '>y'"},
        {"kladder run --rung 1 ; touch X", "gpu-b",
         "# pulled from gpu-b, not verified here: kladder run --rung 1 ';' touch X"},
        {"kladder run\ntouch W", "gpu-b",
         "# pulled from gpu-b, not verified here: kladder 'run\xef\xbf\xbdtouch' W"},
        {NULL, "gpu-b", ""},
        {"", NULL, ""},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char *got = tui_cmdline_copy(cases[i].argv, cases[i].origin);
        assert_string_equal(got, cases[i].want);
        assert_null(strchr(got, '\n'));
        free(got);
    }
    char *q = tui_shell_quote("");
    assert_string_equal(q, "''");
    free(q);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_known_terminals),
        cmocka_unit_test(test_sequence),
        cmocka_unit_test(test_cmdline_for_shell),
        cmocka_unit_test(test_cmdline_copy),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
