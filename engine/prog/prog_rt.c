/* The host runtime of a program under `kladder exec`, in its child process (prog.h): the
 * functions of kernels/kl_exec_rt.h's table.
 *
 * Device memory: each allocation is its own mapping, [guard page][data pages][guard page],
 * the data placed so that it ends (rounded up to 16 bytes) at the second guard: a kernel access
 * past the end, before the start by more than the slack, or into an allocation already freed
 * (its pages are made inaccessible and never reused) faults, and the fault hook names the
 * allocation. The slack around the data is filled with a sentinel byte and checked after every
 * launch, at each synchronisation and at free: a write that lands there is a finding too. New
 * allocations hold 0xff bytes (NaN, -1), as a GPU's fresh memory holds garbage, and a device
 * allocation carries a bitmap of the bytes written (prog_shadow.h): a kernel's read of a byte
 * never written is a finding, one per allocation and launch with the count of the others.
 * Pinned host and managed memory are the host's to write directly, so they are not tracked.
 * Copies and memsets are checked against the allocations they touch before they run.
 * Launches run on the cpu backend (eng_cpu_kernel_wrap, then its launch and stream_sync): the
 * block scheduler, the chosen schedule and, for pct, the race check and weak memory. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#define KL_ABI_ONLY
#include "kernels/kl.h"
#define KL_EXEC_ABI_ONLY
#include "kernels/kl_exec_rt.h"

#include "common/xalloc.h"
#include "engine/cpu/cpu_exec.h"
#include "engine/cpu/cpu_guard.h"
#include "engine/prog/prog.h"
#include "engine/prog/prog_shadow.h"

#define PAGE ((size_t)4096)
#define SENTINEL 0xa5

struct dev_alloc {
    char *map;       /* the mapping, guards included */
    size_t map_len;
    char *user;      /* what the program got */
    size_t bytes;    /* what it asked for */
    bool host;       /* cudaMallocHost and the like */
    bool managed;    /* cudaMallocManaged: host code writes it directly */
    bool freed;
    const char *file, *free_file; /* the module's strings (__FILE__) */
    int line, free_line;
    unsigned char *written; /* the bytes written (prog_shadow.h); NULL: not tracked */
    /* the launch's reads of never-written bytes: how many, and the first one's report (filled
     * by the thread that counted it first, then ready set) */
    unsigned long uninit_reads;
    int uninit_ready;
    size_t uninit_off;
    unsigned uninit_size;
    char uninit_who[80], uninit_code[400];
};

/* A __device__ or __constant__ variable a copy or cudaGetSymbolAddress named: device memory
 * that is no allocation (the module's own variable; not tracked for never-written bytes). */
struct dev_symbol {
    char *addr;
    size_t size;
    char name[80];
};

static struct {
    const struct eng_backend *b;
    struct eng_ctx *ctx;
    struct eng_module *mod;
    int fd;
    struct dev_alloc *allocs;
    size_t nallocs, cap;
    struct dev_symbol *syms;
    size_t nsyms, syms_cap;
    int (*current)(unsigned out[6]);
    /* the launch under way, for a fault's report */
    const char *kernel, *file;
    int line;
    unsigned grid[3], block[3];
    unsigned long launches;
} rt;

