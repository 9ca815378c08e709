/* Launching a run from the interface, and watching it.
 *
 * The launch panel (r on a case, a case's detail or a dashboard cell) offers what to run — the
 * case's suites and rungs, or the reproducers of a cell — and the backend, device, variants,
 * repeats and time limit; the backends and devices come from `kladder devices --json` run as a
 * child, so no GPU runtime is ever initialised in this process. Enter spawns `kladder run …
 * --events 3` on the same database (argv, no shell).
 *
 * The live view follows the run's event lines (start, check-start, check-done, end): checks
 * done of total, the current check, the elapsed time, a progress bar and each verdict as it
 * arrives. x or Esc cancels: SIGTERM, on which kladder run stops its worker, records the checks
 * not run as cancelled and the run as cancelled; if it had to be killed before it could, the
 * run is marked cancelled here (cdb_run_finish), and the checks it finished stay recorded.
 *
 * Suites of one's own: KLADDER_SUITE_PATH lists manifest files (separated by ':'); each one
 * whose "case" names a case of the index is offered for that case and its cell. */
#include <cJSON.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "casedb/results.h"
#include "casedb/results_query.h"
#include "common/text.h"
#include "common/xalloc.h"
#include "engine/manifest.h"
#include "engine/watchdog.h"
#include "tui/child.h"
#include "tui/draw.h"
#include "tui/list.h"
#include "tui/view.h"

int tui_kladder_argv(const struct tui_app *app, const char **argv, int max)
{
    int n = 0;
    if (n < max)
        argv[n++] = eng_self_exe(app->g->argv0);
    if (app->g->db_path && n + 2 <= max) {
        argv[n++] = "--db";
        argv[n++] = app->g->db_path;
    }
    return n;
}

/* ---- the launch panel ---- */

struct target {
    char *label;
    char *args[4]; /* --case ID, or --rung N --suite NAME|PATH */
    int nargs;
};

struct backend_opt {
    char name[8];
    bool available;
    char reason[200];
    int n_devices;
    char devices[8][96];
};

enum field { F_TARGET, F_BACKEND, F_DEVICE, F_VARIANT, F_REPEATS, F_TIMEOUT, F_COUNT };

static const char *const variants[] = {"both", "fixed", "buggy"};
static const int repeat_opts[] = {0, 1, 10, 100, 1000, 10000};
static const int timeout_opts[] = {60, 5, 10, 30, 120, 300, 600};
#define N_OF(a) ((int)(sizeof(a) / sizeof((a)[0])))

struct launch_state {
    char title[200];
    struct target *targets;
    int n_targets, target;
    int field;
    /* the device probe */
    struct tui_child *probe;
    char *probe_out;
    bool probed;
    char probe_err[300];
    struct backend_opt backends[4];
    int n_backends;
    int backend; /* 0 auto, else 1 + index into backends */
    int device;
    int variant, repeats, timeout;
    enum tui_view_id back_to; /* where Esc returns */
};

static void targets_free(struct launch_state *s)
{
    for (int i = 0; i < s->n_targets; i++) {
        free(s->targets[i].label);
        for (int k = 0; k < s->targets[i].nargs; k++)
            free(s->targets[i].args[k]);
    }
    free(s->targets);
    s->targets = NULL;
    s->n_targets = s->target = 0;
}

static void target_add(struct launch_state *s, char *label, const char *a0, const char *a1,
                       const char *a2, const char *a3)
{
    s->targets = xrealloc(s->targets, (size_t)(s->n_targets + 1) * sizeof *s->targets);
    struct target *t = &s->targets[s->n_targets++];
    memset(t, 0, sizeof *t);
    t->label = label;
    const char *a[4] = {a0, a1, a2, a3};
    for (int k = 0; k < 4 && a[k]; k++)
        t->args[t->nargs++] = xstrdup(a[k]);
}

static void *launch_init(struct tui_app *app)
{
    (void)app;
    return xcalloc(1, sizeof(struct launch_state));
}

static void launch_fini(void *state)
{
    struct launch_state *s = state;
    targets_free(s);
    tui_child_free(s->probe);
    free(s->probe_out);
    free(s);
}

