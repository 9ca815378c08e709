/* kl.h — the kladder kernel dialect. One kernel source compiles under hipRTC (__HIPCC_RTC__),
 * NVRTC (__CUDACC_RTC__) and the cpu backend (KL_CPU: the host C++ compiler builds a shared
 * object that the engine's emulator drives). The engine prepends this header to every kernel
 * source, so a kernel file includes nothing.
 *
 * What a kernel may use (and nothing else: no printf, no host headers, no templates):
 *   KL_KERNEL name(args)          an entry point (extern "C" __global__ void: no return type
 *                                 after it)
 *   KL_DEVICE                     an inline device helper
 *   __shared__ T a[N];            fixed-size shared memory inside a kernel
 *   KL_DYNAMIC_SHARED(T, name);   dynamic shared memory (the launch's shared_bytes)
 *   KL_EXPORT(name)               once per entry point at the end of the file (the cpu backend's
 *                                 trampoline that unpacks void **args; empty on GPUs)
 *   threadIdx blockIdx blockDim gridDim (.x .y .z), __syncthreads()
 *   KL_WAVE (wave size; a run-time value on hip and cpu), kl_lane(),
 *   KL_ASSUME_WAVE(kernel, n) at file scope: kernel is only correct at wave n (checked by the
 *   engine before every launch and against offline code objects),
 *   kl_shfl(v, lane) kl_shfl_xor(v, mask) kl_shfl_down(v, delta) on int/unsigned/float,
 *   kl_ballot(pred) -> kl_u64 (bit i = lane i)
 *   atomicAdd atomicCAS atomicExch atomicMax on int/unsigned/kl_u64 (atomicAdd, atomicExch and
 *   atomicMax also on float); kl_atomic_max(float *, float) is the same as atomicMax for float
 *   kl_atomic_load_acquire(p, scope) kl_atomic_store_release(p, v, scope)
 *   kl_atomic_load_relaxed(p, scope) kl_atomic_store_relaxed(p, v, scope) on int/unsigned/kl_u64,
 *   scope KL_SCOPE_BLOCK / KL_SCOPE_DEVICE / KL_SCOPE_SYSTEM
 *   kl_fence_block() kl_fence_device() kl_fence_system(), kl_sleep_ns(n), kl_clock64()
 *   kl_async_copy(dst_shared, src_global): one element of 4, 8 or 16 bytes (float, int, kl_u64,
 *   a 16-byte struct) copied from global to shared memory asynchronously; kl_async_wait(n), n a
 *   constant: wait until at most n of this thread's copies are in flight (copies complete in
 *   the order issued). A barrier does not wait for copies: wait, then __syncthreads() before
 *   other threads read. On gfx1250 the count is the wave's, so keep copies wave-uniform when
 *   n > 0. Maps: cp.async on sm_80+, global_load_async_to_lds on gfx1250, synchronous copies
 *   elsewhere; the cpu backend lands them at the wait under every schedule but the default,
 *   and so does a lag build on a GPU.
 *   kl_load_policy(const kl_u32 *p, policy): a load carrying an AMD cache-policy value
 *   (KL_CPOL_*), decoded the way the target decodes it (see its definition)
 *   kl_i32 kl_u32 kl_i64 kl_u64 kl_u16 kl_u8 kl_size (64-bit)
 *   kl_bf16 (struct {kl_u16 bits;}), kl_bf16_to_f32, kl_f32_to_bf16 (round to nearest even, NaN
 *   stays a quiet NaN); kl_fp8e4m3 (struct {kl_u8 bits;}), kl_fp8e4m3_to_f32,
 *   kl_f32_to_fp8e4m3 (saturating to +-448, NaN -> 0x7f); kl_f16 (struct {kl_u16 bits;}, IEEE
 *   binary16), kl_f16_to_f32, kl_f32_to_f16 (round to nearest even, infinity past 65504)
 *   kl_f32_bits(f) kl_bits_f32(u), sqrtf rsqrtf fabsf fabs fmaxf fminf expf, kl_isnan kl_isfinite,
 *   INFINITY (float, as <math.h> has it: the GPU compilers see no system header)
 *
 * Rules that keep one source correct everywhere:
 *   - Spin loops that wait for another thread or block must call kl_sleep_ns() in the loop: on
 *     the cpu backend that is where a spinning thread lets the others run.
 *   - Wave operations are called by every live lane of the wave (no divergence around them).
 *   - Index with 64-bit arithmetic and grid-stride loops wherever a size can pass 2^31.
 *
 * With KL_LAG=S defined (a lag build, engine option --lag), __syncthreads() and kl_fence_*()
 * also hold one seeded wave of a block back, or with KL_LAG_MODE=1 every wave but the seeded one
 * (the section "lag builds" near the end); on a GPU, a lag build's async copies land at the
 * latest moment their waits allow.
 *
 * With KL_ABI_ONLY defined (C or C++), only the cpu backend's ABI structs are declared: the
 * engine's emulator includes this file that way, so both sides share one definition. */
#ifndef KL_DIALECT_H
#define KL_DIALECT_H

/* ---- cpu backend ABI (shared with engine/cpu_*.c) --------------------------------------- */
#if defined(KL_CPU) || defined(KL_ABI_ONLY)
#define KL_CPU_ABI_VERSION 4
/* Why an emulated thread hands control back to the scheduler. */
#define KL_CPU_WAIT_BARRIER 1 /* __syncthreads */
#define KL_CPU_WAIT_WAVE 2    /* a wave operation: all live lanes must arrive */
#define KL_CPU_WAIT_SLEEP 3   /* kl_sleep_ns or a long run of atomic polls: let others run */
/* Wave operations (kl_cpu_thread.wv_op). */
#define KL_CPU_WAVE_SHFL 1    /* out = in of lane wv_src, or own in when wv_src is out of range */
#define KL_CPU_WAVE_BALLOT 2  /* out = OR over live lanes of ((in != 0) << lane) */
/* What a memory access hook reports (kl_cpu_rt.access). Plain accesses come from the compiler's
 * instrumentation (-fsanitize=thread's callbacks, defined below, never a sanitizer runtime);
 * the dialect's atomics and fences report themselves. */
#define KL_CPU_ACC_READ 1
#define KL_CPU_ACC_WRITE 2
#define KL_CPU_ACC_ATOMIC 4   /* with READ and/or WRITE: an atomic access */
#define KL_CPU_ACC_ACQUIRE 8  /* an atomic read that acquires (every atomic read, see docs) */
#define KL_CPU_ACC_RELEASE 16 /* an atomic write with release order */
#define KL_CPU_ACC_FENCE 32   /* a fence; addr is NULL */
#define KL_CPU_ACC_SCOPE_SHIFT 8 /* bits 8..9: KL_SCOPE_* of a fence or scoped operation */

struct kl_cpu_dim3 {
    unsigned x, y, z;
};
struct kl_cpu_thread;
/* One async copy in flight (kl_async_copy under a late-landing schedule). A thread with more
 * in flight lands its oldest early, as a GPU's bounded counter would make it wait. */
#define KL_CPU_ASYNC_MAX 16
struct kl_cpu_async {
    void *dst;
    const void *src;
    unsigned bytes;
};
struct kl_cpu_rt {
    /* Suspends t until the condition `why` is met; returns on the same OS thread. */
    void (*wait)(struct kl_cpu_thread *t, int why);
    /* Reports one access of the kernel (KL_CPU_ACC_* in how; pc = the kernel's code address).
     * NULL when the launch does not interleave at accesses. May switch threads: the caller
     * restores kl_cpu_cur afterwards. */
    void (*access)(struct kl_cpu_thread *t, const void *addr, unsigned size, unsigned how,
                   const void *pc);
    /* The block's instance of the static __shared__ array `key` (its name, a string of the
     * module) of bytes: zeroed or poisoned once per block, ending on a guard page
     * (engine/cpu/cpu_guard.h), the same for every thread of the block. */
    void *(*shared)(struct kl_cpu_thread *t, const char *key, unsigned long bytes,
                    unsigned long align);
};
/* One emulated GPU thread. The scheduler fills the geometry; the wave fields carry one wave
 * operation's input and result. */
struct kl_cpu_thread {
    struct kl_cpu_dim3 tid, bid, bdim, gdim;
    unsigned lane, wave, linear;
    unsigned polls;          /* atomic polls since the last wait (spin detection) */
    const struct kl_cpu_rt *rt;
    void *dyn_shared;        /* the block's dynamic shared memory */
    unsigned long long wv_in, wv_out;
    int wv_src, wv_op;
    void *host;              /* scheduler-private */
    /* Async copies (kl_async_copy). async_late is set by the scheduler: 0 lands a copy when it
     * is issued, 1 keeps it in async_q (oldest first) until the kl_async_wait that must see it,
     * the destination holding 0xff bytes meanwhile. The rest is kl.h's own. */
    unsigned async_late;
    unsigned async_n;
    struct kl_cpu_async async_q[KL_CPU_ASYNC_MAX];
};
/* The signature record KL_EXPORT emits as kl_cpu_sig_NAME. CUDA takes 4 KiB of parameters
 * (32764 bytes since 12.1), so a kernel may have thousands: the record holds as many as 4 KiB
 * of one-byte parameters, the engine reads nargs of them. */
#define KL_CPU_MAX_ARGS 4096
struct kl_cpu_sig {
    int abi;
    int nargs;
    unsigned sizes[KL_CPU_MAX_ARGS];
};
/* KL_EXPORT also emits: void kl_cpu_run_NAME(struct kl_cpu_thread *self, void **args). */

/* Peer-memory visibility hooks (rung 6). Every kernel module exports one `kl_cpu_sysmem`;
 * all its members are NULL unless the engine sets them for a module it loaded. x86 hosts are
 * coherent, so a relaxed publication can never show its classic failure on its own; with
 * these hooks the engine keeps what peers read of a rank's plain stores apart from what the
 * rank wrote, and refreshes it only where a GPU would guarantee it: release() on a
 * system-scope release store or system fence (addr NULL for a fence), thread_done() when an
 * emulated thread returns (launch_threads = the launch's threads: a kernel's end). */
struct kl_cpu_sysmem {
    void (*release)(void *arg, const void *addr);
    void (*thread_done)(void *arg, unsigned long long launch_threads);
    void *arg;
};
#endif /* KL_CPU || KL_ABI_ONLY */

