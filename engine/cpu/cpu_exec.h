/* The cpu backend's one call for `kladder exec` (engine/prog/prog_rt.c): a launch of a kernel
 * that a program's own host code names by address rather than by an exported entry point. */
#ifndef KL_ENGINE_CPU_EXEC_H
#define KL_ENGINE_CPU_EXEC_H

#include "engine/backend/backend.h"

struct kl_cpu_thread;
struct kl_cpu_sig;

/* A kernel of module m (loaded by the cpu backend) whose threads run entry with the launch's
 * arguments, their sizes in sig (both live as long as m: they are the module's code and data).
 * The same pair asked again gives the same kernel. 0, or -1 when sig is of another dialect ABI
 * or has too many arguments. Launch it with the backend's launch(). */
int eng_cpu_kernel_wrap(struct eng_module *m, void (*entry)(struct kl_cpu_thread *, void **),
                        const struct kl_cpu_sig *sig, struct eng_kernel **out);

#endif
