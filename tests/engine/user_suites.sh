#!/usr/bin/env bash
# A user's own suite: `run --suite my.json` without --rung runs every rung the manifest lists; the
# run and its checks are recorded under the suite's own name, not the path typed; a manifest
# whose kernel file is missing is refused at load (exit 2, naming the file and the field) with
# nothing recorded; and a suite that declares itself a control ("control": true, every variant
# correct) passes when the harness judges it right and reports any failure as a false alarm.
# A user's suite states no expectation of its buggy variant: the run says which rungs caught it
# and which did not, and exits 1 only when its fixed variant fails.
. tests/tap.sh
export XDG_DATA_HOME=$KL_TMP/data XDG_CACHE_HOME=$KL_CACHE
db=$KL_TMP/k.db
fx=tests/engine/fixtures
dir=$KL_TMP/mine
mkdir -p "$dir"
cp $fx/hang.kl $fx/nan.kl "$dir/"
cp $fx/control.json "$dir/my.json"
runs() { "$KLADDER" --db "$db" results --json | python3 -c 'import json,sys; print(len(json.load(sys.stdin)))'; }

# ---- every rung it lists, recorded under its name -------------------------------------------
(cd "$dir" && "$KLADDER" --db "$db" run --suite ./my.json --backend cpu --no-progress --timeout 60) \
    >"$KL_TMP/all.txt" 2>&1
rc=$?
sed 's/^/# /' "$KL_TMP/all.txt"
tap_check "run --suite without --rung: exit 0 ($rc)" test $rc -eq 0
tap_check "rung 1 ran" grep -qE '^pass +fixed +r1 n512 ' "$KL_TMP/all.txt"
tap_check "and rung 5 ran" grep -qE '^pass +fixed +r5 repeat-default ' "$KL_TMP/all.txt"
"$KLADDER" --db "$db" results --json >"$KL_TMP/runs.json"
tap_check "the run is recorded under the suite's name, not ./my.json" python3 -c '
import json, sys
r = json.load(open(sys.argv[1]))[0]
sys.exit(not (r["suite"] == "copy-control"))' "$KL_TMP/runs.json"
id=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))[0]["run_id"])' "$KL_TMP/runs.json")
"$KLADDER" --db "$db" results "$id" --json >"$KL_TMP/one.json"
tap_check "so are its checks, of both rungs" python3 -c '
import json, sys
cs = json.load(open(sys.argv[1]))["checks"]
sys.exit(not (cs and {c["suite"] for c in cs} == {"copy-control"} and {c["rung"] for c in cs} == {1, 5}))' "$KL_TMP/one.json"

# ---- a control suite ---------------------------------------------------------------------------
tap_check "a control suite with correct variants has no false alarm" \
    grep -q '^control suite: no false alarm in 14 checks' "$KL_TMP/all.txt"
# The same control whose second variant is in fact wrong (NaN in 3 of 4 elements): a harness
# that judges it so must call it a false alarm of the control, and fail the run.
sed 's/"source": "hang.kl"/"source": "nan.kl"/; s/"buggy": "copy_ref"/"buggy": "copy_nan"/' \
    $fx/control.json >"$dir/alarm.json"
"$KLADDER" --db "$db" run --suite "$dir/alarm.json" --rung 1 --backend cpu --no-progress \
    --timeout 60 >"$KL_TMP/alarm.txt" 2>&1
rc=$?
sed 's/^/# /' "$KL_TMP/alarm.txt"
tap_check "a failing control fails the run: exit 1 ($rc)" test $rc -eq 1
tap_check "its failing check is called a false alarm" \
    grep -qE '^fail +buggy +r1 n512 .*FALSE ALARM' "$KL_TMP/alarm.txt"
tap_check "and the summary counts the false alarms of the harness" \
    grep -qE '^control suite: 2 of 4 checks failed although every variant is correct: false alarms of the harness' "$KL_TMP/alarm.txt"
"$KLADDER" --db "$db" run --suite "$dir/alarm.json" --rung 1 --backend cpu --no-progress \
    --json --timeout 60 >"$KL_TMP/alarm.json" 2>/dev/null
tap_check "the JSON report counts them too" python3 -c '
import json, sys
r = json.load(open(sys.argv[1]))
sys.exit(not (r["false_alarms"] == 2 and r["control_checks"] == 4))' "$KL_TMP/alarm.json"
sed 's/"control": true/"control": "yes"/' $fx/control.json >"$dir/badctl.json"
"$KLADDER" --db "$db" run --suite "$dir/badctl.json" --backend cpu --no-progress >"$KL_TMP/out" 2>"$KL_TMP/err"
rc=$?
tap_check "\"control\": \"yes\" is refused at load: exit 2 ($rc)" test $rc -eq 2
tap_check "naming the field and what it expects" grep -q 'badctl.json: control: expected true or false' "$KL_TMP/err"

