/* GPU backends: one vtable per runtime (nvtop's model), listed in one explicit array.
 *
 * A backend loads its vendor libraries with dlopen at run time (load()), so the binary builds and
 * runs with no ROCm or CUDA SDK; a backend that cannot load says why. Every call returns 0 on
 * success or -1 with a message in err that names the API call and the runtime's own error text.
 *
 * Contract for all backends:
 *  - One eng_ctx per opened device; all other calls take it. A context is used by one thread.
 *  - Device memory is addressed by eng_dptr (a device virtual address; on the cpu backend a host
 *    pointer). Kernel arguments are passed as an array of pointers to each argument's value, in
 *    declaration order, exactly like cuLaunchKernel/hipModuleLaunchKernel's kernelParams.
 *  - A NULL eng_stream means the backend's default (legacy null) stream.
 *  - compile() gets the complete source (kernels/kl.h already prepended) and returns a code
 *    object (CUBIN, HSA code object, or a host shared object for cpu) that module_load accepts;
 *    the engine caches it, keyed with the source, the target, compiler_id() and the flags.
 *  - Graph capture records the work issued to one stream between graph_begin and graph_end;
 *    nothing runs until graph_launch. Backends without graphs leave the three pointers NULL.
 *  - Timing comes from events (event_elapsed_ms); a backend that cannot time leaves it NULL and
 *    the engine reports timings as n/a. event_elapsed_ms waits until `end` has completed.
 *  - memcpy_htod/memcpy_dtoh return when the host buffer may be reused or read, except on a
 *    stream being captured, where they are recorded like any other work. Created streams do
 *    not synchronise with the default stream (order them with events or stream_sync). */
#ifndef KL_ENGINE_BACKEND_H
#define KL_ENGINE_BACKEND_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef uint64_t eng_dptr;

struct eng_ctx;    /* an opened device, backend-defined */
struct eng_module; /* a loaded code object */
struct eng_kernel; /* an entry point in a module; owned by its module */

/* A loaded kernel's resources; -1 = not known. */
struct eng_kernel_resources {
    int64_t registers;    /* per thread */
    int64_t shared_bytes; /* static shared memory per block */
    int64_t local_bytes;  /* local memory per thread: spills and private arrays */
    int64_t max_threads;  /* the largest block the kernel can launch with */
};
struct eng_stream;
struct eng_event;
struct eng_graph;

/* Static facts about one device. Unknown strings are "" and unknown numbers 0. */
struct eng_device_info {
    int index;
    char name[128];             /* "NVIDIA H200", "AMD Instinct MI455X" */
    char target[64];            /* "sm_90", "gfx1250" (gcnArchName without feature suffixes) */
    char target_full[96];       /* "gfx90a:sramecc+:xnack-" as the runtime reports it */
    int wave_size;              /* 32 or 64 */
    int compute_units;          /* CUs or SMs */
    int64_t mem_bytes;
    int max_threads_per_block;
    int shared_mem_per_block;
    char pci_bus_id[32];
    char driver_version[64];
    char runtime_version[64];
    char compiler_version[64];  /* hipRTC / NVRTC / c++ version */
    char compute_partition[16]; /* AMD sysfs current_compute_partition (SPX, DPX...) or "" */
    char memory_partition[16];  /* AMD sysfs current_memory_partition (NPS1, NPS2...) or "" */
};

/* Options that only some backends honour (the cpu backend's emulation choices). */
enum eng_schedule {
    ENG_SCHED_DEFAULT,     /* each thread runs to its next barrier in thread order */
    ENG_SCHED_ADVERSARIAL, /* orders threads and stream queues to expose missing syncs */
    ENG_SCHED_RANDOM,      /* seeded random interleaving at barriers and sync points */
    ENG_SCHED_PCT,         /* cpu: seeded priority interleaving at every memory access, with the
                            * race check (engine/cpu/cpu_pct.h, cpu_race.h); slower, so asked for */
};
/* A launch that fails with a message starting with this ran to its end and found a data race
 * (the cpu backend's race check): the check fails, it is not an error of the run. */
