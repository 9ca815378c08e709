/* The cpu backend: the same kernel sources on the host, for CI and machines without a GPU.
 *
 * compile: the host C++ compiler ($CXX, else c++ or g++) builds the source with -DKL_CPU into
 * a shared object; module_load writes those bytes to a private temporary file and dlopens it.
 * Launches run on the block scheduler of cpu_sched.c.
 *
 * Streams are queues: nothing runs until a synchronisation point (stream_sync, memcpy_dtoh,
 * event_elapsed_ms), and there only the work that point depends on runs — the previous work of
 * its stream and, through stream_wait_event, the producers it waits for. Work of other streams
 * stays queued, so a consumer that forgot its event reads stale data every time. Streams made by
 * stream_create do not synchronise with the null stream (like the GPU backends' non-blocking
 * streams). Among the work a point needs, the default schedule runs in submission order, the
 * adversarial one runs the latest-submitted ready work first, the random one picks at random.
 * A captured graph is the recorded list of work, replayed as recorded. */
#define _GNU_SOURCE
#include "engine/backend/backend.h"
#include "engine/toolchain/cache_env.h"

#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <gnu/libc-version.h>
#include <link.h>
#include <pthread.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define KL_ABI_ONLY
#include "kernels/kl.h"

#include "common/xalloc.h"
#include "engine/cpu/cpu_exec.h"
#include "engine/cpu/cpu_guard.h"
#include "engine/cpu/cpu_pch.h"
#include "engine/cpu/cpu_sched.h"
#include "engine/toolchain/preproc_confine.h"
#include "engine/toolchain/tool_run.h"

/* ---- the host compiler ------------------------------------------------------------------- */

static char cxx_path[512];
static char cxx_id[160];
static int load_state; /* 0 not tried, 1 ok, -1 failed */
static char load_why[256];

/* Runs argv, collecting stdout and stderr (up to outlen-1 bytes) into out. Returns the exit
 * status, or -1 when it could not run. The compiler sees only the variables the cache-key
 * inventory lists (engine/toolchain/cache_env.h): one it would read unlisted (CPATH...) could change the
 * code without changing the key. */
static int run_capture(char *const argv[], char *out, size_t outlen)
{
    char **env = eng_compile_child_env();
    int rc = eng_tool_run_limit(argv, env, eng_compile_limit_s(), out, outlen);
    eng_compile_child_env_free(env);
    return rc;
}

static int cpu_load(char *why, size_t whylen)
{
    if (load_state == 0) {
        const char *env = eng_compile_getenv("CXX");
        const char *cands[] = {env && *env ? env : "c++", "c++", "g++", "clang++"};
        load_state = -1;
        snprintf(load_why, sizeof load_why,
                 "no host C++ compiler found ($CXX, c++, g++ or clang++ on PATH); the cpu backend "
                 "compiles kernels with it");
        for (size_t i = 0; i < sizeof cands / sizeof *cands; i++) {
            if (!eng_tool_find(cands[i], cxx_path, sizeof cxx_path))
                continue;
            static char opt_version[] = "--version";
            char *argv[] = {cxx_path, opt_version, NULL};
            char out[1024];
            if (run_capture(argv, out, sizeof out) != 0)
                continue;
            out[strcspn(out, "\n")] = '\0';
            snprintf(cxx_id, sizeof cxx_id, "%.150s", out);
            load_state = 1;
            break;
        }
    }
    if (load_state < 0 && why)
        snprintf(why, whylen, "%s", load_why);
    return load_state > 0 ? 0 : -1;
}

static const char *cpu_compiler_id(void)
{
    cpu_load(NULL, 0);
    return cxx_id[0] ? cxx_id : "c++ (not found)";
}

/* Thrust for the cpu backend: the vendor's own library with its host (CPP) device system, which
 * kernels/kl_vendor.h selects. Its folder is $KLADDER_THRUST ("off": none), else the CUDA
 * toolkit's CCCL folder ($CUDA_HOME, $CUDA_PATH, /usr/local/cuda: include/cccl), taken only
 * where it holds thrust/ and none of the toolkit's runtime headers, which would shadow
 * kladder's own. A system-wide Thrust (Debian's libthrust-dev) is on the compiler's own path
 * already. "" where there is none. */
static char *cpu_thrust_root(void)
{
    static char root[512];
    static bool looked;
    if (looked)
        return root;
    looked = true;
    const char *env = eng_compile_getenv("KLADDER_THRUST");
    if (env && *env) {
        if (strcmp(env, "off") != 0)
            snprintf(root, sizeof root, "%s", env);
        return root;
    }
    const char *homes[] = {eng_compile_getenv("CUDA_HOME"), eng_compile_getenv("CUDA_PATH"),
                           "/usr/local/cuda"};
    for (size_t i = 0; i < sizeof homes / sizeof *homes; i++) {
        if (!homes[i] || !*homes[i])
            continue;
        char probe[600], shadow[600];
        snprintf(probe, sizeof probe, "%s/include/cccl/thrust/version.h", homes[i]);
        snprintf(shadow, sizeof shadow, "%s/include/cccl/cuda_runtime_api.h", homes[i]);
        if (access(probe, R_OK) == 0 && access(shadow, F_OK) != 0) {
            snprintf(root, sizeof root, "%s/include/cccl", homes[i]);
            return root;
        }
    }
    return root;
}

/* A "+access" target: built with the access hooks the pct schedule interleaves at. */
static bool access_target(const char *target)
{
    size_t tlen = target ? strlen(target) : 0;
    return tlen > 7 && strcmp(target + tlen - 7, "+access") == 0;
}

/* The compiler as the cache key sees it: its identity and the fixed options of cpu_compile, so
 * that a change of those options (the access hooks of a "+access" target among them) never
 * reuses an object built with the old ones. */
/* GCC gives a static local of a function with default visibility (a template kernel's
 * `__shared__ float s;`, kl_vendor.h's __global__ is visible) STB_GNU_UNIQUE binding: the
 * dynamic linker then makes every loaded module use the first one's variable, outside the
 * module's own thread-local block that the emulator keeps per block, so all blocks shared it
 * (a correct kernel raced with itself, a missing barrier was lost). -fno-gnu-unique keeps each
 * module's own; clang never emits such symbols and does not know the option. */
static bool cpu_gnu_unique_option(void)
{
    return !strstr(cpu_compiler_id(), "clang");
}

static const char *cpu_compiler_for(const char *target)
{
    static char id[sizeof cxx_id + 500];
    bool hooks = access_target(target);
    const char *thrust = cpu_thrust_root();
    snprintf(id, sizeof id, "%s [-std=c++17 -DKL_CPU -O2 -fPIC -fvisibility=hidden%s -w -g1 "
             "-ffile-prefix-map=TMP=.%s%s%.300s; -shared]",
             cpu_compiler_id(), cpu_gnu_unique_option() ? " -fno-gnu-unique" : "",
             hooks ? " -fsanitize=thread" : "", *thrust ? " -isystem " : "", thrust);
    return id;
}

/* The wave width is the scheduler's, never the compiler's: "cpu-wave32" and "cpu-wave64" compile
 * the same object (cpu_compile reads the target only for "+access"). */
