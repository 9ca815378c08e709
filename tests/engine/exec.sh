#!/usr/bin/env bash
# kladder exec: small programs of our own (tests/engine/fixtures/exec/) that check their own
# results, run whole on the cpu emulator. Five defects, each caught with its kind and line where
# kladder can catch it: a missing barrier before reading shared memory (race), a copy one
# element past an allocation, every block's plain increment of one counter (global race, the
# program's own check fails), a last-block sum without __threadfence (race on the partial sums
# under pct), and reads of memory never written (half an input never copied, a halo cell never
# staged then copied device to device, a memset of half the sums; under every schedule, one
# finding per allocation and launch with its count). Three more guards: a kernel write
# past an allocation (HIP, hipLaunchKernelGGL), one into the slack before the guard page (the
# sentinels), and a kernel read of freed memory. The correct twin of each runs clean with exit 0
# (one of them on a stream between events, asking the device's wave size and seeing a launch of
# too many threads refused). Bad input: no main() and a compile error (exit 2), a hang (exit 3),
# a crash and an exit 7 (exit 1, kladder itself unharmed). --json says the same. Texture
# objects over CUDA arrays and a linear buffer (texture_ok.cu) give the filtered values the
# program computes itself, and an address mode mixed up is its own check's failure. Symbols
# (__constant__ and __device__, CUDA's and HIP_SYMBOL) are copied to and from, at an offset and
# through their address, and a copy past one is caught with the symbol's name and size. Pitched
# memory (cudaMallocPitch, cudaMemset2D, cudaMemcpy2D) and cudaLaunchKernel/hipLaunchKernel
# run; a 2D copy past its allocation and a kernel stepping by the width are caught. Template
# kernels launched with their template arguments deduced run, and a read past one's input is
# caught at its line.
. tests/tap.sh
export XDG_DATA_HOME=$KL_TMP/data XDG_CACHE_HOME=$KL_CACHE
fx=tests/engine/fixtures/exec

# run NAME [ARGS...]: kladder exec's stdout in $out, its exit status in $rc
run() {
    out=$("$KLADDER" exec "$@" 2>"$KL_TMP/err")
    rc=$?
}
has() { grep -qF -- "$1" <<<"$out"; }

# ---- the correct programs run clean ----
for f in reduce_ok.cu copy_ok.cu counter_ok.cu lastblock_ok.cu uninit_ok.cu stencil_ok.cu \
    init_by_kernel_ok.cu symbols_ok.cu symbols_ok.hip pitched_ok.cu template_deduced_ok.cu \
    oob_ok.hip texture_ok.cu; do
    run "$fx/$f"
    tap_check "$f passes: exit 0 ($rc)" test $rc -eq 0
    tap_check "$f: its own PASS kept, verdict pass" bash -c \
        'grep -q PASS <<<"$1" && grep -q "^========= pass: 0 findings; the program: exit status 0" <<<"$1"' _ "$out"
done
run "$fx/oob_ok.hip"
tap_check "a .hip program sees a wave-64 device" has "(cpu, wave 64, schedule pct"

# texture objects: the values texture_ok.cu checks tell the address modes apart (expecting the
# border's values from the clamped texture fails the program's own check)
mkdir -p "$KL_TMP/tex"
cp "$fx/common.h" "$KL_TMP/tex/"
sed 's/const float want\[5\] = {bilinear(at\[i\].x, at\[i\].y, 0)/const float want[5] = {bilinear(at[i].x, at[i].y, 1)/' \
    "$fx/texture_ok.cu" >"$KL_TMP/tex/texture_mixed.cu"
run "$KL_TMP/tex/texture_mixed.cu"
tap_check "a clamped texture read where a border was expected: the program's own check fails (exit $rc)" \
    bash -c 'test "$1" -eq 1 && grep -q "^FAIL: query .* value 0" <<<"$2"' _ "$rc" "$out"

