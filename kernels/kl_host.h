/* kl_host.h — the host side of the CUDA and HIP runtimes and of cuBLAS, cuBLASLt and hipBLAS,
 * declared for the cpu backend.
 *
 * A plain source is a whole translation unit as its author compiles it (docs/kernels.md): next
 * to its kernels it has host code (main, cudaMalloc, cuBLAS calls, timers) that kladder compiles
 * and never runs; only the entry points the manifest names run, on the emulator. The engine puts
 * this file after kernels/kl_vendor.h in front of every plain source on the cpu backend and
 * removes the include lines of the headers it stands in for (engine/compile/host_headers.c).
 *
 * What is here is what host code needs to compile: the types, enumerators and structures by
 * their vendor names and values, and every function as a template that takes any arguments and
 * answers "not supported" (cudaErrorNotSupported, CUBLAS_STATUS_NOT_SUPPORTED, ...). Nothing is
 * implemented: a call never reaches a GPU library, and the shared object keeps no undefined
 * symbol. A triple-chevron launch in host code (`k<<<grid, block>>>(args)`) is written as a
 * plain call of the kernel by the engine; it too never runs. */
#ifndef KL_HOST_H
#define KL_HOST_H

/* Also the host side of a whole unit compiled by clang with no HIP headers (KL_HIP_WHOLE,
 * kernels/kl_vendor.h): host code parsed and dropped, launches kept as written. */
#if defined(KL_CPU) || defined(KL_HIP_WHOLE)
#include <cmath>
#include <cstddef>
#include <cstdint>

/* The CUDA and HIP runtime headers declare the classification functions in the global
 * namespace for host code too (validation loops call isfinite(x) unqualified). */
using std::isfinite;
using std::isinf;
using std::isnan;
using std::signbit;

/* A host API function: any arguments, the failure value back. */
#define KL_HOST_FN(ret, name, fail)                                                             \
    template <typename... KlArgs>                                                               \
    static inline ret name(KlArgs &&...) { return fail; }

/* ---- launch geometry -------------------------------------------------------------------- */
struct dim3 {
    unsigned x, y, z;
    constexpr dim3(unsigned vx = 1, unsigned vy = 1, unsigned vz = 1) : x(vx), y(vy), z(vz) {}
};

/* ---- the CUDA runtime ------------------------------------------------------------------- */
enum cudaError {
    cudaSuccess = 0,
    cudaErrorInvalidValue = 1,
    cudaErrorMemoryAllocation = 2,
    cudaErrorInitializationError = 3,
    cudaErrorInvalidConfiguration = 9,
    cudaErrorInvalidDevice = 101,
    cudaErrorNoDevice = 100,
    cudaErrorNotReady = 600,
    cudaErrorNotSupported = 801,
    cudaErrorUnknown = 999
};
typedef enum cudaError cudaError_t;
enum cudaMemcpyKind {
    cudaMemcpyHostToHost = 0,
    cudaMemcpyHostToDevice = 1,
    cudaMemcpyDeviceToHost = 2,
    cudaMemcpyDeviceToDevice = 3,
    cudaMemcpyDefault = 4
};
typedef struct CUstream_st *cudaStream_t;
typedef struct CUevent_st *cudaEvent_t;
typedef struct CUgraph_st *cudaGraph_t;
typedef struct CUgraphExec_st *cudaGraphExec_t;
enum cudaDeviceAttr {
    cudaDevAttrMaxThreadsPerBlock = 1,
    cudaDevAttrMaxBlockDimX = 2,
    cudaDevAttrMaxGridDimX = 5,
    cudaDevAttrMaxSharedMemoryPerBlock = 8,
    cudaDevAttrWarpSize = 10,
    cudaDevAttrClockRate = 13,
    cudaDevAttrMultiProcessorCount = 16,
    cudaDevAttrL2CacheSize = 38,
    cudaDevAttrMaxThreadsPerMultiProcessor = 39,
    cudaDevAttrComputeCapabilityMajor = 75,
    cudaDevAttrComputeCapabilityMinor = 76,
    cudaDevAttrMaxSharedMemoryPerMultiprocessor = 81,
    cudaDevAttrMaxSharedMemoryPerBlockOptin = 97
};
enum cudaFuncAttribute {
    cudaFuncAttributeMaxDynamicSharedMemorySize = 8,
    cudaFuncAttributePreferredSharedMemoryCarveout = 9
};
enum cudaFuncCache {
    cudaFuncCachePreferNone = 0,
    cudaFuncCachePreferShared = 1,
    cudaFuncCachePreferL1 = 2,
    cudaFuncCachePreferEqual = 3
};
enum cudaLimit { cudaLimitStackSize = 0, cudaLimitPrintfFifoSize = 1, cudaLimitMallocHeapSize = 2 };
enum { cudaStreamDefault = 0, cudaStreamNonBlocking = 1, cudaEventDefault = 0,
       cudaEventBlockingSync = 1, cudaEventDisableTiming = 2, cudaHostAllocDefault = 0,
       cudaMemAttachGlobal = 1 };
#define cudaStreamLegacy ((cudaStream_t)0x1)
#define cudaStreamPerThread ((cudaStream_t)0x2)
enum cudaDataType_t {
    CUDA_R_32F = 0, CUDA_R_64F = 1, CUDA_R_16F = 2, CUDA_R_8I = 3, CUDA_C_32F = 4,
    CUDA_R_8U = 8, CUDA_R_32I = 10, CUDA_R_16BF = 14, CUDA_R_8F_E4M3 = 28, CUDA_R_8F_E5M2 = 29
};
typedef enum cudaDataType_t cudaDataType;
struct cudaDeviceProp {
    char name[256];
    size_t totalGlobalMem, sharedMemPerBlock;
    int regsPerBlock, warpSize;
    size_t memPitch;
    int maxThreadsPerBlock, maxThreadsDim[3], maxGridSize[3], clockRate;
    size_t totalConstMem;
    int major, minor;
    size_t textureAlignment;
    int deviceOverlap, multiProcessorCount, kernelExecTimeoutEnabled, integrated,
        canMapHostMemory, computeMode, concurrentKernels, ECCEnabled, pciBusID, pciDeviceID,
        asyncEngineCount, unifiedAddressing, memoryClockRate, memoryBusWidth, l2CacheSize,
        persistingL2CacheMaxSize, maxThreadsPerMultiProcessor, regsPerMultiprocessor,
        managedMemory, isMultiGpuBoard, cooperativeLaunch, maxBlocksPerMultiProcessor;
    size_t sharedMemPerMultiprocessor, sharedMemPerBlockOptin, reservedSharedMemPerBlock;
};
struct cudaFuncAttributes {
    size_t sharedSizeBytes, constSizeBytes, localSizeBytes;
    int maxThreadsPerBlock, numRegs, ptxVersion, binaryVersion, maxDynamicSharedSizeBytes;
};

/* The guards the CUDA runtime's headers define: a project's helper header (error checks,
 * device queries) tests them to take its CUDA path. */
