/* kl_exec_rt.h — the CUDA and HIP host runtime for `kladder exec`, on the cpu emulator.
 *
 * `kladder exec FILE.cu` compiles a whole translation unit as a plain source (kernels/kl_host.h
 * declares the vendors' host API as stubs that answer "not supported") and then RUNS its main().
 * For that compile the engine defines KL_EXEC and puts this file after kl_host.h: the stubs of
 * what is implemented here are left out there, and a launch `k<<<grid, block, shared,
 * stream>>>(args)` is written `kl_exec_launcher(k, "k", __FILE__, __LINE__, grid, block,
 * shared, stream)(args)` (engine/compile/plain_source.c; hipLaunchKernelGGL is the same).
 *
 * Memory, copies and launches go to kladder through one table of function pointers that kladder
 * fills after loading the module (kl_exec_api, engine/prog/prog_rt.c): device allocations carry
 * guards and sentinels there, a copy is checked against the allocations it touches, and a launch
 * runs on the cpu backend's block scheduler under the chosen schedule. Everything is
 * synchronous: a stream is the null stream, an event is a host clock reading.
 *
 * With KL_EXEC_ABI_ONLY (kladder's own C side) only the table's C declaration is read. */
#ifndef KL_EXEC_RT_H
#define KL_EXEC_RT_H

#define KL_EXEC_ABI_VERSION 2

#ifdef __cplusplus
extern "C" {
#endif
struct kl_cpu_thread;
struct kl_cpu_sig;
/* Every call answers 0 or a cudaError_t value (HIP's share them for these calls). */
struct kl_exec_api {
    int abi;  /* KL_EXEC_ABI_VERSION */
    int wave; /* the emulated wave width: 32, or 64 */
    /* host: 0 device memory, 1 pinned host memory, 2 managed memory */
    int (*alloc)(void **p, unsigned long bytes, int host, const char *file, int line);
    int (*release)(void *p, int host, const char *file, int line);
    /* kind: cudaMemcpyKind's values */
    int (*copy)(void *dst, const void *src, unsigned long bytes, int kind, const char *file,
                int line);
    int (*fill)(void *dst, int value, unsigned long bytes, const char *file, int line);
    /* entry runs each emulated thread with args (args[nargs] is the kernel's address, which
     * entry calls); sig says the sizes of the arguments, that address included */
    int (*launch)(void (*entry)(struct kl_cpu_thread *, void **), const struct kl_cpu_sig *sig,
                  void **args, const unsigned grid[3], const unsigned block[3],
                  unsigned long shared, const char *kernel, const char *file, int line);
    /* checks the allocations' sentinels now (a synchronisation point) */
    int (*sync)(const char *file, int line);
    /* a __device__ or __constant__ variable of size bytes at sym, named as the call spelled it:
     * made known as device memory (copies may name addresses inside it) */
    void (*symbol)(void *sym, unsigned long size, const char *name);
    /* count bytes between the symbol at byte offset and buf (to_symbol: buf is the source),
     * checked against the symbol's size and, by kind, buf's allocation */
    int (*symcopy)(void *sym, unsigned long size, const char *name, unsigned long offset,
                   void *buf, unsigned long count, int to_symbol, int kind, const char *file,
                   int line);
    /* height rows of width bytes, pitch bytes apart on each side (cudaMemcpy2D, cudaMemset2D) */
    int (*copy2d)(void *dst, unsigned long dpitch, const void *src, unsigned long spitch,
                  unsigned long width, unsigned long height, int kind, const char *file,
                  int line);
    int (*fill2d)(void *dst, unsigned long pitch, int value, unsigned long width,
                  unsigned long height, const char *file, int line);
};
#ifdef __cplusplus
}
#endif

#if defined(KL_EXEC) && !defined(KL_EXEC_ABI_ONLY)
#include <string.h>
#include <time.h>
#include <type_traits>
#include <utility>

extern "C" __attribute__((visibility("default"))) const struct kl_exec_api *kl_exec_api;
const struct kl_exec_api *kl_exec_api = nullptr;

/* The emulated thread running on this OS thread, for a fault's report: block x y z, thread x y
 * z; 0 when no kernel thread runs here. */
extern "C" __attribute__((visibility("default"))) int kl_exec_current(unsigned out[6]);
int kl_exec_current(unsigned out[6])
{
    struct kl_cpu_thread *me = kl_cpu_cur;
    if (!me)
        return 0;
    out[0] = me->bid.x, out[1] = me->bid.y, out[2] = me->bid.z;
    out[3] = me->tid.x, out[4] = me->tid.y, out[5] = me->tid.z;
    return 1;
}

static int kl_exec_last_error;
static inline int kl_exec_note(int e)
{
    if (e)
        kl_exec_last_error = e;
    return e;
}

/* ---- launches ----------------------------------------------------------------------------- */
/* Not instrumented: until kl_cpu_invoke enters the thread, this OS thread's emulated-thread
 * pointer may hold a poisoned block storage's garbage, which an access hook would follow. */
template <typename... P>
static __attribute__((no_sanitize_thread)) void kl_exec_tramp(struct kl_cpu_thread *self,
                                                              void **args)
{
    void (*k)(P...) = *(void (**)(P...))args[sizeof...(P)];
    kl_cpu_invoke(k, self, args);
}

/* Runs k over the grid with args[i] pointing at its i-th argument, args[sizeof...(P)] at k. */
template <typename... P>
static inline int kl_exec_run(void (*k)(P...), const char *name, const char *file, int line,
                              dim3 grid, dim3 block, unsigned long shared, void **args)
{
    static_assert(sizeof...(P) + 1 <= KL_CPU_MAX_ARGS, "too many kernel arguments");
    static const struct kl_cpu_sig sig = {KL_CPU_ABI_VERSION, (int)sizeof...(P) + 1,
                                          {(unsigned)sizeof(P)..., (unsigned)sizeof(void *)}};
    (void)k;
    const unsigned g[3] = {grid.x, grid.y, grid.z}, b[3] = {block.x, block.y, block.z};
    int e = kl_exec_note(kl_exec_api->launch(&kl_exec_tramp<P...>, &sig, args, g, b, shared,
                                             name, file, line));
    /* host code again: the schedulers leave this OS thread's emulated-thread pointer behind
     * (the pct one swaps the module's thread storage per block), and the access hooks of a
     * "+access" build would take host code for that thread */
    kl_cpu_cur = nullptr;
    return e;
}

