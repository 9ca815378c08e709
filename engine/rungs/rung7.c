/* Rung 7, software and hardware versions: checks that the toolchain's inputs reach the code
 * object and the compile cache (docs/engine.md, "Rung 7").
 *
 * Settings ("rungs": {"7": {...}}), all optional:
 *   "flags":   ["-DX", ...] or {"fixed": [...], "buggy": [...]}: the flags the suite declares,
 *              passed to every compile of the rung; each must change the code object. Only
 *              flags that change the code and touch no file are accepted (rung7_flags.h).
 *   "configs": [["-DS=2"], ["-DS=3"]]: configurations the kernel is specialised on, compiled in
 *              order through one cache (warm) and cold; the objects must agree.
 *   "buggy_key": "without-flags": the cache key the buggy variant's warm-cold check models
 *              (flydsl-1277's reproducer; the fixed variant always uses kladder's key).
 *   "contracts": [{"library": "libx.so.1", "symbols": ["f", ...]}], or {"fixed": [...],
 *              "buggy": [...]}: what a downstream caller needs from a shared library (a path
 *              absolute or relative to the manifest's folder); contract:LIB fails naming each
 *              symbol the installed library does not export (sglang-33142).
 *
 * Checks, for each variant: cache-key (eng_cache_audit around this suite's real compile
 * inputs), warm-cold (engine/cache/cache_warm_cold.h), and flag:F for each flag F (compiled with all
 * flags and without F: identical code objects fail, naming F — flydsl-1153); these compile and
 * compare only. And the toolchain smoke, smoke-wW:ENTRY (flydsl-1088): the variant's kernel
 * compiled and launched once at the suite's smallest shape on a wave-W target (32 and 64: an
 * emulated backend reaches both, a GPU its own and the other is skipped with the reason); a
 * kernel that aborts fails with its name, whatever its values (the other rungs judge those). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/embed.h"
#include "common/text.h"
#include "common/xalloc.h"
#include "engine/cache/cache_audit.h"
#include "engine/cache/cache_warm_cold.h"
#include "engine/rungs/cross_host.h"
#include "engine/codeobj/elf_build_id.h"
#include "engine/codeobj/elf_exports.h"
#include "engine/rung.h"
#include "engine/rungs/rung7.h"
#include "engine/rungs/rung7_flags.h"
#include "engine/rungs/rung7_py.h"
#include "engine/rungs/suite_py.h"
#include "engine/compile/plain_source.h"
#include "casedb/results_query.h"
#include "common/fileio.h"

/* Printable ASCII without spaces: flags and symbol names reach compilers, check names and the
 * terminal, so nothing else is accepted. */
static bool plain_token(const char *s)
{
    for (; *s; s++)
        if (*s < 0x21 || *s > 0x7e)
            return false;
    return true;
}

static void strv_free(char **v)
{
    for (size_t i = 0; v && v[i]; i++)
        free(v[i]);
    free(v);
}

/* j as an array of non-empty strings; a NULL-terminated malloc'd copy, or NULL on error. */
static char **read_strv(struct eng_mparse *p, const cJSON *j, const char *field)
{
    if (!cJSON_IsArray(j)) {
        char got[64];
        eng_mp_describe(j, got, sizeof got);
        eng_mp_bad(p, field, "expected an array of compiler flags, got %s", got);
        return NULL;
    }
    size_t n = (size_t)cJSON_GetArraySize(j), i = 0;
    char **v = xcalloc(n + 1, sizeof *v);
    for (const cJSON *it = j->child; it; it = it->next, i++) {
        if (!cJSON_IsString(it) || it->valuestring[0] != '-' || !plain_token(it->valuestring)) {
            char got[64], f[96];
            eng_mp_describe(it, got, sizeof got);
            snprintf(f, sizeof f, "%s[%zu]", field, i);
            eng_mp_bad(p, f, "expected a compiler flag (printable, no spaces, starting with '-'), "
                       "got %s", got);
            strv_free(v);
            return NULL;
        }
        char why[160];
        if (!eng_rung7_flag_allowed(it->valuestring, why, sizeof why)) {
            char f[96];
            snprintf(f, sizeof f, "%s[%zu]", field, i);
            eng_mp_bad(p, f, "compiler flag \"%s\" is refused (%s): a suite's flags are data, "
                       "and rung 7 accepts %s", it->valuestring, why, ENG_RUNG7_FLAGS_ACCEPTED);
            strv_free(v);
            return NULL;
        }
        v[i] = xstrdup(it->valuestring);
    }
    return v;
}

static void contracts_free(struct eng_contract *c, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        free(c[i].library);
        strv_free(c[i].symbols);
    }
    free(c);
}

