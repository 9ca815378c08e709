/* Rung 3, test the seams: the contracts between a kernel and what it runs on (docs/engine.md).
 *
 *  - wave: on an emulating backend every check runs at wave 32 and at wave 64, the two sizes AMD
 *    ships, and each must match the reference, so a kernel that silently assumes one wave size
 *    fails at the other and the report shows both numbers; a suite that pins a wave ("wave": 32)
 *    runs at that wave only (on a GPU: the device's wave must be the pinned one). A kernel's
 *    KL_ASSUME_WAVE is checked before every launch (engine/exec/exec.c).
 *  - code: for each listed AMD target the kernel file is built offline and its code object read
 *    (engine/rungs/rung3_code.c): wave size, KL_ASSUME_WAVE, LDS, VGPRs, workgroup size, scratch.
 *
 * The plain unit test beside it runs at baseline_wave (64: the wave of the CDNA machines a
 * library's CI runs on), which is why it passes a kernel that assumes wave64. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/xalloc.h"
#include "engine/exec.h"
#include "engine/rung.h"
#include "engine/rungs/rung3.h"

/* A list of tile parameters under key (rungs.3.layouts, rungs.3.tile_builds): each must be
 * listed in "tiles". */
static bool tile_params(struct eng_mparse *p, const struct eng_manifest *m, const cJSON *j,
                        const char *key, const char *example, const char *why, char ***out,
                        size_t *n)
{
    const cJSON *l = cJSON_GetObjectItemCaseSensitive(j, key);
    if (!l)
        return true;
    char field[64];
    snprintf(field, sizeof field, "rungs.3.%s", key);
    if (!cJSON_IsArray(l))
        return eng_mp_bad(p, field, "expected an array of tile parameters %s", example);
    *out = xcalloc((size_t)cJSON_GetArraySize(l) + 1, sizeof **out);
    size_t i = 0;
    for (const cJSON *it = l->child; it; it = it->next, i++) {
        snprintf(field, sizeof field, "rungs.3.%s[%zu]", key, i);
        bool tile = false;
        for (size_t k = 0; cJSON_IsString(it) && k < m->ntiles; k++)
            tile |= !strcmp(m->tiles[k].param, it->valuestring);
        if (!tile)
            return eng_mp_bad(p, field, "expected a parameter listed in \"tiles\" %s", why);
        (*out)[(*n)++] = xstrdup(it->valuestring);
    }
    return true;
}

