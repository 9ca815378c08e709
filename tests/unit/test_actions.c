/* The action table: every action has a key and help in both languages, every key name parses,
 * no key is bound twice in one scope, a view's own keys do not hide a global one, and the
 * lookup follows the scopes. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <string.h>

#include <cmocka.h>
#include <curses.h>

#include "common/text.h"
#include "tui/actions.h"

struct seen {
    int keys[TUI_ACT_COUNT * 4];
    enum tui_scope scope[TUI_ACT_COUNT * 4];
    enum tui_action act[TUI_ACT_COUNT * 4];
    size_t n;
    enum tui_action cur;
    int count_for_cur;
};

static void collect(int key, const char *name, void *ctx)
{
    struct seen *s = ctx;
    if (key < 0)
        fail_msg("action %d: key name '%s' does not parse", s->cur, name);
    s->keys[s->n] = key;
    s->scope[s->n] = tui_actions[s->cur].scope;
    s->act[s->n] = s->cur;
    s->n++;
    s->count_for_cur++;
}

static void test_every_action_documented(void **state)
{
    (void)state;
    struct seen s = {.n = 0};
    for (int a = TUI_ACT_NONE + 1; a < TUI_ACT_COUNT; a++) {
        const struct tui_action_info *in = &tui_actions[a];
        assert_int_equal(in->id, a);
        for (int l = 0; l < 2; l++) {
            if (!in->help[l] || !*in->help[l])
                fail_msg("action %d has no help text in language %d", a, l);
            assert_true(text_is_clean(in->help[l], NULL));
            /* A bar label comes in both languages or in neither. */
            assert_true((in->bar[0] == NULL) == (in->bar[1] == NULL));
        }
        s.cur = (enum tui_action)a;
        s.count_for_cur = 0;
        tui_action_keys((enum tui_action)a, collect, &s);
        if (s.count_for_cur == 0)
            fail_msg("action %d (%s) has no key", a, in->help[0]);
    }
    for (size_t i = 0; i < s.n; i++)
        for (size_t j = i + 1; j < s.n; j++) {
            if (s.keys[i] != s.keys[j])
                continue;
            if (s.scope[i] == s.scope[j])
                fail_msg("key %d bound twice in one scope (actions %d and %d)", s.keys[i],
                         s.act[i], s.act[j]);
            /* A view's keys are looked up before the global ones: they must not hide one.
             * The search prompt is modal, so it may reuse Enter and Esc. */
            bool one_global = s.scope[i] == TUI_SCOPE_GLOBAL || s.scope[j] == TUI_SCOPE_GLOBAL;
            bool one_search = s.scope[i] == TUI_SCOPE_SEARCH || s.scope[j] == TUI_SCOPE_SEARCH ||
                              s.scope[i] == TUI_SCOPE_CONFIRM || s.scope[j] == TUI_SCOPE_CONFIRM;
            if (one_global && !one_search)
                fail_msg("key %d of a view hides global action (actions %d and %d)", s.keys[i],
                         s.act[i], s.act[j]);
        }
}

static void test_key_names(void **state)
{
    (void)state;
    char b[16];
    assert_int_equal(tui_key_parse("j"), 'j');
    assert_int_equal(tui_key_parse("Enter"), '\n');
    assert_int_equal(tui_key_parse("^L"), 12);
    assert_int_equal(tui_key_parse("F1"), TUI_KEY_FN(KEY_F(1)));
    assert_int_equal(tui_key_parse("F12"), TUI_KEY_FN(KEY_F(12)));
    assert_int_equal(tui_key_parse("PgDn"), TUI_KEY_FN(KEY_NPAGE));
    assert_int_equal(tui_key_parse("挂"), 0x6302);
    assert_int_equal(tui_key_parse(""), -1);
    assert_int_equal(tui_key_parse("jj"), -1);
    assert_int_equal(tui_key_parse("F13"), -1);
    assert_int_equal(tui_key_parse("F1x"), -1);
    assert_int_equal(tui_key_parse("\x1b"), -1);
    assert_string_equal(tui_key_name('\n', b, sizeof b), "Enter");
    assert_string_equal(tui_key_name(12, b, sizeof b), "^L");
    assert_string_equal(tui_key_name(TUI_KEY_FN(KEY_F(10)), b, sizeof b), "F10");
    assert_string_equal(tui_key_name(0x6302, b, sizeof b), "挂");
    assert_string_equal(tui_key_name('G', b, sizeof b), "G");
}

static void test_lookup_scopes(void **state)
{
    (void)state;
    assert_int_equal(tui_action_for_key(TUI_SCOPE_GLOBAL, 'q'), TUI_ACT_QUIT);
    assert_int_equal(tui_action_for_key(TUI_SCOPE_CASES, 'q'), TUI_ACT_QUIT);
    assert_int_equal(tui_action_for_key(TUI_SCOPE_CASES, 'x'), TUI_ACT_FILTER_CLEAR);
    assert_int_equal(tui_action_for_key(TUI_SCOPE_DETAIL, 'x'), TUI_ACT_NONE);
    assert_int_equal(tui_action_for_key(TUI_SCOPE_DETAIL, '+'), TUI_ACT_PROB_MORE);
    assert_int_equal(tui_action_for_key(TUI_SCOPE_GLOBAL, TUI_KEY_FN(KEY_DOWN)), TUI_ACT_DOWN);
    assert_int_equal(tui_action_for_key(TUI_SCOPE_GLOBAL, '\n'), TUI_ACT_OPEN);
    /* The prompt is modal: Enter keeps, and a plain letter is text, not an action. */
    assert_int_equal(tui_action_for_key(TUI_SCOPE_SEARCH, '\n'), TUI_ACT_SEARCH_KEEP);
    assert_int_equal(tui_action_for_key(TUI_SCOPE_SEARCH, 'q'), TUI_ACT_NONE);
    assert_int_equal(tui_action_for_key(TUI_SCOPE_GLOBAL, 'Z'), TUI_ACT_NONE);
    assert_string_equal(tui_action_key_label(TUI_ACT_HELP), "?");
    assert_string_equal(tui_action_key_label(TUI_ACT_PAGE_DOWN), "PgDn");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_every_action_documented),
        cmocka_unit_test(test_key_names),
        cmocka_unit_test(test_lookup_scopes),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