/* Late-landing async copies of GPU lag builds ("lag builds" near the end): each thread's queue
 * of copies in flight is a slot of KL_LAG_ASYNC_SLOT_BYTES in a buffer the engine allocates
 * for the first KL_LAG_ASYNC_THREADS threads of a launch (engine/exec/exec.c). */
#if defined(KL_ABI_ONLY) || defined(KL_LAG)
#define KL_LAG_ASYNC_DEPTH 8
#define KL_LAG_ASYNC_SLOT_BYTES (16 + KL_LAG_ASYNC_DEPTH * 24)
#define KL_LAG_ASYNC_THREADS (1u << 18)
#endif

#ifndef KL_ABI_ONLY

/* ---- integer types (NVRTC has no stdint.h) ---------------------------------------------- */
typedef int kl_i32;
typedef unsigned int kl_u32;
typedef long long kl_i64;
typedef unsigned long long kl_u64;
typedef unsigned short kl_u16;
typedef unsigned char kl_u8;
typedef unsigned long long kl_size;

#define KL_SCOPE_BLOCK 0
#define KL_SCOPE_DEVICE 1
#define KL_SCOPE_SYSTEM 2

/* ======================================================================================== */
#if !defined(KL_CPU) && defined(__HIP__) && defined(KL_HIP_BARE)
/* clang's own HIP device compilation with no HIP headers at all (the offline path for AMD
 * targets the installed hipRTC does not know: clang-22 -nogpuinc -nogpulib -DKL_HIP_BARE).
 * This block supplies, from clang builtins alone, exactly the part of the HIP device API that
 * the section below and the kernels use; the definitions follow hip/amd_detail so a kernel
 * behaves the same whichever compiler built it. */
#define __global__ __attribute__((global))
#define __device__ __attribute__((device))
#define __shared__ __attribute__((shared))
struct kl_hip_dim3 {
    unsigned x, y, z;
};
/* The thread coordinates are objects, as HIP's own headers make them (amd_hip_runtime.h): each
 * field a property read from its builtin, so host code of the same file may declare variables
 * of those names (`dim3 blockDim(256);` in a launcher) without a macro rewriting them. */
#define KL_HIP_COORD(NAME, GX, GY, GZ)                                                          \
    struct kl_hip_##NAME##_t {                                                                  \
        __declspec(property(get = get_x)) unsigned x;                                           \
        __declspec(property(get = get_y)) unsigned y;                                           \
        __declspec(property(get = get_z)) unsigned z;                                           \
        static __device__ inline unsigned get_x() { return GX; }                               \
        static __device__ inline unsigned get_y() { return GY; }                               \
        static __device__ inline unsigned get_z() { return GZ; }                               \
        __device__ operator kl_hip_dim3() const { return kl_hip_dim3{get_x(), get_y(), get_z()}; } \
    };                                                                                          \
    extern const __device__ __attribute__((weak)) kl_hip_##NAME##_t NAME
KL_HIP_COORD(threadIdx, __builtin_amdgcn_workitem_id_x(), __builtin_amdgcn_workitem_id_y(),
             __builtin_amdgcn_workitem_id_z());
KL_HIP_COORD(blockIdx, __builtin_amdgcn_workgroup_id_x(), __builtin_amdgcn_workgroup_id_y(),
             __builtin_amdgcn_workgroup_id_z());
KL_HIP_COORD(blockDim, __builtin_amdgcn_workgroup_size_x(), __builtin_amdgcn_workgroup_size_y(),
             __builtin_amdgcn_workgroup_size_z());
KL_HIP_COORD(gridDim, __builtin_amdgcn_grid_size_x() / __builtin_amdgcn_workgroup_size_x(),
             __builtin_amdgcn_grid_size_y() / __builtin_amdgcn_workgroup_size_y(),
             __builtin_amdgcn_grid_size_z() / __builtin_amdgcn_workgroup_size_z());
#define warpSize (__builtin_amdgcn_wavefrontsize())
static __device__ inline unsigned __lane_id(void)
{
    return __builtin_amdgcn_mbcnt_hi(~0u, __builtin_amdgcn_mbcnt_lo(~0u, 0u));
}
static __device__ inline void __syncthreads(void)
{
    __builtin_amdgcn_fence(__ATOMIC_RELEASE, "workgroup");
    __builtin_amdgcn_s_barrier();
    __builtin_amdgcn_fence(__ATOMIC_ACQUIRE, "workgroup");
}
static __device__ inline void __threadfence_block(void) { __builtin_amdgcn_fence(__ATOMIC_SEQ_CST, "workgroup"); }
static __device__ inline void __threadfence(void) { __builtin_amdgcn_fence(__ATOMIC_SEQ_CST, "agent"); }
static __device__ inline void __threadfence_system(void) { __builtin_amdgcn_fence(__ATOMIC_SEQ_CST, ""); }
static __device__ inline long long clock64(void) { return (long long)__builtin_readcyclecounter(); }
static __device__ inline unsigned __float_as_uint(float f) { return __builtin_bit_cast(unsigned, f); }
static __device__ inline float __uint_as_float(unsigned u) { return __builtin_bit_cast(float, u); }
/* Shuffles as hip/amd_detail/amd_warp_functions.h: ds_bpermute on lane indices. */
static __device__ inline int __shfl(int v, int src, int width)
{
    int self = (int)__lane_id();
    int index = (src & (width - 1)) + (self & ~(width - 1));
    return __builtin_amdgcn_ds_bpermute(index << 2, v);
}
static __device__ inline int __shfl_xor(int v, int mask, int width)
{
    int self = (int)__lane_id();
    int index = self ^ mask;
    index = index >= ((self + width) & ~(width - 1)) ? self : index;
    return __builtin_amdgcn_ds_bpermute(index << 2, v);
}
static __device__ inline int __shfl_down(int v, unsigned delta, int width)
{
    int self = (int)__lane_id();
    int index = self + (int)delta;
    index = (int)((self & (width - 1)) + (int)delta) >= width ? self : index;
    return __builtin_amdgcn_ds_bpermute(index << 2, v);
}
#define KL_HIP_BARE_SHFL(T)                                                                     \
    static __device__ inline T __shfl(T v, int s, int w) { return __builtin_bit_cast(T, __shfl(__builtin_bit_cast(int, v), s, w)); } \
    static __device__ inline T __shfl_xor(T v, int m, int w) { return __builtin_bit_cast(T, __shfl_xor(__builtin_bit_cast(int, v), m, w)); } \
    static __device__ inline T __shfl_down(T v, unsigned d, int w) { return __builtin_bit_cast(T, __shfl_down(__builtin_bit_cast(int, v), d, w)); }
KL_HIP_BARE_SHFL(unsigned)
KL_HIP_BARE_SHFL(float)
#undef KL_HIP_BARE_SHFL
static __device__ inline unsigned long long __ballot(int pred)
{
    return __builtin_amdgcn_ballot_w64(pred != 0);
}
/* Device-scope relaxed atomics, as HIP's atomicAdd & co. */
#define KL_HIP_BARE_ATOMICS(T)                                                                  \
    static __device__ inline T atomicAdd(T *p, T v) { return __hip_atomic_fetch_add(p, v, __ATOMIC_RELAXED, __HIP_MEMORY_SCOPE_AGENT); } \
    static __device__ inline T atomicExch(T *p, T v) { return __hip_atomic_exchange(p, v, __ATOMIC_RELAXED, __HIP_MEMORY_SCOPE_AGENT); } \
    static __device__ inline T atomicMax(T *p, T v) { return __hip_atomic_fetch_max(p, v, __ATOMIC_RELAXED, __HIP_MEMORY_SCOPE_AGENT); }
KL_HIP_BARE_ATOMICS(int)
KL_HIP_BARE_ATOMICS(unsigned)
KL_HIP_BARE_ATOMICS(unsigned long long)
KL_HIP_BARE_ATOMICS(float)
#undef KL_HIP_BARE_ATOMICS
#define KL_HIP_BARE_CAS(T)                                                                      \
    static __device__ inline T atomicCAS(T *p, T cmp, T v)                                      \
    {                                                                                           \
        __hip_atomic_compare_exchange_strong(p, &cmp, v, __ATOMIC_RELAXED, __ATOMIC_RELAXED,    \
                                             __HIP_MEMORY_SCOPE_AGENT);                         \
        return cmp;                                                                             \
    }
KL_HIP_BARE_CAS(int)
KL_HIP_BARE_CAS(unsigned)
KL_HIP_BARE_CAS(unsigned long long)
#undef KL_HIP_BARE_CAS
/* The math the dialect promises, lowered by the AMDGPU backend itself (no device library). */
#define sqrtf(x) __builtin_sqrtf(x)
#define rsqrtf(x) __builtin_amdgcn_rsqf(x)
#define fabsf(x) __builtin_fabsf(x)
#define fabs(x) __builtin_fabs(x)
#define fmaxf(a, b) __builtin_fmaxf(a, b)
#define fminf(a, b) __builtin_fminf(a, b)
#define expf(x) __builtin_expf(x)
#define logf(x) __builtin_logf(x)
#define cosf(x) __builtin_cosf(x)
#endif /* KL_HIP_BARE */

/* ======================================================================================== */
#if defined(KL_CPU)
/* The cpu backend: plain host C++. Each emulated thread is a coroutine; kl_cpu_cur is the
 * thread the current OS thread is running. Every point that may switch threads saves `me` on
 * the coroutine's own stack and restores kl_cpu_cur afterwards. */
#include <cmath>
#include <cstring>
#include <ctime>
#include <utility>

static thread_local struct kl_cpu_thread *kl_cpu_cur;
/* The built-in index variables are variables, not macros: this OS thread's copies of the
 * running emulated thread's. A shipped file's host code may declare its own (`dim3
 * blockDim(16, 16);` before its launch), which a macro would turn into nonsense. kl_cpu_enter
 * sets them with kl_cpu_cur at a thread's entry and wherever a switch may have happened. */
static thread_local struct kl_cpu_dim3 threadIdx, blockIdx, blockDim, gridDim;
static inline __attribute__((no_sanitize_thread)) void kl_cpu_enter(struct kl_cpu_thread *me)
{
    kl_cpu_cur = me;
    threadIdx = me->tid;
    blockIdx = me->bid;
    blockDim = me->bdim;
    gridDim = me->gdim;
}
/* An address inside this module's per-OS-thread storage: touching it makes sure the storage
 * exists (the adversarial schedule fills it with garbage before each block). */
