/* Rung 8's user evaluation, settings and worker side (engine/rungs/rung8_e2e_check.h). */
#include "engine/rungs/rung8_e2e_check.h"

#include <cJSON.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "common/fileio.h"
#include "common/text.h"
#include "common/xalloc.h"
#include "engine/rungs/rung8_e2e_cmd.h"

int eng_e2e_baseline(const char *text, const struct eng_score_format *f, double *out, char *err,
                     size_t errlen)
{
    char *end;
    double v = strtod(text, &end);
    if (end != text && !*end) {
        if (!isfinite(v) || v <= 0) {
            snprintf(err, errlen, "--baseline expects a score above 0 or a file, not '%.60s'",
                     text);
            return -1;
        }
        *out = v;
        return 0;
    }
    char ferr[256];
    size_t len;
    char *data = file_read_all(text, &len, ferr, sizeof ferr);
    if (!data) {
        snprintf(err, errlen, "--baseline expects a number or a readable file: %s", ferr);
        return -1;
    }
    /* a file holding one number, or an earlier result the score format reads */
    v = strtod(data, &end);
    while (end != data && (*end == ' ' || *end == '\n' || *end == '\t' || *end == '\r'))
        end++;
    int rc = 0;
    if (end != data && !*end) {
        *out = v;
    } else {
        struct eng_score s;
        char why[384];
        if (eng_score_read(f, data, &s, why, sizeof why) != 0) {
            char *shown = text_escape(text, 120);
            snprintf(err, errlen, "--baseline %s: expected a number or a result the --score "
                     "format reads: %s", shown, why);
            free(shown);
            rc = -1;
        } else {
            *out = s.score;
        }
    }
    free(data);
    if (rc == 0 && (!isfinite(*out) || *out <= 0)) {
        char *shown = text_escape(text, 120);
        snprintf(err, errlen, "--baseline %s: the baseline score %g is not above 0", shown, *out);
        free(shown);
        rc = -1;
    }
    return rc;
}

char *eng_e2e_json(const struct eng_e2e *e)
{
    cJSON *o = cJSON_CreateObject();
    cJSON_AddStringToObject(o, "command", e->command);
    cJSON_AddBoolToObject(o, "shell", e->shell);
    cJSON_AddStringToObject(o, "score", e->score);
    if (e->results)
        cJSON_AddStringToObject(o, "results", e->results);
    cJSON_AddNumberToObject(o, "baseline", e->gate.baseline);
    cJSON_AddNumberToObject(o, "tolerance", e->gate.tolerance);
    cJSON_AddNumberToObject(o, "samples", (double)e->gate.samples);
    cJSON_AddNumberToObject(o, "invalid_max", e->gate.invalid_max);
    cJSON_AddBoolToObject(o, "wilson", e->gate.wilson);
    if (e->log)
        cJSON_AddStringToObject(o, "log", e->log);
    char *t = cJSON_PrintUnformatted(o);
    cJSON_Delete(o);
    return t;
}

/* The worker's reading of eng_e2e_json's text (strings point into *holder, which the caller
 * frees with cJSON_Delete). 0, or -1 with a message. */
static int eng_e2e_parse(const char *json, struct eng_e2e *out, cJSON **holder, char *err,
                         size_t errlen)
{
    memset(out, 0, sizeof *out);
    cJSON *j = cJSON_Parse(json);
    *holder = j;
    const cJSON *cmd = cJSON_GetObjectItemCaseSensitive(j, "command");
    const cJSON *sc = cJSON_GetObjectItemCaseSensitive(j, "score");
    const cJSON *bl = cJSON_GetObjectItemCaseSensitive(j, "baseline");
    if (!cJSON_IsString(cmd) || !cJSON_IsString(sc) || !cJSON_IsNumber(bl)) {
        snprintf(err, errlen, "the e2e settings lack command, score or baseline");
        return -1;
    }
    out->command = cmd->valuestring;
    out->score = sc->valuestring;
    out->shell = cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(j, "shell"));
    const cJSON *r = cJSON_GetObjectItemCaseSensitive(j, "results");
    out->results = cJSON_IsString(r) ? r->valuestring : NULL;
    const cJSON *l = cJSON_GetObjectItemCaseSensitive(j, "log");
    out->log = cJSON_IsString(l) ? l->valuestring : NULL;
    out->gate.baseline = bl->valuedouble;
    const cJSON *t = cJSON_GetObjectItemCaseSensitive(j, "tolerance");
    out->gate.tolerance = cJSON_IsNumber(t) ? t->valuedouble : 0.08;
    const cJSON *n = cJSON_GetObjectItemCaseSensitive(j, "samples");
    out->gate.samples = cJSON_IsNumber(n) ? (int64_t)n->valuedouble : 0;
    const cJSON *iv = cJSON_GetObjectItemCaseSensitive(j, "invalid_max");
    out->gate.invalid_max = cJSON_IsNumber(iv) ? iv->valuedouble : 0.05;
    out->gate.wilson = cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(j, "wilson"));
    return 0;
}

