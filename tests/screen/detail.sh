# The detail view of a case in English and in Chinese, following a related case and coming back,
# and q closing the detail before it quits.
. tests/screen/screen_lib

screen_run 100x40 'Tab
Enter
:save-screen detail-en
L
:save-screen detail-zh
L
G
:save-screen detail-end
Enter
:save-screen detail-related
Esc
:save-screen detail-back
q
:save-screen detail-closed'
for s in detail-en detail-zh detail-end detail-related detail-back detail-closed; do
    screen_check "$s"
done
tap_check "Esc comes back to the first case" grep -q '^ aiter-100 ' "$SCREENS/detail-back.screen"
tap_check "related case opened" grep -q '^ flydsl-900 ' "$SCREENS/detail-related.screen"
tap_check "q closes the detail: the list is back" grep -q 'Case .*Repo' "$SCREENS/detail-closed.screen"
tap_check "unverified refs carry a badge" grep -q 'aiter#100 .*unverified' "$SCREENS/detail-en.screen"
# In Chinese, the field labels keep the values in one column.
tap_check "Chinese field values aligned" test "$(grep -cE '^ (缺口|也属于|阶梯|症状) {4,}[0-9a-z]' \
    "$SCREENS/detail-zh.screen")" -eq 4