extern "C" __attribute__((visibility("default"))) void *kl_cpu_tls_anchor(void)
{
    return &kl_cpu_cur;
}

#define __global__
#define __device__
#define __host__
#define __forceinline__ inline
/* One block runs on one OS thread at a time, so per-OS-thread storage is per-block storage. */
#define __shared__ static thread_local
#define KL_KERNEL extern "C" __attribute__((visibility("default"))) void
#define KL_DEVICE static inline
#define KL_DYNAMIC_SHARED(type, name) type *name = (type *)kl_cpu_cur->dyn_shared

#define KL_WAVE ((int)kl_cpu_cur->wave)
#define KL_ASSUMPTION extern "C" __attribute__((visibility("default"))) const

extern "C" __attribute__((visibility("default"))) struct kl_cpu_sysmem kl_cpu_sysmem;
struct kl_cpu_sysmem kl_cpu_sysmem = {nullptr, nullptr, nullptr};
static inline void kl_cpu_sys_release(const void *addr)
{
    if (kl_cpu_sysmem.release)
        kl_cpu_sysmem.release(kl_cpu_sysmem.arg, addr);
}

static inline void kl_cpu_wait(int why)
{
    struct kl_cpu_thread *me = kl_cpu_cur;
    me->polls = 0;
    me->rt->wait(me, why);
    kl_cpu_enter(me);
}
static inline __attribute__((no_sanitize_thread)) void kl_cpu_poll(void)
{
    if (++kl_cpu_cur->polls >= 256)
        kl_cpu_wait(KL_CPU_WAIT_SLEEP);
}
static inline unsigned long long kl_cpu_wave_op(int op, unsigned long long v, int src)
{
    struct kl_cpu_thread *me = kl_cpu_cur;
    me->wv_op = op;
    me->wv_in = v;
    me->wv_src = src;
    me->polls = 0;
    me->rt->wait(me, KL_CPU_WAIT_WAVE);
    kl_cpu_enter(me);
    return me->wv_out;
}

static inline void __syncthreads(void) { kl_cpu_wait(KL_CPU_WAIT_BARRIER); }
static inline int kl_lane(void) { return (int)kl_cpu_cur->lane; }

static inline kl_u32 kl_f32_bits(float f)
{
    kl_u32 u;
    std::memcpy(&u, &f, 4);
    return u;
}
static inline float kl_bits_f32(kl_u32 u)
{
    float f;
    std::memcpy(&f, &u, 4);
    return f;
}

static inline kl_u32 kl_cpu_shfl_raw(kl_u32 v, int src)
{
    return (kl_u32)kl_cpu_wave_op(KL_CPU_WAVE_SHFL, v, src);
}
static inline int kl_cpu_src_down(int d) { return kl_lane() + d; }
static inline int kl_cpu_src_xor(int m) { return kl_lane() ^ m; }
static inline int kl_cpu_src_idx(int l) { return l & (KL_WAVE - 1); }

static inline int kl_shfl(int v, int l) { return (int)kl_cpu_shfl_raw((kl_u32)v, kl_cpu_src_idx(l)); }
static inline unsigned kl_shfl(unsigned v, int l) { return kl_cpu_shfl_raw(v, kl_cpu_src_idx(l)); }
static inline float kl_shfl(float v, int l) { return kl_bits_f32(kl_cpu_shfl_raw(kl_f32_bits(v), kl_cpu_src_idx(l))); }
static inline int kl_shfl_xor(int v, int m) { return (int)kl_cpu_shfl_raw((kl_u32)v, kl_cpu_src_xor(m)); }
static inline unsigned kl_shfl_xor(unsigned v, int m) { return kl_cpu_shfl_raw(v, kl_cpu_src_xor(m)); }
static inline float kl_shfl_xor(float v, int m) { return kl_bits_f32(kl_cpu_shfl_raw(kl_f32_bits(v), kl_cpu_src_xor(m))); }
static inline int kl_shfl_down(int v, int d) { return (int)kl_cpu_shfl_raw((kl_u32)v, kl_cpu_src_down(d)); }
static inline unsigned kl_shfl_down(unsigned v, int d) { return kl_cpu_shfl_raw(v, kl_cpu_src_down(d)); }
static inline float kl_shfl_down(float v, int d) { return kl_bits_f32(kl_cpu_shfl_raw(kl_f32_bits(v), kl_cpu_src_down(d))); }
static inline kl_u64 kl_ballot(int pred) { return kl_cpu_wave_op(KL_CPU_WAVE_BALLOT, pred ? 1u : 0u, 0); }

/* Memory-access interleaving. Kernels are compiled with -fsanitize=thread for its
 * instrumentation only: the callbacks it inserts before each load and store are defined here
 * and hand the access to the scheduler (kl_cpu_rt.access), which may switch threads there. No
 * sanitizer runtime is linked. The dialect's own helpers below are not instrumented (a second
 * report per access, and the scheduler's own fields, would be noise); they report their
 * atomics and fences themselves. */
#define KL_CPU_NOSAN __attribute__((no_sanitize_thread, noinline))
static inline __attribute__((no_sanitize_thread)) void kl_cpu_note(const void *p, unsigned n, unsigned how, const void *pc)
{
    /* kl_cpu_cur first: it may hold the garbage a poisoned block storage left until the
     * thread's entry sets it. */
    if (p == (const void *)&kl_cpu_cur || p == (const void *)&threadIdx ||
        p == (const void *)&blockIdx || p == (const void *)&blockDim ||
        p == (const void *)&gridDim)
        return; /* the emulator's own, as kl_cpu_cur->tid was */
    struct kl_cpu_thread *me = kl_cpu_cur;
    if (!me || !me->rt->access)
        return;
    me->rt->access(me, p, n, how, pc);
    kl_cpu_enter(me);
}
#define KL_CPU_TSAN_RW(n)                                                                       \
    extern "C" KL_CPU_NOSAN void __tsan_read##n(void *p)                                        \
    {                                                                                           \
        kl_cpu_note(p, n, KL_CPU_ACC_READ, __builtin_return_address(0));                        \
    }                                                                                           \
    extern "C" KL_CPU_NOSAN void __tsan_write##n(void *p)                                       \
    {                                                                                           \
        kl_cpu_note(p, n, KL_CPU_ACC_WRITE, __builtin_return_address(0));                       \
    }                                                                                           \
    extern "C" KL_CPU_NOSAN void __tsan_unaligned_read##n(void *p)                              \
    {                                                                                           \
        kl_cpu_note(p, n, KL_CPU_ACC_READ, __builtin_return_address(0));                        \
    }                                                                                           \
    extern "C" KL_CPU_NOSAN void __tsan_unaligned_write##n(void *p)                             \
    {                                                                                           \
        kl_cpu_note(p, n, KL_CPU_ACC_WRITE, __builtin_return_address(0));                       \
    }                                                                                           \
    extern "C" KL_CPU_NOSAN void __tsan_volatile_read##n(void *p)                               \
    {                                                                                           \
        kl_cpu_note(p, n, KL_CPU_ACC_READ, __builtin_return_address(0));                        \
    }                                                                                           \
    extern "C" KL_CPU_NOSAN void __tsan_volatile_write##n(void *p)                              \
    {                                                                                           \
        kl_cpu_note(p, n, KL_CPU_ACC_WRITE, __builtin_return_address(0));                       \
    }
KL_CPU_TSAN_RW(1)
KL_CPU_TSAN_RW(2)
KL_CPU_TSAN_RW(4)
KL_CPU_TSAN_RW(8)
KL_CPU_TSAN_RW(16)
#undef KL_CPU_TSAN_RW
extern "C" KL_CPU_NOSAN void __tsan_read_range(void *p, unsigned long n)
{
    kl_cpu_note(p, (unsigned)n, KL_CPU_ACC_READ, __builtin_return_address(0));
}
extern "C" KL_CPU_NOSAN void __tsan_write_range(void *p, unsigned long n)
{
    kl_cpu_note(p, (unsigned)n, KL_CPU_ACC_WRITE, __builtin_return_address(0));
}
extern "C" KL_CPU_NOSAN void __tsan_init(void) {}
extern "C" KL_CPU_NOSAN void __tsan_func_entry(void *) {}
extern "C" KL_CPU_NOSAN void __tsan_func_exit(void) {}
extern "C" KL_CPU_NOSAN void __tsan_vptr_update(void **, void *) {}
extern "C" KL_CPU_NOSAN void __tsan_vptr_read(void **) {}

#define KL_CPU_SCOPED(how, s) ((unsigned)(how) | ((unsigned)(s) << KL_CPU_ACC_SCOPE_SHIFT))
#define KL_CPU_PC __builtin_return_address(0)
#define KL_CPU_RMW (KL_CPU_ACC_READ | KL_CPU_ACC_WRITE | KL_CPU_ACC_ATOMIC | KL_CPU_ACC_ACQUIRE)
#define KL_CPU_RMW_DEV KL_CPU_SCOPED(KL_CPU_RMW, KL_SCOPE_DEVICE)

/* C++ atomics (std::atomic in host code, in a library the file includes such as Thrust, or in
 * a kernel) are instrumented as calls too: done here with the compiler's own builtins, in the
 * order asked (the sanitizer's memory orders are the builtins' numbers), and noted as atomic
 * system-scope accesses, acquiring on a read and releasing on a write where the order says so. */
#define KL_CPU_TSAN_ORDER(mo, base)                                                             \
    KL_CPU_SCOPED((base) | ((mo) == 2 || (mo) >= 4 ? KL_CPU_ACC_ACQUIRE : 0) |                  \
                      ((mo) >= 3 ? KL_CPU_ACC_RELEASE : 0), KL_SCOPE_SYSTEM)
#define KL_CPU_TSAN_RMW(bits, T, op, builtin)                                                   \
    extern "C" KL_CPU_NOSAN T __tsan_atomic##bits##_##op(volatile T *a, T v, int mo)            \
    {                                                                                           \
        kl_cpu_note((const void *)a, sizeof(T),                                                 \
                    KL_CPU_TSAN_ORDER(mo, KL_CPU_ACC_READ | KL_CPU_ACC_WRITE | KL_CPU_ACC_ATOMIC), \
                    KL_CPU_PC);                                                                 \
        return builtin(a, v, __ATOMIC_SEQ_CST);                                                 \
    }