template <typename... P>
struct kl_exec_launch_t {
    void (*k)(P...);
    const char *name, *file;
    int line;
    dim3 grid, block;
    unsigned long shared;
    /* the arguments convert to the kernel's parameters as in a call */
    void operator()(P... p) const
    {
        void (*kp)(P...) = k;
        void *args[sizeof...(P) + 1] = {(void *)&p..., (void *)&kp};
        kl_exec_run(k, name, file, line, grid, block, shared, args);
    }
};

/* A template kernel launched with its template arguments deduced (`k<<<g, b>>>(x)`): lam is
 * `[](auto... a) { k(a...); }` (engine/compile/plain_source.c writes it). The call's arguments,
 * decayed, are the parameters of lam's instance, which runs as the kernel: the call k(a...)
 * inside it picks k's instance and converts the arguments as the launch would have. */
template <typename L>
struct kl_exec_deduced_t {
    L lam;
    const char *name, *file;
    int line;
    dim3 grid, block;
    unsigned long shared;
    template <typename... A>
    void operator()(A &&...a) const
    {
        void (*k)(typename std::decay<A>::type...) = lam;
        kl_exec_launch_t<typename std::decay<A>::type...>{k, name, file, line, grid, block,
                                                         shared}(std::forward<A>(a)...);
    }
};
template <typename L, typename S = int>
static inline kl_exec_deduced_t<L> kl_exec_launcher_deduced(L lam, const char *name,
                                                            const char *file, int line,
                                                            dim3 grid, dim3 block,
                                                            unsigned long shared = 0,
                                                            S stream = S())
{
    (void)stream;
    return kl_exec_deduced_t<L>{lam, name, file, line, grid, block, shared};
}

/* cudaLaunchKernel and hipLaunchKernel: the kernel as itself (CUDA's C++ form), so that its
 * parameter types say what each args[i] points at, or as a void pointer to a kernel the file
 * defines (below); a template kernel's instance as a void pointer answers "not supported". */
template <typename... P, typename... S>
static inline int kl_exec_launch_kernel(void (*k)(P...), const char *name, const char *file,
                                        int line, dim3 grid, dim3 block, void **args,
                                        unsigned long shared = 0, S...)
{
    if (!args && sizeof...(P))
        return kl_exec_note(1);
    void (*kp)(P...) = k;
    void *all[sizeof...(P) + 1];
    for (unsigned i = 0; i < sizeof...(P); i++)
        all[i] = args[i];
    all[sizeof...(P)] = (void *)&kp;
    return kl_exec_run(k, name, file, line, grid, block, shared, all);
}
/* The kernels of the file by address (engine/compile/plain_source.c registers each plain
 * kernel after its body): a kernel passed as a void pointer is launched with its own types. */
struct kl_exec_kernel_reg {
    const void *k;
    const char *name;
    int (*launch)(const void *k, const char *name, const char *file, int line, dim3 grid,
                  dim3 block, void **args, unsigned long shared);
};
static struct kl_exec_kernel_reg kl_exec_kernels[512];
static unsigned kl_exec_nkernels;
template <typename... P>
static int kl_exec_launch_typed(const void *k, const char *name, const char *file, int line,
                                dim3 grid, dim3 block, void **args, unsigned long shared)
{
    return kl_exec_launch_kernel((void (*)(P...))k, name, file, line, grid, block, args, shared);
}
template <typename... P>
static inline int kl_exec_register(void (*k)(P...), const char *name)
{
    if (kl_exec_nkernels < sizeof kl_exec_kernels / sizeof *kl_exec_kernels)
        kl_exec_kernels[kl_exec_nkernels++] = {(const void *)k, name, &kl_exec_launch_typed<P...>};
    return 0;
}
template <typename... S>
static inline int kl_exec_launch_kernel(const void *k, const char *, const char *file, int line,
                                        dim3 grid, dim3 block, void **args,
                                        unsigned long shared = 0, S...)
{
    for (unsigned i = 0; i < kl_exec_nkernels; i++)
        if (kl_exec_kernels[i].k == k)
            return kl_exec_kernels[i].launch(k, kl_exec_kernels[i].name, file, line, grid, block,
                                             args, shared);
    return kl_exec_note(801); /* a template's instance, or a kernel the file does not define */
}
#define cudaLaunchKernel(k, ...) ((cudaError_t)kl_exec_launch_kernel((k), #k, KL_EXEC_HERE, __VA_ARGS__))
#define hipLaunchKernel(k, ...) ((hipError_t)kl_exec_launch_kernel((k), #k, KL_EXEC_HERE, __VA_ARGS__))

template <typename S = int, typename... P>
static inline kl_exec_launch_t<P...> kl_exec_launcher(void (*k)(P...), const char *name,
                                                      const char *file, int line, dim3 grid,
                                                      dim3 block, unsigned long shared = 0,
                                                      S stream = S())
{
    (void)stream; /* every stream is the null stream: work runs when it is issued */
    return kl_exec_launch_t<P...>{k, name, file, line, grid, block, shared};
}

/* ---- memory ------------------------------------------------------------------------------ */
static inline int kl_exec_alloc(void **p, unsigned long bytes, int host, const char *file,
                                int line)
{
    if (!p)
        return kl_exec_note(1);
    return kl_exec_note(kl_exec_api->alloc(p, bytes, host, file, line));
}
static inline int kl_exec_release(const void *p, int host, const char *file, int line)
{
    return kl_exec_note(kl_exec_api->release((void *)p, host, file, line));
}
static inline int kl_exec_copy(void *dst, const void *src, unsigned long bytes, int kind,
                               const char *file, int line)
{
    return kl_exec_note(kl_exec_api->copy(dst, src, bytes, kind, file, line));
}
static inline int kl_exec_fill(void *dst, int value, unsigned long bytes, const char *file,
                               int line)
{
    return kl_exec_note(kl_exec_api->fill(dst, value, bytes, file, line));
}
static inline int kl_exec_sync(const char *file, int line)
{
    return kl_exec_note(kl_exec_api->sync(file, line));
}

