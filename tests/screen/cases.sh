# The case list: filtering by gap 5 from the sidebar (keyboard and mouse), counts in the
# sidebar, clearing filters, the Chinese columns.
. tests/screen/screen_lib

screen_run 80x24 'Tab
:save-screen cases-all
h
j
j
j
j
Enter
:save-screen cases-gap5
x
:save-screen cases-cleared
:click 5 10
:save-screen cases-click-rung
L
:save-screen cases-zh'
for s in cases-all cases-gap5 cases-cleared cases-click-rung cases-zh; do
    screen_check "$s"
done
g5=$SCREENS/cases-gap5.screen
tap_check "gap 5 filter lists exactly the three timing cases" \
    test "$(grep -c ' G5 ' "$g5")" -eq 3
tap_check "no other gap in the gap-5 list" test "$(grep -cE ' G[123467] ' "$g5")" -eq 0
tap_check "clearing brings back all 9" grep -q '^Case 1 of 9 (9 in the index)$' "$SCREENS/cases-cleared.screen"
tap_check "clearing gives the same screen as before filtering" \
    cmp -s <(sed 1d "$SCREENS/cases-all.screen" | sed '/^Gaps/d') \
           <(sed 1d "$SCREENS/cases-cleared.screen" | sed '/^Gaps/d')

# Chinese titles are two cells per character: every column after them still lines up.
zh=$SCREENS/cases-zh.screen
bad=$(awk 'NR > 2 && NR < 12 { if (index($0, "│") == 0) next; print }' "$zh" |
      python3 -c 'import sys, unicodedata
def w(s): return sum(2 if unicodedata.east_asian_width(c) in "WF" else 1 for c in s)
cols = {w(l.split("│")[0]) for l in sys.stdin.read().splitlines()}
print(len(cols))')
tap_check "the sidebar border sits in one column on every Chinese row" test "$bad" = 1
