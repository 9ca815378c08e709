/* The fleet folder's files and its collection (fleet_dir.h). */
#define _DEFAULT_SOURCE /* realpath */
#include "importers/fleet_dir.h"

#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "casedb/hosts.h"
#include "common/fileio.h"
#include "common/text.h"
#include "common/xalloc.h"

static bool where_char(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
           c == '.' || c == '_' || c == '-' || c == '[' || c == ']';
}

int imp_fleet_parse_target(const char *item, bool partition, struct imp_fleet_target *t, char *err,
                           size_t errlen)
{
    memset(t, 0, sizeof *t);
    t->partition = partition;
    const char *eq = strchr(item, '=');
    const char *where = eq ? eq + 1 : item;
    size_t label_len = eq ? (size_t)(eq - item) : strlen(item);
    char *shown = text_fit(item, 60, true, NULL);
    int rc = -1;
    if (!*where || strlen(where) >= sizeof t->where) {
        snprintf(err, errlen, "'%s': the %s name must be 1 to %zu characters", shown,
                 partition ? "partition" : "node", sizeof t->where - 1);
        goto out;
    }
    for (const char *p = where; *p; p++)
        if (!where_char(*p)) {
            snprintf(err, errlen, "'%s': a %s name is letters, digits and . _ - [ ] only", shown,
                     partition ? "partition" : "node");
            goto out;
        }
    if (label_len >= sizeof t->label) {
        snprintf(err, errlen, "'%s': a label is at most 64 characters", shown);
        goto out;
    }
    memcpy(t->label, item, label_len);
    t->label[label_len] = '\0';
    if (!eq)
        snprintf(t->label, sizeof t->label, "%.*s", (int)(sizeof t->label - 1), where);
    if (!cdb_host_name_valid(t->label)) {
        snprintf(err, errlen, "'%s': '%s' is no host name (1-64 of a-z 0-9 . _ -, not 'local'; "
                              "name it with LABEL=%s)", shown, t->label,
                 partition ? "PARTITION" : "NODE");
        goto out;
    }
    snprintf(t->where, sizeof t->where, "%s", where);
    rc = 0;
out:
    free(shown);
    return rc;
}

void imp_fleet_free(struct imp_fleet *f)
{
    free(f->t);
    memset(f, 0, sizeof *f);
}

/* One line of fleet.targets: "INDEX LABEL KIND WHERE". */
static int read_target_line(const char *line, struct imp_fleet_target *t, char *why, size_t len)
{
    char label[80], kind[16], where[300];
    int index, used = 0;
    if (sscanf(line, "%d %79s %15s %299s%n", &index, label, kind, where, &used) != 4 ||
        line[used] != '\0') {
        snprintf(why, len, "expected 'INDEX LABEL node|partition WHERE'");
        return -1;
    }
    if (strcmp(kind, "node") != 0 && strcmp(kind, "partition") != 0) {
        snprintf(why, len, "the kind must be node or partition");
        return -1;
    }
    char item[400];
    snprintf(item, sizeof item, "%s=%s", label, where);
    if (imp_fleet_parse_target(item, kind[0] == 'p', t, why, len) != 0)
        return -1;
    t->index = index;
    return 0;
}

static int read_targets(const char *dir, struct imp_fleet *out, char *err, size_t errlen)
{
    char *path = xasprintf("%s/%s", dir, IMP_FLEET_TARGETS);
    char ferr[512];
    char *text = file_read_all(path, NULL, ferr, sizeof ferr);
    if (!text) {
        int rc = errno == ENOENT ? 0 : -1;
        if (rc)
            snprintf(err, errlen, "%s", ferr);
        free(path);
        return rc;
    }
    int rc = 0, lineno = 0;
    for (char *save = NULL, *line = strtok_r(text, "\n", &save); line;
         line = strtok_r(NULL, "\n", &save)) {
        lineno++;
        char why[400];
        struct imp_fleet_target t;
        if (out->n == IMP_FLEET_MAX_TASKS) {
            snprintf(why, sizeof why, "more than %d tasks", IMP_FLEET_MAX_TASKS);
        } else if (read_target_line(line, &t, why, sizeof why) == 0) {
            if (t.index == (int)out->n) {
                out->t = xrealloc(out->t, (out->n + 1) * sizeof *out->t);
                out->t[out->n++] = t;
                continue;
            }
            snprintf(why, sizeof why, "task %d where task %zu was expected", t.index, out->n);
        }
        snprintf(err, errlen, "%s: line %d: %s", path, lineno, why);
        rc = -1;
        break;
    }
    free(text);
    free(path);
    return rc;
}

static int read_jobs(const char *dir, struct imp_fleet *out, char *err, size_t errlen)
{
    char *path = xasprintf("%s/%s", dir, IMP_FLEET_JOBS);
    char ferr[512];
    char *text = file_read_all(path, NULL, ferr, sizeof ferr);
    int rc = 0, lineno = 0;
    if (!text) {
        rc = errno == ENOENT ? 0 : -1;
        if (rc)
            snprintf(err, errlen, "%s", ferr);
    }
    for (char *save = NULL, *line = text ? strtok_r(text, "\n", &save) : NULL; line;
         line = strtok_r(NULL, "\n", &save)) {
        lineno++;
        char kind[16], id[32];
        int used = 0;
        bool ok = sscanf(line, "%15s %31s%n", kind, id, &used) == 2 && line[used] == '\0' &&
                  strspn(id, "0123456789") == strlen(id);
        if (ok && strcmp(kind, "array") == 0)
            snprintf(out->array_job, sizeof out->array_job, "%s", id);
        else if (ok && strcmp(kind, "collect") == 0)
            snprintf(out->collect_job, sizeof out->collect_job, "%s", id);
        else {
            snprintf(err, errlen, "%s: line %d: expected 'array JOBID' or 'collect JOBID'", path,
                     lineno);
            rc = -1;
            break;
        }
    }
    free(text);
    free(path);
    return rc;
}

