/* Rung 1, boundary unit tests: tails around every tile, outputs just below and just above 2^31
 * and 2^32 bytes counting the last tile's padding, every tile the launcher accepts, shapes next
 * to tuned ones with no tuned entry, and named extra shapes; every check a plain launch with the
 * reference, sentinel and finite oracles (docs/engine.md). */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/xalloc.h"
#include "engine/rung.h"
#include "engine/rungs/rung1.h"

static bool parse(struct eng_mparse *p, const struct eng_manifest *m, const cJSON *j, void **out)
{
    static const char *const keys[] = {"tail_dims", "untuned", "cliffs", "extra", NULL};
    struct eng_rung1_spec *r = xcalloc(1, sizeof *r);
    *out = r;
    if (!eng_mp_only_keys(p, j, "rungs.1", keys))
        return false;
    r->untuned = true;
    const cJSON *tail = j ? cJSON_GetObjectItemCaseSensitive(j, "tail_dims") : NULL;
    if (tail && !cJSON_IsObject(tail))
        return eng_mp_bad(p, "rungs.1.tail_dims", "expected an object {\"tile_k\": \"K\"}");
    size_t cap = m->ntiles + (tail ? (size_t)cJSON_GetArraySize(tail) : 0) + 1;
    r->tail_tile = xcalloc(cap, sizeof *r->tail_tile);
    r->tail_dim = xcalloc(cap, sizeof *r->tail_dim);
    if (tail) {
        for (const cJSON *it = tail->child; it; it = it->next) {
            char sub[128];
            snprintf(sub, sizeof sub, "rungs.1.tail_dims.%s", it->string);
            if (eng_mp_param_index(m, it->string) < 0)
                return eng_mp_bad(p, sub, "expected a tile parameter named in \"params\"");
            if (!cJSON_IsString(it) || eng_mp_param_index(m, it->valuestring) < 0)
                return eng_mp_bad(p, sub, "expected the name of the parameter this tile divides");
            r->tail_tile[r->ntail] = xstrdup(it->string);
            r->tail_dim[r->ntail++] = xstrdup(it->valuestring);
        }
    } else {
        /* tile_k divides K (or k) when such a parameter exists. */
        for (size_t t = 0; t < m->ntiles; t++) {
            const char *tp = m->tiles[t].param;
            if (strncmp(tp, "tile_", 5) != 0)
                continue;
            char up[64];
            snprintf(up, sizeof up, "%s", tp + 5);
            int d = eng_mp_param_index(m, up);
            for (char *c = up; *c; c++)
                *c = (char)toupper((unsigned char)*c);
            if (d < 0)
                d = eng_mp_param_index(m, up);
            if (d >= 0) {
                r->tail_tile[r->ntail] = xstrdup(tp);
                r->tail_dim[r->ntail++] = xstrdup(m->params[d].name);
            }
        }
    }
    if (!eng_mp_bool(p, j, "untuned", "rungs.1.untuned", &r->untuned))
        return false;
    const cJSON *cl = cJSON_GetObjectItemCaseSensitive(j, "cliffs");
    if (cl) {
        if (!cJSON_IsArray(cl))
            return eng_mp_bad(p, "rungs.1.cliffs", "expected an array of {\"buffer\", \"param\", \"with\"}");
        r->cliffs = xcalloc((size_t)cJSON_GetArraySize(cl) + 1, sizeof *r->cliffs);
        size_t i = 0;
        for (const cJSON *it = cl->child; it; it = it->next, i++) {
            char sub[128];
            struct eng_cliff *c = &r->cliffs[i];
            r->ncliffs = i + 1;
            static const char *const ckeys[] = {"buffer", "param", "with", "unit", NULL};
            snprintf(sub, sizeof sub, "rungs.1.cliffs[%zu]", i);
            if (!cJSON_IsObject(it))
                return eng_mp_bad(p, sub, "expected an object {\"buffer\", \"param\", \"with\"}");
            if (!eng_mp_only_keys(p, it, sub, ckeys))
                return false;
            snprintf(sub, sizeof sub, "rungs.1.cliffs[%zu].buffer", i);
            c->buffer = eng_mp_string(p, it, "buffer", true, sub);
            if (!c->buffer)
                return false;
            bool found = false;
            for (size_t b = 0; b < m->nbuffers; b++)
                found |= strcmp(m->buffers[b].name, c->buffer) == 0;
            if (!found)
                return eng_mp_bad(p, sub, "expected a buffer named in \"buffers\", got \"%s\"", c->buffer);
            snprintf(sub, sizeof sub, "rungs.1.cliffs[%zu].param", i);
            c->param = eng_mp_string(p, it, "param", true, sub);
            if (!c->param)
                return false;
            if (eng_mp_param_index(m, c->param) < 0)
                return eng_mp_bad(p, sub, "expected a parameter named in \"params\", got \"%s\"", c->param);
            const cJSON *w = cJSON_GetObjectItemCaseSensitive(it, "with");
            snprintf(sub, sizeof sub, "rungs.1.cliffs[%zu].with", i);
            if (w && !eng_mp_shape(p, m, w, sub, false, &c->with))
                return false;
            static const char *const units[] = {"bytes", "elements"};
            int unit = 0;
            snprintf(sub, sizeof sub, "rungs.1.cliffs[%zu].unit", i);
            if (!eng_mp_enum(p, it, "unit", sub, units, 2, 0, &unit))
                return false;
            c->elements = unit == 1;
        }
    }
    return eng_mp_shapes(p, m, j, "extra", "rungs.1.extra", true, &r->nextra, &r->extra);
}