/* Calls fn for every suite manifest: the built-in ones, then KLADDER_SUITE_PATH's. */
static void each_manifest(void (*fn)(void *ctx, const struct eng_manifest *m, const char *spec),
                          void *ctx)
{
    size_t n;
    const char **files = eng_manifest_list(&n);
    for (size_t i = 0; i < n; i++) {
        const char *slash = strrchr(files[i], '/');
        char *name = xstrdup(slash ? slash + 1 : files[i]);
        size_t len = strlen(name);
        if (len > 5 && strcmp(name + len - 5, ".json") == 0)
            name[len - 5] = '\0';
        char err[512];
        struct eng_manifest *m = eng_manifest_load(name, NULL, err, sizeof err);
        if (m)
            fn(ctx, m, name);
        eng_manifest_free(m);
        free(name);
    }
    free(files);
    const char *env = getenv("KLADDER_SUITE_PATH");
    if (!env || !*env)
        return;
    char *list = xstrdup(env), *save = NULL;
    for (char *p = strtok_r(list, ":", &save); p; p = strtok_r(NULL, ":", &save)) {
        char err[512];
        struct eng_manifest *m = eng_manifest_load(p, NULL, err, sizeof err);
        if (m)
            fn(ctx, m, p);
        eng_manifest_free(m);
    }
    free(list);
}

static bool engine_rung(int r)
{
    return r == 1 || r == 4 || r == 5;
}

struct collect {
    struct launch_state *s;
    const char *case_id;     /* for a case */
    const struct cdb_case_list *cell; /* for a cell: its cases */
    int rung;                /* for a cell */
    int builtin;             /* suites of the case that --case would run */
};

static bool in_cell(const struct collect *c, const char *case_id)
{
    for (size_t i = 0; c->cell && i < c->cell->n; i++)
        if (strcmp(c->cell->items[i].id, case_id) == 0)
            return true;
    return false;
}

static void collect_one(void *ctx, const struct eng_manifest *m, const char *spec)
{
    struct collect *c = ctx;
    if (!m->case_id)
        return;
    bool builtin = !strchr(spec, '/') && !strstr(spec, ".json");
    for (int r = 1; r <= 8; r++) {
        if (!m->has_rung[r] || !engine_rung(r))
            continue;
        if (c->case_id && strcmp(m->case_id, c->case_id) != 0)
            continue;
        if (!c->case_id && (r != c->rung || !in_cell(c, m->case_id)))
            continue;
        if (c->case_id && builtin)
            c->builtin++;
        char rs[16];
        snprintf(rs, sizeof rs, "%d", r);
        target_add(c->s, xasprintf("%s · rung %d%s%s", m->name, r, builtin ? "" : " · ",
                                   builtin ? "" : spec),
                   "--rung", rs, "--suite", spec);
    }
}

static void probe_line(struct tui_app *app, void *ctx, enum tui_child_stream st, const char *line)
{
    (void)app, (void)st;
    struct launch_state *s = ctx;
    char *old = s->probe_out;
    s->probe_out = xasprintf("%s%s\n", old ? old : "", line);
    free(old);
}

static void probe_exit(struct tui_app *app, void *ctx)
{
    (void)app;
    struct launch_state *s = ctx;
    s->probed = true;
    s->n_backends = 0;
    cJSON *j = s->probe_out ? cJSON_Parse(s->probe_out) : NULL;
    if (!cJSON_IsArray(j)) {
        snprintf(s->probe_err, sizeof s->probe_err, "kladder devices gave no list (status %d)",
                 tui_child_status(s->probe));
    }
    for (const cJSON *b = j ? j->child : NULL; b && s->n_backends < N_OF(s->backends); b = b->next) {
        const cJSON *name = cJSON_GetObjectItemCaseSensitive(b, "backend");
        if (!cJSON_IsString(name))
            continue;
        struct backend_opt *o = &s->backends[s->n_backends++];
        memset(o, 0, sizeof *o);
        snprintf(o->name, sizeof o->name, "%s", name->valuestring);
        o->available = cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(b, "available"));
        const cJSON *why = cJSON_GetObjectItemCaseSensitive(b, "reason");
        if (cJSON_IsString(why))
            snprintf(o->reason, sizeof o->reason, "%s", why->valuestring);
        const cJSON *devs = cJSON_GetObjectItemCaseSensitive(b, "devices");
        for (const cJSON *d = devs ? devs->child : NULL; d && o->n_devices < 8; d = d->next) {
            const cJSON *dn = cJSON_GetObjectItemCaseSensitive(d, "name");
            const cJSON *tg = cJSON_GetObjectItemCaseSensitive(d, "target");
            snprintf(o->devices[o->n_devices++], sizeof o->devices[0], "%s%s%s",
                     cJSON_IsString(dn) ? dn->valuestring : "?", cJSON_IsString(tg) ? " · " : "",
                     cJSON_IsString(tg) ? tg->valuestring : "");
        }
    }
    cJSON_Delete(j);
    tui_child_free(s->probe);
    s->probe = NULL;
}