static void cpu_cache_target(const char *target, char *out, size_t n)
{
    bool hooks = access_target(target);
    snprintf(out, n, "cpu%s", hooks ? "+access" : "");
}

static int cpu_device_count(int *count, char *err, size_t errlen)
{
    if (cpu_load(err, errlen) != 0)
        return -1;
    *count = 1;
    return 0;
}

/* Read once: glibc reads /sys for every sysconf call, and the cpu backend asks at every launch. */
static int cpu_threads(void)
{
    static int threads;
    if (!threads) {
        long n = sysconf(_SC_NPROCESSORS_ONLN);
        threads = n < 1 ? 1 : n > 64 ? 64 : (int)n;
    }
    return threads;
}

static int cpu_device_info(int index, struct eng_device_info *out, char *err, size_t errlen)
{
    if (cpu_load(err, errlen) != 0)
        return -1;
    if (index != 0) {
        snprintf(err, errlen, "cpu backend: device %d does not exist (there is one, 0)", index);
        return -1;
    }
    memset(out, 0, sizeof *out);
    struct utsname u;
    if (uname(&u) != 0)
        memset(&u, 0, sizeof u);
    snprintf(out->name, sizeof out->name, "cpu emulation (%s, %d threads)", u.machine, cpu_threads());
    snprintf(out->target, sizeof out->target, "cpu-wave32");
    snprintf(out->target_full, sizeof out->target_full, "cpu-wave32");
    out->wave_size = 32;
    out->compute_units = cpu_threads();
    long pages = sysconf(_SC_PHYS_PAGES), psz = sysconf(_SC_PAGESIZE);
    out->mem_bytes = pages > 0 && psz > 0 ? (int64_t)pages * psz : 0;
    out->max_threads_per_block = 1024;
    out->shared_mem_per_block = 1 << 20;
    snprintf(out->driver_version, sizeof out->driver_version, "%.20s %.40s", u.sysname, u.release);
    snprintf(out->runtime_version, sizeof out->runtime_version, "kladder cpu emulator %d (glibc %s)",
             KL_CPU_ABI_VERSION, gnu_get_libc_version());
    snprintf(out->compiler_version, sizeof out->compiler_version, "%.63s", cpu_compiler_id());
    return 0;
}

/* ---- compile ---------------------------------------------------------------------------- */

static void cpu_compile_target(const struct eng_device_info *info, int wave, char *out, size_t n)
{
    (void)info;
    snprintf(out, n, "cpu-wave%d", wave == 64 ? 64 : 32);
}

static int write_file(const char *path, const void *data, size_t len)
{
    int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
    if (fd < 0)
        return -1;
    const char *p = data;
    while (len) {
        ssize_t n = write(fd, p, len);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0) {
            close(fd);
            return -1;
        }
        p += n;
        len -= (size_t)n;
    }
    return close(fd);
}

static void *read_whole(const char *path, size_t *len)
{
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return NULL;
    struct stat st;
    if (fstat(fd, &st) != 0 || st.st_size <= 0) {
        close(fd);
        return NULL;
    }
    char *buf = xmalloc((size_t)st.st_size);
    size_t got = 0;
    while (got < (size_t)st.st_size) {
        ssize_t n = read(fd, buf + got, (size_t)st.st_size - got);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            break;
        got += (size_t)n;
    }
    close(fd);
    if (got != (size_t)st.st_size) {
        free(buf);
        return NULL;
    }
    *len = got;
    return buf;
}

/* What a compile or link that did not end well says, where the tool said nothing itself. */
static void say_failed(int st, bool refused, const char *name, char *log, size_t loglen)
{
    if (st == ENG_TOOL_TIMED_OUT && !refused)
        snprintf(log, loglen, "cpu backend: the compile of %s did not finish within %g s "
                 "(KLADDER_COMPILE_TIMEOUT) and was stopped", name ? name : "the kernel",
                 eng_compile_limit_s());
    if (st > 0 && log[0] == '\0')
        snprintf(log, loglen, "%s exited with status %d compiling %s", cxx_path, st,
                 name ? name : "the kernel");
}

/* The preprocessor alone, with the compile's own options argv[0..a) (room for four more and
 * the end): every file it reaches must be the system's, kladder's or this folder's
 * (engine/toolchain/preproc_confine.h). 0, or the refusal's status with log filled. */
static int confine(char **argv, size_t a, const char *dir, char *src, const char *pch, char *log,
                   size_t loglen)
{
    static char o_e[] = "-E", o_out[] = "-o";
    char *pre = xasprintf("%s/kernel.ii", dir);
    argv[a] = o_e;
    argv[a + 1] = o_out;
    argv[a + 2] = pre;
    argv[a + 3] = src;
    argv[a + 4] = NULL;
    char *pch_dir = pch ? xstrdup(pch) : NULL;
    if (pch_dir && strrchr(pch_dir, '/'))
        *strrchr(pch_dir, '/') = '\0';
    const char *roots[] = {dir, pch_dir, NULL};
    char **env = eng_compile_child_env();
    int st = eng_preproc_confine(argv, env, eng_compile_limit_s(), pre, roots, log, loglen);
    eng_compile_child_env_free(env);
    free(pre);
    free(pch_dir);
    return st;
}

/* Whether target is one cpu_compile builds, else false with why in log. "+access": built with
 * the access hooks the pct schedule interleaves at (a separate target, so the cache keeps both
 * builds; the hooks cost every other schedule ~2x). */
static bool cpu_target_known(const char *target, char *log, size_t loglen)
{
    size_t tlen = strlen(target);
    char plain[32];
    snprintf(plain, sizeof plain, "%.*s", (int)(access_target(target) ? tlen - 7 : tlen), target);
    if (strcmp(plain, "cpu-wave32") != 0 && strcmp(plain, "cpu-wave64") != 0 &&
        strcmp(plain, "cpu") != 0) {
        snprintf(log, loglen, "cpu backend: target '%s' is not cpu-wave32 or cpu-wave64 (with "
                 "+access for the pct schedule)", target);
        return false;
    }
    return true;
}

