/* The Compare view's every-host mode (m): checks x hosts, every host judged against the
 * baseline (side A) with the two-side rules, as `kladder compare A B C ...` prints it
 * (tui/compare_matrix.h). The Compare view owns one and hands it its keys, its drawing and its
 * status line while the mode is on. */
#ifndef KL_TUI_VIEWS_COMPARE_EVERY_HOST_H
#define KL_TUI_VIEWS_COMPARE_EVERY_HOST_H

#include <stdbool.h>
#include <stddef.h>

#include "tui/actions.h"
#include "tui/compare_matrix.h"
#include "tui/views/list.h"

struct tui_app;

#define EVERY_HOST_MAX 16

struct every_host {
    char spec[EVERY_HOST_MAX][80]; /* what cdb_side_resolve takes; 0 the baseline */
    char name[EVERY_HOST_MAX][48];
    size_t n;
    struct cmp_matrix m;
    bool loaded;
    struct cmp_matrix_select sel;
    char search[256]; /* sel.text points here */
    size_t *vis, n_vis;
    struct tui_list list;
    int list_y0;
    char err[300];
};

void every_host_init(struct every_host *e);
void every_host_fini(struct every_host *e);
/* Reads the matrix of hosts spec[0..n) (spec[0] the baseline; at most EVERY_HOST_MAX) for
 * rung (-1 all); an error is kept for the drawing. */
void every_host_load(struct tui_app *app, struct every_host *e, const char *const *spec,
                     const char *const *name, size_t n, int rung);
/* The body from row y to ymax, x..x+w. */
void every_host_draw(struct tui_app *app, struct every_host *e, int y, int x, int w, int ymax);
/* s: name, differs, then each host's slowest rows; f: every row, rows where some host stands
 * out, then where host 1, 2, ... does; x clears; Enter opens the check in the baseline's run
 * (else the first host's that has it). Returns TUI_R_* or TUI_R_UNHANDLED. */
unsigned every_host_action(struct tui_app *app, struct every_host *e, enum tui_action act);
void every_host_status(struct tui_app *app, const struct every_host *e, char *buf, size_t len);
void every_host_search(struct every_host *e, const char *text);

#endif
