/* kl_vendor.h — the CUDA and HIP device API as kernels ship it, over the dialect (kernels/kl.h).
 *
 * A plain source (a manifest's "source" ending in .cu, .hip, .cuh or .cpp, engine/compile/plain_source.h)
 * gets this file in front of it instead of its vendor includes (cuda_runtime.h, cuda_fp16.h,
 * cooperative_groups.h, hip/hip_runtime.h, ... and the <cstdint>-style headers): the engine
 * removes those include lines and this file supplies what they declare. On the cpu backend it
 * is the whole device API a kernel sees; on a GPU backend whose compiler has the vendor's own
 * headers they stay in place and this file only adds the two hooks the engine writes
 * (KL_ENTRY, KL_EXTERN_SHARED and KL_STATIC_SHARED).
 *
 * What the engine writes into a plain source, and nothing else uses:
 *   KL_EXTERN_SHARED(name, type)  stands for `extern __shared__ type name[];` (the cpu backend
 *                                 has no extern thread-local arrays: name becomes an object
 *                                 that converts to the block's dynamic shared memory)
 *   KL_EXTERN_SHARED_LOCAL(name, type)  the same declaration in a function (cpu: a local pointer
 *                                 to the block's dynamic shared memory, so that every use of an
 *                                 array, reinterpret_cast included, works on it)
 *   KL_STATIC_SHARED(name, (dims), type)  stands for `__shared__ type name dims;` in a function
 *                                 (cpu: a reference to the block's instance, placed alone before
 *                                 a guard page)
 *   KL_ENTRY(symbol, entry)       after the source, once per entry point named in the manifest:
 *                                 entry as written there (`moving_average<256, 97>`, a C++ or an
 *                                 extern "C" name), exported under symbol (cpu: the trampoline
 *                                 KL_EXPORT writes; GPU: nothing, the name is the kernel's)
 *
 * What the cpu part supports is the table in docs/kernels.md; a name it does not declare is
 * the host compiler's error at the kernel's line. Semantics follow the vendors' documentation:
 * shuffles with a width work within segments of that width, out-of-segment sources return the
 * caller's own value; masks are accepted and every live lane of the wave must call (the
 * dialect's rule); __half and __nv_bfloat16 round to nearest even. */
#ifndef KL_VENDOR_H
#define KL_VENDOR_H

#if defined(KL_CPU)
/* Thrust, where the compiler finds it (the CUDA toolkit's CCCL folder, engine/cpu/backend_cpu.c,
 * or a system-wide one), runs its device algorithms on the host: device memory is host memory
 * here, so thrust::device_vector, thrust::device_ptr over cudaMalloc'd memory and
 * thrust::sort(thrust::device, ...) mean what they mean on a GPU. */
#ifndef THRUST_DEVICE_SYSTEM
#define THRUST_DEVICE_SYSTEM THRUST_DEVICE_SYSTEM_CPP
#endif
#include <cassert>
#include <cfloat>
#include <climits>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <type_traits>

/* ---- qualifiers ------------------------------------------------------------------------- */
/* A kernel's symbol is visible (the module is built -fvisibility=hidden): a fault or a shared
 * memory finding in it is named by the kernel, template instance and all. And it is always
 * emitted, as a GPU compiler emits every kernel: a template instance that host code calls is
 * not inlined away, so it stays launchable by name (`kladder scan` finds it in the object). */
#undef __global__
#define __global__ __attribute__((visibility("default"), used))
#define __launch_bounds__(...)
#define __noinline__ __attribute__((noinline))
#define __restrict__ __restrict
/* ---- storage classes: where __align__ and __constant__ may stand ------------------------ */
/* __align__ is a GNU attribute, not alignas: CUDA code puts it anywhere among the specifiers
 * (`__shared__ __align__(16) float s;`, `__constant__ __align__(16) T c[4];`, `struct
 * __align__(8) S`), where a standard attribute may not stand. A __device__ or __constant__
 * global is one object of the module (one per device, shared by every block); neither adds a
 * storage class, so `__constant__ static`, `static __constant__` and `extern __constant__`
 * are what they say. */
#define __align__(n) __attribute__((aligned(n)))
#define __constant__
#define __CUDA_ALIGN__(n) __attribute__((aligned(n)))
/* ---- end of storage classes -------------------------------------------------------------- */
#define HIP_DYNAMIC_SHARED(type, name) KL_DYNAMIC_SHARED(type, name)
#define HIP_DYNAMIC_SHARED_ATTRIBUTE

/* `extern __shared__ T name[]`: an empty object whose every use is the block's dynamic shared
 * memory as T (indexing, pointer arithmetic, conversion to any pointer type). */
template <typename T>
struct kl_cpu_dyn_shared {
    T *ptr() const { return (T *)kl_cpu_cur->dyn_shared; }
    operator T *() const { return ptr(); }
    template <typename U>
    explicit operator U *() const { return (U *)kl_cpu_cur->dyn_shared; }
    T &operator[](long long i) const { return ptr()[i]; }
    T *operator+(long long i) const { return ptr() + i; }
    T &operator*() const { return *ptr(); }
};
#define KL_EXTERN_SHARED(name, ...) static kl_cpu_dyn_shared<__VA_ARGS__> name
#define KL_EXTERN_SHARED_LOCAL(name, ...)                                                       \
    __VA_ARGS__ *const name = (__VA_ARGS__ *)kl_cpu_cur->dyn_shared
/* `__shared__ T name[N]...;` in a function: a reference to the block's own instance, which the
 * emulator places alone before a guard page, so an index past it is caught where it happens
 * (a GPU would read or write the next array). The key, a string per declaration (and per
 * template instance), names the array in the finding. */
#define KL_CPU_UNPAREN(...) __VA_ARGS__
static inline __attribute__((no_sanitize_thread)) void *kl_cpu_static_shared(const char *key, unsigned long bytes,
                                                                             unsigned long align)
{
    struct kl_cpu_thread *me = kl_cpu_cur;
    void *p = me->rt->shared(me, key, bytes, align);
    kl_cpu_enter(me);
    return p;
}
#define KL_STATIC_SHARED(name, dims, ...)                                                       \
    typedef __VA_ARGS__ kl_cpu_shared_t_##name KL_CPU_UNPAREN dims;                             \
    static const char kl_cpu_shared_key_##name[] = #name;                                       \
    kl_cpu_shared_t_##name &name = *(kl_cpu_shared_t_##name *)kl_cpu_static_shared(             \
        kl_cpu_shared_key_##name, sizeof(kl_cpu_shared_t_##name), alignof(kl_cpu_shared_t_##name))
#define KL_ENTRY(symbol, ...)                                                                  \
    extern "C" __attribute__((visibility("default"))) void kl_cpu_run_##symbol(                \
        struct kl_cpu_thread *self, void **args)                                               \
    {                                                                                          \
        kl_cpu_invoke(&__VA_ARGS__, self, args);                                               \
    }                                                                                          \
    extern "C" __attribute__((visibility("default")))                                          \
    const struct kl_cpu_sig kl_cpu_sig_##symbol = kl_cpu_make_sig(&__VA_ARGS__);

/* warpSize: an object, not a macro, so a template parameter of that name still works. */
struct kl_cpu_warp_size {
    constexpr kl_cpu_warp_size() {}
    operator int() const { return (int)kl_cpu_cur->wave; }
};
static const kl_cpu_warp_size warpSize;

/* ---- integer intrinsics ----------------------------------------------------------------- */
static inline int __popc(unsigned x) { return __builtin_popcount(x); }
static inline int __popcll(unsigned long long x) { return __builtin_popcountll(x); }
static inline int __ffs(int x) { return __builtin_ffs(x); }
static inline int __ffsll(long long x) { return __builtin_ffsll(x); }
static inline int __clz(int x) { return x == 0 ? 32 : __builtin_clz((unsigned)x); }
static inline int __clzll(long long x) { return x == 0 ? 64 : __builtin_clzll((unsigned long long)x); }
static inline unsigned __brev(unsigned x)
{
    unsigned r = 0;
    for (int i = 0; i < 32; i++)
        r |= ((x >> i) & 1u) << (31 - i);
    return r;
}
static inline unsigned __umulhi(unsigned a, unsigned b) { return (unsigned)(((unsigned long long)a * b) >> 32); }
/* min and max over any two arithmetic types, in their common type (CUDA's overload set) */
template <typename A, typename B>
static inline typename std::common_type<A, B>::type min(A a, B b) { return b < a ? b : a; }
template <typename A, typename B>
static inline typename std::common_type<A, B>::type max(A a, B b) { return a < b ? b : a; }

/* ---- float intrinsics (macros where glibc declares the name itself) ---------------------- */
#define __expf(x) expf(x)
#define __logf(x) logf(x)
#define __sinf(x) sinf(x)
#define __cosf(x) cosf(x)
#define __tanhf(x) tanhf(x)
#define __powf(a, b) powf(a, b)
static inline float __fdividef(float a, float b) { return a / b; }
static inline float __frcp_rn(float x) { return 1.0f / x; }
static inline float __fsqrt_rn(float x) { return sqrtf(x); }
static inline float __fmaf_rn(float a, float b, float c) { return fmaf(a, b, c); }
static inline float __fadd_rn(float a, float b) { return a + b; }
static inline float __fmul_rn(float a, float b) { return a * b; }
static inline float __saturatef(float x) { return x < 0.0f ? 0.0f : x > 1.0f ? 1.0f : x; }
static inline unsigned __float_as_uint(float f) { return kl_f32_bits(f); }
static inline int __float_as_int(float f) { return (int)kl_f32_bits(f); }
static inline float __uint_as_float(unsigned u) { return kl_bits_f32(u); }
static inline float __int_as_float(int i) { return kl_bits_f32((unsigned)i); }
static inline int __float2int_rn(float x) { return (int)nearbyintf(x); }
static inline int __float2int_rz(float x) { return (int)x; }
static inline float __int2float_rn(int x) { return (float)x; }

/* ---- fences, clocks, traps -------------------------------------------------------------- */
static inline void __threadfence_block(void) { kl_fence_block(); }
static inline void __threadfence(void) { kl_fence_device(); }
static inline void __threadfence_system(void) { kl_fence_system(); }
static inline long long clock64(void) { return kl_clock64(); }
static inline long long wall_clock64(void) { return kl_clock64(); }
static inline void __nanosleep(unsigned ns) { kl_sleep_ns(ns); }
static inline void __trap(void) { std::abort(); }

/* ---- cache-hint loads and stores (plain accesses here: the hint changes no value) ------- */
#define KL_CPU_LOAD_HINT(name)                                                                  \
    template <typename T>                                                                       \
    static inline T name(const T *p) { return *p; }
#define KL_CPU_STORE_HINT(name)                                                                 \
    template <typename T>                                                                       \
    static inline void name(T *p, T v) { *p = v; }
KL_CPU_LOAD_HINT(__ldg)
KL_CPU_LOAD_HINT(__ldca)
KL_CPU_LOAD_HINT(__ldcg)
KL_CPU_LOAD_HINT(__ldcs)
KL_CPU_LOAD_HINT(__ldlu)
KL_CPU_LOAD_HINT(__ldcv)
KL_CPU_STORE_HINT(__stwb)
KL_CPU_STORE_HINT(__stcg)
KL_CPU_STORE_HINT(__stcs)
KL_CPU_STORE_HINT(__stwt)
#undef KL_CPU_LOAD_HINT
#undef KL_CPU_STORE_HINT
template <typename T>
static inline T __builtin_nontemporal_load_kl(const T *p) { return *p; }

/* ---- wave operations -------------------------------------------------------------------- */
/* One value of any trivially copyable type, moved 8 bytes per wave operation: every lane makes
 * the same number of rendezvous, as the emulator requires. src is the lane to read. */
template <typename T>
static inline T kl_cpu_shfl_any(T v, int src)
{
    static_assert(std::is_trivially_copyable<T>::value, "a shuffled value must be trivially copyable");
    unsigned char in[(sizeof(T) + 7) / 8 * 8] = {}, out[sizeof in];
    std::memcpy(in, &v, sizeof(T));
    for (size_t off = 0; off < sizeof in; off += 8) {
        unsigned long long w;
        std::memcpy(&w, in + off, 8);
        w = kl_cpu_wave_op(KL_CPU_WAVE_SHFL, w, src);
        std::memcpy(out + off, &w, 8);
    }
    T r;
    std::memcpy(&r, out, sizeof(T));
    return r;
}
/* The lane a shuffle reads within segments of `width` lanes; the caller's own lane when the
 * source leaves its segment (what CUDA and HIP return then). */
static inline int kl_cpu_seg(int width) { return width > 0 && width < KL_WAVE ? width : KL_WAVE; }
static inline int kl_cpu_src_at(int src, int width)
{
    int w = kl_cpu_seg(width), l = kl_lane();
    return (l & ~(w - 1)) + (src & (w - 1));
}
static inline int kl_cpu_src_down_w(unsigned d, int width)
{
    int w = kl_cpu_seg(width), l = kl_lane();
    return (l & (w - 1)) + (int)d < w ? l + (int)d : l;
}
static inline int kl_cpu_src_up_w(unsigned d, int width)
{
    int w = kl_cpu_seg(width), l = kl_lane();
    return (l & (w - 1)) >= (int)d ? l - (int)d : l;
}
static inline int kl_cpu_src_xor_w(int m, int width)
{
    int w = kl_cpu_seg(width), l = kl_lane(), s = l ^ m;
    return (s & ~(w - 1)) == (l & ~(w - 1)) ? s : l;
}
template <typename T>
static inline T __shfl_sync(unsigned long long, T v, int src, int width = 0) { return kl_cpu_shfl_any(v, kl_cpu_src_at(src, width)); }
template <typename T>
static inline T __shfl_xor_sync(unsigned long long, T v, int m, int width = 0) { return kl_cpu_shfl_any(v, kl_cpu_src_xor_w(m, width)); }
template <typename T>
static inline T __shfl_down_sync(unsigned long long, T v, unsigned d, int width = 0) { return kl_cpu_shfl_any(v, kl_cpu_src_down_w(d, width)); }
template <typename T>
static inline T __shfl_up_sync(unsigned long long, T v, unsigned d, int width = 0) { return kl_cpu_shfl_any(v, kl_cpu_src_up_w(d, width)); }
/* HIP's unmasked forms (any trivially copyable T: 64-bit values and structs too) */
template <typename T>
static inline T __shfl(T v, int src, int width = 0) { return kl_cpu_shfl_any(v, kl_cpu_src_at(src, width)); }
template <typename T>
static inline T __shfl_xor(T v, int m, int width = 0) { return kl_cpu_shfl_any(v, kl_cpu_src_xor_w(m, width)); }
template <typename T>
static inline T __shfl_down(T v, unsigned d, int width = 0) { return kl_cpu_shfl_any(v, kl_cpu_src_down_w(d, width)); }
template <typename T>
static inline T __shfl_up(T v, unsigned d, int width = 0) { return kl_cpu_shfl_any(v, kl_cpu_src_up_w(d, width)); }

static inline unsigned long long __ballot(int pred) { return kl_ballot(pred); }
static inline unsigned long long __ballot_sync(unsigned long long, int pred) { return kl_ballot(pred); }
static inline int __any(int pred) { return kl_ballot(pred) != 0; }
static inline int __all(int pred) { return kl_ballot(!pred) == 0; }
static inline int __any_sync(unsigned long long, int pred) { return __any(pred); }
static inline int __all_sync(unsigned long long, int pred) { return __all(pred); }
static inline unsigned long long __activemask(void) { return kl_ballot(1); }
static inline void __syncwarp(unsigned long long = ~0ull) { (void)kl_ballot(1); }
static inline unsigned __lane_id(void) { return (unsigned)kl_lane(); }

/* ---- atomics beyond the dialect's ------------------------------------------------------- */
/* One relaxed device-scope read-modify-write through a host atomic builtin. */
#define KL_CPU_FETCH_OP(name, T, builtin)                                                        \
    static inline KL_CPU_NOSAN T name(T *p, T v)                                                 \
    {                                                                                            \
        kl_cpu_note(p, sizeof(T), KL_CPU_RMW_DEV, KL_CPU_PC);                                    \
        return builtin(p, v, __ATOMIC_SEQ_CST);                                                  \
    }
#define KL_CPU_ATOMIC_BITS(T)                                                                    \
    KL_CPU_FETCH_OP(atomicSub, T, __atomic_fetch_sub)                                            \
    KL_CPU_FETCH_OP(atomicAnd, T, __atomic_fetch_and)                                            \
    KL_CPU_FETCH_OP(atomicOr, T, __atomic_fetch_or)                                              \
    KL_CPU_FETCH_OP(atomicXor, T, __atomic_fetch_xor)                                            \
    static inline KL_CPU_NOSAN T atomicMin(T *p, T v)                                            \
    {                                                                                            \
        kl_cpu_note(p, sizeof(T), KL_CPU_RMW_DEV, KL_CPU_PC);                                    \
        T old = __atomic_load_n(p, __ATOMIC_RELAXED);                                            \
        while (v < old &&                                                                        \
               !__atomic_compare_exchange_n(p, &old, v, true, __ATOMIC_SEQ_CST, __ATOMIC_RELAXED)) \
            ;                                                                                    \
        return old;                                                                              \
    }
KL_CPU_ATOMIC_BITS(int)
KL_CPU_ATOMIC_BITS(unsigned)
KL_CPU_ATOMIC_BITS(unsigned long long)
#undef KL_CPU_ATOMIC_BITS
#undef KL_CPU_FETCH_OP
/* A read-modify-write of any 2-, 4- or 8-byte value through a compare-and-swap loop: the float
 * kinds CUDA and HIP add atomically (double, half, bf16). */