#define KL_CPU_TSAN_ATOMIC(bits, T)                                                             \
    extern "C" KL_CPU_NOSAN T __tsan_atomic##bits##_load(const volatile T *a, int mo)           \
    {                                                                                           \
        kl_cpu_note((const void *)a, sizeof(T),                                                 \
                    KL_CPU_TSAN_ORDER(mo == 3 ? 0 : mo, KL_CPU_ACC_READ | KL_CPU_ACC_ATOMIC),    \
                    KL_CPU_PC);                                                                 \
        return __atomic_load_n(a, __ATOMIC_SEQ_CST);                                            \
    }                                                                                           \
    extern "C" KL_CPU_NOSAN void __tsan_atomic##bits##_store(volatile T *a, T v, int mo)        \
    {                                                                                           \
        kl_cpu_note((const void *)a, sizeof(T),                                                 \
                    KL_CPU_TSAN_ORDER(mo == 2 ? 0 : mo, KL_CPU_ACC_WRITE | KL_CPU_ACC_ATOMIC) &  \
                        ~(unsigned)KL_CPU_ACC_ACQUIRE,                                          \
                    KL_CPU_PC);                                                                 \
        __atomic_store_n(a, v, __ATOMIC_SEQ_CST);                                               \
    }                                                                                           \
    KL_CPU_TSAN_RMW(bits, T, exchange, __atomic_exchange_n)                                     \
    KL_CPU_TSAN_RMW(bits, T, fetch_add, __atomic_fetch_add)                                     \
    KL_CPU_TSAN_RMW(bits, T, fetch_sub, __atomic_fetch_sub)                                     \
    KL_CPU_TSAN_RMW(bits, T, fetch_and, __atomic_fetch_and)                                     \
    KL_CPU_TSAN_RMW(bits, T, fetch_or, __atomic_fetch_or)                                       \
    KL_CPU_TSAN_RMW(bits, T, fetch_xor, __atomic_fetch_xor)                                     \
    KL_CPU_TSAN_RMW(bits, T, fetch_nand, __atomic_fetch_nand)                                   \
    extern "C" KL_CPU_NOSAN int __tsan_atomic##bits##_compare_exchange_strong(                  \
        volatile T *a, T *c, T v, int mo, int)                                                  \
    {                                                                                           \
        kl_cpu_note((const void *)a, sizeof(T),                                                 \
                    KL_CPU_TSAN_ORDER(mo, KL_CPU_ACC_READ | KL_CPU_ACC_WRITE | KL_CPU_ACC_ATOMIC), \
                    KL_CPU_PC);                                                                 \
        return __atomic_compare_exchange_n(a, c, v, false, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST);  \
    }                                                                                           \
    extern "C" KL_CPU_NOSAN int __tsan_atomic##bits##_compare_exchange_weak(                    \
        volatile T *a, T *c, T v, int mo, int fmo)                                              \
    {                                                                                           \
        return __tsan_atomic##bits##_compare_exchange_strong(a, c, v, mo, fmo);                 \
    }                                                                                           \
    extern "C" KL_CPU_NOSAN T __tsan_atomic##bits##_compare_exchange_val(volatile T *a, T c,    \
                                                                         T v, int mo, int fmo)  \
    {                                                                                           \
        __tsan_atomic##bits##_compare_exchange_strong(a, &c, v, mo, fmo);                       \
        return c;                                                                               \
    }
KL_CPU_TSAN_ATOMIC(8, char)
KL_CPU_TSAN_ATOMIC(16, short)
KL_CPU_TSAN_ATOMIC(32, int)
KL_CPU_TSAN_ATOMIC(64, long)
#undef KL_CPU_TSAN_ATOMIC
#undef KL_CPU_TSAN_RMW
extern "C" KL_CPU_NOSAN void __tsan_atomic_thread_fence(int mo)
{
    if (mo != 0)
        kl_cpu_note(nullptr, 0, KL_CPU_SCOPED(KL_CPU_ACC_FENCE, KL_SCOPE_SYSTEM), KL_CPU_PC);
    __atomic_thread_fence(__ATOMIC_SEQ_CST);
}
extern "C" KL_CPU_NOSAN void __tsan_atomic_signal_fence(int) { __atomic_signal_fence(__ATOMIC_SEQ_CST); }
/* Atomics: real host atomics (blocks may run on several OS threads). atomicAdd and friends are
 * relaxed device-scope operations, as on the GPUs: a release needs a fence before them. */
#define KL_CPU_ATOMIC_INT(T)                                                                     \
    static inline KL_CPU_NOSAN T atomicAdd(T *p, T v)                                            \
    {                                                                                            \
        kl_cpu_note(p, sizeof(T), KL_CPU_RMW_DEV, KL_CPU_PC);                                    \
        return __atomic_fetch_add(p, v, __ATOMIC_SEQ_CST);                                       \
    }                                                                                            \
    static inline KL_CPU_NOSAN T atomicExch(T *p, T v)                                           \
    {                                                                                            \
        kl_cpu_note(p, sizeof(T), KL_CPU_RMW_DEV, KL_CPU_PC);                                    \
        return __atomic_exchange_n(p, v, __ATOMIC_SEQ_CST);                                      \
    }                                                                                            \
    static inline KL_CPU_NOSAN T atomicCAS(T *p, T cmp, T v)                                     \
    {                                                                                            \
        kl_cpu_note(p, sizeof(T), KL_CPU_RMW_DEV, KL_CPU_PC);                                    \
        __atomic_compare_exchange_n(p, &cmp, v, false, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST);      \
        kl_cpu_poll();                                                                           \
        return cmp;                                                                              \
    }                                                                                            \
    static inline KL_CPU_NOSAN T atomicMax(T *p, T v)                                            \
    {                                                                                            \
        kl_cpu_note(p, sizeof(T), KL_CPU_RMW_DEV, KL_CPU_PC);                                    \
        T old = __atomic_load_n(p, __ATOMIC_RELAXED);                                            \
        while (old < v &&                                                                        \
               !__atomic_compare_exchange_n(p, &old, v, true, __ATOMIC_SEQ_CST, __ATOMIC_RELAXED)) \
            ;                                                                                    \
        return old;                                                                              \
    }                                                                                            \
    static inline KL_CPU_NOSAN T kl_atomic_load_acquire(const T *p, int s)                       \
    {                                                                                            \
        kl_cpu_note(p, sizeof(T), KL_CPU_SCOPED(KL_CPU_ACC_READ | KL_CPU_ACC_ATOMIC | KL_CPU_ACC_ACQUIRE, s), KL_CPU_PC); \
        kl_cpu_poll();                                                                           \
        return __atomic_load_n(p, __ATOMIC_ACQUIRE);                                             \
    }                                                                                            \
    static inline KL_CPU_NOSAN T kl_atomic_load_relaxed(const T *p, int s)                       \
    {                                                                                            \
        kl_cpu_note(p, sizeof(T), KL_CPU_SCOPED(KL_CPU_ACC_READ | KL_CPU_ACC_ATOMIC | KL_CPU_ACC_ACQUIRE, s), KL_CPU_PC); \
        kl_cpu_poll();                                                                           \
        return __atomic_load_n(p, __ATOMIC_RELAXED);                                             \
    }                                                                                            \
    static inline KL_CPU_NOSAN void kl_atomic_store_release(T *p, T v, int s)                    \
    {                                                                                            \
        if (s == KL_SCOPE_SYSTEM)                                                                \
            kl_cpu_sys_release(p);                                                               \
        kl_cpu_note(p, sizeof(T), KL_CPU_SCOPED(KL_CPU_ACC_WRITE | KL_CPU_ACC_ATOMIC | KL_CPU_ACC_RELEASE, s), KL_CPU_PC); \
        __atomic_store_n(p, v, __ATOMIC_RELEASE);                                                \
    }                                                                                            \
    static inline KL_CPU_NOSAN void kl_atomic_store_relaxed(T *p, T v, int s)                    \
    {                                                                                            \
        kl_cpu_note(p, sizeof(T), KL_CPU_SCOPED(KL_CPU_ACC_WRITE | KL_CPU_ACC_ATOMIC, s), KL_CPU_PC); \
        __atomic_store_n(p, v, __ATOMIC_RELAXED);                                                \
    }
KL_CPU_ATOMIC_INT(int)
KL_CPU_ATOMIC_INT(unsigned)
KL_CPU_ATOMIC_INT(unsigned long long)
#undef KL_CPU_ATOMIC_INT

static inline KL_CPU_NOSAN float kl_cpu_atomic_f32(float *p, float v, int op, const void *pc)
{
    kl_cpu_note(p, 4, KL_CPU_RMW_DEV, pc);
    kl_u32 *u = (kl_u32 *)p;
    kl_u32 old = __atomic_load_n(u, __ATOMIC_RELAXED);
    for (;;) {
        float o = kl_bits_f32(old), n;
        if (op == 0)
            n = o + v;
        else if (op == 1)
            n = v;
        else {
            if (!(v > o))
                return o;
            n = v;
        }
        if (__atomic_compare_exchange_n(u, &old, kl_f32_bits(n), true, __ATOMIC_SEQ_CST,
                                        __ATOMIC_RELAXED))
            return o;
    }
}
static inline KL_CPU_NOSAN float atomicAdd(float *p, float v) { return kl_cpu_atomic_f32(p, v, 0, KL_CPU_PC); }
static inline KL_CPU_NOSAN float atomicExch(float *p, float v) { return kl_cpu_atomic_f32(p, v, 1, KL_CPU_PC); }
static inline KL_CPU_NOSAN float atomicMax(float *p, float v) { return kl_cpu_atomic_f32(p, v, 2, KL_CPU_PC); }
static inline KL_CPU_NOSAN float kl_atomic_max(float *p, float v) { return kl_cpu_atomic_f32(p, v, 2, KL_CPU_PC); }

