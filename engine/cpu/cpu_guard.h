/* Dynamic shared memory with a guard, and what the cpu backend says when an emulated kernel
 * faults.
 *
 * A block's dynamic shared memory is mapped so that it ends on an inaccessible page: a read or
 * write past its end (or far enough before its start) faults at the access, where a heap
 * allocation would be corrupted silently and the process would die later in free(). The
 * fault handler (installed once, for SIGSEGV, SIGBUS, SIGFPE and SIGILL) then writes one
 * line on stderr and ends the worker:
 *
 * - an access to a guard: "kladder worker: shared memory: KERNEL (FILE:LINE, KERNEL+0xOFF): a
 *   write at byte OFF of the block's N bytes of dynamic shared memory", exit status
 *   ENG_WORKER_EXIT_FINDING (the runner fails the check with that line);
 * - any other fault: "kladder worker: signal N (SIGSEGV) in KERNEL (FILE:LINE, ...) at address
 *   0x...", when the faulting code is a kernel's, then the default action (the worker dies by
 *   the signal, the crash verdict).
 *
 * The source line comes from the where function of the kernel being launched
 * (cpu_guard_set_where), NULL for none. Not thread-safe to set during a launch. */
#ifndef KL_ENGINE_CPU_GUARD_H
#define KL_ENGINE_CPU_GUARD_H

#include <stdbool.h>
#include <stddef.h>

/* The source line of a code address: 0 and "file:line" in out, or -1. */
typedef int (*cpu_where_fn)(void *arg, const void *pc, char *out, size_t n);

/* bytes of zeroed dynamic shared memory ending at a guard page (aligned to 16 bytes: a
 * size that is not a multiple of 16 leaves its last up-to-15 bytes before the guard
 * unguarded); NULL when bytes is 0. Dies cleanly when the memory cannot be mapped. */
void *cpu_shared_alloc(size_t bytes);
/* Frees what cpu_shared_alloc(bytes) returned (NULL is fine). */
void cpu_shared_free(void *p, size_t bytes);

/* Under the access instrumentation (the pct schedule), before an access of size bytes at addr
 * by the code that returns to ret_pc: one that touches the bytes around the dynamic shared
 * memory of bytes at base (what a guard would catch, and the alignment slack before the guard)
 * ends the worker with the finding, as the fault handler does. Any other access returns. */
void cpu_guard_check(const void *base, size_t bytes, const void *addr, unsigned size,
                     bool is_write, const void *ret_pc);

/* A block's static __shared__ arrays (plain sources: kernels/kl_vendor.h's KL_STATIC_SHARED),
 * each mapped alone so that it ends on a guard page: an index past one array faults instead of
 * landing in the next, and the finding names the array ("of the block's 1024 bytes of
 * __shared__ tile"). One set per block being run at a time; kept between blocks (and refilled
 * once per block). A zeroed struct is an empty set. */
struct cpu_static_shared;
struct cpu_statics {
    struct cpu_static_shared *v;
    size_t n, cap;
    unsigned long gen;
    bool poison;
};
/* A new block begins: each array is filled again (0xff bytes when poison, else zeros) when it
 * is first asked for. */
void cpu_statics_block(struct cpu_statics *s, bool poison);
/* The block's instance of the array named key (the module's string: its address identifies
 * the declaration) of bytes, aligned to align. */
void *cpu_statics_get(struct cpu_statics *s, const char *key, size_t bytes, size_t align);
/* Whether addr is within one of the set's arrays (their alignment slack included). */
bool cpu_statics_owns(const struct cpu_statics *s, const void *addr);
/* As cpu_guard_check, over each array of the set. */
void cpu_statics_check(const struct cpu_statics *s, const void *addr, unsigned size,
                       bool is_write, const void *ret_pc);
/* Unmaps the set's arrays and empties it. */
void cpu_statics_free(struct cpu_statics *s);

/* Asked first about every SIGSEGV and SIGBUS the handler sees, with the faulting address,
 * whether it was a write (1, 0 a read, -1 unknown) and the code's description as the handler's
 * line gives it ("" when not a kernel's): `kladder exec` (engine/prog/prog_rt.c) names the
 * device allocation a guard belongs to and ends the process itself; a hook that returns leaves
 * the fault to the handler. NULL: none. */
typedef void (*cpu_fault_hook_fn)(const void *addr, int is_write, const char *code);
void cpu_guard_set_fault_hook(cpu_fault_hook_fn hook);

/* Under the access instrumentation (the pct schedule), every access of a kernel before it
 * happens (ret_pc: the code it returns to): hook, when set, may end the process with a finding
 * for an access that would fault or that reaches freed memory (kladder exec's allocations);
 * the weak memory model may otherwise make the store itself later, outside the kernel's code.
 * cpu_guard_describe gives the "KERNEL (FILE:LINE, KERNEL+0xOFF)" of such a return address. */
typedef void (*cpu_access_hook_fn)(const void *addr, unsigned size, int is_write,
                                   const void *ret_pc);
void cpu_guard_set_access_hook(cpu_access_hook_fn hook);
void cpu_guard_access(const void *addr, unsigned size, bool is_write, const void *ret_pc);
void cpu_guard_describe(const void *ret_pc, char *out, size_t n);

/* Installs the fault handler (once; later calls do nothing). */
void cpu_guard_install(void);

/* The where function of the launch under way (or NULL), for the fault handler's line. */
void cpu_guard_set_where(cpu_where_fn where, void *arg);

/* A symbol of a kernel module as the source spells it: a C++ name demangled without its
 * parameter list (`norm_kernel3<__nv_bfloat16>`), an extern "C" one as it is. The demangler is
 * looked up by cpu_guard_install; before it, the symbol itself. */
void cpu_guard_kernel_name(const char *sym, char *out, size_t n);

#endif
