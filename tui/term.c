#define _XOPEN_SOURCE_EXTENDED 1
#include "tui/term.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <wchar.h>

#include "common/fileio.h"
#include "common/text.h"
#include "tui/actions.h"

static SCREEN *screen;
static FILE *null_out, *null_in;
static attr_t role_attr[TUI_ROLE_COUNT];

/* Ctrl-C on the terminal: the interface's own key, not the end of the process. Dying on the
 * signal left a run it had started going on (its own process group) and recording a result
 * nobody saw; the key comes back from tui_term_read as ^C, which the action table makes Quit,
 * so it asks first as q does. */
static volatile sig_atomic_t interrupted;
static struct sigaction sigint_before;
static bool sigint_ours;

static void on_sigint(int sig)
{
    (void)sig;
    interrupted = 1;
}

static void catch_sigint(void)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_sigint;
    sigemptyset(&sa.sa_mask);
    sa.sa_flags = 0; /* no SA_RESTART: a wait for a key or a child returns at once */
    sigint_ours = sigaction(SIGINT, &sa, &sigint_before) == 0;
}

int tui_term_start(bool headless, int rows, int cols, char *err, size_t errlen)
{
    bool user_delay = getenv("ESCDELAY") != NULL;
    const char *term = getenv("TERM");
    if (!term || !*term)
        term = headless ? "xterm-256color" : NULL;
    if (headless) {
        /* curses reads the size from LINES/COLUMNS when the output is not a terminal. */
        char buf[16];
        snprintf(buf, sizeof buf, "%d", rows);
        setenv("LINES", buf, 1);
        snprintf(buf, sizeof buf, "%d", cols);
        setenv("COLUMNS", buf, 1);
        null_out = fopen("/dev/null", "w");
        null_in = fopen("/dev/null", "r");
        if (!null_out || !null_in) {
            snprintf(err, errlen, "cannot open /dev/null: %s", strerror(errno));
            return -1;
        }
        screen = newterm(term, null_out, null_in);
    } else {
        screen = newterm(term, stdout, stdin);
    }
    if (!screen) {
        snprintf(err, errlen, "cannot use the terminal (TERM=%s): is it a known terminal type?",
                 term ? term : "unset");
        tui_term_end();
        return -1;
    }
    set_term(screen);
    /* Esc alone must feel instant; a user's own ESCDELAY wins. */
    if (!user_delay)
        set_escdelay(25);
    cbreak();
    noecho();
    nonl();
    keypad(stdscr, TRUE);
    curs_set(0);
    if (has_colors()) {
        start_color();
        use_default_colors();
    }
    /* KLADDER_MOUSE=off leaves the mouse to the terminal: its own selection and scrolling */
    const char *mouse = getenv("KLADDER_MOUSE");
    bool mouse_off = mouse && (strcmp(mouse, "off") == 0 || strcmp(mouse, "0") == 0 ||
                               strcmp(mouse, "no") == 0);
    if (!headless)
        catch_sigint();
    if (!headless && !mouse_off) {
        mousemask(BUTTON1_PRESSED | BUTTON1_CLICKED | BUTTON4_PRESSED
#if NCURSES_MOUSE_VERSION > 1
                      | BUTTON5_PRESSED
#endif
                  ,
                  NULL);
        mouseinterval(0);
    }
    return 0;
}

void tui_term_end(void)
{
    if (sigint_ours)
        sigaction(SIGINT, &sigint_before, NULL);
    sigint_ours = false;
    if (screen) {
        endwin();
        delscreen(screen);
        screen = NULL;
    }
    if (null_out)
        fclose(null_out);
    if (null_in)
        fclose(null_in);
    null_out = null_in = NULL;
}

bool tui_term_has_colors(void)
{
    return screen && has_colors();
}

int tui_term_colors(void)
{
    return screen ? COLORS : 0;
}

static attr_t attrs_of(unsigned a)
{
    attr_t r = A_NORMAL;
    if (a & TUI_ATTR_BOLD)
        r |= A_BOLD;
    if (a & TUI_ATTR_DIM)
        r |= A_DIM;
    if (a & TUI_ATTR_REVERSE)
        r |= A_REVERSE;
    if (a & TUI_ATTR_UNDERLINE)
        r |= A_UNDERLINE;
    if (a & TUI_ATTR_STANDOUT)
        r |= A_STANDOUT;
#ifdef A_ITALIC
    if (a & TUI_ATTR_ITALIC)
        r |= A_ITALIC;
#endif
    return r;
}

