#!/usr/bin/env bash
# The contract judge's first pass on the device (engine/exec/exec_judge_device.c) on the H200.
# aiter-6344's rung 5 judges an 8192 x 65536 bf16 output once a repeat; reading both copies
# back (2 GiB) and judging them on the host took over 150 s a run. Now the GPU finds each row's
# scale and counts the elements outside the contract's bound, and nothing is read back when
# there are none.
#   1. run --case aiter-6344 --backend cuda as shipped (the device judge), timed, with
#      KLADDER_JUDGE_TRACE naming each judgement made on the device;
#   2. the same with KLADDER_JUDGE=host (the old path), timed, cut at 180 s;
#   3. the RMSNorm suite of tests/engine/judge_device.sh (tolerance 0, so every check reaches
#      the judge) on cuda both ways: the verdicts and findings must be the same.
# What to expect: run 1 in seconds, with "0 of N outside the bound" lines for the fixed
# variant's wide shapes and the buggy variant caught as before (exit 0); run 2 far slower (or
# cut at 180 s: exit 124); the two verdict lists equal where run 2 finished; part 3 "same".
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
for judge in device host; do
    s=$SECONDS
    KLADDER_JUDGE=$judge KLADDER_JUDGE_TRACE="$OUT/trace-6344-$judge.txt" \
        timeout -k 5 180 "$BIN" --db "$OUT/k.db" run --case aiter-6344 --backend cuda \
        --json --no-progress >"$OUT/6344-$judge.json" 2>"$OUT/6344-$judge.err"
    rc=$?
    touch "$OUT/trace-6344-$judge.txt"
    verdicts "$OUT/6344-$judge.json" >"$OUT/6344-$judge.verdicts"
    echo "aiter-6344 judge=$judge: exit $rc, $((SECONDS - s)) s, checks $(wc -l <"$OUT/6344-$judge.verdicts")," \
        "device judgements: $(grep -c ' 0 of ' "$OUT/trace-6344-$judge.txt") passed there," \
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
python3 - kernels/suites/aiter-6344.json "$dir/rms.json" <<'PY'
import json, sys
m = json.load(open(sys.argv[1]))
del m["case"]
m.update(name="rmsnorm-exact", params={"M": 1024, "N": 8192}, tolerance={"abs": 0, "rel": 0},
         baseline=[{"M": 16, "N": 1024}], rungs={"1": {}, "5": {"repeats": 8}})
json.dump(m, open(sys.argv[2], "w"))
PY
for judge in device host; do
    s=$SECONDS
    KLADDER_JUDGE=$judge KLADDER_JUDGE_TRACE="$OUT/trace-rms-$judge.txt" \
        timeout -k 5 60 "$BIN" --db "$OUT/k.db" run --suite "$dir/rms.json" --backend cuda \
        --json --no-progress >"$OUT/rms-$judge.json" 2>"$OUT/rms-$judge.err"
    rc=$?
    touch "$OUT/trace-rms-$judge.txt"
    echo "rmsnorm-exact judge=$judge: exit $rc, $((SECONDS - s)) s," \
        "device judgements: $(grep -c ' 0 of ' "$OUT/trace-rms-$judge.txt") passed there," \
        "$(grep -c 'host judges' "$OUT/trace-rms-$judge.txt") sent to the host" | tee -a "$summary"
done
python3 - "$OUT/rms-device.json" "$OUT/rms-host.json" <<'PY' | tee -a "$summary"
import json, re, sys
try:
    a, b = (json.load(open(p))["checks"] for p in sys.argv[1:3])
except Exception as e:
    print("rmsnorm-exact: a report is unreadable:", e)
    sys.exit()
key = lambda cs: [(c["variant"], c["check"], c["verdict"], re.sub("0x[0-9a-f]+", "0x", c["detail"])) for c in cs]
print("rmsnorm-exact: %s (%d checks)" % ("same verdicts and findings both ways" if key(a) == key(b)
                                          else "DIFFERENT verdicts or findings", len(a)))
PY
"$BIN" --db "$OUT/k.db" export --out "$OUT/export.json" 2>"$OUT/export.err"
