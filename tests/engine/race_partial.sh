#!/usr/bin/env bash
# The cpu backend's race check stops after 1 Mi accesses of a launch (engine/cpu/cpu_race.h): a
# check whose launch is longer says so in its result ("race check stopped after N accesses"),
# beside a pass as beside a failure, so that a pass is read as the partial one it is. On
# tests/engine/fixtures/race/partial.json (a strided copy of 540000 floats under the pct
# schedule): the buggy variant's early race between blocks is still caught, with the note; the
# fixed variant passes, with the note; the same kernels on a short launch pass with none.
. tests/tap.sh
set -u
export XDG_DATA_HOME=$KL_TMP/data XDG_CACHE_HOME=$KL_CACHE
f=tests/engine/fixtures/race/partial.json
run() { # OUT ARGS...: a rung 5 run on the cpu backend under the pct schedule
    local out=$1
    shift
    "$KLADDER" --db "$KL_TMP/k.db" run --rung 5 --backend cpu --repeat 1 --no-progress \
        --timeout 300 --schedule pct --seed 1 "$@" >"$out" 2>&1
    local rc=$?
    sed 's/^/# /' "$out"
    return $rc
}
note='race check stopped after 1048576 accesses: the rest of the launch was not checked for races'

run "$KL_TMP/long.txt" --suite "$f" --json
rc=$?
python3 - "$KL_TMP/long.txt" "$note" >"$KL_TMP/long.tsv" <<'PY'
import json, sys
text = open(sys.argv[1]).read()
doc = json.loads(text[text.index("{"):])
for c in doc["checks"]:
    if c["variant"] in ("fixed", "buggy"):
        print(c["variant"], c["verdict"], int(sys.argv[2] in c["detail"]), int("data race" in c["detail"]), sep="\t")
PY
sed 's/^/# /' "$KL_TMP/long.tsv"
tap_check "a long launch: the expectation is met (exit $rc)" test "$rc" -eq 0
tap_check "the buggy variant's early race is caught, and its result says the check stopped" \
    grep -qx "buggy	fail	1	1" "$KL_TMP/long.tsv"
tap_check "the fixed variant passes, and its result says the race check was partial" \
    grep -qx "fixed	pass	1	0" "$KL_TMP/long.tsv"
run "$KL_TMP/long-text.txt" --suite "$f" --variant fixed
tap_check "the text report shows the note beside the pass" \
    sh -c "grep -qE '^pass +fixed +r5 ' '$KL_TMP/long-text.txt' && grep -qF '$note' '$KL_TMP/long-text.txt'"

# the same kernels on a launch the check covers whole: no note
python3 -c 'import json, sys; m = json.load(open(sys.argv[1])); m["params"]["n"] = 4096
json.dump(m, open(sys.argv[2], "w"))' "$f" "$KL_TMP/short.json"
cp tests/engine/fixtures/race/partial.kl "$KL_TMP/"
run "$KL_TMP/short.txt" --suite "$KL_TMP/short.json"
rc=$?
tap_check "a short launch: the race is caught and the fixed variant passes (exit $rc)" \
    sh -c "test $rc -eq 0 && grep -qE '^fail +buggy +r5 ' '$KL_TMP/short.txt' && grep -qE '^pass +fixed +r5 ' '$KL_TMP/short.txt'"
tap_check "and no check says its race check stopped" sh -c "! grep -q 'race check stopped' '$KL_TMP/short.txt'"