static int cpu_compile(const char *target, const char *source, const char *name,
                       const char *const *flags, void **code, size_t *code_len, char *log,
                       size_t loglen)
{
    if (cpu_load(log, loglen) != 0 || !cpu_target_known(target, log, loglen))
        return -1;
    bool access_hooks = access_target(target);
    char *dir = eng_tool_tmpdir("kladder-cpu", log, loglen);
    if (!dir)
        return -1;
    char *src = xasprintf("%s/%s.cpp", dir, "kernel");
    char *obj = xasprintf("%s/kernel.so", dir);
    int rc = -1;
    if (write_file(src, source, strlen(source)) != 0) {
        snprintf(log, loglen, "cpu backend: cannot write %s: %s", src, strerror(errno));
        goto out;
    }
    size_t nflags = 0;
    while (flags && flags[nflags])
        nflags++;
    char *o_file = xasprintf("%s/kernel.o", dir);
    char **argv = xcalloc(nflags + 24, sizeof *argv); /* the fixed options, -include, the rest */
    size_t a = 0;
    /* The fixed options; the cache key includes them through compiler_id and the flags.
     * -fsanitize=thread is there for its instrumentation only: kl.h defines the callbacks it
     * inserts before every load and store (the scheduler's switch points and the race check),
     * and the link step below leaves the sanitizer's runtime out. -g1 (line tables) always:
     * the race report names the source line of each access, and a fault (an access past
     * shared memory, a crash) the line it happened at (module_where, cpu_guard.h). */
    static char o_std[] = "-std=c++17", o_def[] = "-DKL_CPU", o_opt[] = "-O2",
                o_pic[] = "-fPIC", o_vis[] = "-fvisibility=hidden", o_w[] = "-w",
                o_tsan[] = "-fsanitize=thread", o_g[] = "-g1", o_c[] = "-c", o_out[] = "-o",
                o_shared[] = "-shared", o_unique[] = "-fno-gnu-unique";
    /* the temporary folder is no part of the object: a warm cache and a cold compile give the
     * same bytes (engine/cache/cache_warm_cold.h) although the line tables name the source */
    char *o_map = xasprintf("-ffile-prefix-map=%s=.", dir);
    /* the last four are optional: -fno-gnu-unique (GCC only), the access hooks, Thrust's folder */
    static char o_isystem[] = "-isystem";
    char *fixed[] = {o_std, o_def, o_opt, o_pic, o_vis, o_w, o_g, o_map,
                     o_tsan, o_tsan, o_tsan, o_tsan};
    size_t nfixed = sizeof fixed / sizeof *fixed - 4;
    if (cpu_gnu_unique_option())
        fixed[nfixed++] = o_unique;
    if (access_hooks)
        fixed[nfixed++] = o_tsan;
    char *thrust = cpu_thrust_root();
    if (*thrust) {
        fixed[nfixed++] = o_isystem;
        fixed[nfixed++] = thrust;
    }
    /* the same options but the temporary folder's: what the precompiled headers are built with */
    char *pch_opts[sizeof fixed / sizeof *fixed];
    size_t npch = 0;
    for (size_t i = 0; i < nfixed; i++)
        if (fixed[i] != o_map)
            pch_opts[npch++] = fixed[i];
    const char *pch = cpu_pch_include(cxx_path, cxx_id, pch_opts, npch, flags);
    static char o_include[] = "-include";
    argv[a++] = cxx_path;
    for (size_t i = 0; i < nfixed; i++)
        argv[a++] = fixed[i];
    size_t at_pch = a;
    if (pch) {
        argv[a++] = o_include;
        argv[a++] = xstrdup(pch);
    }
    size_t at_flags = a;
    for (size_t i = 0; i < nflags; i++)
        argv[a++] = xstrdup(flags[i]);
    int st = confine(argv, a, dir, src, pch, log, loglen);
    argv[a++] = o_c;
    argv[a++] = o_out;
    argv[a++] = o_file;
    argv[a++] = src;
    argv[a] = NULL;
    const bool refused = st != 0;
    if (!refused)
        st = run_capture(argv, log, loglen);
    if (pch) {
        free(argv[at_pch + 1]);
        if (st != 0 && !refused && cpu_pch_blamed(log)) {
            /* a damaged precompiled header never costs a compile: once more without it */
            memmove(argv + at_pch, argv + at_flags, (a - at_flags + 1) * sizeof *argv);
            at_flags = at_pch;
            st = run_capture(argv, log, loglen);
        }
    }
    for (size_t i = 0; i < nflags; i++)
        free(argv[at_flags + i]);
    if (st == 0) {
        char *link[] = {cxx_path, o_shared, o_out, obj, o_file, NULL};
        st = run_capture(link, log, loglen);
    }
    free(argv);
    free(o_map);
    unlink(o_file);
    free(o_file);
    if (st != 0) {
        say_failed(st, refused, name, log, loglen);
        goto out;
    }
    *code = read_whole(obj, code_len);
    if (!*code) {
        snprintf(log, loglen, "cpu backend: the compiler wrote no shared object %s", obj);
        goto out;
    }
    rc = 0;
out:
    unlink(src);
    unlink(obj);
    rmdir(dir);
    free(src);
    free(obj);
    free(dir);
    return rc;
}

/* ---- context, modules, memory ----------------------------------------------------------- */

enum work_kind { W_LAUNCH, W_COPY, W_MEMSET, W_RECORD, W_WAIT, W_GRAPH };

struct eng_module {
    void *dl;
    char *path;
    void *code; /* a copy of the shared object, for its line table (module_where) */
    size_t code_len;
    char *dbg_path; /* that copy on disk once a report asked for a line, removed at unload */
    /* Unique for the life of the process. A module freed and the next one loaded can share an
     * address, so per-thread caches keyed by the module must use this, not the pointer. */
    unsigned long long serial;
    struct eng_kernel **kernels; /* owned: freed with the module */
    size_t nkernels;
};

struct eng_kernel {
    void (*entry)(struct kl_cpu_thread *, void **);
    const struct kl_cpu_sig *sig;
    struct eng_module *mod;
    bool oracle; /* the engine's own kernels (kernels/util.kl): not what a schedule tests */
};

struct work {
    enum work_kind kind;
    /* launch */
    const struct eng_kernel *k;
    unsigned grid[3], block[3], shared;
    void *argblob;
    void **argv;
    uint64_t *blocks;   /* owned: the block sample this launch runs, or NULL for all */
    size_t nblocks;
    /* copy / memset */
    void *dst;
    const void *src;
    void *staged; /* owned copy of host data (htod) */
    size_t bytes;
    uint8_t value;
    /* record */
    struct eng_event *ev;
    /* graph */
    struct eng_graph *graph;
};

struct op {
    struct work w;
    struct eng_stream *s;
    struct op *prev, *dep;
    uint64_t seq;
    bool done;
};

struct eng_graph {
    size_t n, cap;
    struct work *items;
};

/* Streams and events point at ops; when every op has run, the ops are freed and the
 * context's epoch moves on, which turns every older pointer into "nothing to wait for". */
struct eng_stream {
    struct op *last;
    uint64_t epoch;
    struct eng_graph *capture;
};

struct eng_event {
    struct op *rec;
    uint64_t epoch;
    uint64_t t_ns;
    bool timed;
};

struct alloc {
    void *p;
    size_t len;
};

struct eng_ctx {
    struct eng_open_opts opts;
    struct eng_stream null_stream;
    struct op **ops;          /* every op, in submission order */
    size_t nops, capops;
    uint64_t seq, launches, epoch;
    struct alloc *allocs;
    size_t nallocs, capallocs;
    char sticky[512];         /* the first execution error; every later call reports it */
    bool races_kept;          /* a data race is kept for race_take, not an execution error */
    char race[1024];          /* the first race since the last race_take */
    char race_note[160];      /* the first race check stopped early since the last take */
    uint64_t rng;
    uint64_t *sample;         /* the block sample of the launches that follow, or NULL */
    size_t nsample;
};

static uint64_t now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

