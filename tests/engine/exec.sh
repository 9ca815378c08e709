#!/usr/bin/env bash
# kladder exec: small programs of our own (tests/engine/fixtures/exec/) that check their own
# results, run whole on the cpu emulator. Five defects, each caught with its kind and line where
# kladder can catch it: a missing barrier before reading shared memory (race), a copy one
# element past an allocation, every block's plain increment of one counter (global race, the
# program's own check fails), a last-block sum without __threadfence (race on the partial sums
# under pct), and a read of memory never written (half an input never copied). Three more
# guards: a kernel write past an allocation (HIP, hipLaunchKernelGGL), one into the slack before
# the guard page (the sentinels), and a kernel read of freed memory. The correct twin of each
# runs clean with exit 0 (one of them on a stream between events, asking the device's wave size
# and seeing a launch of too many threads refused). Bad input: no main() and a compile error
# (exit 2), a hang (exit 3), a crash and an exit 7 (exit 1, kladder itself unharmed). --json
# says the same. Texture objects over CUDA arrays and a linear buffer (texture_ok.cu) give the
# filtered values the program computes itself, and an address mode mixed up is its own check's
# failure. exec_guards.sh has the rest of the guards and of the runtime.
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
for f in reduce_ok.cu copy_ok.cu counter_ok.cu lastblock_ok.cu uninit_ok.cu oob_ok.hip \
    texture_ok.cu; do
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