# ---- a missing source --------------------------------------------------------------------------
before=$(runs)
sed 's/"source": "hang.kl"/"source": "gone.kl"/' $fx/control.json >"$dir/nosrc.json"
for rungs in "" "--rung 1"; do
    "$KLADDER" --db "$db" run --suite "$dir/nosrc.json" $rungs --backend cpu --no-progress \
        >"$KL_TMP/out" 2>"$KL_TMP/err"
    rc=$?
    sed 's/^/# /' "$KL_TMP/err"
    tap_check "a missing source file is an error at load (${rungs:-every rung}): exit 2 ($rc)" test $rc -eq 2
    tap_check "naming the manifest, the field and the file" \
        grep -qF "$dir/nosrc.json: source: expected a kernel file beside the manifest, but $dir/gone.kl does not exist" "$KL_TMP/err"
    tap_check "with no check run" bash -c "! grep -qE '^(pass|fail|error) ' '$KL_TMP/out'"
done
tap_check "and no run recorded" test "$(runs)" -eq "$before"

# ---- a user's suite is not a reproducer ----------------------------------------------------------
# plain/adamw.json, a suite of one's own (no "case"): its unit test already catches the missing
# bias correction. That is reported, with the rungs that caught it, and the run meets its
# expectations (exit 0) in the text, the JSON and the JUnit reports alike.
pl=tests/engine/fixtures/plain
"$KLADDER" --db "$db" run --suite $pl/adamw.json --rung 1 --backend cpu --no-progress \
    --timeout 60 --junit "$KL_TMP/adamw.xml" >"$KL_TMP/adamw.txt" 2>&1
rc=$?
sed 's/^/# /' "$KL_TMP/adamw.txt"
tap_check "a user's suite whose unit test catches the bug: exit 0 ($rc)" test $rc -eq 0
tap_check "the unit test's catch is reported on its line, not unexpected" \
    grep -qE '^fail +baseline-buggy +r1 .*\(the plain unit test catches it\)$' "$KL_TMP/adamw.txt"
tap_check "the summary: expectation met, and which rungs and checks caught it, the unit test too" \
    bash -c "grep -qE '^expectation met: ' '$KL_TMP/adamw.txt' &&
             grep -qxF 'plain-adamw: the bug is caught by rung 1 (1 of 1 checks); the plain unit test catches it too (1 of 1 shapes)' '$KL_TMP/adamw.txt'"
tap_check "the JUnit file has no failure" \
    bash -c "grep -q 'failures=\"0\" errors=\"0\"' '$KL_TMP/adamw.xml' && ! grep -q '<failure' '$KL_TMP/adamw.xml'"
"$KLADDER" --db "$db" run --suite $pl/adamw.json --rung 1 --backend cpu --no-progress \
    --timeout 60 --json >"$KL_TMP/adamw.json" 2>/dev/null
tap_check "the JSON report says the same: met, caught by rung 1, and by the unit test" python3 -c '
import json, sys
r = json.load(open(sys.argv[1]))
u = r["user_suites"]
sys.exit(not (r["expectation_met"] and r["verdict"] == "pass" and len(u) == 1 and
              u[0]["suite"] == "plain-adamw" and u[0]["caught_by"] == [{"rung": 1, "caught": 1, "checks": 1, "skipped": 0}] and
              u[0]["unit_test"] == {"catches": True, "caught": 1, "shapes": 1}))' "$KL_TMP/adamw.json"
# The same kind of suite whose rung misses the bug (block_sumsq's dropped tail at a round length
# only): a user's suite states no expectation of its buggy variant, so the run answers which
# rungs caught it (none here) and exits 0, its fixed variant having passed.
sed 's/"params": {"n": 1000}/"params": {"n": 1024}/; s/"name": "n1001", "n": 1001/"name": "n2048", "n": 2048/' \
    $pl/block-sumsq.json >"$dir/round.json"
cp $pl/block_sumsq.hip "$dir/"
"$KLADDER" --db "$db" run --suite "$dir/round.json" --rung 1 --backend cpu --no-progress \
    --timeout 60 --junit "$KL_TMP/round.xml" >"$KL_TMP/round.txt" 2>&1
