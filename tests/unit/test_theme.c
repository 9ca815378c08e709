/* The theme parser: every built-in theme parses and defines every role; malformed files are
 * refused with the file, the line and the reason; the colour mode honours --color and NO_COLOR. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "common/embed.h"
#include "tui/theme.h"

/* A valid theme text with every role, built from the role table, where `replace` (if any)
 * substitutes the line of role `which`. */
static char *theme_text(int which, const char *replace)
{
    static char buf[8192];
    size_t o = 0;
    o += (size_t)snprintf(buf + o, sizeof buf - o, "# test theme\n\n");
    for (int r = 0; r < TUI_ROLE_COUNT; r++) {
        if (r == which && replace)
            o += (size_t)snprintf(buf + o, sizeof buf - o, "%s\n", replace);
        else
            o += (size_t)snprintf(buf + o, sizeof buf - o, "%-20s bold  red/default,bold  203/16 # c\n",
                                  tui_role_name((enum tui_role)r));
    }
    return buf;
}

static void test_builtin_themes_parse(void **state)
{
    (void)state;
    struct tui_theme t;
    char err[256];
    int n = 0;
    for (const char *const *name = tui_theme_names; *name; name++, n++) {
        char path[64];
        snprintf(path, sizeof path, "themes/%s.theme", *name);
        assert_non_null(embed_find(path));
        if (tui_theme_load(*name, &t, err, sizeof err) != 0)
            fail_msg("%s: %s", *name, err);
        assert_string_equal(t.name, *name);
    }
    assert_int_equal(n, 4);
    assert_int_equal(tui_theme_load("default", &t, err, sizeof err), 0);
    /* header: reverse,bold / black/cyan,bold / 231/24,bold */
    const struct tui_style *h = &t.form[TUI_COLOR_256][TUI_ROLE_HEADER];
    assert_int_equal(h->fg, 231);
    assert_int_equal(h->bg, 24);
    assert_int_equal(h->attrs, TUI_ATTR_BOLD);
    h = &t.form[TUI_COLOR_8][TUI_ROLE_HEADER];
    assert_int_equal(h->fg, 0);
    assert_int_equal(h->bg, 6);
    h = &t.form[TUI_COLOR_MONO][TUI_ROLE_HEADER];
    assert_int_equal(h->attrs, TUI_ATTR_REVERSE | TUI_ATTR_BOLD);
    assert_int_equal(h->fg, TUI_COLOR_DEFAULT);
    assert_int_equal(tui_theme_load("no-such-theme", &t, err, sizeof err), -1);
    assert_non_null(strstr(err, "no-such-theme"));
}

static void test_valid_text(void **state)
{
    (void)state;
    struct tui_theme t;
    char err[256] = "";
    if (tui_theme_parse(theme_text(-1, NULL), "x/custom.theme", &t, err, sizeof err) != 0)
        fail_msg("%s", err);
    assert_string_equal(t.name, "custom");
    assert_int_equal(t.form[TUI_COLOR_8][TUI_ROLE_GAP3].fg, 1);
    assert_int_equal(t.form[TUI_COLOR_8][TUI_ROLE_GAP3].bg, TUI_COLOR_DEFAULT);
    assert_int_equal(t.form[TUI_COLOR_256][TUI_ROLE_GAP3].bg, 16);
    assert_int_equal(t.form[TUI_COLOR_256][TUI_ROLE_GAP3].attrs, 0);
    assert_int_equal(t.form[TUI_COLOR_MONO][TUI_ROLE_GAP3].attrs, TUI_ATTR_BOLD);
}

/* Replaces the line of role `which` (it is on line `which + 3`) and expects `want` in err. */
static void expect_error(int which, const char *line, const char *want)
{
    struct tui_theme t;
    char err[256] = "";
    int rc = tui_theme_parse(theme_text(which, line), "themes/bad.theme", &t, err, sizeof err);
    if (rc != -1 || !strstr(err, want))
        fail_msg("line '%s': rc %d, message '%s', wanted '%s'", line ? line : "(none)", rc, err,
                 want);
}

static void test_malformed(void **state)
{
    (void)state;
    /* Role 4 ("title") sits on line 7: two header lines, then roles from line 3. */
    expect_error(4, "title bold red/default", "themes/bad.theme:7: expected 4 fields");
    expect_error(4, "title bold red/default 1/2 extra", "themes/bad.theme:7: expected 4 fields");
    expect_error(4, "titel bold red/default 1/2", "themes/bad.theme:7: unknown role 'titel'");
    expect_error(4, "title blod red/default 1/2", "themes/bad.theme:7: mono form of 'title': unknown attribute 'blod'");
    expect_error(4, "title bold red 1/2", "themes/bad.theme:7: 8-colour form of 'title': 'red' is not FG/BG");
    expect_error(4, "title bold 9/default 1/2", "themes/bad.theme:7: 8-colour form of 'title': colour 9 out of range 0-7");
    expect_error(4, "title bold red/default 300/2", "themes/bad.theme:7: 256-colour form of 'title': colour 300 out of range 0-255");
    expect_error(4, "title bold red/default purple/2", "unknown colour 'purple'");
    expect_error(4, "title bold red/default 1/2,shiny", "unknown attribute 'shiny'");
    expect_error(4, "title bold red/default -1/2", "unknown colour '-1'");
    expect_error(4, "header bold red/default 1/2", "themes/bad.theme:7: role 'header' is defined twice");
    expect_error(4, "# title removed", "themes/bad.theme: role 'title' is missing");
}

