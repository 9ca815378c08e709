/* The results document: strict parser/validator and writer (results_json.h). */
#include "importers/results_json.h"

#include <cJSON.h>
#include <ctype.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>
#include <unistd.h>

#include "casedb/cdb.h"
#include "common/text.h"
#include "common/xalloc.h"
#include "importers/json_util.h"
#include "importers/json_arena.h"
#include "importers/machine_json.h"
#include "importers/verdict_derive.h"

/* ---- formats ------------------------------------------------------------------------------ */

bool imp_iso_time_valid(const char *s)
{
    static const char shape[] = "dddd-dd-ddTdd:dd:ddZ";
    if (strlen(s) != sizeof shape - 1)
        return false;
    for (size_t i = 0; shape[i]; i++)
        if (shape[i] == 'd' ? !(s[i] >= '0' && s[i] <= '9') : s[i] != shape[i])
            return false;
    int y = atoi(s), mo = atoi(s + 5), d = atoi(s + 8), h = atoi(s + 11), mi = atoi(s + 14),
        se = atoi(s + 17);
    static const int days[] = {31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
    return y >= 1970 && y <= 9999 && mo >= 1 && mo <= 12 && d >= 1 && d <= days[mo - 1] &&
           h <= 23 && mi <= 59 && se <= 60;
}

/* The latest time a pulled run may carry, as an ISO time: a day past this machine's clock (the
 * slack for clocks that disagree). */
static void imp_time_limit(char out[21])
{
    time_t t = time(NULL) + 24 * 3600;
    struct tm tm;
    if (gmtime_r(&t, &tm))
        strftime(out, 21, "%Y-%m-%dT%H:%M:%SZ", &tm);
    else
        snprintf(out, 21, "9999-12-31T23:59:59Z");
}

bool imp_uuid_valid(const char *s)
{
    if (strlen(s) != 36)
        return false;
    for (int i = 0; i < 36; i++) {
        bool dash = i == 8 || i == 13 || i == 18 || i == 23;
        if (dash ? s[i] != '-' : !((s[i] >= '0' && s[i] <= '9') || (s[i] >= 'a' && s[i] <= 'f')))
            return false;
    }
    return true;
}

static bool machine_id_valid(const char *s)
{
    return strlen(s) == 32 && strspn(s, "0123456789abcdef") == 32;
}

/* ---- errors ------------------------------------------------------------------------------- */

struct ctx {
    char *source;      /* sanitised, shortened */
    const char *array; /* "runs", ... or NULL at the top */
    size_t index;
    const char *id;    /* the element's id when known */
    char *err;
    size_t errlen;
};

__attribute__((format(printf, 3, 4))) static int fail(const struct ctx *x, const char *field,
                                                       const char *fmt, ...)
{
    char msg[400];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    char where[160] = "";
    if (x->array && x->id)
        snprintf(where, sizeof where, "%s[%zu] (%.40s): ", x->array, x->index, x->id);
    else if (x->array)
        snprintf(where, sizeof where, "%s[%zu]: ", x->array, x->index);
    const char *src = x->source ? x->source : "", *sep = x->source ? ": " : "";
    if (field)
        snprintf(x->err, x->errlen, "%s%s%sfield '%s': %s", src, sep, where, field, msg);
    else
        snprintf(x->err, x->errlen, "%s%s%s%s", src, sep, where, msg);
    return -1;
}

/* A value quoted in a message: sanitised and short, so the message itself is safe to print. */
static char *quote(const char *s)
{
    return text_fit(s, 40, true, NULL);
}

/* ---- fields ------------------------------------------------------------------------------- */

/* Fills vals[i] with the member named names[i]. Unknown, repeated and missing members are
 * errors: a hostile document could hide a second value behind the first. */
/* Fills vals[i] with obj's field names[i]; the first `required` names must be there, the rest
 * may be left out (NULL: fields added in a later kladder, which documents of earlier ones lack).
 * Any other field is an error. */
static int take_some(const struct ctx *x, const char *what, const cJSON *obj,
                     const char *const *names, size_t n, size_t required, const cJSON **vals)
{
    if (!cJSON_IsObject(obj))
        return fail(x, what, "expected an object, got %s", imp_json_type_name(obj));
    for (size_t i = 0; i < n; i++)
        vals[i] = NULL;
    for (const cJSON *a = obj->child; a; a = a->next) {
        size_t k = 0;
        while (k < n && strcmp(a->string, names[k]) != 0)
            k++;
        if (k == n) {
            char *q = quote(a->string);
            int rc = fail(x, q, "is not a known field%s%s", what ? " of " : "", what ? what : "");
            free(q);
            return rc;
        }
        if (vals[k])
            return fail(x, names[k], "appears more than once");
        vals[k] = a;
    }
    for (size_t i = 0; i < required; i++)
        if (!vals[i])
            return fail(x, names[i], "is required (use null for \"not known\" where allowed)");
    return 0;
}

static int take(const struct ctx *x, const char *what, const cJSON *obj, const char *const *names,
                size_t n, const cJSON **vals)
{
    return take_some(x, what, obj, names, n, n, vals);
}

enum str_kind { S_NAME, S_NAME_NULL, S_TEXT, S_TEXT_NULL };

static int get_str(const struct ctx *x, const cJSON *v, const char *field, enum str_kind k,
                   const char **out)
{
    bool nullable = k == S_NAME_NULL || k == S_TEXT_NULL;
    bool text = k == S_TEXT || k == S_TEXT_NULL;
    *out = NULL;
    if (nullable && cJSON_IsNull(v))
        return 0;
    if (!cJSON_IsString(v))
        return fail(x, field, "expected %s, got %s", nullable ? "a string or null" : "a string",
                    imp_json_type_name(v));
    size_t len = strlen(v->valuestring), max = text ? IMP_RESULTS_MAX_TEXT : IMP_RESULTS_MAX_NAME;
    if (len > max)
        return fail(x, field, "expected at most %zu bytes, got %zu", max, len);
    if (!text_is_clean(v->valuestring, text ? "\n" : NULL))
        return fail(x, field, "contains a control character (an escape sequence?) or invalid "
                              "UTF-8; refused");
    *out = v->valuestring;
    return 0;
}

/* A whole number in [lo, hi] (hi at most 2^53, where doubles stop being exact). */
static int get_int(const struct ctx *x, const cJSON *v, const char *field, double lo, double hi,
                   bool nullable, int64_t *out)
{
    if (nullable && cJSON_IsNull(v)) {
        *out = -1;
        return 0;
    }
    if (!cJSON_IsNumber(v))
        return fail(x, field, "expected a whole number%s, got %s", nullable ? " or null" : "",
                    imp_json_type_name(v));
    double d = v->valuedouble;
    if (!isfinite(d) || d < lo || d > hi || floor(d) < d)
        return fail(x, field, "expected a whole number from %.0f to %.0f", lo, hi);
    *out = (int64_t)d;
    return 0;
}

/* A finite number >= 0 (or > 0 when positive), or null (NAN) when nullable. */
static int get_num(const struct ctx *x, const cJSON *v, const char *field, bool positive,
                   double *out)
{
    if (cJSON_IsNull(v)) {
        *out = NAN;
        return 0;
    }
    if (!cJSON_IsNumber(v))
        return fail(x, field, "expected a number or null, got %s", imp_json_type_name(v));
    double d = v->valuedouble;
    if (!isfinite(d))
        return fail(x, field, "expected a finite number (NaN and infinities are refused)");
    if (positive ? !(d > 0) : d < 0)
        return fail(x, field, "expected a number %s 0", positive ? ">" : ">=");
    *out = d;
    return 0;
}

/* A verdict word: any short name. Which words mean what is decided from the document's own
 * facts once it is read (verdict_derive.h), so a word this kladder does not know is handled
 * there, not refused here. */
static int get_verdict_word(const struct ctx *x, const cJSON *v, const char *field,
                            const char **out)
{
    if (get_str(x, v, field, S_NAME, out) != 0)
        return -1;
    if (!(*out)[0] || strlen(*out) > 32) {
        char *q = quote(*out);
        int rc = fail(x, field, "expected a verdict (pass, fail, hang, error, skip, cancelled, "
                      "doubt, ...), got '%s'", q);
        free(q);
        return rc;
    }
    return 0;
}

/* A time of a run: well formed, and not later than a day past this machine's clock. A time far
 * in the future (9999-12-31) is no run's, and as the newest `finished` it would become the host's
 * incremental cursor: every later pull would then skip every real run as older. */
static int get_time(const struct ctx *x, const cJSON *v, const char *field, const char **out)
{
    if (get_str(x, v, field, S_NAME, out) != 0)
        return -1;
    if (!imp_iso_time_valid(*out))
        return fail(x, field, "expected a UTC time like 2026-11-29T08:51:17Z");
    char limit[21];
    imp_time_limit(limit);
    if (strcmp(*out, limit) > 0) {
        char now[21];
        cdb_now_iso(now);
        return fail(x, field, "%s is in the future (this machine's clock says %s): no run "
                    "finished then; a wrong clock on the exporting host, or an edited document",
                    *out, now);
    }
    return 0;
}

/* ---- string-keyed index (open addressing), for UUIDs and machine ids ------------------------ */

struct index {
    size_t *slot; /* element index + 1; 0 empty */
    size_t mask;
};

static uint64_t str_hash(const char *s)
{
    uint64_t h = 1469598103934665603ull;
    for (; *s; s++)
        h = (h ^ (unsigned char)*s) * 1099511628211ull;
    return h;
}

static void index_init(struct index *ix, size_t n)
{
    size_t cap = 16;
    while (cap < 2 * n + 1)
        cap *= 2;
    ix->slot = xcalloc(cap, sizeof *ix->slot);
    ix->mask = cap - 1;
}

/* Returns the element index stored for key, or inserts `add` (when add != SIZE_MAX) and returns
 * SIZE_MAX. keyof(i) gives element i's key. */
static size_t index_find(struct index *ix, const char *key, size_t add,
                         const char *(*keyof)(const void *, size_t), const void *base)
{
    for (size_t i = str_hash(key) & ix->mask;; i = (i + 1) & ix->mask) {
        if (!ix->slot[i]) {
            if (add != SIZE_MAX)
                ix->slot[i] = add + 1;
            return SIZE_MAX;
        }
        if (strcmp(keyof(base, ix->slot[i] - 1), key) == 0)
            return ix->slot[i] - 1;
    }
}

static const char *machine_key(const void *base, size_t i)
{
    return ((const struct cdb_machine *)base)[i].id;
}

static const char *run_key(const void *base, size_t i)
{
    return ((const struct cdb_merge_run *)base)[i].run.uuid;
}

/* ---- elements ----------------------------------------------------------------------------- */

static int parse_machine(struct ctx *x, const cJSON *o, struct cdb_machine *m)
{
    static const char *const names[] = {
        "id", "host", "backend", "device", "target", "wave_size", "compute_units", "mem_bytes",
        "driver_version", "runtime_version", "compiler_version", "compute_partition",
        "memory_partition", "kladder_version", "kladder_commit"};
    const cJSON *v[15];
    if (take(x, NULL, o, names, 15, v) != 0)
        return -1;
    const char *id;
    if (get_str(x, v[0], "id", S_NAME, &id) != 0)
        return -1;
    if (!machine_id_valid(id))
        return fail(x, "id", "expected 32 lower-case hex digits");
    snprintf(m->id, sizeof m->id, "%s", id);
    x->id = id;
    /* null is "not known"; so is 0, which documents of earlier versions wrote for it */
    int64_t ws, cu, mem;
    if (get_str(x, v[1], "host", S_NAME, &m->host) || get_str(x, v[2], "backend", S_NAME, &m->backend) ||
        get_str(x, v[3], "device", S_NAME, &m->device) ||
        get_str(x, v[4], "target", S_NAME, &m->target) ||
        get_int(x, v[5], "wave_size", 0, 1024, true, &ws) ||
        get_int(x, v[6], "compute_units", 0, 1 << 20, true, &cu) ||
        get_int(x, v[7], "mem_bytes", 0, 9007199254740992.0, true, &mem) ||
        get_str(x, v[8], "driver_version", S_NAME_NULL, &m->driver_version) ||
        get_str(x, v[9], "runtime_version", S_NAME_NULL, &m->runtime_version) ||
        get_str(x, v[10], "compiler_version", S_NAME_NULL, &m->compiler_version) ||
        get_str(x, v[11], "compute_partition", S_NAME_NULL, &m->compute_partition) ||
        get_str(x, v[12], "memory_partition", S_NAME_NULL, &m->memory_partition) ||
        get_str(x, v[13], "kladder_version", S_NAME, &m->kladder_version) ||
        get_str(x, v[14], "kladder_commit", S_NAME_NULL, &m->kladder_commit))
        return -1;
    m->wave_size = ws < 0 ? 0 : (int)ws;
    m->compute_units = cu < 0 ? 0 : (int)cu;
    m->mem_bytes = mem < 0 ? 0 : mem;
    return 0;
}

/* "counts": how many checks had each verdict, by verdict word. The document's own tally; what is
 * stored is counted from its checks (verdict_derive.h), so only its shape is checked here: the
 * six words every kladder wrote, and any other verdict word (doubt, or one of a later kladder),
 * each a whole number. */
static const char *const count_names[] = {"pass", "fail", "hang", "error", "skip", "cancelled"};
#define N_COUNTS 6

static int parse_counts(const struct ctx *x, const cJSON *o)
{
    if (!cJSON_IsObject(o))
        return fail(x, "counts", "expected an object, got %s", imp_json_type_name(o));
    bool seen[N_COUNTS] = {false};
    for (const cJSON *a = o->child; a; a = a->next) {
        size_t n = strlen(a->string);
        if (!n || n > 32 || strspn(a->string, "abcdefghijklmnopqrstuvwxyz_") != n) {
            char *q = quote(a->string);
            int rc = fail(x, q, "is not a known field of counts (a verdict word)");
            free(q);
            return rc;
        }
        for (const cJSON *b = o->child; b != a; b = b->next)
            if (strcmp(a->string, b->string) == 0)
                return fail(x, a->string, "appears more than once");
        int64_t k;
        if (get_int(x, a, a->string, 0, INT_MAX, false, &k) != 0)
            return -1;
        for (int i = 0; i < N_COUNTS; i++)
            seen[i] |= strcmp(a->string, count_names[i]) == 0;
    }
    for (int i = 0; i < N_COUNTS; i++)
        if (!seen[i])
            return fail(x, count_names[i], "is required (use null for \"not known\" where "
                        "allowed)");
    return 0;
}

static int parse_run(struct ctx *x, const cJSON *o, struct cdb_merge_run *mr)
{
    static const char *const names[] = {"run_id", "machine_id", "host", "rung", "suite", "case",
                                        "variant", "argv", "started", "finished", "verdict",
                                        "counts"};
    const cJSON *v[12];
    if (take(x, NULL, o, names, 12, v) != 0)
        return -1;
    struct cdb_run *r = &mr->run;
    if (get_str(x, v[0], "run_id", S_NAME, &r->uuid) != 0)
        return -1;
    if (!imp_uuid_valid(r->uuid))
        return fail(x, "run_id", "expected a lower-case UUID (8-4-4-4-12 hex digits)");
    x->id = r->uuid;
    int64_t rung;
    if (get_str(x, v[1], "machine_id", S_NAME, &r->machine_id) ||
        get_str(x, v[2], "host", S_NAME, &r->host) || get_int(x, v[3], "rung", 0, CDB_RUNG_MAX, false, &rung) ||
        get_str(x, v[4], "suite", S_NAME_NULL, &r->suite) ||
        get_str(x, v[5], "case", S_NAME_NULL, &r->case_id) ||
        get_str(x, v[6], "variant", S_NAME_NULL, &r->variant) ||
        get_str(x, v[7], "argv", S_TEXT_NULL, &r->argv) ||
        get_time(x, v[8], "started", &r->started) ||
        get_time(x, v[9], "finished", &r->finished) ||
        get_verdict_word(x, v[10], "verdict", &r->exported_verdict))
        return -1;
    r->rung = (int)rung;
    if (strcmp(r->finished, r->started) < 0)
        return fail(x, "finished", "is before 'started'");
    return parse_counts(x, v[11]);
}

struct pending_check {
    struct cdb_check c;
    const char *word; /* the verdict word the document wrote */
    size_t run;
};

/* A check's optional "score" (rung 8): {"value", "baseline", "samples", "diverge_step"}, the
 * value a number, the others a number or null. */
static int parse_score(struct ctx *x, const cJSON *o, struct cdb_score *s)
{
    static const char *const names[] = {"value", "baseline", "samples", "diverge_step"};
    const cJSON *v[4];
    if (take(x, "score", o, names, 4, v) != 0)
        return -1;
    if (cJSON_IsNull(v[0]))
        return fail(x, "score.value", "expected a number (a check without a score leaves "
                    "\"score\" out)");
    s->set = true;
    if (get_num(x, v[0], "score.value", false, &s->value) ||
        get_num(x, v[1], "score.baseline", false, &s->baseline) ||
        get_int(x, v[2], "score.samples", 0, 9007199254740992.0, true, &s->samples) ||
        get_int(x, v[3], "score.diverge_step", 0, 9007199254740992.0, true, &s->diverge_step))
        return -1;
    return 0;
}

/* The members of a `kladder exec` program check's "exec" object, in the order the engine writes
 * them (engine/prog/prog_record.c): a pull writes them back in this order, so the stored text
 * of a pulled check is the text its own host stored and a second pull finds it the same. Every
 * one but exit_status (left out when the program did not exit) is required. */
static const char *const exec_names[] = {"verdict", "file", "args", "schedule", "seed", "wave",
                                         "signal", "stopped", "timed_out", "timeout_s",
                                         "output_tail", "output_cut", "exit_status"};
#define EXEC_NAMES (sizeof exec_names / sizeof exec_names[0])
#define EXEC_MAX_ARGS 1024

static bool exec_verdict_known(const char *w)
{
    static const char *const words[] = {"pass", "finding", "failed", "crash", "hang", "error"};
    for (size_t i = 0; i < sizeof words / sizeof words[0]; i++)
        if (!strcmp(w, words[i]))
            return true;
    return false;
}

/* A check's optional "exec" (a `kladder exec` run's check: docs/exec.md): a finding's {"kind"},
 * or the program check's members above, each of its type. *out gets the object as compact JSON
 * text, rebuilt from the members read (malloc'd), for checks.facts. */
static int parse_exec(struct ctx *x, const cJSON *o, char **out)
{
    *out = NULL;
    cJSON *e = cJSON_CreateObject();
    int rc = -1;
    const char *str;
    if (cJSON_IsObject(o) && cJSON_GetObjectItemCaseSensitive(o, "kind")) {
        static const char *const kn[] = {"kind"};
        const cJSON *kv[1];
        if (take(x, "exec", o, kn, 1, kv) || get_str(x, kv[0], "exec.kind", S_NAME, &str))
            goto done;
        cJSON_AddStringToObject(e, "kind", str);
        rc = 0;
        goto done;
    }
    const cJSON *v[EXEC_NAMES];
    int64_t n;
    if (take_some(x, "exec", o, exec_names, EXEC_NAMES, EXEC_NAMES - 1, v) != 0)
        goto done;
    if (get_str(x, v[0], "exec.verdict", S_NAME, &str))
        goto done;
    if (!exec_verdict_known(str)) {
        char *q = quote(str);
        fail(x, "exec.verdict", "expected pass, finding, failed, crash, hang or error, not '%s'",
             q);
        free(q);
        goto done;
    }
    cJSON_AddStringToObject(e, "verdict", str);
    if (get_str(x, v[1], "exec.file", S_TEXT, &str))
        goto done;
    cJSON_AddStringToObject(e, "file", str);
    if (!cJSON_IsArray(v[2])) {
        fail(x, "exec.args", "expected an array of strings, got %s", imp_json_type_name(v[2]));
        goto done;
    }
    cJSON *args = cJSON_AddArrayToObject(e, "args");
    size_t na = 0;
    for (const cJSON *a = v[2]->child; a; a = a->next) {
        if (++na > EXEC_MAX_ARGS) {
            fail(x, "exec.args", "expected at most %d arguments", EXEC_MAX_ARGS);
            goto done;
        }
        if (get_str(x, a, "exec.args[]", S_TEXT, &str))
            goto done;
        cJSON_AddItemToArray(args, cJSON_CreateString(str));
    }
    if (get_str(x, v[3], "exec.schedule", S_NAME, &str))
        goto done;
    cJSON_AddStringToObject(e, "schedule", str);
    if (get_int(x, v[4], "exec.seed", 0, 9007199254740992.0, false, &n))
        goto done;
    cJSON_AddNumberToObject(e, "seed", (double)n);
    if (get_int(x, v[5], "exec.wave", 32, 64, false, &n))
        goto done;
    if (n != 32 && n != 64) {
        fail(x, "exec.wave", "expected 32 or 64");
        goto done;
    }
    cJSON_AddNumberToObject(e, "wave", (double)n);
    if (get_int(x, v[6], "exec.signal", 0, 127, false, &n))
        goto done;
    cJSON_AddNumberToObject(e, "signal", (double)n);
    for (int i = 7; i <= 8; i++) {
        if (!cJSON_IsBool(v[i])) {
            fail(x, i == 7 ? "exec.stopped" : "exec.timed_out", "expected true or false, got %s",
                 imp_json_type_name(v[i]));
            goto done;
        }
        cJSON_AddBoolToObject(e, exec_names[i], cJSON_IsTrue(v[i]));
    }
    if (get_int(x, v[9], "exec.timeout_s", 1, 86400, false, &n))
        goto done;
    cJSON_AddNumberToObject(e, "timeout_s", (double)n);
    if (get_str(x, v[10], "exec.output_tail", S_TEXT, &str))
        goto done;
    cJSON_AddStringToObject(e, "output_tail", str);
    if (!cJSON_IsBool(v[11])) {
        fail(x, "exec.output_cut", "expected true or false, got %s", imp_json_type_name(v[11]));
        goto done;
    }
    cJSON_AddBoolToObject(e, "output_cut", cJSON_IsTrue(v[11]));
    if (v[12]) {
        if (get_int(x, v[12], "exec.exit_status", 0, 255, false, &n))
            goto done;
        cJSON_AddNumberToObject(e, "exit_status", (double)n);
    }
    rc = 0;
done:
    if (rc == 0)
        *out = cJSON_PrintUnformatted(e);
    cJSON_Delete(e);
    if (rc == 0 && !*out)
        return fail(x, "exec", "out of memory");
    return rc;
}

static int parse_check(struct ctx *x, const cJSON *o, struct cdb_check *c, const char **word,
                       char **exec)
{
    /* score came with schema 5, exec with kladder exec's records: optional, so documents
     * written before them still read */
    static const char *const names[] = {"run_id", "seq", "rung", "suite", "variant", "check",
                                        "shape", "oracle", "verdict", "detail", "first_bad",
                                        "bad_count", "max_err", "time_us", "repeats", "limit_s",
                                        "score", "exec"};
    const cJSON *v[18];
    *exec = NULL;
    if (take_some(x, NULL, o, names, 18, 16, v) != 0)
        return -1;
    c->score = (struct cdb_score){.set = false, .value = NAN, .baseline = NAN, .samples = -1,
                                  .diverge_step = -1};
    if (v[16] && parse_score(x, v[16], &c->score) != 0)
        return -1;
    if (v[17] && parse_exec(x, v[17], exec) != 0)
        return -1;
    c->exec = *exec;
    if (get_str(x, v[0], "run_id", S_NAME, &c->run_uuid) != 0)
        return -1;
    x->id = c->run_uuid;
    int64_t seq, rung, rep;
    if (get_int(x, v[1], "seq", 0, INT_MAX, false, &seq) ||
        get_int(x, v[2], "rung", 0, CDB_RUNG_MAX, false, &rung) || get_str(x, v[3], "suite", S_NAME, &c->suite) ||
        get_str(x, v[4], "variant", S_NAME, &c->variant) ||
        get_str(x, v[5], "check", S_NAME, &c->check) || get_str(x, v[6], "shape", S_NAME, &c->shape) ||
        get_str(x, v[7], "oracle", S_NAME, &c->oracle) ||
        get_verdict_word(x, v[8], "verdict", word) ||
        get_str(x, v[9], "detail", S_TEXT, &c->detail) ||
        get_int(x, v[10], "first_bad", 0, 9007199254740992.0, true, &c->first_bad) ||
        get_int(x, v[11], "bad_count", 0, 9007199254740992.0, true, &c->bad_count) ||
        get_num(x, v[12], "max_err", false, &c->max_err))
        return -1;
    static const char *const tnames[] = {"median", "min", "max"};
    const cJSON *tv[3];
    if (take(x, "time_us", v[13], tnames, 3, tv) || get_num(x, tv[0], "median", false, &c->time_median_us) ||
        get_num(x, tv[1], "min", false, &c->time_min_us) ||
        get_num(x, tv[2], "max", false, &c->time_max_us) ||
        get_int(x, v[14], "repeats", 0, INT_MAX, false, &rep) ||
        get_num(x, v[15], "limit_s", false, &c->limit_s))
        return -1;
    /* 0 is "no limit" as older kladders wrote it for a check that never started, as a machine's
     * 0 is "not known" */
    if (!(c->limit_s > 0))
        c->limit_s = NAN;
    if (!isnan(c->time_min_us) && !isnan(c->time_median_us) && !isnan(c->time_max_us) &&
        !(c->time_min_us <= c->time_median_us && c->time_median_us <= c->time_max_us))
        return fail(x, "time_us", "expected min <= median <= max");
    c->seq = (int)seq;
    c->rung = (int)rung;
    c->repeats = (int)rep;
    return 0;
}

static int by_seq(const void *a, const void *b)
{
    int x = ((const struct cdb_check *)a)->seq, y = ((const struct cdb_check *)b)->seq;
    return (x > y) - (x < y);
}

static int get_array(const struct ctx *x, const cJSON *v, const char *field, size_t *n)
{
    if (!cJSON_IsArray(v))
        return fail(x, field, "expected an array, got %s", imp_json_type_name(v));
    *n = (size_t)cJSON_GetArraySize(v);
    return 0;
}

/* A document whose first character (after a byte-order mark and white space) is '<' and that
 * declares itself HTML near its start. */
static bool looks_like_html(const char *text, size_t len)
{
    size_t i = 0;
    if (len >= 3 && memcmp(text, "\xEF\xBB\xBF", 3) == 0)
        i = 3;
    while (i < len && (text[i] == ' ' || text[i] == '\t' || text[i] == '\r' || text[i] == '\n'))
        i++;
    if (i == len || text[i] != '<')
        return false;
    size_t end = len - i < 1024 ? len : i + 1024;
    for (size_t k = i; k + 5 <= end; k++)
        if (strncasecmp(text + k, "<html", 5) == 0 || strncasecmp(text + k, "<!doc", 5) == 0 ||
            strncasecmp(text + k, "<head", 5) == 0 || strncasecmp(text + k, "<body", 5) == 0)
            return true;
    return false;
}

/* What imp_results_parse holds while it reads: where it is (for messages), the indexes of the
 * machine ids and run UUIDs, each run's declared counts, and the checks in document order with
 * the run each names (per_run: how many each run has). */
struct parse_state {
    struct ctx x;
    struct index mix, rix;
    struct pending_check *pend;
    size_t *per_run;
};

/* The document up to its three arrays: JSON (not an HTML page), a kladder-results object of
 * this version, who exported it and when. v[4..6] are then machines, runs and checks. */
static int parse_header(struct ctx *x, const char *text, size_t len, struct imp_results_doc *out,
                        const cJSON *v[7])
{
    if (looks_like_html(text, len))
        return fail(x, NULL, "got an HTML page, not JSON: expected a kladder-results document (a "
                             "login or error page? check the URL)");
    /* 64 levels: the document needs 4, and a hostile one gets a clear error, not a deep stack */
    const cJSON *root = imp_json_parse(text, len, 64, &out->arena, x->err, x->errlen);
    if (!root) {
        char msg[400];
        snprintf(msg, sizeof msg, "%s", x->err);
        return fail(x, NULL, "%s", msg);
    }
    static const char *const top[] = {"format", "version", "exported_by", "exported_at",
                                      "machines", "runs", "checks"};
    if (!cJSON_IsObject(root))
        return fail(x, NULL, "expected a JSON object (a kladder-results document), got %s",
                    imp_json_type_name(root));
    /* The format and version come first so that another kind of document gets the right
     * message instead of "field X is not known". */
    const cJSON *fmt = cJSON_GetObjectItemCaseSensitive(root, "format");
    if (!cJSON_IsString(fmt) || strcmp(fmt->valuestring, IMP_RESULTS_FORMAT) != 0)
        return fail(x, "format", "expected \"%s\": this is not a kladder results document",
                    IMP_RESULTS_FORMAT);
    const cJSON *ver = cJSON_GetObjectItemCaseSensitive(root, "version");
    if (!cJSON_IsNumber(ver) || !(ver->valuedouble >= IMP_RESULTS_VERSION &&
                                  ver->valuedouble <= IMP_RESULTS_VERSION))
        return fail(x, "version",
                    "expected %d; a document of another version needs the kladder that wrote it",
                    IMP_RESULTS_VERSION);
    if (take(x, NULL, root, top, 7, v) != 0)
        return -1;
    static const char *const by[] = {"host", "kladder_version", "commit"};
    const cJSON *bv[3];
    if (take(x, "exported_by", v[2], by, 3, bv) ||
        get_str(x, bv[0], "host", S_NAME, &out->exported_host) ||
        get_str(x, bv[1], "kladder_version", S_NAME, &out->exported_version) ||
        get_str(x, bv[2], "commit", S_NAME_NULL, &out->exported_commit) ||
        get_str(x, v[3], "exported_at", S_NAME, &out->exported_at))
        return -1;
    if (!imp_iso_time_valid(out->exported_at))
        return fail(x, "exported_at", "expected a UTC time like 2026-11-29T08:51:17Z");
    return 0;
}

/* "machines": each parsed, no id twice. */
static int parse_machines(struct parse_state *ps, const cJSON *arr, size_t nm,
                          struct imp_results_doc *out)
{
    struct ctx *x = &ps->x;
    out->machines = xcalloc(nm + 1, sizeof *out->machines);
    index_init(&ps->mix, nm);
    x->array = "machines";
    x->index = 0;
    for (const cJSON *e = arr->child; e; e = e->next, x->index++) {
        x->id = NULL;
        struct cdb_machine *m = &out->machines[x->index];
        if (parse_machine(x, e, m) != 0)
            return -1;
        if (index_find(&ps->mix, m->id, x->index, machine_key, out->machines) != SIZE_MAX)
            return fail(x, "id", "the same machine id appears twice in the document");
    }
    out->n_machines = nm;
    return 0;
}

/* "runs": each parsed (its counts kept to check against its checks), on a machine of the
 * document, no UUID twice; the newest finish noted. */
static int parse_runs(struct parse_state *ps, const cJSON *arr, size_t nr,
                      struct imp_results_doc *out)
{
    struct ctx *x = &ps->x;
    out->runs = xcalloc(nr + 1, sizeof *out->runs);
    index_init(&ps->rix, nr);
    x->array = "runs";
    x->index = 0;
    for (const cJSON *e = arr->child; e; e = e->next, x->index++) {
        x->id = NULL;
        struct cdb_merge_run *mr = &out->runs[x->index];
        if (parse_run(x, e, mr) != 0)
            return -1;
        mr->run.exported_by = out->exported_host;
        if (index_find(&ps->mix, mr->run.machine_id, SIZE_MAX, machine_key, out->machines) ==
            SIZE_MAX)
            return fail(x, "machine_id", "names no machine of the document's \"machines\"");
        if (index_find(&ps->rix, mr->run.uuid, x->index, run_key, out->runs) != SIZE_MAX)
            return fail(x, "run_id", "the same run UUID appears twice in the document");
        if (!out->newest_finished || strcmp(mr->run.finished, out->newest_finished) > 0)
            out->newest_finished = mr->run.finished;
    }
    out->n_runs = nr;
    return 0;
}

/* "checks" in document order, each of a run of the document, counted per run. */
static int parse_checks(struct parse_state *ps, const cJSON *arr, size_t nc, size_t nr,
                        struct imp_results_doc *out)
{
    struct ctx *x = &ps->x;
    ps->pend = xcalloc(nc + 1, sizeof *ps->pend);
    ps->per_run = xcalloc(nr + 1, sizeof *ps->per_run);
    x->array = "checks";
    x->index = 0;
    for (const cJSON *e = arr->child; e; e = e->next, x->index++) {
        x->id = NULL;
        struct pending_check *p = &ps->pend[x->index];
        char *exec;
        int rc = parse_check(x, e, &p->c, &p->word, &exec);
        if (exec) { /* the document owns it, read or not */
            out->owned = xrealloc(out->owned, (out->n_owned + 1) * sizeof *out->owned);
            out->owned[out->n_owned++] = exec;
        }
        if (rc != 0)
            return -1;
        p->run = index_find(&ps->rix, p->c.run_uuid, SIZE_MAX, run_key, out->runs);
        if (p->run == SIZE_MAX)
            return fail(x, "run_id", "names no run of the document's \"runs\"");
        ps->per_run[p->run]++;
    }
    return 0;
}

/* Each check's verdict from its word and its fields (verdict_derive.h); a changed one says so at
 * the head of its detail, so whoever reads it sees the document's word and why it was not kept. */
static void derive_checks(struct parse_state *ps, size_t nc, struct imp_results_doc *out)
{
    for (size_t i = 0; i < nc; i++) {
        struct pending_check *p = &ps->pend[i];
        char why[160];
        if (!imp_check_verdict_derive(p->word, &p->c, &p->c.verdict, why, sizeof why))
            continue;
        char *detail = xasprintf("exported as \"%s\", recomputed as \"%s\": %s.%s%s", p->word,
                                 cdb_verdict_name(p->c.verdict), why,
                                 p->c.detail && p->c.detail[0] ? " " : "",
                                 p->c.detail ? p->c.detail : "");
        /* within the document's limit, so that an export of it pulls again */
        size_t len = strlen(detail);
        if (len > IMP_RESULTS_MAX_TEXT) {
            len = IMP_RESULTS_MAX_TEXT;
            while (len > 0 && ((unsigned char)detail[len] & 0xC0) == 0x80)
                len--;
            detail[len] = '\0';
        }
        out->owned = xrealloc(out->owned, (out->n_owned + 1) * sizeof *out->owned);
        out->owned[out->n_owned++] = detail;
        p->c.detail = detail;
        out->rejudged_checks++;
    }
}

/* The checks grouped by run (each run's slice of out->checks, in document order), then each
 * run's sorted by seq, no seq twice, and the run's verdict derived from them. */
static int group_checks(struct parse_state *ps, size_t nc, size_t nr, struct imp_results_doc *out)
{
    struct ctx *x = &ps->x;
    size_t *per_run = ps->per_run;
    derive_checks(ps, nc, out);
    out->checks = xcalloc(nc + 1, sizeof *out->checks);
    size_t at = 0;
    for (size_t r = 0; r < nr; r++) {
        out->runs[r].checks = out->checks + at;
        at += per_run[r];
        per_run[r] = 0;
    }
    for (size_t i = 0; i < nc; i++) {
        struct cdb_merge_run *mr = &out->runs[ps->pend[i].run];
        /* cast: the run's slice of out->checks, which this function owns */
        ((struct cdb_check *)(uintptr_t)mr->checks)[per_run[ps->pend[i].run]++] = ps->pend[i].c;
    }
    out->n_checks = nc;
    x->array = "runs";
    for (size_t r = 0; r < nr; r++) {
        struct cdb_merge_run *mr = &out->runs[r];
        mr->n_checks = per_run[r];
        struct cdb_check *cs = (struct cdb_check *)(uintptr_t)mr->checks;
        qsort(cs, mr->n_checks, sizeof *cs, by_seq);
        for (size_t i = 1; i < mr->n_checks; i++)
            if (cs[i].seq == cs[i - 1].seq) {
                x->index = r, x->id = mr->run.uuid;
                return fail(x, NULL, "two checks of this run have seq %d", cs[i].seq);
            }
        char why[400];
        mr->run.verdict = imp_run_verdict_derive(mr->run.exported_verdict, cs, mr->n_checks, why,
                                                 sizeof why);
        out->rejudged_runs += why[0] != '\0';
    }
    return 0;
}

int imp_results_parse(const char *text, size_t len, const char *name, struct imp_results_doc *out,
                      char *err, size_t errlen)
{
    memset(out, 0, sizeof *out);
    struct parse_state ps = {.x = {.source = name ? text_fit(name, 100, true, NULL) : NULL,
                                   .err = err, .errlen = errlen}};
    const cJSON *v[7];
    size_t nm = 0, nr = 0, nc = 0;
    int rc = -1;
    if (parse_header(&ps.x, text, len, out, v) == 0 &&
        !get_array(&ps.x, v[4], "machines", &nm) && !get_array(&ps.x, v[5], "runs", &nr) &&
        !get_array(&ps.x, v[6], "checks", &nc) && parse_machines(&ps, v[4], nm, out) == 0 &&
        parse_runs(&ps, v[5], nr, out) == 0 && parse_checks(&ps, v[6], nc, nr, out) == 0 &&
        group_checks(&ps, nc, nr, out) == 0)
        rc = 0;
    free(ps.pend);
    free(ps.per_run);
    free(ps.mix.slot);
    free(ps.rix.slot);
    free(ps.x.source);
    if (rc != 0)
        imp_results_doc_free(out);
    return rc;
}

void imp_results_doc_free(struct imp_results_doc *d)
{
    for (size_t i = 0; i < d->n_owned; i++)
        free(d->owned[i]);
    free(d->owned);
    free(d->machines);
    free(d->runs);
    free(d->checks);
    imp_json_free(d->arena);
    memset(d, 0, sizeof *d);
}

/* ---- writing ------------------------------------------------------------------------------ */

cJSON *imp_run_to_json(const struct cdb_run_info *ri, bool with_machine)
{
    const struct cdb_run *r = &ri->run;
    cJSON *o = cJSON_CreateObject();
    imp_json_add_str(o, "run_id", r->uuid, false);
    if (with_machine) {
        imp_json_add_str(o, "host", r->host, false);
        imp_json_add_str(o, "origin", ri->origin, false);
        cJSON_AddItemToObject(o, "machine", imp_machine_json(&ri->machine));
    } else {
        imp_json_add_str(o, "machine_id", r->machine_id, false);
        imp_json_add_str(o, "host", r->host, false);
    }
    cJSON_AddNumberToObject(o, "rung", r->rung);
    imp_json_add_str(o, "suite", r->suite, false);
    imp_json_add_str(o, "case", r->case_id, false);
    imp_json_add_str(o, "variant", r->variant, false);
    imp_json_add_str(o, "argv", r->argv, true);
    imp_json_add_str(o, "started", r->started, false);
    imp_json_add_str(o, "finished", r->finished, false);
    imp_json_add_str(o, "verdict", cdb_verdict_name(r->verdict), false);
    cJSON *c = cJSON_AddObjectToObject(o, "counts");
    for (int i = 0; i < N_COUNTS; i++)
        cJSON_AddNumberToObject(c, count_names[i], ri->counts[cdb_verdict_parse(count_names[i])]);
    return o;
}

cJSON *imp_check_to_json(const struct cdb_check *c, bool with_run_id)
{
    cJSON *o = cJSON_CreateObject();
    if (with_run_id)
        imp_json_add_str(o, "run_id", c->run_uuid, false);
    cJSON_AddNumberToObject(o, "seq", c->seq);
    cJSON_AddNumberToObject(o, "rung", c->rung);
    imp_json_add_str(o, "suite", c->suite ? c->suite : "", false);
    imp_json_add_str(o, "variant", c->variant ? c->variant : "", false);
    imp_json_add_str(o, "check", c->check ? c->check : "", false);
    imp_json_add_str(o, "shape", c->shape ? c->shape : "", false);
    imp_json_add_str(o, "oracle", c->oracle ? c->oracle : "", false);
    imp_json_add_str(o, "verdict", cdb_verdict_name(c->verdict), false);
    imp_json_add_str(o, "detail", c->detail ? c->detail : "", true);
    if (c->first_bad >= 0)
        cJSON_AddNumberToObject(o, "first_bad", (double)c->first_bad);
    else
        cJSON_AddNullToObject(o, "first_bad");
    if (c->bad_count >= 0)
        cJSON_AddNumberToObject(o, "bad_count", (double)c->bad_count);
    else
        cJSON_AddNullToObject(o, "bad_count");
    imp_json_add_num(o, "max_err", c->max_err);
    cJSON *t = cJSON_AddObjectToObject(o, "time_us");
    imp_json_add_num(t, "median", c->time_median_us);
    imp_json_add_num(t, "min", c->time_min_us);
    imp_json_add_num(t, "max", c->time_max_us);
    cJSON_AddNumberToObject(o, "repeats", c->repeats);
    imp_json_add_num(o, "limit_s", c->limit_s);
    /* only a scored check carries "score": a document of checks without one reads in a kladder
     * from before schema 5 */
    if (c->score.set) {
        cJSON *sc = cJSON_AddObjectToObject(o, "score");
        imp_json_add_num(sc, "value", c->score.value);
        imp_json_add_num(sc, "baseline", c->score.baseline);
        if (c->score.samples >= 0)
            cJSON_AddNumberToObject(sc, "samples", (double)c->score.samples);
        else
            cJSON_AddNullToObject(sc, "samples");
        if (c->score.diverge_step >= 0)
            cJSON_AddNumberToObject(sc, "diverge_step", (double)c->score.diverge_step);
        else
            cJSON_AddNullToObject(sc, "diverge_step");
    }
    /* only a check of a `kladder exec` run carries "exec", as its facts hold it */
    cJSON *exec = c->exec ? cJSON_Parse(c->exec) : NULL;
    if (exec)
        cJSON_AddItemToObject(o, "exec", exec);
    return o;
}

static int add_check(void *ctx, const struct cdb_check *c)
{
    cJSON_AddItemToArray(ctx, imp_check_to_json(c, true));
    return 0;
}

static bool is_date(const char *s)
{
    char t[21];
    return strlen(s) == 10 && (snprintf(t, sizeof t, "%sT00:00:00Z", s), imp_iso_time_valid(t));
}

/* The first 4 to 35 characters of a run UUID (hex digits and its dashes), as `kladder results`
 * accepts them. */
static bool uuid_prefix(const char *s)
{
    size_t n = strlen(s);
    if (n < 4 || n > 35)
        return false;
    for (size_t i = 0; i < n; i++)
        if (!isxdigit((unsigned char)s[i]) && s[i] != '-')
            return false;
    return true;
}

int imp_results_export(struct cdb *db, const struct imp_export_opts *o, char **out, size_t *len,
                       char *err, size_t errlen)
{
    struct cdb_run_filter f;
    cdb_run_filter_init(&f);
    f.finished_only = true; /* a running run would change after it was pulled */
    f.local_only = !o->include_pulled;
    char since[21], since_uuid[40];
    if (o->since) {
        if (imp_iso_time_valid(o->since)) {
            f.since_time = o->since;
        } else if (is_date(o->since)) {
            snprintf(since, sizeof since, "%sT00:00:00Z", o->since);
            f.since_time = since;
        } else if (imp_uuid_valid(o->since)) {
            int e = cdb_run_exists(db, o->since, err, errlen);
            if (e < 0)
                return -1;
            if (e == 0) {
                snprintf(err, errlen, "--since: no run %s in this database", o->since);
                return -1;
            }
            f.after_uuid = o->since;
        } else if (uuid_prefix(o->since)) {
            /* the first characters of a run id, as `kladder results` takes them */
            struct cdb_run_detail d;
            int e = cdb_run_load(db, o->since, &d, err, errlen);
            if (e < 0)
                return -1;
            if (e == 0) {
                snprintf(err, errlen, "--since: no run %s in this database", o->since);
                return -1;
            }
            snprintf(since_uuid, sizeof since_uuid, "%s", d.info.run.uuid);
            cdb_run_detail_free(&d);
            f.after_uuid = since_uuid;
        } else {
            char *q = quote(o->since);
            snprintf(err, errlen,
                     "--since expects a run UUID (or its first 4+ characters), a UTC time "
                     "(2026-11-29T08:51:17Z) or a date "
                     "(2026-11-29), not '%s'",
                     q);
            free(q);
            return -1;
        }
    }
    struct cdb_run_list runs;
    struct cdb_machine_list machines;
    if (cdb_runs_query_oldest_first(db, &f, &runs, err, errlen) != 0)
        return -1;
    if (cdb_machines_query(db, &f, &machines, err, errlen) != 0) {
        cdb_run_list_free(&runs);
        return -1;
    }
    cJSON *doc = cJSON_CreateObject();
    cJSON_AddStringToObject(doc, "format", IMP_RESULTS_FORMAT);
    cJSON_AddNumberToObject(doc, "version", IMP_RESULTS_VERSION);
    cJSON *by = cJSON_AddObjectToObject(doc, "exported_by");
    char host[256] = "unknown";
    if (gethostname(host, sizeof host) != 0)
        snprintf(host, sizeof host, "unknown");
    host[sizeof host - 1] = '\0';
    imp_json_add_str(by, "host", host, false);
    imp_json_add_str(by, "kladder_version", KL_VERSION, false);
    imp_json_add_str(by, "commit", KL_COMMIT, false);
    char now[21];
    cdb_now_iso(now);
    imp_json_add_str(doc, "exported_at", now, false);
    cJSON *ma = cJSON_AddArrayToObject(doc, "machines");
    for (size_t i = 0; i < machines.n; i++)
        cJSON_AddItemToArray(ma, imp_machine_json(&machines.items[i]));
    cJSON *ra = cJSON_AddArrayToObject(doc, "runs");
    for (size_t i = 0; i < runs.n; i++)
        cJSON_AddItemToArray(ra, imp_run_to_json(&runs.items[i], false));
    cJSON *ca = cJSON_AddArrayToObject(doc, "checks");
    int rc = cdb_checks_each(db, &f, add_check, ca, err, errlen);
    cdb_run_list_free(&runs);
    cdb_machine_list_free(&machines);
    if (rc != 0) {
        cJSON_Delete(doc);
        return -1;
    }
    char *text = cJSON_PrintUnformatted(doc);
    cJSON_Delete(doc);
    if (!text) {
        snprintf(err, errlen, "out of memory while writing the document");
        return -1;
    }
    *len = strlen(text);
    *out = xmalloc(*len + 2);
    memcpy(*out, text, *len);
    (*out)[(*len)++] = '\n';
    (*out)[*len] = '\0';
    cJSON_free(text);
    return 0;
}
