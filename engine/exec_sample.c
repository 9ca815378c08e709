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

int eng_sample_plan(const struct eng_manifest *m, const struct eng_values *v, const unsigned grid[3],
                    const unsigned rgrid[3], struct eng_sample *out, char *why, size_t whylen)
{
    memset(out, 0, sizeof *out);
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
    const struct eng_buffer_spec *b = &m->buffers[out->out];
    size_t nd = b->ndims;
    if (nd < 1 || nd > 4) {
        snprintf(why, whylen, "a block sample needs an output of 1 to 4 dimensions");
        return -1;
    }
    uint64_t l[4] = {1, 1, 1, 1}, p[4] = {1, 1, 1, 1}, tile[4], es = eng_dtype_size(b->dtype);
    int walks[4] = {-1, -1, -1, -1}; /* the grid dimension that walks each output dimension */
    for (size_t d = 0; d < nd; d++) {
        int64_t dim, pad = 1;
        char msg[256];
        if (eng_values_eval(v, b->dims[d], &dim, msg, sizeof msg) ||
            (b->pad_to[d] && eng_values_eval(v, b->pad_to[d], &pad, msg, sizeof msg))) {
            snprintf(why, whylen, "%s", msg);
            return -1;
        }
        l[d] = (uint64_t)dim;
        p[d] = ((uint64_t)dim + (uint64_t)pad - 1) / (uint64_t)pad * (uint64_t)pad;
        tile[d] = p[d];
    }
    uint64_t total = 1;
    for (size_t d = 0; d < nd; d++)
        total *= p[d];
    for (int g = 0; g < 3; g++) {
        if (grid[g] <= 1)
            continue;
        int found = -1;
        for (size_t d = 0; d < nd && found < 0; d++)
            if (is_ident(b->dims[d]) && names(m->launch.grid[g], b->dims[d]))
                found = (int)d;
        if (found < 0 || walks[found] >= 0) {
            snprintf(why, whylen, "grid[%d] (\"%s\") walks no dimension of output %s of its own",
                     g, m->launch.grid[g], b->name);
            return -1;
        }
        walks[found] = g;
        tile[found] = tile_of(v, m->launch.grid[g], b->dims[found]);
        if (!tile[found] || (p[found] + tile[found] - 1) / tile[found] != grid[g]) {
            snprintf(why, whylen, "grid[%d] (\"%s\") does not give one block per tile of %s",
                     g, m->launch.grid[g], b->dims[found]);
            return -1;
        }
    }
    /* The elements whose tiles are sampled: first and last, and each side of each cliff: at
     * 2^31 and 2^32 bytes (a byte offset in 32 bits) and, for elements wider than a byte, at
     * 2^31 and 2^32 elements (an element index in 32 bits). */
    uint64_t at[10];
    size_t nat = 0;
    at[nat++] = 0;
    at[nat++] = total - 1;
    uint64_t per[2] = {es, 1}; /* bytes per unit: a byte cliff, then an element cliff */
    for (int c = 31; c <= 32; c++)
        for (int u = 0; u < (es > 1 ? 2 : 1); u++) {
            uint64_t e = (1ull << c) / per[u];
            if (e < total) {
                at[nat++] = e - 1;
                at[nat++] = e;
                out->element_cliffs |= u == 1;
            }
        }
    uint64_t picks[3][10];
    size_t npick[3] = {0, 0, 0};
    for (int g = 0; g < 3; g++)
        if (grid[g] <= 1)
            picks[g][npick[g]++] = 0;
    for (size_t a = 0; a < nat; a++) {
        uint64_t rest = at[a];
        for (size_t d = nd; d-- > 0;) {
            uint64_t coord = rest % p[d];
            rest /= p[d];
            if (walks[d] >= 0)
                add_unique(picks[walks[d]], &npick[walks[d]], coord / tile[d]);
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
    /* Each sampled block's tile as row segments of the output: the last dimension is the
     * segment, every other dimension is walked. Dimensions no grid walks are whole. */
    size_t cap = 64;
    out->ranges = xcalloc(cap, sizeof *out->ranges);
    for (size_t k = 0; k < out->nblocks; k++) {
        uint64_t id = out->blocks[k];
        uint64_t bidx[3] = {id % grid[0], id / grid[0] % grid[1], id / ((uint64_t)grid[0] * grid[1])};
        uint64_t lo[4], hi[4];
        for (size_t d = 0; d < nd; d++) {
            lo[d] = walks[d] >= 0 ? bidx[walks[d]] * tile[d] : 0;
            hi[d] = walks[d] >= 0 ? lo[d] + tile[d] : l[d];
            if (hi[d] > l[d])
                hi[d] = l[d];
            if (lo[d] >= hi[d])
                goto next_block; /* a tile wholly in the padding: nothing to compare */
        }
        uint64_t idx[4];
        memcpy(idx, lo, sizeof idx);
        for (;;) {
            uint64_t flat = 0;
            for (size_t d = 0; d < nd; d++)
                flat = flat * p[d] + (d + 1 == nd ? lo[d] : idx[d]);
            if (out->nranges == cap)
                out->ranges = xrealloc(out->ranges, (cap *= 2) * sizeof *out->ranges);
            out->ranges[out->nranges][0] = flat;
            out->ranges[out->nranges++][1] = hi[nd - 1] - lo[nd - 1];
            if (out->nranges > MAX_RANGES) {
                snprintf(why, whylen, "the sampled tiles of output %s make more than %zu segments",
                         b->name, MAX_RANGES);
                eng_sample_free(out);
                return -1;
            }
            size_t d = nd - 1;
            while (d-- > 0) {
                if (++idx[d] < hi[d])
                    break;
                idx[d] = lo[d];
            }
            if (d == (size_t)-1)
                break;
        }
    next_block:;
    }
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
    return 0;
}

void eng_sample_free(struct eng_sample *s)
{
    free(s->blocks);
    free(s->ranges);
    memset(s, 0, sizeof *s);
}
