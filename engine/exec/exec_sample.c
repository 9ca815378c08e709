/* Block samples of a launch too large to emulate whole (engine/exec_sample.h). */
#include "engine/exec_sample.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/xalloc.h"

#define MAX_RANGES ((size_t)1 << 16)

/* Whether name appears in expr as a whole identifier. */
static bool names(const char *expr, const char *name)
{
    size_t n = strlen(name);
    for (const char *p = expr; (p = strstr(p, name)); p += n) {
        bool start = p == expr || !(isalnum((unsigned char)p[-1]) || p[-1] == '_');
        bool end = !(isalnum((unsigned char)p[n]) || p[n] == '_');
        if (start && end)
            return true;
    }
    return false;
}

static bool is_ident(const char *s)
{
    if (!(isalpha((unsigned char)*s) || *s == '_'))
        return false;
    for (; *s; s++)
        if (!(isalnum((unsigned char)*s) || *s == '_'))
            return false;
    return true;
}

/* The tile one block of grid expression expr owns along parameter name: the largest value of
 * the parameter that still gives one block ("ceil(M, 256)" gives 256; the other parameters
 * keep their values). 0 when no value up to 2^20 gives more than one. */
static uint64_t tile_of(const struct eng_values *v, const char *expr, const char *name)
{
    struct eng_values w = *v;
    w.ints = xcalloc(v->n + 1, sizeof *w.ints);
    memcpy(w.ints, v->ints, v->n * sizeof *w.ints);
    size_t k = 0;
    while (k < v->n && strcmp(v->names[k], name))
        k++;
    uint64_t tile = 0;
    char msg[256];
    for (int64_t x = 1; k < v->n && x <= ((int64_t)1 << 20); x++) {
        int64_t g;
        w.ints[k] = x + 1;
        if (eng_values_eval(&w, expr, &g, msg, sizeof msg) != 0)
            break;
        if (g > 1) {
            tile = (uint64_t)x;
            break;
        }
    }
    free(w.ints);
    return tile;
}

static void add_unique(uint64_t *set, size_t *n, uint64_t x)
{
    for (size_t i = 0; i < *n; i++)
        if (set[i] == x)
            return;
    set[(*n)++] = x;
}

static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

static int cmp_range(const void *a, const void *b) { return cmp_u64(a, b); }

/* The output's geometry at these values: its logical (l) and padded (p) extents, the tile a
 * block owns of each dimension and the grid dimension that walks it (-1: none, the tile is the
 * whole padded extent). */
struct geom {
    size_t nd;
    uint64_t l[4], p[4], tile[4], total, es;
    int walks[4];
};

/* The suite and launch a sample needs: exactly one output, of 1 to 4 dimensions, and the
 * reference launched like the variant. Sets out->out. */
static int sample_output(const struct eng_manifest *m, const unsigned grid[3],
                         const unsigned rgrid[3], struct eng_sample *out, char *why, size_t whylen)
{
    size_t nout = 0;
    for (size_t i = 0; i < m->nbuffers; i++)
        if (m->buffers[i].role == ENG_ROLE_OUTPUT)
            out->out = i, nout++;
    if (nout != 1) {
        snprintf(why, whylen, "a block sample needs exactly one output (this suite has %zu)", nout);
        return -1;
    }
    if (memcmp(grid, rgrid, 3 * sizeof *grid) != 0) {
        snprintf(why, whylen, "a block sample needs the reference launched like the variant");
        return -1;
    }
    size_t nd = m->buffers[out->out].ndims;
    if (nd < 1 || nd > 4) {
        snprintf(why, whylen, "a block sample needs an output of 1 to 4 dimensions");
        return -1;
    }
    return 0;
}

/* Output b's extents at values v, each dimension its own tile until a grid walks it. */
static int output_geom(const struct eng_buffer_spec *b, const struct eng_values *v,
                       struct geom *g, char *why, size_t whylen)
{
    g->nd = b->ndims;
    g->es = eng_dtype_size(b->dtype);
    g->total = 1;
    for (size_t d = 0; d < 4; d++) {
        g->l[d] = g->p[d] = 1;
        g->walks[d] = -1;
    }
    for (size_t d = 0; d < g->nd; d++) {
        int64_t dim, pad = 1;
        char msg[256];
        if (eng_values_eval(v, b->dims[d], &dim, msg, sizeof msg) ||
            (b->pad_to[d] && eng_values_eval(v, b->pad_to[d], &pad, msg, sizeof msg))) {
            snprintf(why, whylen, "%s", msg);
            return -1;
        }
        g->l[d] = (uint64_t)dim;
        g->p[d] = ((uint64_t)dim + (uint64_t)pad - 1) / (uint64_t)pad * (uint64_t)pad;
        g->tile[d] = g->p[d];
    }
    for (size_t d = 0; d < g->nd; d++)
        g->total *= g->p[d];
    return 0;
}

