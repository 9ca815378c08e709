/* Rung 7's API contract over Python releases (sglang-33142): a downstream package of ours
 * imports a library whose next release moved a name. The check runs kernels/tools/api_probe.py
 * against one release: every name the package imports from the library must resolve, and every
 * call the model makes must leave evidence that the library's code ran. A guarded import that
 * silently falls back returns the right answer and would pass a test of values alone; here it
 * fails as "fell back", and an unguarded import as "raised". The unit test beside it, pinned to
 * the first (old) release, asks only that the calls return. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/text.h"
#include "common/xalloc.h"
#include "engine/rungs/rung7_py.h"
#include "engine/rungs/suite_py.h"

void eng_r7_api_free(struct eng_rung7_api *a)
{
    if (!a)
        return;
    free(a->library);
    for (size_t i = 0; i < a->nreleases; i++)
        free(a->releases[i]);
    free(a->releases);
    free(a->callers[0]);
    free(a->callers[1]);
    for (size_t i = 0; a->calls && a->calls[i]; i++)
        free(a->calls[i]);
    free(a->calls);
    free(a);
}

/* "pkg.mod:func": dotted Python identifiers, a colon, an identifier. */
static bool call_ok(const char *s)
{
    const char *colon = strchr(s, ':');
    if (!colon || colon == s || !colon[1] || strchr(colon + 1, ':'))
        return false;
    for (const char *c = s; *c; c++)
        if (!strchr("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_.:", *c))
            return false;
    return !strchr(colon + 1, '.');
}

bool eng_r7_api_parse(struct eng_mparse *p, const cJSON *j, struct eng_rung7_api **out)
{
    static const char *const keys[] = {"library", "releases", "callers", "calls", NULL};
    struct eng_rung7_api *a = *out = xcalloc(1, sizeof *a);
    if (!cJSON_IsObject(j))
        return eng_mp_bad(p, "rungs.7.api", "expected {\"library\": PACKAGE, \"releases\": "
                          "[DIR, ...], \"callers\": DIR, \"calls\": [\"MODULE:FUNCTION\", ...]}");
    if (!eng_mp_only_keys(p, j, "rungs.7.api", keys) ||
        !(a->library = eng_mp_string(p, j, "library", true, "rungs.7.api.library")))
        return false;
    if (!a->library[0] || strspn(a->library, "abcdefghijklmnopqrstuvwxyz0123456789_") !=
                              strlen(a->library))
        return eng_mp_bad(p, "rungs.7.api.library", "expected a top-level package name "
                          "(lower case letters, digits, _)");
    const cJSON *r = cJSON_GetObjectItemCaseSensitive(j, "releases");
    if (!cJSON_IsArray(r) || cJSON_GetArraySize(r) < 1)
        return eng_mp_bad(p, "rungs.7.api.releases", "expected an array of release folders, the "
                          "one the unit test is pinned to first");
    a->releases = xcalloc((size_t)cJSON_GetArraySize(r), sizeof *a->releases);
    for (const cJSON *it = r->child; it; it = it->next) {
        char f[64];
        snprintf(f, sizeof f, "rungs.7.api.releases[%zu]", a->nreleases);
        if (!(a->releases[a->nreleases] = eng_suite_path(p, it, f)))
            return false;
        a->nreleases++;
    }
    if (!eng_suite_paths(p, cJSON_GetObjectItemCaseSensitive(j, "callers"), "rungs.7.api.callers",
                      a->callers))
        return false;
    const cJSON *c = cJSON_GetObjectItemCaseSensitive(j, "calls");
    if (!cJSON_IsArray(c) || cJSON_GetArraySize(c) < 1)
        return eng_mp_bad(p, "rungs.7.api.calls", "expected an array of \"MODULE:FUNCTION\"");
    a->calls = xcalloc((size_t)cJSON_GetArraySize(c) + 1, sizeof *a->calls);
    size_t i = 0;
    for (const cJSON *it = c->child; it; it = it->next, i++) {
        if (!cJSON_IsString(it) || !call_ok(it->valuestring)) {
            char f[64], got[64];
            snprintf(f, sizeof f, "rungs.7.api.calls[%zu]", i);
            eng_mp_describe(it, got, sizeof got);
            return eng_mp_bad(p, f, "expected \"MODULE:FUNCTION\" (Python names), got %s", got);
        }
        a->calls[i] = xstrdup(it->valuestring);
    }
    return true;
}

void eng_r7_api_plan(struct eng_plan_builder *b, const struct eng_rung7_api *a)
{
    struct eng_shape none = {0};
    char name[200];
    for (size_t i = 0; i < a->nreleases; i++) {
        snprintf(name, sizeof name, "api:%s", eng_suite_path_base(a->releases[i]));
        eng_plan_add(b, name, ENG_MODE_PLAIN, false, &none, 1, 0, 0);
    }
    if (b->o->baseline) {
        snprintf(name, sizeof name, "unit-test-api:%s", eng_suite_path_base(a->releases[0]));
        eng_plan_add(b, name, ENG_MODE_PLAIN, true, &none, 1, 0, 0);
    }
}

/* Appends to buf (bounded, always terminated). */
void eng_r7_add(char *buf, size_t n, const char *fmt, ...)
{
    size_t used = strlen(buf);
    va_list ap;
    va_start(ap, fmt);
    if (used + 1 < n)
        vsnprintf(buf + used, n - used, fmt, ap);
    va_end(ap);
}