static void free_settings(void *settings)
{
    struct eng_rung1_spec *r = settings;
    for (size_t i = 0; i < r->ntail; i++) {
        free(r->tail_tile[i]);
        free(r->tail_dim[i]);
    }
    free(r->tail_tile);
    free(r->tail_dim);
    for (size_t i = 0; i < r->ncliffs; i++) {
        free(r->cliffs[i].buffer);
        free(r->cliffs[i].param);
        eng_shape_free(&r->cliffs[i].with);
    }
    free(r->cliffs);
    eng_shapes_free(r->extra, r->nextra);
    free(r);
}

static bool in_tuned(const struct eng_manifest *m, const struct eng_shape *s)
{
    for (size_t t = 0; t < m->ntuned; t++) {
        bool same = true;
        for (size_t k = 0; k < m->tuned[t].n && same; k++)
            for (size_t j = 0; j < s->n; j++)
                if (!strcmp(s->keys[j], m->tuned[t].keys[k]) && s->values[j] != m->tuned[t].values[k])
                    same = false;
        if (same)
            return true;
    }
    return false;
}

static bool is_tile(const struct eng_manifest *m, const char *p)
{
    for (size_t t = 0; t < m->ntiles; t++)
        if (!strcmp(m->tiles[t].param, p))
            return true;
    return false;
}

/* Padded bytes of buffer `buf` when param = v (other values from base). -1 on error. */
static int64_t bytes_at(const struct eng_manifest *m, size_t buf, const struct eng_shape *base,
                        const char *param, int64_t v)
{
    struct eng_shape s = {0};
    eng_shape_merge(&s, base);
    eng_shape_set(&s, param, v);
    struct eng_values vals;
    char err[256];
    int64_t out = -1;
    if (eng_values_make(m, &s, NULL, NULL, &vals, err, sizeof err) == 0) {
        struct eng_buffer_size sz;
        if (eng_buffer_size(m, buf, &vals, &sz, err, sizeof err) == 0 &&
            sz.padded_bytes < ((uint64_t)1 << 62))
            out = (int64_t)sz.padded_bytes;
        eng_values_free(&vals);
    }
    eng_shape_free(&s);
    return out;
}

