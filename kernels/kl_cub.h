/* kl_cub.h — CUB's block, warp and device-wide algorithms as the cpu backend runs them.
 *
 * On the cpu backend an `#include <cub/...>` of a header listed in engine/compile/plain_source.c
 * (cub/cub.cuh, cub/block/block_reduce.cuh, ...) puts this file in its place, after kladder's
 * device API (kl_vendor.h) and host declarations (kl_host.h); `hipcub/...` the same, for
 * namespace hipcub. It is written from CUB's documented interface, not from its source, and
 * built only on kladder's own primitives: the TempStorage the kernel declares `__shared__` is
 * the block's shared memory, __syncthreads() its barrier, __shfl_down_sync its shuffles. So the
 * emulator's race check and schedules see every access, and CUB's contract shows as it would on
 * a GPU:
 *   - a block or warp aggregate is valid in thread (lane) 0 only; every other thread gets its
 *     own partial, never the aggregate, so a kernel reading it elsewhere is visibly wrong;
 *   - a block collective writes its TempStorage on entry and reads what others wrote after its
 *     last barrier, with no barrier at exit: reusing the storage without a __syncthreads()
 *     between two calls is a race the cpu backend names.
 * The device-wide algorithms (DeviceReduce, DeviceScan, DeviceRadixSort, DeviceSelect,
 * DeviceRunLengthEncode) keep CUB's two-phase protocol (a first call with no storage sets the
 * bytes it needs, the second does the work) and run on the host, which is correct here: device
 * memory is host memory, and under `kladder exec` every call is synchronous. The storage the
 * caller allocates is the sort's scratch, so a buffer smaller than asked for is refused with
 * cudaErrorInvalidValue, as CUB refuses it. The standard headers used (<algorithm>, <limits>)
 * are put in front of the source by the engine, before any device macro exists. */
#ifndef KL_CUB_H
#define KL_CUB_H

#ifndef CUB_MAX
#define CUB_MAX(a, b) (((b) > (a)) ? (b) : (a))
#endif
#ifndef CUB_MIN
#define CUB_MIN(a, b) (((b) < (a)) ? (b) : (a))
#endif
#ifndef CUB_PTX_WARP_THREADS
#define CUB_PTX_WARP_THREADS 32
#endif
#ifndef CUB_NAMESPACE_BEGIN
#define CUB_NAMESPACE_BEGIN namespace cub {
#define CUB_NAMESPACE_END }
#endif
#ifndef CUB_RUNTIME_FUNCTION
#define CUB_RUNTIME_FUNCTION
#endif
/* CubDebug(e): e, told on stderr when it is an error and CUB_STDERR is defined (CUB's
 * contract); CubDebugExit(e) also ends the program then. */
#ifndef CubDebug
#define CubDebug(e) kl_cub::debug((cudaError_t)(e), __FILE__, __LINE__)
#endif
#ifndef CubDebugExit
#define CubDebugExit(e)                                                                        \
    do {                                                                                       \
        if (CubDebug(e))                                                                       \
            std::exit(1);                                                                      \
    } while (0)
#endif

