#!/usr/bin/env bash
# kladder from Python on the cpu backend (docs/python.md): the numpy ops of tests/python/ops.py
# up the ladder through the pytest plugin. Each correct op passes every check of rungs 1, 2 and
# 5; each buggy one (a tail, a value and a repeat bug per op) fails at its rung, and a capture
# rung 2 replays catches the softmax's value bug (and the kladder_ladder fixture inside a test of
# the usual kind); one pytest item per check, the failure naming the check, its class and shape and the first bad element; the
# runs are in the database (`kladder results`, `export`); a bad description is one error naming
# its field; the rungs an op cannot have say why. Debian's python3 with numpy and pytest.
. tests/tap.sh
. tests/python_env.sh numpy pytest
export KL_DB=$KL_TMP/k.db

$py -m pytest -p kladder.pytest_plugin -p no:cacheprovider -q -rN \
    --junitxml="$KL_TMP/junit.xml" tests/python/test_ops.py >"$KL_TMP/pytest.txt" 2>&1
rc=$?
sed 's/^/# /' "$KL_TMP/pytest.txt" | tail -40
tap_check "pytest ran and found failures (exit 1)" test $rc -eq 1

# Per case: how many items passed, failed, skipped (from the JUnit report, one item per check).
$py - "$KL_TMP/junit.xml" >"$KL_TMP/cases.txt" <<'PY'
import collections, sys, xml.etree.ElementTree as ET
n = collections.defaultdict(lambda: [0, 0, 0])
for tc in ET.parse(sys.argv[1]).iter("testcase"):
    case = tc.get("name").split("[")[0]
    k = 1 if tc.find("failure") is not None or tc.find("error") is not None else \
        2 if tc.find("skipped") is not None else 0
    n[case][k] += 1
for case, (p, f, s) in sorted(n.items()):
    print(case, p, f, s)
PY
sed 's/^/# /' "$KL_TMP/cases.txt"
for op in softmax topk quant chunked_sum; do
    tap_check "$op: the correct op passes every check of rungs 1, 2 and 5" \
        awk -v c="test_${op}_fixed" '$1 == c && $2 >= 15 && $3 == 0 && $4 == 0 { ok = 1 } END { exit !ok }' "$KL_TMP/cases.txt"
    for bug in tail values repeat; do
        tap_check "$op: the $bug bug is caught" \
            awk -v c="test_${op}_${bug}" '$1 == c && $3 >= 1 { ok = 1 } END { exit !ok }' "$KL_TMP/cases.txt"
    done
done
tap_check "a capture replayed by rung 2: the correct softmax passes it" \
    awk '$1 == "test_softmax_capture_fixed" && $2 == 2 && $3 == 0 { ok = 1 } END { exit !ok }' "$KL_TMP/cases.txt"
tap_check "and the one without the max subtracted overflows on it" \
    grep -qE 'rung 2 check replay \(replayed capture, shape M=4,N=128,BLOCK=32\): fail .*replayed x \(logits.npy, logits\)' "$KL_TMP/pytest.txt"
tap_check "the fixture passes the correct op and fails the buggy one, naming the class" \
    awk '$1 ~ /^test_fixture_/ && $2 == 1 && $3 == 0 { n++ } END { exit n != 2 }' "$KL_TMP/cases.txt"
tap_check "a failure names the check, its class, its shape and the first bad element" \
    grep -qE '^kladder run [0-9a-f-]{36}, rung 2 check ties \(value class ties, shape M=4,N=64,K=4,BLOCK=16\): fail .*first at \[' "$KL_TMP/pytest.txt"
tap_check "a tail failure names its shape" \
    grep -qE '^kladder run [0-9a-f-]{36}, rung 1 check tail-N33-BLOCK32 \(shape M=4,N=33,BLOCK=32\): fail' "$KL_TMP/pytest.txt"
tap_check "a repeat failure is the bitwise-repeat oracle's" \
    grep -qE 'rung 5 check repeat-default .*: fail by the bitwise-repeat oracle: 8 repeats' "$KL_TMP/pytest.txt"
tap_check "each case's run id is printed" \
    test "$(grep -cE '^kladder run [0-9a-f-]{36} \(test_[a-z_]+\): (pass|fail), [0-9]+ checks? run' "$KL_TMP/pytest.txt")" -eq 18

# -k keeps checks by name, -x stops at the first failing one; the run holds what ran
KL_DB=$KL_TMP/k2.db $py -m pytest -p kladder.pytest_plugin -p no:cacheprovider -q -x \
    -k 'test_topk_values and (ties or zero)' tests/python/test_ops.py >"$KL_TMP/k.txt" 2>&1
sed 's/^/# /' "$KL_TMP/k.txt" | tail -4
tap_check "-k and -x: the first selected check fails, the run stops there" \
    grep -qE '^1 failed, [0-9]+ deselected' "$KL_TMP/k.txt"