/* j as [{"library": ..., "symbols": [...]}]; *n counts what was read, even on failure. */
static bool read_contracts(struct eng_mparse *p, const cJSON *j, const char *field,
                           struct eng_contract **out, size_t *n)
{
    *n = 0;
    if (!cJSON_IsArray(j)) {
        char got[64];
        eng_mp_describe(j, got, sizeof got);
        return eng_mp_bad(p, field, "expected an array of {\"library\": PATH, \"symbols\": "
                          "[NAME, ...]}, got %s", got);
    }
    *out = xcalloc((size_t)cJSON_GetArraySize(j) + 1, sizeof **out);
    static const char *const keys[] = {"library", "symbols", NULL};
    for (const cJSON *it = j->child; it; it = it->next) {
        char f[96], fs[112];
        snprintf(f, sizeof f, "%s[%zu]", field, *n);
        snprintf(fs, sizeof fs, "%s.symbols", f);
        struct eng_contract *c = &(*out)[*n];
        if (!cJSON_IsObject(it))
            return eng_mp_bad(p, f, "expected an object {\"library\": PATH, \"symbols\": [...]}");
        (*n)++;
        if (!eng_mp_only_keys(p, it, f, keys))
            return false;
        char lf[112];
        snprintf(lf, sizeof lf, "%s.library", f);
        if (!(c->library = eng_mp_string(p, it, "library", true, lf)))
            return false;
        if (!text_is_clean(c->library, NULL))
            return eng_mp_bad(p, lf, "expected a file path without control characters");
        const cJSON *sy = cJSON_GetObjectItemCaseSensitive(it, "symbols");
        if (!cJSON_IsArray(sy) || cJSON_GetArraySize(sy) == 0)
            return eng_mp_bad(p, fs, "expected a non-empty array of symbol names");
        size_t k = 0;
        c->symbols = xcalloc((size_t)cJSON_GetArraySize(sy) + 1, sizeof *c->symbols);
        for (const cJSON *s = sy->child; s; s = s->next, k++) {
            if (!cJSON_IsString(s) || !s->valuestring[0] || !plain_token(s->valuestring)) {
                char got[64], fk[128];
                eng_mp_describe(s, got, sizeof got);
                snprintf(fk, sizeof fk, "%s[%zu]", fs, k);
                return eng_mp_bad(p, fk, "expected a symbol name (printable, no spaces), got %s",
                                  got);
            }
            c->symbols[k] = xstrdup(s->valuestring);
        }
    }
    return true;
}

static void free_settings(void *settings)
{
    struct eng_rung7_spec *r = settings;
    if (!r)
        return;
    contracts_free(r->contracts[0], r->ncontracts[0]);
    contracts_free(r->contracts[1], r->ncontracts[1]);
    strv_free(r->flags[0]);
    strv_free(r->flags[1]);
    for (size_t i = 0; i < r->nconfigs; i++)
        strv_free(r->configs[i]);
    free(r->configs);
    eng_shapes_free(r->timing, r->ntiming);
    for (int v = 0; v < 2; v++)
        free(r->hosts[v][0]), free(r->hosts[v][1]);
    eng_r7_api_free(r->api);
    eng_r7_ci_free(r->ci);
    free(r);
}

/* "hosts": {"fixed": [A, B], "buggy": [A, B]}: two exported results documents per variant. */
static bool read_hosts(struct eng_mparse *p, const cJSON *h, struct eng_rung7_spec *r)
{
    if (!h)
        return true;
    static const char *const vk[] = {"fixed", "buggy", NULL};
    if (!cJSON_IsObject(h))
        return eng_mp_bad(p, "rungs.7.hosts", "expected {\"fixed\": [EXPORT, EXPORT], "
                          "\"buggy\": [EXPORT, EXPORT]}");
    if (!eng_mp_only_keys(p, h, "rungs.7.hosts", vk))
        return false;
    for (int v = 0; v < 2; v++) {
        char f[48];
        snprintf(f, sizeof f, "rungs.7.hosts.%s", vk[v]);
        const cJSON *a = cJSON_GetObjectItemCaseSensitive(h, vk[v]);
        if (!cJSON_IsArray(a) || cJSON_GetArraySize(a) != 2)
            return eng_mp_bad(p, f, "expected two exported results files, one per host");
        int i = 0;
        for (const cJSON *it = a->child; it; it = it->next, i++) {
            char fi[64];
            snprintf(fi, sizeof fi, "%s[%d]", f, i);
            if (!cJSON_IsString(it) || !it->valuestring[0] ||
                !text_is_clean(it->valuestring, NULL))
                return eng_mp_bad(p, fi, "expected a file path without control characters");
            r->hosts[v][i] = xstrdup(it->valuestring);
        }
    }
    return true;
}

