/* Actions of the interactive interface, generated from tui/actions.def: the enum, the key map,
 * the help texts and the key bar labels all come from that one table. Pure (no curses), so the
 * table can be checked by tests/unit/test_actions.c.
 *
 * Keys are ints: a Unicode code point for a typed character, or TUI_KEY_FN(curses KEY_*) for a
 * function key. */
#ifndef KL_TUI_ACTIONS_H
#define KL_TUI_ACTIONS_H

#include <stdbool.h>
#include <stddef.h>

/* Where keys work: everywhere, the two modal prompts, nowhere but GLOBAL (a view with no keys of
 * its own), and one scope per view of tui/views.def, named by its id, for the keys a view has
 * of its own (its ops.scope). */
enum tui_scope {
    TUI_SCOPE_GLOBAL,
    TUI_SCOPE_SEARCH,
    TUI_SCOPE_CONFIRM, /* a y/n question: modal, like SEARCH */
    TUI_SCOPE_NONE,    /* a view with no keys of its own */
#define VIEW(id, ops, tab_en, tab_zh, parent) TUI_SCOPE_##id,
#include "tui/views.def"
#undef VIEW
};

enum tui_action {
    TUI_ACT_NONE,
#define ACT(id, scope, keys, bar_en, bar_zh, help_en, help_zh) TUI_ACT_##id,
#include "tui/actions.def"
#undef ACT
    TUI_ACT_COUNT
};

struct tui_action_info {
    enum tui_action id;
    enum tui_scope scope;
    const char *keys;           /* key names separated by spaces */
    const char *bar[2];         /* key bar label, [0] English [1] Chinese; NULL: not in the bar */
    const char *help[2];        /* help text */
};

/* Indexed by enum tui_action; entry 0 (TUI_ACT_NONE) is empty. */
extern const struct tui_action_info tui_actions[TUI_ACT_COUNT];

/* Handlers return what must happen next: a bitmask. */
enum {
    TUI_R_NONE = 0,
    TUI_R_DRAW = 1 << 0,     /* redraw the screen */
    TUI_R_QUIT = 1 << 1,     /* leave the program */
    TUI_R_UNHANDLED = 1 << 2 /* the view did not use the action: the generic handler may */
};

/* Function keys (curses KEY_* codes) live above every Unicode code point. */
#define TUI_KEY_FN(k) (0x1000000 | (k))
#define TUI_KEY_ENTER '\n'
#define TUI_KEY_ESC 27
#define TUI_KEY_TAB '\t'
#define TUI_KEY_INTERRUPT 3 /* ^C: the terminal's interrupt, caught by tui/term.c */

/* Parses one key name ("j", "Enter", "^L", "PgDn", "F1", "中") into a key; -1 when unknown. */
int tui_key_parse(const char *name);

/* A person-readable name of a key ("Enter", "j", "^L"); buf of at least 16 bytes. */
const char *tui_key_name(int key, char *buf, size_t len);

/* The action bound to key: first in `scope`, then (unless scope is modal: SEARCH, CONFIRM) in
 * GLOBAL.
 * TUI_ACT_NONE when unbound. */
enum tui_action tui_action_for_key(enum tui_scope scope, int key);

/* Calls fn for each key name of action a (the parsed key and its name). */
void tui_action_keys(enum tui_action a, void (*fn)(int key, const char *name, void *ctx),
                     void *ctx);

/* The first key name of action a, e.g. "Enter" (static storage, valid until the next call). */
const char *tui_action_key_label(enum tui_action a);

#endif