#ifndef __CUDA_RUNTIME_H__
#define __CUDA_RUNTIME_H__
#endif
#ifndef __DRIVER_TYPES_H__
#define __DRIVER_TYPES_H__
#endif
#if !defined(KL_EXEC)
static inline const char *cudaGetErrorString(cudaError_t) { return "not supported (host code does not run on kladder's cpu backend)"; }
static inline const char *cudaGetErrorName(cudaError_t) { return "cudaErrorNotSupported"; }
#endif
#define KL_HOST_CUDA(name) KL_HOST_FN(cudaError_t, name, cudaErrorNotSupported)
/* What `kladder exec` runs (KL_EXEC: kernels/kl_exec_rt.h implements it) is no stub there. */
#if defined(KL_EXEC)
#define KL_HOST_CUDA_RT(name)
#else
#define KL_HOST_CUDA_RT(name) KL_HOST_CUDA(name)
#endif
KL_HOST_CUDA_RT(cudaMalloc) KL_HOST_CUDA_RT(cudaMallocHost) KL_HOST_CUDA_RT(cudaMallocManaged)
KL_HOST_CUDA(cudaMallocAsync) KL_HOST_CUDA(cudaMallocPitch) KL_HOST_CUDA_RT(cudaHostAlloc)
KL_HOST_CUDA_RT(cudaFree) KL_HOST_CUDA_RT(cudaFreeHost) KL_HOST_CUDA(cudaFreeAsync)
KL_HOST_CUDA_RT(cudaMemcpy) KL_HOST_CUDA_RT(cudaMemcpyAsync) KL_HOST_CUDA(cudaMemcpy2D)
KL_HOST_CUDA(cudaMemcpyPeer) KL_HOST_CUDA(cudaMemcpyToSymbol) KL_HOST_CUDA(cudaMemcpyFromSymbol)
KL_HOST_CUDA_RT(cudaMemset) KL_HOST_CUDA_RT(cudaMemsetAsync) KL_HOST_CUDA(cudaMemGetInfo)
KL_HOST_CUDA(cudaMemPrefetchAsync) KL_HOST_CUDA(cudaPointerGetAttributes)
KL_HOST_CUDA_RT(cudaDeviceSynchronize) KL_HOST_CUDA_RT(cudaDeviceReset) KL_HOST_CUDA_RT(cudaSetDevice)
KL_HOST_CUDA_RT(cudaGetDevice) KL_HOST_CUDA_RT(cudaGetDeviceCount) KL_HOST_CUDA_RT(cudaGetDeviceProperties)
KL_HOST_CUDA_RT(cudaDeviceGetAttribute) KL_HOST_CUDA(cudaDeviceSetLimit) KL_HOST_CUDA(cudaDeviceGetLimit)
KL_HOST_CUDA(cudaDeviceCanAccessPeer) KL_HOST_CUDA(cudaDeviceEnablePeerAccess)
KL_HOST_CUDA(cudaFuncSetAttribute) KL_HOST_CUDA(cudaFuncGetAttributes)
KL_HOST_CUDA(cudaFuncSetCacheConfig) KL_HOST_CUDA(cudaDeviceSetCacheConfig)
KL_HOST_CUDA(cudaOccupancyMaxActiveBlocksPerMultiprocessor)
KL_HOST_CUDA(cudaOccupancyMaxPotentialBlockSize)
KL_HOST_CUDA_RT(cudaStreamCreate) KL_HOST_CUDA_RT(cudaStreamCreateWithFlags)
KL_HOST_CUDA(cudaStreamCreateWithPriority) KL_HOST_CUDA_RT(cudaStreamDestroy)
KL_HOST_CUDA_RT(cudaStreamSynchronize) KL_HOST_CUDA(cudaStreamWaitEvent) KL_HOST_CUDA(cudaStreamQuery)
KL_HOST_CUDA(cudaStreamBeginCapture) KL_HOST_CUDA(cudaStreamEndCapture)
KL_HOST_CUDA(cudaGraphInstantiate) KL_HOST_CUDA(cudaGraphLaunch) KL_HOST_CUDA(cudaGraphDestroy)
KL_HOST_CUDA(cudaGraphExecDestroy)
KL_HOST_CUDA_RT(cudaEventCreate) KL_HOST_CUDA_RT(cudaEventCreateWithFlags) KL_HOST_CUDA_RT(cudaEventDestroy)
KL_HOST_CUDA_RT(cudaEventRecord) KL_HOST_CUDA_RT(cudaEventSynchronize) KL_HOST_CUDA(cudaEventQuery)
KL_HOST_CUDA_RT(cudaEventElapsedTime)
KL_HOST_CUDA_RT(cudaGetLastError) KL_HOST_CUDA_RT(cudaPeekAtLastError)
KL_HOST_CUDA(cudaLaunchKernel) KL_HOST_CUDA(cudaLaunchCooperativeKernel)
KL_HOST_CUDA(cudaRuntimeGetVersion) KL_HOST_CUDA(cudaDriverGetVersion)
KL_HOST_CUDA(cudaProfilerStart) KL_HOST_CUDA(cudaProfilerStop)
#undef KL_HOST_CUDA
#undef KL_HOST_CUDA_RT

/* ---- cuBLAS ----------------------------------------------------------------------------- */
typedef struct cublasContext *cublasHandle_t;
typedef enum {
    CUBLAS_STATUS_SUCCESS = 0, CUBLAS_STATUS_NOT_INITIALIZED = 1, CUBLAS_STATUS_ALLOC_FAILED = 3,
    CUBLAS_STATUS_INVALID_VALUE = 7, CUBLAS_STATUS_ARCH_MISMATCH = 8,
    CUBLAS_STATUS_MAPPING_ERROR = 11, CUBLAS_STATUS_EXECUTION_FAILED = 13,
    CUBLAS_STATUS_INTERNAL_ERROR = 14, CUBLAS_STATUS_NOT_SUPPORTED = 15,
    CUBLAS_STATUS_LICENSE_ERROR = 16
} cublasStatus_t;
typedef enum { CUBLAS_OP_N = 0, CUBLAS_OP_T = 1, CUBLAS_OP_C = 2 } cublasOperation_t;
typedef enum { CUBLAS_FILL_MODE_LOWER = 0, CUBLAS_FILL_MODE_UPPER = 1 } cublasFillMode_t;
typedef enum { CUBLAS_SIDE_LEFT = 0, CUBLAS_SIDE_RIGHT = 1 } cublasSideMode_t;
typedef enum { CUBLAS_POINTER_MODE_HOST = 0, CUBLAS_POINTER_MODE_DEVICE = 1 } cublasPointerMode_t;
typedef enum {
    CUBLAS_DEFAULT_MATH = 0, CUBLAS_TENSOR_OP_MATH = 1, CUBLAS_PEDANTIC_MATH = 2,
    CUBLAS_TF32_TENSOR_OP_MATH = 3
} cublasMath_t;
typedef enum {
    CUBLAS_COMPUTE_16F = 64, CUBLAS_COMPUTE_16F_PEDANTIC = 65, CUBLAS_COMPUTE_32F = 68,
    CUBLAS_COMPUTE_32F_PEDANTIC = 69, CUBLAS_COMPUTE_64F = 70, CUBLAS_COMPUTE_32I = 72,
    CUBLAS_COMPUTE_32F_FAST_16F = 74, CUBLAS_COMPUTE_32F_FAST_16BF = 75,
    CUBLAS_COMPUTE_32F_FAST_TF32 = 77
} cublasComputeType_t;
typedef enum { CUBLAS_GEMM_DEFAULT = -1, CUBLAS_GEMM_DEFAULT_TENSOR_OP = 99 } cublasGemmAlgo_t;
static inline const char *cublasGetStatusString(cublasStatus_t) { return "CUBLAS_STATUS_NOT_SUPPORTED"; }
#define KL_HOST_CUBLAS(name) KL_HOST_FN(cublasStatus_t, name, CUBLAS_STATUS_NOT_SUPPORTED)
KL_HOST_CUBLAS(cublasCreate) KL_HOST_CUBLAS(cublasDestroy) KL_HOST_CUBLAS(cublasSetStream)
KL_HOST_CUBLAS(cublasSetMathMode) KL_HOST_CUBLAS(cublasSetWorkspace)
KL_HOST_CUBLAS(cublasSetPointerMode) KL_HOST_CUBLAS(cublasGetVersion)
KL_HOST_CUBLAS(cublasSgemm) KL_HOST_CUBLAS(cublasDgemm) KL_HOST_CUBLAS(cublasHgemm)
KL_HOST_CUBLAS(cublasGemmEx) KL_HOST_CUBLAS(cublasSgemmBatched) KL_HOST_CUBLAS(cublasGemmBatchedEx)
KL_HOST_CUBLAS(cublasSgemmStridedBatched) KL_HOST_CUBLAS(cublasHgemmStridedBatched)
KL_HOST_CUBLAS(cublasGemmStridedBatchedEx) KL_HOST_CUBLAS(cublasSgemv) KL_HOST_CUBLAS(cublasDgemv)
KL_HOST_CUBLAS(cublasSaxpy) KL_HOST_CUBLAS(cublasSdot) KL_HOST_CUBLAS(cublasSnrm2)
KL_HOST_CUBLAS(cublasSscal) KL_HOST_CUBLAS(cublasSasum) KL_HOST_CUBLAS(cublasIsamax)
KL_HOST_CUBLAS(cublasSgeam)
#undef KL_HOST_CUBLAS