static void record(const char *kind, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void record(const char *kind, const char *fmt, ...)
{
    char buf[8192];
    int k = snprintf(buf, sizeof buf, "%s\t", kind);
    va_list ap;
    va_start(ap, fmt);
    int m = vsnprintf(buf + k, sizeof buf - (size_t)k - 1, fmt, ap);
    va_end(ap);
    size_t n = (size_t)k + (m < 0 ? 0 : (size_t)m < sizeof buf - (size_t)k - 1
                                              ? (size_t)m : sizeof buf - (size_t)k - 2);
    buf[n++] = '\x1e';
    for (size_t off = 0; off < n;) {
        ssize_t w = write(rt.fd, buf + off, n - off);
        if (w <= 0)
            break;
        off += (size_t)w;
    }
}

/* The lowest and highest address of every mapping made: most accesses are outside. */
static uintptr_t span_lo = UINTPTR_MAX, span_hi;

/* The allocation found last on this OS thread: a kernel's accesses mostly stay in one. Mappings
 * are never reused (a freed one stays mapped), so an address lies in one allocation at most. */
static _Thread_local size_t alloc_hint;

static struct dev_alloc *find_alloc(const void *p)
{
    const char *a = p;
    size_t h = alloc_hint;
    if (h < rt.nallocs && a >= rt.allocs[h].map && a < rt.allocs[h].map + rt.allocs[h].map_len)
        return &rt.allocs[h];
    for (size_t i = rt.nallocs; i-- > 0;)
        if (a >= rt.allocs[i].map && a < rt.allocs[i].map + rt.allocs[i].map_len) {
            alloc_hint = i;
            return &rt.allocs[i];
        }
    return NULL;
}

/* "the 400-byte device allocation made at f.cu:31" */
static void alloc_name(const struct dev_alloc *a, char *out, size_t n)
{
    snprintf(out, n, "the %zu-byte %s allocation made at %s:%d", a->bytes,
             a->host ? "pinned host" : a->managed ? "managed" : "device", a->file, a->line);
}

/* "kernel k<<<(4,1,1),(256,1,1)>>> launched at f.cu:40 (launch 2)" */
static void launch_name(char *out, size_t n)
{
    if (!rt.kernel) {
        snprintf(out, n, "host code");
        return;
    }
    snprintf(out, n, "kernel %s<<<(%u,%u,%u),(%u,%u,%u)>>> launched at %s:%d (launch %lu)",
             rt.kernel, rt.grid[0], rt.grid[1], rt.grid[2], rt.block[0], rt.block[1],
             rt.block[2], rt.file, rt.line, rt.launches);
}

/* Writes the finding of any sentinel byte changed; true when one was. */
static bool check_sentinels(const char *when, const char *file, int line)
{
    bool found = false;
    for (size_t i = 0; i < rt.nallocs; i++) {
        struct dev_alloc *a = &rt.allocs[i];
        if (a->freed)
            continue;
        unsigned char *lo = (unsigned char *)a->map + PAGE;
        unsigned char *hi = (unsigned char *)a->map + a->map_len - PAGE;
        unsigned char *u = (unsigned char *)a->user, *e = u + a->bytes;
        const unsigned char *bad = NULL;
        for (const unsigned char *p = e; p < hi && !bad; p++)
            bad = *p != SENTINEL ? p : NULL;
        for (const unsigned char *p = lo; p < u && !bad; p++)
            bad = *p != SENTINEL ? p : NULL;
        if (!bad)
            continue;
        char an[300], ln[400];
        alloc_name(a, an, sizeof an);
        launch_name(ln, sizeof ln);
        long off = bad >= e ? (long)(bad - e) : (long)(u - bad);
        char at[300] = "";
        if (file)
            snprintf(at, sizeof at, " at %s:%d", file, line);
        record("out-of-bounds", "a write %ld byte%s %s %s\n  found %s%s (the last launch: %s)",
               off, off == 1 ? "" : "s",
               bad >= e ? "past the end of" : "before the start of", an, when, at, ln);
        memset(lo, SENTINEL, (size_t)(u - lo)); /* reported once */
        memset(e, SENTINEL, (size_t)(hi - e));
        found = true;
    }
    return found;
}

/* ---- the table ---------------------------------------------------------------------------- */

static int api_alloc(void **p, unsigned long bytes, int host, const char *file, int line)
{
    size_t round = (bytes + 15) & ~(size_t)15;
    size_t data = round ? (round + PAGE - 1) & ~(PAGE - 1) : PAGE;
    if (bytes > ((size_t)1 << 40))
        return 2;
    size_t len = data + 2 * PAGE;
    char *map = mmap(NULL, len, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (map == MAP_FAILED)
        return 2;
    if (mprotect(map + PAGE, data, PROT_READ | PROT_WRITE) != 0) {
        munmap(map, len);
        return 2;
    }
    char *user = map + PAGE + data - round;
    memset(map + PAGE, SENTINEL, data);
    memset(user, 0xff, bytes);
    if (rt.nallocs == rt.cap)
        rt.allocs = xrealloc(rt.allocs, (rt.cap = rt.cap * 2 + 16) * sizeof *rt.allocs);
    /* host: 1 pinned host memory, 2 managed; neither is tracked (host code writes them) */
    unsigned char *written = NULL;
    if (host == 0 && !(written = prog_shadow_new(bytes))) {
        munmap(map, len);
        return 2;
    }
    rt.allocs[rt.nallocs++] = (struct dev_alloc){.map = map, .map_len = len, .user = user,
                                                 .bytes = bytes, .host = host == 1,
                                                 .managed = host == 2, .written = written,
                                                 .file = file, .line = line};
    *p = user;
    span_lo = (uintptr_t)map < span_lo ? (uintptr_t)map : span_lo;
    span_hi = (uintptr_t)map + len > span_hi ? (uintptr_t)map + len : span_hi;
    return 0;
}

static int api_release(void *p, int host, const char *file, int line)
{
    if (!p)
        return 0;
    struct dev_alloc *a = find_alloc(p);
    if (!a || a->user != (char *)p) {
        char an[300] = "";
        if (a)
            alloc_name(a, an, sizeof an);
        record("bad-free", "%s(%p) at %s:%d: %s%s", host ? "free of host memory" : "free", p,
               file, line, a ? "not the start of " : "no allocation of this runtime", an);
        return 1;
    }
    if (a->freed) {
        char an[300];
        alloc_name(a, an, sizeof an);
        record("bad-free", "double free at %s:%d of %s, already freed at %s:%d", file, line, an,
               a->free_file, a->free_line);
        return 1;
    }
    check_sentinels("at its free", file, line);
    a->freed = true;
    a->free_file = file;
    a->free_line = line;
    mprotect(a->map, a->map_len, PROT_NONE); /* kept mapped: a later access is a use after free */
    prog_shadow_free(a->written, a->bytes);
    a->written = NULL;
    return 0;
}

static struct dev_symbol *find_symbol(const void *p)
{
    const char *c = p;
    for (size_t i = 0; i < rt.nsyms; i++)
        if (c >= rt.syms[i].addr && c < rt.syms[i].addr + rt.syms[i].size)
            return &rt.syms[i];
    return NULL;
}

/* "the 20-byte symbol c_taps" (HIP_SYMBOL(x) named as x) */
static void symbol_name(const struct dev_symbol *s, char *out, size_t n)
{
    snprintf(out, n, "the %zu-byte symbol %s", s->size, s->name);
}

static void api_symbol(void *sym, unsigned long size, const char *name)
{
    for (size_t i = 0; i < rt.nsyms; i++)
        if (rt.syms[i].addr == sym)
            return;
    if (rt.nsyms == rt.syms_cap)
        rt.syms = xrealloc(rt.syms, (rt.syms_cap = rt.syms_cap * 2 + 8) * sizeof *rt.syms);
    struct dev_symbol *s = &rt.syms[rt.nsyms++];
    *s = (struct dev_symbol){.addr = sym, .size = size};
    const char *hs = "HIP_SYMBOL(";
    size_t k = strlen(hs), len = strlen(name);
    if (strncmp(name, hs, k) == 0 && len > k && name[len - 1] == ')')
        snprintf(s->name, sizeof s->name, "%.*s", (int)(len - k - 1), name + k);
    else
        snprintf(s->name, sizeof s->name, "%s", name);
}

/* Checks one side of a copy: 0 when [p, p+n) is host memory or inside a live allocation or a
 * known symbol, else 1 after the finding. dev: the call says p is device memory. */
static int check_side(const char *call, const char *side, const void *p, size_t n, bool dev,
                      const char *file, int line)
{
    struct dev_alloc *a = find_alloc(p);
    struct dev_symbol *sym = a ? NULL : find_symbol(p);
    if (sym) {
        const char *c = p;
        if (c + n <= sym->addr + sym->size)
            return 0;
        char sn[160];
        symbol_name(sym, sn, sizeof sn);
        record("copy-out-of-bounds", "%s of %zu bytes at %s:%d: the %s runs %zu bytes past the "
               "end of %s (it starts at byte %zu)", call, n, file, line, side,
               (size_t)(c + n - (sym->addr + sym->size)), sn, (size_t)(c - sym->addr));
        return 1;
    }
    if (!a) {
        if (!dev)
            return 0;
        record("copy-out-of-bounds", "%s of %zu bytes at %s:%d: the %s %p is no device "
               "allocation", call, n, file, line, side, p);
        return 1;
    }
    char an[300];
    alloc_name(a, an, sizeof an);
    if (a->freed) {
        record("use-after-free", "%s of %zu bytes at %s:%d: the %s is inside %s, freed at %s:%d",
               call, n, file, line, side, an, a->free_file, a->free_line);
        return 1;
    }
    const char *c = p;
    if (c < a->user || c + n > a->user + a->bytes) {
        if (c >= a->user)
            record("copy-out-of-bounds", "%s of %zu bytes at %s:%d: the %s runs %zu bytes past "
                   "the end of %s (it starts at byte %zu)", call, n, file, line, side,
                   (size_t)(c + n - (a->user + a->bytes)), an, (size_t)(c - a->user));
        else
            record("copy-out-of-bounds", "%s of %zu bytes at %s:%d: the %s starts %zu bytes "
                   "before %s", call, n, file, line, side, (size_t)(a->user - c), an);
        return 1;
    }
    return 0;
}

/* After a checked copy of bytes from src (NULL: a memset) into dst: a tracked destination's
 * bytes take the state of a tracked source's (never-written bytes stay so, wherever they are
 * copied to), else they are written now. */
static void mark_copied(void *dst, const void *src, size_t bytes)
{
    struct dev_alloc *d = find_alloc(dst), *s = src ? find_alloc(src) : NULL;
    if (!d || !d->written)
        return;
    size_t doff = (size_t)((char *)dst - d->user);
    if (s && s->written)
        prog_shadow_copy(d->written, doff, s->written, (size_t)((const char *)src - s->user),
                         bytes);
    else
        prog_shadow_mark(d->written, doff, bytes);
}

static int api_copy(void *dst, const void *src, unsigned long bytes, int kind, const char *file,
                    int line)
{
    if (!bytes)
        return 0;
    if (!dst || !src)
        return 1;
    bool dst_dev = kind == 1 || kind == 3, src_dev = kind == 2 || kind == 3;
    if (kind < 0 || kind > 4)
        return 1;
    if (check_side("copy", "destination", dst, bytes, dst_dev, file, line) ||
        check_side("copy", "source", src, bytes, src_dev, file, line))
        return 1;
    memmove(dst, src, bytes);
    mark_copied(dst, src, bytes);
    return 0;
}

static int api_fill(void *dst, int value, unsigned long bytes, const char *file, int line)
{
    if (!bytes)
        return 0;
    if (check_side("memset", "destination", dst, bytes, true, file, line))
        return 1;
    memset(dst, value, bytes);
    mark_copied(dst, NULL, bytes);
    return 0;
}

static int api_symcopy(void *sym, unsigned long size, const char *name, unsigned long offset,
                       void *buf, unsigned long count, int to_symbol, int kind,
                       const char *file, int line)
{
    api_symbol(sym, size, name);
    struct dev_symbol *s = find_symbol(sym);
    const char *call = to_symbol ? "copy to a symbol" : "copy from a symbol";
    if (!count)
        return 0;
    if (!buf || kind < 0 || kind > 4)
        return 1;
    if (offset > size || count > size - offset) {
        char sn[160];
        symbol_name(s, sn, sizeof sn);
        record("copy-out-of-bounds", "%s of %lu bytes at %s:%d: the %s runs %lu bytes past the "
               "end of %s (it starts at byte %lu)", call, count, file, line,
               to_symbol ? "destination" : "source", offset + count - size, sn, offset);
        return 1;
    }
    /* the other side is device memory only in a device-to-device copy (or by lookup) */
    if (check_side(call, to_symbol ? "source" : "destination", buf, count, kind == 3, file,
                   line))
        return 1;
    char *at = (char *)sym + offset;
    if (to_symbol) {
        memmove(at, buf, count);
    } else {
        memmove(buf, at, count);
        mark_copied(buf, at, count);
    }
    return 0;
}

/* The finding of each allocation the launch under way read never-written bytes of, then the
 * counts start again for the next launch. */
static void report_uninit(void)
{
    char ln[400];
    launch_name(ln, sizeof ln);
    for (size_t i = 0; i < rt.nallocs; i++) {
        struct dev_alloc *a = &rt.allocs[i];
        unsigned long n = __atomic_load_n(&a->uninit_reads, __ATOMIC_ACQUIRE);
        if (!n || !__atomic_load_n(&a->uninit_ready, __ATOMIC_ACQUIRE))
            continue;
        char an[300], more[120] = "";
        alloc_name(a, an, sizeof an);
        if (n > 1)
            snprintf(more, sizeof more, "\n  and %lu more read%s of never-written bytes of it in "
                     "this launch", n - 1, n == 2 ? "" : "s");
        record(ENG_PROG_KIND_UNINIT, "a read of %u byte%s at byte %zu of %s, never written (no "
               "copy, memset or kernel store reached it): %s\n  at %s\n  in %s%s",
               a->uninit_size, a->uninit_size == 1 ? "" : "s", a->uninit_off, an,
               a->uninit_who[0] ? a->uninit_who : "by an emulated thread",
               a->uninit_code[0] ? a->uninit_code : "(no kernel line)", ln, more);
        __atomic_store_n(&a->uninit_ready, 0, __ATOMIC_RELAXED);
        __atomic_store_n(&a->uninit_reads, 0, __ATOMIC_RELAXED);
    }
}

/* A 2D copy's or memset's rows against pitch: a row wider than its pitch is a finding (the
 * vendors' runtimes refuse it), else 0. */
static int check_pitch(const char *call, const char *side, unsigned long width,
                       unsigned long pitch, const char *file, int line)
{
    if (width <= pitch)
        return 0;
    record("copy-out-of-bounds", "%s at %s:%d: rows of %lu bytes are wider than the %s's pitch "
           "of %lu bytes", call, file, line, width, side, pitch);
    return 1;
}

static int api_copy2d(void *dst, unsigned long dpitch, const void *src, unsigned long spitch,
                      unsigned long width, unsigned long height, int kind, const char *file,
                      int line)
{
    if (!width || !height)
        return 0;
    if (!dst || !src || kind < 0 || kind > 4)
        return 1;
    char call[160];
    snprintf(call, sizeof call, "2D copy (%lu rows of %lu bytes)", height, width);
    if (check_pitch(call, "destination", width, dpitch, file, line) ||
        check_pitch(call, "source", width, spitch, file, line))
        return 1;
    /* each side's extent: from its first row's start to its last row's end */
    size_t dspan = dpitch * (height - 1) + width, sspan = spitch * (height - 1) + width;
    bool dst_dev = kind == 1 || kind == 3, src_dev = kind == 2 || kind == 3;
    if (check_side(call, "destination", dst, dspan, dst_dev, file, line) ||
        check_side(call, "source", src, sspan, src_dev, file, line))
        return 1;
    for (unsigned long r = 0; r < height; r++) {
        char *d = (char *)dst + r * dpitch;
        const char *sr = (const char *)src + r * spitch;
        memmove(d, sr, width);
        mark_copied(d, sr, width);
    }
    return 0;
}

static int api_fill2d(void *dst, unsigned long pitch, int value, unsigned long width,
                      unsigned long height, const char *file, int line)
{
    if (!width || !height)
        return 0;
    char call[160];
    snprintf(call, sizeof call, "2D memset (%lu rows of %lu bytes)", height, width);
    if (check_pitch(call, "destination", width, pitch, file, line) ||
        check_side(call, "destination", dst, pitch * (height - 1) + width, true, file, line))
        return 1;
    for (unsigned long r = 0; r < height; r++) {
        memset((char *)dst + r * pitch, value, width);
        mark_copied((char *)dst + r * pitch, NULL, width);
    }
    return 0;
}

static int api_sync(const char *file, int line)
{
    check_sentinels("at a synchronisation", file, line);
    return 0;
}

static int api_launch(void (*entry)(struct kl_cpu_thread *, void **),
                      const struct kl_cpu_sig *sig, void **args, const unsigned grid[3],
                      const unsigned block[3], unsigned long shared, const char *kernel,
                      const char *file, int line)
{
    struct eng_kernel *k;
    if (eng_cpu_kernel_wrap(rt.mod, entry, sig, &k) != 0)
        return 999;
    unsigned long threads = (unsigned long)block[0] * block[1] * block[2];
    if (!grid[0] || !grid[1] || !grid[2] || !threads || threads > 1024 || shared > (1ul << 20))
        return 9; /* cudaErrorInvalidConfiguration, as a GPU answers it */
    rt.kernel = kernel;
    rt.file = file;
    rt.line = line;
    memcpy(rt.grid, grid, sizeof rt.grid);
    memcpy(rt.block, block, sizeof rt.block);
    rt.launches++;
    char err[4096] = "";
    int rc = rt.b->launch(rt.ctx, k, grid, block, (unsigned)shared, NULL, args, err, sizeof err);
    if (rc != 0) {
        rt.kernel = NULL;
        return 9;
    }
    char ln[400];
    launch_name(ln, sizeof ln);
    if (rt.b->stream_sync(rt.ctx, NULL, err, sizeof err) != 0) {
        report_uninit();
        record("launch", "%s: %s", ln, err);
        rt.kernel = NULL;
        return 999;
    }
    char race[4096];
    if (rt.b->race_take && rt.b->race_take(rt.ctx, race, sizeof race) > 0)
        record("race", "%s:\n%s", ln, race);
    report_uninit();
    check_sentinels("after the launch", file, line);
    rt.kernel = NULL;
    return 0;
}

/* ---- faults ------------------------------------------------------------------------------- */

static void report_access(struct dev_alloc *a, const void *addr, int is_write,
                          const char *code) __attribute__((noreturn));

static void on_fault(const void *addr, int is_write, const char *code)
{
    struct dev_alloc *a = find_alloc(addr);
    if (!a)
        return; /* not an allocation of ours: the crash it is */
    report_access(a, addr, is_write, code);
}

/* A kernel's read of never-written bytes [off, off + size) of a: counted; the first of the
 * launch is described for its finding (report_uninit). */
static void note_uninit(struct dev_alloc *a, size_t off, unsigned size, const void *ret_pc)
{
    if (__atomic_fetch_add(&a->uninit_reads, 1, __ATOMIC_ACQ_REL) != 0)
        return;
    a->uninit_off = off;
    a->uninit_size = size;
    unsigned t[6];
    a->uninit_who[0] = '\0';
    if (rt.current && rt.current(t))
        snprintf(a->uninit_who, sizeof a->uninit_who, "by thread (%u,%u,%u) of block (%u,%u,%u)",
                 t[3], t[4], t[5], t[0], t[1], t[2]);
    cpu_guard_describe(ret_pc, a->uninit_code, sizeof a->uninit_code);
    __atomic_store_n(&a->uninit_ready, 1, __ATOMIC_RELEASE);
}

static void on_access(const void *addr, unsigned size, int is_write, const void *ret_pc)
{
    uintptr_t x = (uintptr_t)addr;
    if (x + size <= span_lo || x >= span_hi)
        return;
    struct dev_alloc *a = find_alloc(addr);
    if (!a || size == 0)
        return;
    const char *c = addr;
    bool inside = !a->freed && c >= a->user && c + size <= a->user + a->bytes;
    bool in_pages = !a->freed && c >= a->map + PAGE && c + size <= a->map + a->map_len - PAGE;
    if (inside && a->written) {
        size_t off = (size_t)(c - a->user);
        if (is_write) /* a store, or an atomic: either leaves the bytes written */
            prog_shadow_mark(a->written, off, size);
        else if (prog_shadow_first_unwritten(a->written, off, size) != (size_t)-1)
            note_uninit(a, off, size, ret_pc);
    }
    if (inside || in_pages)
        return; /* the slack before the guards: a write there is the sentinels' to find */
    char code[400];
    cpu_guard_describe(ret_pc, code, sizeof code);
    /* one that starts inside and runs past the end (a range: memcpy) is told at the end */
    report_access(a, c < a->user || a->freed ? addr : a->user + a->bytes, is_write, code);
}

static void report_access(struct dev_alloc *a, const void *addr, int is_write, const char *code)
{
    char an[300], ln[400], who[160] = "", what[200];
    alloc_name(a, an, sizeof an);
    launch_name(ln, sizeof ln);
    unsigned t[6];
    if (rt.current && rt.current(t))
        snprintf(who, sizeof who, " by thread (%u,%u,%u) of block (%u,%u,%u)", t[3], t[4], t[5],
                 t[0], t[1], t[2]);
    const char *acc = is_write == 1 ? "write" : is_write == 0 ? "read" : "access";
    const char *c = addr;
    const char *kind = "out-of-bounds";
    report_uninit(); /* what the launch read before it stops here */
    if (a->freed) {
        kind = "use-after-free";
        snprintf(what, sizeof what, "a %s at byte %ld of it, freed at %s:%d", acc,
                 (long)(c - a->user), a->free_file, a->free_line);
    } else if (c >= a->user + a->bytes) {
        snprintf(what, sizeof what, "a %s %zu bytes past its end", acc,
                 (size_t)(c - (a->user + a->bytes)));
    } else {
        snprintf(what, sizeof what, "a %s %zu bytes before its start", acc, (size_t)(a->user - c));
    }
    record(kind, "%s, in %s: %s\n  at %s\n  in %s", what, an,
           who[0] ? who + 1 : "an emulated thread", code[0] ? code : "(no kernel line)", ln);
    fflush(stdout);
    _exit(ENG_WORKER_EXIT_FINDING);
}

/* ---- the child ---------------------------------------------------------------------------- */

static void setup_failed(const char *fmt, ...) __attribute__((format(printf, 1, 2), noreturn));
static void setup_failed(const char *fmt, ...)
{
    char buf[2048];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    record("error", "%s", buf);
    _exit(ENG_PROG_EXIT_SETUP);
}

void eng_prog_child(const void *code, size_t len, const struct eng_prog_opts *o, int findings_fd)
{
    rt.fd = findings_fd;
    rt.b = eng_backend_emulator();
    char err[2048];
    struct eng_open_opts opts = {.wave_size = o->wave, .schedule = o->schedule, .seed = o->seed};
    if (!rt.b || rt.b->open(0, &opts, &rt.ctx, err, sizeof err) != 0)
        setup_failed("the cpu backend did not open: %s", rt.b ? err : "not built in");
    /* OpenMP's runtime for host code that calls it (omp_get_num_procs, omp_get_wtime): the
     * object is compiled without -fopenmp, so its pragmas run serially and only its calls need
     * the library. Where libgomp is not installed such a call stays unresolved, and the run
     * ends as an error naming it. */
    (void)dlopen("libgomp.so.1", RTLD_LAZY | RTLD_GLOBAL);
    if (rt.b->module_load(rt.ctx, code, len, &rt.mod, err, sizeof err) != 0)
        setup_failed("%s", err);
    void *slot = NULL, *main_fn = NULL, *current = NULL;
    if (rt.b->module_symbol(rt.ctx, rt.mod, "main", &main_fn, err, sizeof err) != 0)
        setup_failed("%s defines no main(): nothing to run (kladder run takes a kernel alone)",
                     o->path);
    if (rt.b->module_symbol(rt.ctx, rt.mod, "kl_exec_api", &slot, err, sizeof err) != 0)
        setup_failed("the compiled program has no host runtime table: %s", err);
    if (rt.b->module_symbol(rt.ctx, rt.mod, "kl_exec_current", &current, err, sizeof err) == 0)
        *(void **)&rt.current = current;
    static struct kl_exec_api api = {.abi = KL_EXEC_ABI_VERSION, .alloc = api_alloc,
                                     .release = api_release, .copy = api_copy,
                                     .fill = api_fill, .launch = api_launch, .sync = api_sync,
                                     .symbol = api_symbol, .symcopy = api_symcopy,
                                     .copy2d = api_copy2d, .fill2d = api_fill2d};
    api.wave = o->wave;
    *(const struct kl_exec_api **)slot = &api;
    if (rt.b->race_take) { /* keep race reports for us to take after each launch */
        char none[8];
        rt.b->race_take(rt.ctx, none, sizeof none);
    }
    cpu_guard_install();
    cpu_guard_set_fault_hook(on_fault);
    cpu_guard_set_access_hook(on_access);
    setvbuf(stdout, NULL, _IOLBF, 0);
    int (*program)(int, char **, char **) = NULL;
    *(void **)&program = main_fn;
    extern char **environ;
    int status = program(o->argc, o->argv, environ);
    fflush(stdout);
    fflush(stderr);
    check_sentinels("when main returned", NULL, 0);
    _exit(status & 0xff);
}