/* Rows padded to 512 bytes, as the vendors' runtimes pad them (the padding is never written:
 * a kernel that reads it reads never-written bytes). */
static inline int kl_exec_alloc_pitch(void **p, size_t *pitch, size_t width, size_t height,
                                      const char *file, int line)
{
    if (!p || !pitch)
        return kl_exec_note(1);
    *pitch = (width + 511) / 512 * 512;
    return kl_exec_alloc(p, (unsigned long)(*pitch * height), 0, file, line);
}
template <typename... S>
static inline int kl_exec_copy2d(const char *file, int line, void *dst, size_t dpitch,
                                 const void *src, size_t spitch, size_t width, size_t height,
                                 int kind, S...)
{
    return kl_exec_note(kl_exec_api->copy2d(dst, dpitch, src, spitch, width, height, kind, file,
                                            line));
}
template <typename... S>
static inline int kl_exec_fill2d(const char *file, int line, void *dst, size_t pitch, int value,
                                 size_t width, size_t height, S...)
{
    return kl_exec_note(kl_exec_api->fill2d(dst, pitch, value, width, height, file, line));
}

#define KL_EXEC_HERE __FILE__, __LINE__
#define cudaMallocPitch(p, pitch, w, h)                                                          \
    ((cudaError_t)kl_exec_alloc_pitch((void **)(p), (pitch), (w), (h), KL_EXEC_HERE))
#define cudaMemcpy2D(...) ((cudaError_t)kl_exec_copy2d(KL_EXEC_HERE, __VA_ARGS__))
#define cudaMemcpy2DAsync(...) ((cudaError_t)kl_exec_copy2d(KL_EXEC_HERE, __VA_ARGS__))
#define cudaMemset2D(...) ((cudaError_t)kl_exec_fill2d(KL_EXEC_HERE, __VA_ARGS__))
#define cudaMemset2DAsync(...) ((cudaError_t)kl_exec_fill2d(KL_EXEC_HERE, __VA_ARGS__))
#define hipMallocPitch(p, pitch, w, h)                                                           \
    ((hipError_t)kl_exec_alloc_pitch((void **)(p), (pitch), (w), (h), KL_EXEC_HERE))
#define hipMemcpy2D(...) ((hipError_t)kl_exec_copy2d(KL_EXEC_HERE, __VA_ARGS__))
#define hipMemcpy2DAsync(...) ((hipError_t)kl_exec_copy2d(KL_EXEC_HERE, __VA_ARGS__))
#define hipMemset2D(...) ((hipError_t)kl_exec_fill2d(KL_EXEC_HERE, __VA_ARGS__))
#define hipMemset2DAsync(...) ((hipError_t)kl_exec_fill2d(KL_EXEC_HERE, __VA_ARGS__))
#define cudaMalloc(p, n) ((cudaError_t)kl_exec_alloc((void **)(p), (n), 0, KL_EXEC_HERE))
#define cudaMallocManaged(p, n, ...) ((cudaError_t)kl_exec_alloc((void **)(p), (n), 2, KL_EXEC_HERE))
#define cudaMallocHost(p, n, ...) ((cudaError_t)kl_exec_alloc((void **)(p), (n), 1, KL_EXEC_HERE))
#define cudaHostAlloc(p, n, ...) ((cudaError_t)kl_exec_alloc((void **)(p), (n), 1, KL_EXEC_HERE))
#define cudaFree(p) ((cudaError_t)kl_exec_release((p), 0, KL_EXEC_HERE))
#define cudaFreeHost(p) ((cudaError_t)kl_exec_release((p), 1, KL_EXEC_HERE))
#define cudaMemcpy(d, s, n, k) ((cudaError_t)kl_exec_copy((d), (s), (n), (int)(k), KL_EXEC_HERE))
#define cudaMemcpyAsync(d, s, n, k, ...)                                                       \
    ((cudaError_t)kl_exec_copy((d), (s), (n), (int)(k), KL_EXEC_HERE))
#define cudaMemset(d, v, n) ((cudaError_t)kl_exec_fill((d), (v), (n), KL_EXEC_HERE))
#define cudaMemsetAsync(d, v, n, ...) ((cudaError_t)kl_exec_fill((d), (v), (n), KL_EXEC_HERE))
#define cudaDeviceSynchronize() ((cudaError_t)kl_exec_sync(KL_EXEC_HERE))
#define cudaStreamSynchronize(s) ((void)(s), (cudaError_t)kl_exec_sync(KL_EXEC_HERE))
#define cudaEventSynchronize(e) ((void)(e), (cudaError_t)kl_exec_sync(KL_EXEC_HERE))

#define hipMalloc(p, n) ((hipError_t)kl_exec_alloc((void **)(p), (n), 0, KL_EXEC_HERE))
#define hipMallocManaged(p, n, ...) ((hipError_t)kl_exec_alloc((void **)(p), (n), 2, KL_EXEC_HERE))
#define hipHostMalloc(p, n, ...) ((hipError_t)kl_exec_alloc((void **)(p), (n), 1, KL_EXEC_HERE))
#define hipFree(p) ((hipError_t)kl_exec_release((p), 0, KL_EXEC_HERE))
#define hipHostFree(p) ((hipError_t)kl_exec_release((p), 1, KL_EXEC_HERE))
#define hipMemcpy(d, s, n, k) ((hipError_t)kl_exec_copy((d), (s), (n), (int)(k), KL_EXEC_HERE))
#define hipMemcpyAsync(d, s, n, k, ...)                                                        \
    ((hipError_t)kl_exec_copy((d), (s), (n), (int)(k), KL_EXEC_HERE))
#define hipMemset(d, v, n) ((hipError_t)kl_exec_fill((d), (v), (n), KL_EXEC_HERE))
#define hipMemsetAsync(d, v, n, ...) ((hipError_t)kl_exec_fill((d), (v), (n), KL_EXEC_HERE))
#define hipDeviceSynchronize() ((hipError_t)kl_exec_sync(KL_EXEC_HERE))
#define hipStreamSynchronize(s) ((void)(s), (hipError_t)kl_exec_sync(KL_EXEC_HERE))
#define hipEventSynchronize(e) ((void)(e), (hipError_t)kl_exec_sync(KL_EXEC_HERE))

