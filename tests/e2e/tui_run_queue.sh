# Every suite of a dashboard cell, one after another, from the launch panel. The fixture index's
# cell gap 4 × rung 4 holds flydsl-400, for which KLADDER_SUITE_PATH offers suites of this test's
# own (copies of the tui_run hang suite): two quick ones whose variants both copy (so each run
# ends as fail: its buggy variant is not caught), and one whose buggy variant waits forever. The panel offers "every suite of this cell" first; with the quick
# ones it runs both as separate runs, the live view saying "run 1 of 2" then "run 2 of 2"; with
# the hanging one second of three, x asks first (naming the run still queued), y stops it and the
# third run never starts.
. tests/e2e/tui_run_lib
kl_need "tmux is not installed (scripts/deps.sh --test installs it)" tmux
src=$KL_TMP/suites
mkdir -p "$src"
cp tests/fixtures/tui_run/hang.kl "$src/"
# suite NAME BUGGY_KERNEL: a rung 4 suite of flydsl-400 named NAME.
suite() {
    python3 - tests/fixtures/tui_run/hang.json "$src/$1.json" "$1" "$2" <<'PY'
import json, sys
m = json.load(open(sys.argv[1]))
m["name"], m["case"] = sys.argv[3], "flydsl-400"
m["variants"]["buggy"] = sys.argv[4]
json.dump(m, open(sys.argv[2], "w"))
PY
}
suite q-first hang_fixed && suite q-hangs hang_buggy && suite q-last hang_fixed ||
    tap_fail "suites written"

# start DB SUITE_PATH: kladder on the fixture index, as tui_start does.
start() {
    rm -f "$rcfile"
    tm -f /dev/null new-session -d -s "$session" -x 110 -y 32 \
        "env -u NO_COLOR -u KLADDER_LANG -u KLADDER_THEME -u KLADDER_SCRIPT LC_ALL=C.UTF-8 TERM=screen-256color KLADDER_SUITE_PATH=$2 \
         '$KLADDER' --db '$1' --data-dir tests/fixtures/tui 2>'$KL_TMP/stderr'; echo \$? >'$rcfile'; sleep 60"
}
# open_cell: r on the dashboard cell gap 4 × rung 4, then the backend set to cpu.
open_cell() {
    wait_for "the dashboard comes up" '1 Dashboard.*3 Runs.*4 Compare' || return 1
    keys g j j j l l l r
    wait_for "r on the cell opens the launch panel" 'Run gap 4 × rung 4' || return 1
    wait_for "the backends are known" 'cpu +available' || return 1
    return 0
}
runs_of() { "$KLADDER" --db "$1" results --json 2>/dev/null | python3 -c '
import json, sys
print(" ".join(sorted(r["suite"] + ":" + r["verdict"] for r in json.load(sys.stdin))))'; }

# 1. Two quick suites: both run, one after the other.
db=$KL_TMP/queue.db
start "$db" "$src/q-first.json:$src/q-last.json"
open_cell || exit 0
wait_for "every suite of the cell is offered first" \
    'Run +‹ every suite of this cell, one after another \(2 runs\) ›' 5 || exit 0
wait_for "the panel says what comes after the first command" \
    'then the other 1 suite, each a run of its own, one after another' 5
keys j l
wait_for "backend cpu" 'Backend +‹ cpu ›' 5 || exit 0
keys Enter
wait_for "the live view says which run of the queue" '^ run 1 of 2 · ' 10 || exit 0
wait_for "the second run starts when the first ends" '^ run 2 of 2 · ' 60 || exit 0
wait_for "and it ends" '^ run 2 of 2 · fail · 4 of 4 checks done' 60 || exit 0
wait_for "the status line says the last run ended" 'The run ended: fail' 5
tap_check "two runs recorded, one per suite" test "$(runs_of "$db")" = "q-first:fail q-last:fail"
tui_quit
cleanup

# 2. The second of three hangs: cancelling asks, stops it and drops the third.
db=$KL_TMP/queue-cancel.db
start "$db" "$src/q-first.json:$src/q-hangs.json:$src/q-last.json"
open_cell || exit 0
wait_for "three suites: three runs" 'every suite of this cell, one after another \(3 runs\)' 5 || exit 0
keys j l
wait_for "backend cpu" 'Backend +‹ cpu ›' 5 || exit 0
keys Enter
wait_for "the second run starts" '^ run 2 of 3 · running' 60 || exit 0
wait_for "its buggy check hangs" "Now: .* · [a-z-]*buggy" 30 || exit 0
keys x
wait_for "x asks first, naming the run still queued" \
    'Cancel the run and the 1 queued after it\? The checks done are kept\. y/n' 5 || exit 0
keys n
wait_for "n: nothing is done" 'Not done' 5
keys x
wait_for "x asks again" 'queued after it\?' 5 || exit 0
keys y
wait_for "the run ends as cancelled" '^ run 2 of 3 · cancelled' 30 || exit 0
sleep $((2 * slow))
tap_check "the third run never started" sh -c "! tmux -L $sock capture-pane -p -t $session | grep -q 'run 3 of 3'"
tap_check "two runs recorded: the first ended, the second cancelled" \
    test "$(runs_of "$db")" = "q-first:fail q-hangs:cancelled"
tui_quit