#define ENG_RACE_PREFIX "data race"
/* How a race check that stopped before a launch's end starts its sentence (race_note_take):
 * a report shows it even beside a pass, which it makes a partial one. */
#define ENG_RACE_PARTIAL "race check stopped after"
/* A device call that fails with a message starting with this found the kernel faulted on the
 * device (an illegal address, a trap or assert, a launch that died): the GPU's counterpart of
 * a cpu kernel taking its process down. The runner counts it as a crash (docs/engine.md,
 * "Verdicts"), not as an error of the harness. */
#define ENG_FAULT_PREFIX "the kernel faulted on the device"

struct eng_open_opts {
    int wave_size;         /* cpu: 32 or 64 (0 = 32); GPUs ignore it and report their own */
    enum eng_schedule schedule;
    uint64_t seed;         /* for ENG_SCHED_RANDOM */
};

/* The exit status of a worker that a backend ended on purpose in the middle of a launch, after
 * writing a finding about the kernel as its last line on stderr ("kladder worker: shared
 * memory: ..."): an access that would have corrupted the process (a write past a block's
 * shared memory) is stopped where it happens and judged a failure of the check, never
 * reported as a crash. */
#define ENG_WORKER_EXIT_FINDING 86

/* What differs between backends, as facts the engine reads; nothing outside engine/backend_*.c
 * tests a backend's name. */
struct eng_caps {
    /* Kernels run on the host, emulated: the run picks the wave width and the schedule
     * (eng_open_opts), every rank of a multi-rank check lives on the one device, a suite's
     * cpu_* sizes apply, and the run says that it is slow. */
    bool emulated;
    /* Peer memory can be made weakly ordered on purpose (the kl_cpu_sysmem hooks of a module)
     * when the schedule is adversarial. */
    bool weak_memory;
    /* Separately issued work really runs at once (streams, ranks); false where the backend
     * orders it itself. */
    bool real_concurrency;
    /* Reach of one check: bytes of buffers and threads launched in all; 0 = the device's own
     * limits. A check beyond it is skipped with the reason, never passed. */
    uint64_t max_check_bytes, max_check_threads;
    /* Geometry of the engine's utility kernels (fill, compare, hash): block size, and grid in
     * blocks (0 = 8 per compute unit). */
    unsigned util_block, util_grid;
    /* Clock ticks kl_util_delay spins to make a producer late (0: the backend's schedule
     * makes it late by itself). */
    int64_t delay_ticks;
    /* Polls a bounded wait in a multi-rank protocol makes before it gives up. */
    uint32_t poll_spins;
    /* The collective library of this runtime ("NCCL", "RCCL") or NULL. */
    const char *collectives;
    /* The vendor's sanitizer that can watch this backend's kernels from outside the process
     * (`kladder run --sanitizer`, engine/toolchain/sanitizer_run.h), or NULL. */
    const char *sanitizer;
    /* The target `kladder scan` compiles for when none is given: the architecture kladder is
     * built to bring up on this runtime, or the emulator's default wave. */
    const char *scan_target;
};

struct eng_backend {
    const char *name; /* "hip", "cuda", "cpu" */
    struct eng_caps caps;

    /* Loads the libraries once; later calls return the first result. */
    int (*load)(char *why, size_t whylen);
    int (*device_count)(int *count, char *err, size_t errlen);
    int (*device_info)(int index, struct eng_device_info *out, char *err, size_t errlen);

    int (*open)(int index, const struct eng_open_opts *opts, struct eng_ctx **out, char *err,
                size_t errlen);
    void (*close)(struct eng_ctx *ctx);

