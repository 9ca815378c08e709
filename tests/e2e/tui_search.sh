# Search in a real terminal (tmux sends the space as the byte 0x20): `prefix caching` finds
# atom-2533 as `kladder cases --search` does; in its detail a new `/` starts empty; `2` then
# shows the list (not the detail), so `/ 6344 Enter r` runs aiter-6344, not the case that was
# open; a run's checks refuse `/` and the digits typed after it switch nothing. Under NO_COLOR,
# t says that themes need colour and keeps the theme.
. tests/e2e/tui_run_lib
kl_need "tmux is not installed (scripts/deps.sh --test installs it)" tmux
db=$KL_TMP/search.db
cli=$("$KLADDER" --db "$db" cases --search "prefix caching" 2>&1 | grep -oE '^[a-z]+-[0-9]+' | tr '\n' ' ')
tap_check "the CLI finds atom-2533 for 'prefix caching' ($cli)" test "$cli" = "atom-2533 "
tui_start "$db" NO_COLOR=1
wait_for "the dashboard comes up" '1 Dashboard.*3 Runs.*4 Compare' || exit 0
keys t
wait_for "NO_COLOR: t says themes need colour" '^Themes need colour, and colour is off' 5
tap_check "NO_COLOR: the theme is still default" sh -c "tmux -L $sock capture-pane -p -t $session | head -1 | grep -q 'English · default'"
keys 2 /
keys -l "prefix caching"
wait_for "the prompt shows the space" '^/prefix caching' 5
keys Enter
wait_for "prefix caching finds one case" '^Case 1 of 1 \(32 in the index\) · search "prefix caching"$' 5 || exit 0
wait_for "and it is atom-2533" '│ atom-2533 ' 5
keys Enter
wait_for "Enter opens atom-2533" '^ atom-2533 ' 5 || exit 0
keys /
keys -l zzzz
keys Enter /
wait_for "a new / in the detail starts empty" '^/ *$' 5
keys -l Kimi
wait_for "what is typed is the new search alone" '^/Kimi *$' 5
keys Escape
keys 2
wait_for "2 from the detail shows the list" '^Case [0-9]+ of [0-9]+ \(32 in the index\)' 5 || exit 0
keys /
keys -l 6344
keys Enter
wait_for "/ 6344 finds aiter-6344" '^Case 1 of 1 .*search "6344"$' 5
keys r
wait_for "r opens the launch panel on aiter-6344 (not atom-2533)" '^ Run case aiter-6344' 10
keys Escape
tui_quit