static int cpu_open(int index, const struct eng_open_opts *opts, struct eng_ctx **out, char *err,
                    size_t errlen)
{
    if (cpu_load(err, errlen) != 0)
        return -1;
    if (index != 0) {
        snprintf(err, errlen, "cpu backend: device %d does not exist (there is one, 0)", index);
        return -1;
    }
    struct eng_ctx *c = xcalloc(1, sizeof *c);
    if (opts)
        c->opts = *opts;
    if (c->opts.wave_size == 0)
        c->opts.wave_size = 32;
    if (c->opts.wave_size != 32 && c->opts.wave_size != 64) {
        snprintf(err, errlen, "cpu backend: wave size %d (expected 32 or 64)", c->opts.wave_size);
        free(c);
        return -1;
    }
    c->rng = c->opts.seed ^ 0x51ed270b27a3f1c5ull;
    *out = c;
    return 0;
}

/* Small allocations outlive their contexts (a context is one check's): a mapping freed goes
 * to a spare list and the next allocation of its size takes it, zeroed, as a fresh mapping
 * would be (a row-sampled input reads zeros where it was not filled). Mapping, faulting in and
 * unmapping the pages of a small check's few buffers cost more than clearing them. Large ones
 * are left lazily backed and given back at once. Ranks may run on threads of their own. */
#define SPARE_MAX_LEN ((size_t)4 << 20)
#define SPARE_MAX_TOTAL ((size_t)64 << 20)
static pthread_mutex_t spare_mu = PTHREAD_MUTEX_INITIALIZER;
static struct alloc spare_maps[64];
static size_t nspare_maps, spare_bytes;

static void *spare_take(size_t len)
{
    void *p = NULL;
    pthread_mutex_lock(&spare_mu);
    for (size_t i = 0; i < nspare_maps; i++)
        if (spare_maps[i].len == len) {
            p = spare_maps[i].p;
            spare_bytes -= len;
            spare_maps[i] = spare_maps[--nspare_maps];
            break;
        }
    pthread_mutex_unlock(&spare_mu);
    if (p)
        memset(p, 0, len);
    return p;
}

static void unmap_or_keep(void *p, size_t len)
{
    bool kept = false;
    if (len <= SPARE_MAX_LEN) {
        pthread_mutex_lock(&spare_mu);
        if (nspare_maps < sizeof spare_maps / sizeof *spare_maps &&
            spare_bytes + len <= SPARE_MAX_TOTAL) {
            spare_maps[nspare_maps++] = (struct alloc){p, len};
            spare_bytes += len;
            kept = true;
        }
        pthread_mutex_unlock(&spare_mu);
    }
    if (!kept)
        munmap(p, len);
}

static void work_release(struct work *w)
{
    free(w->argblob);
    free(w->argv);
    free(w->staged);
    free(w->blocks);
    w->blocks = NULL;
    w->argblob = NULL;
    w->argv = NULL;
    w->staged = NULL;
}

static void cpu_close(struct eng_ctx *c)
{
    if (!c)
        return;
    for (size_t i = 0; i < c->nops; i++) {
        work_release(&c->ops[i]->w);
        free(c->ops[i]);
    }
    free(c->ops);
    for (size_t i = 0; i < c->nallocs; i++)
        unmap_or_keep(c->allocs[i].p, c->allocs[i].len);
    free(c->allocs);
    free(c->sample);
    free(c);
}

static int sticky(struct eng_ctx *c, char *err, size_t errlen)
{
    if (!c->sticky[0])
        return 0;
    snprintf(err, errlen, "%s", c->sticky);
    return -1;
}

static int cpu_module_load(struct eng_ctx *c, const void *code, size_t len,
                           struct eng_module **out, char *err, size_t errlen)
{
    (void)c;
    char *dir = eng_tool_tmpdir("kladder-cpu", err, errlen);
    if (!dir)
        return -1;
    char *path = xasprintf("%s/module.so", dir);
    if (write_file(path, code, len) != 0) {
        snprintf(err, errlen, "cpu backend: cannot write %s: %s", path, strerror(errno));
        free(path);
        rmdir(dir);
        free(dir);
        return -1;
    }
    /* RTLD_LAZY: a plain source is a whole translation unit whose host code may call functions
     * another file of its program defines (a `bool isPow2(unsigned)` declared only); that code
     * never runs here, so its calls are never bound. Data references are still bound now. */
    void *dl = dlopen(path, RTLD_LAZY | RTLD_LOCAL);
    unlink(path);
    rmdir(dir);
    free(dir);
    if (!dl) {
        snprintf(err, errlen, "cpu backend: dlopen of the compiled kernel failed: %s", dlerror());
        free(path);
        return -1;
    }
    static unsigned long long next_serial;
    struct eng_module *m = xcalloc(1, sizeof *m);
    m->dl = dl;
    m->path = path;
    m->code = xmalloc(len ? len : 1);
    memcpy(m->code, code, len);
    m->code_len = len;
    m->serial = __atomic_add_fetch(&next_serial, 1, __ATOMIC_RELAXED);
    *out = m;
    return 0;
}

static void cpu_module_unload(struct eng_ctx *c, struct eng_module *m)
{
    (void)c;
    if (!m)
        return;
    dlclose(m->dl);
    if (m->dbg_path) {
        unlink(m->dbg_path);
        char *slash = strrchr(m->dbg_path, '/');
        if (slash) {
            *slash = '\0';
            rmdir(m->dbg_path);
        }
        free(m->dbg_path);
    }
    free(m->code);
    for (size_t i = 0; i < m->nkernels; i++)
        free(m->kernels[i]);
    free(m->kernels);
    free(m->path);
    free(m);
}

static int cpu_kernel_get(struct eng_ctx *c, struct eng_module *m, const char *entry,
                          struct eng_kernel **out, char *err, size_t errlen)
{
    (void)c;
    char *run = xasprintf("kl_cpu_run_%s", entry), *sig = xasprintf("kl_cpu_sig_%s", entry);
    void *fr = dlsym(m->dl, run), *fs = dlsym(m->dl, sig);
    free(run);
    free(sig);
    if (!fr || !fs) {
        snprintf(err, errlen,
                 "cpu backend: entry point '%s' not found (is it a KL_KERNEL, and does the file end "
                 "with KL_EXPORT(%s)?)",
                 entry, entry);
        return -1;
    }
    /* asked again (a utility module outlives the checks that look its kernels up): the same
     * kernel, not one more */
    for (size_t i = 0; i < m->nkernels; i++)
        if (*(void **)&m->kernels[i]->entry == fr) {
            *out = m->kernels[i];
            return 0;
        }
    const struct kl_cpu_sig *s = fs;
    if (s->abi != KL_CPU_ABI_VERSION) {
        snprintf(err, errlen, "cpu backend: '%s' was built for dialect ABI %d, this kladder uses %d",
                 entry, s->abi, KL_CPU_ABI_VERSION);
        return -1;
    }
    struct eng_kernel *k = xcalloc(1, sizeof *k);
    *(void **)&k->entry = fr;
    k->sig = s;
    k->mod = m;
    k->oracle = strncmp(entry, "kl_util_", 8) == 0;
    m->kernels = xrealloc(m->kernels, (m->nkernels + 1) * sizeof *m->kernels);
    m->kernels[m->nkernels++] = k;
    *out = k;
    return 0;
}

