/* The cpu backend's coroutine stacks and switch (see cpu_coro.h). */
#define _GNU_SOURCE
#include "engine/cpu_coro.h"

#include <pthread.h>
#include <stdlib.h>
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

char *cpu_coro_stack_map(void)
{
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

void cpu_coro_stack_unmap(char *stack)
{
#if CPU_CORO_ASAN
    __asan_unpoison_memory_region(stack, STACK_BYTES);
#endif
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

/* At most this many kept stacks per OS thread (their touched pages stay resident). */
#define POOL_MAX 2048

struct stack_pool {
    unsigned n;
    char *st[POOL_MAX];
};

static pthread_key_t pool_key;
static pthread_once_t pool_once = PTHREAD_ONCE_INIT;
static _Thread_local struct stack_pool *tl_pool;

static void pool_drop(void *arg)
{
    struct stack_pool *p = arg;
    for (unsigned i = 0; i < p->n; i++)
        cpu_coro_stack_unmap(p->st[i]);
    free(p);
}

static void pool_key_make(void)
{
    (void)pthread_key_create(&pool_key, pool_drop);
}

char *cpu_coro_stack_take(void)
{
    if (tl_pool && tl_pool->n)
        return tl_pool->st[--tl_pool->n];
    return cpu_coro_stack_map();
}

void cpu_coro_stack_keep(char *stack)
{
    if (!tl_pool) {
        pthread_once(&pool_once, pool_key_make);
        tl_pool = calloc(1, sizeof *tl_pool);
        if (!tl_pool || pthread_setspecific(pool_key, tl_pool) != 0) {
            free(tl_pool);
            tl_pool = NULL;
            cpu_coro_stack_unmap(stack);
            return;
        }
    }
    if (tl_pool->n == POOL_MAX) {
        cpu_coro_stack_unmap(stack);
        return;
    }
#if CPU_CORO_ASAN
    /* The coroutine that ran here never returned: its frames' redzones are still marked. */
    __asan_unpoison_memory_region(stack, STACK_BYTES);
#endif
    tl_pool->st[tl_pool->n++] = stack;
}