static bool parse(struct eng_mparse *p, const struct eng_manifest *m, const cJSON *j, void **out)
{
    static const char *const keys[] = {"wave", "baseline_wave", "shapes", "targets", "no_spills",
                                       "layouts", "isa", "tile_builds", "tuned_table",
                                       NULL};
    struct eng_rung3_spec *r = xcalloc(1, sizeof *r);
    *out = r;
    r->baseline_wave = 64;
    if (!eng_mp_only_keys(p, j, "rungs.3", keys))
        return false;
    static const char *const waves[] = {"32", "64"};
    const char *wkeys[2] = {"wave", "baseline_wave"};
    int *wout[2] = {&r->wave, &r->baseline_wave};
    for (int k = 0; k < 2; k++) {
        const cJSON *w = cJSON_GetObjectItemCaseSensitive(j, wkeys[k]);
        if (!w)
            continue;
        char field[32], got[64];
        snprintf(field, sizeof field, "rungs.3.%s", wkeys[k]);
        if (!cJSON_IsNumber(w) || (w->valueint != 32 && w->valueint != 64) ||
            fabs(w->valuedouble - w->valueint) > 1e-9) {
            eng_mp_describe(w, got, sizeof got);
            return eng_mp_bad(p, field, "expected %s or %s (lanes per wave), got %s", waves[0],
                              waves[1], got);
        }
        *wout[k] = w->valueint;
    }
    if (!eng_mp_bool(p, j, "no_spills", "rungs.3.no_spills", &r->no_spills))
        return false;
    const cJSON *t = cJSON_GetObjectItemCaseSensitive(j, "targets");
    if (t) {
        if (!cJSON_IsArray(t))
            return eng_mp_bad(p, "rungs.3.targets", "expected an array of AMD processors "
                              "[\"gfx1250\", \"gfx942\"]");
        r->targets = xcalloc((size_t)cJSON_GetArraySize(t) + 1, sizeof *r->targets);
        size_t i = 0;
        for (const cJSON *it = t->child; it; it = it->next, i++) {
            char field[48], got[64];
            snprintf(field, sizeof field, "rungs.3.targets[%zu]", i);
            if (!cJSON_IsString(it) || strncmp(it->valuestring, "gfx", 3) != 0 ||
                strlen(it->valuestring) > 24 ||
                strspn(it->valuestring + 3, "0123456789abcdef") != strlen(it->valuestring + 3) ||
                !it->valuestring[3]) {
                eng_mp_describe(it, got, sizeof got);
                return eng_mp_bad(p, field, "expected an AMD processor such as \"gfx1250\", got %s",
                                  got);
            }
            r->targets[r->ntargets++] = xstrdup(it->valuestring);
        }
    }
    const cJSON *isa = cJSON_GetObjectItemCaseSensitive(j, "isa");
    if (isa && !cJSON_IsObject(isa))
        return eng_mp_bad(p, "rungs.3.isa", "expected an object {\"gfx1250\": {\"require\": "
                          "[\"v_wmma\"], \"forbid\": [\"scratch_\"]}}");
    r->isa = xcalloc((size_t)cJSON_GetArraySize(isa) + 1, sizeof *r->isa);
    for (const cJSON *it = isa ? isa->child : NULL; it; it = it->next) {
        char field[96];
        snprintf(field, sizeof field, "rungs.3.isa.%.40s", it->string);
        bool listed = false;
        for (size_t q = 0; q < r->ntargets; q++)
            listed |= !strcmp(r->targets[q], it->string);
        if (!listed)
            return eng_mp_bad(p, field, "expected a processor listed in rungs.3.targets");
        static const char *const ikeys[] = {"require", "forbid", NULL};
        if (!cJSON_IsObject(it) || !eng_mp_only_keys(p, it, field, ikeys))
            return p->failed ? false : eng_mp_bad(p, field, "expected {\"require\": [...], "
                                                  "\"forbid\": [...]}");
        struct eng_rung3_isa *ri = &r->isa[r->nisa++];
        ri->target = xstrdup(it->string);
        const char *lists[2] = {"require", "forbid"};
        for (int k = 0; k < 2; k++) {
            const cJSON *a = cJSON_GetObjectItemCaseSensitive(it, lists[k]);
            if (!a)
                continue;
            char sub[128];
            snprintf(sub, sizeof sub, "%s.%s", field, lists[k]);
            if (!cJSON_IsArray(a))
                return eng_mp_bad(p, sub, "expected an array of instruction prefixes");
            char **v = xcalloc((size_t)cJSON_GetArraySize(a) + 1, sizeof *v);
            size_t nv = 0;
            if (k == 0)
                ri->require = v;
            else
                ri->forbid = v;
            for (const cJSON *x = a->child; x; x = x->next) {
                if (!cJSON_IsString(x) || !x->valuestring[0] ||
                    strspn(x->valuestring, "abcdefghijklmnopqrstuvwxyz0123456789_") !=
                        strlen(x->valuestring))
                    return eng_mp_bad(p, sub, "expected instruction prefixes such as \"v_wmma\" "
                                      "(lower case letters, digits, _)");
                v[nv++] = xstrdup(x->valuestring);
                if (k == 0)
                    ri->nrequire = nv;
                else
                    ri->nforbid = nv;
            }
        }
    }
    if (!tile_params(p, m, j, "layouts", "[\"scale_layout\"]", "(its accepted values are the "
                     "layouts the launcher can choose)", &r->layouts, &r->nlayouts) ||
        !tile_params(p, m, j, "tile_builds", "[\"tile_k\"]", "(each accepted value is built "
                     "on its own)", &r->tile_builds, &r->ntile_builds))
        return false;
    const cJSON *tt = cJSON_GetObjectItemCaseSensitive(j, "tuned_table");
    if (tt && !eng_rung3_table_parse(p, tt, &r->table))
        return false;
    return eng_mp_shapes(p, m, j, "shapes", "rungs.3.shapes", true, &r->nshapes, &r->shapes);
}

