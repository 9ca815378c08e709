/* Rung 3's offline code-object check (engine/rungs/rung3.h): build for an AMD target, read the code
 * object (engine/codeobj/amdgpu_co.h), compare the kernel with the target and the suite. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/embed.h"
#include "common/xalloc.h"
#include "engine/codeobj/amd_disasm.h"
#include "engine/codeobj/amdgpu_co.h"
#include "engine/backend/backend.h"
#include "engine/cache/cache.h"
#include "engine/rungs/rung3.h"
#include "engine/compile/plain_source.h"

/* Per-workgroup LDS bytes (the limits clang-22 itself enforces: "local memory (N) exceeds limit
 * (L)") and VGPRs addressable per lane (gfx90a/gfx942/gfx950: one 512-entry file shared by
 * VGPRs and AGPRs; gfx1250 addresses 1024; other gfx10+ processors 256). */
static const struct {
    const char *processor;
    int64_t lds, vgprs;
} limits[] = {
    {"gfx1250", 327680, 1024}, {"gfx1251", 327680, 1024}, {"gfx950", 163840, 512},
    {"gfx942", 65536, 512},    {"gfx90a", 65536, 512},    {"gfx1030", 65536, 256},
};

struct report {
    char *d;
    size_t cap;
    bool failed;
};

