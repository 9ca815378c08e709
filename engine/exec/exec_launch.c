/* Launching on the device for a check: the utility kernels over a number of work items, the
 * result words they leave, the variant's and the reference's launches (a block sample where
 * the instance has one) or an op's on the host's side, and waiting for it all. */
#include "engine/exec.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/xalloc.h"
#include "engine/exec/phase_time.h"

/* Up to this many work items, a utility launch on an emulated backend is one block. The
 * backend runs a launch of one block on the calling thread and hands a larger one to its own
 * threads and back; for a small check's few thousand elements that hand-over cost more than
 * the work. Every utility kernel is a grid-stride loop whose results (counts, first indices,
 * maxima, sums) come out the same over any number of blocks, so only the time changes. */
#define EMULATED_ONE_BLOCK ((uint64_t)1 << 20)

int eng_exec_ulaunch(struct eng_exec *e, struct eng_kernel *k, uint64_t work, struct eng_stream *s,
                     void **args)
{
    uint64_t blocks = (work + e->ublock - 1) / e->ublock;
    if (blocks < 1 || (e->B->caps.emulated && work <= EMULATED_ONE_BLOCK))
        blocks = 1;
    if (blocks > e->ugrid)
        blocks = e->ugrid;
    unsigned g[3] = {(unsigned)blocks, 1, 1}, b[3] = {e->ublock, 1, 1};
    return e->B->launch(e->ctx, k, g, b, 0, s, args, e->err, sizeof e->err);
}

int eng_exec_res_clear(struct eng_exec *e, struct eng_stream *s)
{
    return e->B->memset_d8(e->ctx, e->res, 0, ENG_RES_WORDS * 8, s, e->err, sizeof e->err);
}

int eng_exec_res_read(struct eng_exec *e, uint64_t *r, struct eng_stream *s)
{
    return e->B->memcpy_dtoh(e->ctx, r, e->res, ENG_RES_WORDS * 8, s, e->err, sizeof e->err);
}

int eng_exec_sync_all(struct eng_exec *e, struct eng_stream *s)
{
    if (s)
        ENG_TRY(e->B->stream_sync(e->ctx, s, e->err, sizeof e->err));
    return e->B->stream_sync(e->ctx, NULL, e->err, sizeof e->err);
}

/* An op on the host's side: the device idle first (it may run on a stream of its own), then
 * the buffers as the launch's arguments hold them. */
static int launch_host(struct eng_exec *e, struct eng_inst *in, bool reference,
                       struct eng_stream *s)
{
    const struct eng_manifest *m = e->m;
    if (in->sampled) {
        snprintf(e->err, sizeof e->err, "an op on the host's side cannot run a block sample");
        return -1;
    }
    ENG_TRY(eng_exec_sync_all(e, s));
    eng_phase_mark(reference ? "ref-sync" : "op-sync");
    eng_dptr *ptrs = xcalloc(m->nbuffers + 1, sizeof *ptrs);
    void **args = reference ? in->args_ref : in->args_var;
    size_t nargs;
    const struct eng_arg *list = eng_manifest_args(m, reference, &nargs);
    for (size_t i = 0; i < nargs; i++)
        if (list[i].buffer >= 0)
            memcpy(&ptrs[list[i].buffer], args[i], sizeof *ptrs);
    int rc = e->host->launch(e->host->arg, reference, e, in, ptrs, e->err, sizeof e->err);
    free(ptrs);
    return rc;
}

int eng_exec_launch_var(struct eng_exec *e, struct eng_inst *in, struct eng_stream *s)
{
    if (e->host)
        return launch_host(e, in, false, s);
    if (in->sampled)
        e->B->block_sample(e->ctx, in->sample.blocks, in->sample.nblocks);
    int rc = e->B->launch(e->ctx, e->kvar, in->grid, in->block, in->shared, s, in->args_var, e->err,
                          sizeof e->err);
    if (in->sampled)
        e->B->block_sample(e->ctx, NULL, 0);
    return rc;
}

int eng_exec_launch_ref(struct eng_exec *e, struct eng_inst *in, struct eng_stream *s)
{
    if (e->host)
        return launch_host(e, in, true, s);
    if (in->sampled)
        e->B->block_sample(e->ctx, in->sample.blocks, in->sample.nblocks);
    int rc = e->B->launch(e->ctx, e->kref, in->rgrid, in->rblock, in->rshared, s, in->args_ref,
                          e->err, sizeof e->err);
    if (in->sampled)
        e->B->block_sample(e->ctx, NULL, 0);
    return rc;
}
