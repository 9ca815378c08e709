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

void eng_rung3_code_check(const struct eng_check_spec *s, const struct eng_manifest *m,
                          const char *target, struct eng_check_result *out)
{
    const struct eng_rung3_spec *r3 = m->settings[3];
    const struct eng_backend *B = &eng_backend_hip;
    const char *entry = strcmp(s->variant, "buggy") == 0 ? m->entry_buggy : m->entry_fixed;
    snprintf(out->oracle, sizeof out->oracle, "code-object");
    /* The tiles this build fixes (rungs.3.tile_builds): -DKL_TILE_<param>=<value> each. */
    const struct eng_shape *tiles = s->nshapes ? &s->shapes[0] : NULL;
    char defs[4][96];
    const char *flags[5] = {NULL};
    size_t nflags = 0;
    snprintf(out->shape, sizeof out->shape, "%s", target);
    for (size_t i = 0; tiles && i < tiles->n && nflags < 4; i++)
        for (size_t k = 0; k < r3->ntile_builds; k++)
            if (!strcmp(tiles->keys[i], r3->tile_builds[k])) {
                snprintf(defs[nflags], sizeof defs[nflags], "-DKL_TILE_%.40s=%lld",
                         tiles->keys[i], (long long)tiles->values[i]);
                flags[nflags] = defs[nflags];
                nflags++;
                size_t sl = strlen(out->shape);
                snprintf(out->shape + sl, sizeof out->shape - sl, " %.40s=%lld", tiles->keys[i],
                         (long long)tiles->values[i]);
            }
    char why[2048] = "";
    bool loaded = B->load(why, sizeof why) == 0;
    if (!B->compiler_for(target)) {
        out->verdict = CDB_SKIP;
        snprintf(out->detail, sizeof out->detail, "no compiler here builds for %s: the installed "
                 "hipRTC lacks it%s%.1200s, and clang-22 is not installed (KLADDER_CLANG)", target,
                 loaded ? "" : " (", loaded ? "" : why);
        if (!loaded)
            strncat(out->detail, ")", sizeof out->detail - strlen(out->detail) - 1);
        return;
    }
    const struct embed_file *h = embed_find("kernels/kl.h");
    char err[512];
    char *src = eng_manifest_source(m, err, sizeof err);
    if (!src || !h) {
        out->verdict = CDB_ERROR;
        snprintf(out->detail, sizeof out->detail, "setup: %s", h ? err : "kernels/kl.h is not built in");
        free(src);
        return;
    }
    void *code = NULL;
    size_t len = 0;
    char *log = xmalloc(16384);
    log[0] = '\0';
    int rc = eng_compile_cached(B, target, m->source, (const char *)h->data, src, flags, &code,
                                &len, NULL, log, 16384);
    free(src);
    if (rc != 0) {
        /* A kernel that does not build for a target it is meant for is a seam failure. */
        out->verdict = CDB_FAIL;
        snprintf(out->detail, sizeof out->detail, "%s does not compile for %s: %.1200s",
                 m->source, target, log);
        free(log);
        return;
    }
    free(log);
    struct amdgpu_co co;
    if (amdgpu_co_read(code, len, &co, err, sizeof err) != 0) {
        out->verdict = CDB_ERROR;
        snprintf(out->detail, sizeof out->detail, "the %s code object of %s: %s", target,
                 m->source, err);
        free(code);
        return;
    }
    const struct amdgpu_kernel *k = NULL;
    for (size_t i = 0; i < co.nkernels && !k; i++)
        if (!strcmp(co.kernels[i].name, entry))
            k = &co.kernels[i];
    if (!k) {
        out->verdict = CDB_ERROR;
        snprintf(out->detail, sizeof out->detail, "the %s code object has no kernel %s", target,
                 entry);
        amdgpu_co_free(&co);
        free(code);
        return;
    }
    struct report rep = {out->detail, sizeof out->detail, false};
    out->detail[0] = '\0';
    /* wave: the code object against the pinned wave (or the target's own), and against the
     * wave the kernel says it assumes. */
    int want = r3->wave ? r3->wave : amdgpu_default_wave(target);
    char sa[192], sb[192];
    if (want && k->wavefront_size != want) {
        say(&rep, true, "the %s code object runs wave %lld, %s %d", target,
            (long long)k->wavefront_size, r3->wave ? "the suite pins wave" : "the target's wave is",
            want);
        snprintf(sa, sizeof sa, "%s code object of %s: wave %lld", target, entry,
                 (long long)k->wavefront_size);
        snprintf(sb, sizeof sb, "%s %s: wave %d", r3->wave ? "suite" : "target",
                 r3->wave ? m->name : target, want);
        eng_check_seam(out, "wave", sa, sb);
    }
    if (k->assumed_wave > 0 && k->assumed_wave != k->wavefront_size) {
        say(&rep, true, "kernel %s assumes wave %d (KL_ASSUME_WAVE), the %s code object runs "
            "wave %lld", entry, k->assumed_wave, target, (long long)k->wavefront_size);
        snprintf(sa, sizeof sa, "kernel %s assumes: wave %d", entry, k->assumed_wave);
        snprintf(sb, sizeof sb, "%s code object: wave %lld", target, (long long)k->wavefront_size);
        eng_check_seam(out, "wave", sa, sb);
    }
    /* resources against the target's limits and the launch at the default shape */
    int64_t lds_max = 65536, vgpr_max = 256;
    for (size_t i = 0; i < sizeof limits / sizeof *limits; i++)
        if (!strcmp(limits[i].processor, co.processor))
            lds_max = limits[i].lds, vgpr_max = limits[i].vgprs;
    unsigned grid[3], block[3], shared = 0;
    struct eng_values v;
    int64_t threads = -1;
    if (eng_values_make(m, tiles, NULL, NULL, &v, err, sizeof err) == 0) {
        if (eng_launch_eval(m, false, &v, grid, block, &shared, err, sizeof err) == 0)
            threads = (int64_t)block[0] * block[1] * block[2];
        eng_values_free(&v);
    }
    int64_t lds = k->group_segment_fixed_size + (int64_t)shared;
    say(&rep, lds > lds_max, "LDS %lld of %lld bytes", (long long)lds, (long long)lds_max);
    int64_t regs = k->vgpr_count + (k->agpr_count > 0 ? k->agpr_count : 0);
    say(&rep, regs > vgpr_max, "%lld VGPRs of %lld", (long long)regs, (long long)vgpr_max);
    if (threads >= 0)
        say(&rep, threads > k->max_flat_workgroup_size, "workgroup %lld of %lld threads",
            (long long)threads, (long long)k->max_flat_workgroup_size);
    bool spills = k->private_segment_fixed_size > 0 || k->vgpr_spill_count > 0 ||
                  k->sgpr_spill_count > 0;
    say(&rep, r3->no_spills && spills, "scratch %lld bytes (%lld VGPR, %lld SGPR spills)%s",
        (long long)k->private_segment_fixed_size, (long long)k->vgpr_spill_count,
        (long long)k->sgpr_spill_count, r3->no_spills && spills ? ", the suite says no spills" : "");
    /* instruction classes the suite requires or forbids on this target */
    const struct eng_rung3_isa *isa = NULL;
    for (size_t i = 0; i < r3->nisa; i++)
        if (!strcmp(r3->isa[i].target, target))
            isa = &r3->isa[i];
    if (isa) {
        size_t n = isa->nrequire + isa->nforbid;
        const char **pre = xcalloc(n + 1, sizeof *pre);
        size_t *cnt = xcalloc(n + 1, sizeof *cnt);
        for (size_t i = 0; i < isa->nrequire; i++)
            pre[i] = isa->require[i];
        for (size_t i = 0; i < isa->nforbid; i++)
            pre[isa->nrequire + i] = isa->forbid[i];
        if (amd_disasm_count(code, len, entry, pre, n, cnt, err, sizeof err) != 0) {
            /* Never passed unchecked: without a disassembler the whole check is a skip. */
            out->verdict = CDB_SKIP;
            snprintf(out->detail, sizeof out->detail, "the ISA check cannot run: %s", err);
            free(pre);
            free(cnt);
            free(code);
            amdgpu_co_free(&co);
            return;
        }
        for (size_t i = 0; i < n; i++) {
            bool req = i < isa->nrequire;
            if (req)
                say(&rep, cnt[i] == 0, "%zu %s* instruction%s (required)", cnt[i], pre[i],
                    cnt[i] == 1 ? "" : "s");
            else
                say(&rep, cnt[i] > 0, "%zu %s* instruction%s (forbidden)", cnt[i], pre[i],
                    cnt[i] == 1 ? "" : "s");
        }
        free(pre);
        free(cnt);
    }
    free(code);
    char head[160];
    snprintf(head, sizeof head, "%s%s%s wave %lld: ", co.processor, nflags ? " " : "",
             nflags ? out->shape + strlen(target) + 1 : "", (long long)k->wavefront_size);
    size_t hl = strlen(head), dl = strlen(out->detail);
    if (hl + dl < sizeof out->detail) {
        memmove(out->detail + hl, out->detail, dl + 1);
        memcpy(out->detail, head, hl);
    }
    out->verdict = rep.failed ? CDB_FAIL : CDB_PASS;
    amdgpu_co_free(&co);
}
