# Lag builds from the interface: the launch panel's Lag row offers kladder run's auto (the
# default, no flag), off, seeds 1-4 one wave behind and seeds 1-4 ahead. On aiter-4841 (r on
# the case opens its rung 5 reproducer) with the cpu backend, choosing ahead puts
# --lag ahead:1,ahead:2,ahead:3,ahead:4 on the command line, and the run's checks include the
# ahead copies.
. tests/e2e/tui_run_lib
kl_need "tmux is not installed (scripts/deps.sh --test installs it)" tmux
db=$KL_TMP/lag.db
tui_start "$db"
wait_for "the dashboard comes up" '1 Dashboard.*3 Runs.*4 Compare' || exit 0
keys 2
keys /
keys -l aiter-4841
keys Enter Enter
wait_for "aiter-4841: the case opens" 'The test that catches it' || exit 0
keys r
wait_for "r opens the launch panel" "Run case aiter-4841" || exit 0
wait_for "its rung 5 reproducer is offered" "Run +‹ aiter-4841 · rung 5 ›"
wait_for "the Lag row starts on kladder run's auto" 'Lag +‹ auto: seeds 1-4 behind and ahead on a GPU'
tap_check "auto puts no --lag on the command line" \
    bash -c "! tmux -L '$sock' capture-pane -p -J -t '$session' | tr -s ' \n' ' ' | grep -q -- '--lag'"
# One target: the panel opens on Backend; the cpu is offered once kladder devices has answered.
wait_for "kladder devices lists the cpu backend" 'cpu +available'
keys l
wait_for "h/l change the backend to cpu" 'Backend +‹ cpu ›'
keys k k # up past Run to the last row, Lag (rung 5 has no options of its own below it)
wait_for "the Lag row is selected" 'Lag +‹ auto'
keys l
wait_for "l: off" 'Lag +‹ off ›'
wait_for "--lag off is on the command line" '--lag off'
keys l l
wait_for "l l: seeds 1-4 ahead" 'Lag +‹ ahead:1-4: one wave ahead of all the others ›'
tap_check "the command line runs rung 5 of aiter-4841 on the cpu with the ahead seeds" \
    bash -c "tmux -L '$sock' capture-pane -p -J -t '$session' | tr -s ' \n' ' ' | grep -qE -- 'run --rung 5 --suite aiter-4841 --backend cpu .*--lag ahead:1,ahead:2,ahead:3,ahead:4 '"
keys Enter
wait_for "the run ends with its expectation met" '^ pass · [0-9]+ of [0-9]+ checks done' 120 || exit 0
keys Enter
wait_for "Enter opens the run's checks" 'Check 1 of [0-9]+ · m the machine'
keys G
wait_for "the last checks are the ahead copies" 'repeat-default-ahead4'
tui_quit
