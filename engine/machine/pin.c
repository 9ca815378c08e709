/* Pin files (engine/machine/pin.h): collect, print, read, compare. */
#include "engine/machine/pin.h"

#include <cJSON.h>
#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "common/fileio.h"
#include "common/text.h"
#include "common/xalloc.h"
#include "engine/backend/backend.h"
#include "engine/codeobj/elf_build_id.h"

#define PIN_FORMAT "kladder-pin"
#define PIN_VERSION 1

static char *dup_known(const char *s)
{
    return s && *s ? xstrdup(s) : NULL;
}

int eng_pin_collect(const char *backend, int device, const char *const *libs, size_t nlibs,
                    struct eng_pin *out, char *err, size_t errlen)
{
    memset(out, 0, sizeof *out);
    const struct eng_backend *B = NULL;
    char why[512] = "";
    for (size_t i = 0; eng_backends[i] && !B; i++) {
        const struct eng_backend *b = eng_backends[i];
        if (backend && strcmp(backend, b->name) != 0)
            continue;
        int count = 0;
        if (b->load(why, sizeof why) == 0 && b->device_count(&count, why, sizeof why) == 0 &&
            count > device)
            B = b;
        else if (backend && !why[0])
            snprintf(why, sizeof why, "it has %d device%s, no device %d", count,
                     count == 1 ? "" : "s", device);
    }
    if (!B) {
        if (backend)
            snprintf(err, errlen, "the %s backend is not available here: %s", backend, why);
        else
            snprintf(err, errlen, "no backend has a device here");
        return -1;
    }
    struct eng_device_info info;
    memset(&info, 0, sizeof info);
    if (B->device_info(device, &info, why, sizeof why) != 0) {
        snprintf(err, errlen, "%s device %d: %s", B->name, device, why);
        return -1;
    }
    char target[64];
    B->compile_target(&info, 0, target, sizeof target);
    out->backend = xstrdup(B->name);
    out->device_index = device;
    out->device = dup_known(info.name);
    out->target = dup_known(target);
    out->driver = dup_known(info.driver_version);
    out->runtime = dup_known(info.runtime_version);
    out->compiler = dup_known(B->compiler_id());
    out->compute_partition = dup_known(info.compute_partition);
    out->memory_partition = dup_known(info.memory_partition);
    out->kladder = xstrdup(KL_VERSION);
    out->libs = xcalloc(nlibs ? nlibs : 1, sizeof *out->libs);
    out->nlibs = nlibs;
    for (size_t i = 0; i < nlibs; i++) {
        struct eng_pin_lib *l = &out->libs[i];
        char id[2 * ELF_BUILD_ID_MAX + 1], msg[512];
        l->path = xstrdup(libs[i]);
        if (eng_elf_build_id(libs[i], id, msg, sizeof msg) == 0)
            l->build_id = xstrdup(id);
        else
            l->why = xstrdup(msg);
    }
    return 0;
}

static void add_str(cJSON *o, const char *k, const char *v)
{
    if (v)
        cJSON_AddStringToObject(o, k, v);
    else
        cJSON_AddNullToObject(o, k);
}

char *eng_pin_print(const struct eng_pin *p)
{
    cJSON *o = cJSON_CreateObject();
    cJSON_AddStringToObject(o, "format", PIN_FORMAT);
    cJSON_AddNumberToObject(o, "version", PIN_VERSION);
    cJSON_AddNumberToObject(o, "device_index", p->device_index);
#define X(f) add_str(o, #f, p->f);
    ENG_PIN_FIELDS(X)
#undef X
    cJSON *libs = cJSON_AddArrayToObject(o, "libraries");
    for (size_t i = 0; i < p->nlibs; i++) {
        cJSON *l = cJSON_CreateObject();
        add_str(l, "path", p->libs[i].path);
        add_str(l, "build_id", p->libs[i].build_id);
        cJSON_AddItemToArray(libs, l);
    }
    char *text = cJSON_Print(o);
    cJSON_Delete(o);
    if (!text)
        return NULL;
    char *res = xasprintf("%s\n", text);
    cJSON_free(text);
    return res;
}

static bool whole_in(const cJSON *j, double lo, double hi)
{
    return cJSON_IsNumber(j) && j->valuedouble >= lo && j->valuedouble <= hi &&
           !(fabs(j->valuedouble - floor(j->valuedouble)) > 0);
}

static const char *type_name(const cJSON *j)
{
    return !j ? "nothing (missing)" : cJSON_IsNull(j) ? "null" : cJSON_IsString(j) ? "a string"
         : cJSON_IsNumber(j) ? "a number" : cJSON_IsBool(j) ? "a boolean"
         : cJSON_IsArray(j) ? "an array" : "an object";
}

/* A string-or-null field; false with a message when it is anything else or missing. */
static bool read_str(const char *path, const cJSON *o, const char *key, const char *where,
                     char **out, char *err, size_t errlen)
{
    const cJSON *j = cJSON_GetObjectItemCaseSensitive(o, key);
    if (cJSON_IsNull(j)) {
        *out = NULL;
        return true;
    }
    if (!cJSON_IsString(j)) {
        snprintf(err, errlen, "%s: %s%s: expected a string or null, got %s", path, where, key,
                 type_name(j));
        return false;
    }
    *out = xstrdup(j->valuestring);
    return true;
}

static bool known_keys(const char *path, const cJSON *o, const char *where, const char *keys,
                       char *err, size_t errlen)
{
    for (const cJSON *c = o->child; c; c = c->next) {
        bool ok = false;
        for (const char *k = keys; *k && !ok; k += strlen(k) + 1)
            ok = strcmp(k, c->string) == 0;
        if (!ok) {
            char *name = text_sanitize(c->string, false);
            snprintf(err, errlen, "%s: %s%.80s: unknown field", path, where, name);
            free(name);
            return false;
        }
    }
    return true;
}

