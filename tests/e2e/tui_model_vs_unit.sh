# Unit test vs model in a real terminal: on flydsl-1213's case, u runs rung 8's built-in model
# with the case's buggy router swapped in, beside the router's plain unit test. The live view
# shows the unit test passing the kernel that fails the model; the run's swap check gives the
# model's score and its first wrong token; the dashboard's rung 8 cell shows the latest score.
. tests/e2e/tui_run_lib
kl_need "tmux is not installed (scripts/deps.sh --test installs it)" tmux
export XDG_DATA_HOME=$KL_TMP/data XDG_CACHE_HOME=$KL_CACHE
db=$KL_TMP/mvu.db
tui_start "$db" XDG_DATA_HOME="$XDG_DATA_HOME" XDG_CACHE_HOME="$XDG_CACHE_HOME"
wait_for "the dashboard comes up" '1 Dashboard.*3 Runs.*4 Compare' || exit 0
keys 2 /
keys -l 1213
keys Enter Enter
wait_for "the flydsl-1213 case opens" 'The test that catches it' || exit 0
keys u
wait_for "u starts the rung 8 run of the case" 'run --rung 8 --case flydsl-1213 --variant both' 10 || exit 0
wait_for "the run ends with every expectation met" '^ pass · 3 of 3 checks done' 120 || exit 0
wait_for "the router's unit test passes the buggy kernel" '✓ pass +baseline-buggy +unit-test-'
wait_for "the model with it swapped in fails" '✗ fail +buggy +model:swap:route_buggy'
keys Enter G
wait_for "the swap check: the model's score and its first diverging step" \
    'Score +score 0.[0-9]+ \(baseline 1, 8 samples, first diverging step [0-9]\)'
wait_for "... and its first wrong token beside the reference's" \
    'first wrong token at step [0-9]: [0-9]+, the reference [0-9]+'
keys 1
wait_for "the dashboard's rung 8 cell: the fixed model's latest score" '^ ▸ local +✓ 1 *$'
tui_quit