static void free_settings(void *settings)
{
    struct eng_rung3_spec *r = settings;
    eng_shapes_free(r->shapes, r->nshapes);
    for (size_t i = 0; i < r->ntargets; i++)
        free(r->targets[i]);
    free(r->targets);
    for (size_t i = 0; i < r->nisa; i++) {
        for (size_t k = 0; k < r->isa[i].nrequire; k++)
            free(r->isa[i].require[k]);
        for (size_t k = 0; k < r->isa[i].nforbid; k++)
            free(r->isa[i].forbid[k]);
        free(r->isa[i].require);
        free(r->isa[i].forbid);
        free(r->isa[i].target);
    }
    free(r->isa);
    for (size_t i = 0; i < r->nlayouts; i++)
        free(r->layouts[i]);
    free(r->layouts);
    for (size_t i = 0; i < r->ntile_builds; i++)
        free(r->tile_builds[i]);
    free(r->tile_builds);
    eng_rung3_table_free(r->table);
    free(r);
}

/* eng_plan_add, with the checks it adds run at wave (0: the run's). */
static void add_at_wave(struct eng_plan_builder *b, const char *name, bool baseline,
                        const struct eng_shape *s, int wave)
{
    size_t before = *b->n;
    eng_plan_add(b, name, ENG_MODE_PLAIN, baseline, s, 1, 0, 0);
    for (size_t i = before; wave && i < *b->n; i++)
        (*b->list)[i].spec.wave = wave;
}

static int plan(struct eng_plan_builder *b, char *err, size_t errlen)
{
    (void)err;
    (void)errlen;
    const struct eng_manifest *m = b->m;
    const struct eng_rung3_spec *r = m->settings[3];
    const struct eng_backend *B = eng_backend_find(b->o->backend);
    bool emulated = B && B->caps.emulated;
    char name[200], tag[160];
    /* The plain unit test, at the wave its authors ran it. */
    for (size_t i = 0; b->o->baseline && i < m->nbaseline; i++) {
        eng_shape_tag(&m->baseline[i], tag, sizeof tag);
        snprintf(name, sizeof name, "unit-test-%s", tag);
        add_at_wave(b, name, true, &m->baseline[i], emulated ? r->baseline_wave : 0);
    }
    /* Wave checks: both wave sizes where the backend can choose, the pinned one otherwise. */
    int waves[2] = {32, 64}, nwaves = 2;
    if (r->wave)
        waves[0] = r->wave, nwaves = 1;
    if (!emulated)
        waves[0] = r->wave ? r->wave : b->o->wave, nwaves = 1;
    struct eng_shape dflt = {0};
    size_t nshapes = r->nshapes ? r->nshapes : 1 + m->nbaseline;
    for (int w = 0; w < nwaves; w++)
        for (size_t i = 0; i < nshapes; i++) {
            const struct eng_shape *s = r->nshapes ? &r->shapes[i]
                                        : i == 0   ? &dflt
                                                   : &m->baseline[i - 1];
            if (s->name)
                snprintf(tag, sizeof tag, "%s", s->name);
            else if (s->n)
                eng_shape_tag(s, tag, sizeof tag);
            else
                snprintf(tag, sizeof tag, "default");
            snprintf(name, sizeof name, "wave%d-%s", waves[w], tag);
            add_at_wave(b, name, false, s, emulated ? waves[w] : 0);
        }
    /* Layouts: every value the launcher accepts, producer to consumer, against the reference. */
    for (size_t l = 0; l < r->nlayouts; l++)
        for (size_t t = 0; t < m->ntiles; t++) {
            if (strcmp(m->tiles[t].param, r->layouts[l]) != 0)
                continue;
            for (size_t v = 0; v < m->tiles[t].n; v++)
                for (int w = 0; w < nwaves; w++) {
                    struct eng_shape s = {0};
                    eng_shape_set(&s, r->layouts[l], m->tiles[t].values[v]);
                    snprintf(name, sizeof name, "layout-%s%lld-wave%d", r->layouts[l],
                             (long long)m->tiles[t].values[v], waves[w]);
                    add_at_wave(b, name, false, &s, emulated ? waves[w] : 0);
                    eng_shape_free(&s);
                }
        }
    if (r->table)
        eng_rung3_table_plan(b, r->table);
    /* Offline code objects, per listed target, and per accepted value of each tile the kernel
     * fixes when it is built. */
    for (size_t t = 0; t < r->ntargets; t++) {
        size_t first = *b->n;
        snprintf(name, sizeof name, "code-%s", r->targets[t]);
        if (!r->ntile_builds)
            add_at_wave(b, name, false, &dflt, 0);
        for (size_t l = 0; l < r->ntile_builds; l++)
            for (size_t k = 0; k < m->ntiles; k++) {
                if (strcmp(m->tiles[k].param, r->tile_builds[l]) != 0)
                    continue;
                for (size_t v = 0; v < m->tiles[k].n; v++) {
                    struct eng_shape s = {0};
                    eng_shape_set(&s, r->tile_builds[l], m->tiles[k].values[v]);
                    snprintf(name, sizeof name, "code-%s-%s%lld", r->targets[t],
                             r->tile_builds[l], (long long)m->tiles[k].values[v]);
                    add_at_wave(b, name, false, &s, 0);
                    eng_shape_free(&s);
                }
            }
        eng_plan_set_kind(b, first, ENG_CHECK_CODE, r->targets[t]);
    }
    return 0;
}

