/* Describing an op (kladder.h): the description is a suite manifest built field by field,
 * parsed and validated by the engine's own parser, and planned by the rungs' own planners. The
 * op's launch is the caller's, so its manifest names no source to compile: its arguments are its
 * buffers in order, its launch one block. */
#include <cJSON.h>
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/xalloc.h"
#include "engine/api/api_internal.h"
#include "engine/rung.h"
#include "engine/tables/tables.h"

static _Thread_local char last_error[1024];

int api_fail(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(last_error, sizeof last_error, fmt, ap);
    va_end(ap);
    return -1;
}

void api_ok(void) { last_error[0] = '\0'; }

const char *kl_error(void) { return last_error; }
int kl_api_version(void) { return KLADDER_API_VERSION; }
const char *kl_version(void) { return KL_VERSION " (" KL_COMMIT ")"; }

const char *kl_rung_unavailable(int rung)
{
    eng_tables_install();
    const struct eng_rung *R = eng_rung_find(rung);
    if (R)
        return R->op_unavailable;
    static char none[128];
    snprintf(none, sizeof none, "kladder has no such rung (the ladder is rungs 1 to %d)",
             eng_rung_top());
    return none;
}

static bool name_ok(const char *s, size_t max)
{
    size_t n = s ? strlen(s) : 0;
    if (n == 0 || n > max)
        return false;
    for (; *s; s++)
        if (!isalnum((unsigned char)*s) && *s != '_' && *s != '-')
            return false;
    return true;
}

kl_op *kl_op_new(const char *name)
{
    eng_tables_install();
    if (!name_ok(name, 60)) {
        api_fail("op name: expected 1 to 60 letters, digits, '-' or '_', got \"%s\"",
                 name ? name : "(null)");
        return NULL;
    }
    api_ok();
    kl_op *op = xcalloc(1, sizeof *op);
    op->name = xasprintf("py-%s", name);
    cJSON *d = op->doc = cJSON_CreateObject();
    cJSON_AddStringToObject(d, "format", "kladder-suite");
    cJSON_AddNumberToObject(d, "version", 1);
    cJSON_AddStringToObject(d, "name", op->name);
    cJSON_AddStringToObject(d, "source", "host-op.kl"); /* never compiled: the launch is the caller's */
    cJSON_AddItemToObject(d, "variants", cJSON_CreateObject());
    cJSON_AddStringToObject(cJSON_GetObjectItem(d, "variants"), "fixed", "op");
    cJSON_AddStringToObject(d, "reference", "reference");
    cJSON_AddItemToObject(d, "params", cJSON_CreateObject());
    cJSON_AddItemToObject(d, "buffers", cJSON_CreateArray());
    cJSON_AddItemToObject(d, "rungs", cJSON_CreateObject());
    cJSON *launch = cJSON_AddObjectToObject(d, "launch");
    const int one[3] = {1, 1, 1};
    cJSON_AddItemToObject(launch, "grid", cJSON_CreateIntArray(one, 3));
    cJSON_AddItemToObject(launch, "block", cJSON_CreateIntArray(one, 3));
    return op;
}

static void unplan(kl_op *op)
{
    eng_planned_free(op->plan, op->nplan);
    op->plan = NULL;
    op->nplan = 0;
    eng_manifest_free(op->m);
    op->m = NULL;
}

void kl_op_free(kl_op *op)
{
    if (!op)
        return;
    unplan(op);
    cJSON_Delete(op->doc);
    free(op->dir);
    free(op->name);
    free(op);
}

/* Replaces (or adds) obj[key] with item. */
static void put(cJSON *obj, const char *key, cJSON *item)
{
    if (cJSON_GetObjectItemCaseSensitive(obj, key))
        cJSON_ReplaceItemInObjectCaseSensitive(obj, key, item);
    else
        cJSON_AddItemToObject(obj, key, item);
}

/* JSON text as an item, or NULL with an error naming where it was meant to go. */
static cJSON *parse_json(const char *what, const char *json)
{
    cJSON *j = json ? cJSON_Parse(json) : NULL;
    if (!j)
        api_fail("%s: expected JSON text, got \"%.200s\"", what, json ? json : "(null)");
    return j;
}