int eng_cpu_kernel_wrap(struct eng_module *m, void (*entry)(struct kl_cpu_thread *, void **),
                        const struct kl_cpu_sig *sig, struct eng_kernel **out)
{
    for (size_t i = 0; i < m->nkernels; i++)
        if (m->kernels[i]->entry == entry && m->kernels[i]->sig == sig) {
            *out = m->kernels[i];
            return 0;
        }
    if (sig->abi != KL_CPU_ABI_VERSION || sig->nargs < 0 || sig->nargs > KL_CPU_MAX_ARGS)
        return -1;
    struct eng_kernel *k = xcalloc(1, sizeof *k);
    k->entry = entry;
    k->sig = sig;
    k->mod = m;
    m->kernels = xrealloc(m->kernels, (m->nkernels + 1) * sizeof *m->kernels);
    m->kernels[m->nkernels++] = k;
    *out = k;
    return 0;
}

static int cpu_kernel_params(struct eng_kernel *k, size_t *sizes, int max)
{
    for (int i = 0; i < k->sig->nargs && i < max; i++)
        sizes[i] = k->sig->sizes[i];
    return k->sig->nargs;
}

static int cpu_mem_alloc(struct eng_ctx *c, size_t bytes, eng_dptr *out, char *err,
                         size_t errlen)
{
    size_t len = bytes ? (bytes + 4095) & ~(size_t)4095 : 4096;
    void *p = len <= SPARE_MAX_LEN ? spare_take(len) : NULL;
    if (!p)
        p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE,
                 -1, 0);
    if (p == MAP_FAILED) {
        snprintf(err, errlen, "cpu backend: cannot allocate %zu bytes: %s", bytes, strerror(errno));
        return -1;
    }
    if (c->nallocs == c->capallocs)
        c->allocs = xrealloc(c->allocs, (c->capallocs = c->capallocs * 2 + 16) * sizeof *c->allocs);
    c->allocs[c->nallocs++] = (struct alloc){p, len};
    *out = (eng_dptr)(uintptr_t)p;
    return 0;
}

static void cpu_mem_free(struct eng_ctx *c, eng_dptr p)
{
    for (size_t i = 0; i < c->nallocs; i++)
        if ((uintptr_t)c->allocs[i].p == p) {
            unmap_or_keep(c->allocs[i].p, c->allocs[i].len);
            c->allocs[i] = c->allocs[--c->nallocs];
            return;
        }
}

/* ---- queues ------------------------------------------------------------------------------- */

static struct eng_stream *stream_of(struct eng_ctx *c, struct eng_stream *s)
{
    return s ? s : &c->null_stream;
}

static struct op *stream_last(const struct eng_ctx *c, const struct eng_stream *s)
{
    return s->epoch == c->epoch ? s->last : NULL;
}

static struct op *event_op(const struct eng_ctx *c, const struct eng_event *e)
{
    return e->epoch == c->epoch ? e->rec : NULL;
}

static void enqueue(struct eng_ctx *c, struct eng_stream *s, const struct work *w,
                    struct op *dep)
{
    struct op *o = xcalloc(1, sizeof *o);
    o->w = *w;
    o->s = s;
    o->prev = stream_last(c, s);
    o->dep = dep;
    o->seq = c->seq++;
    s->last = o;
    s->epoch = c->epoch;
    if (c->nops == c->capops)
        c->ops = xrealloc(c->ops, (c->capops = c->capops * 2 + 64) * sizeof *c->ops);
    c->ops[c->nops++] = o;
}

/* Work issued to a capturing stream goes into its graph instead of its queue. */
static int submit(struct eng_ctx *c, struct eng_stream *s, const struct work *w, char *err,
                  size_t errlen)
{
    s = stream_of(c, s);
    if (s->capture) {
        if (w->kind != W_LAUNCH && w->kind != W_MEMSET && w->kind != W_COPY) {
            snprintf(err, errlen, "cpu backend: only launches, memsets and host-to-device copies "
                                  "can be captured into a graph");
            return -1;
        }
        struct eng_graph *g = s->capture;
        if (g->n == g->cap)
            g->items = xrealloc(g->items, (g->cap = g->cap * 2 + 8) * sizeof *g->items);
        g->items[g->n++] = *w;
        return 0;
    }
    enqueue(c, s, w, NULL);
    return 0;
}

static int exec_work(struct eng_ctx *c, struct work *w, char *err, size_t errlen);

static int exec_graph(struct eng_ctx *c, struct eng_graph *g, char *err, size_t errlen)
{
    for (size_t i = 0; i < g->n; i++) {
        struct work copy = g->items[i];
        if (exec_work(c, &copy, err, errlen) != 0)
            return -1;
    }
    return 0;
}

/* Where this OS thread's instance of a module's __shared__ storage is. Keyed by the module's
 * serial: keyed by its address, a module loaded where an unloaded one was would be given the
 * old module's freed TLS block, and poisoning it would write 0xff over whatever the allocator
 * had put there since (once seen: a check's whole output turned to NaN). */
static _Thread_local struct {
    unsigned long long serial;
    void *data;
    size_t size;
} tls_cache;

static int find_tls(struct dl_phdr_info *info, size_t size, void *arg)
{
    (void)size;
    const struct eng_module *m = arg;
    if (!info->dlpi_name || strcmp(info->dlpi_name, m->path) != 0)
        return 0;
    for (int i = 0; i < info->dlpi_phnum; i++)
        if (info->dlpi_phdr[i].p_type == PT_TLS) {
            tls_cache.data = info->dlpi_tls_data;
            tls_cache.size = info->dlpi_phdr[i].p_memsz;
        }
    return 1;
}

/* Where the module's per-OS-thread storage (its __shared__ arrays) is on this OS thread. */
static void module_tls(struct eng_module *m, void **data, size_t *size)
{
    if (tls_cache.serial != m->serial) {
        void *(*anchor)(void) = NULL;
        *(void **)&anchor = dlsym(m->dl, "kl_cpu_tls_anchor");
        if (anchor)
            anchor();
        tls_cache.serial = m->serial;
        tls_cache.data = NULL;
        tls_cache.size = 0;
        dl_iterate_phdr(find_tls, m);
    }
    *data = tls_cache.data;
    *size = tls_cache.data ? tls_cache.size : 0;
}

/* Runs one line-table reader on the module's copy: "file:line" (or "file:line:column") of
 * the address into text; -1 when the tool is missing, fails or the table has nothing ("??"). */
static int symbolize(const char *name, const char *dbg_path, const char *address, char *text,
                     size_t n)
{
    char tool[512], obj[600], addr[32];
    snprintf(addr, sizeof addr, "%s", address);
    if (!eng_tool_find(name, tool, sizeof tool))
        return -1;
    char *argv[6];
    size_t a = 0;
    argv[a++] = tool;
    if (strcmp(name, "addr2line") == 0) {
        snprintf(obj, sizeof obj, "-e%s", dbg_path);
        argv[a++] = obj;
    } else {
        static char no_fn[] = "--functions=none";
        snprintf(obj, sizeof obj, "--obj=%s", dbg_path);
        argv[a++] = obj;
        argv[a++] = no_fn;
    }
    argv[a++] = addr;
    argv[a] = NULL;
    if (eng_tool_run(argv, text, n) != 0)
        return -1;
    /* the first line is the innermost inlined frame's; "??" where the table has nothing */
    text[strcspn(text, "\n")] = '\0';
    const char *colon = strchr(text, ':');
    return colon && text[0] != '?' && colon[1] >= '1' && colon[1] <= '9' ? 0 : -1;
}