/* The tuned-table checks read files only: no device, no compiler. */
static void run_table(const struct eng_check_spec *s, const struct eng_manifest *m,
                      void (*ready)(void *), void *arg, struct eng_check_result *out)
{
    eng_check_result_init(out);
    ready(arg);
    const struct eng_rung3_spec *r = m->settings[3];
    if (!r || !r->table)
        snprintf(out->detail, sizeof out->detail, "setup: the suite declares no tuned_table");
    else
        eng_rung3_table_check(s, m, r->table, out);
}

/* The code-object checks build for s->target and read what was built: nothing is launched. */
static void run_code(const struct eng_check_spec *s, const struct eng_manifest *m,
                     void (*ready)(void *), void *arg, struct eng_check_result *out)
{
    eng_check_result_init(out);
    ready(arg);
    eng_rung3_code_check(s, m, s->target, out);
}

/* The wave and layout checks, and the plain unit test: device checks, where a GPU of another
 * wave than the suite pins or its unit test ran at is a finding or a skip before any launch. */
static void run_device(const struct eng_check_spec *s, const struct eng_manifest *m,
                       void (*ready)(void *), void *arg, struct eng_check_result *out)
{
    /* A GPU runs at its own wave: a pinned wave it does not have fails before any launch. */
    const struct eng_backend *B = eng_backend_find(s->backend);
    char err[1024];
    const struct eng_rung3_spec *r = B && !B->caps.emulated ? m->settings[3] : NULL;
    struct eng_device_info info;
    /* The plain unit test is the one its authors ran, at baseline_wave. A GPU of another
     * wave (every NVIDIA GPU against a wave64 CI) already runs the seam in its plain test,
     * so that result says nothing about the unit test: skipped, with both numbers. */
    if (r && s->baseline && B->load(err, sizeof err) == 0 &&
        B->device_info(s->device, &info, err, sizeof err) == 0 &&
        info.wave_size != r->baseline_wave) {
        eng_check_result_init(out);
        out->verdict = CDB_SKIP;
        snprintf(out->detail, sizeof out->detail, "the unit test of %s runs at wave %d "
                 "(baseline_wave); device %s (%s) runs wave %d, so its plain run is not that "
                 "unit test", m->name, r->baseline_wave, info.name, info.target,
                 info.wave_size);
        ready(arg);
        return;
    }
    if (r && r->wave && !s->baseline && B->load(err, sizeof err) == 0 &&
        B->device_info(s->device, &info, err, sizeof err) == 0 && info.wave_size != r->wave) {
        eng_check_result_init(out);
        out->verdict = CDB_FAIL;
        snprintf(out->oracle, sizeof out->oracle, "wave");
        snprintf(out->detail, sizeof out->detail, "suite %s pins wave %d, device %s (%s) "
                 "runs wave %d", m->name, r->wave, info.name, info.target, info.wave_size);
        char a[192], bs[320];
        snprintf(a, sizeof a, "suite %s pins: wave %d", m->name, r->wave);
        snprintf(bs, sizeof bs, "device %s (%s): wave %d", info.name, info.target, info.wave_size);
        eng_check_seam(out, "wave", a, bs);
        ready(arg);
        return;
    }
    eng_exec_check(s, m, ready, arg, out);
    /* rung 3's own unit test runs at baseline_wave, not at the run's wave: it says so */
    if (B && B->caps.emulated && s->baseline) {
        char d[sizeof out->detail];
        snprintf(d, sizeof d, "unit test at wave %d (rung 3's baseline_wave: the wave the "
                 "suite's own CI ran)%s%.1400s", s->wave, out->detail[0] ? "; " : "",
                 out->detail);
        snprintf(out->detail, sizeof out->detail, "%s", d);
    }
    /* Say the wave in the failure itself, so that the two checks read as one comparison. */
    if (out->verdict == CDB_FAIL && B && B->caps.emulated && !s->baseline &&
        strcmp(out->oracle, "wave") != 0) {
        char d[sizeof out->detail];
        snprintf(d, sizeof d, "at wave %d: %.1500s", s->wave, out->detail);
        snprintf(out->detail, sizeof out->detail, "%s", d);
    }
}

