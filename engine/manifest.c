/* Suite manifest parsing and validation. Every error names the file, the field (as a JSON path
 * such as buffers[1].dtype) and what was expected, so a person writing a manifest can fix it
 * from the message alone. */
#include "engine/manifest.h"

#include <cJSON.h>
#include <ctype.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "common/embed.h"
#include "common/file_within.h"
#include "common/fileio.h"
#include "common/suggest.h"
#include "common/text.h"
#include "common/xalloc.h"
#include "engine/values/expr.h"
#include "engine/manifest_parse.h"
#include "engine/codeobj/plain_name.h"
#include "engine/rung.h"
#include "engine/toolchain/source_includes.h"
#include "engine/values/value_class.h"

/* "inout" is read as an output that is prefilled (engine/manifest.h). */
static const char *const role_names[] = {"input", "output", "scratch", "inout"};
/* The device generators, then the value classes in enum eng_vclass order (engine/values/value_class.h;
 * tests/unit/test_value_class.c checks the two agree). */
static const char *const init_names[] = {
    "normal", "uniform", "zeros", "ones", "iota", "garbage",
    "zero-rows", "const-rows", "ties", "near-ties", "one-hot", "peaked", "identical-rows",
    "distinct", "nan-inf", "denormals", "under-fp8-min", "max-finite", "large-mean",
    "magnitude-ladder"};
#define N_INIT_NAMES (int)(sizeof init_names / sizeof init_names[0])

int eng_init_find(const char *s)
{
    return s ? eng_mp_pick(s, init_names, N_INIT_NAMES) : -1;
}
static const char *const argtype_names[] = {"i32", "u32", "i64", "u64", "f32", "bool", "u8"};

static bool is_whole(double x)
{
    double f = floor(x);
    return !(x > f) && !(x < f);
}

static bool is_ident(const char *s)
{
    if (!s || !(isalpha((unsigned char)*s) || *s == '_'))
        return false;
    for (; *s; s++)
        if (!isalnum((unsigned char)*s) && *s != '_')
            return false;
    return true;
}

int eng_mp_param_index(const struct eng_manifest *m, const char *name)
{
    for (size_t i = 0; i < m->nparams; i++)
        if (strcmp(m->params[i].name, name) == 0)
            return (int)i;
    return -1;
}

/* An expression given as a JSON string or integer; checked against the parameters. */
static char *get_expr(struct eng_mparse *p, const struct eng_manifest *m, const cJSON *j,
                      const char *field)
{
    char *e;
    if (cJSON_IsNumber(j)) {
        int64_t v;
        if (!eng_mp_int(p, j, field, 0, INT64_MAX / 2, &v))
            return NULL;
        e = xasprintf("%lld", (long long)v);
    } else if (cJSON_IsString(j)) {
        e = xstrdup(j->valuestring);
    } else {
        char got[64];
        eng_mp_describe(j, got, sizeof got);
        eng_mp_bad(p, field, "expected an expression (a whole number or a string such as \"ceil(N, 64)\"), got %s",
            got);
        return NULL;
    }
    char msg[256];
    if (eng_expr_check(e, p->params_only ? eng_mp_param_known : eng_mp_name_known, m, msg,
                       sizeof msg) != 0) {
        eng_mp_bad(p, field, "expected an expression over the parameters%s: %s",
                   p->params_only ? "" : " and the launch", msg);
        free(e);
        return NULL;
    }
    return e;
}

/* A shape object {"M": 128, ...} (and an optional "name" when allow_name). */
bool eng_mp_shape(struct eng_mparse *p, const struct eng_manifest *m, const cJSON *j,
                      const char *field, bool allow_name, struct eng_shape *out)
{
    memset(out, 0, sizeof *out);
    if (!cJSON_IsObject(j)) {
        char got[64];
        eng_mp_describe(j, got, sizeof got);
        return eng_mp_bad(p, field, "expected an object of parameter values such as {\"M\": 128}, got %s",
                   got);
    }
    size_t n = (size_t)cJSON_GetArraySize(j);
    out->keys = xcalloc(n + 1, sizeof *out->keys);
    out->values = xcalloc(n + 1, sizeof *out->values);
    for (const cJSON *it = j->child; it; it = it->next) {
        char sub[160];
        snprintf(sub, sizeof sub, "%s.%s", field, it->string);
        if (allow_name && strcmp(it->string, "name") == 0) {
            if (!cJSON_IsString(it) || !is_ident(it->valuestring))
                return eng_mp_bad(p, sub, "expected a check name made of letters, digits and _");
            out->name = xstrdup(it->valuestring);
            continue;
        }
        if (eng_mp_param_index(m, it->string) < 0)
            return eng_mp_bad(p, sub, "expected a parameter named in \"params\", got unknown name '%s'",
                       it->string);
        int64_t v;
        if (!eng_mp_int(p, it, sub, 0, INT64_MAX / 4, &v))
            return false;
        out->keys[out->n] = xstrdup(it->string);
        out->values[out->n++] = v;
    }
    return true;
}

bool eng_mp_shapes(struct eng_mparse *p, const struct eng_manifest *m, const cJSON *obj,
                       const char *key, const char *field, bool named, size_t *n,
                       struct eng_shape **out)
{
    const cJSON *j = cJSON_GetObjectItemCaseSensitive(obj, key);
    *n = 0;
    *out = NULL;
    if (!j)
        return true;
    if (!cJSON_IsArray(j))
        return eng_mp_bad(p, field, "expected an array of shapes");
    size_t cnt = (size_t)cJSON_GetArraySize(j);
    *out = xcalloc(cnt + 1, sizeof **out);
    size_t i = 0;
    for (const cJSON *it = j->child; it; it = it->next, i++) {
        char sub[128];
        snprintf(sub, sizeof sub, "%s[%zu]", field, i);
        if (!eng_mp_shape(p, m, it, sub, named, &(*out)[i])) {
            *n = i + 1;
            return false;
        }
        if (named && !(*out)[i].name) {
            *n = i + 1;
            return eng_mp_bad(p, sub, "expected a \"name\" for this check");
        }
    }
    *n = cnt;
    return true;
}

static bool get_launch(struct eng_mparse *p, const struct eng_manifest *m, const cJSON *j,
                       const char *field, struct eng_launch *out)
{
    if (!cJSON_IsObject(j))
        return eng_mp_bad(p, field, "expected an object with \"block\" and \"grid\"");
    const char *keys[2] = {"grid", "block"};
    for (int k = 0; k < 2; k++) {
        const cJSON *a = cJSON_GetObjectItemCaseSensitive(j, keys[k]);
        char sub[96];
        snprintf(sub, sizeof sub, "%s.%s", field, keys[k]);
        if (!cJSON_IsArray(a) || cJSON_GetArraySize(a) < 1 || cJSON_GetArraySize(a) > 3)
            return eng_mp_bad(p, sub, "expected an array of 1 to 3 expressions");
        char **dst = k ? out->block : out->grid;
        for (int i = 0; i < 3; i++) {
            const cJSON *e = cJSON_GetArrayItem(a, i);
            snprintf(sub, sizeof sub, "%s.%s[%d]", field, keys[k], i);
            dst[i] = e ? get_expr(p, m, e, sub) : xstrdup("1");
            if (!dst[i])
                return false;
        }
    }
    const cJSON *s = cJSON_GetObjectItemCaseSensitive(j, "shared_bytes");
    char sub[96];
    snprintf(sub, sizeof sub, "%s.shared_bytes", field);
    out->shared = s ? get_expr(p, m, s, sub) : xstrdup("0");
    return out->shared != NULL;
}