void tui_term_apply(const struct tui_theme *t, enum tui_color_mode mode)
{
    bool color = mode != TUI_COLOR_MONO && tui_term_has_colors();
    for (int r = 0; r < TUI_ROLE_COUNT; r++) {
        const struct tui_style *s = &t->form[color ? mode : TUI_COLOR_MONO][r];
        role_attr[r] = attrs_of(s->attrs);
        if (color && r + 1 < COLOR_PAIRS) {
            init_pair((short)(r + 1), s->fg, s->bg);
            role_attr[r] |= COLOR_PAIR(r + 1);
        }
    }
    if (screen)
        bkgdset(' ' | role_attr[TUI_ROLE_NORMAL]);
}

attr_t tui_term_attr(enum tui_role r)
{
    return (unsigned)r < TUI_ROLE_COUNT ? role_attr[r] : A_NORMAL;
}

void tui_term_read(struct tui_event *ev)
{
    (void)tui_term_read_timeout(ev, -1);
}

bool tui_term_read_timeout(struct tui_event *ev, int ms)
{
    memset(ev, 0, sizeof *ev);
    wtimeout(stdscr, ms);
    for (;;) {
        if (interrupted) {
            interrupted = 0;
            wtimeout(stdscr, -1);
            ev->kind = TUI_EV_KEY;
            ev->key = TUI_KEY_INTERRUPT;
            return true;
        }
        wint_t wc;
        int rc = wget_wch(stdscr, &wc);
        if (rc == ERR && ms >= 0 && !interrupted) {
            wtimeout(stdscr, -1);
            return false;
        }
        if (rc == ERR)
            continue;
        if (rc == KEY_CODE_YES) {
            switch (wc) {
            case KEY_RESIZE:
                ev->kind = TUI_EV_RESIZE;
                ev->y = LINES;
                ev->x = COLS;
                return true;
            case KEY_MOUSE: {
                MEVENT me;
                if (getmouse(&me) != OK)
                    continue;
                ev->kind = TUI_EV_MOUSE;
                ev->y = me.y;
                ev->x = me.x;
                if (me.bstate & BUTTON4_PRESSED)
                    ev->wheel = -1;
#if NCURSES_MOUSE_VERSION > 1
                else if (me.bstate & BUTTON5_PRESSED)
                    ev->wheel = 1;
#endif
                else if (!(me.bstate & (BUTTON1_PRESSED | BUTTON1_CLICKED)))
                    continue;
                return true;
            }
            case KEY_ENTER:
                ev->kind = TUI_EV_KEY;
                ev->key = TUI_KEY_ENTER;
                return true;
            default:
                ev->kind = TUI_EV_KEY;
                ev->key = TUI_KEY_FN((int)wc);
                return true;
            }
        }
        ev->kind = TUI_EV_KEY;
        if (wc == '\r')
            wc = '\n';
        if (wc == 127 || wc == 8)
            ev->key = TUI_KEY_FN(KEY_BACKSPACE);
        else
            ev->key = (int)wc;
        return true;
    }
}

void tui_term_resize(int rows, int cols)
{
    resizeterm(rows, cols);
}

int tui_term_save_screen(const char *path, char *err, size_t errlen)
{
    int rows = LINES, cols = COLS;
    size_t cap = (size_t)rows * ((size_t)cols * 4 * CCHARW_MAX + 1) + 1, o = 0;
    char *buf = malloc(cap);
    if (!buf) {
        snprintf(err, errlen, "out of memory saving the screen");
        return -1;
    }
    for (int y = 0; y < rows; y++) {
        size_t last_nonspace = o;
        for (int x = 0; x < cols;) {
            cchar_t cc;
            wchar_t wch[CCHARW_MAX + 1] = {0};
            attr_t a;
            short pair;
            int w = 1;
            if (mvwin_wch(stdscr, y, x, &cc) == OK &&
                getcchar(&cc, wch, &a, &pair, NULL) != ERR && wch[0]) {
                for (int k = 0; k < CCHARW_MAX && wch[k]; k++) {
                    char u[5];
                    size_t len = text_encode((uint32_t)wch[k], u);
                    memcpy(buf + o, u, len);
                    o += len;
                }
                w = text_cp_width((uint32_t)wch[0]);
                if (w < 1)
                    w = 1;
                if (wch[0] != L' ')
                    last_nonspace = o;
            } else {
                buf[o++] = ' ';
            }
            x += w;
        }
        o = last_nonspace;
        buf[o++] = '\n';
    }
    int rc = file_write_atomic(path, buf, o, err, errlen);
    free(buf);
    return rc;
}
