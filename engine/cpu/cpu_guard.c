/* Dynamic shared memory and static __shared__ arrays that end on a guard page, and the fault
 * handler that names the kernel, its line and the offset of a faulting access
 * (engine/cpu/cpu_guard.h). */
#define _GNU_SOURCE
#include "engine/cpu/cpu_guard.h"

#include <dlfcn.h>
#include <pthread.h>
#include <signal.h>
#include <stdbool.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <ucontext.h>
#include <unistd.h>

#include "common/xalloc.h"
#include "engine/backend/backend.h"

#define PAGE 4096u
#define SLOTS 1024 /* live guarded regions: one per block resident on a core, and spares */

/* A live region: its usable bytes start at base, its guard page at base + span (bytes rounded
 * up to its alignment); name is a static __shared__ array's, NULL for dynamic shared memory. */
struct region {
    _Atomic(uintptr_t) base;
    size_t bytes, span;
    const char *name;
};
static struct region regions[SLOTS];

static _Atomic(cpu_where_fn) cur_where;
static void *_Atomic cur_where_arg;
static _Atomic(cpu_fault_hook_fn) fault_hook;
static _Atomic(cpu_access_hook_fn) access_hook;

static size_t round16(size_t n) { return (n + 15) & ~(size_t)15; }
static size_t data_pages(size_t bytes) { return (round16(bytes) + PAGE - 1) / PAGE * PAGE; }

static void install_handler(void);
static pthread_once_t once = PTHREAD_ONCE_INIT;

static size_t round_to(size_t n, size_t a) { return (n + a - 1) / a * a; }

/* [guard][data pages][guard]: span bytes (bytes rounded to the alignment) end where the
 * second guard begins. */
