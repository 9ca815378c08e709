# The mouse: clicking tabs, a sidebar filter, a row (twice opens it), a key bar label, and the
# wheel. Cells are 0-based (column, row).
. tests/screen/screen_lib

screen_run 80x24 ':click 25 0
:save-screen mouse-tab-cases
:click 5 5
:save-screen mouse-sidebar-gap4
:click 5 5
:click 30 3
:click 30 3
:save-screen mouse-row-opens
:click 53 0
:wheel down 30 10
:wheel down 30 10
:save-screen mouse-wheel
:click 61 23
:save-screen mouse-keybar-quit'
for s in mouse-tab-cases mouse-sidebar-gap4 mouse-row-opens mouse-wheel; do
    screen_check "$s"
done
tap_check "the Cases tab opens the list" grep -q '^Case 1 of 9' "$SCREENS/mouse-tab-cases.screen"
tap_check "a sidebar click filters gap 4" grep -q '· gap 4 Execution environment' "$SCREENS/mouse-sidebar-gap4.screen"
tap_check "a second click on a row opens it" grep -q '^ aiter-200 ' "$SCREENS/mouse-row-opens.screen"
tap_check "the Help tab, scrolled by the wheel past its title" \
    sh -c "grep -q 'Keys everywhere\|Page down' '$SCREENS/mouse-wheel.screen' && ! grep -q 'know the gaps' '$SCREENS/mouse-wheel.screen'"
tap_check "clicking 'q Quit' in the key bar quits" test ! -e "$SCREENS/mouse-keybar-quit.screen"
