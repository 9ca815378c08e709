/* A check's inputs (eng_exec_fill_inputs, engine/exec.h), and the next check's planned and
 * started in the background (engine/exec/exec_internal.h, engine/session/input_prefetch.h): the next check's
 * first shape planned on a scratch exec (sizes and rows only: nothing on the device), and each
 * input it will make from a value class named by the fill's parameters. Whatever the next check
 * does in the end, it takes only a fill whose parameters are its own. */
#include "engine/exec/exec_internal.h"

#include <stdlib.h>

#include "engine/session/input_prefetch.h"
#include "engine/exec/phase_time.h"
#include "engine/values/value_class.h"

/* Host generation's bound (engine/exec/exec_buffers.c): a larger input fails its check there. */
#define HOST_INPUT_MAX ((uint64_t)256 << 20)

static void prefetch_next(struct eng_exec *e)
{
    if (e->prefetched || !e->host || !e->host->next || e->B->caps.emulated ||
        !eng_prefetch_enabled())
        return;
    e->prefetched = true;
    const struct eng_check_spec *ns = e->host->next;
    struct eng_check_result scratch_out;
    struct eng_exec *n = calloc(1, sizeof *n);
    if (!n)
        return;
    *n = (struct eng_exec){.s = ns, .B = e->B, .info = e->info, .m = e->m, .host = e->host,
                           .out = &scratch_out};
    eng_check_result_init(&scratch_out);
    struct eng_shape none = {0};
    struct eng_inst in;
    struct eng_fill_key keys[ENG_PREFETCH_MAX];
    size_t nk = 0;
    if (eng_exec_inst_plan(n, &in, ns->nshapes ? &ns->shapes[0] : &none) == 0) {
        for (size_t i = 0; i < e->m->nbuffers && nk < ENG_PREFETCH_MAX; i++) {
            const struct eng_bufi *b = &in.var[i];
            const char *ref = NULL;
            if (e->m->buffers[i].role != ENG_ROLE_INPUT || b->rows_only || !b->padded_bytes ||
                b->padded_bytes > HOST_INPUT_MAX)
                continue;
            int init = eng_exec_input_init(n, i, &ref);
            if (init < ENG_INIT_CLASS)
                continue;
            uint64_t len, stride;
            eng_exec_rows(n, &in, i, &len, &stride);
            keys[nk++] = (struct eng_fill_key){
                .cls = init - ENG_INIT_CLASS, .dtype = e->m->buffers[i].dtype,
                .n = b->padded_elems, .row_len = len, .row_stride = stride,
                .seed = eng_exec_buffer_seed(n, i), .bytes = (size_t)b->padded_bytes};
        }
    }
    eng_exec_inst_free(n, &in);
    free(n);
    eng_prefetch_start(keys, nk);
}

int eng_exec_fill_inputs(struct eng_exec *e, struct eng_inst *in, struct eng_stream *s, bool garbage)
{
    if (eng_exec_make_inputs(e, in, s, garbage) != 0)
        return -1;
    if (!garbage) {
        eng_phase_mark("fill");
        prefetch_next(e);
        eng_phase_mark("fill-ahead");
    }
    return 0;
}