static bool parse_variant_opts(struct eng_mparse *p, const cJSON *vo, const char *variant,
                               struct eng_variant_opts *out)
{
    out->event = true;
    out->scratch_once = false;
    const cJSON *j = cJSON_GetObjectItemCaseSensitive(vo, variant);
    if (!j)
        return true;
    char field[96];
    snprintf(field, sizeof field, "variant_options.%s", variant);
    if (!cJSON_IsObject(j))
        return eng_mp_bad(p, field, "expected an object such as {\"event\": false}");
    for (const cJSON *it = j->child; it; it = it->next)
        if (strcmp(it->string, "event") && strcmp(it->string, "scratch_reset"))
            return eng_mp_bad(p, field, "expected only \"event\" and \"scratch_reset\", got \"%s\"",
                       it->string);
    char sub[128];
    snprintf(sub, sizeof sub, "%s.event", field);
    if (!eng_mp_bool(p, j, "event", sub, &out->event))
        return false;
    static const char *const resets[] = {"per_launch", "once"};
    int r;
    snprintf(sub, sizeof sub, "%s.scratch_reset", field);
    if (!eng_mp_enum(p, j, "scratch_reset", sub, resets, 2, 0, &r))
        return false;
    out->scratch_once = r == 1;
    return true;
}




/* An output's "ties" ("lowest" or "any", with "ties_in": the input that decides) and "nan"
 * ("propagate" or "never"), once every buffer is known. */
static bool parse_value_rules(struct eng_mparse *p, struct eng_manifest *m, const cJSON *it, size_t bi)
{
    static const char *const ties_names[] = {"lowest", "any"};
    static const char *const nan_names[] = {"propagate", "never"};
    struct eng_buffer_spec *b = &m->buffers[bi];
    const cJSON *ties = cJSON_GetObjectItemCaseSensitive(it, "ties"),
                *nan = cJSON_GetObjectItemCaseSensitive(it, "nan"),
                *in = cJSON_GetObjectItemCaseSensitive(it, "ties_in");
    char f[96];
    b->ties_in = -1;
    if ((ties || nan || in) && b->role != ENG_ROLE_OUTPUT) {
        snprintf(f, sizeof f, "buffers[%zu].%s", bi, ties ? "ties" : nan ? "nan" : "ties_in");
        return eng_mp_bad(p, f, "expected only on a buffer whose role is \"output\"");
    }
    int v;
    snprintf(f, sizeof f, "buffers[%zu].ties", bi);
    if (!eng_mp_enum(p, it, "ties", f, ties_names, 2, 0, &v))
        return false;
    b->ties_any = v == 1;
    snprintf(f, sizeof f, "buffers[%zu].nan", bi);
    if (!eng_mp_enum(p, it, "nan", f, nan_names, 2, 0, &v))
        return false;
    b->nan_never = v == 1;
    snprintf(f, sizeof f, "buffers[%zu].ties_in", bi);
    if (b->ties_any != (in != NULL))
        return eng_mp_bad(p, f, b->ties_any ? "expected the input whose values decide ties "
                                              "(\"ties\": \"any\" needs it)"
                                            : "expected only with \"ties\": \"any\"");
    if (!in)
        return true;
    if (b->dtype != ENG_I32 && b->dtype != ENG_U32)
        return eng_mp_bad(p, f, "expected \"ties\": \"any\" on an index output (i32 or u32)");
    for (size_t o = 0; o < m->nbuffers; o++)
        if (cJSON_IsString(in) && !strcmp(m->buffers[o].name, in->valuestring) &&
            m->buffers[o].role == ENG_ROLE_INPUT)
            b->ties_in = (int)o;
    if (b->ties_in < 0) {
        char got[64];
        eng_mp_describe(in, got, sizeof got);
        return eng_mp_bad(p, f, "expected the name of an input buffer, got %s", got);
    }
    return true;
}

static const char *const top_keys[] = {
    "format", "version", "name", "case", "title_en", "title_zh", "source", "variants",
    "reference", "reference_launch", "params", "tiles", "tuned", "buffers", "args", "arg_types",
    "reference_args",
    "launch", "tolerance", "baseline", "variant_options", "rungs", "description", "notes",
    "control", "expect_caught", "specialize", "code_object", "include_dirs", "defines"};

/* "rungs": {"N": {settings}}: which rungs the suite declares, each one's settings read by the
 * rung's own parser (engine/rung.h). The numbers a key may take are the rung table's. */
static bool parse_rungs(struct eng_mparse *p, struct eng_manifest *m, const cJSON *ru)
{
    if (ru && !cJSON_IsObject(ru))
        return eng_mp_bad(p, "rungs", "expected an object keyed by rung number {\"1\": {...}}");
    const cJSON *rj[ENG_RUNG_SLOTS] = {0};
    int top = eng_rung_top();
    for (const cJSON *it = ru ? ru->child : NULL; it; it = it->next) {
        char sub[64];
        snprintf(sub, sizeof sub, "rungs.%.50s", it->string);
        char *end = NULL;
        long n = it->string[0] >= '1' && it->string[0] <= '9' ? strtol(it->string, &end, 10) : 0;
        if (n < 1 || n > top || *end)
            return eng_mp_bad(p, sub, "expected a rung number from 1 to %d as the key", top);
        if (!cJSON_IsObject(it))
            return eng_mp_bad(p, sub, "expected an object of settings (may be empty)");
        m->has_rung[n] = true;
        rj[n] = it;
    }
    for (int n = 1; n <= top; n++) {
        if (!rj[n])
            continue;
        char sub[64];
        snprintf(sub, sizeof sub, "rungs.%d", n);
        const struct eng_rung *R = eng_rung_find(n);
        if (!R) {
            char list[64];
            eng_rung_list(list, sizeof list);
            return eng_mp_bad(p, sub, "expected a rung the engine runs (%s), got rung %d", list, n);
        }
        if (!R->parse) {
            if (rj[n]->child)
                return eng_mp_bad(p, sub, "expected no settings ({}): rung %d takes none, got \"%s\"",
                                  n, rj[n]->child->string);
            continue;
        }
        if (!R->parse(p, m, rj[n], &m->settings[n]))
            return false;
    }
    return true;
}

/* "code_object": a file beside the manifest, kept as its path there. A suite built into
 * kladder has no folder of its own to hold one. */
static bool parse_code_object(struct eng_mparse *p, struct eng_manifest *m, const cJSON *root)
{
    if (!cJSON_GetObjectItemCaseSensitive(root, "code_object"))
        return true;
    char *file = eng_mp_string(p, root, "code_object", true, "code_object");
    if (!file)
        return false;
    bool ok = file[0] && !strstr(file, "..") && file[0] != '/' && m->dir;
    if (ok)
        m->code_object = xasprintf("%s/%s", m->dir, file);
    else
        eng_mp_bad(p, "code_object", "expected a file name beside the manifest%s, got \"%s\"",
                   m->dir ? "" : " (a built-in suite has none)", file);
    free(file);
    return ok;
}

/* format, version, name, source, code_object, case, control, expect_caught and the titles. */
/* A string list field: each element a non-empty string; NULL entries never. */
static bool string_list(struct eng_mparse *p, const cJSON *root, const char *key, char ***out,
                        size_t *n)
{
    const cJSON *a = cJSON_GetObjectItemCaseSensitive(root, key);
    if (!a)
        return true;
    if (!cJSON_IsArray(a))
        return eng_mp_bad(p, key, "expected an array of strings");
    size_t k = 0;
    *out = xcalloc((size_t)cJSON_GetArraySize(a) + 1, sizeof **out);
    for (const cJSON *it = a->child; it; it = it->next) {
        if (!cJSON_IsString(it) || !it->valuestring[0])
            return eng_mp_bad(p, key, "element %zu: expected a non-empty string", k);
        (*out)[k++] = xstrdup(it->valuestring);
        *n = k;
    }
    return true;
}

