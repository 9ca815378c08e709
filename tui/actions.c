#include "tui/actions.h"

#include <curses.h>
#include <stdio.h>
#include <string.h>

#include "common/text.h"

const struct tui_action_info tui_actions[TUI_ACT_COUNT] = {
#define ACT(id_, scope_, keys_, bar_en, bar_zh, help_en, help_zh)                              \
    [TUI_ACT_##id_] = {.id = TUI_ACT_##id_,                                                    \
                       .scope = TUI_SCOPE_##scope_,                                            \
                       .keys = keys_,                                                          \
                       .bar = {bar_en, bar_zh},                                                \
                       .help = {help_en, help_zh}},
#include "tui/actions.def"
#undef ACT
};

static const struct {
    const char *name;
    int key;
} named_keys[] = {
    {"Enter", TUI_KEY_ENTER},
    {"Esc", TUI_KEY_ESC},
    {"Tab", TUI_KEY_TAB},
    {"S-Tab", TUI_KEY_FN(KEY_BTAB)},
    {"BTab", TUI_KEY_FN(KEY_BTAB)}, /* tig's name, accepted too */
    {"Space", ' '},
    {"Backspace", TUI_KEY_FN(KEY_BACKSPACE)},
    {"Up", TUI_KEY_FN(KEY_UP)},
    {"Down", TUI_KEY_FN(KEY_DOWN)},
    {"Left", TUI_KEY_FN(KEY_LEFT)},
    {"Right", TUI_KEY_FN(KEY_RIGHT)},
    {"PgUp", TUI_KEY_FN(KEY_PPAGE)},
    {"PgDn", TUI_KEY_FN(KEY_NPAGE)},
    {"Home", TUI_KEY_FN(KEY_HOME)},
    {"End", TUI_KEY_FN(KEY_END)},
};

int tui_key_parse(const char *name)
{
    for (size_t i = 0; i < sizeof named_keys / sizeof named_keys[0]; i++)
        if (strcmp(name, named_keys[i].name) == 0)
            return named_keys[i].key;
    size_t n = strlen(name);
    if (n == 2 && name[0] == '^' && name[1] >= 'A' && name[1] <= 'Z')
        return name[1] - 'A' + 1;
    if ((n == 2 || n == 3) && name[0] == 'F' && name[1] >= '1' && name[1] <= '9') {
        int f = name[1] - '0';
        if (n == 3) {
            if (name[2] < '0' || name[2] > '9')
                return -1;
            f = f * 10 + (name[2] - '0');
        }
        return f >= 1 && f <= 12 ? TUI_KEY_FN(KEY_F(f)) : -1;
    }
    if (n == 0)
        return -1;
    uint32_t cp;
    size_t used = text_decode(name, n, &cp);
    if (used != n || cp == TEXT_REPLACEMENT || text_is_control(cp))
        return -1;
    return (int)cp;
}

const char *tui_key_name(int key, char *buf, size_t len)
{
    for (size_t i = 0; i < sizeof named_keys / sizeof named_keys[0]; i++)
        if (named_keys[i].key == key) {
            snprintf(buf, len, "%s", named_keys[i].name);
            return buf;
        }
    if (key >= 1 && key <= 26) {
        snprintf(buf, len, "^%c", 'A' + key - 1);
    } else if (key >= TUI_KEY_FN(KEY_F(1)) && key <= TUI_KEY_FN(KEY_F(12))) {
        snprintf(buf, len, "F%d", key - TUI_KEY_FN(KEY_F(0)));
    } else if (key > 32 && key < 0x110000 && !text_is_control((uint32_t)key)) {
        char s[5];
        text_encode((uint32_t)key, s);
        snprintf(buf, len, "%s", s);
    } else {
        snprintf(buf, len, "#%d", key);
    }
    return buf;
}

void tui_action_keys(enum tui_action a, void (*fn)(int key, const char *name, void *ctx),
                     void *ctx)
{
    if (a <= TUI_ACT_NONE || a >= TUI_ACT_COUNT)
        return;
    const char *p = tui_actions[a].keys;
    while (*p) {
        while (*p == ' ')
            p++;
        size_t n = strcspn(p, " ");
        if (n == 0)
            break;
        char name[32];
        snprintf(name, sizeof name, "%.*s", (int)n, p);
        fn(tui_key_parse(name), name, ctx);
        p += n;
    }
}

struct find_ctx {
    int key;
    bool found;
};

static void match_key(int key, const char *name, void *ctx)
{
    (void)name;
    struct find_ctx *f = ctx;
    if (key == f->key)
        f->found = true;
}

static enum tui_action find_in(enum tui_scope scope, int key)
{
    for (int a = TUI_ACT_NONE + 1; a < TUI_ACT_COUNT; a++) {
        if (tui_actions[a].scope != scope)
            continue;
        struct find_ctx f = {.key = key};
        tui_action_keys((enum tui_action)a, match_key, &f);
        if (f.found)
            return (enum tui_action)a;
    }
    return TUI_ACT_NONE;
}

enum tui_action tui_action_for_key(enum tui_scope scope, int key)
{
    enum tui_action a = scope == TUI_SCOPE_GLOBAL ? TUI_ACT_NONE : find_in(scope, key);
    if (a == TUI_ACT_NONE && scope != TUI_SCOPE_SEARCH && scope != TUI_SCOPE_CONFIRM)
        a = find_in(TUI_SCOPE_GLOBAL, key);
    return a;
}

const char *tui_action_key_label(enum tui_action a)
{
    static char label[32];
    label[0] = '\0';
    if (a > TUI_ACT_NONE && a < TUI_ACT_COUNT) {
        const char *k = tui_actions[a].keys;
        snprintf(label, sizeof label, "%.*s", (int)strcspn(k, " "), k);
    }
    return label;
}