    /* Compilation needs no device (CI compiles for gfx90a, gfx1030 and sm_90 on machines
     * without a GPU): target is a device_info.target such as "gfx1250", "sm_90" or, for cpu,
     * "cpu-wave32"/"cpu-wave64". Requires load() only.
     * compiler_id: identity and version of the compiler, for cache keys, e.g. "nvrtc 12.4",
     * "hiprtc 6.2.41133", "c++ (Debian 12.2.0-14) 12.2.0"; static storage.
     * compile: flags are NULL-terminated extra options. *code is malloc'd (caller frees). On a
     * compile error the compiler's log is copied into log and -1 returned. */
    const char *(*compiler_id)(void);
    /* Optional, for a backend with more than one compiler (hip: hipRTC, or clang for targets
     * hipRTC lacks): the identity of the compiler compile() uses for target, for cache keys,
     * or NULL when none it can reach builds for target. Such a backend compiles even when
     * load() failed. NULL pointer: compiler_id() for every target. */
    const char *(*compiler_for)(const char *target);
    /* Optional: the part of target the code object depends on, for cache keys, written to out
     * (n bytes). The cpu backend's wave width is chosen at launch, so cpu-wave32 and cpu-wave64
     * share one object instead of compiling it twice. NULL pointer: target itself. */
    void (*cache_target)(const char *target, char *out, size_t n);
    /* The compile target for a device at a wave width (wave 0: the device's own): info->target
     * on a GPU, "cpu-wave32"/"cpu-wave64" on the cpu backend. */
    void (*compile_target)(const struct eng_device_info *info, int wave, char *out, size_t n);
    int (*compile)(const char *target, const char *source, const char *name,
                   const char *const *flags, void **code, size_t *code_len, char *log,
                   size_t loglen);
    int (*module_load)(struct eng_ctx *ctx, const void *code, size_t len,
                       struct eng_module **out, char *err, size_t errlen);
    void (*module_unload)(struct eng_ctx *ctx, struct eng_module *mod);
    int (*kernel_get)(struct eng_ctx *ctx, struct eng_module *mod, const char *entry,
                      struct eng_kernel **out, char *err, size_t errlen);
    /* The kernel's parameters as the code object declares them: their count, and the size in
     * bytes of each of the first max in sizes. -1 where the runtime cannot tell; NULL = never. */
    int (*kernel_params)(struct eng_kernel *k, size_t *sizes, int max);
    /* What the loaded kernel uses per the runtime (CUDA's cuFuncGetAttribute): 0 with each
     * field filled or -1 where that one could not be read, or -1 when the runtime can say
     * nothing. NULL = never (the cpu backend; AMD reads its code objects instead). */
    int (*kernel_resources)(struct eng_kernel *k, struct eng_kernel_resources *out);

    int (*mem_alloc)(struct eng_ctx *ctx, size_t bytes, eng_dptr *out, char *err, size_t errlen);
    /* Optional (NULL: every launch runs whole). Launches of the kernel under test (not the
     * engine's own oracles) after this call run only the listed blocks (linear ids, x fastest),
     * until it is called with n = 0. With mem_alloc reserving address space that is backed only
     * when touched, this lets an emulating backend run a 2^32-byte output's cliff tiles. */
    void (*block_sample)(struct eng_ctx *ctx, const uint64_t *blocks, size_t n);
    /* Optional (the cpu backend's race check). The first call on a context makes a data race a
     * finding instead of a failed launch: the launch counts as done, its outputs stay for the
     * oracles, and the first race since the previous call is returned here (1, its sentence,
     * starting with ENG_RACE_PREFIX, in out) or 0 when there was none. */
    int (*race_take)(struct eng_ctx *ctx, char *out, size_t n);
    /* Optional, beside race_take: 1 with a sentence in out when the race check of a launch since
     * the previous call stopped before the launch's end (it checks a bounded number of
     * accesses and of memory), so that a check that found no race says it was partial; else 0. */
    int (*race_note_take)(struct eng_ctx *ctx, char *out, size_t n);
    void (*mem_free)(struct eng_ctx *ctx, eng_dptr p);
    int (*memcpy_htod)(struct eng_ctx *ctx, eng_dptr dst, const void *src, size_t bytes,
                       struct eng_stream *s, char *err, size_t errlen);
    int (*memcpy_dtoh)(struct eng_ctx *ctx, void *dst, eng_dptr src, size_t bytes,
                       struct eng_stream *s, char *err, size_t errlen);
    int (*memset_d8)(struct eng_ctx *ctx, eng_dptr dst, uint8_t value, size_t bytes,
                     struct eng_stream *s, char *err, size_t errlen);

