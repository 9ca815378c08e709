#!/usr/bin/env bash
# JUnit, --json, the text report and the exit status tell one story. A rung whose buggy variant
# is caught by one shape and not reached by another exits 0 "expectation met": the JUnit file
# then has no failure (the buggy check that passed is "not reached here", not a failure) and
# --json marks that check's expectation met. A bug no check reached fails buggy-variants-caught
# alone, with exit 1.
. tests/tap.sh
export XDG_DATA_HOME=$KL_TMP/data XDG_CACHE_HOME=$KL_CACHE
db=$KL_TMP/k.db
fx=tests/engine/fixtures
dir=$KL_TMP/s
mkdir -p "$dir"
cp $fx/drop_tail.kl "$dir/"
# drop_tail's buggy variant drops elements past 1024: shape "mid" (n=512) does not reach it,
# shape "big" does
jq '.rungs["1"].extra = [{"name": "mid", "n": 512}, {"name": "big", "n": 8192}]' \
    $fx/drop_tail.json >"$dir/caught.json"
jq '.rungs["1"].extra = [{"name": "mid", "n": 512}]' $fx/drop_tail.json >"$dir/escaped.json"

story() { # suite name -> $rc, $KL_TMP/NAME.{txt,json,xml}
    "$KLADDER" --db "$db" run --suite "$dir/$1.json" --rung 1 --backend cpu --no-progress \
        --timeout 60 --junit "$KL_TMP/$1.xml" >"$KL_TMP/$1.txt" 2>&1
    rc=$?
    sed 's/^/# /' "$KL_TMP/$1.txt"
    "$KLADDER" --db "$db" run --suite "$dir/$1.json" --rung 1 --backend cpu --no-progress \
        --timeout 60 --json >"$KL_TMP/$1.json" 2>/dev/null
}
xml() { python3 - "$@" <<'PY'
import sys, xml.etree.ElementTree as ET
path, what = sys.argv[1], sys.argv[2]
ts = ET.parse(path).getroot().find("testsuite")
failed = [tc.get("classname") + ":" + tc.get("name") for tc in ts.iter("testcase")
          if tc.find("failure") is not None or tc.find("error") is not None]
if what == "failures":
    print(ts.get("failures"), ts.get("errors"), " ".join(failed))
PY
}

story caught
tap_check "a bug one shape reaches and another does not: exit 0 ($rc)" test $rc -eq 0
tap_check "the text: expectation met, the other shape not reached here" \
    bash -c "grep -q '^expectation met' '$KL_TMP/caught.txt' &&
             grep -qE '^pass +buggy +r1 mid .*\(not reached here\)' '$KL_TMP/caught.txt'"
tap_check "JUnit: no failure and no error ($(xml "$KL_TMP/caught.xml" failures))" \
    test "$(xml "$KL_TMP/caught.xml" failures)" = "0 0 "
tap_check "JUnit: the check that did not reach the bug says so" \
    grep -q 'verdict: pass, expected: fail (not reached here)' "$KL_TMP/caught.xml"
tap_check "--json: every check's expectation met, as the run's" python3 -c '
import json, sys
r = json.load(open(sys.argv[1]))
mid = [c for c in r["checks"] if c["variant"] == "buggy" and c["check"] == "mid"]
sys.exit(not (r["expectation_met"] and mid and mid[0]["verdict"] == "pass"
              and all(c["expectation_met"] for c in r["checks"])))' "$KL_TMP/caught.json"

story escaped
tap_check "a bug no shape reaches: exit 1 ($rc)" test $rc -eq 1
tap_check "JUnit: buggy-variants-caught is the one failure ($(xml "$KL_TMP/escaped.xml" failures))" \
    test "$(xml "$KL_TMP/escaped.xml" failures)" = "1 0 kladder:buggy-variants-caught"
tap_check "--json: the run's expectation not met" python3 -c '
import json, sys
r = json.load(open(sys.argv[1]))
sys.exit(r["expectation_met"] or not r.get("buggy_not_caught"))' "$KL_TMP/escaped.json"
