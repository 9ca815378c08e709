# Small screens in a real terminal: the launch panel at 80x24 wraps a backend's long reason
# (here a CUDA library path that does not exist) instead of cutting it, and the dashboard at
# 60x16 keeps its corner heading apart from R1.
. tests/e2e/tui_run_lib
kl_need "tmux is not installed (scripts/deps.sh --test installs it)" tmux
db=$KL_TMP/small.db
# a path long enough that the reason passes 200 bytes (the panel once kept only 199)
lib=/opt/no-such-vendor/a-rather-long-install-prefix/lib64/x86_64-linux-gnu/libcuda-for-the-wrap-test.so.1
tui_start "$db" "KLADDER_CUDA_LIBRARY=$lib"
wait_for "the dashboard comes up" '1 Dashboard.*3 Runs.*4 Compare' || exit 0
tm resize-window -t "$session" -x 60 -y 16
wait_for "60x16: the corner heading stays apart from R1" '^ gap +R1 +R2' 5
tm resize-window -t "$session" -x 80 -y 24
wait_for "80x24: the dashboard redraws" '^ gap \\ rung +' 5
keys 2 /
keys -l 1220
keys Enter Enter
wait_for "the flydsl-1220 case opens" 'The test that catches it' || exit 0
keys r
wait_for "r opens the launch panel" 'Run case flydsl-1220' || exit 0
wait_for "kladder devices answered: cuda is unavailable" '^ cuda  unavailable: ' || exit 0
# The reason, joined from its wrapped lines, is whole: the path and the end of the sentence.
reason=$(pane | sed -n '/^ cuda  unavailable: /,/^ cpu /p' | grep -v '^ cpu ' | sed -E 's/^ +//' | tr '\n' ' ')
tap_check "the reason wraps over more than one line" \
    test "$(pane | sed -n '/^ cuda  unavailable: /,/^ cpu /p' | grep -vc '^ cpu ')" -ge 2
tap_check "the reason is whole: it ends as kladder devices says ($reason)" \
    sh -c "printf '%s' \"\$1\" | grep -q 'no NVIDIA driver is installed here'" _ "$reason"
tap_check "the wrapped lines are indented under the name" \
    sh -c "pane() { tmux -L $sock capture-pane -p -t $session; }; pane | sed -n '/^ cuda  unavailable: /,/^ cpu /p' | sed -n 2p | grep -q '^       [^ ]'"
tap_check "nothing is cut with an ellipsis" sh -c "! printf '%s' \"\$1\" | grep -q '…'" _ "$reason"
keys Escape
tui_quit