/* Judges the probe's JSON lines into out. unit_test: only whether the calls returned. */
static void judge(const char *lines, const struct eng_rung7_api *a, const char *release,
                  bool unit_test, struct eng_check_result *out)
{
    char found[1400] = "";
    size_t names = 0, calls = 0, bad = 0;
    char *copy = xstrdup(lines);
    for (char *save = NULL, *l = strtok_r(copy, "\n", &save); l; l = strtok_r(NULL, "\n", &save)) {
        cJSON *j = cJSON_Parse(l);
        const char *kind = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(j, "kind"));
        char what[300];
        if (kind && !strcmp(kind, "name")) {
            names++;
            const char *mod = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(j, "module"));
            const char *nm = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(j, "name"));
            const char *to = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(j, "moved_to"));
            const char *at = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(j, "where"));
            if (!unit_test && !cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(j, "ok"))) {
                bad++;
                snprintf(what, sizeof what, "%.80s%s%.60s", mod ? mod : "?", nm ? "." : "",
                         nm ? nm : "");
                eng_r7_add(found, sizeof found, "%s%s is not in this release", found[0] ? "; " : "",
                    what);
                eng_r7_add(found, sizeof found, " (%s%s; imported at %s)", to ? "moved to " : "no module "
                    "of the release defines it", to ? to : "", at ? at : "?");
            }
        } else if (kind && !strcmp(kind, "call")) {
            calls++;
            const char *call = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(j, "call"));
            const char *how = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(j, "outcome"));
            const char *e = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(j, "error"));
            if (how && !strcmp(how, "raised")) {
                bad++;
                eng_r7_add(found, sizeof found, "%s%s raised %s", found[0] ? "; " : "", call ? call : "?",
                    e ? e : "an exception");
            } else if (!unit_test && how && !strcmp(how, "fallback")) {
                bad++;
                eng_r7_add(found, sizeof found, "%s%s fell back: it returned without running any %s code, "
                    "and said nothing", found[0] ? "; " : "", call ? call : "?", a->library);
            }
        }
        cJSON_Delete(j);
    }
    free(copy);
    out->bad_count = (int64_t)bad;
    size_t want = 0;
    while (a->calls[want])
        want++;
    char *clean = text_sanitize(found, false);
    if (calls != want) {
        out->verdict = CDB_ERROR;
        snprintf(out->detail, sizeof out->detail, "setup: the probe reported %zu of %zu calls: "
                 "%.1300s", calls, want, lines);
    } else if (bad) {
        out->verdict = CDB_FAIL;
        snprintf(out->detail, sizeof out->detail, "%s against %s: %.1400s", unit_test ?
                 "unit test" : "callers", release, clean);
    } else if (unit_test) {
        out->verdict = CDB_PASS;
        snprintf(out->detail, sizeof out->detail, "unit test pinned to %s: the %zu calls return",
                 release, calls);
    } else {
        out->verdict = CDB_PASS;
        /* The buggy callers import one name: "the 1 names ... resolve" reads as a slip. */
        char nm[64], cl[64];
        if (names == 1)
            snprintf(nm, sizeof nm, "the one name the callers import");
        else
            snprintf(nm, sizeof nm, "the %zu names the callers import", names);
        if (calls == 1)
            snprintf(cl, sizeof cl, "the one call");
        else
            snprintf(cl, sizeof cl, "each of the %zu calls", calls);
        snprintf(out->detail, sizeof out->detail, "against %s: %s from %s %s, and %s ran %s's "
                 "code", release, nm, a->library, names == 1 ? "resolves" : "resolve", cl,
                 a->library);
    }
    free(clean);
}

void eng_r7_api_check(const struct eng_check_spec *s, const struct eng_manifest *m,
                      const struct eng_rung7_api *a, struct eng_check_result *out)
{
    const char *release = strchr(s->name, ':') + 1;
    bool buggy = strcmp(s->variant, "buggy") == 0;
    snprintf(out->oracle, sizeof out->oracle, "api-contract");
    snprintf(out->shape, sizeof out->shape, "%s", release);
    size_t r = 0;
    while (r < a->nreleases && strcmp(eng_suite_path_base(a->releases[r]), release) != 0)
        r++;
    struct eng_suite_py py;
    char why[1024];
    int rc = r < a->nreleases ? eng_suite_py_open(&py, m, "api_probe.py", NULL, why, sizeof why)
                              : (snprintf(why, sizeof why, "no release %s", release), -1);
    if (rc != 0) {
        out->verdict = rc > 0 ? CDB_SKIP : CDB_ERROR;
        snprintf(out->detail, sizeof out->detail, "%s%s", rc > 0 ? "" : "setup: ", why);
        eng_suite_py_close(&py);
        return;
    }
    char *rel = eng_suite_py_path(&py, a->releases[r]);
    char *caller = eng_suite_py_path(&py, a->callers[buggy]);
    size_t n = 0;
    while (a->calls[n])
        n++;
    const char **args = xcalloc(n + 4, sizeof *args);
    args[0] = a->library, args[1] = rel, args[2] = caller;
    for (size_t i = 0; i < n; i++)
        args[3 + i] = a->calls[i];
    char *lines = xmalloc(65536);
    int st = eng_suite_py_run(&py, args, lines, 65536);
    if (st != 0) {
        out->verdict = CDB_ERROR;
        snprintf(out->detail, sizeof out->detail, "setup: api_probe.py exited %d: %.1400s", st,
                 lines);
    } else {
        judge(lines, a, release, s->baseline, out);
    }
    free(lines);
    free(args);
    free(rel);
    free(caller);
    eng_suite_py_close(&py);
}
