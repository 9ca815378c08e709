#!/usr/bin/env bash
# A run whose process is killed outright stays `running` only while nobody looks: the run records
# its owner (host, boot id, pid, start time), and the next kladder that opens the database finds
# that owner gone and marks the run `interrupted`, with the checks it had finished. A run whose
# owner still runs is left alone. The kill lands mid-run deterministically: the suite's second
# check is a kernel that never returns, held for a limit far longer than the test waits, and the
# kill is sent once the first check is recorded.
. tests/tap.sh
export XDG_DATA_HOME=$KL_TMP/data XDG_CACHE_HOME=$KL_CACHE
db=$KL_TMP/k.db
fx=tests/engine/fixtures

# Fields of the newest run in `results --json`: verdict, checks counted, finished or "-".
newest() {
    "$KLADDER" --db "$db" results --json | python3 -c '
import json, sys
runs = json.load(sys.stdin)
if not runs: print("none 0 -"); sys.exit()
r = runs[0]
print(r["verdict"], sum(r["counts"].values()), r["finished"] or "-", r["run_id"])'
}

# The buggy variant's "big" check hangs; the checks before it finish at once.
"$KLADDER" --db "$db" run --rung 1 --suite $fx/hang.json --backend cpu --timeout 300 \
    --no-progress >"$KL_TMP/run.txt" 2>&1 &
owner=$!
state="none 0 -"
for _ in $(seq 1 600); do # up to 60 s for the first check on a loaded machine
    state=$(newest)
    set -- $state
    [ "$1" = running ] && [ "$2" -ge 1 ] && break
    sleep 0.1
done
echo "# while the owner runs: $state"
set -- $state
tap_check "the run records its first check while its owner runs" test "$2" -ge 1
tap_check "a run whose owner still runs is not marked (verdict running)" test "$1" = running
tap_check "and its owner is still alive" kill -0 $owner
workers=$(pgrep -P $owner | tr '\n' ' ')
echo "# its workers: $workers"

kill -KILL $owner
wait $owner 2>/dev/null
sleep 0.5 # the worker dies with its parent (a SIGKILL it is sent by the kernel)
state=$(newest)
echo "# after SIGKILL: $state"
set -- $state
tap_check "after SIGKILL the next kladder marks the run interrupted" test "$1" = interrupted
tap_check "the finished checks are kept with it ($2)" test "$2" -ge 1
tap_check "the time it was found is its finish time" test "$3" != -
id=$4
"$KLADDER" --db "$db" results "$id" --json >"$KL_TMP/one.json"
tap_check "results RUN_ID lists its checks" python3 -c '
import json, sys
r = json.load(open(sys.argv[1]))
sys.exit(not (r["verdict"] == "interrupted" and len(r["checks"]) >= 1))' "$KL_TMP/one.json"
"$KLADDER" --db "$db" results >"$KL_TMP/list.txt"
sed 's/^/# /' "$KL_TMP/list.txt"
tap_check "the run table says interrupted" grep -q ' interrupted ' "$KL_TMP/list.txt"
"$KLADDER" --db "$db" results --verdict interrupted --json >"$KL_TMP/only.json"
tap_check "--verdict interrupted finds it" grep -q "\"$id\"" "$KL_TMP/only.json"
left=
for _ in $(seq 1 50); do
    left=
    for w in $workers; do kill -0 "$w" 2>/dev/null && left="$left $w"; done
    [ -z "$left" ] && break
    sleep 0.1
done
tap_check "no worker is left behind (${left:-none})" test -z "$left"

# Exported, and read back by a pull on another database: the verdict travels.
"$KLADDER" --db "$db" export --out "$KL_TMP/export.json" 2>"$KL_TMP/export.err"
tap_check "the export carries the interrupted run" grep -q '"interrupted"' "$KL_TMP/export.json"
"$KLADDER" --db "$KL_TMP/other.db" pull "file://$KL_TMP/export.json" >"$KL_TMP/pull.txt" 2>&1
rc=$?
sed 's/^/# /' "$KL_TMP/pull.txt"
tap_check "a pull accepts it (exit $rc)" test $rc -eq 0
tap_check "and keeps it interrupted" \
    bash -c "'$KLADDER' --db '$KL_TMP/other.db' results $id --json | grep -q '\"verdict\":[[:space:]]*\"interrupted\"'"