static void start_probe(struct tui_app *app, struct launch_state *s)
{
    if (s->probe || s->probed)
        return;
    const char *argv[6];
    int k = tui_kladder_argv(app, argv, 3);
    argv[k++] = "devices";
    argv[k++] = "--json";
    argv[k] = NULL;
    char err[300];
    s->probe = tui_child_spawn(argv, false, err, sizeof err);
    if (!s->probe) {
        snprintf(s->probe_err, sizeof s->probe_err, "%s", err);
        s->probed = true;
        return;
    }
    free(s->probe_out);
    s->probe_out = NULL;
    struct tui_job job = {.child = s->probe, .on_line = probe_line, .on_exit = probe_exit,
                          .ctx = s};
    if (!tui_app_watch(app, &job)) {
        tui_child_free(s->probe);
        s->probe = NULL;
        s->probed = true;
        snprintf(s->probe_err, sizeof s->probe_err, "too many tasks at once");
    }
}

static void open_panel(struct tui_app *app, struct launch_state *s)
{
    s->field = s->n_targets > 1 ? F_TARGET : F_BACKEND;
    s->back_to = app->view;
    start_probe(app, s);
    tui_runs_push(app, TUI_VIEW_LAUNCH);
}

static bool live_busy(struct tui_app *app);

void tui_launch_open_case(struct tui_app *app, const char *case_id)
{
    struct launch_state *s = app->state[TUI_VIEW_LAUNCH];
    if (live_busy(app))
        return;
    targets_free(s);
    struct collect c = {.s = s, .case_id = case_id};
    each_manifest(collect_one, &c);
    if (s->n_targets == 0) {
        if (app->lang == TUI_LANG_ZH)
            tui_app_message(app, "%s 没有复现套件（kladder run --list 列出全部）", case_id);
        else
            tui_app_message(app, "No reproducer suite for %s (kladder run --list shows them)", case_id);
        return;
    }
    if (c.builtin > 1) { /* several built-in suites or rungs: --case runs them all */
        target_add(s, NULL, "--case", case_id, NULL, NULL);
        struct target all = s->targets[s->n_targets - 1];
        memmove(s->targets + 1, s->targets, (size_t)(s->n_targets - 1) * sizeof *s->targets);
        s->targets[0] = all;
        s->targets[0].label = xasprintf("%s · every suite and rung (--case)", case_id);
    }
    snprintf(s->title, sizeof s->title, "%s %s", tui_tr(app, "Run case", "运行案例"), case_id);
    open_panel(app, s);
}

void tui_launch_open_cell(struct tui_app *app, int gap, int rung)
{
    struct launch_state *s = app->state[TUI_VIEW_LAUNCH];
    if (live_busy(app))
        return;
    if (!engine_rung(rung)) {
        if (app->lang == TUI_LANG_ZH)
            tui_app_message(app, "阶梯 %d 没有引擎检查；阶梯 1、4、5 有", rung);
        else
            tui_app_message(app, "Rung %d has no engine checks; rungs 1, 4 and 5 do", rung);
        return;
    }
    targets_free(s);
    struct cdb_case_filter f = {.gap = gap, .rung = rung};
    struct cdb_case_list cl = {0};
    char err[256];
    if (cdb_cases_query(app->db, &f, &cl, err, sizeof err) != 0) {
        tui_app_message(app, "%s", err);
        return;
    }
    struct collect c = {.s = s, .cell = &cl, .rung = rung};
    each_manifest(collect_one, &c);
    cdb_case_list_free(&cl);
    if (s->n_targets == 0) {
        if (app->lang == TUI_LANG_ZH)
            tui_app_message(app, "缺口 %d × 阶梯 %d 中没有带复现套件的案例", gap, rung);
        else
            tui_app_message(app, "No case of gap %d × rung %d has a reproducer suite", gap, rung);
        return;
    }
    snprintf(s->title, sizeof s->title, "%s %d × %s %d", tui_tr(app, "Run gap", "运行缺口"), gap,
             tui_tr(app, "rung", "阶梯"), rung);
    open_panel(app, s);
}

static const struct backend_opt *chosen_backend(const struct launch_state *s)
{
    return s->backend > 0 && s->backend <= s->n_backends ? &s->backends[s->backend - 1] : NULL;
}

/* The command line the panel would run; argv entries point into s or static strings. */
static int build_argv(struct tui_app *app, const struct launch_state *s, const char **argv,
                      char num[3][16])
{
    int k = tui_kladder_argv(app, argv, 3);
    argv[k++] = "run";
    const struct target *t = &s->targets[s->target];
    for (int i = 0; i < t->nargs; i++)
        argv[k++] = t->args[i];
    const struct backend_opt *b = chosen_backend(s);
    if (b) {
        argv[k++] = "--backend";
        argv[k++] = b->name;
        snprintf(num[0], 16, "%d", s->device);
        argv[k++] = "--device";
        argv[k++] = num[0];
    }
    argv[k++] = "--variant";
    argv[k++] = variants[s->variant];
    if (repeat_opts[s->repeats] > 0) {
        snprintf(num[1], 16, "%d", repeat_opts[s->repeats]);
        argv[k++] = "--repeat";
        argv[k++] = num[1];
    }
    snprintf(num[2], 16, "%d", timeout_opts[s->timeout]);
    argv[k++] = "--timeout";
    argv[k++] = num[2];
    argv[k++] = "--no-progress";
    argv[k++] = "--events";
    argv[k++] = "3";
    argv[k] = NULL;
    return k;
}

