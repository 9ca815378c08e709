/* Rung 2, replay real inputs: every value class over every float input at each baseline shape,
 * and length sweeps on both sides of each declared chunk and top-k, every check a plain launch
 * with the reference, sentinel and finite oracles (docs/engine.md). A suite that lists rung 2
 * with no settings gets all of it. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/file_within.h"
#include "common/xalloc.h"
#include "engine/rung.h"
#include "engine/rungs/rung2.h"
#include "engine/exec.h"

size_t eng_r2_sweep_lengths(int64_t b, int64_t out[7])
{
    int64_t cand[7] = {1, b - 1, b, b + 1, 2 * b - 1, 2 * b, 2 * b + 1};
    size_t n = 0;
    for (int i = 0; i < 7; i++)
        if (cand[i] >= 1 && (n == 0 || cand[i] > out[n - 1]))
            out[n++] = cand[i];
    return n;
}

/* "chunks": {"S": 64} or {"S": "chunk"}; "topk": {"N": "K"}. */
static bool parse_sweeps(struct eng_mparse *p, const struct eng_manifest *m, const cJSON *j,
                         const char *key, bool topk, struct eng_rung2_spec *r)
{
    const cJSON *o = cJSON_GetObjectItemCaseSensitive(j, key);
    char field[160];
    snprintf(field, sizeof field, "rungs.2.%s", key);
    if (!o)
        return true;
    if (!cJSON_IsObject(o))
        return eng_mp_bad(p, field, "expected an object {\"%s\": %s}", topk ? "N" : "S",
                          topk ? "\"K\"" : "64");
    for (const cJSON *it = o->child; it; it = it->next) {
        snprintf(field, sizeof field, "rungs.2.%s.%s", key, it->string);
        if (eng_mp_param_index(m, it->string) < 0)
            return eng_mp_bad(p, field, "expected a length parameter named in \"params\"");
        r->sweeps = xrealloc(r->sweeps, (r->nsweeps + 1) * sizeof *r->sweeps);
        struct eng_r2_sweep *s = &r->sweeps[r->nsweeps++];
        memset(s, 0, sizeof *s);
        s->param = xstrdup(it->string);
        s->topk = topk;
        if (cJSON_IsString(it)) {
            if (eng_mp_param_index(m, it->valuestring) < 0)
                return eng_mp_bad(p, field, "expected a whole number or a parameter named in "
                                  "\"params\", got \"%s\"", it->valuestring);
            s->boundary_param = xstrdup(it->valuestring);
        } else if (!eng_mp_int(p, it, field, 1, (int64_t)1 << 40, &s->boundary)) {
            return false;
        }
    }
    return true;
}

