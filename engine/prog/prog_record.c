/* `kladder exec` runs recorded in the results database (prog_record.h). */
#define _GNU_SOURCE
#include "engine/prog/prog_record.h"

#include <limits.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cJSON.h>

#include "casedb/cdb.h"
#include "casedb/results.h"
#include "common/proc_owner.h"
#include "common/text.h"
#include "common/xalloc.h"
#include "engine/machine/fingerprint.h"
#include "engine/report/report.h"

/* A pull refuses a longer text (importers/results_json.h, IMP_RESULTS_MAX_TEXT): what is stored
 * here must pull again on another host. */
#define RECORD_MAX_TEXT 4096
#define RECORD_MAX_NAME 200

enum cdb_verdict eng_prog_cdb_verdict(enum eng_prog_verdict v)
{
    switch (v) {
    case ENG_PROG_PASS: return CDB_PASS;
    case ENG_PROG_FINDING:
    case ENG_PROG_FAILED:
    case ENG_PROG_CRASH: return CDB_FAIL;
    case ENG_PROG_HANG: return CDB_HANG;
    case ENG_PROG_ERROR: return CDB_ERROR;
    }
    return CDB_ERROR;
}

/* s cut to at most max bytes on a character boundary, in place. */
static char *cut_head(char *s, size_t max)
{
    size_t n = strlen(s);
    if (n > max) {
        n = max;
        while (n > 0 && ((unsigned char)s[n] & 0xC0) == 0x80)
            n--;
        s[n] = '\0';
    }
    return s;
}

/* Sanitised s (newlines kept when multi_line), at most max bytes. malloc'd. */
static char *clean(const char *s, bool multi_line, size_t max)
{
    return cut_head(text_sanitize(s ? s : "", multi_line), max);
}

char *eng_prog_output_tail(const struct eng_prog_result *r, size_t max, bool *cut)
{
    const char *out = r->output ? r->output : "";
    size_t n = r->output ? strnlen(out, r->output_len) : 0, from = n > max ? n - max : 0;
    while (from < n && ((unsigned char)out[from] & 0xC0) == 0x80)
        from++; /* start at a character */
    char *raw = xmalloc(n - from + 1);
    memcpy(raw, out + from, n - from);
    raw[n - from] = '\0';
    char *t = text_sanitize(raw, true);
    free(raw);
    size_t len = strlen(t), skip = 0;
    if (len > max) { /* replacements grew it: keep its end, from a character */
        skip = len - max;
        while (skip < len && ((unsigned char)t[skip] & 0xC0) == 0x80)
            skip++;
        memmove(t, t + skip, len - skip + 1);
    }
    *cut = r->output_cut || from > 0 || skip > 0;
    return t;
}

/* The program's fate in words, as the report's last line says it. */
static void program_phrase(const struct eng_prog_opts *o, const struct eng_prog_result *r,
                           char *buf, size_t len)
{
    if (r->verdict == ENG_PROG_ERROR)
        snprintf(buf, len, "did not run");
    else if (r->verdict == ENG_PROG_HANG)
        snprintf(buf, len, "killed after the %d s time limit", o->timeout_s);
    else if (r->stopped)
        snprintf(buf, len, "stopped by kladder at the finding");
    else if (r->signal)
        snprintf(buf, len, "killed by signal %d (%s)", r->signal,
                 sigabbrev_np(r->signal) ? sigabbrev_np(r->signal) : "?");
    else
        snprintf(buf, len, "exit status %d", r->exit_status);
}

static bool program_exited(const struct eng_prog_result *r)
{
    return r->verdict != ENG_PROG_ERROR && r->verdict != ENG_PROG_HANG && !r->signal &&
           !r->stopped;
}

/* The program check's exec facts, in the order a pull writes them back
 * (importers/results_json.c, exec_names): compact JSON, malloc'd. */