namespace kl_cub {

static inline cudaError_t debug(cudaError_t e, const char *file, int line)
{
#ifdef CUB_STDERR
    if (e)
        std::fprintf(stderr, "%s:%d: CUDA error %d\n", file, line, (int)e);
#else
    (void)file, (void)line;
#endif
    return e;
}

/* ---- reduction operators ------------------------------------------------------------------ */
struct Sum {
    template <typename A, typename B>
    typename std::common_type<A, B>::type operator()(const A &a, const B &b) const { return a + b; }
};
struct Max {
    template <typename A, typename B>
    typename std::common_type<A, B>::type operator()(const A &a, const B &b) const { return CUB_MAX(a, b); }
};
struct Min {
    template <typename A, typename B>
    typename std::common_type<A, B>::type operator()(const A &a, const B &b) const { return CUB_MIN(a, b); }
};
template <typename K, typename V>
struct KeyValuePair {
    typedef K Key;
    typedef V Value;
    K key;
    V value;
    KeyValuePair() = default;
    KeyValuePair(const K &k, const V &v) : key(k), value(v) {}
    bool operator==(const KeyValuePair &o) const { return key == o.key && value == o.value; }
    bool operator!=(const KeyValuePair &o) const { return !(*this == o); }
};
/* the larger (smaller) value, the first (smallest key) among equals */
struct ArgMax {
    template <typename K, typename V>
    KeyValuePair<K, V> operator()(const KeyValuePair<K, V> &a, const KeyValuePair<K, V> &b) const
    {
        return (b.value > a.value || (b.value == a.value && b.key < a.key)) ? b : a;
    }
};
struct ArgMin {
    template <typename K, typename V>
    KeyValuePair<K, V> operator()(const KeyValuePair<K, V> &a, const KeyValuePair<K, V> &b) const
    {
        return (b.value < a.value || (b.value == a.value && b.key < a.key)) ? b : a;
    }
};

/* The thread's rank in a block of the given dimensions, as CUB counts it (x fastest). */
template <int DX, int DY, int DZ>
static inline int block_rank()
{
    return (DZ == 1 ? 0 : (int)threadIdx.z * DX * DY) + (DY == 1 ? 0 : (int)threadIdx.y * DX) +
           (int)threadIdx.x;
}

/* Storage for N values of T that needs no constructor, so a TempStorage can be declared
 * __shared__ or put in a union, as CUB's can. */
template <typename T, int N>
struct raw_slots {
    alignas(T) unsigned char bytes[sizeof(T) * N];
    T *at(int i) { return reinterpret_cast<T *>(bytes) + i; }
};

/* A block's storage of the collective's own type, for the default constructors (CUB's private
 * storage: one per type and block). */
template <typename Storage>
static inline Storage &private_storage()
{
    return *(Storage *)kl_cpu_static_shared(__PRETTY_FUNCTION__, sizeof(Storage), alignof(Storage));
}

/* ---- BlockReduce ---------------------------------------------------------------------------- */
enum BlockReduceAlgorithm {
    BLOCK_REDUCE_RAKING_COMMUTATIVE_ONLY,
    BLOCK_REDUCE_RAKING,
    BLOCK_REDUCE_WARP_REDUCTIONS,
};

/* Every thread writes its value to its slot, a barrier, then thread 0 folds the slots in rank
 * order (so an operator need only be associative). A rank past the template's dimensions
 * writes past the storage: the emulator's guard page names it. */
template <typename T, int BLOCK_DIM_X, BlockReduceAlgorithm ALGORITHM = BLOCK_REDUCE_WARP_REDUCTIONS,
          int BLOCK_DIM_Y = 1, int BLOCK_DIM_Z = 1, int LEGACY_PTX_ARCH = 0>
class BlockReduce {
    enum { BLOCK_THREADS = BLOCK_DIM_X * BLOCK_DIM_Y * BLOCK_DIM_Z };
    typedef kl_cub::Sum Add;

public:
    struct TempStorage {
        raw_slots<T, BLOCK_THREADS> slot;
    };

    BlockReduce() : s(private_storage<TempStorage>()), rank(block_rank<BLOCK_DIM_X, BLOCK_DIM_Y, BLOCK_DIM_Z>()) {}
    explicit BlockReduce(TempStorage &temp)
        : s(temp), rank(block_rank<BLOCK_DIM_X, BLOCK_DIM_Y, BLOCK_DIM_Z>()) {}

    template <typename Op>
    T Reduce(T input, Op op) { return fold(input, op, BLOCK_THREADS); }
    template <typename Op>
    T Reduce(T input, Op op, int num_valid) { return fold(input, op, num_valid); }
    template <int N, typename Op>
    T Reduce(T (&inputs)[N], Op op) { return fold(thread_fold(inputs, op), op, BLOCK_THREADS); }
    T Sum(T input) { return fold(input, Add(), BLOCK_THREADS); }
    T Sum(T input, int num_valid) { return fold(input, Add(), num_valid); }
    template <int N>
    T Sum(T (&inputs)[N]) { return fold(thread_fold(inputs, Add()), Add(), BLOCK_THREADS); }

private:
    TempStorage &s;
    int rank;