# ---- the defects ----
run "$fx/reduce_nosync.cu"
tap_check "missing barrier: exit 1 ($rc)" test $rc -eq 1
tap_check "missing barrier: a race on shared memory, both lines named" bash -c \
    'grep -q "^========= race: kernel block_sum<<<(8,1,1),(128,1,1)>>> launched at reduce_nosync.cu:41" <<<"$1" &&
     grep -q "data race on __shared__ memory.*reduce_nosync.cu:20.*reduce_nosync.cu:23" <<<"$1"' _ "$out"

run "$fx/copy_past.cu"
tap_check "copy past an allocation: exit 1 ($rc)" test $rc -eq 1
tap_check "copy past an allocation: the call, the overrun and the allocation's line" has \
    "copy-out-of-bounds: copy of 1204 bytes at copy_ok.cu:28: the source runs 4 bytes past the end of the 1200-byte device allocation made at copy_ok.cu:24"
tap_check "copy past an allocation: the call fails, the program says so" has "copy_ok.cu:28: error 1"

# symbols: a copy at an offset that runs past a __constant__ array, and a cudaMemcpy through
# cudaGetSymbolAddress's pointer past a __device__ float
run "$fx/symbol_past.cu"
tap_check "a copy past a __constant__ array: exit 1 ($rc)" test $rc -eq 1
tap_check "a copy past a symbol: the call's line, the overrun, the symbol and its size" has \
    "copy-out-of-bounds: copy to a symbol of 20 bytes at symbols_ok.cu:42: the destination runs 8 bytes past the end of the 20-byte symbol c_taps (it starts at byte 8)"
tap_check "a copy past a symbol: the call fails, the program says so" has "symbols_ok.cu:42: error 1"
mkdir -p "$KL_TMP/sym"
cp "$fx/common.h" "$KL_TMP/sym/"
sed 's/cudaMemcpy(scale, &quarter, sizeof quarter,/cudaMemcpy(scale, taps, 2 * sizeof quarter,/' \
    "$fx/symbols_ok.cu" >"$KL_TMP/sym/symbol_address_past.cu"
run "$KL_TMP/sym/symbol_address_past.cu"
tap_check "a cudaMemcpy past a __device__ float through its symbol's address: the symbol named ($rc)" \
    bash -c 'test "$2" -eq 1 && grep -q "copy-out-of-bounds: copy of 8 bytes at symbol_address_past.cu:47: the destination runs 4 bytes past the end of the 4-byte symbol d_scale (it starts at byte 0)" <<<"$1"' _ "$out" "$rc"

# pitched memory: a 2D copy of one row too many, a kernel that steps by the width, not the
# pitch (it reads the rows' padding, which nothing wrote), and a launch through a void pointer
run "$fx/pitch_rows_past.cu"
tap_check "a 2D copy of one row too many: exit 1 ($rc)" test $rc -eq 1
tap_check "a 2D copy past a pitched allocation: the rows, the overrun and the allocation's line" has \
    "copy-out-of-bounds: 2D copy (38 rows of 400 bytes) of 19344 bytes at pitched_ok.cu:41: the source runs 400 bytes past the end of the 18944-byte device allocation made at pitched_ok.cu:33 (it starts at byte 0)"
run --schedule default "$fx/stride_not_pitch.cu"
tap_check "rows stepped by the width, not the pitch: exit 1 ($rc)" test $rc -eq 1
tap_check "stepping by the width: the padding's never-written bytes read at the kernel's line" bash -c \
    'grep -q "^========= uninitialised-read: a read of 4 bytes at byte [0-9]* of the 18944-byte device allocation made at pitched_ok.cu:33" <<<"$1" &&
     grep -q "at scale_rows (pitched_ok.cu:20" <<<"$1" &&
     grep -q "in kernel scale_rows<<<(4,37,1),(32,1,1)>>> launched at pitched_ok.cu:39 (launch 1)" <<<"$1" &&
     grep -q "and 799 more reads of never-written bytes of it in this launch" <<<"$1"' _ "$out"