static char *program_facts(const struct eng_prog_opts *o, const struct eng_prog_result *r,
                           const char *file)
{
    cJSON *e = cJSON_CreateObject();
    cJSON_AddStringToObject(e, "verdict", eng_prog_verdict_name(r->verdict));
    cJSON_AddStringToObject(e, "file", file);
    cJSON *args = cJSON_AddArrayToObject(e, "args");
    for (int i = 1; i < o->argc; i++) {
        char *a = clean(o->argv[i], false, RECORD_MAX_TEXT);
        cJSON_AddItemToArray(args, cJSON_CreateString(a));
        free(a);
    }
    cJSON_AddStringToObject(e, "schedule", eng_schedule_name(o->schedule));
    cJSON_AddNumberToObject(e, "seed", (double)o->seed);
    cJSON_AddNumberToObject(e, "wave", o->wave);
    cJSON_AddNumberToObject(e, "signal", r->signal);
    cJSON_AddBoolToObject(e, "stopped", r->stopped);
    cJSON_AddBoolToObject(e, "timed_out", r->verdict == ENG_PROG_HANG);
    cJSON_AddNumberToObject(e, "timeout_s", o->timeout_s);
    bool cut;
    char *tail = eng_prog_output_tail(r, RECORD_MAX_TEXT, &cut);
    cJSON_AddStringToObject(e, "output_tail", tail);
    free(tail);
    cJSON_AddBoolToObject(e, "output_cut", cut);
    if (program_exited(r))
        cJSON_AddNumberToObject(e, "exit_status", r->exit_status & 255);
    char *text = cJSON_PrintUnformatted(e);
    cJSON_Delete(e);
    char *out = xstrdup(text ? text : "{}");
    cJSON_free(text);
    return out;
}

/* The arguments as one line for the checks' shape (their key, with the file: the same program
 * run with the same arguments on two machines lines up in a comparison). */
static char *args_line(const struct eng_prog_opts *o)
{
    size_t len = 1;
    for (int i = 1; i < o->argc; i++)
        len += strlen(o->argv[i]) + 1;
    char *line = xmalloc(len);
    line[0] = '\0';
    for (int i = 1; i < o->argc; i++) {
        if (i > 1)
            strcat(line, " ");
        strcat(line, o->argv[i]);
    }
    char *shape = clean(line, false, RECORD_MAX_NAME);
    free(line);
    return shape;
}

/* The cpu backend's machine with the run's wave. */
static int machine(const struct eng_prog_opts *o, struct eng_machine *m, char *err, size_t errlen)
{
    const struct eng_backend *b = eng_backend_emulator();
    struct eng_device_info info;
    memset(&info, 0, sizeof info);
    if (!b) {
        snprintf(err, errlen, "no emulating backend is built in");
        return -1;
    }
    if (b->load(err, errlen) != 0 || b->device_info(0, &info, err, errlen) != 0)
        return -1;
    eng_fingerprint(m, b->name, &info, o->wave);
    return 0;
}

int eng_prog_record_start(struct cdb *db, const struct eng_prog_opts *o,
                          struct eng_prog_run_info *run, char *err, size_t errlen)
{
    struct eng_machine m;
    if (machine(o, &m, err, errlen) != 0)
        return -1;
    cdb_uuid_new(run->uuid);
    char abs[PATH_MAX];
    const char *path = realpath(o->path, abs) ? abs : o->path;
    const char *base = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;
    char *suite = clean(base, false, RECORD_MAX_NAME);
    char *argv_text = clean(run->argv_text, false, RECORD_MAX_TEXT);
    struct kl_owner self;
    kl_owner_self(&self);
    struct cdb_run row = {.uuid = run->uuid, .machine_id = m.m.id, .host = m.m.host, .rung = 0,
                          .suite = suite, .variant = "exec", .argv = argv_text,
                          .started = run->started, .finished = NULL, .verdict = CDB_RUNNING,
                          .owner = &self};
    /* the machine and the run land together: a run row never names a machine not stored */
    int rc = -1;
    if (cdb_tx_begin(db, err, errlen) == 0) {
        if (cdb_machine_put(db, &m.m, err, errlen) == 0 && cdb_run_put(db, &row, err, errlen) == 0 &&
            cdb_tx_commit(db, err, errlen) == 0)
            rc = 0;
        else
            cdb_tx_rollback(db);
    }
    free(suite);
    free(argv_text);
    if (rc != 0)
        run->uuid[0] = '\0';
    return rc;
}

