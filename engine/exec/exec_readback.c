/* The contract judge's host copies of a check's outputs (engine/exec/exec_internal.h, struct
 * eng_judge): read once per output and check, shared by the judge and the arbiter. */
#include "engine/exec/exec_internal.h"

#include <stdlib.h>
#include <string.h>

#include "common/xalloc.h"

int eng_exec_judge_read(struct eng_exec *e, struct eng_inst *in, struct eng_judge *j, size_t b,
                        struct eng_stream *s)
{
    if (!j->var) {
        j->var = xcalloc(e->m->nbuffers, sizeof *j->var);
        j->ref = xcalloc(e->m->nbuffers, sizeof *j->ref);
    }
    if (j->var[b])
        return 0;
    size_t bytes = (size_t)in->var[b].padded_bytes;
    j->var[b] = xmalloc(bytes ? bytes : 1);
    j->ref[b] = xmalloc(bytes ? bytes : 1);
    ENG_TRY(e->B->memcpy_dtoh(e->ctx, j->var[b], in->var[b].data, bytes, s, e->err, sizeof e->err));
    return e->B->memcpy_dtoh(e->ctx, j->ref[b], in->ref[b].data, bytes, s, e->err, sizeof e->err);
}

void eng_exec_judge_free(const struct eng_exec *e, struct eng_judge *j)
{
    for (size_t b = 0; b < e->m->nbuffers; b++) {
        if (j->var)
            free(j->var[b]), free(j->ref[b]);
        if (j->arb)
            free(j->arb[b]);
        if (j->cvar)
            free(j->cvar[b]), free(j->cref[b]);
    }
    free(j->cvar);
    free(j->cref);
    free(j->var);
    free(j->ref);
    free(j->arb);
    memset(j, 0, sizeof *j);
}