/* "include_dirs" and "defines", as a build line's -I and -D. */
static bool parse_build_line(struct eng_mparse *p, struct eng_manifest *m, const cJSON *root)
{
    if (!string_list(p, root, "include_dirs", &m->include_dirs, &m->ninclude_dirs) ||
        !string_list(p, root, "defines", &m->defines, &m->ndefines))
        return false;
    m->include_roots = xcalloc(m->ninclude_dirs + 1, sizeof *m->include_roots);
    for (size_t i = 0; i < m->ninclude_dirs; i++) {
        const char *d = m->include_dirs[i];
        bool climbs = d[0] == '/';
        for (const char *c = d; (c = strstr(c, "..")) != NULL; c += 2)
            climbs = climbs || ((c == d || c[-1] == '/') && (c[2] == '/' || c[2] == '\0'));
        if (climbs)
            return eng_mp_bad(p, "include_dirs", "element %zu: expected a folder inside the "
                              "suite's folder, got \"%s\"", i, d);
        size_t n = strlen(d);
        while (n > 1 && d[n - 1] == '/')
            m->include_dirs[i][--n] = '\0';
        m->include_roots[i] = m->dir ? xasprintf("%s/%s", m->dir, d) : xasprintf("kernels/%s", d);
    }
    for (size_t i = 0; i < m->ndefines; i++) {
        const char *d = m->defines[i];
        size_t k = 0;
        while (d[k] == '_' || isalnum((unsigned char)d[k]))
            k++;
        if (k == 0 || isdigit((unsigned char)d[0]) || (d[k] && d[k] != '=') || strchr(d, '\n'))
            return eng_mp_bad(p, "defines", "element %zu: expected NAME or NAME=VALUE on one "
                              "line, got \"%s\"", i, d);
    }
    return true;
}

static bool parse_head(struct eng_mparse *p, struct eng_manifest *m, const cJSON *root)
{
    if (!cJSON_IsObject(root))
        return eng_mp_bad(p, "(top)", "expected a JSON object");
    for (const cJSON *it = root->child; it; it = it->next)
        if (eng_mp_pick(it->string, top_keys, (int)(sizeof top_keys / sizeof *top_keys)) < 0)
            return eng_mp_bad(p, it->string, "unknown field (misspelt? see docs/engine.md)");
    const cJSON *fmt = cJSON_GetObjectItemCaseSensitive(root, "format");
    if (!cJSON_IsString(fmt) || strcmp(fmt->valuestring, "kladder-suite") != 0)
        return eng_mp_bad(p, "format", "expected \"kladder-suite\"");
    int64_t ver;
    if (!eng_mp_int(p, cJSON_GetObjectItemCaseSensitive(root, "version"), "version", 1, 1, &ver))
        return false;
    bool prebuilt = cJSON_GetObjectItemCaseSensitive(root, "code_object") != NULL;
    if (!(m->name = eng_mp_string(p, root, "name", true, "name")) ||
        (!(m->source = eng_mp_string(p, root, "source", !prebuilt, "source")) && !prebuilt))
        return false;
    if (!parse_code_object(p, m, root))
        return false;
    m->case_id = eng_mp_string(p, root, "case", false, "case");
    if (!eng_mp_bool(p, root, "control", "control", &m->control) ||
        !eng_mp_bool(p, root, "expect_caught", "expect_caught", &m->expect_caught))
        return false;
    m->title_en = eng_mp_string(p, root, "title_en", false, "title_en");
    m->title_zh = eng_mp_string(p, root, "title_zh", false, "title_zh");
    if (p->failed)
        return false;
    if (m->source && (strstr(m->source, "..") || m->source[0] == '/'))
        return eng_mp_bad(p, "source", "expected a file name beside the manifest, got \"%s\"", m->source);
    return parse_build_line(p, m, root);
}

/* The kernels: variants.fixed, variants.buggy and the reference, by entry point name. */
static bool parse_entries(struct eng_mparse *p, struct eng_manifest *m, const cJSON *root)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(root, "variants");
    if (!cJSON_IsObject(v))
        return eng_mp_bad(p, "variants", "expected an object {\"fixed\": ENTRY, \"buggy\": ENTRY}");
    for (const cJSON *it = v->child; it; it = it->next)
        if (strcmp(it->string, "fixed") && strcmp(it->string, "buggy"))
            return eng_mp_bad(p, "variants", "expected only \"fixed\" and \"buggy\", got \"%s\"", it->string);
    if (!(m->entry_fixed = eng_mp_string(p, v, "fixed", true, "variants.fixed")))
        return false;
    m->entry_buggy = eng_mp_string(p, v, "buggy", false, "variants.buggy");
    if (!(m->entry_reference = eng_mp_string(p, root, "reference", true, "reference")))
        return false;
    const char *entries[3] = {m->entry_fixed, m->entry_buggy, m->entry_reference};
    const char *efields[3] = {"variants.fixed", "variants.buggy", "reference"};
    for (int i = 0; i < 3; i++)
        if (entries[i] && !(is_ident(entries[i]) ||
                            (eng_plain_is(m->source) && eng_plain_entry_ok(entries[i]))))
            return eng_mp_bad(p, efields[i], "expected a kernel entry point name (letters, digits, "
                              "_; in a .cu, .hip, .cuh or .cpp source also ns::name and a template "
                              "instance name<256, 97>), got \"%s\"", entries[i]);
    return true;
}

/* "params": each parameter's default value. */
static bool parse_params(struct eng_mparse *p, struct eng_manifest *m, const cJSON *root)
{
    const cJSON *pa = cJSON_GetObjectItemCaseSensitive(root, "params");
    if (!cJSON_IsObject(pa))
        return eng_mp_bad(p, "params", "expected an object of default values {\"M\": 128}");
    m->params = xcalloc((size_t)cJSON_GetArraySize(pa) + 1, sizeof *m->params);
    for (const cJSON *it = pa->child; it; it = it->next) {
        char sub[96];
        snprintf(sub, sizeof sub, "params.%s", it->string);
        if (!is_ident(it->string))
            return eng_mp_bad(p, sub, "expected an identifier as the parameter name");
        if (!cJSON_IsNumber(it) || !isfinite(it->valuedouble)) {
            char got[64];
            eng_mp_describe(it, got, sizeof got);
            return eng_mp_bad(p, sub, "expected a number, got %s", got);
        }
        if (eng_mp_param_index(m, it->string) >= 0)
            return eng_mp_bad(p, sub, "defined twice");
        struct eng_param *q = &m->params[m->nparams++];
        q->name = xstrdup(it->string);
        q->value = it->valuedouble;
        q->integral = is_whole(it->valuedouble) && fabs(it->valuedouble) < 9e15;
    }
    return true;
}