/* The source line of a kernel code address (cpu_race_where_fn) from the module's line table,
 * by addr2line, or llvm-symbolizer where addr2line is missing or cannot read the table (a
 * newer DWARF than its binutils), found on PATH at run time; -1 without any (the report keeps
 * kernel+offset). addr2line first: it starts in a tenth of llvm-symbolizer's time, and a run
 * of race checks asks for a line per report. pc is a return address: the access is the
 * instruction before it. */
static int module_where(void *arg, const void *pc, char *out, size_t n)
{
    struct eng_module *m = arg;
    Dl_info di;
    if (!dladdr(pc, &di) || !di.dli_fbase)
        return -1;
    if (!m->dbg_path) {
        char err[256];
        char *dir = eng_tool_tmpdir("kladder-lines", err, sizeof err);
        if (!dir)
            return -1;
        char *path = xasprintf("%s/module.so", dir);
        free(dir);
        if (write_file(path, m->code, m->code_len) != 0) {
            free(path);
            return -1;
        }
        m->dbg_path = path;
    }
    static const char *const tools[] = {"addr2line", "llvm-symbolizer-22", "llvm-symbolizer"};
    char addr[32], text[512];
    snprintf(addr, sizeof addr, "0x%lx",
             (unsigned long)((const char *)pc - (const char *)di.dli_fbase - 1));
    size_t t = 0;
    while (t < sizeof tools / sizeof *tools &&
           symbolize(tools[t], m->dbg_path, addr, text, sizeof text) != 0)
        t++;
    if (t == sizeof tools / sizeof *tools)
        return -1;
    char *end = strchr(text, ':') + 1;
    while (*end >= '0' && *end <= '9')
        end++;
    *end = '\0';
    /* The file is the suite's source name (#line in the joined source): its base name, and
     * nothing but printable characters, reaches the report. */
    const char *base = strrchr(text, '/');
    base = base ? base + 1 : text;
    size_t k = 0;
    for (const char *c = base; *c && k + 1 < n; c++)
        out[k++] = (*c >= 0x20 && *c < 0x7f) ? *c : '?';
    out[k] = '\0';
    return k ? 0 : -1;
}

/* Fills the module's per-OS-thread storage with 0xff bytes: a kernel that reads shared memory
 * it did not write this block sees NaNs and -1s. */
static void poison_shared(void *arg)
{
    void *data;
    size_t size;
    module_tls(arg, &data, &size);
    if (size)
        memset(data, 0xff, size);
}

static int exec_work(struct eng_ctx *c, struct work *w, char *err, size_t errlen)
{
    switch (w->kind) {
    case W_LAUNCH: {
        /* The engine's fill and compare kernels run in the default order on every core: the
         * schedule is there to stress the kernel under test, not the oracles. */
        enum eng_schedule sched = w->k->oracle ? ENG_SCHED_DEFAULT : c->opts.schedule;
        struct cpu_launch l = {
            .entry = w->k->entry,
            .args = w->argv,
            .grid = {w->grid[0], w->grid[1], w->grid[2]},
            .block = {w->block[0], w->block[1], w->block[2]},
            .shared_bytes = w->shared,
            .wave = c->opts.wave_size,
            .schedule = sched,
            .seed = c->opts.seed,
            .launch_no = w->k->oracle ? 0 : c->launches++,
            .workers = sched == ENG_SCHED_DEFAULT ? cpu_threads() : 1,
            .blocks = w->blocks,
            .nblocks = w->nblocks,
        };
        if (sched == ENG_SCHED_ADVERSARIAL || sched == ENG_SCHED_PCT) {
            l.poison = poison_shared;
            l.poison_arg = w->k->mod;
        }
        if (sched == ENG_SCHED_PCT) {
            module_tls(w->k->mod, &l.tls, &l.tls_size);
            l.where = module_where;
            l.where_arg = w->k->mod;
            if (!c->race_note[0]) { /* the first launch whose race check stops early */
                l.note = c->race_note;
                l.note_len = sizeof c->race_note;
            }
        }
        /* a fault names the kernel under test and its line; the oracles' kernels are ours */
        cpu_guard_install();
        cpu_guard_set_where(w->k->oracle ? NULL : module_where, w->k->mod);
        return cpu_sched_run(&l, err, errlen);
    }
    case W_COPY:
        memcpy(w->dst, w->staged ? w->staged : w->src, w->bytes);
        return 0;
    case W_MEMSET:
        memset(w->dst, w->value, w->bytes);
        return 0;
    case W_RECORD:
        w->ev->t_ns = now_ns();
        w->ev->timed = true;
        return 0;
    case W_WAIT:
        return 0;
    case W_GRAPH:
        return exec_graph(c, w->graph, err, errlen);
    }
    return 0;
}

static bool ready(const struct op *o)
{
    return (!o->prev || o->prev->done) && (!o->dep || o->dep->done);
}

/* Runs target and everything it depends on, in the schedule's order. */
static int run_until(struct eng_ctx *c, struct op *target, char *err, size_t errlen)
{
    if (sticky(c, err, errlen))
        return -1;
    if (!target || target->done)
        return 0;
    size_t cap = 64, n = 0, sp = 0;
    struct op **need = xmalloc(cap * sizeof *need);
    struct op **stack = xmalloc(cap * sizeof *stack);
    size_t scap = cap;
    stack[sp++] = target;
    /* Collect pending ancestors (marking with seq parity is not possible: use a linear check). */
    while (sp) {
        struct op *o = stack[--sp];
        if (o->done)
            continue;
        bool seen = false;
        for (size_t i = 0; i < n && !seen; i++)
            seen = need[i] == o;
        if (seen)
            continue;
        if (n == cap)
            need = xrealloc(need, (cap *= 2) * sizeof *need);
        need[n++] = o;
        if (sp + 2 > scap)
            stack = xrealloc(stack, (scap *= 2) * sizeof *stack);
        if (o->prev && !o->prev->done)
            stack[sp++] = o->prev;
        if (o->dep && !o->dep->done)
            stack[sp++] = o->dep;
    }
    free(stack);
    int rc = 0;
    for (size_t left = n; left > 0; left--) {
        size_t pick = n;
        size_t cands = 0;
        for (size_t i = 0; i < n; i++) {
            if (need[i]->done || !ready(need[i]))
                continue;
            cands++;
            if (pick == n)
                pick = i;
            else if (c->opts.schedule == ENG_SCHED_ADVERSARIAL || c->opts.schedule == ENG_SCHED_PCT) {
                if (need[i]->seq > need[pick]->seq)
                    pick = i;
            } else if (c->opts.schedule == ENG_SCHED_RANDOM) {
                c->rng = c->rng * 6364136223846793005ull + 1442695040888963407ull;
                if ((c->rng >> 33) % cands == 0)
                    pick = i;
            } else if (need[i]->seq < need[pick]->seq) {
                pick = i;
            }
        }
        if (pick == n)
            break; /* cannot happen: dependencies always point to earlier ops */
        struct op *o = need[pick];
        /* the work's own message whole, whatever buffer the call that made it run brought (a
         * timer's event, say): a race report is kept for race_take, never cut to that size */
        char werr[sizeof c->race];
        werr[0] = '\0';
        int wrc = exec_work(c, &o->w, werr, sizeof werr);
        if (wrc != 0 && c->races_kept &&
            strncmp(werr, ENG_RACE_PREFIX, sizeof ENG_RACE_PREFIX - 1) == 0) {
            if (!c->race[0]) /* the launch ran to its end: a finding, not a failure */
                snprintf(c->race, sizeof c->race, "%s", werr);
        } else if (wrc != 0) {
            snprintf(err, errlen, "%s", werr);
            snprintf(c->sticky, sizeof c->sticky, "%.*s", (int)sizeof c->sticky - 1, werr);
            rc = -1;
            o->done = true;
            break;
        }
        o->done = true;
        work_release(&o->w);
    }
    free(need);
    /* When nothing is pending any more, free every op (keeps long runs small). */
    bool pending = false;
    for (size_t i = 0; i < c->nops; i++)
        pending |= !c->ops[i]->done;
    if (!pending) {
        for (size_t i = 0; i < c->nops; i++) {
            work_release(&c->ops[i]->w);
            free(c->ops[i]);
        }
        c->nops = 0;
        c->epoch++;
    }
    return rc;
}

