/* The seam of a rung 3 check beside its detail (tui/views/run_seam.h). */
#include "tui/views/run_seam.h"

#include <stdio.h>
#include <string.h>

#include "common/text.h"
#include "engine/rung.h"
#include "tui/draw.h"
#include "tui/results_fmt.h"

static const char digits[] = "0123456789";

bool tui_seam_one_number_apart(const char *a, const char *b)
{
    int differ = 0;
    while (*a && *b) {
        size_t la = strspn(a, digits), lb = strspn(b, digits);
        if (la && lb) {
            differ += la != lb || strncmp(a, b, la) != 0;
            a += la, b += lb;
        } else if (*a == *b) {
            a++, b++;
        } else {
            return false;
        }
    }
    return !*a && !*b && differ == 1;
}

static bool same(const char *a, const char *b) { return a && b && !strcmp(a, b); }

const struct cdb_check *tui_seam_neighbour(const struct cdb_check *checks, size_t n, size_t sel)
{
    const struct cdb_check *k = sel < n ? &checks[sel] : NULL;
    const struct eng_rung *R = k ? eng_rung_find(k->rung) : NULL;
    if (!R || !R->seam_neighbours || k->verdict != CDB_FAIL || !k->check)
        return NULL; /* a rung whose checks are one seam's sides (its entry says so: rung 3) */
    for (size_t i = 0; i < n; i++) {
        const struct cdb_check *c = &checks[i];
        if (i != sel && c->verdict == CDB_PASS && c->rung == k->rung && same(c->suite, k->suite) &&
            same(c->variant, k->variant) && c->check &&
            tui_seam_one_number_apart(c->check, k->check))
            return c;
    }
    return NULL;
}

static bool recorded(const struct cdb_check *k)
{
    return k->seam && *k->seam && k->seam_a && k->seam_b;
}

int tui_seam_lines(const struct cdb_check *checks, size_t n, size_t sel)
{
    if (sel >= n)
        return 0;
    return (recorded(&checks[sel]) ? 3 : 0) + (tui_seam_neighbour(checks, n, sel) ? 3 : 0);
}

/* "label: value" as its two parts, split at the last ": " (the whole text is the value when
 * there is none). */
static void split_side(const char *side, char *label, size_t ll, char *value, size_t vl)
{
    const char *cut = NULL;
    for (const char *p = strstr(side, ": "); p; p = strstr(p + 1, ": "))
        cut = p;
    if (!cut) {
        snprintf(label, ll, "%s", "");
        snprintf(value, vl, "%s", side);
        return;
    }
    snprintf(label, ll, "%.*s", (int)(cut - side), side);
    snprintf(value, vl, "%s", cut + 2);
}

/* One line of two cells side by side from x0: left and right, a bar between them. */
static int pair(int y, int x0, int half, enum tui_role rl, const char *l, enum tui_role rr,
                const char *r)
{
    tui_draw_text(y, x0, half, rl, l);
    tui_draw_text(y, x0 + half + 1, 1, TUI_ROLE_BORDER, tui_glyph(TUI_GLYPH_VLINE));
    tui_draw_text(y, x0 + half + 3, half, rr, r);
    return y + 1;
}

int tui_seam_draw(struct tui_app *app, const struct cdb_check *checks, size_t n, size_t sel,
                  int y, int x, int w, int ymax)
{
    if (sel >= n)
        return y;
    const struct cdb_check *k = &checks[sel];
    const int key_w = 7; /* the detail's keys ("Oracle") and a space */
    int x0 = x + key_w, half = (w - key_w - 3) / 2;
    if (half < 8)
        return y;
    if (recorded(k) && y + 2 < ymax) {
        char la[192], va[192], lb[192], vb[192];
        split_side(k->seam_a, la, sizeof la, va, sizeof va);
        split_side(k->seam_b, lb, sizeof lb, vb, sizeof vb);
        tui_draw_text(y, x, key_w, TUI_ROLE_COLHEAD, tui_tr(app, "Seam", "接缝"));
        const char *what = !strcmp(k->seam, "wave")     ? tui_tr(app, "wave: what the kernel was built for beside what it runs at", "波前宽度：内核构建时的假设与实际运行的对照")
                           : !strcmp(k->seam, "values") ? tui_tr(app, "values: the first element that differs, the kernel's beside the reference's", "数值：第一个不同的元素，内核与参考实现对照")
                                                        : k->seam;
        tui_draw_text(y++, x0, w - key_w, TUI_ROLE_DIM, what);
        y = pair(y, x0, half, TUI_ROLE_DIM, la, TUI_ROLE_DIM, lb);
        y = pair(y, x0, half, TUI_ROLE_FAIL, va, TUI_ROLE_OK, vb);
    }
    const struct cdb_check *nb = tui_seam_neighbour(checks, n, sel);
    if (nb && y + 2 < ymax) {
        char vk[48], vn[48], dk[512], dn[512];
        bool zh = app->lang == TUI_LANG_ZH;
        tui_fmt_verdict_lang(k->verdict, zh, vk, sizeof vk);
        tui_fmt_verdict_lang(nb->verdict, zh, vn, sizeof vn);
        tui_draw_text(y, x, key_w, TUI_ROLE_COLHEAD, tui_tr(app, "Beside", "对照"));
        y = pair(y, x0, half, TUI_ROLE_NORMAL, k->check, TUI_ROLE_NORMAL, nb->check);
        snprintf(dk, sizeof dk, "%s: %s", vk, k->detail && *k->detail ? k->detail : "");
        snprintf(dn, sizeof dn, "%s%s%s", vn, nb->detail && *nb->detail ? ": " : "",
                 nb->detail ? nb->detail : "");
        y = pair(y, x0, half, tui_verdict_role(k->verdict), dk, tui_verdict_role(nb->verdict), dn);
        snprintf(dk, sizeof dk, "%s", k->shape ? k->shape : "");
        snprintf(dn, sizeof dn, "%s", nb->shape ? nb->shape : "");
        y = pair(y, x0, half, TUI_ROLE_DIM, dk, TUI_ROLE_DIM, dn);
    }
    return y;
}