/* "tiles", the accepted values of tile parameters; "tuned", the shapes with a tuned entry. */
static bool parse_tiles(struct eng_mparse *p, struct eng_manifest *m, const cJSON *root)
{
    const cJSON *ti = cJSON_GetObjectItemCaseSensitive(root, "tiles");
    if (ti) {
        if (!cJSON_IsObject(ti))
            return eng_mp_bad(p, "tiles", "expected an object {\"tile_k\": [64, 128]}");
        m->tiles = xcalloc((size_t)cJSON_GetArraySize(ti) + 1, sizeof *m->tiles);
        for (const cJSON *it = ti->child; it; it = it->next) {
            char sub[96];
            snprintf(sub, sizeof sub, "tiles.%s", it->string);
            if (eng_mp_param_index(m, it->string) < 0)
                return eng_mp_bad(p, sub, "expected a parameter named in \"params\"");
            if (!cJSON_IsArray(it) || cJSON_GetArraySize(it) < 1)
                return eng_mp_bad(p, sub, "expected a non-empty array of accepted values");
            struct eng_tile *t = &m->tiles[m->ntiles++];
            t->param = xstrdup(it->string);
            t->values = xcalloc((size_t)cJSON_GetArraySize(it), sizeof *t->values);
            int i = 0;
            for (const cJSON *e = it->child; e; e = e->next, i++) {
                char s2[128];
                snprintf(s2, sizeof s2, "%s[%d]", sub, i);
                if (!eng_mp_int(p, e, s2, 1, 1 << 30, &t->values[t->n]))
                    return false;
                t->n++;
            }
        }
    }
    if (!eng_mp_shapes(p, m, root, "tuned", "tuned", false, &m->ntuned, &m->tuned))
        return false;
    return true;
}

/* "specialize": the parameters each check's compile is specialised on. */
static bool parse_specialize(struct eng_mparse *p, struct eng_manifest *m, const cJSON *root)
{
    const cJSON *sp = cJSON_GetObjectItemCaseSensitive(root, "specialize");
    if (sp) {
        if (!cJSON_IsArray(sp) || cJSON_GetArraySize(sp) < 1)
            return eng_mp_bad(p, "specialize", "expected a non-empty array of parameter names");
        m->specialize = xcalloc((size_t)cJSON_GetArraySize(sp) + 1, sizeof *m->specialize);
        for (const cJSON *it = sp->child; it; it = it->next) {
            char f[48], got[64];
            snprintf(f, sizeof f, "specialize[%zu]", m->nspecialize);
            if (!cJSON_IsString(it) || eng_mp_param_index(m, it->valuestring) < 0) {
                eng_mp_describe(it, got, sizeof got);
                return eng_mp_bad(p, f, "expected the name of a parameter, got %s", got);
            }
            m->specialize[m->nspecialize++] = xstrdup(it->valuestring);
        }
    }
    return true;
}

/* "buffers": name, dtype, role, init, shape and padding of each, then its value rules. */
static bool parse_buffers(struct eng_mparse *p, struct eng_manifest *m, const cJSON *root)
{
    const cJSON *bu = cJSON_GetObjectItemCaseSensitive(root, "buffers");
    if (!cJSON_IsArray(bu) || cJSON_GetArraySize(bu) < 1)
        return eng_mp_bad(p, "buffers", "expected a non-empty array of buffers");
    m->buffers = xcalloc((size_t)cJSON_GetArraySize(bu) + 1, sizeof *m->buffers);
    bool any_output = false;
    for (const cJSON *it = bu->child; it; it = it->next) {
        size_t bi = m->nbuffers;
        struct eng_buffer_spec *b = &m->buffers[m->nbuffers++];
        char f[96];
        snprintf(f, sizeof f, "buffers[%zu].name", bi);
        if (!(b->name = eng_mp_string(p, it, "name", true, f)))
            return false;
        if (!is_ident(b->name))
            return eng_mp_bad(p, f, "expected an identifier, got \"%s\"", b->name);
        if (eng_mp_param_index(m, b->name) >= 0)
            return eng_mp_bad(p, f, "\"%s\" is also a parameter name", b->name);
        for (size_t o = 0; o < bi; o++)
            if (strcmp(m->buffers[o].name, b->name) == 0)
                return eng_mp_bad(p, f, "\"%s\" is defined twice", b->name);
        int e;
        snprintf(f, sizeof f, "buffers[%zu].dtype", bi);
        if (!eng_mp_enum(p, it, "dtype", f, eng_dtype_names, ENG_DTYPE_COUNT, -1, &e))
            return false;
        b->dtype = (enum eng_dtype)e;
        snprintf(f, sizeof f, "buffers[%zu].role", bi);
        if (!eng_mp_enum(p, it, "role", f, role_names, 4, -1, &e))
            return false;
        b->inout = e == 3;
        b->role = b->inout ? ENG_ROLE_OUTPUT : (enum eng_role)e;
        any_output |= b->role == ENG_ROLE_OUTPUT;
        snprintf(f, sizeof f, "buffers[%zu].init", bi);
        if (!eng_mp_enum(p, it, "init", f, init_names, N_INIT_NAMES,
                      b->role == ENG_ROLE_INPUT || b->inout ? ENG_INIT_NORMAL : ENG_INIT_ZEROS, &e))
            return false;
        b->init = (enum eng_init)e;
        b->prefilled = b->inout || (b->role == ENG_ROLE_OUTPUT &&
                                    cJSON_GetObjectItemCaseSensitive(it, "init") != NULL);
        if (e >= ENG_INIT_CLASS && b->role != ENG_ROLE_INPUT)
            return eng_mp_bad(p, f, "value class \"%s\" is an input generator, got a buffer "
                              "whose role is not \"input\"", init_names[e]);
        if (e >= ENG_INIT_CLASS && !eng_vclass_applies(b->dtype))
            return eng_mp_bad(p, f, "value class \"%s\" applies to f32, bf16 and fp8e4m3 "
                              "buffers, got a %s buffer", init_names[e], eng_dtype_names[b->dtype]);
        const cJSON *sh = cJSON_GetObjectItemCaseSensitive(it, "shape");
        snprintf(f, sizeof f, "buffers[%zu].shape", bi);
        if (!cJSON_IsArray(sh) || cJSON_GetArraySize(sh) < 1 || cJSON_GetArraySize(sh) > 8)
            return eng_mp_bad(p, f, "expected an array of 1 to 8 dimension expressions");
        b->ndims = (size_t)cJSON_GetArraySize(sh);
        b->dims = xcalloc(b->ndims, sizeof *b->dims);
        b->pad_to = xcalloc(b->ndims, sizeof *b->pad_to);
        for (size_t d = 0; d < b->ndims; d++) {
            char s2[128];
            snprintf(s2, sizeof s2, "buffers[%zu].shape[%zu]", bi, d);
            if (!(b->dims[d] = get_expr(p, m, cJSON_GetArrayItem(sh, (int)d), s2)))
                return false;
        }
        const cJSON *pad = cJSON_GetObjectItemCaseSensitive(it, "pad_to");
        if (pad) {
            snprintf(f, sizeof f, "buffers[%zu].pad_to", bi);
            if (!cJSON_IsObject(pad))
                return eng_mp_bad(p, f, "expected an object {\"M\": 256} keyed by a dimension of \"shape\"");
            for (const cJSON *pe = pad->child; pe; pe = pe->next) {
                char s2[128];
                snprintf(s2, sizeof s2, "buffers[%zu].pad_to.%s", bi, pe->string);
                size_t d = 0;
                while (d < b->ndims && strcmp(b->dims[d], pe->string) != 0)
                    d++;
                if (d == b->ndims)
                    return eng_mp_bad(p, s2, "expected a key equal to one of the buffer's \"shape\" entries");
                if (!(b->pad_to[d] = get_expr(p, m, pe, s2)))
                    return false;
            }
        }
    }
    if (!any_output)
        return eng_mp_bad(p, "buffers", "expected at least one buffer with \"role\": \"output\" or \"inout\"");
    size_t bi = 0;
    for (const cJSON *it = bu->child; it; it = it->next, bi++)
        if (!parse_value_rules(p, m, it, bi) || !eng_mp_contract(p, m, it, bi))
            return false;
    return true;
}