static void run(const struct eng_check_spec *s, const struct eng_manifest *m,
                void (*ready)(void *), void *arg, struct eng_check_result *out)
{
    switch (s->kind) {
    case ENG_CHECK_TABLE:
        run_table(s, m, ready, arg, out);
        return;
    case ENG_CHECK_CODE:
        run_code(s, m, ready, arg, out);
        return;
    case ENG_CHECK_DEVICE:
        run_device(s, m, ready, arg, out);
        return;
    case ENG_CHECK_E2E:
    case ENG_CHECK_KIND_COUNT:
        break;
    }
    eng_check_result_init(out);
    snprintf(out->detail, sizeof out->detail, "setup: rung 3 runs no %s check",
             eng_check_kind_name(s->kind));
    ready(arg);
}

/* On a GPU whose runtime reports a loaded kernel's resources (CUDA: cuFuncGetAttribute), every
 * wave and layout check says them: the NVIDIA side of what the code checks read from AMD code
 * objects. Nothing is judged on them here; n/a where the runtime could not say. */
static void fmt_res(int64_t v, char *out, size_t n)
{
    if (v < 0)
        snprintf(out, n, "n/a");
    else
        snprintf(out, n, "%lld", (long long)v);
}

static int resources_note(struct eng_exec *e, struct eng_inst *in)
{
    (void)in;
    struct eng_kernel_resources r;
    if (!e->B->kernel_resources || e->B->kernel_resources(e->kvar, &r) != 0)
        return 0;
    char regs[24], shared[24], local[24], threads[24];
    fmt_res(r.registers, regs, sizeof regs);
    fmt_res(r.shared_bytes, shared, sizeof shared);
    fmt_res(r.local_bytes, local, sizeof local);
    fmt_res(r.max_threads, threads, sizeof threads);
    const char *entry = strcmp(e->s->variant, "buggy") == 0 ? e->m->entry_buggy : e->m->entry_fixed;
    eng_exec_note(e, "kernel %s on %s: %s registers, %s bytes shared, %s bytes local per thread, "
                  "at most %s threads a block", entry, e->target, regs, shared, local, threads);
    return 0;
}

const struct eng_rung eng_rung3 = {
    .number = 3,
    .seam_neighbours = true,
    .name = "test the seams",
    .parse = parse,
    .free_settings = free_settings,
    .plan = plan,
    .plans_baseline = true,
    .run = run,
    .oracle = resources_note,
    .op_unavailable = "rung 3 tests the seams of a build kladder makes (compile flags, tuned tables, "
                      "code objects): an op built by its own runtime has none kladder can rebuild",
};
