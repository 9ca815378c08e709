/* A machine's fingerprint: every field a run records about the exact machine (host, backend,
 * device, target, wave size, compute units, memory, driver, runtime and compiler versions,
 * partitions, the kladder build), and how many recorded runs used it. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "casedb/results_query.h"
#include "common/xalloc.h"
#include "tui/draw.h"
#include "tui/views/view.h"

struct machine_state {
    char id[40];
    struct cdb_machine_list ml;
    const struct cdb_machine *m; /* into ml, NULL when not found */
    bool loaded;
};

static void *machine_init(struct tui_app *app)
{
    (void)app;
    return xcalloc(1, sizeof(struct machine_state));
}

static void machine_fini(void *state)
{
    struct machine_state *s = state;
    if (s->loaded)
        cdb_machine_list_free(&s->ml);
    free(s);
}

static bool machine_open(struct tui_app *app, void *state, const struct tui_open *what)
{
    struct machine_state *s = state;
    const char *machine_id = what->id;
    if (s->loaded)
        cdb_machine_list_free(&s->ml);
    memset(&s->ml, 0, sizeof s->ml);
    s->m = NULL;
    s->loaded = false;
    snprintf(s->id, sizeof s->id, "%s", machine_id ? machine_id : "");
    char err[512];
    if (cdb_machines_query(app->db, NULL, &s->ml, err, sizeof err) != 0) {
        tui_app_message(app, "%s", err);
    } else {
        s->loaded = true;
        for (size_t i = 0; i < s->ml.n; i++)
            if (strcmp(s->ml.items[i].id, s->id) == 0)
                s->m = &s->ml.items[i];
    }
    tui_runs_push(app, TUI_VIEW_MACHINE);
    return true;
}

static void machine_draw(struct tui_app *app, void *state)
{
    struct machine_state *s = state;
    const struct tui_rect *r = &app->lay.body;
    int y = r->y, x = r->x + 1, w = r->w - 2, ymax = r->y + r->h;
    char buf[256];
    snprintf(buf, sizeof buf, "%s %s", tui_tr(app, "Machine", "机器"), s->id);
    tui_draw_text(y++, x, w, TUI_ROLE_TITLE, buf);
    y++;
    const struct cdb_machine *m = s->m;
    if (!m) {
        tui_draw_text(y, x, w, TUI_ROLE_DIM,
                      tui_tr(app, "This machine is not in the database.", "数据库中没有这台机器。"));
        return;
    }
    char cu[32], mem[32], wave[16];
    if (m->compute_units > 0)
        snprintf(cu, sizeof cu, "%d", m->compute_units);
    else
        snprintf(cu, sizeof cu, "n/a");
    if (m->mem_bytes > 0)
        snprintf(mem, sizeof mem, "%.1f GiB", (double)m->mem_bytes / (1024.0 * 1024 * 1024));
    else
        snprintf(mem, sizeof mem, "n/a");
    snprintf(wave, sizeof wave, "%d", m->wave_size);
    const struct {
        const char *k[2];
        const char *v;
    } rows[] = {
        {{"host", "主机"}, m->host},
        {{"backend", "后端"}, m->backend},
        {{"device", "设备"}, m->device},
        {{"target", "目标"}, m->target},
        {{"wave size", "波大小"}, wave},
        {{"compute units", "计算单元"}, cu},
        {{"memory", "显存"}, mem},
        {{"driver", "驱动"}, m->driver_version},
        {{"runtime", "运行时"}, m->runtime_version},
        {{"compiler", "编译器"}, m->compiler_version},
        {{"compute partition", "计算分区"}, m->compute_partition},
        {{"memory partition", "内存分区"}, m->memory_partition},
        {{"kladder", "kladder"}, m->kladder_version},
        {{"commit", "提交"}, m->kladder_commit},
    };
    int kw = 20;
    for (size_t i = 0; i < sizeof rows / sizeof rows[0] && y < ymax; i++, y++) {
        tui_draw_pad(y, x, kw, TUI_ROLE_COLHEAD, rows[i].k[app->lang == TUI_LANG_ZH]);
        tui_draw_text(y, x + kw, w - kw, rows[i].v ? TUI_ROLE_NORMAL : TUI_ROLE_DIM,
                      rows[i].v && *rows[i].v ? rows[i].v : "n/a");
    }
    if (y + 1 < ymax)
        tui_draw_text(y + 1, x, w, TUI_ROLE_DIM,
                      tui_tr(app, "The id is a hash of every field above: one host with two GPUs "
                                  "has two machines.",
                             "编号是以上所有字段的哈希：一台主机有两块 GPU 就是两台机器。"));
}

static unsigned machine_action(struct tui_app *app, void *state, enum tui_action act)
{
    (void)state;
    if (act == TUI_ACT_BACK || act == TUI_ACT_QUIT) {
        tui_runs_pop(app);
        return TUI_R_DRAW;
    }
    return TUI_R_UNHANDLED;
}

static void machine_status(struct tui_app *app, void *state, char *buf, size_t len)
{
    (void)state;
    snprintf(buf, len, "%s", tui_tr(app, "The machine's fingerprint · Esc back", "机器指纹 · Esc 返回"));
}

const struct tui_view_ops tui_view_machine = {
    .name = "machine",
    .scope = TUI_SCOPE_NONE,
    .init = machine_init,
    .fini = machine_fini,
    .draw = machine_draw,
    .action = machine_action,
    .status = machine_status,
    .open = machine_open,
};
