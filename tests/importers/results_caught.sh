# A buggy variant that fails is a bug caught, not a failure: kladder results says "N bugs
# caught" for those and keeps "failed" for what really failed (a fixed variant, a baseline), in
# the list and in one run's verdict line. Two runs of our own: one that met every expectation
# (only its buggy variant failed), and one where a fixed check failed, a baseline of the buggy
# variant failed (the unit test is not meant to catch it: a real failure) and a buggy one hung;
# and a third whose checks all passed but failed all the same: its buggy variant got through.
. tests/tap.sh
db=$KL_TMP/caught.db
k() { "$KLADDER" --db "$db" "$@"; }
python3 tests/fixtures/remote/gen_results.py --host lab --runs 3 --checks 12 --out "$KL_TMP/gen.json"
python3 - "$KL_TMP/gen.json" "$KL_TMP/doc.json" <<'PY'
import json, sys
doc = json.load(open(sys.argv[1]))
first, second = doc["runs"][0]["run_id"], doc["runs"][1]["run_id"]
third = doc["runs"][2]["run_id"]
for run in doc["runs"]:
    run["suite"] = {first: "caught-a", second: "caught-b", third: "caught-c"}[run["run_id"]]
for c in doc["checks"]:
    if c["run_id"] == third:  # a pass records no bad element
        c.update(verdict="pass", first_bad=None, bad_count=0, max_err=0.0)
for c in doc["checks"]:
    if c["run_id"] != second:
        continue
    if c["seq"] == 4:          # fixed: a real failure
        c["verdict"] = "fail"
    if c["seq"] == 9:          # the unit test's run of the buggy variant
        c["variant"] = "baseline-buggy"
        c["verdict"] = "fail"
    if c["seq"] == 7:          # buggy: a timing bug caught by the watchdog
        c["verdict"] = "hang"
for run in doc["runs"]:
    counts = dict.fromkeys(run["counts"], 0)
    for c in doc["checks"]:
        if c["run_id"] == run["run_id"]:
            counts[c["verdict"]] += 1
    run["counts"] = counts
doc["runs"][0]["verdict"] = "pass"
doc["runs"][2]["verdict"] = "fail"
json.dump(doc, open(sys.argv[2], "w"))
PY
k pull "file://$KL_TMP/doc.json" >/dev/null 2>&1 || tap_fail "pull the two runs"
k results >"$KL_TMP/list.txt"
tap_check "a run whose only failure is its buggy variant: 1 bug caught, 11 passed" \
    grep -qE ' caught-a .* 1 bug caught, 11 passed$' "$KL_TMP/list.txt"
tap_check "nothing of it reads as failed" sh -c "! grep -E ' caught-a .*failed' '$KL_TMP/list.txt'"
tap_check "real failures keep their word, before the bugs caught" \
    grep -qE ' caught-b .* 2 failed, 2 bugs caught, 8 passed$' "$KL_TMP/list.txt"
tap_check "a failed run with every check passed says its bug was not caught" \
    grep -qE ' caught-c .* 12 passed; the bug was not caught$' "$KL_TMP/list.txt"
id=$(k results --json | python3 -c 'import json,sys; print([r["run_id"] for r in json.load(sys.stdin) if r["suite"] == "caught-a"][0])')
k results "$id" >"$KL_TMP/run.txt"
tap_check "one run's verdict line says the same" \
    grep -qE '^verdict +pass \(1 bug caught, 11 passed\)$' "$KL_TMP/run.txt"