# the kernel as a void pointer: found by its address, run with its own parameter types
mkdir -p "$KL_TMP/launch"
cp "$fx/common.h" "$fx/stride_not_pitch.cu" "$KL_TMP/launch/"
sed 's/cudaLaunchKernel(scale_rows,/cudaLaunchKernel((const void *)scale_rows,/' \
    "$fx/pitched_ok.cu" >"$KL_TMP/launch/pitched_ok.cu"
run "$KL_TMP/launch/pitched_ok.cu"
tap_check "cudaLaunchKernel of a kernel cast to a void pointer runs it ($rc)" \
    bash -c 'test "$2" -eq 0 && grep -q "^pitch 512, 0 wrong: PASS" <<<"$1"' _ "$out" "$rc"
run "$KL_TMP/launch/stride_not_pitch.cu"
tap_check "a kernel launched as a void pointer: its finding names it and its line ($rc)" bash -c \
    'test "$2" -eq 1 && grep -q "at scale_rows (pitched_ok.cu:20" <<<"$1" &&
     grep -q "in kernel scale_rows<<<(4,37,1),(32,1,1)>>> launched at pitched_ok.cu:39" <<<"$1"' _ "$out" "$rc"
cat >"$KL_TMP/launch/template_void.cu" <<'EOF'
#include <cstdio>
#include <cuda_runtime.h>
template <int N> __global__ void fill(int *v) { v[threadIdx.x] = N; }
int main()
{
    int *v;
    cudaMalloc(&v, 32 * sizeof(int));
    void *args[] = {&v};
    cudaError_t e = cudaLaunchKernel((const void *)fill<3>, dim3(1), dim3(32), args, 0, 0);
    printf("launch: %s\n", cudaGetErrorName(e));
    return e != cudaSuccess;
}
EOF
run "$KL_TMP/launch/template_void.cu"
tap_check "a template kernel's instance as a void pointer: not supported, said by the call ($rc)" \
    bash -c 'test "$2" -eq 1 && grep -q "^launch: cudaErrorNotSupported" <<<"$1"' _ "$out" "$rc"

# a template kernel launched with its arguments deduced, one element past its input
run -D PAST=1 "$fx/template_deduced_ok.cu"
tap_check "a deduced template kernel's read past its input: exit 1 ($rc)" test $rc -eq 1
tap_check "a deduced template kernel's read past its input: the allocation, the kernel's line, the launch" bash -c \
    'grep -q "out-of-bounds: a read 0 bytes past its end, in the 800-byte device allocation made at template_deduced_ok.cu:37" <<<"$1" &&
     grep -q "(template_deduced_ok.cu:17" <<<"$1" &&
     grep -q "in kernel scaled_copy<<<(4,1,1),(64,1,1)>>> launched at template_deduced_ok.cu:43 (launch 1)" <<<"$1"' _ "$out"

run "$fx/counter_race.cu"
tap_check "plain increment of one counter: exit 1 ($rc)" test $rc -eq 1
tap_check "plain increment: a race on global memory at the increment's line" bash -c \
    'grep -q "^========= race: kernel count_blocks<<<(64,1,1),(32,1,1)>>>" <<<"$1" &&
     grep -q "data race on global memory.*counter_ok.cu:12" <<<"$1"' _ "$out"
tap_check "plain increment: the program's own check fails beside the finding" \
    bash -c 'grep -q "of 64 blocks: FAIL" <<<"$1"' _ "$out"

run "$fx/lastblock_nofence.cu"
tap_check "last block without __threadfence: exit 1 ($rc)" test $rc -eq 1
tap_check "no fence: the partial sum's store and the last block's read race" bash -c \
    'grep -q "data race on global memory.*lastblock_ok.cu:23.*lastblock_ok.cu:34" <<<"$1"' _ "$out"