    template <int N, typename Op>
    static T thread_fold(T (&v)[N], Op op)
    {
        T acc = v[0];
        for (int i = 1; i < N; i++)
            acc = op(acc, v[i]);
        return acc;
    }
    template <typename Op>
    T fold(T input, Op op, int valid)
    {
        *s.slot.at(rank) = input;
        __syncthreads();
        if (rank != 0)
            return input; /* not the aggregate: CUB gives it to thread 0 only */
        if (valid > BLOCK_THREADS)
            valid = BLOCK_THREADS;
        T acc = *s.slot.at(0);
        for (int i = 1; i < valid; i++)
            acc = op(acc, *s.slot.at(i));
        return acc;
    }
};

/* ---- BlockScan ------------------------------------------------------------------------------ */
enum BlockScanAlgorithm { BLOCK_SCAN_RAKING, BLOCK_SCAN_RAKING_MEMOIZE, BLOCK_SCAN_WARP_SCANS };

/* Every thread writes its value, a barrier, thread 0 scans the slots in rank order (inclusive
 * prefixes), a barrier, and each thread reads its prefix: its own slot (inclusive) or the one
 * before (exclusive), and the last for the block's aggregate. */
template <typename T, int BLOCK_DIM_X, BlockScanAlgorithm ALGORITHM = BLOCK_SCAN_RAKING,
          int BLOCK_DIM_Y = 1, int BLOCK_DIM_Z = 1, int LEGACY_PTX_ARCH = 0>
class BlockScan {
    enum { BLOCK_THREADS = BLOCK_DIM_X * BLOCK_DIM_Y * BLOCK_DIM_Z };
    typedef kl_cub::Sum Add;

public:
    struct TempStorage {
        raw_slots<T, BLOCK_THREADS> slot;
    };

    BlockScan() : s(private_storage<TempStorage>()), rank(block_rank<BLOCK_DIM_X, BLOCK_DIM_Y, BLOCK_DIM_Z>()) {}
    explicit BlockScan(TempStorage &temp)
        : s(temp), rank(block_rank<BLOCK_DIM_X, BLOCK_DIM_Y, BLOCK_DIM_Z>()) {}

    void InclusiveSum(T input, T &output) { InclusiveScan(input, output, Add()); }
    void InclusiveSum(T input, T &output, T &block_aggregate)
    {
        InclusiveScan(input, output, Add(), block_aggregate);
    }
    void ExclusiveSum(T input, T &output) { ExclusiveScan(input, output, T(), Add()); }
    void ExclusiveSum(T input, T &output, T &block_aggregate)
    {
        ExclusiveScan(input, output, T(), Add(), block_aggregate);
    }
    template <typename Op>
    void InclusiveScan(T input, T &output, Op op)
    {
        scan(input, op);
        output = *s.slot.at(rank);
    }
    template <typename Op>
    void InclusiveScan(T input, T &output, Op op, T &block_aggregate)
    {
        scan(input, op);
        output = *s.slot.at(rank);
        block_aggregate = *s.slot.at(BLOCK_THREADS - 1);
    }
    template <typename Op>
    void ExclusiveScan(T input, T &output, T initial_value, Op op)
    {
        scan(input, op);
        output = rank == 0 ? initial_value : op(initial_value, *s.slot.at(rank - 1));
    }
    template <typename Op>
    void ExclusiveScan(T input, T &output, T initial_value, Op op, T &block_aggregate)
    {
        scan(input, op);
        output = rank == 0 ? initial_value : op(initial_value, *s.slot.at(rank - 1));
        block_aggregate = *s.slot.at(BLOCK_THREADS - 1);
    }
    /* without an initial value thread 0's output is undefined (CUB): its own input here */
    template <typename Op>
    void ExclusiveScan(T input, T &output, Op op)
    {
        scan(input, op);
        output = rank == 0 ? input : *s.slot.at(rank - 1);
    }

    /* N items a thread, in blocked order: the thread's fold scanned across the block, then
     * its own items */
    template <int N>
    void InclusiveSum(T (&in)[N], T (&out)[N]) { InclusiveScan(in, out, Add()); }
    template <int N>
    void ExclusiveSum(T (&in)[N], T (&out)[N]) { ExclusiveScan(in, out, T(), Add()); }
    template <int N>
    void ExclusiveSum(T (&in)[N], T (&out)[N], T &block_aggregate)
    {
        ExclusiveScan(in, out, T(), Add(), block_aggregate);
    }
    template <int N, typename Op>
    void InclusiveScan(T (&in)[N], T (&out)[N], Op op)
    {
        T partial = in[0];
        for (int i = 1; i < N; i++)
            partial = op(partial, in[i]);
        T prefix;
        ExclusiveScan(partial, prefix, op);
        T run = rank == 0 ? in[0] : op(prefix, in[0]);
        out[0] = run;
        for (int i = 1; i < N; i++)
            out[i] = run = op(run, in[i]);
    }
    template <int N, typename Op>
    void ExclusiveScan(T (&in)[N], T (&out)[N], T initial_value, Op op)
    {
        T aggregate;
        ExclusiveScan(in, out, initial_value, op, aggregate);
    }
    template <int N, typename Op>
    void ExclusiveScan(T (&in)[N], T (&out)[N], T initial_value, Op op, T &block_aggregate)
    {
        T partial = in[0];
        for (int i = 1; i < N; i++)
            partial = op(partial, in[i]);
        T run;
        ExclusiveScan(partial, run, initial_value, op, block_aggregate);
        for (int i = 0; i < N; i++) {
            T next = op(run, in[i]);
            out[i] = run;
            run = next;
        }
    }

private:
    TempStorage &s;
    int rank;