/* Which output dimension each grid dimension of more than one block walks (the one its
 * expression names), and the tile a block owns of it: one block per tile, or no sample. */
static int grid_walks(const struct eng_manifest *m, const struct eng_values *v,
                      const struct eng_buffer_spec *b, const unsigned grid[3], struct geom *gm,
                      char *why, size_t whylen)
{
    for (int g = 0; g < 3; g++) {
        if (grid[g] <= 1)
            continue;
        int found = -1;
        for (size_t d = 0; d < gm->nd && found < 0; d++)
            if (is_ident(b->dims[d]) && names(m->launch.grid[g], b->dims[d]))
                found = (int)d;
        if (found < 0 || gm->walks[found] >= 0) {
            snprintf(why, whylen, "grid[%d] (\"%s\") walks no dimension of output %s of its own",
                     g, m->launch.grid[g], b->name);
            return -1;
        }
        gm->walks[found] = g;
        gm->tile[found] = tile_of(v, m->launch.grid[g], b->dims[found]);
        if (!gm->tile[found] ||
            (gm->p[found] + gm->tile[found] - 1) / gm->tile[found] != grid[g]) {
            snprintf(why, whylen, "grid[%d] (\"%s\") does not give one block per tile of %s",
                     g, m->launch.grid[g], b->dims[found]);
            return -1;
        }
    }
    return 0;
}

/* The elements whose tiles are sampled, into at (room for 10): first and last, and each side
 * of each cliff: at 2^31 and 2^32 bytes (a byte offset in 32 bits) and, for elements wider than
 * a byte, at 2^31 and 2^32 elements (an element index in 32 bits). Returns how many. */
static size_t cliff_elements(const struct geom *g, struct eng_sample *out, uint64_t at[10])
{
    size_t nat = 0;
    at[nat++] = 0;
    at[nat++] = g->total - 1;
    uint64_t per[2] = {g->es, 1}; /* bytes per unit: a byte cliff, then an element cliff */
    for (int c = 31; c <= 32; c++)
        for (int u = 0; u < (g->es > 1 ? 2 : 1); u++) {
            uint64_t e = (1ull << c) / per[u];
            if (e < g->total) {
                at[nat++] = e - 1;
                at[nat++] = e;
                out->element_cliffs |= u == 1;
            }
        }
    return nat;
}

/* The blocks that own the elements at[]: along each grid dimension the block indices of their
 * tiles, and every combination of them, sorted. */
static void pick_blocks(const struct geom *g, const unsigned grid[3], const uint64_t *at,
                        size_t nat, struct eng_sample *out)
{
    uint64_t picks[3][10];
    size_t npick[3] = {0, 0, 0};
    for (int k = 0; k < 3; k++)
        if (grid[k] <= 1)
            picks[k][npick[k]++] = 0;
    for (size_t a = 0; a < nat; a++) {
        uint64_t rest = at[a];
        for (size_t d = g->nd; d-- > 0;) {
            uint64_t coord = rest % g->p[d];
            rest /= g->p[d];
            if (g->walks[d] >= 0)
                add_unique(picks[g->walks[d]], &npick[g->walks[d]], coord / g->tile[d]);
        }
    }
    out->all_blocks = (uint64_t)grid[0] * grid[1] * grid[2];
    out->blocks = xcalloc(npick[0] * npick[1] * npick[2] + 1, sizeof *out->blocks);
    for (size_t z = 0; z < npick[2]; z++)
        for (size_t y = 0; y < npick[1]; y++)
            for (size_t x = 0; x < npick[0]; x++)
                out->blocks[out->nblocks++] =
                    picks[0][x] + picks[1][y] * grid[0] + picks[2][z] * (uint64_t)grid[0] * grid[1];
    qsort(out->blocks, out->nblocks, sizeof *out->blocks, cmp_u64);
}