run "$fx/uninit_read.cu"
tap_check "read of never-written memory: exit 1 ($rc)" test $rc -eq 1
tap_check "never-written memory: the allocation, the read's thread and line, the launch, the count" bash -c \
    'grep -q "^========= uninitialised-read: a read of 4 bytes at byte [0-9]* of the 1024-byte device allocation made at uninit_ok.cu:24, never written (no copy, memset or kernel store reached it): by thread ([0-9]*,0,0) of block ([0-9]*,0,0)" <<<"$1" &&
     grep -q "at square (uninit_ok.cu:14" <<<"$1" &&
     grep -q "in kernel square<<<(4,1,1),(64,1,1)>>> launched at uninit_ok.cu:27 (launch 1)" <<<"$1" &&
     grep -q "and 127 more reads of never-written bytes of it in this launch" <<<"$1" &&
     grep -q "^========= finding: 1 finding; the program: exit status 1" <<<"$1"' _ "$out"
tap_check "never-written memory: copying the half never written back to the host is no finding" \
    bash -c 'test "$(grep -c "^========= uninitialised-read" <<<"$1")" -eq 1' _ "$out"
# a device-to-device copy carries never-written bytes along: the stencil's missing right halo
# cell is staged on the device first, then copied whole into the stencil's input
for s in pct default random; do
    run --schedule $s "$fx/stencil_halo.cu"
    tap_check "schedule $s: a halo cell never staged, copied device to device, then read: exit 1 ($rc)" \
        test $rc -eq 1
    tap_check "schedule $s: the halo read names the input's allocation, its last cell and the stencil's line" bash -c \
        'grep -q "^========= uninitialised-read: a read of 4 bytes at byte 2004 of the 2008-byte device allocation made at stencil_ok.cu:27" <<<"$1" &&
         grep -q "at smooth (stencil_ok.cu:16" <<<"$1" &&
         grep -q "in kernel smooth<<<(4,1,1),(128,1,1)>>> launched at stencil_ok.cu:31 (launch 1)$" <<<"$1"' _ "$out"
done
run --schedule adversarial "$fx/memset_short.cu"
tap_check "a memset of half the sums: exit 1 ($rc)" test $rc -eq 1
tap_check "a short memset: the second launch's reads of the sums never zeroed, counted" bash -c \
    'grep -q "^========= uninitialised-read: a read of 4 bytes at byte \(6[4-9]\|[7-9][0-9]\|1[0-2][0-9]\) of the 128-byte device allocation made at init_by_kernel_ok.cu:37" <<<"$1" &&
     grep -q "at add_odd (init_by_kernel_ok.cu:25" <<<"$1" &&
     grep -q "launched at init_by_kernel_ok.cu:42 (launch 2)" <<<"$1" &&
     grep -q "and 15 more reads of never-written bytes of it in this launch" <<<"$1"' _ "$out"

run "$fx/oob_write.hip"
tap_check "kernel write past an allocation: exit 1 ($rc)" test $rc -eq 1
tap_check "kernel write past an allocation: access, allocation, thread, kernel line, launch" bash -c \
    'grep -q "out-of-bounds: a write 0 bytes past its end, in the 4000-byte device allocation made at oob_ok.hip:29: by thread (104,0,0) of block (7,0,0)" <<<"$1" &&
     grep -q "at iota (oob_ok.hip:15" <<<"$1" &&
     grep -q "in kernel iota<<<(8,1,1),(128,1,1)>>> launched at oob_ok.hip:30" <<<"$1" &&
     grep -q "the program: stopped by kladder at the finding" <<<"$1"' _ "$out"
run --schedule default "$fx/oob_write.hip"
tap_check "kernel write past an allocation, default schedule: caught at the fault ($rc)" bash -c \
    'test $2 -eq 1 && grep -q "out-of-bounds: a write 0 bytes past its end" <<<"$1"' _ "$out" $rc

run "$fx/use_after_free.cu"
tap_check "use after free: exit 1 ($rc)" test $rc -eq 1
tap_check "use after free: where it was made, freed and read" bash -c \
    'grep -q "use-after-free: a read at byte [0-9]* of it, freed at use_after_free.cu:21, in the 512-byte device allocation made at use_after_free.cu:18" <<<"$1" &&
     grep -q "at add_one (use_after_free.cu:10" <<<"$1"' _ "$out"