/* The largest v with bytes(v) < limit (below) and the smallest with bytes(v) > limit (above). */
static void find_cliff(const struct eng_manifest *m, size_t buf, const struct eng_shape *base,
                       const char *param, int64_t limit, int64_t *below, int64_t *above)
{
    int64_t lo = 1, hi = 1;
    *below = *above = -1;
    while (hi < ((int64_t)1 << 40)) {
        int64_t bb = bytes_at(m, buf, base, param, hi);
        if (bb < 0 || bb > limit)
            break;
        hi *= 2;
    }
    /* smallest v in [lo, hi] with bytes > limit */
    while (lo < hi) {
        int64_t mid = lo + (hi - lo) / 2, bb = bytes_at(m, buf, base, param, mid);
        if (bb >= 0 && bb > limit)
            hi = mid;
        else
            lo = mid + 1;
    }
    int64_t ba = bytes_at(m, buf, base, param, lo);
    if (ba > limit)
        *above = lo;
    for (int64_t v = lo - 1; v >= 1 && v >= lo - 4096; v--) {
        int64_t bb = bytes_at(m, buf, base, param, v);
        if (bb >= 0 && bb < limit) {
            *below = v;
            break;
        }
    }
}

/* The cliff shapes and the named extras may be run on a block sample where the backend
 * cannot run them whole (engine/exec_sample.h). */
static void allow_sample(struct eng_plan_builder *b, size_t first)
{
    for (size_t k = first; k < *b->n; k++)
        (*b->list)[k].spec.sample_cliffs = true;
}

/* Whether the suite's tiles and rung-1 settings plan any check: tails of a tile that divides a
 * dimension, the tiles themselves, cliffs, untuned shapes next to tuned ones, extra shapes. */
static bool settings_plan(const struct eng_manifest *m, const struct eng_rung1_spec *r)
{
    bool tails = false;
    for (size_t t = 0; t < r->ntail; t++)
        for (size_t i = 0; i < m->ntiles; i++)
            tails |= !strcmp(m->tiles[i].param, r->tail_tile[t]) && m->tiles[i].n > 0;
    bool tiles = false;
    for (size_t i = 0; i < m->ntiles; i++)
        tiles |= m->tiles[i].n > 0;
    return tails || tiles || r->ncliffs || (r->untuned && m->ntuned) || r->nextra;
}

