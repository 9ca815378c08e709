/* The per-file lines, the summary and the JSON document of a scan (scan_report.h). */
#include "tui/cli/scan_report.h"

#include <cJSON.h>
#include <stdlib.h>
#include <string.h>

#include "common/text.h"
#include "common/xalloc.h"

/* The text of a file or a compiler as it may be printed: control characters replaced. */
static char *clean(const char *s)
{
    return text_sanitize(s ? s : "", false);
}

static bool compiled_whole(enum eng_scan_cause c)
{
    return c == ENG_SCAN_OK || c == ENG_SCAN_NO_KERNEL || c == ENG_SCAN_NOT_LAUNCHABLE;
}

static bool is_api(enum eng_scan_cause c)
{
    return c == ENG_SCAN_MISSING_API || c == ENG_SCAN_UNSUPPORTED_API;
}

/* "missing API atomicInc at a.cu:12", "missing header helper_cuda.h at a.cu:3", ... */
static char *cause_text(const struct eng_scan_result *r)
{
    char *what = clean(r->what), *where = clean(r->where), *msg = clean(r->message), *t;
    const char *at = r->where ? " at " : "";
    switch (r->cause) {
    case ENG_SCAN_MISSING_API:
        t = xasprintf("missing API %s%s%s", what, at, where);
        break;
    case ENG_SCAN_UNSUPPORTED_API:
        t = xasprintf("API not supported on this backend: %s%s%s", what, at, where);
        break;
    case ENG_SCAN_MISSING_HEADER:
        t = xasprintf("missing header %s%s%s", what, at, where);
        break;
    case ENG_SCAN_NOT_LAUNCHABLE:
        t = xasprintf("entry %s not launchable: %s", what, msg);
        break;
    case ENG_SCAN_COMPILE_ERROR:
        t = xasprintf("compile error: %s", msg);
        break;
    default:
        t = xasprintf("%s: %s", eng_scan_cause_name(r->cause), msg);
        break;
    }
    free(what);
    free(where);
    free(msg);
    return t;
}

void scan_report_line(FILE *f, const struct scan_file *file, const struct eng_scan_result *r)
{
    char *path = clean(file->shown);
    if (r->cause != ENG_SCAN_OK) {
        char *why = cause_text(r);
        fprintf(f, "refused %s: %s\n", path, why);
        free(why);
        free(path);
        return;
    }
    size_t launchable = 0, waiting = 0;
    for (size_t i = 0; i < r->nentries; i++) {
        launchable += r->entries[i].state == ENG_SCAN_LAUNCHABLE;
        waiting += r->entries[i].state == ENG_SCAN_NO_INSTANCE;
    }
    fprintf(f, "ok      %s (%zu %s launchable", path, launchable,
            launchable == 1 ? "entry" : "entries");
    if (waiting)
        fprintf(f, ", %zu %s with no instance", waiting, waiting == 1 ? "template" : "templates");
    fprintf(f, ")");
    for (size_t i = 0; i < r->nentries; i++) {
        const struct eng_scan_entry *e = &r->entries[i];
        char *name = clean(e->instance ? e->instance : e->kernel);
        fprintf(f, "%s%s%s", i ? ", " : ": ", name,
                e->state == ENG_SCAN_NO_INSTANCE ? " (template, no instance)"
                : e->state == ENG_SCAN_INACTIVE  ? " (under a preprocessor branch not taken)"
                                                 : "");
        free(name);
    }
    fprintf(f, "\n");
    free(path);
}

struct api_count {
    char *name;
    size_t n;
};

static int by_count(const void *a, const void *b)
{
    const struct api_count *x = a, *y = b;
    if (x->n != y->n)
        return x->n < y->n ? 1 : -1;
    return strcmp(x->name, y->name);
}

/* The missing API names of the refused files, most frequent first (name order among equals). */
static struct api_count *api_counts(const struct eng_scan_result *r, size_t n, size_t *count)
{
    struct api_count *c = NULL;
    size_t k = 0;
    for (size_t i = 0; i < n; i++) {
        if (!is_api(r[i].cause) || !r[i].what)
            continue;
        size_t j = 0;
        while (j < k && strcmp(c[j].name, r[i].what) != 0)
            j++;
        if (j == k) {
            c = xrealloc(c, (k + 1) * sizeof *c);
            c[k++] = (struct api_count){.name = r[i].what};
        }
        c[j].n++;
    }
    if (k)
        qsort(c, k, sizeof *c, by_count);
    *count = k;
    return c;
}

static double pct(size_t a, size_t b)
{
    return b ? 100.0 * (double)a / (double)b : 0.0;
}

