#!/usr/bin/env bash
# Defects versus doubts (docs/engine.md, "Defects and doubts"): a check fails its variant
# whenever the variant itself is shown wrong (a race, an access past shared memory's end),
# even when the other variant shares it; only a value comparison the oracle cannot settle is
# in doubt, and a run holding a doubt is never a pass (verdict doubt, exit 3).
# tests/engine/fixtures/defects:
# - a block softmax whose warp 0 stores its partial sum into the broadcast slot other warps may
#   still read the max from (no barrier between), paired with a one-line copy that races the
#   same way: the fixed variant fails with the race named first, exit 1;
# - the same softmax with its barrier, against a reference that overflows on large values: the
#   value-only disagreement both variants share stays a doubt, exit 3;
# - a textbook interleaved tree sum that reads past its shared memory at a block of 100
#   threads, both variants alike: fails, exit 1; at power-of-two blocks it passes.
. tests/tap.sh
export XDG_DATA_HOME=$KL_TMP/data XDG_CACHE_HOME=$KL_CACHE
fx=tests/engine/fixtures/defects
run() { # OUT SUITE RUNG [options]: exit status in $rc
    local out=$1 suite=$2 rung=$3; shift 3
    "$KLADDER" --db "$KL_TMP/k.db" run --rung "$rung" --suite "$suite" --backend cpu \
        --no-progress --timeout 120 "$@" >"$KL_TMP/$out.txt" 2>&1
    rc=$?
    sed 's/^/# /' "$KL_TMP/$out.txt" | cut -c1-300
}
has() { grep -qE "$2" "$KL_TMP/$1.txt"; }

# 1. The broadcast-slot race, as shipped (fixed) and in a one-line copy (buggy).
run race $fx/softmax-race.json 5
tap_check "race: the run fails (exit 1, got $rc)" test $rc -eq 1
tap_check "race: the fixed variant's pct check fails, not in doubt" \
    has race '^fail +fixed +r5 pct1-default .*\(UNEXPECTED\)$'
tap_check "race: the copy's pct check fails too (a catch, not a doubt)" \
    has race '^fail +buggy +r5 pct1-default .*\(expected\)$'
tap_check "race: nothing is in doubt" sh -c "! grep -qiE '^doubt|in doubt' '$KL_TMP/race.txt'"
tap_check "race: the summary's first line is the defect, naming the race and both lines" \
    sh -c "grep -A1 -E '^$' '$KL_TMP/race.txt' | grep -qE '^DEFECT: race in defect-softmax-race \(fixed\) at rung 5, check pct1-default, rows=8,cols=200: data race on __shared__ memory .*softmax_bcast\.cu:[0-9]+.*softmax_bcast\.cu:[0-9]+'"
tap_check "race: the headline says the expectation is not met" has race '^EXPECTATION NOT MET'
"$KLADDER" --db "$KL_TMP/k.db" run --rung 5 --suite $fx/softmax-race.json --backend cpu \
    --no-progress --timeout 120 --json >"$KL_TMP/race.json" 2>/dev/null
tap_check "race: --json says fail, the defect, and race on the check" python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
c = [c for c in d["checks"] if c["variant"] == "fixed" and c["check"] == "pct1-default"][0]
sys.exit(0 if d["verdict"] == "fail" and d["defect"].startswith("race in ") and
         c["verdict"] == "fail" and c["defect"] == "race" else 1)' "$KL_TMP/race.json"

# 2. The correct softmax, a reference that is wrong on large values: a doubt, never a pass.
run doubt $fx/softmax-doubt.json 2
tap_check "value-only: the run is in doubt (exit 3, got $rc)" test $rc -eq 3
tap_check "value-only: large-mean is in doubt for both variants" \
    sh -c "test \$(grep -cE '^doubt +(fixed|buggy) +r2 large-mean ' '$KL_TMP/doubt.txt') -eq 2"
tap_check "value-only: the copy's slip is still caught by distinct" \
    has doubt '^fail +buggy +r2 distinct .*\(expected\)$'
tap_check "value-only: each doubt says what would settle it" \
    sh -c "test \$(grep -cE '^ +in doubt: .*; to settle it: a reference that is right there' '$KL_TMP/doubt.txt') -eq 2"
tap_check "value-only: the headline is no pass" \
    sh -c "grep -qE '^IN DOUBT \(not a pass\): ' '$KL_TMP/doubt.txt' && ! grep -qE '^expectation met' '$KL_TMP/doubt.txt'"
tap_check "value-only: no defect is claimed" sh -c "! grep -q '^DEFECT' '$KL_TMP/doubt.txt'"
"$KLADDER" --db "$KL_TMP/k.db" run --rung 2 --suite $fx/softmax-doubt.json --backend cpu \
    --no-progress --timeout 120 --json >"$KL_TMP/doubt.json" 2>/dev/null
rc=$?
tap_check "value-only: --json says doubt, expectation not met, exit 3 ($rc)" sh -c "test $rc -eq 3 &&
    python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); sys.exit(0 if d[\"verdict\"] == \"doubt\" and d[\"expectation_met\"] is False and d[\"doubts\"] == 2 else 1)' '$KL_TMP/doubt.json'"
id=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["run_id"])' "$KL_TMP/doubt.json")
"$KLADDER" --db "$KL_TMP/k.db" results "$id" >"$KL_TMP/doubt_db.txt" 2>&1
sed 's/^/# /' "$KL_TMP/doubt_db.txt" | head -3
tap_check "value-only: the database records the run as doubt" grep -qE '^verdict +doubt' "$KL_TMP/doubt_db.txt"
"$KLADDER" --db "$KL_TMP/k.db" export --out "$KL_TMP/x.json" >/dev/null 2>&1
tap_check "value-only: export writes the run's verdict doubt" python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
sys.exit(0 if any(r["run_id"] == sys.argv[2] and r["verdict"] == "doubt" for r in d["runs"]) else 1)' \
    "$KL_TMP/x.json" "$id"

# 3. A tree sum past its shared memory at a block of 100, both variants alike.
run tree $fx/tree-sum.json 1
tap_check "tree sum: the run fails (exit 1, got $rc)" test $rc -eq 1
tap_check "tree sum: both variants fail the 100-wide block with the read past the end" \
    sh -c "test \$(grep -A1 -E '^fail +(fixed|buggy) +r1 cols100 ' '$KL_TMP/tree.txt' | grep -cE 'a read at byte 400 of the block.s 400 bytes of dynamic shared memory \(past its end\)') -eq 2"
tap_check "tree sum: nothing is in doubt" sh -c "! grep -qiE '^doubt|in doubt' '$KL_TMP/tree.txt'"
tap_check "tree sum: the defect comes first in the summary" \
    has tree '^DEFECT: bounds in defect-tree-sum \(fixed\) at rung 1, check cols100: shared memory: .*tree_sum\.cu:[0-9]+'
tap_check "tree sum: at a block of 512 the fixed variant passes" has tree '^pass +fixed +r1 cols512 '
