/* The launch panel (r on a case, a case's detail or a dashboard cell): what to run — the
 * case's suites and rungs, or the reproducers of a cell — and the backend, device, variants,
 * repeats, time limit and lag builds (--lag: auto, off, seeds 1-4 behind, or ahead); the
 * backends and devices come from `kladder devices --json` run as a child, so no GPU runtime is
 * ever initialised in this process. Enter hands the `kladder run …
 * --events 3` command line (tui/views/launcher.h) to the live run view, which starts and follows
 * it.
 *
 * Below them, a row for each option of the target rung's own (engine/rung.h, its entry's opts),
 * named as `kladder run` spells it (rung 2's --inputs: a file or folder of captures of one's
 * own to replay): h/l steps through its choices, Enter (or /) opens the prompt to type any value
 * (a flag: h/l gives it or not). The panel names none of them itself.
 *
 * A cell with several suites also offers them all, first: "every suite of this cell", which
 * hands the live view one command line per suite to run one after another as separate runs.
 *
 * Suites of one's own: KLADDER_SUITE_PATH lists manifest files (separated by ':'); each one
 * whose "case" names a case of the index is offered for that case and its cell. */
#include <cJSON.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "casedb/cdb.h"
#include "common/text.h"
#include "common/xalloc.h"
#include "engine/backend/backend.h"
#include "engine/manifest.h"
#include "engine/rung.h"
#include "tui/child.h"
#include "tui/draw.h"
#include "tui/views/launcher.h"
#include "tui/views/view.h"

struct target {
    char *label;
    char *label_zh; /* the same in Chinese; NULL: the label serves both */
    char *args[4]; /* --case ID, or --rung N --suite NAME|PATH */
    int nargs;
    int rung;      /* N, or 0 for --case (each of its rungs) */
    bool has_r5;   /* runs the rung whose repeats default to the suite's failure rate (5) */
    bool every;    /* every other target, one after another (a cell's "every suite") */
};

struct backend_opt {
    char name[8];
    bool available;
    char reason[1024]; /* whole: the panel wraps it, never cuts it */
    int n_devices;
    char devices[8][96];
};

enum field { F_TARGET, F_BACKEND, F_DEVICE, F_VARIANT, F_REPEATS, F_TIMEOUT, F_LAG, F_COUNT };

static const char *const variants[] = {"both", "fixed", "buggy"};
static const int repeat_opts[] = {0, 1, 10, 100, 1000, 10000};
static const int timeout_opts[] = {60, 5, 10, 30, 120, 300, 600};
/* --lag (rungs 2 and 5's lag builds, docs/engine.md): NULL leaves kladder run's auto. */
static const char *const lag_opts[] = {NULL, "off", "1,2,3,4", "ahead:1,ahead:2,ahead:3,ahead:4"};
static const char *const lag_names[][2] = {
    {"auto: seeds 1-4 behind and ahead on a GPU, none on the cpu", "自动：GPU 上落后与领先各用种子 1-4，cpu 上不用"},
    {"off", "关闭"},
    {"1,2,3,4: one wave held behind", "1,2,3,4：一个 wave 落后"},
    {"ahead:1-4: one wave ahead of all the others", "ahead:1-4：一个 wave 领先其余所有 wave"}};
#define N_OF(a) ((int)(sizeof(a) / sizeof((a)[0])))

/* Rows for the target rung's own options after the fixed ones (F_COUNT + k for option k). */
#define ROPT_MAX 8

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
    int variant, repeats, timeout, lag;
    /* the values of the rung's own options, "" not given (a flag: "1" given), for rung
     * ropt_rung: they go with that rung's targets only */
    int ropt_rung;
    char ropt[ROPT_MAX][TUI_SEARCH_MAX + 1];
    enum tui_view_id back_to; /* where Esc returns */
};