static bool parse(struct eng_mparse *p, const struct eng_manifest *m, const cJSON *j, void **out)
{
    static const char *const keys[] = {"flags",  "configs",        "buggy_key", "contracts",
                                       "timing", "timing_repeats", "hosts",     "api",
                                       "ci",    NULL};
    struct eng_rung7_spec *r = xcalloc(1, sizeof *r);
    *out = r;
    if (!eng_mp_only_keys(p, j, "rungs.7", keys))
        return false;
    const cJSON *f = cJSON_GetObjectItemCaseSensitive(j, "flags");
    if (cJSON_IsObject(f)) {
        static const char *const vk[] = {"fixed", "buggy", NULL};
        if (!eng_mp_only_keys(p, f, "rungs.7.flags", vk))
            return false;
        const cJSON *fx = cJSON_GetObjectItemCaseSensitive(f, "fixed");
        const cJSON *bg = cJSON_GetObjectItemCaseSensitive(f, "buggy");
        if (!(r->flags[0] = read_strv(p, fx, "rungs.7.flags.fixed")) ||
            !(r->flags[1] = read_strv(p, bg, "rungs.7.flags.buggy")))
            return false;
    } else if (f) {
        if (!(r->flags[0] = read_strv(p, f, "rungs.7.flags")) ||
            !(r->flags[1] = read_strv(p, f, "rungs.7.flags")))
            return false;
    } else {
        r->flags[0] = xcalloc(1, sizeof(char *));
        r->flags[1] = xcalloc(1, sizeof(char *));
    }
    const cJSON *c = cJSON_GetObjectItemCaseSensitive(j, "configs");
    if (c) {
        if (!cJSON_IsArray(c) || cJSON_GetArraySize(c) < 2)
            return eng_mp_bad(p, "rungs.7.configs",
                              "expected an array of at least two flag lists (one per "
                              "configuration)");
        r->configs = xcalloc((size_t)cJSON_GetArraySize(c), sizeof *r->configs);
        for (const cJSON *it = c->child; it; it = it->next) {
            char field[48];
            snprintf(field, sizeof field, "rungs.7.configs[%zu]", r->nconfigs);
            if (!(r->configs[r->nconfigs] = read_strv(p, it, field)))
                return false;
            r->nconfigs++;
        }
    }
    static const char *const key_names[] = {"kladder", "without-flags"};
    int k = 0;
    if (!eng_mp_enum(p, j, "buggy_key", "rungs.7.buggy_key", key_names, 2, 0, &k))
        return false;
    r->buggy_key_without_flags = k == 1;
    const cJSON *ct = cJSON_GetObjectItemCaseSensitive(j, "contracts");
    if (cJSON_IsObject(ct)) {
        static const char *const vk[] = {"fixed", "buggy", NULL};
        if (!eng_mp_only_keys(p, ct, "rungs.7.contracts", vk))
            return false;
        const char *names[2] = {"fixed", "buggy"};
        for (int v = 0; v < 2; v++) {
            char cf[48];
            snprintf(cf, sizeof cf, "rungs.7.contracts.%s", names[v]);
            if (!read_contracts(p, cJSON_GetObjectItemCaseSensitive(ct, names[v]), cf,
                                &r->contracts[v], &r->ncontracts[v]))
                return false;
        }
    } else if (ct) {
        for (int v = 0; v < 2; v++)
            if (!read_contracts(p, ct, "rungs.7.contracts", &r->contracts[v], &r->ncontracts[v]))
                return false;
    }
    if (!eng_mp_shapes(p, m, j, "timing", "rungs.7.timing", true, &r->ntiming, &r->timing))
        return false;
    double reps = 15;
    if (!eng_mp_number(p, j, "timing_repeats", "rungs.7.timing_repeats", CDB_CMP_MIN_REPEATS,
                       10000, &reps))
        return false;
    if (reps < (int)reps || reps > (int)reps)
        return eng_mp_bad(p, "rungs.7.timing_repeats", "expected a whole number of repeats");
    r->timing_repeats = (int)reps;
    const cJSON *api = cJSON_GetObjectItemCaseSensitive(j, "api"),
                *ci = cJSON_GetObjectItemCaseSensitive(j, "ci");
    if ((api && !eng_r7_api_parse(p, api, &r->api)) || (ci && !eng_r7_ci_parse(p, ci, &r->ci)))
        return false;
    return read_hosts(p, cJSON_GetObjectItemCaseSensitive(j, "hosts"), r);
}

