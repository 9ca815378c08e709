#!/usr/bin/env bash
# A run interrupted from the keyboard (SIGINT, as Ctrl-C sends) says "cancelled" and nothing
# else: the checks that ran, then one line, no "(UNEXPECTED)" on the checks it stopped and no
# "EXPECTATION NOT MET ... not caught" for a bug whose checks never ran; JUnit tells the same
# (the stopped checks are errors "cancelled", no failure, buggy-variants-caught not failed).
# The interrupt lands while the suite's buggy "big" check hangs, after the checks before it
# are recorded.
. tests/tap.sh
export XDG_DATA_HOME=$KL_TMP/data XDG_CACHE_HOME=$KL_CACHE
db=$KL_TMP/k.db
fx=tests/engine/fixtures
done_checks() {
    "$KLADDER" --db "$db" results --json | python3 -c '
import json, sys
runs = json.load(sys.stdin)
print(sum(runs[0]["counts"].values()) if runs else 0)'
}
# The events stream says when a check is done; polling it costs a grep, where asking the
# database costs a start of kladder (a sanitizer build's start is slow) each time.
"$KLADDER" --db "$db" run --rung 1 --suite $fx/hang.json --backend cpu --timeout 300 \
    --no-progress --junit "$KL_TMP/j.xml" --events 3 >"$KL_TMP/run.txt" 2>"$KL_TMP/err.txt" \
    3>"$KL_TMP/events.jsonl" &
pid=$!
for _ in $(seq 1 600); do # up to 60 s for the three quick checks on a loaded machine
    [ "$(grep -c '"check-done"' "$KL_TMP/events.jsonl" 2>/dev/null)" -ge 3 ] && break
    sleep 0.1
done
for _ in $(seq 1 50); do # the database reporter may commit a moment after the events line
    [ "$(done_checks)" -ge 3 ] && break
    sleep 0.2
done
tap_check "the database holds the three checks the events stream reported" test "$(done_checks)" -ge 3
sleep 1 # the hanging check is under way
kill -INT $pid
wait $pid
rc=$?
sed 's/^/# /' "$KL_TMP/run.txt" "$KL_TMP/err.txt"
tap_check "an interrupted run exits 1 ($rc)" test $rc -eq 1
tap_check "its last line says cancelled, and how far it got" \
    bash -c "tail -n 1 '$KL_TMP/run.txt' | grep -qxE 'cancelled: the run was interrupted after 3 of 6 checks; nothing is judged'"
tap_check "no check it stopped reads UNEXPECTED" bash -c "! grep -q 'UNEXPECTED' '$KL_TMP/run.txt'"
tap_check "no expectation verdict, no bug 'not caught'" \
    bash -c "! grep -qE 'EXPECTATION|expectation met|not caught|INCONCLUSIVE' '$KL_TMP/run.txt'"
tap_check "the checks that ran are listed as they ended" \
    test "$(grep -cE '^pass ' "$KL_TMP/run.txt")" -eq 3
tap_check "JUnit: no failure; the stopped checks are errors 'cancelled'" python3 -c '
import sys, xml.etree.ElementTree as ET
ts = ET.parse(sys.argv[1]).getroot().find("testsuite")
errs = [tc.find("error") for tc in ts.iter("testcase") if tc.find("error") is not None]
sys.exit(not (ts.get("failures") == "0" and len(errs) == 3 and ts.get("errors") == "3"
              and all(e.get("message") == "cancelled" for e in errs)))' "$KL_TMP/j.xml"
"$KLADDER" --db "$db" results --json >"$KL_TMP/runs.json"
tap_check "the run is recorded as cancelled" python3 -c '
import json, sys
sys.exit(json.load(open(sys.argv[1]))[0]["verdict"] != "cancelled")' "$KL_TMP/runs.json"