    template <typename Op>
    void scan(T input, Op op)
    {
        *s.slot.at(rank) = input;
        __syncthreads();
        if (rank == 0)
            for (int i = 1; i < BLOCK_THREADS; i++)
                *s.slot.at(i) = op(*s.slot.at(i - 1), *s.slot.at(i));
        __syncthreads();
    }
};

/* ---- WarpReduce ----------------------------------------------------------------------------- */
/* A tree of shuffles within each logical warp (a segment of LOGICAL_WARP_THREADS lanes; 0: the
 * run's wave), as CUB does on every GPU it supports: a lane l that is a multiple of 2^k ends with
 * the fold of lanes l .. l+2^k-1 in lane order, lane 0 with the whole, other lanes their own. Every lane of the wave must call, as with any
 * shuffle. */
template <typename T, int LOGICAL_WARP_THREADS = CUB_PTX_WARP_THREADS, int LEGACY_PTX_ARCH = 0>
class WarpReduce {
    static_assert(LOGICAL_WARP_THREADS >= 0 && LOGICAL_WARP_THREADS <= 64 &&
                      (LOGICAL_WARP_THREADS & (LOGICAL_WARP_THREADS - 1)) == 0,
                  "cub::WarpReduce: LOGICAL_WARP_THREADS must be a power of two up to the wave size");
    static int width() { return LOGICAL_WARP_THREADS ? LOGICAL_WARP_THREADS : KL_WAVE; }

public:
    struct TempStorage {
        unsigned char unused;
    };

    WarpReduce() {}
    explicit WarpReduce(TempStorage &) {}