int eng_prog_record_end(struct cdb *db, const struct eng_prog_opts *o,
                        const struct eng_prog_result *r, const struct eng_prog_run_info *run,
                        char *err, size_t errlen)
{
    char abs[PATH_MAX];
    const char *path = realpath(o->path, abs) ? abs : o->path;
    const char *base = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;
    char *file = clean(path, false, RECORD_MAX_TEXT), *suite = clean(base, false, RECORD_MAX_NAME);
    char *shape = args_line(o), *facts = program_facts(o, r, file);
    char phrase[160], *detail;
    program_phrase(o, r, phrase, sizeof phrase);
    if (r->verdict == ENG_PROG_ERROR) {
        detail = clean(r->error ? r->error : "?", true, RECORD_MAX_TEXT);
    } else {
        detail = xasprintf("%s: %zu finding%s; the program: %s", eng_prog_verdict_name(r->verdict),
                           r->nfindings, r->nfindings == 1 ? "" : "s", phrase);
    }
    /* a finding outweighs whatever the program did, as the checks say it (a failing check) */
    enum cdb_verdict verdict = r->nfindings ? CDB_FAIL : eng_prog_cdb_verdict(r->verdict);
    struct cdb_check c = {.run_uuid = run->uuid, .seq = 0, .rung = 0, .suite = suite,
                          .variant = "exec", .check = "program", .shape = shape,
                          .oracle = "exec", .verdict = eng_prog_cdb_verdict(r->verdict),
                          .detail = detail, .first_bad = -1, .bad_count = -1, .max_err = NAN,
                          .time_median_us = NAN, .time_min_us = NAN, .time_max_us = NAN,
                          .repeats = r->verdict == ENG_PROG_ERROR ? 0 : 1,
                          .limit_s = r->verdict == ENG_PROG_ERROR ? (double)NAN : o->timeout_s,
                          .exec = facts};
    int rc = -1;
    if (cdb_tx_begin(db, err, errlen) != 0)
        goto out;
    if (cdb_check_put(db, &c, err, errlen) != 0)
        goto rollback;
    for (size_t i = 0; i < r->nfindings; i++) {
        char *kind = clean(r->findings[i].kind, false, 64);
        char *name = xasprintf("finding %zu: %s", i + 1, kind);
        char *report = clean(r->findings[i].text, true, RECORD_MAX_TEXT);
        cJSON *k = cJSON_CreateObject();
        cJSON_AddStringToObject(k, "kind", kind);
        char *kfacts = cJSON_PrintUnformatted(k);
        cJSON_Delete(k);
        struct cdb_check f = c;
        f.seq = (int)i + 1;
        f.check = name;
        f.oracle = kind;
        f.verdict = CDB_FAIL;
        f.detail = report;
        f.repeats = 0;
        f.limit_s = NAN;
        f.exec = kfacts;
        int frc = cdb_check_put(db, &f, err, errlen);
        cJSON_free(kfacts);
        free(report);
        free(name);
        free(kind);
        if (frc != 0)
            goto rollback;
    }
    if (cdb_run_finish(db, run->uuid, run->finished, verdict, err, errlen) == 0 &&
        cdb_tx_commit(db, err, errlen) == 0) {
        rc = 0;
        goto out;
    }
rollback:
    cdb_tx_rollback(db);
out:
    free(file);
    free(suite);
    free(shape);
    free(facts);
    free(detail);
    return rc;
}