template <typename T, typename F>
static inline KL_CPU_NOSAN T kl_cpu_atomic_rmw(T *p, F op, const void *pc)
{
    kl_cpu_note(p, sizeof(T), KL_CPU_RMW_DEV, pc);
    typedef typename std::conditional<sizeof(T) == 2, unsigned short,
            typename std::conditional<sizeof(T) == 4, unsigned, unsigned long long>::type>::type U;
    static_assert(sizeof(T) == sizeof(U), "an atomic of 2, 4 or 8 bytes");
    U *u = (U *)p, old = __atomic_load_n(u, __ATOMIC_RELAXED);
    for (;;) {
        T o, n;
        std::memcpy(&o, &old, sizeof o);
        n = op(o);
        U nu;
        std::memcpy(&nu, &n, sizeof nu);
        if (__atomic_compare_exchange_n(u, &old, nu, true, __ATOMIC_SEQ_CST, __ATOMIC_RELAXED))
            return o;
    }
}
static inline double atomicAdd(double *p, double v)
{
    return kl_cpu_atomic_rmw(p, [v](double o) { return o + v; }, KL_CPU_PC);
}

/* Kernels reinterpret freely (eight bf16 in a uint4, a float4 over a float array), which the
 * GPU compilers allow; the host compiler's type-based alias analysis would drop such stores,
 * so every vendor type may alias. */
#define KL_CPU_ALIAS __attribute__((may_alias))

/* ---- half and bfloat16 ------------------------------------------------------------------ */
/* __half's conversions are kl.h's binary16 ones, so a kernel's halves and kladder's f16 buffers
 * round alike. */
static inline unsigned short kl_cpu_f32_to_f16(float f) { return kl_f32_to_f16(f).bits; }
static inline float kl_cpu_f16_to_f32(unsigned short h)
{
    kl_f16 x;
    x.bits = h;
    return kl_f16_to_f32(x);
}

/* One arithmetic class per 16-bit float: conversions from and to float, the operators a
 * kernel writes, all computed in float and rounded once. */
#define KL_CPU_F16_CLASS(NAME, TO16, TO32)                                                      \
    struct KL_CPU_ALIAS NAME {                                                                  \
        unsigned short __x;                                                                     \
        NAME() = default;                                                                       \
        NAME(float f) : __x(TO16(f)) {}                                                         \
        NAME(double f) : __x(TO16((float)f)) {}                                                 \
        NAME(int i) : __x(TO16((float)i)) {}                                                    \
        NAME(unsigned i) : __x(TO16((float)i)) {}                                               \
        NAME(long long i) : __x(TO16((float)i)) {}                                              \
        operator float() const { return TO32(__x); }                                            \
        NAME &operator+=(NAME o) { return *this = NAME((float)*this + (float)o); }              \
        NAME &operator-=(NAME o) { return *this = NAME((float)*this - (float)o); }              \
        NAME &operator*=(NAME o) { return *this = NAME((float)*this * (float)o); }              \
        NAME &operator/=(NAME o) { return *this = NAME((float)*this / (float)o); }              \
    };                                                                                          \
    static inline NAME operator+(NAME a, NAME b) { return NAME((float)a + (float)b); }          \
    static inline NAME operator-(NAME a, NAME b) { return NAME((float)a - (float)b); }          \
    static inline NAME operator*(NAME a, NAME b) { return NAME((float)a * (float)b); }          \
    static inline NAME operator/(NAME a, NAME b) { return NAME((float)a / (float)b); }          \
    static inline NAME operator-(NAME a) { NAME r = a; r.__x ^= 0x8000u; return r; }            \
    static inline bool operator<(NAME a, NAME b) { return (float)a < (float)b; }                \
    static inline bool operator>(NAME a, NAME b) { return (float)a > (float)b; }                \
    static inline bool operator<=(NAME a, NAME b) { return (float)a <= (float)b; }              \
    static inline bool operator>=(NAME a, NAME b) { return (float)a >= (float)b; }              \
    static inline bool operator==(NAME a, NAME b) { return (float)a == (float)b; }              \
    static inline bool operator!=(NAME a, NAME b) { return (float)a != (float)b; }              \
    static inline float atomicAdd(NAME *p, NAME v) /* returns the old value, as float */        \
    {                                                                                           \
        return kl_cpu_atomic_rmw(p, [v](NAME o) { return NAME((float)o + (float)v); },          \
                                 KL_CPU_PC);                                                    \
    }                                                                                           \
    struct KL_CPU_ALIAS NAME##2 {                                                               \
        NAME x, y;                                                                              \
        NAME##2() = default;                                                                    \
        NAME##2(NAME a, NAME b) : x(a), y(b) {} /* CUDA's: (float, float) converts each */      \
    };                                                                                          \
    static inline NAME##2 operator+(NAME##2 a, NAME##2 b) { return {a.x + b.x, a.y + b.y}; }    \
    static inline NAME##2 operator*(NAME##2 a, NAME##2 b) { return {a.x * b.x, a.y * b.y}; }    \
    static inline NAME##2 operator-(NAME##2 a, NAME##2 b) { return {a.x - b.x, a.y - b.y}; }

static inline unsigned short kl_cpu_f32_to_bf16(float f) { return kl_f32_to_bf16(f).bits; }
static inline float kl_cpu_bf16_to_f32(unsigned short b)
{
    kl_bf16 v;
    v.bits = b;
    return kl_bf16_to_f32(v);
}
KL_CPU_F16_CLASS(__half, kl_cpu_f32_to_f16, kl_cpu_f16_to_f32)
KL_CPU_F16_CLASS(__nv_bfloat16, kl_cpu_f32_to_bf16, kl_cpu_bf16_to_f32)
#undef KL_CPU_F16_CLASS
typedef __nv_bfloat16 __hip_bfloat16;
typedef __nv_bfloat162 __hip_bfloat162;
typedef __nv_bfloat16 hip_bfloat16;
typedef __half half;
typedef __half2 half2;
typedef __nv_bfloat16 nv_bfloat16;
typedef __nv_bfloat162 nv_bfloat162;

