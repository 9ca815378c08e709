#!/usr/bin/env bash
# CUB on the cpu backend (kernels/kl_cub.h; tests/engine/fixtures/cub; docs/kernels.md): block
# reductions agree with a hand-written shared-memory tree and the program passes its own check;
# TempStorage reused without a barrier between two reductions is a race named in the kernel;
# the aggregate read in thread 1 (CUB gives it to thread 0 only) fails the program's own
# check; warp reductions, block scans and the device-wide algorithms with their two-phase
# storage protocol give the host's results; hipCUB the same with the wave as a warp's width;
# `kladder scan` finds every kernel launchable.
. tests/tap.sh
set -u
export XDG_DATA_HOME=$KL_TMP/data XDG_CACHE_HOME=$KL_CACHE
fx=tests/engine/fixtures/cub

run_exec() { # [OPTIONS...] FILE: out and rc of kladder exec
    out=$("$KLADDER" exec "$@" 2>&1)
    rc=$?
    sed 's/^/# /' <<<"$out" | tail -n 4
}
passes() { test "$rc" -eq 0 && printf '%s' "$out" | grep -q 'PASS'; }

run_exec "$fx/block_reduce.cu"
tap_check "BlockReduce Sum (num_valid), Reduce with a functor and cub::Max over items: the tree's sums and the program's PASS (exit $rc)" passes

run_exec -D REUSE_BUG "$fx/block_reduce.cu"
tap_check "TempStorage reused without __syncthreads(): a race in cub_sum_max on its shared memory (exit $rc)" \
    sh -c "test $rc -eq 1 && printf '%s' \"\$1\" | grep -q 'race: kernel cub_sum_max' &&
           printf '%s' \"\$1\" | grep -q 'data race on __shared__ memory'" _ "$out"

run_exec -D LANE_BUG "$fx/block_reduce.cu"
tap_check "the aggregate written from thread 1: the program's own check fails (exit $rc)" \
    sh -c "test $rc -eq 1 && printf '%s' \"\$1\" | grep -q 'FAIL' &&
           printf '%s' \"\$1\" | grep -q \"program's own check failed\"" _ "$out"

run_exec "$fx/warp_scan.cu"
tap_check "WarpReduce (32 and 16 lanes, valid items) and BlockScan sums, scans and items: PASS (exit $rc)" passes

run_exec "$fx/device_wide.cu"
tap_check "DeviceReduce, DeviceScan, DeviceRadixSort, DeviceSelect, DeviceRunLengthEncode in two phases: PASS (exit $rc)" passes

run_exec "$fx/hipcub_reduce.hip"
tap_check "hipCUB: BlockReduce, WarpReduce over the wave (64 lanes for a .hip file), DeviceReduce with hipError_t: PASS (exit $rc)" passes

"$KLADDER" scan --backend cpu --json "$fx" >"$KL_TMP/scan.json" 2>"$KL_TMP/scan.err"
summary=$(python3 -c 'import json,sys
fs = json.load(open(sys.argv[1]))["files"]
bad = [f["path"] + ": " + f["cause"] for f in fs if f["cause"] != "ok"]
bad += [f["path"] + ": " + e["kernel"] + " " + e["state"] for f in fs for e in f.get("entries", []) if e["state"] != "launchable"]
print(len(fs), sum(len(f.get("entries", [])) for f in fs), "; ".join(bad) or "none")' "$KL_TMP/scan.json")
echo "# files, kernels, not launchable: $summary"
tap_check "scan --backend cpu: every file goes in, every kernel launchable ($summary)" \
    test "$summary" = "4 7 none"