static bool parse_property(struct eng_mparse *p, const struct eng_manifest *m, const cJSON *it,
                           size_t i, struct eng_r2_property *pr)
{
    static const char *const keys[] = {"output", "rows_sum_to", "equals", "when", "tolerance", NULL};
    char field[96];
    snprintf(field, sizeof field, "rungs.2.properties[%zu]", i);
    if (!cJSON_IsObject(it))
        return eng_mp_bad(p, field, "expected an object {\"output\", \"rows_sum_to\" or \"equals\"}");
    if (!eng_mp_only_keys(p, it, field, keys))
        return false;
    snprintf(field, sizeof field, "rungs.2.properties[%zu].output", i);
    if (!(pr->output = eng_mp_string(p, it, "output", true, field)))
        return false;
    bool found = false;
    for (size_t b = 0; b < m->nbuffers && !found; b++)
        if (!strcmp(m->buffers[b].name, pr->output) && m->buffers[b].role == ENG_ROLE_OUTPUT &&
            eng_vclass_applies(m->buffers[b].dtype)) {
            pr->buffer = b;
            found = true;
        }
    if (!found)
        return eng_mp_bad(p, field, "expected a float output buffer, got \"%s\"", pr->output);
    const cJSON *rs = cJSON_GetObjectItemCaseSensitive(it, "rows_sum_to"),
                *eq = cJSON_GetObjectItemCaseSensitive(it, "equals");
    snprintf(field, sizeof field, "rungs.2.properties[%zu]", i);
    if (!rs == !eq)
        return eng_mp_bad(p, field, "expected exactly one of \"rows_sum_to\" and \"equals\"");
    pr->rows_sum = rs != NULL;
    pr->tol = m->tol_abs;
    snprintf(field, sizeof field, "rungs.2.properties[%zu].%s", i, rs ? "rows_sum_to" : "equals");
    if (!eng_mp_number(p, it, rs ? "rows_sum_to" : "equals", field, -1e30, 1e30, &pr->target))
        return false;
    snprintf(field, sizeof field, "rungs.2.properties[%zu].tolerance", i);
    if (!eng_mp_number(p, it, "tolerance", field, 0, 1e30, &pr->tol))
        return false;
    const cJSON *w = cJSON_GetObjectItemCaseSensitive(it, "when");
    if (!w)
        return true;
    snprintf(field, sizeof field, "rungs.2.properties[%zu].when", i);
    if (!cJSON_IsObject(w) || !w->child || w->child->next || !cJSON_IsString(w->child))
        return eng_mp_bad(p, field, "expected one input and its init: {\"V\": \"ones\"}");
    snprintf(field, sizeof field, "rungs.2.properties[%zu].when.%s", i, w->child->string);
    const struct eng_buffer_spec *in = NULL;
    for (size_t b = 0; b < m->nbuffers; b++)
        if (!strcmp(m->buffers[b].name, w->child->string) && m->buffers[b].role == ENG_ROLE_INPUT)
            in = &m->buffers[b];
    if (!in)
        return eng_mp_bad(p, field, "expected an input buffer");
    int init = eng_init_find(w->child->valuestring);
    if (init < 0 || init == ENG_INIT_GARBAGE ||
        (init >= ENG_INIT_CLASS && !eng_vclass_applies(in->dtype)))
        return eng_mp_bad(p, field, "expected an init of that buffer (ones, zeros, iota, normal, "
                          "uniform or a value class), got \"%s\"", w->child->valuestring);
    pr->when_buffer = xstrdup(w->child->string);
    pr->when_init = xstrdup(w->child->valuestring);
    return true;
}

static bool parse_properties(struct eng_mparse *p, const struct eng_manifest *m, const cJSON *j,
                             struct eng_rung2_spec *r)
{
    const cJSON *ps = cJSON_GetObjectItemCaseSensitive(j, "properties");
    if (!ps)
        return true;
    if (!cJSON_IsArray(ps))
        return eng_mp_bad(p, "rungs.2.properties", "expected an array of properties");
    r->props = xcalloc((size_t)cJSON_GetArraySize(ps) + 1, sizeof *r->props);
    for (const cJSON *it = ps->child; it; it = it->next) {
        struct eng_r2_property *pr = &r->props[r->nprops++];
        if (!parse_property(p, m, it, r->nprops - 1, pr))
            return false;
    }
    return true;
}

/* Does dir/name exist (a link is followed)? A missing capture is named when it is loaded. */
static bool access_exists(const char *dir, const char *name)
{
    char *path = xasprintf("%s/%s", dir, name);
    bool ok = access(path, F_OK) == 0;
    free(path);
    return ok;
}

/* "inputs": [{"buffer": "scores", "file": "captures/x.safetensors", "tensor": "layer3.scores",
 * "dtype": "bf16"}]; the files are read when the run is planned. */
