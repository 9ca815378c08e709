/* Rung 6: multi-GPU collective protocols. A suite with "rungs": {"6": {}} names a pair of
 * all-reduce protocol kernels (fixed, buggy), an input generator (allreduce_gen) and an
 * on-device checker (its "reference", allreduce_check); rung 6 runs the protocol over N ranks
 * (one thread and one device context per rank), three message sizes per round, many
 * collectives queued back to back before one synchronisation, inputs changing every call, and
 * checks every rank's result for every size on the device — against NCCL/RCCL's all-reduce of
 * the same inputs where that library loads, else against the exact sum (the inputs are small
 * integers, so every correct protocol agrees bit for bit).
 *
 * The suite's integer "params" drive it (docs/multi-gpu.md): ranks, calls, size_a/size_b/
 * size_c (bytes), ll_threshold (bytes), blocks/threads (cpu_blocks/cpu_threads on the cpu
 * backend), cpu_scale (sizes and threshold are divided by it on the cpu backend), and the per
 * check keys changing, lag, nsizes, sync_each.
 *
 * Every wait in a protocol kernel is bounded; a wait that gives up records rank, call, step
 * and peer, and the check's verdict is `hang` with them in the detail. A rank whose host
 * thread does not come back (a kernel that never returns) is reported the same way, with
 * the step its host thread was at, before the engine's own watchdog would stop the worker. */
#ifndef KL_ENGINE_RUNG6_H
#define KL_ENGINE_RUNG6_H

#include <stddef.h>

#include "engine/check.h"
#include "engine/manifest.h"
#include "engine/plan.h"

/* Runs one rung 6 check in this process (the worker side of eng_check_run). */
void eng_rung6_run(const struct eng_check_spec *s, const struct eng_manifest *m,
                   void (*ready)(void *), void *arg, struct eng_check_result *out);

#endif