void scan_report_summary(FILE *f, const struct eng_scan_result *r, size_t n)
{
    size_t whole = 0, ok = 0, by_cause[ENG_SCAN_NCAUSES] = {0};
    for (size_t i = 0; i < n; i++) {
        whole += compiled_whole(r[i].cause);
        ok += r[i].cause == ENG_SCAN_OK;
        by_cause[r[i].cause]++;
    }
    fprintf(f, "\n%-28s %6zu\n", "files", n);
    fprintf(f, "%-28s %6zu  %5.1f%%\n", "compiled whole", whole, pct(whole, n));
    fprintf(f, "%-28s %6zu  %5.1f%%\n", "every entry launchable", ok, pct(ok, n));
    fprintf(f, "%-28s %6zu  %5.1f%%\n", "refused", n - ok, pct(n - ok, n));
    for (int c = 1; c < ENG_SCAN_NCAUSES; c++)
        if (by_cause[c])
            fprintf(f, "  %-26s %6zu  %5.1f%%\n", eng_scan_cause_name((enum eng_scan_cause)c),
                    by_cause[c], pct(by_cause[c], n));
    size_t k;
    struct api_count *c = api_counts(r, n, &k);
    if (k) {
        fprintf(f, "\nmost frequent missing API names (files):\n");
        for (size_t i = 0; i < k && i < SCAN_TOP_APIS; i++) {
            char *name = clean(c[i].name);
            fprintf(f, "  %-40s %6zu\n", name, c[i].n);
            free(name);
        }
    }
    free(c);
}

static void add_clean(cJSON *o, const char *key, const char *value)
{
    if (!value)
        return;
    char *s = clean(value);
    cJSON_AddStringToObject(o, key, s);
    free(s);
}

void scan_report_json(FILE *f, const char *backend, const char *target,
                      const char *const *flags, const struct scan_files *files,
                      const struct eng_scan_result *r)
{
    cJSON *doc = cJSON_CreateObject();
    cJSON_AddStringToObject(doc, "backend", backend);
    add_clean(doc, "target", target);
    cJSON *fl = cJSON_AddArrayToObject(doc, "flags");
    for (size_t i = 0; flags && flags[i]; i++) {
        char *s = clean(flags[i]);
        cJSON_AddItemToArray(fl, cJSON_CreateString(s));
        free(s);
    }
    cJSON *arr = cJSON_AddArrayToObject(doc, "files");
    size_t whole = 0, ok = 0, by_cause[ENG_SCAN_NCAUSES] = {0};
    for (size_t i = 0; i < files->n; i++) {
        cJSON *o = cJSON_CreateObject();
        add_clean(o, "path", files->v[i].shown);
        cJSON_AddStringToObject(o, "cause", eng_scan_cause_name(r[i].cause));
        add_clean(o, "what", r[i].what);
        add_clean(o, "where", r[i].where);
        add_clean(o, "message", r[i].message);
        cJSON *entries = cJSON_AddArrayToObject(o, "entries");
        for (size_t k = 0; k < r[i].nentries; k++) {
            cJSON *e = cJSON_CreateObject();
            add_clean(e, "kernel", r[i].entries[k].kernel);
            add_clean(e, "instance", r[i].entries[k].instance);
            cJSON_AddStringToObject(e, "state", eng_scan_state_name(r[i].entries[k].state));
            cJSON_AddItemToArray(entries, e);
        }
        cJSON_AddItemToArray(arr, o);
        whole += compiled_whole(r[i].cause);
        ok += r[i].cause == ENG_SCAN_OK;
        by_cause[r[i].cause]++;
    }
    cJSON *s = cJSON_AddObjectToObject(doc, "summary");
    cJSON_AddNumberToObject(s, "files", (double)files->n);
    cJSON_AddNumberToObject(s, "compiled_whole", (double)whole);
    cJSON_AddNumberToObject(s, "every_entry_launchable", (double)ok);
    cJSON_AddNumberToObject(s, "refused", (double)(files->n - ok));
    cJSON *causes = cJSON_AddObjectToObject(s, "refusals");
    for (int c = 1; c < ENG_SCAN_NCAUSES; c++)
        cJSON_AddNumberToObject(causes, eng_scan_cause_name((enum eng_scan_cause)c),
                                (double)by_cause[c]);
    size_t k;
    struct api_count *c = api_counts(r, files->n, &k);
    cJSON *apis = cJSON_AddArrayToObject(s, "missing_api");
    for (size_t i = 0; i < k && i < SCAN_TOP_APIS; i++) {
        cJSON *a = cJSON_CreateObject();
        add_clean(a, "name", c[i].name);
        cJSON_AddNumberToObject(a, "files", (double)c[i].n);
        cJSON_AddItemToArray(apis, a);
    }
    free(c);
    char *text = cJSON_Print(doc);
    fprintf(f, "%s\n", text);
    free(text);
    cJSON_Delete(doc);
}
