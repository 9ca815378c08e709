# Incremental search: a Chinese term and an English one, Esc restores, Enter keeps, n/N move.
. tests/screen/screen_lib

screen_run 80x24 'Tab
/
:type 挂
:save-screen search-zh-typing
Enter
:save-screen search-zh-kept
Esc
/
:type barr
:save-screen search-en-partial
:type ier
Enter
:save-screen search-en
/
:type zzz-no-such
:save-screen search-none
Esc
:save-screen search-after-cancel
x
/
:type the
Enter
n
n
:save-screen search-next
N
:save-screen search-prev'
for s in search-zh-typing search-zh-kept search-en-partial search-en search-none \
         search-after-cancel search-next search-prev; do
    screen_check "$s"
done
tap_check "挂 finds the two hang cases" test "$(grep -cE '^ .*│ (aiter-500|sglang-600) ' \
    "$SCREENS/search-zh-kept.screen")" -eq 2
tap_check "挂 finds nothing else" grep -q '^Case 1 of 2 (9 in the index) · search "挂"$' "$SCREENS/search-zh-kept.screen"
tap_check "the prompt shows while typing" grep -q '^/挂' "$SCREENS/search-zh-typing.screen"
tap_check "barrier finds sglang-600" grep -q 'sglang-600' "$SCREENS/search-en.screen"
tap_check "Esc restores the search that was kept" \
    grep -q '^Case 1 of 1 (9 in the index) · search "barrier"$' "$SCREENS/search-after-cancel.screen"
# "the" is in every case's text, but only some titles show it: n/N move between those rows.
tap_check "n twice: the second row whose title has 'the' (flydsl-400, row 4)" \
    grep -q '^Case 4 of 9 (9 in the index) · search "the"$' "$SCREENS/search-next.screen"
tap_check "N: back to the first one (flydsl-300, row 3)" \
    grep -q '^Case 3 of 9 (9 in the index) · search "the"$' "$SCREENS/search-prev.screen"
