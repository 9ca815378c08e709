# Ctrl-C in the interface is its Quit key, not the end of the process: while a run is under way
# it asks first, as q does (n leaves the run going; the interface stays), and y quits after
# cancelling the run, which is then recorded as cancelled and leaves no process behind. With no
# run under way Ctrl-C quits at once, status 0, the terminal given back. (Killed by the signal,
# the interface used to vanish while its run went on and recorded a pass seconds later.)
. tests/e2e/tui_run_lib
kl_need "tmux is not installed (scripts/deps.sh --test installs it)" tmux
db=$KL_TMP/ctrlc.db
tui_start "$db" "KLADDER_SUITE_PATH=$PWD/tests/fixtures/tui_run/hang.json"
wait_for "the dashboard comes up" '1 Dashboard.*3 Runs.*4 Compare' || exit 0
keys 2 /
keys -l 4494
keys Enter r
wait_for "r on the case opens the launch panel" 'Run case aiter-4494' || exit 0
keys l
wait_for "the hanging suite is offered" 'Run +‹ tui-hang · rung 4 · .*hang.json ›' || exit 0
keys Enter
wait_for "the run reaches its hanging check" 'Now: unit-test-n256 · baseline-buggy' 30 || exit 0
runpid=$(pgrep -f "[k]ladder --db $db run" | head -1)
procs="$runpid $(pgrep -P "$runpid" 2>/dev/null | tr '\n' ' ')"
keys C-c
wait_for "Ctrl-C during a run asks first, as q does" 'A run is under way: quit and cancel it\? y/n' 5
tap_check "the interface is still there" test ! -s "$rcfile"
keys n
wait_for "n: nothing is done" 'Not done' 5
tap_check "the run still goes after Ctrl-C n" kill -0 "$runpid"
keys C-c
wait_for "Ctrl-C asks again" 'A run is under way: quit and cancel it\? y/n' 5
keys y
for _ in $(seq 1 $((100 * slow))); do
    [ -s "$rcfile" ] && break
    sleep 0.1
done
tap_check "y quits the interface, status 0 ($(cat "$rcfile" 2>/dev/null))" test "$(cat "$rcfile" 2>/dev/null)" = 0
tap_check "nothing on stderr" test ! -s "$KL_TMP/stderr"
verdict=none
for _ in $(seq 1 $((100 * slow))); do
    verdict=$("$KLADDER" --db "$db" results --json 2>/dev/null |
        python3 -c 'import json,sys; r=json.load(sys.stdin); print(r[0]["verdict"] if r else "none")')
    [ "$verdict" = cancelled ] && break
    sleep 0.1
done
tap_check "the run is recorded as cancelled, not finished later ($verdict)" test "$verdict" = cancelled
sleep 0.5
alive=""
for p in $procs; do kill -0 "$p" 2>/dev/null && alive="$alive $p"; done
tap_check "neither the run nor its worker is left behind ($procs)" test -z "$alive"
cleanup

# No run under way: Ctrl-C quits at once.
tui_start "$db"
wait_for "the dashboard comes up again" '1 Dashboard.*3 Runs.*4 Compare' || exit 0
keys C-c
for _ in $(seq 1 $((50 * slow))); do
    [ -s "$rcfile" ] && break
    sleep 0.1
done
tap_check "with no run under way Ctrl-C quits, status 0 ($(cat "$rcfile" 2>/dev/null))" \
    test "$(cat "$rcfile" 2>/dev/null)" = 0
