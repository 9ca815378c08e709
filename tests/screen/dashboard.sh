# The dashboard matrix at three terminal sizes, in English and in Chinese; Enter on a cell opens
# the case list filtered to that gap and rung.
. tests/screen/screen_lib

screen_run 80x24 ':save-screen dashboard-80x24
:resize 120 40
:save-screen dashboard-120x40
:resize 200 60
:save-screen dashboard-200x60
:resize 80 24
L
:save-screen dashboard-zh-80x24
L
j
j
j
j
l
l
l
l
:save-screen dashboard-cursor
t
:save-screen dashboard-theme-light
t
t
t
:save-screen dashboard-theme-back
Enter
:save-screen dashboard-cell-opens-cases'
for s in dashboard-80x24 dashboard-120x40 dashboard-200x60 dashboard-zh-80x24 dashboard-cursor \
         dashboard-cell-opens-cases; do
    screen_check "$s"
done
# The matrix itself: rung 8 closes every gap, and gap 5 x rung 5 holds the 3 timing cases.
tap_check "rung 8 column marked on every gap row" \
    test "$(grep -c '●$' "$SCREENS/dashboard-80x24.screen")" -eq 7
tap_check "cell 5x5 counts 3 cases" grep -q '^ 5 Timing .*● 3' "$SCREENS/dashboard-80x24.screen"
tap_check "cell opens the list filtered to gap 5, rung 5" \
    grep -q 'Case 1 of 3 (9 in the index) · gap 5 Timing · rung 5 Repeat' "$SCREENS/dashboard-cell-opens-cases.screen"
tap_check "t switches to the light theme" grep -q '· light $\|· light$' "$SCREENS/dashboard-theme-light.screen"
tap_check "four t cycle back to default" cmp -s "$SCREENS/dashboard-cursor.screen" "$SCREENS/dashboard-theme-back.screen"

# The index as shipped, at 120 and 100 columns: the longest gap name whole, and a "· N" cell (cases
# first caught by a rung that does not close their gap) beside the legend that explains it.
"$KLADDER" --db "$KL_TMP/shipped.db" cases >/dev/null
SCREEN_DB=$KL_TMP/shipped.db SCREEN_KEEP_DB=1 screen_run 120x40 ':save-screen dashboard-shipped-120
:resize 100 24
:save-screen dashboard-shipped-100'
s=$SCREENS/dashboard-shipped-120.screen
sed 's/^/# /' "$s" | head -n 14
tap_check "120 columns: the longest gap name is whole" grep -q '^ 3 Layout, dtype & hardware contract  ' "$s"
tap_check "100 columns: still whole" \
    grep -q '^ 3 Layout, dtype & hardware contract  ' "$SCREENS/dashboard-shipped-100.screen"
tap_check "a '· N' cell is on the matrix" grep -qE '^ [1-7] .* · [0-9]+ ' "$s"
tap_check "and the legend says what a dot and a number mean" \
    grep -q '· it does not   number: cases of the gap first caught at the rung' "$s"