int imp_fleet_read(const char *dir, struct imp_fleet *out, char *err, size_t errlen)
{
    memset(out, 0, sizeof *out);
    if (read_targets(dir, out, err, errlen) != 0 || read_jobs(dir, out, err, errlen) != 0) {
        imp_fleet_free(out);
        return -1;
    }
    return 0;
}

static int write_text(const char *dir, const char *name, const char *text, char *err,
                      size_t errlen)
{
    char *path = xasprintf("%s/%s", dir, name);
    int rc = file_write_atomic(path, text, strlen(text), err, errlen);
    free(path);
    return rc;
}

int imp_fleet_write_targets(const char *dir, const struct imp_fleet *f, char *err, size_t errlen)
{
    size_t cap = 64 + f->n * 400, used = 0;
    char *text = xmalloc(cap);
    text[0] = '\0';
    for (size_t i = 0; i < f->n; i++)
        used += (size_t)snprintf(text + used, cap - used, "%d %s %s %s\n", f->t[i].index,
                                 f->t[i].label, f->t[i].partition ? "partition" : "node",
                                 f->t[i].where);
    int rc = write_text(dir, IMP_FLEET_TARGETS, text, err, errlen);
    free(text);
    return rc;
}

int imp_fleet_write_jobs(const char *dir, const struct imp_fleet *f, char *err, size_t errlen)
{
    char text[128];
    int k = snprintf(text, sizeof text, "array %s\n", f->array_job);
    if (f->collect_job[0])
        snprintf(text + k, sizeof text - (size_t)k, "collect %s\n", f->collect_job);
    return write_text(dir, IMP_FLEET_JOBS, text, err, errlen);
}

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

int imp_fleet_exports(const char *dir, char ***labels, size_t *n, char *err, size_t errlen)
{
    *labels = NULL;
    *n = 0;
    DIR *d = opendir(dir);
    if (!d) {
        snprintf(err, errlen, "%s: %s", dir, strerror(errno));
        return -1;
    }
    for (struct dirent *e; (e = readdir(d));) {
        size_t len = strlen(e->d_name);
        if (len <= 5 || strcmp(e->d_name + len - 5, ".json") != 0)
            continue;
        char *label = xasprintf("%.*s", (int)(len - 5), e->d_name);
        if (!cdb_host_name_valid(label)) {
            free(label);
            continue;
        }
        *labels = xrealloc(*labels, (*n + 1) * sizeof **labels);
        (*labels)[(*n)++] = label;
    }
    closedir(d);
    if (*n)
        qsort(*labels, *n, sizeof **labels, cmp_str);
    return 0;
}

void imp_fleet_labels_free(char **labels, size_t n)
{
    for (size_t i = 0; i < n; i++)
        free(labels[i]);
    free(labels);
}

/* The host of label pulls url: added when new; 0, or -1 with why (another URL, or SQLite). */
static int ensure_host(struct cdb *db, const char *label, const char *url, char *why, size_t len)
{
    struct cdb_host_list l;
    int found = cdb_host_find(db, label, false, &l, why, len);
    int rc = found < 0 ? -1 : 0;
    if (found == 1 && strcmp(l.items[0].url, url) != 0) {
        char *shown = text_fit(l.items[0].url, 120, true, NULL);
        snprintf(why, len, "host '%s' already pulls %s; rename it (kladder hosts rename) or "
                           "collect under another label", label, shown);
        free(shown);
        rc = -1;
    }
    cdb_host_list_free(&l);
    if (found == 0)
        rc = cdb_host_add(db, label, url, why, len);
    return rc;
}

int imp_fleet_collect(struct cdb *db, const char *dir, const char *const *labels, size_t n,
                      const struct imp_pull_opts *o, struct imp_pull_result **out, size_t *n_out,
                      char *err, size_t errlen)
{
    char abs[PATH_MAX];
    if (!realpath(dir, abs)) {
        snprintf(err, errlen, "%s: %s", dir, strerror(errno));
        return -1;
    }
    *out = xcalloc(n + 1, sizeof **out);
    *n_out = n;
    const char **ready = xcalloc(n + 1, sizeof *ready);
    size_t *ready_at = xcalloc(n + 1, sizeof *ready_at), n_ready = 0;
    int failed = 0;
    for (size_t i = 0; i < n; i++) {
        struct imp_pull_result *r = &(*out)[i];
        snprintf(r->label, sizeof r->label, "%s", labels[i]);
        char *path = xasprintf("%s/%s.json", abs, labels[i]);
        char *url = imp_file_url(path);
        if (ensure_host(db, labels[i], url, r->err, sizeof r->err) == 0) {
            ready_at[n_ready] = i;
            ready[n_ready++] = labels[i];
        } else {
            failed++;
        }
        free(url);
        free(path);
    }
    struct imp_pull_result *res = NULL;
    size_t nres = 0;
    int rc = n_ready ? imp_pull(db, ready, n_ready, o, &res, &nres, err, errlen) : 0;
    if (rc < 0) {
        failed = -1;
        free(*out);
        *out = NULL;
        *n_out = 0;
    } else {
        failed += rc;
        for (size_t k = 0; k < nres && k < n_ready; k++)
            (*out)[ready_at[k]] = res[k];
    }
    free(res);
    free(ready);
    free(ready_at);
    return failed;
}