/* The baseline shape with the fewest elements (the product of its values), or the default. */
static const struct eng_shape *smallest_shape(const struct eng_manifest *m)
{
    static const struct eng_shape none = {0};
    const struct eng_shape *best = &none;
    double best_size = 0;
    for (size_t i = 0; i < m->nbaseline; i++) {
        double size = 1;
        for (size_t k = 0; k < m->baseline[i].n; k++)
            size *= (double)m->baseline[i].values[k];
        if (best == &none || size < best_size)
            best = &m->baseline[i], best_size = size;
    }
    return best;
}

/* declared: the suite names rung 7, so its buggy variant is its claim of a bug the smoke
 * catches; elsewhere every kernel, buggy ones too, is expected to run. */
static void plan_smoke(struct eng_plan_builder *b, bool declared)
{
    static const int waves[] = {32, 64};
    for (size_t w = 0; w < 2; w++) {
        size_t before = *b->n;
        eng_plan_add(b, "smoke", ENG_MODE_PLAIN, false, smallest_shape(b->m), 1, 0, 0);
        for (size_t k = before; k < *b->n; k++) {
            struct eng_check_spec *sp = &(*b->list)[k].spec;
            const char *entry = strcmp(sp->variant, "buggy") == 0 ? b->m->entry_buggy
                                                                  : b->m->entry_fixed;
            free(sp->name);
            sp->name = xasprintf("smoke-w%d:%s", waves[w], entry);
            sp->wave = waves[w];
            if (!declared)
                (*b->list)[k].expect_fail = false;
        }
    }
}

/* A contract's check is named after its library's file name. */
static const char *lib_base(const char *library)
{
    const char *base = strrchr(library, '/');
    return base ? base + 1 : library;
}

/* Adds the check name (both variants) unless a check added since index `since` has it. */
static void plan_once(struct eng_plan_builder *b, size_t since, const char *name)
{
    struct eng_shape none = {0};
    for (size_t k = since; k < *b->n; k++)
        if (strcmp((*b->list)[k].spec.name, name) == 0)
            return;
    eng_plan_add(b, name, ENG_MODE_PLAIN, false, &none, 1, 0, 0);
}

static int plan(struct eng_plan_builder *b, char *err, size_t errlen)
{
    (void)err, (void)errlen;
    const struct eng_rung7_spec *r = b->m->settings[7];
    struct eng_shape none = {0};
    if (!r) { /* a suite that does not declare rung 7 (eng_rung_applies): the smoke only */
        plan_smoke(b, false);
        return 0;
    }
    plan_smoke(b, true);
    eng_plan_add(b, "cache-key", ENG_MODE_PLAIN, false, &none, 1, 0, 0);
    eng_plan_add(b, "warm-cold", ENG_MODE_PLAIN, false, &none, 1, 0, 0);
    for (size_t i = 0; i < r->ntiming; i++) {
        char name[160];
        snprintf(name, sizeof name, "timing:%s", r->timing[i].name);
        eng_plan_add(b, name, ENG_MODE_REPEAT, false, &r->timing[i], 1, r->timing_repeats, 0);
    }
    if (r->hosts[0][0])
        eng_plan_add(b, "cross-host", ENG_MODE_PLAIN, false, &none, 1, 0, 0);
    if (r->api)
        eng_r7_api_plan(b, r->api);
    if (r->ci)
        eng_r7_ci_plan(b, r->ci);
    /* one check per declared flag and per contracted library; the variants may differ */
    size_t before = *b->n;
    for (int v = 0; v < 2; v++) {
        for (size_t i = 0; r->flags[v][i]; i++) {
            char name[160];
            snprintf(name, sizeof name, "flag:%s", r->flags[v][i]);
            plan_once(b, before, name);
        }
        for (size_t i = 0; i < r->ncontracts[v]; i++) {
            char name[160];
            snprintf(name, sizeof name, "contract:%s", lib_base(r->contracts[v][i].library));
            plan_once(b, before, name);
        }
    }
    /* a flag or contract check exists for a variant only where that variant declares it */
    for (size_t k = before; k < *b->n;) {
        struct eng_planned *pl = &(*b->list)[k];
        int v = strcmp(pl->spec.variant, "buggy") == 0;
        bool declared = false;
        if (strncmp(pl->spec.name, "flag:", 5) == 0)
            for (size_t i = 0; r->flags[v][i] && !declared; i++)
                declared = strcmp(pl->spec.name + 5, r->flags[v][i]) == 0;
        for (size_t i = 0; i < r->ncontracts[v] && !declared; i++)
            declared = strncmp(pl->spec.name, "contract:", 9) == 0 &&
                       strcmp(pl->spec.name + 9, lib_base(r->contracts[v][i].library)) == 0;
        if (declared) {
            k++;
            continue;
        }
        eng_check_spec_free(&pl->spec);
        memmove(pl, pl + 1, (*b->n - k - 1) * sizeof *pl);
        (*b->n)--;
    }
    return 0;
}