static void *region_alloc(size_t bytes, size_t span, const char *name)
{
    cpu_guard_install();
    size_t len = data_pages(span) + 2 * PAGE;
    char *m = mmap(NULL, len, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (m == MAP_FAILED || mprotect(m + PAGE, data_pages(span), PROT_READ | PROT_WRITE) != 0)
        die("cpu backend: cannot map %zu bytes of shared memory", bytes);
    char *base = m + PAGE + data_pages(span) - span;
    for (size_t i = 0; i < SLOTS; i++) {
        uintptr_t none = 0;
        if (atomic_load(&regions[i].base))
            continue;
        regions[i].bytes = bytes;
        regions[i].span = span;
        regions[i].name = name;
        if (atomic_compare_exchange_strong(&regions[i].base, &none, (uintptr_t)base))
            break; /* past SLOTS regions a fault is still stopped, only named less well */
    }
    return base;
}

static void region_free(void *p, size_t span)
{
    if (!p)
        return;
    for (size_t i = 0; i < SLOTS; i++) {
        uintptr_t mine = (uintptr_t)p;
        if (atomic_compare_exchange_strong(&regions[i].base, &mine, 0))
            break;
    }
    char *base = p;
    munmap(base + span - data_pages(span) - PAGE, data_pages(span) + 2 * PAGE);
}

void *cpu_shared_alloc(size_t bytes)
{
    return bytes ? region_alloc(bytes, round16(bytes), NULL) : NULL;
}

void cpu_shared_free(void *p, size_t bytes) { region_free(p, round16(bytes)); }

/* ---- static __shared__ arrays --------------------------------------------------------------- */
struct cpu_static_shared {
    const char *key;
    void *p;
    size_t bytes, span;
    unsigned long gen; /* the block it was last filled for */
};

void cpu_statics_block(struct cpu_statics *s, bool poison)
{
    s->gen++;
    s->poison = poison;
}

void *cpu_statics_get(struct cpu_statics *s, const char *key, size_t bytes, size_t align)
{
    struct cpu_static_shared *e = NULL;
    for (size_t i = 0; i < s->n && !e; i++)
        if (s->v[i].key == key && s->v[i].bytes == bytes)
            e = &s->v[i];
    if (!e) {
        if (s->n == s->cap) {
            s->cap = s->cap ? 2 * s->cap : 8;
            s->v = xrealloc(s->v, s->cap * sizeof *s->v);
        }
        e = &s->v[s->n++];
        /* the array's own alignment: an index one element past it is the guard's, not slack's */
        size_t a = align && align <= PAGE && !(align & (align - 1)) ? align : 16;
        *e = (struct cpu_static_shared){.key = key, .bytes = bytes,
                                        .span = round_to(bytes ? bytes : 1, a)};
        e->p = region_alloc(bytes, e->span, key);
        e->gen = s->gen - 1;
    }
    if (e->gen != s->gen) { /* uninitialised on a GPU: the adversarial schedules poison it */
        memset(e->p, s->poison ? 0xff : 0, e->span);
        e->gen = s->gen;
    }
    return e->p;
}

bool cpu_statics_owns(const struct cpu_statics *s, const void *addr)
{
    uintptr_t a = (uintptr_t)addr;
    for (size_t i = 0; i < s->n; i++)
        if (a - (uintptr_t)s->v[i].p < s->v[i].span)
            return true;
    return false;
}

void cpu_statics_free(struct cpu_statics *s)
{
    for (size_t i = 0; i < s->n; i++)
        region_free(s->v[i].p, s->v[i].span);
    free(s->v);
    *s = (struct cpu_statics){0};
}

void cpu_guard_install(void) { pthread_once(&once, install_handler); }

void cpu_guard_set_where(cpu_where_fn where, void *arg)
{
    atomic_store(&cur_where_arg, arg);
    atomic_store(&cur_where, where);
}

/* The C++ runtime's demangler, looked up once when the handler is installed (never in it). */
typedef char *(*demangle_fn)(const char *mangled, char *buf, size_t *len, int *status);
static demangle_fn demangler;

/* A kernel's name as its source spells it: a C++ symbol demangled, its parameter list cut
 * (`segmented_scan<false>`); an extern "C" one as it is. */
static void kernel_name(const char *sym, char *out, size_t n);
void cpu_guard_kernel_name(const char *sym, char *out, size_t n) { kernel_name(sym, out, n); }

static void kernel_name(const char *sym, char *out, size_t n)
{
    snprintf(out, n, "%s", sym);
    if (strncmp(sym, "_Z", 2) != 0 || !demangler)
        return;
    int status = -1;
    char *d = demangler(sym, NULL, NULL, &status);
    if (!d || status != 0) {
        free(d);
        return;
    }
    int depth = 0;
    char *c = d;
    for (; *c; c++) {
        if (*c == '<')
            depth++;
        else if (*c == '>')
            depth--;
        else if (*c == '(' && depth == 0)
            break;
    }
    *c = '\0';
    /* a template instance's symbol carries its return type: a kernel's is void */
    snprintf(out, n, "%s", strncmp(d, "void ", 5) ? d : d + 5);
    free(d);
}

/* "KERNEL (FILE:LINE, KERNEL+0xOFF)" for a code address in a kernel module; "" elsewhere. */
static void describe_code(const void *pc, char *out, size_t n)
{
    Dl_info di;
    out[0] = '\0';
    if (!pc || !dladdr(pc, &di))
        return;
    if (!di.dli_sname || !di.dli_saddr) {
        /* a helper of no visible symbol: its line still says where, when a kernel module's */
        char line[256] = "";
        cpu_where_fn where = atomic_load(&cur_where);
        if (where && where(atomic_load(&cur_where_arg), (const char *)pc + 1, line, sizeof line) == 0)
            snprintf(out, n, "a device function (%.250s)", line);
        return;
    }
    char name[200];
    kernel_name(di.dli_sname, name, sizeof name);
    char line[256] = "";
    cpu_where_fn where = atomic_load(&cur_where);
    /* where() reads a return address (the instruction before it): a fault's pc is the
     * instruction itself, so ask about the byte after it */
    if (where && where(atomic_load(&cur_where_arg), (const char *)pc + 1, line, sizeof line) != 0)
        line[0] = '\0';
    snprintf(out, n, "%.120s (%.120s%s%.120s+0x%lx)", name, line, line[0] ? ", " : "", name,
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
static void report_shared(const char *code, uintptr_t a, uintptr_t base, size_t bytes,
                          const char *name, int is_write)
{
    char msg[900], what[200] = "dynamic shared memory";
    if (name)
        snprintf(what, sizeof what, "__shared__ %.120s", name);
    int k = snprintf(msg, sizeof msg, "kladder worker: shared memory: %s%sa %s at byte %lld "
                     "of the block's %zu bytes of %s (past its %s)\n",
                     code[0] ? code : "", code[0] ? ": " : "",
                     is_write == 1 ? "write" : is_write == 0 ? "read" : "access",
                     (long long)(a - base), bytes, what, a >= base ? "end" : "start");
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
    report_shared(code, a < b || a >= b + bytes ? a : b + bytes, b, bytes, NULL, is_write);
}

void cpu_statics_check(const struct cpu_statics *s, const void *addr, unsigned size,
                       bool is_write, const void *ret_pc)
{
    uintptr_t a = (uintptr_t)addr;
    for (size_t i = 0; i < s->n; i++) {
        const struct cpu_static_shared *e = &s->v[i];
        uintptr_t b = (uintptr_t)e->p;
        uintptr_t lo = b + e->span - data_pages(e->span) - PAGE, hi = b + e->span + PAGE;
        if ((a + size <= b + e->bytes && a >= b) || a + size <= lo || a >= hi)
            continue;
        char code[400];
        describe_code((const char *)ret_pc - 1, code, sizeof code);
        report_shared(code, a < b || a >= b + e->bytes ? a : b + e->bytes, b, e->bytes, e->key,
                      is_write);
    }
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
    cpu_fault_hook_fn hook = atomic_load(&fault_hook);
    if (hook && (sig == SIGSEGV || sig == SIGBUS))
        hook(si->si_addr, is_write, code);
    for (size_t i = 0; sig == SIGSEGV && i < SLOTS; i++) {
        uintptr_t base = atomic_load(&regions[i].base);
        size_t bytes = regions[i].bytes, span = regions[i].span;
        if (!base)
            continue;
        uintptr_t lo = base + span - data_pages(span) - PAGE;
        uintptr_t hi = base + span + PAGE;
        if (a >= lo && a < hi)
            report_shared(code, a, base, bytes, regions[i].name, is_write);
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
    void *lib = dlopen("libstdc++.so.6", RTLD_NOW | RTLD_LOCAL);
    if (!lib)
        lib = dlopen("libc++abi.so.1", RTLD_NOW | RTLD_LOCAL);
    if (lib)
        *(void **)&demangler = dlsym(lib, "__cxa_demangle");
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

void cpu_guard_set_fault_hook(cpu_fault_hook_fn hook)
{
    atomic_store(&fault_hook, hook);
}

void cpu_guard_set_access_hook(cpu_access_hook_fn hook)
{
    atomic_store(&access_hook, hook);
}

void cpu_guard_access(const void *addr, unsigned size, bool is_write, const void *ret_pc)
{
    cpu_access_hook_fn hook = atomic_load(&access_hook);
    if (hook)
        hook(addr, size, is_write ? 1 : 0, ret_pc);
}

void cpu_guard_describe(const void *ret_pc, char *out, size_t n)
{
    describe_code((const char *)ret_pc - 1, out, n);
}
