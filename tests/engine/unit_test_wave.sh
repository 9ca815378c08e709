#!/usr/bin/env bash
# A suite that lists rung 3 ("3": {}) keeps every other rung's baseline as its header says: a
# kernel written for 32-lane warps runs its plain unit test under rung 1 at the run's wave 32
# and passes, as the same suite without rung 3 does; rung 3's own unit test runs at its
# baseline_wave (64 by default) and its detail says so, so a wave-64 failure there is read as
# rung 3's and not as the run's.
. tests/tap.sh
export XDG_DATA_HOME=$KL_TMP/data XDG_CACHE_HOME=$KL_CACHE
src=tests/engine/fixtures/wave32
dir=$KL_TMP/mine
mkdir -p "$dir"
cp $src/warp_rowsum.cu $src/warp-rowsum.json "$dir/"
python3 - "$dir/warp-rowsum.json" "$dir/no3.json" <<'PY'
import json, sys
m = json.load(open(sys.argv[1]))
del m["rungs"]["3"]
json.dump(m, open(sys.argv[2], "w"))
PY
run() { # out suite [args]
    local o=$1 s=$2
    shift 2
    "$KLADDER" --db "$KL_TMP/k.db" run --suite "$s" --backend cpu --no-progress --timeout 60 "$@" \
        >"$o" 2>&1
}
for s in warp-rowsum no3; do
    run "$KL_TMP/$s.txt" "$dir/$s.json" --rung 1
    rc=$?
    sed 's/^/# /' "$KL_TMP/$s.txt" | grep -vE '^# (pass|fail) +(fixed|buggy) '
    tap_check "$s.json --rung 1: exit 0 ($rc)" test $rc -eq 0
    tap_check "$s.json --rung 1: the header says wave 32" \
        grep -qE '^kladder run .*, wave 32\), schedule' "$KL_TMP/$s.txt"
    tap_check "$s.json --rung 1: the unit test passes the fixed kernel at that wave" \
        grep -qE '^pass +baseline-fixed +r1 unit-test-' "$KL_TMP/$s.txt"
    tap_check "$s.json --rung 1: no deadlock anywhere" bash -c "! grep -q deadlock '$KL_TMP/$s.txt'"
done

run "$KL_TMP/r3.txt" "$dir/warp-rowsum.json" --rung 3 --variant fixed
sed 's/^/# /' "$KL_TMP/r3.txt"
tap_check "--rung 3: its own unit test says it ran at wave 64, rung 3's baseline_wave" \
    grep -A1 -E '^[a-z]+ +baseline-fixed +r3 unit-test-' "$KL_TMP/r3.txt" \
    | grep -qE "^ +unit test at wave 64 \(rung 3's baseline_wave"
tap_check "--rung 3: the wave-32 checks pass, the wave-64 ones do not (the kernel assumes 32 lanes)" \
    bash -c "grep -qE '^pass +fixed +r3 wave32-' '$KL_TMP/r3.txt' && ! grep -qE '^pass +fixed +r3 wave64-' '$KL_TMP/r3.txt'"