int kl_op_param(kl_op *op, const char *name, double value)
{
    if (!name_ok(name, 60))
        return api_fail("params: expected a parameter name, got \"%s\"", name ? name : "(null)");
    api_ok();
    put(cJSON_GetObjectItem(op->doc, "params"), name, cJSON_CreateNumber(value));
    return 0;
}

static cJSON *find_buffer(kl_op *op, const char *name)
{
    cJSON *it;
    cJSON_ArrayForEach(it, cJSON_GetObjectItem(op->doc, "buffers")) {
        const cJSON *n = cJSON_GetObjectItem(it, "name");
        if (cJSON_IsString(n) && name && !strcmp(n->valuestring, name))
            return it;
    }
    return NULL;
}

int kl_op_buffer(kl_op *op, const char *name, const char *dtype, const char *role,
                 const char *const *dims, size_t ndims)
{
    if (!name_ok(name, 60))
        return api_fail("buffers: expected a buffer name, got \"%s\"", name ? name : "(null)");
    if (find_buffer(op, name))
        return api_fail("buffers.%s: declared twice", name);
    if (!role || (strcmp(role, "input") && strcmp(role, "output")))
        return api_fail("buffers.%s.role: expected \"input\" or \"output\", got \"%s\"", name,
                        role ? role : "(null)");
    api_ok();
    cJSON *b = cJSON_CreateObject();
    cJSON_AddStringToObject(b, "name", name);
    cJSON_AddStringToObject(b, "dtype", dtype ? dtype : "");
    cJSON_AddStringToObject(b, "role", role);
    cJSON *shape = cJSON_AddArrayToObject(b, "shape");
    for (size_t d = 0; d < ndims; d++)
        cJSON_AddItemToArray(shape, cJSON_CreateString(dims[d] ? dims[d] : ""));
    cJSON_AddItemToArray(cJSON_GetObjectItem(op->doc, "buffers"), b);
    return 0;
}

int kl_op_buffer_set(kl_op *op, const char *buffer, const char *key, const char *json)
{
    static const char *const keys[] = {"init",   "pad_to", "ties",   "ties_in",   "nan",      "reduce",
                                       "kind",   "acc",    "domain", "nonfinite", "nan_pick", NULL};
    cJSON *b = find_buffer(op, buffer);
    if (!b)
        return api_fail("buffers.%s: no such buffer (declare it first)", buffer ? buffer : "(null)");
    bool known = false;
    for (size_t i = 0; keys[i] && key; i++)
        known |= !strcmp(keys[i], key);
    if (!known)
        return api_fail("buffers.%s.%s: expected one of init, pad_to, ties, ties_in, nan, "
                        "reduce, kind, acc, domain, nonfinite, nan_pick", buffer,
                        key ? key : "(null)");
    char what[160];
    snprintf(what, sizeof what, "buffers.%s.%s", buffer, key);
    cJSON *j = parse_json(what, json);
    if (!j)
        return -1;
    api_ok();
    put(b, key, j);
    return 0;
}

int kl_op_tolerance(kl_op *op, double abs, double rel)
{
    if (!(abs >= 0) || !(rel >= 0))
        return api_fail("tolerance: expected abs and rel of 0 or more, got %g and %g", abs, rel);
    api_ok();
    cJSON *t = cJSON_CreateObject();
    cJSON_AddNumberToObject(t, "abs", abs);
    cJSON_AddNumberToObject(t, "rel", rel);
    put(op->doc, "tolerance", t);
    return 0;
}

int kl_op_set(kl_op *op, const char *field, const char *json)
{
    static const char *const fields[] = {"tiles", "tuned", "baseline", NULL};
    bool known = false;
    for (size_t i = 0; fields[i] && field; i++)
        known |= !strcmp(fields[i], field);
    if (!known)
        return api_fail("%s: expected one of tiles, tuned, baseline (the rest has a function "
                        "of its own)", field ? field : "(null)");
    cJSON *j = parse_json(field, json);
    if (!j)
        return -1;
    api_ok();
    put(op->doc, field, j);
    return 0;
}