static void launch_draw(struct tui_app *app, void *state)
{
    struct launch_state *s = state;
    const struct tui_rect *r = &app->lay.body;
    int y = r->y, x = r->x + 1, w = r->w - 2, ymax = r->y + r->h;
    tui_draw_text(y++, x, w, TUI_ROLE_TITLE, s->title);
    y++;
    if (s->n_targets == 0)
        return;
    const struct backend_opt *b = chosen_backend(s);
    char val[F_COUNT][256];
    snprintf(val[F_TARGET], sizeof val[0], "%.200s", s->targets[s->target].label);
    snprintf(val[F_BACKEND], sizeof val[0], "%s", b ? b->name : tui_tr(app, "auto (hip, cuda, then cpu)",
                                                                  "自动（hip、cuda，然后 cpu）"));
    if (b && s->device < b->n_devices)
        snprintf(val[F_DEVICE], sizeof val[0], "%d · %s", s->device, b->devices[s->device]);
    else
        snprintf(val[F_DEVICE], sizeof val[0], "%s", b ? "0" : tui_tr(app, "the first", "第一个"));
    snprintf(val[F_VARIANT], sizeof val[0], "%s", variants[s->variant]);
    if (repeat_opts[s->repeats])
        snprintf(val[F_REPEATS], sizeof val[0], "%d", repeat_opts[s->repeats]);
    else
        snprintf(val[F_REPEATS], sizeof val[0], "%s", tui_tr(app, "from the suite's failure rate (rung 5)",
                                                            "按套件的失败率（阶梯 5）"));
    snprintf(val[F_TIMEOUT], sizeof val[0], "%d s %s", timeout_opts[s->timeout],
             tui_tr(app, "per check", "每项检查"));
    static const char *const names[F_COUNT][2] = {
        {"Run", "运行"}, {"Backend", "后端"}, {"Device", "设备"},
        {"Variants", "变体"}, {"Repeats", "重复次数"}, {"Time limit", "时限"}};
    for (int f = 0; f < F_COUNT && y < ymax; f++, y++) {
        bool sel = f == s->field;
        tui_draw_pad(y, x, 14, sel ? TUI_ROLE_SELECTED : TUI_ROLE_COLHEAD,
                     tui_tr(app, names[f][0], names[f][1]));
        char line[300];
        snprintf(line, sizeof line, " %s %.255s %s", tui_draw_ascii() ? "<" : "‹", val[f],
                 tui_draw_ascii() ? ">" : "›");
        tui_draw_pad(y, x + 15, w - 15, sel ? TUI_ROLE_SELECTED : TUI_ROLE_NORMAL, line);
    }
    y++;
    char line[400];
    if (!s->probed) {
        tui_draw_text(y++, x, w, TUI_ROLE_DIM, tui_tr(app, "Asking kladder devices which backends load…",
                                                      "正在用 kladder devices 查询可用后端…"));
    } else if (s->probe_err[0]) {
        tui_draw_text(y++, x, w, TUI_ROLE_WARN, s->probe_err);
    } else {
        for (int i = 0; i < s->n_backends && y < ymax; i++) {
            const struct backend_opt *o = &s->backends[i];
            if (o->available)
                snprintf(line, sizeof line, "%-5s %s: %d %s%s%s", o->name,
                         tui_tr(app, "available", "可用"), o->n_devices,
                         tui_tr(app, "device(s)", "个设备"), o->n_devices ? " · " : "",
                         o->n_devices ? o->devices[0] : "");
            else
                snprintf(line, sizeof line, "%-5s %s: %s", o->name, tui_tr(app, "unavailable", "不可用"),
                         o->reason);
            tui_draw_text(y++, x, w, o->available ? TUI_ROLE_NORMAL : TUI_ROLE_DIM, line);
        }
    }
    y++;
    const char *argv[24];
    char num[3][16];
    build_argv(app, s, argv, num);
    size_t o = 0;
    line[0] = '\0';
    for (int i = 0; argv[i] && o < sizeof line; i++) {
        const char *a = i == 0 ? "kladder" : argv[i];
        if (!strcmp(a, "--events") || (i > 0 && !strcmp(argv[i - 1], "--events")))
            continue;
        o += (size_t)snprintf(line + o, sizeof line - o, "%s%s", i ? " " : "", a);
    }
    if (y < ymax) {
        size_t n;
        char **lines = text_wrap(line, w, &n);
        for (size_t i = 0; i < n && y < ymax; i++)
            tui_draw_text(y++, x, w, TUI_ROLE_DIM, lines[i]);
        text_lines_free(lines, n);
    }
}

