# Host identity: a pulled run belongs to the host name it was pulled under and keeps its
# machine; a run made here is always `local`, even when the pulled machine has this machine's
# host name; `results --host X` never mixes the two; a source already pulled cannot be added
# again under a second name (the error names the first), and `hosts rename` moves its runs.
. tests/tap.sh
db=$KL_TMP/hosts.db
k() { "$KLADDER" --db "$db" "$@"; }
me=$(hostname)

k run --rung 1 --suite flydsl-1199 --backend cpu --no-progress >/dev/null 2>&1
tap_check "a run made here" test $? = 0
# a document from another machine that carries this machine's host name
python3 tests/fixtures/remote/gen_results.py --host "$me" --runs 3 --checks 4 --backend cuda \
    --device "NVIDIA H200" --out "$KL_TMP/twin.json"
k pull "file://$KL_TMP/twin.json" >"$KL_TMP/pull.txt" 2>&1
tap_check "the document pulled by URL" grep -q ': 3 new runs' "$KL_TMP/pull.txt"
first=$(k hosts list --json | python3 -c 'import json,sys; print(json.load(sys.stdin)[0]["name"])')

k results >"$KL_TMP/results.txt"
tap_check "the run made here is listed as local" \
    test "$(grep -cE '^[0-9a-f]{8} [0-9TZ:-]+ +local +cpu ' "$KL_TMP/results.txt")" -eq 1
tap_check "the pulled runs under the name they were pulled as ($first)" \
    test "$(grep -cE "^[0-9a-f]{8} [0-9TZ:-]+ +$first +NVIDIA H200 " "$KL_TMP/results.txt")" -eq 3
k results --host "$first" --json | python3 -c '
import json, sys; runs = json.load(sys.stdin); first = sys.argv[1]
assert len(runs) == 3 and all(r["origin"] == first for r in runs), runs' "$first"
tap_check "results --host $first: its 3 pulled runs, no local one" test $? = 0
k results --host local --json | python3 -c '
import json, sys; runs = json.load(sys.stdin)
assert len(runs) == 1 and runs[0]["origin"] is None, runs'
tap_check "results --host local: the run made here only" test $? = 0
printf '3\n:save-screen %s\nH\n:save-screen %s\n' "$KL_TMP/runs.screen" "$KL_TMP/runs-local.screen" >"$KL_TMP/steps"
KLADDER_SCRIPT=$KL_TMP/steps KLADDER_SIZE=120x30 LC_ALL=C.UTF-8 TERM=xterm-256color \
    "$KLADDER" --db "$db" >/dev/null 2>&1
tap_check "the Runs view lists the run made here as local, the pulled ones under $first" \
    sh -c "test \$(grep -Ec ':[0-9]{2} +local +cpu ' '$KL_TMP/runs.screen') -eq 1 &&
           test \$(grep -Ec ':[0-9]{2} +([^ ]*@)?$first +NVIDIA H200 ' '$KL_TMP/runs.screen') -eq 3"
tap_check "its host filter H, on local, keeps the run made here alone" \
    grep -q '^Run 1 of 1 · host local' "$KL_TMP/runs-local.screen"
mid=$(k results --host "$first" --json | python3 -c 'import json,sys; print(json.load(sys.stdin)[0]["machine"]["id"])')

k hosts add h200 "file://$KL_TMP/twin.json" >"$KL_TMP/out" 2>"$KL_TMP/err"; rc=$?
tap_check "the same URL under a second name is refused (exit 2)" test $rc = 2
tap_check "and the error names the first name and the way to rename" \
    grep -q "is already pulled as host '$first' (3 runs); a second name would stay empty. To call it 'h200', use \`kladder hosts rename $first h200\`" "$KL_TMP/err"
tap_check "no empty host was added" sh -c "! '$KLADDER' --db '$db' hosts list | grep -q '^h200 '"

# the same document at another address: the pull is refused, naming the first host
cp "$KL_TMP/twin.json" "$KL_TMP/copy.json"
k hosts add mirror "file://$KL_TMP/copy.json" >/dev/null
k pull mirror >"$KL_TMP/pull2.txt" 2>&1; rc=$?
tap_check "pulling the same runs under a second name fails" test $rc != 0
tap_check "saying which host they belong to" grep -q "was pulled already as host '$first'" "$KL_TMP/pull2.txt"
k hosts rm mirror >/dev/null
tap_check "nothing was written for it (mirror had no runs to purge)" test $? = 0

k hosts rename "$first" h200 >"$KL_TMP/out" 2>&1
tap_check "hosts rename OLD NEW" grep -q "^renamed host $first to h200$" "$KL_TMP/out"
k results --host h200 --json | python3 -c '
import json, sys; runs = json.load(sys.stdin); mid = sys.argv[1]
assert len(runs) == 3 and all(r["origin"] == "h200" and r["machine"]["id"] == mid for r in runs), runs' "$mid"
tap_check "the runs follow the new name and keep their machine id" test $? = 0
tap_check "the old name is gone" test "$(k results --host "$first" --json)" = "[]"
k compare local h200 --json | python3 -c '
import json, sys; s = json.load(sys.stdin)["summary"]; assert s["only_b"] > 0, s'
tap_check "compare local h200 finds the renamed host's checks" test $? = 0
k hosts add other "file://$KL_TMP/copy.json" >/dev/null
k hosts rename h200 other 2>"$KL_TMP/err"; rc=$?
tap_check "renaming onto an existing name is refused" \
    sh -c "test $rc = 2 && grep -q \"a host named 'other' exists already\" '$KL_TMP/err'"
k hosts rename h200 local 2>/dev/null
tap_check "renaming to 'local' is a usage error" test $? = 2
k hosts rename nosuch x 2>"$KL_TMP/err"
tap_check "renaming a host that does not exist says so" grep -q "no host named 'nosuch'" "$KL_TMP/err"