run "$fx/slack_write.cu"
tap_check "a write into the slack before the guard: exit 1 ($rc)" test $rc -eq 1
tap_check "a slack write: the sentinels name the allocation and the launch" bash -c \
    'grep -q "out-of-bounds: a write 0 bytes past the end of the 40-byte device allocation made at slack_write.cu:17" <<<"$1" &&
     grep -q "found after the launch at slack_write.cu:18 (the last launch: kernel fill<<<(1,1,1),(32,1,1)>>>" <<<"$1"' _ "$out"

# ---- the other schedules run the correct twins clean and still catch the copy ----
for s in default adversarial random; do
    run --schedule $s "$fx/lastblock_ok.cu"
    tap_check "schedule $s: the correct last-block sum passes ($rc)" test $rc -eq 0
    run --schedule $s "$fx/init_by_kernel_ok.cu"
    tap_check "schedule $s: memory a kernel and memsets wrote, read and added to, passes ($rc)" test $rc -eq 0
done
run --schedule default "$fx/copy_past.cu"
tap_check "schedule default: the copy past an allocation is caught ($rc)" test $rc -eq 1

# ---- --json ----
run --json "$fx/counter_race.cu"
tap_check "--json: exit 1 ($rc)" test $rc -eq 1
tap_check "--json: verdict, a race finding, the program's exit status and output tail" \
    python3 -c '
import json, sys
d = json.loads(sys.argv[1])
assert d["verdict"] == "finding", d["verdict"]
assert d["findings"][0]["kind"] == "race"
assert "counter_ok.cu:12" in d["findings"][0]["report"]
assert d["program"]["exit_status"] == 1
assert "FAIL" in d["program"]["output_tail"]
' "$out"

# ---- bad input ----
run "$fx/no_main.cu"
tap_check "no main(): exit 2 ($rc)" test $rc -eq 2
tap_check "no main(): one line naming the file" bash -c \
    'test "$(wc -l <"$1")" -eq 1 && grep -q "no_main.cu defines no main()" "$1"' _ "$KL_TMP/err"
run "$fx/bad_compile.cu"
tap_check "a file that does not compile: exit 2 ($rc)" test $rc -eq 2
tap_check "a compile error: the compiler's first error line" \
    grep -q "bad_compile.cu does not compile for the cpu backend: .*undeclared_name" "$KL_TMP/err"
run --timeout 2 "$fx/hang.cu"
tap_check "a program that never ends: exit 3 ($rc)" test $rc -eq 3
tap_check "a hang: verdict hang, its output kept" bash -c \
    'grep -q "^waiting" <<<"$1" && grep -q "^========= hang: 0 findings; the program: killed after the 2 s time limit" <<<"$1"' _ "$out"
run "$fx/segv.cu"
tap_check "a program that crashes: exit 1 ($rc)" test $rc -eq 1
tap_check "a crash is the program's verdict, its output kept" bash -c \
    'grep -q "^about to crash" <<<"$1" && grep -q "^========= crash: 0 findings; the program: killed by signal 11" <<<"$1"' _ "$out"
run "$fx/exit7.cu" -- one "two words"
tap_check "a program that exits 7: exit 1 ($rc)" test $rc -eq 1
tap_check "exit 7: its arguments reached it, its status reported" bash -c \
    'grep -q "^arg 2: two words" <<<"$1" && grep -q "the program: exit status 7 (the program.s own check failed" <<<"$1"' _ "$out"
run "$fx/reduce_ok.cu" --schedule sometimes
tap_check "a bad --schedule: exit 2 ($rc)" test $rc -eq 2
run
tap_check "no FILE: exit 2 ($rc)" test $rc -eq 2
run "$fx/reduce_ok.cu" -D '1bad'
tap_check "a bad -D: exit 2 ($rc)" test $rc -eq 2

echo "1..$_tap_n"