static void cycle(int *v, int n, int d)
{
    if (n <= 0)
        return;
    *v = ((*v + d) % n + n) % n;
}

static void live_start(struct tui_app *app, const char *const *argv);

static unsigned launch_action(struct tui_app *app, void *state, enum tui_action act)
{
    struct launch_state *s = state;
    int d = act == TUI_ACT_LEFT ? -1 : 1;
    switch (act) {
    case TUI_ACT_DOWN:
        cycle(&s->field, F_COUNT, 1);
        return TUI_R_DRAW;
    case TUI_ACT_UP:
        cycle(&s->field, F_COUNT, -1);
        return TUI_R_DRAW;
    case TUI_ACT_LEFT:
    case TUI_ACT_RIGHT:
        switch ((enum field)s->field) {
        case F_TARGET:
            cycle(&s->target, s->n_targets, d);
            break;
        case F_BACKEND:
            /* auto, then the backends that load */
            for (int i = 0; i <= s->n_backends; i++) {
                cycle(&s->backend, s->n_backends + 1, d);
                if (s->backend == 0 || s->backends[s->backend - 1].available)
                    break;
            }
            s->device = 0;
            break;
        case F_DEVICE: {
            const struct backend_opt *b = chosen_backend(s);
            cycle(&s->device, b ? b->n_devices : 1, d);
            break;
        }
        case F_VARIANT:
            cycle(&s->variant, N_OF(variants), d);
            break;
        case F_REPEATS:
            cycle(&s->repeats, N_OF(repeat_opts), d);
            break;
        case F_TIMEOUT:
            cycle(&s->timeout, N_OF(timeout_opts), d);
            break;
        case F_COUNT:
            break;
        }
        return TUI_R_DRAW;
    case TUI_ACT_OPEN: {
        const char *argv[24];
        char num[3][16];
        build_argv(app, s, argv, num);
        live_start(app, argv);
        return TUI_R_DRAW;
    }
    case TUI_ACT_BACK:
    case TUI_ACT_QUIT:
        tui_runs_pop(app);
        tui_app_show(app, s->back_to);
        return TUI_R_DRAW;
    default:
        return TUI_R_UNHANDLED;
    }
}

static void launch_status(struct tui_app *app, void *state, char *buf, size_t len)
{
    (void)state;
    snprintf(buf, len, "%s", tui_tr(app, "j/k choose a setting, h/l change it, Enter starts the run, Esc closes",
                                    "j/k 选择设置，h/l 修改，Enter 开始运行，Esc 关闭"));
}

const struct tui_view_ops tui_view_launch = {
    .name = "launch",
    .scope = TUI_SCOPE_NONE,
    .init = launch_init,
    .fini = launch_fini,
    .draw = launch_draw,
    .action = launch_action,
    .status = launch_status,
};

/* ---- the live run ---- */

struct live_check {
    int seq;
    int verdict;
    char *variant, *check, *shape, *detail;
    double median_us;
};

struct live_state {
    struct tui_child *child;
    char cmd[600];
    char run_id[40];
    char device[128];
    int total, done;
    char current[200];
    struct live_check *checks;
    size_t n, cap;
    bool ended;        /* the "end" event came */
    int verdict;       /* of the run, once known */
    bool met;
    bool finished;     /* the child is gone */
    int status;
    long elapsed_ms;   /* final, once finished */
    char error[600];   /* why it did not start or ended badly */
    bool cancel_asked;
    struct tui_list list;
};

static void live_clear(struct live_state *s)
{
    for (size_t i = 0; i < s->n; i++) {
        free(s->checks[i].variant);
        free(s->checks[i].check);
        free(s->checks[i].shape);
        free(s->checks[i].detail);
    }
    free(s->checks);
    tui_child_free(s->child);
    memset(s, 0, sizeof *s);
}

static void *live_init(struct tui_app *app)
{
    (void)app;
    return xcalloc(1, sizeof(struct live_state));
}

static void live_fini(void *state)
{
    live_clear(state);
    free(state);
}

static bool live_busy(struct tui_app *app)
{
    struct live_state *l = app->state[TUI_VIEW_LIVE];
    if (l->child && !l->finished) {
        tui_app_message(app, "%s", tui_tr(app, "A run is under way: one at a time (x cancels it)",
                                          "已有运行在进行：一次只能一个（x 取消）"));
        tui_runs_push(app, TUI_VIEW_LIVE);
        return true;
    }
    return false;
}

