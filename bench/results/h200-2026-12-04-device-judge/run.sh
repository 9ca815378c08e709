#!/usr/bin/env bash
# The contract judge's first pass on the device (engine/exec/exec_judge_device.c) on the H200.
# aiter-6344's rung 5 judges an 8192 x 65536 bf16 output once a repeat; reading both copies
# back (2 GiB) and judging them on the host took over 150 s a run. Now the GPU finds each row's
# scale and counts the elements outside the contract's bound, and nothing is read back when
# there are none. Where there are some and the check has no arbiter (aiter-6344's reference has
# no kl_acc), the GPU also gives the count, the first and worst element and the NaN/Inf count,
# the finding is told from those, and only the worst element is read back.
#   1. run --case aiter-6344 --backend cuda as shipped (the device judge), timed, with
#      KLADDER_JUDGE_TRACE naming each judgement made on the device;
#   2. the same with KLADDER_JUDGE=host (the old path), timed, cut at 120 s;
#   3. the RMSNorm suites of tests/engine/judge_device.sh (tolerance 0, so every check reaches
#      the judge: the race, and a deterministic kernel with finite misses) on cuda both ways:
#      the verdicts and findings must be the same (the race's may differ: its outputs do).
# What to expect: run 1 in seconds, with "0 of N outside the bound" lines for the fixed
# variant's wide shapes, "failed on the device" lines for the buggy variant's failing checks
# (caught as before, exit 0) and none sent to the host; run 2 far slower (or cut at 120 s: exit
# 124); the two verdict lists equal where run 2 finished; part 3 "same" (the findings too).
# Within 5 minutes in all.
# Run from the repository root on the GPU machine:
#
#   BIN=build/device/kladder OUT=build/device-out bash bench/results/h200-2026-12-04-device-judge/run.sh
set -u
cd "$(dirname "$0")/../../.."
BIN=${BIN:-build/kladder}
# the device bundle carries the libraries it was built with beside it
[ -d "$(dirname "$BIN")/lib" ] && export LD_LIBRARY_PATH="$(dirname "$BIN")/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
OUT=${OUT:-build/device-out}
mkdir -p "$OUT"
export XDG_DATA_HOME=$OUT/data XDG_CACHE_HOME=$OUT/cache
"$BIN" devices >"$OUT/devices.txt" 2>&1
nvidia-smi --query-gpu=name,driver_version --format=csv >"$OUT/gpu.txt" 2>&1

# verdicts FILE: one "variant check verdict" line per check of a --json report
verdicts() {
    python3 - "$1" <<'PY'
import json, sys
try:
    for c in json.load(open(sys.argv[1]))["checks"]:
        print(c["variant"], c["check"], c["verdict"])
except Exception as e:
    print("unreadable:", e)
PY
}

summary=$OUT/summary.txt
: >"$summary"
for judge in ${KL_JUDGES:-device host}; do  # KL_JUDGES=device: the new path alone
    s=$SECONDS
    KLADDER_JUDGE=$judge KLADDER_JUDGE_TRACE="$OUT/trace-6344-$judge.txt" \
        timeout -k 5 120 "$BIN" --db "$OUT/k.db" run --case aiter-6344 --backend cuda \
        --json --no-progress >"$OUT/6344-$judge.json" 2>"$OUT/6344-$judge.err"
    rc=$?
    touch "$OUT/trace-6344-$judge.txt"
    verdicts "$OUT/6344-$judge.json" >"$OUT/6344-$judge.verdicts"
    echo "aiter-6344 judge=$judge: exit $rc, $((SECONDS - s)) s, checks $(wc -l <"$OUT/6344-$judge.verdicts")," \
        "device judgements: $(grep -c ' 0 of ' "$OUT/trace-6344-$judge.txt") passed there," \
        "$(grep -c 'failed on the device' "$OUT/trace-6344-$judge.txt") failed there," \
        "$(grep -c 'host judges' "$OUT/trace-6344-$judge.txt") sent to the host" | tee -a "$summary"
done
if cmp -s "$OUT/6344-device.verdicts" "$OUT/6344-host.verdicts"; then
    echo "aiter-6344: the same verdicts both ways" | tee -a "$summary"