static inline KL_CPU_NOSAN void kl_fence_block(void)
{
    kl_cpu_note(nullptr, 0, KL_CPU_SCOPED(KL_CPU_ACC_FENCE, KL_SCOPE_BLOCK), KL_CPU_PC);
    __atomic_thread_fence(__ATOMIC_SEQ_CST);
}
static inline KL_CPU_NOSAN void kl_fence_device(void)
{
    kl_cpu_note(nullptr, 0, KL_CPU_SCOPED(KL_CPU_ACC_FENCE, KL_SCOPE_DEVICE), KL_CPU_PC);
    __atomic_thread_fence(__ATOMIC_SEQ_CST);
}
static inline KL_CPU_NOSAN void kl_fence_system(void)
{
    kl_cpu_sys_release(nullptr);
    kl_cpu_note(nullptr, 0, KL_CPU_SCOPED(KL_CPU_ACC_FENCE, KL_SCOPE_SYSTEM), KL_CPU_PC);
    __atomic_thread_fence(__ATOMIC_SEQ_CST);
}
static inline void kl_sleep_ns(unsigned) { kl_cpu_wait(KL_CPU_WAIT_SLEEP); }
static inline kl_i64 kl_clock64(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (kl_i64)ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

using std::sqrt;
/* A template, so that a host helper header's own non-template rsqrtf (cuda-samples'
 * helper_math.h defines one for host code where __CUDACC__ is not defined, as here) is no
 * redefinition: where both exist a call takes the file's own. */
template <typename KlNone = void>
static inline float rsqrtf(float x) { return 1.0f / sqrtf(x); }

/* Async copies. Under the default schedule a copy lands when it is issued. Under every other
 * schedule it lands as late as the dialect allows: at the kl_async_wait that leaves it no
 * longer in flight (or when the thread returns), reading its source then; until then its
 * destination holds 0xff bytes (NaN, -1), so a read before the wait, or a write the copy
 * lands on, is wrong every time instead of once in a while. Not instrumented: under pct the
 * landing reports its own read and write. */
static inline KL_CPU_NOSAN void kl_cpu_async_land(struct kl_cpu_thread *me, unsigned keep)
{
    unsigned n = me->async_n, done = n > keep ? n - keep : 0;
    for (unsigned i = 0; i < done; i++) {
        struct kl_cpu_async *a = &me->async_q[i];
        kl_cpu_note(a->src, a->bytes, KL_CPU_ACC_READ, KL_CPU_PC);
        kl_cpu_note(a->dst, a->bytes, KL_CPU_ACC_WRITE, KL_CPU_PC);
        kl_cpu_enter(me);
        std::memcpy(a->dst, a->src, a->bytes);
    }
    std::memmove(me->async_q, me->async_q + done, (n - done) * sizeof me->async_q[0]);
    me->async_n = n - done;
}
template <typename T>
static inline KL_CPU_NOSAN void kl_async_copy(T *dst, const T *src)
{
    static_assert(sizeof(T) == 4 || sizeof(T) == 8 || sizeof(T) == 16,
                  "kl_async_copy: an element of 4, 8 or 16 bytes");
    struct kl_cpu_thread *me = kl_cpu_cur;
    if (!me->async_late) {
        std::memcpy((void *)dst, (const void *)src, sizeof(T));
        return;
    }
    if (me->async_n == KL_CPU_ASYNC_MAX)
        kl_cpu_async_land(me, KL_CPU_ASYNC_MAX - 1);
    std::memset((void *)dst, 0xff, sizeof(T));
    me->async_q[me->async_n++] = {(void *)dst, (const void *)src, (unsigned)sizeof(T)};
}
static inline void kl_async_wait(unsigned n) { kl_cpu_async_land(kl_cpu_cur, n); }

/* KL_EXPORT: a trampoline that unpacks void **args by the entry point's parameter types, and a
 * record of the parameter sizes (the engine copies argument values when it queues a launch). */
template <typename... A, unsigned long... I>
static inline void kl_cpu_call(void (*f)(A...), void **args, std::integer_sequence<unsigned long, I...>)
{
    f(*(A *)args[I]...);
}
template <typename... A>
static inline void kl_cpu_invoke(void (*f)(A...), struct kl_cpu_thread *self, void **args)
{
    kl_cpu_enter(self);
    kl_cpu_call(f, args, std::make_integer_sequence<unsigned long, sizeof...(A)>{});
    kl_cpu_async_land(self, 0); /* copies still in flight land before the thread is gone */
    if (kl_cpu_sysmem.thread_done)
        kl_cpu_sysmem.thread_done(kl_cpu_sysmem.arg,
                                  (unsigned long long)self->gdim.x * self->gdim.y * self->gdim.z *
                                      self->bdim.x * self->bdim.y * self->bdim.z);
}
template <typename... A>
static constexpr struct kl_cpu_sig kl_cpu_make_sig(void (*)(A...))
{
    static_assert(sizeof...(A) <= KL_CPU_MAX_ARGS, "too many kernel arguments");
    return {KL_CPU_ABI_VERSION, (int)sizeof...(A), {(unsigned)sizeof(A)...}};
}
#define KL_EXPORT(name)                                                                        \
    extern "C" __attribute__((visibility("default"))) void kl_cpu_run_##name(                  \
        struct kl_cpu_thread *self, void **args)                                               \
    {                                                                                          \
        kl_cpu_invoke(name, self, args);                                                       \
    }                                                                                          \
    extern "C" __attribute__((visibility("default")))                                          \
    const struct kl_cpu_sig kl_cpu_sig_##name = kl_cpu_make_sig(name);

/* ======================================================================================== */
#elif defined(__HIPCC_RTC__) || defined(__HIP__)

#define KL_KERNEL extern "C" __global__ void
#define KL_DEVICE __device__ inline
#define KL_DYNAMIC_SHARED(type, name) extern __shared__ type name[]
#define KL_EXPORT(name)
#define KL_WAVE ((int)warpSize)
#define KL_ASSUMPTION extern "C" __device__ __attribute__((used, visibility("default"))) const
/* a variable the engine finds by name and sets before a launch (C++ does not mangle the
 * names of variables at namespace scope) */
#define KL_ENGINE_GLOBAL __device__ __attribute__((used, visibility("default")))

KL_DEVICE int kl_lane(void) { return (int)__lane_id(); }
KL_DEVICE kl_u32 kl_f32_bits(float f) { return __float_as_uint(f); }
KL_DEVICE float kl_bits_f32(kl_u32 u) { return __uint_as_float(u); }

/* Out-of-range sources read the lane's own value, as on CUDA and the cpu backend. */
#define KL_HIP_SHFL(T)                                                                          \
    KL_DEVICE T kl_shfl(T v, int l) { return __shfl(v, l, warpSize); }                          \
    KL_DEVICE T kl_shfl_xor(T v, int m) { return __shfl_xor(v, m, warpSize); }                  \
    KL_DEVICE T kl_shfl_down(T v, int d) { return __shfl_down(v, (unsigned)d, warpSize); }
KL_HIP_SHFL(int)
KL_HIP_SHFL(unsigned)
KL_HIP_SHFL(float)
#undef KL_HIP_SHFL
KL_DEVICE kl_u64 kl_ballot(int pred) { return (kl_u64)__ballot(pred); }

KL_DEVICE float kl_atomic_max(float *p, float v) { return atomicMax(p, v); }

#define KL_HIP_SCOPE(s)                                                                         \
    ((s) == KL_SCOPE_BLOCK ? __HIP_MEMORY_SCOPE_WORKGROUP                                       \
                           : (s) == KL_SCOPE_DEVICE ? __HIP_MEMORY_SCOPE_AGENT : __HIP_MEMORY_SCOPE_SYSTEM)
/* The scope must be a constant for the builtins, so each case is spelled out. */
#define KL_HIP_SCOPED(call_block, call_device, call_system, s)                                  \
    ((s) == KL_SCOPE_BLOCK ? (call_block) : (s) == KL_SCOPE_DEVICE ? (call_device) : (call_system))
#define KL_HIP_ATOMIC(T)                                                                        \
    KL_DEVICE T kl_atomic_load_acquire(const T *p, int s)                                       \
    {                                                                                           \
        return KL_HIP_SCOPED(__hip_atomic_load(p, __ATOMIC_ACQUIRE, __HIP_MEMORY_SCOPE_WORKGROUP), \
                             __hip_atomic_load(p, __ATOMIC_ACQUIRE, __HIP_MEMORY_SCOPE_AGENT),  \
                             __hip_atomic_load(p, __ATOMIC_ACQUIRE, __HIP_MEMORY_SCOPE_SYSTEM), s); \
    }                                                                                           \
    KL_DEVICE T kl_atomic_load_relaxed(const T *p, int s)                                       \
    {                                                                                           \
        return KL_HIP_SCOPED(__hip_atomic_load(p, __ATOMIC_RELAXED, __HIP_MEMORY_SCOPE_WORKGROUP), \
                             __hip_atomic_load(p, __ATOMIC_RELAXED, __HIP_MEMORY_SCOPE_AGENT),  \
                             __hip_atomic_load(p, __ATOMIC_RELAXED, __HIP_MEMORY_SCOPE_SYSTEM), s); \
    }                                                                                           \
    KL_DEVICE void kl_atomic_store_release(T *p, T v, int s)                                    \
    {                                                                                           \
        if (s == KL_SCOPE_BLOCK)                                                                \
            __hip_atomic_store(p, v, __ATOMIC_RELEASE, __HIP_MEMORY_SCOPE_WORKGROUP);           \
        else if (s == KL_SCOPE_DEVICE)                                                          \
            __hip_atomic_store(p, v, __ATOMIC_RELEASE, __HIP_MEMORY_SCOPE_AGENT);               \
        else                                                                                    \
            __hip_atomic_store(p, v, __ATOMIC_RELEASE, __HIP_MEMORY_SCOPE_SYSTEM);              \
    }                                                                                           \
    KL_DEVICE void kl_atomic_store_relaxed(T *p, T v, int s)                                    \
    {                                                                                           \
        if (s == KL_SCOPE_BLOCK)                                                                \
            __hip_atomic_store(p, v, __ATOMIC_RELAXED, __HIP_MEMORY_SCOPE_WORKGROUP);           \
        else if (s == KL_SCOPE_DEVICE)                                                          \
            __hip_atomic_store(p, v, __ATOMIC_RELAXED, __HIP_MEMORY_SCOPE_AGENT);               \
        else                                                                                    \
            __hip_atomic_store(p, v, __ATOMIC_RELAXED, __HIP_MEMORY_SCOPE_SYSTEM);              \
    }
KL_HIP_ATOMIC(int)
KL_HIP_ATOMIC(unsigned)
KL_HIP_ATOMIC(unsigned long long)
#undef KL_HIP_ATOMIC