int eng_pin_read(const char *path, struct eng_pin *out, char *err, size_t errlen)
{
    memset(out, 0, sizeof *out);
    size_t len;
    char *text = file_read_all(path, &len, err, errlen);
    if (!text)
        return -1;
    cJSON *o = cJSON_ParseWithLength(text, len);
    free(text);
    int rc = -1;
    if (!cJSON_IsObject(o)) {
        snprintf(err, errlen, "%s: expected a JSON object (a pin file from `kladder pin write`)",
                 path);
        goto done;
    }
    const char keys[] = "format\0version\0device_index\0backend\0device\0target\0driver\0"
                        "runtime\0compiler\0compute_partition\0memory_partition\0kladder\0"
                        "libraries\0";
    if (!known_keys(path, o, "", keys, err, errlen))
        goto done;
    const cJSON *f = cJSON_GetObjectItemCaseSensitive(o, "format");
    if (!cJSON_IsString(f) || strcmp(f->valuestring, PIN_FORMAT) != 0) {
        snprintf(err, errlen, "%s: format: expected \"%s\", got %s", path, PIN_FORMAT,
                 type_name(f));
        goto done;
    }
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, "version");
    if (!whole_in(v, PIN_VERSION, PIN_VERSION)) {
        snprintf(err, errlen, "%s: version: expected %d", path, PIN_VERSION);
        goto done;
    }
    const cJSON *di = cJSON_GetObjectItemCaseSensitive(o, "device_index");
    if (!whole_in(di, 0, 1024)) {
        snprintf(err, errlen, "%s: device_index: expected a whole number from 0 to 1024, got %s",
                 path, type_name(di));
        goto done;
    }
    out->device_index = (int)di->valuedouble;
#define X(fl) if (!read_str(path, o, #fl, "", &out->fl, err, errlen)) goto done;
    ENG_PIN_FIELDS(X)
#undef X
    if (!out->backend) {
        snprintf(err, errlen, "%s: backend: expected a backend name, got null", path);
        goto done;
    }
    const cJSON *libs = cJSON_GetObjectItemCaseSensitive(o, "libraries");
    if (!cJSON_IsArray(libs)) {
        snprintf(err, errlen, "%s: libraries: expected an array, got %s", path, type_name(libs));
        goto done;
    }
    size_t n = (size_t)cJSON_GetArraySize(libs), i = 0;
    out->libs = xcalloc(n ? n : 1, sizeof *out->libs);
    for (const cJSON *l = libs->child; l; l = l->next, i++) {
        char where[48];
        snprintf(where, sizeof where, "libraries[%zu].", i);
        if (!cJSON_IsObject(l)) {
            snprintf(err, errlen, "%s: libraries[%zu]: expected an object, got %s", path, i,
                     type_name(l));
            goto done;
        }
        out->nlibs = i + 1;
        if (!known_keys(path, l, where, "path\0build_id\0", err, errlen) ||
            !read_str(path, l, "path", where, &out->libs[i].path, err, errlen) ||
            !read_str(path, l, "build_id", where, &out->libs[i].build_id, err, errlen))
            goto done;
        if (!out->libs[i].path) {
            snprintf(err, errlen, "%s: %spath: expected a file path, got null", path, where);
            goto done;
        }
    }
    rc = 0;
done:
    cJSON_Delete(o);
    if (rc != 0)
        eng_pin_free(out);
    return rc;
}

static bool same(const char *a, const char *b)
{
    return (!a && !b) || (a && b && strcmp(a, b) == 0);
}

static void quoted(FILE *out, const char *s)
{
    if (!s) {
        fputs("unknown", out);
        return;
    }
    char *c = text_sanitize(s, false);
    fprintf(out, "\"%s\"", c);
    free(c);
}

size_t eng_pin_diff(const struct eng_pin *pinned, const struct eng_pin *here, FILE *out)
{
    size_t drifts = 0;
#define X(f)                                                                                    \
    if (!same(pinned->f, here->f)) {                                                            \
        fputs("drift " #f ": pinned ", out);                                                    \
        quoted(out, pinned->f);                                                                 \
        fputs(", here ", out);                                                                  \
        quoted(out, here->f);                                                                   \
        fputc('\n', out);                                                                       \
        drifts++;                                                                               \
    }
    ENG_PIN_FIELDS(X)
#undef X
    for (size_t i = 0; i < pinned->nlibs; i++) {
        const struct eng_pin_lib *p = &pinned->libs[i];
        const struct eng_pin_lib *h = NULL;
        for (size_t k = 0; k < here->nlibs && !h; k++)
            if (strcmp(here->libs[k].path, p->path) == 0)
                h = &here->libs[k];
        if (h && same(p->build_id, h->build_id))
            continue;
        char *path = text_sanitize(p->path, false);
        fprintf(out, "drift library %s: pinned build id ", path);
        free(path);
        quoted(out, p->build_id);
        fputs(", here ", out);
        if (h && h->build_id) {
            quoted(out, h->build_id);
        } else {
            char *why = text_sanitize(h && h->why ? h->why : "not read", false);
            fprintf(out, "none (%s)", why);
            free(why);
        }
        fputc('\n', out);
        drifts++;
    }
    return drifts;
}

void eng_pin_free(struct eng_pin *p)
{
#define X(f) free(p->f);
    ENG_PIN_FIELDS(X)
#undef X
    for (size_t i = 0; i < p->nlibs; i++) {
        free(p->libs[i].path);
        free(p->libs[i].build_id);
        free(p->libs[i].why);
    }
    free(p->libs);
    memset(p, 0, sizeof *p);
}