/* One list of kernel arguments (field "args" or "reference_args"): buffers or expressions, a
 * scalar's type from "arg_types" (at). */
static bool parse_arg_list(struct eng_mparse *p, struct eng_manifest *m, const cJSON *ar,
                           const char *field, const cJSON *at, struct eng_arg **out, size_t *n)
{
    if (!cJSON_IsArray(ar) || cJSON_GetArraySize(ar) < 1 ||
        cJSON_GetArraySize(ar) > ENG_MAX_KERNEL_ARGS)
        return eng_mp_bad(p, field, "expected an array of 1 to %d buffer names or expressions",
                          ENG_MAX_KERNEL_ARGS);
    *out = xcalloc((size_t)cJSON_GetArraySize(ar), sizeof **out);
    for (const cJSON *it = ar->child; it; it = it->next) {
        size_t ai = *n;
        struct eng_arg *a = &(*out)[(*n)++];
        char f[64];
        snprintf(f, sizeof f, "%s[%zu]", field, ai);
        if (!cJSON_IsString(it) || !it->valuestring[0])
            return eng_mp_bad(p, f, "expected a buffer name or a parameter expression as a string");
        a->expr = xstrdup(it->valuestring);
        a->buffer = -1;
        for (size_t b = 0; b < m->nbuffers; b++)
            if (strcmp(m->buffers[b].name, a->expr) == 0)
                a->buffer = (int)b;
        if (a->buffer >= 0) {
            a->type = ENG_ARG_PTR;
            continue;
        }
        int t = ENG_ARG_I32;
        if (at) {
            char f2[128];
            snprintf(f2, sizeof f2, "arg_types.%s", a->expr);
            if (!eng_mp_enum(p, at, a->expr, f2, argtype_names, 7, ENG_ARG_I32, &t))
                return false;
        }
        a->type = (enum eng_argtype)t;
        int pi = eng_mp_param_index(m, a->expr);
        if (a->type == ENG_ARG_F32 && pi >= 0)
            continue;
        if (pi >= 0 && !m->params[pi].integral)
            return eng_mp_bad(p, f, "parameter \"%s\" is not a whole number; give it \"f32\" in arg_types",
                       a->expr);
        char msg[256];
        if (eng_expr_check(a->expr, eng_mp_name_known, m, msg, sizeof msg) != 0)
            return eng_mp_bad(p, f, "expected a buffer name or an expression over the parameters "
                              "and the launch: %s", msg);
    }
    return true;
}

static bool names_arg(const struct eng_arg *args, size_t n, const char *name)
{
    for (size_t i = 0; i < n; i++)
        if (strcmp(args[i].expr, name) == 0)
            return true;
    return false;
}

/* "args", "reference_args" and "arg_types": the kernels' arguments, buffers or expressions. */
static bool parse_args(struct eng_mparse *p, struct eng_manifest *m, const cJSON *root)
{
    const cJSON *at = cJSON_GetObjectItemCaseSensitive(root, "arg_types");
    if (at && !cJSON_IsObject(at))
        return eng_mp_bad(p, "arg_types", "expected an object {\"M\": \"i32\"}");
    if (!parse_arg_list(p, m, cJSON_GetObjectItemCaseSensitive(root, "args"), "args", at, &m->args,
                        &m->nargs))
        return false;
    const cJSON *ra = cJSON_GetObjectItemCaseSensitive(root, "reference_args");
    if (!ra) {
        m->ref_args = m->args;
        m->nref_args = m->nargs;
    } else if (!parse_arg_list(p, m, ra, "reference_args", at, &m->ref_args, &m->nref_args)) {
        return false;
    }
    if (at)
        for (const cJSON *it = at->child; it; it = it->next)
            if (!names_arg(m->args, m->nargs, it->string) &&
                !names_arg(m->ref_args, m->nref_args, it->string)) {
                char f2[128];
                snprintf(f2, sizeof f2, "arg_types.%s", it->string);
                return eng_mp_bad(p, f2, ra ? "names no entry of \"args\" or \"reference_args\""
                                            : "names no entry of \"args\"");
            }
    return true;
}

/* "launch", "reference_launch" and "tolerance". */
static bool parse_launch(struct eng_mparse *p, struct eng_manifest *m, const cJSON *root)
{
    /* the launch is what the other expressions may name, so it names parameters only */
    p->params_only = true;
    bool ok = get_launch(p, m, cJSON_GetObjectItemCaseSensitive(root, "launch"), "launch", &m->launch);
    p->params_only = false;
    if (!ok)
        return false;
    const cJSON *rl = cJSON_GetObjectItemCaseSensitive(root, "reference_launch");
    if (!get_launch(p, m, rl ? rl : cJSON_GetObjectItemCaseSensitive(root, "launch"),
                    rl ? "reference_launch" : "launch", &m->ref_launch))
        return false;

    const cJSON *tol = cJSON_GetObjectItemCaseSensitive(root, "tolerance");
    m->tol_abs = 0;
    m->tol_rel = 0;
    if (tol) {
        if (!cJSON_IsObject(tol))
            return eng_mp_bad(p, "tolerance", "expected an object {\"abs\": 0.01, \"rel\": 0.01}");
        if (!eng_mp_number(p, tol, "abs", "tolerance.abs", 0, 1e30, &m->tol_abs) ||
            !eng_mp_number(p, tol, "rel", "tolerance.rel", 0, 1e30, &m->tol_rel))
            return false;
    }
    return true;
}

/* "baseline", the plain unit test's shapes, and "variant_options". */
static bool parse_baseline(struct eng_mparse *p, struct eng_manifest *m, const cJSON *root)
{
    if (!eng_mp_shapes(p, m, root, "baseline", "baseline", false, &m->nbaseline, &m->baseline))
        return false;
    if (m->nbaseline == 0)
        return eng_mp_bad(p, "baseline", "expected at least one small aligned shape for the plain unit test");

    const cJSON *vo = cJSON_GetObjectItemCaseSensitive(root, "variant_options");
    if (vo && !cJSON_IsObject(vo))
        return eng_mp_bad(p, "variant_options", "expected an object keyed by variant");
    if (vo)
        for (const cJSON *it = vo->child; it; it = it->next)
            if (strcmp(it->string, "fixed") && strcmp(it->string, "buggy"))
                return eng_mp_bad(p, "variant_options", "expected keys \"fixed\" or \"buggy\", got \"%s\"",
                           it->string);
    if (!parse_variant_opts(p, vo, "fixed", &m->opt_fixed) ||
        !parse_variant_opts(p, vo, "buggy", &m->opt_buggy))
        return false;
    return true;
}

/* A suite manifest, section by section (docs/engine.md lists the fields); the first mistake
 * stops it, named by its field. */
static bool parse(struct eng_mparse *p, struct eng_manifest *m, const cJSON *root)
{
    return parse_head(p, m, root) && parse_entries(p, m, root) && parse_params(p, m, root) &&
           parse_tiles(p, m, root) && parse_specialize(p, m, root) &&
           parse_buffers(p, m, root) && parse_args(p, m, root) && parse_launch(p, m, root) &&
           parse_baseline(p, m, root) &&
           parse_rungs(p, m, cJSON_GetObjectItemCaseSensitive(root, "rungs"));
}