/* ---- vtable calls ------------------------------------------------------------------------ */

static int cpu_memcpy_htod(struct eng_ctx *c, eng_dptr dst, const void *src, size_t bytes,
                           struct eng_stream *s, char *err, size_t errlen)
{
    if (sticky(c, err, errlen))
        return -1;
    struct work w = {.kind = W_COPY, .dst = (void *)(uintptr_t)dst, .bytes = bytes};
    w.staged = xmalloc(bytes ? bytes : 1);
    memcpy(w.staged, src, bytes);
    if (submit(c, s, &w, err, errlen) != 0) {
        free(w.staged);
        return -1;
    }
    return 0;
}

static int cpu_memcpy_dtoh(struct eng_ctx *c, void *dst, eng_dptr src, size_t bytes,
                           struct eng_stream *s, char *err, size_t errlen)
{
    if (sticky(c, err, errlen))
        return -1;
    s = stream_of(c, s);
    if (s->capture) {
        snprintf(err, errlen, "cpu backend: a copy to the host cannot be captured into a graph");
        return -1;
    }
    struct work w = {.kind = W_COPY, .dst = dst, .src = (const void *)(uintptr_t)src,
                     .bytes = bytes};
    enqueue(c, s, &w, NULL);
    return run_until(c, stream_last(c, s), err, errlen);
}

static int cpu_memset_d8(struct eng_ctx *c, eng_dptr dst, uint8_t value, size_t bytes,
                         struct eng_stream *s, char *err, size_t errlen)
{
    if (sticky(c, err, errlen))
        return -1;
    struct work w = {.kind = W_MEMSET, .dst = (void *)(uintptr_t)dst, .bytes = bytes,
                     .value = value};
    return submit(c, s, &w, err, errlen);
}

static int cpu_stream_create(struct eng_ctx *c, struct eng_stream **out, char *err, size_t errlen)
{
    (void)c, (void)err, (void)errlen;
    *out = xcalloc(1, sizeof **out);
    return 0;
}

static void cpu_stream_destroy(struct eng_ctx *c, struct eng_stream *s)
{
    (void)c;
    free(s);
}

static int cpu_stream_sync(struct eng_ctx *c, struct eng_stream *s, char *err, size_t errlen)
{
    if (sticky(c, err, errlen))
        return -1;
    s = stream_of(c, s);
    if (s->capture) {
        snprintf(err, errlen, "cpu backend: synchronising a stream that is being captured");
        return -1;
    }
    return run_until(c, stream_last(c, s), err, errlen);
}

static int cpu_event_create(struct eng_ctx *c, struct eng_event **out, char *err, size_t errlen)
{
    (void)c, (void)err, (void)errlen;
    *out = xcalloc(1, sizeof **out);
    return 0;
}

static void cpu_event_destroy(struct eng_ctx *c, struct eng_event *e)
{
    /* A queued record op may still point at e: it becomes a no-op record into a dead event,
     * so retarget those first. */
    for (size_t i = 0; c && i < c->nops; i++)
        if (c->ops[i]->w.kind == W_RECORD && c->ops[i]->w.ev == e)
            c->ops[i]->w.kind = W_WAIT;
    free(e);
}

static int cpu_event_record(struct eng_ctx *c, struct eng_event *e, struct eng_stream *s,
                            char *err, size_t errlen)
{
    if (sticky(c, err, errlen))
        return -1;
    s = stream_of(c, s);
    if (s->capture) {
        snprintf(err, errlen, "cpu backend: events cannot be recorded into a graph");
        return -1;
    }
    struct work w = {.kind = W_RECORD, .ev = e};
    e->timed = false;
    enqueue(c, s, &w, NULL);
    e->rec = s->last;
    e->epoch = c->epoch;
    return 0;
}

static int cpu_stream_wait_event(struct eng_ctx *c, struct eng_stream *s, struct eng_event *e,
                                 char *err, size_t errlen)
{
    if (sticky(c, err, errlen))
        return -1;
    s = stream_of(c, s);
    if (s->capture) {
        snprintf(err, errlen, "cpu backend: event waits cannot be captured into a graph");
        return -1;
    }
    struct op *dep = event_op(c, e);
    if (dep && dep->done)
        dep = NULL;
    struct work w = {.kind = W_WAIT};
    enqueue(c, s, &w, dep);
    return 0;
}

static int cpu_event_elapsed_ms(struct eng_ctx *c, struct eng_event *start, struct eng_event *end,
                                float *ms, char *err, size_t errlen)
{
    struct eng_event *ev[2] = {start, end};
    for (int i = 0; i < 2; i++)
        if (run_until(c, event_op(c, ev[i]), err, errlen) != 0)
            return -1;
    if (!start->timed || !end->timed) {
        snprintf(err, errlen, "cpu backend: event_elapsed_ms on an event that was never recorded");
        return -1;
    }
    *ms = (float)((double)(int64_t)(end->t_ns - start->t_ns) / 1e6);
    return 0;
}