static void targets_free(struct launch_state *s)
{
    for (int i = 0; i < s->n_targets; i++) {
        free(s->targets[i].label);
        free(s->targets[i].label_zh);
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

/* The rungs the engine runs (engine/rung.h). */
static bool engine_rung(int r) { return eng_rung_find(r) != NULL; }

/* The rungs the panel treats apart, by what their table entries say (engine/rung.h): the one
 * whose repeats default from the suite's failure rate, the one that replays --inputs; 0 none. */
static int rate_rung(void)
{
    const struct eng_rung *R = eng_rung_repeating_from_rate();
    return R ? R->number : 0;
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
    for (size_t k = 0; k < eng_rung_count(); k++) {
        int r = eng_rung_nth(k)->number;
        if (!m->has_rung[r])
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
        c->s->targets[c->s->n_targets - 1].label_zh =
            xasprintf("%s · 阶梯 %d%s%s", m->name, r, builtin ? "" : " · ", builtin ? "" : spec);
        c->s->targets[c->s->n_targets - 1].rung = r;
        c->s->targets[c->s->n_targets - 1].has_r5 = r == rate_rung();
    }
}

static void probe_line(void *ctx, enum tui_child_stream st, const char *line)
{
    (void)st;
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
    int k = tui_launcher_argv(app, argv, 3);
    argv[k++] = "devices";
    argv[k++] = "--json";
    argv[k] = NULL;
    free(s->probe_out);
    s->probe_out = NULL;
    char err[300];
    s->probe = tui_launcher_start(app, argv, false, probe_line, probe_exit, s, err, sizeof err);
    if (!s->probe) {
        snprintf(s->probe_err, sizeof s->probe_err, "%s", err);
        s->probed = true;
    }
}

static void open_panel(struct tui_app *app, struct launch_state *s)
{
    s->field = s->n_targets > 1 ? F_TARGET : F_BACKEND;
    s->back_to = app->view;
    start_probe(app, s);
    tui_runs_push(app, TUI_VIEW_LAUNCH);
}

static bool open_case(struct tui_app *app, struct launch_state *s, const char *case_id)
{
    targets_free(s);
    struct collect c = {.s = s, .case_id = case_id};
    each_manifest(collect_one, &c);
    if (s->n_targets == 0) {
        if (app->lang == TUI_LANG_ZH)
            tui_app_message(app, "%s 没有复现套件（kladder run --list 列出全部）", case_id);
        else
            tui_app_message(app, "No reproducer suite for %s (kladder run --list shows them)", case_id);
        return false;
    }
    if (c.builtin > 1) { /* several built-in suites or rungs: --case runs them all */
        bool r5 = false;
        for (int i = 0; i < s->n_targets; i++)
            r5 |= s->targets[i].has_r5;
        target_add(s, NULL, "--case", case_id, NULL, NULL);
        s->targets[s->n_targets - 1].has_r5 = r5;
        struct target all = s->targets[s->n_targets - 1];
        memmove(s->targets + 1, s->targets, (size_t)(s->n_targets - 1) * sizeof *s->targets);
        s->targets[0] = all;
        s->targets[0].label = xasprintf("%s · every suite and rung (--case)", case_id);
        s->targets[0].label_zh = xasprintf("%s · 所有套件与阶梯（--case）", case_id);
    }
    snprintf(s->title, sizeof s->title, "%s %s", tui_tr(app, "Run case", "运行案例"), case_id);
    open_panel(app, s);
    return true;
}

static bool open_cell(struct tui_app *app, struct launch_state *s, int gap, int rung)
{
    if (!engine_rung(rung)) {
        char have[64];
        eng_rung_list(have, sizeof have);
        if (app->lang == TUI_LANG_ZH) {
            char zh[96] = "";
            for (size_t i = 0; i < eng_rung_count(); i++)
                snprintf(zh + strlen(zh), sizeof zh - strlen(zh), "%s%d", i ? "、" : "",
                         eng_rung_nth(i)->number);
            tui_app_message(app, "阶梯 %d 没有引擎检查；阶梯 %s 有", rung, zh);
        } else
            tui_app_message(app, "Rung %d has no engine checks; rungs %s do", rung, have);
        return false;
    }
    targets_free(s);
    struct cdb_case_filter f = {.gap = gap, .rung = rung};
    struct cdb_case_list cl = {0};
    char err[256];
    if (cdb_cases_query(app->db, &f, &cl, err, sizeof err) != 0) {
        tui_app_message(app, "%s", err);
        return false;
    }
    struct collect c = {.s = s, .cell = &cl, .rung = rung};
    each_manifest(collect_one, &c);
    cdb_case_list_free(&cl);
    if (s->n_targets == 0) {
        if (app->lang == TUI_LANG_ZH)
            tui_app_message(app, "缺口 %d × 阶梯 %d 中没有带复现套件的案例", gap, rung);
        else
            tui_app_message(app, "No case of gap %d × rung %d has a reproducer suite", gap, rung);
        return false;
    }
    if (s->n_targets > 1) { /* first: every suite of the cell, one run each, in turn */
        int n = s->n_targets;
        target_add(s, xasprintf("every suite of this cell, one after another (%d runs)", n), NULL,
                   NULL, NULL, NULL);
        struct target every = s->targets[s->n_targets - 1];
        every.label_zh = xasprintf("本格的每个套件，依次运行（%d 次运行）", n);
        every.rung = rung;
        every.has_r5 = rung == rate_rung();
        every.every = true;
        memmove(s->targets + 1, s->targets, (size_t)(s->n_targets - 1) * sizeof *s->targets);
        s->targets[0] = every;
    }
    snprintf(s->title, sizeof s->title, "%s %d × %s %d", tui_tr(app, "Run gap", "运行缺口"), gap,
             tui_tr(app, "rung", "阶梯"), rung);
    open_panel(app, s);
    return true;
}

/* A suite file of one's own (o in Runs): every rung it declares, by its path, so that the run
 * finds it without KLADDER_SUITE_PATH and without a case in the manifest. A file that does not
 * load says why, naming the file and the field. */
static bool open_suite(struct tui_app *app, struct launch_state *s, const char *path)
{
    char err[512];
    struct eng_manifest *m = eng_manifest_load(path, NULL, err, sizeof err);
    if (!m) {
        tui_app_message(app, "%s", err);
        return false;
    }
    targets_free(s);
    for (size_t k = 0; k < eng_rung_count(); k++) {
        int r = eng_rung_nth(k)->number;
        if (!m->has_rung[r])
            continue;
        char rs[16];
        snprintf(rs, sizeof rs, "%d", r);
        target_add(s, xasprintf("%s · rung %d · %s", m->name, r, path), "--rung", rs, "--suite",
                   path);
        s->targets[s->n_targets - 1].label_zh =
            xasprintf("%s · 阶梯 %d · %s", m->name, r, path);
        s->targets[s->n_targets - 1].rung = r;
        s->targets[s->n_targets - 1].has_r5 = r == rate_rung();
    }
    /* the panel's own title, not the one a case or cell opened before it left behind */
    char *shown = text_fit(path, 120, false, NULL);
    snprintf(s->title, sizeof s->title, "%s %s (%s)", tui_tr(app, "Run suite", "运行套件"),
             m->name, shown);
    free(shown);
    eng_manifest_free(m);
    if (s->n_targets == 0) {
        tui_app_message(app, "%s: %s", path, tui_tr(app, "the suite declares no rung this "
                                                         "build runs", "套件未声明本版本可运行的阶梯"));
        return false;
    }
    open_panel(app, s);
    return true;
}

/* r on a case (what->id) or a dashboard cell; during a run, the run instead: one at a time. */
static bool launch_open(struct tui_app *app, void *state, const struct tui_open *what)
{
    if (tui_app_open(app, TUI_VIEW_LIVE, &(struct tui_open){0})) {
        tui_app_message(app, "%s", tui_tr(app, "A run is under way: one at a time (x cancels it)",
                                          "已有运行在进行：一次只能一个（x 取消）"));
        return false;
    }
    if (what->suite_path)
        return open_suite(app, state, what->suite_path);
    return what->id ? open_case(app, state, what->id) : open_cell(app, state, what->gap, what->rung);
}

/* The options of rung n's own (engine/rung.h), at most ROPT_MAX; *count how many. */
static const struct eng_rung_opt *rung_opts(int n, int *count)
{
    const struct eng_rung *R = n ? eng_rung_find(n) : NULL;
    *count = 0;
    for (const struct eng_rung_opt *x = R ? R->opts : NULL; x && x->name && *count < ROPT_MAX; x++)
        (*count)++;
    return R ? R->opts : NULL;
}

/* The rows of the panel: the fixed fields, then the target rung's options. Moving to a target
 * of another rung forgets the values typed for the one before. */
static int field_count(struct launch_state *s)
{
    int n, rung = s->n_targets ? s->targets[s->target].rung : 0;
    rung_opts(rung, &n);
    if (rung != s->ropt_rung) {
        memset(s->ropt, 0, sizeof s->ropt);
        s->ropt_rung = rung;
    }
    return F_COUNT + n;
}

/* The number of words a choice option's value steps through (its choices), 0 for one that
 * takes any value; a flag steps between given and not. */
static size_t choice_count(const struct eng_rung_opt *o)
{
    size_t n = 0;
    if (!o->arg)
        return 1;
    for (const char *const *w = o->choices; w && *w; w++)
        n++;
    return n;
}

static const struct backend_opt *chosen_backend(const struct launch_state *s)
{
    return s->backend > 0 && s->backend <= s->n_backends ? &s->backends[s->backend - 1] : NULL;
}

/* The command line of target i with the panel's settings; its entries point into s, cmd or
 * static strings. */
static void build_argv_of(struct tui_app *app, const struct launch_state *s, int i,
                          struct tui_argv *cmd)
{
    const struct target *t = &s->targets[i];
    const struct backend_opt *b = chosen_backend(s);
    int nro;
    const struct eng_rung_opt *ro = rung_opts(t->rung, &nro);
    int k = 0;
    for (int r = 0; t->rung && t->rung == s->ropt_rung && r < nro; r++) {
        if (!s->ropt[r][0])
            continue;
        cmd->extra[k++] = ro[r].name;
        if (ro[r].arg)
            cmd->extra[k++] = s->ropt[r];
    }
    struct tui_run_opts o = {.target = t->args, .n_target = t->nargs,
                             .backend = b ? b->name : NULL, .device = s->device,
                             .variant = variants[s->variant],
                             .repeats = repeat_opts[s->repeats],
                             .timeout_s = timeout_opts[s->timeout],
                             .lag = lag_opts[s->lag],
                             .extra = cmd->extra, .n_extra = k};
    tui_launcher_run_argv(app, &o, cmd);
}

/* The command line the panel would run (for "every suite", the first of them). */
static void build_argv(struct tui_app *app, const struct launch_state *s, struct tui_argv *cmd)
{
    build_argv_of(app, s, s->targets[s->target].every ? s->target + 1 : s->target, cmd);
}

/* The Backend row's auto: the backend table's names in preference order, "auto (hip, cuda,
 * then cpu)", so that the panel types none of them. */
static void auto_backends(bool zh, char *buf, size_t n)
{
    size_t l = (size_t)snprintf(buf, n, "%s", zh ? "自动（" : "auto (");
    for (size_t i = 0; eng_backends[i] && l < n; i++) {
        const char *sep = i == 0 ? "" : !eng_backends[i + 1] ? (zh ? "，然后 " : ", then ")
                                                               : (zh ? "、" : ", ");
        l += (size_t)snprintf(buf + l, n - l, "%s%s", sep, eng_backends[i]->name);
    }
    if (l < n)
        snprintf(buf + l, n - l, "%s", zh ? "）" : ")");
}

/* One row of the panel: its name, then its value between arrows (h/l changes it). */
static void draw_row(int y, int x, int w, bool sel, const char *name, const char *value)
{
    tui_draw_pad(y, x, 14, sel ? TUI_ROLE_SELECTED : TUI_ROLE_COLHEAD, name);
    char line[300];
    snprintf(line, sizeof line, " %s %.255s %s", tui_draw_ascii() ? "<" : "‹", value,
             tui_draw_ascii() ? ">" : "›");
    tui_draw_pad(y, x + 15, w - 15, sel ? TUI_ROLE_SELECTED : TUI_ROLE_NORMAL, line);
}

/* Row f, an option of the target rung's own: its name as run spells it, then its value, or
 * whether it is given and what it does. */
static void draw_rung_opt(struct tui_app *app, const struct launch_state *s, int f, int y, int x,
                          int w)
{
    int nro;
    const struct eng_rung_opt *o = &rung_opts(s->ropt_rung, &nro)[f - F_COUNT];
    const char *v = s->ropt[f - F_COUNT];
    char shown[TUI_SEARCH_MAX + 300];
    if (v[0] && o->arg)
        snprintf(shown, sizeof shown, "%s", v);
    else
        snprintf(shown, sizeof shown, "%s (%s)",
                 v[0] ? tui_tr(app, "given", "已给出") : tui_tr(app, "not given", "未给出"),
                 o->about ? o->about : "");
    draw_row(y, x, w, f == s->field, o->name, shown);
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
    const struct target *tg_shown = &s->targets[s->target];
    snprintf(val[F_TARGET], sizeof val[0], "%.200s",
             app->lang == TUI_LANG_ZH && tg_shown->label_zh ? tg_shown->label_zh : tg_shown->label);
    if (b)
        snprintf(val[F_BACKEND], sizeof val[0], "%s", b->name);
    else
        auto_backends(app->lang == TUI_LANG_ZH, val[F_BACKEND], sizeof val[0]);
    if (b && s->device < b->n_devices)
        snprintf(val[F_DEVICE], sizeof val[0], "%d · %s", s->device, b->devices[s->device]);
    else
        snprintf(val[F_DEVICE], sizeof val[0], "%s", b ? "0" : tui_tr(app, "the first", "第一个"));
    snprintf(val[F_VARIANT], sizeof val[0], "%s", variants[s->variant]);
    /* No --repeat: each rung's own default, which only one rung (5) takes from the failure
     * rate. */
    const struct target *tg = &s->targets[s->target];
    int r5 = rate_rung();
    bool zh = app->lang == TUI_LANG_ZH;
    if (repeat_opts[s->repeats])
        snprintf(val[F_REPEATS], sizeof val[0], "%d", repeat_opts[s->repeats]);
    else if (r5 && tg->rung == r5 && zh)
        snprintf(val[F_REPEATS], sizeof val[0], "按套件的失败率（阶梯 %d）", r5);
    else if (r5 && tg->rung == r5)
        snprintf(val[F_REPEATS], sizeof val[0], "from the suite's failure rate (rung %d)", r5);
    else if (tg->has_r5 && zh)
        snprintf(val[F_REPEATS], sizeof val[0], "各阶梯的默认值（阶梯 %d：按套件的失败率）", r5);
    else if (tg->has_r5)
        snprintf(val[F_REPEATS], sizeof val[0],
                 "each rung's default (rung %d: from the suite's failure rate)", r5);
    else
        snprintf(val[F_REPEATS], sizeof val[0], "%s", tui_tr(app, "the rung's default", "该阶梯的默认值"));
    /* Chinese puts the measure first: "每项检查 60 秒", not "60 s 每项检查" */
    if (app->lang == TUI_LANG_ZH)
        snprintf(val[F_TIMEOUT], sizeof val[0], "每项检查 %d 秒", timeout_opts[s->timeout]);
    else
        snprintf(val[F_TIMEOUT], sizeof val[0], "%d s per check", timeout_opts[s->timeout]);
    snprintf(val[F_LAG], sizeof val[0], "%s",
             tui_tr(app, lag_names[s->lag][0], lag_names[s->lag][1]));
    static const char *const names[F_COUNT][2] = {
        {"Run", "运行"}, {"Backend", "后端"}, {"Device", "设备"},
        {"Variants", "变体"}, {"Repeats", "重复次数"}, {"Time limit", "时限"},
        {"Lag", "滞后构建"}};
    int nfield = field_count(s);
    for (int f = 0; f < nfield && y < ymax; f++, y++)
        if (f >= F_COUNT)
            draw_rung_opt(app, s, f, y, x, w);
        else
            draw_row(y, x, w, f == s->field, tui_tr(app, names[f][0], names[f][1]), val[f]);
    y++;
    char line[1200];
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
            /* A reason is often long (a library's path and dlerror): wrapped under the name,
             * never cut, as long as two rows stay for the command line below. */
            enum { INDENT = 6 };
            size_t n;
            char **lines = text_wrap(line, w - INDENT > 10 ? w - INDENT : w, &n);
            for (size_t l = 0; l < n && y < ymax - 2; l++)
                tui_draw_text(y++, l ? x + INDENT : x, l ? w - INDENT : w,
                              o->available ? TUI_ROLE_NORMAL : TUI_ROLE_DIM, lines[l]);
            text_lines_free(lines, n);
        }
    }
    y++;
    struct tui_argv cmd;
    build_argv(app, s, &cmd);
    tui_launcher_cmdline(cmd.v, line, sizeof line);
    if (y < ymax) {
        size_t n;
        char **lines = text_wrap(line, w, &n);
        for (size_t i = 0; i < n && y < ymax; i++)
            tui_draw_text(y++, x, w, TUI_ROLE_DIM, lines[i]);
        text_lines_free(lines, n);
    }
    if (s->targets[s->target].every && y < ymax) {
        int more = s->n_targets - s->target - 2;
        char then[160];
        if (app->lang == TUI_LANG_ZH)
            snprintf(then, sizeof then, "之后依次运行其余 %d 个套件，每个一次单独的运行", more);
        else
            snprintf(then, sizeof then, "then the other %d suite%s, each a run of its own, one after another",
                     more, more == 1 ? "" : "s");
        tui_draw_text(y++, x, w, TUI_ROLE_DIM, then);
    }
}

