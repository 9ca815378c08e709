# End to end in a real terminal: kladder in a detached tmux session at 100x30 on the built-in
# case index. Filter gap 5 from the sidebar, search, open the case, switch to Chinese, quit; the
# screen is checked at each step through capture-pane, and the process must exit 0.
. tests/lib.sh

: "${KLADDER:=build/kladder}"
: "${KL_TMP:=$(mktemp -d)}"
kl_need "tmux is not installed (scripts/deps.sh --test installs it)" tmux

sock=kladder-e2e-$$
session=kl
rcfile=$KL_TMP/tui.rc
tm() { tmux -L "$sock" "$@"; }
cleanup() { tm kill-server 2>/dev/null; }
trap cleanup EXIT

# A clean environment: UTF-8, a known terminal, no user theme or language.
tm -f /dev/null new-session -d -s "$session" -x 100 -y 30 \
    "env -u NO_COLOR -u KLADDER_LANG -u KLADDER_THEME -u KLADDER_SCRIPT LC_ALL=C.UTF-8 TERM=screen-256color \
     '$KLADDER' --db '$KL_TMP/e2e.db' 2>'$KL_TMP/stderr'; echo \$? >'$rcfile'; sleep 30"

# wait_for NAME PATTERN: polls the pane (every 0.1 s, at most 10 s) until grep -E finds PATTERN.
wait_for() {
    local name=$1 pattern=$2 i
    for i in $(seq 1 100); do
        if tm capture-pane -p -t "$session" 2>/dev/null | grep -qE -- "$pattern"; then
            tap_ok "$name"
            return 0
        fi
        sleep 0.1
    done
    tap_fail "$name (waited 10 s for /$pattern/)"
    tm capture-pane -p -t "$session" 2>/dev/null | sed 's/^/# /'
    return 1
}
keys() { tm send-keys -t "$session" "$@"; }

wait_for "the dashboard comes up" '1 Dashboard.*2 Cases.*3 Runs.*4 Compare.*5 Help' || exit 0
wait_for "the matrix shows the seven gaps" '^ 7 Software'
keys Tab
wait_for "Tab opens the case list" 'Case 1 of [0-9]+ \([0-9]+ in the index\)'
keys h j j j j Enter
wait_for "the sidebar filters gap 5" 'Case 1 of [0-9]+ \([0-9]+ in the index\) · gap 5 Timing'
keys /
keys -l 292
wait_for "the search filters as it is typed" '^/292'
keys Enter
wait_for "Enter keeps the search" 'Case 1 of 1 .*search "292"'
wait_for "the match is the 292,889,600-call case" 'aiter-4841'
keys Enter
wait_for "Enter opens the detail" 'The test that catches it'
# the helper sits below the case's text: one page down reaches it on a 30-row terminal
keys NPage
wait_for "the probability helper is one page down" 'Probability helper'
keys PPage
wait_for "one page up is the top again" 'The test that catches it'
keys L
wait_for "L switches to Chinese" '能发现它的测试'
wait_for "the tabs are in Chinese too" '1 仪表盘'
tm resize-window -t "$session" -x 50 -y 12
wait_for "a resize below 60x16 shows the too-small screen" '终端太小：50×12'
tm resize-window -t "$session" -x 100 -y 30
wait_for "growing the window brings the detail back" '能发现它的测试'
keys q
wait_for "q closes the detail first" '第 1 / 1 个'
keys q
for i in $(seq 1 100); do
    [ -s "$rcfile" ] && break
    sleep 0.1
done
tap_check "kladder exited after the second q" test -s "$rcfile"
tap_check "exit status 0" test "$(cat "$rcfile" 2>/dev/null)" = 0
tap_check "nothing on stderr" test ! -s "$KL_TMP/stderr"
