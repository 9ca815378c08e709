# A host renamed from another terminal (`kladder hosts rename`) while the interface is open:
# the next key shows the new name, in Compare's sides and the Runs list, without a restart
# (the interface notices that another process changed the database and reads it again).
. tests/e2e/tui_run_lib
kl_need "tmux is not installed (scripts/deps.sh --test installs it)" tmux
export XDG_DATA_HOME=$KL_TMP/data
db=$KL_TMP/rename.db
"$KLADDER" --db "$db" hosts add h200 "file://$PWD/bench/results/h200-2026-11-29/export.json" >/dev/null
"$KLADDER" --db "$db" pull >/dev/null 2>&1
tap_check "the H200 results pulled" test $? = 0
tui_start "$db"
wait_for "the dashboard comes up" '1 Dashboard.*3 Runs.*4 Compare' || exit 0
keys 4
wait_for "Compare names the host h200" '^ A h200 \(host, 34 runs\)' 10 || exit 0
"$KLADDER" --db "$db" hosts rename h200 gpu-box >"$KL_TMP/rename.txt" 2>&1
tap_check "kladder hosts rename in another terminal" test $? = 0
keys 4
wait_for "the next key shows the new name in Compare" '^ A gpu-box \(host, 34 runs\)' 10
tap_check "and the old one is gone" sh -c "! tmux -L $sock capture-pane -p -t $session | grep -q 'h200 (host'"
keys 3
wait_for "the Runs list shows the new name too" ' vm@gpu-box ' 10
tui_quit