static void cycle(int *v, int n, int d)
{
    if (n <= 0)
        return;
    *v = ((*v + d) % n + n) % n;
}

static unsigned launch_action(struct tui_app *app, void *state, enum tui_action act)
{
    struct launch_state *s = state;
    int d = act == TUI_ACT_LEFT ? -1 : 1;
    switch (act) {
    case TUI_ACT_DOWN:
        cycle(&s->field, field_count(s), 1);
        return TUI_R_DRAW;
    case TUI_ACT_UP:
        cycle(&s->field, field_count(s), -1);
        return TUI_R_DRAW;
    case TUI_ACT_LEFT:
    case TUI_ACT_RIGHT:
        if (s->field >= F_COUNT) { /* "not given", then each choice (a flag: given) */
            int nro;
            const struct eng_rung_opt *o = &rung_opts(s->ropt_rung, &nro)[s->field - F_COUNT];
            char *v = s->ropt[s->field - F_COUNT];
            int n = (int)choice_count(o), at = 0;
            for (int i = 0; o->arg && i < n; i++)
                if (!strcmp(v, o->choices[i]))
                    at = i + 1;
            if (!o->arg)
                at = v[0] != '\0';
            if (n > 0) {
                cycle(&at, n + 1, d);
                snprintf(v, TUI_SEARCH_MAX + 1, "%s", at == 0 ? "" : o->arg ? o->choices[at - 1] : "1");
            }
            return TUI_R_DRAW;
        }
        switch ((enum field)s->field) {
        case F_TARGET:
            cycle(&s->target, s->n_targets, d);
            field_count(s); /* another rung's options, none of this one's values */
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
        case F_LAG:
            cycle(&s->lag, N_OF(lag_opts), d);
            break;
        case F_COUNT:
            break;
        }
        return TUI_R_DRAW;
    case TUI_ACT_OPEN: {
        int nro;
        const struct eng_rung_opt *ro = rung_opts(s->ropt_rung, &nro);
        if (s->field >= F_COUNT && ro[s->field - F_COUNT].arg) {
            tui_app_prompt_open(app); /* the typed value lands through launch_search */
            return TUI_R_DRAW;
        }
        tui_runs_pop(app); /* the panel gives way to the live run */
        if (s->targets[s->target].every) {
            int n = s->n_targets - s->target - 1;
            struct tui_argv *cmds = xcalloc((size_t)n, sizeof *cmds);
            const char *const **queue = xcalloc((size_t)n, sizeof *queue);
            for (int i = 0; i < n; i++) {
                build_argv_of(app, s, s->target + 1 + i, &cmds[i]);
                queue[i] = cmds[i].v;
            }
            tui_app_open(app, TUI_VIEW_LIVE, &(struct tui_open){.queue = queue, .n_queue = n});
            free(queue);
            free(cmds);
            return TUI_R_DRAW;
        }
        struct tui_argv cmd;
        build_argv(app, s, &cmd);
        tui_app_open(app, TUI_VIEW_LIVE, &(struct tui_open){.argv = cmd.v});
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

/* The prompt types the value of the rung's own option on its row (rung 2's --inputs path;
 * Enter keeps it, Esc restores the one before); on another row it types nothing. */
static char *typed_field(struct launch_state *s)
{
    return s->field >= F_COUNT && s->field - F_COUNT < ROPT_MAX ? s->ropt[s->field - F_COUNT]
                                                                 : NULL;
}

static void launch_search(struct tui_app *app, void *state, const char *text)
{
    (void)app;
    char *v = typed_field(state);
    if (v)
        snprintf(v, TUI_SEARCH_MAX + 1, "%s", text);
}

static const char *launch_search_text(void *state)
{
    const char *v = typed_field(state);
    return v ? v : "";
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
    .search = launch_search,
    .search_text = launch_search_text,
    .open = launch_open,
};