/* A manifest's message quotes what its file says (a key, a name, a value): control characters
 * in it are written as escapes (\x1b), so no message of a manifest can drive the terminal. One
 * place for every message, whichever check wrote it. */
static void err_clean(char *err, size_t errlen)
{
    if (!errlen || text_is_clean(err, NULL))
        return;
    char *shown = text_escape(err, errlen);
    snprintf(err, errlen, "%s", shown);
    free(shown);
}

static struct eng_manifest *manifest_parse(const char *text, size_t len, const char *path,
                                           const char *dir, char *err, size_t errlen);

struct eng_manifest *eng_manifest_parse(const char *text, size_t len, const char *path,
                                        const char *dir, char *err, size_t errlen)
{
    struct eng_manifest *m = manifest_parse(text, len, path, dir, err, errlen);
    if (!m)
        err_clean(err, errlen);
    return m;
}

static struct eng_manifest *manifest_parse(const char *text, size_t len, const char *path,
                                           const char *dir, char *err, size_t errlen)
{
    struct eng_mparse p = {.path = path, .err = err, .errlen = errlen};
    cJSON *root = cJSON_ParseWithLength(text, len);
    if (!root) {
        const char *at = cJSON_GetErrorPtr();
        int line = 1;
        if (at && at >= text && at <= text + len)
            for (const char *c = text; c < at; c++)
                line += *c == '\n';
        snprintf(err, errlen, "%s: line %d: expected valid JSON (check commas and quotes)", path,
                 line);
        return NULL;
    }
    struct eng_manifest *m = xcalloc(1, sizeof *m);
    m->path = xstrdup(path);
    m->dir = xstrdup_or_null(dir);
    bool ok = parse(&p, m, root);
    cJSON_Delete(root);
    if (!ok) {
        if (!p.failed)
            snprintf(err, errlen, "%s: invalid manifest", path);
        eng_manifest_free(m);
        return NULL;
    }
    return m;
}

/* A file the manifest names is there: the workers read it one check at a time, so a missing
 * one is the manifest's mistake, said once now rather than as an error in every check. */
static bool file_beside(const char *manifest, const char *field, const char *what,
                        const char *dir, const char *name, char *err, size_t errlen)
{
    struct stat st;
    char *path = xasprintf("%s/%s", dir, name), why[1024];
    bool exists = stat(path, &st) == 0;
    if (exists && S_ISREG(st.st_mode)) {
        /* a link may not lead out of the suite's folder */
        if (file_within(dir, name, NULL, why, sizeof why)) {
            free(path);
            return true;
        }
        char *shown_m = text_escape(manifest, 200);
        snprintf(err, errlen, "%s: %s: %s", shown_m, field, why);
        free(shown_m);
        free(path);
        return false;
    }
    char *shown_m = text_escape(manifest, 200), *shown_s = text_escape(path, 200);
    snprintf(err, errlen, "%s: %s: expected %s beside the manifest, but %s %s", shown_m, field,
             what, shown_s, exists ? "is not a regular file" : "does not exist");
    free(shown_m);
    free(shown_s);
    free(path);
    return false;
}

/* "no suite named 'aiter-481' (did you mean aiter-4812, aiter-4812-ep? kladder run --list
 * lists the 38 built-in suites; a suite of your own is a path to its .json manifest)": the few
 * nearest names, never every internal path. */
static void unknown_suite(const char *name, char *err, size_t errlen)
{
    size_t cnt;
    const char **files = eng_manifest_list(&cnt);
    char **names = xcalloc(cnt + 1, sizeof *names);
    for (size_t i = 0; i < cnt; i++) {
        const char *base = strrchr(files[i], '/') ? strrchr(files[i], '/') + 1 : files[i];
        names[i] = xstrdup(base);
        size_t l = strlen(names[i]);
        if (l > 5 && !strcmp(names[i] + l - 5, ".json"))
            names[i][l - 5] = '\0';
    }
    const char *near[4];
    size_t nn = suggest_nearest(name, (const char *const *)names, cnt, near, 4);
    char list[256] = "";
    for (size_t i = 0; i < nn; i++) {
        strncat(list, i ? ", " : "did you mean ", sizeof list - strlen(list) - 1);
        strncat(list, near[i], sizeof list - strlen(list) - 1);
    }
    char *shown = text_fit(name, 60, true, NULL);
    snprintf(err, errlen, "no suite named '%s' (%s%skladder run --list lists the %zu built-in "
             "suites; a suite of your own is a path to its .json manifest)", shown, list,
             nn ? "? " : "", cnt);
    free(shown);
    for (size_t i = 0; i < cnt; i++)
        free(names[i]);
    free(names);
    free(files);
}

static struct eng_manifest *manifest_load(const char *name_or_path, const char *dir, char *err,
                                          size_t errlen);

struct eng_manifest *eng_manifest_load(const char *name_or_path, const char *dir, char *err,
                                       size_t errlen)
{
    struct eng_manifest *m = manifest_load(name_or_path, dir, err, errlen);
    if (!m)
        err_clean(err, errlen);
    return m;
}

bool eng_manifest_names_path(const char *name_or_path)
{
    size_t n = strlen(name_or_path);
    return strchr(name_or_path, '/') || (n > 5 && !strcmp(name_or_path + n - 5, ".json"));
}

static struct eng_manifest *manifest_load(const char *name_or_path, const char *dir, char *err,
                                          size_t errlen)
{
    if (eng_manifest_names_path(name_or_path)) {
        size_t len;
        char *text = file_read_all(name_or_path, &len, err, errlen);
        if (!text)
            return NULL;
        char *d = xstrdup(name_or_path);
        char *slash = strrchr(d, '/');
        if (slash)
            *slash = '\0';
        else
            strcpy(d, ".");
        struct eng_manifest *m = eng_manifest_parse(text, len, name_or_path, d, err, errlen);
        free(text);
        if (m && m->source &&
            !file_beside(name_or_path, "source", "a kernel file", d, m->source, err, errlen)) {
            eng_manifest_free(m);
            m = NULL;
        }
        for (size_t i = 0; m && i < m->ninclude_dirs; i++) {
            /* a folder inside the suite's, links followed */
            char why[1024];
            struct stat st;
            bool ok = file_within(d, m->include_dirs[i], NULL, why, sizeof why);
            if (ok && (stat(m->include_roots[i], &st) != 0 || !S_ISDIR(st.st_mode))) {
                snprintf(why, sizeof why, "not a folder");
                ok = false;
            }
            if (!ok) {
                char *shown_m = text_escape(name_or_path, 200);
                char *shown_d = text_escape(m->include_dirs[i], 200);
                snprintf(err, errlen, "%s: include_dirs: \"%s\": expected a folder inside the "
                         "suite's folder (%s)", shown_m, shown_d, why);
                free(shown_m);
                free(shown_d);
                eng_manifest_free(m);
                m = NULL;
            }
        }
        if (m && m->code_object &&
            !file_beside(name_or_path, "code_object", "a code object", d,
                         m->code_object + strlen(m->dir) + 1, err, errlen)) {
            eng_manifest_free(m);
            m = NULL;
        }
        free(d);
        return m;
    }
    for (const char *c = name_or_path; *c; c++)
        if (!isalnum((unsigned char)*c) && *c != '-' && *c != '_') {
            snprintf(err, errlen, "suite '%s': expected a suite name (see kladder run --list) or a path to a .json manifest",
                     name_or_path);
            return NULL;
        }
    char *rel = xasprintf("kernels/suites/%s.json", name_or_path);
    size_t len;
    char *text = embed_load(dir, rel, &len, err, errlen);
    struct eng_manifest *m = NULL;
    if (!text) {
        if (!dir)
            unknown_suite(name_or_path, err, errlen);
    } else {
        char *d = dir ? xasprintf("%s/kernels", dir) : NULL;
        m = eng_manifest_parse(text, len, rel, d, err, errlen);
        if (m)
            m->builtin = true;
        free(d);
        free(text);
    }
    free(rel);
    return m;
}

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(const char *const *)a, *(const char *const *)b);
}