rc=$?
sed 's/^/# /' "$KL_TMP/round.txt"
tap_check "a user's suite whose listed rung misses the bug: exit 0, no expectation stated ($rc)" test $rc -eq 0
tap_check "the summary says no rung caught it, which rung missed it, nor the unit test" \
    bash -c "grep -qE '^expectation met: .*buggy caught by 0 of [0-9]+ checks; [0-9]+ skipped$' '$KL_TMP/round.txt' &&
             grep -qE '^plain-block-sumsq: the bug is caught by no rung \(rung 1 \(0 of [0-9]+ checks\)\); the plain unit test does not catch it \(0 of 1 shapes\)$' '$KL_TMP/round.txt'"
tap_check "nor does its JUnit file fail buggy-variants-caught" \
    bash -c "grep -q 'failures=\"0\" errors=\"0\"' '$KL_TMP/round.xml' && ! grep -q '<failure' '$KL_TMP/round.xml'"
# The same suite stating, as a reproducer does, that each rung it lists catches the bug
# ("expect_caught": true): rung 1 missing it is then an unmet expectation, exit 1.
sed 's/"version": 1,/"version": 1, "expect_caught": true,/' "$dir/round.json" >"$dir/claimed.json"
"$KLADDER" --db "$db" run --suite "$dir/claimed.json" --rung 1 --backend cpu --no-progress \
    --timeout 60 >"$KL_TMP/claimed.txt" 2>&1
rc=$?
sed 's/^/# /' "$KL_TMP/claimed.txt"
tap_check "\"expect_caught\": true and the listed rung misses the bug: exit 1 ($rc)" test $rc -eq 1
tap_check "its summary names the rung that missed it" \
    grep -qE '^EXPECTATION NOT MET: .*not caught: plain-block-sumsq rung 1' "$KL_TMP/claimed.txt"
sed 's/"version": 1,/"version": 1, "expect_caught": "yes",/' "$dir/round.json" >"$dir/badclaim.json"
"$KLADDER" --db "$db" run --suite "$dir/badclaim.json" --rung 1 --backend cpu --no-progress \
    >"$KL_TMP/out" 2>"$KL_TMP/err"
rc=$?
tap_check "\"expect_caught\": \"yes\" is refused at load: exit 2 ($rc)" \
    sh -c "test $rc -eq 2 && grep -q 'badclaim.json: expect_caught: expected true or false' '$KL_TMP/err'"
# Every rung it lists (1, 2, 3, 5) on that bug: rung 2's chunked inputs reach it, the others do
# not. The line names the rung that caught it and those that did not; exit 0.
"$KLADDER" --db "$db" run --suite "$dir/round.json" --backend cpu --no-progress \
    --timeout 60 >"$KL_TMP/every.txt" 2>&1
rc=$?
sed 's/^/# /' "$KL_TMP/every.txt"
tap_check "every listed rung, one catching the bug: exit 0 ($rc)" test $rc -eq 0
tap_check "the summary names the rung that caught it and those that did not" \
    grep -qE '^plain-block-sumsq: the bug is caught by rung 2 \([1-9][0-9]* of [0-9]+ checks\); not by rung 1 \(0 of [0-9]+ checks\), rung 3 \(0 of [0-9]+ checks\), rung 5 \(0 of [0-9]+ checks\);' "$KL_TMP/every.txt"
# The other side: the same suite with its variants swapped, so that its "fixed" variant is the
# buggy kernel. A fixed variant that passes is the one thing a user's suite does expect: exit 1.
sed 's/"fixed": "block_sumsq<true>", "buggy": "block_sumsq<false>"/"fixed": "block_sumsq<false>", "buggy": "block_sumsq<true>"/' \
    $pl/block-sumsq.json >"$dir/badfixed.json"
"$KLADDER" --db "$db" run --suite "$dir/badfixed.json" --rung 1 --backend cpu --no-progress \
    --timeout 60 >"$KL_TMP/badfixed.txt" 2>&1
rc=$?
sed 's/^/# /' "$KL_TMP/badfixed.txt"
tap_check "a user's suite whose fixed variant fails: exit 1 ($rc)" test $rc -eq 1
tap_check "its summary: expectation not met, the fixed check unexpected" \
    bash -c "grep -qE '^EXPECTATION NOT MET: ' '$KL_TMP/badfixed.txt' &&
             grep -qE '^fail +fixed +r1 .*\(UNEXPECTED\)$' '$KL_TMP/badfixed.txt'"