void eng_e2e_check_name(const struct eng_e2e *e, char *out, size_t n)
{
    if (!strncmp(e->score, "regex:", 6))
        snprintf(out, n, "score:regex");
    else
        snprintf(out, n, "score:%s", e->score);
}

/* Opens the log the settings ask for (its folder made); a note for the detail: where the
 * output is kept, or why it is not. NULL when there is none. */
static struct eng_e2e_log *open_log(const struct eng_e2e *e, char *note, size_t n)
{
    note[0] = '\0';
    if (!e->log)
        return NULL;
    char err[512];
    char *dir = xstrdup(e->log), *slash = strrchr(dir, '/');
    struct eng_e2e_log *l = NULL;
    if (slash)
        *slash = '\0';
    if (!slash || !dir[0] || file_mkdirs(dir, err, sizeof err) == 0) {
        char *header = xasprintf("kladder rung 8: %s%s", e->shell ? "sh -c " : "", e->command);
        l = eng_e2e_log_open(e->log, header, err, sizeof err);
        free(header);
    }
    free(dir);
    if (l)
        snprintf(note, n, "; output kept in %s", e->log);
    else
        snprintf(note, n, "; the output could not be kept: %s", err);
    return l;
}

void eng_e2e_hang_note(const struct eng_check_spec *s, char *out, size_t n)
{
    out[0] = '\0';
    struct eng_e2e e;
    cJSON *holder = NULL;
    char err[256];
    if (s->e2e && eng_e2e_parse(s->e2e, &e, &holder, err, sizeof err) == 0 && e.log) {
        char *tail = eng_e2e_log_tail(e.log, 8, 600, " | ");
        if (tail)
            snprintf(out, n, "; its last lines: %s; output kept in %s", tail, e.log);
        free(tail);
    }
    cJSON_Delete(holder);
}

void eng_e2e_run(const struct eng_check_spec *s, void (*ready)(void *), void *arg,
                 struct eng_check_result *out)
{
    eng_check_result_init(out);
    out->verdict = CDB_ERROR;
    snprintf(out->oracle, sizeof out->oracle, "score");
    snprintf(out->shape, sizeof out->shape, "-");
    out->repeats = 1;
    struct eng_e2e e;
    cJSON *holder = NULL;
    char err[768];
    struct eng_score_format f;
    if (eng_e2e_parse(s->e2e, &e, &holder, err, sizeof err) != 0 ||
        eng_score_format_parse(e.score, &f, err, sizeof err) != 0) {
        snprintf(out->detail, sizeof out->detail, "%s", err);
        cJSON_Delete(holder);
        return;
    }
    char kept[640];
    struct eng_e2e_log *log = open_log(&e, kept, sizeof kept);
    ready(arg);
    time_t started = time(NULL);
    struct eng_e2e_output o;
    int status = eng_e2e_exec(e.command, e.shell, log, &o, err, sizeof err);
    eng_e2e_log_close(log, status);
    if (status < 0) {
        snprintf(out->detail, sizeof out->detail, "%s", err);
        cJSON_Delete(holder);
        return;
    }
    struct eng_score sc;
    int rc;
    struct stat st;
    if (e.results && stat(e.results, &st) == 0 && st.st_mtime < started - 1) {
        /* an earlier run's results would score a model that did not run: refuse them. A
         * second of slack covers file systems that keep whole seconds. */
        snprintf(err, sizeof err, "%s was not written by this command (it was last changed "
                 "before the command started)", e.results);
        rc = -1;
    } else if (e.results) {
        size_t len;
        char *data = file_read_all(e.results, &len, err, sizeof err);
        rc = data ? eng_score_read(&f, data, &sc, err, sizeof err) : -1;
        if (data && rc != 0) {
            size_t l = strlen(err);
            snprintf(err + l, sizeof err - l, " (in %s)", e.results);
        }
        free(data);
    } else {
        rc = eng_score_read(&f, o.text, &sc, err, sizeof err);
    }
    if (rc != 0) {
        /* no score is not a low score: an error, with what the command said last */
        char *tail = eng_e2e_tail(&o, 8, 600, " | ");
        snprintf(out->detail, sizeof out->detail, "no score: %s; the command exited with "
                 "status %d; its last lines: %s%s", err, status, tail, kept);
        free(tail);
    } else {
        char why[640];
        bool pass = eng_gate_judge(&e.gate, &sc, why, sizeof why);
        out->verdict = pass ? CDB_PASS : CDB_FAIL;
        /* an evaluation has no steps to diverge at */
        out->score = (struct cdb_score){.set = true, .value = sc.score,
                                        .baseline = e.gate.baseline, .samples = sc.samples,
                                        .diverge_step = -1};
        snprintf(out->detail, sizeof out->detail, "%s; exit status %d%s%s", why, status,
                 pass && status != 0 ? " (ignored: the score decides)" : "", kept);
    }
    eng_e2e_output_free(&o);
    cJSON_Delete(holder);
}