else
    echo "aiter-6344: verdicts differ (or the host run was cut): diff below" | tee -a "$summary"
    diff "$OUT/6344-device.verdicts" "$OUT/6344-host.verdicts" | head -n 20 | tee -a "$summary"
fi

# Part 3: every check reaches the judge.
dir=$OUT/rms
mkdir -p "$dir"
cp kernels/aiter_6344.kl "$dir/"
cat >>"$dir/aiter_6344.kl" <<'KL'

// The reference's rows, each element scaled by 1 + (i * 37 % 11) / 256: finite misses of several
// sizes, the largest not at the first.
KL_KERNEL rmsnorm_off(kl_bf16 *y, const kl_bf16 *x, const kl_bf16 *w, int M, int N)
{
    rmsnorm_ref(y, x, w, M, N);
    const kl_i64 nthreads = (kl_i64)blockDim.x * gridDim.x;
    for (kl_i64 row = (kl_i64)blockIdx.x * blockDim.x + threadIdx.x; row < M; row += nthreads)
        for (int i = 0; i < N; i++) {
            const float v = kl_bf16_to_f32(y[row * N + i]);
            y[row * N + i] = kl_f32_to_bf16(v * (1.0f + (float)(i * 37 % 11) / 256.0f));
        }
}

KL_EXPORT(rmsnorm_off)
KL
python3 - kernels/suites/aiter-6344.json "$dir" <<'PY'
import json, sys
m = json.load(open(sys.argv[1]))
del m["case"]
m.update(name="rmsnorm-exact", params={"M": 1024, "N": 8192}, tolerance={"abs": 0, "rel": 0},
         baseline=[{"M": 16, "N": 1024}], rungs={"1": {}, "5": {"repeats": 8}})
json.dump(m, open(sys.argv[2] + "/rms.json", "w"))
m.update(name="rmsnorm-off", rungs={"1": {}})
m["variants"]["buggy"] = "rmsnorm_off"
json.dump(m, open(sys.argv[2] + "/off.json", "w"))
PY
for suite in rms off; do
    for judge in device host; do
        s=$SECONDS
        KLADDER_JUDGE=$judge KLADDER_JUDGE_TRACE="$OUT/trace-$suite-$judge.txt" \
            timeout -k 5 60 "$BIN" --db "$OUT/k.db" run --suite "$dir/$suite.json" --backend cuda \
            --json --no-progress >"$OUT/$suite-$judge.json" 2>"$OUT/$suite-$judge.err"
        rc=$?
        touch "$OUT/trace-$suite-$judge.txt"
        echo "$suite judge=$judge: exit $rc, $((SECONDS - s)) s," \
            "device judgements: $(grep -c ' 0 of ' "$OUT/trace-$suite-$judge.txt") passed there," \
            "$(grep -c 'failed on the device' "$OUT/trace-$suite-$judge.txt") failed there," \
            "$(grep -c 'host judges' "$OUT/trace-$suite-$judge.txt") sent to the host" | tee -a "$summary"
    done
    python3 - "$suite" "$OUT/$suite-device.json" "$OUT/$suite-host.json" <<'PY' | tee -a "$summary"
import json, re, sys
try:
    a, b = (json.load(open(p))["checks"] for p in sys.argv[2:4])
except Exception as e:
    print(sys.argv[1] + ": a report is unreadable:", e)
    sys.exit()
key = lambda cs: [(c["variant"], c["check"], c["verdict"], re.sub("0x[0-9a-f]+", "0x", c["detail"])) for c in cs]
fixed = lambda cs: [k for k in key(cs) if "fixed" in k[0]]
print("%s: %s; the fixed variant's: %s (%d checks, %d failing)" % (
    sys.argv[1], "same verdicts and findings both ways" if key(a) == key(b)
    else "DIFFERENT verdicts or findings", "same" if fixed(a) == fixed(b) else "DIFFERENT",
    len(a), sum(c["verdict"] == "fail" for c in a)))
PY
done
"$BIN" --db "$OUT/k.db" export --out "$OUT/export.json" 2>"$OUT/export.err"
