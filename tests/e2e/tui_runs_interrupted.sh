# A TUI left open notices a run killed elsewhere. A `kladder run` started outside the interface
# (its second check hangs for a limit far longer than the test waits) is listed as running; it
# is then killed with SIGKILL, and the next frame of the open Runs view shows it interrupted,
# with the check it had finished. Without the Runs view looking again, the run stayed
# "… running" on screen until the interface was restarted. The kill lands mid-run
# deterministically: it is sent once the first check is recorded, while the second hangs.
. tests/e2e/tui_run_lib
kl_need "tmux is not installed (scripts/deps.sh --test installs it)" tmux
export XDG_DATA_HOME=$KL_TMP/data XDG_CACHE_HOME=$KL_CACHE
db=$KL_TMP/killed.db
"$KLADDER" --db "$db" run --rung 1 --suite tests/engine/fixtures/hang.json --backend cpu \
    --timeout 300 --no-progress >"$KL_TMP/run.txt" 2>&1 &
owner=$!
checks=0
for _ in $(seq 1 $((600 * slow))); do # the first check recorded: the second one hangs
    checks=$("$KLADDER" --db "$db" results --json 2>/dev/null |
        python3 -c 'import json,sys; r=json.load(sys.stdin); print(sum(r[0]["counts"].values()) if r else 0)' 2>/dev/null)
    [ "${checks:-0}" -ge 1 ] && break
    sleep 0.1
done
tap_check "the run outside the interface recorded a check" test "${checks:-0}" -ge 1
tui_start "$db" "XDG_DATA_HOME=$KL_TMP/data XDG_CACHE_HOME=$KL_CACHE"
wait_for "the dashboard comes up" '1 Dashboard.*3 Runs.*4 Compare' || { kill -KILL $owner; exit 0; }
keys 3
wait_for "the Runs view lists the run as running" ' hang-test +… running ' 10
kill -KILL $owner
wait $owner 2>/dev/null
sleep 0.5 # its worker dies with it
tap_check "the run's process is gone" sh -c "! kill -0 $owner 2>/dev/null"
keys j # any key draws the next frame
wait_for "the open Runs view now shows it interrupted" ' hang-test +↯ interrupted ' 10
wait_for "with the check it had finished" ' hang-test +↯ interrupted +[0-9]+ passed' 5
keys Enter
wait_for "its checks are kept" '↯ interrupted · run ' 5
tui_quit
