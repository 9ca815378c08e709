#!/usr/bin/env bash
# The CUDA math libraries' host API (kernels/kl_cublas.h, kl_cufft.h, kl_cusparse.h,
# kl_cusolver.h, kl_curand.h and kl_host.h's library data types) is the toolkit's
# (scripts/cuda_lib_inventory.py): where a toolkit is installed, the generated blocks are what its
# headers give, every function is there, and the script fails both ways: a block edited by hand
# is found stale, an enumeration declared by hand beside the generated one is refused.
# kl-test: once (a script and the toolkit's headers; nothing of ours is compiled in)
. tests/tap.sh
inc=${CUDA_INCLUDE:-/usr/local/cuda/include}
for h in cublas_api.h cufft.h cusparse.h cusolverDn.h curand.h library_types.h math_constants.h; do
    if [ ! -f "$inc/$h" ]; then
        tap_skip "no CUDA toolkit header $inc/$h (the generated blocks are checked where one is)"
        exit 0
    fi
done
python3 scripts/cuda_lib_inventory.py --include "$inc" --check --table >"$KL_TMP/table" 2>&1
rc=$?
sed 's/^/# /' "$KL_TMP/table"
tap_check "the generated blocks are the toolkit's ($inc)" test $rc -eq 0
# every function of each header is declared: the names the headers declare, against the blocks
python3 - "$inc" >"$KL_TMP/absent" <<'EOF'
import re, sys
inc = sys.argv[1]
for header, ours in (("cublas_api.h", "kl_cublas.h"), ("cufft.h", "kl_cufft.h"),
                     ("cusparse.h", "kl_cusparse.h"), ("cusolverDn.h", "kl_cusolver.h"),
                     ("curand.h", "kl_curand.h")):
    text = re.sub(r"/\*.*?\*/", " ", open("%s/%s" % (inc, header)).read(), flags=re.S)
    names = set(re.findall(r"\b(?:CUBLASWINAPI|CUFFTAPI|CUSPARSEAPI|CUSOLVERAPI|CURANDAPI)\s+(\w+)\s*\(", text))
    have = open("kernels/" + ours).read()
    for n in sorted(names - {"__attribute__"}):  # CUFFTAPI's own #define
        if not re.search(r"\b%s\b" % n, have):
            print("%s: %s" % (header, n))
EOF
sed 's/^/# absent: /' "$KL_TMP/absent"
tap_check "every function of cublas_api.h, cufft.h, cusparse.h, cusolverDn.h, curand.h is declared" \
    test ! -s "$KL_TMP/absent"
tap_check "a status value is the toolkit's (CUFFT_NOT_SUPPORTED = 0x10)" \
    grep -qx '    CUFFT_NOT_SUPPORTED = 0x10,' kernels/kl_cufft.h
tap_check "cublas_v2.h's name for a _v2 function (cublasSgemm)" \
    grep -qx '#define cublasSgemm cublasSgemm_v2' kernels/kl_cublas.h
tap_check "a function beyond the common ones answers not supported (cublasCgelsBatched)" \
    grep -qE '(^| )KL_HOST_CUBLAS\(cublasCgelsBatched\)' kernels/kl_cublas.h

tap_check "a math constant (CUDART_PI_F), as math_constants.h gives it" \
    grep -qx '#define CUDART_PI_F 3.141592654F' kernels/kl_math_constants.h

# the other sides, on a copy of the tree's script and headers
mkdir -p "$KL_TMP/t/scripts" "$KL_TMP/t/kernels"
cp scripts/cuda_lib_inventory.py "$KL_TMP/t/scripts/"
cp kernels/kl_host.h kernels/kl_cublas.h kernels/kl_cufft.h kernels/kl_cusparse.h \
    kernels/kl_cusolver.h kernels/kl_curand.h kernels/kl_math_constants.h "$KL_TMP/t/kernels/"
sed -i 's/^    CUSPARSE_STATUS_NOT_SUPPORTED = 10,$/    CUSPARSE_STATUS_NOT_SUPPORTED = 11,/' "$KL_TMP/t/kernels/kl_cusparse.h"
python3 "$KL_TMP/t/scripts/cuda_lib_inventory.py" --include "$inc" --check >"$KL_TMP/out" 2>&1
rc=$?
sed 's/^/# /' "$KL_TMP/out"
tap_check "a value edited by hand in a block: --check fails, naming the file (exit $rc)" \
    sh -c "test $rc -eq 1 && grep -q 'kernels/kl_cusparse.h is not what' '$KL_TMP/out'"
cp kernels/kl_cusparse.h "$KL_TMP/t/kernels/"
sed -i 's|^#if defined(KL_CPU)$|&\ntypedef enum { CUFFT_SUCCESS = 0 } cufftResult;|' "$KL_TMP/t/kernels/kl_cufft.h"
python3 "$KL_TMP/t/scripts/cuda_lib_inventory.py" --include "$inc" >"$KL_TMP/out" 2>&1
rc=$?
sed 's/^/# /' "$KL_TMP/out"
tap_check "cufftResult declared by hand beside the generated one: refused, named" \
    sh -c "test $rc -ne 0 && grep -q 'declares enum cufftResult by hand' '$KL_TMP/out'"
# docs/kernels.md shows the table the script prints
grep -v '^# ' "$KL_TMP/table" >"$KL_TMP/rows"
tap_check "docs/kernels.md shows the libraries' table" \
    bash -c "grep -Fxf '$KL_TMP/rows' docs/kernels.md | diff -q - '$KL_TMP/rows'"
