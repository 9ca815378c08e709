# The cases whose bug is not in a kernel, launched from the interface: r on aiter-6360 (rung 3's
# tuned-table seam) and on aiter-5133 (rung 7's ci-audit) runs the reproducer on the cpu
# backend; the run view's row of the check that caught the buggy variant starts with its
# finding, and the check's page shows it whole.
. tests/e2e/tui_run_lib
kl_need "tmux is not installed (scripts/deps.sh --test installs it)" tmux
db=$KL_TMP/py.db
tui_start "$db" "XDG_DATA_HOME=$KL_TMP/data" "XDG_CACHE_HOME=$KL_CACHE"
wait_for "the dashboard comes up" '1 Dashboard.*3 Runs.*4 Compare' || exit 0
keys 2
# case, its rung, the catching check's row in the run view, its number there, its finding
for spec in 'aiter-6360|3|tuned-table — 7 of 7 production shapes find no tuned row|7|3 lines from line 6: column ep: expected an int, got "8.0"' \
    'aiter-5133|7|ci-audit:op_tests — py/a5133/op_tests \(each file run as python3 FILE\)|11|test_flydsl_grouped_gemm.py defines 5, executed 0'; do
    IFS='|' read -r c rung row at finding <<<"$spec"
    keys /
    keys -l "$c"
    keys Enter Enter
    wait_for "$c: the case opens" 'The test that catches it' || exit 0
    keys r
    wait_for "$c: r offers its rung $rung reproducer" "Run +‹ $c · rung $rung ›" || exit 0
    wait_for "$c: kladder devices answered: the cpu backend is available" 'cpu +available: 1 device'
    # l moves auto to the first backend that loads (cpu here); a key that lands while the
    # panel still takes in the device list leaves auto, so it is pressed again.
    for _ in 1 2 3; do
        pane | grep -qE 'Backend +‹ cpu ›' && break
        keys l
        sleep 1
    done
    wait_for "$c: h/l change the backend to cpu" 'Backend +‹ cpu ›'
    keys Enter
    wait_for "$c: the run ends with every expectation met" '^ pass · [0-9]+ of [0-9]+ checks done' 120 || exit 0
    wait_for "$c: the run view's row starts with the finding" "✗ fail +buggy +$row"
    keys Enter
    wait_for "$c: Enter opens the run's checks" 'Check 1 of [0-9]+ · m the machine' || exit 0
    for _ in $(seq 1 "$at"); do keys j; done
    wait_for "$c: the catching check's page" "Check $((at + 1)) of [0-9]+ · m the machine"
    tap_check "$c: ... shows the finding" \
        bash -c "tmux -L '$sock' capture-pane -p -J -t '$session' | tr -s ' \n' ' ' | grep -qF -- '$finding'"
    keys Escape Escape Escape Escape
    sleep 0.5
    keys 2
    wait_for "$c: back to the cases" 'Gaps +│ Case +Repo' 5
done
tui_quit
