/* The cpu backend's coroutine stacks and switch (see cpu_coro.h). */
#define _GNU_SOURCE
#include "engine/cpu/cpu_coro.h"

#include <pthread.h>
#include <stdbool.h>
#include <sys/mman.h>

#if FAST_SWITCH
__asm__(".text\n"
        ".globl kl_cpu_ctx_switch\n"
        ".type kl_cpu_ctx_switch,@function\n"
        "kl_cpu_ctx_switch:\n"
        "    pushq %rbp\n"
        "    pushq %rbx\n"
        "    pushq %r12\n"
        "    pushq %r13\n"
        "    pushq %r14\n"
        "    pushq %r15\n"
        "    movq %rsp, (%rdi)\n"
        "    movq %rsi, %rsp\n"
        "    popq %r15\n"
        "    popq %r14\n"
        "    popq %r13\n"
        "    popq %r12\n"
        "    popq %rbx\n"
        "    popq %rbp\n"
        "    ret\n"
        ".size kl_cpu_ctx_switch, .-kl_cpu_ctx_switch\n");
#endif

/* Stacks given back are kept for the next launch, up to a bound: a block of 512 threads all
 * waiting at a barrier holds 512 stacks, and mapping, guarding and unmapping them on every
 * launch made a rung 5 run of a thousand small launches spend most of its time in the kernel
 * (the OS's, not the emulated one). */
#define POOL_MAX 2048
static pthread_mutex_t pool_mu = PTHREAD_MUTEX_INITIALIZER;
static char *pool[POOL_MAX];
static size_t pool_n;

char *cpu_coro_stack_map(void)
{
    pthread_mutex_lock(&pool_mu);
    char *kept = pool_n ? pool[--pool_n] : NULL;
    pthread_mutex_unlock(&pool_mu);
    if (kept)
        return kept;
    char *m = mmap(NULL, STACK_BYTES + GUARD_BYTES, PROT_READ | PROT_WRITE,
                   MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE | MAP_STACK, -1, 0);
    if (m == MAP_FAILED)
        return NULL;
    mprotect(m, GUARD_BYTES, PROT_NONE);
#if CPU_CORO_ASAN
    /* Shadow memory outlives munmap: a recycled mapping may still carry old redzones. */
    __asan_unpoison_memory_region(m + GUARD_BYTES, STACK_BYTES);
#endif
    return m + GUARD_BYTES;
}

void cpu_coro_stack_reuse(char *stack)
{
#if CPU_CORO_ASAN
    __asan_unpoison_memory_region(stack + STACK_BYTES - 16384, 16384);
#else
    (void)stack;
#endif
}

void cpu_coro_stack_unmap(char *stack, bool finished)
{
#if CPU_CORO_ASAN
    if (finished)
        cpu_coro_stack_reuse(stack);
    else
        __asan_unpoison_memory_region(stack, STACK_BYTES);
#else
    (void)finished;
#endif
    pthread_mutex_lock(&pool_mu);
    bool keep = pool_n < POOL_MAX;
    if (keep)
        pool[pool_n++] = stack;
    pthread_mutex_unlock(&pool_mu);
    if (!keep)
        munmap(stack - GUARD_BYTES, STACK_BYTES + GUARD_BYTES);
}

void cpu_coro_prepare(struct cctx *c, char *stack, void (*entry)(void), const void *tmpl)
{
    cpu_coro_prepare_sized(c, stack, STACK_BYTES, entry, tmpl);
}

void cpu_coro_prepare_sized(struct cctx *c, char *stack, size_t size, void (*entry)(void),
                            const void *tmpl)
{
#if FAST_SWITCH
    /* A frame that kl_cpu_ctx_switch "returns" into entry from: six zero registers, then the
     * entry address, placed so that the entry sees a call-aligned stack. */
    (void)tmpl;
    uintptr_t top = ((uintptr_t)stack + size) & ~(uintptr_t)15;
    void **slot = (void **)(top - 16);
    slot[0] = (void *)(uintptr_t)entry;
    slot[1] = NULL;
    for (int i = 1; i <= 6; i++)
        slot[-i] = NULL;
    c->sp = slot - 6;
#else
    c->uc = *(const ucontext_t *)tmpl;
    c->uc.uc_stack.ss_sp = stack;
    c->uc.uc_stack.ss_size = size;
    c->uc.uc_link = NULL;
    makecontext(&c->uc, entry, 0);
#endif
}