static int plan(struct eng_plan_builder *b, char *err, size_t errlen)
{
    (void)err;
    (void)errlen;
    const struct eng_manifest *m = b->m;
    const struct eng_rung1_spec *r = m->settings[1];
    char name[200];
    if (!settings_plan(m, r)) {
        eng_rung1_plan_dims(b);
        return 0;
    }
    /* Tails around every accepted tile. */
    for (size_t t = 0; t < r->ntail; t++) {
        const struct eng_tile *tile = NULL;
        for (size_t i = 0; i < m->ntiles; i++)
            if (!strcmp(m->tiles[i].param, r->tail_tile[t]))
                tile = &m->tiles[i];
        if (!tile)
            continue;
        for (size_t k = 0; k < tile->n; k++) {
            int64_t tv = tile->values[k];
            int64_t dims[4] = {tv + 1, tv + tv / 2, 2 * tv - 1, 2 * tv + tv / 2};
            for (int d = 0; d < 4; d++) {
                if (dims[d] < 1 || (d > 0 && dims[d] == dims[d - 1]))
                    continue;
                struct eng_shape s = {0};
                eng_shape_set(&s, r->tail_dim[t], dims[d]);
                eng_shape_set(&s, tile->param, tv);
                snprintf(name, sizeof name, "tail-%s%lld-%s%lld", r->tail_dim[t],
                         (long long)dims[d], tile->param, (long long)tv);
                eng_plan_add(b, name, ENG_MODE_PLAIN, false, &s, 1, 0, 0);
                eng_shape_free(&s);
            }
        }
    }
    /* Every accepted tile at the default shape. */
    for (size_t i = 0; i < m->ntiles; i++)
        for (size_t k = 0; k < m->tiles[i].n; k++) {
            struct eng_shape s = {0};
            eng_shape_set(&s, m->tiles[i].param, m->tiles[i].values[k]);
            snprintf(name, sizeof name, "tile-%s%lld", m->tiles[i].param,
                     (long long)m->tiles[i].values[k]);
            eng_plan_add(b, name, ENG_MODE_PLAIN, false, &s, 1, 0, 0);
            eng_shape_free(&s);
        }
    /* Outputs just below and above 2^31 and 2^32 bytes, padding included (or elements: the
     * same limits times the element size). */
    for (size_t c = 0; c < r->ncliffs; c++) {
        const struct eng_cliff *cl = &r->cliffs[c];
        size_t buf = 0;
        while (buf < m->nbuffers && strcmp(m->buffers[buf].name, cl->buffer))
            buf++;
        int64_t es = (int64_t)eng_dtype_size(m->buffers[buf].dtype);
        for (int p = 31; p <= 32; p++) {
            int64_t below, above;
            find_cliff(m, buf, &cl->with, cl->param, ((int64_t)1 << p) * (cl->elements ? es : 1),
                       &below, &above);
            int64_t vals[2] = {below, above};
            const char *side[2] = {"below", "above"};
            for (int k = 0; k < 2; k++) {
                if (vals[k] < 1)
                    continue;
                struct eng_shape s = {0};
                eng_shape_merge(&s, &cl->with);
                eng_shape_set(&s, cl->param, vals[k]);
                snprintf(name, sizeof name, "cliff-%s-%s2^%d%s-%s%lld", cl->buffer, side[k], p,
                         cl->elements ? "el" : "", cl->param, (long long)vals[k]);
                size_t first = *b->n;
                eng_plan_add(b, name, ENG_MODE_PLAIN, false, &s, 1, 0, 0);
                allow_sample(b, first);
                eng_shape_free(&s);
            }
        }
    }
    /* Shapes next to tuned ones that have no tuned entry (the default tile is used). */
    int untuned = 0;
    for (size_t t = 0; r->untuned && t < m->ntuned && untuned < 6; t++) {
        const struct eng_shape *tu = &m->tuned[t];
        for (size_t k = 0; k < tu->n && untuned < 6; k++) {
            if (is_tile(m, tu->keys[k]))
                continue;
            int64_t cands[2] = {tu->values[k] + 1, tu->values[k] * 2};
            for (int c = 0; c < 2 && untuned < 6; c++) {
                struct eng_shape s = {0};
                for (size_t j = 0; j < tu->n; j++)
                    if (!is_tile(m, tu->keys[j]))
                        eng_shape_set(&s, tu->keys[j], tu->values[j]);
                eng_shape_set(&s, tu->keys[k], cands[c]);
                if (!in_tuned(m, &s)) {
                    snprintf(name, sizeof name, "untuned-%s%lld", tu->keys[k], (long long)cands[c]);
                    eng_plan_add(b, name, ENG_MODE_PLAIN, false, &s, 1, 0, 0);
                    untuned++;
                }
                eng_shape_free(&s);
            }
        }
    }
    for (size_t i = 0; i < r->nextra; i++) {
        snprintf(name, sizeof name, "%s", r->extra[i].name);
        size_t first = *b->n;
        eng_plan_add(b, name, ENG_MODE_PLAIN, false, &r->extra[i], 1, 0, 0);
        allow_sample(b, first);
    }
    return 0;
}

const struct eng_rung eng_rung1 = {
    .number = 1,
    .name = "boundary unit tests",
    .plans_from = "with \"extra\" shapes, \"tail_dims\" of the suite's \"tiles\", or \"cliffs\"",
    .parse = parse,
    .free_settings = free_settings,
    .plan = plan,
};
