# A suite of one's own (no expectation of its bug) whose bug rung 1 does not catch, run from the
# interface with o: the live view's last line says every expectation was met but no rung caught
# the bug, as the CLI's report does, instead of "buggy caught where it ran".
. tests/e2e/tui_run_lib
kl_need "tmux is not installed (scripts/deps.sh --test installs it)" tmux
export XDG_DATA_HOME=$KL_TMP/data XDG_CACHE_HOME=$KL_CACHE
mine=$KL_TMP/mine
mkdir -p "$mine"
cp tests/engine/fixtures/rowscale.kl "$mine/"
python3 - tests/engine/fixtures/rowscale.json "$mine/r1.json" <<'PY'
import json, sys
m = json.load(open(sys.argv[1]))
m["rungs"] = {"1": {}}  # rung 1's shapes never reach this bug
m.pop("expect_caught", None)  # a user's own suite: no expectation of its bug
json.dump(m, open(sys.argv[2], "w"))
PY
"$KLADDER" --db "$KL_TMP/cli.db" run --suite "$mine/r1.json" --backend cpu --no-progress \
    >"$KL_TMP/cli.txt" 2>&1
tap_check "the CLI: met, and the bug caught by no rung" \
    sh -c "grep -q '^expectation met' '$KL_TMP/cli.txt' && grep -q '^rowscale-test: the bug is caught by no rung' '$KL_TMP/cli.txt'"
db=$KL_TMP/tui.db
tui_start "$db" XDG_DATA_HOME="$KL_TMP/data" XDG_CACHE_HOME="$KL_CACHE" XDG_STATE_HOME="$KL_TMP/state"
wait_for "the dashboard comes up" '1 Dashboard.*3 Runs.*4 Compare' || exit 0
keys 3 o
wait_for "o asks for the suite file" 'Suite file:' || exit 0
keys C-u
keys -l "$mine/r1.json"
keys Enter
wait_for "the launch panel opens on the suite" 'Run suite rowscale-test' || exit 0
wait_for "kladder devices answered: the cpu backend is available" 'cpu +available: 1 device'
keys l
wait_for "h/l change the backend to cpu" 'Backend +‹ cpu ›'
keys Enter
wait_for "the run ends" 'checks done' 20 || exit 0
wait_for "the live view says no rung caught the bug, not 'buggy caught where it ran'" \
    'Every expectation met, but no rung caught the bug of rowscale-test' $((60 * slow))
pane >"$KL_TMP/end.txt"
tap_check "and never the old line" bash -c "! grep -q 'buggy caught where it ran' '$KL_TMP/end.txt'"
