/* The wide arbiter of a check (engine/exec/exec_internal.h): the suite's own reference compiled with
 * its kl_acc accumulators as double, run on the same inputs. A kernel that disagrees with the
 * fp32 reference is judged against it: the closer one is the right one (PyTorch's reference
 * tests recompute in float64 the same way). Built only when a judge needs it, so checks that
 * agree with the reference never pay for it. */
#include "engine/exec/exec_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/xalloc.h"
#include "engine/compile/compile_spec.h"
#include "engine/compile/plain_source.h"
#include "engine/session/session.h"

/* The reasons known before any build that there is no arbiter: 1 (why in j), 0 with the
 * suite's source in *src (the caller frees it), -1. */
static int arbiter_missing(struct eng_exec *e, struct eng_judge *j, char **src_out)
{
    *src_out = NULL;
    if (e->host) {
        snprintf(j->arb_why, sizeof j->arb_why, "the reference is the caller's own function, which "
                 "kladder cannot rebuild with double accumulators");
        return 1;
    }
    if (e->s->code_object) {
        snprintf(j->arb_why, sizeof j->arb_why, "the kernels come as a prebuilt code object, whose "
                 "reference kladder cannot rebuild with double accumulators");
        return 1;
    }
    char *src = eng_suite_source(e->m, e->B->caps.emulated, e->err, sizeof e->err);
    if (!src)
        return -1;
    if (!eng_manifest_uses_acc(src) && e->m->builtin) {
        /* a reproducer of kladder's own: nothing for the user to declare */
        snprintf(j->arb_why, sizeof j->arb_why, "the built-in reference %s declares no kl_acc "
                 "accumulators, so kladder has no wider build of it to ask",
                 e->m->entry_reference);
        free(src);
        return 1;
    }
    if (!eng_manifest_uses_acc(src)) {
        /* what the source says, not a guess at its arithmetic: a reference may sum in double
         * already, and is then still one reference with no wider second build to ask */
        snprintf(j->arb_why, sizeof j->arb_why, "the reference %s declares no kl_acc "
                 "accumulators, so kladder has no wider build of it to ask; declare them with the "
                 "type kl_acc (kladder defines it: float here, double in a second build of the "
                 "reference) and kladder weighs a close call against that wider result",
                 e->m->entry_reference);
        free(src);
        return 1;
    }
    *src_out = src;
    return 0;
}

bool eng_exec_arbiter_absent(struct eng_exec *e, struct eng_judge *j)
{
    if (j->arb)
        return false;
    if (j->arb_tried)
        return j->arb_why[0] != '\0';
    char *src = NULL;
    int rc = arbiter_missing(e, j, &src);
    free(src);
    return rc == 1;
}

/* The arbiter build of the suite's source for this check: 0 with *mod, 1 (none: why in j), -1. */
static int arbiter_module(struct eng_exec *e, struct eng_judge *j, struct eng_module **mod)
{
    char *src = NULL;
    int miss = arbiter_missing(e, j, &src);
    if (miss != 0)
        return miss;
    if (e->m->nspecialize) {
        char desc[200];
        char *pre = eng_spec_prelude(e->m, e->s, desc, sizeof desc, e->err, sizeof e->err);
        char *full = pre ? xasprintf("%s%s", pre, src) : NULL;
        free(pre);
        free(src);
        if (!full)
            return -1;
        src = full;
    }
    static const char *const flags[] = {"-DKL_ARBITER=1", NULL};
    const void *code;
    size_t len;
    char log[4096] = "";
    int rc = eng_session_code(e->B, e->target, e->m->source, src, flags, &code, &len, log, sizeof log);
    free(src);
    if (rc != 0) {
        char first[150];
        eng_compile_first_error(log, first, sizeof first);
        snprintf(j->arb_why, sizeof j->arb_why, "the reference's build with double accumulators "
                 "does not compile: %s", first);
        return 1;
    }
    return e->B->module_load(e->ctx, code, len, mod, e->err, sizeof e->err);
}

/* Writes the reference's outputs read earlier back to the device. */
static int restore_ref(struct eng_exec *e, struct eng_inst *in, struct eng_judge *j, struct eng_stream *s)
{
    for (size_t b = 0; b < e->m->nbuffers; b++)
        if (j->ref[b])
            ENG_TRY(e->B->memcpy_htod(e->ctx, in->ref[b].data, j->ref[b],
                                      (size_t)in->ref[b].padded_bytes, s, e->err, sizeof e->err));
    return 0;
}

int eng_exec_arbiter(struct eng_exec *e, struct eng_inst *in, struct eng_judge *j, struct eng_stream *s)
{
    if (j->arb_tried)
        return 0;
    j->arb_tried = true;
    const struct eng_manifest *m = e->m;
    for (size_t b = 0; b < m->nbuffers; b++)
        if (m->buffers[b].role == ENG_ROLE_OUTPUT)
            ENG_TRY(eng_exec_judge_read(e, in, j, b, s));
    struct eng_module *mod = NULL;
    struct eng_kernel *k = NULL, *plain = e->kref;
    int rc = arbiter_module(e, j, &mod);
    if (rc != 0)
        return rc < 0 ? -1 : 0;
    if (e->B->kernel_get(e->ctx, mod, m->entry_reference, &k, e->err, sizeof e->err) != 0)
        goto fail;
    e->kref = k;
    rc = eng_exec_prepare_outputs_of(e, in, ENG_OUT_SENTINEL, 2, s) ||
         eng_exec_reset_scratch(e, in, 2, s) || eng_exec_launch_ref(e, in, s) ||
         eng_exec_sync_all(e, s);
    e->kref = plain;
    if (rc)
        goto fail;
    j->arb = xcalloc(m->nbuffers, sizeof *j->arb);
    for (size_t b = 0; b < m->nbuffers; b++) {
        if (m->buffers[b].role != ENG_ROLE_OUTPUT)
            continue;
        j->arb[b] = xmalloc(in->ref[b].padded_bytes ? (size_t)in->ref[b].padded_bytes : 1);
        if (e->B->memcpy_dtoh(e->ctx, j->arb[b], in->ref[b].data, (size_t)in->ref[b].padded_bytes,
                              s, e->err, sizeof e->err) != 0)
            goto fail;
    }
    e->B->module_unload(e->ctx, mod);
    return restore_ref(e, in, j, s);
fail:
    e->kref = plain;
    e->B->module_unload(e->ctx, mod);
    return -1;
}
