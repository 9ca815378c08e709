#!/usr/bin/env bash
# The contract judge's first pass on the device (engine/exec/exec_judge_device.c), which a GPU takes
# so that a 2 GiB output is not read back once a repeat, run here on the cpu backend through
# KLADDER_JUDGE=device. An RMSNorm suite asks for exact outputs (tolerance 0) under a declared
# "normalized" contract, so every check's plain compare differs and goes to the judge: the
# correct kernel's outputs are all within the contract's bound, which the device says without
# a readback; aiter-6344's race (partials read before they are all written), which rung 5's pct
# copies reach, leaves outputs outside it (NaN where the reference is finite), and a kernel that
# scales each element a little (finite misses of several sizes, the worst not the first) misses
# it too. The reference has no kl_acc, so there is no arbiter and the host judge could only fail
# those elements: the device makes the finding itself (how many, the first, the worst, the
# NaN/Inf), reading back only the worst element. With kl_acc in the reference (a second copy of
# the scaled kernel's suite) there is an arbiter, and the host judges the failing outputs as
# before. Each gives exactly the verdicts and findings of the host judge alone
# (KLADDER_JUDGE=host).
. tests/tap.sh
export XDG_DATA_HOME=$KL_TMP/data XDG_CACHE_HOME=$KL_CACHE
dir=$KL_TMP/mine
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
m.update(name="rmsnorm-exact", params={"M": 8, "N": 8192}, tolerance={"abs": 0, "rel": 0},
         baseline=[{"M": 16, "N": 1024}], rungs={"1": {}, "5": {"repeats": 2}})
m["variants"]["buggy"] = "rmsnorm_race_buggy"
json.dump(m, open(sys.argv[2] + "/rms.json", "w"))
m.update(name="rmsnorm-off", params={"M": 4, "N": 1024}, rungs={"1": {}})
m["variants"]["buggy"] = "rmsnorm_off"
json.dump(m, open(sys.argv[2] + "/off.json", "w"))
PY
# the arbiter's copy: the reference's sum of squares (its second one, after the kernels') in kl_acc
mkdir -p "$dir/acc"
awk '/float ss = 0.0f;/ && ++n == 2 {sub(/float ss/, "kl_acc ss")} {print}' "$dir/aiter_6344.kl" \
    >"$dir/acc/aiter_6344.kl"
sed 's/"rmsnorm-off"/"rmsnorm-acc"/' "$dir/off.json" >"$dir/acc/acc.json"
for suite in rms off acc; do
    for j in device host; do
        KLADDER_JUDGE=$j KLADDER_JUDGE_TRACE="$KL_TMP/trace-$suite-$j" "$KLADDER" \
            --db "$KL_TMP/$suite-$j.db" run --suite "$(ls "$dir/$suite.json" "$dir/acc/$suite.json" 2>/dev/null | head -n 1)" --backend cpu \
            --no-progress --timeout 120 --json >"$KL_TMP/$suite-$j.json" 2>"$KL_TMP/$suite-$j.err"
        echo "# $suite, KLADDER_JUDGE=$j: exit $?"
        touch "$KL_TMP/trace-$suite-$j"
    done
done
cat "$KL_TMP/trace-rms-device" "$KL_TMP/trace-off-device" | sort | uniq -c | sed 's/^/# /'
python3 - "$KL_TMP/rms-device.json" "$KL_TMP/off-device.json" >"$KL_TMP/checks.txt" <<'PY'
import json, sys
for p in sys.argv[1:]:
    for c in json.load(open(p))["checks"]:
        print(p.split("/")[-1].split("-")[0], c["variant"], c["check"], c["verdict"])
PY
sed 's/^/# /' "$KL_TMP/checks.txt"
python3 - "$KL_TMP/off-device.json" "$KL_TMP/acc-device.json" <<'PY' | sed 's/^/# /'
import json, sys
for p in sys.argv[1:]:
    for c in json.load(open(p))["checks"]:
        if c["verdict"] != "pass":
            print(c["variant"], c["check"], c["detail"][:400])
            break