    T Sum(T input) { return fold(input, kl_cub::Sum(), width()); }
    T Sum(T input, int valid_items) { return fold(input, kl_cub::Sum(), valid_items); }
    template <typename Op>
    T Reduce(T input, Op op) { return fold(input, op, width()); }
    template <typename Op>
    T Reduce(T input, Op op, int valid_items) { return fold(input, op, valid_items); }

private:
    template <typename Op>
    static T fold(T x, Op op, int valid)
    {
        const int w = width(), lane = kl_lane() % w;
        if (w > KL_WAVE) { /* wider than a wave: no GPU has that, CUB refuses it at compile time */
            std::fprintf(stderr, "cub::WarpReduce: a logical warp of %d threads is wider than this "
                                 "run's wave of %d\n", w, KL_WAVE);
            std::abort();
        }
        for (int d = 1; d < w; d *= 2) {
            T y = __shfl_down_sync(~0ull, x, (unsigned)d, w);
            /* lane + d holds the fold of lanes lane+d .. lane+2d-1 (those valid): a binomial
             * tree, so operands stay in lane order */
            if (lane % (2 * d) == 0 && lane + d < valid)
                x = op(x, y);
        }
        return x;
    }
};

/* ---- device-wide algorithms, on the host ---------------------------------------------------- */
/* Err and Stream are the vendor's (cudaError_t, cudaStream_t for cub; HIP's for hipcub). */
template <typename It>
struct value_of {
    typedef typename std::decay<decltype(*std::declval<It>())>::type type;
};

/* The first phase (no storage): say how much, never zero, since CUB's callers allocate it; 1.
 * The second with less than that: -1 (refused). Else 0. */
static inline int storage_phase(void *d_temp, size_t &bytes, size_t need)
{
    need = need ? need : 16;
    if (!d_temp) {
        bytes = need;
        return 1;
    }
    return bytes < need ? -1 : 0;
}
#define KL_CUB_PHASE(need)                                                                     \
    do {                                                                                       \
        int phase_ = storage_phase(d_temp_storage, temp_storage_bytes, (need));                \
        if (phase_)                                                                            \
            return phase_ > 0 ? (Err)0 : (Err)1;                                               \
    } while (0)

template <typename Err, typename Stream>
struct DeviceReduce {
    template <typename In, typename Out, typename Op, typename Init>
    static Err Reduce(void *d_temp_storage, size_t &temp_storage_bytes, In d_in, Out d_out,
                      long long num_items, Op op, Init init, Stream = Stream())
    {
        KL_CUB_PHASE(0);
        Init acc = init;
        for (long long i = 0; i < num_items; i++)
            acc = op(acc, d_in[i]);
        *d_out = acc;
        return (Err)0;
    }
    template <typename In, typename Out>
    static Err Sum(void *d_temp_storage, size_t &temp_storage_bytes, In d_in, Out d_out,
                   long long num_items, Stream s = Stream())
    {
        typedef typename value_of<In>::type T;
        return Reduce(d_temp_storage, temp_storage_bytes, d_in, d_out, num_items, kl_cub::Sum(), T(), s);
    }
    template <typename In, typename Out>
    static Err Max(void *d_temp_storage, size_t &temp_storage_bytes, In d_in, Out d_out,
                   long long num_items, Stream s = Stream())
    {
        typedef typename value_of<In>::type T;
        return Reduce(d_temp_storage, temp_storage_bytes, d_in, d_out, num_items, kl_cub::Max(),
                      std::numeric_limits<T>::lowest(), s);
    }
    template <typename In, typename Out>
    static Err Min(void *d_temp_storage, size_t &temp_storage_bytes, In d_in, Out d_out,
                   long long num_items, Stream s = Stream())
    {
        typedef typename value_of<In>::type T;
        return Reduce(d_temp_storage, temp_storage_bytes, d_in, d_out, num_items, kl_cub::Min(),
                      std::numeric_limits<T>::max(), s);
    }
    /* a KeyValuePair<int, T> of the first largest (smallest) item and its offset; {1, lowest}
     * ({1, max}) for no items, as CUB documents */
    template <typename In, typename Out>
    static Err ArgMax(void *d_temp_storage, size_t &temp_storage_bytes, In d_in, Out d_out,
                      long long num_items, Stream = Stream())
    {
        return arg(d_temp_storage, temp_storage_bytes, d_in, d_out, num_items, true);
    }
    template <typename In, typename Out>
    static Err ArgMin(void *d_temp_storage, size_t &temp_storage_bytes, In d_in, Out d_out,
                      long long num_items, Stream = Stream())
    {
        return arg(d_temp_storage, temp_storage_bytes, d_in, d_out, num_items, false);
    }

private:
    template <typename In, typename Out>
    static Err arg(void *d_temp_storage, size_t &temp_storage_bytes, In d_in, Out d_out,
                   long long num_items, bool largest)
    {
        KL_CUB_PHASE(0);
        typedef typename value_of<In>::type T;
        typedef typename value_of<Out>::type Pair;
        if (num_items <= 0) {
            *d_out = Pair(1, largest ? std::numeric_limits<T>::lowest() : std::numeric_limits<T>::max());
            return (Err)0;
        }
        long long best = 0;
        for (long long i = 1; i < num_items; i++)
            if (largest ? d_in[best] < d_in[i] : d_in[i] < d_in[best])
                best = i;
        *d_out = Pair((typename Pair::Key)best, d_in[best]);
        return (Err)0;
    }
};

template <typename Err, typename Stream>
struct DeviceScan {
    template <typename In, typename Out, typename Op>
    static Err InclusiveScan(void *d_temp_storage, size_t &temp_storage_bytes, In d_in, Out d_out,
                             Op op, long long num_items, Stream = Stream())
    {
        KL_CUB_PHASE(0);
        typedef typename value_of<In>::type T;
        if (num_items <= 0)
            return (Err)0;
        T run = d_in[0];
        d_out[0] = run;
        for (long long i = 1; i < num_items; i++) {
            run = op(run, d_in[i]);
            d_out[i] = run;
        }
        return (Err)0;
    }
    template <typename In, typename Out, typename Op, typename Init>
    static Err ExclusiveScan(void *d_temp_storage, size_t &temp_storage_bytes, In d_in, Out d_out,
                             Op op, Init init, long long num_items, Stream = Stream())
    {
        KL_CUB_PHASE(0);
        Init run = init;
        for (long long i = 0; i < num_items; i++) {
            Init next = op(run, d_in[i]); /* read before the write: d_in may be d_out */
            d_out[i] = run;
            run = next;
        }
        return (Err)0;
    }
    template <typename In, typename Out>
    static Err InclusiveSum(void *d_temp_storage, size_t &temp_storage_bytes, In d_in, Out d_out,
                            long long num_items, Stream s = Stream())
    {
        return InclusiveScan(d_temp_storage, temp_storage_bytes, d_in, d_out, kl_cub::Sum(), num_items, s);
    }
    template <typename In, typename Out>
    static Err ExclusiveSum(void *d_temp_storage, size_t &temp_storage_bytes, In d_in, Out d_out,
                            long long num_items, Stream s = Stream())
    {
        typedef typename value_of<In>::type T;
        return ExclusiveScan(d_temp_storage, temp_storage_bytes, d_in, d_out, kl_cub::Sum(), T(),
                             num_items, s);
    }
};

/* A key's bits in the order a radix sort compares them (CUB's: unsigned as they are, signed
 * with the sign bit flipped, floating point with the negatives reversed below the positives). */
template <typename K>
static inline unsigned long long radix_bits(K k)
{
    static_assert(sizeof(K) <= 8, "cub::DeviceRadixSort: keys of at most 8 bytes");
    unsigned long long u = 0;
    std::memcpy(&u, &k, sizeof k);
    const unsigned long long top = 1ull << (sizeof(K) * 8 - 1), all = top | (top - 1);
    if (std::is_floating_point<K>::value)
        return (u & top) ? (~u & all) : (u | top);
    if (std::is_signed<K>::value)
        return u ^ top;
    return u;
}

template <typename Err, typename Stream>
struct DeviceRadixSort {
    template <typename K>
    static Err SortKeys(void *d_temp_storage, size_t &temp_storage_bytes, const K *d_keys_in,
                        K *d_keys_out, long long num_items, int begin_bit = 0,
                        int end_bit = sizeof(K) * 8, Stream = Stream())
    {
        return sort(d_temp_storage, temp_storage_bytes, d_keys_in, d_keys_out, (const char *)0,
                    (char *)0, num_items, begin_bit, end_bit, false);
    }
    template <typename K>
    static Err SortKeysDescending(void *d_temp_storage, size_t &temp_storage_bytes,
                                  const K *d_keys_in, K *d_keys_out, long long num_items,
                                  int begin_bit = 0, int end_bit = sizeof(K) * 8, Stream = Stream())
    {
        return sort(d_temp_storage, temp_storage_bytes, d_keys_in, d_keys_out, (const char *)0,
                    (char *)0, num_items, begin_bit, end_bit, true);
    }
    template <typename K, typename V>
    static Err SortPairs(void *d_temp_storage, size_t &temp_storage_bytes, const K *d_keys_in,
                         K *d_keys_out, const V *d_values_in, V *d_values_out, long long num_items,
                         int begin_bit = 0, int end_bit = sizeof(K) * 8, Stream = Stream())
    {
        return sort(d_temp_storage, temp_storage_bytes, d_keys_in, d_keys_out, d_values_in,
                    d_values_out, num_items, begin_bit, end_bit, false);
    }
    template <typename K, typename V>
    static Err SortPairsDescending(void *d_temp_storage, size_t &temp_storage_bytes,
                                   const K *d_keys_in, K *d_keys_out, const V *d_values_in,
                                   V *d_values_out, long long num_items, int begin_bit = 0,
                                   int end_bit = sizeof(K) * 8, Stream = Stream())
    {
        return sort(d_temp_storage, temp_storage_bytes, d_keys_in, d_keys_out, d_values_in,
                    d_values_out, num_items, begin_bit, end_bit, true);
    }

private:
    /* A stable sort by the key bits [begin_bit, end_bit), in the caller's storage (the order,
     * then a copy of the keys and values), then written out: the inputs may be the outputs. */
    template <typename K, typename V>
    static Err sort(void *d_temp_storage, size_t &temp_storage_bytes, const K *kin, K *kout,
                    const V *vin, V *vout, long long n, int begin_bit, int end_bit, bool descending)
    {
        if (n < 0)
            n = 0;
        const size_t order_bytes = (size_t)n * sizeof(long long);
        const size_t key_at = (order_bytes + alignof(K) - 1) / alignof(K) * alignof(K);
        const size_t val_at = (key_at + (size_t)n * sizeof(K) + alignof(V) - 1) / alignof(V) * alignof(V);
        KL_CUB_PHASE(vin ? val_at + (size_t)n * sizeof(V) : key_at + (size_t)n * sizeof(K));
        if (begin_bit < 0 || end_bit > (int)sizeof(K) * 8 || begin_bit > end_bit)
            return (Err)1;
        long long *order = (long long *)d_temp_storage;
        K *keys = (K *)((char *)d_temp_storage + key_at);
        V *vals = (V *)((char *)d_temp_storage + val_at);
        const int width = end_bit - begin_bit;
        const unsigned long long mask = width >= 64 ? ~0ull : (1ull << width) - 1;
        for (long long i = 0; i < n; i++)
            order[i] = i;
        std::stable_sort(order, order + n, [&](long long a, long long b) {
            unsigned long long ka = (radix_bits(kin[a]) >> begin_bit) & mask;
            unsigned long long kb = (radix_bits(kin[b]) >> begin_bit) & mask;
            return descending ? kb < ka : ka < kb;
        });
        for (long long i = 0; i < n; i++) {
            keys[i] = kin[order[i]];
            if (vin)
                vals[i] = vin[order[i]];
        }
        for (long long i = 0; i < n; i++) {
            kout[i] = keys[i];
            if (vin)
                vout[i] = vals[i];
        }
        return (Err)0;
    }
};

template <typename Err, typename Stream>
struct DeviceSelect {
    template <typename In, typename Out, typename Count, typename Pred>
    static Err If(void *d_temp_storage, size_t &temp_storage_bytes, In d_in, Out d_out,
                  Count d_num_selected_out, long long num_items, Pred select_op, Stream = Stream())
    {
        KL_CUB_PHASE(0);
        long long k = 0;
        for (long long i = 0; i < num_items; i++)
            if (select_op(d_in[i]))
                d_out[k++] = d_in[i];
        *d_num_selected_out = k;
        return (Err)0;
    }
    template <typename In, typename Flags, typename Out, typename Count>
    static Err Flagged(void *d_temp_storage, size_t &temp_storage_bytes, In d_in, Flags d_flags,
                       Out d_out, Count d_num_selected_out, long long num_items, Stream = Stream())
    {
        KL_CUB_PHASE(0);
        long long k = 0;
        for (long long i = 0; i < num_items; i++)
            if (d_flags[i])
                d_out[k++] = d_in[i];
        *d_num_selected_out = k;
        return (Err)0;
    }
};

template <typename Err, typename Stream>
struct DeviceRunLengthEncode {
    template <typename In, typename Unique, typename Counts, typename Runs>
    static Err Encode(void *d_temp_storage, size_t &temp_storage_bytes, In d_in,
                      Unique d_unique_out, Counts d_counts_out, Runs d_num_runs_out,
                      long long num_items, Stream = Stream())
    {
        KL_CUB_PHASE(0);
        long long runs = 0;
        for (long long i = 0; i < num_items;) {
            long long j = i + 1;
            while (j < num_items && d_in[j] == d_in[i])
                j++;
            d_unique_out[runs] = d_in[i];
            d_counts_out[runs] = j - i;
            runs++;
            i = j;
        }
        *d_num_runs_out = runs;
        return (Err)0;
    }
};
#undef KL_CUB_PHASE

/* CUB's fancy input iterators, enough for the algorithms above and host loops: the same value
 * at every offset, a count from a start, and an operator applied to what another reads. */
template <typename Self, typename Offset>
struct input_iterator {
    typedef Offset difference_type;
    Offset at = 0;
    Self operator+(Offset n) const
    {
        Self s = *static_cast<const Self *>(this);
        s.at += n;
        return s;
    }
    Self &operator++()
    {
        ++at;
        return *static_cast<Self *>(this);
    }
    Self operator++(int)
    {
        Self s = *static_cast<const Self *>(this);
        ++at;
        return s;
    }
    Self &operator+=(Offset n)
    {
        at += n;
        return *static_cast<Self *>(this);
    }
    Offset operator-(const Self &o) const { return at - o.at; }
    bool operator==(const Self &o) const { return at == o.at; }
    bool operator!=(const Self &o) const { return at != o.at; }
};
template <typename T, typename Offset = long long>
struct ConstantInputIterator : input_iterator<ConstantInputIterator<T, Offset>, Offset> {
    typedef T value_type;
    T v;
    ConstantInputIterator(const T &value, Offset base = 0) : v(value) { this->at = base; }
    T operator*() const { return v; }
    T operator[](Offset) const { return v; }
};
template <typename T, typename Offset = long long>
struct CountingInputIterator : input_iterator<CountingInputIterator<T, Offset>, Offset> {
    typedef T value_type;
    T start;
    explicit CountingInputIterator(const T &first) : start(first) {}
    T operator*() const { return (T)(start + this->at); }
    T operator[](Offset n) const { return (T)(start + this->at + n); }
};
template <typename Value, typename Op, typename In, typename Offset = long long>
struct TransformInputIterator : input_iterator<TransformInputIterator<Value, Op, In, Offset>, Offset> {
    typedef Value value_type;
    In in;
    Op op;
    TransformInputIterator(In input, Op conversion) : in(input), op(conversion) {}
    Value operator*() const { return op(in[this->at]); }
    Value operator[](Offset n) const { return op(in[this->at + n]); }
};

/* CUB's caching allocator, without the cache: each allocation is the runtime's own, so the
 * cpu backend's guards and leak report see it. */
struct CachingDeviceAllocator {
    explicit CachingDeviceAllocator(bool skip_cleanup = false, bool debug = false)
    {
        (void)skip_cleanup, (void)debug;
    }
    CachingDeviceAllocator(unsigned bin_growth, unsigned min_bin, unsigned max_bin = ~0u,
                           size_t max_cached_bytes = 0, bool skip_cleanup = false, bool debug = false)
    {
        (void)bin_growth, (void)min_bin, (void)max_bin, (void)max_cached_bytes, (void)skip_cleanup,
            (void)debug;
    }
    cudaError_t DeviceAllocate(void **p, size_t bytes, cudaStream_t = 0) { return cudaMalloc(p, bytes); }
    cudaError_t DeviceAllocate(int, void **p, size_t bytes, cudaStream_t = 0) { return cudaMalloc(p, bytes); }
    cudaError_t DeviceFree(void *p) { return cudaFree(p); }
    cudaError_t DeviceFree(int, void *p) { return cudaFree(p); }
    cudaError_t FreeAllCached() { return cudaSuccess; }
};

} // namespace kl_cub

