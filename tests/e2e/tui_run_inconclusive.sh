# A run launched from the interface whose checks that reach the bug are all skipped is
# inconclusive, not a pass: atom-2533's rung 4, buggy variant, on the cpu backend with its row
# samples turned off (KLADDER_CPU_SAMPLE=0), so that the full-pool checks need a 4 GiB input
# beyond the cpu's reach (the baselines still run). The live view and the status line say
# "inconclusive"; the record is not a pass.
. tests/e2e/tui_run_lib
kl_need "tmux is not installed (scripts/deps.sh --test installs it)" tmux
db=$KL_TMP/inconclusive.db
tui_start "$db" KLADDER_CPU_SAMPLE=0
wait_for "the dashboard comes up" '1 Dashboard.*3 Runs.*4 Compare' || exit 0
keys 2 /
keys -l 2533
keys Enter Enter
wait_for "the atom-2533 case opens" 'The test that catches it' || exit 0
keys r
wait_for "r opens the launch panel" 'Run case atom-2533' || exit 0
wait_for "the panel lists the case's suite" 'Run +‹ atom-2533 · rung 4 ›' || exit 0
wait_for "kladder devices answered: the cpu backend is available" 'cpu +available: 1 device'
keys l
wait_for "h/l change the backend to cpu" 'Backend +‹ cpu ›'
keys j j l l
wait_for "variants: buggy" 'Variants +‹ buggy ›'
keys Enter
wait_for "the live view starts" 'of [0-9]+ checks done' 10 || exit 0
wait_for "the run ends inconclusive, not pass" '^ inconclusive · ([0-9]+) of \1 checks done' 90 || exit 0
wait_for "the live view says why" 'Inconclusive: the checks that reach the bug were skipped'
wait_for "the status line says so" 'The run ended: inconclusive'
run=$(pane | sed -nE 's/^ run ([0-9a-f-]{36}) .*/\1/p' | head -1)
tap_check "the live view names the run ($run)" test -n "$run"
"$KLADDER" --db "$db" results "$run" --json >"$KL_TMP/run.json" 2>&1
# the run's own verdict comes first in the document, before its checks'
tap_check "the run is recorded as skip (nothing concluded), not pass" \
    test "$(grep -m1 -oE '"verdict":[[:space:]]*"[a-z]+"' "$KL_TMP/run.json" | grep -oE '[a-z]+"$')" = 'skip"'
tui_quit