const char **eng_manifest_list(size_t *n)
{
    size_t cap = 8, cnt = 0;
    const char **out = xmalloc(cap * sizeof *out);
    static const char prefix[] = "kernels/suites/";
    for (const struct embed_file *f = embed_files; f->path; f++) {
        size_t l = strlen(f->path);
        if (strncmp(f->path, prefix, sizeof prefix - 1) || l < sizeof prefix + 5 ||
            strcmp(f->path + l - 5, ".json"))
            continue;
        if (cnt == cap)
            out = xrealloc(out, (cap *= 2) * sizeof *out);
        out[cnt++] = f->path;
    }
    qsort(out, cnt, sizeof *out, cmp_str);
    *n = cnt;
    return out;
}

/* A source that declares its accumulators kl_acc gets the type here, not from kernels/kl.h:
 * float in every build, double in the arbiter build (-DKL_ARBITER, engine/exec/exec_arbiter.c).
 * Sources that do not use it compile byte for byte as before (their cache keys stay). */
static char *with_acc_prelude(char *text)
{
    if (!text || !strstr(text, "kl_acc"))
        return text;
    char *full = xasprintf("#ifdef KL_ARBITER\ntypedef double kl_acc;\n#else\n"
                           "typedef float kl_acc;\n#endif\n#line 1\n%s", text);
    free(text);
    return full;
}

bool eng_manifest_uses_acc(const char *source)
{
    return source && strstr(source, "typedef double kl_acc;") != NULL;
}

char *eng_manifest_source(const struct eng_manifest *m, char *err, size_t errlen)
{
    if (!m->source) {
        snprintf(err, errlen, "%s: no \"source\", only a \"code_object\": this check builds the "
                 "kernel and a prebuilt code object cannot be rebuilt", m->path);
        return NULL;
    }
    if (m->dir) {
        /* read inside the suite's folder only; a dialect source's local includes put in place
         * here, so the compiler is never handed one to look up (a plain source's are read by
         * engine/compile/plain_source.c, inside the folder too, and only checked here: no #line that
         * names a file, no #embed, no computed include) */
        char *text = file_read_within(m->dir, m->source, NULL, err, errlen);
        if (text && !eng_plain_is(m->source)) {
            char *whole = eng_source_includes(m->dir, m->source, text, err, errlen);
            free(text);
            text = whole;
        } else if (text && eng_source_check(m->dir, m->source, text, err, errlen) != 0) {
            free(text);
            text = NULL;
        }
        return with_acc_prelude(text);
    }
    char *rel = xasprintf("kernels/%s", m->source);
    size_t len;
    char *text = embed_load(NULL, rel, &len, err, errlen);
    free(rel);
    return with_acc_prelude(text);
}

void eng_shape_copy(struct eng_shape *dst, const struct eng_shape *src)
{
    dst->name = xstrdup_or_null(src->name);
    dst->n = src->n;
    dst->keys = xcalloc(src->n + 1, sizeof *dst->keys);
    dst->values = xcalloc(src->n + 1, sizeof *dst->values);
    for (size_t i = 0; i < src->n; i++) {
        dst->keys[i] = xstrdup(src->keys[i]);
        dst->values[i] = src->values[i];
    }
}

void eng_shape_free(struct eng_shape *s)
{
    for (size_t i = 0; i < s->n; i++)
        free(s->keys[i]);
    free(s->keys);
    free(s->values);
    free(s->name);
    memset(s, 0, sizeof *s);
}

void eng_shapes_free(struct eng_shape *s, size_t n)
{
    if (!s)
        return;
    for (size_t i = 0; i < n; i++)
        eng_shape_free(&s[i]);
    free(s);
}

static void launch_free(struct eng_launch *l)
{
    for (int i = 0; i < 3; i++) {
        free(l->grid[i]);
        free(l->block[i]);
    }
    free(l->shared);
}

struct eng_manifest *eng_manifest_plain(const char *path, const char *dir, const char *source,
                                        const char *const *flags)
{
    struct eng_manifest *m = xcalloc(1, sizeof *m);
    m->path = xstrdup(path);
    m->dir = xstrdup(dir);
    m->source = xstrdup(source);
    size_t nflags = 0;
    while (flags && flags[nflags])
        nflags++;
    m->include_dirs = xcalloc(nflags + 1, sizeof *m->include_dirs);
    m->include_roots = xcalloc(nflags + 1, sizeof *m->include_roots);
    for (size_t i = 0; i < nflags; i++)
        if (!strncmp(flags[i], "-I", 2) && flags[i][2]) {
            m->include_dirs[m->ninclude_dirs] = xstrdup(flags[i] + 2);
            m->include_roots[m->ninclude_dirs++] = xstrdup(flags[i] + 2);
        }
    return m;
}

void eng_manifest_free(struct eng_manifest *m)
{
    if (!m)
        return;
    free(m->path);
    free(m->dir);
    free(m->name);
    free(m->case_id);
    free(m->title_en);
    free(m->title_zh);
    free(m->source);
    for (size_t i = 0; i < m->ninclude_dirs; i++) {
        free(m->include_dirs[i]);
        if (m->include_roots)
            free(m->include_roots[i]);
    }
    free(m->include_dirs);
    free(m->include_roots);
    for (size_t i = 0; i < m->ndefines; i++)
        free(m->defines[i]);
    free(m->defines);
    free(m->code_object);
    free(m->entry_fixed);
    free(m->entry_buggy);
    free(m->entry_reference);
    for (size_t i = 0; i < m->nparams; i++)
        free(m->params[i].name);
    free(m->params);
    for (size_t i = 0; i < m->ntiles; i++) {
        free(m->tiles[i].param);
        free(m->tiles[i].values);
    }
    free(m->tiles);
    eng_shapes_free(m->tuned, m->ntuned);
    for (size_t i = 0; i < m->nspecialize; i++)
        free(m->specialize[i]);
    free(m->specialize);
    for (size_t i = 0; i < m->nbuffers; i++) {
        struct eng_buffer_spec *b = &m->buffers[i];
        free(b->name);
        for (size_t d = 0; b->dims && d < b->ndims; d++) {
            free(b->dims[d]);
            free(b->pad_to[d]);
        }
        free(b->dims);
        free(b->pad_to);
        free(b->contract.reduce);
    }
    free(m->buffers);
    if (m->ref_args != m->args) {
        for (size_t i = 0; i < m->nref_args; i++)
            free(m->ref_args[i].expr);
        free(m->ref_args);
    }
    for (size_t i = 0; i < m->nargs; i++)
        free(m->args[i].expr);
    free(m->args);
    launch_free(&m->launch);
    launch_free(&m->ref_launch);
    eng_shapes_free(m->baseline, m->nbaseline);
    for (int n = 1; n < ENG_RUNG_SLOTS; n++) {
        const struct eng_rung *R = m->settings[n] ? eng_rung_find(n) : NULL;
        if (R && R->free_settings)
            R->free_settings(m->settings[n]);
    }
    free(m);
}