/* ---- worker side ---------------------------------------------------------------------- */

struct r7 {
    const struct eng_backend *B;
    const struct eng_manifest *m;
    char target[96];
    const char *header;
    char *source;
    char **flags;   /* the variant's declared flags */
};

/* Report lines joined with "; " for a one-paragraph detail (in place; n is the buffer size). */
static void join_lines(char *s, size_t n)
{
    size_t len = strlen(s);
    while (len && s[len - 1] == '\n')
        s[--len] = '\0';
    for (char *p = s; (p = strchr(p, '\n'));) {
        if (len + 2 >= n) {
            *p = ';';
            continue;
        }
        memmove(p + 2, p + 1, len - (size_t)(p - s));
        p[0] = ';', p[1] = ' ';
        len++;
        p += 2;
    }
}

static void check_cache_key(struct r7 *g, struct eng_check_result *out)
{
    struct eng_cache_key k = {g->B->name, g->target, g->B->compiler_id(),
                              (const char *const *)g->flags, g->header, g->source, NULL};
    char report[1400];
    size_t n = eng_cache_audit(eng_cache_key_hex, &k, NULL, NULL, report, sizeof report);
    out->verdict = n ? CDB_FAIL : CDB_PASS;
    out->bad_count = (int64_t)n;
    join_lines(report, sizeof report);
    if (n)
        snprintf(out->detail, sizeof out->detail, "%s", report);
    else
        snprintf(out->detail, sizeof out->detail,
                 "the key moved with each input: backend, target, compiler, header, source, "
                 "each flag and each key environment variable");
}

static void check_warm_cold(struct r7 *g, const struct eng_rung7_spec *r, bool buggy,
                            struct eng_check_result *out)
{
    /* without declared configurations: no flags, then the variant's flags */
    const char *const empty[] = {NULL};
    const char *const *dflt[2] = {empty, (const char *const *)g->flags};
    const char *const *const *sets = dflt;
    size_t nsets = 2;
    if (r->nconfigs) {
        sets = (const char *const *const *)r->configs;
        nsets = r->nconfigs;
    }
    eng_cache_key_fn key = buggy && r->buggy_key_without_flags ? eng_cache_key_without_flags
                                                              : eng_cache_key_hex;
    char report[1200], err[1400];
    int d = eng_cache_warm_cold(g->B, key, g->target, g->m->source, g->header, g->source, sets,
                                nsets, report, sizeof report, err, sizeof err);
    if (d < 0) {
        out->verdict = CDB_ERROR;
        snprintf(out->detail, sizeof out->detail, "setup: %s", err);
        return;
    }
    out->verdict = d ? CDB_FAIL : CDB_PASS;
    out->bad_count = d;
    join_lines(report, sizeof report);
    snprintf(out->detail, sizeof out->detail, "%s%s%zu configurations, warm cache against cold, "
             "key %s", d ? report : "", d ? "; " : "", nsets,
             key == eng_cache_key_hex ? "kladder's" : "without the flags (flydsl-1277's)");
}

/* The variant's flags with the one at index skip left out (skip < 0: all). */
static const char **flags_without(char **flags, long skip)
{
    size_t n = 0;
    while (flags[n])
        n++;
    const char **v = xcalloc(n + 1, sizeof *v);
    size_t k = 0;
    for (size_t i = 0; i < n; i++)
        if ((long)i != skip)
            v[k++] = flags[i];
    return v;
}

static void check_flag(struct r7 *g, const char *flag, struct eng_check_result *out)
{
    long idx = -1;
    for (long i = 0; g->flags[i] && idx < 0; i++)
        if (strcmp(g->flags[i], flag) == 0)
            idx = i;
    if (idx < 0) {
        out->verdict = CDB_ERROR;
        snprintf(out->detail, sizeof out->detail, "setup: flag %s is not declared", flag);
        return;
    }
    const char **with = flags_without(g->flags, -1), **without = flags_without(g->flags, idx);
    char *full = eng_source_join(g->header, g->m->source, g->source);
    void *a = NULL, *b = NULL;
    size_t al = 0, bl = 0;
    char log[1200];
    /* compiled directly, never through the cache: the question is what the compiler makes */
    if (g->B->compile(g->target, full, g->m->source, with, &a, &al, log, sizeof log) != 0 ||
        g->B->compile(g->target, full, g->m->source, without, &b, &bl, log, sizeof log) != 0) {
        out->verdict = CDB_ERROR;
        snprintf(out->detail, sizeof out->detail, "setup: compiling %s for %s: %s",
                 g->m->source, g->target, log);
    } else if (al == bl && memcmp(a, b, al) == 0) {
        out->verdict = CDB_FAIL;
        out->bad_count = 1;
        snprintf(out->detail, sizeof out->detail,
                 "flag %s changes nothing: the code object of %s for %s is byte for byte the "
                 "same with and without it (%zu bytes); it never reaches the code",
                 flag, g->m->source, g->target, al);
    } else {
        out->verdict = CDB_PASS;
        snprintf(out->detail, sizeof out->detail,
                 "flag %s reaches the code object (%zu bytes with it, %zu without)", flag, al, bl);
    }
    free(a);
    free(b);
    free(full);
    free(with);
    free(without);
}