static bool parse_inputs(struct eng_mparse *p, const struct eng_manifest *m, const cJSON *j,
                         struct eng_rung2_spec *r)
{
    static const char *const keys[] = {"buffer", "file", "tensor", "dtype", NULL};
    const cJSON *in = cJSON_GetObjectItemCaseSensitive(j, "inputs");
    if (!in)
        return true;
    if (!cJSON_IsArray(in))
        return eng_mp_bad(p, "rungs.2.inputs", "expected an array of {\"buffer\", \"file\", \"tensor\"}");
    r->inputs = xcalloc((size_t)cJSON_GetArraySize(in) + 1, sizeof *r->inputs);
    for (const cJSON *it = in->child; it; it = it->next) {
        char field[96];
        size_t i = r->ninputs;
        snprintf(field, sizeof field, "rungs.2.inputs[%zu]", i);
        if (!cJSON_IsObject(it))
            return eng_mp_bad(p, field, "expected an object {\"buffer\", \"file\", \"tensor\"}");
        if (!eng_mp_only_keys(p, it, field, keys))
            return false;
        struct eng_replay_bind *b = &r->inputs[r->ninputs++];
        snprintf(field, sizeof field, "rungs.2.inputs[%zu].buffer", i);
        if (!(b->buffer = eng_mp_string(p, it, "buffer", true, field)))
            return false;
        bool input = false;
        for (size_t k = 0; k < m->nbuffers; k++)
            input |= !strcmp(m->buffers[k].name, b->buffer) && m->buffers[k].role == ENG_ROLE_INPUT;
        if (!input)
            return eng_mp_bad(p, field, "expected an input buffer, got \"%s\"", b->buffer);
        snprintf(field, sizeof field, "rungs.2.inputs[%zu].file", i);
        char *file = eng_mp_string(p, it, "file", true, field);
        if (!file)
            return false;
        if (strchr(file, ';') || strchr(file, '#')) {
            free(file);
            return eng_mp_bad(p, field, "expected a path without ';' or '#'");
        }
        /* a capture a suite names is one of its files: inside its folder, as its source is */
        char why[1024];
        if (m->dir && (file[0] == '/' || (access_exists(m->dir, file) &&
                                          !file_within(m->dir, file, NULL, why, sizeof why)))) {
            bool abs = file[0] == '/';
            free(file);
            return eng_mp_bad(p, field, "%s", abs ? "expected a file inside the suite's folder, "
                              "not an absolute path" : why);
        }
        b->file = eng_replay_resolve(m, file);
        free(file);
        snprintf(field, sizeof field, "rungs.2.inputs[%zu].tensor", i);
        if (!(b->tensor = eng_mp_string(p, it, "tensor", true, field)))
            return false;
        snprintf(field, sizeof field, "rungs.2.inputs[%zu].dtype", i);
        static const char *const dts[] = {"bf16"};
        int dt = -1;
        if (!eng_mp_enum(p, it, "dtype", field, dts, 1, 0, &dt))
            return false;
        b->raw_bf16 = cJSON_GetObjectItemCaseSensitive(it, "dtype") != NULL;
    }
    return true;
}

static bool parse(struct eng_mparse *p, const struct eng_manifest *m, const cJSON *j, void **out)
{
    static const char *const keys[] = {"classes", "chunks", "topk", "properties", "inputs", NULL};
    struct eng_rung2_spec *r = xcalloc(1, sizeof *r);
    *out = r;
    if (!eng_mp_only_keys(p, j, "rungs.2", keys))
        return false;
    const cJSON *cl = cJSON_GetObjectItemCaseSensitive(j, "classes");
    if (!cl) {
        for (int c = 0; c < ENG_VC_COUNT; c++)
            r->classes[c] = true;
    } else {
        if (!cJSON_IsArray(cl))
            return eng_mp_bad(p, "rungs.2.classes", "expected an array of value classes (%s)",
                              eng_vclass_list());
        size_t i = 0;
        for (const cJSON *it = cl->child; it; it = it->next, i++) {
            char field[64], got[64];
            snprintf(field, sizeof field, "rungs.2.classes[%zu]", i);
            int c = cJSON_IsString(it) ? eng_vclass_find(it->valuestring) : -1;
            if (c < 0) {
                eng_mp_describe(it, got, sizeof got);
                return eng_mp_bad(p, field, "expected one of %s, got %s", eng_vclass_list(), got);
            }
            r->classes[c] = true;
        }
    }
    return parse_sweeps(p, m, j, "chunks", false, r) && parse_sweeps(p, m, j, "topk", true, r) &&
           parse_properties(p, m, j, r) && parse_inputs(p, m, j, r);
}

static void free_settings(void *settings)
{
    struct eng_rung2_spec *r = settings;
    for (size_t i = 0; i < r->nsweeps; i++) {
        free(r->sweeps[i].param);
        free(r->sweeps[i].boundary_param);
    }
    free(r->sweeps);
    for (size_t i = 0; i < r->nprops; i++) {
        free(r->props[i].output);
        free(r->props[i].when_buffer);
        free(r->props[i].when_init);
    }
    free(r->props);
    eng_replay_binds_free(r->inputs, r->ninputs);
    free(r);
}

/* eng_plan_add, then the value class on the checks it added. */
static void add_with_values(struct eng_plan_builder *b, const char *name,
                            const struct eng_shape *s, const char *values)
{
    size_t before = *b->n;
    eng_plan_add(b, name, ENG_MODE_PLAIN, false, s, 1, 0, 0);
    for (size_t i = before; values && i < *b->n; i++)
        (*b->list)[i].spec.values = xstrdup(values);
}