static int cpu_launch(struct eng_ctx *c, struct eng_kernel *k, const unsigned grid[3],
                      const unsigned block[3], unsigned shared_bytes, struct eng_stream *s,
                      void **args, char *err, size_t errlen)
{
    if (sticky(c, err, errlen))
        return -1;
    unsigned threads = block[0] * block[1] * block[2];
    if (!grid[0] || !grid[1] || !grid[2] || !threads || threads > 1024 ||
        block[0] > 1024 || block[1] > 1024 || block[2] > 64) {
        snprintf(err, errlen, "cpu backend: invalid launch geometry grid %ux%ux%u block %ux%ux%u",
                 grid[0], grid[1], grid[2], block[0], block[1], block[2]);
        return -1;
    }
    struct work w = {.kind = W_LAUNCH, .k = k, .shared = shared_bytes};
    memcpy(w.grid, grid, sizeof w.grid);
    if (c->sample && !k->oracle) {
        uint64_t all = (uint64_t)grid[0] * grid[1] * grid[2];
        w.blocks = xcalloc(c->nsample + 1, sizeof *w.blocks);
        for (size_t i = 0; i < c->nsample; i++)
            if ((w.blocks[w.nblocks] = c->sample[i]) < all) /* blocks past the grid do not exist */
                w.nblocks++;
    }
    memcpy(w.block, block, sizeof w.block);
    int n = k->sig->nargs;
    size_t total = 0;
    for (int i = 0; i < n; i++)
        total += (k->sig->sizes[i] + 15) & ~15u;
    w.argblob = xcalloc(1, total ? total : 16);
    w.argv = xcalloc((size_t)n + 1, sizeof *w.argv);
    size_t off = 0;
    for (int i = 0; i < n; i++) {
        memcpy((char *)w.argblob + off, args[i], k->sig->sizes[i]);
        w.argv[i] = (char *)w.argblob + off;
        off += (k->sig->sizes[i] + 15) & ~15u;
    }
    struct eng_stream *st = stream_of(c, s);
    if (st->capture) {
        /* The graph owns its copy of the arguments: it may be replayed after this call's
         * argument values have changed. */
        return submit(c, st, &w, err, errlen);
    }
    enqueue(c, st, &w, NULL);
    return 0;
}

/* Later launches run only these blocks (n = 0: all of them again). */
static int cpu_race_take(struct eng_ctx *c, char *out, size_t n)
{
    c->races_kept = true;
    if (!c->race[0])
        return 0;
    snprintf(out, n, "%s", c->race);
    c->race[0] = '\0';
    return 1;
}

static int cpu_race_note_take(struct eng_ctx *c, char *out, size_t n)
{
    if (!c->race_note[0])
        return 0;
    snprintf(out, n, "%s", c->race_note);
    c->race_note[0] = '\0';
    return 1;
}

static void cpu_block_sample(struct eng_ctx *c, const uint64_t *blocks, size_t n)
{
    free(c->sample);
    c->sample = n ? xcalloc(n, sizeof *c->sample) : NULL;
    if (n)
        memcpy(c->sample, blocks, n * sizeof *blocks);
    c->nsample = n;
}

static int cpu_graph_begin(struct eng_ctx *c, struct eng_stream *s, char *err, size_t errlen)
{
    if (sticky(c, err, errlen))
        return -1;
    s = stream_of(c, s);
    if (s->capture) {
        snprintf(err, errlen, "cpu backend: the stream is already being captured");
        return -1;
    }
    s->capture = xcalloc(1, sizeof *s->capture);
    return 0;
}

static int cpu_graph_end(struct eng_ctx *c, struct eng_stream *s, struct eng_graph **out,
                         char *err, size_t errlen)
{
    s = stream_of(c, s);
    if (!s->capture) {
        snprintf(err, errlen, "cpu backend: graph_end on a stream that is not being captured");
        return -1;
    }
    *out = s->capture;
    s->capture = NULL;
    return 0;
}

static int cpu_graph_launch(struct eng_ctx *c, struct eng_graph *g, struct eng_stream *s,
                            char *err, size_t errlen)
{
    if (sticky(c, err, errlen))
        return -1;
    struct work w = {.kind = W_GRAPH, .graph = g};
    s = stream_of(c, s);
    if (s->capture) {
        snprintf(err, errlen, "cpu backend: a graph cannot be launched into a capture");
        return -1;
    }
    enqueue(c, s, &w, NULL);
    return 0;
}

static void cpu_graph_destroy(struct eng_ctx *c, struct eng_graph *g)
{
    (void)c;
    if (!g)
        return;
    for (size_t i = 0; i < g->n; i++)
        work_release(&g->items[i]);
    free(g->items);
    free(g);
}

/* ---- several emulated devices in one process (rung 6) ---------------------------------- */

static int cpu_peer_enable(struct eng_ctx *c, struct eng_ctx *peer, char *err, size_t errlen)
{
    /* Every allocation is a host mapping: a peer's pointers are already usable. */
    (void)c, (void)peer, (void)err, (void)errlen;
    return 0;
}

static int cpu_module_symbol(struct eng_ctx *c, struct eng_module *m, const char *name,
                             void **addr, char *err, size_t errlen)
{
    (void)c;
    void *p = dlsym(m->dl, name);
    if (!p) {
        snprintf(err, errlen, "cpu backend: the kernel module exports no '%s'", name);
        return -1;
    }
    *addr = p;
    return 0;
}

const struct eng_backend eng_backend_cpu = {
    .name = "cpu",
    /* The limits keep a check to seconds and a laptop's memory; KLADDER_CPU_MAX_BYTES and
     * KLADDER_CPU_MAX_THREADS lower them for tests. A poll of a bounded wait is a scheduling
     * point of the emulation, far slower than a GPU's. */
    .caps = {.emulated = true, .weak_memory = true, .max_check_bytes = (uint64_t)1 << 30,
             .max_check_threads = (uint64_t)1 << 22, .util_block = 64, .util_grid = 8,
             .poll_spins = 1u << 14, .scan_target = "cpu-wave32"},
    .load = cpu_load,
    .device_count = cpu_device_count,
    .device_info = cpu_device_info,
    .open = cpu_open,
    .close = cpu_close,
    .compiler_id = cpu_compiler_id,
    .compiler_for = cpu_compiler_for,
    .cache_target = cpu_cache_target,
    .compile_target = cpu_compile_target,
    .compile = cpu_compile,
    .module_load = cpu_module_load,
    .module_unload = cpu_module_unload,
    .kernel_get = cpu_kernel_get,
    .kernel_params = cpu_kernel_params,
    .mem_alloc = cpu_mem_alloc,
    .block_sample = cpu_block_sample,
    .race_take = cpu_race_take,
    .race_note_take = cpu_race_note_take,
    .mem_free = cpu_mem_free,
    .memcpy_htod = cpu_memcpy_htod,
    .memcpy_dtoh = cpu_memcpy_dtoh,
    .memset_d8 = cpu_memset_d8,
    .stream_create = cpu_stream_create,
    .stream_destroy = cpu_stream_destroy,
    .stream_sync = cpu_stream_sync,
    .event_create = cpu_event_create,
    .event_destroy = cpu_event_destroy,
    .event_record = cpu_event_record,
    .stream_wait_event = cpu_stream_wait_event,
    .event_elapsed_ms = cpu_event_elapsed_ms,
    .launch = cpu_launch,
    .graph_begin = cpu_graph_begin,
    .graph_end = cpu_graph_end,
    .graph_launch = cpu_graph_launch,
    .graph_destroy = cpu_graph_destroy,
    .peer_enable = cpu_peer_enable,
    .module_symbol = cpu_module_symbol,
};
