#!/usr/bin/env bash
# What `kladder run` reports besides its text: the JSON document, the event stream for the TUI,
# JUnit XML, the database record, and `kladder devices`.
. tests/tap.sh
export XDG_DATA_HOME=$KL_TMP/data XDG_CACHE_HOME=$KL_CACHE
db=$KL_TMP/k.db
"$KLADDER" --db "$db" run --rung 4 --suite flydsl-1220 --backend cpu --no-progress --timeout 20 \
    --json --junit "$KL_TMP/junit.xml" --events 3 >"$KL_TMP/run.json" 2>"$KL_TMP/err.txt" \
    3>"$KL_TMP/events.jsonl"
rc=$?
tap_check "flydsl-1220 rung 4 on cpu: exit 0" test $rc -eq 0
sed 's/^/# /' "$KL_TMP/err.txt"
j=$KL_TMP/run.json
for key in run_id verdict expectation_met machine checks rung suite variant check shape detail \
    time_us median min max host backend device target wave_size kladder_version kladder_commit; do
    tap_check "JSON has \"$key\"" grep -q "\"$key\":" "$j"
done
tap_check "JSON: expectation met" grep -q '"expectation_met":[[:space:]]*true' "$j"
tap_check "JSON: the buggy variant failed" grep -q '"variant":[[:space:]]*"buggy"' "$j"
id=$(sed -nE 's/^[[:space:]]*"run_id":[[:space:]]*"([0-9a-f-]{36})".*/\1/p' "$j" | head -n 1)
tap_check "JSON: a UUID run id ($id)" test ${#id} -eq 36
ev=$KL_TMP/events.jsonl
tap_check "events: one start first" test "$(head -n 1 "$ev" | grep -c '"event":"start"')" -eq 1
tap_check "events: one end last" test "$(tail -n 1 "$ev" | grep -c '"event":"end"')" -eq 1
starts=$(grep -c '"event":"check-start"' "$ev")
dones=$(grep -c '"event":"check-done"' "$ev")
tap_check "events: every check-start has its check-done ($starts/$dones)" test "$starts" -eq "$dones" -a "$starts" -gt 0
tap_check "events: check-start carries the check's time limit" \
    test "$(grep '"event":"check-start"' "$ev" | grep -cE '"limit_s":[0-9.]+[,}]')" -eq "$starts"
tap_check "events: check-done carries the verdict" grep -q '"event":"check-done".*"verdict":"fail"' "$ev"
x=$KL_TMP/junit.xml
tap_check "JUnit: a testsuite with counts" grep -q '<testsuite name="kladder" tests="[0-9]*" failures="0"' "$x"
tap_check "JUnit: one testcase per check plus the buggy and executed summaries" \
    test "$(grep -c '<testcase ' "$x")" -eq $((dones + 2))
tap_check "JUnit: well-formed enough (balanced testcase tags)" \
    test "$(grep -c '<testcase ' "$x")" -eq "$(grep -c '</testcase>' "$x")"
out=$("$KLADDER" --db "$db" results 2>&1)
tap_check "the run is in the database" sh -c "printf '%s' \"\$1\" | grep -q \"\${2%%-*}\"" _ "$out" "$id"

# A run that misses an expectation (a suite that names rung 4 as the one catching its bug, whose
# buggy variant rung 4 does not reach) exits 1 and says so.
"$KLADDER" --db "$db" run --rung 4 --suite tests/engine/fixtures/escape.json --backend cpu \
    --variant buggy --no-progress --timeout 20 >"$KL_TMP/esc.txt" 2>&1
rc=$?
sed 's/^/# /' "$KL_TMP/esc.txt"
tap_check "a buggy variant its own rung does not catch: exit 1" test $rc -eq 1
tap_check "and the report names it" grep -q 'not caught: escape-test rung 4' "$KL_TMP/esc.txt"

# A rung its suite does not declare is a usage error that names the rungs it has, before any
# check runs (a suite declares the rungs it supports).
"$KLADDER" --db "$db" run --rung 4 --suite tests/engine/fixtures/hang.json --backend cpu \
    --variant buggy --no-progress --timeout 20 >"$KL_TMP/other.txt" 2>&1
rc=$?
sed 's/^/# /' "$KL_TMP/other.txt"
tap_check "a rung the suite does not declare: exit 2" test $rc -eq 2
tap_check "and the message names the rungs it has" grep -q 'does not declare rung 4 (its rungs: 1' "$KL_TMP/other.txt"

d=$("$KLADDER" devices --json | tr -d '[:space:]')
tap_check "devices --json lists cpu as available" sh -c "printf '%s' \"\$1\" | grep -q '\"backend\":\"cpu\",\"available\":true'" _ "$d"
for b in hip cuda; do
    tap_check "devices --json lists $b with available and reason" sh -c "printf '%s' \"\$1\" | grep -Eq '\"backend\":\"$b\",\"available\":(true|false),\"reason\"'" _ "$d"
done

# A run whose every check was skipped (here: a cpu limit below every buffer) executed nothing:
# it exits 1, says so, and its JUnit file fails the same way, so no CI reads it as green.
KLADDER_CPU_MAX_BYTES=64 "$KLADDER" --db "$db" run --rung 1 --suite flydsl-1199 --backend cpu \
    --no-progress --junit "$KL_TMP/none.xml" >"$KL_TMP/none.txt" 2>&1
rc=$?
tap_check "every check skipped: exit 1, not a pass" test "$rc" -eq 1
tap_check "every check skipped: the text names the target" \
    grep -qF 'no check executed (every one was skipped; nothing was tested): flydsl-1199 rung 1' "$KL_TMP/none.txt"
tap_check "every check skipped: JUnit has the failing checks-executed case" \
    grep -qF '<failure message="no check executed">flydsl-1199 rung 1</failure>' "$KL_TMP/none.xml"
KLADDER_CPU_MAX_BYTES=64 "$KLADDER" --db "$db" run --rung 1 --suite flydsl-1199 --backend cpu \
    --no-progress --json >"$KL_TMP/none.json" 2>/dev/null
tap_check "every check skipped: JSON counts 0 executed" grep -q '"executed":[[:space:]]*0' "$KL_TMP/none.json"
tap_check "every check skipped: JSON expectation not met" grep -q '"expectation_met":[[:space:]]*false' "$KL_TMP/none.json"
# The same suite with room to run executes its checks and counts them.
"$KLADDER" --db "$db" run --rung 1 --suite flydsl-1199 --backend cpu --variant fixed \
    --no-progress --json >"$KL_TMP/some.json" 2>/dev/null
tap_check "checks that ran are counted" grep -qE '"executed":[[:space:]]*[1-9]' "$KL_TMP/some.json"

# Inconclusive is not a pass: a buggy variant whose only reaching check (n = 8192) is beyond the
# cpu's reach here, while the baselines (n = 256) run. Text, JSON and JUnit say so; exit 1.
# With the reach restored, the same run catches the bug and meets its expectation.
fx=tests/engine/fixtures/drop_tail.json
KLADDER_CPU_MAX_BYTES=40000 "$KLADDER" --db "$db" run --rung 1 --suite $fx --backend cpu \
    --no-progress --junit "$KL_TMP/inc.xml" >"$KL_TMP/inc.txt" 2>&1
rc=$?
sed 's/^/# /' "$KL_TMP/inc.txt"
tap_check "inconclusive run: exit 1, not a pass" test "$rc" -eq 1
tap_check "inconclusive run: its last line says inconclusive and names the target" \
    sh -c "tail -n 1 '$KL_TMP/inc.txt' | grep -q '^inconclusive .*: $(jq -r .name "$fx") rung 1\$'"
tap_check "inconclusive run: the summary does not say expectation met" \
    grep -q '^INCONCLUSIVE: baseline 2/2 passed' "$KL_TMP/inc.txt"
tap_check "inconclusive run: JUnit fails buggy-variants-caught" \
    grep -q '<failure message="inconclusive' "$KL_TMP/inc.xml"
KLADDER_CPU_MAX_BYTES=40000 "$KLADDER" --db "$db" run --rung 1 --suite $fx --backend cpu \
    --no-progress --json >"$KL_TMP/inc.json" 2>/dev/null
rc=$?
tap_check "inconclusive run --json: exit 1" test "$rc" -eq 1
tap_check "inconclusive run --json: verdict inconclusive" grep -qE '"verdict":[[:space:]]*"inconclusive"' "$KL_TMP/inc.json"
tap_check "inconclusive run --json: expectation not met" grep -qE '"expectation_met":[[:space:]]*false' "$KL_TMP/inc.json"
"$KLADDER" --db "$db" run --rung 1 --suite $fx --backend cpu --no-progress >"$KL_TMP/inc2.txt" 2>&1
rc=$?
tap_check "the same run within reach catches the bug: exit 0" test "$rc" -eq 0
tap_check "and is not inconclusive" sh -c "! grep -qi inconclusive '$KL_TMP/inc2.txt'"