/* ---- __device__ and __constant__ symbols ----------------------------------------------------
 * On the emulator a symbol is the variable itself (host memory that kernels read and write).
 * The symbol argument is the variable, as CUDA's C++ API takes it (`cudaMemcpyToSymbol(c_taps,
 * h, n)`), or HIP_SYMBOL(variable); the kind defaults as the vendors' do; a stream after the
 * kind (the ...Async calls) is ignored: everything is synchronous. */
#ifndef HIP_SYMBOL
#define HIP_SYMBOL(x) x
#endif
template <typename T, typename... S>
static inline int kl_exec_to_symbol(T &sym, const char *name, const char *file, int line,
                                    const void *src, size_t count, size_t offset = 0,
                                    int kind = 1 /* host to device */, S...)
{
    static_assert(!std::is_const<T>::value, "kladder exec: the symbol of cudaMemcpyToSymbol is "
                  "the variable itself (a symbol named by a string, or a const one, is no such)");
    return kl_exec_note(kl_exec_api->symcopy((void *)&sym, sizeof(T), name, offset, (void *)src,
                                             count, 1, kind, file, line));
}
template <typename T, typename... S>
static inline int kl_exec_from_symbol(T &sym, const char *name, const char *file, int line,
                                      void *dst, size_t count, size_t offset = 0,
                                      int kind = 2 /* device to host */, S...)
{
    static_assert(!std::is_same<typename std::remove_extent<T>::type, const char>::value ||
                      !std::is_array<T>::value,
                  "kladder exec: the symbol of cudaMemcpyFromSymbol is the variable itself, not "
                  "its name as a string");
    return kl_exec_note(kl_exec_api->symcopy((void *)&sym, sizeof(T), name, offset, dst, count,
                                             0, kind, file, line));
}
template <typename T>
static inline int kl_exec_symbol_address(void **out, T &sym, const char *name)
{
    if (!out)
        return kl_exec_note(1);
    kl_exec_api->symbol((void *)&sym, sizeof(T), name);
    *out = (void *)&sym;
    return 0;
}
template <typename T>
static inline int kl_exec_symbol_size(size_t *out, T &)
{
    if (!out)
        return kl_exec_note(1);
    *out = sizeof(T);
    return 0;
}
#define cudaMemcpyToSymbol(sym, ...)                                                             \
    ((cudaError_t)kl_exec_to_symbol((sym), #sym, KL_EXEC_HERE, __VA_ARGS__))
#define cudaMemcpyToSymbolAsync(sym, ...)                                                        \
    ((cudaError_t)kl_exec_to_symbol((sym), #sym, KL_EXEC_HERE, __VA_ARGS__))
#define cudaMemcpyFromSymbol(dst, sym, ...)                                                      \
    ((cudaError_t)kl_exec_from_symbol((sym), #sym, KL_EXEC_HERE, (dst), __VA_ARGS__))
#define cudaMemcpyFromSymbolAsync(dst, sym, ...)                                                 \
    ((cudaError_t)kl_exec_from_symbol((sym), #sym, KL_EXEC_HERE, (dst), __VA_ARGS__))
#define cudaGetSymbolAddress(p, sym) ((cudaError_t)kl_exec_symbol_address((void **)(p), (sym), #sym))
#define cudaGetSymbolSize(p, sym) ((cudaError_t)kl_exec_symbol_size((p), (sym)))
#define hipMemcpyToSymbol(sym, ...)                                                              \
    ((hipError_t)kl_exec_to_symbol((sym), #sym, KL_EXEC_HERE, __VA_ARGS__))
#define hipMemcpyToSymbolAsync(sym, ...)                                                         \
    ((hipError_t)kl_exec_to_symbol((sym), #sym, KL_EXEC_HERE, __VA_ARGS__))
#define hipMemcpyFromSymbol(dst, sym, ...)                                                       \
    ((hipError_t)kl_exec_from_symbol((sym), #sym, KL_EXEC_HERE, (dst), __VA_ARGS__))
#define hipMemcpyFromSymbolAsync(dst, sym, ...)                                                  \
    ((hipError_t)kl_exec_from_symbol((sym), #sym, KL_EXEC_HERE, (dst), __VA_ARGS__))
#define hipGetSymbolAddress(p, sym) ((hipError_t)kl_exec_symbol_address((void **)(p), (sym), #sym))
#define hipGetSymbolSize(p, sym) ((hipError_t)kl_exec_symbol_size((p), (sym)))

/* ---- errors ------------------------------------------------------------------------------ */
static inline const char *kl_exec_error_name(int e, bool hip)
{
    switch (e) {
    case 0: return hip ? "hipSuccess" : "cudaSuccess";
    case 1: return hip ? "hipErrorInvalidValue" : "cudaErrorInvalidValue";
    case 2: return hip ? "hipErrorOutOfMemory" : "cudaErrorMemoryAllocation";
    case 9: return hip ? "hipErrorInvalidConfiguration" : "cudaErrorInvalidConfiguration";
    case 101: return hip ? "hipErrorInvalidDevice" : "cudaErrorInvalidDevice";
    case 801: return hip ? "hipErrorNotSupported" : "cudaErrorNotSupported";
    default: return hip ? "hipErrorUnknown" : "cudaErrorUnknown";
    }
}
static inline const char *kl_exec_error_string(int e)
{
    switch (e) {
    case 0: return "no error";
    case 1: return "invalid argument";
    case 2: return "out of memory";
    case 9: return "invalid configuration argument";
    case 101: return "invalid device ordinal";
    case 801: return "operation not supported (not emulated by kladder exec)";
    default: return "unknown error";
    }
}
static inline const char *cudaGetErrorString(cudaError_t e) { return kl_exec_error_string(e); }
static inline const char *cudaGetErrorName(cudaError_t e) { return kl_exec_error_name(e, false); }
static inline const char *hipGetErrorString(hipError_t e) { return kl_exec_error_string(e); }
static inline const char *hipGetErrorName(hipError_t e) { return kl_exec_error_name(e, true); }
static inline cudaError_t cudaGetLastError(void)
{
    int e = kl_exec_last_error;
    kl_exec_last_error = 0;
    return (cudaError_t)e;
}
static inline cudaError_t cudaPeekAtLastError(void) { return (cudaError_t)kl_exec_last_error; }
static inline hipError_t hipGetLastError(void) { return (hipError_t)cudaGetLastError(); }
static inline hipError_t hipPeekAtLastError(void) { return (hipError_t)kl_exec_last_error; }

/* ---- the device ---------------------------------------------------------------------------- */
static inline cudaError_t cudaSetDevice(int d) { return d == 0 ? cudaSuccess : cudaErrorInvalidDevice; }
static inline cudaError_t cudaGetDevice(int *d) { if (d) *d = 0; return cudaSuccess; }
static inline cudaError_t cudaGetDeviceCount(int *n) { if (n) *n = 1; return cudaSuccess; }
static inline cudaError_t cudaDeviceReset(void) { return (cudaError_t)kl_exec_sync(KL_EXEC_HERE); }
static inline hipError_t hipSetDevice(int d) { return d == 0 ? hipSuccess : hipErrorInvalidDevice; }
static inline hipError_t hipGetDevice(int *d) { if (d) *d = 0; return hipSuccess; }
static inline hipError_t hipGetDeviceCount(int *n) { if (n) *n = 1; return hipSuccess; }
static inline hipError_t hipDeviceReset(void) { return (hipError_t)kl_exec_sync(KL_EXEC_HERE); }

/* A plausible device of the emulated wave width (sizes of a mid-range GPU). */
template <typename Prop>
static inline void kl_exec_props(Prop *p, const char *name)
{
    __builtin_memset(p, 0, sizeof *p);
    __builtin_snprintf(p->name, sizeof p->name, "%s (wave %d)", name, kl_exec_api->wave);
    p->totalGlobalMem = (size_t)16 << 30;
    p->sharedMemPerBlock = 48 << 10;
    p->regsPerBlock = 65536;
    p->warpSize = kl_exec_api->wave;
    p->maxThreadsPerBlock = 1024;
    p->maxThreadsDim[0] = 1024, p->maxThreadsDim[1] = 1024, p->maxThreadsDim[2] = 64;
    p->maxGridSize[0] = 2147483647, p->maxGridSize[1] = 65535, p->maxGridSize[2] = 65535;
    p->clockRate = 1500000;
    p->totalConstMem = 65536;
    p->major = 8, p->minor = 0;
    p->multiProcessorCount = 8;
    p->l2CacheSize = 4 << 20;
    p->maxThreadsPerMultiProcessor = 2048;
    p->concurrentKernels = 1;
    p->memoryClockRate = 1000000, p->memoryBusWidth = 256;
    p->cooperativeLaunch = 1, p->managedMemory = 1;
    p->sharedMemPerBlockOptin = 96 << 10;
}
static inline cudaError_t cudaGetDeviceProperties(cudaDeviceProp *p, int d)
{
    if (!p || d != 0)
        return (cudaError_t)kl_exec_note(p ? 101 : 1);
    kl_exec_props(p, "kladder cpu emulator");
    p->sharedMemPerMultiprocessor = 100 << 10;
    p->regsPerMultiprocessor = 65536;
    p->maxBlocksPerMultiProcessor = 32;
    p->unifiedAddressing = 1;
    return cudaSuccess;
}
static inline hipError_t hipGetDeviceProperties(hipDeviceProp_t *p, int d)
{
    if (!p || d != 0)
        return (hipError_t)kl_exec_note(p ? 101 : 1);
    kl_exec_props(p, "kladder cpu emulator");
    p->maxSharedMemoryPerMultiProcessor = 64 << 10;
    __builtin_snprintf(p->gcnArchName, sizeof p->gcnArchName, "kladder-cpu-wave%d",
                       kl_exec_api->wave);
    return hipSuccess;
}
static inline cudaError_t cudaDeviceGetAttribute(int *v, cudaDeviceAttr a, int d)
{
    if (!v || d != 0)
        return (cudaError_t)kl_exec_note(1);
    cudaDeviceProp p;
    cudaGetDeviceProperties(&p, 0);
    switch (a) {
    case cudaDevAttrMaxThreadsPerBlock: *v = p.maxThreadsPerBlock; break;
    case cudaDevAttrMaxBlockDimX: *v = p.maxThreadsDim[0]; break;
    case cudaDevAttrMaxGridDimX: *v = p.maxGridSize[0]; break;
    case cudaDevAttrMaxSharedMemoryPerBlock: *v = (int)p.sharedMemPerBlock; break;
    case cudaDevAttrWarpSize: *v = p.warpSize; break;
    case cudaDevAttrClockRate: *v = p.clockRate; break;
    case cudaDevAttrMultiProcessorCount: *v = p.multiProcessorCount; break;
    case cudaDevAttrL2CacheSize: *v = p.l2CacheSize; break;
    case cudaDevAttrMaxThreadsPerMultiProcessor: *v = p.maxThreadsPerMultiProcessor; break;
    case cudaDevAttrComputeCapabilityMajor: *v = p.major; break;
    case cudaDevAttrComputeCapabilityMinor: *v = p.minor; break;
    case cudaDevAttrMaxSharedMemoryPerMultiprocessor: *v = (int)p.sharedMemPerMultiprocessor; break;
    case cudaDevAttrMaxSharedMemoryPerBlockOptin: *v = (int)p.sharedMemPerBlockOptin; break;
    case cudaDevAttrMaxBlockDimY: *v = p.maxThreadsDim[1]; break;
    case cudaDevAttrMaxBlockDimZ: *v = p.maxThreadsDim[2]; break;
    case cudaDevAttrMaxGridDimY: *v = p.maxGridSize[1]; break;
    case cudaDevAttrMaxGridDimZ: *v = p.maxGridSize[2]; break;
    case cudaDevAttrTotalConstantMemory: *v = (int)p.totalConstMem; break;
    case cudaDevAttrMaxRegistersPerBlock: *v = p.regsPerBlock; break;
    case cudaDevAttrMaxRegistersPerMultiprocessor: *v = p.regsPerMultiprocessor; break;
    case cudaDevAttrMaxBlocksPerMultiprocessor: *v = p.maxBlocksPerMultiProcessor; break;
    case cudaDevAttrMemoryClockRate: *v = p.memoryClockRate; break;
    case cudaDevAttrGlobalMemoryBusWidth: *v = p.memoryBusWidth; break;
    case cudaDevAttrMaxPitch: *v = 2147483647; break;
    case cudaDevAttrTextureAlignment: *v = 512; break;
    case cudaDevAttrTexturePitchAlignment: *v = 32; break;
    case cudaDevAttrSurfaceAlignment: *v = 512; break;
    case cudaDevAttrAsyncEngineCount: *v = 1; break;
    case cudaDevAttrSingleToDoublePrecisionPerfRatio: *v = 2; break;
    /* what this device can do: one device, host memory mappable and unified, managed memory
     * (it is host memory), cooperative launches, memory pools, stream priorities */
    case cudaDevAttrGpuOverlap: case cudaDevAttrCanMapHostMemory: case cudaDevAttrConcurrentKernels:
    case cudaDevAttrUnifiedAddressing: case cudaDevAttrManagedMemory:
    case cudaDevAttrConcurrentManagedAccess: case cudaDevAttrCooperativeLaunch:
    case cudaDevAttrStreamPrioritiesSupported: case cudaDevAttrGlobalL1CacheSupported:
    case cudaDevAttrLocalL1CacheSupported: case cudaDevAttrComputePreemptionSupported:
    case cudaDevAttrCanUseHostPointerForRegisteredMem: case cudaDevAttrHostRegisterSupported:
    case cudaDevAttrMemoryPoolsSupported:
        *v = 1;
        break;
    default:
        /* any other attribute the runtime knows (the compute mode: default, a kernel time
         * limit, ECC, TCC, PCI numbers, texture and surface limits, peer and NUMA features)
         * answers 0, as a plain discrete GPU without those features would; a number past the
         * enumeration is the runtime's invalid value */
        if ((int)a <= 0 || (int)a >= (int)cudaDevAttrMax)
            return (cudaError_t)kl_exec_note(1);
        *v = 0;
    }
    return cudaSuccess;
}
static inline hipError_t hipDeviceGetAttribute(int *v, hipDeviceAttribute_t a, int d)
{
    if (!v || d != 0)
        return (hipError_t)kl_exec_note(1);
    hipDeviceProp_t p;
    hipGetDeviceProperties(&p, 0);
    switch (a) {
    case hipDeviceAttributeMaxThreadsPerBlock: *v = p.maxThreadsPerBlock; break;
    case hipDeviceAttributeWarpSize: *v = p.warpSize; break;
    case hipDeviceAttributeMultiprocessorCount: *v = p.multiProcessorCount; break;
    case hipDeviceAttributeMaxSharedMemoryPerBlock: *v = (int)p.sharedMemPerBlock; break;
    case hipDeviceAttributeComputeCapabilityMajor: *v = p.major; break;
    case hipDeviceAttributeComputeCapabilityMinor: *v = p.minor; break;
    default: return (hipError_t)kl_exec_note(1);
    }
    return hipSuccess;
}

/* ---- streams and events: synchronous ------------------------------------------------------ */
struct CUstream_st { int unused; };
struct ihipStream_t { int unused; };
struct CUevent_st { double ms; };
struct ihipEvent_t { double ms; };
static inline double kl_exec_now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}
template <typename... A>
static inline cudaError_t cudaStreamCreate(cudaStream_t *s, A...) { if (!s) return cudaErrorInvalidValue; *s = new CUstream_st(); return cudaSuccess; }
template <typename... A>
static inline cudaError_t cudaStreamCreateWithFlags(cudaStream_t *s, A...) { return cudaStreamCreate(s); }
static inline cudaError_t cudaStreamDestroy(cudaStream_t s) { delete s; return cudaSuccess; }
template <typename... A>
static inline cudaError_t cudaEventCreate(cudaEvent_t *e, A...) { if (!e) return cudaErrorInvalidValue; *e = new CUevent_st(); return cudaSuccess; }
template <typename... A>
static inline cudaError_t cudaEventCreateWithFlags(cudaEvent_t *e, A...) { return cudaEventCreate(e); }
static inline cudaError_t cudaEventDestroy(cudaEvent_t e) { delete e; return cudaSuccess; }
template <typename... A>
static inline cudaError_t cudaEventRecord(cudaEvent_t e, A...) { if (!e) return cudaErrorInvalidValue; e->ms = kl_exec_now_ms(); return cudaSuccess; }
static inline cudaError_t cudaEventElapsedTime(float *ms, cudaEvent_t a, cudaEvent_t b) { if (!ms || !a || !b) return cudaErrorInvalidValue; *ms = (float)(b->ms - a->ms); return cudaSuccess; }
template <typename... A>
static inline hipError_t hipStreamCreate(hipStream_t *s, A...) { if (!s) return hipErrorInvalidValue; *s = new ihipStream_t(); return hipSuccess; }
template <typename... A>
static inline hipError_t hipStreamCreateWithFlags(hipStream_t *s, A...) { return hipStreamCreate(s); }
static inline hipError_t hipStreamDestroy(hipStream_t s) { delete s; return hipSuccess; }
template <typename... A>
static inline hipError_t hipEventCreate(hipEvent_t *e, A...) { if (!e) return hipErrorInvalidValue; *e = new ihipEvent_t(); return hipSuccess; }
template <typename... A>
static inline hipError_t hipEventCreateWithFlags(hipEvent_t *e, A...) { return hipEventCreate(e); }
static inline hipError_t hipEventDestroy(hipEvent_t e) { delete e; return hipSuccess; }
template <typename... A>
static inline hipError_t hipEventRecord(hipEvent_t e, A...) { if (!e) return hipErrorInvalidValue; e->ms = kl_exec_now_ms(); return hipSuccess; }
static inline hipError_t hipEventElapsedTime(float *ms, hipEvent_t a, hipEvent_t b) { if (!ms || !a || !b) return hipErrorInvalidValue; *ms = (float)(b->ms - a->ms); return hipSuccess; }

/* A kernel's memcpy, memmove and memset of a size the compiler does not know are calls into
 * the C library, which the access hooks never see: the bytes they wrote would count as never
 * written, and their accesses would go unguarded. From here on (the program's own text) the
 * names are these, which report both ranges as the hooks do and then call the library's; host
 * code passes through (kl_cpu_note ignores an access with no emulated thread running).
 * Object-like macros, so that std::memcpy and &memcpy name them too. */
static inline __attribute__((no_sanitize_thread)) void kl_exec_note_range(const void *p, size_t n,
                                                                          unsigned how,
                                                                          const void *pc)
{
    if (n)
        kl_cpu_note(p, n > 0xffffffffu ? 0xffffffffu : (unsigned)n, how, pc);
}
extern "C" {
static inline __attribute__((no_sanitize_thread, noinline)) void *
kl_exec_memcpy(void *d, const void *s, size_t n) noexcept
{
    kl_exec_note_range(s, n, KL_CPU_ACC_READ, __builtin_return_address(0));
    kl_exec_note_range(d, n, KL_CPU_ACC_WRITE, __builtin_return_address(0));
    return __builtin_memcpy(d, s, n);
}
static inline __attribute__((no_sanitize_thread, noinline)) void *
kl_exec_memmove(void *d, const void *s, size_t n) noexcept
{
    kl_exec_note_range(s, n, KL_CPU_ACC_READ, __builtin_return_address(0));
    kl_exec_note_range(d, n, KL_CPU_ACC_WRITE, __builtin_return_address(0));
    return __builtin_memmove(d, s, n);
}
static inline __attribute__((no_sanitize_thread, noinline)) void *
kl_exec_memset(void *d, int c, size_t n) noexcept
{
    kl_exec_note_range(d, n, KL_CPU_ACC_WRITE, __builtin_return_address(0));
    return __builtin_memset(d, c, n);
}
}
namespace std {
using ::kl_exec_memcpy;
using ::kl_exec_memmove;
using ::kl_exec_memset;
}
#define memcpy kl_exec_memcpy
#define memmove kl_exec_memmove
#define memset kl_exec_memset

/* The program's own code is exported (the module is built -fvisibility=hidden): kladder finds
 * its main() by name, and a fault's report names the kernel it was in. */
#pragma GCC visibility push(default)

/* Texture objects and arrays (the fetches: kernels/kl_host.h). An array is host memory of its
 * own, row after row, outside the guarded allocations (a kernel reaches it only through a
 * texture); a texture object is a copy of its descriptions. */
static inline cudaError_t cudaMallocArray(cudaArray_t *out, const struct cudaChannelFormatDesc *desc,
                                          size_t width, size_t height = 0, unsigned = 0)
{
    if (!out || !desc || !width)
        return cudaErrorInvalidValue;
    struct cudaArray *a = new struct cudaArray();
    a->desc = *desc;
    a->width = width, a->height = height, a->depth = 0;
    a->bytes = (size_t)(desc->x + desc->y + desc->z + desc->w) / 8;
    a->data = new unsigned char[a->bytes * width * (height ? height : 1)]();
    *out = a;
    return cudaSuccess;
}
static inline cudaError_t cudaFreeArray(cudaArray_t a)
{
    if (a) {
        delete[] a->data;
        delete a;
    }
    return cudaSuccess;
}
/* rows of width bytes from src (spitch apart) into the array at (wOffset bytes, hOffset) */
static inline cudaError_t cudaMemcpy2DToArray(cudaArray_t dst, size_t wOffset, size_t hOffset,
                                              const void *src, size_t spitch, size_t width,
                                              size_t height, enum cudaMemcpyKind)
{
    const size_t row = dst ? dst->width * dst->bytes : 0, rows = dst && dst->height ? dst->height : 1;
    if (!dst || !src || wOffset + width > row || hOffset + height > rows)
        return cudaErrorInvalidValue;
    for (size_t r = 0; r < height; r++)
        __builtin_memcpy(dst->data + (hOffset + r) * row + wOffset,
                         (const unsigned char *)src + r * spitch, width);
    return cudaSuccess;
}
static inline cudaError_t cudaMemcpyToArray(cudaArray_t dst, size_t wOffset, size_t hOffset,
                                            const void *src, size_t count, enum cudaMemcpyKind k)
{
    const size_t row = dst ? dst->width * dst->bytes : 0;
    if (!dst || !row)
        return cudaErrorInvalidValue;
    size_t done = 0;
    for (size_t r = hOffset; done < count; r++, wOffset = 0) { /* row by row from the offset */
        const size_t n = count - done < row - wOffset ? count - done : row - wOffset;
        cudaError_t e = cudaMemcpy2DToArray(dst, wOffset, r, (const unsigned char *)src + done, n, n, 1, k);
        if (e != cudaSuccess)
            return e;
        done += n;
    }
    return cudaSuccess;
}
static inline cudaError_t cudaCreateTextureObject(cudaTextureObject_t *out,
                                                  const struct cudaResourceDesc *res,
                                                  const struct cudaTextureDesc *tex,
                                                  const struct cudaResourceViewDesc *)
{
    if (!out || !res || !tex)
        return cudaErrorInvalidValue;
    struct kl_tex_object *o = new struct kl_tex_object();
    o->res = *res;
    o->tex = *tex;
    *out = (cudaTextureObject_t)(uintptr_t)o;
    return cudaSuccess;
}
static inline cudaError_t cudaDestroyTextureObject(cudaTextureObject_t t)
{
    delete (struct kl_tex_object *)(uintptr_t)t;
    return cudaSuccess;
}

/* ---- what programs ask around their launches ----------------------------------------------
 * Answers of the plausible device above, for calls that change nothing the emulator models:
 * every launch and copy is synchronous here, so a stream's wait and an event's query are done
 * at once; the profiler's range, caches and limits have nothing to steer. Occupancy is the
 * device's threads per multiprocessor over the block size, bounded by its blocks and its shared
 * memory, as the runtime computes it without register counts. */
static inline cudaError_t cudaProfilerStart(void) { return cudaSuccess; }
static inline cudaError_t cudaProfilerStop(void) { return cudaSuccess; }
static inline cudaError_t cudaRuntimeGetVersion(int *v)
{
    if (!v)
        return (cudaError_t)kl_exec_note(1);
    *v = 13000; /* the toolkit whose runtime API kl_host.h declares */
    return cudaSuccess;
}
static inline cudaError_t cudaDriverGetVersion(int *v) { return cudaRuntimeGetVersion(v); }
static inline int kl_exec_blocks_per_sm(int block, size_t shared)
{
    if (block <= 0 || block > 1024)
        return 0;
    int n = 2048 / block;
    if (n > 32)
        n = 32;
    if (shared && (size_t)n * shared > ((size_t)100 << 10))
        n = (int)(((size_t)100 << 10) / shared);
    return n;
}
template <typename F>
static inline cudaError_t cudaOccupancyMaxActiveBlocksPerMultiprocessor(int *n, F, int block,
                                                                        size_t shared)
{
    if (!n || block <= 0)
        return (cudaError_t)kl_exec_note(1);
    *n = kl_exec_blocks_per_sm(block, shared);
    return cudaSuccess;
}
template <typename F>
static inline cudaError_t cudaOccupancyMaxPotentialBlockSize(int *min_grid, int *block, F,
                                                             size_t shared = 0, int limit = 0)
{
    if (!min_grid || !block)
        return (cudaError_t)kl_exec_note(1);
    int best = 0, best_threads = 0;
    for (int b = 32; b <= 1024 && (limit <= 0 || b <= limit); b += 32) {
        int threads = b * kl_exec_blocks_per_sm(b, shared);
        if (threads > best_threads)
            best = b, best_threads = threads;
    }
    if (!best)
        return (cudaError_t)kl_exec_note(1);
    *block = best;
    *min_grid = 8 * kl_exec_blocks_per_sm(best, shared); /* the device's 8 multiprocessors */
    return cudaSuccess;
}
template <typename F, typename V>
static inline cudaError_t cudaFuncSetAttribute(F, cudaFuncAttribute, V) { return cudaSuccess; }
template <typename F>
static inline cudaError_t cudaFuncGetAttributes(cudaFuncAttributes *a, F)
{
    if (!a)
        return (cudaError_t)kl_exec_note(1);
    __builtin_memset(a, 0, sizeof *a);
    a->maxThreadsPerBlock = 1024;
    a->numRegs = 32;
    a->ptxVersion = a->binaryVersion = 80;
    a->maxDynamicSharedSizeBytes = 48 << 10;
    return cudaSuccess;
}
template <typename F>
static inline cudaError_t cudaFuncSetCacheConfig(F, cudaFuncCache) { return cudaSuccess; }
static inline cudaError_t cudaDeviceSetCacheConfig(cudaFuncCache) { return cudaSuccess; }
static size_t kl_exec_limits[8] = {1024, (size_t)1 << 20, (size_t)8 << 20, 2, 2048, 32, 0, 0};
static inline cudaError_t cudaDeviceSetLimit(cudaLimit l, size_t v)
{
    if ((unsigned)l >= 8)
        return (cudaError_t)kl_exec_note(1);
    kl_exec_limits[(unsigned)l] = v;
    return cudaSuccess;
}
static inline cudaError_t cudaDeviceGetLimit(size_t *v, cudaLimit l)
{
    if (!v || (unsigned)l >= 8)
        return (cudaError_t)kl_exec_note(1);
    *v = kl_exec_limits[(unsigned)l];
    return cudaSuccess;
}
template <typename... A>
static inline cudaError_t cudaStreamWaitEvent(cudaStream_t, cudaEvent_t, A...) { return cudaSuccess; }
static inline cudaError_t cudaStreamQuery(cudaStream_t) { return cudaSuccess; }
static inline cudaError_t cudaEventQuery(cudaEvent_t) { return cudaSuccess; }
static inline cudaError_t cudaMemGetInfo(size_t *free_b, size_t *total_b)
{
    if (!free_b || !total_b)
        return (cudaError_t)kl_exec_note(1);
    *total_b = (size_t)16 << 30;
    *free_b = (size_t)15 << 30;
    return cudaSuccess;
}
template <typename... A>
static inline cudaError_t cudaMemPrefetchAsync(const void *, size_t, A...) { return cudaSuccess; }
static inline cudaError_t cudaStreamCreateWithPriority(cudaStream_t *s, unsigned, int)
{
    return cudaStreamCreate(s);
}
static inline cudaError_t cudaDeviceCanAccessPeer(int *can, int, int)
{
    if (!can)
        return (cudaError_t)kl_exec_note(1);
    *can = 0; /* one device */
    return cudaSuccess;
}
static unsigned kl_exec_device_flags;
static inline cudaError_t cudaSetDeviceFlags(unsigned f)
{
    kl_exec_device_flags = f;
    return cudaSuccess;
}
static inline cudaError_t cudaGetDeviceFlags(unsigned *f)
{
    if (!f)
        return (cudaError_t)kl_exec_note(1);
    *f = kl_exec_device_flags;
    return cudaSuccess;
}
static inline cudaError_t cudaDeviceGetStreamPriorityRange(int *least, int *greatest)
{
    if (least)
        *least = 0;
    if (greatest)
        *greatest = -5;
    return cudaSuccess;
}
template <typename C>
static inline cudaError_t cudaDeviceSetSharedMemConfig(C) { return cudaSuccess; }
/* Host memory is what kernels read and write here: registering it, and the device address of
 * mapped host memory, change nothing (the address is the host's). */
static inline cudaError_t cudaHostRegister(void *p, size_t, unsigned)
{
    return p ? cudaSuccess : (cudaError_t)kl_exec_note(1);
}
static inline cudaError_t cudaHostUnregister(void *p) { return p ? cudaSuccess : (cudaError_t)kl_exec_note(1); }
template <typename T>
static inline cudaError_t cudaHostGetDevicePointer(T **d, void *h, unsigned)
{
    if (!d || !h)
        return (cudaError_t)kl_exec_note(1);
    *d = (T *)h;
    return cudaSuccess;
}
#endif /* KL_EXEC && !KL_EXEC_ABI_ONLY */
#endif
