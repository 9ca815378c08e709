/* The coroutines of the cpu backend's two schedulers (cpu_sched.c: blocks on OS threads;
 * cpu_pct.c: one seeded scheduler at every memory access): each emulated GPU thread is a
 * coroutine with a stack of its own, switched to and from its scheduler's context. Both
 * schedulers use these pieces, so a stack, a switch and the sanitizer's fiber annotations
 * mean one thing in both. */
#ifndef KL_ENGINE_CPU_CORO_H
#define KL_ENGINE_CPU_CORO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <ucontext.h>

#if defined(__SANITIZE_ADDRESS__)
#include <sanitizer/asan_interface.h>
#include <sanitizer/common_interface_defs.h>
#define CPU_CORO_ASAN 1
#else
#define CPU_CORO_ASAN 0
#endif

/* Each emulated thread's stack: kernels keep small locals, but the host functions the kernel
 * calls (and the sanitizer's frames) also run here. Untouched pages cost nothing. */
#define STACK_BYTES ((size_t)256 << 10)
#define GUARD_BYTES ((size_t)4096)

/* Switching between coroutines. On x86-64 a few instructions that save the callee-saved
 * registers and the stack pointer (kl_cpu_ctx_switch, cpu_coro.c): glibc's swapcontext also
 * saves the signal mask with a system call on every switch, which dominated the emulator's
 * time. Elsewhere, ucontext. */
#if defined(__x86_64__) && !defined(KL_CPU_UCONTEXT)
#define FAST_SWITCH 1
struct cctx {
    void *sp;
};
void kl_cpu_ctx_switch(void **save_sp, void *new_sp);
#else
#define FAST_SWITCH 0
struct cctx {
    ucontext_t uc;
};
#endif

/* Saves the running context in from and continues to. */
static inline void cpu_coro_switch(struct cctx *from, struct cctx *to)
{
#if FAST_SWITCH
    kl_cpu_ctx_switch(&from->sp, to->sp);
#else
    swapcontext(&from->uc, &to->uc);
#endif
}

/* The sanitizer's fiber annotations around a switch (no-ops without ASan). */
static inline void cpu_coro_san_start(void **save, const void *bottom, size_t size)
{
#if CPU_CORO_ASAN
    __sanitizer_start_switch_fiber(save, bottom, size);
#else
    (void)save, (void)bottom, (void)size;
#endif
}

static inline void cpu_coro_san_finish(void *save, const void **bottom, size_t *size)
{
#if CPU_CORO_ASAN
    __sanitizer_finish_switch_fiber(save, bottom, size);
#else
    (void)save, (void)bottom, (void)size;
#endif
}

/* The schedulers' seeded random numbers (splitmix64). */
static inline uint64_t cpu_coro_rng(uint64_t *s)
{
    uint64_t x = (*s += 0x9e3779b97f4a7c15ull);
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
    return x ^ (x >> 31);
}

/* A stack of STACK_BYTES above a guard page (an overflow faults instead of corrupting), with
 * clean sanitizer shadow; NULL when it cannot be mapped. One given back earlier is handed out
 * again first (thread-safe). */
char *cpu_coro_stack_map(void);

/* Before a stack serves a new coroutine: the previous one never returned from its entry, so
 * that frame's redzones are cleared (every deeper frame returned and cleared its own). */
void cpu_coro_stack_reuse(char *stack);

/* Gives back a stack of cpu_coro_stack_map, clearing its shadow first: shadow memory outlives
 * munmap, and a later mapping at this address (a buffer of the next check in the same
 * process) must not inherit this stack's redzones. finished: its last coroutine ran to the end
 * (every frame but the entry's returned), so only the entry's frame is cleared, not the whole
 * shadow (clearing 32 KiB of shadow per stack, 512 stacks a launch, was most of a sanitizer
 * run's time); otherwise every frame may still be poisoned and all of it is cleared. Up to
 * 2048 stacks are kept mapped for later launches; the rest are unmapped. */
void cpu_coro_stack_unmap(char *stack, bool finished);

/* Makes c start entry on stack at its first switch. tmpl is a getcontext()ed ucontext_t
 * (unused with the fast switch): CPU_CORO_TMPL(owner) names its owner's `tmpl`, a field that
 * exists only without the fast switch. */
#if FAST_SWITCH
#define CPU_CORO_TMPL(owner) NULL
#else
#define CPU_CORO_TMPL(owner) ((const void *)&(owner)->tmpl)
#endif
void cpu_coro_prepare(struct cctx *c, char *stack, void (*entry)(void), const void *tmpl);

/* The same on a stack of size bytes (a rank's larger stack, cpu_ranks.c). */
void cpu_coro_prepare_sized(struct cctx *c, char *stack, size_t size, void (*entry)(void),
                            const void *tmpl);

#endif