static void test_color_mode(void **state)
{
    (void)state;
    assert_int_equal(tui_theme_color_mode(CLI_COLOR_AUTO, NULL, true, 256), TUI_COLOR_256);
    assert_int_equal(tui_theme_color_mode(CLI_COLOR_AUTO, "", true, 256), TUI_COLOR_256);
    assert_int_equal(tui_theme_color_mode(CLI_COLOR_AUTO, "1", true, 256), TUI_COLOR_MONO);
    assert_int_equal(tui_theme_color_mode(CLI_COLOR_AUTO, NULL, true, 8), TUI_COLOR_8);
    assert_int_equal(tui_theme_color_mode(CLI_COLOR_AUTO, NULL, false, 0), TUI_COLOR_MONO);
    assert_int_equal(tui_theme_color_mode(CLI_COLOR_NEVER, NULL, true, 256), TUI_COLOR_MONO);
    assert_int_equal(tui_theme_color_mode(CLI_COLOR_ALWAYS, "1", true, 256), TUI_COLOR_256);
    assert_int_equal(tui_theme_color_mode(CLI_COLOR_ALWAYS, "1", true, 8), TUI_COLOR_8);
    assert_int_equal(tui_theme_color_mode(CLI_COLOR_ALWAYS, NULL, false, 0), TUI_COLOR_MONO);
}

/* ---- the user's own themes ---- */

static void write_file(const char *dir, const char *name, const char *text)
{
    char path[512];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
}

static void test_user_themes(void **state)
{
    (void)state;
    char dir[] = "/tmp/kl-themes-XXXXXX";
    assert_non_null(mkdtemp(dir));
    write_file(dir, "mine.theme", theme_text(-1, NULL));
    write_file(dir, "aurora.theme", theme_text(-1, NULL));
    /* replaces the built-in default, in its place at the head of the list */
    write_file(dir, "default.theme", theme_text(-1, NULL));
    write_file(dir, "broken.theme", theme_text(TUI_ROLE_TITLE, "title  bold  red/default  300/16"));
    write_file(dir, "bad name!.theme", theme_text(-1, NULL)); /* not a name: passed over */
    write_file(dir, ".hidden.theme", theme_text(-1, NULL));
    write_file(dir, "notes.txt", "not a theme");
    size_t n = 0;
    struct tui_theme_entry *l = tui_theme_list(dir, &n);
    const char *want[] = {"default", "light", "high-contrast", "mono", "aurora", "broken", "mine"};
    assert_int_equal(n, sizeof want / sizeof *want);
    for (size_t i = 0; i < n; i++)
        assert_string_equal(l[i].name, want[i]);
    assert_non_null(l[0].path); /* the user's default */
    assert_null(l[1].path);     /* built-in light */
    struct tui_theme t;
    char err[512] = "";
    if (tui_theme_entry_load(&l[6], &t, err, sizeof err) != 0)
        fail_msg("%s", err);
    assert_string_equal(t.name, "mine");
    assert_int_equal(t.form[TUI_COLOR_256][TUI_ROLE_TITLE].fg, 203); /* its colours, not default's */
    /* a broken file names itself, the line and the reason */
    assert_int_equal(tui_theme_entry_load(&l[5], &t, err, sizeof err), -1);
    assert_non_null(strstr(err, "broken.theme:"));
    assert_non_null(strstr(err, "300"));
    assert_int_equal(tui_theme_entry_load(&l[2], &t, err, sizeof err), 0); /* built-in */
    assert_string_equal(t.name, "high-contrast");
    tui_theme_list_free(l, n);

    /* no folder, or none given: the built-in themes alone */
    char missing[600];
    snprintf(missing, sizeof missing, "%s/none", dir);
    l = tui_theme_list(missing, &n);
    assert_int_equal(n, 4);
    tui_theme_list_free(l, n);
    l = tui_theme_list(NULL, &n);
    assert_int_equal(n, 4);
    assert_null(l[0].path);
    tui_theme_list_free(l, n);
    char cmd[600];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    assert_int_equal(system(cmd), 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_builtin_themes_parse),
        cmocka_unit_test(test_valid_text),
        cmocka_unit_test(test_malformed),
        cmocka_unit_test(test_color_mode),
        cmocka_unit_test(test_user_themes),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
