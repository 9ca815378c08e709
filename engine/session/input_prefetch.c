/* The next check's inputs made ahead (engine/session/input_prefetch.h). The fills of one start are one
 * background split of engine/values/par_rows.h: part p of each fill on worker p, so that every worker
 * has a share of every fill. The keys and buffers stay as they are until the split is waited
 * for, since the workers read them. */
#include "engine/session/input_prefetch.h"

#include <stdlib.h>
#include <string.h>

#include "engine/values/par_rows.h"
#include "engine/session/session.h"
#include "engine/values/value_class.h"

static struct {
    struct eng_fill_key key;
    void *buf;
} ent[ENG_PREFETCH_MAX];
static size_t nent;
static unsigned nparts;
static bool pending; /* a split started and not yet waited for */
static bool lost;    /* the split waited for never ran here (a fork's child) */

bool eng_prefetch_enabled(void)
{
    const char *v = getenv("KLADDER_PREFETCH");
    return !(v && !strcmp(v, "0"));
}

static void make_parts(void *arg, uint64_t p0, uint64_t p1)
{
    (void)arg;
    for (uint64_t p = p0; p < p1; p++)
        for (size_t i = 0; i < nent; i++) {
            const struct eng_fill_key *k = &ent[i].key;
            eng_vclass_fill_part((enum eng_vclass)k->cls, k->dtype, ent[i].buf, k->n, k->row_len,
                                 k->row_stride, k->seed, (unsigned)p, nparts);
        }
}

static void settle(void)
{
    if (pending && eng_par_rows_wait() != 0)
        lost = true;
    pending = false;
}

/* Waits for the fills under way and gives back every buffer not taken. */
static void eng_prefetch_drop(void)
{
    settle();
    for (size_t i = 0; i < nent; i++)
        eng_session_host_put(ent[i].buf, ent[i].key.bytes);
    nent = 0;
    lost = false;
}

void eng_prefetch_trim(void)
{
    eng_prefetch_drop();
    eng_session_host_trim();
}

void eng_prefetch_start(const struct eng_fill_key *keys, size_t nkeys)
{
    eng_prefetch_drop();
    uint64_t total = 0;
    for (size_t i = 0; i < nkeys && nent < ENG_PREFETCH_MAX; i++) {
        ent[nent].key = keys[i];
        ent[nent].buf = eng_session_host_get(keys[i].bytes ? keys[i].bytes : 1);
        total += keys[i].n;
        nent++;
    }
    if (!nent)
        return;
    /* all parts on workers: at least one, as many as the fill would take on demand */
    nparts = eng_vclass_fill_threads(total, ENG_PAR_MAX);
    if (eng_par_rows_start(make_parts, NULL, nparts, nparts) != 0) {
        eng_prefetch_drop();
        return;
    }
    pending = true;
}

static bool same(const struct eng_fill_key *a, const struct eng_fill_key *b)
{
    return a->cls == b->cls && a->dtype == b->dtype && a->n == b->n &&
           a->row_len == b->row_len && a->row_stride == b->row_stride && a->seed == b->seed &&
           a->bytes == b->bytes;
}

void *eng_prefetch_take(const struct eng_fill_key *k)
{
    for (size_t i = 0; i < nent; i++) {
        if (!same(&ent[i].key, k))
            continue;
        settle();
        if (lost) {
            eng_prefetch_drop();
            return NULL;
        }
        void *buf = ent[i].buf;
        ent[i] = ent[--nent];
        return buf;
    }
    return NULL;
}
