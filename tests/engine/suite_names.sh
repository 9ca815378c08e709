#!/usr/bin/env bash
# A suite given by its file is called by the manifest's own "name" wherever a person or a tool
# reads it: the text report ("not caught: NAME rung 1"), --json's checks, --junit's classnames,
# the event stream and the database alike; the path it was given by is a detail (--json
# "suite_file", the JUnit testcase's system-out).
. tests/tap.sh
export XDG_DATA_HOME=$KL_TMP/data XDG_CACHE_HOME=$KL_CACHE
db=$KL_TMP/k.db
fx=tests/engine/fixtures
dir=$KL_TMP/my
mkdir -p "$dir"
cp $fx/drop_tail.kl "$dir/"
# shape "mid" does not reach the buggy variant's bug: the run names the suite that escaped
jq '.rungs["1"].extra = [{"name": "mid", "n": 512}]' $fx/drop_tail.json >"$dir/my.json"
"$KLADDER" --db "$db" run --suite "$dir/my.json" --rung 1 --backend cpu --no-progress \
    --timeout 60 --junit "$KL_TMP/j.xml" --events 3 >"$KL_TMP/out.txt" 2>&1 3>"$KL_TMP/ev.jsonl"
rc=$?
sed 's/^/# /' "$KL_TMP/out.txt"
tap_check "the bug escapes: exit 1 ($rc)" test $rc -eq 1
tap_check "text: not caught names the suite, not its file" \
    grep -qE '; not caught: drop-tail-test rung 1; ' "$KL_TMP/out.txt"
tap_check "text: the file's path is nowhere in the summary" bash -c "! grep -q 'my.json rung' '$KL_TMP/out.txt'"
tap_check "JUnit: every check's classname starts with the suite's name" python3 -c '
import sys, xml.etree.ElementTree as ET
ts = ET.parse(sys.argv[1]).getroot().find("testsuite")
names = [tc.get("classname") for tc in ts.iter("testcase") if tc.get("classname") != "kladder"]
sys.exit(not (names and all(n.startswith("drop-tail-test.") for n in names)))' "$KL_TMP/j.xml"
tap_check "JUnit: the file in the testcase's output, as a detail" \
    grep -qF "suite file: $dir/my.json</system-out>" "$KL_TMP/j.xml"
tap_check "events: check-start names the suite" python3 -c '
import json, sys
ev = [json.loads(l) for l in open(sys.argv[1])]
s = {e["suite"] for e in ev if e["event"] == "check-start"}
sys.exit(s != {"drop-tail-test"})' "$KL_TMP/ev.jsonl"
"$KLADDER" --db "$db" run --suite "$dir/my.json" --rung 1 --backend cpu --no-progress \
    --timeout 60 --json >"$KL_TMP/run.json" 2>/dev/null
tap_check "--json: each check's suite is the name, its file in suite_file" python3 -c '
import json, sys
r = json.load(open(sys.argv[1]))
cs = r["checks"]
sys.exit(not (cs and all(c["suite"] == "drop-tail-test" and c["suite_file"] == sys.argv[2]
                         for c in cs) and r["suite"] == "drop-tail-test"
              and "drop-tail-test rung 1" in json.dumps(r["buggy_not_caught"])))' \
    "$KL_TMP/run.json" "$dir/my.json"
"$KLADDER" --db "$db" run --suite flydsl-1213 --rung 2 --backend cpu --no-progress --json \
    --timeout 120 >"$KL_TMP/builtin.json" 2>/dev/null
tap_check "--json: a built-in suite, given by its name, has no suite_file" python3 -c '
import json, sys
cs = json.load(open(sys.argv[1]))["checks"]
sys.exit(not (cs and all(c["suite"] == "flydsl-1213" and "suite_file" not in c for c in cs)))' \
    "$KL_TMP/builtin.json"