/* Block id's tile as row segments of the output, appended to out->ranges (*cap its room): the
 * last dimension is the segment, every other dimension is walked. Dimensions no grid walks are
 * whole; a tile wholly in the padding has nothing to compare. -1 past MAX_RANGES segments. */
static int tile_segments(const struct geom *g, const unsigned grid[3], uint64_t id,
                         struct eng_sample *out, size_t *cap)
{
    size_t nd = g->nd;
    uint64_t bidx[3] = {id % grid[0], id / grid[0] % grid[1], id / ((uint64_t)grid[0] * grid[1])};
    uint64_t lo[4], hi[4];
    for (size_t d = 0; d < nd; d++) {
        lo[d] = g->walks[d] >= 0 ? bidx[g->walks[d]] * g->tile[d] : 0;
        hi[d] = g->walks[d] >= 0 ? lo[d] + g->tile[d] : g->l[d];
        if (hi[d] > g->l[d])
            hi[d] = g->l[d];
        if (lo[d] >= hi[d])
            return 0;
    }
    uint64_t idx[4];
    memcpy(idx, lo, sizeof idx);
    for (;;) {
        uint64_t flat = 0;
        for (size_t d = 0; d < nd; d++)
            flat = flat * g->p[d] + (d + 1 == nd ? lo[d] : idx[d]);
        if (out->nranges == *cap)
            out->ranges = xrealloc(out->ranges, (*cap *= 2) * sizeof *out->ranges);
        out->ranges[out->nranges][0] = flat;
        out->ranges[out->nranges++][1] = hi[nd - 1] - lo[nd - 1];
        if (out->nranges > MAX_RANGES)
            return -1;
        size_t d = nd - 1;
        while (d-- > 0) {
            if (++idx[d] < hi[d])
                break;
            idx[d] = lo[d];
        }
        if (d == (size_t)-1)
            return 0;
    }
}

/* The ranges sorted, overlapping and touching ones joined, and their elements counted. */
static void merge_ranges(struct eng_sample *out)
{
    qsort(out->ranges, out->nranges, sizeof *out->ranges, cmp_range);
    size_t w = 0;
    for (size_t r = 0; r < out->nranges; r++) {
        if (w && out->ranges[w - 1][0] + out->ranges[w - 1][1] >= out->ranges[r][0]) {
            uint64_t end = out->ranges[r][0] + out->ranges[r][1];
            if (end > out->ranges[w - 1][0] + out->ranges[w - 1][1])
                out->ranges[w - 1][1] = end - out->ranges[w - 1][0];
        } else {
            out->ranges[w][0] = out->ranges[r][0];
            out->ranges[w++][1] = out->ranges[r][1];
        }
    }
    out->nranges = w;
    for (size_t r = 0; r < w; r++)
        out->elems += out->ranges[r][1];
}

int eng_sample_plan(const struct eng_manifest *m, const struct eng_values *v, const unsigned grid[3],
                    const unsigned rgrid[3], struct eng_sample *out, char *why, size_t whylen)
{
    memset(out, 0, sizeof *out);
    if (sample_output(m, grid, rgrid, out, why, whylen) != 0)
        return -1;
    const struct eng_buffer_spec *b = &m->buffers[out->out];
    struct geom g;
    if (output_geom(b, v, &g, why, whylen) != 0 || grid_walks(m, v, b, grid, &g, why, whylen) != 0)
        return -1;
    uint64_t at[10];
    size_t nat = cliff_elements(&g, out, at);
    pick_blocks(&g, grid, at, nat, out);
    size_t cap = 64;
    out->ranges = xcalloc(cap, sizeof *out->ranges);
    for (size_t k = 0; k < out->nblocks; k++)
        if (tile_segments(&g, grid, out->blocks[k], out, &cap) != 0) {
            snprintf(why, whylen, "the sampled tiles of output %s make more than %zu segments",
                     b->name, MAX_RANGES);
            eng_sample_free(out);
            return -1;
        }
    merge_ranges(out);
    return 0;
}

void eng_sample_free(struct eng_sample *s)
{
    free(s->blocks);
    free(s->ranges);
    memset(s, 0, sizeof *s);
}