static const char *jstr(const cJSON *o, const char *k)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, k);
    return cJSON_IsString(v) ? v->valuestring : NULL;
}

static double jnum(const cJSON *o, const char *k, double dflt)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, k);
    return cJSON_IsNumber(v) ? v->valuedouble : dflt;
}

static void live_event(struct live_state *s, const cJSON *ev)
{
    const char *kind = jstr(ev, "event");
    if (!kind)
        return;
    if (!strcmp(kind, "start")) {
        snprintf(s->run_id, sizeof s->run_id, "%s", jstr(ev, "run_id") ? jstr(ev, "run_id") : "");
        double t = jnum(ev, "total", 0);
        s->total = t > 0 && t < 1e7 ? (int)t : 0;
        const cJSON *m = cJSON_GetObjectItemCaseSensitive(ev, "machine");
        const char *dev = m ? jstr(m, "device") : NULL, *tg = m ? jstr(m, "target") : NULL;
        snprintf(s->device, sizeof s->device, "%s%s%s", dev ? dev : "", tg ? " · " : "",
                 tg ? tg : "");
    } else if (!strcmp(kind, "check-start")) {
        const char *c = jstr(ev, "check"), *v = jstr(ev, "variant");
        snprintf(s->current, sizeof s->current, "%s%s%s", c ? c : "?", v ? " · " : "", v ? v : "");
    } else if (!strcmp(kind, "check-done")) {
        const cJSON *c = cJSON_GetObjectItemCaseSensitive(ev, "check");
        if (!cJSON_IsObject(c))
            return;
        if (s->n == s->cap) {
            s->cap = s->cap ? s->cap * 2 : 32;
            s->checks = xrealloc(s->checks, s->cap * sizeof *s->checks);
        }
        struct live_check *k = &s->checks[s->n++];
        k->seq = (int)jnum(ev, "seq", (double)s->n - 1);
        int v = jstr(c, "verdict") ? cdb_verdict_parse(jstr(c, "verdict")) : -1;
        k->verdict = v < 0 ? CDB_ERROR : v;
        k->variant = xstrdup_or_null(jstr(c, "variant"));
        k->check = xstrdup_or_null(jstr(c, "check"));
        k->shape = xstrdup_or_null(jstr(c, "shape"));
        k->detail = xstrdup_or_null(jstr(c, "detail"));
        const cJSON *t = cJSON_GetObjectItemCaseSensitive(c, "time_us");
        k->median_us = NAN;
        if (t)
            k->median_us = jnum(t, "median", NAN);
        s->done = (int)s->n;
        s->current[0] = '\0';
        tui_list_set_count(&s->list, s->n);
        tui_list_last(&s->list); /* follow the newest verdict */
    } else if (!strcmp(kind, "end")) {
        s->ended = true;
        int v = jstr(ev, "verdict") ? cdb_verdict_parse(jstr(ev, "verdict")) : -1;
        s->verdict = v < 0 ? CDB_ERROR : v;
        s->met = cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(ev, "expectation_met"));
        s->current[0] = '\0';
    }
}

static void live_line(struct tui_app *app, void *ctx, enum tui_child_stream st, const char *line)
{
    (void)app;
    struct live_state *s = ctx;
    if (st != TUI_CHILD_EVENTS)
        return; /* the text report; its tail is kept by the child for errors */
    cJSON *ev = cJSON_Parse(line);
    if (ev)
        live_event(s, ev);
    cJSON_Delete(ev);
}

static void live_exit(struct tui_app *app, void *ctx)
{
    struct live_state *s = ctx;
    s->finished = true;
    s->status = tui_child_status(s->child);
    s->elapsed_ms = tui_child_elapsed_ms(s->child);
    bool cancelled = tui_child_cancelled(s->child);
    if (!s->run_id[0]) {
        char *tail = text_sanitize(tui_child_tail(s->child), false);
        snprintf(s->error, sizeof s->error, "%s", tail[0] ? tail : "kladder run did not start");
        free(tail);
    } else if (!s->ended) {
        /* The run ended without its last word (killed, crashed): make its record say so. */
        struct cdb_run_detail d;
        char err[512], now[21];
        if (cdb_run_load(app->db, s->run_id, &d, err, sizeof err) == 1) {
            if (d.info.run.verdict == CDB_RUNNING) {
                cdb_now_iso(now);
                if (cdb_run_finish(app->db, s->run_id, now, cancelled ? CDB_CANCELLED : CDB_ERROR,
                                   err, sizeof err) != 0)
                    snprintf(s->error, sizeof s->error, "%s", err);
            }
            s->verdict = d.info.run.verdict == CDB_RUNNING
                             ? (cancelled ? CDB_CANCELLED : CDB_ERROR)
                             : d.info.run.verdict;
            cdb_run_detail_free(&d);
        } else {
            s->verdict = cancelled ? CDB_CANCELLED : CDB_ERROR;
        }
        if (!cancelled && !s->error[0]) {
            char *tail = text_sanitize(tui_child_tail(s->child), false);
            snprintf(s->error, sizeof s->error, "kladder run ended with status %d: %s", s->status,
                     tail);
            free(tail);
        }
    }
    tui_app_results_changed(app);
    if (app->lang == TUI_LANG_ZH)
        tui_app_message(app, "运行结束：%s", s->run_id[0] ? cdb_verdict_name((enum cdb_verdict)s->verdict)
                                                           : "未能开始");
    else
        tui_app_message(app, "The run ended: %s", s->run_id[0] ? cdb_verdict_name((enum cdb_verdict)s->verdict)
                                                               : "it did not start");
}

