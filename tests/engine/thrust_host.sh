#!/usr/bin/env bash
# Thrust and C++ atomics on the cpu backend (tests/engine/fixtures/thrust; docs/kernels.md).
# Where the compiler can find a Thrust (the CUDA toolkit's CCCL folder, or a system-wide one),
# a program that sorts, scans and reduces with it beside its own kernels goes in whole and runs
# under `kladder exec` to its own PASS; the same program with a barrier missing in its kernel
# is caught (a race, both lines named). With KLADDER_THRUST=off the Thrust header is a named
# missing header. A CUB header kladder does not stand in for (kernels/kl_cub.h) is named as
# unsupported at the include the preprocessor reaches, never at one under a branch not taken.
# Host code using std::atomic loads and runs (the access hooks of atomics are kladder's own).
# kl-test: once (the host compiler and Thrust are the work here; the scan and exec paths it drives are sanitised in scan.sh and exec.sh)
. tests/tap.sh
set -u
export XDG_DATA_HOME=$KL_TMP/data XDG_CACHE_HOME=$KL_CACHE
fx=tests/engine/fixtures/thrust

out=$("$KLADDER" exec "$fx/host_atomics.cu" 2>&1)
rc=$?
sed 's/^/# /' <<<"$out" | tail -n 4
tap_check "host std::atomic beside a kernel: the program's own PASS (exit $rc)" \
    sh -c "test $rc -eq 0 && printf '%s' \"\$1\" | grep -q '^PASS'" _ "$out"

"$KLADDER" scan --json "$fx" >"$KL_TMP/scan.json" 2>"$KL_TMP/scan.err"
cause() { python3 -c 'import json,sys
for f in json.load(open(sys.argv[1]))["files"]:
    if f["path"].endswith(sys.argv[2]): print(f["cause"], f.get("what", ""), f.get("where", ""))' "$@"; }
tap_check "cub_block.cu: a CUB header kladder does not stand in for named unsupported at the include reached, line 7 ($(cause "$KL_TMP/scan.json" cub_block.cu))" \
    test "$(cause "$KL_TMP/scan.json" cub_block.cu)" = "unsupported-api cub/block/block_radix_sort.cuh cub_block.cu:7"

have_thrust=0
for d in "${KLADDER_THRUST:-}" "${CUDA_HOME:-/usr/local/cuda}/include/cccl" /usr/local/cuda/include/cccl /usr/include; do
    [ -n "$d" ] && [ -f "$d/thrust/version.h" ] && have_thrust=1
done
if [ "$have_thrust" = 1 ]; then
    tap_check "keys_sort.cu goes in whole with both kernels ($(cause "$KL_TMP/scan.json" keys_sort.cu))" \
        test "$(cause "$KL_TMP/scan.json" keys_sort.cu)" = "ok  "
    out=$("$KLADDER" exec "$fx/keys_sort.cu" 2>&1)
    rc=$?
    sed 's/^/# /' <<<"$out" | tail -n 3
    tap_check "keys_sort.cu under exec: Thrust's sort, scan and reduce, the program's own PASS (exit $rc)" \
        sh -c "test $rc -eq 0 && printf '%s' \"\$1\" | grep -q 'PASS'" _ "$out"
    out=$("$KLADDER" exec -D BUG "$fx/keys_sort.cu" 2>&1)
    rc=$?
    sed 's/^/# /' <<<"$out" | tail -n 4
    line=$(grep -n 'part\[threadIdx.x\] += part\[threadIdx.x + s\];' "$fx/keys_sort.cu" | head -1 | cut -d: -f1)
    tap_check "keys_sort.cu -D BUG: the race in block_sums named at line $line (exit $rc)" \
        sh -c "test $rc -eq 1 && printf '%s' \"\$1\" | grep -q 'race: kernel block_sums' &&
               printf '%s' \"\$1\" | grep -q 'keys_sort.cu:$line'" _ "$out"
else
    tap_skip "no Thrust for the compiler (the CUDA toolkit's include/cccl or libthrust-dev)"
fi
if [ -f /usr/include/thrust/version.h ]; then
    tap_skip "a system-wide Thrust: KLADDER_THRUST=off does not hide it"
else
    KLADDER_THRUST=off "$KLADDER" scan --json "$fx" >"$KL_TMP/off.json" 2>/dev/null
    tap_check "KLADDER_THRUST=off: Thrust is a named missing header ($(cause "$KL_TMP/off.json" keys_sort.cu))" \
        test "$(cause "$KL_TMP/off.json" keys_sort.cu)" = "missing-header thrust/device_vector.h keys_sort.cu:8"
fi