KL_DEVICE void kl_fence_block(void) { __threadfence_block(); }
KL_DEVICE void kl_fence_device(void) { __threadfence(); }
KL_DEVICE void kl_fence_system(void) { __threadfence_system(); }
/* s_sleep takes a constant; each unit is about 64 clocks. */
KL_DEVICE void kl_sleep_ns(unsigned ns)
{
    for (unsigned i = 0; i < ns; i += 64)
        __builtin_amdgcn_s_sleep(1);
}
KL_DEVICE kl_i64 kl_clock64(void) { return (kl_i64)clock64(); }

/* Async copies. gfx1250 loads from global memory into LDS asynchronously
 * (global_load_async_to_lds_b32/b64/b128) and counts them per wave in ASYNCcnt, which
 * s_wait_asynccnt N waits down to N; clang 22 exposes both as builtins, for that target only.
 * The compiler barriers keep plain shared-memory accesses from moving across the wait. Other
 * AMD targets (and hipRTC, which knows no gfx1250 builtins) copy synchronously: the copy has
 * landed before the next instruction, so every wait is already satisfied. */
#if defined(__gfx1250__)
typedef int kl_hip_v2i __attribute__((ext_vector_type(2)));
typedef int kl_hip_v4i __attribute__((ext_vector_type(4)));
template <typename T>
KL_DEVICE void kl_async_copy(T *dst, const T *src)
{
    static_assert(sizeof(T) == 4 || sizeof(T) == 8 || sizeof(T) == 16,
                  "kl_async_copy: an element of 4, 8 or 16 bytes");
    if (sizeof(T) == 4)
        __builtin_amdgcn_global_load_async_to_lds_b32((__attribute__((address_space(1))) int *)src,
                                                      (__attribute__((address_space(3))) int *)dst, 0, 0);
    else if (sizeof(T) == 8)
        __builtin_amdgcn_global_load_async_to_lds_b64((__attribute__((address_space(1))) kl_hip_v2i *)src,
                                                      (__attribute__((address_space(3))) kl_hip_v2i *)dst, 0, 0);
    else
        __builtin_amdgcn_global_load_async_to_lds_b128((__attribute__((address_space(1))) kl_hip_v4i *)src,
                                                       (__attribute__((address_space(3))) kl_hip_v4i *)dst, 0, 0);
}
#define kl_async_wait_hw(n)                                                                     \
    do {                                                                                        \
        __asm__ volatile("" ::: "memory");                                                      \
        __builtin_amdgcn_s_wait_asynccnt(n);                                                    \
        __asm__ volatile("" ::: "memory");                                                      \
    } while (0)
#else
template <typename T>
KL_DEVICE void kl_async_copy(T *dst, const T *src)
{
    static_assert(sizeof(T) == 4 || sizeof(T) == 8 || sizeof(T) == 16,
                  "kl_async_copy: an element of 4, 8 or 16 bytes");
    *dst = *src;
}
#define kl_async_wait_hw(n) ((void)(n))
#endif

/* ======================================================================================== */
#elif defined(__CUDACC_RTC__) || defined(__CUDACC__)
#define KL_KERNEL extern "C" __global__ void
#define KL_DEVICE __device__ inline
#define KL_DYNAMIC_SHARED(type, name) extern __shared__ type name[]
#define KL_EXPORT(name)
#define KL_WAVE 32
#define KL_ASSUMPTION extern "C" __device__ const
/* a variable the engine finds by name and sets before a launch (C++ does not mangle the
 * names of variables at namespace scope) */
#define KL_ENGINE_GLOBAL __device__

KL_DEVICE int kl_lane(void) { return (int)(threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z)) & 31; }
KL_DEVICE kl_u32 kl_f32_bits(float f) { return __float_as_uint(f); }
KL_DEVICE float kl_bits_f32(kl_u32 u) { return __uint_as_float(u); }

#define KL_CUDA_SHFL(T)                                                                         \
    KL_DEVICE T kl_shfl(T v, int l) { return __shfl_sync(0xffffffffu, v, l, 32); }              \
    KL_DEVICE T kl_shfl_xor(T v, int m) { return __shfl_xor_sync(0xffffffffu, v, m, 32); }      \
    KL_DEVICE T kl_shfl_down(T v, int d) { return __shfl_down_sync(0xffffffffu, v, (unsigned)d, 32); }
KL_CUDA_SHFL(int)
KL_CUDA_SHFL(unsigned)
KL_CUDA_SHFL(float)
#undef KL_CUDA_SHFL
KL_DEVICE kl_u64 kl_ballot(int pred) { return (kl_u64)__ballot_sync(0xffffffffu, pred); }

KL_DEVICE float kl_atomic_max(float *p, float v)
{
    unsigned *u = (unsigned *)p;
    unsigned old = *(volatile unsigned *)u;
    while (!(__uint_as_float(old) >= v)) {
        unsigned seen = atomicCAS(u, old, __float_as_uint(v));
        if (seen == old)
            break;
        old = seen;
    }
    return __uint_as_float(old);
}
KL_DEVICE float atomicMax(float *p, float v) { return kl_atomic_max(p, v); }