/* The smoke: one launch of the variant at the smallest shape, through the device check. What
 * matters is that the kernel compiles, launches and finishes; a kernel that takes the process
 * down never returns here and the runner fails the check (crash_fails). */
static void run_smoke(const struct eng_check_spec *s, const struct eng_manifest *m,
                      void (*ready)(void *), void *arg, struct eng_check_result *out)
{
    const char *entry = strchr(s->name, ':') + 1;
    const struct eng_backend *B = eng_backend_find(s->backend);
    struct eng_device_info info;
    char why[512];
    if (B && !B->caps.emulated && B->load(why, sizeof why) == 0 &&
        B->device_info(s->device, &info, why, sizeof why) == 0 && info.wave_size != s->wave) {
        eng_check_result_init(out);
        out->verdict = CDB_SKIP;
        snprintf(out->detail, sizeof out->detail,
                 "%s device %d (%s) runs wave %d: a wave-%d target is not reachable here",
                 B->name, s->device, info.target, info.wave_size, s->wave);
        return;
    }
    eng_exec_check(s, m, ready, arg, out);
    char detail[sizeof out->detail];
    snprintf(detail, sizeof detail, "%s", out->detail);
    snprintf(out->oracle, sizeof out->oracle, "launch");
    if (out->verdict == CDB_PASS || out->verdict == CDB_FAIL) {
        out->verdict = CDB_PASS;
        snprintf(out->detail, sizeof out->detail, "%s compiled, launched and finished at wave %d%s%.1200s",
                 entry, s->wave, detail[0] ? "; its values (the other rungs judge them): " : "",
                 detail);
        out->bad_count = 0;
        out->first_bad = -1;
    } else if (out->verdict == CDB_ERROR) {
        out->verdict = CDB_FAIL;
        snprintf(out->detail, sizeof out->detail, "%s did not compile, load or launch: %.1400s",
                 entry, detail);
    }
}

/* Each contract of the variant whose library is called base: every symbol it needs must be
 * exported by the library installed now, whose build id names the version checked. */
static void check_contract(struct r7 *g, const struct eng_rung7_spec *r, bool buggy,
                           const char *base, struct eng_check_result *out)
{
    size_t used = 0, missing = 0, checked = 0;
    out->verdict = CDB_PASS;
    for (size_t i = 0; i < r->ncontracts[buggy]; i++) {
        const struct eng_contract *c = &r->contracts[buggy][i];
        if (strcmp(lib_base(c->library), base) != 0)
            continue;
        char *path = c->library[0] == '/' || !g->m->dir
                         ? xstrdup(c->library)
                         : xasprintf("%s/%s", g->m->dir, c->library);
        char err[600], id[2 * ELF_BUILD_ID_MAX + 1];
        struct eng_elf_exports *x = eng_elf_exports_open(path, err, sizeof err);
        if (!x) {
            out->verdict = CDB_FAIL;
            used += (size_t)snprintf(out->detail + used, sizeof out->detail - used,
                                     "%s%s", used ? "; " : "", err);
            free(path);
            if (used >= sizeof out->detail)
                used = sizeof out->detail - 1;
            continue;
        }
        if (eng_elf_build_id(path, id, err, sizeof err) != 0)
            snprintf(id, sizeof id, "none");
        size_t before = used;
        for (size_t k = 0; c->symbols[k]; k++, checked++) {
            if (eng_elf_exports_has(x, c->symbols[k]))
                continue;
            missing++;
            used += (size_t)snprintf(out->detail + used, sizeof out->detail - used, "%s%s",
                                     used == before ? "" : ", ", c->symbols[k]);
            if (used >= sizeof out->detail)
                used = sizeof out->detail - 1;
        }
        if (used > before) {
            /* "sym, sym" becomes "PATH (build id X) does not export sym, sym" */
            char list[1024];
            snprintf(list, sizeof list, "%s", out->detail + before);
            used = before + (size_t)snprintf(out->detail + before, sizeof out->detail - before,
                                             "%s%s (build id %s) does not export %s: a caller "
                                             "that needs them falls back or fails",
                                             before ? "; " : "", path, id, list);
            if (used >= sizeof out->detail)
                used = sizeof out->detail - 1;
            out->verdict = CDB_FAIL;
        }
        eng_elf_exports_close(x);
        free(path);
    }
    out->bad_count = (int64_t)missing;
    if (out->verdict == CDB_PASS)
        snprintf(out->detail, sizeof out->detail, "%s exports the %zu symbol%s its callers need",
                 base, checked, checked == 1 ? "" : "s");
}