static int plan(struct eng_plan_builder *b, char *err, size_t errlen)
{
    const struct eng_manifest *m = b->m;
    const struct eng_rung2_spec *r = m->settings[2];
    struct eng_shape dflt = {0};
    size_t nbase = m->nbaseline ? m->nbaseline : 1;
    bool float_input = false;
    for (size_t i = 0; i < m->nbuffers; i++)
        float_input |= (m->buffers[i].role == ENG_ROLE_INPUT || m->buffers[i].inout) &&
                       eng_vclass_applies(m->buffers[i].dtype);
    char name[240], tag[160];
    size_t classes_first = *b->n;
    /* Each value class over every float input, at each baseline shape. */
    for (int c = 0; float_input && c < ENG_VC_COUNT; c++) {
        if (!r->classes[c])
            continue;
        for (size_t i = 0; i < nbase; i++) {
            const struct eng_shape *s = m->nbaseline ? &m->baseline[i] : &dflt;
            eng_shape_tag(s, tag, sizeof tag);
            snprintf(name, sizeof name, "%s%s%s", eng_vclass_name((enum eng_vclass)c),
                     nbase > 1 ? "-" : "", nbase > 1 ? tag : "");
            add_with_values(b, name, s, eng_vclass_name((enum eng_vclass)c));
            /* Each conditional property: the class with its input made as it says. */
            for (size_t k = 0; k < r->nprops; k++) {
                const struct eng_r2_property *pr = &r->props[k];
                if (!pr->when_buffer)
                    continue;
                char values[160], pname[280];
                snprintf(values, sizeof values, "%s;%s=%s", eng_vclass_name((enum eng_vclass)c),
                         pr->when_buffer, pr->when_init);
                snprintf(pname, sizeof pname, "%s+%s=%s", name, pr->when_buffer, pr->when_init);
                bool dup = false;
                for (size_t q = 0; q < *b->n && !dup; q++)
                    dup = !strcmp((*b->list)[q].spec.name, pname);
                if (!dup)
                    add_with_values(b, pname, s, values);
            }
        }
    }
    /* The value classes again on lag builds (one wave held back): values such as identical
     * rows can send every thread down one path into a race between waves that a GPU, running
     * them in step, does not show (aiter-6127). */
    eng_plan_add_lag(b, classes_first, 0);
    /* Lengths on both sides of each chunk and top-k, at the first baseline shape. */
    const struct eng_shape *base = m->nbaseline ? &m->baseline[0] : &dflt;
    for (size_t k = 0; k < r->nsweeps; k++) {
        const struct eng_r2_sweep *sw = &r->sweeps[k];
        int64_t bnd = sw->boundary;
        if (sw->boundary_param) {
            struct eng_values v;
            if (eng_values_make(m, base, NULL, NULL, &v, err, errlen) != 0)
                return -1;
            int rc = eng_values_eval(&v, sw->boundary_param, &bnd, err, errlen);
            eng_values_free(&v);
            if (rc != 0)
                return -1;
        }
        int64_t lens[7];
        size_t nl = eng_r2_sweep_lengths(bnd, lens);
        for (size_t l = 0; l < nl; l++) {
            struct eng_shape s = {0};
            eng_shape_merge(&s, base);
            eng_shape_set(&s, sw->param, lens[l]);
            snprintf(name, sizeof name, "%s-%s%lld", sw->topk ? "topk" : "chunk", sw->param,
                     (long long)lens[l]);
            add_with_values(b, name, &s, NULL);
            eng_shape_free(&s);
        }
    }
    /* The captures the suite ships, then those of --inputs: one check each, at their shape. */
    const char *inputs = eng_plan_rung_arg(b, "--inputs");
    for (int src = 0; src < 2; src++) {
        struct eng_replay_bind *binds = src == 0 ? r->inputs : NULL;
        size_t nb = src == 0 ? r->ninputs : 0;
        if (src == 1 && inputs && eng_replay_from_path(m, inputs, &binds, &nb, err, errlen) != 0)
            return -1;
        if (!nb)
            continue;
        struct eng_shape s;
        int rc = eng_replay_check(m, binds, nb, &s, err, errlen);
        if (rc == 0) {
            char *values = eng_replay_values(binds, nb);
            add_with_values(b, src == 0 ? "replay" : "replay-inputs", &s, values);
            free(values);
            eng_shape_free(&s);
        }
        if (src == 1)
            eng_replay_binds_free(binds, nb);
        if (rc != 0)
            return -1;
    }
    if (!float_input && !r->nsweeps && !r->ninputs && !eng_plan_rung_arg(b, "--inputs")) {
        snprintf(err, errlen, "suite %s: rung 2 has nothing to vary: no f32, bf16 or fp8e4m3 "
                 "input for the value classes and no \"chunks\" or \"topk\" to sweep", m->name);
        return -1;
    }
    return 0;
}

