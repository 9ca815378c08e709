/* Themes: text files of semantic roles (themes/NAME.theme), each role with three forms — a
 * monochrome one (attributes only), an 8-colour one and a 256-colour one. The parser is pure
 * (no curses) so it can be tested alone; tui/term.c turns a parsed theme into curses attributes.
 *
 * File format, one role a line, '#' starts a comment:
 *
 *     # role          mono              8 colours            256 colours
 *     header          reverse,bold      black/cyan           231/24,bold
 *
 * mono is "normal" or a comma list of bold, dim, reverse, underline, standout, italic.
 * A colour form is FG/BG, optionally followed by ",attribute,...". FG and BG are "default" (the
 * terminal's own colour), a name (black red green yellow blue magenta cyan white) or a number:
 * 0-7 in the 8-colour form, 0-255 in the 256-colour form. Every role must appear exactly once. */
#ifndef KL_TUI_THEME_H
#define KL_TUI_THEME_H

#include <stdbool.h>
#include <stddef.h>

#include "tui/global.h"

/* ROLE(enum suffix, name in theme files) */
#define TUI_ROLES(ROLE)                                                                        \
    ROLE(NORMAL, "normal")                                                                     \
    ROLE(HEADER, "header")                                                                     \
    ROLE(TAB, "tab")                                                                           \
    ROLE(TAB_ACTIVE, "tab-active")                                                             \
    ROLE(TITLE, "title")                                                                       \
    ROLE(COLHEAD, "column-header")                                                             \
    ROLE(SELECTED, "selected")                                                                 \
    ROLE(SELECTED_INACTIVE, "selected-inactive")                                               \
    ROLE(OK, "ok")                                                                             \
    ROLE(WARN, "warn")                                                                         \
    ROLE(FAIL, "fail")                                                                         \
    ROLE(DIM, "dim")                                                                           \
    ROLE(BORDER, "border")                                                                     \
    ROLE(SEARCH_MATCH, "search-match")                                                         \
    ROLE(BADGE, "badge")                                                                       \
    ROLE(KEY, "key")                                                                           \
    ROLE(KEYBAR, "keybar")                                                                     \
    ROLE(STATUS, "status")                                                                     \
    ROLE(LINK, "link")                                                                         \
    ROLE(MARK, "mark")                                                                         \
    ROLE(GAP1, "gap1")                                                                         \
    ROLE(GAP2, "gap2")                                                                         \
    ROLE(GAP3, "gap3")                                                                         \
    ROLE(GAP4, "gap4")                                                                         \
    ROLE(GAP5, "gap5")                                                                         \
    ROLE(GAP6, "gap6")                                                                         \
    ROLE(GAP7, "gap7")

enum tui_role {
#define TUI_ROLE_ENUM(id, name) TUI_ROLE_##id,
    TUI_ROLES(TUI_ROLE_ENUM)
#undef TUI_ROLE_ENUM
    TUI_ROLE_COUNT
};

/* Attribute flags of a style (mapped to A_* by tui/term.c). */
enum {
    TUI_ATTR_BOLD = 1 << 0,
    TUI_ATTR_DIM = 1 << 1,
    TUI_ATTR_REVERSE = 1 << 2,
    TUI_ATTR_UNDERLINE = 1 << 3,
    TUI_ATTR_STANDOUT = 1 << 4,
    TUI_ATTR_ITALIC = 1 << 5,
};

#define TUI_COLOR_DEFAULT (-1)

struct tui_style {
    unsigned attrs; /* TUI_ATTR_* */
    short fg, bg;   /* colour numbers, TUI_COLOR_DEFAULT for the terminal's own */
};

enum tui_color_mode { TUI_COLOR_MONO, TUI_COLOR_8, TUI_COLOR_256 };

struct tui_theme {
    char name[32];
    struct tui_style form[3][TUI_ROLE_COUNT]; /* indexed by enum tui_color_mode */
};

/* Name of a role in theme files ("search-match"). */
const char *tui_role_name(enum tui_role r);

/* Parses the text of a theme file. `file` names it in messages ("themes/light.theme:12: ...").
 * Returns 0, or -1 with a message in err that names the file, the line and what is wrong. */
int tui_theme_parse(const char *text, const char *file, struct tui_theme *out, char *err,
                    size_t errlen);

/* The built-in themes, in the order `t` cycles through them; NULL-terminated. */
extern const char *const tui_theme_names[];

/* Loads a built-in theme by name (embedded "themes/NAME.theme"), or, when name contains a '/',
 * the theme file at that path. */
int tui_theme_load(const char *name, struct tui_theme *out, char *err, size_t errlen);

/* The themes `t` cycles through: the built-in ones in their order, then the user's own, one per
 * file NAME.theme in user_dir (NULL or missing: none), sorted by name. A user file named like a
 * built-in theme takes that theme's place. NAME is 1 to 31 characters of [A-Za-z0-9._-] not
 * starting with '.'; other files are passed over. Free with tui_theme_list_free. */
struct tui_theme_entry {
    char name[32];
    char *path; /* the user's file; NULL for a built-in theme */
};
struct tui_theme_entry *tui_theme_list(const char *user_dir, size_t *n);
void tui_theme_list_free(struct tui_theme_entry *list, size_t n);
/* Loads an entry of the list: the user's file or the built-in theme. */
int tui_theme_entry_load(const struct tui_theme_entry *e, struct tui_theme *out, char *err,
                         size_t errlen);

/* Which form to use. --color=never gives monochrome and --color=always colour (it wins over
 * NO_COLOR); auto gives monochrome when NO_COLOR is set and non-empty. Colour also needs a
 * terminal that has it; 256 colours when it reports at least 256. */
enum tui_color_mode tui_theme_color_mode(enum cli_color opt, const char *no_color,
                                         bool has_colors, int colors);

#endif