    int (*stream_create)(struct eng_ctx *ctx, struct eng_stream **out, char *err, size_t errlen);
    void (*stream_destroy)(struct eng_ctx *ctx, struct eng_stream *s);
    int (*stream_sync)(struct eng_ctx *ctx, struct eng_stream *s, char *err, size_t errlen);

    int (*event_create)(struct eng_ctx *ctx, struct eng_event **out, char *err, size_t errlen);
    void (*event_destroy)(struct eng_ctx *ctx, struct eng_event *e);
    int (*event_record)(struct eng_ctx *ctx, struct eng_event *e, struct eng_stream *s, char *err,
                        size_t errlen);
    int (*stream_wait_event)(struct eng_ctx *ctx, struct eng_stream *s, struct eng_event *e,
                             char *err, size_t errlen);
    int (*event_elapsed_ms)(struct eng_ctx *ctx, struct eng_event *start, struct eng_event *end,
                            float *ms, char *err, size_t errlen);

    /* grid and block are {x, y, z}; shared_bytes is dynamic shared memory. */
    int (*launch)(struct eng_ctx *ctx, struct eng_kernel *k, const unsigned grid[3],
                  const unsigned block[3], unsigned shared_bytes, struct eng_stream *s,
                  void **args, char *err, size_t errlen);

    int (*graph_begin)(struct eng_ctx *ctx, struct eng_stream *s, char *err, size_t errlen);
    int (*graph_end)(struct eng_ctx *ctx, struct eng_stream *s, struct eng_graph **out,
                     char *err, size_t errlen);
    int (*graph_launch)(struct eng_ctx *ctx, struct eng_graph *g, struct eng_stream *s,
                        char *err, size_t errlen);
    void (*graph_destroy)(struct eng_ctx *ctx, struct eng_graph *g);

    /* ---- optional: several devices in one process (rung 6); NULL = unsupported ---------
     * peer_enable: kernels running on ctx may then dereference device pointers of peer's
     * allocations (CUDA peer access / HIP peer access; on cpu every pointer is a host
     * pointer already). Enabling twice is not an error.
     * stream_native: the runtime's own stream handle (CUstream, hipStream_t) for handing to a
     * vendor library such as NCCL/RCCL; also makes ctx current on the calling thread. NULL
     * stream = the null stream. Returns NULL where the backend has no such handle.
     * module_symbol: the address of a global variable exported by a loaded module (GPUs: its
     * device address; cpu: the shared object's symbol), or -1 with a message. */
    int (*peer_enable)(struct eng_ctx *ctx, struct eng_ctx *peer, char *err, size_t errlen);
    void *(*stream_native)(struct eng_ctx *ctx, struct eng_stream *s);
    int (*module_symbol)(struct eng_ctx *ctx, struct eng_module *mod, const char *name,
                         void **addr, char *err, size_t errlen);
};

extern const struct eng_backend eng_backend_hip;
extern const struct eng_backend eng_backend_cuda;
extern const struct eng_backend eng_backend_cpu;

/* Every backend, in preference order (hip, cuda, cpu), NULL-terminated; empty until
 * eng_backend_use_table hands the table in (engine/tables/backends.c, eng_tables_install). */
extern const struct eng_backend *const *eng_backends;
void eng_backend_use_table(const struct eng_backend *const *table);

/* The backend called name, or NULL. */
const struct eng_backend *eng_backend_find(const char *name);

/* The table's backend that emulates a GPU on the host (caps.emulated), or NULL: what `kladder
 * exec` runs a program on. */
const struct eng_backend *eng_backend_emulator(void);

#endif
