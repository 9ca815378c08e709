# The Compare tab in a real terminal (its own tmux socket): the summary names the faster host,
# a search narrows the rows, s sorts by ratio, Enter opens the matched check (not the run's
# first), and at 60x16 the heading lines stay one line each with the Check column kept.
. tests/e2e/tui_run_lib
. tests/screen/runs_lib

results_docs "$KL_TMP/docs" && results_db "$KL_TMP/cmp.db" "$KL_TMP/docs" pull
tap_check "two hosts pulled (h200, and cpubox 3x slower on two checks of three)" test $? = 0

tui_start "$KL_TMP/cmp.db"
keys 4
wait_for "the summary names the faster host" '^ B \(h200\) is 2\.08× faster than A \(cpubox\)' || exit 0
wait_for "the counts say what is flagged and what is noise" '^ 18 rows · ! 12 flagged · ~ 6 within noise · \? 0 not judged'
keys / c h e c k - 5 Enter
wait_for "/ narrows the rows to check-5" '^Row 1 of 3 · /check-5'
keys x s
wait_for "s sorts by ratio, B slowest first" '^Row 1 of 18 · sorted by ratio'
wait_for "the sorted column is marked" 'B vs A↓'
keys x j j j j j Enter
wait_for "Enter opens the matched check in B's run" '^ ✗ fail · check-5 · buggy'
wait_for "the list has it selected" '^Check 6 of 6 '
keys 4
wait_for "back on Compare" '^Row 6 of 18'
tm resize-window -t "$session" -x 60 -y 16
wait_for "60x16: the counts fit one line" '^ 18 rows · !12 ~6 \?0 ≠1 · A 0 B 0 *$'
wait_for "60x16: Check stays, columns apart" '^   R   Suite    Check +Variant +B vs A   A/B *$'
p=$(pane)
tap_check "60x16: the summary is cut, not wrapped onto the next line" \
    sh -c "printf '%s\n' \"\$1\" | sed -n 4p | grep -q '^ B (h200) is 2.08× faster than A (cpubox), geometric mean …' &&
           printf '%s\n' \"\$1\" | sed -n 5p | grep -q '^ 18 rows'" _ "$p"
tui_quit