/* The arithmetic both 16-bit types share, under CUDA's names (one overload set per type). */
#define KL_CPU_F16_FUNCS(T)                                                                     \
    static inline float __low2float(T##2 v) { return (float)v.x; }                             \
    static inline float __high2float(T##2 v) { return (float)v.y; }                            \
    static inline T __hadd(T a, T b) { return a + b; }                                          \
    static inline T __hsub(T a, T b) { return a - b; }                                          \
    static inline T __hmul(T a, T b) { return a * b; }                                          \
    static inline T __hdiv(T a, T b) { return a / b; }                                          \
    static inline T __hfma(T a, T b, T c) { return T(fmaf((float)a, (float)b, (float)c)); }     \
    static inline T __hmax(T a, T b) { return (float)a < (float)b ? b : a; }                    \
    static inline T __hmin(T a, T b) { return (float)b < (float)a ? b : a; }                    \
    static inline T __habs(T a) { T r = a; r.__x &= 0x7fffu; return r; }                        \
    static inline T __hneg(T a) { return -a; }                                                  \
    static inline bool __hlt(T a, T b) { return a < b; }                                        \
    static inline bool __hgt(T a, T b) { return a > b; }                                        \
    static inline bool __hle(T a, T b) { return a <= b; }                                       \
    static inline bool __hge(T a, T b) { return a >= b; }                                       \
    static inline bool __heq(T a, T b) { return a == b; }                                       \
    static inline bool __hne(T a, T b) { return a != b; }                                       \
    static inline bool __hisnan(T a) { return kl_isnan((float)a); }                             \
    static inline T##2 __hadd2(T##2 a, T##2 b) { return a + b; }                                \
    static inline T##2 __hsub2(T##2 a, T##2 b) { return a - b; }                                \
    static inline T##2 __hmul2(T##2 a, T##2 b) { return a * b; }                                \
    static inline T##2 __hfma2(T##2 a, T##2 b, T##2 c)                                          \
    {                                                                                           \
        return {__hfma(a.x, b.x, c.x), __hfma(a.y, b.y, c.y)};                                  \
    }
KL_CPU_F16_FUNCS(__half)
KL_CPU_F16_FUNCS(__nv_bfloat16)
#undef KL_CPU_F16_FUNCS

static inline __half __float2half(float f) { return __half(f); }
static inline __half __float2half_rn(float f) { return __half(f); }
static inline float __half2float(__half h) { return (float)h; }
static inline __half2 __float2half2_rn(float f) { return {__half(f), __half(f)}; }
static inline __half2 __floats2half2_rn(float a, float b) { return {__half(a), __half(b)}; }
static inline __half2 __halves2half2(__half a, __half b) { return {a, b}; }
static inline __half2 __half2half2(__half a) { return {a, a}; }
static inline __half __low2half(__half2 v) { return v.x; }
static inline __half __high2half(__half2 v) { return v.y; }
static inline unsigned short __half_as_ushort(__half h) { return h.__x; }
static inline __half __ushort_as_half(unsigned short u) { __half h; h.__x = u; return h; }

static inline __nv_bfloat16 __float2bfloat16(float f) { return __nv_bfloat16(f); }
static inline __nv_bfloat16 __float2bfloat16_rn(float f) { return __nv_bfloat16(f); }
static inline float __bfloat162float(__nv_bfloat16 b) { return (float)b; }
static inline __nv_bfloat162 __float2bfloat162_rn(float f) { return {__nv_bfloat16(f), __nv_bfloat16(f)}; }
static inline __nv_bfloat162 __floats2bfloat162_rn(float a, float b) { return {__nv_bfloat16(a), __nv_bfloat16(b)}; }
static inline __nv_bfloat162 __halves2bfloat162(__nv_bfloat16 a, __nv_bfloat16 b) { return {a, b}; }
static inline __nv_bfloat16 __low2bfloat16(__nv_bfloat162 v) { return v.x; }
static inline __nv_bfloat16 __high2bfloat16(__nv_bfloat162 v) { return v.y; }
static inline unsigned short __bfloat16_as_ushort(__nv_bfloat16 h) { return h.__x; }
static inline __nv_bfloat16 __ushort_as_bfloat16(unsigned short u) { __nv_bfloat16 h; h.__x = u; return h; }

/* ---- vector types ----------------------------------------------------------------------- */
#define KL_CPU_VEC(T, NAME, A2, A4)                                                             \
    struct __attribute__((may_alias, aligned(A2))) NAME##2 { T x, y; };                             \
    struct KL_CPU_ALIAS NAME##3 { T x, y, z; };                                                 \
    struct __attribute__((may_alias, aligned(A4))) NAME##4 { T x, y, z, w; };                       \
    static inline NAME##2 make_##NAME##2(T x, T y) { return {x, y}; }                           \
    static inline NAME##3 make_##NAME##3(T x, T y, T z) { return {x, y, z}; }                   \
    static inline NAME##4 make_##NAME##4(T x, T y, T z, T w) { return {x, y, z, w}; }
KL_CPU_VEC(float, float, 8, 16)
KL_CPU_VEC(int, int, 8, 16)
KL_CPU_VEC(unsigned, uint, 8, 16)
KL_CPU_VEC(short, short, 4, 8)
KL_CPU_VEC(unsigned short, ushort, 4, 8)
KL_CPU_VEC(signed char, char, 2, 4)
KL_CPU_VEC(unsigned char, uchar, 2, 4)
KL_CPU_VEC(double, double, 16, 16)
KL_CPU_VEC(long long, longlong, 16, 16)
KL_CPU_VEC(unsigned long long, ulonglong, 16, 16)
#undef KL_CPU_VEC

/* ---- cooperative groups ----------------------------------------------------------------- */
namespace cooperative_groups {
struct thread_block {
    void sync() const { __syncthreads(); }
    unsigned thread_rank() const
    {
        return threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z);
    }
    unsigned size() const { return blockDim.x * blockDim.y * blockDim.z; }
    unsigned num_threads() const { return size(); }
    kl_cpu_dim3 group_index() const { return blockIdx; }
    kl_cpu_dim3 thread_index() const { return threadIdx; }
    kl_cpu_dim3 group_dim() const { return blockDim; }
    kl_cpu_dim3 dim_threads() const { return blockDim; }
    bool is_valid() const { return true; }
};
static inline thread_block this_thread_block() { return thread_block(); }
/* the scratch CUDA's multi-warp tiles keep (cg::block_tile_memory): nothing to keep here */
template <unsigned MaxBlockSize, unsigned TileCommunicationSize = 8>
struct block_tile_memory {};
template <unsigned M, unsigned T>
static inline thread_block this_thread_block(block_tile_memory<M, T> &) { return thread_block(); }
static inline void sync(const thread_block &g) { g.sync(); }

/* A tile of N consecutive threads of the block; N divides the wave (a tile within one wave,
 * as CUDA and HIP require of a thread_block_tile). */
/* A tile spanning several waves (N > 64, CUDA's multi-warp tiles) compiles, so that host code
 * instantiating a kernel that uses one builds; the kernel itself stops at its first tile
 * operation, saying so (kl_cpu_multi_wave_tile): the emulator's tiles live within one wave. */
[[noreturn]] static inline void kl_cpu_multi_wave_tile(unsigned n)
{
    fprintf(stderr, "cooperative groups: a tile of %u threads spans several waves, which the cpu "
                    "backend does not emulate\n", n);
    abort();
}
template <unsigned N>
struct thread_block_tile {
    static_assert(N && (N & (N - 1)) == 0 && N <= 1024, "tiled_partition<N>: N a power of two up to 1024");
    unsigned thread_rank() const { return this_thread_block().thread_rank() % N; }
    static constexpr unsigned size() { return N; }
    static constexpr unsigned num_threads() { return N; }
    unsigned meta_group_rank() const { return this_thread_block().thread_rank() / N; }
    unsigned meta_group_size() const { return (this_thread_block().size() + N - 1) / N; }
    void sync() const
    {
        if (N > 64)
            kl_cpu_multi_wave_tile(N);
        __syncwarp();
    }
    template <typename T> T shfl(T v, int src) const { return __shfl_sync(~0ull, v, src, (int)N); }
    template <typename T> T shfl_xor(T v, int m) const { return __shfl_xor_sync(~0ull, v, m, (int)N); }
    template <typename T> T shfl_down(T v, unsigned d) const { return __shfl_down_sync(~0ull, v, d, (int)N); }
    template <typename T> T shfl_up(T v, unsigned d) const { return __shfl_up_sync(~0ull, v, d, (int)N); }
    /* the lanes of this tile within the wave's ballot */
    unsigned long long ballot(int pred) const
    {
        if (N > 64)
            kl_cpu_multi_wave_tile(N);
        unsigned first = (unsigned)kl_lane() & ~(N - 1);
        unsigned long long all = kl_ballot(pred) >> first;
        return N == 64 ? all : all & ((1ull << N) - 1);
    }
    int any(int pred) const { return ballot(pred) != 0; }
    int all(int pred) const { return ballot(!pred) == 0; }
};
template <unsigned N>
static inline thread_block_tile<N> tiled_partition(const thread_block &) { return thread_block_tile<N>(); }
template <unsigned N>
static inline void sync(const thread_block_tile<N> &g) { g.sync(); }

template <typename T> struct plus { T operator()(T a, T b) const { return a + b; } };
template <typename T> struct less { T operator()(T a, T b) const { return b < a ? b : a; } };
template <typename T> struct greater { T operator()(T a, T b) const { return a < b ? b : a; } };
template <typename T> struct bit_and { T operator()(T a, T b) const { return a & b; } };
template <typename T> struct bit_or { T operator()(T a, T b) const { return a | b; } };
template <typename T> struct bit_xor { T operator()(T a, T b) const { return a ^ b; } };
/* Every thread of the tile gets op over the tile's values (a butterfly). */
template <unsigned N, typename T, typename Op>
static inline T reduce(const thread_block_tile<N> &g, T v, Op op)
{
    if (N > 64)
        kl_cpu_multi_wave_tile(N);
    for (unsigned m = N / 2; m > 0; m /= 2)
        v = op(v, g.shfl_xor(v, (int)m));
    return v;
}
/* cooperative_groups/scan.h: each thread of the tile gets op over the values of the threads of
 * rank up to its own (inclusive) or below it (exclusive; rank 0 gets T's value-initialised
 * value), in rank order, so a non-commutative op keeps its order. */
template <unsigned N, typename T, typename Op>
static inline T inclusive_scan(const thread_block_tile<N> &g, T v, Op op)
{
    if (N > 64)
        kl_cpu_multi_wave_tile(N);
    unsigned r = g.thread_rank();
    for (unsigned d = 1; d < N; d *= 2) {
        T below = g.shfl_up(v, d);
        if (r >= d)
            v = op(below, v);
    }
    return v;
}
template <unsigned N, typename T>
static inline T inclusive_scan(const thread_block_tile<N> &g, T v)
{
    return inclusive_scan(g, v, plus<T>());
}
template <unsigned N, typename T, typename Op>
static inline T exclusive_scan(const thread_block_tile<N> &g, T v, Op op)
{
    T inc = inclusive_scan(g, v, op);
    T below = g.shfl_up(inc, 1);
    return g.thread_rank() == 0 ? T() : below;
}
template <unsigned N, typename T>
static inline T exclusive_scan(const thread_block_tile<N> &g, T v)
{
    return exclusive_scan(g, v, plus<T>());
}
} // namespace cooperative_groups

/* ==== the API inventory's additions (cpu backend) ==========================================
 * Names of data/api/hip_api.tsv that kernels use and the cpu backend runs (CUDA's and HIP's
 * documented semantics); what is not here is declared unsupported at the end of this file. */
/* atomicInc and atomicDec wrap at the limit the caller gives, as CUDA and HIP define them:
 * inc: old >= limit ? 0 : old + 1; dec: (old == 0 || old > limit) ? limit : old - 1. */
static inline KL_CPU_NOSAN unsigned atomicInc(unsigned *p, unsigned limit)
{
    return kl_cpu_atomic_rmw(p, [limit](unsigned o) { return o >= limit ? 0u : o + 1u; }, KL_CPU_PC);
}
static inline KL_CPU_NOSAN unsigned atomicDec(unsigned *p, unsigned limit)
{
    return kl_cpu_atomic_rmw(p, [limit](unsigned o) { return o == 0u || o > limit ? limit : o - 1u; },
                             KL_CPU_PC);
}
/* a pair of 16-bit floats added as one 32-bit atomic, each half rounded once; the old pair back */
static inline KL_CPU_NOSAN __half2 atomicAdd(__half2 *p, __half2 v)
{
    return kl_cpu_atomic_rmw(p, [v](__half2 o) { return o + v; }, KL_CPU_PC);
}
static inline KL_CPU_NOSAN __nv_bfloat162 atomicAdd(__nv_bfloat162 *p, __nv_bfloat162 v)
{
    return kl_cpu_atomic_rmw(p, [v](__nv_bfloat162 o) { return o + v; }, KL_CPU_PC);
}
/* the overloads HIP adds: unsigned long (a distinct type from unsigned long long), the float
 * kinds' subtract, min, max, exchange and compare-and-swap (compared bitwise, as a GPU does) */
#define KL_CPU_RMW(name, T, expr)                                                               \
    static inline KL_CPU_NOSAN T name(T *p, T v)                                                \
    {                                                                                           \
        return kl_cpu_atomic_rmw(p, [v](T o) { return (T)(expr); }, KL_CPU_PC);                 \
    }
KL_CPU_RMW(atomicAdd, unsigned long, o + v)
KL_CPU_RMW(atomicSub, unsigned long, o - v)
KL_CPU_RMW(atomicExch, unsigned long, v)
KL_CPU_RMW(atomicMin, unsigned long, v < o ? v : o)
KL_CPU_RMW(atomicMax, unsigned long, v > o ? v : o)
KL_CPU_RMW(atomicAnd, unsigned long, o &v)
KL_CPU_RMW(atomicOr, unsigned long, o | v)
KL_CPU_RMW(atomicXor, unsigned long, o ^ v)
KL_CPU_RMW(atomicSub, float, o - v)
KL_CPU_RMW(atomicSub, double, o - v)
KL_CPU_RMW(atomicExch, double, v)
KL_CPU_RMW(atomicMin, float, v < o ? v : o)
KL_CPU_RMW(atomicMin, double, v < o ? v : o)
KL_CPU_RMW(atomicMax, double, v > o ? v : o)
#undef KL_CPU_RMW
template <typename T>
static inline KL_CPU_NOSAN T kl_cpu_cas_bits(T *p, T cmp, T v, const void *pc)
{
    return kl_cpu_atomic_rmw(p, [cmp, v](T o) { return std::memcmp(&o, &cmp, sizeof o) ? o : v; }, pc);
}
static inline KL_CPU_NOSAN unsigned long atomicCAS(unsigned long *p, unsigned long c, unsigned long v)
{
    return kl_cpu_cas_bits(p, c, v, KL_CPU_PC);
}
static inline KL_CPU_NOSAN float atomicCAS(float *p, float c, float v) { return kl_cpu_cas_bits(p, c, v, KL_CPU_PC); }
static inline KL_CPU_NOSAN double atomicCAS(double *p, double c, double v) { return kl_cpu_cas_bits(p, c, v, KL_CPU_PC); }
/* System scope and HIP's safe/unsafe adds: one address space here, the device ones */
#define KL_CPU_SYSTEM_ATOMIC(name, base)                                                        \
    template <typename T, typename... V>                                                        \
    static inline auto name(T *p, V... v) -> decltype(base(p, v...)) { return base(p, v...); }
KL_CPU_SYSTEM_ATOMIC(atomicAdd_system, atomicAdd)
KL_CPU_SYSTEM_ATOMIC(atomicSub_system, atomicSub)
KL_CPU_SYSTEM_ATOMIC(atomicExch_system, atomicExch)
KL_CPU_SYSTEM_ATOMIC(atomicMin_system, atomicMin)
KL_CPU_SYSTEM_ATOMIC(atomicMax_system, atomicMax)
KL_CPU_SYSTEM_ATOMIC(atomicAnd_system, atomicAnd)
KL_CPU_SYSTEM_ATOMIC(atomicOr_system, atomicOr)
KL_CPU_SYSTEM_ATOMIC(atomicXor_system, atomicXor)
KL_CPU_SYSTEM_ATOMIC(atomicCAS_system, atomicCAS)
KL_CPU_SYSTEM_ATOMIC(atomicInc_system, atomicInc)
KL_CPU_SYSTEM_ATOMIC(atomicDec_system, atomicDec)
KL_CPU_SYSTEM_ATOMIC(safeAtomicAdd, atomicAdd)
KL_CPU_SYSTEM_ATOMIC(unsafeAtomicAdd, atomicAdd)
#undef KL_CPU_SYSTEM_ATOMIC
static inline void atomicAddNoRet(float *p, float v) { (void)atomicAdd(p, v); }

/* CUDA's and HIP's fast-math intrinsics not above: the same values as the library function
 * (the cpu backend computes them exactly; a GPU's are approximations within their documented
 * error, which a tolerance covers) */
#define __exp10f(x) exp10f(x) /* macros: glibc declares these names itself */
#define __log2f(x) log2f(x)
#define __log10f(x) log10f(x)
#define __tanf(x) tanf(x)
#define __sincosf(x, s, c) (*(s) = sinf(x), *(c) = cosf(x), (void)0)
static inline float __fsub_rn(float a, float b) { return a - b; }
static inline float __fdiv_rn(float a, float b) { return a / b; }
static inline float __frsqrt_rn(float x) { return 1.0f / sqrtf(x); }
static inline double __dadd_rn(double a, double b) { return a + b; }
static inline double __dsub_rn(double a, double b) { return a - b; }
static inline double __dmul_rn(double a, double b) { return a * b; }
static inline double __ddiv_rn(double a, double b) { return a / b; }
static inline double __drcp_rn(double x) { return 1.0 / x; }
static inline double __dsqrt_rn(double x) { return sqrt(x); }
static inline double __fma_rn(double a, double b, double c) { return fma(a, b, c); }
static inline float fdividef(float a, float b) { return a / b; }
static inline float rsqrt(float x) { return 1.0f / sqrtf(x); }
static inline double rsqrt(double x) { return 1.0 / sqrt(x); }
static inline float sinpif(float x) { return (float)sin(M_PI * (double)x); }
static inline float cospif(float x) { return (float)cos(M_PI * (double)x); }
static inline double sinpi(double x) { return sin(M_PI * x); }
static inline double cospi(double x) { return cos(M_PI * x); }
static inline void sincospif(float x, float *s, float *c) { *s = sinpif(x); *c = cospif(x); }
static inline void sincospi(double x, double *s, double *c) { *s = sinpi(x); *c = cospi(x); }
static inline float rcbrtf(float x) { return 1.0f / cbrtf(x); }
static inline double rcbrt(double x) { return 1.0 / cbrt(x); }
static inline float rhypotf(float a, float b) { return 1.0f / hypotf(a, b); }
static inline double rhypot(double a, double b) { return 1.0 / hypot(a, b); }
static inline float norm3df(float a, float b, float c) { return (float)std::sqrt((double)a * a + (double)b * b + (double)c * c); }
static inline float rnorm3df(float a, float b, float c) { return 1.0f / norm3df(a, b, c); }
static inline float norm4df(float a, float b, float c, float d)
{
    return (float)std::sqrt((double)a * a + (double)b * b + (double)c * c + (double)d * d);
}
static inline float rnorm4df(float a, float b, float c, float d) { return 1.0f / norm4df(a, b, c, d); }
static inline double norm3d(double a, double b, double c) { return std::sqrt(a * a + b * b + c * c); }
static inline double rnorm3d(double a, double b, double c) { return 1.0 / norm3d(a, b, c); }
static inline double norm4d(double a, double b, double c, double d) { return std::sqrt(a * a + b * b + c * c + d * d); }
static inline double rnorm4d(double a, double b, double c, double d) { return 1.0 / norm4d(a, b, c, d); }
static inline float normcdff(float x) { return 0.5f * erfcf(-x * (float)M_SQRT1_2); }
static inline double normcdf(double x) { return 0.5 * erfc(-x * M_SQRT1_2); }
static inline float erfcxf(float x) { return (float)(std::exp((double)x * x) * std::erfc((double)x)); }
static inline double erfcx(double x) { return std::exp(x * x) * std::erfc(x); }

/* integer intrinsics */
static inline unsigned long long __brevll(unsigned long long x)
{
    return ((unsigned long long)__brev((unsigned)x) << 32) | __brev((unsigned)(x >> 32));
}
static inline int __mul24(int a, int b) { return (int)((long long)(a << 8 >> 8) * (b << 8 >> 8)); }
static inline unsigned __umul24(unsigned a, unsigned b) { return (a & 0xffffffu) * (b & 0xffffffu); }
static inline int __mulhi(int a, int b) { return (int)(((long long)a * b) >> 32); }
static inline long long __mul64hi(long long a, long long b) { return (long long)(((__int128)a * b) >> 64); }
static inline unsigned long long __umul64hi(unsigned long long a, unsigned long long b)
{
    return (unsigned long long)(((unsigned __int128)a * b) >> 64);
}
static inline int __hadd(int a, int b) { return (int)(((long long)a + b) >> 1); }
static inline int __rhadd(int a, int b) { return (int)(((long long)a + b + 1) >> 1); }
static inline unsigned __uhadd(unsigned a, unsigned b) { return (unsigned)(((unsigned long long)a + b) >> 1); }
static inline unsigned __urhadd(unsigned a, unsigned b) { return (unsigned)(((unsigned long long)a + b + 1) >> 1); }
static inline unsigned __sad(int a, int b, unsigned c) { return c + (unsigned)(a > b ? (long long)a - b : (long long)b - a); }
static inline unsigned __usad(unsigned a, unsigned b, unsigned c) { return c + (a > b ? a - b : b - a); }
static inline unsigned __byte_perm(unsigned x, unsigned y, unsigned s)
{
    unsigned long long b = ((unsigned long long)y << 32) | x;
    unsigned r = 0;
    for (int i = 0; i < 4; i++)
        r |= (unsigned)((b >> (8 * ((s >> (4 * i)) & 7u))) & 0xffu) << (8 * i);
    return r;
}
static inline unsigned __funnelshift_l(unsigned lo, unsigned hi, unsigned s)
{
    return (unsigned)((((unsigned long long)hi << 32 | lo) << (s & 31u)) >> 32);
}
static inline unsigned __funnelshift_r(unsigned lo, unsigned hi, unsigned s)
{
    return (unsigned)(((unsigned long long)hi << 32 | lo) >> (s & 31u));
}
static inline unsigned __funnelshift_lc(unsigned lo, unsigned hi, unsigned s)
{
    return s >= 32u ? lo : __funnelshift_l(lo, hi, s);
}
static inline unsigned __funnelshift_rc(unsigned lo, unsigned hi, unsigned s)
{
    return s >= 32u ? hi : __funnelshift_r(lo, hi, s);
}
static inline long long __double_as_longlong(double d) { long long r; std::memcpy(&r, &d, 8); return r; }
static inline double __longlong_as_double(long long l) { double r; std::memcpy(&r, &l, 8); return r; }
static inline int __double2hiint(double d) { return (int)(__double_as_longlong(d) >> 32); }
static inline int __double2loint(double d) { return (int)__double_as_longlong(d); }
static inline double __hiloint2double(int hi, int lo)
{
    return __longlong_as_double((long long)(((unsigned long long)(unsigned)hi << 32) | (unsigned)lo));
}
static inline long long __clock64(void) { return kl_clock64(); }
static inline long long __clock(void) { return kl_clock64(); }
static inline unsigned long long __ballot64(int pred) { return kl_ballot(pred); }

/* Conversions with a rounding mode: _rn to nearest even, _rz toward zero, _rd down, _ru up. */
static inline long double kl_cpu_round_mode(long double x, int mode)
{
    return mode == 0 ? nearbyintl(x) : mode == 1 ? truncl(x) : mode == 2 ? floorl(x) : ceill(x);
}
#define KL_CPU_F2I(from, to, T)                                                                 \
    static inline T __##from##2##to##_rn(decltype(kl_cpu_from_##from) x) { return (T)kl_cpu_round_mode(x, 0); } \
    static inline T __##from##2##to##_rz(decltype(kl_cpu_from_##from) x) { return (T)kl_cpu_round_mode(x, 1); } \
    static inline T __##from##2##to##_rd(decltype(kl_cpu_from_##from) x) { return (T)kl_cpu_round_mode(x, 2); } \
    static inline T __##from##2##to##_ru(decltype(kl_cpu_from_##from) x) { return (T)kl_cpu_round_mode(x, 3); }
static const float kl_cpu_from_float = 0;
static const double kl_cpu_from_double = 0;
static inline int __float2int_rd(float x) { return (int)floorf(x); }
static inline int __float2int_ru(float x) { return (int)ceilf(x); }
KL_CPU_F2I(float, uint, unsigned)
KL_CPU_F2I(float, ll, long long)
KL_CPU_F2I(float, ull, unsigned long long)
KL_CPU_F2I(double, int, int)
KL_CPU_F2I(double, uint, unsigned)
KL_CPU_F2I(double, ll, long long)
KL_CPU_F2I(double, ull, unsigned long long)
#undef KL_CPU_F2I
/* the float or double nearest x in the mode: x rounded to nearest, then stepped once where the
 * mode asks for the other side (x is exact in long double for every source type here) */
template <typename F>
static inline F kl_cpu_to_float_mode(long double x, int mode)
{
    F r = (F)x;
    if (mode == 0 || (long double)r == x)
        return r;
    bool down = mode == 2 || (mode == 1 && x > 0);
    if (down && (long double)r > x)
        return std::nextafter(r, -(F)INFINITY);
    if (!down && (long double)r < x)
        return std::nextafter(r, (F)INFINITY);
    return r;
}
#define KL_CPU_TOF(name, S, F)                                                                  \
    static inline F name##_rn(S x) { return kl_cpu_to_float_mode<F>((long double)x, 0); }       \
    static inline F name##_rz(S x) { return kl_cpu_to_float_mode<F>((long double)x, 1); }       \
    static inline F name##_rd(S x) { return kl_cpu_to_float_mode<F>((long double)x, 2); }       \
    static inline F name##_ru(S x) { return kl_cpu_to_float_mode<F>((long double)x, 3); }
KL_CPU_TOF(__double2float, double, float)
KL_CPU_TOF(__ll2float, long long, float)
KL_CPU_TOF(__ull2float, unsigned long long, float)
KL_CPU_TOF(__ll2double, long long, double)
KL_CPU_TOF(__ull2double, unsigned long long, double)
KL_CPU_TOF(__uint2float, unsigned, float)
/* int to float: HIP's directed modes beside __int2float_rn above; to double every int is exact */
static inline float __int2float_rz(int x) { return kl_cpu_to_float_mode<float>((long double)x, 1); }
static inline float __int2float_rd(int x) { return kl_cpu_to_float_mode<float>((long double)x, 2); }
static inline float __int2float_ru(int x) { return kl_cpu_to_float_mode<float>((long double)x, 3); }
static inline double __int2double_rn(int x) { return (double)x; }
static inline double __uint2double_rn(unsigned x) { return (double)x; }
#undef KL_CPU_TOF

/* 16-bit floats in a rounding mode: the nearest in float, then the neighbour on the mode's side
 * when the exact value lies beyond (one step covers the error of rounding twice) */
template <typename H>
static inline H kl_cpu_h_step(H h, bool up)
{
    unsigned short x = h.__x;
    if ((x & 0x7fffu) == 0)
        x = up ? 0x0001u : 0x8001u;
    else
        x = (unsigned short)(((x & 0x8000u) == 0) == up ? x + 1 : x - 1);
    H r;
    r.__x = x;
    return r;
}
template <typename H>
static inline H kl_cpu_to_h_mode(long double x, int mode)
{
    H h = H((float)x);
    if (kl_isnan((float)h) || std::isinf((float)x) || (mode == 0 && std::isinf((float)h)))
        return h; /* past the largest finite half, rounding to nearest gives the infinity */
    H lo = kl_cpu_h_step(h, false), hi = kl_cpu_h_step(h, true);
    if (mode == 0) {
        long double dh = std::fabs((long double)(float)h - x), dl = std::fabs((long double)(float)lo - x),
                    du = std::fabs((long double)(float)hi - x);
        if (dl < dh || (dl == dh && !(lo.__x & 1u)))
            return lo;
        if (du < dh || (du == dh && !(hi.__x & 1u)))
            return hi;
        return h;
    }
    bool down = mode == 2 || (mode == 1 && x > 0);
    if (down && (long double)(float)h > x)
        return lo;
    if (!down && (long double)(float)h < x)
        return hi;
    return h;
}
static inline __half __float2half_rz(float x) { return kl_cpu_to_h_mode<__half>(x, 1); }
static inline __half __float2half_rd(float x) { return kl_cpu_to_h_mode<__half>(x, 2); }
static inline __half __float2half_ru(float x) { return kl_cpu_to_h_mode<__half>(x, 3); }
#define KL_CPU_H_INT(S, T)                                                                      \
    static inline T __half2##S##_rn(__half h) { return (T)kl_cpu_round_mode((float)h, 0); }      \
    static inline T __half2##S##_rz(__half h) { return (T)kl_cpu_round_mode((float)h, 1); }      \
    static inline T __half2##S##_rd(__half h) { return (T)kl_cpu_round_mode((float)h, 2); }      \
    static inline T __half2##S##_ru(__half h) { return (T)kl_cpu_round_mode((float)h, 3); }      \
    static inline __half __##S##2half_rn(T v) { return kl_cpu_to_h_mode<__half>((long double)v, 0); } \
    static inline __half __##S##2half_rz(T v) { return kl_cpu_to_h_mode<__half>((long double)v, 1); } \
    static inline __half __##S##2half_rd(T v) { return kl_cpu_to_h_mode<__half>((long double)v, 2); } \
    static inline __half __##S##2half_ru(T v) { return kl_cpu_to_h_mode<__half>((long double)v, 3); }
KL_CPU_H_INT(int, int)
KL_CPU_H_INT(short, short)
KL_CPU_H_INT(ll, long long)
KL_CPU_H_INT(uint, unsigned)
KL_CPU_H_INT(ushort, unsigned short)
KL_CPU_H_INT(ull, unsigned long long)
#undef KL_CPU_H_INT
static inline __half2 make_half2(__half a, __half b) { return {a, b}; }
static inline __half2 __low2half2(__half2 v) { return {v.x, v.x}; }
static inline __half2 __high2half2(__half2 v) { return {v.y, v.y}; }
static inline __half2 __lows2half2(__half2 a, __half2 b) { return {a.x, b.x}; }
static inline __half2 __highs2half2(__half2 a, __half2 b) { return {a.y, b.y}; }
static inline __half2 __lowhigh2highlow(__half2 v) { return {v.y, v.x}; }
static inline short __half_as_short(__half h) { return (short)h.__x; }
static inline __half __short_as_half(short s) { __half h; h.__x = (unsigned short)s; return h; }
static inline __half2 __float22half2_rn(float2 f) { return {__half(f.x), __half(f.y)}; }
static inline float2 __half22float2(__half2 h) { return {(float)h.x, (float)h.y}; }

/* The rest of the 16-bit arithmetic, for __half and __nv_bfloat16 alike: unordered comparisons
 * (true where either is NaN), pairwise comparisons (1 or 0 per half; __hb*: both), saturation
 * to [0, 1], and the math functions computed in float and rounded once. */
template <typename T>
static inline T kl_cpu_b(bool v) { return T(v ? 1.0f : 0.0f); }
#define KL_CPU_F16_MORE(T)                                                                      \
    static inline bool kl_cpu_unord(T a, T b) { return kl_isnan((float)a) || kl_isnan((float)b); } \
    static inline bool __hequ(T a, T b) { return kl_cpu_unord(a, b) || a == b; }                \
    static inline bool __hneu(T a, T b) { return kl_cpu_unord(a, b) || a != b; }                \
    static inline bool __hleu(T a, T b) { return kl_cpu_unord(a, b) || a <= b; }                \
    static inline bool __hgeu(T a, T b) { return kl_cpu_unord(a, b) || a >= b; }                \
    static inline bool __hltu(T a, T b) { return kl_cpu_unord(a, b) || a < b; }                 \
    static inline bool __hgtu(T a, T b) { return kl_cpu_unord(a, b) || a > b; }                 \
    static inline T##2 __heq2(T##2 a, T##2 b) { return {kl_cpu_b<T>(__heq(a.x, b.x)), kl_cpu_b<T>(__heq(a.y, b.y))}; } \
    static inline T##2 __hne2(T##2 a, T##2 b) { return {kl_cpu_b<T>(__hne(a.x, b.x)), kl_cpu_b<T>(__hne(a.y, b.y))}; } \
    static inline T##2 __hle2(T##2 a, T##2 b) { return {kl_cpu_b<T>(__hle(a.x, b.x)), kl_cpu_b<T>(__hle(a.y, b.y))}; } \
    static inline T##2 __hge2(T##2 a, T##2 b) { return {kl_cpu_b<T>(__hge(a.x, b.x)), kl_cpu_b<T>(__hge(a.y, b.y))}; } \
    static inline T##2 __hlt2(T##2 a, T##2 b) { return {kl_cpu_b<T>(__hlt(a.x, b.x)), kl_cpu_b<T>(__hlt(a.y, b.y))}; } \
    static inline T##2 __hgt2(T##2 a, T##2 b) { return {kl_cpu_b<T>(__hgt(a.x, b.x)), kl_cpu_b<T>(__hgt(a.y, b.y))}; } \
    static inline T##2 __hequ2(T##2 a, T##2 b) { return {kl_cpu_b<T>(__hequ(a.x, b.x)), kl_cpu_b<T>(__hequ(a.y, b.y))}; } \
    static inline T##2 __hneu2(T##2 a, T##2 b) { return {kl_cpu_b<T>(__hneu(a.x, b.x)), kl_cpu_b<T>(__hneu(a.y, b.y))}; } \
    static inline T##2 __hleu2(T##2 a, T##2 b) { return {kl_cpu_b<T>(__hleu(a.x, b.x)), kl_cpu_b<T>(__hleu(a.y, b.y))}; } \
    static inline T##2 __hgeu2(T##2 a, T##2 b) { return {kl_cpu_b<T>(__hgeu(a.x, b.x)), kl_cpu_b<T>(__hgeu(a.y, b.y))}; } \
    static inline T##2 __hltu2(T##2 a, T##2 b) { return {kl_cpu_b<T>(__hltu(a.x, b.x)), kl_cpu_b<T>(__hltu(a.y, b.y))}; } \
    static inline T##2 __hgtu2(T##2 a, T##2 b) { return {kl_cpu_b<T>(__hgtu(a.x, b.x)), kl_cpu_b<T>(__hgtu(a.y, b.y))}; } \
    static inline bool __hbeq2(T##2 a, T##2 b) { return __heq(a.x, b.x) && __heq(a.y, b.y); }   \
    static inline bool __hbne2(T##2 a, T##2 b) { return __hne(a.x, b.x) && __hne(a.y, b.y); }   \
    static inline bool __hble2(T##2 a, T##2 b) { return __hle(a.x, b.x) && __hle(a.y, b.y); }   \
    static inline bool __hbge2(T##2 a, T##2 b) { return __hge(a.x, b.x) && __hge(a.y, b.y); }   \
    static inline bool __hblt2(T##2 a, T##2 b) { return __hlt(a.x, b.x) && __hlt(a.y, b.y); }   \
    static inline bool __hbgt2(T##2 a, T##2 b) { return __hgt(a.x, b.x) && __hgt(a.y, b.y); }   \
    static inline bool __hbequ2(T##2 a, T##2 b) { return __hequ(a.x, b.x) && __hequ(a.y, b.y); } \
    static inline bool __hbneu2(T##2 a, T##2 b) { return __hneu(a.x, b.x) && __hneu(a.y, b.y); } \
    static inline bool __hbleu2(T##2 a, T##2 b) { return __hleu(a.x, b.x) && __hleu(a.y, b.y); } \
    static inline bool __hbgeu2(T##2 a, T##2 b) { return __hgeu(a.x, b.x) && __hgeu(a.y, b.y); } \
    static inline bool __hbltu2(T##2 a, T##2 b) { return __hltu(a.x, b.x) && __hltu(a.y, b.y); } \
    static inline bool __hbgtu2(T##2 a, T##2 b) { return __hgtu(a.x, b.x) && __hgtu(a.y, b.y); } \
    static inline T __clamp_01(T a) { float f = (float)a; return T(f > 1.0f ? 1.0f : f >= 0.0f ? f : kl_isnan(f) ? f : 0.0f); } \
    static inline T __hadd_sat(T a, T b) { return __clamp_01(a + b); }                          \
    static inline T __hsub_sat(T a, T b) { return __clamp_01(a - b); }                          \
    static inline T __hmul_sat(T a, T b) { return __clamp_01(a * b); }                          \
    static inline T __hfma_sat(T a, T b, T c) { return __clamp_01(__hfma(a, b, c)); }           \
    static inline T##2 __habs2(T##2 a) { return {__habs(a.x), __habs(a.y)}; }                  \
    static inline T##2 __hneg2(T##2 a) { return {-a.x, -a.y}; }                                 \
    static inline T##2 __h2div(T##2 a, T##2 b) { return {a.x / b.x, a.y / b.y}; }               \
    static inline T##2 __hadd2_sat(T##2 a, T##2 b) { return {__hadd_sat(a.x, b.x), __hadd_sat(a.y, b.y)}; } \
    static inline T##2 __hsub2_sat(T##2 a, T##2 b) { return {__hsub_sat(a.x, b.x), __hsub_sat(a.y, b.y)}; } \
    static inline T##2 __hmul2_sat(T##2 a, T##2 b) { return {__hmul_sat(a.x, b.x), __hmul_sat(a.y, b.y)}; } \
    static inline T##2 __hfma2_sat(T##2 a, T##2 b, T##2 c) { return {__hfma_sat(a.x, b.x, c.x), __hfma_sat(a.y, b.y, c.y)}; } \
    static inline int __hisinf(T a) { float f = (float)a; return std::isinf(f) ? (f < 0 ? -1 : 1) : 0; } \
    static inline T##2 __hisinf2(T##2 a) { return {kl_cpu_b<T>(__hisinf(a.x) != 0), kl_cpu_b<T>(__hisinf(a.y) != 0)}; } \
    static inline T##2 __hisnan2(T##2 a) { return {kl_cpu_b<T>(__hisnan(a.x)), kl_cpu_b<T>(__hisnan(a.y))}; }
KL_CPU_F16_MORE(__half)
KL_CPU_F16_MORE(__nv_bfloat16)
#undef KL_CPU_F16_MORE
#define KL_CPU_F16_MATH(name, fn)                                                               \
    static inline __half h##name(__half a) { return __half(fn((float)a)); }                     \
    static inline __nv_bfloat16 h##name(__nv_bfloat16 a) { return __nv_bfloat16(fn((float)a)); } \
    static inline __half2 h2##name(__half2 a) { return {h##name(a.x), h##name(a.y)}; }          \
    static inline __nv_bfloat162 h2##name(__nv_bfloat162 a) { return {h##name(a.x), h##name(a.y)}; }
static inline float kl_cpu_rcp(float x) { return 1.0f / x; }
static inline float kl_cpu_rsqrt(float x) { return 1.0f / sqrtf(x); }
static inline float kl_cpu_rint(float x) { return nearbyintf(x); }
KL_CPU_F16_MATH(trunc, truncf)
KL_CPU_F16_MATH(ceil, ceilf)
KL_CPU_F16_MATH(floor, floorf)
KL_CPU_F16_MATH(rint, kl_cpu_rint)
KL_CPU_F16_MATH(sin, sinf)
KL_CPU_F16_MATH(cos, cosf)
KL_CPU_F16_MATH(exp, expf)
KL_CPU_F16_MATH(exp2, exp2f)
KL_CPU_F16_MATH(exp10, exp10f)
KL_CPU_F16_MATH(log2, log2f)
KL_CPU_F16_MATH(log, logf)
KL_CPU_F16_MATH(log10, log10f)
KL_CPU_F16_MATH(rcp, kl_cpu_rcp)
KL_CPU_F16_MATH(rsqrt, kl_cpu_rsqrt)
KL_CPU_F16_MATH(sqrt, sqrtf)
#undef KL_CPU_F16_MATH

/* lane masks of the caller's wave (bit i = lane i) */
static inline unsigned long long __lanemask_lt(void) { return (1ull << kl_lane()) - 1ull; }
static inline unsigned long long __lanemask_eq(void) { return 1ull << kl_lane(); }
static inline unsigned long long __lanemask_gt(void)
{
    unsigned long long wave = KL_WAVE == 64 ? ~0ull : (1ull << KL_WAVE) - 1ull;
    return wave & ~((2ull << kl_lane()) - 1ull);
}
static inline unsigned __mbcnt_lo(unsigned mask, unsigned base) { return base + __popc(mask & (unsigned)__lanemask_lt()); }
static inline unsigned __mbcnt_hi(unsigned mask, unsigned base)
{
    return base + __popc(mask & (unsigned)(__lanemask_lt() >> 32));
}
static inline unsigned __bitextract_u32(unsigned src, unsigned off, unsigned width)
{
    off &= 31u, width &= 31u;
    return width == 0 ? 0u : (unsigned)((src >> off) & ((1ull << width) - 1ull));
}
static inline unsigned long long __bitextract_u64(unsigned long long src, unsigned off, unsigned width)
{
    off &= 63u, width &= 63u;
    return width == 0 ? 0ull : (src >> off) & ((1ull << width) - 1ull);
}
static inline unsigned __bitinsert_u32(unsigned src, unsigned ins, unsigned off, unsigned width)
{
    off &= 31u, width &= 31u;
    unsigned mask = (unsigned)(((1ull << width) - 1ull) << off);
    return (src & ~mask) | ((ins << off) & mask);
}
static inline unsigned long long __bitinsert_u64(unsigned long long src, unsigned long long ins, unsigned off,
                                                 unsigned width)
{
    off &= 63u, width &= 63u;
    unsigned long long mask = ((1ull << width) - 1ull) << off;
    return (src & ~mask) | ((ins << off) & mask);
}
/* the position of the offset-th set bit of mask from base (counting up, or down for a negative
 * offset), ~0u where there is none: CUDA's __fns */
static inline unsigned kl_cpu_fns(unsigned long long mask, unsigned bits, unsigned base, int offset)
{
    if (offset == 0)
        return ~0u;
    int step = offset > 0 ? 1 : -1, left = offset > 0 ? offset : -offset;
    for (int i = (int)base; i >= 0 && i < (int)bits; i += step)
        if ((mask >> i) & 1ull && --left == 0)
            return (unsigned)i;
    return ~0u;
}
static inline unsigned __fns32(unsigned long long mask, unsigned base, int offset) { return kl_cpu_fns(mask & 0xffffffffull, 32, base, offset); }
static inline unsigned __fns64(unsigned long long mask, unsigned base, int offset) { return kl_cpu_fns(mask, 64, base, offset); }
static inline unsigned __fns(unsigned mask, unsigned base, int offset) { return kl_cpu_fns(mask, 32, base, offset); }
/* a barrier that also counts the threads of the block whose predicate holds, through one
 * counter of the block's shared memory (cleared by thread 0 between two barriers) */
static inline int kl_cpu_sync_count(int pred)
{
    int *counter = (int *)kl_cpu_static_shared("__syncthreads_count", sizeof(int), alignof(int));
    const bool first = threadIdx.x == 0 && threadIdx.y == 0 && threadIdx.z == 0;
    __syncthreads();
    if (first)
        *counter = 0;
    __syncthreads();
    if (pred)
        atomicAdd(counter, 1);
    __syncthreads();
    int n = *counter;
    __syncthreads();
    return n;
}
static inline int __syncthreads_count(int pred) { return kl_cpu_sync_count(pred); }
static inline int __syncthreads_and(int pred) { return kl_cpu_sync_count(!pred) == 0; }
static inline int __syncthreads_or(int pred) { return kl_cpu_sync_count(pred) != 0; }

/* the inverse error functions: an initial guess refined by Newton's method on erf in double */
static inline double erfinv(double y)
{
    if (!(y > -1.0 && y < 1.0))
        return y == 1.0 ? INFINITY : y == -1.0 ? -INFINITY : NAN;
    double w = -std::log((1.0 - y) * (1.0 + y)), x;
    if (w < 5.0) {
        w -= 2.5;
        x = 2.81022636e-08;
        x = 3.43273939e-07 + x * w; x = -3.5233877e-06 + x * w; x = -4.39150654e-06 + x * w;
        x = 0.00021858087 + x * w; x = -0.00125372503 + x * w; x = -0.00417768164 + x * w;
        x = 0.246640727 + x * w; x = 1.50140941 + x * w;
    } else {
        w = std::sqrt(w) - 3.0;
        x = -0.000200214257;
        x = 0.000100950558 + x * w; x = 0.00134934322 + x * w; x = -0.00367342844 + x * w;
        x = 0.00573950773 + x * w; x = -0.0076224613 + x * w; x = 0.00943887047 + x * w;
        x = 1.00167406 + x * w; x = 2.83297682 + x * w;
    }
    x *= y;
    for (int i = 0; i < 3; i++)
        x -= (std::erf(x) - y) / (2.0 / std::sqrt(M_PI) * std::exp(-x * x));
    return x;
}
static inline double erfcinv(double y) { return erfinv(1.0 - y); }
static inline double normcdfinv(double p) { return -M_SQRT2 * erfcinv(2.0 * p); }
static inline float erfinvf(float y) { return (float)erfinv(y); }
static inline float erfcinvf(float y) { return (float)erfcinv(y); }
static inline float normcdfinvf(float p) { return (float)normcdfinv(p); }
static inline double cyl_bessel_i0(double x) { return std::cyl_bessel_i(0.0, std::fabs(x)); }
static inline double cyl_bessel_i1(double x) { return x < 0 ? -std::cyl_bessel_i(1.0, -x) : std::cyl_bessel_i(1.0, x); }
static inline float cyl_bessel_i0f(float x) { return (float)cyl_bessel_i0(x); }
static inline float cyl_bessel_i1f(float x) { return (float)cyl_bessel_i1(x); }
static inline float powif(float x, int n) { return (float)std::pow((double)x, n); }
static inline double powi(double x, int n) { return std::pow(x, n); }
static inline double norm(int n, const double *a)
{
    double s = 0;
    for (int i = 0; i < n; i++)
        s += a[i] * a[i];
    return std::sqrt(s);
}
static inline double rnorm(int n, const double *a) { return 1.0 / norm(n, a); }
static inline float normf(int n, const float *a)
{
    double s = 0;
    for (int i = 0; i < n; i++)
        s += (double)a[i] * a[i];
    return (float)std::sqrt(s);
}
static inline float rnormf(int n, const float *a) { return 1.0f / normf(n, a); }

/* HIP's legacy coordinates (hip_runtime.h's hipThreadIdx_x & co.) */
#define hipThreadIdx_x (threadIdx.x)
#define hipThreadIdx_y (threadIdx.y)
#define hipThreadIdx_z (threadIdx.z)
#define hipBlockIdx_x (blockIdx.x)
#define hipBlockIdx_y (blockIdx.y)
#define hipBlockIdx_z (blockIdx.z)
#define hipBlockDim_x (blockDim.x)
#define hipBlockDim_y (blockDim.y)
#define hipBlockDim_z (blockDim.z)
#define hipGridDim_x (gridDim.x)
#define hipGridDim_y (gridDim.y)
#define hipGridDim_z (gridDim.z)

/* one-component vectors and the long ones */
#define KL_CPU_VEC1(T, NAME)                                                                    \
    struct KL_CPU_ALIAS NAME##1 { T x; };                                                       \
    static inline NAME##1 make_##NAME##1(T x) { return {x}; }
KL_CPU_VEC1(float, float) KL_CPU_VEC1(int, int) KL_CPU_VEC1(unsigned, uint) KL_CPU_VEC1(short, short)
KL_CPU_VEC1(unsigned short, ushort) KL_CPU_VEC1(signed char, char) KL_CPU_VEC1(unsigned char, uchar)
KL_CPU_VEC1(double, double) KL_CPU_VEC1(long long, longlong) KL_CPU_VEC1(unsigned long long, ulonglong)
KL_CPU_VEC1(long, long) KL_CPU_VEC1(unsigned long, ulong)
#undef KL_CPU_VEC1
struct __attribute__((may_alias, aligned(16))) long2 { long x, y; };
struct KL_CPU_ALIAS long3 { long x, y, z; };
struct __attribute__((may_alias, aligned(16))) long4 { long x, y, z, w; };
struct __attribute__((may_alias, aligned(16))) ulong2 { unsigned long x, y; };
struct KL_CPU_ALIAS ulong3 { unsigned long x, y, z; };
struct __attribute__((may_alias, aligned(16))) ulong4 { unsigned long x, y, z, w; };
static inline long2 make_long2(long x, long y) { return {x, y}; }
static inline long3 make_long3(long x, long y, long z) { return {x, y, z}; }
static inline long4 make_long4(long x, long y, long z, long w) { return {x, y, z, w}; }
static inline ulong2 make_ulong2(unsigned long x, unsigned long y) { return {x, y}; }
static inline ulong3 make_ulong3(unsigned long x, unsigned long y, unsigned long z) { return {x, y, z}; }
static inline ulong4 make_ulong4(unsigned long x, unsigned long y, unsigned long z, unsigned long w) { return {x, y, z, w}; }

/* Cooperative groups' thread_group: any group by value (a block, or a tile of `tile` threads
 * of one wave), what thread_block and thread_block_tile<N> convert to, and what
 * tiled_partition(group, n) returns. */
namespace cooperative_groups {
class thread_group {
  public:
    thread_group(const thread_block &) : tile_(0) {}
    template <unsigned N>
    thread_group(const thread_block_tile<N> &) : tile_(N) {}
    explicit thread_group(unsigned tile) : tile_(tile) {}
    unsigned thread_rank() const { return tile_ ? thread_block().thread_rank() % tile_ : thread_block().thread_rank(); }
    unsigned size() const { return tile_ ? tile_ : thread_block().size(); }
    unsigned num_threads() const { return size(); }
    bool is_valid() const { return true; }
    unsigned cg_type() const { return tile_ ? 2u : 1u; } /* HIP's internal::group_type: block 1, tile 2 */
    void sync() const
    {
        if (!tile_)
            __syncthreads();
        else if (tile_ > 64)
            kl_cpu_multi_wave_tile(tile_);
        else
            __syncwarp();
    }

  private:
    unsigned tile_; /* 0: the whole block */
};
static inline thread_group tiled_partition(const thread_group &parent, unsigned n)
{
    if (n == 0 || (n & (n - 1)) != 0 || n > parent.size()) {
        fprintf(stderr, "cooperative groups: tiled_partition(group, %u): a tile is a power of two no "
                        "larger than its group (%u)\n", n, parent.size());
        abort();
    }
    return thread_group(n);
}
typedef thread_group tiled_group; /* HIP's name for what tiled_partition(group, n) returns */
static inline void sync(const thread_group &g) { g.sync(); }
static inline unsigned thread_rank(const thread_group &g) { return g.thread_rank(); }
static inline unsigned group_size(const thread_group &g) { return g.size(); }
static inline bool is_valid(const thread_group &g) { return g.is_valid(); }
} // namespace cooperative_groups
/* ==== end of the API inventory's additions ================================================= */


#else /* a GPU backend: the vendor's headers declare the API; the engine's two hooks */
#define KL_EXTERN_SHARED(name, ...) extern __shared__ __VA_ARGS__ name[]
#define KL_EXTERN_SHARED_LOCAL(name, ...) extern __shared__ __VA_ARGS__ name[]
#define KL_CPU_UNPAREN(...) __VA_ARGS__
#define KL_STATIC_SHARED(name, dims, ...) __shared__ __VA_ARGS__ name KL_CPU_UNPAREN dims
#define KL_ENTRY(symbol, ...)
/* What the C/C++ library headers (removed from the source) would give a kernel, where the
 * run-time compiler has no library headers of its own: NVRTC. The toolkit's libcu++ (CCCL)
 * when it is on the include path, else the same definitions it makes. */
#if defined(__CUDACC_RTC__)
#if defined(__has_include) && __has_include(<cuda/std/cstdint>)
#include <cuda/std/cassert>
#include <cuda/std/cfloat>
#include <cuda/std/climits>
#include <cuda/std/cstdint>
#else
typedef signed char int8_t;
typedef short int16_t;
typedef int int32_t;
typedef long long int64_t;
typedef unsigned char uint8_t;
typedef unsigned short uint16_t;
typedef unsigned int uint32_t;
typedef unsigned long long uint64_t;
typedef long long intptr_t;
typedef unsigned long long uintptr_t;
#endif
#ifndef assert
#define assert(e) ((e) ? (void)0 : (printf("%s:%d: assertion %s failed\n", __FILE__, __LINE__, #e), __trap()))
#endif
#ifndef FLT_MAX
#define FLT_MAX 3.402823466e+38F
#define FLT_MIN 1.175494351e-38F
#define FLT_EPSILON 1.192092896e-07F
#endif
#ifndef INT_MAX
#define INT_MAX 0x7fffffff
#define INT_MIN (-INT_MAX - 1)
#define UINT_MAX 0xffffffff
#endif
#endif
#endif

/* A whole unit compiled by clang with no HIP headers (-nogpuinc -DKL_HIP_BARE -DKL_HIP_WHOLE,
 * engine/toolchain/amd_clang.h): kl.h's bare device API, and here what HIP's headers add to it
 * that a kernel file and its host code use: the remaining qualifiers (defined before any
 * library header, which clang's wrappers of <new>, <cmath>, ... read), the device malloc and
 * free those wrappers name, HIP's shuffles over any trivially copyable type with their
 * default width (word by word, as hip/amd_detail/amd_warp_functions.h), its half and bfloat16
 * types and cooperative groups. The host API is kernels/kl_host.h's. */
#if defined(KL_HIP_WHOLE) && defined(KL_HIP_BARE) && defined(__HIP__)
#define __host__ __attribute__((host))
#define __constant__ __attribute__((constant))
/* storage classes: __align__ anywhere among the specifiers, as HIP's headers define it */
#ifndef __align__
#define __align__(n) __attribute__((aligned(n)))
#endif
#define __forceinline__ inline __attribute__((always_inline))
#define __noinline__ __attribute__((noinline))
#define __launch_bounds__(...) __attribute__((launch_bounds(__VA_ARGS__)))
#define HIP_DYNAMIC_SHARED(type, name) extern __shared__ type name[]
#define HIP_DYNAMIC_SHARED_ATTRIBUTE
typedef __SIZE_TYPE__ size_t;
/* warpSize: an int-valued object, as HIP 7's headers have it (no longer a constant), not kl.h's
 * macro, so host code may read a member of that name (`props.warpSize` of hipDeviceProp_t) */
#undef warpSize
struct kl_hip_whole_warp_size {
    __device__ operator int() const { return __builtin_amdgcn_wavefrontsize(); }
};
static constexpr kl_hip_whole_warp_size warpSize{};
/* HIP's vector types with their make_ functions (host and device), laid out and aligned as
 * HIP's and CUDA's are, as the cpu backend has them */
#define KL_HIP_WHOLE_VEC(T, NAME, A2, A4)                                                       \
    struct __attribute__((aligned(sizeof(T)))) NAME##1 { T x; };                                \
    struct __attribute__((aligned(A2))) NAME##2 { T x, y; };                                    \
    struct NAME##3 { T x, y, z; };                                                              \
    struct __attribute__((aligned(A4))) NAME##4 { T x, y, z, w; };                              \
    static __host__ __device__ inline NAME##1 make_##NAME##1(T x) { return {x}; }               \
    static __host__ __device__ inline NAME##2 make_##NAME##2(T x, T y) { return {x, y}; }       \
    static __host__ __device__ inline NAME##3 make_##NAME##3(T x, T y, T z) { return {x, y, z}; } \
    static __host__ __device__ inline NAME##4 make_##NAME##4(T x, T y, T z, T w) { return {x, y, z, w}; }
KL_HIP_WHOLE_VEC(float, float, 8, 16)
KL_HIP_WHOLE_VEC(int, int, 8, 16)
KL_HIP_WHOLE_VEC(unsigned, uint, 8, 16)
KL_HIP_WHOLE_VEC(short, short, 4, 8)
KL_HIP_WHOLE_VEC(unsigned short, ushort, 4, 8)
KL_HIP_WHOLE_VEC(signed char, char, 2, 4)
KL_HIP_WHOLE_VEC(unsigned char, uchar, 2, 4)
KL_HIP_WHOLE_VEC(double, double, 16, 16)
KL_HIP_WHOLE_VEC(long long, longlong, 16, 16)
KL_HIP_WHOLE_VEC(unsigned long long, ulonglong, 16, 16)
KL_HIP_WHOLE_VEC(long, long, 16, 16)
KL_HIP_WHOLE_VEC(unsigned long, ulong, 16, 16)
#undef KL_HIP_WHOLE_VEC
/* kl.h's bare math is macros, which <cmath> cannot take: device overloads instead, beside the
 * host library's, as clang's own HIP math header has them */
#undef sqrtf
#undef rsqrtf
#undef fabsf
#undef fabs
#undef fmaxf
#undef fminf
#undef expf
#undef logf
#undef cosf
static __device__ inline float sqrtf(float x) { return __builtin_sqrtf(x); }
static __device__ inline float rsqrtf(float x) { return __builtin_amdgcn_rsqf(x); }
static __device__ inline float fabsf(float x) { return __builtin_fabsf(x); }
static __device__ inline double fabs(double x) { return __builtin_fabs(x); }
static __device__ inline float fmaxf(float a, float b) { return __builtin_fmaxf(a, b); }
static __device__ inline float fminf(float a, float b) { return __builtin_fminf(a, b); }
static __device__ inline float expf(float x) { return __builtin_expf(x); }
static __device__ inline float logf(float x) { return __builtin_logf(x); }
static __device__ inline float cosf(float x) { return __builtin_cosf(x); }
static __device__ inline float sqrt(float x) { return __builtin_sqrtf(x); }
static __device__ inline double sqrt(double x) { return __builtin_sqrt(x); }
static __device__ inline float fabs(float x) { return __builtin_fabsf(x); }
static __device__ inline float exp(float x) { return __builtin_expf(x); }
static __device__ inline float log(float x) { return __builtin_logf(x); }
static __device__ inline float fmax(float a, float b) { return __builtin_fmaxf(a, b); }
static __device__ inline float fmin(float a, float b) { return __builtin_fminf(a, b); }
extern "C" __device__ void *malloc(size_t);
extern "C" __device__ void free(void *);
template <int Op, typename T>
static __device__ inline T kl_hip_whole_shfl(T v, int arg, int width)
{
    constexpr int n = (int)((sizeof(T) + 3) / 4);
    int w[n] = {};
    __builtin_memcpy(w, &v, sizeof(T));
    const int self = (int)__lane_id();
    int index;
    if (Op == 0) {
        index = (arg & (width - 1)) + (self & ~(width - 1));
    } else if (Op == 1) {
        index = self ^ arg;
        index = index >= ((self + width) & ~(width - 1)) ? self : index;
    } else if (Op == 2) {
        index = self - arg;
        index = index < (self & ~(width - 1)) ? self : index;
    } else {
        index = self + arg;
        index = (self & (width - 1)) + arg >= width ? self : index;
    }
    for (int i = 0; i < n; i++)
        w[i] = __builtin_amdgcn_ds_bpermute(index << 2, w[i]);
    T r;
    __builtin_memcpy(&r, w, sizeof(T));
    return r;
}
template <typename T>
static __device__ inline T __shfl(T v, int src, int width = warpSize) { return kl_hip_whole_shfl<0>(v, src, width); }
template <typename T>
static __device__ inline T __shfl_xor(T v, int mask, int width = warpSize) { return kl_hip_whole_shfl<1>(v, mask, width); }
template <typename T>
static __device__ inline T __shfl_up(T v, unsigned d, int width = warpSize) { return kl_hip_whole_shfl<2>(v, (int)d, width); }
template <typename T>
static __device__ inline T __shfl_down(T v, unsigned d, int width = warpSize) { return kl_hip_whole_shfl<3>(v, (int)d, width); }
/* hip/hip_fp16.h, hip/hip_bf16.h and hip/hip_bfloat16.h (the engine drops their include lines
 * under KL_HIP_WHOLE): the cpu backend's two 16-bit classes and their functions (KL_CPU_F16_CLASS
 * above), so a file that runs there compiles here, under HIP's names, host and device both as
 * ROCm's are (a launcher names them in its signature). __half converts through clang's
 * _Float16, which amdgcn has natively; __hip_bfloat16 rounds to nearest even and quiets a NaN
 * as kl.h's kl_f32_to_bf16 (device code only, hence its twin here), so a kernel's values and
 * kladder's f16 and bf16 buffers round alike. Arithmetic is computed in float and rounded once,
 * which for + - * / is the correctly rounded result a half instruction gives; a half fma is
 * the native one, rounded once, as ROCm's. */
#define KL_HIP_WHOLE_HD __host__ __device__ inline
static KL_HIP_WHOLE_HD unsigned short kl_hip_whole_f32_to_f16(float f)
{
    return __builtin_bit_cast(unsigned short, (_Float16)f);
}
static KL_HIP_WHOLE_HD float kl_hip_whole_f16_to_f32(unsigned short h)
{
    return (float)__builtin_bit_cast(_Float16, h);
}
static KL_HIP_WHOLE_HD unsigned short kl_hip_whole_f32_to_bf16(float f)
{
    unsigned u = __builtin_bit_cast(unsigned, f);
    if ((u & 0x7fffffffu) > 0x7f800000u)
        return (unsigned short)((u >> 16) | 0x40u);
    return (unsigned short)((u + 0x7fffu + ((u >> 16) & 1u)) >> 16);
}
static KL_HIP_WHOLE_HD float kl_hip_whole_bf16_to_f32(unsigned short b)
{
    return __builtin_bit_cast(float, (unsigned)b << 16);
}
#define KL_HIP_WHOLE_F16_CLASS(NAME, TO16, TO32)                                                \
    struct NAME {                                                                               \
        unsigned short __x;                                                                     \
        NAME() = default;                                                                       \
        KL_HIP_WHOLE_HD NAME(float f) : __x(TO16(f)) {}                                         \
        KL_HIP_WHOLE_HD NAME(double f) : __x(TO16((float)f)) {}                                 \
        KL_HIP_WHOLE_HD NAME(int i) : __x(TO16((float)i)) {}                                    \
        KL_HIP_WHOLE_HD NAME(unsigned i) : __x(TO16((float)i)) {}                               \
        KL_HIP_WHOLE_HD NAME(long long i) : __x(TO16((float)i)) {}                              \
        KL_HIP_WHOLE_HD operator float() const { return TO32(__x); }                            \
        KL_HIP_WHOLE_HD NAME &operator+=(NAME o) { return *this = NAME((float)*this + (float)o); } \
        KL_HIP_WHOLE_HD NAME &operator-=(NAME o) { return *this = NAME((float)*this - (float)o); } \
        KL_HIP_WHOLE_HD NAME &operator*=(NAME o) { return *this = NAME((float)*this * (float)o); } \
        KL_HIP_WHOLE_HD NAME &operator/=(NAME o) { return *this = NAME((float)*this / (float)o); } \
    };                                                                                          \
    static KL_HIP_WHOLE_HD NAME operator+(NAME a, NAME b) { return NAME((float)a + (float)b); } \
    static KL_HIP_WHOLE_HD NAME operator-(NAME a, NAME b) { return NAME((float)a - (float)b); } \
    static KL_HIP_WHOLE_HD NAME operator*(NAME a, NAME b) { return NAME((float)a * (float)b); } \
    static KL_HIP_WHOLE_HD NAME operator/(NAME a, NAME b) { return NAME((float)a / (float)b); } \
    static KL_HIP_WHOLE_HD NAME operator-(NAME a) { NAME r = a; r.__x ^= 0x8000u; return r; }   \
    static KL_HIP_WHOLE_HD bool operator<(NAME a, NAME b) { return (float)a < (float)b; }       \
    static KL_HIP_WHOLE_HD bool operator>(NAME a, NAME b) { return (float)a > (float)b; }       \
    static KL_HIP_WHOLE_HD bool operator<=(NAME a, NAME b) { return (float)a <= (float)b; }     \
    static KL_HIP_WHOLE_HD bool operator>=(NAME a, NAME b) { return (float)a >= (float)b; }     \
    static KL_HIP_WHOLE_HD bool operator==(NAME a, NAME b) { return (float)a == (float)b; }     \
    static KL_HIP_WHOLE_HD bool operator!=(NAME a, NAME b) { return (float)a != (float)b; }     \
    /* a compare-and-swap loop on the 16 bits (the backend widens it to the word around them) */ \
    static __device__ inline NAME atomicAdd(NAME *p, NAME v)                                    \
    {                                                                                           \
        unsigned short *u = (unsigned short *)p;                                                \
        unsigned short old = __hip_atomic_load(u, __ATOMIC_RELAXED, __HIP_MEMORY_SCOPE_AGENT);  \
        NAME o;                                                                                 \
        do                                                                                      \
            o.__x = old;                                                                        \
        while (!__hip_atomic_compare_exchange_weak(u, &old, (o + v).__x, __ATOMIC_RELAXED,      \
                                                   __ATOMIC_RELAXED, __HIP_MEMORY_SCOPE_AGENT)); \
        return o;                                                                               \
    }                                                                                           \
    struct __attribute__((aligned(4))) NAME##2 {                                                \
        NAME x, y;                                                                              \
    };                                                                                          \
    static KL_HIP_WHOLE_HD NAME##2 operator+(NAME##2 a, NAME##2 b) { return {a.x + b.x, a.y + b.y}; } \
    static KL_HIP_WHOLE_HD NAME##2 operator*(NAME##2 a, NAME##2 b) { return {a.x * b.x, a.y * b.y}; } \
    static KL_HIP_WHOLE_HD NAME##2 operator-(NAME##2 a, NAME##2 b) { return {a.x - b.x, a.y - b.y}; }
KL_HIP_WHOLE_F16_CLASS(__half, kl_hip_whole_f32_to_f16, kl_hip_whole_f16_to_f32)
KL_HIP_WHOLE_F16_CLASS(__hip_bfloat16, kl_hip_whole_f32_to_bf16, kl_hip_whole_bf16_to_f32)
#undef KL_HIP_WHOLE_F16_CLASS
typedef __half half;
typedef __half2 half2;
typedef __hip_bfloat16 hip_bfloat16;

static KL_HIP_WHOLE_HD __half kl_hip_whole_fma(__half a, __half b, __half c)
{
    _Float16 r = __builtin_fmaf16(__builtin_bit_cast(_Float16, a.__x), __builtin_bit_cast(_Float16, b.__x),
                                  __builtin_bit_cast(_Float16, c.__x));
    __half h;
    h.__x = __builtin_bit_cast(unsigned short, r);
    return h;
}
static KL_HIP_WHOLE_HD __hip_bfloat16 kl_hip_whole_fma(__hip_bfloat16 a, __hip_bfloat16 b, __hip_bfloat16 c)
{
    return __hip_bfloat16(__builtin_fmaf((float)a, (float)b, (float)c));
}
#define KL_HIP_WHOLE_F16_FUNCS(T)                                                               \
    static KL_HIP_WHOLE_HD float __low2float(T##2 v) { return (float)v.x; }                     \
    static KL_HIP_WHOLE_HD float __high2float(T##2 v) { return (float)v.y; }                    \
    static KL_HIP_WHOLE_HD T __hadd(T a, T b) { return a + b; }                                 \
    static KL_HIP_WHOLE_HD T __hsub(T a, T b) { return a - b; }                                 \
    static KL_HIP_WHOLE_HD T __hmul(T a, T b) { return a * b; }                                 \
    static KL_HIP_WHOLE_HD T __hdiv(T a, T b) { return a / b; }                                 \
    static KL_HIP_WHOLE_HD T __hfma(T a, T b, T c) { return kl_hip_whole_fma(a, b, c); }        \
    static KL_HIP_WHOLE_HD T __hmax(T a, T b) { return (float)a < (float)b ? b : a; }           \
    static KL_HIP_WHOLE_HD T __hmin(T a, T b) { return (float)b < (float)a ? b : a; }           \
    static KL_HIP_WHOLE_HD T __habs(T a) { T r = a; r.__x &= 0x7fffu; return r; }               \
    static KL_HIP_WHOLE_HD T __hneg(T a) { return -a; }                                         \
    static KL_HIP_WHOLE_HD bool __hlt(T a, T b) { return a < b; }                               \
    static KL_HIP_WHOLE_HD bool __hgt(T a, T b) { return a > b; }                               \
    static KL_HIP_WHOLE_HD bool __hle(T a, T b) { return a <= b; }                              \
    static KL_HIP_WHOLE_HD bool __hge(T a, T b) { return a >= b; }                              \
    static KL_HIP_WHOLE_HD bool __heq(T a, T b) { return a == b; }                              \
    static KL_HIP_WHOLE_HD bool __hne(T a, T b) { return a != b; }                              \
    static KL_HIP_WHOLE_HD bool __hisnan(T a) { return __builtin_isnan((float)a); }             \
    static KL_HIP_WHOLE_HD T##2 __hadd2(T##2 a, T##2 b) { return a + b; }                       \
    static KL_HIP_WHOLE_HD T##2 __hsub2(T##2 a, T##2 b) { return a - b; }                       \
    static KL_HIP_WHOLE_HD T##2 __hmul2(T##2 a, T##2 b) { return a * b; }                       \
    static KL_HIP_WHOLE_HD T##2 __hfma2(T##2 a, T##2 b, T##2 c)                                 \
    {                                                                                           \
        return {__hfma(a.x, b.x, c.x), __hfma(a.y, b.y, c.y)};                                  \
    }
KL_HIP_WHOLE_F16_FUNCS(__half)
KL_HIP_WHOLE_F16_FUNCS(__hip_bfloat16)
#undef KL_HIP_WHOLE_F16_FUNCS

static KL_HIP_WHOLE_HD __half __float2half(float f) { return __half(f); }
static KL_HIP_WHOLE_HD __half __float2half_rn(float f) { return __half(f); }
static KL_HIP_WHOLE_HD float __half2float(__half h) { return (float)h; }
static KL_HIP_WHOLE_HD __half2 __float2half2_rn(float f) { return {__half(f), __half(f)}; }
static KL_HIP_WHOLE_HD __half2 __floats2half2_rn(float a, float b) { return {__half(a), __half(b)}; }
static KL_HIP_WHOLE_HD __half2 __halves2half2(__half a, __half b) { return {a, b}; }
static KL_HIP_WHOLE_HD __half2 __half2half2(__half a) { return {a, a}; }
static KL_HIP_WHOLE_HD __half __low2half(__half2 v) { return v.x; }
static KL_HIP_WHOLE_HD __half __high2half(__half2 v) { return v.y; }
static KL_HIP_WHOLE_HD unsigned short __half_as_ushort(__half h) { return h.__x; }
static KL_HIP_WHOLE_HD __half __ushort_as_half(unsigned short u) { __half h; h.__x = u; return h; }

static KL_HIP_WHOLE_HD __hip_bfloat16 __float2bfloat16(float f) { return __hip_bfloat16(f); }
static KL_HIP_WHOLE_HD __hip_bfloat16 __float2bfloat16_rn(float f) { return __hip_bfloat16(f); }
static KL_HIP_WHOLE_HD float __bfloat162float(__hip_bfloat16 b) { return (float)b; }
static KL_HIP_WHOLE_HD __hip_bfloat162 __float2bfloat162_rn(float f) { return {__hip_bfloat16(f), __hip_bfloat16(f)}; }
static KL_HIP_WHOLE_HD __hip_bfloat162 __floats2bfloat162_rn(float a, float b) { return {__hip_bfloat16(a), __hip_bfloat16(b)}; }
static KL_HIP_WHOLE_HD __hip_bfloat162 __halves2bfloat162(__hip_bfloat16 a, __hip_bfloat16 b) { return {a, b}; }
static KL_HIP_WHOLE_HD __hip_bfloat16 __low2bfloat16(__hip_bfloat162 v) { return v.x; }
static KL_HIP_WHOLE_HD __hip_bfloat16 __high2bfloat16(__hip_bfloat162 v) { return v.y; }
static KL_HIP_WHOLE_HD unsigned short __bfloat16_as_ushort(__hip_bfloat16 b) { return b.__x; }
static KL_HIP_WHOLE_HD __hip_bfloat16 __ushort_as_bfloat16(unsigned short u) { __hip_bfloat16 b; b.__x = u; return b; }
#undef KL_HIP_WHOLE_HD
/* hip/hip_cooperative_groups.h's block and its tiles of up to a wave, with cg::reduce (the
 * engine drops the include line under KL_HIP_WHOLE) */
namespace cooperative_groups {
class thread_block {
  public:
    __device__ unsigned thread_rank() const
    {
        return threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z);
    }
    __device__ unsigned size() const { return blockDim.x * blockDim.y * blockDim.z; }
    __device__ unsigned num_threads() const { return size(); }
    __device__ void sync() const { __syncthreads(); }
};
static __device__ inline thread_block this_thread_block() { return thread_block(); }
template <unsigned N>
class thread_block_tile {
    static_assert(N > 0 && (N & (N - 1)) == 0 && N <= 64, "a tile is a power of two up to a wave");

  public:
    __device__ unsigned thread_rank() const { return thread_block().thread_rank() % N; }
    __device__ unsigned size() const { return N; }
    __device__ unsigned num_threads() const { return N; }
    __device__ unsigned meta_group_rank() const { return thread_block().thread_rank() / N; }
    __device__ unsigned meta_group_size() const { return (thread_block().size() + N - 1) / N; }
    __device__ void sync() const
    {
        __builtin_amdgcn_fence(__ATOMIC_RELEASE, "wavefront");
        __builtin_amdgcn_wave_barrier();
        __builtin_amdgcn_fence(__ATOMIC_ACQUIRE, "wavefront");
    }
    template <typename T>
    __device__ T shfl(T v, int src) const { return __shfl(v, src, (int)N); }
    template <typename T>
    __device__ T shfl_xor(T v, int mask) const { return __shfl_xor(v, mask, (int)N); }
    template <typename T>
    __device__ T shfl_up(T v, unsigned d) const { return __shfl_up(v, d, (int)N); }
    template <typename T>
    __device__ T shfl_down(T v, unsigned d) const { return __shfl_down(v, d, (int)N); }
};
template <unsigned N, typename Parent>
static __device__ inline thread_block_tile<N> tiled_partition(const Parent &) { return thread_block_tile<N>(); }
template <typename T>
struct plus {
    __device__ T operator()(T a, T b) const { return a + b; }
};
template <typename T>
struct less {
    __device__ T operator()(T a, T b) const { return b < a ? b : a; }
};
template <typename T>
struct greater {
    __device__ T operator()(T a, T b) const { return a < b ? b : a; }
};
template <typename T>
struct bit_and {
    __device__ T operator()(T a, T b) const { return a & b; }
};
template <typename T>
struct bit_or {
    __device__ T operator()(T a, T b) const { return a | b; }
};
template <typename T>
struct bit_xor {
    __device__ T operator()(T a, T b) const { return a ^ b; }
};
template <unsigned N, typename T, typename Op>
static __device__ inline T reduce(const thread_block_tile<N> &g, T v, Op op)
{
    for (unsigned m = N / 2; m > 0; m /= 2)
        v = op(v, g.shfl_xor(v, (int)m));
    return v;
}
} // namespace cooperative_groups

/* ==== the API inventory's additions (clang without HIP headers) ============================
 * What data/api/hip_api.tsv lists and kernels commonly use, as HIP's headers define it:
 * the fast-math intrinsics (the hardware's exp2 and log2 approximations, as ROCm's native
 * functions), atomicInc and atomicDec, atomicAdd on a pair of 16-bit floats, the legacy
 * coordinates, and cooperative groups' thread_group. */
static __device__ inline float __expf(float x) { return __builtin_amdgcn_exp2f(x * 1.44269504088896341f); }
static __device__ inline float __exp10f(float x) { return __builtin_amdgcn_exp2f(x * 3.32192809488736235f); }
static __device__ inline float __log2f(float x) { return __builtin_amdgcn_logf(x); }
static __device__ inline float __logf(float x) { return __builtin_amdgcn_logf(x) * 0.693147180559945309f; }
static __device__ inline float __log10f(float x) { return __builtin_amdgcn_logf(x) * 0.301029995663981195f; }
static __device__ inline float __sinf(float x) { return __builtin_sinf(x); }
static __device__ inline float __cosf(float x) { return __builtin_cosf(x); }
static __device__ inline float __tanf(float x) { return __builtin_sinf(x) / __builtin_cosf(x); }
static __device__ inline void __sincosf(float x, float *s, float *c) { *s = __builtin_sinf(x); *c = __builtin_cosf(x); }
static __device__ inline float __powf(float x, float y) { return __builtin_amdgcn_exp2f(y * __builtin_amdgcn_logf(x)); }
static __device__ inline float __fdividef(float a, float b) { return a / b; }
static __device__ inline float __saturatef(float x) { return x < 0.0f ? 0.0f : x > 1.0f ? 1.0f : x; }
static __device__ inline float __frcp_rn(float x) { return 1.0f / x; }
static __device__ inline float __fsqrt_rn(float x) { return __builtin_sqrtf(x); }
static __device__ inline float __frsqrt_rn(float x) { return 1.0f / __builtin_sqrtf(x); }
static __device__ inline float __fadd_rn(float a, float b) { return a + b; }
static __device__ inline float __fsub_rn(float a, float b) { return a - b; }
static __device__ inline float __fmul_rn(float a, float b) { return a * b; }
static __device__ inline float __fdiv_rn(float a, float b) { return a / b; }
static __device__ inline float __fmaf_rn(float a, float b, float c) { return __builtin_fmaf(a, b, c); }
static __device__ inline float exp2f(float x) { return __builtin_exp2f(x); }
static __device__ inline float log2f(float x) { return __builtin_log2f(x); }
static __device__ inline float sinf(float x) { return __builtin_sinf(x); }
static __device__ inline float floorf(float x) { return __builtin_floorf(x); }
static __device__ inline float ceilf(float x) { return __builtin_ceilf(x); }
static __device__ inline float truncf(float x) { return __builtin_truncf(x); }
static __device__ inline float fmaf(float a, float b, float c) { return __builtin_fmaf(a, b, c); }
static __device__ inline float copysignf(float a, float b) { return __builtin_copysignf(a, b); }
static __device__ inline int __popc(unsigned x) { return __builtin_popcount(x); }
static __device__ inline int __popcll(unsigned long long x) { return __builtin_popcountll(x); }
static __device__ inline int __clz(int x) { return x == 0 ? 32 : __builtin_clz((unsigned)x); }
static __device__ inline int __ffs(int x) { return __builtin_ffs(x); }
static __device__ inline int __float_as_int(float f) { return __builtin_bit_cast(int, f); }
static __device__ inline float __int_as_float(int i) { return __builtin_bit_cast(float, i); }
static __device__ inline unsigned atomicInc(unsigned *p, unsigned limit)
{
    return __builtin_amdgcn_atomic_inc32(p, limit, __ATOMIC_RELAXED, "agent");
}
static __device__ inline unsigned atomicDec(unsigned *p, unsigned limit)
{
    return __builtin_amdgcn_atomic_dec32(p, limit, __ATOMIC_RELAXED, "agent");
}
/* a pair of 16-bit floats: one 32-bit compare-and-swap, each half rounded once */
#define KL_HIP_WHOLE_PAIR_ADD(T2)                                                               \
    static __device__ inline T2 atomicAdd(T2 *p, T2 v)                                          \
    {                                                                                           \
        unsigned *u = (unsigned *)p;                                                            \
        unsigned old = __hip_atomic_load(u, __ATOMIC_RELAXED, __HIP_MEMORY_SCOPE_AGENT);        \
        T2 o;                                                                                   \
        do                                                                                      \
            o = __builtin_bit_cast(T2, old);                                                    \
        while (!__hip_atomic_compare_exchange_weak(u, &old, __builtin_bit_cast(unsigned, o + v), \
                                                   __ATOMIC_RELAXED, __ATOMIC_RELAXED,          \
                                                   __HIP_MEMORY_SCOPE_AGENT));                  \
        return o;                                                                               \
    }
KL_HIP_WHOLE_PAIR_ADD(__half2)
KL_HIP_WHOLE_PAIR_ADD(__hip_bfloat162)
#undef KL_HIP_WHOLE_PAIR_ADD
namespace cooperative_groups {
class thread_group {
  public:
    __device__ thread_group(const thread_block &) : tile_(0) {}
    template <unsigned N>
    __device__ thread_group(const thread_block_tile<N> &) : tile_(N) {}
    __device__ explicit thread_group(unsigned tile) : tile_(tile) {}
    __device__ unsigned thread_rank() const
    {
        return tile_ ? thread_block().thread_rank() % tile_ : thread_block().thread_rank();
    }
    __device__ unsigned size() const { return tile_ ? tile_ : thread_block().size(); }
    __device__ unsigned num_threads() const { return size(); }
    __device__ bool is_valid() const { return true; }
    __device__ unsigned cg_type() const { return tile_ ? 2u : 1u; }
    __device__ void sync() const
    {
        if (!tile_) {
            __syncthreads();
        } else {
            __builtin_amdgcn_fence(__ATOMIC_RELEASE, "wavefront");
            __builtin_amdgcn_wave_barrier();
            __builtin_amdgcn_fence(__ATOMIC_ACQUIRE, "wavefront");
        }
    }

  private:
    unsigned tile_;
};
typedef thread_group tiled_group;
static __device__ inline thread_group tiled_partition(const thread_group &, unsigned n) { return thread_group(n); }
static __device__ inline void sync(const thread_group &g) { g.sync(); }
} // namespace cooperative_groups
/* ==== end of the API inventory's additions ================================================= */
/* ==== the C math and conversions HIP's headers give device code ===========================
 * What clang's HIP math header and HIP's device functions declare that kernels commonly call
 * and the AMDGPU backend lowers by itself (no device library here): HIP's min and max, the
 * double forms of the rounding functions, the float and double integer roundings (lrint,
 * lround and their long long forms), cbrt, and the conversion intrinsics with their rounding
 * modes. A conversion to a narrower float in a directed mode rounds to nearest and then steps
 * one unit toward the mode's direction when the nearest value lies on the wrong side of the
 * integer, which is the directed result. */
template <class T>
static __device__ inline T min(T a, T b) { return a < b ? a : b; }
template <class T>
static __device__ inline T max(T a, T b) { return a > b ? a : b; }
static __device__ inline int min(int a, int b) { return a < b ? a : b; }
static __device__ inline int max(int a, int b) { return a > b ? a : b; }
static __device__ inline float min(float a, float b) { return __builtin_fminf(a, b); }
static __device__ inline float max(float a, float b) { return __builtin_fmaxf(a, b); }
static __device__ inline double min(double a, double b) { return __builtin_fmin(a, b); }
static __device__ inline double max(double a, double b) { return __builtin_fmax(a, b); }
static __host__ inline int min(int a, int b) { return a < b ? a : b; }
static __host__ inline int max(int a, int b) { return a > b ? a : b; }
#define KL_HIP_WHOLE_ROUNDING(F, S)                                                             \
    static __device__ inline F floor##S(F x) { return __builtin_floor##S(x); }                  \
    static __device__ inline F ceil##S(F x) { return __builtin_ceil##S(x); }                    \
    static __device__ inline F trunc##S(F x) { return __builtin_trunc##S(x); }                  \
    static __device__ inline F rint##S(F x) { return __builtin_rint##S(x); }                    \
    static __device__ inline F nearbyint##S(F x) { return __builtin_rint##S(x); }               \
    static __device__ inline F round##S(F x) { return __builtin_round##S(x); }                  \
    static __device__ inline long lrint##S(F x) { return (long)__builtin_rint##S(x); }          \
    static __device__ inline long long llrint##S(F x) { return (long long)__builtin_rint##S(x); } \
    static __device__ inline long lround##S(F x) { return (long)__builtin_round##S(x); }        \
    static __device__ inline long long llround##S(F x) { return (long long)__builtin_round##S(x); } \
    static __device__ inline F fma##S(F a, F b, F c) { return __builtin_fma##S(a, b, c); }      \
    static __device__ inline F fmax##S(F a, F b) { return __builtin_fmax##S(a, b); }            \
    static __device__ inline F fmin##S(F a, F b) { return __builtin_fmin##S(a, b); }            \
    static __device__ inline F copysign##S(F a, F b) { return __builtin_copysign##S(a, b); }    \
    static __device__ inline F ldexp##S(F x, int e) { return __builtin_ldexp##S(x, e); }        \
    static __device__ inline F frexp##S(F x, int *e) { return __builtin_frexp##S(x, e); }
KL_HIP_WHOLE_ROUNDING(double, )
#undef KL_HIP_WHOLE_ROUNDING
static __device__ inline float roundf(float x) { return __builtin_roundf(x); }
static __device__ inline float rintf(float x) { return __builtin_rintf(x); }
static __device__ inline float nearbyintf(float x) { return __builtin_rintf(x); }
static __device__ inline long lrintf(float x) { return (long)__builtin_rintf(x); }
static __device__ inline long long llrintf(float x) { return (long long)__builtin_rintf(x); }
static __device__ inline long lroundf(float x) { return (long)__builtin_roundf(x); }
static __device__ inline long long llroundf(float x) { return (long long)__builtin_roundf(x); }
static __device__ inline float ldexpf(float x, int e) { return __builtin_ldexpf(x, e); }
static __device__ inline float frexpf(float x, int *e) { return __builtin_frexpf(x, e); }
static __device__ inline float floor(float x) { return __builtin_floorf(x); }
static __device__ inline float ceil(float x) { return __builtin_ceilf(x); }
static __device__ inline float trunc(float x) { return __builtin_truncf(x); }
static __device__ inline float rint(float x) { return __builtin_rintf(x); }
static __device__ inline float round(float x) { return __builtin_roundf(x); }
static __device__ inline float fma(float a, float b, float c) { return __builtin_fmaf(a, b, c); }
/* cbrt: the exponent brought to a multiple of 3 (a mantissa m in [1/8, 1)), a first value from
 * the hardware's exp2 and log2 of m, then Newton steps y -= (y^3 - m) / (3 y^2) in double, the
 * residual through fma: two from the float estimate's 2^-22 give double precision (a third
 * settles the last bit; within 1 ulp of the correctly rounded cube root), and the float result
 * rounds once from the double. Zero, infinities and NaN return themselves, as cbrt's. */
static __device__ inline double kl_hip_whole_cbrt(double x, int steps)
{
    if (x == 0.0 || !__builtin_isfinite(x))
        return x;
    int e;
    double m = __builtin_frexp(__builtin_fabs(x), &e); /* |x| = m 2^e, m in [1/2, 1) */
    int r = ((e % 3) + 3) % 3;                           /* e - r is a multiple of 3 */
    m = __builtin_ldexp(m, r - 3);                       /* m in [1/16, 1): |x| = m 2^(e - r + 3) */
    double y = (double)__builtin_amdgcn_exp2f(__builtin_amdgcn_logf((float)m) * (1.0f / 3.0f));
    for (int i = 0; i < steps; i++) { /* the residual y^3 - m with y^2's rounding error kept */
        const double y2 = y * y, y2_err = __builtin_fma(y, y, -y2);
        y -= (__builtin_fma(y2, y, -m) + y2_err * y) / (3.0 * y2);
    }
    return __builtin_copysign(__builtin_ldexp(y, (e - r + 3) / 3), x);
}
static __device__ inline double cbrt(double x) { return kl_hip_whole_cbrt(x, 3); }
static __device__ inline float cbrtf(float x) { return (float)kl_hip_whole_cbrt(x, 2); }
static __device__ inline float cbrt(float x) { return cbrtf(x); }
/* the bits of a double and back */
static __device__ inline long long __double_as_longlong(double x) { return __builtin_bit_cast(long long, x); }
static __device__ inline double __longlong_as_double(long long x) { return __builtin_bit_cast(double, x); }
static __device__ inline int __double2hiint(double x) { return (int)((unsigned long long)__double_as_longlong(x) >> 32); }
static __device__ inline int __double2loint(double x) { return (int)(unsigned long long)__double_as_longlong(x); }
static __device__ inline double __hiloint2double(int hi, int lo)
{
    return __longlong_as_double((long long)(((unsigned long long)(unsigned)hi << 32) | (unsigned)lo));
}
/* floating to integer: the value rounded in the mode, then converted (exact) */
#define KL_HIP_WHOLE_TO_INT(F, FN, I, IN, S)                                                    \
    static __device__ inline I __##FN##2##IN##_rd(F x) { return (I)__builtin_floor##S(x); }     \
    static __device__ inline I __##FN##2##IN##_rn(F x) { return (I)__builtin_rint##S(x); }      \
    static __device__ inline I __##FN##2##IN##_ru(F x) { return (I)__builtin_ceil##S(x); }      \
    static __device__ inline I __##FN##2##IN##_rz(F x) { return (I)x; }
KL_HIP_WHOLE_TO_INT(float, float, int, int, f)
KL_HIP_WHOLE_TO_INT(float, float, unsigned, uint, f)
KL_HIP_WHOLE_TO_INT(float, float, long long, ll, f)
KL_HIP_WHOLE_TO_INT(float, float, unsigned long long, ull, f)
KL_HIP_WHOLE_TO_INT(double, double, int, int, )
KL_HIP_WHOLE_TO_INT(double, double, unsigned, uint, )
KL_HIP_WHOLE_TO_INT(double, double, long long, ll, )
KL_HIP_WHOLE_TO_INT(double, double, unsigned long long, ull, )
#undef KL_HIP_WHOLE_TO_INT
/* integer to floating in a rounding mode (dir -1 down, 0 toward zero, 1 up) */
static __device__ inline float kl_hip_whole_step(float r, int up)
{
    unsigned b = __builtin_bit_cast(unsigned, r);
    return __builtin_bit_cast(float, (r > 0) == (up > 0) ? b + 1 : b - 1);
}
static __device__ inline double kl_hip_whole_step(double r, int up)
{
    unsigned long long b = __builtin_bit_cast(unsigned long long, r);
    return __builtin_bit_cast(double, (r > 0) == (up > 0) ? b + 1 : b - 1);
}
template <typename F, typename I>
static __device__ inline F kl_hip_whole_from_int(I x, int dir)
{
    F r = (F)x; /* to nearest */
    F limit = 1; /* 2^(bits of I's magnitude): the first value past I's range */
    for (unsigned i = 0; i < sizeof(I) * 8 - ((I)-1 < 0 ? 1 : 0); i++)
        limit *= 2;
    const int side = r >= limit ? 1 : (I)r > x ? 1 : (I)r < x ? -1 : 0; /* r against x */
    if (side > 0 && (dir < 0 || (dir == 0 && x > 0)))
        return kl_hip_whole_step(r, -1);
    if (side < 0 && (dir > 0 || (dir == 0 && x < 0)))
        return kl_hip_whole_step(r, 1);
    return r;
}
#define KL_HIP_WHOLE_FROM_INT(I, IN, F, FN)                                                     \
    static __device__ inline F __##IN##2##FN##_rd(I x) { return kl_hip_whole_from_int<F>(x, -1); } \
    static __device__ inline F __##IN##2##FN##_rn(I x) { return (F)x; }                         \
    static __device__ inline F __##IN##2##FN##_ru(I x) { return kl_hip_whole_from_int<F>(x, 1); } \
    static __device__ inline F __##IN##2##FN##_rz(I x) { return kl_hip_whole_from_int<F>(x, 0); }
KL_HIP_WHOLE_FROM_INT(int, int, float, float)
KL_HIP_WHOLE_FROM_INT(unsigned, uint, float, float)
KL_HIP_WHOLE_FROM_INT(long long, ll, float, float)
KL_HIP_WHOLE_FROM_INT(unsigned long long, ull, float, float)
KL_HIP_WHOLE_FROM_INT(long long, ll, double, double)
KL_HIP_WHOLE_FROM_INT(unsigned long long, ull, double, double)
#undef KL_HIP_WHOLE_FROM_INT
static __device__ inline double __int2double_rn(int x) { return (double)x; }
static __device__ inline double __uint2double_rn(unsigned x) { return (double)x; }
/* sinpi and cospi: the argument reduced exactly to [-1, 1] (x - 2 rint(x / 2) is exact in
 * float), then the builtin sine or cosine of pi times it, so a large x keeps its phase */
static __device__ inline float kl_hip_whole_halfturns(float x) { return x - 2.0f * __builtin_rintf(x * 0.5f); }
static __device__ inline float sinpif(float x)
{
    return __builtin_sinf(kl_hip_whole_halfturns(x) * 3.14159265358979323846f);
}
static __device__ inline float cospif(float x)
{
    return __builtin_cosf(kl_hip_whole_halfturns(x) * 3.14159265358979323846f);
}
static __device__ inline void sincospif(float x, float *s, float *c)
{
    *s = sinpif(x);
    *c = cospif(x);
}
/* the atomics HIP's headers add to kl.h's bare add, exchange, max and compare-and-swap:
 * subtract, min and the bitwise ones on the integers, unsigned long in every form, and the
 * floating ones (device scope, relaxed, as kl.h's) */
#define KL_HIP_WHOLE_ATOMIC(NAME, T, BUILTIN)                                                   \
    static __device__ inline T NAME(T *p, T v) { return BUILTIN(p, v, __ATOMIC_RELAXED, __HIP_MEMORY_SCOPE_AGENT); }
#define KL_HIP_WHOLE_INT_ATOMICS(T)                                                             \
    KL_HIP_WHOLE_ATOMIC(atomicSub, T, __hip_atomic_fetch_sub)                                   \
    KL_HIP_WHOLE_ATOMIC(atomicMin, T, __hip_atomic_fetch_min)                                   \
    KL_HIP_WHOLE_ATOMIC(atomicAnd, T, __hip_atomic_fetch_and)                                   \
    KL_HIP_WHOLE_ATOMIC(atomicOr, T, __hip_atomic_fetch_or)                                     \
    KL_HIP_WHOLE_ATOMIC(atomicXor, T, __hip_atomic_fetch_xor)
KL_HIP_WHOLE_INT_ATOMICS(int)
KL_HIP_WHOLE_INT_ATOMICS(unsigned)
KL_HIP_WHOLE_INT_ATOMICS(unsigned long long)
KL_HIP_WHOLE_INT_ATOMICS(unsigned long)
#undef KL_HIP_WHOLE_INT_ATOMICS
KL_HIP_WHOLE_ATOMIC(atomicAdd, unsigned long, __hip_atomic_fetch_add)
KL_HIP_WHOLE_ATOMIC(atomicExch, unsigned long, __hip_atomic_exchange)
KL_HIP_WHOLE_ATOMIC(atomicMax, unsigned long, __hip_atomic_fetch_max)
KL_HIP_WHOLE_ATOMIC(atomicSub, float, __hip_atomic_fetch_sub)
KL_HIP_WHOLE_ATOMIC(atomicMin, float, __hip_atomic_fetch_min)
KL_HIP_WHOLE_ATOMIC(atomicAdd, double, __hip_atomic_fetch_add)
KL_HIP_WHOLE_ATOMIC(atomicSub, double, __hip_atomic_fetch_sub)
KL_HIP_WHOLE_ATOMIC(atomicExch, double, __hip_atomic_exchange)
KL_HIP_WHOLE_ATOMIC(atomicMin, double, __hip_atomic_fetch_min)
KL_HIP_WHOLE_ATOMIC(atomicMax, double, __hip_atomic_fetch_max)
#undef KL_HIP_WHOLE_ATOMIC
/* ==== end of the C math and conversions ==================================================== */
#endif

/* A HIP source on the cuda backend (the engine defines KL_HIP_SOURCE in front of a .hip file):
 * HIP's device API over CUDA's, as HIP's own NVIDIA headers map it. Shuffles take any trivially
 * copyable type (a struct moves word by word), as HIP's do, over all 32 lanes (HIP's are
 * unmasked); votes over the whole warp. */
#if defined(KL_HIP_SOURCE) && (defined(__CUDACC__) || defined(__CUDACC_RTC__)) && !defined(__HIP__)
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h> /* HIP's cooperative groups header has cg::reduce */
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#define HIP_DYNAMIC_SHARED(type, name) extern __shared__ type name[]
#define HIP_DYNAMIC_SHARED_ATTRIBUTE
typedef __nv_bfloat16 __hip_bfloat16;
typedef __nv_bfloat162 __hip_bfloat162;
typedef __nv_bfloat16 hip_bfloat16;
/* hip/hip_complex.h becomes cuComplex.h (the engine's include map): HIP's names over CUDA's */
#define hipFloatComplex cuFloatComplex
#define hipDoubleComplex cuDoubleComplex
#define hipComplex cuComplex
#define make_hipFloatComplex make_cuFloatComplex
#define make_hipDoubleComplex make_cuDoubleComplex
#define make_hipComplex make_cuComplex
#define hipCrealf cuCrealf
#define hipCreal cuCreal
#define hipCimagf cuCimagf
#define hipCimag cuCimag
#define hipConjf cuConjf
#define hipConj cuConj
#define hipCaddf cuCaddf
#define hipCadd cuCadd
#define hipCsubf cuCsubf
#define hipCsub cuCsub
#define hipCmulf cuCmulf
#define hipCmul cuCmul
#define hipCdivf cuCdivf
#define hipCdiv cuCdiv
#define hipCabsf cuCabsf
#define hipCabs cuCabs
#define hipCfmaf cuCfmaf
#define hipCfma cuCfma
#define hipComplexFloatToDouble cuComplexFloatToDouble
#define hipComplexDoubleToFloat cuComplexDoubleToFloat
template <int Op, typename T>
__device__ inline T kl_hip_shfl(T v, int arg, int width)
{
    constexpr int n = (int)((sizeof(T) + 3) / 4);
    unsigned w[n] = {};
    memcpy(w, &v, sizeof(T));
    for (int i = 0; i < n; i++)
        w[i] = Op == 0   ? __shfl_sync(0xffffffffu, w[i], arg, width)
               : Op == 1 ? __shfl_xor_sync(0xffffffffu, w[i], arg, width)
               : Op == 2 ? __shfl_up_sync(0xffffffffu, w[i], (unsigned)arg, width)
                         : __shfl_down_sync(0xffffffffu, w[i], (unsigned)arg, width);
    T r;
    memcpy(&r, w, sizeof(T));
    return r;
}
template <typename T>
__device__ inline T __shfl(T v, int src, int width = warpSize) { return kl_hip_shfl<0>(v, src, width); }
template <typename T>
__device__ inline T __shfl_xor(T v, int mask, int width = warpSize) { return kl_hip_shfl<1>(v, mask, width); }
template <typename T>
__device__ inline T __shfl_up(T v, unsigned d, int width = warpSize) { return kl_hip_shfl<2>(v, (int)d, width); }
template <typename T>
__device__ inline T __shfl_down(T v, unsigned d, int width = warpSize) { return kl_hip_shfl<3>(v, (int)d, width); }
/* CUDA still declares its own pre-Volta votes of these names (32-bit, and no instruction
 * since Volta): HIP's are 64-bit masks, so the names are taken over, by macros defined after
 * the CUDA headers above (whose internals use a type named __any) */
__device__ inline unsigned long long kl_hip_ballot(int pred) { return __ballot_sync(0xffffffffu, pred); }
__device__ inline int kl_hip_any(int pred) { return __any_sync(0xffffffffu, pred); }
__device__ inline int kl_hip_all(int pred) { return __all_sync(0xffffffffu, pred); }
#define __ballot(pred) kl_hip_ballot(pred)
#define __any(pred) kl_hip_any(pred)
#define __all(pred) kl_hip_all(pred)
__device__ inline unsigned __lane_id(void)
{
    unsigned r;
    asm volatile("mov.u32 %0, %%laneid;" : "=r"(r));
    return r;
}
/* The host side, for nvcc, which parses a whole file's host code (and drops it): HIP's runtime
 * names as CUDA's, the way HIP's NVIDIA headers map them. */
#if !defined(__CUDACC_RTC__)
#define hipError_t cudaError_t
#define hipSuccess cudaSuccess
#define hipErrorInvalidValue cudaErrorInvalidValue
#define hipErrorOutOfMemory cudaErrorMemoryAllocation
#define hipErrorNotSupported cudaErrorNotSupported
#define hipGetErrorString cudaGetErrorString
#define hipGetErrorName cudaGetErrorName
#define hipGetLastError cudaGetLastError
#define hipPeekAtLastError cudaPeekAtLastError
#define hipMalloc cudaMalloc
#define hipHostMalloc cudaMallocHost
#define hipMallocManaged cudaMallocManaged
#define hipFree cudaFree
#define hipHostFree cudaFreeHost
#define hipMemcpy cudaMemcpy
#define hipMemcpyAsync cudaMemcpyAsync
#define hipMemcpyToSymbol cudaMemcpyToSymbol
#define hipMemcpyFromSymbol cudaMemcpyFromSymbol
#define hipMemset cudaMemset
#define hipMemsetAsync cudaMemsetAsync
#define hipMemcpyHostToHost cudaMemcpyHostToHost
#define hipMemcpyHostToDevice cudaMemcpyHostToDevice
#define hipMemcpyDeviceToHost cudaMemcpyDeviceToHost
#define hipMemcpyDeviceToDevice cudaMemcpyDeviceToDevice
#define hipMemcpyDefault cudaMemcpyDefault
#define hipDeviceSynchronize cudaDeviceSynchronize
#define hipDeviceReset cudaDeviceReset
#define hipSetDevice cudaSetDevice
#define hipGetDevice cudaGetDevice
#define hipGetDeviceCount cudaGetDeviceCount
#define hipDeviceProp_t cudaDeviceProp
#define hipGetDeviceProperties cudaGetDeviceProperties
#define hipDeviceGetAttribute cudaDeviceGetAttribute
#define hipFuncSetAttribute cudaFuncSetAttribute
#define hipStream_t cudaStream_t
#define hipStreamDefault cudaStreamDefault
#define hipStreamNonBlocking cudaStreamNonBlocking
#define hipStreamCreate cudaStreamCreate
#define hipStreamCreateWithFlags cudaStreamCreateWithFlags
#define hipStreamDestroy cudaStreamDestroy
#define hipStreamSynchronize cudaStreamSynchronize
#define hipStreamWaitEvent cudaStreamWaitEvent
#define hipEvent_t cudaEvent_t
#define hipEventCreate cudaEventCreate
#define hipEventCreateWithFlags cudaEventCreateWithFlags
#define hipEventDestroy cudaEventDestroy
#define hipEventRecord cudaEventRecord
#define hipEventSynchronize cudaEventSynchronize
#define hipEventElapsedTime cudaEventElapsedTime
#define hipOccupancyMaxActiveBlocksPerMultiprocessor cudaOccupancyMaxActiveBlocksPerMultiprocessor
#define hipLaunchKernelGGL(kernel, grid, block, shared, stream, ...)                            \
    kernel<<<(grid), (block), (shared), (stream)>>>(__VA_ARGS__)
#endif
#endif

/* ==== HIP's legacy coordinates where HIP's own headers are not in (clang without ROCm, and a
 * .hip file on the cuda backend): hipThreadIdx_x & co. as hip_runtime.h defines them ======== */
#if !defined(KL_CPU) && !defined(hipThreadIdx_x) && (defined(KL_HIP_WHOLE) || defined(KL_HIP_SOURCE))
#define hipThreadIdx_x (threadIdx.x)
#define hipThreadIdx_y (threadIdx.y)
#define hipThreadIdx_z (threadIdx.z)
#define hipBlockIdx_x (blockIdx.x)
#define hipBlockIdx_y (blockIdx.y)
#define hipBlockIdx_z (blockIdx.z)
#define hipBlockDim_x (blockDim.x)
#define hipBlockDim_y (blockDim.y)
#define hipBlockDim_z (blockDim.z)
#define hipGridDim_x (gridDim.x)
#define hipGridDim_y (gridDim.y)
#define hipGridDim_z (gridDim.z)
#endif
/* ==== end of the legacy coordinates ========================================================= */

/* ==== cuComplex.h and hip/hip_complex.h (the engine drops their include lines where kladder's
 * headers serve: the cpu backend, clang without HIP headers) ================================
 * The single and double complex types are float2 and double2, as the vendors' are, with the
 * vendors' functions: cuCmulf and cuCdivf compute as CUDA's do (the division scaled by the
 * larger of |re| and |im| of the divisor, so that it neither overflows nor underflows where the
 * quotient is representable), cuCabsf as hypotf. hipFloatComplex and its functions are the
 * same, under HIP's names. */
#if defined(KL_CPU) || (defined(KL_HIP_WHOLE) && defined(KL_HIP_BARE))
#define KL_CPLX_HD __host__ __device__ static inline
typedef float2 cuFloatComplex;
typedef double2 cuDoubleComplex;
typedef cuFloatComplex cuComplex;
#define KL_CPLX_FNS(T, R, S, F, D)                                                               \
    KL_CPLX_HD R F##real##S(T z) { return z.x; }                                                 \
    KL_CPLX_HD R F##imag##S(T z) { return z.y; }                                                 \
    KL_CPLX_HD T F##onj##S(T z) { return D(z.x, -z.y); }                                         \
    KL_CPLX_HD T F##add##S(T a, T b) { return D(a.x + b.x, a.y + b.y); }                         \
    KL_CPLX_HD T F##sub##S(T a, T b) { return D(a.x - b.x, a.y - b.y); }                         \
    KL_CPLX_HD T F##mul##S(T a, T b) { return D(a.x * b.x - a.y * b.y, a.x * b.y + a.y * b.x); } \
    KL_CPLX_HD T F##div##S(T a, T b)                                                             \
    {                                                                                            \
        R s = (R)(b.x < 0 ? -b.x : b.x) + (R)(b.y < 0 ? -b.y : b.y), inv = (R)1 / s;             \
        R ax = a.x * inv, ay = a.y * inv, bx = b.x * inv, by = b.y * inv;                        \
        R q = (R)1 / (bx * bx + by * by);                                                        \
        return D((ax * bx + ay * by) * q, (ay * bx - ax * by) * q);                              \
    }                                                                                            \
    KL_CPLX_HD R F##abs##S(T z) { return (R)kl_cplx_hypot(z.x, z.y); }                           \
    KL_CPLX_HD T F##fma##S(T a, T b, T c)                                                        \
    {                                                                                            \
        return D(a.x * b.x - a.y * b.y + c.x, a.x * b.y + a.y * b.x + c.y);                      \
    }
/* |a + bi| scaled by the larger part, so that it neither overflows nor underflows where the
 * result is representable; an infinite or zero part gives the sum (inf, or the other part) */
template <typename R>
KL_CPLX_HD R kl_cplx_hypot(R a, R b)
{
    a = a < 0 ? -a : a;
    b = b < 0 ? -b : b;
    const R v = a > b ? a : b, w = a > b ? b : a;
    if (v == 0 || v - v != 0 || w - w != 0)
        return v + w;
    const R t = w / v;
    return v * sqrt(1 + t * t);
}
KL_CPLX_HD cuFloatComplex make_cuFloatComplex(float r, float i) { return make_float2(r, i); }
KL_CPLX_HD cuDoubleComplex make_cuDoubleComplex(double r, double i) { return make_double2(r, i); }
KL_CPLX_HD cuComplex make_cuComplex(float r, float i) { return make_float2(r, i); }
/* cuCrealf cuCimagf cuConjf cuCaddf cuCsubf cuCmulf cuCdivf cuCabsf cuCfmaf, and without f */
KL_CPLX_FNS(cuFloatComplex, float, f, cuC, make_float2)
KL_CPLX_FNS(cuDoubleComplex, double, , cuC, make_double2)
KL_CPLX_HD cuDoubleComplex cuComplexFloatToDouble(cuFloatComplex z) { return make_double2(z.x, z.y); }
KL_CPLX_HD cuFloatComplex cuComplexDoubleToFloat(cuDoubleComplex z) { return make_float2((float)z.x, (float)z.y); }
typedef float2 hipFloatComplex;
typedef double2 hipDoubleComplex;
typedef hipFloatComplex hipComplex;
KL_CPLX_HD hipFloatComplex make_hipFloatComplex(float r, float i) { return make_float2(r, i); }
KL_CPLX_HD hipDoubleComplex make_hipDoubleComplex(double r, double i) { return make_double2(r, i); }
KL_CPLX_HD hipComplex make_hipComplex(float r, float i) { return make_float2(r, i); }
KL_CPLX_FNS(hipFloatComplex, float, f, hipC, make_float2)
KL_CPLX_FNS(hipDoubleComplex, double, , hipC, make_double2)
KL_CPLX_HD hipDoubleComplex hipComplexFloatToDouble(hipFloatComplex z) { return make_double2(z.x, z.y); }
KL_CPLX_HD hipFloatComplex hipComplexDoubleToFloat(hipDoubleComplex z) { return make_float2((float)z.x, (float)z.y); }
#undef KL_CPLX_FNS
#endif
/* ==== end of the complex numbers ============================================================= */

/* ==== the API inventory's unsupported names (cpu backend) ===================================
 * data/api/hip_api.tsv lists HIP's device and host API from HIP's own headers
 * (scripts/api_inventory.py); what kladder's headers above do not implement is declared here,
 * so that a kernel that uses it is refused with the error "`NAME` is not supported on the cpu
 * backend" at the line of the use (the host compiler reports a call to a function declared
 * with the error attribute where the call is, once it is compiled; a template never
 * instantiated, or a call optimised away, is no error). The generated block is rewritten by the
 * script; tests/unitsh/api_coverage.sh checks every name. */
#if defined(KL_CPU)
/* The value an unsupported call is taken to return, so that the expression around the call
 * compiles and the one error is the attribute's: the pointee of a first pointer argument (an
 * atomic's old value), else the first argument's type (a math function), else int. */
template <typename... A>
struct kl_cpu_unsupported_ret {
    typedef int type;
};
template <typename A0, typename... A>
struct kl_cpu_unsupported_ret<A0, A...> {
    typedef typename std::decay<A0>::type D;
    typedef typename std::conditional<std::is_pointer<D>::value, typename std::remove_pointer<D>::type,
                                      D>::type type;
};
#define KL_CPU_UNSUPPORTED_MSG(name) "`" name "` is not supported on the cpu backend"
#define KL_CPU_UNSUPPORTED(name)                                                                \
    template <typename... A>                                                                    \
    typename kl_cpu_unsupported_ret<A...>::type name(A &&...)                                   \
        __attribute__((error(KL_CPU_UNSUPPORTED_MSG(#name))));
/* a function whose value is of a type named here */
#define KL_CPU_UNSUPPORTED_RET(name, ret)                                                       \
    template <typename... A>                                                                    \
    ret name(A &&...) __attribute__((error(KL_CPU_UNSUPPORTED_MSG(#name))));
/* a type: an object of it cannot be made (its members likewise refused where called) */
#define KL_CPU_UNSUPPORTED_TYPE(name, ...)                                                      \
    struct name {                                                                               \
        template <typename... A>                                                                \
        name(A &&...) __attribute__((error(KL_CPU_UNSUPPORTED_MSG(#name))));                    \
        __VA_ARGS__                                                                             \
    };
#define KL_CPU_UNSUPPORTED_MEMBER(cls, name)                                                    \
    template <typename... A>                                                                    \
    int name(A &&...) const __attribute__((error(KL_CPU_UNSUPPORTED_MSG(#cls "::" #name))));
#define KL_CPU_UNSUPPORTED_OVERLOAD(name, ret, params)                                          \
    ret name params __attribute__((error(KL_CPU_UNSUPPORTED_MSG(#name #params))));
#endif
/* ---- api inventory: generated by scripts/api_inventory.py, do not edit ---- */
#if defined(KL_CPU) && !defined(KL_API_HAND_ONLY)
KL_CPU_UNSUPPORTED(__named_sync)
KL_CPU_UNSUPPORTED(__local_to_generic)
KL_CPU_UNSUPPORTED(__amdgcn_get_dynamicgroupbaseptr)
KL_CPU_UNSUPPORTED(__assertfail)
KL_CPU_UNSUPPORTED(__work_group_barrier)
KL_CPU_UNSUPPORTED(__barrier)
KL_CPU_UNSUPPORTED(__smid)
KL_CPU_UNSUPPORTED(surf1Dread)
KL_CPU_UNSUPPORTED(surf1Dwrite)
KL_CPU_UNSUPPORTED(surf2Dread)
KL_CPU_UNSUPPORTED(surf2Dwrite)
KL_CPU_UNSUPPORTED(surf3Dread)
KL_CPU_UNSUPPORTED(surf3Dwrite)
KL_CPU_UNSUPPORTED(surf1DLayeredread)
KL_CPU_UNSUPPORTED(surf1DLayeredwrite)
KL_CPU_UNSUPPORTED(surf2DLayeredread)
KL_CPU_UNSUPPORTED(surf2DLayeredwrite)
KL_CPU_UNSUPPORTED(surfCubemapread)
KL_CPU_UNSUPPORTED(surfCubemapwrite)
KL_CPU_UNSUPPORTED(surfCubemapLayeredread)
KL_CPU_UNSUPPORTED(surfCubemapLayeredwrite)
KL_CPU_UNSUPPORTED(tex1DLayered)
KL_CPU_UNSUPPORTED(tex2DLayered)
KL_CPU_UNSUPPORTED(texCubemap)
KL_CPU_UNSUPPORTED(tex1DLod)
KL_CPU_UNSUPPORTED(tex2DLod)
KL_CPU_UNSUPPORTED(tex1DLayeredLod)
KL_CPU_UNSUPPORTED(tex2DLayeredLod)
KL_CPU_UNSUPPORTED(tex3DLod)
KL_CPU_UNSUPPORTED(texCubemapLod)
KL_CPU_UNSUPPORTED(texCubemapLayered)
KL_CPU_UNSUPPORTED(texCubemapLayeredLod)
KL_CPU_UNSUPPORTED(texCubemapGrad)
KL_CPU_UNSUPPORTED(texCubemapLayeredGrad)
KL_CPU_UNSUPPORTED(tex1DGrad)
KL_CPU_UNSUPPORTED(tex2DGrad)
KL_CPU_UNSUPPORTED(tex1DLayeredGrad)
KL_CPU_UNSUPPORTED(tex2DLayeredGrad)
KL_CPU_UNSUPPORTED(tex3DGrad)
KL_CPU_UNSUPPORTED(tex2Dgather)
KL_CPU_UNSUPPORTED(amd_mixed_dot)
namespace cooperative_groups {
KL_CPU_UNSUPPORTED_TYPE(multi_grid_group, KL_CPU_UNSUPPORTED_MEMBER(multi_grid_group, num_grids) KL_CPU_UNSUPPORTED_MEMBER(multi_grid_group, grid_rank) KL_CPU_UNSUPPORTED_MEMBER(multi_grid_group, thread_rank) KL_CPU_UNSUPPORTED_MEMBER(multi_grid_group, is_valid) KL_CPU_UNSUPPORTED_MEMBER(multi_grid_group, sync))
KL_CPU_UNSUPPORTED_TYPE(grid_group, KL_CPU_UNSUPPORTED_MEMBER(grid_group, thread_rank) KL_CPU_UNSUPPORTED_MEMBER(grid_group, is_valid) KL_CPU_UNSUPPORTED_MEMBER(grid_group, sync))
KL_CPU_UNSUPPORTED_TYPE(coalesced_group, KL_CPU_UNSUPPORTED_MEMBER(coalesced_group, size) KL_CPU_UNSUPPORTED_MEMBER(coalesced_group, thread_rank) KL_CPU_UNSUPPORTED_MEMBER(coalesced_group, sync) KL_CPU_UNSUPPORTED_MEMBER(coalesced_group, shfl) KL_CPU_UNSUPPORTED_MEMBER(coalesced_group, shfl_down) KL_CPU_UNSUPPORTED_MEMBER(coalesced_group, shfl_up))
KL_CPU_UNSUPPORTED_RET(this_multi_grid, multi_grid_group)
KL_CPU_UNSUPPORTED_RET(this_grid, grid_group)
KL_CPU_UNSUPPORTED_RET(coalesced_threads, coalesced_group)
}
#endif
/* ---- api inventory: end of the generated block ---- */
/* ==== end of the API inventory's block ======================================================= */

#endif /* KL_VENDOR_H */