static void live_start(struct tui_app *app, const char *const *argv)
{
    struct live_state *s = app->state[TUI_VIEW_LIVE];
    live_clear(s);
    size_t o = 0;
    for (int i = 0; argv[i] && o < sizeof s->cmd; i++) {
        if (!strcmp(argv[i], "--events") || (i > 0 && !strcmp(argv[i - 1], "--events")))
            continue;
        o += (size_t)snprintf(s->cmd + o, sizeof s->cmd - o, "%s%s", i ? " " : "",
                              i == 0 ? "kladder" : argv[i]);
    }
    char err[300];
    s->child = tui_child_spawn(argv, true, err, sizeof err);
    tui_runs_pop(app); /* the panel gives way to the live view */
    tui_runs_push(app, TUI_VIEW_LIVE);
    if (!s->child) {
        s->finished = true;
        snprintf(s->error, sizeof s->error, "%s", err);
        return;
    }
    struct tui_job job = {.child = s->child, .on_line = live_line, .on_exit = live_exit, .ctx = s};
    if (!tui_app_watch(app, &job)) {
        tui_child_free(s->child);
        s->child = NULL;
        s->finished = true;
        snprintf(s->error, sizeof s->error, "too many tasks at once");
    }
}

struct live_draw_ctx {
    struct live_state *s;
    int y, x, w;
};

static void live_row(size_t row, int line, bool selected, void *vctx)
{
    struct live_draw_ctx *c = vctx;
    const struct live_check *k = &c->s->checks[row];
    int y = c->y + line, x = c->x;
    enum tui_role base = selected ? TUI_ROLE_SELECTED : TUI_ROLE_NORMAL;
    char buf[64];
    tui_draw_fill(y, x, c->w, base);
    snprintf(buf, sizeof buf, "%d", k->seq);
    tui_draw_right(y, x, 3, selected ? base : TUI_ROLE_DIM, buf);
    snprintf(buf, sizeof buf, "%s %s", tui_verdict_glyph(k->verdict),
             cdb_verdict_name((enum cdb_verdict)k->verdict));
    tui_draw_pad(y, x + 4, 11, selected ? base : tui_verdict_role(k->verdict), buf);
    tui_draw_pad(y, x + 16, 15, base, k->variant ? k->variant : "");
    int rest = c->w - 32 - 11;
    char *txt = xasprintf("%s%s%s", k->check ? k->check : "",
                          k->detail && *k->detail ? " — " : "", k->detail ? k->detail : "");
    tui_draw_pad(y, x + 32, rest, base, txt);
    free(txt);
    tui_fmt_us(k->median_us, buf, sizeof buf);
    tui_draw_right(y, x + c->w - 10, 10, base, buf);
}

static void progress_bar(int y, int x, int w, int done, int total)
{
    if (w <= 0)
        return;
    static const char *const eighths[] = {"", "▏", "▎", "▍", "▌", "▋", "▊", "▉"};
    long units = total > 0 ? (long)done * w * 8 / total : 0;
    int full = (int)(units / 8), part = (int)(units % 8);
    char *bar = xmalloc((size_t)w * 4 + 8);
    size_t o = 0;
    for (int i = 0; i < full; i++)
        o += (size_t)sprintf(bar + o, "%s", tui_draw_ascii() ? "#" : "█");
    if (full < w && part && !tui_draw_ascii())
        o += (size_t)sprintf(bar + o, "%s", eighths[part]);
    bar[o] = '\0';
    tui_draw_fill(y, x, w, TUI_ROLE_DIM);
    tui_draw_text(y, x, w, TUI_ROLE_OK, bar);
    free(bar);
}