PY
tap_check "the correct kernel passes every check" \
    sh -c "grep -q ' fixed ' '$KL_TMP/checks.txt' && ! grep -E ' (baseline-)?fixed ' '$KL_TMP/checks.txt' | grep -qv ' pass\$'"
tap_check "the race is caught by rung 5's pct copies" \
    grep -qE '^rms buggy pct[0-9]+-default fail$' "$KL_TMP/checks.txt"
tap_check "the scaled kernel fails rung 1" grep -qE '^off buggy default fail$' "$KL_TMP/checks.txt"
tap_check "the device passed outputs without a readback" \
    grep -qE '^judged on the device: y, 0 of [0-9]+ outside the bound$' "$KL_TMP/trace-rms-device"
tap_check "and failed the race's outputs there, NaN counted (no arbiter: the host has nothing to add)" \
    grep -qE '^judged on the device: y, [1-9][0-9]* of [0-9]+ outside the bound \(failed on the device: first at [0-9]+, worst at [0-9]+, [1-9][0-9]* NaN/Inf\)$' \
    "$KL_TMP/trace-rms-device"
tap_check "and the scaled kernel's finite misses, the worst past the first" python3 -c '
import re, sys
ok = False
for line in open(sys.argv[1]):
    m = re.match(r"judged on the device: y, [1-9][0-9]* of [0-9]+ outside the bound \(failed on the device: first at ([0-9]+), worst at ([0-9]+), 0 NaN/Inf\)$", line)
    ok |= bool(m) and int(m.group(2)) > int(m.group(1))
sys.exit(not ok)' "$KL_TMP/trace-off-device"
tap_check "with an arbiter, the failing outputs went to the host judge" \
    sh -c "grep -q 'kl_acc ss' '$dir/acc/aiter_6344.kl' && grep -qE 'outside the bound \(the host judges them\)\$' '$KL_TMP/trace-acc-device' && ! grep -q 'failed on the device' '$KL_TMP/trace-acc-device'"
tap_check "without one, no output went to the host judge" \
    sh -c "! grep -h 'the host judges them' '$KL_TMP/trace-rms-device' '$KL_TMP/trace-off-device'"
tap_check "the host path alone judges nothing on the device" \
    sh -c "test ! -s '$KL_TMP/trace-rms-host' && test ! -s '$KL_TMP/trace-off-host'"
tap_check "the same verdicts and findings either way (addresses aside: a race names its own)" python3 -c '
import json, re, sys
a, b = (json.load(open(p))["checks"] for p in sys.argv[1:3])
key = lambda cs: [(c["variant"], c["check"], c["verdict"], re.sub("0x[0-9a-f]+", "0x", c["detail"])) for c in cs]
sys.exit(key(a) != key(b))' "$KL_TMP/rms-device.json" "$KL_TMP/rms-host.json"
tap_check "and for the finite misses, to the digit" python3 -c '
import json, sys
a, b = (json.load(open(p))["checks"] for p in sys.argv[1:3])
key = lambda cs: [(c["variant"], c["check"], c["verdict"], c["detail"]) for c in cs]
sys.exit(key(a) != key(b) or not any(c["verdict"] == "fail" for c in a))' \
    "$KL_TMP/off-device.json" "$KL_TMP/off-host.json"
tap_check "and with an arbiter" python3 -c '
import json, sys
a, b = (json.load(open(p))["checks"] for p in sys.argv[1:3])
key = lambda cs: [(c["variant"], c["check"], c["verdict"], c["detail"]) for c in cs]
sys.exit(key(a) != key(b) or not any(c["verdict"] == "fail" for c in a))' \
    "$KL_TMP/acc-device.json" "$KL_TMP/acc-host.json"