/* ---- cuBLASLt --------------------------------------------------------------------------- */
typedef struct cublasLtContext *cublasLtHandle_t;
typedef struct cublasLtMatmulDescOpaque_t *cublasLtMatmulDesc_t;
typedef struct cublasLtMatrixLayoutOpaque_t *cublasLtMatrixLayout_t;
typedef struct cublasLtMatmulPreferenceOpaque_t *cublasLtMatmulPreference_t;
typedef struct { uint64_t data[8]; } cublasLtMatmulAlgo_t;
typedef struct {
    cublasLtMatmulAlgo_t algo;
    size_t workspaceSize;
    cublasStatus_t state;
    float wavesCount;
    int reserved[4];
} cublasLtMatmulHeuristicResult_t;
typedef enum {
    CUBLASLT_MATMUL_DESC_COMPUTE_TYPE = 0, CUBLASLT_MATMUL_DESC_SCALE_TYPE = 1,
    CUBLASLT_MATMUL_DESC_POINTER_MODE = 2, CUBLASLT_MATMUL_DESC_TRANSA = 3,
    CUBLASLT_MATMUL_DESC_TRANSB = 4, CUBLASLT_MATMUL_DESC_TRANSC = 5,
    CUBLASLT_MATMUL_DESC_FILL_MODE = 6, CUBLASLT_MATMUL_DESC_EPILOGUE = 7,
    CUBLASLT_MATMUL_DESC_BIAS_POINTER = 8, CUBLASLT_MATMUL_DESC_BIAS_BATCH_STRIDE = 10,
    CUBLASLT_MATMUL_DESC_EPILOGUE_AUX_POINTER = 11, CUBLASLT_MATMUL_DESC_EPILOGUE_AUX_LD = 12,
    CUBLASLT_MATMUL_DESC_EPILOGUE_AUX_BATCH_STRIDE = 13, CUBLASLT_MATMUL_DESC_A_SCALE_POINTER = 17,
    CUBLASLT_MATMUL_DESC_B_SCALE_POINTER = 18, CUBLASLT_MATMUL_DESC_D_SCALE_POINTER = 20,
    CUBLASLT_MATMUL_DESC_BIAS_DATA_TYPE = 26
} cublasLtMatmulDescAttributes_t;
typedef enum {
    CUBLASLT_EPILOGUE_DEFAULT = 1, CUBLASLT_EPILOGUE_RELU = 2, CUBLASLT_EPILOGUE_BIAS = 4,
    CUBLASLT_EPILOGUE_RELU_BIAS = 6, CUBLASLT_EPILOGUE_GELU = 32, CUBLASLT_EPILOGUE_GELU_BIAS = 36,
    CUBLASLT_EPILOGUE_GELU_AUX = 160, CUBLASLT_EPILOGUE_GELU_AUX_BIAS = 164,
    CUBLASLT_EPILOGUE_DGELU = 192, CUBLASLT_EPILOGUE_DGELU_BGRAD = 208,
    CUBLASLT_EPILOGUE_BGRADA = 256, CUBLASLT_EPILOGUE_BGRADB = 512
} cublasLtEpilogue_t;
typedef enum {
    CUBLASLT_MATRIX_LAYOUT_TYPE = 0, CUBLASLT_MATRIX_LAYOUT_ORDER = 1,
    CUBLASLT_MATRIX_LAYOUT_ROWS = 2, CUBLASLT_MATRIX_LAYOUT_COLS = 3,
    CUBLASLT_MATRIX_LAYOUT_LD = 4, CUBLASLT_MATRIX_LAYOUT_BATCH_COUNT = 5,
    CUBLASLT_MATRIX_LAYOUT_STRIDED_BATCH_OFFSET = 6
} cublasLtMatrixLayoutAttribute_t;
typedef enum {
    CUBLASLT_ORDER_COL = 0, CUBLASLT_ORDER_ROW = 1, CUBLASLT_ORDER_COL32 = 2
} cublasLtOrder_t;
typedef enum {
    CUBLASLT_MATMUL_PREF_SEARCH_MODE = 0, CUBLASLT_MATMUL_PREF_MAX_WORKSPACE_BYTES = 1
} cublasLtMatmulPreferenceAttributes_t;
#define KL_HOST_CUBLASLT(name) KL_HOST_FN(cublasStatus_t, name, CUBLAS_STATUS_NOT_SUPPORTED)
KL_HOST_CUBLASLT(cublasLtCreate) KL_HOST_CUBLASLT(cublasLtDestroy)
KL_HOST_CUBLASLT(cublasLtMatmulDescCreate) KL_HOST_CUBLASLT(cublasLtMatmulDescDestroy)
KL_HOST_CUBLASLT(cublasLtMatmulDescSetAttribute) KL_HOST_CUBLASLT(cublasLtMatmulDescGetAttribute)
KL_HOST_CUBLASLT(cublasLtMatrixLayoutCreate) KL_HOST_CUBLASLT(cublasLtMatrixLayoutDestroy)
KL_HOST_CUBLASLT(cublasLtMatrixLayoutSetAttribute)
KL_HOST_CUBLASLT(cublasLtMatmulPreferenceCreate) KL_HOST_CUBLASLT(cublasLtMatmulPreferenceDestroy)
KL_HOST_CUBLASLT(cublasLtMatmulPreferenceSetAttribute)
KL_HOST_CUBLASLT(cublasLtMatmulAlgoGetHeuristic) KL_HOST_CUBLASLT(cublasLtMatmul)
#undef KL_HOST_CUBLASLT

/* ---- the HIP runtime -------------------------------------------------------------------- */
typedef enum hipError_t {
    hipSuccess = 0, hipErrorInvalidValue = 1, hipErrorOutOfMemory = 2,
    hipErrorNotInitialized = 3, hipErrorInvalidDevice = 101, hipErrorNoDevice = 100,
    hipErrorNotReady = 600, hipErrorNotSupported = 801, hipErrorUnknown = 999
} hipError_t;
typedef enum hipMemcpyKind {
    hipMemcpyHostToHost = 0, hipMemcpyHostToDevice = 1, hipMemcpyDeviceToHost = 2,
    hipMemcpyDeviceToDevice = 3, hipMemcpyDefault = 4
} hipMemcpyKind;
typedef struct ihipStream_t *hipStream_t;
typedef struct ihipEvent_t *hipEvent_t;
typedef enum hipDeviceAttribute_t {
    hipDeviceAttributeMaxThreadsPerBlock = 56, hipDeviceAttributeWarpSize = 87,
    hipDeviceAttributeMultiprocessorCount = 63, hipDeviceAttributeMaxSharedMemoryPerBlock = 74,
    hipDeviceAttributeComputeCapabilityMajor = 23, hipDeviceAttributeComputeCapabilityMinor = 61
} hipDeviceAttribute_t;
enum { hipStreamNonBlocking = 1, hipEventDefault = 0, hipHostMallocDefault = 0 };
#define hipStreamDefault 0x00 /* as HIP's: a launch's stream argument, the null stream */
struct hipDeviceProp_t {
    char name[256];
    size_t totalGlobalMem, sharedMemPerBlock;
    int regsPerBlock, warpSize, maxThreadsPerBlock, maxThreadsDim[3], maxGridSize[3], clockRate;
    size_t totalConstMem;
    int major, minor, multiProcessorCount, l2CacheSize, maxThreadsPerMultiProcessor,
        computeMode, concurrentKernels, pciBusID, pciDeviceID, memoryClockRate, memoryBusWidth,
        cooperativeLaunch, managedMemory;
    size_t maxSharedMemoryPerMultiProcessor, sharedMemPerBlockOptin;
    char gcnArchName[256];
};
#if !defined(KL_EXEC)
static inline const char *hipGetErrorString(hipError_t) { return "not supported (host code does not run on kladder's cpu backend)"; }
static inline const char *hipGetErrorName(hipError_t) { return "hipErrorNotSupported"; }
#endif
#define KL_HOST_HIP(name) KL_HOST_FN(hipError_t, name, hipErrorNotSupported)
#if defined(KL_EXEC)
#define KL_HOST_HIP_RT(name)
#else
#define KL_HOST_HIP_RT(name) KL_HOST_HIP(name)
#endif
KL_HOST_HIP_RT(hipMalloc) KL_HOST_HIP_RT(hipHostMalloc) KL_HOST_HIP_RT(hipMallocManaged)
KL_HOST_HIP(hipMallocAsync) KL_HOST_HIP_RT(hipFree) KL_HOST_HIP_RT(hipHostFree) KL_HOST_HIP(hipFreeAsync)
KL_HOST_HIP_RT(hipMemcpy) KL_HOST_HIP_RT(hipMemcpyAsync) KL_HOST_HIP(hipMemcpy2D)
KL_HOST_HIP(hipMemcpyToSymbol) KL_HOST_HIP(hipMemcpyFromSymbol) KL_HOST_HIP_RT(hipMemset)
KL_HOST_HIP_RT(hipMemsetAsync) KL_HOST_HIP(hipMemGetInfo) KL_HOST_HIP_RT(hipDeviceSynchronize)
KL_HOST_HIP_RT(hipDeviceReset) KL_HOST_HIP_RT(hipSetDevice) KL_HOST_HIP_RT(hipGetDevice)
KL_HOST_HIP_RT(hipGetDeviceCount) KL_HOST_HIP_RT(hipGetDeviceProperties) KL_HOST_HIP_RT(hipDeviceGetAttribute)
KL_HOST_HIP(hipFuncSetAttribute) KL_HOST_HIP(hipFuncGetAttributes)
KL_HOST_HIP(hipOccupancyMaxActiveBlocksPerMultiprocessor)
KL_HOST_HIP(hipOccupancyMaxPotentialBlockSize)
KL_HOST_HIP_RT(hipStreamCreate) KL_HOST_HIP_RT(hipStreamCreateWithFlags) KL_HOST_HIP_RT(hipStreamDestroy)
KL_HOST_HIP_RT(hipStreamSynchronize) KL_HOST_HIP(hipStreamWaitEvent)
KL_HOST_HIP_RT(hipEventCreate) KL_HOST_HIP_RT(hipEventCreateWithFlags) KL_HOST_HIP_RT(hipEventDestroy)
KL_HOST_HIP_RT(hipEventRecord) KL_HOST_HIP_RT(hipEventSynchronize) KL_HOST_HIP_RT(hipEventElapsedTime)
KL_HOST_HIP(hipEventQuery) KL_HOST_HIP_RT(hipGetLastError) KL_HOST_HIP_RT(hipPeekAtLastError)
KL_HOST_HIP(hipLaunchKernel) KL_HOST_HIP(hipLaunchCooperativeKernel)
KL_HOST_HIP(hipRuntimeGetVersion) KL_HOST_HIP(hipDriverGetVersion)
#undef KL_HOST_HIP
#undef KL_HOST_HIP_RT
/* HIP's launch macro: a plain call of the kernel, which never runs (the file's header says why);
 * for clang a launch as written, over the call configuration its <<<...>>> asks for */
