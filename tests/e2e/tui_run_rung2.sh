# Rung 2 from the interface: r on the case detail of each gap-2 case (flydsl-1020, flydsl-1213,
# atom-1750, aiter-5801, aiter-6127) offers its reproducer's rung 2 suite at once (flydsl-1020,
# whose suite also lists rung 1, offers --case first and rung 2 beside it); on atom-1750
# the row of rung 2's own option --inputs (from its entry) takes a folder of captures of one's
# own (typed at the prompt, passed as --inputs), the run replays them, and the run view shows each check's values (a value class,
# or the replayed file).
. tests/e2e/tui_run_lib
kl_need "tmux is not installed (scripts/deps.sh --test installs it)" tmux
caps=$KL_TMP/caps
mkdir -p "$caps"
cp kernels/captures/atom-1750-prompt.npy "$caps/x.npy" # named after the suite's input buffer
db=$KL_TMP/rung2.db
tui_start "$db"
wait_for "the dashboard comes up" '1 Dashboard.*3 Runs.*4 Compare' || exit 0
keys 2
for c in flydsl-1020 flydsl-1213 aiter-5801 aiter-6127 atom-1750; do
    keys /
    keys -l "$c"
    keys Enter Enter
    wait_for "$c: the case opens" 'The test that catches it' || exit 0
    keys r
    wait_for "$c: r opens the launch panel" "Run case $c" || exit 0
    if [ $c = flydsl-1020 ]; then # rung 1 (its call past 2^31) too: --case first, then each rung
        wait_for "$c: every rung of its suite first, in one key" "Run +‹ $c · every suite and rung"
        keys l l
    fi
    wait_for "$c: its rung 2 reproducer is offered" "Run +‹ $c · rung 2 ›"
    wait_for "$c: with rung 2's --inputs row" '--inputs +‹ not given \(rung 2: replay captured tensors'
    [ $c = atom-1750 ] && break
    keys Escape
    wait_for "$c: Esc goes back to the case" 'The test that catches it'
    keys Escape
done
# atom-1750 has one suite and one rung: the panel starts on Backend; k k is the --inputs row.
keys l
wait_for "h/l change the backend to cpu" 'Backend +‹ cpu ›'
keys j j l l
wait_for "variants: buggy" 'Variants +‹ buggy ›'
keys k k k k
wait_for "the --inputs row is selected" '--inputs +‹ not given'
keys Enter
keys -l "$caps"
keys Enter
wait_for "the typed folder is the inputs" "--inputs +‹ $caps ›"
wait_for "--inputs is on the command line" "--inputs"
tap_check "the command line runs rung 2 of atom-1750 with --inputs and the folder" \
    bash -c "tmux -L '$sock' capture-pane -p -J -t '$session' | tr -s ' \n' ' ' | grep -qE -- 'run --rung 2 --suite atom-1750 .*--inputs $caps '"
keys j
keys Enter
wait_for "the run ends with its expectation met" '^ pass · [0-9]+ of [0-9]+ checks done' 90 || exit 0
wait_for "the replay of one's own capture ran" 'replay-inputs'
keys Enter
wait_for "Enter opens the run's checks" 'Check 1 of [0-9]+ · m the machine'
keys G
wait_for "the replay's values name the file" "values replay: x from $caps/x.npy \(x\)"
keys k k
wait_for "a sweep check has none" 'chunk-S129 · buggy'
pane >"$KL_TMP/sweep.txt"
tap_check "the sweep's detail names no values" bash -c "! grep -q ' · values ' '$KL_TMP/sweep.txt'"
keys g j
wait_for "a value-class check names its class" 'rung 2 · atom-1750 · values zero-rows'
tui_quit