/* A timing micro-check (ENG_MODE_REPEAT under this rung): one launch whose values are checked
 * like any other kernel's, then timing_repeats launches each timed on its own, so that the
 * median, min and max are per launch and `kladder compare` can weigh the spread. */
static int execute_timing(struct eng_exec *e, struct eng_inst *ins, size_t n, struct eng_timer *t)
{
    (void)n;
    struct eng_inst *in = &ins[0];
    ENG_TRY(eng_exec_inst_alloc(e, in));
    ENG_TRY(eng_exec_inst_args(e, in));
    eng_exec_ready(e);
    struct eng_timer untimed = {0}; /* the first launch pays for loading: not a sample */
    ENG_TRY(eng_exec_mode_plain(e, in, &untimed, ENG_OUT_SENTINEL, true, "checked launch"));
    if (e->failed)
        return 0;
    int reps = e->s->repeats > 0 ? e->s->repeats : 1;
    for (int r = 0; r < reps; r++) {
        eng_exec_timer_start(e, t, NULL);
        ENG_TRY(eng_exec_launch_var(e, in, NULL));
        eng_exec_timer_stop(e, t, NULL, 1);
    }
    ENG_TRY(eng_exec_sync_all(e, NULL));
    e->out->repeats = (int)t->n;
    return 0;
}

static void run_timing(const struct eng_check_spec *s, const struct eng_manifest *m,
                       void (*ready)(void *), void *arg, struct eng_check_result *out)
{
    eng_exec_check(s, m, ready, arg, out);
    snprintf(out->oracle, sizeof out->oracle, "reference+timing");
    if (out->verdict != CDB_PASS)
        return;
    if (!isfinite(out->t_med_us)) {
        snprintf(out->detail, sizeof out->detail,
                 "%s: values right; the %s backend cannot time, so there is nothing to compare",
                 s->name + 7, s->backend);
        return;
    }
    snprintf(out->detail, sizeof out->detail,
             "%s: median %.3f us per launch over %d timed launches, spread [%.3f, %.3f] us "
             "(max/min %.2f); values right",
             s->name + 7, out->t_med_us, out->repeats, out->t_min_us, out->t_max_us,
             out->t_min_us > 0 ? out->t_max_us / out->t_min_us : (double)NAN);
}

/* cross-host: the variant's two recorded hosts compared under kladder compare's noise rules
 * (engine/rungs/cross_host.h); a timing beyond the noise fails, naming the check and the ratio. */
static void check_cross_host(const struct eng_manifest *m, const struct eng_rung7_spec *r,
                             bool buggy, struct eng_check_result *out)
{
    snprintf(out->oracle, sizeof out->oracle, "cross-host");
    snprintf(out->shape, sizeof out->shape, "two recorded hosts");
    char *const *h = r->hosts[buggy];
    size_t la = 0, lb = 0;
    char err[1024] = "";
    char *a = eng_suite_file_read(m, h[0], &la, err, sizeof err);
    char *b = a ? eng_suite_file_read(m, h[1], &lb, err, sizeof err) : NULL;
    struct eng_cross_host ch;
    char report[sizeof out->detail];
    if (!a || !b ||
        eng_cross_host_compare(a, la, h[0], b, lb, h[1], "timing:", &ch, report, sizeof report,
                               err, sizeof err) != 0) {
        out->verdict = CDB_ERROR;
        snprintf(out->detail, sizeof out->detail, "setup: %s", err);
    } else if (ch.flagged) {
        out->verdict = CDB_FAIL;
        out->bad_count = ch.flagged;
        snprintf(out->detail, sizeof out->detail, "%s", report);
    } else if (ch.few == ch.compared) {
        out->verdict = CDB_SKIP;
        snprintf(out->detail, sizeof out->detail, "not judged: %.1500s", report);
    } else {
        out->verdict = CDB_PASS;
        snprintf(out->detail, sizeof out->detail, "%s", report);
    }
    free(a);
    free(b);
}

/* The checks of Python code beside the kernel (engine/rungs/rung7_py.h), the unit tests of
 * that code among them: no device, no compiler. false when s is none of them. */