/* The names of both vendors' namespaces: declarations, not a using-directive, so `using
 * namespace cub;` or `using namespace hipcub;` finds each name once. */
#define KL_CUB_NAMES                                                                           \
    using kl_cub::ArgMax;                                                                      \
    using kl_cub::ArgMin;                                                                      \
    using kl_cub::BLOCK_REDUCE_RAKING;                                                         \
    using kl_cub::BLOCK_REDUCE_RAKING_COMMUTATIVE_ONLY;                                        \
    using kl_cub::BLOCK_REDUCE_WARP_REDUCTIONS;                                                \
    using kl_cub::BLOCK_SCAN_RAKING;                                                           \
    using kl_cub::BLOCK_SCAN_RAKING_MEMOIZE;                                                   \
    using kl_cub::BLOCK_SCAN_WARP_SCANS;                                                       \
    using kl_cub::BlockReduce;                                                                 \
    using kl_cub::BlockReduceAlgorithm;                                                        \
    using kl_cub::BlockScan;                                                                   \
    using kl_cub::BlockScanAlgorithm;                                                          \
    using kl_cub::CachingDeviceAllocator;                                                      \
    using kl_cub::ConstantInputIterator;                                                       \
    using kl_cub::CountingInputIterator;                                                       \
    using kl_cub::TransformInputIterator;                                                      \
    using kl_cub::KeyValuePair;                                                                \
    using kl_cub::Max;                                                                         \
    using kl_cub::Min;                                                                         \
    using kl_cub::Sum;