int kl_op_files(kl_op *op, const char *dir)
{
    if (!dir || !dir[0])
        return api_fail("files: expected a folder, got \"%s\"", dir ? dir : "(null)");
    api_ok();
    free(op->dir);
    op->dir = xstrdup(dir);
    return 0;
}

int kl_op_rung(kl_op *op, int rung, const char *settings_json)
{
    const char *why = kl_rung_unavailable(rung);
    if (why)
        return api_fail("rung %d: %s", rung, why);
    char key[16], what[32];
    snprintf(key, sizeof key, "%d", rung);
    snprintf(what, sizeof what, "rungs.%d", rung);
    cJSON *j = settings_json ? parse_json(what, settings_json) : cJSON_CreateObject();
    if (!j)
        return -1;
    api_ok();
    put(cJSON_GetObjectItem(op->doc, "rungs"), key, j);
    return 0;
}

/* The manifest from the description: the op's arguments are its buffers in order, its
 * baseline (where none was given) the parameters' defaults. */
static struct eng_manifest *parse_doc(kl_op *op)
{
    if (!cJSON_GetObjectItem(op->doc, "baseline")) {
        cJSON *shapes = cJSON_AddArrayToObject(op->doc, "baseline");
        cJSON_AddItemToArray(shapes, cJSON_Duplicate(cJSON_GetObjectItem(op->doc, "params"), 1));
    }
    cJSON *args = cJSON_CreateArray(), *it;
    cJSON_ArrayForEach(it, cJSON_GetObjectItem(op->doc, "buffers"))
        cJSON_AddItemToArray(args, cJSON_CreateString(cJSON_GetObjectItem(it, "name")->valuestring));
    put(op->doc, "args", args);
    char *text = cJSON_PrintUnformatted(op->doc);
    char path[96], err[1024];
    snprintf(path, sizeof path, "op %s", op->name + 3);
    struct eng_manifest *m = eng_manifest_parse(text, strlen(text), path,
                                                op->dir ? op->dir : ".", err, sizeof err);
    free(text);
    if (!m)
        api_fail("%s", err);
    return m;
}

int kl_op_plan(kl_op *op, const int *rungs, size_t nrungs, const char *backend,
               unsigned long long seed)
{
    if (op->open_runs)
        return api_fail("a run of op %s is still open: free it before planning again", op->name + 3);
    unplan(op);
    if (nrungs == 0)
        return api_fail("rungs: expected at least one rung to plan");
    for (size_t i = 0; i < nrungs; i++)
        if (kl_rung_unavailable(rungs[i]))
            return api_fail("rung %d: %s", rungs[i], kl_rung_unavailable(rungs[i]));
    if (!eng_backend_find(backend ? backend : ""))
        return api_fail("backend: expected cpu, cuda or hip, got \"%s\"", backend ? backend : "(null)");
    if (!(op->m = parse_doc(op)))
        return -1;
    struct eng_plan_opts o = {.backend = backend, .wave = 32, .seed = seed, .timeout_s = 600,
                              .fixed = true};
    char err[1024];
    for (size_t i = 0; i < nrungs; i++) {
        if (eng_plan_rung(op->m, op->name, rungs[i], &o, &op->plan, &op->nplan, err, sizeof err)) {
            unplan(op);
            return api_fail("%s", err);
        }
    }
    for (size_t i = 0; i < op->nplan; i++)
        op->plan[i].suite_name = op->m->name;
    api_ok();
    return (int)op->nplan;
}

size_t kl_op_checks(const kl_op *op) { return op->nplan; }

const char *kl_check_name(const kl_op *op, size_t i)
{
    return i < op->nplan ? op->plan[i].spec.name : NULL;
}

int kl_check_rung(const kl_op *op, size_t i) { return i < op->nplan ? op->plan[i].spec.rung : -1; }

const char *kl_check_values(const kl_op *op, size_t i)
{
    return i < op->nplan ? op->plan[i].spec.values : NULL;
}
