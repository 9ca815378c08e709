# kladder compare on two synthetic machines with known ratios: matching, latest run per key,
# flagging only real differences (repeats, spreads apart, beyond noise), differing verdicts, the summary and the bar chart.
. tests/tap.sh
db=$KL_TMP/cmp.db
k() { "$KLADDER" --db "$db" "$@"; }
python3 tests/fixtures/remote/compare_pair.py "$KL_TMP"
k pull "file://$KL_TMP/alpha.json" "file://$KL_TMP/beta.json" >"$KL_TMP/out" 2>&1
tap_check "both machines pulled" test "$(grep -c 'new run' "$KL_TMP/out")" = 2

k compare alpha beta --json >"$KL_TMP/cmp.json"; rc=$?
tap_check "compare --json exits 0" test $rc = 0
python3 - "$KL_TMP/cmp.json" <<'PY' && tap_ok "rows, ratios, flags and summary are right" || tap_fail "compare --json content"
import json, math, sys
d = json.load(open(sys.argv[1]))
rows = {r["check"]: r for r in d["rows"]}
assert set(rows) == {"tail-k640", "sentinel-2^31", "bitwise-repeat", "only-alpha", "only-beta", "no-times"}, rows.keys()
t = rows["tail-k640"]
assert abs(t["ratio"] - 3.0) < 1e-9 and t["flagged"] is True, t          # the newer beta run wins
assert t["b"]["time_us"] == {"median": 30, "min": 28, "max": 32}, t["b"]
s = rows["sentinel-2^31"]
assert abs(s["ratio"] - 1.1) < 1e-9 and s["flagged"] is False, s        # spreads overlap
b = rows["bitwise-repeat"]
assert b["a"]["verdict"] == "pass" and b["b"]["verdict"] == "fail" and b["verdict_differs"], b
assert b["flagged"] is False and b["ratio"] == 1
assert rows["only-alpha"]["b"] is None and rows["only-alpha"]["ratio"] is None
assert rows["only-beta"]["a"] is None
n = rows["no-times"]
assert n["ratio"] is None and n["a"]["time_us"]["median"] is None and not n["flagged"]
for r in d["rows"]:
    assert set(r) >= {"rung", "suite", "check", "shape", "variant", "a", "b", "ratio", "flagged"}
sm = d["summary"]
assert abs(sm["geomean_ratio"] - (3.0 * 1.1 * 1.0) ** (1 / 3)) < 1e-9, sm
assert sm["flagged"] == 1 and sm["differing_verdicts"] == 1, sm
assert sm["only_a"] == 1 and sm["only_b"] == 1 and sm["both"] == 4, sm
PY

k compare alpha beta >"$KL_TMP/table"
tap_check "the table marks the differing verdict" grep -qE '^≠ +1 +fence +bitwise-repeat .*pass/fail' "$KL_TMP/table"
tap_check "the table flags the disjoint ratio, with its direction" grep -qE 'tail-k640 .* 3\.00× slower ! ' "$KL_TMP/table"
tap_check "the overlapping ratio is within noise" grep -qE 'sentinel-2\^31 .* 1\.10× slower ~ ' "$KL_TMP/table"
tap_check "not run reads differently from skip" \
    sh -c "grep -qE 'only-alpha .* pass/not run' '$KL_TMP/table' && grep -qE 'no-times .* skip/skip' '$KL_TMP/table'"
tap_check "the checks both ran come first, the one-sided ones after, under a line counting them" python3 -c '
import sys
lines = open(sys.argv[1]).read().split("\n")
rows = [l for l in lines if "/" in l and (" pass/" in l or " skip/" in l or " fail/" in l or "not run/" in l)]
first_one_sided = min(i for i, l in enumerate(rows) if "not run" in l)
assert all("not run" not in l for l in rows[:first_one_sided]) and first_one_sided == 4, rows
i_a = lines.index("1 check only on A (not run on B):")
i_b = lines.index("1 check only on B (not run on A):")
assert "only-alpha" in lines[i_a + 1] and "only-beta" in lines[i_b + 1] and i_a < i_b
' "$KL_TMP/table"
tap_check "bars use block characters in UTF-8, on a log scale (3x: 1.9 cells)" grep -q 'tail-k640 .*|█▉$' "$KL_TMP/table"
tap_check "the summary names the faster side" grep -q '^A (alpha) is 1.49× faster than B (beta), geometric mean over 3 rows judged$' "$KL_TMP/table"
tap_check "the summary counts one-sided rows" grep -q 'only on A: 1, only on B: 1, on both: 4' "$KL_TMP/table"
LC_ALL=C k compare alpha beta >"$KL_TMP/ascii"
tap_check "ASCII fallback: no block characters" sh -c "! grep -q '█' '$KL_TMP/ascii'"
tap_check "ASCII fallback: bars of # on a log scale (3x is two cells)" grep -q 'pass/pass  *|##$' "$KL_TMP/ascii"
tap_check "ASCII fallback: the output is 7-bit" sh -c "! LC_ALL=C grep -q '[^ -~]' '$KL_TMP/ascii'"

k compare beta alpha --json | python3 -c '
import json, sys
d = json.load(sys.stdin)
t = [r for r in d["rows"] if r["check"] == "tail-k640"][0]
assert abs(t["ratio"] - 1 / 3) < 1e-9 and t["flagged"]' && tap_ok "swapping sides inverts the ratio" || tap_fail "swapping sides"

mid=$(k results --host beta --json | python3 -c 'import json,sys; print(json.load(sys.stdin)[0]["machine"]["id"][:8])')
k compare alpha "$mid" --json | python3 -c '
import json, sys; d = json.load(sys.stdin); assert d["summary"]["flagged"] == 1' \
    && tap_ok "a machine id prefix names a side" || tap_fail "machine id prefix"
k compare alpha beta --rung 2 --json | python3 -c '
import json, sys; d = json.load(sys.stdin); assert d["rows"] == [] and d["summary"]["geomean_ratio"] is None' \
    && tap_ok "--rung filters (no rung-2 checks)" || tap_fail "--rung filter"
k compare local beta --json | python3 -c '
import json, sys; d = json.load(sys.stdin); assert d["summary"]["only_b"] == 5 and d["summary"]["both"] == 0' \
    && tap_ok "local (no runs here) against beta: every row only on B" || tap_fail "local side"
k compare alpha nosuch 2>"$KL_TMP/err"; rc=$?
tap_check "an unknown side exits 2" test $rc = 2
tap_check "and says what it looked for" grep -q "'nosuch' is not 'local', a host" "$KL_TMP/err"
k compare alpha 2>/dev/null; tap_check "one side only is a usage error" test $? = 2
k compare alpha beta --rung 16 2>/dev/null; tap_check "--rung 16 (past any rung the database keeps) is a usage error" test $? = 2