static void say(struct report *r, bool bad, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void say(struct report *r, bool bad, const char *fmt, ...)
{
    size_t len = strlen(r->d);
    if (len + 8 >= r->cap)
        return;
    if (len)
        len += (size_t)snprintf(r->d + len, r->cap - len, "; ");
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(r->d + len, r->cap - len, fmt, ap);
    va_end(ap);
    r->failed |= bad;
}

/* What one check of a build carries from step to step. */
struct code_check {
    const struct eng_manifest *m;
    const struct eng_rung3_spec *r3;
    const struct eng_backend *B;
    const char *target, *entry;
    const struct eng_shape *tiles;
    struct eng_check_result *out;
    char defs[4][96];
    const char *flags[5];
    size_t nflags;
    char err[512];
    void *code; /* the built code object, owned */
    size_t len;
    struct amdgpu_co co; /* read from code; owned once read */
    const struct amdgpu_kernel *k;
    struct report rep;
};

/* The tiles this build fixes (rungs.3.tile_builds): -DKL_TILE_<param>=<value> each, also named
 * in the result's shape after the target. */
static void add_tile_builds(struct code_check *c)
{
    const struct eng_shape *tiles = c->tiles;
    struct eng_check_result *out = c->out;
    for (size_t i = 0; tiles && i < tiles->n && c->nflags < 4; i++)
        for (size_t k = 0; k < c->r3->ntile_builds; k++)
            if (!strcmp(tiles->keys[i], c->r3->tile_builds[k])) {
                snprintf(c->defs[c->nflags], sizeof c->defs[c->nflags], "-DKL_TILE_%.40s=%lld",
                         tiles->keys[i], (long long)tiles->values[i]);
                c->flags[c->nflags] = c->defs[c->nflags];
                c->nflags++;
                size_t sl = strlen(out->shape);
                snprintf(out->shape + sl, sizeof out->shape - sl, " %.40s=%lld", tiles->keys[i],
                         (long long)tiles->values[i]);
            }
}

/* False (the check skipped, with the reason) when no compiler here builds for the target. */
static bool compiler_available(struct code_check *c)
{
    struct eng_check_result *out = c->out;
    char why[2048] = "";
    bool loaded = c->B->load(why, sizeof why) == 0;
    if (c->B->compiler_for(c->target))
        return true;
    out->verdict = CDB_SKIP;
    snprintf(out->detail, sizeof out->detail, "no compiler here builds for %s: the installed "
             "hipRTC lacks it%s%.1200s, and clang-22 is not installed (KLADDER_CLANG)", c->target,
             loaded ? "" : " (", loaded ? "" : why);
    if (!loaded)
        strncat(out->detail, ")", sizeof out->detail - strlen(out->detail) - 1);
    return false;
}

/* Builds the suite's source for the target into c->code. On failure the verdict and detail are
 * set and nothing is left to free. */
static int build_code_object(struct code_check *c)
{
    struct eng_check_result *out = c->out;
    const struct embed_file *h = embed_find("kernels/kl.h");
    char *src = eng_suite_source(c->m, c->B->caps.emulated, c->err, sizeof c->err);
    if (!src || !h) {
        out->verdict = CDB_ERROR;
        snprintf(out->detail, sizeof out->detail, "setup: %s",
                 h ? c->err : "kernels/kl.h is not built in");
        free(src);
        return -1;
    }
    char *log = xmalloc(16384);
    log[0] = '\0';
    int rc = eng_compile_cached(c->B, c->target, c->m->source, (const char *)h->data, src,
                                c->flags, &c->code, &c->len, NULL, log, 16384);
    free(src);
    if (rc != 0) {
        /* A kernel that does not build for a target it is meant for is an error of this
         * check: nothing was judged, and no other variant's build makes it a doubt. */
        out->verdict = CDB_ERROR;
        snprintf(out->detail, sizeof out->detail, "%s does not compile for %s: %.1200s",
                 c->m->source, c->target, log);
    }
    free(log);
    return rc != 0 ? -1 : 0;
}

/* Reads c->code into c->co and finds the entry kernel. On failure the verdict and detail are
 * set and c->co is not left to free (c->code still is). */
static int find_kernel(struct code_check *c)
{
    struct eng_check_result *out = c->out;
    if (amdgpu_co_read(c->code, c->len, &c->co, c->err, sizeof c->err) != 0) {
        out->verdict = CDB_ERROR;
        snprintf(out->detail, sizeof out->detail, "the %s code object of %s: %s", c->target,
                 c->m->source, c->err);
        return -1;
    }
    for (size_t i = 0; i < c->co.nkernels && !c->k; i++)
        if (!strcmp(c->co.kernels[i].name, c->entry))
            c->k = &c->co.kernels[i];
    if (!c->k) {
        out->verdict = CDB_ERROR;
        snprintf(out->detail, sizeof out->detail, "the %s code object has no kernel %s", c->target,
                 c->entry);
        amdgpu_co_free(&c->co);
        return -1;
    }
    return 0;
}

/* wave: the code object against the pinned wave (or the target's own), and against the wave
 * the kernel says it assumes. */
static void check_wave(struct code_check *c)
{
    const struct amdgpu_kernel *k = c->k;
    const struct eng_rung3_spec *r3 = c->r3;
    int want = r3->wave ? r3->wave : amdgpu_default_wave(c->target);
    char sa[192], sb[192];
    if (want && k->wavefront_size != want) {
        say(&c->rep, true, "the %s code object runs wave %lld, %s %d", c->target,
            (long long)k->wavefront_size, r3->wave ? "the suite pins wave" : "the target's wave is",
            want);
        snprintf(sa, sizeof sa, "%s code object of %s: wave %lld", c->target, c->entry,
                 (long long)k->wavefront_size);
        snprintf(sb, sizeof sb, "%s %s: wave %d", r3->wave ? "suite" : "target",
                 r3->wave ? c->m->name : c->target, want);
        eng_check_seam(c->out, "wave", sa, sb);
    }
    if (k->assumed_wave > 0 && k->assumed_wave != k->wavefront_size) {
        say(&c->rep, true, "kernel %s assumes wave %d (KL_ASSUME_WAVE), the %s code object runs "
            "wave %lld", c->entry, k->assumed_wave, c->target, (long long)k->wavefront_size);
        snprintf(sa, sizeof sa, "kernel %s assumes: wave %d", c->entry, k->assumed_wave);
        snprintf(sb, sizeof sb, "%s code object: wave %lld", c->target,
                 (long long)k->wavefront_size);
        eng_check_seam(c->out, "wave", sa, sb);
    }
}

/* resources against the target's limits and the launch at the default shape */
static void check_resources(struct code_check *c)
{
    const struct amdgpu_kernel *k = c->k;
    int64_t lds_max = 65536, vgpr_max = 256;
    for (size_t i = 0; i < sizeof limits / sizeof *limits; i++)
        if (!strcmp(limits[i].processor, c->co.processor))
            lds_max = limits[i].lds, vgpr_max = limits[i].vgprs;
    unsigned grid[3], block[3], shared = 0;
    struct eng_values v;
    int64_t threads = -1;
    if (eng_values_make(c->m, c->tiles, NULL, NULL, &v, c->err, sizeof c->err) == 0) {
        if (eng_launch_eval(c->m, false, &v, grid, block, &shared, c->err, sizeof c->err) == 0)
            threads = (int64_t)block[0] * block[1] * block[2];
        eng_values_free(&v);
    }
    int64_t lds = k->group_segment_fixed_size + (int64_t)shared;
    say(&c->rep, lds > lds_max, "LDS %lld of %lld bytes", (long long)lds, (long long)lds_max);
    int64_t regs = k->vgpr_count + (k->agpr_count > 0 ? k->agpr_count : 0);
    say(&c->rep, regs > vgpr_max, "%lld VGPRs of %lld", (long long)regs, (long long)vgpr_max);
    if (threads >= 0)
        say(&c->rep, threads > k->max_flat_workgroup_size, "workgroup %lld of %lld threads",
            (long long)threads, (long long)k->max_flat_workgroup_size);
    bool spills = k->private_segment_fixed_size > 0 || k->vgpr_spill_count > 0 ||
                  k->sgpr_spill_count > 0;
    say(&c->rep, c->r3->no_spills && spills, "scratch %lld bytes (%lld VGPR, %lld SGPR spills)%s",
        (long long)k->private_segment_fixed_size, (long long)k->vgpr_spill_count,
        (long long)k->sgpr_spill_count,
        c->r3->no_spills && spills ? ", the suite says no spills" : "");
}

/* instruction classes the suite requires or forbids on this target. Returns -1 when they
 * cannot be counted: the verdict is then a skip, with the reason as the detail. */
static int check_isa(struct code_check *c)
{
    const struct eng_rung3_isa *isa = NULL;
    for (size_t i = 0; i < c->r3->nisa; i++)
        if (!strcmp(c->r3->isa[i].target, c->target))
            isa = &c->r3->isa[i];
    if (!isa)
        return 0;
    size_t n = isa->nrequire + isa->nforbid;
    const char **pre = xcalloc(n + 1, sizeof *pre);
    size_t *cnt = xcalloc(n + 1, sizeof *cnt);
    for (size_t i = 0; i < isa->nrequire; i++)
        pre[i] = isa->require[i];
    for (size_t i = 0; i < isa->nforbid; i++)
        pre[isa->nrequire + i] = isa->forbid[i];
    int rc = amd_disasm_count(c->code, c->len, c->entry, pre, n, cnt, c->err, sizeof c->err);
    if (rc != 0) {
        /* Never passed unchecked: without a disassembler the whole check is a skip. */
        c->out->verdict = CDB_SKIP;
        snprintf(c->out->detail, sizeof c->out->detail, "the ISA check cannot run: %s", c->err);
    }
    for (size_t i = 0; rc == 0 && i < n; i++) {
        bool req = i < isa->nrequire;
        if (req)
            say(&c->rep, cnt[i] == 0, "%zu %s* instruction%s (required)", cnt[i], pre[i],
                cnt[i] == 1 ? "" : "s");
        else
            say(&c->rep, cnt[i] > 0, "%zu %s* instruction%s (forbidden)", cnt[i], pre[i],
                cnt[i] == 1 ? "" : "s");
    }
    free(pre);
    free(cnt);
    return rc != 0 ? -1 : 0;
}

/* The processor, the tiles and the wave in front of the findings. */
static void prepend_head(struct code_check *c)
{
    struct eng_check_result *out = c->out;
    char head[160];
    snprintf(head, sizeof head, "%s%s%s wave %lld: ", c->co.processor, c->nflags ? " " : "",
             c->nflags ? out->shape + strlen(c->target) + 1 : "",
             (long long)c->k->wavefront_size);
    size_t hl = strlen(head), dl = strlen(out->detail);
    if (hl + dl < sizeof out->detail) {
        memmove(out->detail + hl, out->detail, dl + 1);
        memcpy(out->detail, head, hl);
    }
}

void eng_rung3_code_check(const struct eng_check_spec *s, const struct eng_manifest *m,
                          const char *target, struct eng_check_result *out)
{
    struct code_check c = {
        .m = m,
        .r3 = m->settings[3],
        .B = &eng_backend_hip,
        .target = target,
        .entry = strcmp(s->variant, "buggy") == 0 ? m->entry_buggy : m->entry_fixed,
        .tiles = s->nshapes ? &s->shapes[0] : NULL,
        .out = out,
    };
    snprintf(out->oracle, sizeof out->oracle, "code-object");
    snprintf(out->shape, sizeof out->shape, "%s", target);
    add_tile_builds(&c);
    if (s->code_object) {
        out->verdict = CDB_SKIP;
        snprintf(out->detail, sizeof out->detail, "this check builds the source for %s%s: the "
                 "prebuilt code object %.900s cannot be rebuilt (kladder inspect reads its own "
                 "kernels)", target, s->nshapes && s->shapes[0].n ? " at this tile" : "",
                 s->code_object);
        return;
    }
    if (!compiler_available(&c) || build_code_object(&c) != 0)
        return;
    if (find_kernel(&c) != 0) {
        free(c.code);
        return;
    }
    c.rep = (struct report){out->detail, sizeof out->detail, false};
    out->detail[0] = '\0';
    check_wave(&c);
    check_resources(&c);
    if (check_isa(&c) == 0) {
        prepend_head(&c);
        out->verdict = c.rep.failed ? CDB_FAIL : CDB_PASS;
    }
    free(c.code);
    amdgpu_co_free(&c.co);
}
