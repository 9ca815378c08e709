# Cancel a run whose check hangs, from the interface. The suite tests/fixtures/tui_run/hang.json
# (offered for the aiter-4494 case through KLADDER_SUITE_PATH) has a buggy variant that never
# returns. While its check hangs the interface keeps answering keys and its elapsed time keeps
# moving; Esc goes back and leaves the run going (a ● on the Runs tab and in the status line),
# r shows it again; q and x ask y/n first and n leaves it running; x then y stops the run; the
# run is recorded as cancelled, the check that had finished keeps its verdict, the live view
# counts only the checks that ran and judges no expectation, and the key bar no longer offers x
# Cancel.
. tests/e2e/tui_run_lib
kl_need "tmux is not installed (scripts/deps.sh --test installs it)" tmux
db=$KL_TMP/cancel.db
tui_start "$db" "KLADDER_SUITE_PATH=$PWD/tests/fixtures/tui_run/hang.json"
wait_for "the dashboard comes up" '1 Dashboard.*3 Runs.*4 Compare' || exit 0
keys 2 /
keys -l 4494
keys Enter r
wait_for "r on the case in the list opens the launch panel" 'Run case aiter-4494' || exit 0
keys l
wait_for "the suite of one's own is offered" 'Run +‹ tui-hang · rung 4 · .*hang.json ›' || exit 0
keys Enter
wait_for "the baseline of the fixed variant passes" '0 +✓ pass +baseline-fixed' 30 || exit 0
wait_for "the next check hangs" 'Now: unit-test-n256 · baseline-buggy' || exit 0
# Its own clock against its limit (the panel's default, 60 s): it counts up while it hangs.
wait_for "the running check shows its time against its limit" \
    'Now: unit-test-n256 · baseline-buggy · [0-9]+\.[0-9] s of its 60 s limit \([0-9]+ s left\)' 5 || exit 0
c1=$(pane | sed -nE 's/.*Now: .* · ([0-9.]+) s of its 60 s limit.*/\1/p' | head -1)
# The interface answers while the check hangs: switch views and back, and the clock moves.
t1=$(pane | sed -nE 's/.* checks done · ([0-9.]+) s.*/\1/p' | head -1)
keys 1
wait_for "a key during the hang changes the screen (dashboard)" 'Which rung of the ladder closes which gap' 5
keys 3
wait_for "and back to the live run, still running" '^ running · 1 of 4 checks done' 5
sleep 1.5
t2=$(pane | sed -nE 's/.* checks done · ([0-9.]+) s.*/\1/p' | head -1)
tap_check "the elapsed time moves during the hang ($t1 s, then $t2 s)" \
    awk -v a="$t1" -v b="$t2" 'BEGIN { exit !(b > a) }'
c2=$(pane | sed -nE 's/.*Now: .* · ([0-9.]+) s of its 60 s limit.*/\1/p' | head -1)
tap_check "the check's own clock moves too ($c1 s, then $c2 s)" \
    awk -v a="$c1" -v b="$c2" 'BEGIN { exit !(b > a) }'
# The run and its worker, to check that cancelling leaves neither behind.
runpid=$(pgrep -f "[k]ladder --db $db run" | head -1)
procs="$runpid $(pgrep -P "$runpid" 2>/dev/null | tr '\n' ' ')"
tap_check "the run has a worker process for the hanging check" test "$(echo $procs | wc -w)" -ge 2
tap_check "while it runs the key bar offers x Cancel" sh -c "test \"\$(tmux -L $sock capture-pane -p -t $session | grep -c '^x Cancel')\" = 1"
# Esc goes back; the run goes on, and says so from every view.
keys Escape
wait_for "Esc goes back to the runs list" '^ Started +Host' 5 || exit 0
wait_for "a ● on the Runs tab" ' 3 Runs ● ' 5
wait_for "the status line says a run is under way" '^● run under way \(r shows it\)' 5
keys 1
wait_for "the ● shows on the dashboard too" '^● run under way \(r shows it\) · Arrows' 5
tap_check "Esc left the run going" kill -0 "$runpid"
# q asks first; n leaves the run going.
keys q
wait_for "q during a run asks first" 'A run is under way: quit and cancel it\? y/n' 5
keys n
wait_for "n: nothing is done" 'Not done' 5
tap_check "the run still goes after q n" kill -0 "$runpid"
keys r
wait_for "r shows the run under way again" '^ running · 1 of 4 checks done' 5
# x asks first too.
keys x
wait_for "x asks first" 'Cancel the run\? The checks done are kept\. y/n' 5
keys Escape
wait_for "Esc answers no" 'Not done' 5
tap_check "the run still goes after x Esc" kill -0 "$runpid"
keys x
wait_for "x asks again" 'Cancel the run\? The checks done are kept\. y/n' 5
keys y
wait_for "x cancels: the run ends as cancelled" '^ cancelled · ' 20 || exit 0
wait_for "the status line says so" 'The run ended: cancelled'
tap_check "the count says the checks that ran, not those the cancel stopped" \
    sh -c "tmux -L $sock capture-pane -p -t $session | grep -qE '^ cancelled · 1 of 4 checks done'"
tap_check "and the line under it says cancelled, no expectation judged" \
    sh -c "tmux -L $sock capture-pane -p -t $session | grep -q '^ Cancelled: the checks done are kept; nothing is judged' &&
           ! tmux -L $sock capture-pane -p -t $session | grep -qi 'expectation'"
tap_check "after the cancel the key bar no longer offers x Cancel" sh -c "test \"\$(tmux -L $sock capture-pane -p -t $session | grep -c 'x Cancel')\" = 0"
tap_check "and the Runs tab has no ●" sh -c "! tmux -L $sock capture-pane -p -t $session | grep -q ' 3 Runs ●'"
run=$(pane | sed -nE 's/^ run ([0-9a-f-]{36}) .*/\1/p' | head -1)
tap_check "the live view names the run ($run)" test -n "$run"
json=$KL_TMP/run.json
"$KLADDER" --db "$db" results "$run" --json >"$json" 2>&1
tap_check "the run is recorded as cancelled" \
    python3 -c "import json,sys; d=json.load(open('$json')); sys.exit(d['verdict'] != 'cancelled')"
tap_check "the finished check kept its verdict (pass)" \
    python3 -c "import json,sys; d=json.load(open('$json')); c=[c for c in d['checks'] if c['seq']==0]; sys.exit(not c or c[0]['verdict'] != 'pass')"
tap_check "no check is left running" \
    python3 -c "import json,sys; d=json.load(open('$json')); sys.exit(any(c['verdict']=='running' for c in d['checks']))"
alive=""
for p in $procs; do kill -0 "$p" 2>/dev/null && alive="$alive $p"; done
tap_check "neither the run nor its worker is left behind ($procs)" test -z "$alive"
keys Enter
wait_for "Enter opens the cancelled run's checks" 'Check 1 of [0-9]+ · m the machine'
tui_quit