#if defined(KL_HIP_WHOLE)
extern "C" hipError_t __hipPushCallConfiguration(dim3, dim3, size_t = 0, hipStream_t = 0);
extern "C" hipError_t __hipPopCallConfiguration(dim3 *, dim3 *, size_t *, hipStream_t *);
#define hipLaunchKernelGGL(kernel, grid, block, shared, stream, ...)                            \
    kernel<<<(grid), (block), (shared), (stream)>>>(__VA_ARGS__)
#elif defined(KL_EXEC) /* `kladder exec`: a launch on the emulator (kernels/kl_exec_rt.h) */
#define hipLaunchKernelGGL(kernel, grid, block, shared, stream, ...)                            \
    kl_exec_launcher((kernel), #kernel, __FILE__, __LINE__, (grid), (block), (shared),          \
                     (stream))(__VA_ARGS__)
#else
#define hipLaunchKernelGGL(kernel, grid, block, shared, stream, ...)                            \
    ((void)(grid), (void)(block), (void)(shared), (void)(stream), (kernel)(__VA_ARGS__))
#endif

/* ---- hipBLAS ---------------------------------------------------------------------------- */
typedef void *hipblasHandle_t;
typedef enum {
    HIPBLAS_STATUS_SUCCESS = 0, HIPBLAS_STATUS_NOT_INITIALIZED = 1, HIPBLAS_STATUS_ALLOC_FAILED = 2,
    HIPBLAS_STATUS_INVALID_VALUE = 3, HIPBLAS_STATUS_MAPPING_ERROR = 4,
    HIPBLAS_STATUS_EXECUTION_FAILED = 5, HIPBLAS_STATUS_INTERNAL_ERROR = 6,
    HIPBLAS_STATUS_NOT_SUPPORTED = 7
} hipblasStatus_t;
typedef enum { HIPBLAS_OP_N = 111, HIPBLAS_OP_T = 112, HIPBLAS_OP_C = 113 } hipblasOperation_t;
static inline const char *hipblasStatusToString(hipblasStatus_t) { return "HIPBLAS_STATUS_NOT_SUPPORTED"; }
#define KL_HOST_HIPBLAS(name) KL_HOST_FN(hipblasStatus_t, name, HIPBLAS_STATUS_NOT_SUPPORTED)
KL_HOST_HIPBLAS(hipblasCreate) KL_HOST_HIPBLAS(hipblasDestroy) KL_HOST_HIPBLAS(hipblasSetStream)
KL_HOST_HIPBLAS(hipblasSetPointerMode) KL_HOST_HIPBLAS(hipblasSgemm) KL_HOST_HIPBLAS(hipblasDgemm)
KL_HOST_HIPBLAS(hipblasGemmEx) KL_HOST_HIPBLAS(hipblasSgemmStridedBatched)
KL_HOST_HIPBLAS(hipblasGemmStridedBatchedEx) KL_HOST_HIPBLAS(hipblasSgemv)
KL_HOST_HIPBLAS(hipblasSaxpy) KL_HOST_HIPBLAS(hipblasSdot) KL_HOST_HIPBLAS(hipblasSscal)
#undef KL_HOST_HIPBLAS

/* ==== the CUDA driver API (cuda.h) host code names ===========================================
 * Its types, error codes and the calls a program's setup makes, declared so that host code that
 * names them compiles; host code does not run here, and a call answers
 * CUDA_ERROR_NOT_SUPPORTED (cuGetErrorString and cuGetErrorName give its text). */
typedef enum cudaError_enum {
    CUDA_SUCCESS = 0, CUDA_ERROR_INVALID_VALUE = 1, CUDA_ERROR_OUT_OF_MEMORY = 2,
    CUDA_ERROR_NOT_INITIALIZED = 3, CUDA_ERROR_DEINITIALIZED = 4, CUDA_ERROR_NO_DEVICE = 100,
    CUDA_ERROR_INVALID_DEVICE = 101, CUDA_ERROR_INVALID_IMAGE = 200, CUDA_ERROR_INVALID_CONTEXT = 201,
    CUDA_ERROR_FILE_NOT_FOUND = 301, CUDA_ERROR_INVALID_HANDLE = 400, CUDA_ERROR_NOT_FOUND = 500,
    CUDA_ERROR_NOT_READY = 600, CUDA_ERROR_LAUNCH_FAILED = 719, CUDA_ERROR_NOT_SUPPORTED = 801,
    CUDA_ERROR_UNKNOWN = 999
} CUresult;
typedef int CUdevice;
typedef unsigned long long CUdeviceptr;
typedef struct CUctx_st *CUcontext;
typedef struct CUmod_st *CUmodule;
typedef struct CUfunc_st *CUfunction;
typedef struct CUstream_st *CUstream;
typedef struct CUevent_st *CUevent;
typedef struct CUgraph_st *CUgraph;
typedef struct CUgraphExec_st *CUgraphExec;
typedef enum CUdevice_attribute_enum {
    CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK = 1, CU_DEVICE_ATTRIBUTE_WARP_SIZE = 10,
    CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT = 16, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR = 75,
    CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR = 76
} CUdevice_attribute;
typedef enum CUjit_option_enum { CU_JIT_MAX_REGISTERS = 0, CU_JIT_ERROR_LOG_BUFFER = 5,
                                 CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES = 6 } CUjit_option;
#define CU_LAUNCH_PARAM_END ((void *)0x00)
#define CU_LAUNCH_PARAM_BUFFER_POINTER ((void *)0x01)
#define CU_LAUNCH_PARAM_BUFFER_SIZE ((void *)0x02)
static inline CUresult cuGetErrorString(CUresult, const char **s)
{
    if (s)
        *s = "not supported (host code does not run on kladder's cpu backend)";
    return CUDA_ERROR_NOT_SUPPORTED;
}
static inline CUresult cuGetErrorName(CUresult, const char **s)
{
    if (s)
        *s = "CUDA_ERROR_NOT_SUPPORTED";
    return CUDA_ERROR_NOT_SUPPORTED;
}
#define KL_HOST_CU(name) KL_HOST_FN(CUresult, name, CUDA_ERROR_NOT_SUPPORTED)
KL_HOST_CU(cuInit) KL_HOST_CU(cuDriverGetVersion) KL_HOST_CU(cuDeviceGet) KL_HOST_CU(cuDeviceGetCount)
KL_HOST_CU(cuDeviceGetName) KL_HOST_CU(cuDeviceGetAttribute) KL_HOST_CU(cuDeviceTotalMem)
KL_HOST_CU(cuDeviceComputeCapability) KL_HOST_CU(cuCtxCreate) KL_HOST_CU(cuCtxDestroy)
KL_HOST_CU(cuCtxGetCurrent) KL_HOST_CU(cuCtxSetCurrent) KL_HOST_CU(cuCtxSynchronize)
KL_HOST_CU(cuDevicePrimaryCtxRetain) KL_HOST_CU(cuDevicePrimaryCtxRelease)
KL_HOST_CU(cuModuleLoad) KL_HOST_CU(cuModuleLoadData) KL_HOST_CU(cuModuleLoadDataEx)
KL_HOST_CU(cuModuleUnload) KL_HOST_CU(cuModuleGetFunction) KL_HOST_CU(cuModuleGetGlobal)
KL_HOST_CU(cuLaunchKernel) KL_HOST_CU(cuLaunchCooperativeKernel) KL_HOST_CU(cuFuncSetAttribute)
KL_HOST_CU(cuFuncGetAttribute) KL_HOST_CU(cuMemAlloc) KL_HOST_CU(cuMemFree) KL_HOST_CU(cuMemAllocHost)
KL_HOST_CU(cuMemFreeHost) KL_HOST_CU(cuMemcpyHtoD) KL_HOST_CU(cuMemcpyDtoH) KL_HOST_CU(cuMemcpyDtoD)
KL_HOST_CU(cuMemcpyHtoDAsync) KL_HOST_CU(cuMemcpyDtoHAsync) KL_HOST_CU(cuMemsetD8) KL_HOST_CU(cuMemsetD32)
KL_HOST_CU(cuMemGetInfo) KL_HOST_CU(cuStreamCreate) KL_HOST_CU(cuStreamDestroy)
KL_HOST_CU(cuStreamSynchronize) KL_HOST_CU(cuEventCreate) KL_HOST_CU(cuEventDestroy)
KL_HOST_CU(cuEventRecord) KL_HOST_CU(cuEventSynchronize) KL_HOST_CU(cuEventElapsedTime)
#undef KL_HOST_CU
/* ==== end of the driver API block ============================================================ */