/* ---- values ------------------------------------------------------------------------------- */

static int apply_shape(struct eng_values *v, const struct eng_shape *s, char *err, size_t errlen)
{
    if (!s)
        return 0;
    for (size_t k = 0; k < s->n; k++) {
        size_t i = 0;
        while (i < v->n && strcmp(v->names[i], s->keys[k]) != 0)
            i++;
        if (i == v->n) {
            snprintf(err, errlen, "unknown parameter '%s'", s->keys[k]);
            return -1;
        }
        v->ints[i] = s->values[k];
        v->reals[i] = (double)s->values[k];
    }
    return 0;
}

/* The variant's launch at v, for the expressions that may name it ("launch" itself names
 * parameters only, so this evaluation never sees a launch name). */
static void values_add_launch(const struct eng_manifest *m, struct eng_values *v)
{
    unsigned grid[3], block[3], shared;
    char err[256];
    v->has_launch = false;
    if (!m->launch.grid[0] || eng_launch_eval(m, false, v, grid, block, &shared, err, sizeof err) != 0)
        return;
    for (int i = 0; i < 3; i++) {
        v->launch[i] = grid[i];
        v->launch[3 + i] = block[i];
    }
    v->launch[6] = shared;
    v->has_launch = true;
}

int eng_values_make(const struct eng_manifest *m, const struct eng_shape *a,
                    const struct eng_shape *b, const struct eng_shape *c, struct eng_values *out,
                    char *err, size_t errlen)
{
    out->n = m->nparams;
    out->names = xcalloc(m->nparams + 1, sizeof *out->names);
    out->ints = xcalloc(m->nparams + 1, sizeof *out->ints);
    out->reals = xcalloc(m->nparams + 1, sizeof *out->reals);
    for (size_t i = 0; i < m->nparams; i++) {
        out->names[i] = m->params[i].name;
        out->reals[i] = m->params[i].value;
        out->ints[i] = m->params[i].integral ? (int64_t)m->params[i].value : 0;
    }
    if (apply_shape(out, a, err, errlen) || apply_shape(out, b, err, errlen) ||
        apply_shape(out, c, err, errlen)) {
        eng_values_free(out);
        return -1;
    }
    values_add_launch(m, out);
    return 0;
}

void eng_values_free(struct eng_values *v)
{
    free(v->names);
    free(v->ints);
    free(v->reals);
    memset(v, 0, sizeof *v);
}

static bool values_lookup(const void *ctx, const char *name, size_t len, int64_t *value)
{
    const struct eng_values *v = ctx;
    for (size_t i = 0; i < v->n; i++)
        if (strlen(v->names[i]) == len && !memcmp(v->names[i], name, len)) {
            *value = v->ints[i];
            return true;
        }
    int l = v->has_launch ? eng_launch_name_index(name, len) : -1;
    if (l >= 0)
        *value = v->launch[l];
    return l >= 0;
}

int eng_values_eval(const struct eng_values *v, const char *expr, int64_t *out, char *err,
                    size_t errlen)
{
    return eng_expr_eval(expr, values_lookup, v, out, err, errlen);
}

char *eng_values_describe(const struct eng_manifest *m, const struct eng_values *v)
{
    size_t cap = 256, len = 0;
    char *s = xmalloc(cap);
    s[0] = '\0';
    for (size_t i = 0; i < v->n; i++) {
        if (!m->params[i].integral)
            continue;
        char item[96];
        int k = snprintf(item, sizeof item, "%s%s=%lld", len ? "," : "", v->names[i],
                         (long long)v->ints[i]);
        if (len + (size_t)k + 1 > cap)
            s = xrealloc(s, cap = (len + (size_t)k + 1) * 2);
        memcpy(s + len, item, (size_t)k + 1);
        len += (size_t)k;
    }
    return s;
}

int eng_buffer_size(const struct eng_manifest *m, size_t buffer, const struct eng_values *v,
                    struct eng_buffer_size *out, char *err, size_t errlen)
{
    const struct eng_buffer_spec *b = &m->buffers[buffer];
    uint64_t elems = 1, padded = 1;
    for (size_t d = 0; d < b->ndims; d++) {
        int64_t dim, pad = 1;
        char msg[256];
        if (eng_values_eval(v, b->dims[d], &dim, msg, sizeof msg) ||
            (b->pad_to[d] && eng_values_eval(v, b->pad_to[d], &pad, msg, sizeof msg))) {
            snprintf(err, errlen, "buffer %s: %s", b->name, msg);
            return -1;
        }
        if (dim < 0 || pad < 1) {
            snprintf(err, errlen, "buffer %s: dimension %zu is %lld (pad %lld)", b->name, d,
                     (long long)dim, (long long)pad);
            return -1;
        }
        uint64_t pd = ((uint64_t)dim + (uint64_t)pad - 1) / (uint64_t)pad * (uint64_t)pad;
        if (__builtin_mul_overflow(elems, (uint64_t)dim, &elems) ||
            __builtin_mul_overflow(padded, pd, &padded)) {
            snprintf(err, errlen, "buffer %s: size overflows 64 bits", b->name);
            return -1;
        }
    }
    out->elems = elems;
    out->padded_elems = padded;
    size_t es = eng_dtype_size(b->dtype);
    if (__builtin_mul_overflow(elems, es, &out->bytes) ||
        __builtin_mul_overflow(padded, es, &out->padded_bytes)) {
        snprintf(err, errlen, "buffer %s: size overflows 64 bits", b->name);
        return -1;
    }
    return 0;
}

int eng_launch_eval(const struct eng_manifest *m, bool ref, const struct eng_values *v,
                    unsigned grid[3], unsigned block[3], unsigned *shared, char *err,
                    size_t errlen)
{
    const struct eng_launch *l = ref ? &m->ref_launch : &m->launch;
    char msg[256];
    for (int i = 0; i < 3; i++) {
        int64_t g, b;
        if (eng_values_eval(v, l->grid[i], &g, msg, sizeof msg) ||
            eng_values_eval(v, l->block[i], &b, msg, sizeof msg)) {
            snprintf(err, errlen, "%s: %s", ref ? "reference_launch" : "launch", msg);
            return -1;
        }
        if (g < 1 || g > 0x7fffffff) {
            snprintf(err, errlen, "%s.grid[%d]: expected 1 to 2147483647 blocks, got %lld",
                     ref ? "reference_launch" : "launch", i, (long long)g);
            return -1;
        }
        if (b < 1 || b > 1024) {
            snprintf(err, errlen, "%s.block[%d]: expected 1 to 1024 threads, got %lld",
                     ref ? "reference_launch" : "launch", i, (long long)b);
            return -1;
        }
        grid[i] = (unsigned)g;
        block[i] = (unsigned)b;
    }
    if ((uint64_t)block[0] * block[1] * block[2] > 1024) {
        snprintf(err, errlen, "%s: %u threads per block; at most 1024",
                 ref ? "reference_launch" : "launch", block[0] * block[1] * block[2]);
        return -1;
    }
    int64_t sh = 0;
    if (eng_values_eval(v, l->shared, &sh, msg, sizeof msg)) {
        snprintf(err, errlen, "%s.shared_bytes: %s", ref ? "reference_launch" : "launch", msg);
        return -1;
    }
    if (sh < 0 || sh > (1 << 20)) {
        snprintf(err, errlen, "%s.shared_bytes: %lld is out of range (0 to 1 MiB)",
                 ref ? "reference_launch" : "launch", (long long)sh);
        return -1;
    }
    *shared = (unsigned)sh;
    return 0;
}
