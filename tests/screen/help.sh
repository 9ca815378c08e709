# Help, generated from the action table, in both languages; `/` finds text in it.
. tests/screen/screen_lib

screen_run 100x100 '?
:save-screen help-en
L
:save-screen help-zh
L
/
:type theme
Enter
:save-screen help-find'
for s in help-en help-zh help-find; do
    screen_check "$s"
done
# Every action of the table appears: count the help lines against tui/actions.def.
n_actions=$(grep -c '^ACT(' tui/actions.def)
tap_check "one help line per action ($n_actions)" \
    test "$(grep -cE '^ \S.{0,14}  +\S' "$SCREENS/help-en.screen")" -ge "$n_actions"
tap_check "the key bar's labels come from the same table" \
    grep -q '^Enter Open / Search Esc Back Tab View L 中文 t Theme ? Help q Quit' "$SCREENS/help-en.screen"
# docs/tui.md carries the same key table: every action's English help must appear there.
missing=$(sed -nE 's/^ACT\([A-Z_]+, *[A-Z]+, *"[^"]*", *(NULL|"[^"]*"), *(NULL|"[^"]*"), *"([^"]*)".*/\3/p' tui/actions.def |
          while IFS= read -r h; do grep -qF -- "$h" docs/tui.md || echo "$h"; done)
if [ -z "$missing" ]; then
    tap_ok "docs/tui.md lists every action of tui/actions.def"
else
    tap_fail "docs/tui.md lists every action of tui/actions.def"
    printf '# missing: %s\n' "$missing"
fi
# A find for a word the page does not hold says so and leaves the page where it was.
screen_run 100x30 '?
:save-screen help-top
/
:type zqxwv
Enter
:save-screen help-not-found
n
:save-screen help-not-found-n'
nf=$SCREENS/help-not-found.screen
tap_check "a word not on the page: the status line says not found" \
    grep -q 'Find: zqxwv   not found' "$nf"
tap_check "and the page did not move" \
    test "$(sed -n 2,27p "$SCREENS/help-top.screen")" = "$(sed -n 2,27p "$nf")"
tap_check "n finds nothing either, and stays" \
    sh -c "grep -q 'not found' '$SCREENS/help-not-found-n.screen' && test \"\$(sed -n 2,27p '$SCREENS/help-top.screen')\" = \"\$(sed -n 2,27p '$SCREENS/help-not-found-n.screen')\""