/* ==== the API inventory's host functions (data/api/hip_api.tsv): HIP's runtime functions that
 * kladder's declarations above lack, each answering hipErrorNotSupported, or refused where it
 * is compiled when it returns no hipError_t. Generated by scripts/api_inventory.py. */
/* ---- api inventory: generated by scripts/api_inventory.py, do not edit ---- */
#if defined(KL_CPU) && !defined(KL_API_HAND_ONLY)
KL_HOST_FN(hipError_t, hipInit, hipErrorNotSupported)
KL_HOST_FN(hipError_t, hipDeviceGet, hipErrorNotSupported)
KL_HOST_FN(hipError_t, hipDeviceComputeCapability, hipErrorNotSupported)
KL_HOST_FN(hipError_t, hipDeviceGetName, hipErrorNotSupported)
KL_HOST_FN(hipError_t, hipDeviceGetUuid, hipErrorNotSupported)
KL_HOST_FN(hipError_t, hipDeviceGetP2PAttribute, hipErrorNotSupported)
KL_HOST_FN(hipError_t, hipDeviceGetPCIBusId, hipErrorNotSupported)
KL_HOST_FN(hipError_t, hipDeviceGetByPCIBusId, hipErrorNotSupported)
KL_HOST_FN(hipError_t, hipDeviceTotalMem, hipErrorNotSupported)
KL_HOST_FN(hipError_t, hipDeviceGetDefaultMemPool, hipErrorNotSupported)
KL_HOST_FN(hipError_t, hipDeviceSetMemPool, hipErrorNotSupported)
KL_HOST_FN(hipError_t, hipDeviceGetMemPool, hipErrorNotSupported)
KL_HOST_FN(hipError_t, hipDeviceSetCacheConfig, hipErrorNotSupported)
KL_HOST_FN(hipError_t, hipDeviceGetCacheConfig, hipErrorNotSupported)
KL_HOST_FN(hipError_t, hipDeviceGetLimit, hipErrorNotSupported)
KL_HOST_FN(hipError_t, hipDeviceGetSharedMemConfig, hipErrorNotSupported)
KL_HOST_FN(hipError_t, hipGetDeviceFlags, hipErrorNotSupported)
KL_HOST_FN(hipError_t, hipDeviceSetSharedMemConfig, hipErrorNotSupported)
KL_HOST_FN(hipError_t, hipSetDeviceFlags, hipErrorNotSupported)
KL_HOST_FN(hipError_t, hipChooseDevice, hipErrorNotSupported)
KL_HOST_FN(hipError_t, hipExtGetLinkTypeAndHopCount, hipErrorNotSupported)
KL_HOST_FN(hipError_t, hipIpcGetMemHandle, hipErrorNotSupported)
KL_HOST_FN(hipError_t, hipIpcOpenMemHandle, hipErrorNotSupported)
KL_HOST_FN(hipError_t, hipIpcCloseMemHandle, hipErrorNotSupported)
KL_HOST_FN(hipError_t, hipIpcGetEventHandle, hipErrorNotSupported)
KL_HOST_FN(hipError_t, hipIpcOpenEventHandle, hipErrorNotSupported)
KL_HOST_FN(hipError_t, hipFuncSetCacheConfig, hipErrorNotSupported)
KL_HOST_FN(hipError_t, hipFuncSetSharedMemConfig, hipErrorNotSupported)
KL_HOST_FN(hipError_t, hipStreamCreateWithPriority, hipErrorNotSupported)
KL_HOST_FN(hipError_t, hipDeviceGetStreamPriorityRange, hipErrorNotSupported)
KL_HOST_FN(hipError_t, hipStreamQuery, hipErrorNotSupported)
KL_HOST_FN(hipError_t, hipStreamGetFlags, hipErrorNotSupported)
KL_HOST_FN(hipError_t, hipStreamGetPriority, hipErrorNotSupported)
KL_HOST_FN(hipError_t, hipExtStreamCreateWithCUMask, hipErrorNotSupported)
KL_HOST_FN(hipError_t, hipExtStreamGetCUMask, hipErrorNotSupported)
KL_HOST_FN(hipError_t, hipStreamAddCallback, hipErrorNotSupported)
KL_HOST_FN(hipError_t, hipStreamWaitValue32, hipErrorNotSupported)
KL_HOST_FN(hipError_t, hipStreamWaitValue64, hipErrorNotSupported)
KL_HOST_FN(hipError_t, hipStreamWriteValue32, hipErrorNotSupported)
KL_HOST_FN(hipError_t, hipStreamWriteValue64, hipErrorNotSupported)
KL_HOST_FN(hipError_t, hipPointerGetAttributes, hipErrorNotSupported)
KL_HOST_FN(hipError_t, hipPointerGetAttribute, hipErrorNotSupported)
KL_HOST_FN(hipError_t, hipDrvPointerGetAttributes, hipErrorNotSupported)
KL_HOST_FN(hipError_t, hipImportExternalSemaphore, hipErrorNotSupported)
KL_HOST_FN(hipError_t, hipSignalExternalSemaphoresAsync, hipErrorNotSupported)
KL_HOST_FN(hipError_t, hipWaitExternalSemaphoresAsync, hipErrorNotSupported)
KL_HOST_FN(hipError_t, hipDestroyExternalSemaphore, hipErrorNotSupported)
KL_HOST_FN(hipError_t, hipImportExternalMemory, hipErrorNotSupported)
KL_HOST_FN(hipError_t, hipExternalMemoryGetMappedBuffer, hipErrorNotSupported)
KL_HOST_FN(hipError_t, hipDestroyExternalMemory, hipErrorNotSupported)
KL_HOST_FN(hipError_t, hipExtMallocWithFlags, hipErrorNotSupported)
KL_HOST_FN(hipError_t, hipMallocHost, hipErrorNotSupported)
KL_HOST_FN(hipError_t, hipMemAllocHost, hipErrorNotSupported)
KL_HOST_FN(hipError_t, hipMemPrefetchAsync, hipErrorNotSupported)
KL_HOST_FN(hipError_t, hipMemAdvise, hipErrorNotSupported)
KL_HOST_FN(hipError_t, hipMemRangeGetAttribute, hipErrorNotSupported)
KL_HOST_FN(hipError_t, hipMemRangeGetAttributes, hipErrorNotSupported)
KL_HOST_FN(hipError_t, hipStreamAttachMemAsync, hipErrorNotSupported)
KL_HOST_FN(hipError_t, hipMemPoolTrimTo, hipErrorNotSupported)
KL_HOST_FN(hipError_t, hipMemPoolSetAttribute, hipErrorNotSupported)
KL_HOST_FN(hipError_t, hipMemPoolGetAttribute, hipErrorNotSupported)
KL_HOST_FN(hipError_t, hipMemPoolSetAccess, hipErrorNotSupported)
KL_HOST_FN(hipError_t, hipMemPoolGetAccess, hipErrorNotSupported)
KL_HOST_FN(hipError_t, hipMemPoolCreate, hipErrorNotSupported)
KL_HOST_FN(hipError_t, hipMemPoolDestroy, hipErrorNotSupported)
KL_HOST_FN(hipError_t, hipMallocFromPoolAsync, hipErrorNotSupported)
KL_HOST_FN(hipError_t, hipMemPoolExportToShareableHandle, hipErrorNotSupported)
KL_HOST_FN(hipError_t, hipMemPoolImportFromShareableHandle, hipErrorNotSupported)
KL_HOST_FN(hipError_t, hipMemPoolExportPointer, hipErrorNotSupported)
KL_HOST_FN(hipError_t, hipMemPoolImportPointer, hipErrorNotSupported)
KL_HOST_FN(hipError_t, hipHostAlloc, hipErrorNotSupported)
KL_HOST_FN(hipError_t, hipHostGetDevicePointer, hipErrorNotSupported)
KL_HOST_FN(hipError_t, hipHostGetFlags, hipErrorNotSupported)
KL_HOST_FN(hipError_t, hipHostRegister, hipErrorNotSupported)
KL_HOST_FN(hipError_t, hipHostUnregister, hipErrorNotSupported)
KL_HOST_FN(hipError_t, hipMallocPitch, hipErrorNotSupported)
KL_HOST_FN(hipError_t, hipMemAllocPitch, hipErrorNotSupported)
KL_HOST_FN(hipError_t, hipFreeHost, hipErrorNotSupported)
KL_HOST_FN(hipError_t, hipMemcpyWithStream, hipErrorNotSupported)
KL_HOST_FN(hipError_t, hipMemcpyHtoD, hipErrorNotSupported)
KL_HOST_FN(hipError_t, hipMemcpyDtoH, hipErrorNotSupported)
KL_HOST_FN(hipError_t, hipMemcpyDtoD, hipErrorNotSupported)
KL_HOST_FN(hipError_t, hipMemcpyHtoDAsync, hipErrorNotSupported)
KL_HOST_FN(hipError_t, hipMemcpyDtoHAsync, hipErrorNotSupported)
KL_HOST_FN(hipError_t, hipMemcpyDtoDAsync, hipErrorNotSupported)
KL_HOST_FN(hipError_t, hipModuleGetGlobal, hipErrorNotSupported)
KL_HOST_FN(hipError_t, hipGetSymbolAddress, hipErrorNotSupported)
KL_HOST_FN(hipError_t, hipGetSymbolSize, hipErrorNotSupported)
KL_HOST_FN(hipError_t, hipMemcpyToSymbolAsync, hipErrorNotSupported)
KL_HOST_FN(hipError_t, hipMemcpyFromSymbolAsync, hipErrorNotSupported)
KL_HOST_FN(hipError_t, hipMemsetD8, hipErrorNotSupported)
KL_HOST_FN(hipError_t, hipMemsetD8Async, hipErrorNotSupported)
KL_HOST_FN(hipError_t, hipMemsetD16, hipErrorNotSupported)
KL_HOST_FN(hipError_t, hipMemsetD16Async, hipErrorNotSupported)
KL_HOST_FN(hipError_t, hipMemsetD32, hipErrorNotSupported)
KL_HOST_FN(hipError_t, hipMemsetD32Async, hipErrorNotSupported)
KL_HOST_FN(hipError_t, hipMemset2D, hipErrorNotSupported)
KL_HOST_FN(hipError_t, hipMemset2DAsync, hipErrorNotSupported)
KL_HOST_FN(hipError_t, hipMemset3D, hipErrorNotSupported)
KL_HOST_FN(hipError_t, hipMemset3DAsync, hipErrorNotSupported)
KL_HOST_FN(hipError_t, hipMemPtrGetInfo, hipErrorNotSupported)
KL_HOST_FN(hipError_t, hipMallocArray, hipErrorNotSupported)
KL_HOST_FN(hipError_t, hipArrayCreate, hipErrorNotSupported)
KL_HOST_FN(hipError_t, hipArrayDestroy, hipErrorNotSupported)
KL_HOST_FN(hipError_t, hipArray3DCreate, hipErrorNotSupported)
KL_HOST_FN(hipError_t, hipMalloc3D, hipErrorNotSupported)
KL_HOST_FN(hipError_t, hipFreeArray, hipErrorNotSupported)
KL_HOST_FN(hipError_t, hipFreeMipmappedArray, hipErrorNotSupported)
KL_HOST_FN(hipError_t, hipMalloc3DArray, hipErrorNotSupported)
KL_HOST_FN(hipError_t, hipMallocMipmappedArray, hipErrorNotSupported)
KL_HOST_FN(hipError_t, hipGetMipmappedArrayLevel, hipErrorNotSupported)
KL_HOST_FN(hipError_t, hipMemcpyParam2D, hipErrorNotSupported)
KL_HOST_FN(hipError_t, hipMemcpyParam2DAsync, hipErrorNotSupported)
KL_HOST_FN(hipError_t, hipMemcpy2DAsync, hipErrorNotSupported)
KL_HOST_FN(hipError_t, hipMemcpy2DToArray, hipErrorNotSupported)
KL_HOST_FN(hipError_t, hipMemcpy2DToArrayAsync, hipErrorNotSupported)
KL_HOST_FN(hipError_t, hipMemcpyToArray, hipErrorNotSupported)
KL_HOST_FN(hipError_t, hipMemcpyFromArray, hipErrorNotSupported)
KL_HOST_FN(hipError_t, hipMemcpy2DFromArray, hipErrorNotSupported)
KL_HOST_FN(hipError_t, hipMemcpy2DFromArrayAsync, hipErrorNotSupported)
KL_HOST_FN(hipError_t, hipMemcpyAtoH, hipErrorNotSupported)
KL_HOST_FN(hipError_t, hipMemcpyHtoA, hipErrorNotSupported)
KL_HOST_FN(hipError_t, hipMemcpy3D, hipErrorNotSupported)
KL_HOST_FN(hipError_t, hipMemcpy3DAsync, hipErrorNotSupported)
KL_HOST_FN(hipError_t, hipDrvMemcpy3D, hipErrorNotSupported)
KL_HOST_FN(hipError_t, hipDrvMemcpy3DAsync, hipErrorNotSupported)
KL_HOST_FN(hipError_t, hipDeviceCanAccessPeer, hipErrorNotSupported)
KL_HOST_FN(hipError_t, hipDeviceEnablePeerAccess, hipErrorNotSupported)
KL_HOST_FN(hipError_t, hipDeviceDisablePeerAccess, hipErrorNotSupported)
KL_HOST_FN(hipError_t, hipMemGetAddressRange, hipErrorNotSupported)
KL_HOST_FN(hipError_t, hipMemcpyPeer, hipErrorNotSupported)
KL_HOST_FN(hipError_t, hipMemcpyPeerAsync, hipErrorNotSupported)
KL_HOST_FN(hipError_t, hipCtxCreate, hipErrorNotSupported)
KL_HOST_FN(hipError_t, hipCtxDestroy, hipErrorNotSupported)
KL_HOST_FN(hipError_t, hipCtxPopCurrent, hipErrorNotSupported)
KL_HOST_FN(hipError_t, hipCtxPushCurrent, hipErrorNotSupported)
KL_HOST_FN(hipError_t, hipCtxSetCurrent, hipErrorNotSupported)
KL_HOST_FN(hipError_t, hipCtxGetCurrent, hipErrorNotSupported)
KL_HOST_FN(hipError_t, hipCtxGetDevice, hipErrorNotSupported)
KL_HOST_FN(hipError_t, hipCtxGetApiVersion, hipErrorNotSupported)
KL_HOST_FN(hipError_t, hipCtxGetCacheConfig, hipErrorNotSupported)
KL_HOST_FN(hipError_t, hipCtxSetCacheConfig, hipErrorNotSupported)
KL_HOST_FN(hipError_t, hipCtxSetSharedMemConfig, hipErrorNotSupported)
KL_HOST_FN(hipError_t, hipCtxGetSharedMemConfig, hipErrorNotSupported)
KL_HOST_FN(hipError_t, hipCtxSynchronize, hipErrorNotSupported)
KL_HOST_FN(hipError_t, hipCtxGetFlags, hipErrorNotSupported)
KL_HOST_FN(hipError_t, hipCtxEnablePeerAccess, hipErrorNotSupported)
KL_HOST_FN(hipError_t, hipCtxDisablePeerAccess, hipErrorNotSupported)
KL_HOST_FN(hipError_t, hipDevicePrimaryCtxGetState, hipErrorNotSupported)
KL_HOST_FN(hipError_t, hipDevicePrimaryCtxRelease, hipErrorNotSupported)
KL_HOST_FN(hipError_t, hipDevicePrimaryCtxRetain, hipErrorNotSupported)
KL_HOST_FN(hipError_t, hipDevicePrimaryCtxReset, hipErrorNotSupported)
KL_HOST_FN(hipError_t, hipDevicePrimaryCtxSetFlags, hipErrorNotSupported)
KL_HOST_FN(hipError_t, hipModuleLoad, hipErrorNotSupported)
KL_HOST_FN(hipError_t, hipModuleUnload, hipErrorNotSupported)
KL_HOST_FN(hipError_t, hipModuleGetFunction, hipErrorNotSupported)
KL_HOST_FN(hipError_t, hipFuncGetAttribute, hipErrorNotSupported)
KL_HOST_FN(hipError_t, hipModuleGetTexRef, hipErrorNotSupported)
KL_HOST_FN(hipError_t, hipModuleLoadData, hipErrorNotSupported)
KL_HOST_FN(hipError_t, hipModuleLoadDataEx, hipErrorNotSupported)
KL_HOST_FN(hipError_t, hipModuleLaunchKernel, hipErrorNotSupported)
KL_HOST_FN(hipError_t, hipLaunchCooperativeKernelMultiDevice, hipErrorNotSupported)
KL_HOST_FN(hipError_t, hipExtLaunchMultiKernelMultiDevice, hipErrorNotSupported)
KL_HOST_FN(hipError_t, hipModuleOccupancyMaxPotentialBlockSize, hipErrorNotSupported)
KL_HOST_FN(hipError_t, hipModuleOccupancyMaxPotentialBlockSizeWithFlags, hipErrorNotSupported)
KL_HOST_FN(hipError_t, hipModuleOccupancyMaxActiveBlocksPerMultiprocessor, hipErrorNotSupported)
KL_HOST_FN(hipError_t, hipModuleOccupancyMaxActiveBlocksPerMultiprocessorWithFlags, hipErrorNotSupported)
KL_HOST_FN(hipError_t, hipOccupancyMaxActiveBlocksPerMultiprocessorWithFlags, hipErrorNotSupported)
KL_HOST_FN(hipError_t, hipProfilerStart, hipErrorNotSupported)
KL_HOST_FN(hipError_t, hipProfilerStop, hipErrorNotSupported)
KL_HOST_FN(hipError_t, hipConfigureCall, hipErrorNotSupported)
KL_HOST_FN(hipError_t, hipSetupArgument, hipErrorNotSupported)
KL_HOST_FN(hipError_t, hipLaunchByPtr, hipErrorNotSupported)
KL_HOST_FN(hipError_t, hipDrvMemcpy2DUnaligned, hipErrorNotSupported)
KL_HOST_FN(hipError_t, hipExtLaunchKernel, hipErrorNotSupported)
KL_HOST_FN(hipError_t, hipBindTextureToMipmappedArray, hipErrorNotSupported)
KL_HOST_FN(hipError_t, hipGetTextureReference, hipErrorNotSupported)
KL_HOST_FN(hipError_t, hipCreateTextureObject, hipErrorNotSupported)
KL_HOST_FN(hipError_t, hipDestroyTextureObject, hipErrorNotSupported)
KL_HOST_FN(hipError_t, hipGetChannelDesc, hipErrorNotSupported)
KL_HOST_FN(hipError_t, hipGetTextureObjectResourceDesc, hipErrorNotSupported)
KL_HOST_FN(hipError_t, hipGetTextureObjectResourceViewDesc, hipErrorNotSupported)
KL_HOST_FN(hipError_t, hipGetTextureObjectTextureDesc, hipErrorNotSupported)
KL_HOST_FN(hipError_t, hipTexRefSetAddressMode, hipErrorNotSupported)
KL_HOST_FN(hipError_t, hipTexRefSetArray, hipErrorNotSupported)
KL_HOST_FN(hipError_t, hipTexRefSetFilterMode, hipErrorNotSupported)
KL_HOST_FN(hipError_t, hipTexRefSetFlags, hipErrorNotSupported)
KL_HOST_FN(hipError_t, hipTexRefSetFormat, hipErrorNotSupported)
KL_HOST_FN(hipError_t, hipTexObjectCreate, hipErrorNotSupported)
KL_HOST_FN(hipError_t, hipTexObjectDestroy, hipErrorNotSupported)
KL_HOST_FN(hipError_t, hipTexObjectGetResourceDesc, hipErrorNotSupported)
KL_HOST_FN(hipError_t, hipTexObjectGetResourceViewDesc, hipErrorNotSupported)
KL_HOST_FN(hipError_t, hipTexObjectGetTextureDesc, hipErrorNotSupported)
KL_HOST_FN(hipError_t, hipBindTexture, hipErrorNotSupported)
KL_HOST_FN(hipError_t, hipBindTexture2D, hipErrorNotSupported)
KL_HOST_FN(hipError_t, hipBindTextureToArray, hipErrorNotSupported)
KL_HOST_FN(hipError_t, hipGetTextureAlignmentOffset, hipErrorNotSupported)
KL_HOST_FN(hipError_t, hipUnbindTexture, hipErrorNotSupported)
KL_HOST_FN(hipError_t, hipTexRefGetAddress, hipErrorNotSupported)
KL_HOST_FN(hipError_t, hipTexRefGetAddressMode, hipErrorNotSupported)
KL_HOST_FN(hipError_t, hipTexRefGetFilterMode, hipErrorNotSupported)
KL_HOST_FN(hipError_t, hipTexRefGetFlags, hipErrorNotSupported)
KL_HOST_FN(hipError_t, hipTexRefGetFormat, hipErrorNotSupported)
KL_HOST_FN(hipError_t, hipTexRefGetMaxAnisotropy, hipErrorNotSupported)
KL_HOST_FN(hipError_t, hipTexRefGetMipmapFilterMode, hipErrorNotSupported)
KL_HOST_FN(hipError_t, hipTexRefGetMipmapLevelBias, hipErrorNotSupported)
KL_HOST_FN(hipError_t, hipTexRefGetMipmapLevelClamp, hipErrorNotSupported)
KL_HOST_FN(hipError_t, hipTexRefGetMipMappedArray, hipErrorNotSupported)
KL_HOST_FN(hipError_t, hipTexRefSetAddress, hipErrorNotSupported)
KL_HOST_FN(hipError_t, hipTexRefSetAddress2D, hipErrorNotSupported)
KL_HOST_FN(hipError_t, hipTexRefSetMaxAnisotropy, hipErrorNotSupported)
KL_HOST_FN(hipError_t, hipTexRefSetBorderColor, hipErrorNotSupported)
KL_HOST_FN(hipError_t, hipTexRefSetMipmapFilterMode, hipErrorNotSupported)
KL_HOST_FN(hipError_t, hipTexRefSetMipmapLevelBias, hipErrorNotSupported)
KL_HOST_FN(hipError_t, hipTexRefSetMipmapLevelClamp, hipErrorNotSupported)
KL_HOST_FN(hipError_t, hipTexRefSetMipmappedArray, hipErrorNotSupported)
KL_HOST_FN(hipError_t, hipMipmappedArrayCreate, hipErrorNotSupported)
KL_HOST_FN(hipError_t, hipMipmappedArrayDestroy, hipErrorNotSupported)
KL_HOST_FN(hipError_t, hipMipmappedArrayGetLevel, hipErrorNotSupported)
KL_HOST_FN(hipError_t, hipRegisterApiCallback, hipErrorNotSupported)
KL_HOST_FN(hipError_t, hipRemoveApiCallback, hipErrorNotSupported)
KL_HOST_FN(hipError_t, hipRegisterActivityCallback, hipErrorNotSupported)
KL_HOST_FN(hipError_t, hipRemoveActivityCallback, hipErrorNotSupported)
KL_CPU_UNSUPPORTED(hipApiName)
KL_CPU_UNSUPPORTED(hipKernelNameRef)
KL_CPU_UNSUPPORTED(hipKernelNameRefByPtr)
KL_CPU_UNSUPPORTED(hipGetStreamDeviceId)
KL_HOST_FN(hipError_t, hipStreamBeginCapture, hipErrorNotSupported)
KL_HOST_FN(hipError_t, hipStreamEndCapture, hipErrorNotSupported)
KL_HOST_FN(hipError_t, hipStreamGetCaptureInfo, hipErrorNotSupported)
KL_HOST_FN(hipError_t, hipStreamGetCaptureInfo_v2, hipErrorNotSupported)
KL_HOST_FN(hipError_t, hipStreamIsCapturing, hipErrorNotSupported)
KL_HOST_FN(hipError_t, hipStreamUpdateCaptureDependencies, hipErrorNotSupported)
KL_HOST_FN(hipError_t, hipLaunchHostFunc, hipErrorNotSupported)
KL_HOST_FN(hipError_t, hipThreadExchangeStreamCaptureMode, hipErrorNotSupported)
KL_HOST_FN(hipError_t, hipGraphCreate, hipErrorNotSupported)
KL_HOST_FN(hipError_t, hipGraphDestroy, hipErrorNotSupported)
KL_HOST_FN(hipError_t, hipGraphAddDependencies, hipErrorNotSupported)
KL_HOST_FN(hipError_t, hipGraphRemoveDependencies, hipErrorNotSupported)
KL_HOST_FN(hipError_t, hipGraphGetEdges, hipErrorNotSupported)
KL_HOST_FN(hipError_t, hipGraphGetNodes, hipErrorNotSupported)
KL_HOST_FN(hipError_t, hipGraphGetRootNodes, hipErrorNotSupported)
KL_HOST_FN(hipError_t, hipGraphNodeGetDependencies, hipErrorNotSupported)
KL_HOST_FN(hipError_t, hipGraphNodeGetDependentNodes, hipErrorNotSupported)
KL_HOST_FN(hipError_t, hipGraphNodeGetType, hipErrorNotSupported)
KL_HOST_FN(hipError_t, hipGraphDestroyNode, hipErrorNotSupported)
KL_HOST_FN(hipError_t, hipGraphClone, hipErrorNotSupported)
KL_HOST_FN(hipError_t, hipGraphNodeFindInClone, hipErrorNotSupported)
KL_HOST_FN(hipError_t, hipGraphInstantiate, hipErrorNotSupported)
KL_HOST_FN(hipError_t, hipGraphInstantiateWithFlags, hipErrorNotSupported)
KL_HOST_FN(hipError_t, hipGraphLaunch, hipErrorNotSupported)
KL_HOST_FN(hipError_t, hipGraphExecDestroy, hipErrorNotSupported)
KL_HOST_FN(hipError_t, hipGraphExecUpdate, hipErrorNotSupported)
KL_HOST_FN(hipError_t, hipGraphAddKernelNode, hipErrorNotSupported)
KL_HOST_FN(hipError_t, hipGraphKernelNodeGetParams, hipErrorNotSupported)
KL_HOST_FN(hipError_t, hipGraphKernelNodeSetParams, hipErrorNotSupported)
KL_HOST_FN(hipError_t, hipGraphExecKernelNodeSetParams, hipErrorNotSupported)
KL_HOST_FN(hipError_t, hipGraphAddMemcpyNode, hipErrorNotSupported)
KL_HOST_FN(hipError_t, hipGraphMemcpyNodeGetParams, hipErrorNotSupported)
KL_HOST_FN(hipError_t, hipGraphMemcpyNodeSetParams, hipErrorNotSupported)
KL_HOST_FN(hipError_t, hipGraphKernelNodeSetAttribute, hipErrorNotSupported)
KL_HOST_FN(hipError_t, hipGraphKernelNodeGetAttribute, hipErrorNotSupported)
KL_HOST_FN(hipError_t, hipGraphExecMemcpyNodeSetParams, hipErrorNotSupported)
KL_HOST_FN(hipError_t, hipGraphAddMemcpyNode1D, hipErrorNotSupported)
KL_HOST_FN(hipError_t, hipGraphMemcpyNodeSetParams1D, hipErrorNotSupported)
KL_HOST_FN(hipError_t, hipGraphExecMemcpyNodeSetParams1D, hipErrorNotSupported)
KL_HOST_FN(hipError_t, hipGraphAddMemcpyNodeFromSymbol, hipErrorNotSupported)
KL_HOST_FN(hipError_t, hipGraphMemcpyNodeSetParamsFromSymbol, hipErrorNotSupported)
KL_HOST_FN(hipError_t, hipGraphExecMemcpyNodeSetParamsFromSymbol, hipErrorNotSupported)
KL_HOST_FN(hipError_t, hipGraphAddMemcpyNodeToSymbol, hipErrorNotSupported)
KL_HOST_FN(hipError_t, hipGraphMemcpyNodeSetParamsToSymbol, hipErrorNotSupported)
KL_HOST_FN(hipError_t, hipGraphExecMemcpyNodeSetParamsToSymbol, hipErrorNotSupported)
KL_HOST_FN(hipError_t, hipGraphAddMemsetNode, hipErrorNotSupported)
KL_HOST_FN(hipError_t, hipGraphMemsetNodeGetParams, hipErrorNotSupported)
KL_HOST_FN(hipError_t, hipGraphMemsetNodeSetParams, hipErrorNotSupported)
KL_HOST_FN(hipError_t, hipGraphExecMemsetNodeSetParams, hipErrorNotSupported)
KL_HOST_FN(hipError_t, hipGraphAddHostNode, hipErrorNotSupported)
KL_HOST_FN(hipError_t, hipGraphHostNodeGetParams, hipErrorNotSupported)
KL_HOST_FN(hipError_t, hipGraphHostNodeSetParams, hipErrorNotSupported)
KL_HOST_FN(hipError_t, hipGraphExecHostNodeSetParams, hipErrorNotSupported)
KL_HOST_FN(hipError_t, hipGraphAddChildGraphNode, hipErrorNotSupported)
KL_HOST_FN(hipError_t, hipGraphChildGraphNodeGetGraph, hipErrorNotSupported)
KL_HOST_FN(hipError_t, hipGraphExecChildGraphNodeSetParams, hipErrorNotSupported)
KL_HOST_FN(hipError_t, hipGraphAddEmptyNode, hipErrorNotSupported)
KL_HOST_FN(hipError_t, hipGraphAddEventRecordNode, hipErrorNotSupported)
KL_HOST_FN(hipError_t, hipGraphEventRecordNodeGetEvent, hipErrorNotSupported)
KL_HOST_FN(hipError_t, hipGraphEventRecordNodeSetEvent, hipErrorNotSupported)
KL_HOST_FN(hipError_t, hipGraphExecEventRecordNodeSetEvent, hipErrorNotSupported)
KL_HOST_FN(hipError_t, hipGraphAddEventWaitNode, hipErrorNotSupported)
KL_HOST_FN(hipError_t, hipGraphEventWaitNodeGetEvent, hipErrorNotSupported)
KL_HOST_FN(hipError_t, hipGraphEventWaitNodeSetEvent, hipErrorNotSupported)
KL_HOST_FN(hipError_t, hipGraphExecEventWaitNodeSetEvent, hipErrorNotSupported)
KL_HOST_FN(hipError_t, hipMemAddressFree, hipErrorNotSupported)
KL_HOST_FN(hipError_t, hipMemAddressReserve, hipErrorNotSupported)
KL_HOST_FN(hipError_t, hipMemCreate, hipErrorNotSupported)
KL_HOST_FN(hipError_t, hipMemExportToShareableHandle, hipErrorNotSupported)
KL_HOST_FN(hipError_t, hipMemGetAccess, hipErrorNotSupported)
KL_HOST_FN(hipError_t, hipMemGetAllocationGranularity, hipErrorNotSupported)
KL_HOST_FN(hipError_t, hipMemGetAllocationPropertiesFromHandle, hipErrorNotSupported)
KL_HOST_FN(hipError_t, hipMemImportFromShareableHandle, hipErrorNotSupported)
KL_HOST_FN(hipError_t, hipMemMap, hipErrorNotSupported)
KL_HOST_FN(hipError_t, hipMemMapArrayAsync, hipErrorNotSupported)
KL_HOST_FN(hipError_t, hipMemRelease, hipErrorNotSupported)
KL_HOST_FN(hipError_t, hipMemRetainAllocationHandle, hipErrorNotSupported)
KL_HOST_FN(hipError_t, hipMemSetAccess, hipErrorNotSupported)
KL_HOST_FN(hipError_t, hipMemUnmap, hipErrorNotSupported)
KL_HOST_FN(hipError_t, hipGLGetDevices, hipErrorNotSupported)
KL_HOST_FN(hipError_t, hipGraphicsGLRegisterBuffer, hipErrorNotSupported)
KL_HOST_FN(hipError_t, hipGraphicsGLRegisterImage, hipErrorNotSupported)
KL_HOST_FN(hipError_t, hipGraphicsMapResources, hipErrorNotSupported)
KL_HOST_FN(hipError_t, hipGraphicsSubResourceGetMappedArray, hipErrorNotSupported)
KL_HOST_FN(hipError_t, hipGraphicsResourceGetMappedPointer, hipErrorNotSupported)
KL_HOST_FN(hipError_t, hipGraphicsUnmapResources, hipErrorNotSupported)
KL_HOST_FN(hipError_t, hipGraphicsUnregisterResource, hipErrorNotSupported)
KL_HOST_FN(hipError_t, hipCreateSurfaceObject, hipErrorNotSupported)
KL_HOST_FN(hipError_t, hipDestroySurfaceObject, hipErrorNotSupported)
#endif
/* ---- api inventory: end of the generated block ---- */

#undef KL_HOST_FN
#endif /* KL_CPU || KL_HIP_WHOLE */
#endif
