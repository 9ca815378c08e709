#!/usr/bin/env bash
# The contract judge's first pass on the device (engine/exec/exec_judge_device.c), which a GPU takes
# so that a 2 GiB output is not read back once a repeat, run here on the cpu backend through
# KLADDER_JUDGE=device. An RMSNorm suite asks for exact outputs (tolerance 0) under a declared
# "normalized" contract, so every check's plain compare differs and goes to the judge: the
# correct kernel's outputs are all within the contract's bound, which the device says without
# a readback; aiter-6344's race (partials read before they are all written), which rung 5's pct
# copies reach, leaves outputs outside it: the device says how many, the host judges them and
# catches it. Both give exactly the verdicts and findings
# of the host judge alone (KLADDER_JUDGE=host).
. tests/tap.sh
export XDG_DATA_HOME=$KL_TMP/data XDG_CACHE_HOME=$KL_CACHE
dir=$KL_TMP/mine
mkdir -p "$dir"
cp kernels/aiter_6344.kl "$dir/"
python3 - kernels/suites/aiter-6344.json "$dir/rms.json" <<'PY'
import json, sys
m = json.load(open(sys.argv[1]))
del m["case"]
m.update(name="rmsnorm-exact", params={"M": 8, "N": 8192}, tolerance={"abs": 0, "rel": 0},
         baseline=[{"M": 16, "N": 1024}], rungs={"1": {}, "5": {"repeats": 2}})
m["variants"]["buggy"] = "rmsnorm_race_buggy"
json.dump(m, open(sys.argv[2], "w"))
PY
for j in device host; do
    KLADDER_JUDGE=$j KLADDER_JUDGE_TRACE="$KL_TMP/trace-$j" "$KLADDER" --db "$KL_TMP/$j.db" run \
        --suite "$dir/rms.json" --backend cpu --no-progress --timeout 120 --json \
        >"$KL_TMP/$j.json" 2>"$KL_TMP/$j.err"
    echo "# KLADDER_JUDGE=$j: exit $?"
    touch "$KL_TMP/trace-$j"
done
sort "$KL_TMP/trace-device" | uniq -c | sed 's/^/# /'
python3 - "$KL_TMP/device.json" >"$KL_TMP/checks.txt" <<'PY'
import json, sys
for c in json.load(open(sys.argv[1]))["checks"]:
    print(c["variant"], c["check"], c["verdict"])
PY
sed 's/^/# /' "$KL_TMP/checks.txt"
tap_check "the correct kernel passes every check" \
    sh -c "grep -q '^fixed ' '$KL_TMP/checks.txt' && ! grep -E '^(baseline-)?fixed ' '$KL_TMP/checks.txt' | grep -qv ' pass\$'"
tap_check "the race is caught by rung 5's pct copies" \
    grep -qE '^buggy pct[0-9]+-default fail$' "$KL_TMP/checks.txt"
tap_check "the device passed outputs without a readback" \
    grep -qE '^judged on the device: y, 0 of [0-9]+ outside the bound$' "$KL_TMP/trace-device"
tap_check "and sent the outputs outside their bound to the host judge" \
    grep -qE '^judged on the device: y, [1-9][0-9]* of [0-9]+ outside the bound \(the host judges them\)$' "$KL_TMP/trace-device"
tap_check "the host path alone judges nothing on the device" test ! -s "$KL_TMP/trace-host"
tap_check "the same verdicts and findings either way (addresses aside: a race names its own)" python3 -c '
import json, re, sys
a, b = (json.load(open(p))["checks"] for p in sys.argv[1:3])
key = lambda cs: [(c["variant"], c["check"], c["verdict"], re.sub("0x[0-9a-f]+", "0x", c["detail"])) for c in cs]
sys.exit(key(a) != key(b))' "$KL_TMP/device.json" "$KL_TMP/host.json"
