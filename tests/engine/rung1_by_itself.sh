#!/usr/bin/env bash
# Rung 1 with nothing to plan from ("1": {}, no tiles, no extra shapes) plans its boundary checks
# by itself: the default shape, and each dimension one below and one above its default and at
# 1. A block reduction that sizes its loop by whole blocks (dropping a length's tail) is caught
# on those lengths, its correct variant passes every one; a dimension no buffer's shape
# mentions gets none.
. tests/tap.sh
export XDG_DATA_HOME=$KL_TMP/data XDG_CACHE_HOME=$KL_CACHE
pl=tests/engine/fixtures/plain
dir=$KL_TMP/mine
mkdir -p "$dir"
cp $pl/block_sumsq.hip "$dir/"
# a round default length that the buggy kernel gets right; "scale" is a parameter no shape uses
python3 - $pl/block-sumsq.json "$dir/bare.json" <<'PY'
import json, sys
m = json.load(open(sys.argv[1]))
m["params"] = {"n": 1024, "scale": 3}
m["rungs"] = {"1": {}}
json.dump(m, open(sys.argv[2], "w"))
PY
"$KLADDER" --db "$KL_TMP/k.db" run --suite "$dir/bare.json" --backend cpu --no-progress --timeout 60 \
    --json >"$KL_TMP/bare.json" 2>"$KL_TMP/err"
rc=$?
sed 's/^/# /' "$KL_TMP/err"
tap_check "\"1\": {} with no tiles: the run plans and ends (exit $rc)" test $rc -eq 0
python3 - "$KL_TMP/bare.json" >"$KL_TMP/checks.txt" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
for c in d["checks"]:
    if not c["variant"].startswith("baseline"):
        print(c["variant"], c["check"], c["verdict"])
PY
sed 's/^/# /' "$KL_TMP/checks.txt"
tap_check "the default shape and n's tails, and nothing of scale" \
    test "$(awk '$1 == "fixed" { print $2 }' "$KL_TMP/checks.txt" | sort | tr '\n' ' ')" = \
         "default small-n1 tail-n1023 tail-n1025 "
tap_check "the correct kernel passes every one" \
    bash -c "! awk '\$1 == \"fixed\" && \$3 != \"pass\"' '$KL_TMP/checks.txt' | grep -q ."
tap_check "the dropped tail is caught below the default and at 1, not at the default" \
    bash -c "grep -qx 'buggy tail-n1023 fail' '$KL_TMP/checks.txt' && grep -qx 'buggy small-n1 fail' '$KL_TMP/checks.txt' &&
             grep -qx 'buggy default pass' '$KL_TMP/checks.txt'"