/* Scoped loads and stores in PTX (sm_70+); the scope selects .cta/.gpu/.sys. */
#define KL_PTX_LD(T, R, W, ord)                                                                 \
    KL_DEVICE T kl_atomic_load_##ord(const T *p, int s)                                         \
    {                                                                                           \
        T v;                                                                                    \
        if (s == KL_SCOPE_BLOCK)                                                                \
            asm volatile("ld." #ord ".cta." W " %0, [%1];" : "=" R(v) : "l"(p) : "memory");     \
        else if (s == KL_SCOPE_DEVICE)                                                          \
            asm volatile("ld." #ord ".gpu." W " %0, [%1];" : "=" R(v) : "l"(p) : "memory");     \
        else                                                                                    \
            asm volatile("ld." #ord ".sys." W " %0, [%1];" : "=" R(v) : "l"(p) : "memory");     \
        return v;                                                                               \
    }
#define KL_PTX_ST(T, R, W, name, ord)                                                           \
    KL_DEVICE void kl_atomic_store_##name(T *p, T v, int s)                                     \
    {                                                                                           \
        if (s == KL_SCOPE_BLOCK)                                                                \
            asm volatile("st." #ord ".cta." W " [%0], %1;" ::"l"(p), R(v) : "memory");          \
        else if (s == KL_SCOPE_DEVICE)                                                          \
            asm volatile("st." #ord ".gpu." W " [%0], %1;" ::"l"(p), R(v) : "memory");          \
        else                                                                                    \
            asm volatile("st." #ord ".sys." W " [%0], %1;" ::"l"(p), R(v) : "memory");          \
    }
#define KL_PTX_ALL(T, R, W)                                                                     \
    KL_PTX_LD(T, R, W, acquire)                                                                 \
    KL_PTX_LD(T, R, W, relaxed)                                                                 \
    KL_PTX_ST(T, R, W, release, release)                                                        \
    KL_PTX_ST(T, R, W, relaxed, relaxed)
KL_PTX_ALL(int, "r", "b32")
KL_PTX_ALL(unsigned, "r", "b32")
KL_PTX_ALL(unsigned long long, "l", "b64")
#undef KL_PTX_ALL
#undef KL_PTX_LD
#undef KL_PTX_ST

KL_DEVICE void kl_fence_block(void) { __threadfence_block(); }
KL_DEVICE void kl_fence_device(void) { __threadfence(); }
KL_DEVICE void kl_fence_system(void) { __threadfence_system(); }
KL_DEVICE void kl_sleep_ns(unsigned ns) { __nanosleep(ns); }
KL_DEVICE kl_i64 kl_clock64(void) { return (kl_i64)clock64(); }

/* Async copies: cp.async (sm_80 and later), one commit group per copy, so "n copies in flight"
 * is cp.async.wait_group n. Older architectures copy synchronously. */
template <typename T>
KL_DEVICE void kl_async_copy(T *dst, const T *src)
{
    static_assert(sizeof(T) == 4 || sizeof(T) == 8 || sizeof(T) == 16,
                  "kl_async_copy: an element of 4, 8 or 16 bytes");
#if __CUDA_ARCH__ >= 800
    unsigned sdst = (unsigned)__cvta_generic_to_shared(dst);
    asm volatile("cp.async.ca.shared.global [%0], [%1], %2;\n\tcp.async.commit_group;"
                 ::"r"(sdst), "l"(src), "n"((int)sizeof(T)) : "memory");
#else
    *dst = *src;
#endif
}
#if __CUDA_ARCH__ >= 800
#define kl_async_wait_hw(n) asm volatile("cp.async.wait_group %0;" ::"n"(n) : "memory")
#else
#define kl_async_wait_hw(n) ((void)(n))
#endif

#else
#error "kl.h: compile with hipRTC, NVRTC, or -DKL_CPU for the cpu backend"
#endif

/* ---- cache policies ----------------------------------------------------------------------
 * kl_load_policy(p, policy) loads a 32-bit word with the cache-policy value an AMD buffer or
 * global load carries. The same value means different things on different targets: on gfx942
 * and gfx950 bit 0 is sc0 and bit 4 sc1, and sc0|sc1 (17) is system scope, coherent with other
 * GPUs; on gfx12 (gfx1250) bits 0-2 are the temporal hint and bits 3-4 the scope, so 17 is
 * non-temporal at device scope, which other GPUs' writes need not reach. Each target decodes
 * the value its own way and loads at the scope it names. The cpu and cuda backends decode as
 * gfx1250 does (the bring-up target).
 *
 * Where ranks share memory that is coherent at device scope (the cpu backend's emulated ranks,
 * every rank on one GPU), such a load could never be stale, so a load below system scope goes
 * through a table of words this rank read before (each module, i.e. each rank, has its own): it
 * returns what it kept while the word is still there, the stale line a real non-coherent cache
 * can return after a peer GPU wrote the memory; a system-scope load always reads memory. The
 * cpu backend always keeps the table; on a GPU the engine turns it on
 * (kl_nc_ranks_share_device = 1) only when every rank of a collective runs on that one device. */
#define KL_CPOL_GFX9_SC0 1
#define KL_CPOL_GFX9_SC1 16
#define KL_CPOL_GFX12_NT 1
#define KL_CPOL_GFX12_SCOPE_DEV 16
#define KL_CPOL_GFX12_SCOPE_SYS 24
#if !defined(KL_CPU) && (defined(__HIPCC_RTC__) || defined(__HIP__)) && defined(__GFX9__)
/* the system-coherent value of this target */
#define KL_CPOL_SYSTEM (KL_CPOL_GFX9_SC0 | KL_CPOL_GFX9_SC1)
KL_DEVICE int kl_cpol_scope(int policy)
{
    return (policy & KL_CPOL_GFX9_SC0) && (policy & KL_CPOL_GFX9_SC1) ? KL_SCOPE_SYSTEM
                                                                      : KL_SCOPE_DEVICE;
}
#else
#define KL_CPOL_SYSTEM KL_CPOL_GFX12_SCOPE_SYS
KL_DEVICE int kl_cpol_scope(int policy)
{
    return (policy & KL_CPOL_GFX12_SCOPE_SYS) == KL_CPOL_GFX12_SCOPE_SYS ? KL_SCOPE_SYSTEM
                                                                         : KL_SCOPE_DEVICE;
}
#endif
/* 4096 sets of 8 ways, set = word address mod 4096: the words of one contiguous buffer of up
 * to 4096 words fall in distinct sets, so up to 8 peers' buffers never evict each other
 * whatever their addresses, and what a load returns does not depend on where the allocator
 * put them. An entry is (word address / 4096 + 1) << 32 | value; 0 is empty. */
#define KL_NC_SETS 4096u
#define KL_NC_WAYS 8u
#if defined(KL_CPU)
static unsigned long long kl_nc_table[KL_NC_SETS * KL_NC_WAYS];
static inline bool kl_nc_on(void) { return true; }
static inline KL_CPU_NOSAN kl_u64 kl_nc_get(kl_u64 *e) { return __atomic_load_n(e, __ATOMIC_RELAXED); }
static inline KL_CPU_NOSAN bool kl_nc_claim(kl_u64 *e, kl_u64 v)
{
    kl_u64 empty = 0;
    return __atomic_compare_exchange_n(e, &empty, v, false, __ATOMIC_RELAXED, __ATOMIC_RELAXED);
}
static inline KL_CPU_NOSAN void kl_nc_put(kl_u64 *e, kl_u64 v) { __atomic_store_n(e, v, __ATOMIC_RELAXED); }
#define KL_NC_FN static inline KL_CPU_NOSAN
#else
#define KL_NC_FN KL_DEVICE
KL_ENGINE_GLOBAL kl_u64 kl_nc_table[KL_NC_SETS * KL_NC_WAYS] = {0};
KL_ENGINE_GLOBAL int kl_nc_ranks_share_device = 0;
KL_DEVICE bool kl_nc_on(void) { return *(volatile int *)&kl_nc_ranks_share_device != 0; }
KL_DEVICE kl_u64 kl_nc_get(kl_u64 *e) { return kl_atomic_load_relaxed(e, KL_SCOPE_DEVICE); }
KL_DEVICE bool kl_nc_claim(kl_u64 *e, kl_u64 v) { return atomicCAS(e, (kl_u64)0, v) == 0; }
KL_DEVICE void kl_nc_put(kl_u64 *e, kl_u64 v) { kl_atomic_store_relaxed(e, v, KL_SCOPE_DEVICE); }
#endif
KL_NC_FN kl_u32 kl_nc_load(const kl_u32 *p)
{
    const kl_u64 a = (kl_u64)p >> 2; /* pointers are 64-bit on every backend */
    const kl_u64 tag = (a / KL_NC_SETS + 1) & 0xffffffffull;
    kl_u64 *set = &kl_nc_table[(a % KL_NC_SETS) * KL_NC_WAYS];
    for (unsigned w = 0; w < KL_NC_WAYS; w++) {
        const kl_u64 kept = kl_nc_get(&set[w]);
        if (kept >> 32 == tag)
            return (kl_u32)kept;
    }
    const kl_u32 v = kl_atomic_load_relaxed(p, KL_SCOPE_DEVICE);
    for (unsigned w = 0; w < KL_NC_WAYS; w++)
        if (kl_nc_claim(&set[w], tag << 32 | v))
            return v;
    kl_nc_put(&set[a % KL_NC_WAYS], tag << 32 | v); /* full */
    return v;
}
KL_DEVICE kl_u32 kl_load_policy(const kl_u32 *p, int policy)
{
    if (kl_cpol_scope(policy) == KL_SCOPE_SYSTEM)
        return kl_atomic_load_relaxed(p, KL_SCOPE_SYSTEM);
    return kl_nc_on() ? kl_nc_load(p) : kl_atomic_load_relaxed(p, KL_SCOPE_DEVICE);
}

/* ---- shared by every target ------------------------------------------------------------- */
/* KL_ASSUME_WAVE(kernel, n), at file scope: the kernel is written for waves of n lanes only.
 * It becomes the exported constant kl_assume_wave_<kernel>, which the engine checks against
 * the wave of every run before launching (a mismatch fails the check with both numbers) and
 * against a code object's .wavefront_size when it is built offline (rung 3, kladder inspect). */
#define KL_ASSUME_WAVE(kernel, n)                                                               \
    static_assert((n) == 32 || (n) == 64, "KL_ASSUME_WAVE: a wave is 32 or 64 lanes");          \
    KL_ASSUMPTION int kl_assume_wave_##kernel = (n);
struct kl_bf16 {
    kl_u16 bits;
};
struct kl_fp8e4m3 {
    kl_u8 bits;
};

KL_DEVICE bool kl_isnan(float f) { return (kl_f32_bits(f) & 0x7fffffffu) > 0x7f800000u; }
KL_DEVICE bool kl_isfinite(float f) { return (kl_f32_bits(f) & 0x7f800000u) != 0x7f800000u; }

KL_DEVICE float kl_bf16_to_f32(kl_bf16 x) { return kl_bits_f32((kl_u32)x.bits << 16); }
KL_DEVICE kl_bf16 kl_f32_to_bf16(float f)
{
    kl_u32 u = kl_f32_bits(f);
    kl_bf16 r;
    if ((u & 0x7fffffffu) > 0x7f800000u) {
        r.bits = (kl_u16)((u >> 16) | 0x40u); /* keep sign and payload top, force quiet */
        return r;
    }
    u += 0x7fffu + ((u >> 16) & 1u); /* round to nearest, ties to even */
    r.bits = (kl_u16)(u >> 16);
    return r;
}

/* fp8 e4m3 (OCP "fn" variant): bias 7, no infinities, 0x7f/0xff are NaN, max normal 448. */
KL_DEVICE float kl_fp8e4m3_to_f32(kl_fp8e4m3 x)
{
    kl_u32 s = (kl_u32)(x.bits & 0x80u) << 24;
    kl_u32 e = (x.bits >> 3) & 0xfu, m = x.bits & 0x7u;
    if (e == 0xfu && m == 0x7u)
        return kl_bits_f32(s | 0x7fc00000u);
    if (e == 0) { /* subnormal: m * 2^-9 */
        float v = (float)m * 0.001953125f;
        return s ? -v : v;
    }
    return kl_bits_f32(s | ((e + 120u) << 23) | (m << 20));
}
KL_DEVICE kl_fp8e4m3 kl_f32_to_fp8e4m3(float f)
{
    kl_fp8e4m3 r;
    kl_u32 u = kl_f32_bits(f);
    kl_u8 sign = (kl_u8)((u >> 24) & 0x80u);
    if (kl_isnan(f)) {
        r.bits = (kl_u8)(sign | 0x7fu);
        return r;
    }
    float a = fabsf(f);
    if (a >= 448.0f) {
        r.bits = (kl_u8)(sign | 0x7eu);
        return r;
    }
    if (a < 0.015625f) { /* below the smallest normal 2^-6: subnormal steps of 2^-9 */
        float q = a * 512.0f;
        kl_u32 m = (kl_u32)q;
        float rem = q - (float)m;
        if (rem > 0.5f || (rem == 0.5f && (m & 1u)))
            m++;
        r.bits = (kl_u8)(sign | m); /* m == 8 rolls into the smallest normal, as it should */
        return r;
    }
    kl_u32 au = kl_f32_bits(a);
    kl_u32 e = ((au >> 23) & 0xffu) - 120u;
    kl_u32 mant = au & 0x7fffffu;
    kl_u32 m = mant >> 20, rest = mant & 0xfffffu;
    if (rest > 0x80000u || (rest == 0x80000u && (m & 1u))) {
        m++;
        if (m == 8u) {
            m = 0;
            e++;
        }
    }
    if (e > 15u || (e == 15u && m == 7u)) { /* rounded past 448 */
        e = 15u;
        m = 6u;
    }
    r.bits = (kl_u8)(sign | (e << 3) | m);
    return r;
}

/* IEEE binary16 in integer arithmetic, the same on every target (engine/values/value_class.c
 * does it bit for bit on the host): bias 15, 10 mantissa bits, subnormals in steps of 2^-24,
 * round to nearest even, past 65504 infinity, a NaN quiet with its payload's top bits. */
struct kl_f16 {
    kl_u16 bits;
};
KL_DEVICE float kl_f16_to_f32(kl_f16 x)
{
    kl_u32 s = (kl_u32)(x.bits & 0x8000u) << 16, e = (x.bits >> 10) & 0x1fu, m = x.bits & 0x3ffu;
    if (e == 0x1fu)
        return kl_bits_f32(s | 0x7f800000u | (m << 13));
    if (e == 0) {
        float v = (float)m * 5.9604644775390625e-08f; /* m * 2^-24 */
        return s ? -v : v;
    }
    return kl_bits_f32(s | ((e + 112u) << 23) | (m << 13));
}
KL_DEVICE kl_f16 kl_f32_to_f16(float f)
{
    kl_f16 r;
    kl_u32 u = kl_f32_bits(f), a = u & 0x7fffffffu;
    kl_u16 sign = (kl_u16)((u >> 16) & 0x8000u);
    if (a > 0x7f800000u) {
        r.bits = (kl_u16)(sign | 0x7e00u | ((a >> 13) & 0x3ffu));
        return r;
    }
    if (a >= 0x47800000u) {
        r.bits = (kl_u16)(sign | 0x7c00u);
        return r;
    }
    if (a < 0x38800000u) { /* a subnormal m * 2^-24; m == 1024 is the least normal */
        float q = kl_bits_f32(a) * 16777216.0f;
        kl_u32 m = (kl_u32)q;
        float rem = q - (float)m;
        if (rem > 0.5f || (rem == 0.5f && (m & 1u)))
            m++;
        r.bits = (kl_u16)(sign | m);
        return r;
    }
    kl_u32 h = (((a >> 23) - 112u) << 10) | ((a >> 13) & 0x3ffu), rest = a & 0x1fffu;
    if (rest > 0x1000u || (rest == 0x1000u && (h & 1u)))
        h++; /* a carry into the exponent is right, up to infinity at 65520 */
    r.bits = (kl_u16)(sign | h);
    return r;
}

/* ---- lag builds (KL_LAG=seed) ------------------------------------------------------------
 * A GPU runs the waves of a block nearly in step, so a race between waves that only shows when
 * one of them falls behind (a slot reused without a barrier) can pass every launch. Built with
 * -DKL_LAG=S (S >= 1), one wave of each lagging block is held back right after every
 * __syncthreads() and before every kl_fence_*(): the others run ahead into what follows, as the
 * cpu backend's adversarial schedule makes them. Which wave: (S + h(block)) mod waves, so seeds
 * 1..waves hold back every wave of a block in turn; which blocks: block 0 and one in four of the
 * others (h(block) again), which bounds the cost of large grids. The delay is KL_LAG_CYCLES
 * clock ticks (default 16384, ~8 us on an H200) slept in short steps on a GPU, and one yield to
 * the scheduler on the cpu backend (the other threads run to their next wait first). A correct
 * kernel gives the same result lagged or not. Only the kernel under test is built this way. */
#if defined(KL_LAG)
#ifndef KL_LAG_CYCLES
#define KL_LAG_CYCLES 16384
#endif
/* KL_LAG_MODE: which waves the seed picks. KL_LAG_BEHIND (0, the default): the seeded wave is
 * held back, the others run on. KL_LAG_AHEAD (1), the mirror: every wave of the block but the
 * seeded one is held back, so the seeded wave runs AHEAD of all the others into what follows. A
 * single consumer read before any of many producers has published (a flag, a counter, a scale
 * stored by every other wave: aiter-4841) shows only this way: holding one producer back changes
 * nothing while the others publish the same value. On the cpu backend the held waves yield once,
 * so the seeded wave's threads run to their next wait before any other thread moves. */
#define KL_LAG_BEHIND 0
#define KL_LAG_AHEAD 1
#ifndef KL_LAG_MODE
#define KL_LAG_MODE KL_LAG_BEHIND
#endif
#if KL_LAG_MODE != KL_LAG_BEHIND && KL_LAG_MODE != KL_LAG_AHEAD
#error "KL_LAG_MODE must be 0 (one wave behind) or 1 (one wave ahead)"
#endif
KL_DEVICE kl_u32 kl_lag_hash(kl_u32 x)
{
    x ^= x >> 16;
    x *= 0x7feb352du;
    x ^= x >> 15;
    x *= 0x846ca68bu;
    x ^= x >> 16;
    return x;
}
/* The calling thread's index in its block, and its block's in the grid, both linear. */
KL_DEVICE kl_u32 kl_lag_thread(void) { return threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z); }
KL_DEVICE kl_u64 kl_lag_block(void) { return blockIdx.x + (kl_u64)gridDim.x * (blockIdx.y + (kl_u64)gridDim.y * blockIdx.z); }
/* Whether the calling thread's wave is one its block holds back (KL_LAG_MODE says which). */
KL_DEVICE bool kl_lag_mine(void)
{
    kl_u32 threads = blockDim.x * blockDim.y * blockDim.z;
    kl_u32 t = kl_lag_thread();
    kl_u32 b = (kl_u32)kl_lag_block();
    kl_u32 wave = (kl_u32)KL_WAVE, waves = (threads + wave - 1) / wave;
    kl_u32 h = kl_lag_hash(b ^ 0x9e3779b9u);
    if (waves < 2 || (b != 0 && (h & 3u) != 0))
        return false;
    const bool seeded = t / wave == ((kl_u32)(KL_LAG) + (h >> 2)) % waves;
    return KL_LAG_MODE == KL_LAG_AHEAD ? !seeded : seeded;
}
KL_DEVICE void kl_lag_point(void)
{
    if (!kl_lag_mine())
        return;
#if defined(KL_CPU)
    kl_cpu_wait(KL_CPU_WAIT_SLEEP);
#else
    kl_i64 t0 = kl_clock64();
    while (kl_clock64() - t0 < (kl_i64)(KL_LAG_CYCLES)) {
#if defined(__CUDACC_RTC__) || defined(__CUDACC__)
        __nanosleep(64);
#else
        __builtin_amdgcn_s_sleep(1);
#endif
    }
#endif
}
/* The barrier itself, then the lag: the wave held back is late for what follows it. */
KL_DEVICE void kl_lag_barrier(void)
{
#if defined(KL_CPU) || defined(__CUDACC_RTC__) || defined(__CUDACC__)
    (__syncthreads)(); /* the parentheses call the function, not the macro below */
#else
    __builtin_amdgcn_fence(__ATOMIC_RELEASE, "workgroup");
    __builtin_amdgcn_s_barrier();
    __builtin_amdgcn_fence(__ATOMIC_ACQUIRE, "workgroup");
#endif
    kl_lag_point();
}
#undef __syncthreads
#define __syncthreads() kl_lag_barrier()
#define kl_fence_block() (kl_lag_point(), (kl_fence_block)())
#define kl_fence_device() (kl_lag_point(), (kl_fence_device)())
#define kl_fence_system() (kl_lag_point(), (kl_fence_system)())

/* Async copies land late. A GPU lands a copy whenever its memory answers, which is mostly
 * long before a late or missing kl_async_wait would matter: a read that no wait covers (a wait
 * count off by one, a wait the compiler moved, a copy issued after the wait that should count
 * it) passes nearly every launch. A lag build on a GPU keeps each thread's copies in a queue
 * instead and lands them at the latest moment the dialect allows: at the kl_async_wait that
 * leaves them no room, oldest first (or when the queue is full), which is what the cpu
 * backend's schedules do. The queue is the thread's slot in kl_lag_async_slots, which the
 * engine allocates for the first KL_LAG_ASYNC_THREADS threads; a slot remembers the launch it
 * belongs to (CUDA's grid id, AMD's dispatch packet), so copies a thread left unwaited never
 * reach the next launch. Threads past the buffer, or a module the engine gave none, copy as usual. */
#if !defined(KL_CPU)
struct kl_lag_async_copy {
    const void *src;
    void *dst;
    kl_u32 bytes, pad;
};
struct kl_lag_async_slot {
    kl_u64 launch;
    kl_u32 n, pad;
    struct kl_lag_async_copy q[KL_LAG_ASYNC_DEPTH];
};
static_assert(sizeof(struct kl_lag_async_slot) == KL_LAG_ASYNC_SLOT_BYTES,
              "the engine allocates KL_LAG_ASYNC_SLOT_BYTES a thread");
KL_ENGINE_GLOBAL struct kl_lag_async_slot *kl_lag_async_slots = 0;
KL_DEVICE kl_u64 kl_lag_launch_id(void)
{
#if defined(__CUDACC_RTC__) || defined(__CUDACC__)
    kl_u64 id;
    asm volatile("mov.u64 %0, %%gridid;" : "=l"(id));
    return id;
#else
    /* the dispatch's AQL packet: its queue slot comes round again only after a whole ring of
     * later dispatches */
    return (kl_u64)__builtin_amdgcn_dispatch_ptr();
#endif
}
/* The calling thread's queue, emptied if it belonged to an earlier launch; NULL: no queue. */
KL_DEVICE struct kl_lag_async_slot *kl_lag_async_mine(void)
{
    struct kl_lag_async_slot *all = *(struct kl_lag_async_slot *volatile *)&kl_lag_async_slots;
    const kl_u64 id = kl_lag_block() * (blockDim.x * blockDim.y * blockDim.z) + kl_lag_thread();
    if (!all || id >= KL_LAG_ASYNC_THREADS)
        return 0;
    struct kl_lag_async_slot *me = &all[id];
    const kl_u64 launch = kl_lag_launch_id();
    if (me->launch != launch) {
        me->launch = launch;
        me->n = 0;
    }
    return me;
}
/* Lands all but the `keep` newest copies, oldest first. */
KL_DEVICE void kl_lag_async_land(struct kl_lag_async_slot *me, kl_u32 keep)
{
    if (!me || me->n <= keep)
        return;
    const kl_u32 done = me->n - keep;
    for (kl_u32 i = 0; i < done; i++) {
        const struct kl_lag_async_copy c = me->q[i];
        for (kl_u32 w = 0; w < c.bytes / 4; w++) /* 4, 8 or 16 bytes, 4-aligned */
            ((kl_u32 *)c.dst)[w] = ((const kl_u32 *)c.src)[w];
    }
    for (kl_u32 i = done; i < me->n; i++)
        me->q[i - done] = me->q[i];
    me->n = keep;
}
template <typename T>
KL_DEVICE void kl_lag_async_copy(T *dst, const T *src)
{
    struct kl_lag_async_slot *me = kl_lag_async_mine();
    if (!me) {
        (kl_async_copy)(dst, src);
        return;
    }
    if (me->n == KL_LAG_ASYNC_DEPTH)
        kl_lag_async_land(me, KL_LAG_ASYNC_DEPTH - 1);
    me->q[me->n].src = (const void *)src;
    me->q[me->n].dst = (void *)dst;
    me->q[me->n].bytes = (kl_u32)sizeof(T);
    me->n++;
}
#define kl_async_copy(dst, src) kl_lag_async_copy(dst, src)
#define kl_async_wait(n)                                                                        \
    do {                                                                                        \
        kl_lag_async_land(kl_lag_async_mine(), (n));                                            \
        kl_async_wait_hw(n);                                                                    \
    } while (0)
#endif /* !KL_CPU */
#endif /* KL_LAG */
#if !defined(KL_CPU) && !defined(kl_async_wait)
#define kl_async_wait(n) kl_async_wait_hw(n)
#endif

/* <math.h>'s INFINITY where no system header is seen (NVRTC, hipRTC, clang -nogpuinc). */
#ifndef INFINITY
#if defined(__CUDACC_RTC__) || defined(__CUDACC__)
#define INFINITY __int_as_float(0x7f800000)
#else
#define INFINITY __builtin_inff()
#endif
#endif

#endif /* !KL_ABI_ONLY */
#endif /* KL_DIALECT_H */