tap_check "and its run holds that one check" \
    grep -qE '^kladder run [0-9a-f-]{36} \(test_topk_values\): fail, 1 check run, 1 failed' "$KL_TMP/k.txt"

"$KLADDER" --db "$KL_DB" results --json >"$KL_TMP/runs.json" 2>"$KL_TMP/err.txt"
$py - "$KL_TMP/runs.json" >"$KL_TMP/runs.txt" <<'PY'
import json, sys
for r in json.load(open(sys.argv[1])):
    print(r["suite"], r["verdict"])
PY
sed 's/^/# /' "$KL_TMP/runs.txt"
tap_check "the 20 runs are in the database" test "$(grep -c '^py-' "$KL_TMP/runs.txt")" -eq 20
tap_check "the correct ops' runs pass, the buggy ones' fail" \
    test "$(grep -cE '^py-[a-z_-]+-fixed pass$|^py-[a-z_-]+-(tail|values|repeat) fail$' "$KL_TMP/runs.txt")" -eq 20
id=$(grep -oE '^kladder run [0-9a-f-]{36} \(test_topk_values\)' "$KL_TMP/pytest.txt" | awk '{print $3}')
"$KLADDER" --db "$KL_DB" results "$id" >"$KL_TMP/run.txt" 2>&1
tap_check "kladder results RUN_ID shows a run's checks" grep -qE 'fail +.*ties' "$KL_TMP/run.txt"
"$KLADDER" --db "$KL_DB" export --out "$KL_TMP/export.json" 2>"$KL_TMP/err.txt"
tap_check "kladder export carries the runs" grep -q "\"$id\"" "$KL_TMP/export.json"

# A bad description: one error naming the field; a rung an op cannot have: why.
$py - >"$KL_TMP/bad.txt" 2>&1 <<'PY'
import kladder
for kw in (dict(buffers={"x": kladder.In("f64", "M"), "y": kladder.Out("f32", "M")}, rungs=(2,)),
           dict(buffers={"x": kladder.In("f32", "Q"), "y": kladder.Out("f32", "M")}, rungs=(2,)),
           dict(buffers={"x": kladder.In("f32", "M"), "y": kladder.Out("f32", "M")}, rungs=(4,)),
           dict(buffers={"x": kladder.In("f32", "M"), "y": kladder.Out("f32", "M", contract={})},
                rungs=(2,))):
    try:
        kladder.ladder(abs, abs, params={"M": 8}, db=":memory:", name="bad", **kw)
        print("no error")
    except kladder.KladderError as e:
        print("error:", e)
PY
sed 's/^/# /' "$KL_TMP/bad.txt"
tap_check "an unknown dtype is named with its field" \
    grep -qE '^error: op bad: buffers\[0\]\.dtype: expected .*got "f64"' "$KL_TMP/bad.txt"
tap_check "an unknown parameter in a shape is named" grep -qE "^error: op bad: buffers\[0\].*Q" "$KL_TMP/bad.txt"
tap_check "rung 4 is refused with its reason" \
    grep -qE '^error: rung 4: rung 4 runs the kernel inside graphs' "$KL_TMP/bad.txt"
tap_check "a buffer field the manifest does not have is named" \
    grep -qE '^error: buffers\.y\.contract: expected one of init, pad_to, ties' "$KL_TMP/bad.txt"

# An output's contract reaches the judge: a top-k that never picks NaN against a reference that
# takes NaN as the largest passes under "nan_pick": "never"; one that picks it fails.
$py - >"$KL_TMP/contract.txt" 2>&1 <<'PY'
import numpy as np, os, kladder, ops
def never(x, K):
    return ops.topk_ref(np.where(np.isnan(x), -np.inf, x), K)[0], ops.topk_ref(x, K)[1]
def nan_first(x, K):
    i = np.argsort(-np.where(np.isnan(x), np.inf, x), axis=-1, kind="stable")[:, :K]
    return i.astype(np.int32), np.take_along_axis(x, i, axis=-1)
for op in (never, nan_first):
    r = kladder.ladder(op, nan_first, params={"M": 4, "N": 64, "K": 4}, rungs=(2,),
                       buffers={"x": kladder.In("f32", "M", "N"),
                                "idx": kladder.Out("i32", "M", "K", nan_pick="never"),
                                "val": kladder.Out("f32", "M", "K", nonfinite="any")},
                       settings={2: {"classes": ["nan-inf", "ties"]}}, tolerance=(0, 0),
                       db=os.environ["KL_DB"], name="topk-contract")
    print(op.__name__, r.verdict, *[c.detail for c in r.failures])
PY
sed 's/^/# /' "$KL_TMP/contract.txt"
tap_check "the contract passes the top-k that never picks NaN" grep -qx 'never pass' "$KL_TMP/contract.txt"
tap_check "and fails the one that does, naming the rule" \
    grep -qE '^nan_first fail .*rows with NaN break "nan_pick": "never"' "$KL_TMP/contract.txt"
