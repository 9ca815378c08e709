/* Dynamic shared memory that ends on a guard page, and the fault handler that names the
 * kernel, its line and the offset of a faulting access (engine/cpu/cpu_guard.h). */
#define _GNU_SOURCE
#include "engine/cpu/cpu_guard.h"

#include <dlfcn.h>
#include <pthread.h>
#include <signal.h>
#include <stdbool.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <ucontext.h>
#include <unistd.h>

#include "common/xalloc.h"
#include "engine/backend/backend.h"

#define PAGE 4096u
#define SLOTS 1024 /* live guarded regions: one per block resident on a core, and spares */

/* A live region: its usable bytes start at base, its guard page at base + round16(bytes). */
struct region {
    _Atomic(uintptr_t) base;
    size_t bytes;
};
static struct region regions[SLOTS];

static _Atomic(cpu_where_fn) cur_where;
static void *_Atomic cur_where_arg;

static size_t round16(size_t n) { return (n + 15) & ~(size_t)15; }
static size_t data_pages(size_t bytes) { return (round16(bytes) + PAGE - 1) / PAGE * PAGE; }

static void install_handler(void);
static pthread_once_t once = PTHREAD_ONCE_INIT;

void *cpu_shared_alloc(size_t bytes)
{
    if (!bytes)
        return NULL;
    cpu_guard_install();
    /* [guard][data pages][guard]: the data ends where the second guard begins */
    size_t len = data_pages(bytes) + 2 * PAGE;
    char *m = mmap(NULL, len, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (m == MAP_FAILED || mprotect(m + PAGE, data_pages(bytes), PROT_READ | PROT_WRITE) != 0)
        die("cpu backend: cannot map %zu bytes of dynamic shared memory", bytes);
    char *base = m + PAGE + data_pages(bytes) - round16(bytes);
    for (size_t i = 0; i < SLOTS; i++) {
        uintptr_t none = 0;
        regions[i].bytes = bytes;
        if (atomic_compare_exchange_strong(&regions[i].base, &none, (uintptr_t)base))
            break; /* past SLOTS regions a fault is still stopped, only named less well */
    }
    return base;
}

void cpu_shared_free(void *p, size_t bytes)
{
    if (!p)
        return;
    for (size_t i = 0; i < SLOTS; i++) {
        uintptr_t mine = (uintptr_t)p;
        if (atomic_compare_exchange_strong(&regions[i].base, &mine, 0))
            break;
    }
    char *base = p;
    munmap(base + round16(bytes) - data_pages(bytes) - PAGE, data_pages(bytes) + 2 * PAGE);
}

void cpu_guard_install(void) { pthread_once(&once, install_handler); }

void cpu_guard_set_where(cpu_where_fn where, void *arg)
{
    atomic_store(&cur_where_arg, arg);
    atomic_store(&cur_where, where);
}

/* "KERNEL (FILE:LINE, KERNEL+0xOFF)" for a code address in a kernel module; "" elsewhere. */
static void describe_code(const void *pc, char *out, size_t n)
{
    Dl_info di;
    out[0] = '\0';
    if (!pc || !dladdr(pc, &di) || !di.dli_sname || !di.dli_saddr)
        return;
    char line[256] = "";
    cpu_where_fn where = atomic_load(&cur_where);
    /* where() reads a return address (the instruction before it): a fault's pc is the
     * instruction itself, so ask about the byte after it */
    if (where && where(atomic_load(&cur_where_arg), (const char *)pc + 1, line, sizeof line) != 0)
        line[0] = '\0';
    snprintf(out, n, "%s (%s%s%s+0x%lx)", di.dli_sname, line, line[0] ? ", " : "", di.dli_sname,
             (unsigned long)((const char *)pc - (const char *)di.dli_saddr));
}

static const void *fault_pc(const ucontext_t *uc, int *is_write)
{
    *is_write = -1;
#if defined(__x86_64__)
    *is_write = (uc->uc_mcontext.gregs[REG_ERR] & 2) != 0;
    return (const void *)uc->uc_mcontext.gregs[REG_RIP];
#elif defined(__aarch64__)
    return (const void *)uc->uc_mcontext.pc;
#else
    (void)uc;
    return NULL;
#endif
}

/* Ends the worker with the finding of an access at a (is_write: 1 write, 0 read, -1 unknown)
 * outside the dynamic shared memory of bytes at base, by the code described in code. */
static void report_shared(const char *code, uintptr_t a, uintptr_t base, size_t bytes, int is_write)
{
    char msg[900];
    int k = snprintf(msg, sizeof msg, "kladder worker: shared memory: %s%sa %s at byte %lld "
                     "of the block's %zu bytes of dynamic shared memory (past its %s)\n",
                     code[0] ? code : "", code[0] ? ": " : "",
                     is_write == 1 ? "write" : is_write == 0 ? "read" : "access",
                     (long long)(a - base), bytes, a >= base ? "end" : "start");
    if (write(2, msg, (size_t)k) < 0) { /* nothing left to tell it to */ }
    _exit(ENG_WORKER_EXIT_FINDING);
}

void cpu_guard_check(const void *base, size_t bytes, const void *addr, unsigned size,
                     bool is_write, const void *ret_pc)
{
    uintptr_t a = (uintptr_t)addr, b = (uintptr_t)base;
    /* the slack around the data up to the guards: what a fault would have caught, and the
     * bytes before the guard that alignment leaves */
    uintptr_t lo = b + round16(bytes) - data_pages(bytes) - PAGE, hi = b + round16(bytes) + PAGE;
    if (a + size <= b + bytes && a >= b)
        return;
    if (a + size <= lo || a >= hi)
        return; /* not near this block's shared memory at all */
    char code[400];
    describe_code((const char *)ret_pc - 1, code, sizeof code);
    report_shared(code, a < b || a >= b + bytes ? a : b + bytes, b, bytes, is_write);
}

/* The process is ending either way: what it writes here is its last word, so the formatting
 * (and the line lookup, which runs a symbolizer) is allowed what a handler that returns
 * could not do. */
static void on_fault(int sig, siginfo_t *si, void *ctx)
{
    int is_write;
    const void *pc = fault_pc(ctx, &is_write);
    char code[400], msg[600];
    describe_code(pc, code, sizeof code);
    uintptr_t a = (uintptr_t)si->si_addr;
    for (size_t i = 0; sig == SIGSEGV && i < SLOTS; i++) {
        uintptr_t base = atomic_load(&regions[i].base);
        size_t bytes = regions[i].bytes;
        if (!base)
            continue;
        uintptr_t lo = base + round16(bytes) - data_pages(bytes) - PAGE;
        uintptr_t hi = base + round16(bytes) + PAGE;
        if (a >= lo && a < hi)
            report_shared(code, a, base, bytes, is_write);
    }
    if (code[0]) {
        /* a general protection fault (a non-canonical address) reports no address */
        char at[48] = "";
        if (si->si_code != SI_KERNEL)
            snprintf(at, sizeof at, " at address 0x%lx", (unsigned long)a);
        int k = snprintf(msg, sizeof msg, "kladder worker: signal %d (SIG%s) in %s%s\n", sig,
                         sigabbrev_np(sig) ? sigabbrev_np(sig) : "?", code, at);
        if (write(2, msg, (size_t)k) < 0) { /* as above */ }
    }
    signal(sig, SIG_DFL);
    raise(sig);
}

static void install_handler(void)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_sigaction = on_fault;
    sa.sa_flags = SA_SIGINFO | SA_NODEFER;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGSEGV, &sa, NULL);
    sigaction(SIGBUS, &sa, NULL);
    sigaction(SIGFPE, &sa, NULL);
    sigaction(SIGILL, &sa, NULL);
}