static void live_draw(struct tui_app *app, void *state)
{
    struct live_state *s = state;
    const struct tui_rect *r = &app->lay.body;
    int y = r->y, x = r->x + 1, w = r->w - 2, ymax = r->y + r->h;
    char buf[700];
    tui_draw_text(y++, x, w, TUI_ROLE_DIM, s->cmd);
    long ms = s->finished ? s->elapsed_ms : tui_child_elapsed_ms(s->child);
    const char *state_txt;
    enum tui_role role = TUI_ROLE_TITLE;
    if (!s->finished)
        state_txt = s->cancel_asked ? tui_tr(app, "cancelling…", "正在取消…")
                                    : tui_tr(app, "running", "运行中");
    else if (!s->run_id[0])
        state_txt = tui_tr(app, "did not start", "未能开始"), role = TUI_ROLE_FAIL;
    else
        state_txt = cdb_verdict_name((enum cdb_verdict)s->verdict),
        role = tui_verdict_role(s->verdict);
    if (app->lang == TUI_LANG_ZH)
        snprintf(buf, sizeof buf, "%s · 已完成 %d / %d 项检查 · %.1f 秒%s%s", state_txt, s->done,
                 s->total, (double)ms / 1000.0, s->device[0] ? " · " : "", s->device);
    else
        snprintf(buf, sizeof buf, "%s · %d of %d checks done · %.1f s%s%s", state_txt, s->done,
                 s->total, (double)ms / 1000.0, s->device[0] ? " · " : "", s->device);
    tui_draw_text(y++, x, w, role, buf);
    progress_bar(y++, x, w, s->done, s->total);
    if (!s->finished && s->current[0])
        snprintf(buf, sizeof buf, "%s %s", tui_tr(app, "Now:", "当前："), s->current);
    else if (s->finished && s->ended)
        snprintf(buf, sizeof buf, "%s", s->met ? tui_tr(app, "Every expectation met (buggy caught where it ran, fixed and baselines passed)",
                                                       "全部符合预期（运行了的缺陷变体均被发现，修复变体和基线通过）")
                                              : tui_tr(app, "An expectation was not met (see the checks)",
                                                       "有预期未满足（见各项检查）"));
    else
        buf[0] = '\0';
    tui_draw_text(y++, x, w, TUI_ROLE_NORMAL, buf);
    if (s->error[0] && y < ymax) {
        size_t n;
        char **lines = text_wrap(s->error, w, &n);
        for (size_t i = 0; i < n && i < 4 && y < ymax; i++)
            tui_draw_text(y++, x, w, TUI_ROLE_FAIL, lines[i]);
        text_lines_free(lines, n);
    }
    if (s->run_id[0] && y < ymax) {
        snprintf(buf, sizeof buf, "%s %s%s", tui_tr(app, "run", "运行"), s->run_id,
                 s->finished ? tui_tr(app, " · Enter opens its checks", " · Enter 打开其检查") : "");
        tui_draw_text(y++, x, w, TUI_ROLE_DIM, buf);
    }
    y++;
    if (y >= ymax)
        return;
    struct live_draw_ctx c = {.s = s, .y = y, .x = x, .w = w};
    tui_list_draw(&s->list, ymax - y, live_row, &c);
}

static unsigned live_action(struct tui_app *app, void *state, enum tui_action act)
{
    struct live_state *s = state;
    bool running = s->child && !s->finished;
    switch (act) {
    case TUI_ACT_RUN_CANCEL:
    case TUI_ACT_BACK:
        if (running) {
            tui_child_cancel(s->child);
            s->cancel_asked = true;
            tui_app_message(app, "%s", tui_tr(app, "Cancelling: the run stops after its worker",
                                              "正在取消：工作进程停止后运行即结束"));
            return TUI_R_DRAW;
        }
        if (act == TUI_ACT_BACK) {
            tui_runs_pop(app);
            return TUI_R_DRAW;
        }
        return TUI_R_NONE;
    case TUI_ACT_OPEN:
        if (s->finished && s->run_id[0])
            tui_run_show(app, s->run_id);
        return TUI_R_DRAW;
    default:
        return tui_list_navigate(&s->list, act) ? TUI_R_DRAW : TUI_R_UNHANDLED;
    }
}

static void live_status(struct tui_app *app, void *state, char *buf, size_t len)
{
    struct live_state *s = state;
    if (s->child && !s->finished)
        snprintf(buf, len, "%s", tui_tr(app, "x or Esc cancels the run · Tab and the other views still work",
                                        "x 或 Esc 取消运行 · Tab 和其他视图照常可用"));
    else
        snprintf(buf, len, "%s", tui_tr(app, "Enter opens the run's checks · Esc back to the runs",
                                        "Enter 打开运行的检查 · Esc 返回运行列表"));
}

const struct tui_view_ops tui_view_live = {
    .name = "live",
    .scope = TUI_SCOPE_LIVE,
    .init = live_init,
    .fini = live_fini,
    .draw = live_draw,
    .action = live_action,
    .status = live_status,
};