/* ---- worker side: the properties --------------------------------------------------------- */

/* Does the property apply to this check? "when" properties to the checks that made their
 * input as they say, the others to every value-class check; both only where every input is
 * finite (a NaN input may rightly give a NaN output). */
static bool applies(const struct eng_exec *e, const struct eng_inst *in,
                    const struct eng_r2_property *pr)
{
    const char *v = e->s->values;
    if (!v)
        return false;
    if (pr->when_buffer) {
        char want[160];
        snprintf(want, sizeof want, ";%s=%s", pr->when_buffer, pr->when_init);
        const char *at = strstr(v, want);
        if (!at || (at[strlen(want)] != '\0' && at[strlen(want)] != ';'))
            return false;
    }
    return eng_exec_inputs_finite(e, in);
}

static int oracle(struct eng_exec *e, struct eng_inst *in)
{
    const struct eng_rung2_spec *r = e->m->settings[2];
    for (size_t k = 0; r && k < r->nprops; k++) {
        const struct eng_r2_property *pr = &r->props[k];
        if (!applies(e, in, pr))
            continue;
        struct eng_bufi *v = &in->var[pr->buffer];
        uint64_t len, stride;
        eng_exec_rows(e, in, pr->buffer, &len, &stride);
        uint64_t rows = len ? v->elems / len : 0;
        int dtype = (int)e->m->buffers[pr->buffer].dtype, mode = pr->rows_sum ? 0 : 1;
        float target = (float)pr->target, tol = (float)pr->tol;
        eng_dptr res = e->res;
        ENG_TRY(eng_exec_res_clear(e, NULL));
        void *a[] = {&v->data, &rows, &len, &stride, &dtype, &mode, &target, &tol, &res};
        ENG_TRY(eng_exec_ulaunch(e, e->kprop, pr->rows_sum ? rows : rows * len, NULL, a));
        uint64_t w[ENG_RES_WORDS];
        ENG_TRY(eng_exec_res_read(e, w, NULL));
        if (!w[0])
            continue;
        float worst;
        uint32_t bits = (uint32_t)w[2];
        memcpy(&worst, &bits, 4);
        char where[420], largest[64];
        eng_exec_where(e, in, pr->buffer, w[1] - 1, where, sizeof where);
        /* the kernel counts a NaN as an infinite error: say which it is, never a number
         * smaller than the failing rows' */
        if (isfinite(worst))
            snprintf(largest, sizeof largest, "largest error %.4g", (double)worst);
        else
            snprintf(largest, sizeof largest, "some %s NaN or infinite",
                     pr->rows_sum ? "sums are" : "values are");
        if (pr->rows_sum)
            eng_exec_note(e, "%s: %llu of %llu rows do not sum to %g (first row at %s), %s",
                          pr->output, (unsigned long long)w[0], (unsigned long long)rows,
                          pr->target, where, largest);
        else
            eng_exec_note(e, "%s: %llu of %llu values are not %g when %s is %s (first at %s), %s",
                          pr->output, (unsigned long long)w[0], (unsigned long long)(rows * len),
                          pr->target, pr->when_buffer, pr->when_init, where, largest);
        e->failed = true;
        eng_exec_record_bad(e, (int64_t)w[1] - 1, (int64_t)w[0], (double)worst);
    }
    return 0;
}

/* Rung 2's option of its own on `kladder run` (engine/rung.h). */
static const struct eng_rung_opt opts[] = {
    {.name = "--inputs", .arg = "FILE|DIR",
     .about = "rung 2: replay captured tensors (safetensors or .npy) named like the suite's input "
              "buffers"},
    {0},
};

const struct eng_rung eng_rung2 = {
    .number = 2,
    .name = "replay real inputs",
    .parse = parse,
    .free_settings = free_settings,
    .plan = plan,
    .oracle = oracle,
    .opts = opts,
};