namespace cub {
KL_CUB_NAMES
using kl_cub::WarpReduce;
typedef kl_cub::DeviceReduce<cudaError_t, cudaStream_t> DeviceReduce;
typedef kl_cub::DeviceScan<cudaError_t, cudaStream_t> DeviceScan;
typedef kl_cub::DeviceRadixSort<cudaError_t, cudaStream_t> DeviceRadixSort;
typedef kl_cub::DeviceSelect<cudaError_t, cudaStream_t> DeviceSelect;
typedef kl_cub::DeviceRunLengthEncode<cudaError_t, cudaStream_t> DeviceRunLengthEncode;
} // namespace cub
/* hipCUB: HIP's error and stream types, and the run's wave width as a logical warp's default
 * (hipCUB's is the device's wave width) */
namespace hipcub {
KL_CUB_NAMES
template <typename T, int LOGICAL_WARP_THREADS = 0>
using WarpReduce = kl_cub::WarpReduce<T, LOGICAL_WARP_THREADS>;
typedef kl_cub::DeviceReduce<hipError_t, hipStream_t> DeviceReduce;
typedef kl_cub::DeviceScan<hipError_t, hipStream_t> DeviceScan;
typedef kl_cub::DeviceRadixSort<hipError_t, hipStream_t> DeviceRadixSort;
typedef kl_cub::DeviceSelect<hipError_t, hipStream_t> DeviceSelect;
typedef kl_cub::DeviceRunLengthEncode<hipError_t, hipStream_t> DeviceRunLengthEncode;
} // namespace hipcub
#undef KL_CUB_NAMES

#endif