static bool run_python(const struct eng_check_spec *s, const struct eng_manifest *m,
                       void (*ready)(void *), void *arg, struct eng_check_result *out)
{
    static const char *const api[] = {"api:", "unit-test-api:"}, *const ci[] = {"ci-audit:",
                                                                                 "ci-exit-status:"};
    const char *const *kind = NULL;
    for (int k = 0; k < 2 && !kind; k++)
        if (!strncmp(s->name, api[k], strlen(api[k])))
            kind = api;
        else if (!strncmp(s->name, ci[k], strlen(ci[k])))
            kind = ci;
    if (!kind)
        return false;
    eng_check_result_init(out);
    if (ready)
        ready(arg); /* the watchdog covers the Python too: a test can hang */
    const struct eng_rung7_spec *r = m->settings[7];
    if (!r || !(kind == api ? (void *)r->api : (void *)r->ci)) {
        snprintf(out->detail, sizeof out->detail, "setup: the suite declares no such Python "
                 "check");
    } else if (kind == api) {
        eng_r7_api_check(s, m, r->api, out);
    } else {
        eng_r7_ci_check(s, m, r->ci, out);
    }
    return true;
}

static void run(const struct eng_check_spec *s, const struct eng_manifest *m,
                void (*ready)(void *), void *arg, struct eng_check_result *out)
{
    if (run_python(s, m, ready, arg, out))
        return;
    if (strncmp(s->name, "timing:", 7) == 0 && !s->baseline) {
        run_timing(s, m, ready, arg, out);
        return;
    }
    if (strcmp(s->name, "cross-host") == 0 && !s->baseline) {
        /* recorded results only: no device, no compiler */
        eng_check_result_init(out);
        if (ready)
            ready(arg);
        check_cross_host(m, m->settings[7], strcmp(s->variant, "buggy") == 0, out);
        return;
    }
    if (s->baseline) { /* the plain unit test beside the rung: a device check like any other */
        eng_exec_check(s, m, ready, arg, out);
        return;
    }
    if (strncmp(s->name, "smoke-", 6) == 0 && strchr(s->name, ':')) {
        run_smoke(s, m, ready, arg, out);
        return;
    }
    eng_check_result_init(out);
    snprintf(out->oracle, sizeof out->oracle, "code-object");
    snprintf(out->shape, sizeof out->shape, "compile only");
    char err[768] = "", why[512];
    struct r7 g = {0};
    if (ready)
        ready(arg); /* the watchdog covers the compiler too: a compiler can hang */
    g.B = eng_backend_find(s->backend);
    struct eng_device_info info;
    memset(&info, 0, sizeof info);
    const struct embed_file *h = embed_find("kernels/kl.h");
    if (!g.B || g.B->load(why, sizeof why) != 0) {
        snprintf(out->detail, sizeof out->detail, "setup: the %s backend is not available: %s",
                 s->backend, g.B ? why : "unknown backend");
        goto done;
    }
    if (!(g.source = eng_suite_source(m, g.B->caps.emulated, err, sizeof err)) || !h) {
        snprintf(out->detail, sizeof out->detail, "setup: %s", h ? err : "kernels/kl.h is not built in");
        goto done;
    }
    if (g.B->device_info(s->device, &info, why, sizeof why) != 0) {
        snprintf(out->detail, sizeof out->detail, "setup: %s", why);
        goto done;
    }
    g.m = m;
    g.header = (const char *)h->data;
    g.B->compile_target(&info, s->wave, g.target, sizeof g.target);
    const struct eng_rung7_spec *r = m->settings[7];
    bool buggy = strcmp(s->variant, "buggy") == 0;
    g.flags = r->flags[buggy];
    if (strcmp(s->name, "cache-key") == 0)
        check_cache_key(&g, out);
    else if (strcmp(s->name, "warm-cold") == 0)
        check_warm_cold(&g, r, buggy, out);
    else if (strncmp(s->name, "flag:", 5) == 0)
        check_flag(&g, s->name + 5, out);
    else if (strncmp(s->name, "contract:", 9) == 0)
        check_contract(&g, r, buggy, s->name + 9, out);
    else
        snprintf(out->detail, sizeof out->detail, "setup: rung 7 has no check '%s'", s->name);
done:
    free(g.source);
}

const struct eng_rung eng_rung7 = {
    .number = 7,
    .name = "software and hardware versions",
    .parse = parse,
    .free_settings = free_settings,
    .plan = plan,
    .run = run,
    .execute = execute_timing,
    .crash_fails = true,
    .every_suite = true,
    .op_unavailable = "rung 7 rebuilds and reruns the kernel under other compilers and runtimes: an "
                      "op's runtime is the one loaded in its process",
};
